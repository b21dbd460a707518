"""Signal ops: hand-checkable transforms (impulses, constants, the spec's examples), properties
(inverses undo transforms), NaN spreading, error messages, and every case of the table against a
NumPy transcription of the spec (tests/spec_oracles.py: explicit sums, not np.fft), the oracle
independent of both opref's kernels and OpenVINO."""
from __future__ import annotations

import numpy as np
import pytest

import opref
from opref.conformance.cases import cases_for
from opref.conformance.compare import mismatch
from spec_oracles import SPEC

FFT = ("DFT-7", "IDFT-7", "RDFT-9", "IRDFT-9")


def _c(*z):
    """Complex numbers as the ops hold them: a last dim of (real, imaginary)."""
    z = np.asarray(z, np.complex128)
    return np.stack([z.real, z.imag], -1).astype(np.float32)


def _run(op, data, axes, ss=None):
    ins = [data, np.asarray(axes, np.int64)] + ([] if ss is None else [np.asarray(ss, np.int64)])
    return opref.run_op(op, ins)[0]


def test_dft_of_impulse_and_constant():
    np.testing.assert_allclose(_run("DFT-7", _c(1, 0, 0, 0), [0]), _c(1, 1, 1, 1), atol=1e-6)
    np.testing.assert_allclose(_run("DFT-7", _c(1, 1, 1, 1), [0]), _c(4, 0, 0, 0), atol=1e-6)
    # a one-bin shift: X[j] = i^j -> all energy in bin 1 (exp(-2 pi i m j / 4) sums to 4 at m = 1)
    np.testing.assert_allclose(_run("DFT-7", _c(1, 1j, -1, -1j), [0]), _c(0, 4, 0, 0), atol=1e-6)


def test_idft_scales_by_the_signal_size():
    np.testing.assert_allclose(_run("IDFT-7", _c(4, 0, 0, 0), [0]), _c(1, 1, 1, 1), atol=1e-6)
    np.testing.assert_allclose(_run("IDFT-7", _c(0, 4, 0, 0), [0]), _c(1, 1j, -1, -1j), atol=1e-6)
    # padded to 8: the scale is 1/8 and the spectrum is read as 8 bins
    np.testing.assert_allclose(_run("IDFT-7", _c(8), [0], [8]), _c(*[1] * 8), atol=1e-6)


def test_signal_size_trims_and_pads_at_the_end():
    # [1, 1] zero-padded to 4: 1 + exp(-pi i m / 2) = 2, 1 - i, 0, 1 + i
    np.testing.assert_allclose(_run("DFT-7", _c(1, 1), [0], [4]), _c(2, 1 - 1j, 0, 1 + 1j), atol=1e-6)
    # [1, 1, 5, 7] trimmed to 2: the last two samples are not seen
    np.testing.assert_allclose(_run("DFT-7", _c(1, 1, 5, 7), [0], [2]), _c(2, 0), atol=1e-6)
    np.testing.assert_allclose(_run("DFT-7", _c(1, 1, 5, 7), [0], [-1]), _run("DFT-7", _c(1, 1, 5, 7), [0]))


def test_rdft_keeps_the_non_negative_half():
    x = np.array([1, 2, 3, 4], np.float32)
    np.testing.assert_allclose(_run("RDFT-9", x, [0]), _c(10, -2 + 2j, -2), atol=1e-6)
    np.testing.assert_allclose(_run("RDFT-9", x, [0], [5]), _c(*np.fft.fft([1, 2, 3, 4, 0])[:3]), atol=1e-5)


def test_irdft_rebuilds_the_real_signal():
    np.testing.assert_allclose(_run("IRDFT-9", _c(10, -2 + 2j, -2), [0]), [1, 2, 3, 4], atol=1e-6)
    # signal_size 5 (odd): 3 bins read, the Hermitian spectrum of 5 samples
    y = _run("IRDFT-9", _c(*np.fft.rfft([1.0, 2, 3, 4, 5])), [0], [5])
    np.testing.assert_allclose(y, [1, 2, 3, 4, 5], atol=1e-5)
    # a real signal has no imaginary DC: it is not read
    np.testing.assert_allclose(_run("IRDFT-9", _c(10 + 3j, -2 + 2j, -2), [0]), [1, 2, 3, 4], atol=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_inverses_undo_transforms(dtype):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 4, 6)).astype(dtype)
    tol = 2e-2 if dtype == np.float16 else 1e-5
    z = _c(*rng.standard_normal(12)).reshape(3, 4, 2).astype(dtype)
    np.testing.assert_allclose(_run("IDFT-7", _run("DFT-7", z, [1, 0]), [0, 1]), z, atol=tol)
    np.testing.assert_allclose(_run("IRDFT-9", _run("RDFT-9", x, [0, -1]), [0, 2], [-1, 6]), x, atol=tol)


def test_negative_axes_count_differently_for_real_and_complex_inputs():
    rng = np.random.default_rng(1)
    z = rng.standard_normal((3, 5, 2)).astype(np.float32)     # complex shape [3, 5]: -1 is axis 1
    np.testing.assert_array_equal(_run("DFT-7", z, [-1]), _run("DFT-7", z, [1]))
    x = rng.standard_normal((3, 5)).astype(np.float32)        # real shape [3, 5]: -1 is axis 1 too
    np.testing.assert_array_equal(_run("RDFT-9", x, [-1]), _run("RDFT-9", x, [1]))
    np.testing.assert_array_equal(_run("RDFT-9", x, [-2]), _run("RDFT-9", x, [0]))


