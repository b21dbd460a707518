"""NumPy transcriptions of the embedding ops' specs (EmbeddingBagOffsets(Sum), EmbeddingBagPacked(Sum),
SparseFillEmptyRows): the oracle of cases where OpenVINO's CPU plugin is wrong (an empty last bag
of EmbeddingBagOffsets, bags of no indices, a sparse tensor of no entries) and there is no
reference `evaluate`. Written from the specs' snippet and
text, bag by bag, in float64 (or the integer type itself), rounded once to the table's type."""
from __future__ import annotations

import numpy as np


def _wide(x):
    return x.astype(np.float64) if x.dtype.kind == "f" or x.dtype.name in ("bfloat16",) else x


def _bag_offsets(emb_table, indices, offsets, default_index=None, per_sample_weights=None, *, reduction="sum"):
    # the spec's snippet, with its running "previous_offset"
    if len(offsets) == 0:
        return [np.zeros((0,) + emb_table.shape[1:], emb_table.dtype)]
    table = _wide(emb_table)
    weights = np.ones(len(indices), table.dtype) if per_sample_weights is None else _wide(per_sample_weights)
    embeddings = [table[i] * w for i, w in zip(indices, weights)]
    previous = int(offsets[0])
    bags = []
    for end in list(offsets[1:]) + [len(indices)]:
        end = int(end)
        if end != previous:
            bag = sum(embeddings[previous + 1:end], embeddings[previous])
            size = end - previous
            bags.append(bag if reduction != "mean" else bag / size if bag.dtype.kind == "f" else
                        np.sign(bag) * (np.abs(bag) // size))              # integers: towards zero
        elif default_index is not None and int(default_index) != -1:
            bags.append(table[int(default_index)])
        else:
            bags.append(np.zeros(table.shape[1:], table.dtype))
        previous = end
    return [np.stack(bags).astype(emb_table.dtype)]


def embedding_bag_offsets_sum_3(emb_table, indices, offsets, default_index=None, per_sample_weights=None):
    return _bag_offsets(emb_table, indices, offsets, default_index, per_sample_weights)


def embedding_bag_offsets_15(emb_table, indices, offsets, default_index=None, per_sample_weights=None, *,
                             reduction):
    return _bag_offsets(emb_table, indices, offsets, default_index, per_sample_weights, reduction=reduction)


def _bag_packed(emb_table, indices, per_sample_weights=None, reduction="sum"):
    # the spec: Gather(emb_table, indices, axis=0), then a weighted ReduceSum or a ReduceMean over axis 1;
    # bags of no indices (indices of shape [batch, 0]) sum to zeros
    table = _wide(emb_table)
    gathered = table[indices.reshape(-1)].reshape(indices.shape + table.shape[1:])
    if per_sample_weights is not None:
        gathered = gathered * _wide(per_sample_weights).reshape(indices.shape + (1,) * (table.ndim - 1))
    total = gathered.sum(axis=1)
    if reduction == "mean" and indices.shape[1]:
        total = total / indices.shape[1] if total.dtype.kind == "f" else np.sign(total) * (np.abs(total) // indices.shape[1])
    return [total.astype(emb_table.dtype)]


def embedding_bag_packed_sum_3(emb_table, indices, per_sample_weights=None):
    return _bag_packed(emb_table, indices, per_sample_weights)


def embedding_bag_packed_15(emb_table, indices, per_sample_weights=None, *, reduction):
    return _bag_packed(emb_table, indices, per_sample_weights, reduction)


def sparse_fill_empty_rows_16(values, dense_shape, indices, default_value):
    # row by row: the row's entries in column order (stable), or one [row, 0] entry if it has none
    rows = int(dense_shape[0])
    out_indices, out_values, empty = [], [], []
    for r in range(rows):
        mine = [k for k in range(len(indices)) if indices[k][0] == r]
        mine.sort(key=lambda k: indices[k][1])
        empty.append(not mine)
        out_indices += [list(indices[k]) for k in mine] or [[r, 0]]
        out_values += [values[k] for k in mine] or [default_value]
    return [np.array(out_indices, indices.dtype).reshape(-1, 2), np.array(out_values, values.dtype).reshape(-1),
            np.array(empty, bool)]


SPEC = {"SparseFillEmptyRows-16": sparse_fill_empty_rows_16, "EmbeddingBagOffsetsSum-3": embedding_bag_offsets_sum_3, "EmbeddingBagOffsets-15": embedding_bag_offsets_15,
        "EmbeddingBagPackedSum-3": embedding_bag_packed_sum_3, "EmbeddingBagPacked-15": embedding_bag_packed_15}
