"""Cases for the comparison ops, and the generators the other elementwise tables of this helper
(logical, bitwise) share: seeded broadcastable shape pairs under every `auto_broadcast` mode,
values drawn from small pools (so that equal elements are common) salted with edge values (NaN,
+-Inf, -0, integer limits), empty and scalar tensors, and partial-shape variants of each case."""
from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np

from ...shapes import PartialShape
from ...types import FLOAT, element_type, element_type_of
from . import Case, ShapeCase, info
from ._gen import array, loosen, rng_for

N = 110   # sampled value cases per op

# --- shapes -----------------------------------------------------------------------------------------
def _dims(rng, rank, empty_ok):
    lo = 0 if empty_ok and rng.random() < 0.08 else 1
    return [int(rng.integers(lo, 5)) for _ in range(rank)]


def _squash(rng, dims, p=0.35):
    return [1 if rng.random() < p else d for d in dims]


def shape_pair(rng, i):
    """(mode, shape_a, shape_b): numpy (most), none (equal shapes) or pdpd. pdpd pairs have equal
    ranks and b's last dim equal to a's (not 1): there OpenVINO (which reads pdpd from IR with axis
    0, left-aligned), the spec (axis = rank(a) - rank(b)) and opref's families agree."""
    kind = i % 10
    if kind == 7:
        s = _dims(rng, int(rng.integers(0, 5)), True)
        return "none", s, list(s)
    if kind == 8:
        a = _dims(rng, int(rng.integers(1, 5)), False)
        a[-1] = max(a[-1], 2)
        b = _squash(rng, a[:-1]) + [a[-1]]
        return "pdpd", a, b
    out = _dims(rng, int(rng.integers(0, 5)), True)
    a = _squash(rng, out[len(out) - int(rng.integers(0, len(out) + 1)):])
    b = _squash(rng, out)
    if rng.random() < 0.5:
        a, b = b, a
    return "numpy", a, b


# --- values -----------------------------------------------------------------------------------------
def edges(et):
    t = element_type(et)
    if t.name == "boolean":
        return [False, True]
    if t.is_float:
        # f64 takes f32's extremes: OpenVINO's CPU plugin computes f64 as f32 and has no f64 reference
        # evaluate for most of these ops, so f64-only magnitudes are checked by hand (tests/test_comparison.py)
        limits = ml_dtypes.finfo(np.float32 if t.name == "f64" else t.dtype)
        big = float(limits.max)
        out = [0.0, -0.0, np.nan, 1.0, -1.0, big, -big, float(limits.tiny)]
        if t.name != "f8e4m3":            # f8e4m3fn has no infinities
            out += [np.inf, -np.inf]
        return out
    info_ = ml_dtypes.iinfo(t.dtype)
    return [0, 1, int(info_.min), int(info_.max), int(info_.max) - 1] + ([-1] if t.is_signed else [])


def pool_values(rng, et, shape, p_edge=0.15, pool=None):
    """Values from a small pool (so that a and b often hold equal elements), some replaced by edges."""
    t = element_type(et)
    shape = tuple(shape)
    if t.name == "boolean":
        return np.asarray(rng.integers(0, 2, shape)).astype(bool)
    base = np.asarray(rng.integers(-6, 7, shape) / 2.0) if t.is_float else array(rng, et, shape, -3, 3).astype(np.int64)
    base = np.asarray(base).astype(object)
    if p_edge and base.size:
        e = np.empty(len(edges(et) if pool is None else pool), dtype=object)
        e[:] = edges(et) if pool is None else pool
        mask = rng.random(shape) < p_edge
        base = np.where(mask, e[rng.integers(0, len(e), shape)], base)
    if t.is_float:
        return np.asarray(base.astype(np.float64)).astype(t.dtype)
    return np.array(base.tolist(), dtype=t.dtype).reshape(shape)


def _sid(shape):
    return "x".join(map(str, shape)) or "s"


# --- the OpenVINO CPU plugin's known infidelities ------------------------------------------------------
INT_CPU = ("the CPU plugin computes integer elementwise ops through f32 (and i64/u64/u32 as i32): integers beyond "
           "2^24 lose digits; OpenVINO's reference evaluate is asked")
F8_CPU = "the CPU plugin has no f8 kernels for elementwise ops; asked with the inputs widened (losslessly) to f32"
F64_REF = ("OpenVINO has no f64 reference evaluate for this op; asked with the inputs as f32 (lossless: the "
           "f64 values of these tables are f32-representable)")
NAN_GREATER_CPU = ("the CPU plugin's Greater/GreaterEqual return true where an operand is NaN (IEEE and OpenVINO's "
                   "reference: false); the reference evaluate is asked")
