"""Cases for Interpolate-1/4/11: every mode, shape_calculation_mode, coordinate transformation and
nearest rounding, antialias, padding, with and without an axes input, every element type; shape
cases with loosened image shapes (intervals scale bound by bound), unknown sizes/scales/axes and
dynamic rank. GridSample-9: every mode x padding x align_corners, every numeric type of data and
every float type of grid, points far outside the image and on pixel centres/ties. The colour
conversions (NV12/I420 to RGB/BGR-8, RGB/BGR to NV12-17): single and separate planes, u8 with
rounding ties, floats outside [0, 255]; shape cases probed on OpenVINO's rules (intervals, odd sizes)."""
from __future__ import annotations

import numpy as np

from ...opset.image import COORD_MODES, GRID_MODES, GRID_PADDING, MODES, NEAREST_MODES, T_IMAGE
from ...shapes import PartialShape
from ...types import element_type, element_type_of
from . import Case, ShapeCase, info
from ._gen import array, loosen, rng_for
from ...runtime.kernels.image import grid_sample

N = 130
REF_TYPES = ("f32", "f16", "bf16", "i8", "u8")     # what OpenVINO's reference evaluate takes
PADS_CPU = ("the CPU plugin applies pads_begin/pads_end to the wrong axes (its output shape is shifted); "
            "OpenVINO's reference evaluate is asked")
INT_CPU = ("the CPU plugin rounds integral linear_onnx/cubic results where OpenVINO's reference (and opref) "
           "truncates; the reference evaluate is asked")
LINEAR_CPU = ("the CPU plugin's linear mode differs from the spec's triangle filter when antialiasing and "
              "rejects some axis sets; the reference evaluate is asked")
BF16_CUBIC_CPU = "the CPU plugin returns garbage for bf16 cubic; the reference evaluate is asked"
NO_REF = "OpenVINO's reference evaluate has no {et} Interpolate: asked with the image widened to f32"
SPATIAL_CPU = ("the CPU plugin refuses (or miscomputes) resizing batch, channels and a spatial axis at once "
               "(\"only supports resize on spatial dimensions\"); the reference evaluate is asked")
F64_CPU = "the CPU plugin computes f64 Interpolate in f32 (as opref does, in another order): compared at f32 tolerance"
SCALES = (0.5, 0.75, 1.5, 2.0, 1.25, 0.6, 1.0, 3.0, 0.4)


def _image(rng, et, shape):
    t = element_type(et)
    if t.is_integral:
        lo = 0 if et == "u8" else -50
        return rng.integers(lo, 100, shape).astype(t.dtype)
    return array(rng, et, shape)


def _pick_axes(rng, rank, mode):
    """Axes to resize; linear_onnx resizes all axes of a 2-D/3-D image or the spatial ones (>= 2)
    of a larger one."""
    if mode == "linear_onnx":
        return list(range(rank)) if rank <= 3 else list(range(2, rank))
    k = int(rng.integers(1, min(rank, 3) + 1))
    axes = rng.choice(rank, k, replace=False).tolist()
    return [int(a) for a in axes]


INT_MODES = ("Integral images are resized by nearest (every type) and linear (i8, u8) only: OpenVINO's CPU plugin "
             "rounds where its reference truncates, and which of two float32 sums (12.999999 or 13.000001) is "
             "truncated depends on the order of summation")


