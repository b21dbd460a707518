"""Sorting and search ops: TopK-1, TopK-3, TopK-11, SearchSorted-15.

Shape rules follow OpenVINO's (src/core/shape_inference/include/{topk,search_sorted}_shape_inference.hpp)
on partial shapes, plus the spec's range of K: OpenVINO infers a K of 0 or above the axis length
without complaint (and its CPU plugin then refuses the model), the spec allows [1, axis length].
"""
from __future__ import annotations

from ..shapes import Dimension, PartialShape, TensorInfo
from ..types import FLOAT, SIGNED_INT
from .helpers import check, fail, ints_of
from .schema import BOOL, ELEMENT_TYPE, INT, STRING, Attr, OpSchema, Port

# "any numeric type": u1 and nf4 are left out (they share NumPy dtypes with u8 and u4, so a kernel
# could not tell how to order their values); OpenVINO also sorts booleans.
T_TOPK = ("boolean",) + FLOAT + SIGNED_INT + ("u64", "u32", "u16", "u8", "u4")
T_K = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64")
T_K_1 = ("i8", "i32", "i64")     # OpenVINO rejects other K types for TopK-1
T_SEARCH = FLOAT + ("i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8")


# --- TopK-1 / TopK-3 / TopK-11 -------------------------------------------------------------------
def _normalize_axis(op: str, axis: int, rank: int) -> int:
    check(-rank <= axis < rank, op, lambda: f"attribute 'axis' = {axis} is out of range for data of rank {rank} "
                                            f"(expected [{-rank}, {rank - 1}])")
    return axis + rank if axis < 0 else axis


def _topk_shape(op, data, k, axis, index_element_type, sort, stable=False):
    check(index_element_type in ("i32", "i64"), op,
          lambda: f"attribute 'index_element_type' must be i32 or i64, got {index_element_type}")
    check(not stable or sort in ("value", "index"), op,
          lambda: f"attribute 'stable' = true needs sort 'value' or 'index', got sort {sort!r}")
    shape = data.shape
    check(not shape.rank_is_static or len(shape) > 0, op, lambda: f"input 'data' must have rank > 0, got {shape}")
    check(not k.shape.rank_is_static or len(k.shape) == 0, op,
          lambda: f"input 'k' must be a scalar, got shape {k.shape}")
    if shape.rank_is_static:
        dims = list(shape)
        ax = _normalize_axis(op, axis, len(dims))
        kv = ints_of(k)
        if kv is None:              # anything from 0 to the axis length
            dims[ax] = Dimension(0, dims[ax].hi)
        else:
            (kv,) = kv
            check(kv >= 1, op, lambda: f"input 'k' must be >= 1, got {kv}")
            check(dims[ax].hi is None or kv <= dims[ax].hi, op,
                  lambda: f"input 'k' = {kv} is larger than data dimension {ax} ({dims[ax]}) of {shape}")
            dims[ax] = Dimension(kv, kv)
        shape = PartialShape(dims)
    else:
        kv = ints_of(k)
        check(kv is None or kv[0] >= 1, op, lambda: f"input 'k' must be >= 1, got {kv and kv[0]}")
    return TensorInfo(data.element_type, shape), TensorInfo(index_element_type, shape)


def topk_1_shape(data, k, *, axis, mode, sort, index_element_type):
    """values and indices (index_element_type, i32 or i64) both have the data's shape with the axis dimension
    replaced by K; with K unknown it becomes [0, upper bound of the axis]. data has rank > 0, axis lies in
    [-rank, rank-1], k is a scalar >= 1 and at most the axis's upper bound (the spec's range; OpenVINO
    accepts 0 or more)."""
    return _topk_shape("TopK-1", data, k, axis, index_element_type, sort)


def topk_3_shape(data, k, *, axis, mode, sort, index_element_type):
    """values and indices (index_element_type, i32 or i64) both have the data's shape with the axis dimension
    replaced by K; with K unknown it becomes [0, upper bound of the axis]. data has rank > 0, axis lies in
    [-rank, rank-1], k is a scalar >= 1 and at most the axis's upper bound (the spec's range; OpenVINO
    accepts 0 or more)."""
    return _topk_shape("TopK-3", data, k, axis, index_element_type, sort)


def topk_11_shape(data, k, *, axis, mode, sort, stable, index_element_type):
    """values and indices (index_element_type, i32 or i64) both have the data's shape with the axis dimension
    replaced by K; with K unknown it becomes [0, upper bound of the axis]. data has rank > 0, axis lies in
    [-rank, rank-1], k is a scalar >= 1 and at most the axis's upper bound (the spec's range; OpenVINO
    accepts 0 or more). stable = true needs sort 'value' or 'index'."""
    return _topk_shape("TopK-11", data, k, axis, index_element_type, sort, stable)


