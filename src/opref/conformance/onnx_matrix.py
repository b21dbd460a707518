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


# ONNX Einsum-12 has the spec's equation language (implicit mode, '...'); onnxruntime computes it for
# f32/f64/i32/i64 (other types go through these, the result cast back: exact for integers in range,
# one rounding for f16/bf16).
ORT_EINSUM = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64, "f16": np.float32,
              "bf16": np.float32, "i8": np.int64, "u8": np.int64, "i16": np.int64, "u16": np.int64}


def _einsum_fits_ort(equation, inputs) -> bool:
    """What onnxruntime's Einsum takes: no blanks; no broadcasting of labelled dimensions; ellipses
    covering the same dimensions in every input and kept in the output; capitals in explicit mode only."""
    if " " in equation:
        return False
    lhs, arrow, rhs = equation.partition("->")
    if not arrow and any(c.isupper() for c in lhs):
        return False
    sizes, covered = {}, set()
    for sub, x in zip(lhs.split(","), inputs):
        n = len(sub.replace("...", ""))
        if "..." in sub:
            covered.add(x.shape[sub.index("..."):sub.index("...") + x.ndim - n])
        for c, d in zip(sub.replace("...", "." * (x.ndim - n)), x.shape):
            if c != "." and sizes.setdefault(c, d) != d:
                return False
    return len(covered) <= 1 and (not arrow or "..." in rhs or covered in (set(), {()}))


def _einsum(inputs, attrs):
    et = element_type(inputs[0]).name
    if et not in ORT_EINSUM or not _einsum_fits_ort(attrs["equation"], inputs):
        return None
    arrays = [np.array(x, dtype=ORT_EINSUM[et], order="C") for x in inputs]
    return OnnxOp("Einsum", arrays, {"equation": attrs["equation"]}, opset=12)


EXPORTS["Einsum-7"] = _einsum
