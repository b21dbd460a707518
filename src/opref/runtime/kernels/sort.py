"""Sorting and search kernels: TopK-1/3/11, SearchSorted-15.

TopK orders each slice with one stable sort (np.lexsort) along the last axis: equal values keep
their input order, so `stable` needs no second algorithm, and NaN sorts below every number (the
TopK-3 spec: in max mode a NaN is only selected when fewer than K numbers exist).
"""
from __future__ import annotations

import numpy as np

from ...types import element_type


def _order_keys(x: np.ndarray, largest_first: bool) -> tuple[np.ndarray, ...]:
    """Keys for np.lexsort (last key primary) that put the wanted values first along the last axis."""
    t = element_type(x)
    if t.is_float:
        v = x.astype(np.float64)
        nan = np.isnan(v)
        v = np.where(nan, 0.0, v)
        # NaN below every number: last when the largest come first, first when the smallest do
        return (-v, nan) if largest_first else (v, ~nan)
    if t.name == "boolean" or t.bits == 4:
        x = x.astype(np.int8)
    # ~v reverses the order of any integer type without overflow (-v would wrap at the minimum)
    return (~x,) if largest_first else (x,)


def _topk(data, k, *, axis, mode, sort, index_element_type):
    k = int(np.asarray(k).reshape(-1)[0])
    x = np.moveaxis(data, axis, -1)
    order = np.lexsort(_order_keys(x, mode == "max"), axis=-1)[..., :k]
    if sort == "index":
        order = np.sort(order, axis=-1)
    values = np.take_along_axis(x, order, axis=-1)
    indices = order.astype(element_type(index_element_type).dtype)
    return np.moveaxis(values, -1, axis), np.moveaxis(indices, -1, axis)


def topk_1(data, k, *, axis, mode, sort, index_element_type):
    return _topk(data, k, axis=axis, mode=mode, sort=sort, index_element_type=index_element_type)


def topk_3(data, k, *, axis, mode, sort, index_element_type):
    return _topk(data, k, axis=axis, mode=mode, sort=sort, index_element_type=index_element_type)


def topk_11(data, k, *, axis, mode, sort, stable, index_element_type):
    return _topk(data, k, axis=axis, mode=mode, sort=sort, index_element_type=index_element_type)


def search_sorted(sorted_sequence, values, *, right_mode, output_type):
    side = "right" if right_mode else "left"
    dtype = element_type(output_type).dtype
    if element_type(values).is_float and element_type(values).bits < 32:   # compare exactly, in f32
        sorted_sequence, values = sorted_sequence.astype(np.float32), values.astype(np.float32)
    if sorted_sequence.ndim == 1:
        return np.searchsorted(sorted_sequence, values, side=side).astype(dtype)
    # row by row: the index is the count of sequence elements below the value (<= for right_mode), which
    # is what a binary search finds in a sorted row. All rows at once: each row's values and sequence in one
    # stable sort, the values first (a value sorts before the elements equal to it: <) or last (after them:
    # <=); a value's index is the count of sequence elements sorted before it. (NaN sorts last but compares
    # below nothing: a NaN value's index is 0.)
    n, m = sorted_sequence.shape[-1], values.shape[-1]
    merged = np.concatenate((sorted_sequence, values) if right_mode else (values, sorted_sequence), axis=-1)
    order = np.argsort(merged, axis=-1, kind="stable")
    is_sequence = (order < n) if right_mode else (order >= m)
    before = np.cumsum(is_sequence, axis=-1)                 # sequence elements up to each sorted position
    position = np.empty_like(order)                          # where each merged element sorted to
    np.put_along_axis(position, order, np.broadcast_to(np.arange(n + m), order.shape), axis=-1)
    index = np.take_along_axis(before, position[..., n:] if right_mode else position[..., :m], axis=-1)
    if values.dtype.kind == "f":
        index[np.isnan(values)] = 0
    return index.astype(dtype)


def _search_sorted_workspace(ins, outs, kw) -> int:
    """Bytes of search_sorted's temporaries: the intp indices of a 1-D search; batched, per row the merged
    values and sequence (f32 for narrow floats), their sort order, positions and counts (intp), and a mask."""
    seq, values = ins
    itemsize = max(seq.dtype.itemsize, 4)
    if seq.ndim == 1:
        return values.size * (8 + 2 * itemsize)
    merged = seq.size + values.size
    return merged * (2 * itemsize + 3 * 8 + 1) + values.size * 8


WORKSPACE = {"SearchSorted-15": _search_sorted_workspace}


KERNELS = {
    "TopK-1": topk_1,
    "TopK-3": topk_3,
    "TopK-11": topk_11,
    "SearchSorted-15": search_sorted,
}
