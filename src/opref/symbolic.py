"""Exact dimension expressions for precise shape inference (`mode="precise"`): integer polynomials in the
names of the input dims (N, H, W), with floor division by a positive constant as the one other form
(ceil(x/k) is floor((x + k - 1)/k)). Every expression is kept in one canonical form, so equal expressions
print alike and a constant prints as a constant:
- a sum of terms, each an integer coefficient times a product of atoms (names, or floors);
- a floor ⌊P/k⌋ holds the residue of P modulo k only: terms of P whose coefficients k divides, and the
  whole multiples of k in its constant, move outside; a common factor of k and P's coefficients is
  divided out; a floor inside a floor merges into one (⌊(⌊P/a⌋ + Q)/b⌋ = ⌊(P + aQ)/(ab)⌋).
Hand-written rather than sympy (1.14, the well-kept option): five stride-2 convolutions on W take sympy
385 ms and leave floor(floor(floor(floor(floor(W/2 - 1/2)/2)/2)/2)/2) + 1; here 0.24 ms and ⌈W/32⌉
(measured on the 2-core AVX2 machine). Precise inference of DenseNet-121 (797 layers) takes 49 ms against
34 ms for the default mode."""
from __future__ import annotations

import math
from typing import Mapping

# an atom is ("v", name) for an input dim's name, or ("f", numerator Expr, divisor) for a floor
Atom = tuple


def _atom_key(a: Atom):
    return (0, a[1]) if a[0] == "v" else (1, str(a[1]), a[2])


