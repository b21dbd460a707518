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
            a, b = broadcast_pair(a, b, auto_broadcast)
            return f(a, b, **kw)
        return with_signature(kernel, ["a", "b"], ["auto_broadcast", *attrs])
    return _with_raw(make, fn)


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
