"""Cases for the sort/search ops: seeded random shapes, every element type, every mode/sort/axis
choice, many ties (values drawn from a few levels), ±Inf and integer limits, plus error cases; shape
cases loosen the same shapes and leave K unknown."""
from __future__ import annotations

import itertools

import numpy as np

from ...shapes import PartialShape
from ...types import element_type, element_type_of
from ...opset.sort import T_K, T_K_1, T_SEARCH, T_TOPK
from . import Case, ShapeCase, info
from ._gen import array, ints_array, loosen, rng_for

N = 150
TOPK_VERSIONS = ("TopK-1", "TopK-3", "TopK-11")
SPEC_K = ("the spec allows K in [1, data.shape[axis]] (OpenVINO infers a shape for K = 0 or K above the axis "
          "length, and its CPU plugin then fails to compile the model)")


TIES_CPU = ("the CPU plugin orders equal values unstably for some sizes (the spec leaves their order open unless "
            "TopK-11's stable is set; opref keeps input order, as OpenVINO's reference does); asked OpenVINO's "
            "reference evaluate")
F8_TIES_CPU = "the CPU plugin misorders equal f8 values even with stable=true; asked OpenVINO's reference evaluate"
WIDE_CPU = "the CPU plugin computes 64-bit and u32 TopK in i32; asked OpenVINO's reference evaluate"
# OpenVINO's reference TopK takes f32/f16/bf16/i32/i64/u32/u64: other types are widened losslessly
REFERENCE_CAST = {"f64": "f32", "f8e4m3": "f32", "f8e5m2": "f32", "boolean": "i32", "i16": "i32", "i8": "i32",
                  "i4": "i32", "u16": "i32", "u8": "i32", "u4": "i32"}


F64_INF_CPU = ("the CPU plugin moves f64 through f32 and saturates +-inf to the f32 limits; OpenVINO's reference "
               "evaluate is asked (the values are f32 numbers)")


def _has_ties(x, axis) -> bool:
    s = np.sort(np.moveaxis(x.astype(np.float64), axis, -1), axis=-1)
    return bool(np.any(s[..., 1:] == s[..., :-1]))


def _topk_case(op, id, x, k, attrs):
    """A TopK value case, routed to OpenVINO's reference where the CPU plugin is not faithful."""
    et = element_type_of(x)
    why = []
    if et in ("i64", "u64", "u32") and x.size and (x.astype(np.float64).max() > 2**31 - 1 or
                                                    x.astype(np.float64).min() < -2**31):
        why.append(WIDE_CPU)
    if attrs["sort"] != "none" and _has_ties(x, attrs["axis"]):
        if not attrs.get("stable"):
            why.append(TIES_CPU)
        elif et in ("f8e4m3", "f8e5m2"):
            why.append(F8_TIES_CPU)
    if et == "f64" and not np.isfinite(x).all():
        why.append(F64_INF_CPU)
    if not why:
        return Case(op, id, (x, k), attrs)
    cast = {0: REFERENCE_CAST[et]} if et in REFERENCE_CAST else {}
    return Case(op, id, (x, k), attrs, openvino="; ".join(why), oracle="reference", oracle_cast=cast)


def _tag(shape) -> str:
    return "x".join(map(str, shape)) or "scalar"


def _specials(t):
    """±Inf and zeros for floats (f8e4m3 has no Inf: its largest values), the limits for integers."""
    if t.is_float:
        big = 448.0 if t.name == "f8e4m3" else np.inf
        return np.array([big, -big, 0.0, -0.0], np.float32).astype(t.dtype)
    if t.bits >= 8 and t.name != "boolean":
        lim = np.iinfo(t.dtype)
        return np.array([lim.min, lim.max, 0], t.dtype)
    return np.zeros(0, t.dtype)


def _topk_data(rng, et, shape, axis, i, sort):
    """Random values; every third case from a few levels (ties), some with ±Inf or integer limits.
    sort=none leaves the output order open, and with ties no two implementations agree on it (the
    CPU plugin's order is unstable, the reference's is a heap's), so those slices hold distinct values."""
    t = element_type(et)
    specials = _specials(t) if i % 7 == 3 else np.zeros(0, t.dtype)
    if sort == "none":
        if et in ("i64", "u64", "u32"):   # and the CPU orders wide integers as i32
            specials = specials[(specials.astype(np.float64) >= -2**31) & (specials.astype(np.float64) < 2**31)]
        pool = np.unique(np.concatenate([array(rng, et, [64]), specials]))
        x = np.moveaxis(np.zeros(shape, t.dtype), axis, -1)
        picks = np.argsort(rng.random(x.shape[:-1] + (len(pool),)), axis=-1)[..., :x.shape[-1]]
        return np.moveaxis(pool[picks], -1, axis)
    if i % 3 == 0 and t.name != "boolean":
        x = array(rng, et, [3])[rng.integers(0, 3, shape)]
    else:
        x = array(rng, et, shape)
    if specials.size and x.size:
        mask = rng.random(shape) < 0.3
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
        shape[axis] = int(rng.integers(1, 3 if et == "boolean" and sort == "none" else 9))
        k = int(rng.integers(1, shape[axis] + 1))
        attrs = {"axis": axis, "mode": mode, "sort": sort, "index_element_type": ("i32", "i64")[i % 2]}
        if op == "TopK-11":
            attrs["stable"] = sort != "none" and bool(i % 4 < 2)
        x = _topk_data(rng, et, shape, axis, i, sort)
        out.append(_topk_case(op, f"{i}_{et}_{_tag(shape)}_ax{axis}_k{k}_{mode}_{sort}", x, ints_array(k, kt), attrs))
    return out + _topk_edges(op) + _topk_errors(op)


