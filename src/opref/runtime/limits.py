"""The one place of opref's resource limits, each read from the environment at each check (so a test or
a server can change it):
- no op computes a tensor (an output, or a kernel's work array that grows with an input's values) larger
  than `max_tensor_bytes()` (OPREF_MAX_TENSOR_BYTES, default 2 GiB), checked before allocating;
- no Loop or TensorIterator runs more than `max_loop_iterations()` iterations (OPREF_MAX_LOOP_ITERATIONS,
  default 2^20), whatever its trip count says."""
from __future__ import annotations

import os

import numpy as np

from ..errors import InputError

DEFAULT_MAX_TENSOR_BYTES = 2 << 30
DEFAULT_MAX_LOOP_ITERATIONS = 1 << 20


def _positive(variable: str, default: int, what: str) -> int:
    v = os.environ.get(variable, "").strip()
    if not v:
        return default
    try:
        n = int(v)
    except ValueError:
        n = -1
    if n <= 0:
        raise InputError(f"{variable} must be a positive number of {what}, got {v!r}")
    return n


def max_tensor_bytes() -> int:
    return _positive("OPREF_MAX_TENSOR_BYTES", DEFAULT_MAX_TENSOR_BYTES, "bytes")


def max_loop_iterations() -> int:
    return _positive("OPREF_MAX_LOOP_ITERATIONS", DEFAULT_MAX_LOOP_ITERATIONS, "iterations")


def check_size(op: str, what: str, shape, dtype) -> None:
    """An InputError naming `op` and `what` when an array of `shape` and `dtype` would exceed the limit."""
    n = 1
    for d in shape:
        n *= int(d)
    size = n * max(np.dtype(dtype).itemsize, 1)
    limit = max_tensor_bytes()
    if size > limit:
        raise InputError(f"{op}: {what} of shape {list(map(int, shape))} would need {size} bytes, more than the "
                         f"{limit}-byte limit (OPREF_MAX_TENSOR_BYTES)")
