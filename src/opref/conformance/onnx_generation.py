"""ONNX equivalents: generation ops. ONNX Range takes three inputs of its output type (onnxruntime:
f32, f64, i16, i32, i64); Range-4's inputs are cast to output_type first (truncated for integral
outputs, as Range-4 does; the case tables' values are exact in every type)."""
from __future__ import annotations

import numpy as np

from ..types import element_type, element_type_of
from .onnx_export import OnnxOp

_ORT_RANGE = ("f32", "f64", "i16", "i32", "i64")


def _range_1(inputs, attrs):
    if element_type_of(inputs[0]) not in _ORT_RANGE:
        return None
    return OnnxOp("Range", [np.asarray(x) for x in inputs], {}, opset=11)


def _range_4(inputs, attrs):
    out = attrs["output_type"]
    if out not in _ORT_RANGE:
        return None
    t = element_type(out)
    vals = [np.asarray(x).astype(np.float64) for x in inputs]
    if t.is_integral:
        vals = [np.trunc(v) for v in vals]
    return OnnxOp("Range", [np.asarray(v).astype(t.dtype) for v in vals], {}, opset=11, output_types=[t.dtype])


EXPORTS = {"Range-1": _range_1, "Range-4": _range_4}
