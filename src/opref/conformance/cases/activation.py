"""Cases: activation functions. Seeded random shapes (scalars and empty tensors included) over every
allowed element type, f32 sampled most (it is what models run and what onnxruntime checks), one
edge-value tensor per type (0, -0, +-inf, NaN, large magnitudes, each function's knees), every
attribute value, parameter inputs of each allowed shape; shape cases loosen the same shapes."""
from __future__ import annotations

import itertools

import numpy as np

from ...shapes import PartialShape
from ...types import element_type
from ..departures import departures_for
from . import Case, ShapeCase, info
from ._gen import array, loosen, rng_for

FLOATS = ("f32", "f16", "f32", "bf16", "f32", "f64", "f8e4m3", "f32", "f8e5m2")   # f32 weighted
INTS = ("i32", "i64", "i8", "u8", "i16", "u16", "u32", "u64")
N = 100
EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.9, -2.9, 3.0, -3.0, 3.1, -3.1, 6.0, 1e-3, -1e-3, 10.0, -10.0, 15.0,
         20.0, -20.0, 25.0, 40.0, -40.0, 88.0, -88.0, 100.0, -100.0, 1e4, -1e4, np.inf, -np.inf, np.nan]

F8_CPU = ("the CPU plugin has no f8 kernels for this op; asked with the data widened to f32 (lossless), the result "
          "compared at f8 tolerance")
CPU_WIDE_INT = ("the CPU plugin computes i32/i64/u32/u64 through f32 or i32 (values beyond 2^24 change); OpenVINO's "
                "reference evaluate is asked")
CPU_CLAMP_UNSIGNED = ("the CPU plugin wraps a negative max bound into an unsigned type (max=-3 -> 2^32-3); the spec "
                      "rounds it (to 0 in range): OpenVINO's reference evaluate is asked")
CPU_NAN_MAX = ("the CPU plugin's max/min turn NaN into the bound (Relu(NaN) = 0); the spec's formula and OpenVINO's "
               "reference evaluate keep NaN")
F64_CPU = ("the CPU plugin computes f64 as f32 (saturating +-inf to the f32 limits); asked with the data as f32, "
           "compared at f32 tolerance")
CPU_NONFINITE = ("the CPU plugin departs from the op's formula on NaN/inf inputs (Exp(NaN) = inf, HSigmoid(NaN) = 0, "
                 "Gelu(+inf) = NaN, Softmax of a row with inf); OpenVINO's reference evaluate keeps the formula's "
                 "NaN/inf and is asked")
NAN_HARD_SIGMOID = ("OpenVINO gives HardSigmoid(NaN) = 1 (its min/max pick the bound); the spec's "
                    "max(0, min(1, alpha * x + beta)) propagates NaN, as opref and Clamp's reference do")
NAN_LOG_SOFTMAX = ("OpenVINO gives -inf where a row holds +inf; the spec's x - max(x) - log(sum(exp(x - max(x)))) is "
                   "NaN there (inf - inf), as Softmax's reference evaluate gives for the same rows")
UNARY = ("Relu-1", "Sigmoid-1", "Clamp-1", "Elu-1", "Exp-1", "Gelu-2", "Gelu-7", "HSwish-4", "HSigmoid-5",
         "Mish-4", "SoftPlus-4", "SoftSign-9")
# ops whose reference evaluate keeps the formula's NaN/inf where the CPU plugin does not
NONFINITE_REFERENCE = ("Exp-1", "Gelu-7", "HSigmoid-5", "Softmax-1", "Softmax-8")
NAN_DIFFERS = {"HardSigmoid-1": (NAN_HARD_SIGMOID, np.isnan), "LogSoftmax-5": (NAN_LOG_SOFTMAX, np.isposinf)}
# departures (conformance/departures.py) that only some machines' kernels make: the case accepts either answer
DEPARTS = {"Gelu-2": ("gelu-inf-nan",)}