def test_nan_spreads_over_its_transformed_block():
    z = _c(1, 2, 3, 4, 5, 6).reshape(2, 3, 2)
    z[0, 1, 1] = np.nan
    y = _run("DFT-7", z, [1])
    assert np.isnan(y[0]).all() and np.isfinite(y[1]).all()
    assert np.isnan(_run("DFT-7", z, [0, 1])).all()
    x = np.array([[1, np.nan, 3, 4], [1, 2, 3, 4]], np.float32)
    y = _run("RDFT-9", x, [1])
    assert np.isnan(y[0]).all() and np.isfinite(y[1]).all()      # even the imaginary part of DC


@pytest.mark.parametrize("op,shape,axes,ss,want", [
    ("DFT-7", [1, 320, 320, 2], [1, 2], None, "[1,320,320,2]"),
    ("DFT-7", [1, 320, 320, 2], [1, 2], [512, 100], "[1,512,100,2]"),
    ("DFT-7", [16, 768, 580, 320, 2], [3, 1, 2], [170, -1, 1024], "[16,768,1024,170,2]"),
    ("IDFT-7", [16, 768, 580, 320, 2], [3, 0, 2], [258, -1, 2056], "[16,768,2056,258,2]"),
    ("RDFT-9", [1, 320, 320], [1, 2], None, "[1,320,161,2]"),
    ("RDFT-9", [320, 320], [0, 1], [512, 100], "[512,51,2]"),
    ("RDFT-9", [16, 768, 580, 320], [3, 1, 2], [170, -1, 1024], "[16,768,513,170,2]"),
    ("RDFT-9", [16, 768, 580, 320], [3, 0, 2], [258, -1, 2056], "[16,768,1029,258,2]"),
    ("IRDFT-9", [1, 161, 161, 2], [1, 2], None, "[1,161,320]"),
    ("IRDFT-9", [161, 161, 2], [0, 1], [512, 100], "[512,100]"),
    ("IRDFT-9", [16, 768, 580, 320, 2], [3, 1, 2], [170, -1, 1024], "[16,768,1024,170]"),
    ("IRDFT-9", [16, 768, 580, 320, 2], [3, 0, 2], [258, -1, 2056], "[16,768,2056,258]"),
])
def test_spec_examples_shapes(op, shape, axes, ss, want):
    ins = [opref.TensorInfo("f32", shape), np.array(axes, np.int64)] + ([] if ss is None else [np.array(ss, np.int64)])
    assert str(opref.infer_op(op, ins)[0].shape) == want


def test_unknown_signal_size_makes_every_transformed_axis_dynamic():
    ss = opref.TensorInfo("i64", [2])
    assert str(opref.infer_op("RDFT-9", [opref.TensorInfo("f32", [4, 6, 5]), np.array([0, 1]), ss])[0].shape) == \
        "[?,?,5,2]"
    assert str(opref.infer_op("IRDFT-9", [opref.TensorInfo("f32", [4, 6, 5, 2]), np.array([0, 1]), ss])[0].shape) \
        == "[?,?,5]"


@pytest.mark.parametrize("call,match", [
    (lambda: _run("DFT-7", np.zeros((4, 3), np.float32), [0]), "DFT-7: the last dimension of input 'data' must be 2"),
    (lambda: _run("DFT-7", np.zeros((4, 2), np.float32), [1]), "DFT-7: axis 1 of input 'axes' is out of range [-1, 0]"),
    (lambda: _run("RDFT-9", np.zeros((4, 2), np.float32), [1, -1]), "RDFT-9: input 'axes' must hold unique axes"),
    (lambda: _run("IRDFT-9", np.zeros((4, 2), np.float32), [0], [3, 4]),
     "IRDFT-9: inputs 'axes' (1) and 'signal_size' (2) must have the same number of elements"),
    (lambda: _run("IDFT-7", np.zeros((4, 2), np.float32), [0], [-2]), "IDFT-7: input 'signal_size' must hold -1"),
    (lambda: _run("RDFT-9", np.zeros((4,), np.int32), [0]), "RDFT-9: input 'data' has element type i32"),
])
def test_errors_name_the_op_and_port(call, match):
    with pytest.raises(opref.OprefError, match=match.replace("[", r"\[").replace("(", r"\(").replace(")", r"\)")):
        call()


CASES = [c for op in FFT for c in cases_for(op) if c.error is None]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_values_match_the_spec_transcription(case):
    ours = opref.run_op(case.op, case.inputs, case.attrs)[0]
    want = SPEC[case.op](*case.inputs)[0]
    x = np.abs(case.inputs[0].astype(np.float64))
    scale = float(x[np.isfinite(x)].max(initial=1.0)) * max(x.size, 1) ** 0.5   # sums of up to x.size terms
    problem = mismatch(want, ours, exact=False, scale=scale)
    assert problem is None, f"{case.name}: opref gives {problem}"
