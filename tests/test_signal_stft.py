"""STFT-15 and ISTFT-16: hand-checkable cases, every case against a NumPy transcription of the spec
(tests/spec_stft.py) and against PyTorch (torch.stft / torch.istft), the error cases against
OpenVINO's own rejections, the spec's ISTFT length against OpenVINO given that length, and real
PyTorch modules converted by openvino.convert_model (STFT/ISTFT; rfft/irfft/fft), written at test time."""
from __future__ import annotations

import numpy as np
import openvino as ov
import pytest

import opref
from opref.conformance.cases import all_cases
from opref.conformance.cases.signal_stft import ODD_CENTER
from opref.conformance.compare import mismatch
from opref.shapes import TensorInfo
from oracles import CPU_CONFIG, ov_infer, ov_run
from spec_stft import istft_16, stft_15

OPS = ("STFT-15", "ISTFT-16")
CASES = [c for c in all_cases() if c.op in OPS]
VALUES = [c for c in CASES if c.error is None]
ERRORS = [c for c in CASES if c.error is not None]
SPEC = {"STFT-15": stft_15, "ISTFT-16": istft_16}


def stft(x, w, size, step, transpose_frames=False):
    return opref.run_op("STFT-15", [x, w, np.int64(size), np.int64(step)], {"transpose_frames": transpose_frames})[0]


def istft(d, w, size, step, length=None, center=False, normalized=False):
    ins = [d, w, np.int64(size), np.int64(step)] + ([] if length is None else [np.int64(length)])
    return opref.run_op("ISTFT-16", ins, {"center": center, "normalized": normalized})[0]


# --- small hand-checkable cases ---------------------------------------------------------------------
def test_spec_example_shapes():
    x, w = TensorInfo("f32", [56]), TensorInfo("f32", [7])
    size, step = np.int64(11), np.int64(3)
    shape = lambda op, ins, attrs: str(opref.infer_op(op, ins, attrs)[0].shape)  # noqa: E731
    assert shape("STFT-15", [x, w, size, step], {"transpose_frames": False}) == "[16,6,2]"
    assert shape("STFT-15", [x, w, size, step], {"transpose_frames": True}) == "[6,16,2]"
    assert shape("STFT-15", [TensorInfo("f32", [3, 56]), w, size, step], {"transpose_frames": True}) == "[3,6,16,2]"
    d = TensorInfo("f32", [4, 6, 16, 2])
    assert shape("ISTFT-16", [d, w, size, step], {"center": False, "normalized": False}) == "[4,56]"
    assert shape("ISTFT-16", [d, w, size, step], {"center": True, "normalized": False}) == "[4,45]"
    assert shape("ISTFT-16", [TensorInfo("f32", [6, 16, 2]), w, size, step, np.int64(64)],
                 {"center": False, "normalized": False}) == "[64]"


def test_stft_of_an_impulse_is_a_phase_ramp():
    # x = delta at 5, frames of 8 every 4: frame 0 sees it at offset 5, frame 1 at offset 1
    y = stft(np.eye(1, 16, 5, dtype=np.float32)[0], np.ones(8, np.float32), 8, 4)
    k = np.arange(5)
    for frame, offset in ((0, 5), (1, 1)):
        np.testing.assert_allclose(y[frame, :, 0], np.cos(2 * np.pi * k * offset / 8), atol=1e-6)
        np.testing.assert_allclose(y[frame, :, 1], -np.sin(2 * np.pi * k * offset / 8), atol=1e-6)
    np.testing.assert_array_equal(y[2], 0)         # frame 2 (samples 8..15) misses it


