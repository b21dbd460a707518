"""NumPy reference kernels: ROIAlignRotated-15 and DeformablePSROIPooling-1.

Both sample a feature map bilinearly at points that are not separable per axis (rotated grids; bins
shifted per class), so every sample gathers its four neighbouring pixels by flat index. Sample
coordinates are computed in f32, in the order of the spec's formulas, as OpenVINO computes them (a
sample exactly on a bounds check lands on the same side); the pooled values accumulate in float64 and
are rounded once to the data type.
"""
from __future__ import annotations

import numpy as np

from ...errors import InputError
from ..limits import check_size
from .detection_roi import _check_batch

F32 = np.float32
_BLOCK = 1 << 22          # gathered values per block of boxes (bounds the memory of many large boxes)


# --- ROIAlignRotated -----------------------------------------------------------------------------------
def _sample_counts(rois, bin_w, bin_h, sampling_ratio):
    """Samples per bin along x and y of every box [R]: sampling_ratio, or (0) ceil of the bin's size."""
    if sampling_ratio > 0:
        nx = ny = np.full(len(rois), sampling_ratio, np.int64)
        return nx, ny
    nx, ny = np.ceil(bin_w).astype(np.int64), np.ceil(bin_h).astype(np.int64)       # adaptive
    if (nx < 0).any() or (ny < 0).any():
        raise InputError(f"ROIAlignRotated-15: with sampling_ratio 0 every box needs a width and height >= 0 (its "
                         f"samples per bin are ceil(size / pooled size)), got "
                         f"{rois[(nx < 0) | (ny < 0), 2:4].tolist()}")
    return nx, ny


def _rotated_samples(rois, pooled_h, pooled_w, sampling_ratio, spatial_scale, clockwise_mode):
    """Sample positions (x, y) [R, PH, PW, SY, SX] in feature-map pixels, which of the SY x SX slots a
    box uses, and the number of samples per bin [R]."""
    r, s, half = rois.astype(F32), F32(spatial_scale), F32(0.5)
    cx, cy = r[:, 0] * s - half, r[:, 1] * s - half
    width, height = r[:, 2] * s, r[:, 3] * s
    angle = -r[:, 4] if clockwise_mode else r[:, 4]
    cos, sin = np.cos(angle), np.sin(angle)
    bin_w, bin_h = width / F32(pooled_w), height / F32(pooled_h)
    nx, ny = _sample_counts(r, bin_w, bin_h, sampling_ratio)
    sx, sy = max(int(nx.max(initial=0)), 1), max(int(ny.max(initial=0)), 1)

    def axis(start, bin_size, bins, count, slots):
        step = bin_size / np.maximum(count, 1).astype(F32)
        first = start[:, None] + np.arange(bins, dtype=F32)[None] * bin_size[:, None]            # [R, bins]
        return first[:, :, None] + step[:, None, None] * (np.arange(slots, dtype=F32) + half)     # [R, bins, slots]

    px = axis(-width / F32(2), bin_w, pooled_w, nx, sx)[:, None, :, None, :]              # [R, 1, PW, 1, SX]
    py = axis(-height / F32(2), bin_h, pooled_h, ny, sy)[:, :, None, :, None]            # [R, PH, 1, SY, 1]
    c, si = cos[:, None, None, None, None], sin[:, None, None, None, None]
    y = py * c - px * si + cy[:, None, None, None, None]
    x = py * si + px * c + cx[:, None, None, None, None]
    used = (np.arange(sy)[None, :, None] < ny[:, None, None]) & (np.arange(sx)[None, None, :] < nx[:, None, None])
    return x, y, np.broadcast_to(used[:, None, None], x.shape), nx * ny


def _corners(x, y, h, w):
    """The four pixels (flat indices [..., 4]) and bilinear weights of each sample: a sample outside
    [-1, size] (or NaN) reads pixel 0 with weight 0; others are clamped to the map (at the last row or
    column both neighbours are that pixel)."""
    outside = ~((x >= -1) & (x <= w) & (y >= -1) & (y <= h))       # (NaN, from an angle or size of inf, too)
    x, y = np.maximum(x, 0).astype(np.float64), np.maximum(y, 0).astype(np.float64)
    xl, yl = np.floor(x).astype(np.int64), np.floor(y).astype(np.int64)
    x_edge, y_edge = xl >= w - 1, yl >= h - 1
    xl, yl = np.where(x_edge, w - 1, xl), np.where(y_edge, h - 1, yl)
    xh, yh = np.where(x_edge, xl, xl + 1), np.where(y_edge, yl, yl + 1)
    lx, ly = np.where(x_edge, 0.0, x - xl), np.where(y_edge, 0.0, y - yl)
    index = np.stack([yl * w + xl, yl * w + xh, yh * w + xl, yh * w + xh], -1)
    weight = np.stack([(1 - ly) * (1 - lx), (1 - ly) * lx, ly * (1 - lx), ly * lx], -1)
    return np.where(outside[..., None], 0, index), np.where(outside[..., None], 0.0, weight)


