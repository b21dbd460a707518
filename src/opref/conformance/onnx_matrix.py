"""ONNX equivalents: matrix ops. ONNX MatMul has NumPy's 1-D rules but no transpose attributes:
the transposition is applied to the arrays fed to it. onnxruntime's CPU MatMul takes f16/f32/f64
and 32/64-bit integers: narrower integers are widened to i64 (the product, cast back, wraps the
same way) and bf16/f8 to f32 (opref rounds the f32 sum back once, as does the cast)."""
from __future__ import annotations

import numpy as np

from ..types import element_type
from .onnx_export import OnnxOp

ORT_MATMUL = (np.float16, np.float32, np.float64, np.int32, np.int64, np.uint32, np.uint64)


def _widen(x):
    if any(x.dtype == t for t in ORT_MATMUL):
        return x
    return x.astype(np.float32 if element_type(x).is_float else np.int64)


def _matmul(inputs, attrs):
    a, b = (_widen(x) for x in inputs)
    if attrs["transpose_a"] and a.ndim > 1:
        a = np.swapaxes(a, -1, -2)
    if attrs["transpose_b"] and b.ndim > 1:
        b = np.swapaxes(b, -1, -2)
    return OnnxOp("MatMul", [np.ascontiguousarray(a), np.ascontiguousarray(b)], opset=13)


EXPORTS = {"MatMul-1": _matmul}
