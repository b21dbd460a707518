"""ONNX equivalents of the transposed convolutions: both are ONNX `ConvTranspose` (opset 18) with `group`.

The pads are given explicitly, as opref resolves them (the spec's split of the total padding when
output_shape is given): ONNX's own output_shape rule puts the larger half of an odd total at the other
end, and onnxruntime clamps nothing. ONNX's output length is `stride * (X - 1) + output_padding +
dilated kernel - pads_begin - pads_end`; an output longer than the full scatter becomes ONNX
output_padding (positions no tap reaches, zeros in both) where onnxruntime takes it (below
the stride). onnxruntime's CPU ConvTranspose runs f32
and f16 only (no f64, bf16, f8 or integer kernel); a zero-length kernel axis, an empty batch or output
have no export. GroupConvolutionBackpropData's filters [G, C_IN, C_OUT, k...] become
[G * C_IN, C_OUT, k...].
"""
from __future__ import annotations

import numpy as np

from ..opset.convolution_backprop import backprop_pads
from .onnx_export import OnnxOp

_ONNX_TYPES = (np.dtype(np.float32), np.dtype(np.float16))


def _conv_transpose(data, filters, output_shape, group, attrs):
    if data.dtype not in _ONNX_TYPES or filters.dtype != data.dtype:
        return None
    n = data.ndim - 2
    kernel = filters.shape[2:]
    if 0 in kernel or 0 in data.shape:
        return None
    strides = list(attrs["strides"]) or [1] * n
    dilations = list(attrs["dilations"]) or [1] * n
    pads, ys = backprop_pads(data.shape[2:], kernel, strides=strides, dilations=dilations,
                             output_padding=attrs["output_padding"], pads_begin=attrs["pads_begin"],
                             pads_end=attrs["pads_end"], auto_pad=attrs["auto_pad"],
                             output_shape=None if output_shape is None else [int(v) for v in output_shape])
    if 0 in ys:
        return None
    begin, end, extra = [], [], []
    for x, k, s, d, (b, _), y in zip(data.shape[2:], kernel, strides, dilations, pads, ys):
        crop_end = (x - 1) * s + (k - 1) * d + 1 - b - y      # < 0: the output reaches beyond the scatter
        begin.append(b)
        end.append(max(crop_end, 0))
        extra.append(max(-crop_end, 0))
        if extra[-1] >= s:                   # onnxruntime wants output_padding < stride
            return None
    return OnnxOp("ConvTranspose", [data, filters], {
        "group": group, "kernel_shape": list(kernel), "strides": strides, "dilations": dilations,
        "pads": begin + end, "output_padding": extra})


def _convolution_backprop_data(inputs, attrs):
    data, filters, *rest = inputs
    return _conv_transpose(data, filters, rest[0] if rest else None, 1, attrs)


def _group_convolution_backprop_data(inputs, attrs):
    data, filters, *rest = inputs
    g, c, m = filters.shape[:3]
    return _conv_transpose(data, filters.reshape((g * c, m) + filters.shape[3:]), rest[0] if rest else None, g, attrs)


EXPORTS = {"ConvolutionBackpropData-1": _convolution_backprop_data,
           "GroupConvolutionBackpropData-1": _group_convolution_backprop_data}
