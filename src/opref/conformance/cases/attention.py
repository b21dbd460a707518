"""Cases for ScaledDotProductAttention-13: seeded random query/key/value with one or two batch
dims broadcast among them, every mask kind (none, boolean, additive float with -Inf entries, scalar
zero, L of 1), causal with and without a mask, an explicit scale, every float type, empty
sequences; plus error cases and partial-shape cases."""
from __future__ import annotations

import itertools

import numpy as np

from ...shapes import PartialShape
from ...opset.attention import T_SDPA
from ...types import element_type, element_type_of
from . import Case, ShapeCase, info
from ._gen import array, loosen, rng_for

OP = "ScaledDotProductAttention-13"
N = 150
F64_CPU = "the CPU plugin computes f64 attention in f32; compared at f32 tolerance"
BF16_MASK_CPU = ("the CPU plugin picks its bf16 attention kernel by instruction set: with AVX-512 it leaves zeros "
                 "where the mask's batch dims broadcast the query's, without it (an AVX2-only AMD EPYC) a fully "
                 "masked row averages V where the spec's softmax over no keys is NaN; asked with every input "
                 "widened to f32 (lossless), whose kernel follows the spec on both")
MASKS = ("none", "bool", "float", "zero", "bool_l1", "float_l1", "causal", "causal_mask", "scale", "bool_scale")


def _tag(shape) -> str:
    return "x".join(map(str, shape)) or "scalar"


def _bcast(rng, batch):
    """Batch dims of one input: the full batch with some dims set to 1 (they broadcast)."""
    return [1 if rng.random() < 0.3 else d for d in batch]


def _case(i, rng, et, kind):
    batch = [int(rng.integers(1, 4)) for _ in range(int(rng.integers(1, 3)))]
    L, S, E, Ev = (int(rng.integers(1, 6)) for _ in range(4))
    if i % 25 == 3:
        # empty query sequences; an empty key sequence (S = 0) is checked in tests/test_attention.py: the
        # CPU plugin fails to compile it or returns uninitialised memory, and OpenVINO has no reference
        L = 0
    sq, sk, sv = (_bcast(rng, batch) for _ in range(3))
    t = element_type(et)
    q = array(rng, et, sq + [L, E]) / t.dtype.type(4)
    k = array(rng, et, sk + [S, E]) / t.dtype.type(4)
    v = array(rng, et, sv + [S, Ev])
    inputs = [q.astype(t.dtype), k.astype(t.dtype), v]
    ml = 1 if kind.endswith("_l1") else L
    mshape = _bcast(rng, batch)[len(batch) - int(rng.integers(0, len(batch) + 1)):] + [ml, S]
    if kind in ("bool", "bool_l1", "causal_mask", "bool_scale"):
        inputs.append(rng.random(mshape) < 0.75)
    elif kind in ("float", "float_l1"):
        m = array(rng, et, mshape)
        m[rng.random(mshape) < 0.2] = -np.inf
        inputs.append(m)
    elif kind == "zero":
        inputs.append(np.zeros((), t.dtype))
    elif kind == "scale":
        inputs.append(array(rng, et, mshape))
    if kind.endswith("scale"):
        inputs.append(np.asarray(rng.uniform(0.05, 1.0), np.float32).astype(t.dtype).reshape(() if i % 2 else (1,)))
    causal = kind.startswith("causal")
    why, tolerance, cast = (F64_CPU, "f32", {}) if et == "f64" else (None, None, {})
    if et == "bf16" and len(inputs) > 3 and not causal:
        why, cast = BF16_MASK_CPU, {p: "f32" for p in range(len(inputs)) if inputs[p].dtype != np.bool_}
    id_ = f"{i}_{et}_{kind}_{'_'.join(_tag(x.shape) for x in inputs)}"
    return Case(OP, id_, tuple(inputs), {"causal": causal}, openvino=why, tolerance=tolerance,
                oracle_cast=cast)


