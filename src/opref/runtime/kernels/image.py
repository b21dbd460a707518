"""Image kernels: Interpolate-1/4/11, GridSample-9, NV12/I420 to RGB/BGR, RGB/BGR to NV12.

Every mode is separable: each resized axis has, per output position, a few source indices and
weights (nearest: one, linear_onnx: two, cubic: four, linear: a triangle window), applied one axis
after the other by gathering along that axis. Coordinates and weights are float32 and sums are
accumulated in float32, as OpenVINO's reference computes them; integral outputs are rounded
(linear) or truncated (linear_onnx, cubic) as it does."""
from __future__ import annotations

import itertools
import math

import numpy as np

from ...errors import InputError
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
    if not len(axes):                      # no axis to resize (axes = []): the (padded) image as is, the
        return image.copy()                # shape OpenVINO's shape inference gives
    if 0 in image.shape and 0 not in out_shape:   # an empty axis resized to a non-empty one: nothing to
        return np.zeros(out_shape, image.dtype)   # read, zeros (as the other modes below give)
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
    # v1's shape keeps the dims off the axes (OpenVINO's shape inference; its CPU plugin pads them too and
    # returns a tensor of another shape than it infers): pads count on the resized axes only
    pads_begin, pads_end = ([p if i in ordered else 0 for i, p in enumerate(_pads(pads, rank))]
                            for pads in (pads_begin, pads_end))
    attrs = {"mode": v4_mode, "shape_calculation_mode": "sizes", "coordinate_transformation_mode": coord,
             "nearest_mode": "simple", "antialias": antialias, "pads_begin": pads_begin, "pads_end": pads_end,
             "cube_coeff": -0.75}
    return _interpolate(image, ordered, target_spatial_shape, None, attrs)


# --- GridSample-9 ----------------------------------------------------------------------------------
# Each output point reads a few taps per axis (nearest: 1, bilinear: 2, bicubic: 4) at computed
# indices; padding_mode maps every tap index into the image (or marks it as a zero), and the taps
# are gathered for all points at once. Arithmetic is float32 (float64 when data or grid is f64), in
# the order of OpenVINO's reference: bilinear blends along x, then along y; bicubic takes
# ONNX Resize's cubic coefficients with A = -0.75, rows first.

def _cubic_weights(t, a=-0.75):
    """Weights of the taps at -1, 0, 1, 2 around floor(x) for the fraction t."""
    a = t.dtype.type(a)
    u, v, w = t + 1, 1 - t, 2 - t
    return [((a * u - 5 * a) * u + 8 * a) * u - 4 * a, ((a + 2) * t - (a + 3)) * t * t + 1,
            ((a + 2) * v - (a + 3)) * v * v + 1, ((a * w - 5 * a) * w + 8 * a) * w - 4 * a]


def _grid_taps(i, size, padding_mode, align_corners):
    """(index into the image, in bounds) for integer tap positions i along an axis of `size` pixels."""
    if padding_mode == "zeros":
        inside = (i >= 0) & (i < size)
        return np.clip(i, 0, max(size - 1, 0)), inside
    if padding_mode == "border":
        return np.clip(i, 0, size - 1), None
    if align_corners:      # reflect about the centres of the border pixels: period 2 * (size - 1)
        period = 1 if size == 1 else 2 * (size - 1)
        r = np.abs(i) % period
        return np.where(r >= size, period - r, r), None
    period = 2 * size      # reflect about the outer edges of the border pixels
    r = i % period
    return np.where(r >= size, period - 1 - r, r), None


def grid_sample(data, grid, *, align_corners, mode, padding_mode):
    n, c, h, w = data.shape
    _, ho, wo, _ = grid.shape
    ct = np.float64 if np.float64 in (data.dtype, grid.dtype) else np.float32
    if data.size == 0 or grid.size == 0 or h * w == 0:
        if padding_mode != "zeros" and n * c * ho * wo and h * w == 0:
            raise InputError(f"GridSample-9: padding_mode {padding_mode!r} cannot sample an image of size "
                             f"{h}x{w}")
        return np.zeros((n, c, ho, wo), data.dtype)
    g = grid.astype(ct)
    one, two = ct(1), ct(2)

    def denormalize(v, size):
        return (v + one) * (ct(size) - one) / two if align_corners else ((v + one) * ct(size) - one) / two

    y, x = denormalize(g[..., 1], h), denormalize(g[..., 0], w)
    flat = data.reshape(n, c, h * w)
    values = flat.astype(ct) if flat.dtype != ct else flat

    def tap(iy, ix):
        """data at integer positions (iy, ix) of shape [N, H_out, W_out], padded: [N, C, H_out, W_out]."""
        (ry, oky), (rx, okx) = _grid_taps(iy, h, padding_mode, align_corners), \
            _grid_taps(ix, w, padding_mode, align_corners)
        index = (ry * w + rx).reshape(n, 1, ho * wo)
        v = np.take_along_axis(values, index, axis=2).reshape(n, c, ho, wo)
        if oky is not None:
            v = np.where((oky & okx)[:, None], v, ct(0))
        return v

    if mode == "nearest":     # std::lrint: halves to even
        out = tap(np.rint(y).astype(np.int64), np.rint(x).astype(np.int64))
    else:
        fy, fx = np.floor(y), np.floor(x)
        dy, dx = (y - fy)[:, None], (x - fx)[:, None]
        iy, ix = fy.astype(np.int64), fx.astype(np.int64)
        if mode == "bilinear":
            q0 = (one - dx) * tap(iy, ix) + dx * tap(iy, ix + 1)
            q1 = (one - dx) * tap(iy + 1, ix) + dx * tap(iy + 1, ix + 1)
            out = dy * q1 + (one - dy) * q0
        else:
            wy, wx = _cubic_weights(dy), _cubic_weights(dx)
            out = ct(0)
            for j in range(4):
                row = ct(0)
                for i in range(4):
                    row = row + wx[i] * tap(iy + (j - 1), ix + (i - 1))
                out = out + wy[j] * row
    return _to_type(out, data.dtype)