def test_stft_constant_signal_is_all_dc_and_window_is_centred():
    y = stft(np.ones(12, np.float32), np.array([1, 2, 3], np.float32), 6, 3)   # window padded to [0,1,2,3,0,0]
    np.testing.assert_allclose(y[:, 0, 0], 6)
    # bin 1 of [0,1,2,3,0,0]: sum_n w[n] exp(-2 pi i n / 6)
    expected = sum(v * np.exp(-2j * np.pi * n / 6) for n, v in enumerate([0, 1, 2, 3, 0, 0]))
    np.testing.assert_allclose(y[:, 1, 0], expected.real, rtol=1e-6)
    np.testing.assert_allclose(y[:, 1, 1], expected.imag, rtol=1e-6)


def test_istft_inverts_stft():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 40)).astype(np.float32)
    w = np.hanning(11)[1:-1].astype(np.float32)    # 9 taps, no zero: every sample covered
    for size, step in ((8, 2), (8, 4), (9, 3)):
        spec = stft(x, w[:size], size, step, transpose_frames=True)     # [batch, bins, frames, 2]
        n = (40 - size) // step * step + size
        np.testing.assert_allclose(istft(spec, w[:size], size, step), x[:, :n], atol=2e-5)
        np.testing.assert_allclose(istft(spec / np.sqrt(np.float32(size)), w[:size], size, step, 20, normalized=True),
                                   x[:, :20], atol=2e-5)


def test_istft_length_cuts_or_pads_with_zeros():
    d = np.zeros((5, 3, 2), np.float32)
    d[0, :, 0] = 8.0                               # DC 8 over 8 samples: 1 everywhere
    w = np.ones(8, np.float32)
    np.testing.assert_allclose(istft(d, w, 8, 4), np.ones(16))
    np.testing.assert_allclose(istft(d, w, 8, 4, length=20), np.r_[np.ones(16), np.zeros(4)])
    np.testing.assert_allclose(istft(d, w, 8, 4, length=5, center=True), np.ones(5))
    assert istft(d, w, 8, 4, center=True).shape == (8,)                  # (frames - 1) * step
    assert istft(d[:4, :, :], w[:7], 7, 4, center=True).shape == (8,)    # odd frame size too (spec)


def test_istft_uncovered_samples_are_zero():
    d = np.zeros((5, 2, 2), np.float32)
    d[0, :, 0] = 8.0
    y = istft(d, np.ones(8, np.float32), 8, 10)    # frames at 0 and 10: samples 8, 9 covered by no window
    np.testing.assert_array_equal(y, np.r_[np.ones(8), 0, 0, np.ones(8)])


def test_nan_spreads_over_its_frame():
    x = np.zeros(16, np.float32)
    x[6] = np.nan                                  # frames 0..3 (step 4, size 8): frames 0 and 1 hold it
    y = stft(x, np.ones(8, np.float32), 8, 4)
    assert np.isnan(y[:2]).all() and not np.isnan(y[2:]).any()
    d = np.zeros((5, 3, 2), np.float32)
    d[2, 1, 1] = np.nan
    y = istft(d, np.ones(8, np.float32), 8, 4)
    assert np.isnan(y[4:12]).all() and not np.isnan(y[:4]).any() and not np.isnan(y[12:]).any()


# --- every case against the spec's transcription and PyTorch ------------------------------------------
def _compare(case, expected, got, tolerance=None):
    problem = mismatch(np.asarray(expected), np.asarray(got), exact=False,
                       scale=float(np.nanmax(np.abs(case.inputs[0].astype(np.float64)), initial=1.0)),
                       tolerance=tolerance or case.tolerance)
    assert problem is None, f"{case.name}: {problem}"


@pytest.mark.parametrize("case", VALUES, ids=lambda c: c.name)
def test_values_match_spec_transcription(case):
    from opref.opset.schema import as_keywords
    ours = opref.run_op(case.op, case.inputs, case.attrs)[0]
    attrs = as_keywords(opref.get_schema(case.op).bind_attrs(case.attrs))
    theirs = SPEC[case.op](*case.inputs, **attrs)[0]
    _compare(case, theirs, ours)


