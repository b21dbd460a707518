"""Arithmetic ops: unary math and binary elementwise arithmetic (kernels).

Conventions, for every element type the schemas allow:
- floats narrower than f32 (f16, bf16, f8) are computed in f32 and rounded back once, as OpenVINO's
  CPU plugin does; f32 and f64 compute in their own type; NaN and +-inf follow IEEE 754;
- integers wrap around (two's complement), never saturate; integer division and remainders round
  as each op's spec says (floor for Divide with m_pythondiv and FloorMod, truncation for Divide
  without it and Mod);
- transcendental functions of integers are computed in f64, rounded to the nearest integer (halves
  away from zero, as the Sqrt spec says) and saturated to the type's range, as OpenVINO's CPU plugin
  does; domain errors (NaN) are undefined by the specs and give 0.
"""
from __future__ import annotations

import math

import ml_dtypes
import numpy as np

from ...errors import InputError
from ...types import accumulator_dtype
from ..limits import check_size
from ._elementwise import binary, quiet as _quiet, unary


_ACCUMULATOR: dict = {}       # dtype -> accumulator_dtype(dtype), looked up once per dtype


def _wide(x: np.ndarray) -> np.ndarray:
    """Floats narrower than f32 as f32 (the type they are computed in); anything else as is."""
    acc = _ACCUMULATOR.get(x.dtype)
    if acc is None:
        acc = _ACCUMULATOR[x.dtype] = accumulator_dtype(x.dtype)
    return x.astype(acc, copy=False)


def _is_int(x: np.ndarray) -> bool:
    return x.dtype.kind in "iu"


def _float_fn(fn):
    """fn on floats (narrow ones in f32); on integers computed in f64, rounded to nearest (halves
    away from zero) and saturated to the integer type; warnings off (`_quiet`). A ufunc computing in
    the type itself writes into `out` when given (see INTO)."""
    ufunc = isinstance(fn, np.ufunc)

    def compute(x, out=None):
        if _is_int(x):
            return _to_int(_round_half_away(fn(x.astype(np.float64))), x.dtype)
        if ufunc and _ACCUMULATOR.get(x.dtype) is x.dtype:      # computed in the type itself
            return fn(x, out=out)
        return fn(_wide(x)).astype(x.dtype, copy=False)
    return _quiet(compute)


def _to_int(y: np.ndarray, dtype) -> np.ndarray:
    """Integral f64 values into an integer type, saturating at its limits (as OpenVINO's CPU plugin
    converts; C++ leaves out-of-range conversions undefined); NaN (a domain error) gives 0."""
    info = np.iinfo(dtype)
    y = np.clip(np.where(np.isnan(y), 0.0, y), float(info.min), float(info.max))
    big = y >= 2.0**63                   # (i64/u64 limits round up to 2^63/2^64 in f64)
    return np.where(big, info.max, np.where(big, 0.0, y).astype(np.int64).astype(dtype)).astype(dtype)


def _round_half_away(x: np.ndarray) -> np.ndarray:
    r = np.trunc(x)
    with np.errstate(invalid="ignore"):          # inf - inf: the NaN is not selected
        return np.where(np.abs(x - r) >= 0.5, r + np.sign(x), r)


# --- erf and its inverse (NumPy has neither) ---------------------------------------------------------
_TWO_OVER_SQRT_PI = 2.0 / np.sqrt(np.pi)


