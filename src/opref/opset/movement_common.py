"""Shared pieces of the data-movement schemas (movement.py and its family modules): the index
element types, axis normalization and scalar-like axis inputs. (Known values are folded by running the
kernel, in runtime/infer.py, never by the shape rules.)"""
from __future__ import annotations

from .helpers import check

T_INT = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64")


def normalize_axis(op: str, what: str, axis: int, rank: int) -> int:
    check(-rank <= axis < rank, op,
          lambda: f"{what} {axis} is out of range [{-rank}, {rank - 1}] for data of rank {rank}")
    return axis + rank if axis < 0 else axis


def _scalar_like(op: str, name: str, info, allow_1=True):
    """axis inputs: a scalar, or (where allowed) a 1-D tensor of one element."""
    s = info.shape
    if not s.rank_is_static or len(s) == 0:
        return
    ok = allow_1 and len(s) == 1 and s[0].compatible(1)
    check(ok, op, lambda: f"input {name!r} must be a scalar{' or have 1 element' if allow_1 else ''}, got shape {s}")
