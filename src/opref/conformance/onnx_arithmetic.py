"""ONNX equivalents: arithmetic ops. onnxruntime's CPU kernels cover few element types per op, so
inputs are widened where that is exact and keeps the op's meaning: floats to f32 (f64 kept where
the kernel has it), integers to i64 for ops whose integer results wrap back to the narrow type
unchanged (sums, products, remainders, truncating division, comparisons). Cases whose meaning ONNX
does not share return None: Divide with m_pythondiv on signed integers, FloorMod of floats, integer
inputs of transcendental functions (OpenVINO rounds the result), NaN in Maximum/Minimum (ONNX
propagates it, OpenVINO's reference does not), Round half_away_from_zero."""
from __future__ import annotations

import numpy as np

from ..runtime.kernels._elementwise import broadcast_pair
from ..types import element_type
from .onnx_export import OnnxOp, Unsupported


def _kind(x) -> str:
    t = element_type(x)
    return "f" if t.is_float else "u" if t.name.startswith("u") else "i"


def _float(x, f64_ok=True):
    x = np.asarray(x)
    return x if x.dtype == np.float32 or (f64_ok and x.dtype == np.float64) else x.astype(np.float32)


def _int(x):
    x = np.asarray(x)
    if x.dtype == np.uint64 and x.size and x.max() >= 2**63:
        return None
    return x.astype(np.int64)


def _widen(xs, f64_ok=True, ints=True):
    """The inputs widened for onnxruntime, or None where that is not exact."""
    if _kind(xs[0]) == "f":
        return [_float(x, f64_ok) for x in xs]
    if not ints:
        return None
    if any(np.asarray(x).size and np.abs(np.asarray(x).astype(np.float64)).max() >= 2**31 for x in xs):
        return None    # onnxruntime 1.31's int64 Sign/Min/Max/Mod truncate to 32 bits (Sign(2^32 - 2) = -1)
    out = [_int(x) for x in xs]
    return None if any(x is None for x in out) else out


def _binary(op_type, *, ints=True, attrs=None, f64_ok=True):
    def export(inputs, a):
        x, y = broadcast_pair(inputs[0], inputs[1], a["auto_broadcast"])   # pdpd: b laid out for NumPy rules
        xs = _widen([x, y], f64_ok, ints)
        if xs is None:
            return None
        return OnnxOp(op_type, xs, dict(attrs or {}), opset=18, output_types=[xs[0].dtype])
    return export


def _divide(inputs, a):
    if _kind(inputs[0]) == "i" and a["m_pythondiv"]:
        return None                      # ONNX Div truncates integers
    return _binary("Div")(inputs, a)


def _power(inputs, a):
    if _kind(inputs[0]) != "f" and np.any(inputs[1].astype(np.int64) < 0):
        return None
    if _kind(inputs[0]) != "f":
        x, y = broadcast_pair(inputs[0], inputs[1], a["auto_broadcast"])
        return OnnxOp("Pow", [x.astype(np.int64), y.astype(np.int64)], opset=18, output_types=[np.int64])
    return _binary("Pow")(inputs, a)


def _minmax(op_type):
    base = _binary(op_type)

    def export(inputs, a):
        if _kind(inputs[0]) == "f" and any(np.isnan(x.astype(np.float32)).any() for x in inputs):
            return None
        return base(inputs, a)
    return export


def _floor_mod(inputs, a):
    if _kind(inputs[0]) == "f":
        return None                      # ONNX Mod with fmod=0 takes integers only
    return _binary("Mod", attrs={"fmod": 0})(inputs, a)


def _unary(op_type, *, ints=False, f64_ok=True):
    def export(inputs, a):
        xs = _widen(inputs[:1], f64_ok, ints)
        if xs is None:
            return None
        return OnnxOp(op_type, xs, opset=18, output_types=[xs[0].dtype])
    return export


def _round(inputs, a):
    if a["mode"] != "half_to_even":
        return Unsupported("ONNX Round is half_to_even only", f"mode={a['mode']}")
    if _kind(inputs[0]) != "f":
        return Unsupported("ONNX Round takes floats only", element_type(inputs[0]).name)
    return _unary("Round")(inputs, a)


def _cumsum(inputs, a):
    xs = _widen(inputs[:1])
    if xs is None:
        return None
    axis = np.asarray(inputs[1] if len(inputs) > 1 else 0, dtype=np.int64)
    return OnnxOp("CumSum", [xs[0], axis], {"exclusive": int(a["exclusive"]), "reverse": int(a["reverse"])},
                  opset=14, output_types=[xs[0].dtype])


TRANSCENDENTAL = {"Sqrt-1": "Sqrt", "Log-1": "Log", "Erf-1": "Erf", "Tanh-1": "Tanh", "Sin-1": "Sin", "Cos-1": "Cos",
                  "Tan-1": "Tan", "Asin-1": "Asin", "Acos-1": "Acos", "Atan-1": "Atan", "Sinh-1": "Sinh",
                  "Cosh-1": "Cosh", "Asinh-3": "Asinh", "Acosh-3": "Acosh", "Atanh-3": "Atanh"}
F32_ONLY = ("Erf-1", "Tan-1", "Asin-1", "Acos-1", "Atan-1", "Sinh-1", "Cosh-1", "Asinh-3", "Acosh-3", "Atanh-3")

EXPORTS = {
    "Add-1": _binary("Add"),
    "Subtract-1": _binary("Sub"),
    "Multiply-1": _binary("Mul"),
    "Divide-1": _divide,
    "Power-1": _power,
    "Maximum-1": _minmax("Max"),
    "Minimum-1": _minmax("Min"),
    "Mod-1": _binary("Mod", attrs={"fmod": 1}),
    "FloorMod-1": _floor_mod,
    "Abs-1": _unary("Abs", ints=True),
    "Negative-1": _unary("Neg", ints=True),
    "Sign-1": _unary("Sign", ints=True),
    "Floor-1": _unary("Floor"),
    "Ceiling-1": _unary("Ceil"),
    "Round-5": _round,
    "CumSum-3": _cumsum,
    **{op: _unary(onnx, f64_ok=op not in F32_ONLY) for op, onnx in TRANSCENDENTAL.items()},
}
