"""Quantization ops, spelled out with ONNX elementwise ops in f32 (f64 for f64 data), as opref computes
them (f16/bf16 data in f32, rounded back once):
- FakeQuantize-1: round((x - il) / (ih - il) * (levels - 1)) / (levels - 1) * (oh - ol) + ol, with ONNX
  Round (half to even, as opref's std::nearbyint) and Where for x <= min(il, ih) -> ol and
  x > max(il, ih) -> oh (NaN passes both and stays NaN). The limits broadcast to the data's shape
  (numpy and pdpd broadcasting align them on the right, as ONNX does). ONNX's QuantizeLinear /
  DequantizeLinear pair takes a scale and zero point, not FakeQuantize's ranges and level count.
- FakeConvert-13: clamp(x * scale - shift) to the largest finite f8 value (Where, so NaN stays NaN), Cast
  to f8e4m3 / f8e5m2 and back (round half to even), then (y + shift) / scale.
"""
from __future__ import annotations

import ml_dtypes

from .builder import Unsupported


def _compute_type(x) -> str | None:
    return "f64" if x.element_type == "f64" else "f32" if x.et.is_float else None


def _fake_quantize(b, call):
    x = call.inputs[0]
    ct = _compute_type(x)
    if ct is None:
        return Unsupported("FakeQuantize of non-float data", x.element_type)
    v, il, ih, ol, oh = (b.cast(i, ct, i.element_type) for i in call.inputs)
    steps = b.scalar(call.attrs["levels"] - 1, ct)
    level = b.node("Round", [b.node("Mul", [b.node("Div", [b.node("Sub", [v, il]), b.node("Sub", [ih, il])]),
                                            steps])])
    q = b.node("Add", [b.node("Mul", [b.node("Div", [level, steps]), b.node("Sub", [oh, ol])]), ol])
    low = b.node("LessOrEqual", [v, b.node("Min", [il, ih])])
    high = b.node("Greater", [v, b.node("Max", [il, ih])])
    y = b.node("Where", [low, ol, b.node("Where", [high, oh, q])])
    y = b.node("Expand", [y, b.node("Shape", [v])])         # limits never enlarge the data's shape
    return b.cast(y, x.element_type, ct)


def _fake_convert(b, call):
    x, scale = call.inputs[:2]
    shift = call.inputs[2] if len(call.inputs) > 2 else None
    dst = call.attrs["destination_type"]
    big = float(ml_dtypes.finfo(ml_dtypes.float8_e4m3fn if dst == "f8e4m3" else ml_dtypes.float8_e5m2).max)
    v, s = (b.cast(i, "f32", i.element_type) for i in (x, scale))
    sh = b.scalar(0.0, "f32") if shift is None else b.cast(shift, "f32", shift.element_type)
    z = b.node("Sub", [b.node("Mul", [v, s]), sh])
    z = b.node("Where", [b.node("Greater", [z, b.scalar(big, "f32")]), b.scalar(big, "f32"),
                         b.node("Where", [b.node("Less", [z, b.scalar(-big, "f32")]), b.scalar(-big, "f32"), z])])
    y = b.cast(b.cast(z, dst, "f32"), "f32", dst)
    out = b.node("Div", [b.node("Add", [y, sh]), s])
    out = b.node("Expand", [out, b.node("Shape", [v])])
    return b.cast(out, x.element_type, "f32")


LOWERINGS = {
    "FakeQuantize-1": _fake_quantize,
    "FakeConvert-13": _fake_convert,
}
NO_ONNX: dict[str, str] = {}