def _in_torch_domain(case) -> bool:
    """torch.istft wants frames, a length of at least one sample, a step no longer than the window, and a
    window envelope that covers every kept sample (NOLA); torch.stft takes any case. NaN, empty and
    f16/bf16 cases are left to the other oracles."""
    x, w = case.inputs[:2]
    if x.dtype not in (np.float32, np.float64) or not x.size or np.isnan(x).any() or np.isnan(w).any():
        return False
    if case.op == "STFT-15":
        return True
    size, step, n = int(case.inputs[2]), int(case.inputs[3]), x.shape[-2]
    center, length = case.attrs["center"], (int(np.ravel(case.inputs[4])[0]) if len(case.inputs) > 4 else None)
    left = (size - len(w)) // 2
    padded = np.pad(np.asarray(w, np.float64), (left, size - len(w) - left))
    env = np.zeros(max(n - 1, 0) * step + size)
    for t in range(n):
        env[t * step: t * step + size] += padded ** 2
    start = size // 2 if center else 0
    end = start + (length if length is not None else (n - 1) * step + (0 if center else size))
    return n > 0 and end > start and end <= len(env) and step <= len(w) and not (env[start:end] < 1e-11).any()


TORCH_CASES = [c for c in VALUES if _in_torch_domain(c)]


@pytest.mark.parametrize("case", TORCH_CASES, ids=lambda c: c.name)
def test_values_match_torch(case):
    torch = pytest.importorskip("torch")
    ours = opref.run_op(case.op, case.inputs, case.attrs)[0]
    x, w = (torch.from_numpy(np.asarray(a, np.float64)) for a in case.inputs[:2])
    size, step = int(case.inputs[2]), int(case.inputs[3])
    if case.op == "STFT-15":
        y = torch.view_as_real(torch.stft(x, size, step, win_length=len(w), window=w, center=False,
                                          onesided=True, return_complex=True))        # [batch?, bins, frames, 2]
        y = y.numpy() if case.attrs["transpose_frames"] else np.swapaxes(y.numpy(), -2, -3)
        return _compare(case, y.astype(ours.dtype), ours, "f32")
    center, length = case.attrs["center"], (int(np.ravel(case.inputs[4])[0]) if len(case.inputs) > 4 else None)
    if length is None and center and size % 2:   # torch.istft keeps one more sample here (see ODD_CENTER)
        length = (case.inputs[0].shape[-2] - 1) * step
    c = torch.complex(x[..., 0], x[..., 1])
    y = torch.istft(c, size, step, win_length=len(w), window=w, center=center, normalized=case.attrs["normalized"],
                    onesided=True, length=length)
    _compare(case, y.numpy().astype(ours.dtype), ours, "f32")


def test_most_cases_reach_torch():
    reached = [c for c in TORCH_CASES if c.op == "ISTFT-16"]
    assert len(reached) >= 30 and sum(c.op == "STFT-15" for c in TORCH_CASES) >= 60


# --- OpenVINO: its own rejections, and the spec's ISTFT length asked explicitly ---------------------------
@pytest.mark.parametrize("case", ERRORS, ids=lambda c: c.name)
def test_error_cases_are_rejected_by_openvino_too(case):
    if case.openvino:                       # the spec rejects what OpenVINO accepts: it must accept it
        ov_infer(case.op, case.inputs, case.attrs)
        return
    with pytest.raises(RuntimeError, match="Exception from src/"):
        ov_infer(case.op, case.inputs, case.attrs)


@pytest.mark.parametrize("case", [c for c in VALUES if c.openvino == ODD_CENTER], ids=lambda c: c.name)
def test_odd_center_values_are_openvinos_given_the_spec_length(case):
    """Where the spec's default length is one sample shorter than OpenVINO's, OpenVINO given that
    length as signal_length computes exactly opref's samples."""
    ours = opref.run_op(case.op, case.inputs, case.attrs)[0]
    length = np.array(ours.shape[-1], np.int64)
    theirs = ov_run(case.op, list(case.inputs) + [length], case.attrs)[0]
    _compare(case, theirs, ours, "f32" if ours.dtype == np.float64 else None)   # (the CPU plugin: f64 in f32)


