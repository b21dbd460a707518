"""ONNX equivalents: Select is ONNX Where (numpy broadcasting; pdpd has none), NonZero is ONNX
NonZero (int64 indices, cast to i32 where asked; scalars differ: OpenVINO gives [1, n]). Bucketize
has no ONNX op."""
from __future__ import annotations

import numpy as np

from ..types import element_type
from .onnx_comparison import widen
from .onnx_export import OnnxOp


def _where(inputs, attrs):
    cond, then, else_ = inputs
    if attrs["auto_broadcast"] == "pdpd":
        return None
    t, e = widen(then), widen(else_)          # onnxruntime's Where has no boolean kernel
    if t is None or e is None:
        return None
    return OnnxOp("Where", [cond, t, e], opset=16, output_types=[t.dtype])


def _non_zero(inputs, attrs):
    (x,) = inputs
    if x.ndim == 0 or element_type(x).name == "u1":
        return None
    w = widen(x, keep_bool=True)
    if w is None:
        return None
    if w.dtype == np.float64:        # no f64 NonZero in onnxruntime; the tables' f64 values are f32's
        w = w.astype(np.float32)
    dtype = np.int32 if attrs["output_type"] == "i32" else np.int64
    return OnnxOp("NonZero", [w], opset=13, output_types=[np.int64], output=lambda y: y.astype(dtype))


EXPORTS = {"Select-1": _where, "NonZero-3": _non_zero}
