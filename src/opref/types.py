"""OpenVINO element types and their NumPy / ml_dtypes counterparts.

Sub-byte types (i4, u4, nf4, u1) are held unpacked, one element per byte: i4/u4 as ml_dtypes'
int4/uint4, u1 as uint8 with values 0/1, nf4 as uint4 codes (the 16-entry NF4 table decodes them).
Packing into bytes happens only at the IR .bin boundary.

u1 and nf4 share their NumPy dtype with u8 and u4, so an array of them says its element type
itself: it is a `TypedArray` (see there; `typed` makes one). Every other element type is told by
the dtype alone.
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
# element types that NumPy's dtype cannot tell (u1 is held as uint8, nf4 as uint4)
UNTOLD = tuple(n for n, t in ELEMENT_TYPES.items() if _BY_DTYPE[t.dtype] is not t)


class TypedArray(np.ndarray):
    """A NumPy array that carries its OpenVINO element type, for the types its dtype cannot tell:
    u1 (held as uint8 with values 0/1) and nf4 (held as uint4 codes 0..15, which Convert decodes
    through the 16-entry NF4 table). `opref.typed(values, "nf4")` makes one; `.element_type` names
    the type. A plain uint8 array is u8 and a plain uint4 array u4, always.

    Where opref gives or takes such tensors, they are TypedArrays: u1/nf4 Constants read from IR,
    u1/nf4 outputs of `run_op` and `Model.run`, and `run_op`/`infer_op` inputs (also settable with
    their `element_types=` argument). Views and reshapes (`x.reshape`, `x.T`, slicing) keep the type;
    arithmetic does not (its result is a plain array: NumPy computes on the codes, not on the values).
    """
    element_type: str | None

    def __new__(cls, array, element_type: str):
        obj = np.asarray(array).view(cls)
        obj.element_type = element_type
        return obj

    def __array_finalize__(self, obj):
        et = getattr(obj, "element_type", None)
        # a view as another dtype (codes seen as bytes) no longer holds the type
        self.element_type = et if et is not None and self.dtype == ELEMENT_TYPES[et].dtype else None

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        plain = lambda xs: tuple(x.view(np.ndarray) if isinstance(x, TypedArray) else x for x in xs)  # noqa: E731
        if "out" in kwargs:
            kwargs["out"] = plain(kwargs["out"])
        return getattr(ufunc, method)(*plain(inputs), **kwargs)

    def __reduce__(self):
        fn, args, state = super().__reduce__()
        return fn, args, (state, self.element_type)

    def __setstate__(self, state):
        super().__setstate__(state[0])
        self.element_type = state[1]

    def __repr__(self) -> str:
        body = repr(self.view(np.ndarray))
        return f"{body[:-1]}, element_type={self.element_type!r})" if self.element_type else body


def tagged(array: np.ndarray, et) -> np.ndarray:
    """`array` (already of `et`'s dtype and values) marked as `et` where the dtype cannot tell it,
    else as it is (a TypedArray of another type made plain). No copy, no checks."""
    name = et if isinstance(et, str) else et.name
    if name in UNTOLD:
        return array if getattr(array, "element_type", None) == name else TypedArray(array, name)
    return array.view(np.ndarray) if isinstance(array, TypedArray) else array


def typed(values, element_type: str) -> np.ndarray:
    """`values` as a tensor of OpenVINO element type `element_type`. For u1 (values 0/1, or booleans)
    and nf4 (codes 0..15, indices into the NF4 table, not the NF4 values) a `TypedArray`; for
    every other type a plain array of its dtype (`np.asarray(values, dtype)`)."""
    t = _lookup(element_type)
    a = np.asanyarray(values)
    if t.name not in UNTOLD:
        return np.asarray(a, dtype=t.dtype)
    have = getattr(a, "element_type", None)
    if have is not None:
        if have != t.name:
            raise OprefError(f"the array holds {have}, not {t.name}")
        return a
    if a.dtype.kind not in "biu" and a.dtype not in (t.dtype, np.dtype(ml_dtypes.uint4), np.dtype(ml_dtypes.int4)):
        what = "nf4 holds codes 0..15 (Convert a float tensor to nf4 to quantise it)" if t.name == "nf4" else \
            "u1 holds 0 and 1"
        raise OprefError(f"{t.name} values must be integers (got {a.dtype}); {what}")
    hi = 1 if t.name == "u1" else 15
    wide = a.astype(np.int64)
    if wide.size and (wide.min() < 0 or wide.max() > hi):
        raise OprefError(f"{t.name} values must be in 0..{hi}, got {wide.min()}..{wide.max()}")
    return TypedArray(a.astype(t.dtype), t.name)


def _lookup(name: str) -> ElementType:
    t = ELEMENT_TYPES.get(name)
    if t is None:
        raise OprefError(f"unknown element type {name!r}; expected one of {', '.join(ELEMENT_TYPES)}")
    return t


def element_type(x) -> ElementType:
    """The ElementType named by `x`: a name ("f32"), an ElementType, a numpy dtype or an array
    (a TypedArray says its own type; a plain array's dtype tells it)."""
    if isinstance(x, ElementType):
        return x
    if isinstance(x, str):
        return _lookup(x)
    if isinstance(x, TypedArray) and x.element_type is not None:
        return ELEMENT_TYPES[x.element_type]
    dtype = x.dtype if hasattr(x, "dtype") else np.dtype(x)
    if dtype.kind in "UT":          # numpy str_ / StringDType; object arrays are not tensors
        return ELEMENT_TYPES["string"]
    t = _BY_DTYPE.get(dtype)
    if t is None:
        raise OprefError(f"numpy dtype {dtype} has no OpenVINO element type")
    return t


def element_type_of(array) -> str:
    """The element type name of a numpy array (or scalar)."""
    return element_type(np.asanyarray(array)).name


_ACCUMULATORS: dict = {}        # numpy dtype -> accumulator_dtype, looked up once per dtype


def accumulator_dtype(dtype) -> np.dtype:
    """The dtype a kernel sums in: f32 for floats narrower than 32 bits (then rounded back, as
    OpenVINO's CPU plugin computes them), the type itself otherwise (integers wrap)."""
    known = isinstance(dtype, np.dtype)
    if known:
        acc = _ACCUMULATORS.get(dtype)
        if acc is not None:
            return acc
    t = element_type(dtype)
    acc = np.dtype(np.float32) if t.is_float and t.bits < 32 else t.dtype
    if known:
        _ACCUMULATORS[dtype] = acc
    return acc


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
    """Inverse of `pack`: a flat array of `count` elements (no copy for byte-sized types); u1 and
    nf4 as TypedArrays."""
    t = element_type(et)
    raw = np.frombuffer(buffer, dtype=np.uint8, count=packed_size(t, count))
    if t.bits == 4:
        nib = np.empty(raw.size * 2, dtype=np.uint8)
        nib[0::2], nib[1::2] = raw & 0x0F, raw >> 4
        nib = nib[:count]
        if t.is_signed:
            return (nib.astype(np.int8) - ((nib & 0x8).astype(np.int8) << 1)).astype(t.dtype)
        return tagged(nib.astype(t.dtype), t)
    if t.bits == 1:
        return tagged(np.unpackbits(raw)[:count].astype(t.dtype), t)
    return np.frombuffer(buffer, dtype=t.dtype, count=count)
