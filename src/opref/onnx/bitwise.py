"""Bitwise ops. BitwiseAnd/Or/Xor/Not are ONNX's Bitwise* on integers and And/Or/Xor/Not on booleans;
i4/u4 compute in 8 bits (And/Or/Xor/Not of sign-extended i4 stay i4 values; u4's Not is x ^ 15). ONNX's
BitShift takes unsigned integers (onnxruntime: u8/u32/u64, giving 0 for counts past the width, as NumPy
and opref do), so shifts compute on the two's complement bits as unsigned: a signed count becomes a
huge unsigned one (a negative count shifts everything out, as opref), a signed right shift is
~(~a >> n) for negative a (arithmetic). Sub-byte results are wrapped to 4 bits as opref's kernel does.
Broadcasting as in opref.onnx.arithmetic."""
from __future__ import annotations

from ..types import element_type
from .arithmetic import operands, where
from .glue import carrier, unsupported_type

LOGICAL = {"BitwiseAnd": "And", "BitwiseOr": "Or", "BitwiseXor": "Xor", "BitwiseNot": "Not"}
UNSIGNED = {"i4": "u8", "u4": "u8", "i8": "u8", "u8": "u8", "i16": "u16", "u16": "u16", "i32": "u32", "u32": "u32",
            "i64": "u64", "u64": "u64"}


def _bitwise(op_type):
    def lower(b, call):
        et = call.inputs[0].element_type
        if et == "boolean":
            xs = operands(b, call, et)
            return b.node(LOGICAL[op_type], xs)
        ct = carrier(et, b.kernel_types(op_type))
        if ct is None:
            return unsupported_type(op_type, et)
        xs = operands(b, call, ct)
        if op_type == "BitwiseNot" and et == "u4":
            y = b.node("BitwiseXor", [xs[0], b.scalar(15, ct)])
        else:
            y = b.node(op_type, xs)
        return b.cast(y, et, ct)
    return lower


def _wrap4(b, x: str, et: str) -> str:
    """8-bit results (u8) reduced modulo 16 into i4 (sign from bit 3) or u4."""
    low = b.node("BitwiseAnd", [x, b.scalar(15, "u8")])
    if et == "u4":
        return b.cast(low, "u4", "u8")
    low = b.cast(low, "i8", "u8")
    signed = b.node("Sub", [low, b.node("Mul", [b.node("BitwiseAnd", [low, b.scalar(8, "i8")]), b.scalar(2, "i8")])])
    return b.cast(signed, "i4", "i8")


def _shift(direction):
    def lower(b, call):
        et = call.inputs[0].element_type
        t = element_type(et)
        ut = UNSIGNED[et]
        st = carrier(ut, b.kernel_types("BitShift"))
        if st is None:
            return unsupported_type("BitShift", et)
        wide = "i8" if t.bits == 4 else et           # sub-byte types compute in 8 bits, as opref
        xs = operands(b, call, wide)
        a, n = xs[:2]
        count = b.cast(b.cast(n, ut, wide), st, ut)
        negative = None
        if t.is_signed and direction == "RIGHT":     # arithmetic: shift ~a where a < 0, then ~ again
            negative = b.node("Less", [a, b.scalar(0, wide)])
            a = where(b, negative, b.node("BitwiseNot", [a]), a, wide)
        y = b.node("BitShift", [b.cast(b.cast(a, ut, wide), st, ut), count], direction=direction)
        y = b.cast(b.cast(y, ut, st), wide, ut)     # (the carrier's high bits drop: modulo 2^bits)
        if negative is not None:
            y = where(b, negative, b.node("BitwiseNot", [y]), y, wide)
        return _wrap4(b, b.cast(y, "u8", wide), et) if t.bits == 4 else y
    return lower


LOWERINGS = {"BitwiseAnd-13": _bitwise("BitwiseAnd"), "BitwiseOr-13": _bitwise("BitwiseOr"),
             "BitwiseXor-13": _bitwise("BitwiseXor"), "BitwiseNot-13": _bitwise("BitwiseNot"),
             "BitwiseLeftShift-15": _shift("LEFT"), "BitwiseRightShift-15": _shift("RIGHT")}
NO_ONNX: dict[str, str] = {}
