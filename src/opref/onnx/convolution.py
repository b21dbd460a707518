"""Convolutions. Convolution-1 is ONNX Conv, GroupConvolution-1 is Conv with `group` (filters
[G, C_OUT, C_IN, k...] reshaped to [G * C_OUT, C_IN, k...]); the transposed ones are ConvTranspose
(GroupConvolutionBackpropData's filters [G, C_IN, C_OUT, k...] become [G * C_IN, C_OUT, k...]);
DeformableConvolution-8 with bilinear_interpolation_pad = true is DeformConv (opset 19);
tf.DepthwiseConv2dNative is Conv with group = in_channels (NHWC transposed to NCHW and back).

Element types: onnxruntime's Conv/ConvTranspose run f32 only, DeformConv f32/f64, so f16/bf16/f8
compute in f32 and round back once (as opref's kernels accumulate them). i8/u8 (and i4/u4, carried
in them) convolve through ConvInteger, whose exact i32 sums are wrapped to the type's width by
Mod glue (integer convolutions wrap); the filter shape must be static to bound those sums. Other
integer types and f64 Conv have no onnxruntime kernel (nor one that holds them exactly).

Padding: explicit pads are ONNX pads [begin..., end...]; same_upper/same_lower are resolved to pads
on static spatial dims, and on dynamic ones padded by Pad glue reading the sizes at run time
(onnxruntime's own SAME rejects dilations and shifts windows when the kernel is shorter than the
stride). Transposed convolutions need static spatial data dims (their pads, and OpenVINO's rule for
an empty axis, depend on them); an output_padding beyond onnxruntime's limit (< stride) and an
output_shape longer than the scatter are zeros padded at the end.

No ONNX form: DeformableConvolution-1 and -8 with bilinear_interpolation_pad = false (they clamp the
sampled neighbours into the map; DeformConv reads zeros outside it) and BinaryConvolution (1-bit
filters: ONNX has no u1 type, nor an xnor-popcount convolution).
"""
from __future__ import annotations

import math

import numpy as np

from ..opset.convolution_backprop import backprop_pads
from ..opset.helpers import same_pads
from ..types import element_type
from .builder import Unsupported
from .glue import carrier, unsupported_type

_SAME = ("same_upper", "same_lower")
_INT_CARRIERS = {"i8": "i8", "u8": "u8", "i4": "i8", "u4": "u8"}    # ConvInteger's types, and what carries
_I32_MAX = 2 ** 31 - 1


def _float_carrier(b, op_type, x):
    """The float type a float x computes in (its own, one holding it, else f32 for the narrow floats);
    None for integers (a float detour would neither wrap nor stay exact) and for an f64 kernel lacks."""
    if not x.et.is_float:
        return None
    return carrier(x.element_type, b.kernel_types(op_type)) or (None if x.element_type == "f64" else "f32")


def _defaults(attrs, n):
    """strides and dilations, empty lists standing for ones."""
    return list(attrs["strides"]) or [1] * n, list(attrs["dilations"]) or [1] * n


def _kernel(filters, lead):
    """The static kernel dims of a filter shape (spatial dims from `lead` on), or an Unsupported."""
    if filters.rank is None:
        return Unsupported("convolution with filters of dynamic rank (ONNX needs the kernel rank)")
    dims = list(filters.shape)[lead:]
    if not all(d.is_static for d in dims):
        return Unsupported("convolution needs static kernel dims", str(filters.shape))
    k = [d.length for d in dims]
    if 0 in k:
        return Unsupported("convolution with a zero-length kernel axis (ONNX Conv has none)", str(filters.shape))
    return k


def _spatial(x):
    """The static spatial dims of a Value's shape, else None."""
    dims = list(x.shape)[2:] if x.rank is not None else None
    return [d.length for d in dims] if dims is not None and all(d.is_static for d in dims) else None


