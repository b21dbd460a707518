"""ONNX equivalents: type conversion and string ops. Convert and ConvertLike are ONNX Cast (and
CastLike). Cast leaves out-of-range float -> integer conversions undefined, so only cases whose values
every definition agrees on are exported (finite floats whose truncation fits the destination, integers
within the destination's range); sub-byte, u1/nf4 and f8 types are left to OpenVINO."""
from __future__ import annotations

import numpy as np

from ..types import element_type
from .onnx_export import OnnxOp, Unsupported

# onnxruntime's Python binding neither feeds nor returns bf16 arrays
_ONNX_TYPES = ("boolean", "f64", "f32", "f16", "i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8")


def _agreed(x: np.ndarray, dst: str) -> Unsupported | None:
    """None when the conversion of x to dst is defined the same way by C++, ONNX and OpenVINO, else why not."""
    src, t = element_type(x), element_type(dst)
    pair = f"{src.name} -> {t.name}"
    if src.name not in _ONNX_TYPES or t.name not in _ONNX_TYPES:
        return Unsupported("element type onnxruntime's Python binding cannot feed or return "
                           "(bf16, f8, sub-byte, u1, nf4, string)", pair)
    if t.is_integral:
        if x.dtype.kind == "u":
            ok = bool(np.all(x <= np.iinfo(t.dtype).max))
        else:
            v = np.trunc(x.astype(np.float64)) if src.is_float else x.astype(np.int64)
            info = np.iinfo(t.dtype)
            ok = bool(np.all(np.isfinite(v)) and np.all((v >= info.min) & (v <= min(info.max, 2**53))))
        return None if ok else Unsupported("values outside the integer destination's range (or NaN/Inf): "
                                           "ONNX Cast leaves them undefined", pair)
    if src.name == "f64" and t.bits < 32:      # OpenVINO rounds through f32 first
        ok = np.array_equal(x.astype(np.float32).astype(np.float64), x, equal_nan=True)
        return None if ok else Unsupported("f64 values not exact in f32: OpenVINO rounds through f32 first, "
                                           "ONNX once", pair)
    if src.is_integral and t.is_float:           # exactly representable in f32: one rounding either way
        ok = bool(np.all(np.abs(x.astype(np.float64)) <= 2**24))
        return None if ok else Unsupported("integers beyond 2**24: OpenVINO rounds through f32 first, ONNX once",
                                           pair)
    return None


def _cast(inputs, attrs):
    (x,) = inputs
    dst = attrs["destination_type"]
    if (why := _agreed(x, dst)) is not None:
        return why
    from onnx.helper import np_dtype_to_tensor_dtype
    to = element_type(dst).dtype
    return OnnxOp("Cast", [x.reshape(x.shape or (1,))], {"to": np_dtype_to_tensor_dtype(to)}, opset=21,
                  output_types=[to], output=lambda y: y.reshape(x.shape))


def _cast_like(inputs, attrs):
    x, like = inputs
    if (why := _agreed(x, element_type(like).name)) is not None:
        return why
    return OnnxOp("CastLike", [x.reshape(x.shape or (1,)), like.reshape(like.shape or (1,))], {}, opset=21,
                  output_types=[like.dtype], output=lambda y: y.reshape(x.shape))


EXPORTS = {"Convert-1": _cast, "ConvertLike-1": _cast_like}