_TOPK_ATTRS = (
    Attr("axis", INT, doc="the axis along which the top K are selected; negative counts from the back"),
    Attr("mode", STRING, allowed=("max", "min"), doc="select the largest (max) or the smallest (min) values"),
    Attr("sort", STRING, allowed=("value", "index", "none"),
         doc="order of the K outputs: by value (descending for max, ascending for min), by ascending index, "
             "or unspecified (opref, like OpenVINO's CPU plugin, orders by value)"),
)
_INDEX_TYPE = Attr("index_element_type", ELEMENT_TYPE, "i32", allowed=("i32", "i64"),
                   doc="element type of the indices output")
_TOPK_PORTS = dict(inputs=(Port("data", "T", doc="the tensor to select from, of rank >= 1"),
                           Port("k", "T_K", const=True, bounds=False,
                                doc="scalar K, how many values to keep along axis (>= 1)")),
                   outputs=(Port("values", "T", doc="the K selected values of each slice: data's shape with K on axis"),
                            Port("indices", "T_IND", doc="the positions along axis of the selected values")))
_TOPK_DOC = ("The K largest (mode max) or smallest (mode min) values of each slice along `axis`, and their "
             "indices. Equal values keep their input order; NaN counts as smaller than every number.")

TOPK_1 = OpSchema(
    "TopK", 1, category="sort", **_TOPK_PORTS, attributes=_TOPK_ATTRS + (_INDEX_TYPE,),
    type_constraints={"T": T_TOPK, "T_K": T_K_1, "T_IND": ("i32", "i64")}, shape=topk_1_shape, doc=_TOPK_DOC)

# v3: same computation; K may be of any integer type (v1's spec said only "scalar").
TOPK_3 = OpSchema(
    "TopK", 3, category="sort", **_TOPK_PORTS, attributes=_TOPK_ATTRS + (_INDEX_TYPE,),
    type_constraints={"T": T_TOPK, "T_K": T_K, "T_IND": ("i32", "i64")}, shape=topk_3_shape, doc=_TOPK_DOC)

# v11: adds `stable` (equal values keep their input order: what opref always does).
TOPK_11 = OpSchema(
    "TopK", 11, category="sort", **_TOPK_PORTS,
    attributes=_TOPK_ATTRS + (Attr("stable", BOOL, False, doc="equal values keep their input order"), _INDEX_TYPE),
    type_constraints={"T": T_TOPK, "T_K": T_K, "T_IND": ("i32", "i64")}, shape=topk_11_shape, doc=_TOPK_DOC)


# --- SearchSorted-15 --------------------------------------------------------------------------------
def search_sorted_shape(sorted_sequence, values, *, right_mode, output_type):
    """The output (of output_type, i32 or i64) has the values' shape. A 1-D (or unknown-rank) sorted_sequence
    takes values of any shape; a higher-rank one needs values of its rank, equal on every axis but the last,
    where the two are merged (with values of unknown rank: its leading dimensions and a dynamic last one).
    sorted_sequence may not be a scalar."""
    op = "SearchSorted-15"
    check(output_type in ("i32", "i64"), op, lambda: f"attribute 'output_type' must be i32 or i64, got {output_type}")
    s, v = sorted_sequence.shape, values.shape
    if not s.rank_is_static or len(s) == 1:      # a 1-D sequence serves values of any shape
        return TensorInfo(output_type, v)
    check(len(s) > 0, op, "input 'sorted_sequence' cannot be a scalar")
    if not v.rank_is_static:
        return TensorInfo(output_type, PartialShape(list(s)[:-1] + [Dimension()]))
    check(len(v) == len(s), op, lambda: f"a sorted_sequence of rank > 1 needs values of the same rank, got "
                                        f"sorted_sequence {s} and values {v}")
    out = []
    for i, (a, b) in enumerate(zip(list(v)[:-1], list(s)[:-1])):
        m = a.merge(b)
        check(m is not None, op, lambda: f"dimension {i} of values {v} and sorted_sequence {s} must be equal "
                                         f"(all but the last)")
        out.append(m)
    return TensorInfo(output_type, PartialShape(out + [v[-1]]))


SEARCH_SORTED_15 = OpSchema(
    "SearchSorted", 15, category="sort",
    inputs=(Port("sorted_sequence", "T",
                 doc="ascending along its innermost axis; 1-D, or [..., N] matching values on the leading axes"),
            Port("values", "T", doc="the values to place; any shape for a 1-D sequence, else [..., M]")),
    outputs=(Port("output", "T_IND", doc="the insertion index of each value, of the values' shape"),),
    attributes=(Attr("right_mode", BOOL, False, doc="false: the first index where the value fits (left); "
                     "true: the last (right)"),
                Attr("output_type", ELEMENT_TYPE, "i64", allowed=("i32", "i64"), doc="element type of the indices")),
    type_constraints={"T": T_SEARCH, "T_IND": ("i32", "i64")},
    shape=search_sorted_shape,
    doc="For each value, the insertion index into the innermost axis of sorted_sequence that keeps it "
        "sorted (1-D sequences serve values of any shape, others row by row).",
)

OPS = (TOPK_1, TOPK_3, TOPK_11, SEARCH_SORTED_15)
