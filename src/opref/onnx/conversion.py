"""Type conversion. Convert, ConvertLike and ConvertPromoteTypes (each input to the promoted type) are
ONNX Cast plus the glue that pins down what ONNX leaves to the implementation, so that the result is
opref's (the x86-64 C++ casts of OpenVINO's reference) for every input:
- float -> integer: Cast is defined only where the truncated value fits. The value is compared in f64
  (exact for every float type) against the range of the machine conversion opref models (32-bit for
  destinations of up to 32 bits, 64-bit for i64 and u32); in range it is Cast (truncating), out of range,
  NaN and +-inf take that conversion's 'integer indefinite' -2^31 / -2^63; the integer then wraps to the
  destination (integer Cast keeps the low bits). u64 adds the two-branch unsigned conversion: values in
  [2^63, 2^64) are converted shifted down by 2^63, and 2^64 and above give 0.
- to f16/bf16 from f64 or integers: through f32 (two roundings, as opref and OpenVINO do); to f8 through
  f32 and f16 (Cast with saturate=0, so overflow gives inf / NaN as OpenVINO does).
- to boolean: Cast (x != 0, NaN is true); integer -> integer: Cast (two's-complement wrap).
u1 and nf4 have no ONNX element type. StringTensorPack/Unpack read and write the UTF-8 bytes of strings,
which no ONNX op exposes.
"""
from __future__ import annotations

from ..types import element_type
from .builder import Unsupported, onnx_type


def _float_to_int(b, x, src: str, dst: str) -> str:
    v = b.cast(x, "f64", src)                           # exact for every float type
    if dst == "u64":
        return _float_to_u64(b, v)
    bits = 64 if dst in ("i64", "u32") else 32
    it = f"i{bits}"
    lo = -2.0 ** (bits - 1)
    # trunc(x) >= lo  <=>  x > lo - 1 (exact in f64 for 32 bits; no f64 lies in (-2^63 - 1, -2^63))
    above = b.node("Greater", [v, b.scalar(lo - 1, "f64")]) if bits == 32 else \
        b.node("GreaterOrEqual", [v, b.scalar(lo, "f64")])
    ok = b.node("And", [above, b.node("Less", [v, b.scalar(-lo, "f64")])])       # NaN fails both
    inside = b.node("Cast", [b.node("Where", [ok, v, b.scalar(0.0, "f64")])], to=onnx_type(it))
    y = b.node("Where", [ok, inside, b.scalar(int(lo), it)])
    return b.cast(y, dst, it)


def _float_to_u64(b, v) -> str:
    high = b.node("GreaterOrEqual", [v, b.scalar(2.0 ** 63, "f64")])
    low_ok = b.node("And", [b.node("GreaterOrEqual", [v, b.scalar(-2.0 ** 63, "f64")]), b.node("Not", [high])])
    high_ok = b.node("And", [high, b.node("Less", [v, b.scalar(2.0 ** 64, "f64")])])
    i64 = onnx_type("i64")
    low = b.node("Cast", [b.node("Where", [low_ok, v, b.scalar(0.0, "f64")])], to=i64)
    shifted = b.node("Where", [high_ok, b.node("Sub", [v, b.scalar(2.0 ** 63, "f64")]), b.scalar(0.0, "f64")])
    top = b.node("Add", [b.node("Cast", [shifted], to=i64), b.scalar(-2 ** 63, "i64")])   # bits of v as u64
    rest = b.node("Where", [high, b.scalar(0, "i64"), b.scalar(-2 ** 63, "i64")])          # indefinite
    y = b.node("Where", [low_ok, low, b.node("Where", [high_ok, top, rest])])
    return b.cast(y, "u64", "i64")


def to_f8(b, v, dst: str) -> str:
    """f32 `v` rounded to f8 (nearest even; overflow gives inf for f8e5m2 and NaN for f8e4m3, which has no
    inf). onnxruntime's non-saturating Cast gives NaN for f8e5m2 where rounding overflows ([61440, 65536)
    in magnitude): those become +-inf before the Cast."""
    if dst == "f8e5m2":
        big = b.node("GreaterOrEqual", [b.node("Abs", [v]), b.scalar(61440.0, "f32")])
        v = b.node("Where", [big, b.node("Mul", [v, b.scalar(float("inf"), "f32")]), v])
    return b.cast(v, dst, "f32")


def convert_to(b, x, dst: str):
    """x converted to element type `dst` as opref's Convert does, or why ONNX cannot say it."""
    src = x.element_type
    for et in (src, dst):
        if onnx_type(et) is None:
            return Unsupported("ONNX has no element type for this conversion (u1, nf4, ...)", et)
    if src == dst:
        return b.node("Identity", [x])
    s, t = element_type(src), element_type(dst)
    if "string" in (src, dst):
        return Unsupported("Convert of strings", f"{src} -> {dst}")
    if t.name == "boolean" and s.is_float and s.bits < 32:
        x = b.cast(x, "f32", src)                       # onnxruntime gives true for an f8 -0
        src = "f32"
    if t.is_float and t.bits < 32:
        v = b.cast(x, "f32", src)                       # opref narrows through f32 (and f16 for f8)
        if t.name.startswith("f8"):
            v = b.cast(b.cast(v, "f16", "f32"), "f32", "f16")
            return to_f8(b, v, dst)
        return b.cast(v, dst, "f32")
    if t.is_integral and s.is_float:
        return _float_to_int(b, x, src, dst)
    return b.cast(x, dst, src)


def _convert(b, call):
    return convert_to(b, call.inputs[0], call.outputs[0].element_type)


def _convert_promote_types(b, call):
    outs = [convert_to(b, x, o.element_type) for x, o in zip(call.inputs, call.outputs)]
    return next((o for o in outs if isinstance(o, Unsupported)), outs)


LOWERINGS = {
    "Convert-1": _convert,
    "ConvertLike-1": _convert,
    "ConvertPromoteTypes-14": _convert_promote_types,
}
NO_ONNX = {
    "StringTensorPack-15": "ONNX has no op building strings from UTF-8 bytes and offsets",
    "StringTensorUnpack-15": "ONNX has no op giving the UTF-8 bytes and offsets of strings",
}