NAN_GREATER = ("Greater-1", "GreaterEqual-1")
F64_INF_CPU = ("the CPU plugin converts f64 to f32 saturating +-Inf to +-3.4e38; asked with the inputs as f32 "
               "(lossless: the f64 values of these tables are f32-representable)")


def _big(*arrays) -> bool:
    """Integers beyond 2^24 in a case whose output is not empty (OpenVINO's reference evaluate crashes
    on empty outputs, and there are no values to compare)."""
    if any(a.size == 0 for a in arrays):
        return False
    return any(np.abs(a.astype(np.float64)).max() > 2**24 for a in arrays)


def oracle_marks(op, inputs):
    """(reasons, oracle, {port: widened type}) for a case whose inputs the CPU plugin cannot take
    faithfully. f64 values are f32-representable in these tables (see `edges`)."""
    et = element_type(inputs[0])
    why, oracle, cast = [], "openvino", {}
    if et.is_integral and _big(*inputs):
        why, oracle = [INT_CPU], "reference"
    if et.name in ("f8e4m3", "f8e5m2"):
        why, cast = [F8_CPU], {i: "f32" for i in range(len(inputs))}
    if et.name == "f64" and any(np.isinf(a).any() for a in inputs):
        why, cast = [F64_INF_CPU], {i: "f32" for i in range(len(inputs))}
    if op in NAN_GREATER and et.is_float and any(np.isnan(a.astype(np.float32)).any() for a in inputs):
        why, oracle = why + [NAN_GREATER_CPU], "reference"
        if et.name == "f64" and not cast:
            why, cast = why + [F64_REF], {i: "f32" for i in range(len(inputs))}
    return why, oracle, cast


def make_case(op, id, inputs, attrs=None, marks=oracle_marks):
    """A value case, marked where OpenVINO's CPU plugin is not a faithful oracle for its inputs: the
    reasons, and OpenVINO's reference evaluate and/or losslessly converted inputs."""
    why, oracle, cast = marks(op, inputs)
    return Case(op, id, tuple(inputs), dict(attrs or {}), openvino="; ".join(why) or None, oracle=oracle,
                oracle_cast=cast)


# --- generators ---------------------------------------------------------------------------------------
def binary_cases(op, types, n=N, values=pool_values, marks=oracle_marks):
    rng = rng_for(op)
    cycle = itertools.cycle(types)
    out = []
    for i in range(n):
        et = next(cycle)
        mode, sa, sb = shape_pair(rng, i)
        # pdpd values stay where the CPU plugin is faithful: OpenVINO's reference evaluate mis-indexes
        # pdpd's b when b has inner 1s, so these cases cannot be routed to it
        pool = [0, 1, -1] if element_type(et).is_signed else [0, 1]
        a, b = (values(rng, et, s, pool=pool if mode == "pdpd" else None) for s in (sa, sb))
        attrs = {} if mode == "numpy" and i % 3 else {"auto_broadcast": mode}
        out.append(make_case(op, f"{i}_{et}_{mode}_{_sid(sa)}_{_sid(sb)}", (a, b), attrs, marks))
    return out


def unary_cases(op, types, attr_choices=({},), n=N, values=pool_values, marks=oracle_marks):
    rng = rng_for(op)
    cycle = itertools.cycle(types)
    choices = itertools.cycle(attr_choices)
    out = []
    for i in range(n):
        et, attrs = next(cycle), next(choices)
        shape = _dims(rng, int(rng.integers(0, 5)), True)
        x = values(rng, et, shape, p_edge=0.3)
        tag = "_".join(f"{k}{int(v) if isinstance(v, bool) else v}" for k, v in attrs.items())
        out.append(make_case(op, f"{i}_{et}_{_sid(shape)}{'_' + tag if tag else ''}", (x,), attrs, marks))
    return out


def all_edges_cases(op, types, marks=oracle_marks):
    """Every edge value against every edge value of the same type (one case per type)."""
    out = []
    for et in types:
        e = edges(et)
        dt = element_type(et).dtype
        a = np.array(e, dtype=object if not element_type(et).is_float else np.float64)
        grid_a, grid_b = np.meshgrid(a, a, indexing="ij")
        cast = (lambda g: g.astype(np.float64).astype(dt)) if element_type(et).is_float else \
            (lambda g: np.array(g.tolist(), dtype=dt))
        out.append(make_case(op, f"edges_{et}", (cast(grid_a), cast(grid_b)), {}, marks))
    return out


