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
# the largest rank a shape may have (a shape input of unknown value but huge length would make one): far
# beyond any real tensor's, small enough to build
MAX_RANK = 1 << 16
# a value's upper bound at or beyond this is unbounded (TensorInfo.bounds: a shape sub-graph over dims
# that have no upper bound)
UNBOUNDED = 1 << 40


class Symbol:
    """A name for a dimension's length that is not known: dims that carry one symbol are equal (as
    OpenVINO's ov::Symbol). Inference makes two symbols one (`unify`) where a shape rule merges their dims;
    `same` compares them after that. Symbols are made per inference call from the names the input shapes
    give ("N", "W"), so one call's unifications never reach another's."""
    __slots__ = ("name", "_parent")

    def __init__(self, name: str | None = None):
        self.name = name
        self._parent: Symbol | None = None

    def root(self) -> "Symbol":
        s = self
        while s._parent is not None:
            if s._parent._parent is not None:
                s._parent = s._parent._parent
            s = s._parent
        return s

    def unify(self, other: "Symbol") -> "Symbol":
        a, b = self.root(), other.root()
        if a is not b:
            b._parent = a
        return a

    def same(self, other: "Symbol | None") -> bool:
        return other is not None and self.root() is other.root()

    def __str__(self) -> str:
        r = self.root()
        return r.name if r.name is not None else f"s{id(r) & 0xffff:x}"

    def __repr__(self) -> str:
        return f"Symbol({self})"


def same_symbol(a: "Symbol | None", b: "Symbol | None") -> bool:
    return a is not None and a.same(b)


