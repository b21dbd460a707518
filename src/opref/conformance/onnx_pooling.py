"""ONNX equivalents of the pooling ops: MaxPool (opset 12: integer data, dilations, indices) and
AveragePool (opset 19: dilations). ONNX has no adaptive pooling (only the global kind), so the
Adaptive*Pool ops have no entry.

The auto_pad modes are spelled out as explicit pads for the case's shape. Exports return None where
ONNX means something else: rounding_type ceil where ONNX's ceil_mode drops a last window that starts
in the end padding (ONNX's ceil_mode is OpenVINO's ceil_torch), windows that hold no data at all
(ONNX and OpenVINO give different conventional values), NaN in MaxPool (onnxruntime's indices
skip it differently), pads as large as the kernel (onnxruntime rejects them), AveragePool including the padding where a
window runs past it (ONNX divides by the clipped window, OpenVINO by the kernel), MaxPool indices
other than OpenVINO's axis 0 (ONNX counts over the whole tensor), and element types onnxruntime's
CPU kernels lack.
"""
from __future__ import annotations

import numpy as np

from ..opset.helpers import same_pads
from ..opset.pooling import pool_output_dims
from ..shapes import PartialShape
from .onnx_export import OnnxOp, Unsupported

_MAX_TYPES = tuple(np.dtype(t) for t in (np.float32, np.float16, np.float64, np.int8, np.uint8))
_AVG_TYPES = (np.dtype(np.float32),)       # onnxruntime has AveragePool-19 for f32 only


def _geometry(op, data, attrs):
    """Resolved pads, dilations and output sizes, None when ONNX's windows are OpenVINO's (else why
    not), and whether a window runs past the padding."""
    n = data.ndim - 2
    kernel, strides = list(attrs["kernel"]), list(attrs["strides"])
    dil = list(attrs.get("dilations", ())) or [1] * n
    mode = attrs["auto_pad"]
    if mode == "valid":
        pads = [(0, 0)] * n
    elif mode == "explicit":
        pads = list(zip(attrs["pads_begin"] or [0] * n, attrs["pads_end"] or [0] * n))
    else:
        pads = [same_pads(size, k, s, d, mode == "same_upper")
                for size, k, s, d in zip(data.shape[2:], kernel, strides, dil)]
    out = pool_output_dims(op, PartialShape(data.shape), kernel=kernel, strides=strides, dilations=dil,
                           pads_begin=attrs["pads_begin"], pads_end=attrs["pads_end"], auto_pad=mode,
                           rounding_type=attrs["rounding_type"]).to_shape()[2:]
    same = None                                            # None: ONNX's windows are OpenVINO's
    for size, (pb, pe), k, s, d, o in zip(data.shape[2:], pads, kernel, strides, dil, out):
        pos = np.arange(o)[:, None] * s + np.arange(k)[None, :] * d - pb
        if same is None and not ((pos >= 0) & (pos < size)).any(axis=1).all():
            same = Unsupported("a window holding no data (ONNX and OpenVINO give different values)",
                               f"shape={data.shape} pads={pads} kernel={kernel}")
        if same is None and attrs["rounding_type"] == "ceil" and o > 1 and (o - 1) * s >= size + pb:
            same = Unsupported("rounding_type ceil with a last window starting in the end padding "
                               "(ONNX's ceil_mode drops it)", f"shape={data.shape} pads={pads} strides={strides}")
    onnx = {"kernel_shape": kernel, "strides": strides, "dilations": dil,
            "pads": [b for b, _ in pads] + [e for _, e in pads],
            "ceil_mode": int(attrs["rounding_type"] != "floor")}
    overhang = any((o - 1) * s + (k - 1) * d + 1 > size + pb + pe
                   for size, (pb, pe), k, s, d, o in zip(data.shape[2:], pads, kernel, strides, dil, out))
    if same is None and not all(max(p) < k for p, k in zip(pads, kernel)):
        same = Unsupported("a pad as large as the kernel (onnxruntime rejects it)", f"pads={pads} kernel={kernel}")
    return onnx, same, overhang


def _max_pool(op, with_indices):
    def export(inputs, attrs):
        (data,) = inputs
        if data.dtype not in _MAX_TYPES:
            return Unsupported("element type onnxruntime's MaxPool lacks", str(data.dtype))
        if data.dtype.kind == "f" and np.isnan(data).any():
            return Unsupported("NaN in the data (onnxruntime's indices skip it differently)")
        onnx, same, _ = _geometry(op, data, attrs)
        if same is not None:
            return same
        types = [data.dtype]
        if with_indices and attrs["axis"] in (0, -data.ndim):
            types.append(np.int64)
        return OnnxOp("MaxPool", [data], onnx, opset=12, output_types=types)
    return export


def _avg_pool(op):
    def export(inputs, attrs):
        (data,) = inputs
        if data.dtype not in _AVG_TYPES:
            return Unsupported("element type other than f32 (onnxruntime has AveragePool-19 for f32 only)",
                               str(data.dtype))
        onnx, same, overhang = _geometry(op, data, attrs)
        include = not attrs["exclude-pad"]
        if same is not None:
            return same
        if include and overhang:
            return Unsupported("padding counted where a window runs past it (ONNX divides by the clipped "
                               "window, OpenVINO by the kernel)")
        return OnnxOp("AveragePool", [data], {**onnx, "count_include_pad": int(include)}, opset=19)
    return export


EXPORTS = {"MaxPool-1": _max_pool("MaxPool-1", False), "MaxPool-8": _max_pool("MaxPool-8", True),
           "MaxPool-14": _max_pool("MaxPool-14", True),
           "AvgPool-1": _avg_pool("AvgPool-1"), "AvgPool-14": _avg_pool("AvgPool-14"),
           "AvgPool-16": _avg_pool("AvgPool-16")}
