"""Comparison ops: the six binary comparisons (boolean output, `auto_broadcast`) and the
floating-point class tests IsFinite, IsInf, IsNaN (schemas and shape rules).

The binary comparisons take "any supported type"; opref allows every type whose values it can
compare: booleans, floats and integers (sub-byte i4/u4 included; u1 and nf4 share a NumPy dtype
with u8/u4 and would compare as codes, string is not ordered by OpenVINO)."""
from __future__ import annotations

from ..types import FLOAT
from .families import binary, unary
from .schema import BOOL, Attr

COMPARABLE = ("boolean",) + FLOAT + ("i64", "i32", "i16", "i8", "i4", "u64", "u32", "u16", "u8", "u4")


def _cmp(name: str, sign: str):
    return binary(name, 1, "comparison", COMPARABLE, f"a {sign} b elementwise, after broadcasting", out="boolean")


EQUAL_1 = _cmp("Equal", "==")
NOT_EQUAL_1 = _cmp("NotEqual", "!=")
LESS_1 = _cmp("Less", "<")
LESS_EQUAL_1 = _cmp("LessEqual", "<=")
GREATER_1 = _cmp("Greater", ">")
GREATER_EQUAL_1 = _cmp("GreaterEqual", ">=")

IS_FINITE_10 = unary("IsFinite", 10, "comparison", FLOAT, "true where data is neither NaN nor +-Inf", out="boolean")
IS_NAN_10 = unary("IsNaN", 10, "comparison", FLOAT, "true where data is NaN", out="boolean")
IS_INF_10 = unary(
    "IsInf", 10, "comparison", FLOAT, "true where data is an infinity that the attributes select", out="boolean",
    attributes=(Attr("detect_negative", BOOL, True, doc="map -Inf to true"),
                Attr("detect_positive", BOOL, True, doc="map +Inf to true")))

OPS = (EQUAL_1, NOT_EQUAL_1, LESS_1, LESS_EQUAL_1, GREATER_1, GREATER_EQUAL_1, IS_FINITE_10, IS_INF_10, IS_NAN_10)