def _case(op, id, inputs, attrs=None):
    """A value case, marked where the CPU plugin is not a faithful oracle for its element type."""
    et = element_type(inputs[0]).name
    why, cast, tolerance, oracle, nan_differs = [], {}, None, "openvino", {}
    x = inputs[0].astype(np.float64) if element_type(inputs[0]).is_float else None
    if et in ("f8e4m3", "f8e5m2"):
        why, cast = why + [F8_CPU], {i: "f32" for i in range(len(inputs))}
    elif et == "f64":
        why, tolerance, cast = why + [F64_CPU], "f32", {i: "f32" for i in range(len(inputs))}
    elif et in ("i32", "i64", "u32", "u64") and np.any(np.abs(inputs[0].astype(np.float64)) > 2**24):
        why, oracle = why + [CPU_WIDE_INT], "reference"
    elif op == "Clamp-1" and et in INTS and et.startswith("u") and attrs["max"] < 0:
        why, oracle = why + [CPU_CLAMP_UNSIGNED], "reference"
    if x is not None:
        if op in ("Relu-1", "Clamp-1") and np.any(np.isnan(x)):
            why, oracle = why + [CPU_NAN_MAX], "reference"
        elif op in NONFINITE_REFERENCE and not np.all(np.isfinite(x)):
            why, oracle = why + [CPU_NONFINITE], "reference"
    if x is not None and op in NAN_DIFFERS and np.any(NAN_DIFFERS[op][1](x)):
        nan_differs = {"openvino": NAN_DIFFERS[op][0]}
        if op == "LogSoftmax-5" and et == "f64":      # onnxruntime's f64 kernel (not its f32 one) does the same
            nan_differs["onnxruntime"] = "onnxruntime's f64 LogSoftmax: " + NAN_DIFFERS[op][0]
    departures = departures_for(DEPARTS.get(op, ()), inputs, attrs)
    return Case(op, id, tuple(inputs), attrs or {}, openvino="; ".join(why) or None, oracle_cast=cast,
                tolerance=tolerance, oracle=oracle, nan_differs=nan_differs, departures=departures)


def _shape(rng, max_rank=4):
    rank = int(rng.integers(0, max_rank + 1))
    return [int(rng.integers(1, 5)) if rng.random() > 0.05 else 0 for _ in range(rank)]


def _edges(et):
    with np.errstate(over="ignore"):
        return np.array(EDGES, np.float64).astype(element_type(et).dtype)


def _attr_choices(op, i, et):
    if op == "Elu-1":
        return {"alpha": (1.0, 0.1, 2.5, 0.0)[i % 4]}
    if op == "Gelu-7":
        return {"approximation_mode": ("erf", "tanh")[i % 2]}
    if op == "Clamp-1":
        lo, hi = ((-2.5, 3.7), (0.0, 6.0), (-1.0, 1.0), (0.5, 0.5), (-20.0, -3.0), (-1e10, 1e10), (3.2, 3.8))[i % 7]
        return {"min": lo, "max": hi}
    return {}


def _unary_cases(op):
    rng = rng_for(op)
    types = FLOATS + (INTS if op in ("Relu-1", "Clamp-1") else ())
    out = []
    for i, et in zip(range(N), itertools.cycle(types)):
        shape = _shape(rng)
        x = array(rng, et, shape)
        attrs = _attr_choices(op, i, et)
        out.append(_case(op, f"{i}_{et}_{'x'.join(map(str, shape)) or 'scalar'}", (x,), attrs))
    for et in dict.fromkeys(FLOATS):
        for j in range(2 if op in ("Gelu-7", "Elu-1", "Clamp-1") else 1):
            attrs = _attr_choices(op, j + 1, et)
            x = _edges(et)
            if op == "Exp-1" and et == "f64":
                # the CPU plugin saturates f64 results beyond f32's range and OpenVINO has no f64
                # reference for Exp: no oracle can check exp(x) > 3.4e38, so those inputs are capped
                x = np.where(np.isfinite(x) & (x > 88), 88.0, x)
            out.append(_case(op, f"edges_{et}_{j}", (x,), attrs))
    if op in ("Relu-1", "Clamp-1"):
        for et in INTS:
            info_ = np.iinfo(element_type(et).dtype)
            vals = [info_.min, info_.min + 1, -1, 0, 1, 2, 3, 5, 6, info_.max - 1, info_.max]
            x = np.array([int(v) for v in vals if info_.min <= v <= info_.max], dtype=element_type(et).dtype)
            out.append(_case(op, f"limits_{et}", (x,), _attr_choices(op, 0, et)))
    return out


