"""Normalization kernels: reductions in f32 for the narrow float types (f64 for f64), the result
rounded once to the data's type, as OpenVINO's CPU plugin computes them."""
from __future__ import annotations

import math

import numpy as np

from ...types import element_type
from ._elementwise import quiet


def _ct(dtype) -> np.dtype:
    return np.dtype(np.float64 if element_type(dtype).name == "f64" else np.float32)


def _channel(v, ndim):
    """A [C] vector shaped to broadcast along axis 1 of a rank-ndim tensor."""
    return v.reshape((1, -1) + (1,) * (ndim - 2))


# --- BatchNormInference ---------------------------------------------------------------------------
@np.errstate(all="ignore")     # NaN/inf follow IEEE arithmetic (no warnings)
def _batch_norm(data, gamma, beta, mean, variance, epsilon):
    """gamma * (x - mean) / sqrt(variance + eps) + beta, with gamma / sqrt(variance + eps) one per-channel scale."""
    ct = _ct(data.dtype)
    g, b, m, v = (_channel(a.astype(ct, copy=False), data.ndim) for a in (gamma, beta, mean, variance))
    out = np.subtract(data.astype(ct, copy=False), m)       # a fresh array, scaled and shifted in place
    out *= g / np.sqrt(v + ct.type(epsilon))
    out += b
    return out.astype(data.dtype, copy=False)


def batch_norm_inference_1(gamma, beta, data, mean, variance, *, epsilon):
    return _batch_norm(data, gamma, beta, mean, variance, epsilon)


def batch_norm_inference_5(data, gamma, beta, mean, variance, *, epsilon):
    return _batch_norm(data, gamma, beta, mean, variance, epsilon)


# --- MVN ------------------------------------------------------------------------------------------
def _mean(x, axes):
    """x's mean over axes, kept as size-1 axes: np.mean's own sum and division (half its per-call cost)."""
    count = x.shape[axes] if isinstance(axes, int) else math.prod(x.shape[a] for a in axes)
    return np.add.reduce(x, axis=axes, keepdims=True) / count


def _centered(x, axes):
    """x minus its mean over axes (a fresh array), and the variance over axes (the mean of its square)."""
    centered = np.subtract(x, _mean(x, axes))
    return centered, _mean(np.square(centered), axes)


def _mvn(data, axes, normalize_variance, eps, inside):
    ct = _ct(data.dtype)
    x = data.astype(ct, copy=False)
    axes = tuple(sorted({a % data.ndim for a in axes})) if data.ndim else ()
    if not x.size:
        return data.copy()
    if not normalize_variance:
        return np.subtract(x, _mean(x, axes)).astype(data.dtype, copy=False)
    centered, var = _centered(x, axes)
    eps = ct.type(eps)
    centered /= np.sqrt(var + eps) if inside else np.sqrt(var) + eps
    return centered.astype(data.dtype, copy=False)


def mvn_1(data, *, eps, across_channels, normalize_variance, reduction_axes):
    axes = reduction_axes or tuple(range(1 if across_channels else 2, data.ndim))
    return _mvn(data, axes, normalize_variance, eps, inside=True)


def mvn_6(data, axes, *, normalize_variance, eps, eps_mode):
    return _mvn(data, np.asarray(axes).reshape(-1).tolist(), normalize_variance, eps,
                inside=eps_mode == "inside_sqrt")


# --- NormalizeL2 / GRN ----------------------------------------------------------------------------
@np.errstate(all="ignore")     # NaN/inf follow IEEE arithmetic (no warnings)
def normalize_l2(data, axes, *, eps, eps_mode):
    ct = _ct(data.dtype)
    x = data.astype(ct, copy=False)
    axes = tuple(sorted({int(a) % data.ndim for a in np.asarray(axes).reshape(-1)})) if data.ndim else ()
    sq = np.square(x).sum(axis=axes, keepdims=True)
    eps = ct.type(eps)
    norm = np.sqrt(sq + eps if eps_mode == "add" else np.maximum(sq, eps))
    # Over no axes the spec divides each element "by itself": 1 for non-zero elements, as OpenVINO does
    if not axes:
        return np.where(x != 0, ct.type(1), x / norm).astype(data.dtype)
    return np.divide(x, norm).astype(data.dtype, copy=False)


