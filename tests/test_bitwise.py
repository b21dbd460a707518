"""Bitwise checks on full-width 64-bit patterns, which no OpenVINO oracle computes faithfully (the
CPU plugin works in 32 bits, the reference evaluate lacks these types): Python's integers are the
oracle here, reduced modulo 2^64."""
import numpy as np

import opref

M = 2**64
PATTERNS = [0, 1, 2**63 - 1, 2**63, 2**64 - 1, 0x0123456789ABCDEF, 0xF0F0F0F00F0F0F0F, 2**32, 2**32 - 1]


def _signed(v):
    v %= M
    return v - M if v >= 2**63 else v


def test_u64_and_or_xor_not():
    a = np.array(PATTERNS, np.uint64)
    b = np.array(PATTERNS[::-1], np.uint64)
    for op, fn in (("BitwiseAnd-13", lambda x, y: x & y), ("BitwiseOr-13", lambda x, y: x | y),
                   ("BitwiseXor-13", lambda x, y: x ^ y)):
        assert opref.run_op(op, [a, b])[0].tolist() == [fn(x, y) for x, y in zip(PATTERNS, PATTERNS[::-1])], op
    assert opref.run_op("BitwiseNot-13", [a])[0].tolist() == [M - 1 - x for x in PATTERNS]


def test_i64_shifts_wrap_and_shift_arithmetically():
    vals = [_signed(v) for v in PATTERNS]
    a = np.array(vals, np.int64)
    for k in (0, 1, 31, 32, 63):
        s = np.full(len(vals), k, np.int64)
        assert opref.run_op("BitwiseLeftShift-15", [a, s])[0].tolist() == [_signed(v << k) for v in vals]
        assert opref.run_op("BitwiseRightShift-15", [a, s])[0].tolist() == [v >> k for v in vals]


def test_u32_right_shift_is_logical():
    a = np.array([2**32 - 1, 2**31], np.uint32)
    assert opref.run_op("BitwiseRightShift-15", [a, np.array([4, 31], np.uint32)])[0].tolist() == [2**28 - 1, 1]


def test_spec_u8_example():
    out = opref.run_op("BitwiseAnd-13", [np.array([21, 120], np.uint8), np.array([3, 37], np.uint8)])[0]
    assert out.tolist() == [1, 32]
