"""Logical ops: ONNX And, Or, Xor, Not on booleans (the legacy Xor-1 is Xor too). Broadcasting as in
opref.onnx.arithmetic (pdpd: the second input unsqueezed at its trailing dims)."""
from __future__ import annotations

from .arithmetic import operands


def _logical(op_type):
    def lower(b, call):
        xs = operands(b, call, "boolean")
        return b.node(op_type, xs)
    return lower


LOWERINGS = {"LogicalAnd-1": _logical("And"), "LogicalOr-1": _logical("Or"), "LogicalXor-1": _logical("Xor"),
             "LogicalNot-1": _logical("Not"), "Xor-1": _logical("Xor")}
NO_ONNX: dict[str, str] = {}
