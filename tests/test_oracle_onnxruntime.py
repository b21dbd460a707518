"""Every value case of an op with an ONNX equivalent (conformance/onnx_export.py: one table per
category) against onnxruntime. Every such case is collected: the exportable ones run, the others are
reported as skipped "no ONNX form: <reason>" (the exporter's `Unsupported`, or a generic reason naming
the op, element types and attributes where it returns a bare None), and conftest.py prints the counts
per reason and per op at the end of the run. The convolution ops are checked in tests/test_convolution.py
(tolerances scaled by the reduction) and are reported here as such."""
from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest

import opref
from opref.conformance.cases import all_cases
from opref.conformance.compare import EXACT_CATEGORIES, mismatch, without_one_sided_nan
from opref.conformance.onnx_export import Unsupported, explain, has_export, onnx_model

OWN_MODULE = ("convolution",)
OWN_MODULE_REASON = Unsupported("checked against onnxruntime in tests/test_convolution.py")


def _outcome(case):
    """The case's ONNX node or why it has none: one exporter call per case, at collection."""
    if opref.get_schema(case.op).category in OWN_MODULE:
        return OWN_MODULE_REASON
    return explain(case.op, case.inputs, case.attrs)


ALL = [(c, _outcome(c)) for c in all_cases() if c.error is None and has_export(c.op)]
CASES = [c for c, o in ALL if not isinstance(o, Unsupported)]


def test_enough_onnxruntime_cases():
    ops = {s.versioned_name for s in opref.list_schemas() if has_export(s.versioned_name)
           and s.category not in OWN_MODULE}
    for op in ops:
        assert sum(c.op == op for c in CASES) >= 20, f"{op}: fewer than 20 cases reach onnxruntime"


def test_every_unsupported_case_says_why():
    for case, outcome in ALL:
        if isinstance(outcome, Unsupported):
            assert outcome.reason.strip(), f"{case.name}: no ONNX form without a reason"


@pytest.mark.parametrize(("case", "onnx_op"), [pytest.param(c, o, id=c.name) for c, o in ALL])
def test_values_match_onnxruntime(case, onnx_op, record_property):
    record_property("onnx_op", case.op)          # tests/conftest.py counts the outcomes per op and reason
    if isinstance(onnx_op, Unsupported):
        record_property("onnx_reason", onnx_op.reason)
        pytest.skip(str(onnx_op))
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
