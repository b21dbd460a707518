"""Kernels of the region-pooling and box-generating detection ops: ROIAlign-3/9, ROIAlignRotated-15,
ROIPooling-1, PSROIPooling-1, RegionYolo-1, ReorgYolo-1, PriorBox-1/8, PriorBoxClustered-1.

Bilinear sampling is separable: a sample's value at (y, x) is sum_h sum_w wy(h) wx(w) V[h, w], so
each box gets a weight matrix per axis ([bins, samples, H] and [bins, samples, W], two non-zero
weights per row) and one einsum applies both to every channel of its image. The average of a bin's
samples sums the weight rows first; the maximum keeps every sample. Coordinates are computed in
float64 from the inputs' values and results rounded once to the data type.
"""
from __future__ import annotations

import numpy as np

from ...errors import InputError, InvalidAttributeError
from ...opset.detection_roi import number_of_priors


def _check_batch(op, batch_indices, n):
    b = np.asarray(batch_indices).astype(np.int64)
    if b.size and (b.min() < 0 or b.max() >= n):
        raise InputError(f"{op}: input 'batch_indices' values must be in [0, {n - 1}] (the data's batch), "
                         f"got {b.min()}..{b.max()}")
    return b


# --- bilinear sampling weights -----------------------------------------------------------------------
def _axis_weights(pos, valid, size):
    """Weights [..., size] of bilinear samples at `pos` (any shape) along an axis of `size` pixels:
    a sample outside [-1, size] or not `valid` weighs nothing; one in [-1, 0) reads pixel 0; one past
    the last pixel reads the last pixel."""
    inside = valid & (pos >= -1.0) & (pos <= size)
    p = np.where(inside, np.maximum(pos, 0.0), 0.0)    # (a sample outside, nan or past int64, reads nothing)
    low = np.floor(p).astype(np.int64)
    edge = low >= size - 1
    low = np.where(edge, size - 1, low)
    high = np.where(edge, size - 1, low + 1)
    frac = np.where(edge, 0.0, p - low)
    w = np.zeros(pos.shape + (size,))
    np.put_along_axis(w, low[..., None], np.where(inside, 1.0 - frac, 0.0)[..., None], axis=-1)
    hi_w = np.take_along_axis(w, high[..., None], axis=-1) + np.where(inside, frac, 0.0)[..., None]
    np.put_along_axis(w, high[..., None], hi_w, axis=-1)
    return w


def _grid(start, bin_size, bins, ratio):
    """Sample positions [R, bins, S] of a regular grid of `ratio` (per box, [R]) samples per bin, and
    which of the S = max(ratio) slots are used."""
    s = max(int(ratio.max(initial=0)), 1)
    k = np.arange(s)
    step = bin_size / np.maximum(ratio, 1)
    pos = (start[:, None, None] + np.arange(bins)[None, :, None] * bin_size[:, None, None]
           + (k[None, None, :] + 0.5) * step[:, None, None])
    return pos, np.broadcast_to(k[None, None, :] < ratio[:, None, None], pos.shape)


def _pool_samples(data, wy, my, wx, mx, mode):
    """Pools separable samples: data [R, C, H, W], wy [R, PH, S, H], wx [R, PW, T, W] (masks my/mx of
    the used samples). avg: sum / count of used samples (0 for a bin without samples); max: the
    largest sample (0 for a bin without samples)."""
    count = my.sum(-1)[:, :, None] * mx.sum(-1)[:, None, :]          # [R, PH, PW]
    if mode == "avg":
        total = np.einsum("rph,rchw,rqw->rcpq", wy.sum(2), data, wx.sum(2), optimize=True)
        return np.where(count[:, None] > 0, total / np.maximum(count, 1)[:, None], 0.0)
    samples = np.einsum("rpsh,rchw,rqtw->rcpsqt", wy, data, wx, optimize=True)
    used = my[:, None, :, :, None, None] & mx[:, None, None, None, :, :]
    best = np.where(used, samples, -np.inf).max(axis=(3, 5))
    return np.where(count[:, None] > 0, best, 0.0)


