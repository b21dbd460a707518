"""Condition/selection checks: the spec examples, three-way numpy broadcasting of Select, and 64-bit
values that OpenVINO's CPU plugin computes in 32 bits (no OpenVINO oracle is faithful for them)."""
import numpy as np

import opref


def test_select_spec_example():
    cond = np.array([[False, False], [True, False], [True, True]])
    then = np.array([[-1, 0], [1, 2], [3, 4]], np.int32)
    else_ = np.array([[11, 10], [9, 8], [7, 6]], np.int32)
    assert opref.run_op("Select-1", [cond, then, else_])[0].tolist() == [[11, 10], [1, 8], [3, 4]]


def test_select_numpy_broadcasts_all_three():
    out = opref.run_op("Select-1", [np.array([[True], [False]]), np.arange(3), np.full(3, -1)])[0]
    assert out.tolist() == [[0, 1, 2], [-1, -1, -1]]


def test_bucketize_spec_example_and_bounds():
    x, b = np.array([[3, 50], [10, -1]]), np.array([0, 5, 10])
    assert opref.run_op("Bucketize-3", [x, b], {"output_type": "i64"})[0].tolist() == [[1, 3], [2, 0]]
    assert opref.run_op("Bucketize-3", [x, b], {"output_type": "i32", "with_right_bound": False})[0].tolist() == \
        [[1, 3], [3, 0]]
    assert opref.run_op("Bucketize-3", [x, b[:0]], {"output_type": "i64"})[0].tolist() == [[0, 0], [0, 0]]


def test_bucketize_64_bit():
    x = np.array([2**62, -2**62, 2**40 + 1], np.int64)
    b = np.array([-2**61, 2**40, 2**61], np.int64)
    assert opref.run_op("Bucketize-3", [x, b], {"output_type": "i64"})[0].tolist() == [3, 0, 2]


def test_nonzero_spec_example_and_64_bit():
    assert opref.run_op("NonZero-3", [np.array([[1, 0], [1, 1]])])[0].tolist() == [[0, 1, 1], [0, 0, 1]]
    x = np.array([2**32, 0, -2**63], np.int64)           # zero in their low 32 bits, yet non-zero
    assert opref.run_op("NonZero-3", [x])[0].tolist() == [[0, 2]]
