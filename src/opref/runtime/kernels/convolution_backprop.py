"""Transposed-convolution kernels: one GEMM of the data with the filters, then a col2im scatter.

The GEMM `W[G, C_OUT * K, C_IN] @ x[N, G, C_IN, X]` gives every product sum `data[x] * filters[k]`
for every kernel tap k at once ([N, G, C_OUT, k..., x...]); each tap then adds its slab into the
output at positions `x * stride + k * dilation - pads_begin`, one strided slice per tap (clipped to the
output: taps that fall in the cropped pads or beyond the output are dropped, positions that no tap
reaches, such as output_padding, stay 0).

Sums run in `accumulator_dtype` for floats (f32 for f16/bf16/f8, rounded back once) and in 64-bit
integers for integer types, wrapped back to the type at the end (as the forward convolution does).
"""
from __future__ import annotations

import math

import numpy as np

from ...opset.convolution_backprop import backprop_pads
from .convolution import _compute_dtype


def _tap_slices(k, x_len, y_len, s, d, pb):
    """(data slice, output slice) along one axis for kernel tap k: data positions x with
    0 <= x * s + k * d - pb < y_len."""
    off = k * d - pb
    x_lo = max(0, -(-(-off) // s))                  # ceil(-off / s)
    x_hi = min(x_len - 1, (y_len - 1 - off) // s) if y_len > 0 else -1
    if x_hi < x_lo:
        return None
    return slice(x_lo, x_hi + 1), slice(x_lo * s + off, x_hi * s + off + 1, s)


def _backprop(data, filters, output_shape, *, strides, pads_begin, pads_end, dilations, auto_pad, output_padding):
    """data [N, G*C, X...] with filters [G, C, M, K...] -> [N, G*M, Y...] in data's type."""
    n = data.ndim - 2
    batch, (g, c, m), kernel = data.shape[0], filters.shape[:3], filters.shape[3:]
    xs = data.shape[2:]
    strides, dilations = tuple(strides) or (1,) * n, tuple(dilations) or (1,) * n
    pads, ys = backprop_pads(xs, kernel, strides=strides, dilations=dilations, output_padding=output_padding,
                             pads_begin=pads_begin, pads_end=pads_end, auto_pad=auto_pad,
                             output_shape=None if output_shape is None else [int(v) for v in output_shape])
    ct = _compute_dtype(data.dtype)
    taps, positions = math.prod(kernel), math.prod(xs)
    x = data.astype(ct, copy=False).reshape(batch, g, c, positions)
    w = filters.astype(ct, copy=False).reshape(g, c, m * taps).transpose(0, 2, 1)       # [G, M*K, C]
    cols = np.matmul(w, x).reshape((batch, g, m, taps) + xs)                          # [N, G, M, K, X...]
    out = np.zeros((batch, g, m) + tuple(ys), ct)
    for t, tap in enumerate(np.ndindex(*kernel)):
        sl = [_tap_slices(k, xl, yl, s, d, pb) for k, xl, yl, s, d, (pb, _) in
              zip(tap, xs, ys, strides, dilations, pads)]
        if any(v is None for v in sl):
            continue
        src = (slice(None),) * 3 + (t,) + tuple(a for a, _ in sl)
        out[(slice(None),) * 3 + tuple(b for _, b in sl)] += cols[src]
    return out.reshape((batch, g * m) + tuple(ys)).astype(data.dtype, copy=False)


def convolution_backprop_data(data, filters, output_shape=None, *, strides, pads_begin, pads_end, dilations,
                              auto_pad, output_padding):
    return _backprop(data, filters[None], output_shape, strides=strides, pads_begin=pads_begin, pads_end=pads_end,
                     dilations=dilations, auto_pad=auto_pad, output_padding=output_padding)


def group_convolution_backprop_data(data, filters, output_shape=None, *, strides, pads_begin, pads_end, dilations,
                                    auto_pad, output_padding):
    return _backprop(data, filters, output_shape, strides=strides, pads_begin=pads_begin, pads_end=pads_end,
                     dilations=dilations, auto_pad=auto_pad, output_padding=output_padding)


KERNELS = {"ConvolutionBackpropData-1": convolution_backprop_data,
           "GroupConvolutionBackpropData-1": group_convolution_backprop_data}


def workspace(ins, outs, kw) -> int:
    """Bytes of the work arrays, in the compute type: data and filters converted or copied, the GEMM's columns
    [N, C_OUT, K, X] and the accumulated output [N, C_OUT, Y]."""
    data, filters = ins[0], ins[1]
    ct = _compute_dtype(data.dtype)
    out = outs[0] or (0,) * data.ndim
    taps = math.prod(filters.shape[-(data.ndim - 2):]) if data.ndim > 2 else 1
    elements = data.size + filters.size                   # (converted, or the transposed filters' copy)
    elements += data.shape[0] * out[1] * taps * math.prod(data.shape[2:]) + math.prod(out)
    return elements * ct.itemsize


WORKSPACE = {"ConvolutionBackpropData-1": workspace, "GroupConvolutionBackpropData-1": workspace}
