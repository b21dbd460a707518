"""Condition and selection ops: Select, Bucketize, NonZero (schemas and shape rules)."""
from __future__ import annotations

import math

from ..shapes import Dimension, PartialShape, TensorInfo
from ..types import ALL, IDX, NUMERIC, NUMERIC_BYTES
from .families import auto_broadcast_attr, broadcast_shapes
from .helpers import check
from .schema import BOOL, ELEMENT_TYPE, Attr, OpSchema, Port


# --- Select-1 -----------------------------------------------------------------------------------------
def select_shape(cond, then, else_, *, auto_broadcast):
    """numpy: cond, then and else broadcast together, as OpenVINO infers it (the spec words cond's
    broadcast as one-way, to the shape of then/else; OpenVINO also lets cond widen the output, and
    opref follows it so that every model OpenVINO accepts loads). pdpd: else, then cond, are
    broadcast one way into then's shape. none: the three shapes must be equal."""
    op = "Select-1"
    if auto_broadcast == "pdpd":
        out = broadcast_shapes(op, then.shape, else_.shape, "pdpd")
        return broadcast_shapes(op, out, cond.shape, "pdpd")
    out = broadcast_shapes(op, else_.shape, then.shape, auto_broadcast)
    return broadcast_shapes(op, out, cond.shape, auto_broadcast)


SELECT_1 = OpSchema(
    "Select", 1, category="condition",
    inputs=(Port("cond", "T_COND", doc="selection mask: true takes `then`, false takes `else`"),
            Port("then", "T", doc="the values taken where cond is true"),
            Port("else_", "T", doc="the values taken where cond is false (the spec's `else`, a Python keyword)")),
    outputs=(Port("output", "T", doc="then or else per element, in the broadcast shape of the three inputs"),),
    attributes=(auto_broadcast_attr(),),
    type_constraints={"T_COND": ("boolean",), "T": ("boolean",) + NUMERIC},
    shape=select_shape,
    doc="Elementwise cond ? then : else, after broadcasting the three inputs by auto_broadcast.",
)

# --- Bucketize-3 ---------------------------------------------------------------------------------------
def bucketize_shape(data, buckets, *, output_type, with_right_bound):
    """The output has data's shape (any rank, dynamic dims kept) and element type output_type. buckets,
    when its rank is static, must be 1-D."""
    op = "Bucketize-3"
    if buckets.shape.rank_is_static:
        check(len(buckets.shape) == 1, op, lambda: f"input 'buckets' must be 1-D, got shape {buckets.shape}")
    return TensorInfo(output_type, data.shape)


BUCKETIZE_3 = OpSchema(
    "Bucketize", 3, category="condition",
    inputs=(Port("data", "T", doc="the values to place into buckets, any shape"),
            Port("buckets", "T_BOUNDARIES", doc="sorted unique boundaries, 1-D")),
    outputs=(Port("output", "T_IND",
                  doc="the bucket index of each element of data, in [0, len(buckets)], same shape"),),
    # i64 is the spec's default and OpenVINO's Python factory's (its IR reader alone insists on the attribute)
    attributes=(Attr("output_type", ELEMENT_TYPE, "i64", allowed=IDX, doc="element type of the bucket indices"),
                Attr("with_right_bound", BOOL, True,
                     doc="true: bucket i holds (b[i-1], b[i]]; false: [b[i-1], b[i])")),
    type_constraints={"T": NUMERIC_BYTES, "T_BOUNDARIES": NUMERIC_BYTES, "T_IND": IDX},
    shape=bucketize_shape,
    doc="The index of the bucket of each element of data among the boundaries (0 below the first).",
)


# --- NonZero-3 -----------------------------------------------------------------------------------------
def non_zero_shape(data, *, output_type):
    """[rank, count] of element type output_type: count lies in [0, number of elements] (unbounded if a
    dimension is). A scalar or a dynamic-rank input gives [?, ?]."""
    shape = data.shape
    if not shape.rank_is_static or len(shape) == 0:     # OpenVINO: [?,?] for a scalar too
        return TensorInfo(output_type, PartialShape.dynamic(2))
    his = [d.hi for d in shape]
    hi = 0 if 0 in his else None if None in his else math.prod(his)
    return TensorInfo(output_type, PartialShape([Dimension(len(shape), len(shape)), Dimension(0, hi)]))


NON_ZERO_3 = OpSchema(
    "NonZero", 3, category="condition",
    inputs=(Port("data", "T", doc="the tensor to search, any rank"),),
    outputs=(Port("output", "T_OUT", doc="[rank, count]: column j holds the coordinates of the j-th non-zero "
                                         "element in row-major order"),),
    attributes=(Attr("output_type", ELEMENT_TYPE, "i64", allowed=IDX, doc="element type of the indices"),),
    # string has no zero in OpenVINO's sense; nf4 codes are not values (code 7 is 0.0)
    type_constraints={"T": tuple(t for t in ALL if t not in ("string", "nf4")), "T_OUT": IDX},
    shape=non_zero_shape,
    doc="The indices of the non-zero elements, [rank, count], in row-major order (NaN is non-zero). A scalar "
        "is taken as a 1-element 1-D tensor ([1, count], as OpenVINO computes; the spec's rank(data) would be 0).",
)

OPS = (SELECT_1, BUCKETIZE_3, NON_ZERO_3)
