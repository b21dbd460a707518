"""Pooling checks the generic oracle runners cannot express: the spec's examples computed by hand,
and the configurations OpenVINO's CPU plugin has no kernel for, checked against it another way
(integer AvgPool-16 through AvgPool-14 and through f32; AdaptiveMaxPool's default i64 indices
through i32; empty dilations through explicit ones)."""
from __future__ import annotations

import numpy as np
import pytest

import opref
from oracles import ov_run

SPEC = np.array([[[[-1, 2, 3], [4, 5, -6], [-7, 8, 9]]]], np.float32)
NINE = np.arange(1, 10, dtype=np.float32).reshape(1, 1, 3, 3)


def _max8(x, **attrs):
    base = {"strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0], "kernel": [2, 2]}
    return opref.run_op("MaxPool-8", [x], {**base, **attrs})


def test_spec_example_valid_1d():
    x = np.array([[[-1, 2, 3, 5, -7, 9, 1]]], np.float32)
    values, idx = opref.run_op("MaxPool-8", [x], {"strides": [1], "pads_begin": [0], "pads_end": [0],
                                                  "kernel": [3], "auto_pad": "valid"})
    np.testing.assert_array_equal(values[0, 0], [3, 5, 5, 9, 9])
    np.testing.assert_array_equal(idx[0, 0], [2, 3, 3, 5, 5])


def test_spec_example_same_lower():
    values, idx = _max8(SPEC, auto_pad="same_lower")
    np.testing.assert_array_equal(values[0, 0], [[-1, 2, 3], [4, 5, 5], [4, 8, 9]])
    np.testing.assert_array_equal(idx[0, 0], [[0, 1, 2], [3, 4, 4], [3, 7, 8]])


def test_spec_example_dilated_and_ceil_torch():
    values, idx = _max8(NINE, pads_begin=[1, 1], pads_end=[1, 1], dilations=[2, 2])
    np.testing.assert_array_equal(values[0, 0], [[5, 6, 5], [8, 9, 8], [5, 6, 5]])
    np.testing.assert_array_equal(idx[0, 0], [[4, 5, 4], [7, 8, 7], [4, 5, 4]])
    values, idx = opref.run_op("MaxPool-14", [NINE], {"strides": [2, 2], "pads_begin": [1, 1], "pads_end": [1, 1],
                                                      "kernel": [2, 2], "rounding_type": "ceil_torch"})
    np.testing.assert_array_equal(values[0, 0], [[1, 3], [7, 9]])
    np.testing.assert_array_equal(idx[0, 0], [[0, 2], [6, 8]])


def test_spec_example_axis_2():
    x = np.arange(1, 19, dtype=np.float32).reshape(1, 2, 3, 3)
    values, idx = _max8(x, axis=2)
    np.testing.assert_array_equal(values[0], [[[5, 6], [8, 9]], [[14, 15], [17, 18]]])
    np.testing.assert_array_equal(idx[0], [[[4, 5], [7, 8]], [[4, 5], [7, 8]]])


def test_avg_pool_counts_by_hand():
    ones = np.ones((1, 1, 3, 3), np.float32)
    attrs = {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1], "kernel": [3, 3]}
    excl = opref.run_op("AvgPool-1", [ones], {**attrs, "exclude-pad": True})[0]
    incl = opref.run_op("AvgPool-1", [ones], {**attrs, "exclude-pad": False})[0]
    np.testing.assert_array_equal(excl, np.ones((1, 1, 3, 3)))
    # including padding: data positions covered / 9
    np.testing.assert_allclose(incl[0, 0], np.array([[4, 6, 4], [6, 9, 6], [4, 6, 4]]) / 9, rtol=1e-6)


@pytest.mark.parametrize("n", [1, 2])
def test_avg_pool_window_without_data_gives_0(n):
    """With exclude-pad, rounding up can leave a window with no data at all: OpenVINO's reference gives
    0 (its CPU plugin gives -0 for 1-D data and NaN for 2-D)."""
    x = np.arange(1, 1 + 3 ** n, dtype=np.float32).reshape((1, 1) + (3,) * n)
    attrs = {"strides": [2] * n, "pads_begin": [1] * n, "pads_end": [1] * n, "kernel": [2] * n,
             "exclude-pad": True, "rounding_type": "ceil"}
    out = opref.run_op("AvgPool-1", [x], attrs)[0]
    assert out.shape == (1, 1) + (3,) * n
    np.testing.assert_array_equal(out[(0, 0) + (2,) * n], 0)
    np.testing.assert_array_equal(out[(0, 0) + (0,) * n], 1)


def test_adaptive_bins_by_hand():
    x = np.arange(5, dtype=np.float32).reshape(1, 1, 5)
    # 5 -> 3 bins: [0, 2), [1, 4), [3, 5)
    np.testing.assert_allclose(opref.run_op("AdaptiveAvgPool-8", [x, np.array([3])])[0][0, 0], [0.5, 2, 3.5])
    values, idx = opref.run_op("AdaptiveMaxPool-8", [x, np.array([3])])
    np.testing.assert_array_equal(values[0, 0], [1, 3, 4])
    np.testing.assert_array_equal(idx[0, 0], [1, 3, 4])


# --- configurations the CPU plugin has no kernel for, checked against it another way ----------------
RNG = np.random.default_rng(7)
INT_TYPES = (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64)
GEOMETRIES = [
    {"kernel": [2, 2], "strides": [1, 2], "pads_begin": [1, 0], "pads_end": [0, 1], "auto_pad": "explicit"},
    {"kernel": [3], "strides": [2], "pads_begin": [1], "pads_end": [1], "auto_pad": "explicit",
     "rounding_type": "ceil"},
    {"kernel": [1, 2, 2], "strides": [3, 1, 2], "pads_begin": [0, 0, 1], "pads_end": [0, 1, 1],
     "auto_pad": "explicit"},
    {"kernel": [2, 3], "strides": [2, 1], "pads_begin": [0, 0], "pads_end": [0, 0], "auto_pad": "same_upper"},
    {"kernel": [3, 2], "strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0], "auto_pad": "valid",
     "rounding_type": "ceil_torch"},
]


