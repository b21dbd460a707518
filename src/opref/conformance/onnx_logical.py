"""ONNX equivalents: logical ops (ONNX And/Or/Xor/Not on booleans; legacy Xor-1 is Xor too)."""
from __future__ import annotations

from .onnx_export import OnnxOp


def _op(op_type):
    return lambda inputs, attrs: OnnxOp(op_type, list(inputs), opset=18)


EXPORTS = {"LogicalAnd-1": _op("And"), "LogicalOr-1": _op("Or"), "LogicalXor-1": _op("Xor"),
           "LogicalNot-1": _op("Not"), "Xor-1": _op("Xor")}
