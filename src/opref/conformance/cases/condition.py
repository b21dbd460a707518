"""Cases for the condition/selection ops: Select under every `auto_broadcast` mode (three-way
broadcasting corners, every element type, edge values), Bucketize (boundaries of every numeric
type, both bound modes, empty boundaries, NaN), NonZero (every type, empty and scalar inputs)."""
from __future__ import annotations

import itertools

import numpy as np

from ...opset.condition import SELECT_1
from ...shapes import PartialShape
from ...types import element_type, element_type_of
from . import Case, ShapeCase, info
from ._gen import loosen, rng_for
from .comparison import F8_CPU, INT_CPU, _big, _dims, _sid, _squash, make_case, pool_values

N = 120
SUB_BYTE_CPU = "the CPU plugin has no Select for {et}; asked with then/else widened (losslessly) to {wide}"
PDPD_CPU = "the CPU plugin rejects Select with auto_broadcast=pdpd; OpenVINO's reference evaluate is asked"
WIDE = {"f8e4m3": "f32", "f8e5m2": "f32", "i4": "i8", "u4": "u8", "u1": "u8"}


def _select_marks(op, inputs):
    cond, then, else_ = inputs
    et = element_type(then)
    why, oracle, cast = [], "openvino", {}
    if et.name in WIDE:
        why = [F8_CPU if et.is_float else SUB_BYTE_CPU.format(et=et.name, wide=WIDE[et.name])]
        cast = {1: WIDE[et.name], 2: WIDE[et.name]}
    if et.is_integral and _big(then, else_) and cond.size:
        why, oracle = why + [INT_CPU], "reference"
    return why, oracle, cast


# --- Select-1 -----------------------------------------------------------------------------------------
def _pdpd_marks(op, inputs):
    why, _, cast = _select_marks(op, inputs)
    return why + [PDPD_CPU], "reference", cast


def _select_shapes(rng, i):
    """(mode, cond, then, else) shapes. numpy: each a squashed suffix of the output (cond may be the
    widest); none: equal; pdpd: equal ranks, then the widest and the last dim shared (see
    comparison.shape_pair for why pdpd ranks are equal)."""
    kind = i % 8
    if kind == 6:
        s = _dims(rng, int(rng.integers(0, 5)), True)
        return "none", s, list(s), list(s)
    if kind == 7:
        t = _dims(rng, int(rng.integers(1, 5)), False)
        t[-1] = max(t[-1], 2)
        return "pdpd", _squash(rng, t[:-1]) + [t[-1]], t, _squash(rng, t[:-1]) + [t[-1]]
    out = _dims(rng, int(rng.integers(0, 5)), True)
    shapes = [_squash(rng, out[len(out) - int(rng.integers(0, len(out) + 1)):]) for _ in range(3)]
    shapes[int(rng.integers(0, 3))] = _squash(rng, out, 0.2)
    return "numpy", *shapes


def _select():
    op = "Select-1"
    rng = rng_for(op)
    types = itertools.cycle(SELECT_1.type_constraints["T"])
    out = []
    for i in range(N):
        et = next(types)
        mode, sc, st, se = _select_shapes(rng, i)
        pool = [0, 1] if mode == "pdpd" else None
        c = np.asarray(rng.random(sc) < 0.5)
        t, e = (pool_values(rng, et, s, 0.2, pool) for s in (st, se))
        attrs = {} if mode == "numpy" and i % 3 else {"auto_broadcast": mode}
        out.append(make_case(op, f"{i}_{et}_{mode}_{_sid(sc)}_{_sid(st)}_{_sid(se)}", (c, t, e), attrs,
                             _pdpd_marks if mode == "pdpd" else _select_marks))
    # the spec's example, and a cond that widens the output (numpy: OpenVINO broadcasts all three)
    out.append(make_case(op, "spec_example", (np.array([[False, False], [True, False], [True, True]]),
                                              np.array([[-1, 0], [1, 2], [3, 4]], np.int32),
                                              np.array([[11, 10], [9, 8], [7, 6]], np.int32)), marks=_select_marks))
    out.append(make_case(op, "cond_widens", (np.array([[True], [False]]), np.arange(3, dtype=np.float32),
                                             np.full(3, -1.0, np.float32)), marks=_select_marks))
    f = np.zeros
    out += [
        Case(op, "err_cond_type", (f(3, np.int32), f(3, np.float32), f(3, np.float32)), error="expected one of boolean"),
        Case(op, "err_types", (f(3, bool), f(3, np.float32), f(3, np.int32)), error="they must match"),
        Case(op, "err_broadcast", (f(3, bool), f((2, 3), np.float32), f((4, 3), np.float32)), error="do not broadcast"),
        Case(op, "err_cond_broadcast", (f(4, bool), f((2, 3), np.float32), f(3, np.float32)), error="do not broadcast"),
        Case(op, "err_none", (f(3, bool), f((2, 3), np.float32), f((2, 3), np.float32)), {"auto_broadcast": "none"},
             error="auto_broadcast=none needs equal shapes"),
        Case(op, "err_pdpd", (f(3, bool), f(3, np.float32), f((2, 3), np.float32)), {"auto_broadcast": "pdpd"},
             error="pdpd"),
        Case(op, "err_string", (f(1, bool), np.array(["a"]), np.array(["b"])), error="expected one of"),
    ]
    return out


