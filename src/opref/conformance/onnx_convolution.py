"""ONNX equivalents of the convolution ops: both are ONNX `Conv` (opset 18) with `group`.

onnxruntime's CPU Conv runs f32 and f16 only (no f64, bf16, f8 or integer kernel), so other element
types have no export. ONNX pads are [begin..., end...]; explicit pads map to them, the other modes to
`auto_pad`. GroupConvolution's filters [G, C_OUT/G, C_IN/G, k...] become [C_OUT, C_IN/G, k...].
"""
from __future__ import annotations

import numpy as np

from ..opset import get_schema
from ..opset.helpers import same_pads
from .onnx_export import OnnxOp

_ONNX_TYPES = (np.dtype(np.float32), np.dtype(np.float16))
_AUTO_PAD = {"valid": "VALID", "same_upper": "SAME_UPPER", "same_lower": "SAME_LOWER"}


def _conv(data, filters, group, attrs):
    if data.dtype not in _ONNX_TYPES or filters.dtype != data.dtype:
        return None
    n = data.ndim - 2
    if 0 in filters.shape[2:]:          # ONNX Conv has no zero-length kernel axis
        return None
    onnx_attrs = {"group": group, "kernel_shape": list(filters.shape[2:]),
                  "strides": list(attrs["strides"]) or [1] * n,
                  "dilations": list(attrs["dilations"]) or [1] * n}
    mode = attrs["auto_pad"]
    if mode in _AUTO_PAD and (mode == "valid" or all(d == 1 for d in onnx_attrs["dilations"])):
        onnx_attrs["auto_pad"] = _AUTO_PAD[mode]
    else:
        # onnxruntime rejects SAME_* with dilations > 1: spell such pads out for this input's shape.
        if mode == "explicit":
            pads = list(zip(attrs["pads_begin"] or [0] * n, attrs["pads_end"] or [0] * n))
        else:
            pads = [same_pads(size, k, s, d, mode == "same_upper") for size, k, s, d in
                    zip(data.shape[2:], filters.shape[2:], onnx_attrs["strides"], onnx_attrs["dilations"])]
        onnx_attrs["pads"] = [b for b, _ in pads] + [e for _, e in pads]
    return OnnxOp("Conv", [data, filters], onnx_attrs)


def _convolution(inputs, attrs):
    data, filters = inputs
    return _conv(data, filters, 1, get_schema("Convolution-1").bind_attrs(attrs))   # defaults filled in


def _group_convolution(inputs, attrs):
    data, filters = inputs
    g, m, c = filters.shape[:3]
    return _conv(data, filters.reshape((g * m, c) + filters.shape[3:]), g,
                 get_schema("GroupConvolution-1").bind_attrs(attrs))


EXPORTS = {"Convolution-1": _convolution, "GroupConvolution-1": _group_convolution}
