"""Schemas and shape rules: STFT-15 and ISTFT-16 (short-time Fourier transforms).

Complex tensors are real tensors with a last dimension of 2 (real, imaginary), as for the DFT
family (opset/signal.py). The shape rules follow OpenVINO 2026.4's shape inference on partial shapes
(checked against it case by case), with these departures where the spec is clear:
 - ISTFT with center=true and no signal_length gives (frames - 1) * frame_step samples, as the spec
   writes and shows (45 samples for 16 frames of step 3 and frame size 11); OpenVINO gives one more
   sample when frame_size is odd (it trims frame_size // 2 from both ends of the overlap-add);
 - ISTFT's data must end in a complex pair (2), as the spec says; OpenVINO does not check it;
 - ISTFT's signal_length must not be negative (OpenVINO makes a negative value 0).
The element types are those of the DFT family (f64, f32, f16, bf16: OpenVINO also takes the f8
types, which hold no spectrum).
"""
from __future__ import annotations

from ..shapes import Dimension, PartialShape
from .helpers import check, ints_of
from .schema import BOOL, Attr, OpSchema, Port
from .signal import FFT_TYPES, IDX


def _scalar(op, name, info):
    s = info.shape
    check(not s.rank_is_static or len(s) == 0, op, lambda: f"input {name!r} must be a scalar, got shape {s}")


def _one(info):
    v = ints_of(info)
    return None if v is None else v[0]


def _window_fits(op, window, frame_size):
    """A static window length must be in [1, frame_size] (a shorter window is zero-padded on both sides)."""
    w = window.shape
    if w.rank_is_static and w[0].is_static:
        check(0 < w[0].lo <= frame_size, op,
              lambda: f"input 'window' must have a length in [1, {frame_size}] (frame_size), got {w[0]}")


