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
    # row by row: the index is the count of sequence elements below the value (<= for right_mode),
    # which is what a binary search finds in a sorted row
    seq, v = sorted_sequence[..., None, :], values[..., :, None]
    below = (seq <= v) if right_mode else (seq < v)
    return below.sum(axis=-1).astype(dtype)


KERNELS = {
    "TopK-1": topk_1,
    "TopK-3": topk_3,
    "TopK-11": topk_11,
    "SearchSorted-15": search_sorted,
}
