"""NumPy reference kernels: the embedding ops and SparseFillEmptyRows. Every bag op is one gather of emb_table rows, scaled by
per_sample_weights, scattered into its bag (np.add.at adds in index order, as a running sum does),
then divided by the bag's size for `mean`; empty bags take row default_index, or zeros. Narrow
floats are summed in f32 and rounded once, integers in their own type (wrapping; an integer mean
rounds towards zero)."""
from __future__ import annotations

import numpy as np

from ...errors import InputError
from ...opset.embedding import sparse_rows
from ...types import accumulator_dtype


def _index(op: str, name: str, values: np.ndarray, limit: int, what: str) -> np.ndarray:
    v = np.asarray(values).astype(np.int64)
    bad = (v < 0) | (v >= limit)
    if bad.any():
        raise InputError(f"{op}: input {name!r} has {v[bad][0]} at position {int(np.argmax(bad.reshape(-1)))}, "
                         f"outside [0, {limit}) ({what})")
    return v


def _reduce(op, emb_table, indices, bag, bags, default_index, per_sample_weights, mean=False, none=-1):
    """bag[i]: the bag of indices[i] (-1: in none); `bags` bags; default_index `none` means zeros."""
    num_emb = emb_table.shape[0]
    idx = _index(op, "indices", indices, num_emb, "rows of emb_table")
    acc = accumulator_dtype(emb_table.dtype)
    rows = emb_table[idx].astype(acc)
    if per_sample_weights is not None:
        w = np.asarray(per_sample_weights).reshape(-1).astype(acc)
        rows = rows * w.reshape(w.shape + (1,) * (rows.ndim - 1))
    keep = bag >= 0
    out = np.zeros((bags,) + emb_table.shape[1:], acc)
    np.add.at(out, bag[keep], rows[keep])
    counts = np.bincount(bag[keep], minlength=bags)
    full = counts > 0
    if mean:
        n = counts[full].reshape((-1,) + (1,) * (out.ndim - 1)).astype(acc)
        out[full] = _truncating_divide(out[full], n) if np.issubdtype(acc, np.integer) else out[full] / n
    if default_index is not None and int(default_index) != none:
        what = "a row of emb_table" + (", or -1" if none == -1 else "")
        d = _index(op, "default_index", np.reshape(default_index, 1), num_emb, what)[0]
        out[~full] = emb_table[d].astype(acc)
    return out.astype(emb_table.dtype)


def _truncating_divide(a, n):
    """Integer means round towards zero (C's division), as ReduceMean does for integers."""
    q = a // n
    return q + ((q * n != a) & (a < 0)).astype(q.dtype)


# --- EmbeddingBagOffsets(Sum) ---------------------------------------------------------------------------
def _offsets(op, emb_table, indices, offsets, default_index, per_sample_weights, mean=False):
    n = indices.shape[0]
    starts = np.asarray(offsets).astype(np.int64)
    if starts.size and ((np.diff(starts) < 0).any() or starts.min() < 0 or starts.max() > n):
        raise InputError(f"{op}: input 'offsets' must be non-decreasing positions in [0, {n}] (the number of "
                         f"indices), got {starts.tolist()}")
    # index j belongs to the last bag starting at or before it (indices before offsets[0]: none)
    bag = np.searchsorted(starts, np.arange(n), side="right") - 1
    return _reduce(op, emb_table, indices, bag, starts.size, default_index, per_sample_weights, mean)


def embedding_bag_offsets_sum_3(emb_table, indices, offsets, default_index=None, per_sample_weights=None):
    return _offsets("EmbeddingBagOffsetsSum-3", emb_table, indices, offsets, default_index, per_sample_weights)


def embedding_bag_offsets_15(emb_table, indices, offsets, default_index=None, per_sample_weights=None, *,
                             reduction):
    return _offsets("EmbeddingBagOffsets-15", emb_table, indices, offsets, default_index, per_sample_weights,
                    reduction == "mean")


# --- EmbeddingBagPacked(Sum) ----------------------------------------------------------------------------
def _packed(op, emb_table, indices, per_sample_weights, mean=False):
    batch, per_bag = indices.shape
    bag = np.repeat(np.arange(batch), per_bag)
    return _reduce(op, emb_table, indices.reshape(-1), bag, batch, None, per_sample_weights, mean)


def embedding_bag_packed_sum_3(emb_table, indices, per_sample_weights=None):
    return _packed("EmbeddingBagPackedSum-3", emb_table, indices, per_sample_weights)


def embedding_bag_packed_15(emb_table, indices, per_sample_weights=None, *, reduction):
    return _packed("EmbeddingBagPacked-15", emb_table, indices, per_sample_weights, reduction == "mean")


# --- EmbeddingSegmentsSum-3 -----------------------------------------------------------------------------
def embedding_segments_sum_3(emb_table, indices, segment_ids, num_segments, default_index=None,
                             per_sample_weights=None):
    op = "EmbeddingSegmentsSum-3"
    n = int(num_segments)
    bag = _index(op, "segment_ids", segment_ids, n, "segments of the output")
    if (np.diff(bag) < 0).any():
        raise InputError(f"{op}: input 'segment_ids' must be sorted, got {bag.tolist()}")
    # (only an absent default_index means zeros here: the spec has no -1 for segments)
    return _reduce(op, emb_table, indices, bag, n, default_index, per_sample_weights, none=None)


# --- SparseFillEmptyRows-16 -----------------------------------------------------------------------------
def sparse_fill_empty_rows_16(values, dense_shape, indices, default_value):
    rows = int(np.asarray(dense_shape).reshape(-1)[0])
    idx = np.asarray(indices).reshape(-1, 2)
    empty = np.bincount(sparse_rows("SparseFillEmptyRows-16", idx, rows), minlength=rows) == 0
    new = np.stack([np.flatnonzero(empty), np.zeros(int(empty.sum()), np.int64)], 1).astype(idx.dtype)
    all_idx = np.concatenate([idx, new])
    all_values = np.concatenate([np.asarray(values).reshape(-1), np.full(len(new), default_value, values.dtype)])
    order = np.lexsort((all_idx[:, 1], all_idx[:, 0]))          # row-major; stable among equal positions
    return all_idx[order], all_values[order], empty


# --- temporaries (runtime/limits.py's max_kernel_bytes) -------------------------------------------------
def _fill_workspace(ins, outs, kw) -> int:
    """SparseFillEmptyRows: the row counts (i64, one per row of dense_shape), the empty rows' new indices and
    values, the concatenated indices and values, and the sort's keys and order (per entry, given or new)."""
    values, rows = ins[0], max(int(np.asarray(ins[1]).reshape(-1)[0]), 0)
    entries = values.size + rows
    return 9 * rows + entries * (64 + 2 * values.itemsize)


WORKSPACE = {"SparseFillEmptyRows-16": _fill_workspace}

KERNELS = {"SparseFillEmptyRows-16": sparse_fill_empty_rows_16, "EmbeddingBagOffsetsSum-3": embedding_bag_offsets_sum_3, "EmbeddingBagOffsets-15": embedding_bag_offsets_15,
           "EmbeddingBagPackedSum-3": embedding_bag_packed_sum_3, "EmbeddingBagPacked-15": embedding_bag_packed_15,
           "EmbeddingSegmentsSum-3": embedding_segments_sum_3}
