"""Image kernels: Interpolate-1/4/11.

Every mode is separable: each resized axis has, per output position, a few source indices and
weights (nearest: one, linear_onnx: two, cubic: four, linear: a triangle window), applied one axis
after the other by gathering along that axis. Coordinates and weights are float32 and sums are
accumulated in float32, as OpenVINO's reference computes them; integral outputs are rounded
(linear) or truncated (linear_onnx, cubic) as it does."""
from __future__ import annotations

import itertools

import numpy as np

from ...opset.image import _pads, scale_dim
from ...shapes import Dimension

F32 = np.float32


# --- coordinates -------------------------------------------------------------------------------------
def source_coords(mode, out_len, in_len, scale):
    """Input coordinate of every output position of one axis (float32)."""
    x = np.arange(out_len, dtype=F32)
    scale = F32(scale)
    if scale == F32(1) or out_len == in_len:
        return x
    half = F32(0.5)
    if mode == "half_pixel":
        return (x + half) / scale - half
    if mode == "pytorch_half_pixel":
        return (x + half) / scale - half if out_len > 1 else np.zeros(out_len, F32)
    if mode == "asymmetric":
        return x / scale
    if mode == "tf_half_pixel_for_nn":
        return (x + half) / scale
    if out_len == 1:                                 # align_corners
        return np.zeros(1, F32)
    return x * F32(in_len - 1) / F32(out_len - 1)


def _round_half_away(x):
    """std::round: halves away from zero (x is float32; the sum is exact in float64)."""
    x = x.astype(np.float64)
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def nearest_index(mode, src, downsample):
    if mode == "round_prefer_ceil":
        i = _round_half_away(src)
    elif mode == "floor":
        i = np.floor(src)
    elif mode == "ceil":
        i = np.ceil(src)
    elif mode == "simple":
        i = np.ceil(src) if downsample else np.trunc(src)
    else:                                            # round_prefer_floor
        tie = src.astype(np.float64) == np.trunc(src).astype(np.float64) + 0.5
        i = np.where(tie, np.floor(src), _round_half_away(src))
    return i.astype(np.int64)


def cubic_coeffs(s, a):
    a = F32(a)
    s = np.abs(s).astype(F32)
    one, two = F32(1), F32(2)
    t0, t2, t3 = s + one, one - s, two - s
    c0 = ((a * t0 - 5 * a) * t0 + 8 * a) * t0 - 4 * a
    c1 = ((a + 2) * s - (a + 3)) * s * s + one
    c2 = ((a + 2) * t2 - (a + 3)) * t2 * t2 + one
    c3 = ((a * t3 - 5 * a) * t3 + 8 * a) * t3 - 4 * a
    return np.stack([c0, c1, c2, c3], axis=1).astype(F32)


# --- taps of one axis, summed jointly -----------------------------------------------------------------
def _taps(mode, src, in_len, scale, cube_coeff, antialias):
    """(indices, weights) of every output position of one axis: [out_len, K] each."""
    if mode == "linear_onnx":
        c = np.clip(src, F32(0), F32(in_len - 1))
        i1 = np.minimum(c.astype(np.int64), in_len - 1)
        i2 = np.minimum(i1 + 1, in_len - 1)
        d1, d2 = np.abs(c - i1.astype(F32)), np.abs(c - i2.astype(F32))
        same = i1 == i2
        d1, d2 = np.where(same, F32(0.5), d1), np.where(same, F32(0.5), d2)
        return np.stack([i1, i2], 1), np.stack([d2, d1], 1).astype(F32)     # in1 weighs d2, in2 d1
    if mode == "cubic":
        base = np.floor(src).astype(np.int64)
        w = cubic_coeffs(src - base.astype(F32), cube_coeff)
        return np.clip(base[:, None] + np.arange(-1, 3), 0, in_len - 1), w
    # linear: a triangle window, widened by 1/scale when antialiasing; taps outside the axis weigh 0
    a = F32(scale) if antialias else F32(1)
    r = 2 if scale > 1 else int(np.ceil(F32(2) / a))
    idx = _round_half_away(src).astype(np.int64)[:, None] + np.arange(-r, r + 1)
    w = a * np.maximum(F32(0), F32(1) - np.abs(a * (src[:, None] - idx.astype(F32))))
    w = np.where((idx >= 0) & (idx < in_len), w, F32(0)).astype(F32)
    return np.clip(idx, 0, max(in_len - 1, 0)), w


def _weighted_sum(x, axes, taps):
    """sum over every combination of taps (the last axis' taps fastest) of the product of the
    weights (in axes order) times the gathered input: the order OpenVINO's reference sums in."""
    total = wsum = None
    for combo in itertools.product(*(range(idx.shape[1]) for idx, _ in taps)):
        g, w = x, None
        for axis, (idx, wt), k in zip(axes, taps, combo):
            g = np.take(g, idx[:, k], axis=axis)
            shape = [1] * x.ndim
            shape[axis] = idx.shape[0]
            wk = wt[:, k].reshape(shape)
            w = wk if w is None else (w * wk).astype(F32)
        term = np.where(w == 0, F32(0), w * g).astype(F32)     # a zero weight adds nothing, even to inf
        total = term if total is None else (total + term).astype(F32)
        wb = np.broadcast_to(w, term.shape)
        wsum = wb if wsum is None else (wsum + wb).astype(F32)
    return total, wsum