def stft_shape(signal, window, frame_size, frame_step, *, transpose_frames):
    """[batch?, frames, frame_size // 2 + 1, 2] (bins and frames swapped with transpose_frames), frames =
    (signal_size - frame_size) // frame_step + 1 on intervals. signal is 1-D or 2-D, window 1-D with a static
    length in [1, frame_size], frame_size and frame_step scalars with 0 < frame_size <= the signal length's
    upper bound and frame_step > 0. Unknown sizes or steps give dynamic frames and bins."""
    op = "STFT-15"
    s = signal.shape
    check(not s.rank_is_static or len(s) in (1, 2), op,
          lambda: f"input 'signal' must be 1-D [signal_size] or 2-D [batch, signal_size], got shape {s}")
    check(not window.shape.rank_is_static or len(window.shape) == 1, op,
          lambda: f"input 'window' must be 1-D [window_length], got shape {window.shape}")
    _scalar(op, "frame_size", frame_size)
    _scalar(op, "frame_step", frame_step)
    if not s.rank_is_static:
        return PartialShape.dynamic()
    batch = list(s)[:-1]
    size, step = _one(frame_size), _one(frame_step)
    if size is None or step is None:
        return PartialShape(batch + [Dimension(), Dimension(), 2])
    n = s[-1]
    check(0 < size and (n.hi is None or size <= n.hi), op,
          lambda: f"input 'frame_size' = {size} must be in [1, {n}] (the signal length)")
    check(step > 0, op, lambda: f"input 'frame_step' = {step} must be greater than zero")
    _window_fits(op, window, size)
    frames = (n - size).floordiv(step) + 1
    bins = Dimension(size // 2 + 1, size // 2 + 1)
    return PartialShape(batch + ([bins, frames] if transpose_frames else [frames, bins]) + [2])


def istft_shape(data, window, frame_size, frame_step, signal_length=None, *, center, normalized):
    """[batch?, length] with length the signal_length value when given, else (frames - 1) * frame_step with
    center, (frames - 1) * frame_step + frame_size without (unknown values give a dynamic length). data is
    3-D or 4-D ending in 2, with a static fft_results dimension equal to frame_size // 2 + 1; window 1-D with
    a static length in [1, frame_size]; frame_size, frame_step > 0 scalars; signal_length a scalar or one
    element, >= 0."""
    op = "ISTFT-16"
    d = data.shape
    check(not d.rank_is_static or len(d) in (3, 4), op,
          lambda: f"input 'data' must be 3-D [fft_results, frames, 2] or 4-D [batch, fft_results, frames, 2], got "
                  f"shape {d}")
    check(not window.shape.rank_is_static or len(window.shape) == 1, op,
          lambda: f"input 'window' must be 1-D [window_length], got shape {window.shape}")
    _scalar(op, "frame_size", frame_size)
    _scalar(op, "frame_step", frame_step)
    size, step = _one(frame_size), _one(frame_step)
    if size is not None:
        check(size > 0, op, lambda: f"input 'frame_size' = {size} must be greater than zero")
        _window_fits(op, window, size)
    if step is not None:
        check(step > 0, op, lambda: f"input 'frame_step' = {step} must be greater than zero")
    if not d.rank_is_static:        # (OpenVINO checks signal_length only for data of known rank)
        return PartialShape.dynamic()
    if signal_length is not None:
        ls = signal_length.shape
        check(not ls.rank_is_static or len(ls) == 0 or (len(ls) == 1 and ls[0].compatible(1)), op,
              lambda: f"input 'signal_length' must be a scalar or hold one element, got shape {ls}")
    check(d[-1].compatible(2), op,
          lambda: f"the last dimension of input 'data' must be 2 (real, imaginary), got shape {d}")
    if size is not None and d[-3].is_static:     # (OpenVINO checks a static fft_results only)
        check(d[-3].lo == size // 2 + 1, op, lambda: f"dimension -3 of input 'data' (fft_results) must be "
                                                     f"frame_size // 2 + 1 = {size // 2 + 1}, got {d[-3]}")
    batch = list(d)[:-3]
    if signal_length is not None:
        length = _one(signal_length)
        if length is None:
            return PartialShape(batch + [Dimension()])
        check(length >= 0, op, lambda: f"input 'signal_length' = {length} must not be negative")
        return PartialShape(batch + [length])
    if size is None or step is None:
        return PartialShape(batch + [Dimension()])
    n = (d[-2] - 1) * step
    return PartialShape(batch + [n if center else n + size])


_SIZES = {"T": FFT_TYPES, "T_SIZE": IDX, "T_STEP": IDX}

STFT_15 = OpSchema(
    "STFT", 15, category="signal",
    inputs=(Port("signal", "T", doc="real signal, 1-D [signal_size] or 2-D [batch, signal_size]"),
            Port("window", "T", doc="1-D [window_length <= frame_size]; a shorter window is zero-padded on both "
                                    "sides ((frame_size - window_length) // 2 zeros on the left)"),
            Port("frame_size", "T_SIZE", const=True, doc="scalar: samples per frame (the FFT length)"),
            Port("frame_step", "T_STEP", const=True, doc="scalar: samples between the starts of successive frames")),
    outputs=(Port("output", "T", doc="[batch?, frames, frame_size // 2 + 1, 2], or bins and frames swapped "
                                     "with transpose_frames; frames = (signal_size - frame_size) // frame_step + 1"),),
    attributes=(Attr("transpose_frames", BOOL, doc="true: output [batch?, fft_results, frames, 2]; false: "
                                                   "[batch?, frames, fft_results, 2]"),),
    type_constraints=_SIZES,
    shape=stft_shape,
    doc="Short-time Fourier transform of a real signal: each frame (frame_size samples every frame_step) times the "
        "window, then its real-to-complex DFT (frame_size // 2 + 1 bins).")

ISTFT_16 = OpSchema(
    "ISTFT", 16, category="signal",
    inputs=(Port("data", "T", doc="spectra, [fft_results, frames, 2] or [batch, fft_results, frames, 2]"),
            Port("window", "T", doc="1-D [window_length <= frame_size], zero-padded on both sides as in STFT"),
            Port("frame_size", "T_SIZE", const=True, doc="scalar: samples per frame (the inverse FFT length)"),
            Port("frame_step", "T_STEP", const=True, doc="scalar: samples between the starts of successive frames"),
            Port("signal_length", "T_LEN", optional=True, const=True,
                 doc="scalar or [1]: output length (the overlap-add is cut or zero-padded to it)")),
    outputs=(Port("signal", "T", doc="[batch?, signal_length]"),),
    attributes=(Attr("center", BOOL, doc="true: the STFT's input was padded by frame_size // 2 on both sides, "
                                         "which is cut off; default length (frames - 1) * frame_step; false: "
                                         "(frames - 1) * frame_step + frame_size"),
                Attr("normalized", BOOL, doc="true: the spectra were scaled by 1 / sqrt(frame_size); undone here")),
    type_constraints={**_SIZES, "T_LEN": IDX},
    shape=istft_shape,
    doc="Inverse short-time Fourier transform: each frame's inverse real DFT times the window, overlap-added and "
        "divided by the overlap-added squared window.")

OPS = (STFT_15, ISTFT_16)