def _same_pad_glue(b, x, kernel, strides, dilations, upper):
    """x zero-padded as SAME asks, its spatial sizes read at run time: total = max((ceil(n / s) - 1) * s
    + window - n, 0), the odd one at the end (upper) or the beginning (lower)."""
    n = len(kernel)
    s = b.i64(strides)
    size = b.node("Slice", [b.node("Shape", [x]), b.i64([2]), b.i64([2 + n])])
    out = b.node("Div", [b.node("Add", [size, b.i64([v - 1 for v in strides])]), s])
    windows = b.i64([(k - 1) * d + 1 for k, d in zip(kernel, dilations)])
    total = b.node("Max", [b.node("Sub", [b.node("Add", [b.node("Mul", [b.node("Sub", [out, b.i64([1] * n)]), s]),
                                                         windows]), size]), b.i64([0] * n)])
    small = b.node("Div", [total, b.i64([2] * n)])
    large = b.node("Sub", [total, small])
    begin, end = (small, large) if upper else (large, small)
    pads = b.node("Concat", [b.i64([0, 0]), begin, b.i64([0, 0]), end], axis=0)
    return b.node("Pad", [x, pads])


def _padding(b, call, data, x, kernel, n, strides, dilations):
    """(data to convolve, ONNX pads or None) for the op's auto_pad mode; `data` is x's name (cast)."""
    attrs = call.attrs
    mode = attrs["auto_pad"]
    if mode == "valid":
        return data, None
    if mode == "explicit":
        pads = list(attrs["pads_begin"] or [0] * n) + list(attrs["pads_end"] or [0] * n)
        return data, (pads if any(pads) else None)
    sizes = _spatial(x)
    if sizes is not None:
        pads = [same_pads(size, k, s, d, mode == "same_upper")
                for size, k, s, d in zip(sizes, kernel, strides, dilations)]
        return data, [p for p, _ in pads] + [p for _, p in pads]
    if x.rank is None:
        return Unsupported("SAME padding on data of dynamic rank", str(x.shape))
    return _same_pad_glue(b, data, kernel, strides, dilations, mode == "same_upper"), None


def _integer_bound(x, kernel, filters, c_in_axis):
    """None when the i32 sums of an integer convolution stay in range, else an Unsupported."""
    c = filters.shape[c_in_axis]
    if not c.is_static:
        return Unsupported("integer convolution needs static filter dims (to bound its i32 sums)", str(filters.shape))
    et = element_type(x.element_type)
    biggest = (1 << (et.bits - 1)) ** 2 if et.is_signed else ((1 << et.bits) - 1) ** 2
    if c.length * math.prod(kernel) * biggest > _I32_MAX:
        return Unsupported("integer convolution whose sums may leave i32", str(filters.shape))
    return None


