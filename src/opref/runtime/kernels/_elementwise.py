"""Kernel makers for the elementwise families of opref.opset.families: the arrays of a binary op
are broadcast the way its `auto_broadcast` says (NumPy broadcasting, after pdpd has placed the second
input's dims at its axis), then a NumPy function computes."""
from __future__ import annotations

import functools
from typing import Callable, Sequence

import numpy as np

from ...opset.families import PDPD_AXIS, with_signature


def broadcast_pair(a: np.ndarray, b: np.ndarray, auto_broadcast: str,
                   pdpd_axis: int = PDPD_AXIS) -> tuple[np.ndarray, np.ndarray]:
    """The two inputs as NumPy will broadcast them (the shape rule has already checked them): none
    and numpy are NumPy's right-aligned broadcasting; pdpd places b's dims at a's axis `pdpd_axis`
    (padding b with 1s after its last dim), as OpenVINO's reference does."""
    if auto_broadcast == "pdpd":
        axis = a.ndim - b.ndim if pdpd_axis == -1 else pdpd_axis
        b = b.reshape(b.shape + (1,) * (a.ndim - b.ndim - axis))
    return a, b


def unary(fn: Callable[[np.ndarray], np.ndarray], attrs: Sequence[str] = ()) -> Callable:
    """A kernel `k(data, **attrs)` computing fn(data, **attrs) (and its `.raw` over fn's, see `quiet`)."""
    def make(f):
        return with_signature(lambda data, **kw: f(data, **kw), ["data"], attrs)
    return _with_raw(make, fn)


def binary(fn: Callable[[np.ndarray, np.ndarray], np.ndarray], attrs: Sequence[str] = ()) -> Callable:
    """A kernel `k(a, b, *, auto_broadcast, **attrs)` computing fn(a, b, **attrs) on the broadcast pair
    (and its `.raw` over fn's, see `quiet`)."""
    def make(f):
        def kernel(a, b, *, auto_broadcast, **kw):
            if auto_broadcast == "pdpd":
                a, b = broadcast_pair(a, b, auto_broadcast)
            size = 0 if a.shape == b.shape else row_buffer(a, b)
            if not size:
                return f(a, b, **kw)
            old = np.setbufsize(size)
            try:
                return f(a, b, **kw)
            finally:
                np.setbufsize(old)
        return with_signature(kernel, ["a", "b"], ["auto_broadcast", *attrs])
    return _with_raw(make, fn)


def row_buffer(a: np.ndarray, b: np.ndarray) -> int:
    """The ufunc buffer size (np.setbufsize) for a broadcast operation on a and b, or 0 to leave it.

    When one array is broadcast along the other's trailing axes (a per-channel bias or scale over [N, C, H, W]),
    NumPy loops over rows of H*W elements; where two or more rows fit in its ufunc buffer (8192 elements), NumPy 2
    copies them through the buffer, and the operation runs 2-4x slower than looping over the rows directly (a bias
    over 64 planes of 55x55: 81 vs 26 us; 256 planes of 56x56: 421 vs 244 us; 1024 of 14x14: 77 vs 50 us, here).
    A buffer one row long keeps it direct. Rows under 128 elements gain from the buffer (2048 planes of 8x8: 43 vs
    82 us), and small operations from nothing: both are left as they are. (Results do not depend on the buffer.)"""
    if a.ndim != b.ndim:
        return 0
    big, small = (a, b) if a.size >= b.size else (b, a)
    if big.size < 1 << 16:
        return 0
    row = 1
    for n, m in zip(reversed(big.shape), reversed(small.shape)):
        if m != 1:
            if m != n:
                return 0
            break
        row *= n
    if not 128 <= row < np.getbufsize() // 2 or big.size < 2 * row:
        return 0
    return -(-row // 16) * 16


def _with_raw(make: Callable, fn: Callable) -> Callable:
    kernel = make(fn)
    raw = getattr(fn, "raw", None)
    if raw is not None:
        kernel.raw = make(raw)
    return kernel


def quiet(fn: Callable, **errors) -> Callable:
    """fn with NumPy's floating-point warnings off (all, or those named as np.errstate names them); fn itself
    is kept as `.raw`, which a run plan calls inside its own errstate (runtime/executor.py). From NumPy 2 on,
    np.errstate as a decorator keeps its state per call (so per thread) at half the cost of a `with` block;
    NumPy 1's shares one instance's saved state between threads, so there every call enters its own block."""
    errors = errors or {"all": "ignore"}
    if np.lib.NumpyVersion(np.__version__) >= "2.0.0":
        quieted = np.errstate(**errors)(fn)
    else:
        @functools.wraps(fn)
        def quieted(*args, **kwargs):
            with np.errstate(**errors):
                return fn(*args, **kwargs)
    quieted.raw = fn
    return quieted
