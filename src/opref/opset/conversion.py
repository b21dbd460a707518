"""Type conversion and string ops (schemas and shape rules).

Convert and ConvertLike keep the input's shape and change its element type. Element types: every
type but string; u1 inputs hold 0/1 and convert exactly as u8 does, so they are allowed, while nf4
inputs are not: opref holds nf4 as uint4 codes, indistinguishable from u4 values, so a kernel of
arrays cannot decode them (the NF4 table is `opref.runtime.kernels.conversion.NF4`). An nf4
*destination* is allowed from f32 and f16 inputs (what OpenVINO converts to nf4) (quantised to the nearest NF4 code).
"""
from __future__ import annotations

from ..shapes import TensorInfo
from ..types import ALL
from .helpers import check, fail
from .schema import ELEMENT_TYPE, Attr, OpSchema, Port

# what Convert reads: everything but string and nf4 (see the module doc)
T_IN = tuple(t for t in ALL if t not in ("string", "nf4"))
DESTINATIONS = tuple(t for t in ALL if t != "string")


def _convert_info(op: str, data: TensorInfo, destination_type: str) -> TensorInfo:
    check(destination_type in DESTINATIONS, op, f"destination_type {destination_type} is not supported "
          f"(expected one of {', '.join(DESTINATIONS)})")
    if destination_type == "nf4":
        check(data.element_type in ("f32", "f16"), op, f"destination_type nf4 needs an f32 or f16 input, "
              f"got {data.element_type}")
    return TensorInfo(destination_type, data.shape)


# --- Convert-1 -------------------------------------------------------------------------------------
def convert_shape(data, *, destination_type):
    return _convert_info("Convert-1", data, destination_type)


CONVERT_1 = OpSchema(
    "Convert", 1, category="conversion",
    inputs=(Port("data", "T"),), outputs=(Port("output", "T_OUT"),),
    attributes=(Attr("destination_type", ELEMENT_TYPE, doc="the output element type"),),
    type_constraints={"T": T_IN, "T_OUT": DESTINATIONS},
    shape=convert_shape,
    doc="Elementwise conversion to destination_type: floats to integers truncate towards zero, integers "
        "wrap modulo 2^N, anything to boolean is x != 0, narrower floats round to nearest even.",
)


# --- ConvertLike-1 ---------------------------------------------------------------------------------
def convert_like_shape(data, like):
    if like.element_type not in DESTINATIONS:
        fail("ConvertLike-1", f"input 'like' has element type {like.element_type}, which is not a conversion "
             f"target")
    return _convert_info("ConvertLike-1", data, like.element_type)


CONVERT_LIKE_1 = OpSchema(
    "ConvertLike", 1, category="conversion",
    inputs=(Port("data", "T1"), Port("like", "T2")), outputs=(Port("output", "T2"),),
    type_constraints={"T1": T_IN, "T2": DESTINATIONS},
    shape=convert_like_shape,
    doc="Convert to the element type of the second input (its values are not read).",
)


OPS = (CONVERT_1, CONVERT_LIKE_1)
