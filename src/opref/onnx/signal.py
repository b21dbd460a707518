"""Signal ops. ONNX DFT transforms one axis per node (complex numbers as a last dim of 2, a real
signal as a last dim of 1; `dft_length` trims or zero-pads the axis; `inverse` scales by 1/n; the
axis is an attribute up to opset 19, an input from 20), so:
- DFT-7 / IDFT-7 are one DFT node per axis of `axes`, chained;
- RDFT-9 is a one-sided DFT of the real signal (a trailing 1 added) on the last of `axes`, then full
  DFTs on the others (as numpy's rfftn);
- IRDFT-9 is inverse DFTs on all but the last axis, then, on the last: the half-spectrum fitted to
  n // 2 + 1 bins, completed to n bins with its mirrored conjugate (Slice with step -1, times (1, -1)),
  inverse DFT, real part (ONNX has no complex-to-real inverse: onesided with inverse is invalid);
- STFT-15 is ONNX STFT (onesided) on a batched signal with a trailing 1, the window zero-padded on
  both sides to frame_size, bins and frames swapped back by Transpose when transpose_frames.
The axes, signal sizes, frame size and step must be constants (they decide the node chain). The
signal sizes are applied by Pad/Slice glue, not dft_length (onnxruntime refuses an empty input axis,
which the spec zero-pads); a transform of known length 0 has an empty output, made by that glue
alone (onnxruntime's DFT rejects length 0), and an axis that may be empty has no ONNX form.
Where a NaN enters a transformed block the spec's sums make the whole block's output NaN, which an
FFT need not: a Where over the block's IsNaN pins that down. onnxruntime's DFT/STFT run f32 and f64:
f16/bf16 compute in f32 and round back once (STFT in f64: its f32 kernel errs by ~1e-5 of the sums).
ISTFT-16 has no ONNX op (inverse STFT's overlap-add and window normalisation).
"""
from __future__ import annotations

import numpy as np

from .builder import Unsupported

_NAN = {"f32": np.float32, "f64": np.float64}


def _compute(x):
    return "f64" if x.element_type == "f64" else "f32"


def _dft(b, x, axis, *, inverse=0, onesided=0):
    """One ONNX DFT node along `axis` (counted on ONNX's input, which holds the complex/real last dim)."""
    if b.opset >= 20:
        return b.node("DFT", [x, None, b.const(np.int64(axis))], inverse=inverse, onesided=onesided)
    return b.node("DFT", [x], axis=axis, inverse=inverse, onesided=onesided)


def _plan(call, complex_in: bool):
    """(axes as ONNX counts them, signal sizes with -1 for 'the axis'), or an Unsupported."""
    x, axes = call.inputs[0], call.inputs[1]
    sizes_in = call.inputs[2] if len(call.inputs) > 2 else None
    ax = axes.ints()
    if ax is None:
        return Unsupported("FFT with non-constant axes (each axis is its own ONNX DFT node)")
    sizes = [-1] * len(ax) if sizes_in is None else sizes_in.ints()
    if sizes is None:
        return Unsupported("FFT with a non-constant signal_size (its values decide the trimming and padding)")
    r = x.rank
    norm = []
    for a in ax:
        if a < 0 and r is None:
            norm.append(a - 1)                  # ONNX's input has the complex pair / real 1 as its last dim
        elif a < 0:
            norm.append(a + (r - 1 if complex_in else r))
        else:
            norm.append(a)
    return norm, sizes


def _length(x, a, s):
    """The transform length along axis a (signal size s, -1: the axis's): an int, or None when unknown."""
    if s != -1:
        return s
    dim = x.shape[a] if x.rank is not None and a >= 0 else None
    return dim.length if dim is not None and dim.is_static else None


def _is_empty(call, axes, sizes):
    """A transform of length 0: the output is empty (onnxruntime's DFT rejects length 0)."""
    return any(_length(call.inputs[0], a, s) == 0 for a, s in zip(axes, sizes))


def _check_lengths(call, axes, sizes):
    """None, or an Unsupported when a transform may have length 0 (not known to be)."""
    x = call.inputs[0]
    for a, s in zip(axes, sizes):
        dim = x.shape[a] if x.rank is not None and a >= 0 else None
        if s == -1 and (dim is None or dim.lo == 0):
            return Unsupported("FFT over an axis that may be empty (onnxruntime's DFT rejects length 0)",
                               str(x.shape))
    return None


