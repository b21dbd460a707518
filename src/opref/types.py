"""OpenVINO element types and their NumPy / ml_dtypes counterparts.

Sub-byte types (i4, u4, nf4, u1) are held unpacked, one element per byte: i4/u4 as ml_dtypes'
int4/uint4, u1 as uint8 with values 0/1, nf4 as uint4 codes (the 16-entry NF4 table decodes them).
Packing into bytes happens only at the IR .bin boundary.
"""
from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np

from .errors import OprefError


@dataclass(frozen=True)
class ElementType:
    name: str          # OpenVINO's name, as in `element_type="f32"`
    dtype: np.dtype    # how opref holds values of this type
    bits: int          # storage bits per element in IR .bin files (0 for string)
    precision: str     # IR port `precision` spelling
    is_float: bool = False
    is_signed: bool = False

    @property
    def is_integral(self) -> bool:
        return not self.is_float and self.name not in ("boolean", "string")

    def __str__(self) -> str:
        return self.name


def _et(name, dtype, bits, precision, is_float=False, is_signed=False):
    return ElementType(name, np.dtype(dtype), bits, precision, is_float, is_signed or is_float)


ELEMENT_TYPES: dict[str, ElementType] = {t.name: t for t in (
    _et("boolean", np.bool_, 8, "BOOL"),
    _et("f64", np.float64, 64, "FP64", is_float=True),
    _et("f32", np.float32, 32, "FP32", is_float=True),
    _et("f16", np.float16, 16, "FP16", is_float=True),
    _et("bf16", ml_dtypes.bfloat16, 16, "BF16", is_float=True),
    _et("f8e4m3", ml_dtypes.float8_e4m3fn, 8, "F8E4M3", is_float=True),
    _et("f8e5m2", ml_dtypes.float8_e5m2, 8, "F8E5M2", is_float=True),
    _et("i64", np.int64, 64, "I64", is_signed=True),
    _et("i32", np.int32, 32, "I32", is_signed=True),
    _et("i16", np.int16, 16, "I16", is_signed=True),
    _et("i8", np.int8, 8, "I8", is_signed=True),
    _et("i4", ml_dtypes.int4, 4, "I4", is_signed=True),
    _et("u64", np.uint64, 64, "U64"),
    _et("u32", np.uint32, 32, "U32"),
    _et("u16", np.uint16, 16, "U16"),
    _et("u8", np.uint8, 8, "U8"),
    _et("u4", ml_dtypes.uint4, 4, "U4"),
    _et("u1", np.uint8, 1, "BIN"),
    _et("nf4", ml_dtypes.uint4, 4, "NF4"),
    _et("string", np.str_, 0, "STRING"),
)}

# Groups used by type constraints. Order is the table's order, so schemas list types stably.
ALL = tuple(ELEMENT_TYPES)
FLOAT = tuple(n for n, t in ELEMENT_TYPES.items() if t.is_float)
SIGNED_INT = ("i64", "i32", "i16", "i8", "i4")
UNSIGNED_INT = ("u64", "u32", "u16", "u8", "u4", "u1")
INTEGRAL = SIGNED_INT + UNSIGNED_INT
NUMERIC = FLOAT + INTEGRAL
IDX = ("i32", "i64")
# numeric types of at least a byte: what arithmetic kernels (sums, products) accept
NUMERIC_BYTES = FLOAT + ("i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8")

# numpy dtype -> element type; u8/u4 win over the unpacked u1/nf4 spellings that share a dtype.
_BY_DTYPE = {}
for _t in ELEMENT_TYPES.values():
    _BY_DTYPE.setdefault(_t.dtype, _t)


def element_type(x) -> ElementType:
    """The ElementType named by `x`: a name ("f32"), an ElementType, a numpy dtype or an array."""
    if isinstance(x, ElementType):
        return x
    if isinstance(x, str):
        t = ELEMENT_TYPES.get(x)
        if t is None:
            raise OprefError(f"unknown element type {x!r}; expected one of {', '.join(ELEMENT_TYPES)}")
        return t
    dtype = x.dtype if hasattr(x, "dtype") else np.dtype(x)
    if dtype.kind in "UT":          # numpy str_ / StringDType; object arrays are not tensors
        return ELEMENT_TYPES["string"]
    t = _BY_DTYPE.get(dtype)
    if t is None:
        raise OprefError(f"numpy dtype {dtype} has no OpenVINO element type")
    return t


def element_type_of(array) -> str:
    """The element type name of a numpy array (or scalar)."""
    return element_type(np.asarray(array)).name


def accumulator_dtype(dtype) -> np.dtype:
    """The dtype a kernel sums in: f32 for floats narrower than 32 bits (then rounded back, as
    OpenVINO's CPU plugin computes them), the type itself otherwise (integers wrap)."""
    t = element_type(dtype)
    if t.is_float and t.bits < 32:
        return np.dtype(np.float32)
    return t.dtype


def pack(array, et) -> bytes:
    """The bytes OpenVINO stores for `array` as element type `et`: sub-byte types packed (u4/i4/nf4
    two per byte, low nibble first; u1 eight per byte, most significant bit first)."""
    t = element_type(et)
    a = np.ascontiguousarray(np.asarray(array).astype(t.dtype, copy=False)).reshape(-1)
    if t.bits == 4:
        nib = a.view(np.uint8) & 0x0F
        if nib.size % 2:
            nib = np.append(nib, np.uint8(0))
        return (nib[0::2] | (nib[1::2] << 4)).astype(np.uint8).tobytes()
    if t.bits == 1:
        return np.packbits(a.astype(bool)).tobytes()
    if t.name == "string":
        raise OprefError("string tensors have no fixed-size packing")
    return a.tobytes()


def packed_size(et, count: int) -> int:
    """Bytes needed for `count` elements of type `et` (Python ints: never wraps)."""
    bits = element_type(et).bits
    return (count * bits + 7) // 8


def unpack(buffer, et, count: int) -> np.ndarray:
    """Inverse of `pack`: a flat array of `count` elements (no copy for byte-sized types)."""
    t = element_type(et)
    raw = np.frombuffer(buffer, dtype=np.uint8, count=packed_size(t, count))
    if t.bits == 4:
        nib = np.empty(raw.size * 2, dtype=np.uint8)
        nib[0::2], nib[1::2] = raw & 0x0F, raw >> 4
        nib = nib[:count]
        if t.is_signed:
            return (nib.astype(np.int8) - ((nib & 0x8).astype(np.int8) << 1)).astype(t.dtype)
        return nib.astype(t.dtype)
    if t.bits == 1:
        return np.unpackbits(raw)[:count].astype(t.dtype)
    return np.frombuffer(buffer, dtype=t.dtype, count=count)
