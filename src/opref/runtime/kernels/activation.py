"""Activation functions (kernels).

Floats narrower than f32 (f16, bf16, f8) are computed in f32 and rounded back once, as OpenVINO's
CPU plugin does; f32 and f64 compute in their own type; NaN and +-inf follow IEEE 754 through the
formulas. Relu and Clamp on integers stay in the integer type.
"""
from __future__ import annotations

import ml_dtypes
import numpy as np

from ...types import accumulator_dtype
from ._elementwise import quiet, unary
from .arithmetic import ERF_BLOCK as _ERF_BLOCK, erf_block, in_f64_blocks


def _wide(x: np.ndarray) -> np.ndarray:
    return x.astype(accumulator_dtype(x.dtype), copy=False)


def _float(fn):
    """fn computed on x widened to its compute type, the result rounded back to x's type (warnings off). A ufunc
    computing in the type itself writes into `out` when given (see INTO)."""
    ufunc = isinstance(fn, np.ufunc)

    def compute(x, out=None, **attrs):
        if out is not None and ufunc and accumulator_dtype(x.dtype) == x.dtype:
            return fn(x, out=out)
        return np.asarray(fn(_wide(x), **attrs)).astype(x.dtype, copy=False)
    return quiet(compute)


def _sigmoid(x):
    # exp of the negative magnitude only: no overflow warnings, exact limits at +-inf
    # (one division, of a numerator chosen per element: a select of two quotients cost 1.35x as much)
    e = np.exp(-np.abs(x))
    numerator = np.where(x >= 0, x.dtype.type(1), e)       # 1 / (1 + e) from 0 on, e / (1 + e) below (and NaN)
    return np.divide(numerator, 1 + e, out=numerator)


def _in_f64_blocks(fn):
    """fn of f64 values, computed in blocks and rounded once to x's type (arithmetic.in_f64_blocks)."""
    return lambda x: in_f64_blocks(fn, x)


def _softplus_f64(w):
    """log(1 + e^w) = max(w, 0) + log1p(e^-|w|): no overflow, no cancellation (NumPy's logaddexp, which
    computes the same, is 10x slower than these SIMD passes)."""
    t = np.abs(w)
    np.negative(t, out=t)
    np.exp(t, out=t)
    np.log1p(t, out=t)
    t += np.maximum(w, 0.0)
    return t


def _mish_f64(w):
    """w tanh(softplus(w))."""
    t = _softplus_f64(w)
    np.tanh(t, out=t)
    t *= w
    return t


_SQRT2, _ONE, _HALF = np.sqrt(np.float64(2)), np.float64(1), np.float64(0.5)    # (f64 scalars: no conversion per call)


def _gelu(x, approximation_mode="erf"):
    if x.ndim == 0:                         # ufuncs give 0-d arrays back as scalars: compute on one element
        return _gelu(x.reshape(1), approximation_mode).reshape(())
    if approximation_mode == "tanh":        # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
        t = np.multiply(x, x.dtype.type(0.044715))
        t *= x
        t *= x
        t += x
        t *= x.dtype.type(np.sqrt(2 / np.pi))
        np.tanh(t, out=t)
        t += 1
        t *= x
        t *= 0.5
        return t
    return _gelu_erf(x)


@_in_f64_blocks
def _gelu_erf(w):
    """0.5 w (1 + erf(w / sqrt(2))), on one f64 block (erf's own blocks: nothing to split again)."""
    t = erf_block(w / _SQRT2)
    t += _ONE
    t *= w
    t *= _HALF
    return t


def _elu(x, alpha):
    return np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0)))


def _hsigmoid(x):
    return np.minimum(np.maximum(x + 3, 0), 6) / 6


def _clamp(x, min, max, out=None):
    if x.dtype.kind in "iu":
        info = np.iinfo(x.dtype)
        lo = int(np.clip(np.ceil(min), info.min, info.max))
        hi = int(np.clip(np.floor(max), info.min, info.max))
        return np.clip(x, x.dtype.type(lo), x.dtype.type(hi))
    with np.errstate(all="ignore"):
        if not np.isinf(np.asarray(np.inf, x.dtype).astype(np.float32)):
            # a type without inf (f8e4m3) would make an out-of-range bound NaN: it is its largest value
            top = float(ml_dtypes.finfo(x.dtype).max)
            min, max = float(np.clip(min, -top, top)), float(np.clip(max, -top, top))
        lo, hi = np.asarray(min, x.dtype), np.asarray(max, x.dtype)   # the bounds in the data's type
        w = _wide(x)
        if out is not None and w is x:                                # (into `out`: see INTO)
            return np.minimum(np.maximum(x, lo, out=out), hi, out=out)
        return np.minimum(np.maximum(w, lo.astype(w.dtype)), hi.astype(w.dtype)).astype(x.dtype, copy=False)


def _relu(x, out=None):
    # max(x, 0); NaN stays NaN. (Against np.zeros(x.shape) instead of the scalar: 2x slower on an AVX-512 Xeon
    # from 800 KB on, 483 vs 241 us on [1,64,111,111] f32, where the fresh zero pages fault on first read.)
    return np.maximum(x, x.dtype.type(0), out=out)


