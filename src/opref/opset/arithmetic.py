"""Arithmetic ops: unary math and binary elementwise arithmetic (schemas and shape rules).

Elementwise ops are declared in one line each through the families (opref.opset.families); CumSum
and SegmentMax carry their own shape rules. Element types: every numeric type of at least a byte
(OpenVINO also accepts u1/nf4/i4/u4 here, but computing on packed sub-byte values is not defined by
the specs and NumPy cannot hold u1/nf4 apart from u8/u4).
"""
from __future__ import annotations

import operator

from ..shapes import Dimension, PartialShape
from ..types import FLOAT, IDX, NUMERIC_BYTES
from .families import binary, unary
from .helpers import check, ints_of
from .schema import BOOL, STRING, Attr, OpSchema, Port

T = NUMERIC_BYTES
A = "arithmetic"


def _quotient(a, b):
    """An exact quotient of dim lengths (non-negative: floor and truncation agree) by a positive constant."""
    k = b.constant
    return a.floordiv(k) if k is not None and k > 0 else None

# --- binary --------------------------------------------------------------------------------------
ADD_1 = binary("Add", 1, A, T, "a + b (integers wrap)", value_bounds="monotonic", value_expr=operator.add)
SUBTRACT_1 = binary("Subtract", 1, A, T, "a - b (integers wrap)", value_bounds="monotonic",
                    value_expr=operator.sub)
MULTIPLY_1 = binary("Multiply", 1, A, T, "a * b (integers wrap)", value_bounds="monotonic",
                    value_expr=operator.mul)
DIVIDE_1 = binary("Divide", 1, A, T, "a / b; integers: floor division when m_pythondiv, else truncation",
                  attributes=(Attr("m_pythondiv", BOOL, True,
                                   doc="integer types only: true floors the quotient (Python //), "
                                       "false truncates it towards zero (C /)"),),
                  value_bounds="quotient", value_expr=_quotient)
POWER_1 = binary("Power", 1, A, T, "a ** b (integers: repeated multiplication, wrapping)")
MAXIMUM_1 = binary("Maximum", 1, A, T, "max(a, b)", value_bounds="monotonic")
MINIMUM_1 = binary("Minimum", 1, A, T, "min(a, b)", value_bounds="monotonic")
SQUARED_DIFFERENCE_1 = binary("SquaredDifference", 1, A, T, "(a - b) ** 2")
MOD_1 = binary("Mod", 1, A, T, "truncated remainder: the result has the sign of a (C fmod)")
FLOOR_MOD_1 = binary("FloorMod", 1, A, T, "floored remainder: the result has the sign of b (Python %)")

# --- unary ---------------------------------------------------------------------------------------
ABS_1 = unary("Abs", 1, A, T, "|x|")
NEGATIVE_1 = unary("Negative", 1, A, T, "-x (integers wrap)")
SIGN_1 = unary("Sign", 1, A, T, "-1, 0 or 1 by the sign of x (NaN stays NaN)")
# (no value bounds: OpenVINO's bound evaluation stops at Floor, so a Slice start n // 2 reads as unknown)
FLOOR_1 = unary("Floor", 1, A, T, "the largest integer <= x", value_expr=lambda x: x)
CEILING_1 = unary("Ceiling", 1, A, T, "the smallest integer >= x")
ROUND_5 = unary("Round", 5, A, T, "the nearest integer; halves by `mode`",
                attributes=(Attr("mode", STRING, "half_to_even", allowed=("half_to_even", "half_away_from_zero"),
                                 doc="how a tie x.5 rounds: to the even neighbour (the default) or away "
                                     "from zero"),))
SQRT_1 = unary("Sqrt", 1, A, T, "square root (integers: rounded to nearest)")
LOG_1 = unary("Log", 1, A, T, "natural logarithm")
ERF_1 = unary("Erf", 1, A, T, "Gauss error function")
ERF_INV_17 = unary("ErfInv", 17, A, FLOAT, "inverse error function: erf(y) = x; +-inf at +-1, NaN beyond")
TANH_1 = unary("Tanh", 1, A, T, "hyperbolic tangent")
SIN_1 = unary("Sin", 1, A, T, "sine")
COS_1 = unary("Cos", 1, A, T, "cosine")
TAN_1 = unary("Tan", 1, A, T, "tangent")
ASIN_1 = unary("Asin", 1, A, T, "arcsine")
ACOS_1 = unary("Acos", 1, A, T, "arccosine")
ATAN_1 = unary("Atan", 1, A, T, "arctangent")
SINH_1 = unary("Sinh", 1, A, T, "hyperbolic sine")
COSH_1 = unary("Cosh", 1, A, T, "hyperbolic cosine")
ASINH_3 = unary("Asinh", 3, A, T, "inverse hyperbolic sine")
ACOSH_3 = unary("Acosh", 3, A, T, "inverse hyperbolic cosine")
ATANH_3 = unary("Atanh", 3, A, T, "inverse hyperbolic tangent")


