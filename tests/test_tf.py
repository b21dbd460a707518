"""The `tf` domain against TensorFlow itself: values (exact for data movement, per-dtype tolerance
for the depthwise convolution) and shapes; the shape rules against the shapes the composite
bodies compute."""
from __future__ import annotations

import re

import numpy as np
import pytest

import opref
from opref.conformance.cases import all_cases, all_shape_cases
from opref.conformance.compare import mismatch
from opref.types import element_type
from oracles import tf_run

TF_CASES = [c for c in all_cases() if c.op.startswith("tf.")]
TF_SHAPE_CASES = [c for c in all_shape_cases() if c.op.startswith("tf.")]


def test_every_tf_op_has_cases():
    assert {c.op for c in TF_CASES} == {s.versioned_name for s in opref.list_schemas(domain="tf")}


@pytest.mark.parametrize("case", TF_CASES, ids=lambda c: c.name)
def test_values_match_tensorflow(case):
    (ours,) = opref.run_op(case.op, case.inputs, case.attrs)
    # inputs widened losslessly where the case says why (TensorFlow's kernel for the type depends on the machine)
    inputs = [x.astype(element_type(case.oracle_cast[i]).dtype) if i in case.oracle_cast else x
              for i, x in enumerate(case.inputs)]
    (theirs,) = tf_run(case.op, inputs, case.attrs)
    exact = case.exact is not False
    k = case.inputs[1].shape[0] * case.inputs[1].shape[1] if case.op == "tf.DepthwiseConv2dNative" else 1
    problem = mismatch(theirs.astype(ours.dtype), ours, exact=exact, scale=10.0 * k, tolerance=case.tolerance)
    assert problem is None, f"{case.name}: opref gives {problem}"


@pytest.mark.parametrize("case", TF_SHAPE_CASES, ids=lambda c: c.name)
def test_shape_rule_contains_the_computed_shape(case):
    """The rule on partial shapes must admit the shape that running the body gives on the case's data."""
    value_case = next(c for c in TF_CASES if c.op == case.op and c.id == case.id.split("_", 2)[2])
    (out,) = opref.run_op(value_case.op, value_case.inputs, value_case.attrs)
    (inferred,) = opref.infer_op(case.op, case.inputs, case.attrs)
    assert inferred.shape.compatible(out.shape), f"{case.name}: rule {inferred.shape}, body {list(out.shape)}"
    assert inferred.element_type == opref.types.element_type_of(out)


@pytest.mark.parametrize("op,inputs,attrs,match", [
    ("tf.DepthToSpace", [np.zeros((1, 1, 1, 4), np.float32)], {"block_size": 1}, "block_size must be >= 2"),
    ("tf.DepthToSpace", [np.zeros((1, 1, 1, 6), np.float32)], {"block_size": 2}, "multiple of 4"),
    ("tf.DepthToSpace", [np.zeros((1, 1, 1, 1, 4), np.float32)], {"block_size": 2, "data_format": "NCHW_VECT_C"},
     "int8"),
    ("tf.DepthToSpace", [np.zeros((1, 1, 1, 4), np.float32)], {"block_size": 2, "data_format": "CHWN"},
     "'data_format'"),
    ("tf.SpaceToBatchND", [np.zeros((1, 3, 1)), np.array([2]), np.array([[0, 0]])], {}, "multiple of 2"),
    ("tf.SpaceToBatchND", [np.zeros((1, 4, 1)), np.array([2]), np.array([[0, 0], [0, 0]])], {}, "shape [M, 2]"),
    ("tf.SpaceToBatchND", [np.zeros((1, 4, 1)), np.array([0]), np.array([[0, 0]])], {}, "block_shape values must be >= 1"),
    ("tf.SpaceToBatchND", [np.zeros((1, 4, 1)), np.array([2]), np.array([[-1, 1]])], {}, "paddings values must be >= 0"),
    ("tf.BatchToSpaceND", [np.zeros((3, 1, 1)), np.array([2]), np.array([[0, 0]])], {}, "multiple of 2"),
    ("tf.BatchToSpaceND", [np.zeros((2, 1, 1)), np.array([2]), np.array([[2, 1]])], {}, "crops[0] sum 3"),
    ("tf.DepthwiseConv2dNative", [np.zeros((1, 3, 3, 2), np.float32), np.zeros((2, 2, 3, 1), np.float32)],
     {"strides": [1, 1, 1, 1], "padding": "VALID"}, "input depth 2 must equal filter in_channels 3"),
    ("tf.DepthwiseConv2dNative", [np.zeros((1, 3, 3, 2), np.float32), np.zeros((2, 2, 2, 1), np.float32)],
     {"strides": [2, 1, 1, 1], "padding": "VALID"}, "batch and depth dimensions must be 1"),
    ("tf.DepthwiseConv2dNative", [np.zeros((1, 3, 3, 2), np.int32), np.zeros((2, 2, 2, 1), np.int32)],
     {"strides": [1, 1, 1, 1], "padding": "VALID"}, "expected one of f16, bf16, f32, f64"),
    ("tf.DepthwiseConv2dNative", [np.zeros((1, 3, 3, 2), np.float32), np.zeros((2, 2, 2, 1), np.float32)],
     {"strides": [1, 1, 1, 1], "padding": "EXPLICIT"}, "'padding'"),
])
def test_tf_errors(op, inputs, attrs, match):
    with pytest.raises(opref.OprefError, match=re.escape(match)):
        opref.run_op(op, inputs, attrs)
