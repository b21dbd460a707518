"""Cases for the bitwise ops: every integer type (sub-byte included) and boolean, under every
`auto_broadcast` mode (shared generators of the comparison table), random bit patterns, integer
limits and -1 (all bits set); shifts by every count in [0, bits) (the spec leaves other counts
implementation-defined), signed shifts that overflow (two's complement wrap) and negative values
shifted right (arithmetic).

OpenVINO's CPU plugin computes i64/u64 (and u32 right shifts) in 32 bits, and OpenVINO has a bitwise
reference evaluate only for i32 shifts: no OpenVINO oracle is faithful for 64-bit patterns. These
tables keep 64-bit values (and u32 shifted values) where 32-bit arithmetic is exact; full-width
64-bit patterns are checked against Python's integers in tests/test_bitwise.py."""
from __future__ import annotations

import itertools

import numpy as np

from ...opset.bitwise import BITS, INTEGERS
from ...types import element_type
from . import Case, ShapeCase, info
from ._gen import rng_for
from .comparison import (_sid, binary_errors, binary_shape_errors, loosen_cases, make_case, pool_values, shape_pair,
                         unary_cases)

N = 110
LOGICAL = ("BitwiseAnd-13", "BitwiseOr-13", "BitwiseXor-13")
SHIFTS = ("BitwiseLeftShift-15", "BitwiseRightShift-15")


def _wide_values(rng, et, shape, p_edge=0.15, pool=None, narrow=False):
    """Random bit patterns over the type's whole range (every bit matters here), salted with edges."""
    t = element_type(et)
    if t.name == "boolean" or pool is not None:
        return pool_values(rng, et, shape, p_edge, pool)
    shape = tuple(shape)
    if t.bits == 64 or (t.name == "u32" and narrow):          # see the module docstring
        return rng.integers(-2**31 if t.is_signed else 0, 2**31, shape).astype(t.dtype)
    if t.bits == 4:
        x = rng.integers(-8 if t.is_signed else 0, 8 if t.is_signed else 16, shape).astype(t.dtype)
    else:
        x = rng.integers(0, 256, shape + (t.bits // 8,), dtype=np.uint8).view(t.dtype).reshape(shape)
    return np.where(rng.random(shape) < p_edge, pool_values(rng, et, shape, 1.0), x).astype(t.dtype)


def _shift_cases(op):
    rng = rng_for(op)
    cycle = itertools.cycle(INTEGERS)
    out = []
    for i in range(N):
        et = next(cycle)
        t = element_type(et)
        mode, sa, sb = shape_pair(rng, i)
        bits = 16 if t.bits == 64 else t.bits                     # 64-bit: results within 32 bits
        a = _wide_values(rng, et, sa, pool=[0, 1] if mode == "pdpd" else None, narrow=True)
        if t.bits == 64:
            a = (a.astype(np.int64) >> 16).astype(t.dtype) if t.is_signed else a >> np.uint64(17)
        b = rng.integers(0, bits, tuple(sb)).astype(t.dtype)
        attrs = {} if mode == "numpy" and i % 3 else {"auto_broadcast": mode}
        out.append(make_case(op, f"{i}_{et}_{mode}_{_sid(sa)}_{_sid(sb)}", (a, b), attrs, _cpu))
    for et in INTEGERS:                              # every count against the type's edge values
        t = element_type(et)
        if t.bits == 64:
            edges = np.array([0, 1, 3, 2**14 - 1] + ([-1, -2**15, -3] if t.is_signed else [2**15 - 1]), t.dtype)
            counts = np.arange(16).astype(t.dtype)
        else:
            edges = pool_values(rng, et, (6,), 1.0)
            if et == "u32":
                edges = edges % np.uint32(2**31)
            counts = np.arange(t.bits).astype(t.dtype)
        out.append(make_case(op, f"all_counts_{et}", (edges[:, None], counts[None, :]), marks=_cpu))
    return out


def _cpu(op, inputs):
    """The CPU plugin is faithful on these tables' values (see the module docstring)."""
    return [], "openvino", {}


def _logical_cases(op):
    from .comparison import binary_cases
    out = binary_cases(op, BITS, values=_wide_values, marks=_cpu)
    out.append(make_case(op, "spec_example_u8", (np.array([21, 120], np.uint8), np.array([3, 37], np.uint8)), marks=_cpu))
    out.append(make_case(op, "spec_example_bool", (np.array([True, False, False]), np.array([True, True, False])),
                         marks=_cpu))
    return out


def cases():
    out = []
    for op in LOGICAL:
        out += _logical_cases(op) + binary_errors(op, "i32", "i64")
        out.append(Case(op, "err_float", (np.zeros(2, np.float32), np.zeros(2, np.float32)), error="expected one of"))
    out += unary_cases("BitwiseNot-13", BITS, values=_wide_values, marks=_cpu)
    out.append(Case("BitwiseNot-13", "err_float", (np.zeros(2, np.float32),), error="expected one of"))
    for op in SHIFTS:
        out += _shift_cases(op) + binary_errors(op, "i32", "i64")
        out.append(Case(op, "err_bool", (np.zeros(2, bool), np.zeros(2, bool)), error="expected one of"))
    return out


def shape_cases():
    rng = np.random.default_rng(13)
    out = loosen_cases(rng, [c for c in cases() if c.error is None])
    for op in LOGICAL + SHIFTS:
        out += binary_shape_errors(op, "i32")
    out.append(ShapeCase("BitwiseNot-13", "dyn_rank", (info("u8", None),)))
    return out
