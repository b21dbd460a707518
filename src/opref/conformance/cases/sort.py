"""Cases for the sort/search ops: seeded random shapes, every element type, every mode/sort/axis
choice, many ties (values drawn from a few levels), ±Inf and integer limits, plus error cases; shape
cases loosen the same shapes and leave K unknown."""
from __future__ import annotations

import itertools

import numpy as np

from ...shapes import PartialShape
from ...types import element_type, element_type_of
from ...opset.sort import T_K, T_K_1, T_TOPK
from . import Case, ShapeCase, info
from ._gen import array, ints_array, loosen, rng_for

N = 150
TOPK_VERSIONS = ("TopK-1", "TopK-3", "TopK-11")
SPEC_K = ("the spec allows K in [1, data.shape[axis]] (OpenVINO infers a shape for K = 0 or K above the axis "
          "length, and its CPU plugin then fails to compile the model)")


def _tag(shape) -> str:
    return "x".join(map(str, shape)) or "scalar"


def _topk_data(rng, et, shape, i):
    """Random values; every third case from a few levels (ties), some with ±Inf or integer limits."""
    t = element_type(et)
    if i % 3 == 0 and t.name != "boolean":
        levels = array(rng, et, [3])
        x = levels[rng.integers(0, 3, shape)]
    else:
        x = array(rng, et, shape)
    if i % 7 == 3 and x.size:
        mask = rng.random(shape) < 0.3
        if t.is_float:
            specials = np.array([np.inf, -np.inf, 0.0, -0.0], np.float32).astype(t.dtype)
        elif t.bits >= 8 and t.name != "boolean":
            lim = np.iinfo(t.dtype)
            specials = np.array([lim.min, lim.max, 0], t.dtype)
        else:
            specials = x.reshape(-1)[:1]
        x = x.copy()
        x[mask] = specials[rng.integers(0, len(specials), int(mask.sum()))]
    return x


def _topk(op):
    rng = rng_for(op)
    types = itertools.cycle(T_TOPK)
    k_types = itertools.cycle(T_K_1 if op == "TopK-1" else T_K)
    modes = itertools.cycle(itertools.product(("max", "min"), ("value", "index", "none")))
    out = []
    for i in range(N):
        et, kt = next(types), next(k_types)
        mode, sort = next(modes)
        rank = int(rng.integers(1, 5))
        shape = [int(rng.integers(1, 5)) for _ in range(rank)]
        axis = int(rng.integers(-rank, rank))
        shape[axis] = int(rng.integers(1, 9))
        k = int(rng.integers(1, shape[axis] + 1))
        attrs = {"axis": axis, "mode": mode, "sort": sort, "index_element_type": ("i32", "i64")[i % 2]}
        if op == "TopK-11":
            attrs["stable"] = sort != "none" and bool(i % 4 < 2)
        x = _topk_data(rng, et, shape, i)
        out.append(Case(op, f"{i}_{et}_{_tag(shape)}_ax{axis}_k{k}_{mode}_{sort}", (x, ints_array(k, kt)), attrs))
    return out + _topk_edges(op) + _topk_errors(op)


def _topk_edges(op):
    """Hand-picked: the spec's example row, K equal to the axis length, a long axis with ties."""
    rng = rng_for(op, 1)
    base = {"index_element_type": "i32"} | ({"stable": True} if op == "TopK-11" else {})
    out = []
    row = np.array([5, 3, 1, 2, 5, 5], np.float32)
    for mode, sort in itertools.product(("max", "min"), ("value", "index")):
        out.append(Case(op, f"spec_row_{mode}_{sort}", (row, np.int64(4)), base | {"axis": 0, "mode": mode, "sort": sort}))
    for et in ("f32", "i32", "u8", "f16"):
        x = array(rng, et, [3, 40], 0, 5)
        out.append(Case(op, f"long_ties_{et}", (x, np.int32(17)), base | {"axis": 1, "mode": "max", "sort": "value"}))
        out.append(Case(op, f"all_of_axis_{et}", (x, np.int32(3)), base | {"axis": 0, "mode": "min", "sort": "value"}))
    return out