def _fitted(b, x, shape, axes, lengths):
    """x (of partial shape `shape`) trimmed or zero-padded at the end to `lengths` along `axes` (-1 or
    None: untouched). Done here rather than by DFT's dft_length, which onnxruntime refuses on an empty
    axis (the spec zero-pads it), and shared with the NaN mask."""
    for a, n in zip(axes, lengths):
        if n is None or n == -1:
            continue
        dim = shape[a] if shape.rank is not None and a >= 0 else None
        if dim is None or not dim.is_static or dim.length < n:
            x = b.node("Pad", [x, b.i64([0, n]), None, b.i64([a])])
        if dim is None or not dim.is_static or dim.length != n:
            x = b.node("Slice", [x, b.i64([0]), b.i64([n]), b.i64([a])])
    return x


def _nan_blocks(b, y, x_fit, axes, ct):
    """y with NaN across every transformed block of x_fit (the transformed input, as ONNX holds it)
    that holds one: the spec's sums spread a NaN over its block, which an FFT need not."""
    bad = b.cast(b.node("IsNaN", [x_fit]), ct, "boolean")
    block = b.node("ReduceMax", [bad, b.i64(sorted(set(axes)) + [-1])], keepdims=1)
    return _nan_where(b, b.node("Greater", [block, b.scalar(0, ct)]), y, ct)


def _nan_where(b, flag, y, ct):
    return b.node("Where", [flag, b.const(np.asarray(np.nan, _NAN[ct])), y])


def _c2c(inverse):
    def lower(b, call):
        x = call.inputs[0]
        plan = _plan(call, complex_in=True)
        if isinstance(plan, Unsupported):
            return plan
        axes, sizes = plan
        ct = _compute(x)
        if _is_empty(call, axes, sizes):            # an empty spectrum: the input fitted to the sizes
            return b.cast(_fitted(b, b.cast(x, ct, x.element_type), x.shape, axes, sizes),
                          call.outputs[0].element_type, ct)
        bad = _check_lengths(call, axes, sizes)
        if bad is not None:
            return bad
        v = _fitted(b, b.cast(x, ct, x.element_type), x.shape, axes, sizes)
        y = v
        for a in axes:
            y = _dft(b, y, a, inverse=inverse)
        if axes:
            y = _nan_blocks(b, y, v, axes, ct)
        return b.cast(y, call.outputs[0].element_type, ct)
    return lower


