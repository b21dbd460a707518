"""ONNX equivalent of DeformableConvolution-8: ONNX `DeformConv` (opset 19), whose sampling is
torchvision's: locations within one pixel outside the map interpolate with zeros, i.e.
bilinear_interpolation_pad = true (DeformableConvolution-1 and pad = false clamp to the map instead:
no export). Offsets ([N, offset_group * KH * KW * 2, OH, OW], (y, x) per tap) and mask share
OpenVINO's layouts; pads are given explicitly as opref resolves auto_pad. onnxruntime's CPU DeformConv
runs f32 only here.
"""
from __future__ import annotations

import numpy as np

from ..runtime.kernels.convolution import _pads
from .onnx_export import OnnxOp


def _deformable_convolution_8(inputs, attrs):
    data, offsets, filters, *rest = inputs
    if not attrs["bilinear_interpolation_pad"] or data.dtype != np.float32 or 0 in data.shape:
        return None
    kernel = list(filters.shape[2:])
    strides, dilations = list(attrs["strides"]) or [1, 1], list(attrs["dilations"]) or [1, 1]
    pads = _pads(data.shape[2:], kernel, strides, dilations, attrs["pads_begin"], attrs["pads_end"],
                 attrs["auto_pad"])
    ins = [data, filters, offsets]
    if rest:
        ins += [np.zeros(filters.shape[0], np.float32), rest[0]]          # B (none in OpenVINO), mask
    return OnnxOp("DeformConv", ins, {
        "kernel_shape": kernel, "strides": strides, "dilations": dilations, "group": attrs["group"],
        "offset_group": attrs["deformable_group"], "pads": [b for b, _ in pads] + [e for _, e in pads]}, opset=19)


EXPORTS = {"DeformableConvolution-8": _deformable_convolution_8}
