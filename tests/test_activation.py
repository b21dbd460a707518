"""Activation checks the generic runners cannot express: parameter values the CPU plugin mishandles
(checked against the spec's formula, computed here), hand-computed values, and properties."""
from __future__ import annotations

import math

import numpy as np
import pytest

import opref

X = np.array([-4.0, -1.0, -0.25, 0.0, 0.3, 1.0, 2.5, 7.0], np.float32)


@pytest.mark.parametrize("alpha,beta", [(0.0, 0.5), (0.0, 2.0), (1.0, 0.0), (0.5, 0.0), (0.0, 0.0)])
def test_hard_sigmoid_zero_parameters_follow_the_formula(alpha, beta):
    # OpenVINO's CPU plugin reads alpha = 0 / beta = 0 as unset (0.2 / 0.5); the spec's formula does not
    want = [max(0.0, min(1.0, alpha * float(v) + beta)) for v in X]
    got = opref.run_op("HardSigmoid-1", [X, np.float32(alpha), np.float32(beta)])[0]
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


def test_gelu_erf_and_tanh_by_hand():
    want_erf = [0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in X.tolist()]
    want_tanh = [0.5 * v * (1 + math.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v ** 3))) for v in X.tolist()]
    np.testing.assert_allclose(opref.run_op("Gelu-7", [X], {"approximation_mode": "erf"})[0], want_erf, rtol=1e-6,
                               atol=1e-7)
    np.testing.assert_allclose(opref.run_op("Gelu-2", [X])[0], want_erf, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(opref.run_op("Gelu-7", [X], {"approximation_mode": "tanh"})[0], want_tanh,
                               rtol=1e-6, atol=1e-7)


def test_clamp_integer_bounds_round_inwards():
    x = np.arange(-5, 6, dtype=np.int32)
    got = opref.run_op("Clamp-1", [x], {"min": -2.5, "max": 3.7})[0]
    assert got.tolist() == [-2, -2, -2, -2, -1, 0, 1, 2, 3, 3, 3]


def test_softmax_rows_sum_to_one_and_log_softmax_is_its_log():
    x = np.random.default_rng(0).standard_normal((3, 4, 5)).astype(np.float32) * 20
    for axis in (0, 1, 2, -1):
        s = opref.run_op("Softmax-8", [x], {"axis": axis})[0]
        np.testing.assert_allclose(s.sum(axis=axis), 1.0, rtol=1e-5)
        ls = opref.run_op("LogSoftmax-5", [x], {"axis": axis})[0]
        np.testing.assert_allclose(np.exp(ls), s, rtol=1e-4, atol=1e-7)


def test_prelu_per_channel_versus_trailing_axis():
    x = -np.ones((1, 3, 3), np.float32)
    slope = np.array([1.0, 2.0, 3.0], np.float32)
    # rank-1 slope as long as dimension 1: per channel (not along the last axis, as numpy would)
    assert opref.run_op("PRelu-1", [x, slope])[0][0, :, 0].tolist() == [-1.0, -2.0, -3.0]
    y = -np.ones((1, 2, 3), np.float32)
    assert opref.run_op("PRelu-1", [y, slope])[0][0, 0].tolist() == [-1.0, -2.0, -3.0]


def test_swish_default_beta_is_one():
    np.testing.assert_array_equal(opref.run_op("Swish-4", [X])[0], opref.run_op("Swish-4", [X, np.float32(1)])[0])
    want = [v / (1 + math.exp(-v)) for v in X.tolist()]
    np.testing.assert_allclose(opref.run_op("Swish-4", [X])[0], want, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_softplus_and_mish_against_math(dtype):
    """Computed in f64 blocks and rounded once: f32 results within 1 ulp of the C library's log1p/exp/tanh over
    [-90, 90] (several blocks); the limits at +-inf, NaN kept."""
    x = np.concatenate([np.linspace(-90, 90, 20001), [0.0, -0.0, 1e-30, -1e-30]]).astype(dtype)

    def softplus(v):
        return max(v, 0.0) + math.log1p(math.exp(-abs(v)))
    want = np.array([softplus(v) for v in x.tolist()])
    want_mish = np.array([v * math.tanh(softplus(v)) for v in x.tolist()])
    for op, expected in (("SoftPlus-4", want), ("Mish-4", want_mish)):
        got = opref.run_op(op, [x])[0]
        ulp = np.spacing(np.abs(expected).astype(dtype)).astype(np.float64)
        # (f64: NumPy's own exp/log1p/tanh, whose accuracy differs by version: 1e-14 relative)
        bound = ulp if dtype == np.float32 else 1e-14 * np.abs(expected) + 1e-300
        assert got.dtype == dtype and np.all(np.abs(got.astype(np.float64) - expected) <= bound), op
    edges = np.array([np.inf, -np.inf, np.nan], dtype)
    soft = opref.run_op("SoftPlus-4", [edges])[0]
    assert soft[0] == np.inf and soft[1] == 0 and np.isnan(soft[2])


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_sigmoid_follows_its_definition_at_the_extremes(dtype):
    """Sigmoid = 1 / (1 + e^-x), from math.exp in f64 (Python's float, exact limits at +-inf), against opref's
    formulation (e^-|x| chosen into the numerator per element): within 2 ulps of the type everywhere, exactly 1 and
    0 at +-inf, 0.5 at +-0, NaN at NaN; a 0-d input gives a 0-d output."""
    info = np.finfo(dtype)
    x = np.array([0.0, -0.0, 1e-30, -1e-30, 0.5, -0.5, 3, -3, 17, -17, 40, -40, 90, -90, 745, -745,
                  float(info.max), -float(info.max), float(info.tiny), np.inf, -np.inf, np.nan], np.float64).astype(dtype)
    got = opref.run_op("Sigmoid-1", [x])[0]

    def sigmoid(v):
        if math.isnan(v):
            return math.nan
        return 1.0 / (1.0 + math.exp(-v)) if v > -700 else math.exp(v) / (1.0 + math.exp(v))
    want = np.array([sigmoid(float(v)) for v in x]).astype(dtype)
    assert got.dtype == dtype
    np.testing.assert_array_max_ulp(got[:-1], want[:-1], maxulp=2)
    assert np.isnan(got[-1]) and got[-3] == 1 and got[-2] == 0 and got[0] == got[1] == 0.5
    scalar = opref.run_op("Sigmoid-1", [np.array(-3.0, dtype)])[0]
    assert scalar.shape == () and scalar == got[7]