# --- real models: PyTorch modules converted by OpenVINO -----------------------------------------------------
CORE = ov.Core()
CPU = CPU_CONFIG


def _torch_modules():
    torch = pytest.importorskip("torch")

    class Denoise(torch.nn.Module):                # spectral gate: STFT, magnitude mask, ISTFT
        def __init__(self):
            super().__init__()
            self.register_buffer("window", torch.hann_window(64))

        def forward(self, x):
            spec = torch.stft(x, 64, 16, window=self.window, center=True, return_complex=True)
            mag = spec.abs()
            y = torch.istft(spec * (mag > 0.5), 64, 16, window=self.window, center=True, length=x.shape[-1])
            return mag, y

    class Frames(torch.nn.Module):                 # a short window, odd frame size, normalized; both centrings
        def forward(self, x):
            w = torch.ones(20)
            plain = torch.stft(x, 25, 5, win_length=20, window=w, center=False, normalized=True, return_complex=True)
            centred = torch.stft(x, 25, 5, win_length=20, window=w, center=True, normalized=True, return_complex=True)
            return torch.view_as_real(plain), torch.istft(centred, 25, 5, win_length=20, window=w, center=True,
                                                          normalized=True, length=x.shape[-1])

    class Spectral(torch.nn.Module):               # rfft / irfft / fft
        def forward(self, x):
            half = torch.fft.rfft(x, dim=-1)
            full = torch.fft.fft(x.to(torch.complex64), dim=-2)
            return torch.fft.irfft(half * 0.5, n=x.shape[-1], dim=-1), torch.view_as_real(full)

    return {"denoise": (Denoise(), (2, 1000)), "frames": (Frames(), (3, 300)), "spectral": (Spectral(), (3, 8, 32))}


def _ov_outputs(xml, x):
    compiled = CORE.compile_model(str(xml), "CPU", CPU)
    return [np.asarray(v) for v in compiled([x]).values()]


def _close(ours, theirs, what):
    assert len(ours) == len(theirs), what
    for k, (a, b) in enumerate(zip(ours, theirs)):
        assert a.shape == b.shape, f"{what} output {k}: shape {a.shape} vs {b.shape}"
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4, err_msg=f"{what} output {k}")


@pytest.mark.parametrize("name", ["denoise", "frames", "spectral"])
def test_converted_torch_model(name, tmp_path):
    torch = pytest.importorskip("torch")
    module, shape = _torch_modules()[name]
    x = np.random.default_rng(7).standard_normal(shape).astype(np.float32)
    xml = tmp_path / f"{name}.xml"
    ov.save_model(ov.convert_model(module, example_input=torch.from_numpy(x)), str(xml), compress_to_fp16=False)
    model = opref.load(xml)
    ops = {n.op for n in model.graph.nodes}
    assert ({"STFT-15", "ISTFT-16"} if name != "spectral" else {"RDFT-9", "IRDFT-9", "DFT-7"}) <= ops, ops
    ours = list(model.run([x]).values())
    theirs = _ov_outputs(xml, x)
    _close(ours, theirs, f"{name}: opref vs OpenVINO")
    with torch.no_grad():                         # and PyTorch itself
        ref = module(torch.from_numpy(x))
    ref = [r.numpy() for r in (ref if isinstance(ref, tuple) else (ref,))]
    _close(ours, ref, f"{name}: opref vs PyTorch")
    out = tmp_path / "rt.xml"
    opref.save(model, out)
    again = opref.load(out)
    _close(list(again.run([x]).values()), ours, f"{name}: load(save(load(x)))")
    _close(_ov_outputs(out, x), theirs, f"{name}: OpenVINO on opref's IR")
