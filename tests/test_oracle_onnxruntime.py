"""Every value case of every op version against onnxruntime, through opref.onnx's lowerings: the case
becomes a one-op ONNX model (`opref.onnx.case_model`, which also passes onnx's full checker), runs on
onnxruntime's CPU provider and must equal opref's outputs. Every value case is collected: a case whose
op version or use has no ONNX form is skipped with the lowering's reason, and conftest.py prints the
counts per reason and per op at the end of the run. The convolution ops are checked in
tests/test_convolution*.py (tolerances scaled by the reduction) and are reported here as such."""
from __future__ import annotations

import numpy as np
import pytest

import opref
from opref.conformance.cases import all_cases
from opref.conformance.compare import EXACT_CATEGORIES, mismatch, without_one_sided_nan
from opref.onnx import Unsupported, case_model, status

OWN_MODULE = ("convolution",)
OWN_MODULE_REASON = Unsupported("checked against onnxruntime in tests/test_convolution*.py")

ALL = [c for c in all_cases() if c.error is None]


def _outcome(case):
    if opref.get_schema(case.op).category in OWN_MODULE:
        return OWN_MODULE_REASON
    with np.errstate(all="ignore"):
        return case_model(case.op, case.inputs, case.attrs)


def test_every_op_version_lowers_or_says_why():
    for s in opref.list_schemas():
        reason = status(s.versioned_name)
        assert reason is None or reason.strip(), s.versioned_name


@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in ALL])
def test_values_match_onnxruntime(case, record_property):
    record_property("onnx_op", case.op)          # tests/conftest.py counts the outcomes per op and reason
    onnx_case = _outcome(case)
    if isinstance(onnx_case, Unsupported):
        record_property("onnx_reason", onnx_case.reason)
        pytest.skip(str(onnx_case))
    theirs = onnx_case.run()
    ours = opref.run_op(case.op, case.inputs, case.attrs)
    exact = case.exact if case.exact is not None else opref.get_schema(case.op).category in EXACT_CATEGORIES
    first = next((np.asarray(a) for a in case.inputs if a is not None), np.ones(1))
    x = np.abs(first.astype(np.float64)) if first.dtype.kind in "iuf" else np.ones(1)
    scale = float(x[np.isfinite(x)].max(initial=1.0))   # NaN/Inf edge values say nothing about rounding
    skipped, problems = 0, []
    assert len(theirs) == len(ours)
    for k, (t, o) in enumerate(zip(theirs, ours)):
        t = np.asarray(t)
        if t.shape != o.shape:
            problems.append(f"output {k}: onnxruntime gives shape {t.shape}, opref {o.shape}")
            continue
        if "onnxruntime" in case.nan_differs:
            t, o, n = without_one_sided_nan(t, o)
            skipped += n
        problem = mismatch(t, o, exact=exact, scale=scale, tolerance=case.tolerance)
        if problem is not None:
            problems.append(f"output {k}: opref gives {problem}")
    if case.onnxruntime:
        assert problems, f"{case.name}: marked ({case.onnxruntime}), but onnxruntime now agrees: drop the mark"
        pytest.xfail(f"onnxruntime departs from the spec: {case.onnxruntime}")
    assert not problems, f"{case.name} " + "; ".join(problems)
    if "onnxruntime" in case.nan_differs:
        assert skipped, f"{case.name}: marked ({case.nan_differs['onnxruntime']}), but onnxruntime now agrees: drop it"
