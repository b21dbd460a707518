"""ONNX equivalents: signal ops. ONNX DFT-20 transforms one axis per node (an axis input counted on
the real tensor, complex pairs or a real channel of 1 as the last dim, dft_length trimming or
zero-padding): DFT/IDFT/RDFT cases over one axis map onto it (inverse=1 for IDFT, onesided=1 and a
trailing dim of 1 for RDFT). onnxruntime's DFT takes f32/f64: f16/bf16 go through f32. ONNX has no
complex-to-real inverse (onesided with inverse is not allowed), so IRDFT has no export. Cases with
NaN are left out (which outputs a NaN reaches differs between FFT algorithms and the spec's sums),
as are transforms of length 0 (onnxruntime rejects a dft_length of 0)."""
from __future__ import annotations

import numpy as np

from .onnx_export import OnnxOp


def _one_axis(inputs, complex_in):
    data, axes = inputs[0], np.asarray(inputs[1]).reshape(-1)
    if axes.size != 1 or np.isnan(data.astype(np.float32)).any():
        return None
    r = data.ndim - 1 if complex_in else data.ndim
    axis = int(axes[0]) + r if axes[0] < 0 else int(axes[0])
    size = data.shape[axis]
    if len(inputs) > 2 and int(np.asarray(inputs[2]).reshape(-1)[0]) != -1:
        size = int(np.asarray(inputs[2]).reshape(-1)[0])
    if size == 0 or data.size == 0:
        return None
    x = data if data.dtype in (np.float32, np.float64) else data.astype(np.float32)
    if not complex_in:
        x = x[..., None]
    return x, np.array(size, np.int64), np.array(axis, np.int64)


def _dft(inverse, onesided=0):
    def export(inputs, attrs):
        got = _one_axis(inputs, complex_in=not onesided)
        if got is None:
            return None
        x, size, axis = got
        return OnnxOp("DFT", [x, size, axis], {"inverse": inverse, "onesided": onesided}, opset=20,
                      output_types=[x.dtype])
    return export


EXPORTS = {"DFT-7": _dft(0), "IDFT-7": _dft(1), "RDFT-9": _dft(0, onesided=1)}
