"""Pooling. MaxPool is ONNX MaxPool (with indices for MaxPool-8/14), AvgPool is AveragePool-19, with
the windows resolved from static spatial dims: auto_pad becomes explicit pads, and every rounding
type (floor, ceil, ceil_torch) becomes floor windows over explicit pads, the end pad grown to cover a
last window that rounding up lets run past the padding (OpenVINO's ceil keeps a last window that
starts in the end padding, ONNX's ceil_mode drops it; opref's overhang pads like the padding).
onnxruntime rejects a pad as large as the kernel: those are not lowered.

MaxPool glue: opref takes a NaN-ignoring max that starts from the type's lowest finite value (NaN and
-inf are never taken; a window that takes nothing gives the lowest value and the index of its plane's
first element). onnxruntime propagates a leading NaN, so NaN becomes -inf before pooling (computed in
f32 for narrow floats, f64 for f64 and integers up to 32 bits, where padding is below every value),
and a -inf result becomes the lowest value with the plane's first index. ONNX's indices count over the
whole tensor (N, C, spatial), which is OpenVINO's axis 0; other axes take it modulo the size from axis.

AvgPool glue: onnxruntime has AveragePool for f32 only (f16/bf16/f8 are averaged in f32 as opref; i8/u8
in f32 and rounded half to even; f64 and wider integers are not lowered: f32 would round them).
With exclude-pad ONNX divides by the data positions, as opref; without it opref divides by the whole
kernel when there is any padding (count_include_pad over the grown pads) and by the data positions
when there is none. A window that holds no data (known from the geometry) is 0, as opref.
Adaptive pooling has no ONNX op (only the global kind).
"""
from __future__ import annotations

import math

import numpy as np

from ..opset.helpers import same_pads
from ..types import element_type
from .builder import Unsupported


def _geometry(call, x, dilated=True):
    """(kernel, strides, dilations, pads_begin, pads_end (grown), out sizes, any original pad) or Unsupported."""
    a = call.attrs
    if x.rank is None or not all(d.is_static for d in list(x.shape)[2:]):
        return Unsupported("pooling needs static spatial dims (the windows are resolved from them)")
    out_shape = call.outputs[0].shape
    sizes = [d.length for d in list(x.shape)[2:]]
    out = [d.length for d in list(out_shape)[2:]]
    n = len(sizes)
    kernel, strides = list(a["kernel"]), list(a["strides"])
    dil = list(a.get("dilations", ()) or ()) or [1] * n
    mode = a["auto_pad"]
    if mode == "valid":
        pads = [(0, 0)] * n
    elif mode == "explicit":
        pads = list(zip(list(a["pads_begin"]) or [0] * n, list(a["pads_end"]) or [0] * n))
    else:
        pads = [same_pads(s, k, st, d, mode == "same_upper") for s, k, st, d in zip(sizes, kernel, strides, dil)]
    begin, end = [], []
    for size, (pb, pe), k, s, d, o in zip(sizes, pads, kernel, strides, dil, out):
        need = (o - 1) * s + (k - 1) * d + 1 if o else 0
        pe = max(pe, need - size - pb)
        if pb >= k or pe >= k:
            return Unsupported("a pad as large as the kernel (onnxruntime rejects it)",
                               f"kernel={kernel} pads={pads}")
        if o and (size + pb + pe - ((k - 1) * d + 1)) // s + 1 != o:
            return Unsupported("windows ONNX cannot lay out as OpenVINO's", f"{a}")
        begin.append(pb)
        end.append(pe)
    return kernel, strides, dil, begin, end, out, sizes, any(p for pair in pads for p in pair)


def _empty_windows(kernel, strides, dil, begin, sizes, out):
    """A bool array [o...]: windows whose taps all land in padding (None when there are none)."""
    mask = np.zeros(out, bool)
    for i, (size, k, s, d, pb, o) in enumerate(zip(sizes, kernel, strides, dil, begin, out)):
        pos = np.arange(o)[:, None] * s + np.arange(k)[None, :] * d - pb
        none = ~((pos >= 0) & (pos < size)).any(axis=1)
        mask |= none.reshape((-1,) + (1,) * (len(out) - 1 - i))
    return mask if mask.any() else None