def _softmax(x, axis):
    with np.errstate(all="ignore"):
        w = _wide(x)
        e = w - np.max(w, axis=axis, keepdims=True, initial=-np.inf)     # a new array: exp and
        np.exp(e, out=e)                                                  # normalise in place
        e /= np.sum(e, axis=axis, keepdims=True)
        return e.astype(x.dtype, copy=False)


def _log_softmax(x, axis):
    with np.errstate(all="ignore"):
        w = _wide(x)
        s = w - np.max(w, axis=axis, keepdims=True, initial=-np.inf)
        s -= np.log(np.sum(np.exp(s), axis=axis, keepdims=True))
        return s.astype(x.dtype, copy=False)


def softmax(data, *, axis):
    return _softmax(data.reshape(data.shape or (1,)), axis).reshape(data.shape)   # a scalar: one axis


def log_softmax(data, *, axis):
    return _log_softmax(data.reshape(data.shape or (1,)), axis).reshape(data.shape)


def swish(data, beta=None):
    with np.errstate(all="ignore"):
        w = _wide(data)
        b = np.ones((), w.dtype) if beta is None else _wide(np.asarray(beta)).reshape(())
        return (w * _sigmoid(b * w)).astype(data.dtype)


def hard_sigmoid(data, alpha, beta):
    with np.errstate(all="ignore"):
        w = _wide(data)
        a, b = _wide(alpha).reshape(()), _wide(beta).reshape(())
        return np.maximum(0, np.minimum(1, a * w + b)).astype(data.dtype)


def selu(data, alpha, lambda_):
    with np.errstate(all="ignore"):
        w = _wide(data)
        a, lam = _wide(alpha).reshape(()), _wide(lambda_).reshape(())
        return (lam * np.where(w > 0, w, a * np.expm1(np.minimum(w, 0)))).astype(data.dtype)


def prelu(data, slope):
    """Per channel when slope is 1-D with the length of data's dimension 1 (data rank >= 2),
    numpy broadcasting otherwise."""
    with np.errstate(all="ignore"):
        w, s = _wide(data), _wide(slope)
        if s.ndim == 1 and data.ndim >= 2 and s.shape[0] == data.shape[1] and s.shape[0] != 1:
            s = s.reshape((-1,) + (1,) * (data.ndim - 2))
        elif s.size == 1:
            s = s.reshape(())
        return np.where(w < 0, w * s, w).astype(data.dtype)


def _widened_bytes(x) -> int:
    """Bytes of x in its compute type when that is wider (narrow floats as f32), else 0."""
    wide = accumulator_dtype(x.dtype)
    return x.size * np.dtype(wide).itemsize if wide != x.dtype else 0


def _gelu_workspace(ins, outs, kw):
    """Bytes of Gelu's temporaries beyond its output: x in its compute type (narrow floats widened), and with erf
    f64 arrays of one block: x, x / sqrt(2), |x|, the centre indices, the 6 gathered Taylor coefficients, the
    offsets, the sum and a mask (about 140 bytes an element)."""
    erf_mode = kw.get("approximation_mode", "erf") != "tanh"
    return _widened_bytes(ins[0]) + (140 * min(ins[0].size, _ERF_BLOCK) if erf_mode else 0)


def _f64_blocks_workspace(ins, outs, kw):
    """Bytes of a kernel computed in f64 blocks (_in_f64_blocks) beyond its output: x in its compute type
    (narrow floats widened) and three f64 arrays of one block."""
    return _widened_bytes(ins[0]) + 3 * 8 * min(ins[0].size, _ERF_BLOCK)


WORKSPACE = {"Gelu-2": _gelu_workspace, "Gelu-7": _gelu_workspace, "Mish-4": _f64_blocks_workspace,
             "SoftPlus-4": _f64_blocks_workspace}


KERNELS = {
    "Relu-1": unary(_relu),
    "Sigmoid-1": unary(_float(_sigmoid)),
    "Clamp-1": unary(_clamp, ["min", "max"]),
    "Elu-1": unary(_float(_elu), ["alpha"]),
    "Exp-1": unary(_float(np.exp)),
    "Gelu-2": unary(_float(_gelu)),
    "Gelu-7": unary(_float(_gelu), ["approximation_mode"]),
    "HSwish-4": unary(_float(lambda x: x * _hsigmoid(x))),
    "HSigmoid-5": unary(_float(_hsigmoid)),
    "Mish-4": unary(_float(_in_f64_blocks(_mish_f64))),
    "SoftPlus-4": unary(_float(_in_f64_blocks(_softplus_f64))),
    "SoftSign-9": unary(_float(lambda x: x / (1 + np.abs(x)))),
    "Swish-4": swish,
    "Softmax-1": softmax,
    "Softmax-8": softmax,
    "LogSoftmax-5": log_softmax,
    "PRelu-1": prelu,
    "HardSigmoid-1": hard_sigmoid,
    "Selu-1": selu,
}

# The kernels that take `out=` (by the input ports it may be): see kernels/__init__.py
INTO = {"Relu-1": (0,), "Exp-1": (0,), "Clamp-1": (0,)}
