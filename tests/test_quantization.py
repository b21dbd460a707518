"""FakeQuantize-1 checks by hand: the spec formula's rounding (half to even, as OpenVINO's reference
std::nearbyint), clipping at the limits, inverted and equal limits, NaN (the CPU plugin maps it to
output_low; the spec's formula keeps it)."""
from __future__ import annotations

import numpy as np

import opref

FQ = "FakeQuantize-1"


def _fq(x, il, ih, ol, oh, levels):
    f = lambda v: np.asarray(v, np.float32)
    return opref.run_op(FQ, [f(x), f(il), f(ih), f(ol), f(oh)], {"levels": levels})[0]


def test_nine_levels_round_half_to_even():
    # [-4, 4] in 9 levels has steps of 1 on the quantized grid: x + 4 = 4.5 -> 4, 5.5 -> 6, 6.5 -> 6, 3.5 -> 4
    y = _fq([0.5, 1.5, 2.5, -0.5, 0.25, 0.75], -4, 4, -4, 4, 9)
    np.testing.assert_array_equal(y, np.array([0, 2, 2, 0, 0, 1], np.float32))


def test_clipping_and_output_range():
    y = _fq([-10, -1, 0, 1, 10], -1, 1, 0, 255, 256)
    np.testing.assert_array_equal(y[[0, 1, 4]], [0, 0, 255])     # x <= low -> output_low, x > high -> output_high
    np.testing.assert_allclose(y[2], 128.0)                       # round(127.5) = 128 (half to even)


def test_equal_limits_binarize():
    y = _fq([-1, 0, 0.5, 2], 0.5, 0.5, -1, 1, 2)
    np.testing.assert_array_equal(y, [-1, -1, -1, 1])


def test_nan_stays_nan_per_channel_limits():
    x = np.array([[np.nan, 1.0], [0.2, 0.7]], np.float32)
    il, ih = np.array([[0.0], [0.0]], np.float32), np.array([[1.0], [2.0]], np.float32)
    y = opref.run_op(FQ, [x, il, ih, np.float32(0), np.float32(1)], {"levels": 3})[0]
    assert np.isnan(y[0, 0])
    np.testing.assert_allclose(y[0, 1], 1.0)
    np.testing.assert_allclose(y[1], [0.0, 0.5])                 # 0.2/2*2 = 0.2 -> 0; 0.7 -> 0.7 -> 1 -> 0.5
