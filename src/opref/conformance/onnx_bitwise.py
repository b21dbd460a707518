"""ONNX equivalents: bitwise ops. ONNX Bitwise* take byte-sized integers (booleans go to And/Or/Xor/
Not); ONNX BitShift takes unsigned integers only (onnxruntime: u8/u32/u64), so signed shifts have no equivalent."""
from __future__ import annotations

from ..types import element_type
from .onnx_export import OnnxOp

LOGICAL = {"BitwiseAnd": "And", "BitwiseOr": "Or", "BitwiseXor": "Xor", "BitwiseNot": "Not"}


def _bitwise(op_type):
    def export(inputs, attrs):
        t = element_type(inputs[0])
        if t.name == "boolean":
            return OnnxOp(LOGICAL[op_type], list(inputs), opset=18)
        if t.bits < 8:
            return None
        return OnnxOp(op_type, list(inputs), opset=18)
    return export


def _shift(direction):
    def export(inputs, attrs):
        t = element_type(inputs[0])
        # onnxruntime's BitShift takes u8/u32/u64, and cannot feed 0-d u64 arrays
        if t.name not in ("u8", "u32", "u64") or any(x.ndim == 0 for x in inputs):
            return None
        return OnnxOp("BitShift", list(inputs), {"direction": direction}, opset=18)
    return export


EXPORTS = {"BitwiseAnd-13": _bitwise("BitwiseAnd"), "BitwiseOr-13": _bitwise("BitwiseOr"),
           "BitwiseXor-13": _bitwise("BitwiseXor"), "BitwiseNot-13": _bitwise("BitwiseNot"),
           "BitwiseLeftShift-15": _shift("LEFT"), "BitwiseRightShift-15": _shift("RIGHT")}
