"""Type conversion and string ops (schemas and shape rules).

Convert and ConvertLike keep the input's shape and change its element type. Element types: every
type but string. u1 inputs hold 0/1 and convert as u8 does. nf4 inputs are codes (opref holds them
as an `opref.typed` array, since NumPy's uint4 cannot tell them from u4) that decode to the 16 NF4
values; they convert to the float types OpenVINO decompresses weights to (f64, f32, f16, bf16) and
to nf4 itself, and nothing else (OpenVINO's reference has no nf4 -> integer/boolean/f8 conversion,
and what its CPU plugin computes there is no value of the NF4 table). An nf4 *destination* is
allowed from f32 and f16 inputs (what OpenVINO converts to nf4; quantised to the nearest NF4 code).
"""
from __future__ import annotations

import numpy as np

from ..shapes import Dimension, PartialShape, TensorInfo
from ..types import ALL, IDX, element_type
from .helpers import check, fail, ints_of
from .schema import BOOL, ELEMENT_TYPE, Attr, OpSchema, Port

# what Convert reads: everything but string (see the module doc)
T_IN = tuple(t for t in ALL if t != "string")
DESTINATIONS = tuple(t for t in ALL if t != "string")
NF4_DESTINATIONS = ("f64", "f32", "f16", "bf16", "nf4")     # what an nf4 input converts to


def _convert_info(op: str, data: TensorInfo, destination_type: str) -> TensorInfo:
    check(destination_type in DESTINATIONS, op, lambda: f"destination_type {destination_type} is not supported "
                                                        f"(expected one of {', '.join(DESTINATIONS)})")
    if data.element_type == "nf4":
        check(destination_type in NF4_DESTINATIONS, op,
              lambda: f"an nf4 input converts only to "
                      f"{', '.join(NF4_DESTINATIONS)}, not to {destination_type}")
    elif destination_type == "nf4":
        check(data.element_type in ("f32", "f16"), op, lambda: f"destination_type nf4 needs an f32 or f16 input, "
                                                               f"got {data.element_type}")
    return TensorInfo(destination_type, data.shape)


# --- Convert-1 -------------------------------------------------------------------------------------
def convert_shape(data, *, destination_type):
    """The output has data's shape with element type destination_type. Rejects a string destination,
    an nf4 input converted to anything but f64/f32/f16/bf16/nf4, and an nf4 destination from anything
    but f32/f16."""
    return _convert_info("Convert-1", data, destination_type)


CONVERT_1 = OpSchema(
    "Convert", 1, category="conversion", value_bounds="moves",
    inputs=(Port("data", "T", doc="the values to convert, any shape"),),
    outputs=(Port("output", "T_OUT", doc="data's values in destination_type, same shape"),),
    attributes=(Attr("destination_type", ELEMENT_TYPE, doc="the output element type"),),
    type_constraints={"T": T_IN, "T_OUT": DESTINATIONS},
    shape=convert_shape,
    doc="Elementwise conversion to destination_type: floats to integers truncate towards zero, integers "
        "wrap modulo 2^N, anything to boolean is x != 0, narrower floats round to nearest even.",
)


# --- ConvertLike-1 ---------------------------------------------------------------------------------
def convert_like_shape(data, like):
    """The output has data's shape with the element type of like (whose shape is ignored); the same
    type pairs as Convert-1 are rejected."""
    if like.element_type not in DESTINATIONS:
        fail("ConvertLike-1", f"input 'like' has element type {like.element_type}, which is not a conversion "
             f"target")
    return _convert_info("ConvertLike-1", data, like.element_type)


CONVERT_LIKE_1 = OpSchema(
    "ConvertLike", 1, category="conversion",
    inputs=(Port("data", "T1", doc="the values to convert, any shape"),
            Port("like", "T2", doc="any tensor: only its element type is used")),
    outputs=(Port("output", "T2", doc="data's values in like's element type, data's shape"),),
    type_constraints={"T1": T_IN, "T2": DESTINATIONS},
    shape=convert_like_shape,
    doc="Convert to the element type of the second input (its values are not read).",
)


# --- ConvertPromoteTypes-14 --------------------------------------------------------------------------
# Priority boolean < integers < floats; within floats the narrowest format holding both exponents and
# both mantissas (f8e4m3 with f8e5m2 needs e5m3: f16, as the spec names it).
_FLOAT_FORMAT = {"f8e4m3": (4, 3), "f8e5m2": (5, 2), "f16": (5, 10), "bf16": (8, 7), "f32": (8, 23), "f64": (11, 52)}
_SIGNED_BY_BITS = ("i4", "i8", "i16", "i32", "i64")
PROMOTABLE = tuple(t for t in ALL if t not in ("string", "nf4"))   # nf4 and string have no promotion


def _rank(t) -> int:
    return 0 if t.name == "boolean" else 2 if t.is_float else 1


