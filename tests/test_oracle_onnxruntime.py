"""Every value case of an op with an ONNX equivalent (conformance/onnx_export.py: one table per
category) against onnxruntime. An exporter returns None where ONNX or onnxruntime's CPU kernels
have no equivalent for a case (element type, rank, mode), so what is compared is decided in one
place. The convolution ops are checked in tests/test_convolution.py (tolerances scaled by the
reduction)."""
from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest

import opref
from opref.conformance.cases import all_cases
from opref.conformance.compare import EXACT_CATEGORIES, mismatch, without_one_sided_nan
from opref.conformance.onnx_export import export, has_export, onnx_model

OWN_MODULE = ("convolution",)

CASES = [c for c in all_cases() if c.error is None and has_export(c.op)
         and opref.get_schema(c.op).category not in OWN_MODULE and export(c.op, c.inputs, c.attrs) is not None]


def test_enough_onnxruntime_cases():
    ops = {s.versioned_name for s in opref.list_schemas() if has_export(s.versioned_name)
           and s.category not in OWN_MODULE}
    for op in ops:
        assert sum(c.op == op for c in CASES) >= 20, f"{op}: fewer than 20 cases reach onnxruntime"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_values_match_onnxruntime(case):
    onnx_op = export(case.op, case.inputs, case.attrs)
    session = ort.InferenceSession(onnx_model(onnx_op).SerializeToString(), providers=["CPUExecutionProvider"])
    feeds = {f"x{i}": a for i, a in enumerate(onnx_op.inputs)}
    theirs = [onnx_op.output(y) for y in session.run(None, feeds)]
    ours = opref.run_op(case.op, case.inputs, case.attrs)
    exact = case.exact if case.exact is not None else opref.get_schema(case.op).category in EXACT_CATEGORIES
    x = np.abs(np.asarray(onnx_op.inputs[0], np.float64)) if np.asarray(onnx_op.inputs[0]).dtype.kind in "iuf" \
        else np.ones(1)
    scale = float(x[np.isfinite(x)].max(initial=1.0))   # NaN/Inf edge values say nothing about rounding
    skipped = 0
    for k, (t, o) in enumerate(zip(theirs, ours)):
        t = np.asarray(t)
        if t.dtype != o.dtype and o.dtype.kind not in "UT":
            t = t.astype(o.dtype)
        if "onnxruntime" in case.nan_differs:
            t, o, n = without_one_sided_nan(t, o)
            skipped += n
        problem = mismatch(t, o, exact=exact, scale=scale, tolerance=case.tolerance)
        assert problem is None, f"{case.name} output {k}: opref gives {problem}"
    if "onnxruntime" in case.nan_differs:
        assert skipped, f"{case.name}: marked ({case.nan_differs['onnxruntime']}), but onnxruntime now agrees: drop it"
