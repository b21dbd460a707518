"""ONNX equivalents: generation ops. ONNX Range takes three inputs of its output type (onnxruntime:
f32, f64, i16, i32, i64); Range-4's inputs are cast to output_type first (truncated for integral
outputs, as Range-4 does; the case tables' values are exact in every type). Eye-9 is EyeLike on a
zero matrix of the [num_rows, num_columns] shape, with the diagonal as attribute `k` (2-D only: no
batch_shape, or an empty one). OneHot is ONNX OneHot-11 (which normalizes negative indices, as
OneHot-16's `normalize` does; for the other mode they are moved out of range first), in int64 indices
and depth with int64 or f32 values (which hold every case value of the narrower types exactly)."""
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


_ORT_EYE = ("f32", "f64", "i32", "i64", "u64")      # onnxruntime's EyeLike output types


def _eye_9(inputs, attrs):
    out = attrs["output_type"]
    if out not in _ORT_EYE or (len(inputs) == 4 and np.asarray(inputs[3]).size):
        return None
    rows, cols, k = (int(np.asarray(x).reshape(-1)[0]) for x in inputs[:3])
    return OnnxOp("EyeLike", [np.zeros((rows, cols), np.float32)], {"k": k, "dtype": _onnx_type(out)}, opset=9,
                  output_types=[element_type(out).dtype])


def _onnx_type(et):
    from onnx.helper import np_dtype_to_tensor_dtype
    return np_dtype_to_tensor_dtype(element_type(et).dtype)


def _one_hot(inputs, attrs):
    indices, depth, on, off = (np.asarray(x) for x in inputs)
    n = int(depth)
    if indices.ndim == 0 or n == 0:                       # onnxruntime wants rank >= 1 and depth >= 1
        return None
    idx = indices.astype(np.int64)
    if attrs.get("negative_indices_mode", "ignore-negative") != "normalize":
        idx = np.where(idx < 0, n, idx)                  # ignored: out of range gives off_value
    t = element_type(element_type_of(on))
    wide = np.float32 if t.is_float else np.int64
    values = np.array([off, on]).astype(wide)
    return OnnxOp("OneHot", [idx, np.asarray(n, np.int64), values], {"axis": attrs["axis"]}, opset=11,
                  output_types=[wide])


EXPORTS = {"Range-1": _range_1, "Range-4": _range_4, "Eye-9": _eye_9, "OneHot-1": _one_hot, "OneHot-16": _one_hot}