def _select_shapes_partial():
    rng = np.random.default_rng(3)
    out = []
    for i, c in enumerate(x for x in _select() if x.error is None):
        infos = [info(element_type_of(x), PartialShape.dynamic() if rng.random() < 0.08 else loosen(rng, x.shape))
                 for x in c.inputs]
        out.append(ShapeCase(c.op, f"{i}_{c.id}", tuple(infos), c.attrs))
    b, f = "boolean", "f32"
    for name, sc, st, se, mode in [
            ("cond_interval", [(1, 4)], [(2, 6), 3], [3], "numpy"),
            ("cond_conflict", [4], [2, 3], [3], "numpy"),
            ("all_dynamic_dims", [-1, -1], [-1], [-1, 1], "numpy"),
            ("none_merge", [(1, 5), -1], [(3, 8), 4], [-1, (2, 4)], "none"),
            ("none_conflict", [2, 3], [2, 4], [2, 3], "none"),
            ("pdpd_dyn_else", [2, 3], [2, -1], [2, 3], "pdpd"),
            ("pdpd_conflict", [2, 3], [2, 3], [2, 4], "pdpd"),
            ("pdpd_dyn_rank", None, [2, 3], None, "pdpd"),
            ("numpy_dyn_rank_cond", None, [2, 3], [3], "numpy")]:
        out.append(ShapeCase("Select-1", f"corner_{name}", (info(b, sc), info(f, st), info(f, se)),
                             {"auto_broadcast": mode}))
    return out


# --- Bucketize-3 ---------------------------------------------------------------------------------------
def _bucketize():
    op = "Bucketize-3"
    rng = rng_for(op)
    from ...opset.condition import BUCKETIZE_3
    types = BUCKETIZE_3.type_constraints["T"]
    data_t, bound_t = itertools.cycle(types), itertools.cycle(types[3:] + types[:3])
    out = []
    for i in range(N):
        et, bt = next(data_t), next(bound_t)
        if i % 4 == 0:
            bt = et
        shape = _dims(rng, int(rng.integers(0, 4)), True)
        x = pool_values(rng, et, shape, 0.15, _i32_pool(et))
        k = int(rng.integers(0, 6)) if i % 10 else 0
        b = pool_values(rng, bt, (k + 3,), 0.3, _i32_pool(bt))
        if element_type(bt).is_float:      # sorted as f64: NaN last on every NumPy and ml_dtypes version
            b = np.unique(b.astype(np.float64))[:k]
            b = b[~np.isnan(b)].astype(element_type(bt).dtype)
        else:
            b = np.unique(b)[:k]
        attrs = {"output_type": ("i64", "i32")[i % 2], "with_right_bound": bool(i % 3)}
        out.append(make_case(op, f"{i}_{et}_{_sid(shape)}_{bt}_{len(b)}{'_right' if attrs['with_right_bound'] else ''}"
                                 f"_{attrs['output_type']}", (x, b), attrs, _two_type_marks))
    spec = (np.array([[3, 50], [10, -1]], np.int32), np.array([0, 5, 10], np.int32))
    out.append(make_case(op, "spec_example", spec, {"output_type": "i64"}, _two_type_marks))
    out.append(make_case(op, "default_output_type", spec, {}, _two_type_marks))     # i64, the spec's default
    f = np.zeros
    out += [
        Case(op, "err_buckets_2d", (f(3, np.float32), f((2, 2), np.float32)), {"output_type": "i64"},
             error="input 'buckets' must be 1-D"),
        Case(op, "err_output_type", (f(3, np.float32), f(2, np.float32)), {"output_type": "f32"},
             error="'output_type'"),
        Case(op, "err_bool", (f(3, bool), f(2, np.float32)), {"output_type": "i64"}, error="expected one of"),
    ]
    return out


