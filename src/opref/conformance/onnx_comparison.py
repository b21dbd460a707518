"""ONNX equivalents: comparison ops. onnxruntime's CPU comparisons take f32/f64/i32/i64 (Equal also
bool): other types are widened losslessly (small floats and integers to f32, u32 to i64, booleans to
i32 for ordering). NotEqual and IsFinite have no single ONNX op."""
from __future__ import annotations

import numpy as np

from ..types import element_type
from .onnx_export import OnnxOp

BOOL = [np.bool_]


def widen(x, keep_bool=False):
    """x in a type onnxruntime's CPU kernels take, with the same values; None when none is exact."""
    t = element_type(x)
    if t.name in ("f32", "f64", "i32", "i64") or (keep_bool and t.name == "boolean"):
        return x
    if t.name == "boolean":
        return x.astype(np.int32)
    if t.is_float or t.bits <= 16:
        return x.astype(np.float32)
    if t.name == "u32":
        return x.astype(np.int64)
    if t.name == "u64" and (x.size == 0 or int(x.max()) < 2**63):
        return x.astype(np.int64)
    return None


def _binary(op_type, keep_bool=False):
    def export(inputs, attrs):
        a, b = (widen(x, keep_bool) for x in inputs)
        if a is None or b is None:
            return None
        return OnnxOp(op_type, [a, b], opset=19, output_types=BOOL)
    return export


def _is_inf(inputs, attrs):
    return OnnxOp("IsInf", [inputs[0].astype(np.float32) if inputs[0].dtype != np.float64 else inputs[0]],
                  {"detect_negative": int(attrs["detect_negative"]), "detect_positive": int(attrs["detect_positive"])},
                  opset=20, output_types=BOOL)


def _is_nan(inputs, attrs):
    x = inputs[0]
    return OnnxOp("IsNaN", [x if x.dtype == np.float64 else x.astype(np.float32)], opset=20, output_types=BOOL)


EXPORTS = {"Equal-1": _binary("Equal", keep_bool=True), "Less-1": _binary("Less"),
           "LessEqual-1": _binary("LessOrEqual"), "Greater-1": _binary("Greater"),
           "GreaterEqual-1": _binary("GreaterOrEqual"), "IsInf-10": _is_inf, "IsNaN-10": _is_nan}
