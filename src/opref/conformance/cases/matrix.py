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




# --- Einsum-7 ----------------------------------------------------------------------------------------
# (equation, operand shapes): every form the spec allows — explicit and implicit output, matrix
# products, traces and diagonals (repeated labels), transposes, reductions, outer products, ellipses
# covering 0..n dims and broadcasting, labelled dims broadcasting, capitals, scalars, 1-4 operands.
EINSUM_FORMS = [
    ("ij,jk->ik", [[2, 3], [3, 4]]), ("ij,jk", [[3, 2], [2, 5]]), ("bij,bjk->bik", [[2, 2, 3], [2, 3, 2]]),
    ("i,i->", [[5], [5]]), ("i,i", [[4], [4]]), ("i,j->ij", [[3], [4]]), ("ij->ji", [[2, 5]]), ("ij->", [[3, 4]]),
    ("ij->j", [[3, 4]]), ("ii->i", [[4, 4]]), ("kii->k", [[2, 3, 3]]), ("kii->ki", [[2, 3, 3]]),
    ("ijk->kij", [[1, 3, 3]]), ("a...->...", [[3, 3]]), ("a...,...->a...", [[3, 3], [1]]),
    ("...ij,...jk->...ik", [[2, 1, 2, 3], [3, 3, 2]]), ("a...b,b...->a...", [[3, 1, 2, 3], [3, 2, 2, 1]]),
    ("ab...,ac...,ade->...bc", [[2, 3, 4], [2, 3, 1], [2, 4, 3]]), ("ab,bc,cd->ad", [[2, 3], [3, 4], [4, 2]]),
    ("ab,bc,cd,de->ae", [[2, 2], [2, 3], [3, 2], [2, 2]]), ("iij->ij", [[3, 3, 2]]), ("i...i->i", [[3, 2, 3]]),
    ("...ii->...i", [[2, 3, 3]]), ("ij,ij->ij", [[1, 4], [3, 1]]), ("i,i->i", [[1], [4]]), ("AbC", [[1, 2, 3]]),
    ("Ab,bC->AC", [[2, 3], [3, 2]]), ("bhqd,bhkd->bhqk", [[1, 2, 3, 4], [1, 2, 2, 4]]), ("a...->a", [[2, 3, 2]]),
    ("...", [[2, 3]]), ("...->", [[2, 3]]), ("->", [[]]), (",->", [[], []]), ("i,->i", [[3], []]),
    ("", [[]]), ("ij...,j...->i...", [[2, 3], [3]]), ("i...,...i->i...", [[2, 3, 1], [4, 2]]),
    ("ba", [[2, 3]]), ("b...a", [[2, 3, 4]]), ("i,ii->i", [[1], [3, 3]]), ("ij,kl->ijkl", [[2, 1], [1, 3]]),
    ("abcd->dcba", [[1, 2, 3, 2]]), ("ij,jk,kl", [[2, 2], [2, 3], [3, 2]]), ("ii,i->i", [[3, 3], [3]]),
]
# OpenVINO departs from the spec on these forms (opref follows the spec; the spec transcription is asked)
IMPLICIT_REPEAT = ("OpenVINO's implicit mode keeps a label repeated inside one subscript in the output (its 'ii' is "
                   "[n, n]); the spec recovers the output from the labels not repeated on the left-hand side ('ii' "
                   "is the trace)")
SPACES = "OpenVINO rejects blank spaces in the equation; the spec allows them at any position"
REPEATED_OUT = ("OpenVINO accepts an output subscript that repeats a label; the spec's output names each dimension by "
                "one label (as NumPy's einsum), so opref rejects it")
EINSUM_DEPART = [("ii", [[3, 3]]), ("dbbc,ca", [[2, 3, 3, 4], [4, 2]]), ("iij", [[2, 2, 3]]), ("ii,jj", [[2, 2], [3, 3]]),
                 ("ij, jk -> ik", [[2, 3], [3, 2]]), (" a b c ", [[2, 1, 2]]), ("i j,j->i", [[2, 3], [3]])]