# --- ROIAlign ------------------------------------------------------------------------------------------
def _roi_boxes(rois, pooled_h, pooled_w, sampling_ratio, spatial_scale, aligned_mode):
    """Per box: the top-left corner (y1, x1), the bin sizes (bin_h, bin_w) and the samples per bin
    along each axis (ry, rx) [R]."""
    r = rois.astype(np.float64)
    src, dst = {"asymmetric": (0.0, 0.0), "half_pixel_for_nn": (0.0, -0.5), "half_pixel": (0.5, -0.5)}[aligned_mode]
    x1, y1, x2, y2 = ((r[:, i] + src) * spatial_scale + dst for i in range(4))
    roi_w, roi_h = x2 - x1, y2 - y1
    if aligned_mode == "asymmetric":          # malformed boxes become 1 x 1
        roi_w, roi_h = np.maximum(roi_w, 1.0), np.maximum(roi_h, 1.0)
    bin_w, bin_h = roi_w / pooled_w, roi_h / pooled_h
    if sampling_ratio > 0:
        ry = rx = np.full(len(r), sampling_ratio, np.int64)
    else:                                     # adaptive: ceil(bin size) samples per axis (none when <= 0)
        ry, rx = (np.maximum(np.ceil(v), 0).astype(np.int64) for v in (bin_h, bin_w))
    return y1, x1, bin_h, bin_w, ry, rx


def _roi_align(op, data, rois, batch_indices, pooled_h, pooled_w, sampling_ratio, spatial_scale, mode,
               aligned_mode="asymmetric"):
    n, _, h, w = data.shape
    b = _check_batch(op, batch_indices, n)
    y1, x1, bin_h, bin_w, ry, rx = _roi_boxes(rois, pooled_h, pooled_w, sampling_ratio, spatial_scale, aligned_mode)
    py, my = _grid(y1, bin_h, pooled_h, ry)
    px, mx = _grid(x1, bin_w, pooled_w, rx)
    wy, wx = _axis_weights(py, my, h), _axis_weights(px, mx, w)
    out = _pool_samples(data[b].astype(np.float64), wy, my, wx, mx, mode)
    return out.astype(data.dtype)


def roi_align_3(data, rois, batch_indices, *, pooled_h, pooled_w, sampling_ratio, spatial_scale, mode):
    return _roi_align("ROIAlign-3", data, rois, batch_indices, pooled_h, pooled_w, sampling_ratio, spatial_scale,
                      mode)


def roi_align_9(data, rois, batch_indices, *, pooled_h, pooled_w, sampling_ratio, spatial_scale, mode,
                aligned_mode):
    return _roi_align("ROIAlign-9", data, rois, batch_indices, pooled_h, pooled_w, sampling_ratio, spatial_scale,
                      mode, aligned_mode)


