"""Arithmetic checks the generic oracle runners cannot express: the specs' own examples, integer
wrap-around where OpenVINO has no faithful oracle (its CPU plugin saturates, its reference computes
through double), exact float remainders where the CPU plugin is lossy, and erf/erfinv against
Python's math module. Expected values are computed here from Python integers and math, never
copied from opref's output."""
from __future__ import annotations

import math

import numpy as np
import pytest

import opref
from opref.opset.families import broadcast_shapes
from opref.shapes import PartialShape


def run(op, *inputs, **attrs):
    return opref.run_op(op, inputs, attrs)[0]


def test_round_spec_example():
    x = np.array([-4.5, -1.9, -1.5, 0.5, 0.9, 1.5, 2.3, 2.5], np.float32)
    assert run("Round-5", x, mode="half_to_even").tolist() == [-4, -2, -2, 0, 1, 2, 2, 2]
    assert run("Round-5", x, mode="half_away_from_zero").tolist() == [-5, -2, -2, 1, 1, 2, 2, 3]


@pytest.mark.parametrize("exclusive,reverse,expected", [
    (False, False, [1, 3, 6, 10, 15]), (True, False, [0, 1, 3, 6, 10]),
    (False, True, [15, 14, 12, 9, 5]), (True, True, [14, 12, 9, 5, 0])])
def test_cumsum_spec_examples(exclusive, reverse, expected):
    x = np.array([1, 2, 3, 4, 5], np.float32)
    assert run("CumSum-3", x, np.array(0, np.int64), exclusive=exclusive, reverse=reverse).tolist() == expected


def test_cumsum_default_axis_is_0():
    x = np.array([[1, 2], [3, 4]], np.int32)
    assert run("CumSum-3", x).tolist() == [[1, 2], [4, 6]]


@pytest.mark.parametrize("dtype", [np.float16, np.float64, np.int64, np.int16, np.uint32, np.uint64])
def test_segment_max_lowest_is_the_lowest_of_the_type(dtype):
    """OpenVINO's CPU plugin fills with f32's/i32's lowest converted (-inf for f16); the spec: T's lowest."""
    data = np.array([3, 1, 2], dtype)
    lowest = np.finfo(dtype).min if np.dtype(dtype).kind == "f" else np.iinfo(dtype).min
    got = run("SegmentMax-16", data, np.array([0, 0, 2]), fill_mode="lowest")
    assert got.tolist() == [3, lowest, 2] and got.dtype == dtype


def test_segment_max_spec_example():
    data = np.array([1, 5, 2, 7, 3, 9, 4, 8], np.float32)
    ids = np.array([0, 0, 0, 1, 1, 3, 5, 5])
    assert run("SegmentMax-16", data, ids, fill_mode="zero").tolist() == [5, 7, 0, 9, 0, 8]
    lowest = float(np.finfo(np.float32).min)
    assert run("SegmentMax-16", data, ids, fill_mode="lowest").tolist() == [5, 7, lowest, 9, lowest, 8]


