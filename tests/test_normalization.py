"""Normalization checks the generic oracle runners cannot express: hand-computed values, the two
BatchNormInference input orders, and configurations OpenVINO's CPU plugin gets wrong (checked here
against the definition, or against OpenVINO through an equivalent op)."""
from __future__ import annotations

import numpy as np
import pytest

import opref
from oracles import ov_run

RNG = np.random.default_rng(11)


def test_batch_norm_input_orders():
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    g, b, m = (RNG.standard_normal(3).astype(np.float32) for _ in range(3))
    v = np.abs(RNG.standard_normal(3)).astype(np.float32)
    one = opref.run_op("BatchNormInference-1", [g, b, x, m, v], {"epsilon": 1e-3})[0]
    five = opref.run_op("BatchNormInference-5", [x, g, b, m, v], {"epsilon": 1e-3})[0]
    by_hand = g[:, None] * (x - m[:, None]) / np.sqrt(v[:, None] + 1e-3) + b[:, None]
    np.testing.assert_array_equal(one, five)
    np.testing.assert_allclose(five, by_hand, rtol=1e-5)


def test_mvn_6_eps_modes_by_hand():
    x = np.array([[1.0, 3.0]], np.float32)          # mean 2, variance 1
    attrs = {"normalize_variance": True, "eps": 3.0}
    inside = opref.run_op("MVN-6", [x, np.array([1])], {**attrs, "eps_mode": "inside_sqrt"})[0]
    outside = opref.run_op("MVN-6", [x, np.array([1])], {**attrs, "eps_mode": "outside_sqrt"})[0]
    np.testing.assert_allclose(inside, [[-0.5, 0.5]])                 # 1 / sqrt(1 + 3)
    np.testing.assert_allclose(outside, [[-0.25, 0.25]])              # 1 / (1 + 3)


@pytest.mark.parametrize("axes", [[0], [1], [2], [0, 2], [1, 3], [0, 1, 2, 3]])
def test_mvn_1_reduction_axes_are_mvn_6_axes(axes):
    """MVN-1's reduction_axes mean what MVN-6's axes mean (the spec); OpenVINO's CPU plugin reads them
    as across_channels only, so MVN-1 is checked against OpenVINO's MVN-6 here."""
    x = RNG.standard_normal((2, 3, 4, 2)).astype(np.float32)
    ours = opref.run_op("MVN-1", [x], {"eps": 1e-6, "normalize_variance": True, "reduction_axes": axes})[0]
    theirs = ov_run("MVN-6", [x, np.array(axes)], {"normalize_variance": True, "eps": 1e-6,
                                                   "eps_mode": "inside_sqrt"})[0]
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-5)


def test_normalize_l2_by_hand():
    x = np.array([[3.0, 4.0], [0.0, 0.0]], np.float32)
    add = opref.run_op("NormalizeL2-1", [x, np.array([1])], {"eps": 0.0, "eps_mode": "add"})[0]
    mx = opref.run_op("NormalizeL2-1", [x, np.array([1])], {"eps": 1.0, "eps_mode": "max"})[0]
    np.testing.assert_allclose(add[0], [0.6, 0.8])
    np.testing.assert_allclose(mx, [[0.6, 0.8], [0.0, 0.0]])
    # over no axes each non-zero element is divided by itself (the spec's particular case), any rank
    for shape in [(5,), (2, 3)]:
        y = RNG.standard_normal(shape).astype(np.float32)
        out = opref.run_op("NormalizeL2-1", [y, np.array([], np.int64)], {"eps": 1e-4, "eps_mode": "add"})[0]
        np.testing.assert_array_equal(out, np.ones(shape, np.float32))


def _lrn_by_definition(x, axes, alpha, beta, bias, size):
    """The spec's formula element by element: for each output element, the sum of squares over its region
    [max(0, i - (size - 1) / 2), min(dim - 1, i + (size - 1) / 2)] along every axis in `axes` (integer
    division, as the spec writes it), taken as one slice of the input (no shifted copies, unlike the kernel)."""
    x64 = x.astype(np.float64)
    out = np.empty_like(x64)
    for index in np.ndindex(*x.shape):
        region = tuple(slice(max(0, i - (size - 1) // 2), min(d - 1, i + (size - 1) // 2) + 1) if a in axes
                       else slice(i, i + 1) for a, (i, d) in enumerate(zip(index, x.shape)))
        out[index] = x64[index] / (bias + alpha / size ** len(axes) * np.sum(x64[region] ** 2)) ** beta
    return out


@pytest.mark.parametrize("bias", [0.5, 1.5, 0.25])
@pytest.mark.parametrize("axes,size", [([1], 3), ([1], 4), ([0], 3), ([2, 3], 5), ([0, 1, 2, 3], 2), ([3], 1)])
def test_lrn_by_definition(axes, size, bias):
    """Biases that are not whole numbers (OpenVINO's CPU plugin gets them wrong), even sizes and axes
    other than [1] or the spatial ones (which it does not run as the spec says), checked against the
    definition."""
    x = RNG.standard_normal((2, 5, 3, 4)).astype(np.float32)
    attrs = {"alpha": 0.7, "beta": 0.75, "bias": bias, "size": size}
    ours = opref.run_op("LRN-1", [x, np.array(axes)], attrs)[0]
    np.testing.assert_allclose(ours, _lrn_by_definition(x, axes, **attrs), rtol=1e-5, atol=1e-6)


def test_group_normalization_by_hand():
    x = np.array([[1.0, 3.0, 10.0, 14.0]], np.float32).reshape(1, 4, 1)
    out = opref.run_op("GroupNormalization-12", [x, np.ones(4, np.float32), np.zeros(4, np.float32)],
                       {"num_groups": 2, "epsilon": 0.0})[0]
    np.testing.assert_allclose(out.reshape(-1), [-1, 1, -1, 1])


def test_grn_by_hand():
    x = np.array([[3.0, 4.0]], np.float32)
    np.testing.assert_allclose(opref.run_op("GRN-1", [x], {"bias": 0.0})[0], [[0.6, 0.8]])
