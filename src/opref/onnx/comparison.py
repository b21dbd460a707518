"""Comparison ops: ONNX Equal, Less, LessOrEqual, Greater, GreaterOrEqual (IEEE: NaN compares false),
computed in a type onnxruntime's kernel takes that holds the data exactly (f16/bf16/f8 in f32, i4/u4 in
8 bits, booleans as 0/1 for the orderings); NotEqual is Not(Equal); IsInf and IsNaN are ONNX's, IsFinite
is neither of them. Broadcasting as in opref.onnx.arithmetic (pdpd: the second input unsqueezed)."""
from __future__ import annotations

from .arithmetic import operands
from .glue import carrier, unsupported_type


def _compare(op_type, negate=False):
    def lower(b, call):
        et = call.inputs[0].element_type
        ct = carrier(et, b.kernel_types(op_type))
        if ct is None:
            return unsupported_type(op_type, et)
        xs = operands(b, call, ct)
        y = b.node(op_type, xs[:2])
        return b.node("Not", [y]) if negate else y
    return lower


def _class_test(op_type):
    def lower(b, call):
        x = call.inputs[0]
        if x.element_type not in b.kernel_types(op_type):
            return unsupported_type(op_type, x.element_type)
        attrs = {k: int(bool(call.attrs[k])) for k in ("detect_negative", "detect_positive") if k in call.attrs}
        return b.node(op_type, [x], **attrs)
    return lower


def _is_finite(b, call):
    x = call.inputs[0]
    if x.element_type not in b.kernel_types("IsInf") & b.kernel_types("IsNaN"):
        return unsupported_type("IsInf", x.element_type)
    return b.node("Not", [b.node("Or", [b.node("IsInf", [x]), b.node("IsNaN", [x])])])


LOWERINGS = {
    "Equal-1": _compare("Equal"),
    "NotEqual-1": _compare("Equal", negate=True),
    "Less-1": _compare("Less"),
    "LessEqual-1": _compare("LessOrEqual"),
    "Greater-1": _compare("Greater"),
    "GreaterEqual-1": _compare("GreaterOrEqual"),
    "IsInf-10": _class_test("IsInf"),
    "IsNaN-10": _class_test("IsNaN"),
    "IsFinite-10": _is_finite,
}
NO_ONNX: dict[str, str] = {}
