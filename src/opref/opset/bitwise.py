"""Bitwise ops: And, Or, Xor, Not on integers (two's complement bits) and booleans (as the logical
ops), and the integer shifts (schemas and shape rules).

u1 and nf4 are not allowed: they share a NumPy dtype with u8/u4 and their bits would be computed
as 8-bit (u1) or as codes (nf4)."""
from __future__ import annotations

from .families import binary, unary

INTEGERS = ("i64", "i32", "i16", "i8", "i4", "u64", "u32", "u16", "u8", "u4")
BITS = ("boolean",) + INTEGERS

BITWISE_AND_13 = binary("BitwiseAnd", 13, "bitwise", BITS, "a & b elementwise (LogicalAnd for booleans)")
BITWISE_OR_13 = binary("BitwiseOr", 13, "bitwise", BITS, "a | b elementwise (LogicalOr for booleans)")
BITWISE_XOR_13 = binary("BitwiseXor", 13, "bitwise", BITS, "a ^ b elementwise (LogicalXor for booleans)")
BITWISE_NOT_13 = unary("BitwiseNot", 13, "bitwise", BITS, "~data elementwise (LogicalNot for booleans)")
BITWISE_LEFT_SHIFT_15 = binary(
    "BitwiseLeftShift", 15, "bitwise", INTEGERS,
    "a << b elementwise, modulo 2^bits; shifts outside [0, bits) are implementation-defined (the spec)")
BITWISE_RIGHT_SHIFT_15 = binary(
    "BitwiseRightShift", 15, "bitwise", INTEGERS,
    "a >> b elementwise (arithmetic for signed types); shifts outside [0, bits) are implementation-defined")

OPS = (BITWISE_AND_13, BITWISE_OR_13, BITWISE_XOR_13, BITWISE_NOT_13, BITWISE_LEFT_SHIFT_15, BITWISE_RIGHT_SHIFT_15)
