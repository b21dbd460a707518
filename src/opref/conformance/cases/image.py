"""Cases for Interpolate-1/4/11: every mode, shape_calculation_mode, coordinate transformation and
nearest rounding, antialias, padding, with and without an axes input, every element type; shape
cases with loosened image shapes (intervals scale bound by bound), unknown sizes/scales/axes and
dynamic rank."""
from __future__ import annotations

import numpy as np

from ...opset.image import COORD_MODES, MODES, NEAREST_MODES, T_IMAGE
from ...shapes import PartialShape
from ...types import element_type, element_type_of
from . import Case, ShapeCase, info
from ._gen import array, loosen, rng_for

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
                 error="'mode' = 'area' is not one of")]
    return out


def cases():
    return _v1_cases() + _v4_cases("Interpolate-4") + _v4_cases("Interpolate-11")


def _loose(rng, shape):
    r = rng.random()
    if r < 0.08:
        return PartialShape.dynamic()
    return PartialShape(shape) if r < 0.3 else loosen(rng, shape)


def shape_cases():
    rng = rng_for("image_shapes")
    out = []
    for c in cases():
        if c.error is not None:
            continue
        x, *rest = c.inputs
        inputs = [info(element_type_of(x), _loose(rng, x.shape))]
        for j, a in enumerate(rest):
            known = rng.random() < 0.8
            inputs.append(info(element_type_of(a), a.shape, a if known else None))
        out.append(ShapeCase(c.op, f"{inputs[0].shape}_{c.id}", tuple(inputs), c.attrs))
    return out