# --- CumSum-3 --------------------------------------------------------------------------------------
def cumsum_shape(data, axis=None, *, exclusive, reverse):
    """The output has data's shape (any rank, dynamic dims kept). axis, when given with a static rank,
    must be a scalar; its value is not checked here."""
    op = "CumSum-3"
    if axis is not None and axis.shape.rank_is_static:
        check(len(axis.shape) == 0, op, lambda: f"input 'axis' must be a scalar, got shape {axis.shape}")
    return data.shape


CUMSUM_3 = OpSchema(
    "CumSum", 3, category=A,
    inputs=(Port("data", "T", doc="the values to sum, any rank"),
            Port("axis", "T_AXIS", optional=True, doc="scalar; default 0")),
    outputs=(Port("output", "T", doc="the running sums, same shape as data"),),
    attributes=(Attr("exclusive", BOOL, False, doc="the j-th sum leaves out the j-th element"),
                Attr("reverse", BOOL, False, doc="sum from the end of the axis")),
    type_constraints={"T": T, "T_AXIS": IDX},
    shape=cumsum_shape,
    doc="cumulative sum along `axis` (negative counts from the back)")


# --- SegmentMax-16 ---------------------------------------------------------------------------------
def segment_max_shape(data, segment_ids, num_segments=None, *, fill_mode):
    """The output is data's shape with its first dimension replaced by the segment count: num_segments
    when its value is known, else max(segment_ids) + 1 when those values are known, else dynamic. data
    must not be a scalar; segment_ids must be 1-D, as long as data's first dim, sorted and non-negative
    (values checked when known); num_segments a non-negative scalar. A dynamic-rank data gives a dynamic rank."""
    op = "SegmentMax-16"
    shape, ids_shape = data.shape, segment_ids.shape
    if shape.rank_is_static:
        check(len(shape) > 0, op, "input 'data' cannot be a scalar")
    if ids_shape.rank_is_static:
        check(len(ids_shape) == 1, op, lambda: f"input 'segment_ids' must be 1-D, got shape {ids_shape}")
        if shape.rank_is_static:
            check(shape[0].compatible(ids_shape[0]), op,
                  lambda: f"input 'segment_ids' has {ids_shape[0]} elements, but data's first dimension is {shape[0]}")
    ids = ints_of(segment_ids)
    if ids is not None:
        check(all(a <= b for a, b in zip(ids, ids[1:])), op,
              lambda: f"input 'segment_ids' must be sorted, got {list(ids)}")
        check(all(i >= 0 for i in ids), op, lambda: f"input 'segment_ids' must be non-negative, got {list(ids)}")
    first = Dimension()
    if num_segments is not None:
        if num_segments.shape.rank_is_static:
            check(len(num_segments.shape) == 0, op, lambda: f"input 'num_segments' must be a scalar, got shape "
                                                            f"{num_segments.shape}")
        n = ints_of(num_segments)
        if n is not None:
            check(n[0] >= 0, op, lambda: f"input 'num_segments' must be >= 0, got {n[0]}")
            first = Dimension(n[0], n[0])
        elif ids is not None:
            first = Dimension(max(ids) + 1, max(ids) + 1) if ids else Dimension()
    elif ids is not None and ids:
        first = Dimension(max(ids) + 1, max(ids) + 1)
    if not shape.rank_is_static:
        return PartialShape.dynamic()
    return PartialShape([first, *shape[1:]])


SEGMENT_MAX_16 = OpSchema(
    "SegmentMax", 16, category=A,
    inputs=(Port("data", "T", doc="the rows to reduce, rank >= 1; rows along the first axis"),
            Port("segment_ids", "T_IDX1", const=True,
                 doc="1-D, one segment id per row of data: sorted, non-negative"),
            Port("num_segments", "T_IDX2", optional=True, const=True,
                 doc="scalar count of output segments; default max(segment_ids) + 1")),
    outputs=(Port("output", "T", doc="per segment, the elementwise maximum of its rows (fill_mode where "
                                     "the segment is empty); shape [segments, *data.shape[1:]]"),),
    attributes=(Attr("fill_mode", STRING, allowed=("zero", "lowest"),
                     doc="empty segments: zero, or the lowest value of T (the spec's empty_segment_value; "
                         "OpenVINO's IR writes it as fill_mode, in lower case)"),),
    type_constraints={"T": T, "T_IDX1": IDX, "T_IDX2": IDX},
    shape=segment_max_shape,
    doc="maximum of data's rows grouped by sorted segment_ids; output rows: num_segments or max id + 1")


OPS = (ADD_1, SUBTRACT_1, MULTIPLY_1, DIVIDE_1, POWER_1, MAXIMUM_1, MINIMUM_1, SQUARED_DIFFERENCE_1, MOD_1,
       FLOOR_MOD_1, ABS_1, NEGATIVE_1, SIGN_1, FLOOR_1, CEILING_1, ROUND_5, SQRT_1, LOG_1, ERF_1, ERF_INV_17,
       TANH_1, SIN_1, COS_1, TAN_1, ASIN_1, ACOS_1, ATAN_1, SINH_1, COSH_1, ASINH_3, ACOSH_3, ATANH_3, CUMSUM_3,
       SEGMENT_MAX_16)
