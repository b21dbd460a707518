"""NumPy transcriptions of op specs: the oracle of last resort (a case's oracle="spec") where
OpenVINO has no faithful route (its CPU plugin crashes, refuses or is wrong, and its reference
`evaluate` does not exist), and an independent check of every case of the ops listed here.

They are written from the spec's formulas, not from opref's kernels: the DFTs as explicit sums
(a matrix of exp(-+2 pi i m j / S) per axis) in complex128, with trimming and zero-padding spelled
out. Slow and plain on purpose; the cases are small."""
from __future__ import annotations

import numpy as np


def _fit(x, axis, n):
    """Axis `axis` of x trimmed to n, or zero-padded at the end to n."""
    x = np.moveaxis(x, axis, 0)[:n]
    if x.shape[0] < n:
        x = np.concatenate([x, np.zeros((n - x.shape[0],) + x.shape[1:], x.dtype)])
    return np.moveaxis(x, 0, axis)


def _dft_axis(x, axis, sign):
    """sum_j x[.., j, ..] exp(sign 2 pi i m j / S) along `axis` (S its length)."""
    n = x.shape[axis]
    m = np.arange(n)
    w = np.exp(sign * 2j * np.pi * np.outer(m, m) / n) if n else np.zeros((0, 0), complex)
    return np.moveaxis(np.tensordot(w, np.moveaxis(x, axis, 0), axes=(1, 0)), 0, axis)


def _norm(axes, r):
    return [int(a) + r if a < 0 else int(a) for a in np.asarray(axes).reshape(-1)]


def _sizes(shape, axes, signal_size):
    ss = [-1] * len(axes) if signal_size is None else list(np.asarray(signal_size).reshape(-1))
    return [shape[a] if s == -1 else int(s) for a, s in zip(axes, ss)]


def _c2c(data, axes, signal_size, sign):
    x = data.astype(np.float64)
    c = x[..., 0] + 1j * x[..., 1]
    ax = _norm(axes, c.ndim)
    for a, n in zip(ax, _sizes(c.shape, ax, signal_size)):
        c = _fit(c, a, n)
    scale = 1.0
    for a in ax:
        c = _dft_axis(c, a, sign)
        scale *= c.shape[a]
    if sign > 0 and scale:
        c = c / scale
    return [np.stack([c.real, c.imag], -1).astype(data.dtype)]


def dft_7(data, axes, signal_size=None):
    return _c2c(data, axes, signal_size, -1)


def idft_7(data, axes, signal_size=None):
    return _c2c(data, axes, signal_size, +1)


def rdft_9(data, axes, signal_size=None):
    """The full DFT of the real signal, keeping bins 0 .. S // 2 of the last axis (none for S = 0)."""
    x = data.astype(np.float64).astype(complex)
    ax = _norm(axes, x.ndim)
    sizes = _sizes(x.shape, ax, signal_size)
    for a, n in zip(ax, sizes):
        x = _fit(x, a, n)
    for a in ax:
        x = _dft_axis(x, a, -1)
    last = sizes[-1]
    x = _fit(x, ax[-1], last // 2 + 1 if last else 0)
    return [np.stack([x.real, x.imag], -1).astype(data.dtype)]


def irdft_9(data, axes, signal_size=None):
    """Inverse complex DFTs over all axes but the last of `axes` (trimmed/padded to their sizes),
    then, on the last, the Hermitian spectrum of S samples built from bins 0 .. S // 2 (zero-padded):
    F[k] = X[k] for k <= S // 2, conj(X[S - k]) above; the real part of its scaled inverse DFT."""
    x = data.astype(np.float64)
    c = x[..., 0] + 1j * x[..., 1]
    ax = _norm(axes, c.ndim)
    ss = [-1] * len(ax) if signal_size is None else [int(s) for s in np.asarray(signal_size).reshape(-1)]
    sizes = [c.shape[a] if s == -1 else s for a, s in zip(ax, ss)]
    if ss[-1] == -1:
        sizes[-1] = max(2 * (c.shape[ax[-1]] - 1), 0)
    for a, n in zip(ax[:-1], sizes[:-1]):
        c = _fit(c, a, n)
        c = _dft_axis(c, a, +1) / max(n, 1)
    last, s = ax[-1], sizes[-1]
    half = _fit(c, last, s // 2 + 1)
    k = np.arange(s)
    mirror = np.take(np.conj(half), np.minimum(s - k, s // 2) if s else k, axis=last)
    full = np.where((k <= s // 2).reshape([-1 if i == last else 1 for i in range(c.ndim)]),
                    np.take(half, np.minimum(k, s // 2), axis=last) if s else mirror, mirror)
    y = _dft_axis(full, last, +1) / max(s, 1)
    return [y.real.astype(data.dtype)]


SPEC = {"DFT-7": dft_7, "IDFT-7": idft_7, "RDFT-9": rdft_9, "IRDFT-9": irdft_9}

from spec_nms import SPEC as _NMS  # noqa: E402  (NonMaxSuppression family: tests/spec_nms.py)
SPEC.update(_NMS)

from spec_image import SPEC as _IMAGE  # noqa: E402  (colour conversions: tests/spec_image.py)
SPEC.update(_IMAGE)