def _einsum_route(op, eq, arrays):
    """(openvino reason, oracle, cast, tolerance) for an Einsum case."""
    et = element_type_of(arrays[0])
    if " " in eq:
        return SPACES, "spec", {}, None
    if "->" not in eq:
        lhs = [c for c in eq if c.isalpha()]
        if any(lhs.count(c) > 1 and sum(c in sub for sub in eq.split(",")) == 1 for c in lhs):
            return IMPLICIT_REPEAT, "spec", {}, None
    t = element_type(et)
    if t.is_integral:
        # exact in the CPU's arithmetic while no product or sum leaves the type (bound: every operand's
        # largest magnitude times its size, multiplied)
        bound = float(np.prod([float(np.abs(x.astype(np.float64)).max(initial=0)) * max(x.size, 1) for x in arrays]))
        if bound > min(float(np.iinfo(t.dtype).max), 2.0 ** 24):
            return EINSUM_INT_CPU, "spec", {}, None
    if et == "f64":
        return F64_CPU.replace("MatMul", "Einsum"), "openvino", {i: "f32" for i in range(len(arrays))}, "f32"
    return None, "openvino", {}, None


EINSUM_INT_CPU = ("the CPU plugin does not wrap integer Einsum sums that leave the type as the spec's integer "
                  "arithmetic does, and OpenVINO has no reference evaluate for Einsum; asked the spec transcription")


def _einsum():
    op = "Einsum-7"
    rng = rng_for(op)
    types = itertools.cycle(["f32", "f16", "f32", "bf16", "i32", "f64", "i64", "f32", "i8", "u8"])
    out = []
    for rep in range(3):
        for j, (eq, shapes) in enumerate(EINSUM_FORMS):
            et = next(types)
            lo, hi = (-3, 3) if element_type(et).is_integral else (-100, 100)
            arrays = [array(rng, et, s, lo, hi) for s in shapes]
            why, oracle, cast, tol = _einsum_route(op, eq, arrays)
            out.append(Case(op, f"{rep}_{j}_{et}_{eq.replace('...', 'E').replace('->', 'to').replace(',', '_') or 'empty'}",
                            tuple(arrays), {"equation": eq}, openvino=why, oracle=oracle, oracle_cast=cast,
                            tolerance=tol))
    for j, (eq, shapes) in enumerate(EINSUM_DEPART):
        arrays = [array(rng, "f32", s) for s in shapes]
        why, oracle, cast, tol = _einsum_route(op, eq, arrays)
        out.append(Case(op, f"depart_{j}", tuple(arrays), {"equation": eq}, openvino=why, oracle=oracle))
    return out + _einsum_errors()


def _einsum_errors():
    op = "Einsum-7"
    z = lambda *s: np.zeros(s, np.float32)  # noqa: E731
    errs = [
        ("err_inner", "ij,jk->ik", [z(2, 3), z(4, 2)], "do not broadcast"),
        ("err_rank", "ij->i", [z(2, 3, 4)], "does not have the 2 dimension(s)"),
        ("err_rank_ellipsis", "ijk...->i", [z(2, 3)], "or more"),
        ("err_count", "ij,jk->ik", [z(2, 3), z(3, 4), z(5)], "has 2 input subscript(s), got 3 input(s)"),
        ("err_char", "i1->i", [z(2, 3)], "may hold only letters"),
        ("err_dash", "i-j", [z(2, 3)], "may hold only letters"),
        ("err_two_ellipses", "i......->i", [z(2, 3)], "more than one '...'"),
        ("err_two_ellipses_split", "...i...->i", [z(2, 3)], "more than one '...'"),
        ("err_two_arrows", "i->i->i", [z(2)], "more than one '->'"),
        ("err_out_label", "ij->k", [z(2, 3)], "is in no input subscript"),
        ("err_out_repeat", "ij->jj", [z(2, 3)], "repeats a label"),
        ("err_diag", "ii->i", [z(3, 1)], "must be equal"),
        ("err_ellipsis_bcast", "a...,b...->ab...", [z(2, 2, 5), z(3, 4, 1)], "do not broadcast"),
        ("err_types", "ij,jk->ik", [z(2, 3), z(3, 4).astype(np.float16)], "must match"),
        ("err_boolean", "ij->ji", [z(2, 3).astype(bool)], "expected one of"),
        ("err_label_bcast", "ab,ab->ab", [z(2, 3), z(3, 3)], "do not broadcast"),
    ]
    return [Case(op, id, tuple(xs), {"equation": eq}, error=err) for id, eq, xs, err in errs]