def _topk_errors(op):
    f = np.zeros((2, 3), np.float32)
    base = {"mode": "max", "sort": "value"}
    out = [
        Case(op, "err_k_zero", (f, np.int64(0)), base | {"axis": 1}, error="input 'k' must be >= 1"),
        Case(op, "err_k_large", (f, np.int64(4)), base | {"axis": 1}, error="larger than data dimension 1"),
        Case(op, "err_axis", (f, np.int64(1)), base | {"axis": 2}, error="attribute 'axis' = 2 is out of range"),
        Case(op, "err_axis_negative", (f, np.int64(1)), base | {"axis": -3}, error="out of range"),
        Case(op, "err_k_shape", (f, np.array([1, 2])), base | {"axis": 1}, error="input 'k' must be a scalar"),
        Case(op, "err_scalar_data", (np.float32(1), np.int64(1)), base | {"axis": 0}, error="rank > 0"),
        Case(op, "err_k_float", (f, np.float32(1)), base | {"axis": 1}, error="expected one of"),
        Case(op, "err_mode", (f, np.int64(1)), {"mode": "largest", "sort": "value", "axis": 1}, error="'mode'"),
        Case(op, "err_index_type", (f, np.int64(1)), base | {"axis": 1, "index_element_type": "u32"},
             error="'index_element_type'"),
        Case(op, "err_missing_sort", (f, np.int64(1)), {"mode": "max", "axis": 1}, error="missing required attribute 'sort'"),
    ]
    if op == "TopK-11":
        out.append(Case(op, "err_stable_none", (f, np.int64(1)), {"mode": "max", "sort": "none", "axis": 1, "stable": True},
                        error="'stable' = true needs sort"))
    return out


def _topk_shape_cases(op):
    rng = rng_for(op, 2)
    out = []
    for i, c in enumerate(c for c in _topk(op) if c.error is None):
        x, k = c.inputs
        shape = loosen(rng, x.shape) if rng.random() < 0.85 else PartialShape.dynamic()
        known = rng.random() < 0.7
        out.append(ShapeCase(op, f"{i}_{shape}_{'k' if known else 'nok'}_{c.id}",
                             (info(element_type_of(x), shape), info(element_type_of(k), [], k if known else None)), c.attrs))
    base = {"mode": "max", "sort": "value", "index_element_type": "i64"}
    corners = [("[2..4,5]", 1, 3), ("[2..,5]", 0, 3), ("[..3,5]", 0, 2), ("[?,?]", -1, 7), ("[...]", 0, 3),
               ("[...]", 5, None), ("[2..4]", 0, None), ("[2..]", 0, None), ("[5]", 0, None), ("[0..6,?]", -2, None)]
    for j, (shape, axis, k) in enumerate(corners):
        kinfo = info("i64", [], None if k is None else np.int64(k))
        out.append(ShapeCase(op, f"corner_{j}_{shape}_{axis}_{k}", (info("f32", shape), kinfo), base | {"axis": axis}))
    out += [ShapeCase(op, "k_shape_unknown_rank", (info("f32", "[3,4]"), info("i32", "[...]")), base | {"axis": 1}),
            ShapeCase(op, "k_1d", (info("f32", "[3,4]"), info("i32", "[1]")), base | {"axis": 1}),
            ShapeCase(op, "axis_out_of_range", (info("f32", "[3,4]"), info("i32", [], np.int32(1))), base | {"axis": 2}),
            ShapeCase(op, "data_scalar", (info("f32", "[]"), info("i32", [], np.int32(1))), base | {"axis": 0}),
            ShapeCase(op, "k_zero", (info("f32", "[3,4]"), info("i32", [], np.int32(0))), base | {"axis": 1},
                      openvino=SPEC_K, expected=None),
            ShapeCase(op, "k_above_axis", (info("f32", "[3,4]"), info("i32", [], np.int32(5))), base | {"axis": 1},
                      openvino=SPEC_K, expected=None),
            ShapeCase(op, "k_above_interval", (info("f32", "[3,2..4]"), info("i32", [], np.int32(5))), base | {"axis": 1},
                      openvino=SPEC_K, expected=None)]
    return out


def cases():
    return [c for op in TOPK_VERSIONS for c in _topk(op)]


def shape_cases():
    return [c for op in TOPK_VERSIONS for c in _topk_shape_cases(op)]
