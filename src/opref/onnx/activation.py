"""Activation functions. ONNX has most of them as one op; onnxruntime's CPU kernels take f32 (some
f64, f16), so f16/bf16/f8 data is computed in f32 and rounded back once (as OpenVINO's CPU plugin
does). HSigmoid is HardSigmoid(1/6, 1/2); OpenVINO's parameter inputs of HardSigmoid and Selu become
ONNX attributes when constant (HardSigmoid is spelled out otherwise); a per-channel PRelu slope is
reshaped to ONNX's unidirectional broadcasting; integer Clamp rounds its bounds inwards first."""
from __future__ import annotations

import math

import numpy as np

from ..types import element_type
from .builder import Unsupported
from .glue import axis, carrier, unsupported_type, via


def _unary(op_type, **fixed):
    def lower(b, call):
        x = call.inputs[0]
        attrs = {k: (v(call.attrs) if callable(v) else v) for k, v in fixed.items()}
        return via(b, op_type, [x], call.outputs[0].element_type, widen_floats=True, **attrs)
    return lower


def _relu(b, call):
    x, out = call.inputs[0], call.outputs[0].element_type
    if carrier(x.element_type, b.kernel_types("Relu")) or x.et.is_float:
        return via(b, "Relu", [x], out)
    ct = carrier(x.element_type, b.kernel_types("Max"))       # integers: max(x, 0)
    if ct is None:
        return unsupported_type("Max", x.element_type)
    y = b.node("Max", [b.cast(x, ct, x.element_type), b.scalar(0, ct)])
    return b.cast(y, out, ct)


def _gelu(b, call):
    x, out = call.inputs[0], call.outputs[0].element_type
    tanh = call.attrs.get("approximation_mode", "erf") == "tanh"
    if b.opset >= 20:
        return via(b, "Gelu", [x], out, approximate="tanh" if tanh else "none")
    ct = "f64" if x.element_type == "f64" else "f32"
    v = b.cast(x, ct, x.element_type)
    half, one = b.scalar(0.5, ct), b.scalar(1.0, ct)
    if tanh:   # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
        cube = b.node("Mul", [b.node("Mul", [v, v]), v])
        inner = b.node("Mul", [b.scalar(math.sqrt(2 / math.pi), ct),
                               b.node("Add", [v, b.node("Mul", [b.scalar(0.044715, ct), cube])])])
        t = b.node("Tanh", [inner])
    else:      # 0.5 x (1 + erf(x / sqrt 2))
        t = b.node("Erf", [b.node("Div", [v, b.scalar(math.sqrt(2.0), ct)])])
    y = b.node("Mul", [b.node("Mul", [half, v]), b.node("Add", [one, t])])
    return b.cast(y, out, ct)


def _clamp(b, call):
    x, out = call.inputs[0], call.outputs[0].element_type
    lo, hi = call.attrs["min"], call.attrs["max"]
    et = x.et
    if et.is_integral:
        info = np.iinfo(et.dtype)
        lo = int(np.clip(np.ceil(lo), info.min, info.max))
        hi = int(np.clip(np.floor(hi), info.min, info.max))
    elif not np.isinf(np.asarray(np.inf, et.dtype).astype(np.float32)):
        top = float(__import__("ml_dtypes").finfo(et.dtype).max)     # a type without inf (f8e4m3)
        lo, hi = float(np.clip(lo, -top, top)), float(np.clip(hi, -top, top))
    ct = carrier(x.element_type, b.kernel_types("Clip")) or ("f32" if et.is_float else None)
    if ct is None:
        return unsupported_type("Clip", x.element_type)
    with np.errstate(all="ignore"):     # the bounds as the data's type holds them, then the compute type's
        blo = np.asarray(lo).astype(et.dtype).astype(element_type(ct).dtype)
        bhi = np.asarray(hi).astype(et.dtype).astype(element_type(ct).dtype)
    y = b.node("Clip", [b.cast(x, ct, x.element_type), b.const(blo.reshape(()), ct), b.const(bhi.reshape(()), ct)])
    return b.cast(y, out, ct)


