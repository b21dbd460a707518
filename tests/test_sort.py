"""TopK checks the generic oracle runners cannot express: NaN ordering (the TopK-3 spec: NaN is
smaller than every number; OpenVINO's CPU plugin and reference both compare NaN inconsistently, so
no oracle is asked), the spec's tie example, and properties of the selection."""
from __future__ import annotations

import numpy as np
import pytest

import opref

VERSIONS = ("TopK-1", "TopK-3", "TopK-11")


def _topk(op, x, k, **attrs):
    attrs = {"index_element_type": "i64"} | attrs
    return opref.run_op(op, [x, np.int64(k)], attrs)


@pytest.mark.parametrize("op", VERSIONS)
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64])
def test_nan_is_below_every_number(op, dtype):
    x = np.array([3, np.nan, 1, -np.inf, np.nan, 7], dtype)
    v, i = _topk(op, x, 4, axis=0, mode="max", sort="value")
    np.testing.assert_array_equal(v, np.array([7, 3, 1, -np.inf], dtype))
    np.testing.assert_array_equal(i, [5, 0, 2, 3])
    v, i = _topk(op, x, 5, axis=0, mode="max", sort="value")     # fewer than K numbers: a NaN comes in
    np.testing.assert_array_equal(i, [5, 0, 2, 3, 1])
    assert np.isnan(v[-1])
    v, i = _topk(op, x, 3, axis=0, mode="min", sort="value")     # the smallest: the NaNs, in input order
    np.testing.assert_array_equal(i, [1, 4, 3])
    v, i = _topk(op, x, 3, axis=0, mode="max", sort="index")
    np.testing.assert_array_equal(i, [0, 2, 5])


@pytest.mark.parametrize("op", VERSIONS)
def test_spec_example_min_by_index(op):
    # The TopK-11 spec's example: with stable ordering only [5, 3, 1, 2] / [0, 1, 2, 3] is correct.
    x = np.array([5, 3, 1, 2, 5, 5], np.float32)
    extra = {"stable": True} if op == "TopK-11" else {}
    v, i = _topk(op, x, 4, axis=0, mode="min", sort="index", **extra)
    np.testing.assert_array_equal(v, [5, 3, 1, 2])
    np.testing.assert_array_equal(i, [0, 1, 2, 3])


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int64, np.uint64, np.float32, bool])
def test_selection_is_a_stable_sort(dtype):
    rng = np.random.default_rng(0)
    x = rng.integers(0, 4, (5, 9)).astype(dtype)
    for mode in ("max", "min"):
        v, i = _topk("TopK-11", x, 6, axis=1, mode=mode, sort="value", stable=True)
        key = x.astype(np.int64) * (-1 if mode == "max" else 1)
        want = np.argsort(key, axis=1, kind="stable")[:, :6]
        np.testing.assert_array_equal(i, want)
        np.testing.assert_array_equal(v, np.take_along_axis(x, want, 1))


def test_integer_extremes_are_ordered_without_overflow():
    lim = np.iinfo(np.int64)
    x = np.array([0, lim.min, lim.max, -1], np.int64)
    v, i = _topk("TopK-3", x, 4, axis=0, mode="max", sort="value")
    np.testing.assert_array_equal(v, [lim.max, 0, -1, lim.min])
    v, i = _topk("TopK-3", x, 2, axis=0, mode="min", sort="value")
    np.testing.assert_array_equal(v, [lim.min, -1])


def test_axis_and_output_types():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    v, i = opref.run_op("TopK-1", [x, np.int32(2)], {"axis": -2, "mode": "max", "sort": "value"})
    assert v.shape == (2, 2, 4) and i.dtype == np.int32
    np.testing.assert_array_equal(i[0, :, 0], [2, 1])
    np.testing.assert_array_equal(v[1, 0], x[1, 2])


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.int64, np.float64])
@pytest.mark.parametrize("right_mode", [False, True])
def test_search_sorted_batched_equals_numpy_row_by_row(dtype, right_mode):
    """Rows of a batched sequence searched all at once equal NumPy's binary search on each row (ties on
    both sides, -0.0 and 0.0 equal); a NaN value gets 0 (OpenVINO's lower_bound: nothing compares below it)."""
    rng = np.random.default_rng(5)
    seq = np.sort(rng.integers(-6, 7, (3, 4, 33)).astype(dtype), axis=-1)
    values = rng.integers(-8, 9, (3, 4, 21)).astype(dtype)
    if np.dtype(dtype).kind == "f":
        seq[seq == 0] = -0.0
        values[0, 0, :3] = np.nan
    got = opref.run_op("SearchSorted-15", [seq, values], {"right_mode": right_mode})[0]
    side = "right" if right_mode else "left"
    want = np.stack([np.stack([np.searchsorted(s, v, side=side) for s, v in zip(rs, rv)])
                     for rs, rv in zip(seq.astype(np.float64), values.astype(np.float64))])
    want[np.isnan(values.astype(np.float64))] = 0
    assert got.dtype == np.int64 and got.tolist() == want.tolist()


def test_search_sorted_batched_works_in_memory_linear_in_its_inputs():
    """The batched search sorts each row of values with its sequence: 64 rows of 8192 (it used to compare every
    value with every element: 4 GB of booleans)."""
    rng = np.random.default_rng(6)
    seq = np.sort(rng.standard_normal((64, 8192)).astype(np.float32), axis=-1)
    values = rng.standard_normal((64, 8192)).astype(np.float32)
    got = opref.run_op("SearchSorted-15", [seq, values], {"right_mode": True})[0]
    assert got.tolist() == [np.searchsorted(s, v, side="right").tolist() for s, v in zip(seq, values)]