class Expr:
    """An exact expression of a dim's length in the input dims' names (immutable, canonical)."""
    __slots__ = ("terms", "_hash")

    def __init__(self, terms):
        # terms: {monomial: coefficient}, a monomial a sorted tuple of (atom, power); () is the constant
        self.terms = tuple(sorted(((m, c) for m, c in terms.items() if c), key=lambda t: _mono_key(t[0])))
        self._hash = hash(self.terms)

    # --- construction ---------------------------------------------------------------------------------
    @staticmethod
    def const(n: int) -> "Expr":
        return Expr({(): int(n)})

    @staticmethod
    def name(name: str) -> "Expr":
        return Expr({((("v", name), 1),): 1})

    @staticmethod
    def of(x) -> "Expr":
        return x if isinstance(x, Expr) else Expr.const(x)

    # --- queries ----------------------------------------------------------------------------------------
    @property
    def constant(self) -> int | None:
        """The value when the expression is a constant, else None."""
        if not self.terms:
            return 0
        if len(self.terms) == 1 and self.terms[0][0] == ():
            return self.terms[0][1]
        return None

    def evaluate(self, values: Mapping[str, int]) -> int:
        total = 0
        for mono, c in self.terms:
            v = c
            for atom, p in mono:
                v *= _atom_value(atom, values) ** p
            total += v
        return total

    def names(self) -> set[str]:
        out: set[str] = set()
        for mono, _ in self.terms:
            for atom, _p in mono:
                if atom[0] == "v":
                    out.add(atom[1])
                else:
                    out |= atom[1].names()
        return out

    # --- arithmetic -------------------------------------------------------------------------------------
    def __add__(self, other) -> "Expr":
        other = Expr.of(other)
        terms = dict(self.terms)
        for m, c in other.terms:
            terms[m] = terms.get(m, 0) + c
        return Expr(terms)

    __radd__ = __add__

    def __neg__(self) -> "Expr":
        return Expr({m: -c for m, c in self.terms})

    def __sub__(self, other) -> "Expr":
        return self + (-Expr.of(other))

    def __rsub__(self, other) -> "Expr":
        return Expr.of(other) - self

    def __mul__(self, other) -> "Expr":
        other = Expr.of(other)
        terms: dict = {}
        for m1, c1 in self.terms:
            for m2, c2 in other.terms:
                m = _mono_mul(m1, m2)
                terms[m] = terms.get(m, 0) + c1 * c2
        return Expr(terms)

    __rmul__ = __mul__

    def floordiv(self, k: int) -> "Expr":
        """⌊self/k⌋ for a positive constant k, in canonical form."""
        if k <= 0:
            raise ValueError(f"floor division by {k}")
        if k == 1:
            return self
        c = self.constant
        if c is not None:
            return Expr.const(c // k)
        terms = dict(self.terms)
        # a floor term of coefficient 1 absorbs the rest: ⌊(⌊P/a⌋ + Q)/k⌋ = ⌊(P + aQ)/(ak)⌋
        floors = [m for m, cf in terms.items() if cf == 1 and len(m) == 1 and m[0][1] == 1 and m[0][0][0] == "f"]
        if len(floors) == 1:
            (atom, _), = floors[0]
            rest = Expr({m: cf for m, cf in terms.items() if m != floors[0]})
            return (atom[1] + rest * atom[2]).floordiv(atom[2] * k)
        # whole multiples of k move outside
        outside, inside = {}, {}
        for m, cf in terms.items():
            q, r = divmod(cf, k)
            if m == ():
                if q:
                    outside[m] = q
                if r:
                    inside[m] = r
            elif r == 0:
                outside[m] = q
            else:
                inside[m] = cf
        if not inside:
            return Expr(outside)
        # a factor common to k and the inside's coefficients divides out (the constant rounds down)
        g = k
        for m, cf in inside.items():
            if m != ():
                g = math.gcd(g, cf)
        if g > 1:
            inside = {m: (cf // g) for m, cf in inside.items()}
            k //= g
            if k == 1:
                return Expr(outside) + Expr(inside)
        body = Expr(inside)
        if body.constant is not None:
            return Expr(outside) + body.constant // k
        return Expr(outside) + Expr({((("f", body, k), 1),): 1})

    def ceildiv(self, k: int) -> "Expr":
        return (self + (k - 1)).floordiv(k)

    def exact_div(self, other: "Expr") -> "Expr | None":
        """self / other when other is one term (a coefficient times atoms) dividing every term of self
        exactly, else None (as Reshape's -1 needs: 3*N*H*W / (H*W) = 3*N)."""
        if len(other.terms) != 1:
            return None
        (dm, dc), = other.terms
        if dc == 0:
            return None
        out = {}
        for m, c in self.terms:
            q = _mono_div(m, dm)
            if q is None or c % dc:
                return None
            out[q] = c // dc
        return Expr(out)

    # --- identity and printing --------------------------------------------------------------------------
    def __eq__(self, other) -> bool:
        if isinstance(other, int):
            return self.constant == other
        return isinstance(other, Expr) and self.terms == other.terms

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        if not self.terms:
            return "0"
        parts = []
        for m, c in self.terms:
            if m == ():
                body = str(abs(c))
            else:
                factors = "*".join(_atom_str(a) + (f"^{p}" if p > 1 else "") for a, p in m)
                body = factors if abs(c) == 1 else f"{abs(c)}*{factors}"
            sign = "-" if c < 0 else "+"
            parts.append((sign, body))
        text = ("-" if parts[0][0] == "-" else "") + parts[0][1]
        for sign, body in parts[1:]:
            text += sign + body
        return text

    def __repr__(self) -> str:
        return f"Expr({self})"


def _mono_key(m):
    return (len(m) == 0, [(_atom_key(a), p) for a, p in m])


def _mono_mul(a, b):
    powers: dict = {}
    for atom, p in a + b:
        powers[atom] = powers.get(atom, 0) + p
    return tuple(sorted(powers.items(), key=lambda t: _atom_key(t[0])))


def _mono_div(a, b):
    powers = dict(a)
    for atom, p in b:
        if powers.get(atom, 0) < p:
            return None
        powers[atom] -= p
    return tuple(sorted(((x, p) for x, p in powers.items() if p), key=lambda t: _atom_key(t[0])))


def _atom_value(atom: Atom, values: Mapping[str, int]) -> int:
    if atom[0] == "v":
        return int(values[atom[1]])
    return atom[1].evaluate(values) // atom[2]


def _atom_str(atom: Atom) -> str:
    if atom[0] == "v":
        return atom[1]
    body, k = atom[1], atom[2]
    c = next((cf for m, cf in body.terms if m == ()), 0)
    rest = body - c
    inner = str(rest)
    if len(rest.terms) > 1:
        inner = f"({inner})"
    if c == 0:
        return f"⌊{inner}/{k}⌋"
    if c == k - 1:
        return f"⌈{inner}/{k}⌉"
    return f"⌊({body})/{k}⌋"
