"""Image ops: Interpolate-1/4/11 (schemas and shape rules).

Shape rules follow OpenVINO's interpolate_shape_inference.hpp: padding is added to every
dimension (v4/v11), then the dims on `axes` are replaced by the sizes, or scaled by the scales
in float32 with OpenVINO's epsilon (1e-6 added to the scale, the product truncated)."""
from __future__ import annotations

import numpy as np

from ..shapes import Dimension, PartialShape
from ..types import FLOAT
from .helpers import check, ints_of
from .movement import T_INT
from .schema import BOOL, FLOAT as FLOAT_ATTR, INTS, STRING, Attr, OpSchema, Port

# OpenVINO's Interpolate takes these data types (its validation rejects the rest)
T_IMAGE = ("f64", "f32", "f16", "bf16", "i64", "i32", "i8", "u8")
T_SCALES = ("f64", "f32", "f16", "bf16")
# (v11's bilinear_pillow and bicubic_pillow are not implemented by opref yet)
MODES = ("nearest", "linear", "linear_onnx", "cubic")
SHAPE_MODES = ("sizes", "scales")
COORD_MODES = ("half_pixel", "pytorch_half_pixel", "asymmetric", "tf_half_pixel_for_nn", "align_corners")
NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "simple")
SCALE_EPSILON = np.float32(1.0e-6)


def scale_dim(d: Dimension, scale: float) -> Dimension:
    """floor(d * (scale + 1e-6)) computed in float32, bound by bound, as OpenVINO scales a dim."""
    s = np.float32(scale)
    if s == np.float32(1.0):
        return d
    s = np.float32(s + SCALE_EPSILON)
    f = lambda n: int(np.float32(n) * s)
    hi = None if d.hi is None else f(d.hi)
    if d.is_static:
        return Dimension(hi, hi)
    return Dimension(f(d.lo), hi)


def padded_dim(d: Dimension, pad: int) -> Dimension:
    if pad == 0:
        return d
    return Dimension(d.lo + pad, None if d.hi is None else d.hi + pad)


def _pads(pads, rank):
    return list(pads[:rank]) + [0] * max(rank - len(pads), 0)


def _check_attrs(op, pads_begin, pads_end, cube_coeff=None):
    check(all(p >= 0 for p in pads_begin), op, f"pads_begin must be >= 0, got {list(pads_begin)}")
    check(all(p >= 0 for p in pads_end), op, f"pads_end must be >= 0, got {list(pads_end)}")


def _check_1d(op, name, info):
    if info is not None and info.shape.rank_is_static:
        check(len(info.shape) == 1, op, f"input {name!r} must be 1-D, got shape {info.shape}")


def _axes_of(op, axes, rank):
    """The axes (default: all of them), or None when the axes input's value is unknown."""
    if axes is None:
        return list(range(rank))
    values = ints_of(axes)
    if values is None:
        return None
    check(all(0 <= a < rank for a in values), op, f"axes {list(values)} must be in [0, {rank - 1}] for image "
          f"of rank {rank}")
    check(len(set(values)) == len(values), op, f"axes {list(values)} must not repeat")
    return list(values)


def interpolate_out_shape(op, image, sizes, scales, axes, *, mode, shape_calculation_mode, pads_begin, pads_end):
    """The output shape of Interpolate-4/11: `sizes`/`scales` are TensorInfos (the one the mode
    uses is read), `axes` a TensorInfo or None."""
    _check_attrs(op, pads_begin, pads_end)
    shape = image.shape
    if not shape.rank_is_static:
        return PartialShape.dynamic()
    rank = len(shape)
    axes = _axes_of(op, axes, rank)
    if axes is None:
        return PartialShape.dynamic(rank)
    pb, pe = _pads(pads_begin, rank), _pads(pads_end, rank)
    out = [padded_dim(d, b + e) for d, b, e in zip(shape, pb, pe)]
    if shape_calculation_mode == "scales":
        values = None if scales.value is None else np.asarray(scales.value, np.float32).reshape(-1)
        if values is None:
            return PartialShape([Dimension() if i in axes else d for i, d in enumerate(out)])
        check(len(values) >= len(axes), op, f"input 'scales' has {len(values)} elements, fewer than the "
              f"{len(axes)} axes")
        check(bool(np.all(values > 0)), op, f"scales must be > 0, got {values.tolist()}")
        for a, s in zip(axes, values):
            out[a] = scale_dim(out[a], float(s))
    else:
        values = ints_of(sizes)
        if values is None:
            return PartialShape([Dimension() if i in axes else d for i, d in enumerate(out)])
        check(len(values) >= len(axes), op, f"input 'sizes' has {len(values)} elements, fewer than the "
              f"{len(axes)} axes")
        check(all(v >= 0 for v in values), op, f"sizes must be >= 0, got {list(values)}")
        for a, v in zip(axes, values):
            out[a] = Dimension(v, v)
    return PartialShape(out)


# --- Interpolate-4 ----------------------------------------------------------------------------------
def interpolate_4_shape(image, sizes, scales, axes=None, *, mode, shape_calculation_mode,
                        coordinate_transformation_mode, nearest_mode, antialias, pads_begin, pads_end, cube_coeff):
    op = "Interpolate-4"
    _check_1d(op, "sizes" if shape_calculation_mode == "sizes" else "scales",
              sizes if shape_calculation_mode == "sizes" else scales)
    _check_1d(op, "axes", axes)
    return interpolate_out_shape(op, image, sizes, scales, axes, mode=mode,
                                 shape_calculation_mode=shape_calculation_mode, pads_begin=pads_begin,
                                 pads_end=pads_end)


