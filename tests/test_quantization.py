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


# --- FakeConvert-13 ----------------------------------------------------------------------------------
def _fc(x, scale, shift=None, dest="f8e4m3", dtype=np.float32):
    ins = [np.asarray(x, dtype), np.asarray(scale, dtype)] + ([] if shift is None else [np.asarray(shift, dtype)])
    return opref.run_op("FakeConvert-13", ins, {"destination_type": dest})[0]


def test_fake_convert_rounds_to_f8_values():
    # e4m3 has 3 mantissa bits: in [8, 16) its step is 1, ties go to the even mantissa (12.5 -> 12, 13.5 -> 14)
    np.testing.assert_array_equal(_fc([12.4, 12.5, 13.5, 0.3, 1e-3], 1), np.float32([12, 12, 14, 0.3125, 2 ** -9]))
    # e5m2: 2 mantissa bits, subnormals down to 2**-16
    np.testing.assert_array_equal(_fc([5.5, 2 ** -16, 2 ** -17], 1, dest="f8e5m2"), np.float32([6, 2 ** -16, 0]))


def test_fake_convert_saturates_and_keeps_nan():
    y = _fc([500, -1e6, np.inf, np.nan], 1)
    np.testing.assert_array_equal(y[:3], np.float32([448, -448, 448]))
    assert np.isnan(y[3])
    np.testing.assert_array_equal(_fc([70000, -np.inf], 1, dest="f8e5m2"), np.float32([57344, -57344]))


def test_fake_convert_scale_and_shift():
    # (12.4 * 2 - 1) = 23.8 -> 24 (e4m3 step 2 in [16, 32)); (24 + 1) / 2 = 12.5
    np.testing.assert_array_equal(_fc([[12.4], [3.0]], [[2.0], [0.5]], [[1.0], [0.0]]), np.float32([[12.5], [3.0]]))
    assert _fc([1.0], [2.0], dtype=np.float16).dtype == np.float16


def test_fake_convert_cases_against_the_spec_transcription():
    from opref.conformance.cases.quantization import _fake_convert
    from spec_quantization import SPEC
    for c in (c for c in _fake_convert() if c.error is None):
        ours = opref.run_op(c.op, c.inputs, c.attrs)[0]
        theirs = SPEC[c.op](*c.inputs, **c.attrs)[0]
        np.testing.assert_array_equal(ours.astype(np.float64), theirs.astype(np.float64), err_msg=c.name)
