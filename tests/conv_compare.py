"""How the convolution-family tests compare opref with an oracle: values exactly for integers, for floats
within a per-type tolerance whose atol grows with the square root of the reduction size K (the
number of products each output sums); shapes and rejections against OpenVINO's own shape inference."""
from __future__ import annotations

import math

import numpy as np
import pytest

import opref
from opref.types import element_type
from oracles import ov_infer, ov_run

# (rtol, atol per sqrt(K)) by element type. Narrow floats sum in f32 and round once, like OpenVINO: they may
# differ by one unit in the last place of the output where the f32 sums straddle a rounding boundary. f64:
# the CPU plugin computes f64 in f32, so it is held to f32's tolerance (f64-only precision is checked
# against exact direct sums).
TOLERANCE = {"f64": (1e-5, 1e-5), "f32": (1e-5, 1e-5), "f16": (1e-3, 1e-3), "bf16": (8e-3, 8e-3),
             "f8e4m3": (0.125, 0.125), "f8e5m2": (0.25, 0.25)}


def compare(case, got, want, what, reduction: int) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape, \
        f"{case.name}: {what} gave {want.dtype}{list(want.shape)}, opref {got.dtype}{list(got.shape)}"
    et = element_type(got.dtype)
    if not et.is_float:
        np.testing.assert_array_equal(got, want, strict=True, err_msg=f"{case.name} vs {what}")
        return
    rtol, atol = TOLERANCE[et.name]
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol,
                               atol=atol * max(1.0, math.sqrt(reduction)), err_msg=f"{case.name} vs {what}")


def opref_shape(case):
    """opref's inferred output shape as OpenVINO prints it, or its OprefError."""
    try:
        return str(opref.infer_op(case.op, case.inputs, case.attrs)[0].shape)
    except opref.OprefError as e:
        return e


def ov_shape(case):
    """OpenVINO's inferred output shape, or its own error (C++ exceptions reach Python as RuntimeError)."""
    try:
        return ov_infer(case.op, case.inputs, case.attrs)[0][0]
    except RuntimeError as e:
        return e


def openvino_error(case) -> str:
    """OpenVINO's own error for a case (its C++ exceptions reach Python as RuntimeError naming the source
    file); an error opref raises while writing the oracle's model is a failure, not a rejection."""
    try:
        ov_run(case.op, case.inputs, case.attrs)
    except opref.OprefError as e:
        pytest.fail(f"{case.name}: opref could not build OpenVINO's model ({e}); OpenVINO was not asked")
    except RuntimeError as e:
        return str(e)
    pytest.fail(f"{case.name}: OpenVINO accepts what opref rejects")
