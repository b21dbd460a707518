"""Deformable convolution kernels (DeformableConvolution-1 and -8): a bilinear im2col, then one GEMM.

Kernel tap t = (ky, kx) of output position (oy, ox) samples the data at
`(oy * stride_y - pad_y + ky * dilation_y + offset_y, ox * stride_x - pad_x + kx * dilation_x + offset_x)`,
with the offsets of the tap's deformable group (offsets channel `(dg * K + t) * 2` for y, `+ 1` for x;
mask channel `dg * K + t`). The sample is the bilinear interpolation of the four neighbouring pixels:
- bilinear_interpolation_pad = false (always so in -1): only a location with 0 <= y < H and 0 <= x < W
  is sampled; its neighbours are clamped into the map (a location within a pixel of the last row or
  column reads that row or column);
- bilinear_interpolation_pad = true: a location with -1 < y < H and -1 < x < W is sampled, neighbours
  outside the map read 0.
Other locations add nothing. Samples (times the mask) are gathered per corner into columns
[N, C * K, P] (vectorised over every position and tap), and the columns meet the filters in one GEMM
per group. Positions and weights are computed in the accumulator type (f32 for narrow floats); integer
types sample at integer offsets, so their weights are 0/1 and the sums exact (wrapped to the type).
"""
from __future__ import annotations

import math

import numpy as np

from .convolution import _compute_dtype, _pads


def _corners(pos, size, pad_mode):
    """(valid sample, [(index, weight, valid index) for the low and high neighbour]) along one axis."""
    floor = np.floor(pos)
    if pad_mode:
        inside = (pos > -1) & (pos < size)
        lo, hi = floor, floor + 1
        frac = pos - floor
    else:
        inside = (pos >= 0) & (pos < size)
        lo = np.maximum(floor, 0)
        hi = np.minimum(np.ceil(pos), size - 1)
        frac = pos - lo
    out = []
    for idx, wgt in ((lo, 1 - frac), (hi, frac)):
        ok = (idx >= 0) & (idx < size)
        out.append((np.where(ok, idx, 0).astype(np.int64), wgt, ok))
    return inside, out


def _deformable(data, offsets, filters, mask, *, strides, pads_begin, pads_end, dilations, auto_pad, group,
                deformable_group, bilinear_interpolation_pad):
    n_batch, c, h, w = data.shape
    o, c_g, kh, kw = filters.shape
    oh, ow = offsets.shape[2:]
    strides, dilations = tuple(strides) or (1, 1), tuple(dilations) or (1, 1)
    (pt, _), (pl, _) = _pads((h, w), (kh, kw), strides, dilations, pads_begin, pads_end, auto_pad)
    ct = _compute_dtype(data.dtype)
    pt_dtype = ct if ct.kind == "f" else np.float64            # integer types: exact whole-pixel positions
    dg, taps, positions = deformable_group, kh * kw, oh * ow
    off = offsets.astype(pt_dtype).reshape(n_batch, dg, taps, 2, oh, ow)
    ky, kx = np.divmod(np.arange(taps), kw)
    base_y = (np.arange(oh) * strides[0] - pt)[None, :, None] + (ky * dilations[0])[:, None, None]   # [K, OH, 1]
    base_x = (np.arange(ow) * strides[1] - pl)[None, None, :] + (kx * dilations[1])[:, None, None]   # [K, 1, OW]
    py = base_y + off[:, :, :, 0]                                                   # [N, DG, K, OH, OW]
    px = base_x + off[:, :, :, 1]
    in_y, cy = _corners(py, h, bilinear_interpolation_pad)
    in_x, cx = _corners(px, w, bilinear_interpolation_pad)
    scale = (in_y & in_x).astype(pt_dtype)
    if mask is not None:
        scale = scale * mask.astype(pt_dtype).reshape(n_batch, dg, taps, oh, ow)
    x = data.astype(ct, copy=False).reshape(n_batch, dg, c // dg, h * w)
    cols = np.zeros((n_batch, dg, c // dg, taps * positions), ct)
    for iy, wy, oky in cy:
        for ix, wx, okx in cx:
            weight = (wy * wx * scale * (oky & okx)).astype(ct).reshape(n_batch, dg, 1, taps * positions)
            index = (iy * w + ix).reshape(n_batch, dg, 1, taps * positions)
            cols += np.take_along_axis(x, np.broadcast_to(index, (n_batch, dg, c // dg, taps * positions)),
                                       axis=3) * weight
    cols = cols.reshape(n_batch, group, c_g * taps, positions)            # channel-major, then tap: im2col order
    y = np.matmul(filters.astype(ct, copy=False).reshape(group, o // group, c_g * taps), cols)
    return y.reshape(n_batch, o, oh, ow).astype(data.dtype, copy=False)


def deformable_convolution_1(data, offsets, filters, *, strides, pads_begin, pads_end, dilations, auto_pad, group,
                             deformable_group):
    return _deformable(data, offsets, filters, None, strides=strides, pads_begin=pads_begin, pads_end=pads_end,
                       dilations=dilations, auto_pad=auto_pad, group=group, deformable_group=deformable_group,
                       bilinear_interpolation_pad=False)


def deformable_convolution_8(data, offsets, filters, mask=None, *, strides, pads_begin, pads_end, dilations, auto_pad,
                             group, deformable_group, bilinear_interpolation_pad):
    return _deformable(data, offsets, filters, mask, strides=strides, pads_begin=pads_begin, pads_end=pads_end,
                       dilations=dilations, auto_pad=auto_pad, group=group, deformable_group=deformable_group,
                       bilinear_interpolation_pad=bilinear_interpolation_pad)


KERNELS = {"DeformableConvolution-1": deformable_convolution_1, "DeformableConvolution-8": deformable_convolution_8}


def workspace(ins, outs, kw) -> int:
    """Bytes of the work arrays: about 16 per-sample arrays [N, DG, K, OH, OW] (positions, corner
    indices, weights and masks, 8 bytes at most), the columns [N, C, K * P] with a gathered corner and
    its weighted product beside them, and the product [N, C_OUT, P], in the compute type."""
    data, offsets, filters = ins[0], ins[1], ins[2]
    ct = _compute_dtype(data.dtype)
    taps, positions = filters.shape[2] * filters.shape[3], offsets.shape[2] * offsets.shape[3]
    samples = data.shape[0] * kw["deformable_group"] * taps * positions
    cols = data.shape[0] * data.shape[1] * taps * positions
    return 16 * 8 * samples + (3 * cols + math.prod(outs[0] or ()) + data.size) * ct.itemsize


WORKSPACE = {"DeformableConvolution-1": workspace, "DeformableConvolution-8": workspace}
