"""Cases for the matrix ops: seeded random shapes over every 1-D / N-D pairing, transpositions,
batch broadcasting, every element type, empty tensors, NaN/Inf and integer wrap-around, plus error
cases; shape cases loosen the same shapes into partial shapes and add interval corner cases."""
from __future__ import annotations

import itertools

import numpy as np

from ...shapes import PartialShape
from ...types import NUMERIC_BYTES, element_type, element_type_of
from . import Case, ShapeCase, info
from ._gen import array, loosen, rng_for

N = 180


def _tag(shape) -> str:
    return "x".join(map(str, shape)) or "scalar"


def _with_specials(rng, x, p=0.15):
    """Some NaN/Inf/-Inf/0 put into a float array (for integers: the type's limits)."""
    t = element_type(x)
    if x.size == 0:
        return x
    x = x.copy()
    mask = rng.random(x.shape) < p
    if t.is_float:
        specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0], np.float32).astype(x.dtype)
    else:
        info_ = np.iinfo(x.dtype)
        specials = np.array([info_.min, info_.max, 0, 1], x.dtype)
    x[mask] = specials[rng.integers(0, len(specials), int(mask.sum()))]
    return x


# --- MatMul-1 ----------------------------------------------------------------------------------------
def _matmul_shapes(rng, kind):
    m, k, n = (int(rng.integers(1, 5)) for _ in range(3))
    if rng.random() < 0.06:
        m, k, n = (int(rng.integers(0, 3)) for _ in range(3))      # empty matrices / empty sums
    batch = [int(rng.integers(1, 4)) for _ in range(int(rng.integers(0, 3)))]
    # batch broadcasting: each side keeps a suffix of the batch axes, some of them set to 1
    def side(b):
        keep = b[len(b) - int(rng.integers(0, len(b) + 1)):]
        return [1 if rng.random() < 0.3 else d for d in keep]
    if kind == "1x1":
        return [k], [k]
    if kind == "1xN":
        return [k], side(batch) + [k, n]
    if kind == "Nx1":
        return side(batch) + [m, k], [k]
    return side(batch) + [m, k], side(batch) + [k, n]


def _matmul():
    op = "MatMul-1"
    rng = rng_for(op)
    types = itertools.cycle(NUMERIC_BYTES)
    kinds = itertools.cycle(["NxN", "NxN", "1xN", "Nx1", "NxN", "1x1"])
    out = []
    for i in range(N):
        et, kind = next(types), next(kinds)
        sa, sb = _matmul_shapes(rng, kind)
        ta, tb = bool(rng.integers(0, 2)), bool(rng.integers(0, 2))
        # transposition of the stored arrays (1-D inputs ignore the attributes)
        store_a = sa[:-2] + [sa[-1], sa[-2]] if ta and len(sa) > 1 else sa
        store_b = sb[:-2] + [sb[-1], sb[-2]] if tb and len(sb) > 1 else sb
        lo, hi = (-8, 8) if element_type(et).bits == 8 and element_type(et).is_float else (-100, 100)
        a, b = array(rng, et, store_a, lo, hi), array(rng, et, store_b, lo, hi)
        special = i % 9 == 4
        if special:
            a, b = _with_specials(rng, a), _with_specials(rng, b)
        out.append(_mm_case(f"{i}_{et}_{kind}_{_tag(store_a)}_{_tag(store_b)}{'_ta' if ta else ''}"
                            f"{'_tb' if tb else ''}{'_special' if special else ''}", a, b, ta, tb))
    return out + _matmul_edges() + _matmul_errors()


INT_CPU = ("the CPU plugin computes integer MatMul in f32 and saturates to the type (the spec's integer "
           "product wraps); asked OpenVINO's reference evaluate (i8/u8/i16/u16 widened to i64)")
F64_CPU = ("the CPU plugin computes f64 MatMul in f32 (saturating +-inf); asked with the inputs as f32, compared at "
           "f32 tolerance")
EMPTY_CPU = ("the CPU plugin fails to compile a MatMul of empty tensors when transposed or not f32/f16 "
             "('object is not initialized'); asked OpenVINO's reference evaluate (f64/f8 widened to f32)")
REFERENCE_TYPES = ("f16", "f32", "bf16", "i32", "i64", "u32", "u64")


