"""ONNX equivalents: sort ops. ONNX TopK-11 (`largest`, `sorted`) sorts by value with equal values in
input order, K as a 1-element int64 tensor and int64 indices; it has no "by index" order. onnxruntime's
CPU TopK takes f32/f64/i32/i64: narrower types are widened losslessly (floats to f32, integers and
booleans to i64)."""
from __future__ import annotations

import numpy as np

from ..types import element_type
from .onnx_export import OnnxOp

ORT_TOPK = (np.float32, np.float64, np.int32, np.int64)


def _widen(x):
    if any(x.dtype == t for t in ORT_TOPK):
        return x
    if x.dtype == np.uint64:
        return None if x.size and x.max() > np.iinfo(np.int64).max else x.astype(np.int64)
    return x.astype(np.float32 if element_type(x).is_float else np.int64)


def _topk(inputs, attrs):
    data, k = inputs
    if attrs["sort"] == "index":
        return None
    x = _widen(data)
    if x is None:
        return None
    return OnnxOp("TopK", [x, np.asarray(k, np.int64).reshape(1)],
                  {"axis": attrs["axis"], "largest": int(attrs["mode"] == "max"), "sorted": 1},
                  opset=11, output_types=[x.dtype, np.int64])


EXPORTS = {"TopK-1": _topk, "TopK-3": _topk, "TopK-11": _topk}
