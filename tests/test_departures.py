"""The machine-dependent departures (conformance/departures.py): each computes what it says, by hand,
and every case that names one has inputs where the departure's answer differs from the spec's (a mark
that changes nothing would let the case pass without the oracle agreeing with either answer)."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import opref
from opref.conformance.cases import all_cases
from opref.conformance.departures import DEPARTURES, departure_answers

MARKED = [c for c in all_cases() if c.departures]


def test_bf16_odd_rounding_by_hand():
    x = np.array([0.4, 1.0039072, 255.5, 1.0117188, -18.487627, 65504.0, 3.4028235e38, np.inf, np.nan], np.float32)
    # 0x3ECCCCCD keeps 0x3ECC (even: truncated); 0x3F808001 -> 0x3F80; 0x437F8000 (odd, half) -> 0x4380;
    # 0x3F818000 -> 0x3F82; 0xC193E6A9 -> 0xC194; 0x477FE000 -> 0x4780; f32 max (odd) -> inf
    want = np.array([0x3ECC, 0x3F80, 0x4380, 0x3F82, 0xC194, 0x4780, 0x7F80, 0x7F80], np.uint16)
    (got,) = DEPARTURES["bf16-odd-rounding"].answer([x], {}, None)
    assert got.dtype == ml_dtypes.bfloat16
    assert [hex(v) for v in got[:-1].view(np.uint16)] == [hex(v) for v in want]
    assert np.isnan(got[-1].astype(np.float32))


def test_gelu_inf_nan_by_hand():
    x = np.array([np.inf, 1.0, -np.inf], np.float32)
    spec = [np.array([np.inf, 0.8413447, np.nan], np.float32)]
    (got,) = DEPARTURES["gelu-inf-nan"].answer([x], {}, spec)
    assert np.isnan(got[0]) and got[1] == spec[0][1] and np.isnan(got[2])


def test_lowest_as_inf_by_hand():
    low = ml_dtypes.finfo(ml_dtypes.bfloat16).min
    spec = [np.array([1.0, low], ml_dtypes.bfloat16)]
    (got,) = DEPARTURES["bf16-lowest-as-inf"].answer([], {}, spec)
    assert got.astype(np.float32).tolist() == [1.0, -np.inf]


def test_every_departure_is_used_and_documented():
    used = {n for c in MARKED for n in c.departures}
    assert used == set(DEPARTURES)
    for d in DEPARTURES.values():
        assert d.oracle in ("openvino", "tensorflow") and "AVX" in d.why


@pytest.mark.parametrize("case", MARKED, ids=lambda c: c.name)
def test_departure_changes_the_answer(case):
    expected = opref.run_op(case.op, case.inputs, case.attrs)
    inputs = [x.astype(np.float32) if case.oracle_cast.get(i) == "f32" else x for i, x in enumerate(case.inputs)]
    for name, alt in departure_answers(case.departures, inputs, case.attrs, expected).items():
        differs = any(not np.array_equal(np.asarray(a, np.float64), np.asarray(e, np.float64), equal_nan=True)
                      for a, e in zip(alt, expected))
        assert differs, f"{case.name}: departure {name} gives the spec's answer here: drop the mark"
