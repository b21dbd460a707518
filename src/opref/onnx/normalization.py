"""Normalization ops, spelled out from ONNX reductions and arithmetic in f32 (f64 for f64 data), the
result rounded once to the data's type, as opref and OpenVINO's CPU plugin compute them.

ONNX's own ops do not fit exactly: BatchNormalization (onnxruntime folds the scale first, so a zero
deviation gives NaN, not inf), MeanVarianceNormalization (fixed eps 1e-9 outside the square root,
always divides), LpNormalization (one axis, no eps), LRN (across channels of 4-D f32 only; onnxruntime
spreads a NaN over other regions), GroupNormalization (f32 only in onnxruntime, scale per group before
opset 21). So: BatchNormInference is gamma (x - mean) / sqrt(var + eps) + beta with the [C] inputs
reshaped to the channel axis; MVN centres by ReduceMean over the axes (MVN-1: reduction_axes, else
from axis 1 or 2 on) and divides by sqrt(var + eps) or sqrt(var) + eps; NormalizeL2 divides by
sqrt(sum x^2 + eps) or sqrt(max(sum x^2, eps)) (over no axes: 1 for non-zero elements, as OpenVINO);
GRN is NormalizeL2 over axis 1 with bias added; GroupNormalization reshapes to [N, G, -1]; LRN sums the
squares over a box of `size` along each axis as shifted slices of the zero-padded squares.
"""
from __future__ import annotations

import numpy as np

from .builder import Unsupported


def _ct(x) -> str:
    return "f64" if x.element_type == "f64" else "f32"


def _channel(b, v, rank, ct):
    """A [C] vector as ct, shaped to broadcast along axis 1 of a rank-`rank` tensor."""
    v = b.cast(v, ct, v.element_type)
    return v if rank <= 2 else b.node("Reshape", [v, b.i64([-1] + [1] * (rank - 2))])


def _batch_norm(order):
    def lower(b, call):
        data, gamma, beta, mean, var = (call.inputs[i] for i in order)
        if data.rank is None:
            return Unsupported("BatchNormInference of dynamic rank (the channel axis is reshaped for)")
        ct, r = _ct(data), data.rank
        g, bt, m, v = (_channel(b, p, r, ct) for p in (gamma, beta, mean, var))
        x = b.cast(data, ct, data.element_type)
        std = b.node("Sqrt", [b.node("Add", [v, b.scalar(call.attrs["epsilon"], ct)])])
        y = b.node("Add", [b.node("Div", [b.node("Mul", [g, b.node("Sub", [x, m])]), std]), bt])
        return b.cast(y, call.outputs[0].element_type, ct)
    return lower


def _mvn(b, data, axes, normalize_variance, eps, inside, out):
    ct = _ct(data)
    x = b.cast(data, ct, data.element_type)
    ax = b.i64(axes)
    centered = b.node("Sub", [x, b.node("ReduceMean", [x, ax], keepdims=1, noop_with_empty_axes=1)])
    if normalize_variance:
        var = b.node("ReduceMean", [b.node("Mul", [centered, centered]), ax], keepdims=1, noop_with_empty_axes=1)
        e = b.scalar(eps, ct)
        den = b.node("Sqrt", [b.node("Add", [var, e])]) if inside else b.node("Add", [b.node("Sqrt", [var]), e])
        centered = b.node("Div", [centered, den])
    return b.cast(centered, out, ct)


def _mvn1(b, call):
    x, a = call.inputs[0], call.attrs
    if x.rank is None:
        return Unsupported("MVN of dynamic rank (the axes are normalised against the rank)")
    r = x.rank
    axes = sorted({v % r for v in a["reduction_axes"]}) if a["reduction_axes"] else \
        list(range(1 if a["across_channels"] else 2, r))
    return _mvn(b, x, axes, a["normalize_variance"], a["eps"], True, call.outputs[0].element_type)


def _mvn6(b, call):
    x, axes = call.inputs
    if not axes.is_const:
        return Unsupported("MVN-6 needs constant axes (empty axes mean no reduction)")
    if x.rank is None:
        return Unsupported("MVN of dynamic rank (the axes are normalised against the rank)")
    ax = sorted({v % x.rank for v in axes.ints()}) if x.rank else []
    a = call.attrs
    return _mvn(b, x, ax, a["normalize_variance"], a["eps"], a["eps_mode"] == "inside_sqrt",
                call.outputs[0].element_type)


