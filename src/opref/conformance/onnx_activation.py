"""ONNX equivalents: activation functions, on f32 data (the type onnxruntime's CPU kernels have for
all of them). Scalars are fed as one-element tensors (onnxruntime's Python binding does not take 0-d
arrays); HSigmoid is HardSigmoid(1/6, 1/2); OpenVINO's parameter inputs of HardSigmoid and Selu are
ONNX attributes; a per-channel PRelu slope is reshaped to ONNX's unidirectional broadcasting."""
from __future__ import annotations

import numpy as np

from .onnx_export import OnnxOp, Unsupported


def _f32(x) -> bool:
    return x.dtype == np.float32


def _not_f32(x) -> Unsupported:
    return Unsupported("element type other than f32 (the one onnxruntime's CPU kernels take for this op)",
                       str(x.dtype))


def _elementwise(op_type, opset=18, **fixed):
    def export(inputs, attrs):
        x = inputs[0]
        if not _f32(x):
            return _not_f32(x)
        onnx_attrs = {k: (v(attrs) if callable(v) else v) for k, v in fixed.items()}
        return OnnxOp(op_type, [x.reshape(x.shape or (1,))], onnx_attrs, opset=opset,
                      output=lambda y: y.reshape(x.shape))
    return export


def _clamp(inputs, attrs):
    (x,) = inputs
    if not _f32(x):
        return _not_f32(x)
    lo, hi = np.array(attrs["min"], np.float32), np.array(attrs["max"], np.float32)
    return OnnxOp("Clip", [x.reshape(x.shape or (1,)), lo, hi], opset=13, output=lambda y: y.reshape(x.shape))


def _axis(op_type):
    def export(inputs, attrs):
        (x,) = inputs
        if not _f32(x) or x.ndim == 0:
            return None
        return OnnxOp(op_type, [x], {"axis": attrs["axis"]}, opset=13)
    return export


def _prelu(inputs, attrs):
    x, slope = inputs
    if not _f32(x) or x.ndim == 0:
        return None
    if slope.ndim == 1 and x.ndim >= 2 and slope.shape[0] == x.shape[1] and slope.shape[0] != 1:
        slope = slope.reshape((-1,) + (1,) * (x.ndim - 2))
    return OnnxOp("PRelu", [x, slope], opset=16)


def _hard_sigmoid(inputs, attrs):
    x, alpha, beta = inputs
    if not _f32(x):
        return None
    return OnnxOp("HardSigmoid", [x.reshape(x.shape or (1,))], {"alpha": float(alpha), "beta": float(beta)},
                  opset=6, output=lambda y: y.reshape(x.shape))


def _selu(inputs, attrs):
    x, alpha, lam = inputs
    if not _f32(x):
        return None
    return OnnxOp("Selu", [x.reshape(x.shape or (1,))], {"alpha": float(alpha.reshape(())),
                                                           "gamma": float(lam.reshape(()))},
                  opset=6, output=lambda y: y.reshape(x.shape))


EXPORTS = {
    "Relu-1": _elementwise("Relu", 14),
    "Sigmoid-1": _elementwise("Sigmoid", 13),
    "Exp-1": _elementwise("Exp", 13),
    "Elu-1": _elementwise("Elu", 6, alpha=lambda a: a["alpha"]),
    "Gelu-2": _elementwise("Gelu", 20, approximate="none"),
    "Gelu-7": _elementwise("Gelu", 20, approximate=lambda a: "none" if a["approximation_mode"] == "erf" else "tanh"),
    "HSwish-4": _elementwise("HardSwish", 14),
    "HSigmoid-5": _elementwise("HardSigmoid", 6, alpha=1 / 6, beta=0.5),
    "Mish-4": _elementwise("Mish", 18),
    "SoftPlus-4": _elementwise("Softplus", 1),
    "SoftSign-9": _elementwise("Softsign", 1),
    "Clamp-1": _clamp,
    "Softmax-1": _axis("Softmax"),
    "Softmax-8": _axis("Softmax"),
    "LogSoftmax-5": _axis("LogSoftmax"),
    "PRelu-1": _prelu,
    "HardSigmoid-1": _hard_sigmoid,
    "Selu-1": _selu,
}