# erf in f64, within 2 ulps of the C library's, in a fixed number of passes over each element: the Taylor
# expansion around the nearest multiple c of 1/256 in [0, 6] (|a - c| <= 1/512), 6 terms,
#   erf(c + d) = erf(c) + sum_{n>=1} erf^(n)(c) d^n / n!,  erf^(n)(c) = 2/sqrt(pi) (-1)^(n-1) H_{n-1}(c) exp(-c^2)
# (H the physicists' Hermite polynomials; the remainder is below 1e-17 of the value). From c = 1 on, the sum is of
# erf - 1 = -erfc (the constant term -erfc(c)), and 1 is added last, so that erf rounds as 1 - erfc does near 1.
# Beyond 6, erf rounds to 1 in f64 (erfc(6) = 2.2e-17): |x| is taken as 6 there. The table is built once, from
# math.erf/erfc and the Hermite recurrence ([6, 1537] f64: 74 KB). (A finer grid takes fewer terms: 1/16 took 10,
# 1/256 takes 6, 28% less time, the same 2 ulps on 2M points over [-7, 7].)
_ERF_STEP, _ERF_TERMS, _ERF_CENTRES, _ERFC_FROM = 1 / 256, 6, 1537, 256  # centres 0, 1/256, ..., 6; erfc from 1
ERF_BLOCK = 1 << 13      # elements per block: the block and its [6, block] coefficients stay in the L2 cache


def _erf_taylor_table() -> tuple[np.ndarray, np.ndarray]:
    """[term, centre]: erf^(n)(c) / n! (the constant term erf(c) - 1 from centre _ERFC_FROM on), and the
    constant added after the sum, per centre (0, or 1 from _ERFC_FROM on)."""
    columns = []
    for k in range(_ERF_CENTRES):
        c = k * _ERF_STEP
        h = [1.0, 2 * c]                                     # H_0, H_1; H_{j+1} = 2c H_j - 2j H_{j-1}
        for j in range(1, _ERF_TERMS):
            h.append(2 * c * h[j] - 2 * j * h[j - 1])
        g = 2 / math.sqrt(math.pi) * math.exp(-c * c)
        terms = [g * (-1) ** (n - 1) * h[n - 1] / math.factorial(n) for n in range(1, _ERF_TERMS)]
        columns.append([math.erf(c) if k < _ERFC_FROM else -math.erfc(c)] + terms)
    return np.array(columns).T.copy(), (np.arange(_ERF_CENTRES) >= _ERFC_FROM).astype(np.float64)


_ERF_TAYLOR, _ERF_ONE = _erf_taylor_table()
# the scalars as f64 NumPy scalars (a Python number costs NumPy a conversion per call)
_SIX, _PER_STEP, _STEP, _LAST = (np.float64(v) for v in (6, 1 / _ERF_STEP, _ERF_STEP, _ERF_CENTRES - 1))


