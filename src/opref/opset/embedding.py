"""Schemas and shape rules: the embedding ops (EmbeddingBagOffsetsSum-3, EmbeddingBagPackedSum-3,
EmbeddingSegmentsSum-3, EmbeddingBagOffsets-15, EmbeddingBagPacked-15) and SparseFillEmptyRows-16.

Shape rules follow OpenVINO's (embeddingbag_{offsets,packed}_shape_inference.hpp,
embedding_segments_sum_shape_inference.hpp): the output is [bags] + emb_table.shape[1:], where the
number of bags comes from offsets (offsets ops), from indices and per_sample_weights merged (packed
ops) or from the value of num_segments. SparseFillEmptyRows knows its output length only from the
values of indices and dense_shape (as OpenVINO's shape inference does).
"""
from __future__ import annotations

import numpy as np

from ..shapes import Dimension, PartialShape, TensorInfo
from ..types import NUMERIC, NUMERIC_BYTES
from .helpers import check, ints_of
from .schema import STRING, Attr, OpSchema, Port

# "any numeric type" of at least a byte (sub-byte sums have no element type to live in) that OpenVINO
# computes: its CPU plugin has no f8 embedding ops, and there is no reference `evaluate` for them
T_EMB = tuple(t for t in NUMERIC_BYTES if not t.startswith("f8"))
T_IND = ("i32", "i64")
REDUCTIONS = ("sum", "mean")


def _rank(op, name, info, rank):
    s = info.shape
    check(not s.rank_is_static or len(s) == rank, op, lambda: f"input {name!r} must be {rank}-D, got shape {s}")


def _table(op, emb_table) -> list | None:
    """emb_table's dims after the first (None: its rank is unknown)."""
    s = emb_table.shape
    if not s.rank_is_static:
        return None
    check(len(s) >= 1, op, lambda: f"input 'emb_table' must have at least 1 dimension, got shape {s}")
    return list(s)[1:]


def _output(emb_table, bags: Dimension) -> TensorInfo:
    rest = _table("", emb_table)
    shape = PartialShape.dynamic() if rest is None else PartialShape([bags] + rest)
    return TensorInfo(emb_table.element_type, shape)


def _weights(op, indices, per_sample_weights, reduction):
    """per_sample_weights: the shape of indices, and only with reduction sum."""
    if per_sample_weights is None:
        return indices.shape
    check(reduction == "sum", op, lambda: f"input 'per_sample_weights' is only supported with reduction 'sum', got "
                                          f"reduction {reduction!r}")
    merged = indices.shape.merge(per_sample_weights.shape)
    check(merged is not None, op,
          lambda: f"input 'per_sample_weights' {per_sample_weights.shape} must have the shape of "
                  f"'indices' {indices.shape}")
    return merged


def _scalar(op, name, info):
    s = info.shape
    check(not s.rank_is_static or len(s) == 0, op, lambda: f"input {name!r} must be a scalar, got shape {s}")


# --- EmbeddingBagOffsets(Sum) ---------------------------------------------------------------------------
def _offsets(op, emb_table, indices, offsets, default_index, per_sample_weights, reduction="sum"):
    _table(op, emb_table)
    _rank(op, "indices", indices, 1)
    _rank(op, "offsets", offsets, 1)
    if default_index is not None:
        _scalar(op, "default_index", default_index)
    if per_sample_weights is not None:
        _rank(op, "per_sample_weights", per_sample_weights, 1)
    _weights(op, indices, per_sample_weights, reduction)
    bags = offsets.shape[0] if offsets.shape.rank_is_static else Dimension()
    return _output(emb_table, bags)


def embedding_bag_offsets_sum_3_shape(emb_table, indices, offsets, default_index=None, per_sample_weights=None):
    """[num_bags, *emb_table.shape[1:]], num_bags = offsets' length (dynamic when offsets' rank is); a
    dynamic-rank emb_table gives a dynamic rank. emb_table needs rank >= 1, indices and offsets 1-D,
    default_index a scalar, per_sample_weights 1-D of indices' shape."""
    return _offsets("EmbeddingBagOffsetsSum-3", emb_table, indices, offsets, default_index, per_sample_weights)