def _normalize_l2(b, call):
    data, axes = call.inputs
    if not axes.is_const:
        return Unsupported("NormalizeL2 needs constant axes (empty axes mean no reduction)")
    if data.rank is None:
        return Unsupported("NormalizeL2 of dynamic rank (the axes are normalised against the rank)")
    ax = sorted({v % data.rank for v in axes.ints()}) if data.rank else []
    ct = _ct(data)
    x = b.cast(data, ct, data.element_type)
    sq = b.node("Mul", [x, x])
    if ax:
        sq = b.node("ReduceSum", [sq, b.i64(ax)], keepdims=1)
    eps = b.scalar(call.attrs["eps"], ct)
    norm = b.node("Sqrt", [b.node("Add" if call.attrs["eps_mode"] == "add" else "Max", [sq, eps])])
    y = b.node("Div", [x, norm])
    if not ax:                      # each element over itself: 1 where it is non-zero
        y = b.node("Where", [b.node("Not", [b.node("Equal", [x, b.scalar(0, ct)])]), b.scalar(1, ct), y])
    return b.cast(y, call.outputs[0].element_type, ct)


def _grn(b, call):
    data = call.inputs[0]
    ct = _ct(data)
    x = b.cast(data, ct, data.element_type)
    s = b.node("ReduceSum", [b.node("Mul", [x, x]), b.i64([1])], keepdims=1)
    y = b.node("Div", [x, b.node("Sqrt", [b.node("Add", [s, b.scalar(call.attrs["bias"], ct)])])])
    return b.cast(y, call.outputs[0].element_type, ct)


def _group_norm(b, call):
    data, scale, bias = call.inputs
    if data.rank is None:
        return Unsupported("GroupNormalization of dynamic rank (the channel axis is reshaped for)")
    if any(d.lo == 0 for d in data.shape):
        return Unsupported("GroupNormalization of possibly empty data (ONNX's Reshape cannot infer a dim there)",
                           str(data.shape))
    ct, r, g = _ct(data), data.rank, call.attrs["num_groups"]
    x = b.node("Reshape", [b.cast(data, ct, data.element_type), b.i64([0, g, -1])])
    ax = b.i64([2])
    centered = b.node("Sub", [x, b.node("ReduceMean", [x, ax], keepdims=1)])
    var = b.node("ReduceMean", [b.node("Mul", [centered, centered]), ax], keepdims=1)
    y = b.node("Div", [centered, b.node("Sqrt", [b.node("Add", [var, b.scalar(call.attrs["epsilon"], ct)])])])
    y = b.node("Reshape", [y, b.node("Shape", [data])])
    y = b.node("Add", [b.node("Mul", [y, _channel(b, scale, r, ct)]), _channel(b, bias, r, ct)])
    return b.cast(y, call.outputs[0].element_type, ct)


_LRN_MAX_TAPS = 257      # a dynamic LRN axis is summed over all `size` taps: bounded so the graph stays small


def _lrn(b, call):
    data, axes = call.inputs
    if not axes.is_const:
        return Unsupported("LRN needs constant axes")
    if data.rank is None:
        return Unsupported("LRN of dynamic rank (the axes are normalised against the rank)")
    a, r, ct = call.attrs, data.rank, _ct(data)
    ax = sorted({v % r for v in axes.ints()}) if r else []
    x = b.cast(data, ct, data.element_type)
    sq = b.node("Mul", [x, x])
    for k in ax:
        half = (a["size"] - 1) // 2
        d = data.shape[k]
        if d.hi is not None:            # taps beyond the axis read only the padding
            half = min(half, max(d.hi - 1, 0))
        if 2 * half + 1 > _LRN_MAX_TAPS:
            return Unsupported("LRN with a window wider than the graph spells out on a dynamic axis",
                               f"size={a['size']}")
        if half == 0:
            continue
        pads = [0] * (2 * r)
        pads[k] = pads[r + k] = half
        padded = b.node("Pad", [sq, b.i64(pads), b.scalar(0, ct)])
        total = None
        for t in range(2 * half + 1):
            end = t - 2 * half if t < 2 * half else np.iinfo(np.int64).max
            part = b.node("Slice", [padded, b.i64([t]), b.i64([end]), b.i64([k])])
            total = part if total is None else b.node("Add", [total, part])
        sq = total
    f = np.float64 if ct == "f64" else np.float32
    scale = b.scalar(f(a["alpha"]) / f(float(a["size"]) ** len(ax)), ct)
    den = b.node("Pow", [b.node("Add", [b.scalar(a["bias"], ct), b.node("Mul", [scale, sq])]),
                         b.scalar(a["beta"], ct)])
    return b.cast(b.node("Div", [x, den]), call.outputs[0].element_type, ct)


LOWERINGS = {
    "BatchNormInference-1": _batch_norm((2, 0, 1, 3, 4)),
    "BatchNormInference-5": _batch_norm((0, 1, 2, 3, 4)),
    "MVN-1": _mvn1,
    "MVN-6": _mvn6,
    "NormalizeL2-1": _normalize_l2,
    "GRN-1": _grn,
    "GroupNormalization-12": _group_norm,
    "LRN-1": _lrn,
}
NO_ONNX: dict[str, str] = {}