def _v4_case(op, rng, i, et, mode):
    if element_type(et).is_integral and (mode in ("linear_onnx", "cubic") or
                                         (mode == "linear" and et in ("i32", "i64"))):
        mode = "nearest"                             # see INT_MODES
    rank = int(rng.choice([4, 3, 2, 5, 1] if mode not in ("linear_onnx",) else [4, 3, 2, 5]))
    axes = _pick_axes(rng, rank, mode)
    shape = [int(rng.integers(1, 4)) if a not in axes else int(rng.integers(1, 6)) for a in range(rank)]
    pads_b = [int(rng.integers(0, 2)) if a in axes and rng.random() < 0.25 else 0 for a in range(rank)]
    pads_e = [int(rng.integers(0, 2)) if a in axes and rng.random() < 0.25 else 0 for a in range(rank)]
    if mode == "linear_onnx" and rank >= 4:        # batch and channels stay as they are
        pads_b[:2], pads_e[:2] = [0, 0], [0, 0]
    if mode == "linear_onnx" or (et == "f64" and mode != "nearest"):
        # OpenVINO's reference misplaces padded linear_onnx, and has no i32/i64/f64 kernel to check
        # padded non-nearest results of those types against (the CPU plugin misplaces pads)
        pads_b, pads_e = [0] * rank, [0] * rank
    padded = [s + b + e for s, b, e in zip(shape, pads_b, pads_e)]
    calc = ("sizes", "scales")[i % 2]
    scales = [float(rng.choice(SCALES)) for _ in axes]
    sizes = [max(int(np.floor(p * (s + 1e-6))), 1) if rng.random() < 0.7 else int(rng.integers(1, 7))
             for p, s in zip((padded[a] for a in axes), scales)]
    if calc == "scales":
        scaled = lambda n, s: int(np.float32(n) * np.float32(np.float32(s) + np.float32(1e-6))) if s != 1 else n
        scales = [s if scaled(padded[a], s) > 0 else 2.0 for a, s in zip(axes, scales)]
        sizes = [scaled(padded[a], s) for a, s in zip(axes, scales)]
    attrs = {"mode": mode, "shape_calculation_mode": calc,
             "coordinate_transformation_mode": COORD_MODES[int(rng.integers(0, len(COORD_MODES)))],
             "nearest_mode": NEAREST_MODES[int(rng.integers(0, len(NEAREST_MODES)))],
             "antialias": bool(rng.random() < 0.4)}
    if any(pads_b):
        attrs["pads_begin"] = pads_b
    if any(pads_e):
        attrs["pads_end"] = pads_e
    if mode == "cubic" and rng.random() < 0.4:
        attrs["cube_coeff"] = float(rng.choice([-0.5, -0.6, -1.0]))
    with_axes = not (mode != "linear_onnx" and len(axes) == rank and rng.random() < 0.5) or rng.random() < 0.5
    if not with_axes:                                 # no axes input: every axis, in order
        full_sizes = list(padded)
        full_scales = [1.0] * rank
        for a, s, z in zip(axes, scales, sizes):
            full_sizes[a], full_scales[a] = z, s
        axes, sizes, scales = list(range(rank)), full_sizes, full_scales
    x = _image(rng, et, shape)
    size_t, axes_t = ("i64", "i32")[i % 2 // 1 % 2], ("i64", "i32")[(i // 3) % 2]
    sizes_a = np.asarray(sizes, element_type(size_t).dtype)
    scales_a = np.asarray(scales, np.float32)
    axes_a = np.asarray(axes, element_type(axes_t).dtype)
    if op == "Interpolate-4":
        inputs = (x, sizes_a, scales_a) + ((axes_a,) if with_axes else ())
    else:
        inputs = (x, scales_a if calc == "scales" else sizes_a) + ((axes_a,) if with_axes else ())
    cid = f"{i}_{et}_{mode}_{calc}_{attrs['coordinate_transformation_mode']}_{'x'.join(map(str, shape))}_ax{axes}"
    return _route(op, cid, inputs, attrs, axes)


def _route(op, cid, inputs, attrs, axes):
    """A value case, marked where OpenVINO's CPU plugin is not a faithful oracle for it."""
    et, mode = element_type_of(inputs[0]), attrs["mode"]
    why = []
    if inputs[0].ndim >= 4 and {0, 1} <= set(axes) and len(axes) >= 3:
        why.append(SPATIAL_CPU)
    if attrs.get("pads_begin") or attrs.get("pads_end"):
        why.append(PADS_CPU)
    if et in ("i8", "u8", "i32", "i64") and mode in ("linear_onnx", "cubic"):
        why.append(INT_CPU)
    if mode == "linear" and et not in ("i32", "i64"):
        why.append(LINEAR_CPU)
    if et == "bf16" and mode == "cubic":
        why.append(BF16_CUBIC_CPU)
    if not why and et == "f64" and mode != "nearest":
        return Case(op, cid, inputs, attrs, openvino=F64_CPU, tolerance="f32")
    if not why:
        return Case(op, cid, inputs, attrs)
    cast, tolerance = {}, None
    if et not in REF_TYPES:
        why.append(NO_REF.format(et=et))
        cast, tolerance = {0: "f32"}, ("f32" if et == "f64" else None)
    return Case(op, cid, inputs, attrs, openvino="; ".join(why), oracle="reference", oracle_cast=cast,
                tolerance=tolerance)


def _v4_cases(op):
    rng = rng_for(op)
    modes = MODES
    # the type shifts by one every round of modes, so that every type meets every mode
    out = [_v4_case(op, rng, i, T_IMAGE[(i + i // len(modes)) % len(T_IMAGE)], modes[i % len(modes)])
           for i in range(N)]
    x = np.zeros((1, 1, 2, 2), np.float32)
    base = {"mode": "nearest", "shape_calculation_mode": "sizes"}
    sz = np.array([4, 4], np.int64)
    sc = np.array([2.0, 2.0], np.float32)
    ax = np.array([2, 3], np.int64)
    ins = (lambda s, a: (x, s, sc, a)) if op == "Interpolate-4" else (lambda s, a: (x, s, a))
    out += [Case(op, "err_axis_range", ins(sz, np.array([2, 4])), base, error="must be in [0, 3]"),
            Case(op, "err_axis_repeat", ins(sz, np.array([2, 2])), base, error="must not repeat"),
            Case(op, "err_pads", ins(sz, ax), {**base, "pads_begin": [0, 0, -1, 0]}, error="pads_begin must be >= 0"),
            Case(op, "err_few_sizes", ins(np.array([4]), ax), base, error="fewer than the 2 axes"),
            Case(op, "err_mode", ins(sz, ax), {**base, "mode": "area"}, error="'mode' = 'area' is not one of"),
            Case(op, "err_missing_mode", ins(sz, ax), {"shape_calculation_mode": "sizes"},
                 error="missing required attribute 'mode'")]
    if op == "Interpolate-11":
        out += [Case(op, "err_scales_type", (x, sz, ax), {**base, "shape_calculation_mode": "scales"},
                     error="needs floating-point scales_or_sizes"),
                Case(op, "err_pillow", (x, sz, ax), {**base, "mode": "bilinear_pillow"},
                     error="'mode' = 'bilinear_pillow' is not one of")]
    return out


V1_AXES = ("Interpolate-1 cases resize only spatial axes (>= 2) of 4-D and 5-D images, not batch and channels "
           "together on 3-D images, and use linear below rank 5: OpenVINO has no reference evaluate for "
           "Interpolate-1, and its CPU plugin refuses or miscomputes the others")


def _v1_cases():
    op = "Interpolate-1"
    rng = rng_for(op)
    modes = ("nearest", "linear", "cubic", "linear_onnx")
    out = []
    for i in range(N):
        mode, et = modes[i % 4], T_IMAGE[(i + i // 4) % len(T_IMAGE)]   # every type meets every mode
        if element_type(et).is_integral and mode != "nearest":
            mode = "nearest"                           # see INT_MODES
        rank = int(rng.choice([4, 3, 5, 2] if mode not in ("linear_onnx", "linear") else [4, 2, 3]))
        if mode == "linear_onnx":
            axes = list(range(rank)) if rank <= 3 else [2, 3]
        elif rank >= 4:                                  # see V1_AXES
            axes = list(range(2, rank)) if rng.random() < 0.6 else \
                sorted(rng.choice(range(2, rank), int(rng.integers(1, rank - 1)), replace=False).tolist())
        else:
            axes = sorted(rng.choice(rank, int(rng.integers(1, min(rank, 3) + 1)), replace=False).tolist())
        if rank >= 3 and {0, 1} <= set(axes) and mode != "linear_onnx":
            axes.remove(int(rng.integers(0, 2)))      # see V1_AXES
        shape = [int(rng.integers(1, 4)) if a not in axes else int(rng.integers(1, 6)) for a in range(rank)]
        sizes = [int(rng.integers(1, 8)) for _ in axes]
        attrs = {"axes": [int(a) for a in axes], "mode": mode, "align_corners": bool(rng.random() < 0.3),
                 "antialias": bool(rng.random() < 0.3)}
        x = _image(rng, et, shape)
        t = ("i64", "i32", "u64", "u32")[i % 4]
        cid, inputs = f"{i}_{et}_{mode}_{'x'.join(map(str, shape))}_ax{axes}_to{sizes}", \
            (x, np.asarray(sizes, element_type(t).dtype))
        f64 = et == "f64" and mode != "nearest"
        out.append(Case(op, cid, inputs, attrs, openvino=F64_CPU if f64 else None, tolerance="f32" if f64 else None))
    x = np.zeros((1, 1, 2, 2), np.float32)
    out += [Case(op, "err_axis_range", (x, np.array([4, 4])), {"axes": [2, 4], "mode": "nearest"},
                 error="must be in [0, 3]"),
            Case(op, "err_missing_axes", (x, np.array([4, 4])), {"mode": "nearest"},
                 error="missing required attribute 'axes'"),
            Case(op, "err_mode", (x, np.array([4, 4])), {"axes": [2, 3], "mode": "area"},
                 error="'mode' = 'area' is not one of"),
            Case(op, "err_few_sizes", (x, np.array([4])), {"axes": [2, 3], "mode": "nearest"},
                 error="fewer than the 2 axes", openvino=V1_SIZES),
            Case(op, "err_negative_size", (x, np.array([-8, 4])), {"axes": [2, 3], "mode": "nearest"},
                 error="must be >= 0", openvino=V1_SIZES)]
    return out


V1_SIZES = ("the spec gives one non-negative length per axis; OpenVINO's shape inference reads past the end of a "
            "short target_spatial_shape (a garbage interval dim) and takes a negative length as 0")


# --- GridSample-9 ----------------------------------------------------------------------------------
GS_TYPES = ("f32", "f16", "bf16", "f64", "i32", "i8", "u8", "i64", "i16", "u16", "u32", "u64", "f8e4m3", "f8e5m2")
GS_GRID_TYPES = ("f32", "f32", "f16", "bf16", "f64")
GS_F64 = "the CPU plugin computes f64 GridSample in f32: compared at f32 tolerance"


def _grid(rng, n, ho, wo, et, i):
    """Sampling points: most inside [-1, 1], some far outside (padding), some on multiples of 1/8
    (pixel centres, edges and nearest-rounding ties)."""
    reach = (1.2, 1.6, 3.5)[i % 3]
    g = rng.uniform(-reach, reach, (n, ho, wo, 2))
    if i % 4 == 1:
        g = np.round(g * 8) / 8
    return g.astype(np.float32).astype(element_type(et).dtype)


def _gs_data(rng, et, shape):
    t = element_type(et)
    if t.is_integral:
        lo, hi = (-50, 60) if t.is_signed else (20, 100)
        return rng.integers(lo, hi, shape).astype(t.dtype)
    return array(rng, et, shape)


GS_INT = ("Integral data: the interpolated value is truncated toward zero (C++'s conversion, as OpenVINO's "
          "reference template does). Cases keep every result at least 1e-3 away from an integer (which side of "
          "13 a float32 sum 12.99999 or 13.00001 lands on depends on the order of summation) and unsigned "
          "results non-negative (the CPU plugin wraps negatives, C++ leaves them undefined, opref saturates)")
GS_8BIT = ("the CPU plugin rounds i8/u8 GridSample results to nearest, where it truncates every wider integer "
           "type and OpenVINO's reference truncates: asked with the data widened to i32")


def _int_safe(data, grid, attrs):
    """See GS_INT: the float64 result is neither near an integer nor (unsigned) negative."""
    r = grid_sample(data.astype(np.float64), grid.astype(np.float64), **attrs)
    ok = bool(np.all(np.abs(r - np.round(r)) >= 1e-3))
    info = np.iinfo(data.dtype)
    return ok and bool(np.all((r > info.min) & (r < info.max)))


def _gs_cases():
    op = "GridSample-9"
    rng = rng_for(op)
    out = []
    combos = [(m, p, a) for m in GRID_MODES for p in GRID_PADDING for a in (False, True)]
    for i in range(126):
        mode, padding, align = combos[i % len(combos)]
        et = GS_TYPES[(i + i // len(combos)) % len(GS_TYPES)]
        gt = GS_GRID_TYPES[(i // 3) % len(GS_GRID_TYPES)]
        attrs = {"mode": mode, "padding_mode": padding, "align_corners": align}
        n, c = int(rng.integers(1, 3)), int(rng.integers(1, 4))
        h, w = int(rng.integers(1, 7)), int(rng.integers(1, 7))
        ho, wo = int(rng.integers(1, 6)), int(rng.integers(1, 6))
        data, grid = _gs_data(rng, et, (n, c, h, w)), _grid(rng, n, ho, wo, gt, i)
        if element_type(et).is_integral and mode != "nearest":       # see GS_INT
            for _ in range(40):
                if _int_safe(data, grid, attrs):
                    break
                data, grid = _gs_data(rng, et, (n, c, h, w)), _grid(rng, n, ho, wo, gt, i)
            else:
                attrs["mode"] = mode = "nearest"
        cid = f"{i}_{et}_{gt}_{mode}_{padding}_{'ac' if align else 'noac'}_{n}x{c}x{h}x{w}_to{ho}x{wo}"
        if et == "f64" or (gt == "f64" and et == "f32"):
            out.append(Case(op, cid, (data, grid), attrs, openvino=GS_F64, tolerance="f32"))
        elif et in ("i8", "u8") and mode != "nearest":
            out.append(Case(op, cid, (data, grid), attrs, openvino=GS_8BIT, oracle_cast={0: "i32"}))
        else:
            out.append(Case(op, cid, (data, grid), attrs))
    x, g = np.zeros((1, 1, 2, 2), np.float32), np.zeros((1, 3, 3, 2), np.float32)
    out += [Case(op, "err_data_rank", (x[0], g), error="input 'data' must be 4-D"),
            Case(op, "err_grid_rank", (x, g[0]), error="input 'grid' must be 4-D"),
            Case(op, "err_grid_last", (x, np.zeros((1, 3, 3, 3), np.float32)),
                 error="the last dimension of 'grid' must be 2"),
            Case(op, "err_batch", (x, np.zeros((2, 3, 3, 2), np.float32)), error="must match"),
            Case(op, "err_grid_type", (x, g.astype(np.int32)), error="input 'grid' has element type i32"),
            Case(op, "err_mode", (x, g), {"mode": "linear"}, error="'mode' = 'linear' is not one of"),
            Case(op, "err_padding", (x, g), {"padding_mode": "constant"},
                 error="'padding_mode' = 'constant' is not one of"),
            Case(op, "err_empty_border", (np.zeros((1, 1, 0, 2), np.float32), g), {"padding_mode": "border"},
                 error="cannot sample an image of size 0x2")]
    return out


def _gs_shape_cases():
    op = "GridSample-9"
    rng = rng_for(op, 1)
    out = []
    for c in _gs_cases()[:60]:
        data, grid = c.inputs
        d, g = _loose(rng, data.shape), _loose(rng, grid.shape)
        out.append(ShapeCase(op, f"{d}_{g}_{c.id}", (info(element_type_of(data), d), info(element_type_of(grid), g)),
                             c.attrs))
    f = "f32"
    for d, g in [("[1..3,3,4,5]", "[2..5,6,7,2]"), ("[3..5,3,4,5]", "[1..3,6,7,1..3]"), ("...", "[2,6,7,2]"),
                 ("[1,3,4,5]", "..."), ("...", "..."), ("[0,3,4,5]", "[0,6,7,2]"), ("[1,3,0,5]", "[1,6,7,2]"),
                 ("[?,3,4,5]", "[2,6,7,?]"), ("[1,3,4]", "[1,6,7,2]"), ("[1,3,4,5,6]", "[1,6,7,2]"),
                 ("[1,3,4,5]", "[1,6,7]"), ("[1,3,4,5]", "[1,6,7,3]"), ("[1,3,4,5]", "[1,6,7,3..4]"),
                 ("[1,3,4,5]", "[2,6,7,2]"), ("[1..2,3,4,5]", "[3..4,6,7,2]"), ("...", "[1,2,3]")]:
        out.append(ShapeCase(op, f"{d}_{g}", (info(f, PartialShape(d)), info(f, PartialShape(g)))))
    return out


# --- NV12/I420 to RGB/BGR-8 -----------------------------------------------------------------------
COLOR_TYPES = ("u8", "f32", "u8", "f16", "u8", "bf16", "u8", "f64", "f8e4m3")
COLOR_OPS = ("NV12toRGB-8", "NV12toBGR-8", "I420toRGB-8", "I420toBGR-8")
# (Y, U, V) whose float32 R, G or B is exactly k + 0.5 (found by evaluating the formula on all 2^24)
COLOR_TIES = ((35, 128, 132), (98, 128, 165), (50, 185, 81), (118, 106, 38), (44, 234, 42), (107, 160, 126))
U8_TIES = ("u8 results of the float32 formula that are exactly k + 0.5: the CPU plugin rounds them to even, "
           "OpenVINO's reference (std::round, no Python evaluate) and opref away from zero; the NumPy "
           "transcription of the spec (tests/spec_image.py) is asked")
COLOR_F64 = "the CPU plugin computes f64 colour conversion in f32: compared at f32 tolerance"


def _yuv_planes(rng, et, n, h, w, i):
    """Y [n, h, w], U and V [n, h/2, w/2] of type et: u8 anywhere in [0, 255]; floats with fractions,
    some outside [0, 255] (clipped results)."""
    t = element_type(et)
    if et == "u8":
        y, u, v = (rng.integers(0, 256, s).astype(np.uint8) for s in ((n, h, w), (n, h // 2, w // 2),
                                                                    (n, h // 2, w // 2)))
        if i % 3 == 0:                                   # a pixel whose R, G or B is a rounding tie
            ty, tu, tv = COLOR_TIES[(i // 3) % len(COLOR_TIES)]
            y[0, 0, 0], u[0, 0, 0], v[0, 0, 0] = ty, tu, tv
        return y, u, v
    low, high = (-30.0, 290.0) if i % 2 else (0.0, 255.0)
    return tuple(rng.uniform(low, high, s).astype(np.float32).astype(t.dtype)
                 for s in ((n, h, w), (n, h // 2, w // 2), (n, h // 2, w // 2)))


def _color_inputs(op, y, u, v, single):
    n, h, w = y.shape
    if op.startswith("NV12"):
        uv = np.stack([u, v], -1)
        if single:
            return (np.concatenate([y, uv.reshape(n, h // 2, w)], axis=1)[..., None],)
        return y[..., None], uv
    if single:
        chroma = np.concatenate([u.reshape(n, -1), v.reshape(n, -1)], axis=1).reshape(n, h // 2, w)
        return (np.concatenate([y, chroma], axis=1)[..., None],)
    return y[..., None], u[..., None], v[..., None]


def _has_tie(y, u, v):
    up = lambda p: np.repeat(np.repeat(p, 2, 1), 2, 2).astype(np.float32)      # noqa: E731
    c, d, e = y.astype(np.float32) - 16, up(u) - 128, up(v) - 128
    k = np.float32
    rgb = (k(1.164) * c + k(1.596) * e, k(1.164) * c - k(0.391) * d - k(0.813) * e, k(1.164) * c + k(2.018) * d)
    return any(bool(np.any((x - np.floor(x) == 0.5) & (x > 0) & (x < 255))) for x in rgb)


def _color_cases(op):
    rng = rng_for(op)
    out = []
    for i in range(92):
        et = COLOR_TYPES[i % len(COLOR_TYPES)]
        single = (i // 2) % 2 == 0
        n, h, w = int(rng.integers(1, 3)), 2 * int(rng.integers(1, 5)), 2 * int(rng.integers(1, 6))
        y, u, v = _yuv_planes(rng, et, n, h, w, i)
        inputs = _color_inputs(op, y, u, v, single)
        cid = f"{i}_{et}_{'single' if single else 'planes'}_{n}x{h}x{w}"
        if et == "u8" and _has_tie(y, u, v):
            out.append(Case(op, cid, inputs, openvino=U8_TIES, oracle="spec"))
        elif et == "f64":
            out.append(Case(op, cid, inputs, openvino=COLOR_F64, tolerance="f32"))
        else:
            out.append(Case(op, cid, inputs))
    f = np.zeros
    nv12 = op.startswith("NV12")
    planes = (f((1, 4, 6, 1), np.uint8), f((1, 2, 3, 2), np.uint8)) if nv12 else \
        (f((1, 4, 6, 1), np.uint8), f((1, 2, 3, 1), np.uint8), f((1, 2, 3, 1), np.uint8))
    chroma = lambda s: (f(s + (2,), np.uint8),) if nv12 else (f(s + (1,), np.uint8),) * 2    # noqa: E731
    out += [Case(op, "err_single_rank", (f((6, 4, 1), np.uint8),), error="input 'y' must be 4-D"),
            Case(op, "err_single_channels", (f((1, 6, 4, 2), np.uint8),), error="a single-plane image has 1 channel"),
            Case(op, "err_single_height", (f((1, 4, 4, 1), np.uint8),), error="must be 3/2 of an image height"),
            Case(op, "err_single_width", (f((1, 6, 5, 1), np.uint8),), error="the image width must be even"),
            Case(op, "err_type", (f((1, 6, 4, 1), np.int32),), error="input 'y' has element type i32"),
            Case(op, "err_mixed_types", (planes[0].astype(np.float32),) + planes[1:],
                 error="another T input has f32"),
            Case(op, "err_odd_height", (f((1, 5, 6, 1), np.uint8),) + planes[1:], error="the image height must be even"),
            Case(op, "err_chroma_width", (planes[0],) + chroma((1, 2, 4)),
                 error="width (4) does not match the Y plane's (6, halved)"),
            Case(op, "err_chroma_batch", (planes[0],) + chroma((2, 2, 3)), error="batch (2) does not match")]
    if nv12:
        out.append(Case(op, "err_uv_channels", (planes[0], f((1, 2, 3, 1), np.uint8)), error="the uv plane has 2 channel"))
    else:
        out += [Case(op, "err_two_inputs", planes[:2], error="expected 1 input (a single plane) or 3"),
                Case(op, "err_u_v_differ", (planes[0], planes[1], f((1, 2, 4, 1), np.uint8)),
                     error="must have the same shape")]
    return out


# --- RGB/BGR to NV12-17 ----------------------------------------------------------------------------
TO_NV12_OPS = ("RGBtoNV12-17", "BGRtoNV12-17")
TO_NV12_TYPES = ("u8", "f32", "u8", "f16", "u8", "bf16", "f64", "u8")
NO_RUNTIME = ("OpenVINO 2026.4.1 reads {op} (opset17) and infers its shapes, but its CPU plugin cannot compile "
              "it and it has no reference evaluate: the values follow the spec only (its formulas, and OpenVINO's "
              "reference source for the 2x2 chroma mean the spec leaves open), checked against the NumPy "
              "transcription in tests/spec_image.py")


def _to_nv12_cases(op):
    rng = rng_for(op)
    out = []
    for i in range(96):
        et = TO_NV12_TYPES[i % len(TO_NV12_TYPES)]
        n, h, w = int(rng.integers(1, 3)), 2 * int(rng.integers(1, 5)), 2 * int(rng.integers(1, 6))
        if et == "u8":
            image = rng.integers(0, 256, (n, h, w, 3)).astype(np.uint8)
        else:
            low, high = (-40.0, 300.0) if i % 2 else (0.0, 255.0)
            image = rng.uniform(low, high, (n, h, w, 3)).astype(np.float32).astype(element_type(et).dtype)
        single = (i // 2) % 2 == 0
        out.append(Case(op, f"{i}_{et}_{'single' if single else 'planes'}_{n}x{h}x{w}", (image,),
                        {"single_plane": single}, openvino=NO_RUNTIME.format(op=op), oracle="spec",
                        tolerance="f32" if et == "f64" else None))
    f = np.zeros
    out += [Case(op, "err_rank", (f((4, 6, 3), np.uint8),), error="input 'image' must be 4-D"),
            Case(op, "err_channels", (f((1, 4, 6, 4), np.uint8),), error="the image has 3 channels, got 4"),
            Case(op, "err_odd_height", (f((1, 5, 6, 3), np.uint8),), error="the image height must be even"),
            Case(op, "err_odd_width", (f((1, 4, 3, 3), np.float32),), {"single_plane": False},
                 error="the image width must be even"),
            Case(op, "err_type", (f((1, 4, 6, 3), np.int32),), error="input 'image' has element type i32"),
            Case(op, "err_f8", (f((1, 4, 6, 3), np.float32).astype(element_type("f8e4m3").dtype),),
                 error="input 'image' has element type f8e4m3"),
            Case(op, "err_attr", (f((1, 4, 6, 3), np.uint8),), {"single_plane": 1},
                 error="attribute 'single_plane' must be of kind bool")]
    return out


TO_NV12_SHAPES = ("[1,4,6,3]", "[1,4,5,3]", "[1,5,6,3]", "[1,4,6,1]", "[1,4,6]", "...", "[?,?,?,?]", "[?,1..5,?,3]",
                  "[?,2..8,3..7,?]", "[2,0,4,3]", "[2,12..,4..,3]", "[1,4,6,2..4]", "[1,4,6,4..5]", "[1,3,6,3]",
                  "[1,0..1,1..2,3]", "[1,4,6,3,1]", "[1,?,?,1..2]", "[?,3..4,5..6,3]", "[0..2,?,1..,?]")


def _to_nv12_shape_cases(op):
    rng = rng_for(op, 1)
    out = []
    for k, s in enumerate(TO_NV12_SHAPES):
        for single in (True, False):
            out.append(ShapeCase(op, f"{s}_{single}", (info(("u8", "f32", "f16")[k % 3], PartialShape(s)),),
                                 {"single_plane": single}))
    out += [ShapeCase(op, f"type_{t}", (info(t, PartialShape("[1,4,6,3]")),)) for t in ("f8e4m3", "f8e5m2", "i8", "f64", "bf16")]
    for c in _to_nv12_cases(op):
        if c.error is None and len(out) < 110:
            out.append(ShapeCase(op, f"loose_{c.id}", (info(element_type_of(c.inputs[0]), _loose(rng, c.inputs[0].shape)),),
                                 c.attrs))
    return out


def cases():
    return (_v1_cases() + _v4_cases("Interpolate-4") + _v4_cases("Interpolate-11") + _gs_cases()
            + [c for op in COLOR_OPS for c in _color_cases(op)] + [c for op in TO_NV12_OPS for c in _to_nv12_cases(op)])


def _loose(rng, shape):
    r = rng.random()
    if r < 0.08:
        return PartialShape.dynamic()
    return PartialShape(shape) if r < 0.3 else loosen(rng, shape)


COLOR_SINGLE_SHAPES = ("[1,6,4,1]", "[1,9,4,1]", "[1,3,4,1]", "[1,6,5,1]", "[1,6,4,2]", "[1,6,4]", "...",
                       "[?,?,?,?]", "[?,6..12,?,1]", "[?,5..13,4,?]", "[?,1..5,4,?]", "[2,?,3..8,1]", "[2,?,3,1]",
                       "[2,5..7,4,1]", "[2,7..8,4,1]", "[2,3..6,4,1]", "[2,0,4,1]", "[2,6,0,1]", "[2,12..,4,1]",
                       "[1,4,4,1]", "[1,4..5,4,1]", "[1,0..2,4,1]", "[1,1..2,4,1]", "[1,6,4,1..3]", "[1,6,4,2..3]",
                       "[1,0..1,4,1]", "[1,2..4,4,1]", "[1,..3,4,1]", "[1,?,4..5,1]", "[1,6,4,1,1]")
COLOR_Y_CHROMA = (("[1,4,6,1]", "[1,2,3,#]"), ("[1,4,6,1]", "[1,2,4,#]"), ("[1,4,6,1]", "[2,2,3,#]"),
                  ("[1,5,6,1]", "[1,2,3,#]"), ("[1,4,6,2]", "[1,2,3,#]"), ("...", "[1,2,3,#]"),
                  ("[?,?,?,?]", "[1,2,3,#]"), ("[?,?,?,?]", "[?,?,?,?]"), ("[?,?,?,1]", "..."),
                  ("[1..3,4..8,?,1]", "[2..5,?,3..5,#]"), ("[1,?,?,1]", "[1,3..5,2..3,?]"), ("[1,5..9,?,1]", "[1,?,?,#]"),
                  ("[1,4,6,1]", "[1,?,?,?]"), ("[1,4,6,?]", "[1,2,3,?]"), ("[1,4,6]", "[1,2,3,#]"),
                  ("[1,4..8,?,1]", "[1,5..9,?,#]"), ("[1,?,5,1]", "[1,?,?,#]"), ("[1,?,?,1]", "[1,?,?,3..4]"),
                  ("[1,?,?,0..1]", "[1,?,?,#]"), ("[1,?,3..7,1]", "[1,?,?,#]"), ("[1,7..8,?,1]", "[1,?,?,#]"),
                  ("[1,?,?,1]", "[1,?,?]"), ("[1,?,?,1]", "[1,?,?,#,1]"), ("[1,?,?,1]", "[1..,1..,?,#]"),
                  ("[1,3..5,?,1]", "[1,0..2,?,#]"), ("[0,4,6,1]", "[0..2,2,3,#]"), ("[1,4,6,1]", "[1,2,3,1..2]"))


def _color_shape_cases(op):
    """OpenVINO's own shape rule, probed on intervals, dynamic dims and rank, and odd sizes."""
    nv12, t = op.startswith("NV12"), ("u8", "f32")[len(op) % 2]
    out = [ShapeCase(op, f"single_{s}", (info(t, PartialShape(s)),)) for s in COLOR_SINGLE_SHAPES]
    for k, (y, chroma) in enumerate(COLOR_Y_CHROMA):
        c = PartialShape(chroma.replace("#", "2" if nv12 else "1"))
        if nv12:
            out.append(ShapeCase(op, f"planes_{y}_{c}", (info(t, PartialShape(y)), info(t, c))))
        else:      # U and V: the same shape, or one of them looser
            other = (c, PartialShape.dynamic(), PartialShape("[?,?,?,?]") if c.rank_is_static else c)[k % 3]
            out.append(ShapeCase(op, f"planes_{y}_{c}_{other}", (info(t, PartialShape(y)), info(t, c), info(t, other))))
    if not nv12:
        out += [ShapeCase(op, f"planes_{y}_{u}_{v}", (info(t, PartialShape(y)), info(t, PartialShape(u)),
                                                      info(t, PartialShape(v))))
                for y, u, v in (("[1,?,?,1]", "[1,2,3,1]", "[1,2..4,?,1]"), ("[1,?,?,1]", "[1,2,3..5,1]", "[1,2..4,2..4,1]"),
                                ("[1,?,?,1]", "[1,2,3,1]", "[1,3,?,1]"), ("[1,?,?,1]", "[1,2,3,1]", "[1,?,?,2]"),
                                ("[1,5,?,1]", "...", "..."), ("...", "[1,2,3]", "..."), ("[1,4,6,1]", "[1,2,3,1]", "[2,2,3,1]"))]
    return out


def shape_cases():
    rng = rng_for("image_shapes")
    out = _gs_shape_cases() + [c for op in COLOR_OPS for c in _color_shape_cases(op)] + \
        [c for op in TO_NV12_OPS for c in _to_nv12_shape_cases(op)]
    for c in cases():
        if c.error is not None or c.op == "GridSample-9" or c.op in TO_NV12_OPS:
            continue
        x, *rest = c.inputs
        inputs = [info(element_type_of(x), _loose(rng, x.shape))]
        for j, a in enumerate(rest):
            known = rng.random() < 0.8
            inputs.append(info(element_type_of(a), a.shape, a if known else None))
        out.append(ShapeCase(c.op, f"{inputs[0].shape}_{c.id}", tuple(inputs), c.attrs))
    return out
