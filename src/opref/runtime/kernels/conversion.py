"""Type conversion and string ops (kernels).

Convert's spec leaves most conversions to C++ (`static_cast`); opref pins down what OpenVINO's
reference implementation computes on x86-64, the platform of its CPU plugin:
- float -> integer truncates towards zero, then keeps the low bits (no saturation: 300.0 -> i8 is
  44). The truncated value goes through the machine's 32-bit conversion for destinations of up to
  32 bits (64-bit for i64): NaN, +-inf and values outside that range give its 'integer indefinite'
  -2^31 (or -2^63), whose low bits follow (0 for 8/16-bit and sub-byte types). u32 goes through
  the 64-bit conversion (5e9 -> 705032704); u64 uses the compiler's two-branch unsigned conversion
  (values >= 2^63 are shifted down by 2^63 first), so 1e19 is exact and 2e19, +inf give 0. (OpenVINO's
  f32 -> u32 differs between its vectorised loop and its scalar tail beyond [-2^31, 2^32): there
  opref's answer is one of the two, and no case pins it down);
- integer -> integer wraps modulo 2^N (two's complement), as C++20 defines it;
- anything -> boolean is x != 0 (NaN is true); booleans are 0 and 1;
- f64 and integers narrow to f16/bf16 through f32 (two roundings, as OpenVINO's float16/bfloat16
  constructors take a float); f8e4m3/f8e5m2 are produced through f16, each step rounding to nearest
  even; overflow gives inf (f16, bf16, f8e5m2) or NaN (f8e4m3, which has no inf);
- u1 keeps the lowest bit of the u8 conversion; nf4 (from floats) is the code of the nearest NF4
  value (NaN -> code 0);
- an nf4 input (an `opref.typed` array of codes: a plain uint4 array is u4) decodes through the
  NF4 table to f32 (exactly the values OpenVINO's Convert of nf4 constants gives), then rounds to
  the destination as f32 does (nf4 -> nf4 keeps the codes).
"""
from __future__ import annotations

import ml_dtypes
import numpy as np

from ...opset.conversion import convert_promote_types_shape
from ...shapes import TensorInfo
from ...types import element_type

# The 16 NF4 values (QLoRA's normal-float 4-bit table), indexed by code.
NF4 = np.array([-1.0, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453, -0.28444138169288635,
                -0.18477343022823334, -0.09105003625154495, 0.0, 0.07958029955625534, 0.16093020141124725,
                0.24611230194568634, 0.33791524171829224, 0.44070982933044434, 0.5626170039176941,
                0.7229568362236023, 1.0], dtype=np.float32)
_NF4_MIDPOINTS = (NF4[:-1].astype(np.float64) + NF4[1:]) / 2


def nf4_decode(codes: np.ndarray) -> np.ndarray:
    """f32 values of nf4 codes (what Convert of an nf4 tensor to f32 gives)."""
    return NF4[np.asarray(codes).astype(np.uint8)]


def _cvtt(t: np.ndarray, bits: int) -> np.ndarray:
    """x86's truncating conversion of integral f64 values to a signed `bits`-bit integer (as int64):
    NaN and values out of range give the 'integer indefinite' -2^(bits-1)."""
    lo = -2.0 ** (bits - 1)
    with np.errstate(invalid="ignore"):
        ok = (t >= lo) & (t < -lo)
    return np.where(ok, t, lo).astype(np.int64)


def _wrap(v: np.ndarray, et) -> np.ndarray:
    """int64 (or uint64) values modulo 2^N into the integer type `et`."""
    if et.bits == 1:
        return (v & 1).astype(np.uint8)
    if et.bits == 4:
        u = (v & 0xF).astype(np.int8)
        return (u - 16 * (et.is_signed & (u >= 8))).astype(et.dtype)
    return v.astype(et.dtype)


def _float_to_int(x: np.ndarray, et) -> np.ndarray:
    x = x.astype(np.float64)
    with np.errstate(invalid="ignore"):
        t = np.trunc(x)
        if et.name == "u64":   # two branches: values >= 2^63 are converted shifted down by 2^63
            high = x >= 2.0**63
            v = np.where(high, _cvtt(t - 2.0**63, 64).view(np.uint64) ^ np.uint64(1 << 63),
                         _cvtt(t, 64).view(np.uint64))
            return v
    return _wrap(_cvtt(t, 64 if et.name in ("i64", "u32") else 32), et)


def _to_float(x: np.ndarray, et) -> np.ndarray:
    if et.name in ("f64", "f32"):
        return x.astype(et.dtype)
    wide = x if x.dtype == np.float32 else x.astype(np.float32)
    if et.name in ("f8e4m3", "f8e5m2"):
        return wide.astype(np.float16).astype(et.dtype)
    return wide.astype(et.dtype)


