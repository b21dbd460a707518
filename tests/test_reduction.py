"""Reduction checks the OpenVINO oracles cannot make: integer overflow (the CPU plugin saturates
8/16-bit sums, OpenVINO has no reference evaluate for them; opref wraps, as integer arithmetic does
elsewhere in OpenVINO's reference code), and the maximum/minimum of rows with NaN or only
infinities (the CPU plugin is order-dependent on NaN, and OpenVINO starts max/min from the type's
finite limits)."""
import numpy as np

import opref

AX1 = np.array([1])


def _run(op, x, axes=AX1, **attrs):
    return opref.run_op(op, [x, axes], attrs)[0]


def test_small_integer_sums_wrap():
    x = np.array([[100, 100, 101], [-128, -1, 0]], np.int8)
    assert _run("ReduceSum-1", x).tolist() == [(301 + 128) % 256 - 128, 127]
    assert _run("ReduceMean-1", x).tolist() == [15, 127 // 3]     # wrapped sum 45 / 3; 127 / 3 truncated
    assert _run("ReduceProd-1", np.array([[16, 16, 2]], np.int8)).tolist() == [0]


def test_integer_mean_truncates_toward_zero():
    x = np.array([[1, 2], [-3, -2], [-1, 2], [-7, 0]], np.int32)
    assert _run("ReduceMean-1", x).tolist() == [1, -2, 0, -3]


def test_max_min_follow_ieee_on_nan_and_infinities():
    x = np.array([[np.nan, 1.0], [1.0, np.nan], [-np.inf, -np.inf]], np.float32)
    assert np.isnan(_run("ReduceMax-1", x)[:2]).all()
    assert _run("ReduceMax-1", x)[2] == -np.inf
    assert _run("ReduceMin-1", -x)[2] == np.inf


def test_empty_axes_keep_each_element_and_norms_take_abs():
    x = np.array([[-1.5, 2.0]], np.float32)
    empty = np.array([], np.int64)
    assert _run("ReduceSum-1", x, empty).tolist() == x.tolist()
    assert _run("ReduceL1-4", x, empty).tolist() == [[1.5, 2.0]]
    assert _run("ReduceL2-4", x, empty).tolist() == [[1.5, 2.0]]


def test_spec_example_shapes():
    x = np.zeros((6, 12, 10, 24), np.float32)
    assert _run("ReduceMean-1", x, np.array([2, 3]), keep_dims=True).shape == (6, 12, 1, 1)
    assert _run("ReduceMean-1", x, np.array([2, 3])).shape == (6, 12)
    assert _run("ReduceMean-1", x, np.array([-2])).shape == (6, 12, 24)
