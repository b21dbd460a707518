"""ONNX equivalents of the normalization ops: BatchNormInference is BatchNormalization (inference
mode), LRN across channels is LRN, GroupNormalization-12 is GroupNormalization-21 (per-channel scale
and bias). onnxruntime's CPU kernels for these run f32 (BatchNormalization also f64).

No equivalent: MVN (ONNX's MeanVarianceNormalization has a fixed eps of 1e-9 outside the square root
and always divides by the deviation), NormalizeL2 (LpNormalization has one axis and no eps), GRN.
"""
from __future__ import annotations

import numpy as np

from .onnx_export import OnnxOp


def _bn(order):
    def export(inputs, attrs):
        data, gamma, beta, mean, var = (inputs[i] for i in order)
        if data.dtype not in (np.dtype(np.float32), np.dtype(np.float64)) or data.ndim < 2 \
                or not (var + attrs["epsilon"] > 0).all():
            return None          # onnxruntime folds the scale first: a zero deviation gives NaN, not inf
        return OnnxOp("BatchNormalization", [data, gamma, beta, mean, var], {"epsilon": attrs["epsilon"]},
                      opset=15)
    return export


def _lrn(inputs, attrs):
    data, axes = inputs
    # ONNX LRN runs across channels (onnxruntime: of 4-D f32 data), with a region centered for odd
    # sizes: other float types are widened to f32 losslessly, 2-D and 3-D data get unit axes appended
    if data.ndim not in (2, 3, 4) or [int(a) % data.ndim for a in axes.reshape(-1)] != [1] \
            or attrs["size"] % 2 == 0 or data.dtype.kind not in "fV" and "float" not in data.dtype.name \
            or not np.isfinite(data.astype(np.float32)).all():
        return None                     # (onnxruntime spreads a NaN/Inf over other regions)
    x = data.astype(np.float32).reshape(data.shape + (1,) * (4 - data.ndim))
    return OnnxOp("LRN", [x], {"alpha": attrs["alpha"], "beta": attrs["beta"], "bias": attrs["bias"],
                               "size": attrs["size"]}, opset=13, output=lambda y: y.reshape(data.shape))


def _group_norm(inputs, attrs):
    data, scale, bias = inputs
    if data.dtype != np.float32 or data.ndim < 3:
        return None
    return OnnxOp("GroupNormalization", [data, scale, bias],
                  {"num_groups": attrs["num_groups"], "epsilon": attrs["epsilon"]}, opset=21)


EXPORTS = {"BatchNormInference-1": _bn((2, 0, 1, 3, 4)), "BatchNormInference-5": _bn((0, 1, 2, 3, 4)),
           "LRN-1": _lrn, "GroupNormalization-12": _group_norm}
