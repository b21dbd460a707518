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


# --- ConvertPromoteTypes-14: the spec's examples (types as its text gives them) ----------------------
def promoted(a, b, *, shapes=((2,), (2,)), **attrs):
    x = np.zeros(shapes[0], element_type(a).dtype)
    y = np.zeros(shapes[1], element_type(b).dtype)
    out = opref.run_op("ConvertPromoteTypes-14", [x, y], attrs)
    assert element_type(out[0]).name == element_type(out[1]).name
    assert out[0].shape == shapes[0] and out[1].shape == shapes[1]
    return element_type(out[0]).name


@pytest.mark.parametrize("a, b, want", [("i8", "f32", "f32"), ("i32", "u8", "i32")])
def test_promote_types_spec_regular_examples(a, b, want):
    assert promoted(a, b) == want == promoted(b, a)


@pytest.mark.parametrize("a, b, want", [("f16", "i64", "f16"), ("f64", "u64", "f64"), ("i8", "u8", "i16"),
                                        ("f16", "bf16", "f32"), ("f8e4m3", "f8e5m2", "f16"), ("u64", "i8", "f32"),
                                        ("i16", "u32", "i64")])
def test_promote_types_spec_unsafe_examples(a, b, want):
    assert promoted(a, b, promote_unsafe=True) == want == promoted(b, a, promote_unsafe=True)
    with pytest.raises(opref.OprefError, match="ConvertPromoteTypes-14"):
        promoted(a, b)


def test_promote_types_spec_pytorch_examples():
    # S(i64), D(u8) -> u8 (unsafe: the scalar's range exceeds u8); S(f16), D(i8) -> f16 (kinds differ)
    assert promoted("i64", "u8", shapes=((), (3,)), promote_unsafe=True, pytorch_scalar_promotion=True) == "u8"
    assert promoted("f16", "i8", shapes=((), (3,)), pytorch_scalar_promotion=True) == "f16"
    assert promoted("i8", "f16", shapes=((3,), ()), pytorch_scalar_promotion=True) == "f16"
    # both scalars, or both dimensioned: the regular rules
    assert promoted("i64", "u8", shapes=((), ()), pytorch_scalar_promotion=True) == "i64"


def test_promote_types_converts_values():
    x, y = opref.run_op("ConvertPromoteTypes-14", [np.array([-3, 7], np.int8), np.array([0.5], np.float32)])
    assert x.dtype == np.float32 and x.tolist() == [-3.0, 7.0] and y.tolist() == [0.5]
    x, y = opref.run_op("ConvertPromoteTypes-14", [np.array([2**63 + 1], np.uint64), np.array([-1], np.int8)],
                        {"promote_unsafe": True, "u64_integer_promotion_target": "f64"})
    assert x.dtype == np.float64 and x.tolist() == [2.0**63] and y.tolist() == [-1.0]


# --- StringTensorUnpack-15 / StringTensorPack-15: the spec's examples ------------------------------
def unpack(x):
    return opref.run_op("StringTensorUnpack-15", [np.array(x)])


def pack(b, e, symbols):
    return opref.run_op("StringTensorPack-15", [np.array(b), np.array(e), np.frombuffer(symbols, np.uint8)])[0]


def test_unpack_spec_examples():
    b, e, s = unpack(["Intel", "OpenVINO"])
    assert b.tolist() == [0, 5] and e.tolist() == [5, 13] and s.tobytes() == b"IntelOpenVINO"
    assert b.dtype == e.dtype == np.int32 and s.dtype == np.uint8
    b, e, s = unpack(["OMZ", "", "GenAI", " ", "2024"])
    assert b.tolist() == [0, 3, 3, 8, 9] and e.tolist() == [3, 3, 8, 9, 13] and s.tobytes() == b"OMZGenAI 2024"
    b, e, s = unpack([["Intel", "OpenVINO"], ["OMZ", "GenAI"]])
    assert b.tolist() == [[0, 5], [13, 16]] and e.tolist() == [[5, 13], [16, 21]]
    assert s.tobytes() == b"IntelOpenVINOOMZGenAI"


def test_unpack_counts_utf8_bytes():
    b, e, s = unpack(["ü", "日本", "😀"])      # 2, 3 + 3 and 4 bytes
    assert b.tolist() == [0, 2, 8] and e.tolist() == [2, 8, 12]
    assert s.tobytes() == "ü日本😀".encode()


def test_pack_spec_examples():
    assert pack([0, 5], [5, 13], b"IntelOpenVINO").tolist() == ["Intel", "OpenVINO"]
    assert pack([0, 3, 3, 8, 9], [3, 3, 8, 9, 13], b"OMZGenAI 2024").tolist() == ["OMZ", "", "GenAI", " ", "2024"]
    assert pack([0, 8], [1, 9], b"123456789").tolist() == ["1", "9"]
    assert pack([[0, 5], [13, 16]], [[5, 13], [16, 21]], b"IntelOpenVINOOMZGenAI").tolist() == \
        [["Intel", "OpenVINO"], ["OMZ", "GenAI"]]


def test_pack_accepts_ranges_in_any_order_where_openvino_does_not():
    # The spec asks only 0 <= begin <= end <= len(symbols); OpenVINO's shape inference also wants begins
    # and ends ascending (a ShapeCase marks it). opref follows the spec.
    assert pack([6, 0], [9, 3], b"abcdefghi").tolist() == ["ghi", "abc"]
    assert pack([0, 1], [4, 2], b"abcd").tolist() == ["abcd", "b"]


def test_pack_and_unpack_are_inverse_even_when_a_range_cuts_a_character():
    s = pack([0, 1], [1, 3], "üa".encode())        # the first byte of ü alone, then its second byte and 'a'
    b, e, symbols = unpack(s)
    assert symbols.tobytes() == "üa".encode() and b.tolist() == [0, 1] and e.tolist() == [1, 3]