def embedding_bag_offsets_15_shape(emb_table, indices, offsets, default_index=None, per_sample_weights=None, *,
                                   reduction):
    """EmbeddingBagOffsetsSum-3's rule ([num_bags, *emb_table.shape[1:]], num_bags = offsets' length);
    per_sample_weights is also rejected unless reduction is sum."""
    return _offsets("EmbeddingBagOffsets-15", emb_table, indices, offsets, default_index, per_sample_weights,
                    reduction)


# --- EmbeddingBagPacked(Sum) ----------------------------------------------------------------------------
def _packed(op, emb_table, indices, per_sample_weights, reduction="sum"):
    _table(op, emb_table)
    _rank(op, "indices", indices, 2)
    if per_sample_weights is not None:
        _rank(op, "per_sample_weights", per_sample_weights, 2)
    shape = _weights(op, indices, per_sample_weights, reduction)
    return _output(emb_table, shape[0] if shape.rank_is_static else Dimension())


def embedding_bag_packed_sum_3_shape(emb_table, indices, per_sample_weights=None):
    """[num_bags, *emb_table.shape[1:]], num_bags = indices' dim 0 merged with per_sample_weights' (which
    must have indices' shape); a dynamic-rank emb_table gives a dynamic rank. emb_table needs rank >= 1,
    indices and per_sample_weights must be 2-D."""
    return _packed("EmbeddingBagPackedSum-3", emb_table, indices, per_sample_weights)


def embedding_bag_packed_15_shape(emb_table, indices, per_sample_weights=None, *, reduction):
    """EmbeddingBagPackedSum-3's rule ([num_bags, *emb_table.shape[1:]], num_bags = indices' dim 0);
    per_sample_weights is also rejected unless reduction is sum."""
    return _packed("EmbeddingBagPacked-15", emb_table, indices, per_sample_weights, reduction)


# --- EmbeddingSegmentsSum-3 -----------------------------------------------------------------------------
def embedding_segments_sum_3_shape(emb_table, indices, segment_ids, num_segments, default_index=None,
                                   per_sample_weights=None):
    """[num_segments, *emb_table.shape[1:]] when num_segments' value is known (it must be >= 0), else a
    dynamic first dim; a dynamic-rank emb_table gives a dynamic rank. emb_table needs rank >= 1; indices,
    segment_ids and per_sample_weights must be 1-D of one shape; num_segments and default_index scalars."""
    op = "EmbeddingSegmentsSum-3"
    _table(op, emb_table)
    _rank(op, "indices", indices, 1)
    _rank(op, "segment_ids", segment_ids, 1)
    check(indices.shape.compatible(segment_ids.shape), op,
          lambda: f"input 'segment_ids' {segment_ids.shape} must have the shape of 'indices' {indices.shape}")
    _scalar(op, "num_segments", num_segments)
    if default_index is not None:
        _scalar(op, "default_index", default_index)
    if per_sample_weights is not None:
        _rank(op, "per_sample_weights", per_sample_weights, 1)
    _weights(op, indices, per_sample_weights, "sum")
    n = ints_of(num_segments)
    if n is None:
        return _output(emb_table, Dimension())
    # OpenVINO clamps a negative count to 0; the spec's count of segments cannot be negative
    check(n[0] >= 0, op, lambda: f"input 'num_segments' must be non-negative, got {n[0]}")
    return _output(emb_table, Dimension(n[0], n[0]))


_REDUCTION = Attr("reduction", STRING, "sum", allowed=REDUCTIONS,
                  doc="sum: weighted sum of the bag (per_sample_weights); mean: average of the bag")
_EMB_TABLE = Port("emb_table", "T", doc="[num_emb, emb_dim1, ...] the embedding rows, rank >= 1")
_DEFAULT_INDEX = Port("default_index", "T_IND", optional=True,
                      doc="scalar: the row that fills an empty bag (absent: zeros)")
