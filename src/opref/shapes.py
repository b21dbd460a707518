"""Dimensions, partial shapes and tensor descriptions, with OpenVINO's interval semantics.

A `Dimension` is an interval [lo, hi] of non-negative lengths; hi=None means unbounded. It is static
when lo == hi and fully dynamic when it is [0, None]. Arithmetic follows ov::Interval: results are
clipped at 0, and an unbounded end stays unbounded except where OpenVINO turns its int64 "infinity"
into a number (division), which is reproduced so that inferred shapes print as OpenVINO's do.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Iterable, Iterator

import numpy as np

from .errors import OprefError
from .types import ELEMENT_TYPES, element_type

INT64_MAX = 2**63 - 1
# values are carried through inference (TensorInfo.value: Constants, shape sub-graphs folded by running
# the kernel) for tensors of up to this many elements, and a shape rule whose output lengths depend on
# its input's values (Unique, NonZero) reads them up to this size
FOLD_LIMIT = 1 << 12


@dataclass(frozen=True)
class Dimension:
    lo: int = 0
    hi: int | None = None

    def __post_init__(self):
        if not isinstance(self.lo, int) or self.lo < 0 or (self.hi is not None and
                                                           (not isinstance(self.hi, int) or self.hi < self.lo)):
            raise OprefError(f"invalid dimension interval [{self.lo}, {self.hi}]")

    # --- construction -------------------------------------------------------------------------
    @classmethod
    def of(cls, x) -> "Dimension":
        """int -> static; -1 or None -> dynamic; (lo, hi) -> interval (hi -1/None: unbounded);
        "?", "5", "2..8", "..8", "2.." -> as OpenVINO writes them."""
        if isinstance(x, Dimension):
            return x
        if x is None:
            return cls()
        if isinstance(x, (bool, np.bool_)):
            raise OprefError(f"invalid dimension {x!r}")
        if isinstance(x, (int, np.integer)):
            x = int(x)
            if x == -1:
                return cls()
            if x < 0:
                raise OprefError(f"invalid dimension {x}: negative")
            return cls(x, x)
        if isinstance(x, tuple) and len(x) == 2:
            lo, hi = x
            lo = 0 if lo is None or lo == -1 else int(lo)
            hi = None if hi is None or hi == -1 else int(hi)
            if lo < 0 or (hi is not None and hi < lo):
                raise OprefError(f"invalid dimension interval {x}")
            return cls(lo, hi)
        if isinstance(x, str):
            s = x.strip()
            if s.isascii() and s.isdigit():
                return cls(int(s), int(s))
            if s in ("?", "-1"):
                return cls()
            m = re.fullmatch(r"(\d*)\.\.(\d*)", s)
            if m:
                lo = int(m.group(1)) if m.group(1) else 0
                hi = int(m.group(2)) if m.group(2) else None
                if hi is not None and hi < lo:
                    raise OprefError(f"invalid dimension {x!r}: upper bound below lower bound")
                return cls(lo, hi)
        raise OprefError(f"invalid dimension {x!r}")

    @classmethod
    def dynamic(cls) -> "Dimension":
        return cls()

    # --- queries ------------------------------------------------------------------------------
    @property
    def is_static(self) -> bool:
        return self.hi == self.lo

    @property
    def is_dynamic(self) -> bool:
        return not self.is_static

    @property
    def length(self) -> int:
        if not self.is_static:
            raise OprefError(f"dimension {self} is not static")
        return self.lo

    def compatible(self, other) -> bool:
        other = Dimension.of(other)
        hi = _min_hi(self.hi, other.hi)
        return hi is None or max(self.lo, other.lo) <= hi

    def merge(self, other) -> "Dimension | None":
        """The intersection of two dimensions, or None when they cannot be equal."""
        other = Dimension.of(other)
        lo, hi = max(self.lo, other.lo), _min_hi(self.hi, other.hi)
        return None if hi is not None and lo > hi else Dimension(lo, hi)

    def contains(self, n: int) -> bool:
        return self.lo <= n and (self.hi is None or n <= self.hi)

    # --- interval arithmetic (ov::Interval) ---------------------------------------------------
    def __add__(self, other) -> "Dimension":
        other = Dimension.of(other)
        return Dimension(self.lo + other.lo, None if None in (self.hi, other.hi) else self.hi + other.hi)

    __radd__ = __add__

    def __sub__(self, other) -> "Dimension":
        other = Dimension.of(other)
        lo = 0 if other.hi is None else max(self.lo - other.hi, 0)
        hi = None if self.hi is None else max(self.hi - other.lo, 0)
        return Dimension(lo, hi)

    def __mul__(self, other) -> "Dimension":
        other = Dimension.of(other)
        lo = self.lo * other.lo
        if 0 in (self.hi, other.hi):
            hi = 0
        else:
            hi = None if None in (self.hi, other.hi) else self.hi * other.hi
        return Dimension(lo, hi)

    __rmul__ = __mul__

    def divide(self, divisor: int) -> "Dimension | None":
        """Exact division as ov::Dimension::operator/: the interval of whole quotients
        [ceil(lo/d), floor(hi/d)], or None when it is empty (no length in self is divisible).
        OpenVINO divides its int64 'infinity' as a double, which this reproduces."""
        if divisor == 1:
            return self
        if self.lo == 0 and self.hi is None:
            return Dimension()
        lo = -(-self.lo // divisor)
        hi = math.floor(float(INT64_MAX) / divisor) if self.hi is None else self.hi // divisor
        return None if lo > hi else Dimension(lo, hi)

    def floordiv(self, divisor: int) -> "Dimension":
        """Floor division of every length (used by output-size formulas)."""
        return Dimension(self.lo // divisor, None if self.hi is None else self.hi // divisor)

    def __str__(self) -> str:
        if self.is_static:
            return str(self.lo)
        if self.lo > 0:
            return f"{self.lo}.." + ("" if self.hi is None else str(self.hi))
        return "?" if self.hi is None else f"..{self.hi}"

    def __repr__(self) -> str:
        return f"Dimension({self})"

    def __eq__(self, other) -> bool:
        if isinstance(other, (int, np.integer)) and not isinstance(other, bool):
            return self.is_static and self.lo == other
        if isinstance(other, Dimension):
            return self.lo == other.lo and self.hi == other.hi
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.lo, self.hi))


def _min_hi(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)


@dataclass(frozen=True, init=False)
class PartialShape:
    """A shape whose rank may be unknown (dims is None) and whose dims are `Dimension`s."""
    dims: tuple[Dimension, ...] | None

    def __init__(self, dims=()):
        if isinstance(dims, PartialShape):
            dims = dims.dims
        elif isinstance(dims, str):
            dims = _parse_shape(dims)
        elif dims is not None:
            if isinstance(dims, (int, np.integer)) or not hasattr(dims, "__iter__"):
                raise OprefError(f"invalid shape {dims!r}: expected a sequence of dimensions")
            dims = tuple(Dimension.of(d) for d in dims)
        object.__setattr__(self, "dims", dims)

    @classmethod
    def dynamic(cls, rank: int | None = None) -> "PartialShape":
        return cls(None if rank is None else [Dimension()] * rank)

    @property
    def rank_is_static(self) -> bool:
        return self.dims is not None

    @property
    def rank(self) -> int | None:
        return None if self.dims is None else len(self.dims)

    @property
    def is_static(self) -> bool:
        return self.dims is not None and all(d.is_static for d in self.dims)

    def to_shape(self) -> tuple[int, ...]:
        if not self.is_static:
            raise OprefError(f"shape {self} is not static")
        return tuple(d.lo for d in self.dims)

    def compatible(self, other) -> bool:
        if self.dims is None:
            return True
        if type(other) is tuple:          # a concrete array shape (the executor's check of every output)
            return len(other) == len(self.dims) and all(
                d.lo <= n and (d.hi is None or n <= d.hi) for d, n in zip(self.dims, other))
        other = PartialShape(other)
        if other.dims is None:
            return True
        return len(self) == len(other) and all(a.compatible(b) for a, b in zip(self, other))

    def merge(self, other) -> "PartialShape | None":
        """The shape both describe (dims intersected, as OpenVINO's merge_into), or None if they conflict."""
        other = as_shape(other)
        if self.dims is None or other.dims is None:
            return other if self.dims is None else self
        if len(self.dims) != len(other.dims):
            return None
        dims = [a.merge(b) for a, b in zip(self.dims, other.dims)]
        return None if any(d is None for d in dims) else PartialShape(dims)

    def __len__(self) -> int:
        if self.dims is None:
            raise OprefError("shape of dynamic rank has no length")
        return len(self.dims)

    def __iter__(self) -> Iterator[Dimension]:
        if self.dims is None:
            raise OprefError("cannot iterate over a shape of dynamic rank")
        return iter(self.dims)

    def __getitem__(self, i):
        if self.dims is None:
            raise OprefError("cannot index a shape of dynamic rank")
        return PartialShape(self.dims[i]) if isinstance(i, slice) else self.dims[i]

    def __eq__(self, other) -> bool:
        if not isinstance(other, PartialShape):
            try:
                other = PartialShape(other)
            except OprefError:
                return NotImplemented
        return self.dims == other.dims

    def __hash__(self) -> int:
        return hash(self.dims)

    def __str__(self) -> str:
        return "[...]" if self.dims is None else "[" + ",".join(map(str, self.dims)) + "]"

    def __repr__(self) -> str:
        return f"PartialShape({self})"


def _parse_shape(text: str):
    s = text.strip()
    if s.startswith("[") and s.endswith("]"):
        s = s[1:-1].strip()
    if s == "...":
        return None
    if s == "":
        return ()
    return tuple(Dimension.of(p) for p in s.split(","))


@dataclass(frozen=True)
class TensorInfo:
    """Element type and partial shape of a tensor; `value` is its content when known (constants,
    shape-giving inputs), used by shape rules that depend on values. `bounds` (lower, upper arrays) is
    what whole-graph inference knows of an integer value that is not known exactly (a shape
    sub-graph over dynamic dims, as OpenVINO's bound evaluation gives it)."""
    element_type: str
    shape: PartialShape
    value: np.ndarray | None = field(default=None, compare=False, repr=False)
    bounds: tuple | None = field(default=None, compare=False, repr=False)

    def __init__(self, element_type, shape, value=None, bounds=None):
        object.__setattr__(self, "element_type", element_type_name(element_type))
        object.__setattr__(self, "shape", shape if isinstance(shape, PartialShape) else PartialShape(shape))
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "bounds", bounds)

    @classmethod
    def of_array(cls, array) -> "TensorInfo":
        a = np.asanyarray(array)     # (an opref.typed array says its own element type)
        return cls(element_type(a).name, PartialShape(a.shape), a)

    def __str__(self) -> str:
        return f"{self.element_type}{self.shape}"


def element_type_name(x) -> str:
    """An element type name from opref's name ("f32"), a NumPy dtype or scalar type (np.float32) or a
    NumPy dtype name ("float32", "int64", "bool"); opref's names win where both would read ("u1", "i4")."""
    if isinstance(x, type) and issubclass(x, np.generic):
        x = np.dtype(x)
    elif isinstance(x, str) and x not in ELEMENT_TYPES:
        try:
            dt = np.dtype(x)
        except TypeError:
            dt = None
        if dt is not None and dt.name == x:      # only NumPy's full names, never its codes ("f8", "i4")
            x = dt
    return element_type(x).name


def as_shape(shape: Iterable) -> PartialShape:
    return shape if isinstance(shape, PartialShape) else PartialShape(shape)