def roi_align_rotated(data, rois, batch_indices, *, pooled_h, pooled_w, sampling_ratio, spatial_scale,
                      clockwise_mode):
    """The mean of each bin's samples (0 for a bin without samples); see _rotated_samples for the grid."""
    n, c, h, w = data.shape
    b = _check_batch("ROIAlignRotated-15", batch_indices, n)
    x, y, used, count = _rotated_samples(rois, pooled_h, pooled_w, sampling_ratio, spatial_scale, clockwise_mode)
    index, weight = _corners(x, y, h, w)
    keep = np.broadcast_to(used[..., None], index.shape)
    weight = np.where(keep, weight, 0.0)
    flat = data.reshape(n, c, h * w)
    rr = len(b)
    per_box = c * index[0].size if rr else 1
    out = np.zeros((rr, c, pooled_h, pooled_w))
    step = max(_BLOCK // max(per_box, 1), 1)
    for lo in range(0, rr, step):                      # blocks of boxes: bounded memory
        sl = slice(lo, lo + step)
        k = index[sl].reshape(len(index[sl]), 1, -1)
        vals = flat[b[sl][:, None, None], np.arange(c)[None, :, None], k].astype(np.float64)   # [r, C, K]
        prod = vals * weight[sl].reshape(len(k), 1, -1)
        # samples of a slot the box does not use are no samples at all (even over NaN pixels)
        prod = np.where(keep[sl].reshape(len(k), 1, -1), prod, 0.0)
        out[sl] = prod.reshape(len(k), c, pooled_h, pooled_w, -1).sum(-1)
    out = np.where(count[:, None, None, None] > 0, out / np.maximum(count, 1)[:, None, None, None], 0.0)
    return out.astype(data.dtype)


# --- DeformablePSROIPooling ------------------------------------------------------------------------------
def _round_half_away(v):
    return np.sign(v) * np.floor(np.abs(v) + F32(0.5))


def deformable_psroi_pooling(data, rois, offsets=None, *, output_dim, spatial_scale, group_size, mode,
                             spatial_bins_x, spatial_bins_y, trans_std, part_size):
    """Deformable position-sensitive pooling (Deformable ConvNets' R-FCN head): box corners rounded half
    away from zero, (x_2 + 1) exclusive, times spatial_scale, shifted by -0.5, at least 0.1 wide; output
    bin (c, i, j) of the g x g grid reads input channel (c * g + i) * g + j. With offsets, a bin's
    top-left corner moves by trans_std * offset * box size, taking the offset of class c // (output_dim /
    classes) at cell (i * part_size // g, j * part_size // g). Each bin is sampled at the top-left
    corners of its spatial_bins_y x spatial_bins_x sub-bins; a sample outside [-0.5, size - 0.5] is
    skipped, the others are clamped to the map and interpolated bilinearly; the bin is the mean of its
    samples (0 without any)."""
    op = "DeformablePSROIPooling-1"
    n, c, h, w = data.shape
    g, od = group_size, output_dim
    r = rois.astype(F32)
    b = np.trunc(r[:, 0]).astype(np.int64)
    if b.size and (b.min() < 0 or b.max() >= n):
        raise InputError(f"{op}: input 'rois' batch ids (column 0) must be in [0, {n - 1}] (the data's batch), "
                         f"got {b.min()}..{b.max()}")
    if len(b) == 0:
        return np.zeros((0, od, g, g), data.dtype)
    s, half = F32(spatial_scale), F32(0.5)
    x1, y1 = (_round_half_away(r[:, i]) * s - half for i in (1, 2))
    x2, y2 = ((_round_half_away(r[:, i]) + F32(1)) * s - half for i in (3, 4))
    rw, rh = np.maximum(x2 - x1, F32(0.1)), np.maximum(y2 - y1, F32(0.1))
    bw, bh = rw / F32(g), rh / F32(g)
    cells = np.arange(g, dtype=F32)
    left = (x1[:, None] + cells[None] * bw[:, None])[:, None, None, :]           # [R, 1, 1, G]
    top = (y1[:, None] + cells[None] * bh[:, None])[:, None, :, None]            # [R, 1, G, 1]
    if offsets is not None:
        classes = offsets.shape[1] // 2
        cls = np.arange(od) // (od // classes)                                   # [OD]
        part = np.arange(g) * part_size // g                                     # [G]
        o = offsets.astype(F32).reshape(len(r), classes, 2, part_size, part_size)
        shift = o[:, cls][:, :, :, part][:, :, :, :, part] * F32(trans_std)      # [R, OD, 2, G, G]
        left = left + shift[:, :, 0] * rw[:, None, None, None]
        top = top + shift[:, :, 1] * rh[:, None, None, None]
    left, top = np.broadcast_arrays(left, top)                                   # [R, OD|1, G, G]
    check_size(op, f"the samples of spatial_bins_x {spatial_bins_x} x spatial_bins_y {spatial_bins_y}",
               (len(r), od, g, g, spatial_bins_y, spatial_bins_x), np.float64)
    sx = left[..., None, None] + np.arange(spatial_bins_x, dtype=F32) * (bw / F32(spatial_bins_x))[
        :, None, None, None, None, None]                                         # [R, OD|1, G, G, 1, SX]
    sy = top[..., None, None] + np.arange(spatial_bins_y, dtype=F32)[:, None] * (bh / F32(spatial_bins_y))[
        :, None, None, None, None, None]                                         # [R, OD|1, G, G, SY, 1]
    sx, sy = np.broadcast_arrays(sx, sy)
    valid = (sx >= -0.5) & (sx <= w - 0.5) & (sy >= -0.5) & (sy <= h - 0.5)
    px = np.where(valid, np.clip(sx, 0, w - 1), 0).astype(np.float64)      # NaN offsets: no sample
    py = np.where(valid, np.clip(sy, 0, h - 1), 0).astype(np.float64)
    xl, xh, yl, yh = np.floor(px), np.ceil(px), np.floor(py), np.ceil(py)
    dx, dy = px - xl, py - yl
    channel = ((np.arange(od)[:, None, None] * g + np.arange(g)[:, None]) * g + np.arange(g))  # [OD, G, G]
    base = (b[:, None, None, None] * c + channel) * (h * w)                      # [R, OD, G, G]
    base = base[..., None, None]
    flat = data.reshape(-1)
    pick = lambda yy, xx: flat[base + yy.astype(np.int64) * w + xx.astype(np.int64)].astype(np.float64)  # noqa: E731
    tl, tr, bl, br = pick(yl, xl), pick(yl, xh), pick(yh, xl), pick(yh, xh)     # [R, OD, G, G, SY, SX]
    upper = tl + (tr - tl) * dx
    lower = bl + (br - bl) * dx
    value = np.where(valid, upper + (lower - upper) * dy, 0.0)
    count = valid.sum(axis=(-2, -1))
    total = value.sum(axis=(-2, -1))
    return np.where(count > 0, total / np.maximum(count, 1), 0.0).astype(data.dtype)


# --- temporaries (runtime/limits.py's max_kernel_bytes) -------------------------------------------------
ROTATED_SAMPLE_BYTES = 400     # per sample slot [R, PH, PW, SY, SX]: its f32 position, the f64 corner indices
                               # and weights [.., 4] with their masked copies and intermediates


def _rotated_workspace(ins, outs, kw) -> int:
    """Bytes of ROIAlignRotated's work arrays: every sample slot of every box (SY x SX the most samples per
    bin of any box: sampling_ratio, or ceil(bin size) read from the boxes), a block of gathered values
    (at most _BLOCK, or one box's C x slots x 4 when that is more; three f64 arrays of it) and the f64 sums."""
    data, rois = ins[0], ins[1]
    c = data.shape[1]
    ph, pw, scale = kw["pooled_h"], kw["pooled_w"], F32(kw["spatial_scale"])
    r = rois.astype(F32)
    with np.errstate(all="ignore"):
        nx, ny = _sample_counts(r, r[:, 2] * scale / F32(pw), r[:, 3] * scale / F32(ph), kw["sampling_ratio"])
    slots = len(rois) * ph * pw * max(int(ny.max(initial=0)), 1) * max(int(nx.max(initial=0)), 1)
    gathered = c * slots * 4
    block = max(min(_BLOCK, gathered), gathered // max(len(rois), 1))
    return ROTATED_SAMPLE_BYTES * slots + 3 * 8 * block + 2 * 8 * len(rois) * c * ph * pw


WORKSPACE = {"ROIAlignRotated-15": _rotated_workspace}

KERNELS = {"ROIAlignRotated-15": roi_align_rotated, "DeformablePSROIPooling-1": deformable_psroi_pooling}
