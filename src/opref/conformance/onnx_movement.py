"""ONNX equivalents: data movement. onnxruntime's CPU kernels take f32/f64 for DepthToSpace and
SpaceToDepth and f32 for Col2Im: other numeric data is widened to f32 (lossless for the small values
of the case tables) so that every sampled shape and attribute choice meets onnxruntime."""
from __future__ import annotations

import numpy as np

from ..types import element_type
from .onnx_export import OnnxOp


def _f32(x):
    return x if x.dtype in (np.float32, np.float64) else x.astype(np.float32)


def _numeric(x) -> bool:
    et = element_type(x)
    return (et.is_float or et.is_integral) and et.bits >= 8


def _depth_to_space(inputs, attrs):
    (x,) = inputs
    if x.ndim != 4 or not _numeric(x):
        return None
    return OnnxOp("DepthToSpace", [_f32(x)], {"blocksize": attrs["block_size"],
                                         "mode": "DCR" if attrs["mode"] == "blocks_first" else "CRD"})


def _space_to_depth(inputs, attrs):
    (x,) = inputs
    if x.ndim != 4 or not _numeric(x) or attrs["mode"] != "blocks_first":   # ONNX SpaceToDepth is blocks_first only
        return None
    return OnnxOp("SpaceToDepth", [_f32(x)], {"blocksize": attrs["block_size"]})


def _col2im(inputs, attrs):
    data, size, kernel = inputs
    if not _numeric(data):
        return None
    data = data.astype(np.float32)
    unbatched = data.ndim == 2                            # ONNX Col2Im is batched-only, int64 sizes
    return OnnxOp("Col2Im", [data[None] if unbatched else data, size.astype(np.int64), kernel.astype(np.int64)],
                  {"strides": list(attrs["strides"]), "dilations": list(attrs["dilations"]),
                   "pads": list(attrs["pads_begin"]) + list(attrs["pads_end"])},
                  output=(lambda y: y[0]) if unbatched else (lambda y: y))

EXPORTS = {"DepthToSpace-1": _depth_to_space, "SpaceToDepth-1": _space_to_depth, "Col2Im-15": _col2im}