def _to_type(x, dtype):
    """An interpolated value as the data type: floats rounded to nearest, integers truncated
    toward zero (C++'s conversion) and saturated to the type's range (NaN as 0)."""
    if not np.issubdtype(dtype, np.integer):
        return x.astype(dtype)
    info = np.iinfo(dtype)
    t = np.nan_to_num(np.trunc(x.astype(np.float64)), nan=0.0)
    high, low = t >= float(info.max), t <= float(info.min)
    out = np.where(high | low, 0.0, t).astype(dtype)
    out[high], out[low] = info.max, info.min
    return out


# --- NV12/I420 to RGB/BGR-8 -----------------------------------------------------------------------
# The spec's formulas in float32, in the order OpenVINO's reference writes them (float64 for f64
# images), clipped to [0, 255]; u8 results rounded half away from zero (std::round, as the reference
# rounds; the CPU plugin rounds halves to even). Chroma is shared by each 2x2 block of pixels.

def _yuv_to_rgb(y, u, v, bgr):
    """y [N, H, W], u and v [N, H/2, W/2] -> [N, H, W, 3]."""
    ct = np.float64 if y.dtype == np.float64 else np.float32
    up = lambda p: np.repeat(np.repeat(p, 2, axis=1), 2, axis=2)      # noqa: E731
    c, d, e = y.astype(ct) - ct(16), up(u).astype(ct) - ct(128), up(v).astype(ct) - ct(128)
    k = lambda x: ct(x)                                                 # noqa: E731
    r = k(1.164) * c + k(1.596) * e
    g = k(1.164) * c - k(0.391) * d - k(0.813) * e
    b = k(1.164) * c + k(2.018) * d
    out = np.stack([b, g, r] if bgr else [r, g, b], axis=-1)
    out = np.minimum(np.maximum(out, ct(0)), ct(255))
    if y.dtype == np.uint8:
        return _round_half_up(out).astype(np.uint8)
    return out.astype(y.dtype)


def _round_half_up(x):
    """std::round of non-negative x: to nearest, halves up (x + 0.5 would round 0.49999997 up)."""
    low = np.floor(x)
    return np.where(x - low == 0.5, low + 1, np.rint(x))


def _single_plane_size(op, y):
    n, rows, w, _ = y.shape
    h = rows * 2 // 3
    if h * 3 != rows * 2 or h % 2 or w % 2:
        raise InputError(f"{op}: a single-plane image [N, 3H/2, W, 1] needs even H and W, got shape {list(y.shape)}")
    return n, h, w


