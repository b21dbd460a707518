"""Comparison checks the OpenVINO oracles cannot make: f64 values beyond f32's range (OpenVINO's CPU
plugin computes f64 as f32 and has no f64 reference evaluate for most comparisons), and the spec's
own examples."""
import numpy as np

import opref

BIG, TINY = 1e300, 1e-300          # finite f64 values that are inf / 0 in f32


def test_f64_beyond_f32_is_compared_in_f64():
    a = np.array([BIG, -BIG, TINY, 0.0, BIG])
    b = np.array([np.inf, -np.inf, 0.0, TINY, 1e299])
    assert opref.run_op("Less-1", [a, b])[0].tolist() == [True, False, False, True, False]
    assert opref.run_op("Equal-1", [a, b])[0].tolist() == [False] * 5
    assert opref.run_op("GreaterEqual-1", [a, b])[0].tolist() == [False, True, True, False, True]


def test_f64_class_tests_beyond_f32():
    x = np.array([BIG, -BIG, np.inf, -np.inf, np.nan, TINY])
    assert opref.run_op("IsFinite-10", [x])[0].tolist() == [True, True, False, False, False, True]
    assert opref.run_op("IsInf-10", [x])[0].tolist() == [False, False, True, True, False, False]
    assert opref.run_op("IsInf-10", [x], {"detect_positive": False})[0].tolist() == \
        [False, False, False, True, False, False]
    assert opref.run_op("IsNaN-10", [x])[0].tolist() == [False, False, False, False, True, False]


def test_nan_is_unordered():
    nan = np.array([np.nan, np.nan, 1.0], np.float32)
    one = np.array([1.0, np.nan, np.nan], np.float32)
    for op in ("Less-1", "LessEqual-1", "Greater-1", "GreaterEqual-1", "Equal-1"):
        assert not opref.run_op(op, [nan, one])[0].any(), op
    assert opref.run_op("NotEqual-1", [nan, one])[0].all()


def test_spec_isfinite_example():
    x = np.array([np.nan, 2.1, 3.7, np.inf], np.float32)
    assert opref.run_op("IsFinite-10", [x])[0].tolist() == [False, True, True, False]


def test_spec_numpy_broadcast_example_shape():
    a, b = np.zeros((8, 1, 6, 1), np.int32), np.zeros((7, 1, 5), np.int32)
    assert opref.run_op("Equal-1", [a, b])[0].shape == (8, 7, 6, 5)