def _two_type_marks(op, inputs):
    """Widen f8 data and boundaries to f32 (no f8 kernels in the CPU plugin); big integers go to the
    reference evaluate (the CPU plugin computes i64/u64/u32 as i32)."""
    why, cast, oracle = [], {}, "openvino"
    for i, x in enumerate(inputs):
        if element_type_of(x) in ("f8e4m3", "f8e5m2"):
            why, cast = [F8_CPU], {**cast, i: "f32"}
    return why, oracle, cast


def _i32_pool(et):
    """Edges for i64/u64/u32 within i32's range: the CPU plugin computes these types as i32, and
    OpenVINO has no reference evaluate for Bucketize on them nor for NonZero's dynamic output; the
    full 64-bit range is checked by hand in tests/test_condition.py."""
    if et not in ("i64", "u64", "u32"):
        return None
    return [0, 1, 2**31 - 1, 2**24 + 1] + ([-1, -2**31] if et == "i64" else [])


# --- NonZero-3 -----------------------------------------------------------------------------------------
def _non_zero():
    op = "NonZero-3"
    rng = rng_for(op)
    from ...opset.condition import NON_ZERO_3
    types = itertools.cycle(NON_ZERO_3.type_constraints["T"])
    out = []
    for i in range(N):
        et = next(types)
        shape = _dims(rng, int(rng.integers(0, 5)), True)
        x = pool_values(rng, et, shape, 0.2, _i32_pool(et)) if et != "u1" else rng.integers(0, 2, shape).astype(np.uint8)
        if element_type(et).name != "boolean" and x.size and rng.random() < 0.5:   # plenty of zeros
            x = np.where(rng.random(shape) < 0.5, np.zeros((), x.dtype), x).astype(x.dtype)
        attrs = {} if i % 3 == 0 else {"output_type": ("i64", "i32")[i % 2]}
        out.append(make_case(op, f"{i}_{et}_{_sid(shape)}_{attrs.get('output_type', 'default')}", (x,), attrs,
                             _nz_marks))
    out.append(make_case(op, "spec_example", (np.array([[1, 0], [1, 1]], np.int32),), marks=_nz_marks))
    out.append(Case(op, "err_output_type", (np.zeros(3, np.float32),), {"output_type": "u8"}, error="'output_type'"))
    out.append(Case(op, "err_string", (np.array(["a"]),), error="expected one of"))
    return out


def _nz_marks(op, inputs):
    et = element_type_of(inputs[0])
    if et in WIDE:
        return [F8_CPU if et.startswith("f8") else SUB_BYTE_CPU.format(et=et, wide=WIDE[et])
                .replace("Select", "NonZero").replace("then/else", "the data")], "openvino", {0: WIDE[et]}
    return [], "openvino", {}


def cases():
    return _select() + _bucketize() + _non_zero()


def shape_cases():
    rng = np.random.default_rng(17)
    out = _select_shapes_partial()
    for i, c in enumerate(x for x in _bucketize() + _non_zero() if x.error is None):
        infos = [info(element_type_of(x), PartialShape.dynamic() if rng.random() < 0.1 else loosen(rng, x.shape))
                 for x in c.inputs]
        out.append(ShapeCase(c.op, f"{i}_{c.id}", tuple(infos), c.attrs))
    out += [ShapeCase("Bucketize-3", "buckets_2d", (info("f32", [3]), info("f32", [2, 2])), {"output_type": "i64"}),
            ShapeCase("Bucketize-3", "buckets_dyn_rank", (info("f32", [3, -1]), info("i32", None)), {"output_type": "i32"}),
            ShapeCase("NonZero-3", "interval", (info("f32", [(2, 5), 3]),)),
            ShapeCase("NonZero-3", "unbounded", (info("i8", [(2, None), 3]),), {"output_type": "i32"}),
            ShapeCase("NonZero-3", "scalar", (info("f32", []),)),
            ShapeCase("NonZero-3", "empty", (info("u8", [0, -1]),))]
    return out