def test_integer_division_and_remainders_round_as_the_specs_say():
    a = np.array([-7, 7, -7, 7], np.int32)
    b = np.array([2, 2, -2, -2], np.int32)
    assert run("Divide-1", a, b, m_pythondiv=True).tolist() == [x // y for x, y in zip(a.tolist(), b.tolist())]
    assert run("Divide-1", a, b, m_pythondiv=False).tolist() == [int(x / y) for x, y in zip(a.tolist(), b.tolist())]
    assert run("Mod-1", a, b).tolist() == [int(math.fmod(x, y)) for x, y in zip(a.tolist(), b.tolist())]
    assert run("FloorMod-1", a, b).tolist() == [x % y for x, y in zip(a.tolist(), b.tolist())]


def test_float_mod_is_exact_where_the_cpu_plugin_is_lossy():
    a = np.array([1e30, 5.3, -1e30, 7.0], np.float32)
    b = np.array([3.3, 0.1, 3.3, -0.75], np.float32)
    fa, fb = a.astype(np.float64).tolist(), b.astype(np.float64).tolist()
    assert run("Mod-1", a, b).tolist() == [np.float32(math.fmod(x, y)) for x, y in zip(fa, fb)]
    assert run("FloorMod-1", a, b).tolist() == [np.float32(x % y) for x, y in zip(fa, fb)]


def test_floor_mod_of_int64_extremes():
    lo, hi = -2**63, 2**63 - 1
    a = np.array([lo, lo, hi, 7, -7], np.int64)
    b = np.array([7, hi, lo, lo, hi], np.int64)
    assert run("FloorMod-1", a, b).tolist() == [x % y for x, y in zip(a.tolist(), b.tolist())]
    assert run("Mod-1", a, b).tolist() == [(abs(x) % abs(y)) * (1 if x >= 0 else -1)
                                           for x, y in zip(a.tolist(), b.tolist())]


def _wrap(v, bits, signed=True):
    v %= 2**bits
    return v - 2**bits if signed and v >= 2**(bits - 1) else v


def test_maximum_minimum_nan_follow_std_max_min():
    """compare.py treats NaN against a number as a match, so the routed NaN cases cannot show this."""
    a = np.array([np.nan, 1.0, np.nan, 0.0], np.float32)
    b = np.array([1.0, np.nan, np.nan, -0.0], np.float32)
    mx, mn = run("Maximum-1", a, b), run("Minimum-1", a, b)
    assert np.isnan(mx[0]) and mx[1] == 1 and np.isnan(mx[2]) and mx[3] == 0 and not np.signbit(mx[3])
    assert np.isnan(mn[0]) and mn[1] == 1 and np.isnan(mn[2]) and mn[3] == 0 and not np.signbit(mn[3])


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_maximum_minimum_equal_a_transcription_of_std_max_min(dtype):
    """Element by element, y if x < y else x (Minimum: y if y < x else x), on NaN, signed zeros, infinities and
    broadcast operands of every order, bit for bit."""
    special = [np.nan, -np.nan, 0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, 2.5]
    x = np.array([a for a in special for _ in special], dtype)
    y = np.array([b for _ in special for b in special], dtype)
    for op, pick in (("Maximum-1", lambda a, b: b if a < b else a), ("Minimum-1", lambda a, b: b if b < a else a)):
        got = run(op, x, y)
        want = np.array([pick(a, b) for a, b in zip(x.tolist(), y.tolist())], dtype)
        assert got.dtype == dtype and got.view(f"u{got.itemsize}").tolist() == want.view(f"u{got.itemsize}").tolist()
        col, row = x[:9].reshape(9, 1), y[:9].reshape(1, 9)          # broadcast [9,1] with [1,9]
        got = run(op, col, row)
        want = np.array([[pick(a, b) for b in row[0].tolist()] for a in col[:, 0].tolist()], dtype)
        assert got.shape == (9, 9) and np.array_equal(got, want, equal_nan=True)
        assert np.signbit(got).tolist() == np.signbit(want).tolist()
        assert run(op, np.array(-0.0, dtype), np.array(0.0, dtype)).shape == ()


def test_integer_results_wrap():
    a = np.array([127, -128, 100, 0], np.int8)
    b = np.array([-128, 127, -100, 255 - 256], np.int8)
    py = list(zip(a.tolist(), b.tolist()))
    assert run("SquaredDifference-1", a, b).tolist() == [_wrap((x - y) ** 2, 8) for x, y in py]
    assert run("Add-1", a, b).tolist() == [_wrap(x + y, 8) for x, y in py]
    assert run("Multiply-1", a, b).tolist() == [_wrap(x * y, 8) for x, y in py]
    u = np.array([0, 1, 3], np.uint8)
    v = np.array([1, 3, 0], np.uint8)
    assert run("SquaredDifference-1", u, v).tolist() == [_wrap((x - y) ** 2, 8, False) for x, y in zip([0, 1, 3], [1, 3, 0])]
    assert run("Negative-1", u).tolist() == [_wrap(-x, 8, False) for x in [0, 1, 3]]
    assert run("Abs-1", np.array([-2**31], np.int32)).tolist() == [-2**31]


def test_integer_power_wraps_and_truncates_negative_exponents():
    base = np.array([3, -3, 7, 2, 1, -1, -1, 0], np.int32)
    exp = np.array([40, 41, 13, -1, -5, -5, -4, 3], np.int32)
    expected = [_wrap(x ** y, 32) if y >= 0 else int(1 / x ** -y) for x, y in zip(base.tolist(), exp.tolist())]
    assert run("Power-1", base, exp).tolist() == expected


def test_erf_and_erfinv_against_math():
    x = np.concatenate([np.linspace(-6.5, 6.5, 261), [0.0, -0.0, 1e-300, 0.3]])
    want = np.array([math.erf(v) for v in x])
    got = run("Erf-1", x)
    assert np.max(np.abs(got - want) / np.maximum(np.abs(want), 1e-300)) < 1e-14
    y = np.linspace(-0.999999, 0.999999, 201)
    inv = run("ErfInv-17", y)
    assert np.max(np.abs(np.array([math.erf(v) for v in inv]) - y)) < 1e-15
    edge = run("ErfInv-17", np.array([1.0, -1.0, 1.5, np.nan, 0.0], np.float32))
    assert edge[0] == np.inf and edge[1] == -np.inf and np.isnan(edge[2]) and np.isnan(edge[3]) and edge[4] == 0


def test_erfinv_f64_keeps_its_precision_next_to_plus_minus_one():
    """Near +-1 erf rounds to 1: ErfInv solves erfc(y) = 1 - |x| instead (1 - |x| is exact), checked with the C
    library's erfc. (Newton steps on erf(y) = x alone gave erfinv(1 - 2^-53) = 5.46 for 5.86.)"""
    gaps = np.concatenate([np.logspace(-16, -1, 400), [2.0 ** -53, 2.0 ** -52, 0.5]])
    x = np.concatenate([1 - gaps, -(1 - gaps)])
    y = run("ErfInv-17", x)
    gap = 1 - np.abs(x)                       # (exact: |x| >= 1/2)
    got = np.array([math.erfc(abs(v)) for v in y])
    assert np.all(np.abs(got - gap) <= 1e-13 * gap)
    assert np.all(np.sign(y) == np.sign(x))


def test_erf_within_2_ulps_of_math_over_several_blocks():
    """Erf-1 and Gelu share one erf, computed ERF_BLOCK elements at a time: a grid of three blocks and more,
    with the non-finite values in the last block."""
    x = np.concatenate([np.linspace(-7, 7, 30001), [np.inf, -np.inf, np.nan, -0.0, 5e-324]])
    got = run("Erf-1", x)
    want = np.array([math.erf(v) for v in x])
    finite = np.isfinite(want)
    assert np.all(np.abs(got - want)[finite] <= 2 * np.spacing(np.abs(want[finite]))), "more than 2 ulps"
    assert got[-5] == 1 and got[-4] == -1 and np.isnan(got[-3]) and np.signbit(got[-2]) and got[-1] == want[-1]


@pytest.mark.parametrize("a,b,axis,expected", [
    ("2,3,4,5", "3,4", -1, None),              # the spec's axis -1 right-aligns b: (3,4) vs (4,5) fails
    ("2,3,4,5", "4,5", -1, "[2,3,4,5]"),
    ("2,3,4,5", "5", -1, "[2,3,4,5]"),
    ("2,3,4,5", "3,1", 1, "[2,3,4,5]"),
    ("2,3,4,5", "2,1", 0, "[2,3,4,5]"),
    ("2,3,4,5", "3,4", 0, None),
    ("2,?,4", "2,3", 0, "[2,3,4]"),
    ("2,3", "2,3,4", 0, None),
])
def test_pdpd_broadcast_axes(a, b, axis, expected):
    """pdpd places b at `axis` of a (OpenVINO's IR default 0; the spec's default -1 right-aligns)."""
    if expected is None:
        with pytest.raises(opref.OprefError, match="auto_broadcast=pdpd"):
            broadcast_shapes("Add-1", PartialShape(a), PartialShape(b), "pdpd", axis)
    else:
        assert str(broadcast_shapes("Add-1", PartialShape(a), PartialShape(b), "pdpd", axis)) == expected


def test_per_channel_broadcast_runs_with_a_row_long_buffer():
    """A binary op broadcast along trailing axes (a per-channel bias over [N, C, H, W]) runs with NumPy's ufunc
    buffer one row long (kernels/_elementwise.row_buffer): the same bits as plain NumPy, the buffer size restored
    afterwards, also when the kernel raises; equal shapes, small arrays and short rows keep NumPy's default."""
    from opref.runtime.kernels import KERNELS
    from opref.runtime.kernels._elementwise import binary, row_buffer
    rng = np.random.default_rng(5)
    default = np.getbufsize()
    x = rng.standard_normal((1, 64, 55, 55)).astype(np.float32)
    b = rng.standard_normal((1, 64, 1, 1)).astype(np.float32)
    assert row_buffer(x, b) == row_buffer(b, x) == 3040
    assert row_buffer(x, x) == 0 and row_buffer(x[:, :4], b[:, :4]) == 0                  # equal; small
    assert row_buffer(np.ones((1, 2048, 7, 7)), np.ones((1, 2048, 1, 1))) == 0           # rows of 49
    assert row_buffer(x, rng.standard_normal((1, 1, 55, 1)).astype(np.float32)) == 0    # not along trailing axes
    for op, fn in (("Add-1", np.add), ("Multiply-1", np.multiply), ("Subtract-1", np.subtract)):
        got = KERNELS[op](x, b, auto_broadcast="numpy")
        assert got.tobytes() == fn(x, b).tobytes() and np.getbufsize() == default, op

    def fails(a, b):
        raise ZeroDivisionError
    with pytest.raises(ZeroDivisionError):
        binary(fails)(x, b, auto_broadcast="numpy")
    assert np.getbufsize() == default
