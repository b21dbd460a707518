"""ScaledDotProductAttention-13 checks the generic runners cannot make: an empty key sequence (the
CPU plugin fails or returns uninitialised memory and OpenVINO has no reference evaluate), and small
hand-computed cases of the spec's pseudo-code."""
from __future__ import annotations

import numpy as np
import pytest

import opref

OP = "ScaledDotProductAttention-13"


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_empty_key_sequence_gives_zeros(causal, dtype):
    # softmax over no keys weighs nothing: each output is an empty sum
    q, k, v = np.ones((2, 3, 4), dtype), np.ones((2, 0, 4), dtype), np.ones((2, 0, 5), dtype)
    (y,) = opref.run_op(OP, [q, k, v], {"causal": causal})
    np.testing.assert_array_equal(y, np.zeros((2, 3, 5), dtype), strict=True)


def test_equal_keys_average_the_values():
    q = np.array([[[1.0, 2.0]]], np.float32)
    k = np.zeros((1, 3, 2), np.float32)                 # all logits equal -> uniform weights
    v = np.array([[[3.0], [6.0], [9.0]]], np.float32)
    (y,) = opref.run_op(OP, [q, k, v], {"causal": False})
    np.testing.assert_allclose(y, [[[6.0]]], rtol=1e-6)


def test_causal_first_query_sees_only_the_first_key():
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((1, 3, 2)).astype(np.float32) for _ in range(3))
    (y,) = opref.run_op(OP, [q, k, v], {"causal": True})
    np.testing.assert_allclose(y[0, 0], v[0, 0], rtol=1e-6)
    # the mask input is ignored when causal
    (y2,) = opref.run_op(OP, [q, k, v, np.zeros((3, 3), bool)], {"causal": True})
    np.testing.assert_array_equal(y, y2)


def test_boolean_mask_false_excludes_and_scale_applies():
    q = np.array([[[1.0]]], np.float32)
    k = np.array([[[1.0], [2.0]]], np.float32)
    v = np.array([[[10.0], [20.0]]], np.float32)
    (y,) = opref.run_op(OP, [q, k, v, np.array([[True, False]])], {"causal": False})
    np.testing.assert_allclose(y, [[[10.0]]])
    # logits [1, 2] * scale ln(3) -> weights [1/4, 3/4] (e^(ln3) = 3)
    (y,) = opref.run_op(OP, [q, k, v, np.float32(0), np.float32(np.log(3))], {"causal": False})
    np.testing.assert_allclose(y, [[[17.5]]], rtol=1e-6)


def test_fully_masked_row_is_nan():
    q = k = v = np.ones((1, 2, 2), np.float32)
    (y,) = opref.run_op(OP, [q, k, v, np.array([[False, False], [True, True]])], {"causal": False})
    assert np.isnan(y[0, 0]).all() and np.allclose(y[0, 1], 1.0)