def merge_symbols(a: "Symbol | None", b: "Symbol | None", unequal: bool = True) -> "Symbol | None":
    """The symbol of a dim made from dims of symbols a and b: a when they are the same or b has none;
    else b when `unequal` (or a has none); else none (OpenVINO's rule)."""
    if b is None or same_symbol(a, b):
        return a
    return b if unequal or a is None else None


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True, init=False)
class Dimension:
    lo: int = 0
    hi: int | None = None
    # the dim's symbol (dims with one symbol are equal); not part of equality or hashing, as in OpenVINO,
    # where [?] == [?] whatever their symbols
    symbol: Symbol | None = field(default=None, compare=False, repr=False)
    # precise mode: the dim's length as an exact expression in the input dims' names (symbolic.Expr), a
    # refinement of the interval; None where only the interval is known
    expr: object = field(default=None, compare=False, repr=False)

    def __init__(self, lo: int = 0, hi: int | None = None, symbol: Symbol | None = None, expr=None):
        if not isinstance(lo, int) or lo < 0 or (hi is not None and (not isinstance(hi, int) or hi < lo)):
            raise OprefError(f"invalid dimension interval [{lo}, {hi}]")
        # (frozen: the fields are set once, here, in one step; whole-graph inference makes thousands of dims)
        self.__dict__.update(lo=lo, hi=hi, symbol=symbol, expr=expr)

    # --- construction -------------------------------------------------------------------------
    @classmethod
    def of(cls, x) -> "Dimension":
        """int -> static; -1 or None -> dynamic; (lo, hi) -> interval (hi -1/None: unbounded);
        "?", "5", "2..8", "..8", "2.." -> as OpenVINO writes them."""
        if type(x) is int and x >= 0:
            return static_dim(x)
        if isinstance(x, str):
            s = x.strip()
            if s.isdigit() and s.isascii():
                return static_dim(int(s))
            if _NAME.fullmatch(s):          # a name: a dynamic dim with that symbol
                return cls(0, None, Symbol(s))
            if s in ("?", "-1"):
                return cls()
            m = re.fullmatch(r"(\d*)\.\.(\d*)", s)
            if m:
                lo = int(m.group(1)) if m.group(1) else 0
                hi = int(m.group(2)) if m.group(2) else None
                if hi is not None and hi < lo:
                    raise OprefError(f"invalid dimension {x!r}: upper bound below lower bound")
                return cls(lo, hi)
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
            return static_dim(x)
        if isinstance(x, tuple) and len(x) == 2:
            lo, hi = x
            lo = 0 if lo is None or lo == -1 else int(lo)
            hi = None if hi is None or hi == -1 else int(hi)
            if lo < 0 or (hi is not None and hi < lo):
                raise OprefError(f"invalid dimension interval {x}")
            return cls(lo, hi)
        if isinstance(x, Symbol):
            return cls(0, None, x)
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
        """The intersection of two dimensions, or None when they cannot be equal. The two are taken
        to be equal: their symbols become one (OpenVINO's Dimension::merge), and the result keeps it."""
        other = Dimension.of(other)
        lo, hi = max(self.lo, other.lo), _min_hi(self.hi, other.hi)
        if hi is not None and lo > hi:
            return None
        a, b = self.symbol, other.symbol
        if a is not None and b is not None:
            a.unify(b)
        a = merge_symbols(a, b)
        e = self.expr if other.expr is None or (self.expr is not None and
                                               len(str(self.expr)) <= len(str(other.expr))) else other.expr
        if a is self.symbol and e is self.expr and lo == self.lo and hi == self.hi:
            return self
        return Dimension(lo, hi, a, None if lo == hi else e)

    def with_symbol(self, symbol: "Symbol | None") -> "Dimension":
        return self if symbol is self.symbol else Dimension(self.lo, self.hi, symbol, self.expr)

    def with_expr(self, expr) -> "Dimension":
        """The dim with an exact expression (none on a static dim: its length says it all)."""
        if expr is self.expr or self.is_static:
            return self
        return Dimension(self.lo, self.hi, self.symbol, expr)

    def contains(self, n: int) -> bool:
        return self.lo <= n and (self.hi is None or n <= self.hi)

    # --- interval arithmetic (ov::Interval) ---------------------------------------------------
    # (as OpenVINO's Dimension operators: adding 0, subtracting 0, multiplying by 1 or dividing by 1
    # gives the dim itself, its symbol kept; every other result has no symbol)
    def __add__(self, other) -> "Dimension":
        b = _static_length(other)
        if b and self.lo == self.hi and self.lo and self.expr is None:
            return static_dim(self.lo + b)            # (the common case: two static lengths, neither 0)
        other = Dimension.of(other)
        if other.hi == 0:
            return self
        if self.hi == 0:
            return other
        d = Dimension(self.lo + other.lo, None if None in (self.hi, other.hi) else self.hi + other.hi)
        return _exact(d, self, other, lambda a, b: a + b)

    __radd__ = __add__

    def __sub__(self, other) -> "Dimension":
        b = _static_length(other)
        if b and self.lo == self.hi and self.expr is None:
            return static_dim(max(self.lo - b, 0))
        other = Dimension.of(other)
        if other.hi == 0:
            return self
        lo = 0 if other.hi is None else max(self.lo - other.hi, 0)
        hi = None if self.hi is None else max(self.hi - other.lo, 0)
        return _exact(Dimension(lo, hi), self, other, lambda a, b: a - b)

    def __mul__(self, other) -> "Dimension":
        b = _static_length(other)
        if b is not None and b != 1 and self.lo == self.hi and self.lo != 1 and self.expr is None:
            return static_dim(self.lo * b)
        other = Dimension.of(other)
        if other.lo == 1 and other.hi == 1:
            return self
        if self.lo == 1 and self.hi == 1:
            return other
        lo = self.lo * other.lo
        if 0 in (self.hi, other.hi):
            hi = 0
        else:
            hi = None if None in (self.hi, other.hi) else self.hi * other.hi
        return _exact(Dimension(lo, hi), self, other, lambda a, b: a * b)

    __rmul__ = __mul__

    def divide(self, divisor: int) -> "Dimension | None":
        """Exact division as ov::Dimension::operator/: the interval of whole quotients
        [ceil(lo/d), floor(hi/d)], or None when it is empty (no length in self is divisible).
        OpenVINO divides its int64 'infinity' as a double, which this reproduces."""
        if divisor == 1:
            return self
        if self.lo == 0 and self.hi is None:
            return _exact(Dimension(), self, None, lambda a, _: a.floordiv(divisor))
        lo = -(-self.lo // divisor)
        hi = math.floor(float(INT64_MAX) / divisor) if self.hi is None else self.hi // divisor
        if lo > hi:
            return None
        return _exact(Dimension(lo, hi), self, None, lambda a, _: a.floordiv(divisor))

    def floordiv(self, divisor: int) -> "Dimension":
        """Floor division of every length (used by output-size formulas)."""
        if self.lo == self.hi and self.expr is None:
            return static_dim(self.lo // divisor)
        d = Dimension(self.lo // divisor, None if self.hi is None else self.hi // divisor)
        return _exact(d, self, None, lambda a, _: a.floordiv(divisor))

    def ceildiv(self, divisor: int) -> "Dimension":
        """Ceiling division of every length."""
        d = Dimension(-(-self.lo // divisor), None if self.hi is None else -(-self.hi // divisor))
        return _exact(d, self, None, lambda a, _: a.ceildiv(divisor))

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
        return hash((self.lo, -1 if self.hi is None else self.hi))    # (ints only: the same in every process)

    @property
    def symbol_name(self) -> str | None:
        return None if self.symbol is None else str(self.symbol)


# Static dims without a symbol or an expression are immutable values that equal each other by length: the
# lengths that occur are made once and shared (whole-graph inference and the reader make thousands).
_STATIC: dict[int, Dimension] = {}
_STATIC_KEPT = 1 << 16


def _static_length(x) -> int | None:
    """x's length when x is a static Dimension without an expression or an int >= 0, else None."""
    t = type(x)
    if t is int:
        return x if x >= 0 else None
    if t is Dimension and x.lo == x.hi and x.expr is None:
        return x.lo
    return None


def static_dim(n: int) -> Dimension:
    """The static dimension of length n >= 0 (no symbol, no expression), shared for lengths below 65536."""
    d = _STATIC.get(n)
    if d is None:
        d = Dimension(n, n)
        if n < _STATIC_KEPT:
            _STATIC[n] = d
    return d


def exact(d: "Dimension"):
    """A dim's exact expression: its own, or its length when static; None when neither is known."""
    if d.expr is not None:
        return d.expr
    if d.is_static:
        from .symbolic import Expr
        return Expr.const(d.lo)
    return None


def _exact(result: "Dimension", a: "Dimension", b: "Dimension | None", f) -> "Dimension":
    """result with the expression f(a's, b's) when either operand has one (precise mode) and both are
    known exactly; arithmetic on dims without expressions costs nothing more."""
    if a.expr is None and (b is None or b.expr is None):
        return result
    ea = exact(a)
    eb = None if b is None else exact(b)
    if ea is None or (b is not None and eb is None):
        return result
    return result.with_expr(f(ea, eb))


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
            dims = tuple(map(Dimension.of, dims))
        object.__setattr__(self, "dims", dims)

    @classmethod
    def dynamic(cls, rank: int | None = None) -> "PartialShape":
        if rank is not None and rank > MAX_RANK:
            from .errors import ShapeInferenceError
            raise ShapeInferenceError(f"a shape of rank {rank}: more than {MAX_RANK} dims (a shape input's length "
                                      f"gives the rank)")
        return cls(None if rank is None else [Dimension()] * rank)

    @property
    def rank_is_static(self) -> bool:
        return self.dims is not None

    @property
    def named(self) -> bool:
        """Whether a dim carries a symbol or an exact expression (computed once: a shape is immutable)."""
        got = self.__dict__.get("_named")
        if got is None:
            got = self.__dict__["_named"] = self.dims is not None and any(
                d.symbol is not None or d.expr is not None for d in self.dims)
        return got

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
        # computed once (a shape is immutable): whole-graph inference keys its memo on input shapes
        h = self.__dict__.get("_hash")
        if h is None:
            h = self.__dict__["_hash"] = 0x5eed if self.dims is None else hash(self.dims)  # (None's varies by process)
        return h

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
    return tuple(map(Dimension.of, s.split(",")))


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
    # of a 1-D integer value (a shape sub-graph's): per element, the symbol of the dim it is (ShapeOf of a
    # dim named N gives N), or None (OpenVINO's value symbols)
    symbols: tuple | None = field(default=None, compare=False, repr=False)
    # precise mode: per element of such a value, its exact expression (symbolic.Expr) or None
    exprs: tuple | None = field(default=None, compare=False, repr=False)

    def __init__(self, element_type, shape, value=None, bounds=None, symbols=None, exprs=None):
        if element_type.__class__ is not str or element_type not in ELEMENT_TYPES:
            element_type = element_type_name(element_type)
        if shape.__class__ is not PartialShape:
            shape = PartialShape(shape)
        # (frozen: the fields are set once, here, in one step)
        self.__dict__.update(element_type=element_type, shape=shape, value=value, bounds=bounds, symbols=symbols,
                             exprs=exprs)

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


def share_names(shapes: list[PartialShape], precise: bool = False) -> list[PartialShape]:
    """The shapes with every dim named N (a symbol of name N) carrying one fresh symbol per name, shared
    by all of them: what one inference call starts from (`Model.infer_shapes`, `infer_op`). precise:
    each named dim's exact expression is its name (precise mode)."""
    from .symbolic import Expr
    table: dict[str, Symbol] = {}
    out = []
    for shape in shapes:
        if shape.dims is None or all(d.symbol is None for d in shape.dims):
            out.append(shape)
            continue
        dims = []
        for d in shape.dims:
            if d.symbol is not None:
                name = str(d.symbol)
                d = d.with_symbol(table.setdefault(name, Symbol(name)))
                if precise:
                    d = d.with_expr(Expr.name(name))
            dims.append(d)
        out.append(PartialShape(dims))
    return out


def as_shape(shape: Iterable) -> PartialShape:
    return shape if isinstance(shape, PartialShape) else PartialShape(shape)
