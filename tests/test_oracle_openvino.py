"""Every case of the case tables against OpenVINO: values on the CPU runtime (or, where a case
says why the CPU plugin is not faithful, OpenVINO's reference `evaluate`), shapes through
OpenVINO's own shape inference (via the IR opref writes). Shape cases where the spec and OpenVINO
disagree are kept and marked: there opref follows the spec and the test asserts that."""
from __future__ import annotations

import re

import numpy as np
import pytest

import opref
from opref.types import element_type, element_type_of
from opref.conformance.cases import all_cases, all_shape_cases
from opref.conformance.compare import EXACT_CATEGORIES, mismatch, without_one_sided_nan
from opref.conformance.departures import departure_answers
from oracles import ov_evaluate, ov_infer, ov_run, ov_run_padded, spec_run, tf_run

# The convolution ops have their own oracle module (tests/test_convolution.py: tolerances scaled by
# the reduction, direct sums where OpenVINO's CPU plugin is wrong); the tf domain is checked against
# TensorFlow (tests/test_tf.py).
OWN_MODULE = ("convolution",)


def _here(case) -> bool:
    s = opref.get_schema(case.op)
    return not s.domain and s.category not in OWN_MODULE


VALUE_CASES = [c for c in all_cases() if c.error is None and _here(c)]
ERROR_CASES = [c for c in all_cases() if c.error is not None and _here(c)]
SHAPE_CASES = [c for c in all_shape_cases() if _here(c)]


def cast(x, et):
    """x widened losslessly to `et` (an integer result the oracle computed in floating point, back to
    `et` rounded half to even, as OpenVINO's integer kernels round); "codes" replaces values by 1 + their
    index among the distinct values (0 stays free for the padding a movement op may insert)."""
    if et == "codes":
        return np.unique(x, return_inverse=True)[1].reshape(x.shape).astype(np.int32) + 1
    if et is None:
        return x
    t, x = element_type(et), np.asarray(x)
    if x.dtype.kind == "f" and not t.is_float and t.name not in ("boolean", "string"):
        x = np.rint(x)
    return x.astype(t.dtype)


def _finite_max(a) -> float:
    """The largest finite magnitude (NaN and ±Inf edge values say nothing about rounding)."""
    a = np.abs(np.asarray(a, dtype=np.float64))
    return float(a[np.isfinite(a)].max(initial=1.0))


def _reduction_scale(case) -> float:
    """Computed outputs sum many products: tolerance grows with the magnitude of the terms."""
    x = [_finite_max(a) for a in case.inputs[:2] if np.asarray(a).dtype.kind not in "UOb"]
    return float(np.prod(x)) if x else 1.0


@pytest.mark.parametrize("case", VALUE_CASES, ids=lambda c: c.name)
def test_values_match_openvino(case):
    expected = opref.run_op(case.op, case.inputs, case.attrs)
    # Where the CPU plugin is not faithful (the case says why), it is asked with losslessly widened
    # inputs, or OpenVINO's reference code is asked.
    inputs = [cast(x, case.oracle_cast.get(i)) for i, x in enumerate(case.inputs)]
    oracle = {"openvino": ov_run, "reference": ov_evaluate, "tensorflow": tf_run, "spec": spec_run,
              "openvino_padded": ov_run_padded}[case.oracle]
    got = oracle(case.op, inputs, case.attrs)
    if case.oracle_cast.get(0) == "codes":   # data moved as codes: 1 + index into its distinct values
        values = np.concatenate([np.zeros(1, case.inputs[0].dtype), np.unique(case.inputs[0])])
        got = [values[np.asarray(y).astype(np.int64)] for y in got]
    got = [cast(y, element_type_of(e)) for y, e in zip(got, expected)]
    problem, skipped = _problem(case, expected, got)
    if problem and case.departures:
        # a departure this machine's kernels make (conformance/departures.py): exactly its answer is accepted
        answers = departure_answers(case.departures, inputs, case.attrs, expected)
        if any(_problem(case, alt, got)[0] is None for alt in answers.values()):
            return
        problem += f" (nor is it the departure {' or '.join(answers)})"
    assert problem is None, f"{case.name}: OpenVINO gives {problem}"
    if "openvino" in case.nan_differs:
        assert skipped, f"{case.name}: marked ({case.nan_differs['openvino']}), but OpenVINO now agrees: drop the mark"


def _problem(case, expected, got) -> tuple[str | None, int]:
    """The first output that OpenVINO's answer `got` does not match, and how many one-sided NaNs the case's
    `nan_differs` mark let pass."""
    exact = case.exact if case.exact is not None else opref.get_schema(case.op).category in EXACT_CATEGORIES
    skipped = 0
    for k, (e, g) in enumerate(zip(expected, got)):
        if "openvino" in case.nan_differs:
            e, g, n = without_one_sided_nan(e, g)
            skipped += n
        problem = mismatch(e, g, exact=exact, scale=_reduction_scale(case), tolerance=case.tolerance)
        if problem is not None:
            return f"output {k}: {problem}", skipped
    return None, skipped


@pytest.mark.parametrize("case", ERROR_CASES, ids=lambda c: c.name)
def test_error_cases_are_rejected(case):
    with pytest.raises(opref.OprefError, match=re.escape(case.error)):
        opref.run_op(case.op, case.inputs, case.attrs)


@pytest.mark.parametrize("case", SHAPE_CASES, ids=lambda c: c.name)
def test_shapes_match_openvino(case):
    try:
        ours = [(str(i.shape), i.element_type) for i in opref.infer_op(case.op, case.inputs, case.attrs)]
    except opref.OprefError as e:
        ours = e
    try:
        theirs = ov_infer(case.op, case.inputs, case.attrs)
    except RuntimeError as e:  # OpenVINO's own rejection: a RuntimeError subclass raised from its sources
        if "Exception from src/" not in str(e):
            raise AssertionError(f"{case.name}: OpenVINO's model could not be built, so OpenVINO was not "
                                 f"asked: {type(e).__name__}: {str(e)[:300]}") from e
        theirs = e
    except Exception as e:  # noqa: BLE001 - opref failing to write the oracle's model is no agreement
        raise AssertionError(f"{case.name}: OpenVINO's model could not be built, so OpenVINO was not asked: "
                             f"{type(e).__name__}: {str(e)[:300]}") from e
    if case.openvino:   # OpenVINO is not followed here; the case carries the spec's answer
        if case.expected is None:
            assert isinstance(ours, opref.OprefError), f"{case.name}: the spec rejects this ({case.openvino})"
        else:
            expected = [case.expected] * len(ours) if isinstance(case.expected, str) else list(case.expected)
            assert [s for s, _ in ours] == expected, f"{case.name}: spec gives {expected} ({case.openvino})"
        return
    if isinstance(theirs, Exception):
        assert isinstance(ours, opref.OprefError), \
            f"{case.name}: OpenVINO rejects ({str(theirs).splitlines()[0][:200]}), opref gives {ours}"
    else:
        assert not isinstance(ours, Exception), f"{case.name}: opref rejects ({ours}), OpenVINO gives {theirs}"
        assert ours == theirs, f"{case.name}: opref {ours}, OpenVINO {theirs}"