def _pytorch_scalar(op, scalar, tensor, promote_unsafe):
    """A scalar promoted to the type of a dimensioned tensor of the same kind (PyTorch's rule)."""
    narrowing = scalar.bits > tensor.bits or (scalar.is_integral and scalar.is_signed and not tensor.is_signed)
    check(promote_unsafe or not narrowing, op,
          lambda: f"a scalar {scalar.name} cannot be promoted to the tensor's "
                  f"{tensor.name} with promote_unsafe=false (its values may not fit)")
    return tensor.name


def promote_types(a: str, b: str, *, promote_unsafe=False, u64_integer_promotion_target="f32",
                  op="ConvertPromoteTypes-14") -> str:
    """The common element type of a and b by ConvertPromoteTypes' rules (PyTorch/TensorFlow-like)."""
    ta, tb = element_type(a), element_type(b)
    for t, port in ((ta, "input_0"), (tb, "input_1")):
        check(t.name in PROMOTABLE, op, lambda: f"input {port!r} has element type {t.name}, which has no promotion")
    if ta.name == tb.name:
        return ta.name
    if _rank(ta) != _rank(tb):
        low, high = sorted((ta, tb), key=_rank)
        if high.is_float and low.is_integral:
            check(promote_unsafe or high.bits >= 2 * low.bits, op,
                  lambda: f"{low.name} cannot be safely promoted to {high.name} (a float needs twice the integer's "
                          f"bits; set promote_unsafe)")
        return high.name
    if ta.is_float:
        e, m = max(_FLOAT_FORMAT[ta.name][0], _FLOAT_FORMAT[tb.name][0]), \
            max(_FLOAT_FORMAT[ta.name][1], _FLOAT_FORMAT[tb.name][1])
        result = next(t for t, (te, tm) in _FLOAT_FORMAT.items() if te >= e and tm >= m)
    elif ta.is_signed == tb.is_signed:
        result = max(ta, tb, key=lambda t: t.bits).name
    else:
        signed, unsigned = (ta, tb) if ta.is_signed else (tb, ta)
        if unsigned.name == "u64":
            check(promote_unsafe, op, lambda: f"u64 and {signed.name} have no common integer type (it would be i128); "
                                              f"set promote_unsafe to use u64_integer_promotion_target")
            return u64_integer_promotion_target
        bits = max(signed.bits, 2 * unsigned.bits)
        result = next(t for t in _SIGNED_BY_BITS if element_type(t).bits >= bits)
    check(promote_unsafe or element_type(result).bits <= max(ta.bits, tb.bits), op,
          lambda: f"promoting {ta.name} and {tb.name} widens to {result} (set promote_unsafe)")
    return result


def convert_promote_types_shape(input_0, input_1, *, promote_unsafe, pytorch_scalar_promotion,
                                u64_integer_promotion_target):
    """Each output keeps its input's shape; both take the common element type (see promote_types).
    With pytorch_scalar_promotion, two different types of one kind (both integer or both float) need
    static ranks, and a scalar beside a non-scalar takes the non-scalar's type. Rejected unless
    promote_unsafe: an integer going to a float of fewer than twice its bits, a common type wider than
    both inputs, u64 with a signed integer (else u64_integer_promotion_target), a scalar narrowed into
    the tensor's type. Always rejected: string/nf4 inputs, a string/nf4 u64_integer_promotion_target."""
    op = "ConvertPromoteTypes-14"
    check(u64_integer_promotion_target in DESTINATIONS and u64_integer_promotion_target != "nf4", op,
          lambda: f"u64_integer_promotion_target {u64_integer_promotion_target} is not a Convert destination type")
    a, b = input_0.element_type, input_1.element_type
    same_kind = a != b and _rank(element_type(a)) == _rank(element_type(b))
    if pytorch_scalar_promotion and same_kind:
        ranks = [len(i.shape) if i.shape.rank_is_static else None for i in (input_0, input_1)]
        check(None not in ranks, op,
              lambda: "with pytorch_scalar_promotion the common type of two "
                      f"{'float' if element_type(a).is_float else 'integer'} inputs depends on their ranks, and a rank "
                      "is not known")
        if (ranks[0] == 0) != (ranks[1] == 0):
            scalar, tensor = (a, b) if ranks[0] == 0 else (b, a)
            result = _pytorch_scalar(op, element_type(scalar), element_type(tensor), promote_unsafe)
            return TensorInfo(result, input_0.shape), TensorInfo(result, input_1.shape)
    result = promote_types(a, b, promote_unsafe=promote_unsafe,
                           u64_integer_promotion_target=u64_integer_promotion_target, op=op)
    return TensorInfo(result, input_0.shape), TensorInfo(result, input_1.shape)


