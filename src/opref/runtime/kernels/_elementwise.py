"""Kernel makers for the elementwise families of opref.opset.families: the arrays of a binary op
are broadcast the way its `auto_broadcast` says (NumPy broadcasting, after pdpd has placed the second
input's dims at its axis), then a NumPy function computes."""
from __future__ import annotations

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
    """A kernel `k(data, **attrs)` computing fn(data, **attrs)."""
    return with_signature(lambda data, **kw: fn(data, **kw), ["data"], attrs)


def binary(fn: Callable[[np.ndarray, np.ndarray], np.ndarray], attrs: Sequence[str] = ()) -> Callable:
    """A kernel `k(a, b, *, auto_broadcast, **attrs)` computing fn(a, b, **attrs) on the broadcast pair."""
    def kernel(a, b, *, auto_broadcast, **kw):
        a, b = broadcast_pair(a, b, auto_broadcast)
        return fn(a, b, **kw)
    return with_signature(kernel, ["a", "b"], ["auto_broadcast", *attrs])