def resize(image, out_shape, axes, scales, attrs):
    """Interpolate a zero-padded image to out_shape along axes, with per-axis scales (float32)."""
    mode = attrs["mode"]
    coord_mode = attrs["coordinate_transformation_mode"]
    if mode == "nearest":                  # separable: one source index per output position and axis
        y = image
        for axis, s in zip(axes, scales):
            src = source_coords(coord_mode, out_shape[axis], image.shape[axis], s)
            i = np.clip(nearest_index(attrs["nearest_mode"], src, F32(s) < 1), 0, image.shape[axis] - 1)
            y = np.take(y, i, axis=axis)
        return y
    if 0 in image.shape or 0 in out_shape:
        return np.zeros(out_shape, image.dtype)
    if mode == "linear_onnx":              # OpenVINO interpolates only the axes whose size changes
        keep = [(a, s) for a, s in zip(axes, scales) if image.shape[a] != out_shape[a] or F32(s) != F32(1)]
        axes, scales = [a for a, _ in keep] or list(axes[:1]), [s for _, s in keep] or list(scales[:1])
    antialias = bool(attrs.get("antialias")) and any(F32(s) < 1 for s in scales)
    taps = [_taps(mode, source_coords(coord_mode, out_shape[a], image.shape[a], s), image.shape[a], F32(s),
                  attrs["cube_coeff"], antialias) for a, s in zip(axes, scales)]
    total, wsum = _weighted_sum(image.astype(F32), axes, taps)
    if mode == "linear":                   # normalised by the weights of the taps inside the image
        total = np.where(wsum == 0, F32(0), total / np.where(wsum == 0, F32(1), wsum)).astype(F32)
    if np.dtype(image.dtype).kind in "iu":
        total = _round_half_away(total) if mode == "linear" else np.trunc(total)
    return total.astype(image.dtype)


def _interpolate(image, axes, sizes, scales, attrs):
    rank = image.ndim
    pb, pe = _pads(attrs["pads_begin"], rank), _pads(attrs["pads_end"], rank)
    padded = np.pad(image, list(zip(pb, pe))) if any(pb) or any(pe) else image
    axes = list(range(rank)) if axes is None else [int(a) for a in np.asarray(axes).reshape(-1)]
    out = list(padded.shape)
    if attrs["shape_calculation_mode"] == "scales":
        scales = [F32(v) for v in np.asarray(scales, F32).reshape(-1)[:len(axes)]]
        for a, s in zip(axes, scales):
            out[a] = scale_dim(Dimension(out[a], out[a]), float(s)).lo
    else:
        for a, v in zip(axes, np.asarray(sizes).reshape(-1)):
            out[a] = int(v)
        scales = [F32(out[a]) / F32(padded.shape[a]) if padded.shape[a] else F32(1) for a in axes]
    return resize(padded, out, axes, scales, attrs)


def interpolate_4(image, sizes, scales, axes=None, *, mode, shape_calculation_mode, coordinate_transformation_mode,
                  nearest_mode, antialias, pads_begin, pads_end, cube_coeff):
    return _interpolate(image, axes, sizes, scales, dict(locals()))


def interpolate_11(image, scales_or_sizes, axes=None, *, mode, shape_calculation_mode,
                   coordinate_transformation_mode, nearest_mode, antialias, pads_begin, pads_end, cube_coeff):
    return _interpolate(image, axes, scales_or_sizes, scales_or_sizes, dict(locals()))


def interpolate_1(image, target_spatial_shape, *, axes, mode, align_corners, antialias, pads_begin, pads_end):
    """v1 as OpenVINO runs it: as v4 with nearest_mode simple, asymmetric coordinates (align_corners
    when asked; half_pixel for linear without padding unless a 4-D image is resized on axes {2, 3}),
    and linear meaning linear_onnx below rank 5."""
    rank = image.ndim
    ordered = sorted(set(axes))
    v4_mode = ("linear_onnx" if rank < 5 else "linear") if mode == "linear" else mode
    coord = "asymmetric"
    if align_corners:
        coord = "align_corners"
    elif v4_mode in ("linear", "linear_onnx") and not any(pads_begin) and not any(pads_end) \
            and not (rank == 4 and ordered == [2, 3]):
        coord = "half_pixel"
    attrs = {"mode": v4_mode, "shape_calculation_mode": "sizes", "coordinate_transformation_mode": coord,
             "nearest_mode": "simple", "antialias": antialias, "pads_begin": pads_begin, "pads_end": pads_end,
             "cube_coeff": -0.75}
    return _interpolate(image, ordered, target_spatial_shape, None, attrs)


KERNELS = {"Interpolate-1": interpolate_1, "Interpolate-4": interpolate_4, "Interpolate-11": interpolate_11}