def binary_errors(op, et="f32", other="i32"):
    z = element_type(et).dtype
    return [
        Case(op, "err_broadcast", (np.zeros((2, 3), z), np.zeros((4,), z)), error="do not broadcast"),
        Case(op, "err_none", (np.zeros((2, 3), z), np.zeros((3,), z)), {"auto_broadcast": "none"},
             error="auto_broadcast=none needs equal shapes"),
        Case(op, "err_pdpd_rank", (np.zeros((3,), z), np.zeros((2, 3), z)), {"auto_broadcast": "pdpd"},
             error="pdpd"),
        Case(op, "err_mode", (np.zeros((3,), z), np.zeros((3,), z)), {"auto_broadcast": "explicit"},
             error="'auto_broadcast'"),
        Case(op, "err_types", (np.zeros((3,), z), np.zeros((3,), element_type(other).dtype)),
             error="has element type"),
    ]


def loosen_cases(rng, value_cases, p_rank=0.1):
    """Partial-shape variants of value cases: every input's shape loosened, some of dynamic rank."""
    out = []
    for i, c in enumerate(value_cases):
        infos = []
        for x in c.inputs:
            shape = PartialShape.dynamic() if rng.random() < p_rank else loosen(rng, x.shape)
            infos.append(info(element_type_of(x), shape))
        out.append(ShapeCase(c.op, f"{i}_{c.id}", tuple(infos), c.attrs))
    return out


def binary_shape_errors(op, et="f32"):
    """Broadcasting corners on partial shapes: intervals that must merge, 1 that may stretch, conflicts."""
    cases = [
        ("interval_merge", [(2, 6), 3], [(4, 8), 3], "numpy"),
        ("interval_with_1", [(1, 6)], [(3, 8)], "numpy"),
        ("both_may_be_1", [(0, 6)], [(1, 3)], "numpy"),
        ("dyn_vs_static", [-1, 3], [5, 1], "numpy"),
        ("conflict", [2, 3], [4, 3], "numpy"),
        ("interval_conflict", [(2, 3)], [(5, 8)], "numpy"),
        ("none_interval", [(2, 6), -1], [(4, 8), 3], "none"),
        ("none_rank", [2, 3], [3], "none"),
        ("none_dyn_rank", None, [2, (1, 4)], "none"),
        ("numpy_dyn_rank", None, [2, 3], "numpy"),
        ("pdpd_same_rank", [2, -1, 4], [1, 3, 4], "pdpd"),
        ("pdpd_dyn_rank", [2, 3], None, "pdpd"),
        ("pdpd_conflict", [2, 3, 4], [2, 5, 4], "pdpd"),
        ("scalar_scalar", [], [], "numpy"),
        ("empty_vs_1", [0, 3], [1, 3], "numpy"),
        ("empty_vs_dyn", [0], [-1], "numpy"),
    ]
    return [ShapeCase(op, f"corner_{name}", (info(et, a), info(et, b)), {"auto_broadcast": m})
            for name, a, b, m in cases]


# --- this table -------------------------------------------------------------------------------------
from ...opset.comparison import COMPARABLE   # noqa: E402  (after the shared generators above)

BINARY = ("Equal-1", "NotEqual-1", "Less-1", "LessEqual-1", "Greater-1", "GreaterEqual-1")
INF_ATTRS = ({}, {"detect_negative": False}, {"detect_positive": False},
             {"detect_negative": False, "detect_positive": False}, {"detect_negative": True, "detect_positive": True})


def cases():
    out = []
    for op in BINARY:
        out += binary_cases(op, COMPARABLE) + all_edges_cases(op, COMPARABLE) + binary_errors(op)
    out += unary_cases("IsFinite-10", FLOAT) + unary_cases("IsNaN-10", FLOAT)
    out += unary_cases("IsInf-10", FLOAT, INF_ATTRS)
    for op in ("IsFinite-10", "IsNaN-10", "IsInf-10"):
        out += [Case(op, "err_int", (np.zeros(3, np.int32),), error="expected one of"),
                Case(op, "err_bool", (np.zeros(3, bool),), error="expected one of")]
    out.append(Case("IsInf-10", "err_attr", (np.zeros(3, np.float32),), {"detect_negative": "yes"},
                    error="'detect_negative'"))
    return out


def shape_cases():
    rng = np.random.default_rng(7)
    value_cases = [c for c in cases() if c.error is None]
    out = loosen_cases(rng, value_cases)
    for op in BINARY:
        out += binary_shape_errors(op)
    out += [ShapeCase("IsNaN-10", "dyn_rank", (info("f16", None),)),
            ShapeCase("IsInf-10", "interval", (info("bf16", [(1, 5), -1, 0]),))]
    return out
