"""Shared generators for case tables: random arrays of any element type, partial-shape variants."""
from __future__ import annotations

import numpy as np

from ...shapes import Dimension, PartialShape
from ...types import element_type

WORDS = np.array(["", "a", "bc", "opref", "ÿ", "x y", "12345"])


def array(rng: np.random.Generator, et: str, shape, low=-100, high=100) -> np.ndarray:
    """Random values that every type holds exactly: integers in [low, high] clipped to the type's
    range, floats from a normal distribution rounded to the type."""
    t = element_type(et)
    shape = tuple(shape)
    if t.name == "string":
        return WORDS[rng.integers(0, len(WORDS), shape)]
    if t.name == "boolean":
        return rng.integers(0, 2, shape).astype(bool)
    if t.is_float:
        scale = 4.0 if t.bits == 8 else 10.0
        return (rng.standard_normal(shape) * scale).astype(np.float32).astype(t.dtype)
    if t.name == "u1":
        return rng.integers(0, 2, shape).astype(t.dtype)
    info = np.iinfo(np.int8 if t.name == "i4" else np.uint8) if t.bits == 4 else np.iinfo(t.dtype)
    lo, hi = (-8, 7) if t.name == "i4" else (0, 15) if t.bits == 4 else (max(low, info.min), min(high, info.max))
    return rng.integers(lo, hi + 1, shape).astype(np.int64).astype(t.dtype)


def blur_dim(rng: np.random.Generator, d: int):
    """A dimension of length d as a partial-shape item: static, dynamic (-1), or an interval around d
    (bounded, or unbounded above)."""
    r = rng.random()
    if r < 0.4:
        return d
    if r < 0.6:
        return -1
    if r < 0.85:
        return (max(d - int(rng.integers(0, 3)), 0), d + int(rng.integers(0, 6)))
    return (max(d - int(rng.integers(0, 3)), 0), None)


def loosen(rng: np.random.Generator, shape, p_dyn=0.3, p_interval=0.3) -> PartialShape:
    """A partial shape that contains `shape`: some dims dynamic, some intervals around the value."""
    dims = []
    for n in shape:
        r = rng.random()
        if r < p_dyn:
            dims.append(Dimension())
        elif r < p_dyn + p_interval:
            lo = int(rng.integers(max(n - 3, 0), n + 1))
            hi = None if rng.random() < 0.25 else int(rng.integers(n, n + 4))
            dims.append(Dimension(lo, hi))
        else:
            dims.append(Dimension(n, n))
    return PartialShape(dims)


def ints_array(values, et: str) -> np.ndarray:
    return np.asarray(values, dtype=element_type(et).dtype)


def rng_for(name: str, salt: int = 0) -> np.random.Generator:
    """A generator seeded from a table's name: stable across runs (Python's str hash is salted)."""
    return np.random.default_rng(sum(map(ord, name)) + salt)