def _erf_sum(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For a = |z| in f64: (s, one), the Taylor sum and the constant per element, erf(a) = one + s and
    erfc(a) = (1 - one) - s (from 1 on, s is -erfc(a) itself: erfc keeps its relative precision)."""
    a = np.minimum(a, _SIX)
    k = np.rint(np.fmin(a * _PER_STEP, _LAST)).astype(np.intp)   # NaN -> the last centre
    d = a - k * _STEP                                        # NaN stays NaN through the sum
    coefficients = np.take(_ERF_TAYLOR, k, axis=1)          # [term, element]
    s = coefficients[-1].copy()
    for c in coefficients[-2::-1]:                           # Horner's rule
        s *= d
        s += c
    return s, _ERF_ONE.take(k)


def erf_block(z: np.ndarray) -> np.ndarray:
    """erf of a 1-D f64 array (one block: up to ERF_BLOCK elements keeps its work arrays in the cache)."""
    s, one = _erf_sum(np.abs(z))
    s += one                                                 # erf = 1 - erfc from 1 on
    return np.copysign(s, z, out=s)


def in_f64_blocks(fn, x: np.ndarray, dtype=None) -> np.ndarray:
    """fn (elementwise, on 1-D f64 arrays) over x, ERF_BLOCK elements at a time, each block computed in f64 and
    rounded once into the result, of `dtype` (x's by default): the work arrays stay in the cache and their
    size bounded."""
    out = np.empty(x.shape, x.dtype if dtype is None else dtype)
    xs, ys = x.reshape(-1), out.reshape(-1)
    for i in range(0, xs.size, ERF_BLOCK):
        ys[i:i + ERF_BLOCK] = fn(xs[i:i + ERF_BLOCK].astype(np.float64, copy=False))
    return out


def erf(x: np.ndarray) -> np.ndarray:
    """erf in f64 (NaN stays NaN, erf(+-inf) = +-1, the sign of -0 kept)."""
    return in_f64_blocks(erf_block, np.asarray(x), np.float64)


_GILES_SMALL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                -0.00417768164, 0.246640727, 1.50140941)
_GILES_LARGE = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                0.00943887047, 1.00167406, 2.83297682)


def _erfinv_block(x: np.ndarray) -> np.ndarray:
    """Giles' approximation of a = |erfinv(x)|, then Newton steps: on erf(a) = t = |x| below a = 1; from 1 on
    (where erf rounds near 1), on log erfc(a) = log(1 - t) (1 - t exact for t >= 1/2; erfc from _erf_sum keeps
    its relative precision, and its log is nearly a parabola, so the steps converge from Giles' far-tail
    guesses too)."""
    t = np.abs(x)
    w = -np.log((1.0 - t) * (1.0 + t))
    a = np.where(w < 5.0, np.polyval(_GILES_SMALL, w - 2.5), np.polyval(_GILES_LARGE, np.sqrt(w) - 3.0)) * t
    inside = t < 1.0
    a[~inside] = 0.0                                          # (|x| >= 1 and NaN: set below)
    for _ in range(4):
        s, one = _erf_sum(a)
        slope = _TWO_OVER_SQRT_PI * np.exp(-a * a)            # erf'(a) = -erfc'(a)
        tail = one > 0
        e = -s                                                # erfc(a) where `tail`
        step = np.where(tail, np.log(e / (1.0 - t)) * e, t - s) / slope
        a += np.where(inside, step, 0.0)
    a[t == 1.0] = np.inf
    a[t > 1.0] = np.nan
    a[np.isnan(t)] = np.nan
    return np.copysign(a, x, out=a)                           # (erfinv(-0) = -0)


def erfinv(x: np.ndarray) -> np.ndarray:
    """Inverse of erf on f64 values: +-inf at +-1, NaN beyond and for NaN, the sign of -0 kept."""
    with np.errstate(all="ignore"):
        return in_f64_blocks(_erfinv_block, np.asarray(x), np.float64)


# --- binary ---------------------------------------------------------------------------------------
def _same(fn):
    """fn on two arrays of one type: narrow floats in f32; integers wrap in their own type."""
    def compute(a, b):
        with np.errstate(all="ignore"):
            return _in_type(fn, a, b)
    return compute


def _in_type(fn, a, b):
    return np.asarray(fn(_wide(a), _wide(b))).astype(a.dtype, copy=False)


def _same_kernel(fn):
    """`_same(fn)` made once, for the kernel table: its warnings off through `_quiet` (cheaper per call).
    Computing in the type itself, it writes into `out` when given (see INTO)."""
    def same(a, b, out=None):
        if a.dtype is b.dtype and _ACCUMULATOR.get(a.dtype) is a.dtype:     # computed in the type itself
            res = fn(a, b, out=out)
            if type(res) is np.ndarray and res.dtype is a.dtype:
                return res
        return _in_type(fn, a, b)
    return _quiet(same)


def _divide(a, b, *, m_pythondiv):
    if not _is_int(a):
        return _same(np.true_divide)(a, b)
    with np.errstate(all="ignore"):
        q = np.floor_divide(a, b)
        if not m_pythondiv and a.dtype.kind == "i":   # truncate: floor + 1 where the quotient is inexact and negative
            inexact = np.remainder(a, b) != 0
            q = np.where(inexact & ((a < 0) != (b < 0)), q + 1, q).astype(a.dtype)
    return q


def _power(a, b):
    if not _is_int(a):
        return _same(np.power)(a, b)
    # integers: repeated multiplication in the type, wrapping; negative exponents give the integer
    # part of 1 / a**|b| (1 for a = 1, +-1 for a = -1, 0 otherwise)
    a, b = np.broadcast_arrays(a, b)
    result = np.ones(a.shape, a.dtype)
    base = a.copy()
    e = np.where(b > 0, b, 0).astype(np.uint64) if b.dtype.kind == "i" else b.astype(np.uint64)
    with np.errstate(all="ignore"):
        while e.any():
            odd = (e & np.uint64(1)).astype(bool)
            result = np.where(odd, result * base, result).astype(a.dtype)
            base = (base * base).astype(a.dtype)
            e = e >> np.uint64(1)
    if b.dtype.kind == "i":
        neg = b < 0
        one = a == 1
        minus_one = a == -1
        inv = np.where(one, 1, np.where(minus_one, np.where(b % 2 == 0, 1, -1), 0)).astype(a.dtype)
        result = np.where(neg, inv, result).astype(a.dtype)
    return result


# NaN: as OpenVINO's reference (std::max / std::min), the first operand wins unless the second is
# strictly greater (smaller): max(NaN, 1) = NaN but max(1, NaN) = 1; max(0, -0) = 0.
def _std_extreme(ufunc):
    """std::max(x, y) = y if x < y else x (std::min: y if y < x else x): NumPy's maximum (minimum), which
    differs from it only where y is NaN or x == y (a zero's sign), the first operand kept there. (Not
    np.where(x < y, y, x): NumPy's where is several times slower on a mask of no pattern.)"""
    def extreme(x, y):
        out = np.asarray(ufunc(x, y))              # (0-d operands give a scalar)
        if out.dtype.kind == "f":
            keep = x == y
            keep |= np.isnan(y)
            np.copyto(out, np.broadcast_to(x, out.shape), where=keep)
        return out
    return extreme


_maximum, _minimum = _same(_std_extreme(np.maximum)), _same(_std_extreme(np.minimum))


def _squared_difference(a, b):
    def f(x, y):
        d = x - y
        return d * d
    return _same(f)(a, b)


def _mod(a, b):
    return _same(np.fmod)(a, b)


def _floor_mod(a, b):
    return _same(np.mod)(a, b)


# --- unary ----------------------------------------------------------------------------------------
def _abs(x):
    return np.abs(_wide(x)).astype(x.dtype)     # integers: abs(INT_MIN) wraps to INT_MIN


def _negative(x):
    if x.dtype.kind == "u":
        return (np.zeros_like(x) - x).astype(x.dtype)
    with np.errstate(all="ignore"):
        return np.negative(_wide(x)).astype(x.dtype)


def _sign(x):
    if _is_int(x):
        return np.sign(x).astype(x.dtype)
    return np.sign(_wide(x)).astype(x.dtype)


def _integral_identity(fn):
    def compute(x):
        return x.copy() if _is_int(x) else fn(_wide(x)).astype(x.dtype)
    return compute


def _round(x, *, mode):
    if _is_int(x):
        return x.copy()
    w = _wide(x)
    return (np.rint(w) if mode == "half_to_even" else _round_half_away(w)).astype(x.dtype)


# --- CumSum-3 and SegmentMax-16 ---------------------------------------------------------------------
def cumsum(data, axis=None, *, exclusive, reverse):
    if data.ndim == 0:     # (OpenVINO's reference rejects a scalar too; the spec asks rank >= 1)
        raise InputError("CumSum-3: input 'data' is a scalar; it must have rank >= 1")
    ax = 0 if axis is None else int(np.asarray(axis).reshape(-1)[0])
    if not -data.ndim <= ax < data.ndim:
        raise InputError(f"CumSum-3: input 'axis' is {ax}, outside [{-data.ndim}, {data.ndim - 1}] for data of "
                         f"rank {data.ndim}")
    ax = ax + data.ndim if ax < 0 else ax
    acc = accumulator_dtype(data.dtype)
    x = data.astype(acc)
    if reverse:
        x = np.flip(x, ax)
    with np.errstate(all="ignore"):
        y = np.cumsum(x, axis=ax, dtype=acc)
    if exclusive:          # shift by one along the axis: the j-th sum leaves out element j
        y = y - x
    if reverse:
        y = np.flip(y, ax)
    return np.ascontiguousarray(y).astype(data.dtype)


def segment_max(data, segment_ids, num_segments=None, *, fill_mode):
    ids = np.asarray(segment_ids).astype(np.int64).reshape(-1)
    n = int(np.asarray(num_segments).reshape(-1)[0]) if num_segments is not None \
        else (int(ids.max()) + 1 if ids.size else 0)
    # the work array is num_segments rows of a wide type: checked before it is allocated
    check_size("SegmentMax-16", f"the work array for num_segments {n}", (n,) + data.shape[1:],
               accumulator_dtype(data.dtype))
    check_size("SegmentMax-16", f"the segment counts for num_segments {n}", (n,), np.int64)
    work = _wide(data)
    if work.dtype.kind == "f":        # lowest: the most negative finite value of the type
        lowest, start = float(ml_dtypes.finfo(data.dtype).min), -np.inf
    else:
        lowest = start = np.iinfo(data.dtype).min
    out = np.full((n,) + data.shape[1:], start, dtype=work.dtype)
    keep = ids < n                       # ids beyond num_segments are dropped
    np.maximum.at(out, ids[keep], work[keep])
    counts = np.bincount(ids[keep], minlength=n)[:n]
    fill = 0 if fill_mode == "zero" else lowest
    empty = (counts == 0).reshape((n,) + (1,) * (data.ndim - 1))
    return np.where(empty, np.asarray(fill, dtype=work.dtype), out).astype(data.dtype)


KERNELS = {
    "Add-1": binary(_same_kernel(np.add)),
    "Subtract-1": binary(_same_kernel(np.subtract)),
    "Multiply-1": binary(_same_kernel(np.multiply)),
    "Divide-1": binary(_divide, ["m_pythondiv"]),
    "Power-1": binary(_power),
    "Maximum-1": binary(_maximum),
    "Minimum-1": binary(_minimum),
    "SquaredDifference-1": binary(_squared_difference),
    "Mod-1": binary(_mod),
    "FloorMod-1": binary(_floor_mod),
    "Abs-1": unary(_abs),
    "Negative-1": unary(_negative),
    "Sign-1": unary(_sign),
    "Floor-1": unary(_integral_identity(np.floor)),
    "Ceiling-1": unary(_integral_identity(np.ceil)),
    "Round-5": unary(_round, ["mode"]),
    "Sqrt-1": unary(_float_fn(np.sqrt)),
    "Log-1": unary(_float_fn(np.log)),
    "Erf-1": unary(_float_fn(lambda x: erf(x.astype(np.float64)).astype(x.dtype))),
    "ErfInv-17": unary(_float_fn(lambda x: erfinv(x.astype(np.float64)).astype(x.dtype))),
    "Tanh-1": unary(_float_fn(np.tanh)),
    "Sin-1": unary(_float_fn(np.sin)),
    "Cos-1": unary(_float_fn(np.cos)),
    "Tan-1": unary(_float_fn(np.tan)),
    "Asin-1": unary(_float_fn(np.arcsin)),
    "Acos-1": unary(_float_fn(np.arccos)),
    "Atan-1": unary(_float_fn(np.arctan)),
    "Sinh-1": unary(_float_fn(np.sinh)),
    "Cosh-1": unary(_float_fn(np.cosh)),
    "Asinh-3": unary(_float_fn(np.arcsinh)),
    "Acosh-3": unary(_float_fn(np.arccosh)),
    "Atanh-3": unary(_float_fn(np.arctanh)),
    "CumSum-3": cumsum,
    "SegmentMax-16": segment_max,
}

# The kernels that write into `out=` (by the input ports it may be; see kernels/__init__.py): one ufunc each, where
# they compute in the element type itself.
_UFUNC_UNARY = ("Sqrt-1", "Log-1", "Tanh-1", "Sin-1", "Cos-1", "Tan-1", "Asin-1", "Acos-1", "Atan-1", "Sinh-1",
                "Cosh-1", "Asinh-3", "Acosh-3", "Atanh-3")
INTO = {"Add-1": (0, 1), "Subtract-1": (0, 1), "Multiply-1": (0, 1), **{op: (0,) for op in _UFUNC_UNARY}}
