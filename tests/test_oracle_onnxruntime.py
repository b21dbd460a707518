"""Cases of ops with an ONNX equivalent (conformance/onnx_export.py) against onnxruntime:
DepthToSpace DCR/CRD, SpaceToDepth, Col2Im-18 (batched-only, int64 sizes: unbatched and int32
cases are adapted). The convolution ops are checked in tests/test_convolution.py."""
from __future__ import annotations

import dataclasses

import numpy as np
import onnxruntime as ort
import pytest

import opref
from opref.conformance.cases import all_cases
from opref.conformance.compare import EXACT_CATEGORIES, mismatch
from opref.conformance.onnx_export import export, onnx_model

# onnxruntime's CPU kernels: DepthToSpace/SpaceToDepth take f32/f64 (and f16 for DepthToSpace in some
# builds); Col2Im takes f32. Other element types have no onnxruntime kernel to compare with.
ORT_TYPES = {"DepthToSpace-1": ("float32", "float64"), "SpaceToDepth-1": ("float32", "float64"),
             "Col2Im-15": ("float32",)}

def _as_f32(case):
    """The case with its data widened to f32 (lossless for the small values the tables hold), so every
    sampled shape and attribute choice meets onnxruntime, whatever the case's own element type."""
    x = case.inputs[0]
    if x.dtype.kind in "Ub" or opref.types.element_type(x).bits < 8:
        return case
    return dataclasses.replace(case, inputs=(x.astype(np.float32),) + case.inputs[1:])


CASES = [c for c in map(_as_f32, all_cases()) if c.error is None and c.op in ORT_TYPES
         and str(c.inputs[0].dtype) in ORT_TYPES[c.op] and export(c.op, c.inputs, c.attrs) is not None]


def test_enough_onnxruntime_cases():
    for op in ORT_TYPES:
        assert sum(c.op == op for c in CASES) >= 20, op


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_values_match_onnxruntime(case):
    attrs = opref.get_schema(case.op).bind_attrs(case.attrs)
    onnx_op = export(case.op, case.inputs, attrs)
    session = ort.InferenceSession(onnx_model(onnx_op).SerializeToString(), providers=["CPUExecutionProvider"])
    feeds = {f"x{i}": a for i, a in enumerate(onnx_op.inputs)}
    theirs = onnx_op.output(session.run(None, feeds)[0])
    (ours,) = opref.run_op(case.op, case.inputs, case.attrs)
    exact = case.exact if case.exact is not None else opref.get_schema(case.op).category in EXACT_CATEGORIES
    problem = mismatch(theirs, ours, exact=exact, scale=float(np.abs(case.inputs[0]).max(initial=1.0)))
    assert problem is None, f"{case.name}: opref gives {problem}"