# --- Softmax / LogSoftmax --------------------------------------------------------------------------
def _axis_cases(op):
    rng = rng_for(op)
    negative = op != "Softmax-1"
    out = []
    for i, et in zip(range(N), itertools.cycle(FLOATS)):
        shape = [int(rng.integers(1, 5)) for _ in range(int(rng.integers(1, 5)))]
        lo = -len(shape) if negative else 0
        axis = int(rng.integers(lo, len(shape)))
        x = array(rng, et, shape)
        out.append(_case(op, f"{i}_{et}_{'x'.join(map(str, shape))}_axis{axis}", (x,), {"axis": axis}))
    for et in dict.fromkeys(FLOATS):
        e = _edges(et)
        x = np.stack([e, e[::-1], np.zeros_like(e), e]).astype(e.dtype)
        for axis in (1, 0):
            out.append(_case(op, f"edges_{et}_axis{axis}", (x,), {"axis": axis}))
    for shape in ([1, 1000 // 4, 4], [2, 0, 3], [5, 1]):
        out.append(_case(op, f"wide_{'x'.join(map(str, shape))}", (array(rng, "f32", shape),), {"axis": 1}))
    x = np.zeros((2, 3), np.float32)
    out += [Case(op, "error_axis_high", (x,), {"axis": 2}, error="attribute 'axis' = 2 is out of range"),
            Case(op, "error_axis_low", (x,), {"axis": -3}, error="attribute 'axis' = -3 is out of range")]
    if not negative:
        out.append(Case(op, "error_axis_negative", (x,), {"axis": -1}, error="attribute 'axis' = -1 is out of range"))
    return out


# --- ops with parameter inputs ---------------------------------------------------------------------
def _param_cases(op):
    rng = rng_for(op)
    out = []
    for i, et in zip(range(N), itertools.cycle(FLOATS)):
        shape = _shape(rng)
        x = array(rng, et, shape)
        dt = element_type(et).dtype
        sid = f"{i}_{et}_{'x'.join(map(str, shape)) or 'scalar'}"
        if op == "Swish-4":
            if i % 4 == 0:
                out.append(_case(op, sid + "_nobeta", (x,)))
            else:
                beta = np.array((1.0, 0.0, 0.5, 2.0, 1.702)[i % 5], np.float32).astype(dt)
                out.append(_case(op, sid, (x, beta)))
        elif op == "HardSigmoid-1":
            # no zero alpha/beta here: the CPU plugin takes 0 for "unset" and uses 0.2/0.5 instead (the
            # zero cases are checked against the formula in tests/test_activation.py)
            a, b = [(0.2, 0.5), (1 / 6, 0.5), (1.0, 1e-3), (-0.5, 0.25), (1e-3, 2.0)][i % 5]
            out.append(_case(op, sid, (x, np.array(a, np.float32).astype(dt), np.array(b, np.float32).astype(dt))))
        elif op == "Selu-1":
            a, lam = [(1.6732632, 1.050701), (1.0, 1.0), (0.5, 2.0), (2.0, 0.5)][i % 4]
            pshape = () if i % 2 else (1,)
            out.append(_case(op, sid, (x, np.full(pshape, a, np.float32).astype(dt),
                                       np.full(pshape, lam, np.float32).astype(dt))))
        elif op == "PRelu-1":
            if not shape:
                shape = [3]
                x = array(rng, et, shape)
            kind = i % 5
            if kind == 0 and len(shape) >= 2:
                sshape = [shape[1]]                                      # per channel
            elif kind == 1:
                sshape = [1]
            elif kind == 2:
                sshape = shape[-int(rng.integers(1, len(shape) + 1)):]  # trailing dims (numpy)
            elif kind == 3:
                sshape = [d if rng.random() < 0.5 else 1 for d in shape]
            else:
                sshape = [shape[-1]]
            sid = f"{i}_{et}_{'x'.join(map(str, shape))}_slope{'x'.join(map(str, sshape))}"
            out.append(_case(op, sid, (x, (array(rng, et, sshape) / 10).astype(x.dtype))))
    for et in dict.fromkeys(FLOATS):
        e = _edges(et)
        dt = e.dtype
        one = np.array(0.5, np.float32).astype(dt)
        params = {"Swish-4": (np.array(1.0, dt),), "HardSigmoid-1": (one, one),
                  "Selu-1": (np.array([1.6732632], np.float32).astype(dt), np.array([1.050701], np.float32).astype(dt)),
                  "PRelu-1": (np.array([0.25], np.float32).astype(dt),)}[op]
        out.append(_case(op, f"edges_{et}", (e,) + params))
    x = np.zeros((2, 3, 4), np.float32)
    errors = {
        "Swish-4": [((x, np.ones(2, np.float32)), "input 'beta' must be a scalar")],
        "HardSigmoid-1": [((x, np.ones(2, np.float32), np.ones((), np.float32)), "input 'alpha' must be a scalar"),
                          ((x, np.ones((), np.float32), np.ones((1, 1), np.float32)), "input 'beta' must be a scalar")],
        "Selu-1": [((x, np.ones(2, np.float32), np.ones(1, np.float32)), "input 'alpha' must be a scalar"),
                   ((x, np.ones(1, np.float32), np.ones((1, 1), np.float32)), "input 'lambda' must be a scalar")],
        "PRelu-1": [((x, np.ones(5, np.float32)), "slope [5] broadcasts neither"),
                    ((x, np.ones((2, 1, 1, 1), np.float32)), "has more dimensions than data")],
    }[op]
    out += [Case(op, f"error_{k}", ins, error=msg) for k, (ins, msg) in enumerate(errors)]
    return out


def cases():
    out = []
    for op in UNARY:
        out += _unary_cases(op)
    out.append(Case("Clamp-1", "error_min_above_max", (np.zeros(3, np.float32),), {"min": 1.0, "max": 0.0},
                    error="attribute 'min' must be <= 'max'"))
    out.append(Case("Gelu-7", "error_mode", (np.zeros(3, np.float32),), {"approximation_mode": "sigmoid"},
                    error="'approximation_mode' = 'sigmoid' is not one of"))
    out.append(Case("Relu-1", "error_string", (np.array(["a"]),), error="input 'data' has element type string"))
    out.append(Case("Elu-1", "error_int", (np.zeros(3, np.int32),), {"alpha": 1.0}, error="input 'data' has element type i32"))
    for op in ("Softmax-1", "Softmax-8", "LogSoftmax-5"):
        out += _axis_cases(op)
    for op in ("Swish-4", "HardSigmoid-1", "Selu-1", "PRelu-1"):
        out += _param_cases(op)
    return out


# --- shape cases -----------------------------------------------------------------------------------
SPEC_PRELU = ("OpenVINO's shape inference does not check slope at all; the spec needs it to broadcast per channel "
              "or numpy-style, so opref rejects it")

SPEC_SELU = ("OpenVINO's shape inference accepts an alpha of two elements; the spec says alpha and lambda hold one "
             "element each, so opref rejects it")


def _shape_cases(op):
    rng = rng_for(op, 7)
    out = []
    ints = op in ("Relu-1", "Clamp-1")
    types = FLOATS + (INTS if ints else ())
    for i, et in zip(range(N), itertools.cycle(types)):
        rank = int(rng.integers(0, 6))
        shape = [int(rng.integers(0, 6)) for _ in range(rank)]
        ps = loosen(rng, shape) if i % 10 else PartialShape.dynamic()
        attrs = _attr_choices(op, i, et) if op in UNARY else {}
        ins = [info(et, ps)]
        if op in ("Softmax-1", "Softmax-8", "LogSoftmax-5"):
            r = rank if ps.rank_is_static else 3
            lo = 0 if op == "Softmax-1" else -max(r, 1)
            attrs = {"axis": int(rng.integers(lo, max(r, 1)))}
        elif op == "Swish-4":
            if i % 3:
                ins.append(info(et, ["[]", "[...]", "[]"][i % 3]))
        elif op == "HardSigmoid-1":
            ins += [info(et, "[]"), info(et, ["[]", "[...]"][i % 2])]
        elif op == "Selu-1":
            ins += [info(et, ["[1]", "[]", "[?]", "[...]"][i % 4]), info(et, ["[]", "[1]"][i % 2])]
        elif op == "PRelu-1":
            if rank >= 2 and i % 3 == 0:
                sl = loosen(rng, [shape[1]])
            elif rank >= 1 and i % 3 == 1:
                sl = loosen(rng, shape[-1:])
            else:
                sl = PartialShape(["[1]", "[...]"][i % 2])
            ins.append(info(et, sl))
        out.append(ShapeCase(op, f"{i}_{et}_{ps}", tuple(ins), attrs))
    f = "f32"
    if op in ("Softmax-1", "Softmax-8", "LogSoftmax-5"):
        for axis in (-4, -3, -1, 0, 2, 3):
            out.append(ShapeCase(op, f"axis{axis}_rank3", (info(f, "[2,?,4..8]"),), {"axis": axis}))
        out.append(ShapeCase(op, "axis_dynamic_rank", (info(f, "[...]"),), {"axis": 5}))
        out.append(ShapeCase(op, "scalar", (info(f, "[]"),), {"axis": 0}))
    if op == "Clamp-1":
        out.append(ShapeCase(op, "min_above_max", (info(f, "[2,3]"),), {"min": 2.0, "max": 1.0}))
    if op == "PRelu-1":
        for d, s in (("[1,3,4,4]", "[3]"), ("[1,3,4,4]", "[4]"), ("[1,3,4,4]", "[3,1,1]"), ("[1,3..5,4]", "[4]"),
                     ("[?,?,4]", "[3]"), ("[2,3]", "[2,3]"), ("[]", "[1]"), ("[1,3,4,4]", "[1,3,1,1]")):
            out.append(ShapeCase(op, f"slope_{d}_{s}", (info(f, d), info(f, s))))
        for d, s in (("[1,3,4,4]", "[5]"), ("[1,3,4,5]", "[3,4]"), ("[1,3,4,4]", "[2,1,1,1,1]"), ("[3]", "[2]")):
            out.append(ShapeCase(op, f"slope_bad_{d}_{s}", (info(f, d), info(f, s)), openvino=SPEC_PRELU))
    if op == "Swish-4":
        out.append(ShapeCase(op, "beta_vector", (info(f, "[2,3]"), info(f, "[2]"))))
    if op == "HardSigmoid-1":
        out.append(ShapeCase(op, "alpha_vector", (info(f, "[2,3]"), info(f, "[2]"), info(f, "[]"))))
    if op == "Selu-1":
        out.append(ShapeCase(op, "alpha_two", (info(f, "[2,3]"), info(f, "[2]"), info(f, "[1]")), openvino=SPEC_SELU))
    return out


def shape_cases():
    out = []
    for op in UNARY + ("Softmax-1", "Softmax-8", "LogSoftmax-5", "Swish-4", "HardSigmoid-1", "Selu-1", "PRelu-1"):
        out += _shape_cases(op)
    return out
