"""Kernel makers for the elementwise families of opref.opset.families: the arrays of a binary op
are broadcast the way its `auto_broadcast` says (NumPy broadcasting does numpy; pdpd aligns the
second input to the first's trailing axes), then a NumPy function computes."""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from ...opset.families import with_signature


def broadcast_pair(a: np.ndarray, b: np.ndarray, auto_broadcast: str) -> tuple[np.ndarray, np.ndarray]:
    """The two inputs as NumPy will broadcast them (the shape rule has already checked them)."""
    if auto_broadcast == "pdpd":
        shape = list(b.shape)
        while shape and shape[-1] == 1:
            shape.pop()
        b = b.reshape(shape)   # right-aligned with a's trailing axes, as NumPy then broadcasts it
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