_OFFSETS_PORTS = (_EMB_TABLE, Port("indices", "T_IND", doc="1-D: the rows of all bags, bag after bag"),
                  Port("offsets", "T_IND", doc="1-D [num_bags]: where each bag starts in indices"),
                  _DEFAULT_INDEX,
                  Port("per_sample_weights", "T", optional=True,
                       doc="1-D, indices' shape: a weight per index (sum only; absent: 1)"))
_PACKED_PORTS = (_EMB_TABLE, Port("indices", "T_IND", doc="2-D [num_bags, bag_size]: the rows of each bag"),
                 Port("per_sample_weights", "T", optional=True,
                      doc="2-D, indices' shape: a weight per index (sum only; absent: 1)"))
_TYPES = {"T": T_EMB, "T_IND": T_IND}
_OUT = (Port("output", "T", doc="[num_bags, emb_dim1, ...]: one reduced embedding per bag"),)

EMBEDDING_BAG_OFFSETS_SUM_3 = OpSchema(
    "EmbeddingBagOffsetsSum", 3, category="embedding", inputs=_OFFSETS_PORTS, outputs=_OUT, type_constraints=_TYPES,
    shape=embedding_bag_offsets_sum_3_shape,
    doc="Weighted sums of bags of emb_table rows; bag b holds indices[offsets[b]:offsets[b+1]]; empty bags "
        "take row default_index (or zeros).")
# v15: a `reduction` attribute (sum or mean)
EMBEDDING_BAG_OFFSETS_15 = OpSchema(
    "EmbeddingBagOffsets", 15, category="embedding", inputs=_OFFSETS_PORTS, outputs=_OUT, attributes=(_REDUCTION,),
    type_constraints=_TYPES, shape=embedding_bag_offsets_15_shape,
    doc="Sums (weighted) or means of bags of emb_table rows; bag b holds indices[offsets[b]:offsets[b+1]]; "
        "empty bags take row default_index (or zeros).")
EMBEDDING_BAG_PACKED_SUM_3 = OpSchema(
    "EmbeddingBagPackedSum", 3, category="embedding", inputs=_PACKED_PORTS, outputs=_OUT, type_constraints=_TYPES,
    shape=embedding_bag_packed_sum_3_shape,
    doc="Weighted sums of bags of emb_table rows, one bag per row of the 2-D indices.")
EMBEDDING_BAG_PACKED_15 = OpSchema(
    "EmbeddingBagPacked", 15, category="embedding", inputs=_PACKED_PORTS, outputs=_OUT, attributes=(_REDUCTION,),
    type_constraints=_TYPES, shape=embedding_bag_packed_15_shape,
    doc="Sums (weighted) or means of bags of emb_table rows, one bag per row of the 2-D indices.")
EMBEDDING_SEGMENTS_SUM_3 = OpSchema(
    "EmbeddingSegmentsSum", 3, category="embedding",
    inputs=(_EMB_TABLE, Port("indices", "T_IND", doc="1-D: the rows to sum"),
            Port("segment_ids", "T_IND", doc="1-D, indices' shape: the output segment of each index"),
            Port("num_segments", "T_IND", const=True, doc="scalar: the number of output segments"),
            Port("default_index", "T_IND", optional=True, doc="scalar: the row that fills an empty segment "
                                                               "(absent: zeros)"),
            Port("per_sample_weights", "T", optional=True, doc="1-D, indices' shape: a weight per index (absent: 1)")),
    outputs=(Port("output", "T", doc="[num_segments, emb_dim1, ...]: one summed embedding per segment"),),
    type_constraints=_TYPES, shape=embedding_segments_sum_3_shape,
    doc="Weighted sums of emb_table rows per segment (segment_ids[i] is the segment of indices[i]); empty "
        "segments take row default_index (or zeros).")