def _einsum_shape_cases():
    op = "Einsum-7"
    rng = rng_for(op, 2)
    out = []
    for i, c in enumerate(c for c in _einsum() if c.error is None):
        eq = c.attrs["equation"]
        ins = tuple(info(element_type_of(x), loosen(rng, x.shape) if rng.random() < 0.85 else PartialShape.dynamic())
                    for x in c.inputs)
        why = c.openvino if c.openvino in (SPACES, IMPLICIT_REPEAT) else None
        expected = None if why is None else str(_einsum_spec_shape(eq, ins))
        out.append(ShapeCase(op, f"{i}_{c.id}", ins, {"equation": eq}, openvino=why, expected=expected))
    corners = [
        ("...ij->...ji", ["[...]"]), ("...ij,jk->...ik", ["[...]", "[3,4]"]), ("ij,ij->ij", ["[1..3,4]", "[...]"]),
        ("ij,ij->ij", ["[...]", "[1..3,4]"]), ("ij,ij->ij", ["[1..3,4]", "[?,4]"]), ("ab,ab->ab", ["[0..2,3]", "[2..4,3]"]),
        ("ab,ab->ab", ["[1,3]", "[0..4,3]"]), ("ab,ab->ab", ["[2..3,3]", "[5..6,3]"]), ("ii->i", ["[2..5,3..7]"]),
        ("ii->i", ["[2..5,?]"]), ("ii->i", ["[2..3,5..7]"]), ("ij,jk->ik", ["[?,3]", "[2..5,4]"]),
        ("a...,b...->ab...", ["[2,1,5]", "[3,4,1]"]), ("a...,b...->ab...", ["[2,?,5]", "[3,4,2..3]"]),
        ("i...,...i->i...", ["[2,3,1]", "[4,2]"]), ("ij->...ij", ["[2,3]"]), ("ij,kl->", ["[0,3]", "[2,2]"]),
        ("ABCDEFGHIJ->JIHGFEDCBA", ["[1,2,3,4,5,6,7,8,9,10]"]), ("ij,jk->ik", ["[...]", "[...]"]),
        ("ij,jk->ik", ["[2,3]", "[4,5]"]), ("ij->i", ["[2,3,4]"]), ("ij->k", ["[2,3]"]), ("i1->i", ["[2,3]"]),
        ("a...,b...->ab...", ["[2,2,5]", "[3,4,1]"]), ("ij,jk->ik", ["[2,3]", "[3,4]", "[5]"]),
        ("ii->i", ["[3,1]"]), ("...", ["[]"]), ("->", ["[]"]), ("i,i", ["[3]", "[1]"]), ("...->", ["[2..4,?,3]"]),
    ]
    for j, (eq, shapes) in enumerate(corners):
        out.append(ShapeCase(op, f"corner_{j}_{eq}", tuple(info("f32", s) for s in shapes), {"equation": eq}))
    out.append(ShapeCase(op, "repeated_output", (info("f32", "[2,3]"),), {"equation": "ij->jj"}, openvino=REPEATED_OUT,
                         expected=None))
    for t in ("f16", "bf16", "f64", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f8e4m3", "f8e5m2"):
        out.append(ShapeCase(op, f"type_{t}", (info(t, "[2,3]"), info(t, "[3,?]")), {"equation": "ij,jk->ki"}))
    return out


def _einsum_spec_shape(eq, ins):
    """The spec's output shape of the marked forms (all with static inputs of known rank here, or
    dynamic rank): labels take their dims, the implicit output lists the labels met once."""
    eq = eq.replace(" ", "")
    lhs, _, rhs = eq.partition("->")
    subs = lhs.split(",")
    labels = [c for c in lhs if c.isalpha()]
    out = rhs if "->" in eq else "".join(sorted(c for c in set(labels) if labels.count(c) == 1))
    dims = {}
    for sub, x in zip(subs, ins):
        for c, d in zip(sub, x.shape if x.shape.rank_is_static else [None] * len(sub)):
            if d is None:
                dims.setdefault(c, -1)
            else:
                prev = dims.get(c)
                dims[c] = d if prev in (None, -1) else prev.merge(d) or prev
    return PartialShape([dims[c] for c in out])


# --- Inverse-14 --------------------------------------------------------------------------------------
ADJOINT_CPU = ("the spec describes adjoint=true three ways: its algorithm (step 5) multiplies the inverse by det(A) "
               "(the adjugate, as 'true - output adjugate matrix' says), its attribute text says the conjugate "
               "transpose of the input, and OpenVINO's CPU plugin returns the transposed inverse; opref follows the "
               "algorithm, and OpenVINO has no reference evaluate for Inverse: asked the spec transcription")
F8_INVERSE_CPU = "the CPU plugin does not run Inverse on f8 types; asked with the matrices as f32, rounded back"
F64_INVERSE_CPU = "the CPU plugin computes f64 Inverse in f32; asked with the matrices as f32, compared at f32 tolerance"


def _invertible(rng, et, batch, n):
    """Well-conditioned matrices: random entries with a dominant diagonal of either sign."""
    t = element_type(et)
    scale = 1.0 if t.bits == 8 else 2.0
    a = rng.standard_normal(batch + [n, n]) * scale
    sign = np.where(rng.random(batch + [n]) < 0.5, -1.0, 1.0)
    a += np.eye(n) * (n * scale + 1) * sign[..., None]
    if n > 1 and rng.random() < 0.5:        # rows swapped: the LU must pivot
        a = a[..., ::-1, :]
    return a.astype(np.float32).astype(t.dtype)


def _inverse_case(id, a, adjoint, **kw):
    et = element_type_of(a)
    why, oracle, cast, tol = None, "openvino", {}, None
    if kw.get("error") is None:
        if adjoint:
            why, oracle = ADJOINT_CPU, "spec"
        elif et == "f64":
            why, cast, tol = F64_INVERSE_CPU, {0: "f32"}, "f32"
        elif element_type(et).bits == 8:
            why, cast, tol = F8_INVERSE_CPU, {0: "f32"}, None
    return Case("Inverse-14", id, (a,), {"adjoint": adjoint}, openvino=why, oracle=oracle, oracle_cast=cast,
                tolerance=tol, **kw)


def _inverse():
    rng = rng_for("Inverse-14")
    types = itertools.cycle(["f32", "f16", "f32", "bf16", "f64", "f32", "f8e4m3", "f16", "f8e5m2", "f32"])
    out = []
    for i in range(96):
        et = next(types)
        n = int(rng.integers(1, 6))
        batch = [int(rng.integers(1, 4)) for _ in range(int(rng.integers(0, 3)))]
        adjoint = i % 3 == 2
        out.append(_inverse_case(f"{i}_{et}_{_tag(batch + [n, n])}{'_adj' if adjoint else ''}",
                                 _invertible(rng, et, batch, n), adjoint))
    eye = np.eye(3, dtype=np.float32)
    out += [
        _inverse_case("identity", eye, False), _inverse_case("identity_adj", eye, True),
        _inverse_case("diagonal", np.diag([2, -4, 0.5]).astype(np.float32), False),
        _inverse_case("permutation", eye[[2, 0, 1]], False),
        _inverse_case("zero_pivot_first", np.array([[0, 1], [1, 0]], np.float32), False),
        _inverse_case("spec_2x4x4_adj", _invertible(rng, "f32", [2], 4), True),
        _inverse_case("spec_5x4x3x2x2", _invertible(rng, "f32", [5, 4, 3], 2), False),
        _inverse_case("empty_batch", np.zeros((0, 3, 3), np.float32), False),
        _inverse_case("one_by_one", np.array([[[4.0]], [[-0.25]]], np.float32), False),
        _inverse_case("one_by_one_adj", np.array([[[4.0]], [[-0.25]]], np.float32), True),
        _inverse_case("large_values", _invertible(rng, "f32", [2], 3) * np.float32(1e3), False),
        _inverse_case("err_rank_1", np.zeros(3, np.float32), False, error="rank >= 2"),
        _inverse_case("err_scalar", np.float32(1), False, error="rank >= 2"),
        _inverse_case("err_not_square", np.zeros((3, 4), np.float32), False, error="square matrices"),
        _inverse_case("err_batched_not_square", np.zeros((2, 2, 3), np.float32), False, error="square matrices"),
        _inverse_case("err_int", np.zeros((2, 2), np.int32), False, error="expected one of"),
    ]
    return out


def _inverse_shape_cases():
    rng = rng_for("Inverse-14", 2)
    out = []
    for i, c in enumerate(c for c in _inverse() if c.error is None):
        (a,) = c.inputs
        shape = loosen(rng, a.shape) if rng.random() < 0.85 else PartialShape.dynamic()
        out.append(ShapeCase("Inverse-14", f"{i}_{shape}_{c.id}", (info(element_type_of(a), shape),), c.attrs))
    for j, s in enumerate(["[3,4]", "[3]", "[]", "[?,3]", "[2..4,3..5]", "[2,?,?]", "[1..3,?]", "[0,0]",
                           "[2,2..3,3..9]", "[2,2..3,4..9]", "[...]", "[?]", "[5,4,3,2,2]", "[?,?,7,6]"]):
        for adj in (False, True):
            out.append(ShapeCase("Inverse-14", f"corner_{j}_{s}_{int(adj)}", (info("f32", s),), {"adjoint": adj}))
    return out


def cases():
    return _matmul() + _einsum() + _inverse()


def shape_cases():
    return _matmul_shape_cases() + _einsum_shape_cases() + _inverse_shape_cases()