def _topk_edges(op):
    """Hand-picked: the spec's example row, K equal to the axis length, a long axis with ties."""
    rng = rng_for(op, 1)
    base = {"index_element_type": "i32"} | ({"stable": True} if op == "TopK-11" else {})
    out = []
    row = np.array([5, 3, 1, 2, 5, 5], np.float32)
    for mode, sort in itertools.product(("max", "min"), ("value", "index")):
        out.append(_topk_case(op, f"spec_row_{mode}_{sort}", row, np.int64(4), base | {"axis": 0, "mode": mode, "sort": sort}))
    for et in ("f32", "i32", "u8", "f16"):
        x = array(rng, et, [3, 40], 0, 5)
        out.append(_topk_case(op, f"long_ties_{et}", x, np.int32(17), base | {"axis": 1, "mode": "max", "sort": "value"}))
        out.append(_topk_case(op, f"all_of_axis_{et}", x, np.int32(3), base | {"axis": 0, "mode": "min", "sort": "value"}))
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


# --- SearchSorted-15 --------------------------------------------------------------------------------
SS = "SearchSorted-15"


def _search_sorted():
    rng = rng_for(SS)
    types = itertools.cycle(T_SEARCH)
    out = []
    for i in range(N):
        et = next(types)
        t = element_type(et)
        n = int(rng.integers(1, 8))
        if i % 3 == 0:                                   # a 1-D sequence, values of any shape
            seq_shape = [n]
            val_shape = [int(rng.integers(1, 4)) for _ in range(int(rng.integers(0, 4)))]
        else:                                            # row by row: equal leading dims
            batch = [int(rng.integers(1, 4)) for _ in range(int(rng.integers(1, 3)))]
            seq_shape, val_shape = batch + [n], batch + [int(rng.integers(1, 5))]
        lo, hi = (-8, 8) if i % 2 else (-100, 100)       # narrow ranges: many ties with the sequence
        seq = np.sort(np.asarray(array(rng, et, seq_shape, lo, hi)).astype(np.float64), axis=-1).astype(t.dtype)
        vals = np.asarray(array(rng, et, val_shape, lo - 2, hi + 2))
        if i % 4 == 1 and vals.size:                     # probe the sequence's own values exactly
            vals = vals.copy()
            flat = seq.reshape(-1)
            pick = rng.random(vals.shape) < 0.5
            vals[pick] = flat[rng.integers(0, flat.size, int(pick.sum()))]
        if i % 9 == 4 and t.is_float and vals.size:
            vals = vals.copy()
            vals.reshape(-1)[0] = np.float32(np.inf).astype(t.dtype) if et != "f8e4m3" else t.dtype.type(448)
        attrs = {"right_mode": bool(i % 2), "output_type": ("i64", "i32")[(i // 2) % 2]}
        out.append(Case(SS, f"{i}_{et}_{_tag(seq_shape)}_{_tag(val_shape)}_{'right' if i % 2 else 'left'}",
                        (seq, vals), attrs))
    f = lambda *s: np.zeros(s, np.float32)
    out += [Case(SS, "err_scalar", (np.float32(1), f(2)), error="cannot be a scalar"),
            Case(SS, "err_rank", (f(2, 3), f(3)), error="needs values of the same rank"),
            Case(SS, "err_batch", (f(2, 3), f(3, 3)), error="dimension 0 of values"),
            Case(SS, "err_types", (f(3), np.zeros(2, np.float16)), error="must match"),
            Case(SS, "err_output_type", (f(3), f(2)), {"output_type": "u8"}, error="'output_type'")]
    return out


def _search_sorted_shapes():
    rng = rng_for(SS, 2)
    out = []
    for i, c in enumerate(c for c in _search_sorted() if c.error is None):
        s, v = c.inputs
        ss = loosen(rng, s.shape) if rng.random() < 0.85 else PartialShape.dynamic()
        vs = loosen(rng, v.shape) if rng.random() < 0.85 else PartialShape.dynamic()
        out.append(ShapeCase(SS, f"{i}_{ss}_{vs}_{c.id}", (info(element_type_of(s), ss), info(element_type_of(v), vs)),
                             c.attrs))
    f = lambda s: info("f32", s)
    for j, (s, v) in enumerate([("[?,5]", "[...]"), ("[...]", "[2,3]"), ("[2..4,5]", "[3..6,2]"), ("[2,5]", "[4,2]"),
                                ("[?,?,5]", "[3,?,1..2]"), ("[5]", "[]"), ("[2,5]", "[]"), ("[]", "[2]"),
                                ("[1..2,5]", "[3..4,5]"), ("[2,3,5]", "[2,3]")]):
        out.append(ShapeCase(SS, f"corner_{j}_{s}_{v}", (f(s), f(v)), {"right_mode": bool(j % 2)}))
    return out


def cases():
    return [c for op in TOPK_VERSIONS for c in _topk(op)] + _search_sorted()


def shape_cases():
    return [c for op in TOPK_VERSIONS for c in _topk_shape_cases(op)] + _search_sorted_shapes()