def _max_pool(with_indices):
    def lower(b, call):
        x = call.inputs[0]
        g = _geometry(call, x)
        if isinstance(g, Unsupported):
            return g
        kernel, strides, dil, begin, end, out, sizes, _ = g
        et = x.element_type
        t = element_type(et)
        if not t.is_float and t.bits > 32:
            return Unsupported("64-bit integer MaxPool (onnxruntime's MaxPool takes f32/f64/i8/u8; f64 rounds them)",
                               et)
        ct = "f32" if t.is_float and et != "f64" else "f64"
        v = b.cast(x, ct, et)
        if t.is_float:
            v = b.node("Where", [b.node("IsNaN", [v]), b.scalar(-np.inf, ct), v])
        res = b.node("MaxPool", [v], 2 if with_indices else 1, kernel_shape=kernel, strides=strides,
                     dilations=dil, pads=begin + end)
        y, idx = (res if with_indices else (res, None))
        lowest = float(__import__("ml_dtypes").finfo(t.dtype).min) if t.is_float else int(np.iinfo(t.dtype).min)
        taken_nothing = b.node("IsInf", [y], detect_positive=0)
        values = b.cast(b.node("Where", [taken_nothing, b.scalar(lowest, ct), y]), et, ct)
        if not with_indices:
            return values
        plane = math.prod(sizes)
        base = b.node("Sub", [idx, b.node("Mod", [idx, b.scalar(plane, "i64")])]) if plane else idx
        idx = b.node("Where", [taken_nothing, base, idx])
        r = x.rank
        axis = call.attrs["axis"] + r if call.attrs["axis"] < 0 else call.attrs["axis"]
        if axis > 0:
            dims = list(x.shape)[axis:]
            if all(d.is_static for d in dims):
                period = b.i64([math.prod(d.length for d in dims)])
            else:
                period = b.node("ReduceProd", [b.node("Shape", [x], start=axis)], keepdims=1)
            idx = b.node("Mod", [idx, period])
        return [values, b.cast(idx, call.outputs[1].element_type, "i64")]
    return lower


def _avg_pool(b, call):
    x = call.inputs[0]
    g = _geometry(call, x)
    if isinstance(g, Unsupported):
        return g
    kernel, strides, dil, begin, end, out, sizes, padded = g
    et = x.element_type
    t = element_type(et)
    if et == "f64" or (not t.is_float and t.bits > 8):
        return Unsupported("AvgPool of f64 or integers wider than 8 bits (onnxruntime's AveragePool is f32 only "
                           "and f32 would round them)", et)
    if b.opset < 19 and any(d != 1 for d in dil):
        return Unsupported("dilated AvgPool needs ONNX opset 19")
    include = not call.attrs["exclude-pad"] and padded
    y = b.node("AveragePool", [b.cast(x, "f32", et)], kernel_shape=kernel, strides=strides,
               dilations=dil if b.opset >= 19 else None, pads=begin + end, count_include_pad=int(include))
    empty = _empty_windows(kernel, strides, dil, begin, sizes, out)
    if empty is not None:
        y = b.node("Where", [b.const(empty), b.scalar(0, "f32"), y])
    if not t.is_float:
        y = b.node("Round", [y])
    return b.cast(y, call.outputs[0].element_type, "f32")


LOWERINGS = {
    "MaxPool-1": _max_pool(False),
    "MaxPool-8": _max_pool(True),
    "MaxPool-14": _max_pool(True),
    "AvgPool-1": _avg_pool,
    "AvgPool-14": _avg_pool,
    "AvgPool-16": _avg_pool,
}
NO_ONNX = {
    "AdaptiveAvgPool-8": "ONNX has no adaptive pooling (only GlobalAveragePool, one bin)",
    "AdaptiveMaxPool-8": "ONNX has no adaptive pooling (only GlobalMaxPool, one bin, no indices)",
}
