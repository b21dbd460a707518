"""Logical ops on boolean tensors: LogicalAnd, LogicalOr, LogicalXor, LogicalNot, and the legacy
opset1 Xor (v0, no spec document; LogicalXor replaces it) (schemas and shape rules)."""
from __future__ import annotations

from .families import binary, unary

BOOLEAN = ("boolean",)

LOGICAL_AND_1 = binary("LogicalAnd", 1, "logical", BOOLEAN, "a AND b elementwise, after broadcasting")
LOGICAL_OR_1 = binary("LogicalOr", 1, "logical", BOOLEAN, "a OR b elementwise, after broadcasting")
LOGICAL_XOR_1 = binary("LogicalXor", 1, "logical", BOOLEAN, "a XOR b elementwise, after broadcasting")
LOGICAL_NOT_1 = unary("LogicalNot", 1, "logical", BOOLEAN, "NOT data elementwise")
XOR_1 = binary("Xor", 1, "logical", BOOLEAN, "legacy v0 Xor (opset1 only): a XOR b, as LogicalXor")

OPS = (LOGICAL_AND_1, LOGICAL_OR_1, LOGICAL_XOR_1, LOGICAL_NOT_1, XOR_1)