def _data(dtype, n):
    shape = (2, 3) + (5, 6, 4)[:n]
    lo = 0 if np.dtype(dtype).kind == "u" else -50
    return RNG.integers(lo, 50, shape).astype(dtype)


@pytest.mark.parametrize("exclude", [True, False])
@pytest.mark.parametrize("geometry", GEOMETRIES, ids=lambda g: f"{len(g['kernel'])}d_{g['auto_pad']}")
@pytest.mark.parametrize("dtype", INT_TYPES, ids=lambda t: np.dtype(t).name)
def test_integer_avg_pool_16_matches_avg_pool_14(dtype, geometry, exclude):
    """Integer AvgPool-16 without dilations is AvgPool-14, which the CPU plugin runs."""
    x = _data(dtype, len(geometry["kernel"]))
    attrs = {"exclude-pad": exclude, **geometry}
    ours = opref.run_op("AvgPool-16", [x], {**attrs, "dilations": [1] * len(geometry["kernel"])})[0]
    theirs = ov_run("AvgPool-14", [x], attrs)[0]
    np.testing.assert_array_equal(ours, theirs.astype(ours.dtype), strict=True)


@pytest.mark.parametrize("dtype", INT_TYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("geometry", GEOMETRIES, ids=lambda g: f"{len(g['kernel'])}d_{g['auto_pad']}")
def test_dilated_integer_avg_pool_16_matches_f32_rounded(dtype, geometry):
    """The mean of integers rounded half to even: OpenVINO's f32 mean, rounded."""
    n = len(geometry["kernel"])
    x = _data(dtype, n)
    attrs = {"exclude-pad": True, **geometry, "dilations": [2, 1, 1][:n]}
    ours = opref.run_op("AvgPool-16", [x], attrs)[0]
    theirs = ov_run("AvgPool-16", [x.astype(np.float32)], attrs)[0]
    np.testing.assert_array_equal(ours, np.rint(theirs).astype(ours.dtype), strict=True)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_adaptive_max_pool_i64_indices_match_i32(n):
    x = RNG.standard_normal((2, 3) + (7, 5, 4)[:n]).astype(np.float32)
    size = np.array([3, 4, 2][:n])
    values, idx64 = opref.run_op("AdaptiveMaxPool-8", [x, size])              # i64, the default
    ov_values, ov_idx32 = ov_run("AdaptiveMaxPool-8", [x, size], {"index_element_type": "i32"})
    assert idx64.dtype == np.int64
    np.testing.assert_array_equal(values, ov_values)
    np.testing.assert_array_equal(idx64, ov_idx32.astype(np.int64))


@pytest.mark.parametrize("op", ["MaxPool-8", "MaxPool-14", "AvgPool-16"])
def test_empty_dilations_are_ones(op):
    """OpenVINO's shape inference takes dilations="" as ones (its default); its CPU plugin does not
    compile such a node, so the equivalence is checked here and the ones are checked against it."""
    x = RNG.standard_normal((1, 2, 6, 5)).astype(np.float32)
    attrs = {"strides": [2, 1], "pads_begin": [1, 0], "pads_end": [0, 1], "kernel": [3, 2]}
    if op == "AvgPool-16":
        attrs["exclude-pad"] = True
    empty = opref.run_op(op, [x], {**attrs, "dilations": []})
    ones = opref.run_op(op, [x], {**attrs, "dilations": [1, 1]})
    for a, b in zip(empty, ones):
        np.testing.assert_array_equal(a, b, strict=True)
    theirs = ov_run(op, [x], {**attrs, "dilations": [1, 1]})
    np.testing.assert_allclose(ones[0], theirs[0], rtol=1e-6)


def test_avg_pool_sums_the_same_on_the_grid_and_per_tap(monkeypatch):
    """AvgPool sums on the stride-split grid, or per tap over strided views where the grid would be mostly
    unused (global pooling): both give the same bits (the same order of additions) on every AvgPool case."""
    from opref.conformance.cases import all_cases
    from opref.opset.registry import get_schema
    from opref.runtime.kernels import pooling
    from opref.runtime.ops import as_keywords
    cases = [c for c in all_cases() if c.op.startswith("AvgPool") and c.error is None]
    assert len(cases) >= 300
    for c in cases:
        kw = as_keywords(get_schema(c.op).bind_attrs(c.attrs))
        got = []
        for waste in (10 ** 9, 0):                      # always the grid; always per tap
            monkeypatch.setattr(pooling, "GRID_WASTE", waste)
            got.append(pooling.KERNELS[c.op](*c.inputs, **kw))
        assert got[0].dtype == got[1].dtype and got[0].shape == got[1].shape, c.name
        assert got[0].tobytes() == got[1].tobytes(), c.name


def test_global_avg_pool_against_openvino():
    """A global 7x7 AvgPool (ResNet's head), which sums per tap: equal to OpenVINO's, bit for bit."""
    x = np.random.default_rng(3).standard_normal((1, 512, 7, 7)).astype(np.float32)
    attrs = {"kernel": [7, 7], "strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0], "exclude-pad": True,
             "rounding_type": "floor"}
    got = opref.run_op("AvgPool-1", [x], attrs)[0]
    want = ov_run("AvgPool-1", [x], attrs)[0]
    assert got.dtype == want.dtype and got.shape == want.shape == (1, 512, 1, 1)
    np.testing.assert_array_equal(got, want)