def _nv12(op, bgr):
    def nv12_to(y, uv=None):
        if uv is None:
            n, h, w = _single_plane_size(op, y)
            y, uv = y[:, :h], y[:, h:].reshape(n, h // 2, w // 2, 2)
        return _yuv_to_rgb(y[..., 0], uv[..., 0], uv[..., 1], bgr)
    return nv12_to


def _i420(op, bgr):
    def i420_to(y, u=None, v=None):
        if u is None:
            n, h, w = _single_plane_size(op, y)
            chroma = y[:, h:].reshape(n, 2, h // 2, w // 2)               # the U plane, then the V plane
            y, u, v = y[:, :h], chroma[:, 0, ..., None], chroma[:, 1, ..., None]
        return _yuv_to_rgb(y[..., 0], u[..., 0], v[..., 0], bgr)
    return i420_to


# --- RGB/BGR to NV12-17 ----------------------------------------------------------------------------
# Per pixel, the spec's Y, U, V (float32; float64 for f64 images) clipped to [0, 255] and taken to the
# image type (u8: rounded half away from zero). The spec leaves chroma subsampling open: as OpenVINO's
# reference, U and V of each 2x2 block are the mean of its four pixels' (typed) values, summed row by
# row, then taken to the image type again.

def _to_nv12(bgr):
    def to_nv12(image, *, single_plane):
        dtype = image.dtype
        ct = np.float64 if dtype == np.float64 else np.float32
        x = image.astype(ct)
        r, g, b = (x[..., 2], x[..., 1], x[..., 0]) if bgr else (x[..., 0], x[..., 1], x[..., 2])
        k = lambda v: ct(v)                                                 # noqa: E731

        def typed(v):
            v = np.minimum(np.maximum(v, ct(0)), ct(255))
            return (_round_half_up(v) if dtype == np.uint8 else v).astype(dtype)

        y = typed(k(0.257) * r + k(0.504) * g + k(0.098) * b + k(16))
        u = typed(k(-0.148) * r - k(0.291) * g + k(0.439) * b + k(128))
        v = typed(k(0.439) * r - k(0.368) * g - k(0.071) * b + k(128))

        def block_mean(p):
            p = p.astype(ct)
            total = ((p[:, 0::2, 0::2] + p[:, 0::2, 1::2]) + p[:, 1::2, 0::2]) + p[:, 1::2, 1::2]
            mean = total / ct(4)
            return (_round_half_up(mean) if dtype == np.uint8 else mean).astype(dtype)

        n, h, w = y.shape
        uv = np.stack([block_mean(u), block_mean(v)], axis=-1)              # [N, H/2, W/2, 2]
        if single_plane:
            return np.concatenate([y, uv.reshape(n, h // 2, w)], axis=1)[..., None]
        return [y[..., None], uv]
    return to_nv12


KERNELS = {"Interpolate-1": interpolate_1, "Interpolate-4": interpolate_4, "Interpolate-11": interpolate_11,
           "GridSample-9": grid_sample,
           "NV12toRGB-8": _nv12("NV12toRGB-8", False), "NV12toBGR-8": _nv12("NV12toBGR-8", True),
           "I420toRGB-8": _i420("I420toRGB-8", False), "I420toBGR-8": _i420("I420toBGR-8", True),
           "RGBtoNV12-17": _to_nv12(False), "BGRtoNV12-17": _to_nv12(True)}


# --- temporaries (runtime/limits.py's max_kernel_bytes) -------------------------------------------------
def _interpolate_workspace(axes_port):
    """Bytes of Interpolate's work arrays (f32): the padded image and its f32 copy, each tap's gather
    (resized one axis at a time, in the order of the axes: as large as the image with the axes before
    resized, at most), about five output-sized sums and weights, and the per-axis tables [out_len, K]
    of indices and weights, K growing as 2 / scale when antialiasing shrinks an axis. `axes_port`: the
    input holding the axes (None: v1's `axes` attribute, sorted)."""
    def estimate(ins, outs, kw) -> int:
        image, out = ins[0], outs[0]
        if out is None:
            return 0
        rank = image.ndim
        if axes_port is None:
            axes = sorted(set(int(a) % rank for a in kw["axes"])) if rank else []
            pb, pe = ([p if i in axes else 0 for i, p in enumerate(_pads(pads, rank))]
                      for pads in (kw["pads_begin"], kw["pads_end"]))
        else:
            given = ins[axes_port] if len(ins) > axes_port else None
            axes = list(range(rank)) if given is None else [int(a) % rank for a in np.asarray(given).reshape(-1)]
            pb, pe = _pads(kw["pads_begin"], rank), _pads(kw["pads_end"], rank)
        padded = [int(s) + b + e for s, b, e in zip(image.shape, pb, pe)]
        mode = kw["mode"]
        tables, shape, gathered, before_last = 0, list(padded), 0, 0
        for axis in axes:
            size, o = padded[axis], int(out[axis])
            before_last = gathered
            shape[axis] = o
            gathered = max(gathered, math.prod(shape))
            if mode == "nearest":
                k = 1
            elif mode == "linear_onnx":
                k = 2
            elif mode == "cubic":
                k = 4
            elif kw.get("antialias") and o < size:
                k = 2 * int(np.ceil(2 * size / max(o, 1))) + 1
            else:
                k = 5
            tables += o * k * 24                 # i64 indices, f32 weights and their temporaries
        if mode == "nearest":        # one gather per axis in the image's type, no sums; the last is the output
            return image.itemsize * ((padded != list(image.shape)) * math.prod(padded) + before_last) + tables
        return (image.itemsize + 4) * math.prod(padded) + 4 * (2 * gathered + 5 * math.prod(out)) + tables
    return estimate


WORKSPACE = {"Interpolate-1": _interpolate_workspace(None), "Interpolate-4": _interpolate_workspace(3),
             "Interpolate-11": _interpolate_workspace(2)}