def _errors():
    f = lambda *s: np.zeros(s, np.float32)
    return [
        Case(OP, "err_rank", (f(2, 3), f(2, 3), f(2, 3)), {"causal": False}, error="query must have rank >= 3"),
        Case(OP, "err_e", (f(1, 2, 3), f(1, 2, 4), f(1, 2, 3)), {"causal": False}, error="must equal query's (E)"),
        Case(OP, "err_s", (f(1, 2, 3), f(1, 4, 3), f(1, 5, 3)), {"causal": False}, error="must equal key's (S)"),
        Case(OP, "err_batch", (f(2, 2, 3), f(3, 2, 3), f(1, 2, 3)), {"causal": False}, error="key batch dimensions"),
        Case(OP, "err_mask_shape", (f(1, 2, 3), f(1, 4, 3), f(1, 4, 3), f(1, 2, 5)), {"causal": False},
             error="attention_mask [1,2,5] does not broadcast"),
        Case(OP, "err_mask_rank1", (f(1, 2, 3), f(1, 4, 3), f(1, 4, 3), f(4)), {"causal": False},
             error="scalar or have rank >= 2"),
        Case(OP, "err_mask_type", (f(1, 2, 3), f(1, 4, 3), f(1, 4, 3), np.zeros((2, 4), np.float16)),
             {"causal": False}, error="expected boolean or the query's f32"),
        Case(OP, "err_scale_shape", (f(1, 2, 3), f(1, 4, 3), f(1, 4, 3), f(), f(2)), {"causal": False},
             error="scale must be a scalar or have 1 element"),
        Case(OP, "err_missing_causal", (f(1, 2, 3), f(1, 2, 3), f(1, 2, 3)), {}, error="missing required attribute"),
        Case(OP, "err_int", tuple(np.zeros((1, 2, 3), np.int32) for _ in range(3)), {"causal": False},
             error="expected one of"),
    ]


def cases():
    rng = rng_for(OP)
    types = itertools.cycle(T_SDPA)
    kinds = itertools.cycle(MASKS)
    return [_case(i, rng, next(types), next(kinds)) for i in range(N)] + _errors()


def shape_cases():
    rng = rng_for(OP, 2)
    out = []
    for i, c in enumerate(c for c in cases() if c.error is None):
        shapes = [loosen(rng, a.shape) if rng.random() < 0.8 else
                  (PartialShape.dynamic() if rng.random() < 0.5 else PartialShape(a.shape)) for a in c.inputs]
        out.append(ShapeCase(OP, f"{i}_{'_'.join(map(str, shapes))}_{c.id}",
                             tuple(info(element_type_of(a), s) for a, s in zip(c.inputs, shapes)), c.attrs))
    f = lambda s, et="f32": info(et, s)
    corners = [  # (q, k, v, mask) partial shapes, including OpenVINO's quirks
        ("[1,1,4]", "[1,5,4]", "[1,5,2]", "[1,3,5]"), ("[?,?,4]", "[2,?,?]", "[?,5,3]", "[...]"),
        ("[2..4,3,4]", "[1,5,4]", "[3..8,5,2]", "[2,1,5]"), ("[...]", "[2,5,4]", "[2,5,3]", None),
        ("[2,3,4]", "[...]", "[...]", "[3,?]"), ("[2,3,4]", "[2,5,4]", "[...]", "[1,1,5]"),
        ("[1..3,3,4]", "[2..5,?,4]", "[?,?,?]", "[]"), ("[2,?,4]", "[2,5,4]", "[2,5,3]", "[?,?]"),
        ("[2,1..3,4]", "[2,5,4]", "[2,5,3]", "[2,2..6,5]"), ("[2,3,4]", "[2,3..4,4]", "[2,4..6,3]", "[2,3,5..]"),
        ("[2,3,4]", "[2,5,4]", "[2,5,3]", "[4,3,5]"), ("[2,3,4]", "[2,5,4]", "[2,6,3]", None),
        ("[2,3,4]", "[2,5,5]", "[2,5,3]", None), ("[3,4]", "[3,4]", "[3,4]", None),
    ]
    for j, (q, k, v, m) in enumerate(corners):
        for causal in (False, True):
            ins = (f(q), f(k), f(v)) + (() if m is None else (f(m, "boolean"),))
            out.append(ShapeCase(OP, f"corner_{j}_{int(causal)}", ins, {"causal": causal}))
    out.append(ShapeCase(OP, "scale_1d", (f("[2,3,4]"), f("[2,5,4]"), f("[2,5,3]"), f("[]"), f("[?]")),
                         {"causal": False}))
    out.append(ShapeCase(OP, "scale_2", (f("[2,3,4]"), f("[2,5,4]"), f("[2,5,3]"), f("[]"), f("[2]")),
                         {"causal": False}))
    return out