def _wrap(b, y32, out_et):
    """i32 sums wrapped to out_et's width (two's complement for signed types), then cast exactly."""
    et = element_type(out_et)
    m = 1 << et.bits
    if et.is_signed:
        half = b.const(np.int32(m // 2))
        y32 = b.node("Sub", [b.node("Mod", [b.node("Add", [y32, half]), b.const(np.int32(m))]), half])
    else:
        y32 = b.node("Mod", [y32, b.const(np.int32(m))])
    return b.cast(y32, out_et, "i32")


def _conv(b, call, group, c_in_axis):
    """Conv (or ConvInteger) of the data with the filters ([C_OUT, C_IN, k...], or grouped: c_in_axis 2)."""
    x, filters = call.inputs[0], call.inputs[1]
    out = call.outputs[0].element_type
    kernel = _kernel(filters, c_in_axis + 1)
    if isinstance(kernel, Unsupported):
        return kernel
    n = len(kernel)
    strides, dilations = _defaults(call.attrs, n)
    et = x.element_type
    ct = _float_carrier(b, "Conv", x)
    integer = ct is None and et in _INT_CARRIERS
    if ct is None and not integer:
        return unsupported_type("Conv", et)
    if integer:
        bound = _integer_bound(x, kernel, filters, c_in_axis)
        if bound is not None:
            return bound
        ct = _INT_CARRIERS[et]
    padded = _padding(b, call, b.cast(x, ct, et), x, kernel, n, strides, dilations)
    if isinstance(padded, Unsupported):
        return padded
    data, pads = padded
    weights = b.cast(filters, ct, et)
    if group is not None:
        weights = _merged_filters(b, weights, filters)
    attrs = dict(group=group or 1, kernel_shape=kernel, strides=strides, dilations=dilations, pads=pads)
    if integer:
        return _wrap(b, b.node("ConvInteger", [data, weights], **attrs), out)
    return b.cast(b.node("Conv", [data, weights], **attrs), out, ct)


def _merged_filters(b, w, filters):
    """Grouped filters [G, A, B, k...] (w: their name, cast to the compute type) as [G * A, B, k...]:
    a constant shape when static, else read from the filters' own shape at run time."""
    if filters.static_shape is not None:
        g, a, *rest = filters.static_shape
        return b.node("Reshape", [w, b.i64([g * a] + rest)])
    tail = b.node("Slice", [b.node("Shape", [w]), b.i64([2]), b.i64([filters.rank])])
    return b.node("Reshape", [w, b.node("Concat", [b.i64([-1]), tail], axis=0)])


def _groups(call):
    """GROUPS of a grouped op as an int: the filters' first dim, else data channels / C_IN."""
    x, filters = call.inputs[0], call.inputs[1]
    if filters.rank is not None and filters.shape[0].is_static:
        return filters.shape[0].length
    c_in = 1 if "Backprop" in call.op else 2          # [G, C_IN, C_OUT, k...] or [G, C_OUT, C_IN, k...]
    if x.rank is not None and filters.rank is not None and x.shape[1].is_static and filters.shape[c_in].is_static:
        if filters.shape[c_in].length:
            return x.shape[1].length // filters.shape[c_in].length
    return Unsupported("grouped convolution needs a static group count (ONNX's group attribute)")


def _convolution(b, call):
    return _conv(b, call, None, 1)


def _group_convolution(b, call):
    g = _groups(call)
    return g if isinstance(g, Unsupported) else _conv(b, call, g, 2)


# --- transposed -------------------------------------------------------------------------------------
def _conv_transpose(b, call, group, lead):
    x, filters = call.inputs[0], call.inputs[1]
    shape_in = call.inputs[2] if len(call.inputs) > 2 else None
    out = call.outputs[0].element_type
    et = x.element_type
    ct = _float_carrier(b, "ConvTranspose", x)
    if ct is None:
        return unsupported_type("ConvTranspose", et)
    kernel = _kernel(filters, lead)
    if isinstance(kernel, Unsupported):
        return kernel
    n = len(kernel)
    a = call.attrs
    strides, dilations = _defaults(a, n)
    sizes = _spatial(x)
    if sizes is None:
        return Unsupported("transposed convolution needs static spatial data dims (an empty axis scatters "
                           "differently)", str(x.shape))
    if 0 in sizes:
        return Unsupported("transposed convolution of an empty spatial axis", str(x.shape))
    output_shape = None
    if shape_in is not None:
        output_shape = shape_in.ints()
        if output_shape is None:
            return Unsupported("transposed convolution needs a constant output_shape")
    pads, ys = backprop_pads(sizes, kernel, strides=strides, dilations=dilations,
                             output_padding=a["output_padding"], pads_begin=a["pads_begin"],
                             pads_end=a["pads_end"], auto_pad=a["auto_pad"], output_shape=output_shape)
    if 0 in ys:
        return Unsupported("transposed convolution with an empty output axis", str(ys))
    begin, end, extra = [], [], []
    for size, k, s, d, (pb, _), y in zip(sizes, kernel, strides, dilations, pads, ys):
        crop_end = (size - 1) * s + (k - 1) * d + 1 - pb - y       # < 0: the output reaches past the scatter
        begin.append(pb)
        end.append(max(crop_end, 0))
        extra.append(max(-crop_end, 0))
    # onnxruntime takes output_padding < stride; more are zeros padded on after
    fits = all(e < s for e, s in zip(extra, strides))
    w = b.cast(filters, ct, et)
    if group is not None:
        w = _merged_filters(b, w, filters)
    y = b.node("ConvTranspose", [b.cast(x, ct, et), w], group=group or 1, kernel_shape=kernel,
               strides=strides, dilations=dilations, pads=begin + end,
               output_padding=extra if fits and any(extra) else None)
    if not fits:
        y = b.node("Pad", [y, b.i64([0] * (n + 2) + [0, 0] + extra)])
    return b.cast(y, out, ct)


def _convolution_backprop(b, call):
    return _conv_transpose(b, call, None, 2)


def _group_convolution_backprop(b, call):
    g = _groups(call)
    return g if isinstance(g, Unsupported) else _conv_transpose(b, call, g, 3)


# --- deformable -------------------------------------------------------------------------------------
def _deformable_8(b, call):
    x, offsets, filters, *rest = call.inputs
    mask = rest[0] if rest else None
    a = call.attrs
    if not a["bilinear_interpolation_pad"]:
        return Unsupported("DeformableConvolution with bilinear_interpolation_pad = false (it clamps neighbours "
                           "into the map; ONNX DeformConv reads zeros outside)")
    if b.opset < 19:
        return Unsupported("DeformConv needs opset 19")
    et, out = x.element_type, call.outputs[0].element_type
    ct = _float_carrier(b, "DeformConv", x)
    if ct is None:
        return unsupported_type("DeformConv", et)
    kernel = _kernel(filters, 2)
    if isinstance(kernel, Unsupported):
        return kernel
    strides, dilations = _defaults(a, 2)
    if a["auto_pad"] in _SAME:
        sizes = _spatial(x)
        if sizes is None:
            # padding the data would move the map's border, where the samples read zeros
            return Unsupported("DeformableConvolution with SAME padding needs static spatial dims", str(x.shape))
        pp = [same_pads(size, k, s, d, a["auto_pad"] == "same_upper")
              for size, k, s, d in zip(sizes, kernel, strides, dilations)]
        pads = [p for p, _ in pp] + [p for _, p in pp]
    elif a["auto_pad"] == "valid":
        pads = [0] * 4
    else:
        pads = list(a["pads_begin"] or [0, 0]) + list(a["pads_end"] or [0, 0])
    ins = [b.cast(x, ct, et), b.cast(filters, ct, et), b.cast(offsets, ct, et)]
    if mask is not None:
        ins += [None, b.cast(mask, ct, et)]                           # no bias B in OpenVINO
    y = b.node("DeformConv", ins, kernel_shape=kernel, strides=strides, dilations=dilations, group=a["group"],
               offset_group=a["deformable_group"], pads=pads)
    return b.cast(y, out, ct)


# --- TensorFlow's depthwise convolution -----------------------------------------------------------
def _depthwise(b, call):
    """tf.DepthwiseConv2dNative: Conv with group = in_channels on NCHW data (NHWC transposed there and
    back), filters [H, W, C, M] as [C * M, 1, H, W]; TF's SAME is same_upper."""
    x, f = call.inputs
    a = call.attrs
    ct = _float_carrier(b, "Conv", x)
    if ct is None:
        return unsupported_type("Conv", x.element_type)
    if f.static_shape is None:
        return Unsupported("DepthwiseConv2dNative needs a static filter shape (kernel and group count)", str(f.shape))
    kh, kw, c, m = f.static_shape
    if 0 in (kh, kw, c, m):
        return Unsupported("convolution with a zero-length kernel axis (ONNX Conv has none)", str(f.shape))
    nhwc = a["data_format"] == "NHWC"
    hw = (lambda v: [v[1], v[2]]) if nhwc else (lambda v: [v[2], v[3]])
    strides, dilations = hw(list(a["strides"])), hw(list(a["dilations"]))
    data = b.cast(x, ct, x.element_type)
    if nhwc:
        data = b.node("Transpose", [data], perm=[0, 3, 1, 2])
    pads = None
    if a["padding"] == "SAME":
        sizes = None if x.rank is None else [d.length if d.is_static else None for d in hw(list(x.shape))]
        if sizes is not None and None not in sizes:
            pp = [same_pads(n, k, st, d, True) for n, k, st, d in zip(sizes, (kh, kw), strides, dilations)]
            pads = [p for p, _ in pp] + [p for _, p in pp]
        else:
            data = _same_pad_glue(b, data, [kh, kw], strides, dilations, True)
    w = b.node("Reshape", [b.node("Transpose", [b.cast(f, ct, f.element_type)], perm=[2, 3, 0, 1]),
                           b.i64([c * m, 1, kh, kw])])
    y = b.node("Conv", [data, w], group=c, kernel_shape=[kh, kw], strides=strides, dilations=dilations, pads=pads)
    if nhwc:
        y = b.node("Transpose", [y], perm=[0, 2, 3, 1])
    return b.cast(y, call.outputs[0].element_type, ct)


LOWERINGS = {
    "tf.DepthwiseConv2dNative": _depthwise,
    "Convolution-1": _convolution,
    "GroupConvolution-1": _group_convolution,
    "ConvolutionBackpropData-1": _convolution_backprop,
    "GroupConvolutionBackpropData-1": _group_convolution_backprop,
    "DeformableConvolution-8": _deformable_8,
}
NO_ONNX = {
    "DeformableConvolution-1": "its bilinear sampling clamps neighbours into the map (ONNX DeformConv reads zeros "
                               "outside it)",
    "BinaryConvolution-1": "1-bit (u1) filters and xnor-popcount sums: ONNX has neither the type nor the op",
}