def _mm_case(id, a, b, ta=False, tb=False, **kw):
    """A MatMul value case, routed away from the CPU plugin where it is not faithful."""
    et = element_type_of(a)
    t = element_type(et)
    why, cast, oracle, tolerance = None, {}, "openvino", None
    if kw.get("error") is None:
        if a.size == 0 or b.size == 0:
            if ta or tb or et not in ("f32", "f16"):
                why, oracle = EMPTY_CPU, "reference"
                cast = {} if et in REFERENCE_TYPES else {0: "f32", 1: "f32"}
        elif t.is_integral:
            # exact in the CPU's f32 while every partial sum stays below 2^24 and in the type's range
            x, y = np.abs(a.astype(np.float64)), np.abs(b.astype(np.float64))
            bound = np.matmul(x if not ta or x.ndim < 2 else np.swapaxes(x, -1, -2),
                              y if not tb or y.ndim < 2 else np.swapaxes(y, -1, -2))
            lim = np.iinfo(t.dtype)
            if np.max(bound, initial=0) >= min(2 ** 24, lim.max):
                why, oracle = INT_CPU, "reference"
                cast = {} if et in REFERENCE_TYPES else {0: "i64", 1: "i64"}
        elif et == "f64":
            why, tolerance, cast = F64_CPU, "f32", {0: "f32", 1: "f32"}
    return Case("MatMul-1", id, (a, b), {"transpose_a": ta, "transpose_b": tb}, openvino=why,
                oracle_cast=cast, oracle=oracle, tolerance=tolerance, **kw)


def _matmul_edges():
    """Hand-picked corners: wrap-around sums, a long reduction, transposed 1-D inputs, large batches."""
    rng = rng_for("MatMul-1", 1)
    out = []
    for et in ("i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64"):
        info_ = np.iinfo(element_type(et).dtype)
        a = np.full((2, 3), info_.max, element_type(et).dtype)
        b = np.array([[info_.max, 1], [2, info_.max], [3, 0]], element_type(et).dtype)
        out.append(_mm_case(f"wrap_{et}", a, b))
    for et in ("f32", "f16", "bf16", "f64"):
        out.append(_mm_case(f"long_k_{et}", array(rng, et, [2, 64]), array(rng, et, [64, 3])))
        out.append(_mm_case(f"vec_ta_tb_{et}", array(rng, et, [5]), array(rng, et, [5]), True, True))
        out.append(_mm_case(f"batch_bcast_{et}", array(rng, et, [3, 1, 2, 4]), array(rng, et, [5, 4, 2]), False, False))
        out.append(_mm_case(f"empty_k_{et}", array(rng, et, [2, 0]), array(rng, et, [0, 3])))
    return out


def _matmul_errors():
    f = np.zeros
    return [
        _mm_case("err_inner", f((2, 3), np.float32), f((4, 2), np.float32), error="incompatible matrix dimensions"),
        _mm_case("err_inner_transposed", f((2, 3), np.float32), f((3, 2), np.float32), True,
                 error="incompatible matrix dimensions"),
        _mm_case("err_vectors", f((3,), np.float32), f((4,), np.float32), error="incompatible matrix dimensions"),
        _mm_case("err_batch", f((2, 2, 3), np.float32), f((3, 3, 2), np.float32), error="batch dimensions do not broadcast"),
        _mm_case("err_scalar", np.float32(1), f((3,), np.float32), error="scalars are not supported"),
        _mm_case("err_types", f((2, 3), np.float32), f((3, 2), np.float16), error="must match"),
        _mm_case("err_boolean", f((2, 3), bool), f((3, 2), bool), error="expected one of"),
    ]


def _matmul_shape_cases():
    op = "MatMul-1"
    rng = rng_for(op, 2)
    out = []
    for i, c in enumerate(c for c in _matmul() if c.error is None):
        a, b = c.inputs
        sa = loosen(rng, a.shape) if rng.random() < 0.8 else PartialShape.dynamic()
        sb = loosen(rng, b.shape) if rng.random() < 0.8 else PartialShape.dynamic()
        out.append(ShapeCase(op, f"{i}_{sa}_{sb}_{c.id}", (info(element_type_of(a), sa), info(element_type_of(b), sb)),
                             c.attrs))
    corners = [   # intervals that may or may not broadcast, contradicting dynamic dims, rank-only shapes
        ("[2..3,4,5]", "[5..8,5,6]"), ("[1..3,4,5]", "[2..8,5,6]"), ("[1..3,4,5]", "[1..8,5,6]"),
        ("[?,4,5]", "[3,5,6]"), ("[1,4,5]", "[?,5,6]"), ("[2,4,5]", "[3,5,6]"), ("[4,2..3]", "[5..6,7]"),
        ("[4,5]", "[?,?,?,?]"), ("[?]", "[?]"), ("[3]", "[?,2..4,?]"), ("[?,?,3..4]", "[5]"),
        ("[0..2,3,4]", "[4,5]"), ("[..5,3,4]", "[2..,4,5]"), ("[2,3,4]", "[2,5,4]"), ("[]", "[3]"),
        ("[2,3,4]", "[...]"), ("[...]", "[3]"), ("[5]", "[5]"), ("[1,1,2,3]", "[7,3,2]"), ("[2..4,2,3]", "[3,2]"),
    ]
    for j, (sa, sb) in enumerate(corners):
        for ta, tb in ((False, False), (True, False), (False, True)):
            out.append(ShapeCase(op, f"corner_{j}_{sa}_{sb}_{int(ta)}{int(tb)}", (info("f32", sa), info("f32", sb)),
                                 {"transpose_a": ta, "transpose_b": tb}))
    return out


def cases():
    return _matmul()


def shape_cases():
    return _matmul_shape_cases()