def _v4_attrs(modes):
    return (Attr("mode", STRING, allowed=modes, doc="interpolation method"),
            Attr("shape_calculation_mode", STRING, allowed=SHAPE_MODES,
                 doc="the output shape comes from the sizes or from the scales"),
            Attr("coordinate_transformation_mode", STRING, "half_pixel", allowed=COORD_MODES,
                 doc="how an output coordinate maps to an input coordinate"),
            Attr("nearest_mode", STRING, "round_prefer_floor", allowed=NEAREST_MODES,
                 doc="rounding of the input coordinate in nearest mode"),
            Attr("antialias", BOOL, False, doc="widen the linear filter when downsampling"),
            Attr("pads_begin", INTS, (0,), doc="zeros added before each dimension"),
            Attr("pads_end", INTS, (0,), doc="zeros added after each dimension"),
            Attr("cube_coeff", FLOAT_ATTR, -0.75, doc="parameter a of the cubic kernel"))


INTERPOLATE_4 = OpSchema(
    "Interpolate", 4, category="image",
    inputs=(Port("image", "T"), Port("sizes", "T_SIZE", const=True), Port("scales", "T_SCALES", const=True),
            Port("axes", "T_AXES", optional=True, const=True)),
    outputs=(Port("output", "T"),),
    attributes=_v4_attrs(MODES),
    type_constraints={"T": T_IMAGE, "T_SIZE": ("i32", "i64"), "T_SCALES": T_SCALES, "T_AXES": ("i32", "i64")},
    shape=interpolate_4_shape,
    doc="Resizes the axes of an image (after zero padding) by nearest, linear, linear_onnx or cubic "
        "interpolation; the output size comes from `sizes` or from `scales`.",
)


# --- Interpolate-11 ---------------------------------------------------------------------------------
def interpolate_11_shape(image, scales_or_sizes, axes=None, *, mode, shape_calculation_mode,
                         coordinate_transformation_mode, nearest_mode, antialias, pads_begin, pads_end, cube_coeff):
    op = "Interpolate-11"
    _check_1d(op, "scales_or_sizes", scales_or_sizes)
    _check_1d(op, "axes", axes)
    floats = scales_or_sizes.element_type in FLOAT
    if shape_calculation_mode == "scales":
        check(floats, op, f"shape_calculation_mode 'scales' needs floating-point scales_or_sizes, got "
              f"{scales_or_sizes.element_type}")
    else:
        check(not floats, op, f"shape_calculation_mode 'sizes' needs integer scales_or_sizes, got "
              f"{scales_or_sizes.element_type}")
    return interpolate_out_shape(op, image, scales_or_sizes, scales_or_sizes, axes, mode=mode,
                                 shape_calculation_mode=shape_calculation_mode, pads_begin=pads_begin,
                                 pads_end=pads_end)


# v11: one scales_or_sizes input instead of v4's sizes + scales (and the pillow modes, which opref
# does not implement yet).
INTERPOLATE_11 = OpSchema(
    "Interpolate", 11, category="image",
    inputs=(Port("image", "T"), Port("scales_or_sizes", "T_SCALES_OR_SIZES", const=True),
            Port("axes", "T_AXES", optional=True, const=True)),
    outputs=(Port("output", "T"),),
    attributes=_v4_attrs(MODES),
    type_constraints={"T": T_IMAGE, "T_SCALES_OR_SIZES": T_SCALES + T_INT, "T_AXES": T_INT},
    shape=interpolate_11_shape,
    doc="Resizes the axes of an image (after zero padding); the output size comes from sizes or "
        "scales, as shape_calculation_mode says.",
)


# --- Interpolate-1 -----------------------------------------------------------------------------------
def interpolate_1_shape(image, target_spatial_shape, *, axes, mode, align_corners, antialias, pads_begin, pads_end):
    op = "Interpolate-1"
    _check_attrs(op, pads_begin, pads_end)
    _check_1d(op, "target_spatial_shape", target_spatial_shape)
    shape = image.shape
    if not shape.rank_is_static:
        return PartialShape.dynamic()
    rank = len(shape)
    check(all(0 <= a < rank for a in axes), op, f"axes {list(axes)} must be in [0, {rank - 1}] for image of "
          f"rank {rank}")
    ordered = sorted(set(axes))              # OpenVINO holds the axes as a set
    out = list(shape)
    values = ints_of(target_spatial_shape)
    for i, a in enumerate(ordered):
        out[a] = Dimension() if values is None else Dimension(values[i], values[i])
    if values is not None:
        check(len(values) >= len(ordered), op, f"target_spatial_shape has {len(values)} elements, fewer than "
              f"the {len(ordered)} axes")
    return PartialShape(out)


INTERPOLATE_1 = OpSchema(
    "Interpolate", 1, category="image",
    inputs=(Port("image", "T"), Port("target_spatial_shape", "T_SIZE", const=True)),
    outputs=(Port("output", "T"),),
    attributes=(Attr("axes", INTS, doc="the axes to resize (a set)"),
                Attr("mode", STRING, allowed=("nearest", "linear", "linear_onnx", "cubic"),
                     doc="interpolation method"),
                Attr("align_corners", BOOL, False, doc="map corner pixels onto corner pixels"),
                Attr("antialias", BOOL, False, doc="widen the linear filter when downsampling"),
                Attr("pads_begin", INTS, (0,), doc="zeros added before each dimension"),
                Attr("pads_end", INTS, (0,), doc="zeros added after each dimension")),
    type_constraints={"T": T_IMAGE, "T_SIZE": ("i64", "i32", "u64", "u32")},
    shape=interpolate_1_shape,
    doc="Resizes the `axes` of an image to target_spatial_shape (nearest, linear or cubic).",
)

OPS = (INTERPOLATE_1, INTERPOLATE_4, INTERPOLATE_11)
