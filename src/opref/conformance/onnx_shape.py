"""ONNX equivalents: shape ops. ONNX Squeeze rejects axes at dims other than 1 and Unsqueeze rejects
repeated axes (OpenVINO keeps the dim / inserts one 1): those cases have no equivalent. ONNX takes
int64 axes; element types onnxruntime's kernels lack (bf16, f8, 4-bit) are left out, and so are
strings and empty tensors (see _ORT_TYPES)."""
from __future__ import annotations

import numpy as np

from ..types import element_type_of
from .onnx_export import OnnxOp

# string outputs come back from onnxruntime as object arrays, and it refuses empty feeds
_ORT_TYPES = ("boolean", "f64", "f32", "f16", "i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8")


def _ok(x) -> bool:
    return element_type_of(x) in _ORT_TYPES and np.asarray(x).size > 0


def _shape_of(inputs, attrs):
    x = np.asarray(inputs[0])
    return OnnxOp("Shape", [x], {}, opset=15, output_types=[np.int64]) if _ok(x) else None


def _axes(x, axes):
    a = [int(v) for v in np.asarray(axes).reshape(-1)]
    return [v % x.ndim if x.ndim else 0 for v in a]


def _squeeze(inputs, attrs):
    x = np.asarray(inputs[0])
    if not _ok(x):
        return None
    if len(inputs) == 1 or np.asarray(inputs[1]).size == 0:
        return OnnxOp("Squeeze", [x], {}, opset=13)
    axes = _axes(x, inputs[1])
    if x.ndim == 0 or any(x.shape[a] != 1 for a in axes) or len(set(axes)) != len(axes):
        return None
    return OnnxOp("Squeeze", [x, np.asarray(axes, np.int64)], {}, opset=13)


def _unsqueeze(inputs, attrs):
    x, axes = np.asarray(inputs[0]), inputs[1]
    a = [int(v) for v in np.asarray(axes).reshape(-1)]
    n = x.ndim + len(a)
    if not _ok(x) or len({v % n for v in a}) != len(a):
        return None
    return OnnxOp("Unsqueeze", [x, np.asarray(a, np.int64)], {}, opset=13)


EXPORTS = {"ShapeOf-1": _shape_of, "ShapeOf-3": _shape_of, "Squeeze-1": _squeeze, "Squeeze-15": _squeeze,
           "Unsqueeze-1": _unsqueeze}