CONVERT_PROMOTE_TYPES_14 = OpSchema(
    "ConvertPromoteTypes", 14, category="conversion",
    inputs=(Port("input_0", "T1", doc="the first tensor, any shape"),
            Port("input_1", "T2", doc="the second tensor, any shape (shapes are not broadcast)")),
    outputs=(Port("output_0", "T_OUT", doc="input_0 converted to the common type"),
             Port("output_1", "T_OUT", doc="input_1 converted to the common type")),
    attributes=(
        Attr("promote_unsafe", BOOL, False, doc="allow promotions that widen, lose precision or use "
             "u64_integer_promotion_target; when false they are errors"),
        Attr("pytorch_scalar_promotion", BOOL, False, doc="a scalar of the same kind as a dimensioned tensor "
             "takes the tensor's type"),
        Attr("u64_integer_promotion_target", ELEMENT_TYPE, "f32", doc="the common type of u64 and a signed "
             "integer (no integer type holds both)"),
    ),
    type_constraints={"T1": PROMOTABLE, "T2": PROMOTABLE, "T_OUT": DESTINATIONS},
    shape=convert_promote_types_shape,
    doc="Both inputs converted to their common type: floats over integers over boolean; two floats to the "
        "narrowest format holding both; two integers to the narrowest integer holding both ranges.",
)


# --- StringTensorUnpack-15 / StringTensorPack-15 -------------------------------------------------------
def string_tensor_unpack_shape(data):
    """begins and ends (i32) have data's shape; symbols (u8) is 1-D, as long as the UTF-8 bytes of all
    strings when data's value is known, 0 when data has no elements, else dynamic."""
    symbols = Dimension()
    if data.value is not None:
        symbols = Dimension.of(len("".join(np.asarray(data.value).reshape(-1).tolist()).encode("utf-8", "surrogateescape")))
    elif data.shape.rank_is_static and any(d.hi == 0 for d in data.shape):
        symbols = Dimension.of(0)
    return TensorInfo("i32", data.shape), TensorInfo("i32", data.shape), TensorInfo("u8", PartialShape([symbols]))


STRING_TENSOR_UNPACK_15 = OpSchema(
    "StringTensorUnpack", 15, category="conversion",
    inputs=(Port("data", "T_STR", doc="the strings, any shape"),),
    outputs=(Port("begins", "T_IDX", doc="per string, the offset of its first byte in symbols; data's shape"),
             Port("ends", "T_IDX", doc="per string, the offset one past its last byte in symbols; data's shape"),
             Port("symbols", "T_U8", doc="1-D, the UTF-8 bytes of all strings in row-major order")),
    type_constraints={"T_STR": ("string",), "T_IDX": ("i32",), "T_U8": ("u8",)},
    shape=string_tensor_unpack_shape,
    doc="A string tensor as UTF-8 bytes: symbols concatenates every string in row-major order; begins and "
        "ends (of data's shape) are each string's byte range [begin, end) in symbols.",
)


def string_tensor_pack_shape(begins, ends, symbols):
    """The output (string) has the merged shape of begins and ends, which must be compatible; symbols
    must be 1-D. When both index values are known, begins must be >= 0, ends >= begins, and ends must
    not pass symbols' (upper bound of) length."""
    op = "StringTensorPack-15"
    check(not symbols.shape.rank_is_static or len(symbols.shape) == 1, op,
          lambda: f"input 'symbols' must be 1-D, got shape {symbols.shape}")
    shape = begins.shape.merge(ends.shape)
    check(shape is not None, op,
          lambda: f"inputs 'begins' {begins.shape} and 'ends' {ends.shape} must have the same shape")
    b, e = ints_of(begins), ints_of(ends)
    if b is not None and e is not None:
        b, e = np.array(b, np.int64), np.array(e, np.int64)
        check(bool((b >= 0).all()), op, "input 'begins' has a negative index")
        check(bool((b <= e).all()), op, "a string ends before it begins (ends < begins)")
        n = symbols.shape[0] if symbols.shape.rank_is_static else Dimension()
        if e.size and n.hi is not None:
            check(int(e.max()) <= n.hi, op,
                  lambda: f"input 'ends' reaches {int(e.max())}, past the {n} bytes of 'symbols'")
    return TensorInfo("string", shape)


STRING_TENSOR_PACK_15 = OpSchema(
    "StringTensorPack", 15, category="conversion",
    inputs=(Port("begins", "T_IDX", const=True, doc="per output string, the offset of its first byte in symbols"),
            Port("ends", "T_IDX", const=True,
                 doc="per output string, the offset one past its last byte; begins' shape"),
            Port("symbols", "T_U8", doc="1-D UTF-8 bytes")),
    outputs=(Port("output", "T_STR", doc="the decoded strings, of begins' shape"),),
    type_constraints={"T_IDX": IDX, "T_U8": ("u8",), "T_STR": ("string",)},
    shape=string_tensor_pack_shape,
    doc="Strings from UTF-8 bytes: output[i] is symbols[begins[i]:ends[i]] decoded; ranges may skip bytes, "
        "overlap and come in any order (the spec asks only 0 <= begin <= end <= len(symbols)).",
)


OPS = (CONVERT_1, CONVERT_LIKE_1, CONVERT_PROMOTE_TYPES_14, STRING_TENSOR_UNPACK_15, STRING_TENSOR_PACK_15)