# --- ReorgYolo -----------------------------------------------------------------------------------------
def reorg_yolo(data, *, stride):
    """Darknet's reorg as OpenVINO computes it: output element (n, c, h, w), counted in the input's
    [N, C, H, W] layout, reads the input viewed as [N, C / s^2, H * s, W * s] at channel c mod (C / s^2),
    row h*s + o // s and column w*s + o % s, where o = c div (C / s^2). A pure gather (any element type;
    C need not be a multiple of s^2, the view then reads some elements twice)."""
    s = int(stride[0])
    n, c, h, w = data.shape
    cs = c // (s * s)
    ni, ci, hi, wi = np.ogrid[:n, :c, :h, :w]
    off, ic = ci // cs, ci % cs
    index = ((ni * cs + ic) * (h * s) + hi * s + off // s) * (w * s) + wi * s + off % s
    return data.reshape(-1)[index].reshape(n, c * s * s, h // s, w // s)


# --- RegionYolo ----------------------------------------------------------------------------------------
def _sigmoid(x):
    with np.errstate(over="ignore"):          # exp(-x) = inf for very negative x: the sigmoid is 0
        return 1.0 / (1.0 + np.exp(-x))


def region_yolo(data, *, anchors, axis, coords, classes, end_axis, num, do_softmax, mask):
    """Per region r of `num` (do_softmax, YOLO v2) or of len(mask) (YOLO v3) the channels
    r*(coords + classes + 1) + [x, y, w, h.., objectness, classes..]: sigmoid of x, y and objectness;
    softmax over the classes (do_softmax) or their sigmoid; other channels pass through. do_softmax
    keeps every input channel and flattens axes axis..end_axis; otherwise the output has the regions'
    channels only."""
    n, c, h, w = data.shape
    # OpenVINO's shape inference accepts negative counts (its CPU plugin then reads out of bounds)
    for name, v in (("coords", coords), ("classes", classes)) + ((("num", num),) if do_softmax else ()):
        if v < 0:
            raise InvalidAttributeError(f"RegionYolo-1: attribute {name!r} is {v}; a count must be >= 0")
    regions = num if do_softmax else len(mask)
    k = coords + classes + 1
    if c < regions * k:
        raise InputError(f"RegionYolo-1: input 'data' has {c} channels, fewer than the regions' "
                         f"{regions} * (coords + classes + 1) = {regions * k}")
    x = data.astype(np.float64 if data.dtype == np.float64 else np.float32)
    out = x.copy() if do_softmax else x[:, :regions * k].copy()
    r = out[:, :regions * k].reshape(n, regions, k, h, w)
    r[:, :, 0:2] = _sigmoid(r[:, :, 0:2])
    if do_softmax:
        r[:, :, coords] = _sigmoid(r[:, :, coords])
    if do_softmax and classes:                     # (a softmax over no class changes nothing)
        z = r[:, :, coords + 1:]
        e = np.exp(z - z.max(axis=2, keepdims=True))
        r[:, :, coords + 1:] = e / e.sum(axis=2, keepdims=True)
    elif not do_softmax:
        r[:, :, coords:] = _sigmoid(r[:, :, coords:])
    out[:, :regions * k] = r.reshape(n, regions * k, h, w)
    if do_softmax:
        a, e = axis % 4, end_axis % 4
        shape = out.shape[:a] + (int(np.prod(out.shape[a:e + 1], dtype=np.int64)),) + out.shape[e + 1:] \
            if e >= a else out.shape
        out = out.reshape(shape)
    return out.astype(data.dtype)


# --- PriorBox / PriorBoxClustered -----------------------------------------------------------------------
F32 = np.float32


def _variances(op, variance, count):
    """The second output row: 1 variance repeated, or 4 repeated per prior ([] means 0.1)."""
    v = tuple(variance) or (0.1,)
    if len(v) not in (1, 4):
        raise InputError(f"{op}: attribute 'variance' must have 0, 1 or 4 values, got {list(variance)}")
    return np.tile(np.asarray(v if len(v) == 4 else v * 4, F32), count)


def _sizes(op, output_size, image_size):
    pairs = []
    for name, a in (("output_size", output_size), ("image_size", image_size)):
        v = [int(x) for x in np.asarray(a).reshape(-1)]
        if len(v) != 2:
            raise InputError(f"{op}: input {name!r} must hold two values [height, width], got {v}")
        pairs.append(v)
    (h, w), (ih, iw) = pairs
    if h * w == 0:       # no grid cell: no row or column positions either (the other dim may be huge)
        h = w = 0
    return h, w, ih, iw


def _aspect_ratios(aspect_ratio, flip):
    """1 first, then each new ratio (within 1e-6) followed by its inverse when flipped."""
    out = [1.0]
    for a in aspect_ratio:
        if all(abs(a - b) >= 1e-6 for b in out):
            out.append(a)
            if flip:
                out.append(1.0 / a)
    return out


def _prior_box(op, output_size, image_size, *, min_size, max_size, aspect_ratio, density, fixed_ratio, fixed_size,
               clip, flip, step, offset, variance, scale_all_sizes, min_max_aspect_ratios_order=True):
    """Priors per grid cell as (dx, dy, half width, half height, edge-clipped) relative to the cell's
    centre, in OpenVINO's order (fixed sizes with their density grids first, then per min_size: the
    square, the max_size square and the aspect-ratio boxes in min_max_aspect_ratios_order), then laid
    over every cell at once. Computed in f32 as OpenVINO's reference does."""
    h, w, ih, iw = _sizes(op, output_size, image_size)
    bad = [r for r in aspect_ratio if not r > 0 or not np.isfinite(r)]
    if bad:    # the spec: positive ratios; OpenVINO accepts these and returns inf/nan boxes
        raise InvalidAttributeError(f"{op}: attribute 'aspect_ratio' must hold positive finite ratios, got {bad[0]!r} "
                                    f"in {list(aspect_ratio)}")
    bad = [v for v in fixed_size if not np.isfinite(v)]
    if bad:    # the spec: positive sizes; OpenVINO casts them to int (undefined for nan and inf)
        raise InvalidAttributeError(f"{op}: attribute 'fixed_size' must hold finite sizes, got {bad[0]!r} in "
                                    f"{list(fixed_size)}")
    ratios = _aspect_ratios(aspect_ratio, flip)
    min_size = [F32(m) for m in min_size]
    step = F32(step)
    if not scale_all_sizes:                        # mxnet-like: step and min sizes relative to the image height
        step = F32(ih) / F32(h) if step == F32(-1) else step * F32(ih)
        min_size = [m * F32(ih) for m in min_size]
    if fixed_size and len(density) < len(fixed_size):
        raise InputError(f"{op}: attribute 'density' must have a value per fixed_size ({len(fixed_size)}), "
                         f"got {list(density)}")
    priors = []                                    # (dx, dy, half_w, half_h, edge_clip)

    def grid(s, half_w, half_h):
        d = int(density[s])
        size = int(fixed_size[s])
        shift = int(F32(fixed_size[s]) / F32(d))
        for r in range(d):
            for c in range(d):
                priors.append((F32(-(size // 2)) + F32(shift) / F32(2) + F32(c * shift),
                               F32(-(size // 2)) + F32(shift) / F32(2) + F32(r * shift), half_w, half_h, True))

    for s, fs in enumerate(fixed_size):
        if fixed_ratio:
            for ar in fixed_ratio:
                ar = np.sqrt(F32(ar))
                grid(s, F32(fs) * F32(0.5) * ar, F32(fs) * F32(0.5) / ar)
        else:
            half = F32(int(fs)) * F32(0.5)
            if density:
                grid(s, half, half)
            for ar in ratios:
                if abs(ar - 1.0) < 1e-6:
                    continue
                ar = np.sqrt(F32(ar))
                grid(s, F32(fs) * F32(0.5) * ar, F32(fs) * F32(0.5) / ar)
    for i, m in enumerate(min_size):
        square = [(F32(0), F32(0), m * F32(0.5), m * F32(0.5), False)]
        big = [(F32(0), F32(0), np.sqrt(m * F32(max_size[i])) * F32(0.5), np.sqrt(m * F32(max_size[i])) * F32(0.5),
                False)] if scale_all_sizes and len(max_size) > i else []
        boxes = []
        if scale_all_sizes or i == len(min_size) - 1:
            base = m if scale_all_sizes else min_size[0]
            for ar in ratios:
                if abs(ar - 1.0) < 1e-6:
                    continue
                ar = np.sqrt(F32(ar))
                boxes.append((F32(0), F32(0), base * F32(0.5) * ar, base * F32(0.5) / ar, False))
        priors += square + (big + boxes if min_max_aspect_ratios_order else boxes + big)
    if step == 0:
        cx = (np.arange(w, dtype=F32) + F32(0.5)) * (F32(iw) / F32(w))
        cy = (np.arange(h, dtype=F32) + F32(0.5)) * (F32(ih) / F32(h))
    else:
        cx = (F32(offset) + np.arange(w, dtype=F32)) * step
        cy = (F32(offset) + np.arange(h, dtype=F32)) * step
    p = np.array([q[:4] for q in priors], F32).reshape(-1, 4)
    edge = np.array([q[4] for q in priors], bool)
    x = cx[None, :, None] + p[:, 0]                # [1, W, P]
    y = cy[:, None, None] + p[:, 1]                # [H, 1, P]
    x, y = np.broadcast_to(x, (h, w, len(p))), np.broadcast_to(y, (h, w, len(p)))
    box = np.stack([(x - p[:, 2]) * (F32(1) / F32(iw)), (y - p[:, 3]) * (F32(1) / F32(ih)),
                    (x + p[:, 2]) * (F32(1) / F32(iw)), (y + p[:, 3]) * (F32(1) / F32(ih))], -1)
    # the density grids clip each edge towards the image: xmin, ymin >= 0 and xmax, ymax <= 1
    box[..., :2] = np.where(edge[:, None], np.maximum(box[..., :2], F32(0)), box[..., :2])
    box[..., 2:] = np.where(edge[:, None], np.minimum(box[..., 2:], F32(1)), box[..., 2:])
    if clip:
        box = np.clip(box, F32(0), F32(1))
    expected = number_of_priors(aspect_ratio=aspect_ratio, flip=flip, min_size=min_size, max_size=max_size,
                                fixed_size=fixed_size, fixed_ratio=fixed_ratio, density=density,
                                scale_all_sizes=scale_all_sizes)
    if len(p) != expected:                         # the attributes' boxes do not fill OpenVINO's output size
        raise InputError(f"{op}: the attributes describe {len(p)} boxes per cell but the output holds {expected} "
                         f"(fixed_size needs one density each, no min_size, and as many fixed ratios as aspect ratios)")
    return np.stack([box.reshape(-1), _variances(op, variance, h * w * len(p))]).astype(F32)


def prior_box_1(output_size, image_size, *, min_size, max_size, aspect_ratio, density, fixed_ratio, fixed_size, clip,
                flip, step, offset, variance, scale_all_sizes):
    return _prior_box("PriorBox-1", output_size, image_size, min_size=min_size, max_size=max_size,
                      aspect_ratio=aspect_ratio, density=density, fixed_ratio=fixed_ratio, fixed_size=fixed_size,
                      clip=clip, flip=flip, step=step, offset=offset, variance=variance,
                      scale_all_sizes=scale_all_sizes)


def prior_box_8(output_size, image_size, *, min_size, max_size, aspect_ratio, density, fixed_ratio, fixed_size, clip,
                flip, step, offset, variance, scale_all_sizes, min_max_aspect_ratios_order):
    return _prior_box("PriorBox-8", output_size, image_size, min_size=min_size, max_size=max_size,
                      aspect_ratio=aspect_ratio, density=density, fixed_ratio=fixed_ratio, fixed_size=fixed_size,
                      clip=clip, flip=flip, step=step, offset=offset, variance=variance,
                      scale_all_sizes=scale_all_sizes, min_max_aspect_ratios_order=min_max_aspect_ratios_order)


def prior_box_clustered(output_size, image_size, *, width, height, clip, step_w, step_h, step, offset, variance):
    """One box per (width, height) pair centred at (cell + offset) * step of each grid cell (step: step_w /
    step_h, else step, else image size / grid size when both are 0), normalised by the image size."""
    h, w, ih, iw = _sizes("PriorBoxClustered-1", output_size, image_size)
    sw = F32(step_w if step_w != 0 else step)
    sh = F32(step_h if step_h != 0 else step)
    if sw == 0 and sh == 0:
        sw, sh = F32(iw) / F32(w), F32(ih) / F32(h)
    cx = (np.arange(w, dtype=F32) + F32(offset)) * sw
    cy = (np.arange(h, dtype=F32) + F32(offset)) * sh
    bw, bh = np.asarray(width, F32) / F32(2), np.asarray(height, F32) / F32(2)
    x = np.broadcast_to(cx[None, :, None], (h, w, len(bw)))
    y = np.broadcast_to(cy[:, None, None], (h, w, len(bw)))
    box = np.stack([(x - bw) / F32(iw), (y - bh) / F32(ih), (x + bw) / F32(iw), (y + bh) / F32(ih)], -1)
    if clip:
        box = np.clip(box, F32(0), F32(1))
    return np.stack([box.reshape(-1), _variances("PriorBoxClustered-1", variance, h * w * len(bw))]).astype(F32)


# --- ROIPooling --------------------------------------------------------------------------------------------
def _round_half_away(x):
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def _bin_edges(start, size, bins, limit):
    """[start, end) pixel ranges [R, bins] of `bins` equal parts of `size` (>= 1) pixels from `start`,
    floor/ceil to whole pixels and clipped to [0, limit]."""
    step = size.astype(F32) / F32(bins)
    k = np.arange(bins, dtype=F32)
    lo = np.floor(k[None] * step[:, None]).astype(np.int64) + start[:, None]
    hi = np.ceil((k[None] + 1) * step[:, None]).astype(np.int64) + start[:, None]
    return np.clip(lo, 0, limit), np.clip(hi, 0, limit)


def roi_pooling(data, rois, *, pooled_h, pooled_w, spatial_scale, method):
    """max: boxes rounded to whole pixels (at least 1 x 1), each bin the maximum of its pixels (0 for a
    bin outside the map), taken separably: over the bin's rows, then its columns. bilinear: one sample
    per bin on a grid from the box's first to last pixel (normalised coordinates), 0 outside the map."""
    n, c, h, w = data.shape
    r = rois.astype(F32)
    b = _check_batch("ROIPooling-1", r[:, 0].astype(np.int64), n) if len(r) else np.zeros(0, np.int64)
    x = data[b].astype(np.float64)                                        # [R, C, H, W]
    if method == "max":
        x1, y1, x2, y2 = (_round_half_away(r[:, i] * F32(spatial_scale)).astype(np.int64) for i in range(1, 5))
        hs, he = _bin_edges(y1, np.maximum(y2 - y1 + 1, 1), pooled_h, h)
        ws, we = _bin_edges(x1, np.maximum(x2 - x1 + 1, 1), pooled_w, w)
        rows = (np.arange(h)[None, None] >= hs[..., None]) & (np.arange(h)[None, None] < he[..., None])  # [R, PH, H]
        cols = (np.arange(w)[None, None] >= ws[..., None]) & (np.arange(w)[None, None] < we[..., None])  # [R, PW, W]
        by_row = np.where(rows[:, None, :, :, None], x[:, :, None], -np.inf).max(axis=3)              # [R, C, PH, W]
        out = np.where(cols[:, None, None], by_row[:, :, :, None], -np.inf).max(axis=4)              # [R, C, PH, PW]
        empty = (he <= hs)[:, :, None] | (we <= ws)[:, None, :]
        return np.where(empty[:, None], 0.0, out).astype(data.dtype)
    x1, y1, x2, y2 = (r[:, i] for i in range(1, 5))

    def coords(lo, hi, bins, size):
        if bins == 1:
            return (F32(0.5) * (lo + hi) * F32(size - 1))[:, None]
        k = np.arange(bins, dtype=F32)
        pos = k[None] * ((hi - lo) * F32(size - 1) / F32(bins - 1))[:, None] + (lo * F32(size - 1))[:, None]
        pos[:, -1] = F32(size - 1) * hi            # the last sample is the box's end exactly
        return pos

    py, px = coords(y1, y2, pooled_h, h), coords(x1, x2, pooled_w, w)          # [R, PH], [R, PW]

    def weights(pos, size):
        """[R, P, size] interpolation weights; nothing outside [0, size - 1]."""
        inside = (pos >= 0) & (pos <= size - 1)
        p = np.where(inside, pos, 0).astype(np.float64)
        lo = np.floor(p).astype(np.int64)
        hi = np.minimum(np.ceil(p).astype(np.int64), size - 1)
        f = np.where(inside, p - lo, 0.0)
        wts = np.zeros(pos.shape + (size,))
        np.put_along_axis(wts, lo[..., None], np.where(inside, 1 - f, 0.0)[..., None], axis=-1)
        add = np.take_along_axis(wts, hi[..., None], axis=-1) + f[..., None]
        np.put_along_axis(wts, hi[..., None], add, axis=-1)
        return wts, inside

    wy, iy = weights(py, h)
    wx, ix = weights(px, w)
    out = np.einsum("rph,rchw,rqw->rcpq", wy, x, wx, optimize=True)
    valid = iy[:, :, None] & ix[:, None, :]
    return np.where(valid[:, None], out, 0.0).astype(data.dtype)


# --- PSROIPooling ----------------------------------------------------------------------------------------
def psroi_pooling(data, rois, *, output_dim, group_size, spatial_scale, mode, spatial_bins_x, spatial_bins_y):
    """average (R-FCN's Caffe definition, as OpenVINO's CPU plugin computes it): box corners rounded to
    whole pixels, (x_2 + 1) exclusive, times spatial_scale, at least 0.1 wide; output bin (c, i, j) is
    the mean of its pixels (floor/ceil bin edges clipped to the map; 0 for a bin outside it) in channel
    (c * g + i) * g + j.
    bilinear: spatial_bins_y x spatial_bins_x sub-boxes of a box in normalised coordinates, each read
    (one bilinear sample per output bin, on a grid spanning the sub-box like ROIPooling's bilinear) from
    its own block of output_dim channels; the samples' mean."""
    n, c, h, w = data.shape
    r = rois.astype(F32)
    b = _check_batch("PSROIPooling-1", r[:, 0].astype(np.int64), n) if len(r) else np.zeros(0, np.int64)
    x = data[b].astype(np.float64)
    g, s = group_size, F32(spatial_scale)
    if mode == "average":
        x1, y1 = (_round_half_away(r[:, i]) * s for i in (1, 2))
        x2, y2 = ((_round_half_away(r[:, i]) + F32(1)) * s for i in (3, 4))

        def bins(lo, hi, size):
            step = np.maximum(hi - lo, F32(0.1)) / F32(g)
            k = np.arange(g, dtype=F32)
            start = np.clip(np.floor(k * step[:, None] + lo[:, None]).astype(np.int64), 0, size)
            end = np.clip(np.ceil((k + 1) * step[:, None] + lo[:, None]).astype(np.int64), 0, size)
            pix = np.arange(size)
            return (pix >= start[..., None]) & (pix < end[..., None])          # [R, g, size]

        rows, cols = bins(y1, y2, h), bins(x1, x2, w)
        total = np.einsum("rph,rcpqhw,rqw->rcpq", rows.astype(np.float64), x.reshape(len(b), output_dim, g, g, h, w),
                          cols.astype(np.float64), optimize=True)
        count = rows.sum(-1)[:, :, None] * cols.sum(-1)[:, None, :]
        return np.where(count[:, None] > 0, total / np.maximum(count, 1)[:, None], 0.0).astype(data.dtype)
    sx, sy = spatial_bins_x, spatial_bins_y
    x1, y1, x2, y2 = (r[:, i] * s for i in range(1, 5))

    def samples(lo, hi, bins, size):
        """Sample positions [R, g, bins] of output bin p in spatial bin k."""
        width = (hi - lo) / F32(bins)
        start = lo[:, None] + np.arange(bins, dtype=F32) * width[:, None]                   # [R, bins]
        if g > 1:
            scale = width * F32(size - 1) / F32(g - 1)
            return np.arange(g, dtype=F32)[None, :, None] * scale[:, None, None] + (start * F32(size - 1))[:, None]
        return ((start + start + width[:, None]) * F32(size - 1) / F32(2))[:, None]

    def weights(pos, size):
        inside = pos < size
        p = np.where(inside, pos, 0).astype(np.float64)
        lo = np.floor(p).astype(np.int64)
        hi = np.minimum(np.ceil(p).astype(np.int64), size - 1)
        f = np.where(inside, p - lo, 0.0)
        wts = np.zeros(pos.shape + (size,))
        np.put_along_axis(wts, lo[..., None], np.where(inside, 1 - f, 0.0)[..., None], axis=-1)
        np.put_along_axis(wts, hi[..., None], np.take_along_axis(wts, hi[..., None], axis=-1) + f[..., None], axis=-1)
        return wts

    py, px = samples(y1, y2, sy, h), samples(x1, x2, sx, w)
    if (py < 0).any() or (px < 0).any():
        raise InputError("PSROIPooling-1: input 'rois' gives samples before the map's first pixel (bilinear mode)")
    wy, wx = weights(py, h), weights(px, w)                                     # [R, g, sy, H], [R, g, sx, W]
    total = np.einsum("rpyh,ryxchw,rqxw->rcpq", wy, x.reshape(len(b), sy, sx, output_dim, h, w), wx, optimize=True)
    return (total / (sx * sy)).astype(data.dtype)


# --- temporaries (runtime/limits.py's max_kernel_bytes) -------------------------------------------------
def _roi_align_workspace(ins, outs, kw) -> int:
    """Bytes of ROIAlign's f64 work arrays, with S x T the most samples per bin of any box (sampling_ratio,
    or ceil(bin size) read from the boxes): the axis weights [R, PH, S, H] and [R, PW, T, W], each box's
    image [R, C, H, W] (gathered, in f64, and the einsum's copy), and the pooling: avg sums the weights
    first ([R, C, PH, W] partial products), max keeps every sample [R, C, PH, S, PW, T] (twice: the
    samples, the masked ones)."""
    data, rois = ins[0], ins[1]
    _, c, h, w = data.shape
    ph, pw = kw["pooled_h"], kw["pooled_w"]
    *_, ry, rx = _roi_boxes(rois, ph, pw, kw["sampling_ratio"], kw["spatial_scale"],
                            kw.get("aligned_mode", "asymmetric"))
    r = len(rois)
    s, t = max(int(ry.max(initial=0)), 1), max(int(rx.max(initial=0)), 1)
    weights = 8 * r * (ph * s * (h + 4) + pw * t * (w + 4))
    images = r * c * h * w * (data.itemsize + 16)       # gathered, in f64, and einsum's operand copy
    if kw["mode"] == "avg":
        pooling = 8 * r * (ph * h + pw * w) + 8 * r * c * max(ph * w, h * pw)
    else:
        pooling = 8 * r * c * ph * s * (2 * pw * t + w) + r * ph * s * pw * t
    return weights + images + pooling + 4 * 8 * r * c * ph * pw


KERNELS = {"PSROIPooling-1": psroi_pooling, "ROIPooling-1": roi_pooling, "ROIAlign-3": roi_align_3, "ROIAlign-9": roi_align_9, "ReorgYolo-1": reorg_yolo,
           "RegionYolo-1": region_yolo, "PriorBox-1": prior_box_1, "PriorBox-8": prior_box_8,
           "PriorBoxClustered-1": prior_box_clustered}

WORKSPACE = {"ROIAlign-3": _roi_align_workspace, "ROIAlign-9": _roi_align_workspace}
