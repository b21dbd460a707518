"""Arithmetic that several shape rules share: reading shape-giving values, divisibility,
convolution/pooling output sizes and auto_pad, and the checks' error messages."""
from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np

from ..errors import ShapeInferenceError
from ..shapes import UNBOUNDED, Dimension, TensorInfo

# OpenVINO's IR reader rejects "notset" (not a member of ov::op::PadType as read from IR)
AUTO_PAD = ("explicit", "valid", "same_upper", "same_lower")


def fail(op: str, message: str):
    raise ShapeInferenceError(f"{op}: {message}")


def check(cond: bool, op: str, message: str | Callable[[], str]):
    """Raises ShapeInferenceError(op: message) unless cond. A message that formats shapes is given as
    a lambda (as torch._check takes one): it is built only when the check fails, so a shape rule that
    passes its checks formats nothing (whole-graph inference runs hundreds of them per model)."""
    if not cond:
        fail(op, message if isinstance(message, str) else message())


def ints_of(info: TensorInfo | None) -> tuple[int, ...] | None:
    """The value of a shape-giving input as a tuple of ints, or None when it is not known."""
    if info is None or info.value is None:
        return None
    return tuple(int(v) for v in np.asarray(info.value).reshape(-1))


def value_dims(info: TensorInfo | None) -> list | None:
    """A shape-giving input's elements as dims, as OpenVINO reads a shape from its input's bounds: a
    known value gives static dims, value bounds give intervals (an element whose bounds straddle 0
    gives [0, ?], one whose bounds are both negative but differ gives ?); each dim carries the
    element's value symbol. An element known to be negative stays its int (Reshape's -1). None when
    nothing is known."""
    if info is None:
        return None
    if info.value is not None:
        lo = hi = np.asarray(info.value).reshape(-1).astype(np.int64)
    elif info.bounds is not None:
        lo, hi = (np.asarray(b).reshape(-1).astype(np.int64) for b in info.bounds)
    else:
        return None
    syms = info.symbols or (None,) * lo.size
    exprs = info.exprs or (None,) * lo.size
    out = []
    for a, b, s, e in zip(lo.tolist(), hi.tolist(), syms, exprs):
        if a < 0 and b < 0:
            out.append(a if a == b else Dimension())
        elif a < 0:          # (OpenVINO keeps the upper bound of a -1..hi element only)
            out.append(Dimension(0, b if a == -1 and b < UNBOUNDED else None, s))
        else:
            d = Dimension(a, None if b >= UNBOUNDED else b, s)
            out.append(d if e is None else d.with_expr(e))
    return out


def check_1d(op: str, name: str, info: TensorInfo, length: int | None = None):
    """A shape-giving input must be 1-D (of `length` elements when given)."""
    shape = info.shape
    if shape.rank_is_static:
        check(len(shape) == 1, op, lambda: f"input {name!r} must be 1-D, got shape {shape}")
        if length is not None:
            check(shape[0].compatible(length), op,
                  lambda: f"input {name!r} must have {length} elements, got {shape[0]}")


def rank_of(*infos: TensorInfo | None) -> int | None:
    """The first known length among 1-D shape-giving inputs (their size gives the data rank)."""
    for i in infos:
        if i is None:
            continue
        v = ints_of(i)
        if v is not None:
            return len(v)
        if i.shape.rank_is_static and len(i.shape) == 1 and i.shape[0].is_static:
            return i.shape[0].lo
    return None


def divide(op: str, what: str, dim: Dimension, divisor: int) -> Dimension:
    q = dim.divide(divisor)
    if q is None:
        fail(op, f"{what} {dim} must be a multiple of {divisor}")
    return q


def product(values: Sequence[int]) -> int:
    return math.prod(int(v) for v in values)


# --- convolution / pooling -------------------------------------------------------------------------
def same_pads(n: int, k: int, s: int, d: int, upper: bool) -> tuple[int, int]:
    """SAME padding for a static length: output ceil(n/s), the odd pixel at the end (upper)
    or at the beginning (lower)."""
    out = -(-n // s)
    total = max((out - 1) * s + d * (k - 1) + 1 - n, 0)
    small = total // 2
    return (small, total - small) if upper else (total - small, small)


def ceil_div(dim: Dimension, s: int) -> Dimension:
    return dim.ceildiv(s)
