"""Convert checks by hand: the float -> integer rules (truncation, wrap-around, no saturation), the
conversions weight-compressed models rely on (f16/u4/i4/u8 -> f32), and the NF4 table."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import opref
from opref.runtime.kernels.conversion import NF4, nf4_decode
from opref.types import element_type


def convert(x, dst):
    return opref.run_op("Convert-1", [x], {"destination_type": dst})[0]


def test_float_to_integer_truncates_and_wraps():
    x = np.array([2.7, -2.7, 300.0, -129.0, 255.5], np.float32)
    assert convert(x, "i8").tolist() == [2, -2, 44, 127, -1]
    assert convert(x, "u8").tolist() == [2, 254, 44, 127, 255]
    assert convert(x, "i32").tolist() == [2, -2, 300, -129, 255]


def test_nan_and_inf_to_integers_and_booleans():
    x = np.array([np.nan, np.inf, -np.inf], np.float32)
    assert convert(x, "i32").tolist() == [-2**31] * 3
    assert convert(x, "i8").tolist() == [0, 0, 0]
    assert convert(x, "boolean").tolist() == [True, True, True]


def test_integers_wrap():
    assert convert(np.array([-1], np.int32), "u32").tolist() == [2**32 - 1]
    assert convert(np.array([2**40 + 3], np.int64), "i32").tolist() == [3]
    assert convert(np.array([-8, 7], ml_dtypes.int4), "u8").tolist() == [248, 7]


@pytest.mark.parametrize("src", ["f16", "bf16", "u8", "i8", "u4", "i4"])
def test_weight_decompression_is_exact(src):
    dtype = element_type(src).dtype
    vals = np.array([-8, -1, 0, 1, 7], np.float32) if src in ("i4", "i8", "f16", "bf16") else np.arange(16, dtype=np.float32)
    x = vals.astype(dtype)
    np.testing.assert_array_equal(convert(x, "f32"), vals)


def test_f32_to_f16_rounds_to_nearest_even_and_overflows_to_inf():
    x = np.array([1 + 2**-11, 1 + 3 * 2**-11, 65519.0, 65520.0], np.float32)
    assert convert(x, "f16").astype(np.float64).tolist() == [1.0, 1 + 2**-9, 65504.0, np.inf]


def test_f8_goes_through_f16():
    # 1 + 2^-4 + 2^-20 rounds up to 1.125 in one step, but to 1 + 2^-4 in f16 and then (a tie) to 1.0
    x = np.array([1 + 2**-4 + 2**-20], np.float32)
    assert convert(x, "f8e4m3").astype(np.float32).tolist() == [1.0]


def test_nf4_quantises_to_the_nearest_table_value():
    x = np.concatenate([NF4, NF4[:-1] + np.diff(NF4) * 0.49, [np.nan]]).astype(np.float32)
    codes = convert(x, "nf4").astype(np.int64)
    assert codes.tolist() == list(range(16)) + list(range(15)) + [0]
    np.testing.assert_array_equal(nf4_decode(codes[:16]), NF4)