# --- SparseFillEmptyRows-16 -----------------------------------------------------------------------------
def sparse_rows(op: str, indices: np.ndarray, rows: int) -> np.ndarray:
    """The row of each sparse entry, checked against the dense shape's row count."""
    r = np.asarray(indices).reshape(-1, 2)[:, 0].astype(np.int64)
    bad = (r < 0) | (r >= rows)
    check(not bad.any(), op, lambda: f"input 'indices' has row {r[bad][0] if bad.any() else 0} outside [0, {rows}) "
                                     f"(the rows of dense_shape)")
    return r


def sparse_fill_empty_rows_16_shape(values, dense_shape, indices, default_value):
    """output_indices [M', 2], output_values [V'] and empty_row_indicator [rows] (boolean). rows is
    dense_shape[0] when dense_shape's value is known; M' (entries + empty rows) and V' (values' length +
    empty rows) only when dense_shape's and indices' values are both known, else dynamic. Checked:
    values 1-D, indices [M, 2] with a row per value and rows within dense_shape, dense_shape 1-D of 2
    non-negative values, default_value a scalar."""
    op = "SparseFillEmptyRows-16"
    _rank(op, "values", values, 1)
    _rank(op, "indices", indices, 2)
    _rank(op, "dense_shape", dense_shape, 1)
    ds = dense_shape.shape
    check(not ds.rank_is_static or ds[0].compatible(2), op,
          lambda: f"input 'dense_shape' must have 2 elements, got shape {ds}")
    ix = indices.shape
    if ix.rank_is_static:
        check(ix[1].compatible(2), op, lambda: f"input 'indices' must have shape [M, 2], got {ix}")
        if values.shape.rank_is_static:
            check(ix[0].compatible(values.shape[0]), op, lambda: f"input 'indices' {ix} must have a row per value, "
                                                                 f"values have shape {values.shape}")
    _scalar(op, "default_value", default_value)
    dense, rows = ints_of(dense_shape), Dimension()
    if dense is not None:
        check(min(dense) >= 0, op, lambda: f"input 'dense_shape' must be non-negative, got {list(dense)}")
        rows = Dimension(dense[0], dense[0])
    count = filled = Dimension()
    if dense is not None and indices.value is not None:
        r = sparse_rows(op, indices.value, dense[0])
        empty = dense[0] - np.unique(r).size       # (rows are in range: no count array of every row)
        count = Dimension.of(r.size + empty)
        # (OpenVINO adds the empty rows to the values' length, not to the known number of entries)
        filled = (values.shape[0] if values.shape.rank_is_static else Dimension()) + Dimension.of(empty)
    it = indices.element_type
    return (TensorInfo(it, PartialShape([count, 2])), TensorInfo(values.element_type, PartialShape([filled])),
            TensorInfo("boolean", PartialShape([rows])))


SPARSE_FILL_EMPTY_ROWS_16 = OpSchema(
    "SparseFillEmptyRows", 16, category="embedding",
    inputs=(Port("values", "T", doc="1-D [M]: the values of the sparse entries"),
            Port("dense_shape", "T_IDX", const=True, doc="[2]: rows and columns of the dense tensor"),
            Port("indices", "T_IDX", const=True, doc="[M, 2]: [row, column] of each entry"),
            Port("default_value", "T", doc="scalar: the value added to each empty row")),
    outputs=(Port("output_indices", "T_IDX", doc="[M', 2]: the entries' positions, the added [row, 0] ones "
                                                 "included, in row-major order"),
             Port("output_values", "T", doc="[M']: their values"),
             Port("empty_row_indicator", "boolean", doc="[rows]: true for the rows that had no entry")),
    type_constraints={"T": NUMERIC, "T_IDX": T_IND},
    shape=sparse_fill_empty_rows_16_shape,
    doc="A 2-D sparse tensor (indices, values, dense_shape) with an entry [row, 0] = default_value added to every "
        "empty row, in row-major order; and which rows were empty.")

OPS = (EMBEDDING_BAG_OFFSETS_SUM_3, EMBEDDING_BAG_PACKED_SUM_3, EMBEDDING_SEGMENTS_SUM_3, EMBEDDING_BAG_OFFSETS_15,
       EMBEDDING_BAG_PACKED_15, SPARSE_FILL_EMPTY_ROWS_16)
