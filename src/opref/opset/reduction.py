"""Reduction ops: ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceL1, ReduceL2,
ReduceLogicalAnd, ReduceLogicalOr (schemas and shape rules).

All share one shape rule (OpenVINO's reduce_shape_inference): `axes` is a scalar or 1-D constant of
axes in [-r, r-1] (repeats allowed, each axis reduced once); keep_dims keeps reduced axes as 1 (an empty `axes` reduces each element alone: the identity for
Sum/Mean/Max/Min/Prod, |x| for L1/L2, as OpenVINO computes). With `axes` unknown, keep_dims keeps the rank; otherwise one
known axis (scalar or 1-element axes) removes one dimension, and more leave the rank unknown."""
from __future__ import annotations

from ..shapes import Dimension, PartialShape
from ..types import NUMERIC_BYTES
from .families import with_signature
from .helpers import check, ints_of
from .schema import BOOL, Attr, OpSchema, Port

T_IND = ("i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8")


def normalize_axes(op: str, axes, rank: int) -> list[int]:
    """Axes in [-rank, rank-1] as sorted unique non-negative axes. A scalar (rank 0) takes axis 0 or
    -1, as OpenVINO does, and is reduced over nothing."""
    r = max(rank, 1)
    bad = [a for a in axes if not -r <= a < r]
    check(not bad, op, lambda: f"axes {list(axes)} out of the range [{-r}, {r - 1}] of data of rank {rank}")
    return sorted({a % rank for a in axes}) if rank else []


def _reduce_rule(op: str):
    def rule(data, axes, *, keep_dims):
        """The data's shape without the reduced axes, or with them as 1 when keep_dims. axes must be a scalar
        or 1-D, its values in [-rank, rank-1] (repeats count once; a scalar data takes axis 0 or -1 and stays
        a scalar). With the axes' values unknown: keep_dims keeps the rank with dynamic dimensions, one axis
        (a scalar or 1-element axes) gives rank - 1 dynamic dimensions, anything else dynamic rank."""
        if axes.shape.rank_is_static:
            check(len(axes.shape) <= 1, op, lambda: f"axes must be a scalar or 1-D, got shape {axes.shape}")
        shape = data.shape
        values = ints_of(axes)
        if not shape.rank_is_static:
            return PartialShape.dynamic()
        rank = len(shape)
        if values is None:
            if keep_dims:
                return PartialShape.dynamic(rank)
            one = axes.shape.rank_is_static and (len(axes.shape) == 0 or axes.shape[0] == 1)
            return PartialShape.dynamic(max(rank - 1, 0)) if one else PartialShape.dynamic()
        if rank == 0:                  # a scalar stays a scalar (OpenVINO accepts axis 0 or -1 for it)
            normalize_axes(op, values, 0)
            return PartialShape([])
        reduced = normalize_axes(op, values, rank)
        if keep_dims:
            return PartialShape([Dimension(1, 1) if i in reduced else d for i, d in enumerate(shape)])
        return PartialShape([d for i, d in enumerate(shape) if i not in reduced])
    return with_signature(rule, ["data", "axes"], ["keep_dims"])


def reduction(name: str, version: int, types, doc: str) -> OpSchema:
    """A reduction op: data and a const `axes` input, keep_dims attribute, output of data's type."""
    return OpSchema(
        name, version, category="reduction",
        inputs=(Port("data", "T", doc="the tensor to reduce, of any rank"),
                Port("axes", "T_IND", const=True,
                     doc="scalar or 1-D axes to reduce over; negative counts from the end")),
        outputs=(Port("output", "T", doc="the reduced values; reduced axes removed, or kept as 1 with keep_dims"),),
        attributes=(Attr("keep_dims", BOOL, False, doc="keep each reduced axis as a dimension of 1"),),
        type_constraints={"T": tuple(types), "T_IND": T_IND},
        shape=_reduce_rule(f"{name}-{version}"), doc=doc)


# Sub-byte types are not allowed: sums and products of i4/u4 would be computed as codes.
REDUCE_SUM_1 = reduction("ReduceSum", 1, NUMERIC_BYTES, "sum over axes (integers wrap; f16/bf16/f8 summed in f32)")
REDUCE_MEAN_1 = reduction("ReduceMean", 1, NUMERIC_BYTES,
                          "mean over axes: sum / count (integers: wrapped sum, division truncated toward zero)")
# Over an empty set (the spec: undefined) as ONNX defines it and OpenVINO mostly gives (conformance/departures.py)
REDUCE_MAX_1 = reduction("ReduceMax", 1, NUMERIC_BYTES,
                         "maximum over axes (empty: -inf for floating types, the type's lowest integer)")
REDUCE_MIN_1 = reduction("ReduceMin", 1, NUMERIC_BYTES,
                         "minimum over axes (empty: +inf for floating types, the type's highest integer)")
REDUCE_PROD_1 = reduction("ReduceProd", 1, NUMERIC_BYTES, "product over axes (integers wrap)")
REDUCE_L1_4 = reduction("ReduceL1", 4, NUMERIC_BYTES, "sum of absolute values over axes")
REDUCE_L2_4 = reduction("ReduceL2", 4, NUMERIC_BYTES, "square root of the sum of squares over axes")
REDUCE_LOGICAL_AND_1 = reduction("ReduceLogicalAnd", 1, ("boolean",), "true where all are true (empty: true)")
REDUCE_LOGICAL_OR_1 = reduction("ReduceLogicalOr", 1, ("boolean",), "true where any is true (empty: false)")

OPS = (REDUCE_SUM_1, REDUCE_MEAN_1, REDUCE_MAX_1, REDUCE_MIN_1, REDUCE_PROD_1, REDUCE_L1_4, REDUCE_L2_4,
       REDUCE_LOGICAL_AND_1, REDUCE_LOGICAL_OR_1)