def _rdft(b, call):
    x = call.inputs[0]
    plan = _plan(call, complex_in=False)
    if isinstance(plan, Unsupported):
        return plan
    axes, sizes = plan
    if not axes:
        return Unsupported("RDFT over no axes")
    ct = _compute(x)
    if _is_empty(call, axes, sizes):               # empty: n // 2 + 1 bins on the last axis (none for n = 0)
        n = _length(x, axes[-1], sizes[-1])
        if n is None:
            return Unsupported("RDFT of an empty signal with a last axis of unknown length", str(x.shape))
        v = b.node("Unsqueeze", [b.cast(x, ct, x.element_type), b.i64([-1])])
        v = _fitted(b, v, x.shape, axes, sizes[:-1] + [n // 2 + 1 if n else 0])
        v = b.node("Pad", [v, b.i64([0, 1]), None, b.i64([-1])])
        return b.cast(v, call.outputs[0].element_type, ct)
    bad = _check_lengths(call, axes, sizes)
    if bad is not None:
        return bad
    v = b.node("Unsqueeze", [b.cast(x, ct, x.element_type), b.i64([-1])])   # a real signal: a trailing 1
    v = _fitted(b, v, x.shape, axes, sizes)
    y = _dft(b, v, axes[-1], onesided=1)
    for a in axes[:-1]:
        y = _dft(b, y, a)
    y = _nan_blocks(b, y, v, axes, ct)
    return b.cast(y, call.outputs[0].element_type, ct)


def _irdft(b, call):
    x = call.inputs[0]
    plan = _plan(call, complex_in=True)
    if isinstance(plan, Unsupported):
        return plan
    axes, sizes = plan
    if not axes:
        return Unsupported("IRDFT over no axes")
    last, n = axes[-1], sizes[-1]
    dim = x.shape[last] if x.rank is not None and last >= 0 else None
    if n == -1:                                  # 2 * (m - 1) samples from m bins (none from 0 or 1)
        if dim is not None and dim.is_static:
            n = max(2 * (dim.length - 1), 0)
        elif dim is None or dim.lo < 2:
            return Unsupported("IRDFT with a half-spectrum axis that may hold fewer than 2 bins (no samples)",
                               str(x.shape))
        else:
            n = None
    ct = _compute(x)
    if n == 0 or _is_empty(call, axes[:-1], sizes[:-1]):       # no samples: the real shape, fitted
        if n is None:
            return Unsupported("IRDFT of an empty spectrum with a last axis of unknown length", str(x.shape))
        fit = _fitted(b, b.cast(x, ct, x.element_type), x.shape, axes, sizes[:-1] + [n])
        return b.cast(b.node("Gather", [fit, b.const(np.int64(0))], axis=-1), call.outputs[0].element_type, ct)
    bad = _check_lengths(call, axes[:-1], sizes[:-1])
    if bad is not None:
        return bad
    # the other axes fitted to their sizes, the half-spectrum to n // 2 + 1 bins
    v = _fitted(b, b.cast(x, ct, x.element_type), x.shape, axes, sizes[:-1] + [None if n is None else n // 2 + 1])
    y = v
    for a in axes[:-1]:
        y = _dft(b, y, a, inverse=1)
    # bins 0 .. n // 2 and the conjugates of bins n - n // 2 - 1 .. 1 (of m - 2 .. 1 for the whole axis)
    start = -2 if n is None else n - (n // 2 + 1)
    mirror = b.node("Slice", [y, b.i64([start]), b.i64([0]), b.i64([last]), b.i64([-1])])
    conj = b.node("Mul", [mirror, b.const(np.asarray([1, -1], _NAN[ct]))])
    z = _dft(b, b.node("Concat", [y, conj], axis=last), last, inverse=1)
    z = _nan_blocks(b, z, v, axes, ct)
    real = b.node("Gather", [z, b.const(np.int64(0))], axis=-1)
    return b.cast(real, call.outputs[0].element_type, ct)


def _stft(b, call):
    signal, window, frame_size, frame_step = call.inputs
    out = call.outputs[0].element_type
    size, step = frame_size.scalar(), frame_step.scalar()
    if size is None or step is None:
        return Unsupported("STFT with a non-constant frame_size or frame_step")
    if signal.rank is None:
        return Unsupported("STFT of a signal of dynamic rank (batched or not decides the layout)")
    ct = "f64"
    x = b.cast(signal, ct, signal.element_type)
    if signal.rank == 1:
        x = b.node("Unsqueeze", [x, b.i64([0])])
    x = b.node("Unsqueeze", [x, b.i64([-1])])                                    # [batch, length, 1]
    w = b.cast(window, ct, window.element_type)
    wl = window.shape[0] if window.rank == 1 else None
    if wl is not None and wl.is_static:
        left = (int(size) - wl.length) // 2
        if wl.length != size:
            w = b.node("Pad", [w, b.i64([left, int(size) - wl.length - left])])
    else:                                        # the window's length read at run time
        total = b.node("Sub", [b.i64([int(size)]), b.node("Shape", [w])])
        left = b.node("Div", [total, b.i64([2])])
        w = b.node("Pad", [w, b.node("Concat", [left, b.node("Sub", [total, left])], axis=0)])
    step_, size_ = b.const(np.int64(step)), b.const(np.int64(size))
    y = b.node("STFT", [x, step_, w, size_], onesided=1)
    # the spec's sums spread a NaN (of the signal or the window) over every bin of its frame: the DC
    # bin of the STFT of IsNaN(signal) counts a frame's NaNs exactly
    counts = b.node("STFT", [b.cast(b.node("IsNaN", [x]), ct, "boolean"), step_, None, size_], onesided=1)
    dc = b.node("Slice", [counts, b.i64([0, 0]), b.i64([1, 1]), b.i64([2, 3])])
    window_nan = b.node("ReduceMax", [b.cast(b.node("IsNaN", [w]), ct, "boolean")], keepdims=0)
    y = _nan_where(b, b.node("Greater", [b.node("Add", [dc, window_nan]), b.scalar(0, ct)]), y, ct)
    if call.attrs["transpose_frames"]:
        y = b.node("Transpose", [y], perm=[0, 2, 1, 3])
    if signal.rank == 1:
        y = b.node("Squeeze", [y, b.i64([0])])
    return b.cast(y, out, ct)


LOWERINGS = {
    "DFT-7": _c2c(0),
    "IDFT-7": _c2c(1),
    "RDFT-9": _rdft,
    "IRDFT-9": _irdft,
    "STFT-15": _stft,
}
NO_ONNX = {
    "ISTFT-16": "ONNX has no inverse STFT (overlap-add of inverse transforms with window normalisation)",
}