@np.errstate(all="ignore")     # NaN/inf follow IEEE arithmetic (no warnings)
def grn(data, *, bias):
    ct = _ct(data.dtype)
    x = data.astype(ct, copy=False)
    return np.divide(x, np.sqrt(np.square(x).sum(axis=1, keepdims=True) + ct.type(bias))).astype(data.dtype, copy=False)


# --- GroupNormalization ---------------------------------------------------------------------------
@np.errstate(all="ignore")     # NaN/inf follow IEEE arithmetic (no warnings)
def group_normalization(data, scale, bias, *, num_groups, epsilon):
    ct = _ct(data.dtype)
    n, c = data.shape[:2]
    x = data.astype(ct, copy=False).reshape((n, num_groups, -1))          # [N, G, C/G * spatial]
    if x.size:
        x, var = _centered(x, 2)                                         # a fresh array, normalised in place
        x /= np.sqrt(var + ct.type(epsilon))
    else:
        x = x.copy()
    y = x.reshape(data.shape)
    y *= _channel(scale.astype(ct, copy=False), data.ndim)
    y += _channel(bias.astype(ct, copy=False), data.ndim)
    return y.astype(data.dtype, copy=False)


# --- LRN ------------------------------------------------------------------------------------------
@np.errstate(all="ignore")     # NaN/inf follow IEEE arithmetic (no warnings)
def lrn(data, axes, *, alpha, beta, bias, size):
    """The sum of squares over a box of side `size` centered on each element along `axes` (clipped at
    the edges): per axis, a sum of `size` shifted slices of the zero-padded squares."""
    ct = _ct(data.dtype)
    x = data.astype(ct)
    axes = sorted({int(a) % data.ndim for a in np.asarray(axes).reshape(-1)}) if data.ndim else []
    sq = x * x
    for a in axes:
        # taps further than the axis is long read only the zero padding: a window wider than 2 * length - 1
        # sums what that one sums (a huge size costs nothing)
        half = min((size - 1) // 2, max(sq.shape[a] - 1, 0))
        pad = [(0, 0)] * data.ndim
        pad[a] = (half, half)
        padded = np.pad(sq, pad)
        length = sq.shape[a]
        sq = sum(np.take(padded, np.arange(k, k + length), axis=a) for k in range(2 * half + 1))
    scale = ct.type(alpha) / ct.type(float(size) ** len(axes))
    return (x / (ct.type(bias) + scale * sq) ** ct.type(beta)).astype(data.dtype)


def _workspace(ins, outs, kw):
    """Bytes of the normalisations' temporaries: the data in the compute type (when it is not already) and
    two arrays of its size (the centred or scaled values and their squares)."""
    data = max((a for a in ins if a is not None), key=lambda a: a.size)     # the data (BatchNorm-1: input 2)
    ct = _ct(data.dtype)
    return data.size * ct.itemsize * (2 + (data.dtype != ct))


WORKSPACE = {name: _workspace for name in ("BatchNormInference-1", "BatchNormInference-5", "MVN-1", "MVN-6",
                                           "NormalizeL2-1", "GRN-1", "GroupNormalization-12")}


KERNELS = {"BatchNormInference-1": batch_norm_inference_1, "BatchNormInference-5": batch_norm_inference_5,
           "MVN-1": quiet(mvn_1), "MVN-6": quiet(mvn_6), "NormalizeL2-1": normalize_l2, "GRN-1": grn,
           "GroupNormalization-12": group_normalization, "LRN-1": lrn}