def _softmax(op_type):
    def lower(b, call):
        x = call.inputs[0]
        if x.rank == 0:
            return Unsupported(f"ONNX {op_type} takes rank 1 and up")
        if x.rank is None:
            return Unsupported(f"{op_type} of dynamic rank (ONNX needs the axis)")
        return via(b, op_type, [x], call.outputs[0].element_type, axis=axis(call.attrs["axis"], x.rank))
    return lower


def _prelu(b, call):
    x, slope = call.inputs
    out = call.outputs[0].element_type
    s = slope
    if slope.rank == 1 and (x.rank is None or x.rank >= 2):
        n = slope.shape[0]
        c = x.shape[1] if x.rank is not None else None
        if not n.is_static or c is None or not c.is_static:
            return Unsupported("PRelu with a 1-D slope whose per-channel use depends on dims not known",
                               f"data {x.shape}, slope {slope.shape}")
        if n.length == c.length and n.length != 1:
            s = b.node("Reshape", [slope, b.i64([-1] + [1] * (x.rank - 2))])
    ct = carrier(x.element_type, b.kernel_types("PRelu")) or "f32"
    y = b.node("PRelu", [b.cast(x, ct, x.element_type), b.cast(s, ct, slope.element_type)])
    return b.cast(y, out, ct)


def _hard_sigmoid(b, call):
    x, alpha, beta = call.inputs
    out = call.outputs[0].element_type
    if alpha.is_const and beta.is_const:
        return via(b, "HardSigmoid", [x], out, alpha=float(alpha.scalar()), beta=float(beta.scalar()))
    ct = "f64" if x.element_type == "f64" else "f32"      # max(0, min(1, alpha x + beta))
    lin = b.node("Add", [b.node("Mul", [b.cast(alpha, ct, alpha.element_type), b.cast(x, ct, x.element_type)]),
                         b.cast(beta, ct, beta.element_type)])
    y = b.node("Max", [b.scalar(0, ct), b.node("Min", [b.scalar(1, ct), lin])])
    return b.cast(y, out, ct)


def _selu(b, call):
    x, alpha, lam = call.inputs
    if not (alpha.is_const and lam.is_const):
        return Unsupported("Selu with non-constant alpha/lambda (ONNX takes them as attributes)")
    return via(b, "Selu", [x], call.outputs[0].element_type, alpha=float(alpha.scalar()), gamma=float(lam.scalar()))


def _swish(b, call):
    x = call.inputs[0]
    beta = call.inputs[1] if len(call.inputs) > 1 else None
    out = call.outputs[0].element_type
    ct = "f64" if x.element_type == "f64" else "f32"       # x * sigmoid(beta x)
    v = b.cast(x, ct, x.element_type)
    arg = v if beta is None else b.node("Mul", [v, b.cast(beta, ct, beta.element_type)])
    return b.cast(b.node("Mul", [v, b.node("Sigmoid", [arg])]), out, ct)


LOWERINGS = {
    "Relu-1": _relu,
    "Sigmoid-1": _unary("Sigmoid"),
    "Exp-1": _unary("Exp"),
    "Elu-1": _unary("Elu", alpha=lambda a: float(a["alpha"])),
    "Gelu-2": _gelu,
    "Gelu-7": _gelu,
    "HSwish-4": _unary("HardSwish"),
    "HSigmoid-5": _unary("HardSigmoid", alpha=1 / 6, beta=0.5),
    "Mish-4": _unary("Mish"),
    "SoftPlus-4": _unary("Softplus"),
    "SoftSign-9": _unary("Softsign"),
    "Swish-4": _swish,
    "Clamp-1": _clamp,
    "Softmax-1": _softmax("Softmax"),
    "Softmax-8": _softmax("Softmax"),
    "LogSoftmax-5": _softmax("LogSoftmax"),
    "PRelu-1": _prelu,
    "HardSigmoid-1": _hard_sigmoid,
    "Selu-1": _selu,
}
NO_ONNX: dict[str, str] = {}