def _to_nf4(x: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        codes = (x.astype(np.float64)[..., None] > _NF4_MIDPOINTS).sum(axis=-1)
    return codes.astype(ml_dtypes.uint4)


def convert_array(data: np.ndarray, destination_type: str) -> np.ndarray:
    """`data` converted to the element type named `destination_type` (see the module doc)."""
    src, dst = element_type(data), element_type(destination_type)
    if src.name == "nf4":       # the shape rule allows float destinations and nf4 itself
        return np.array(data, dtype=dst.dtype) if dst.name == "nf4" else _to_float(nf4_decode(data), dst)
    with np.errstate(over="ignore", invalid="ignore"):
        if dst.name == "boolean":
            return data != 0 if src.name != "boolean" else data.copy()
        if dst.name == "nf4":
            return _to_nf4(data)
        if dst.is_float:
            return _to_float(data, dst)
        if src.is_float:
            return _float_to_int(data, dst)
        v = data.view(np.int64) if data.dtype == np.uint64 else data.astype(np.int64)
        return _wrap(v, dst)


def convert(data, *, destination_type):
    return convert_array(data, destination_type)


def convert_like(data, like):
    return convert_array(data, element_type(like).name)


def convert_promote_types(input_0, input_1, *, promote_unsafe, pytorch_scalar_promotion,
                          u64_integer_promotion_target):
    out_0, _ = convert_promote_types_shape(TensorInfo.of_array(input_0), TensorInfo.of_array(input_1),
                                           promote_unsafe=promote_unsafe,
                                           pytorch_scalar_promotion=pytorch_scalar_promotion,
                                           u64_integer_promotion_target=u64_integer_promotion_target)
    return convert_array(input_0, out_0.element_type), convert_array(input_1, out_0.element_type)


# --- strings as UTF-8 bytes ----------------------------------------------------------------------
# opref holds strings as NumPy unicode arrays. Bytes that are not valid UTF-8 (a range that cuts a
# character) decode to lone surrogates U+DC80..U+DCFF and encode back to the same bytes
# ("surrogateescape"), so Pack and Unpack are exact inverses on any bytes. (A NumPy unicode array
# cannot hold trailing NUL characters: a string's trailing zero bytes are dropped.)
_STRINGS = getattr(np, "strings", np.char)     # NumPy 2's np.strings; NumPy 1 has the same decode in np.char


def _utf8_lengths(codes: np.ndarray) -> np.ndarray:
    """Bytes per code point in UTF-8 (0 for the padding NUL of fixed-width unicode arrays)."""
    escaped = (codes >= 0xDC80) & (codes <= 0xDCFF)
    return np.select([codes == 0, codes < 0x80, escaped, codes < 0x800, codes < 0x10000], [0, 1, 1, 2, 3], 4)


def string_tensor_unpack(data):
    flat = np.asarray(data, dtype=np.str_).reshape(-1)
    width = max(flat.dtype.itemsize // 4, 1)
    codes = flat.astype(f"U{width}").view(np.uint32).reshape(flat.size, width)
    lengths = _utf8_lengths(codes).sum(axis=1)
    ends = np.cumsum(lengths, dtype=np.int64)
    begins = ends - lengths
    symbols = np.frombuffer("".join(flat.tolist()).encode("utf-8", "surrogateescape"), dtype=np.uint8)
    return (begins.astype(np.int32).reshape(data.shape), ends.astype(np.int32).reshape(data.shape), symbols.copy())


def string_tensor_pack(begins, ends, symbols):
    b, e = begins.reshape(-1).astype(np.int64), ends.reshape(-1).astype(np.int64)
    n = max(int((e - b).max(initial=0)), 1)
    # One gather of every string's bytes into a zero-padded [strings, longest] matrix, read as
    # fixed-width byte strings and decoded at once.
    index = b[:, None] + np.arange(n)
    inside = index < e[:, None]
    raw = np.where(inside, symbols[np.where(inside, index, 0)] if symbols.size else 0, 0).astype(np.uint8)
    strings = np.ascontiguousarray(raw).view(f"S{n}").reshape(-1)
    return _STRINGS.decode(strings, "utf-8", "surrogateescape").astype(np.str_).reshape(begins.shape)


KERNELS = {"Convert-1": convert, "ConvertLike-1": convert_like, "ConvertPromoteTypes-14": convert_promote_types,
           "StringTensorUnpack-15": string_tensor_unpack, "StringTensorPack-15": string_tensor_pack}
