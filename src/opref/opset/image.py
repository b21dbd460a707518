"""Image ops: Interpolate-1/4/11, GridSample-9, the colour conversions NV12toRGB/NV12toBGR/
I420toRGB/I420toBGR-8 and RGBtoNV12/BGRtoNV12-17 (schemas and shape rules).

Shape rules follow OpenVINO's interpolate_shape_inference.hpp: padding is added to every
dimension (v4/v11), then the dims on `axes` are replaced by the sizes, or scaled by the scales
in float32 with OpenVINO's epsilon (1e-6 added to the scale, the product truncated)."""
from __future__ import annotations

import numpy as np

from ..shapes import Dimension, PartialShape
from ..types import FLOAT, NUMERIC_BYTES
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
    check(all(p >= 0 for p in pads_begin), op, lambda: f"pads_begin must be >= 0, got {list(pads_begin)}")
    check(all(p >= 0 for p in pads_end), op, lambda: f"pads_end must be >= 0, got {list(pads_end)}")


def _check_1d(op, name, info):
    if info is not None and info.shape.rank_is_static:
        check(len(info.shape) == 1, op, lambda: f"input {name!r} must be 1-D, got shape {info.shape}")


def _axes_of(op, axes, rank):
    """The axes (default: all of them), or None when the axes input's value is unknown."""
    if axes is None:
        return list(range(rank))
    values = ints_of(axes)
    if values is None:
        return None
    check(all(0 <= a < rank for a in values), op, lambda: f"axes {list(values)} must be in [0, {rank - 1}] for image "
                                                          f"of rank {rank}")
    check(len(set(values)) == len(values), op, lambda: f"axes {list(values)} must not repeat")
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
        check(len(values) >= len(axes), op, lambda: f"input 'scales' has {len(values)} elements, fewer than the "
                                                    f"{len(axes)} axes")
        check(bool(np.all(values > 0)), op, lambda: f"scales must be > 0, got {values.tolist()}")
        for a, s in zip(axes, values):
            out[a] = scale_dim(out[a], float(s))
    else:
        values = ints_of(sizes)
        if values is None:
            return PartialShape([Dimension() if i in axes else d for i, d in enumerate(out)])
        check(len(values) >= len(axes), op, lambda: f"input 'sizes' has {len(values)} elements, fewer than the "
                                                    f"{len(axes)} axes")
        check(all(v >= 0 for v in values), op, lambda: f"sizes must be >= 0, got {list(values)}")
        for a, v in zip(axes, values):
            out[a] = Dimension(v, v)
    return PartialShape(out)


# --- Interpolate-4 ----------------------------------------------------------------------------------
def interpolate_4_shape(image, sizes, scales, axes=None, *, mode, shape_calculation_mode,
                        coordinate_transformation_mode, nearest_mode, antialias, pads_begin, pads_end, cube_coeff):
    """image's shape with pads_begin + pads_end added to each dim (missing pads are 0), then the dims on
    axes (default: all) replaced by sizes' values (shape_calculation_mode sizes, values >= 0) or
    scaled by scales' values (floor(dim * (scale + 1e-6)) in float32 on each bound; scales > 0). An
    unknown sizes/scales value leaves the axes' dims dynamic, unknown axes every dim (rank kept), a
    dynamic-rank image gives a dynamic rank. The used input and axes must be 1-D, axes unique and in
    [0, rank - 1], the values at least one per axis, pads >= 0."""
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
    inputs=(Port("image", "T", doc="the tensor to resize, any rank"),
            Port("sizes", "T_SIZE", const=True, doc="1-D: the output length per axis (read in sizes mode)"),
            Port("scales", "T_SCALES", const=True, doc="1-D: the scale per axis, > 0 (read in scales mode)"),
            Port("axes", "T_AXES", optional=True, const=True,
                 doc="1-D: the axes to resize, unique, in [0, rank - 1] (absent: all)")),
    outputs=(Port("output", "T", doc="the resized tensor, image's rank"),),
    attributes=_v4_attrs(MODES),
    type_constraints={"T": T_IMAGE, "T_SIZE": ("i32", "i64"), "T_SCALES": T_SCALES, "T_AXES": ("i32", "i64")},
    shape=interpolate_4_shape,
    doc="Resizes the axes of an image (after zero padding) by nearest, linear, linear_onnx or cubic "
        "interpolation; the output size comes from `sizes` or from `scales`.",
)


# --- Interpolate-11 ---------------------------------------------------------------------------------
def interpolate_11_shape(image, scales_or_sizes, axes=None, *, mode, shape_calculation_mode,
                         coordinate_transformation_mode, nearest_mode, antialias, pads_begin, pads_end, cube_coeff):
    """Interpolate-4's rule with one scales_or_sizes input, read as sizes or scales by
    shape_calculation_mode: its element type must be floating-point in scales mode and integral in sizes
    mode."""
    op = "Interpolate-11"
    _check_1d(op, "scales_or_sizes", scales_or_sizes)
    _check_1d(op, "axes", axes)
    floats = scales_or_sizes.element_type in FLOAT
    if shape_calculation_mode == "scales":
        check(floats, op, lambda: f"shape_calculation_mode 'scales' needs floating-point scales_or_sizes, got "
                                  f"{scales_or_sizes.element_type}")
    else:
        check(not floats, op, lambda: f"shape_calculation_mode 'sizes' needs integer scales_or_sizes, got "
                                      f"{scales_or_sizes.element_type}")
    return interpolate_out_shape(op, image, scales_or_sizes, scales_or_sizes, axes, mode=mode,
                                 shape_calculation_mode=shape_calculation_mode, pads_begin=pads_begin,
                                 pads_end=pads_end)


# v11: one scales_or_sizes input instead of v4's sizes + scales (and the pillow modes, which opref
# does not implement yet).
INTERPOLATE_11 = OpSchema(
    "Interpolate", 11, category="image",
    inputs=(Port("image", "T", doc="the tensor to resize, any rank"),
            Port("scales_or_sizes", "T_SCALES_OR_SIZES", const=True,
                 doc="1-D: output lengths (integral, sizes mode) or scales (floating-point, scales mode) per axis"),
            Port("axes", "T_AXES", optional=True, const=True,
                 doc="1-D: the axes to resize, unique, in [0, rank - 1] (absent: all)")),
    outputs=(Port("output", "T", doc="the resized tensor, image's rank"),),
    attributes=_v4_attrs(MODES),
    type_constraints={"T": T_IMAGE, "T_SCALES_OR_SIZES": T_SCALES + T_INT, "T_AXES": T_INT},
    shape=interpolate_11_shape,
    doc="Resizes the axes of an image (after zero padding); the output size comes from sizes or "
        "scales, as shape_calculation_mode says.",
)


# --- Interpolate-1 -----------------------------------------------------------------------------------
def interpolate_1_shape(image, target_spatial_shape, *, axes, mode, align_corners, antialias, pads_begin, pads_end):
    """image's shape with the dims on the axes attribute (taken as a sorted set, each in [0, rank - 1])
    set to target_spatial_shape's values in order, or dynamic while those are unknown; pads are not
    added to the shape. A dynamic-rank image gives a dynamic rank. target_spatial_shape must be 1-D;
    pads >= 0."""
    op = "Interpolate-1"
    _check_attrs(op, pads_begin, pads_end)
    _check_1d(op, "target_spatial_shape", target_spatial_shape)
    shape = image.shape
    if not shape.rank_is_static:
        return PartialShape.dynamic()
    rank = len(shape)
    check(all(0 <= a < rank for a in axes), op, lambda: f"axes {list(axes)} must be in [0, {rank - 1}] for image of "
                                                        f"rank {rank}")
    ordered = sorted(set(axes))              # OpenVINO holds the axes as a set
    out = list(shape)
    values = ints_of(target_spatial_shape)
    if values is not None:      # (OpenVINO reads past the end, and takes a negative length as 0)
        check(len(values) >= len(ordered), op, lambda: f"target_spatial_shape has {len(values)} elements, fewer than "
                                                       f"the {len(ordered)} axes")
        check(all(v >= 0 for v in values), op, lambda: f"target_spatial_shape {values} must be >= 0")
    for i, a in enumerate(ordered):
        out[a] = Dimension() if values is None else Dimension(values[i], values[i])
    return PartialShape(out)


INTERPOLATE_1 = OpSchema(
    "Interpolate", 1, category="image",
    inputs=(Port("image", "T", doc="the tensor to resize, any rank"),
            Port("target_spatial_shape", "T_SIZE", const=True,
                 doc="1-D: the new lengths of the axes, in ascending axis order")),
    outputs=(Port("output", "T", doc="image resized on axes, image's rank"),),
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


# --- GridSample-9 ----------------------------------------------------------------------------------
GRID_MODES = ("bilinear", "bicubic", "nearest")
GRID_PADDING = ("zeros", "border", "reflection")


def grid_sample_shape(data, grid, *, align_corners, mode, padding_mode):
    """[N, C, H_out, W_out] from data [N, C, H, W] and grid [N, H_out, W_out, 2]; N merges both (they
    must be compatible), and the dims of an input of dynamic rank are dynamic. Both must be 4-D, grid's
    last dim 2."""
    op = "GridSample-9"
    d, g = data.shape, grid.shape
    check(not d.rank_is_static or len(d) == 4, op, lambda: f"input 'data' must be 4-D [N, C, H, W], got shape {d}")
    check(not g.rank_is_static or len(g) == 4, op,
          lambda: f"input 'grid' must be 4-D [N, H_out, W_out, 2], got shape {g}")
    n, c, h, w = (Dimension(),) * 4
    if d.rank_is_static:
        n, c = d[0], d[1]
    if g.rank_is_static:
        check(g[3].compatible(2), op, lambda: f"the last dimension of 'grid' must be 2, got {g[3]}")
        merged = n.merge(g[0])
        check(merged is not None, op, lambda: f"batch of 'data' ({n}) and of 'grid' ({g[0]}) must match")
        n, h, w = merged, g[1], g[2]
    return PartialShape([n, c, h, w])


GRID_SAMPLE_9 = OpSchema(
    "GridSample", 9, category="image",
    inputs=(Port("data", "T", doc="the image, NCHW"),
            Port("grid", "T1", doc="[N, H_out, W_out, 2] sampling points: (x, y) normalized to [-1, 1]")),
    outputs=(Port("output", "T", doc="[N, C, H_out, W_out]: data sampled at the grid's points"),),
    attributes=(Attr("align_corners", BOOL, False,
                     doc="-1 and 1 are the centres (true) or the outer edges (false) of the border pixels"),
                Attr("mode", STRING, "bilinear", allowed=GRID_MODES, doc="interpolation method"),
                Attr("padding_mode", STRING, "zeros", allowed=GRID_PADDING,
                     doc="what taps outside the image read: zeros, the nearest border pixel, or the "
                         "pixel reflected back into the image")),
    # the spec allows any T; opref takes the numeric types of at least a byte (interpolating boolean,
    # string or packed sub-byte data has no meaning)
    type_constraints={"T": NUMERIC_BYTES, "T1": FLOAT},
    shape=grid_sample_shape,
    doc="Samples an NCHW image at normalized (x, y) points of a grid by bilinear, bicubic or nearest "
        "interpolation, with zeros, border or reflection padding.",
)


# --- NV12/I420 to RGB/BGR-8 -----------------------------------------------------------------------
# NHWC images. One input: a single plane [N, 3H/2, W, 1] (the Y rows, then the chroma rows); or
# separate planes: Y [N, H, W, 1] and UV [N, H/2, W/2, 2] (NV12), or U and V [N, H/2, W/2, 1] each (I420).
# The shape rules are OpenVINO's: the image height of a single plane is (3H/2 * 2) / 3 by interval
# division, and a static height or width must be even (intervals are taken as they are).
T_COLOR = ("u8",) + FLOAT


def _even(op, what, d: Dimension):
    check(not d.is_static or d.lo % 2 == 0, op, lambda: f"the image {what} must be even, got {d}")


def _single_plane(op, y):
    shape = y.shape
    if not shape.rank_is_static:
        return PartialShape([Dimension()] * 3 + [Dimension(3, 3)])
    check(len(shape) == 4, op, lambda: f"input 'y' must be 4-D [N, H, W, C] (NHWC), got shape {shape}")
    n, h, w, c = shape
    check(c.compatible(1), op, lambda: f"a single-plane image has 1 channel, got {c} (input 'y')")
    image_h = (h * 2).divide(3)
    check(image_h is not None, op, lambda: f"the height {h} of a single-plane image must be 3/2 of an image height "
                                           f"(a multiple of 3)")
    _even(op, "height", image_h)
    _even(op, "width", w)
    return PartialShape([n, image_h, w, Dimension(3, 3)])


def _planes(op, y, chroma, name, channels):
    """Y [N, H, W, 1] and a chroma plane [N, H/2, W/2, channels] (`chroma` a PartialShape)."""
    out = [Dimension()] * 3
    if y.shape.rank_is_static:
        check(len(y.shape) == 4, op, lambda: f"input 'y' must be 4-D [N, H, W, 1] (NHWC), got shape {y.shape}")
        n, h, w, c = y.shape
        check(c.compatible(1), op, lambda: f"the Y plane has 1 channel, got {c}")
        _even(op, "height", h)
        _even(op, "width", w)
        out = [n, h, w]
    if chroma.rank_is_static:
        check(len(chroma) == 4, op, lambda: f"input {name!r} must be 4-D [N, H/2, W/2, {channels}] (NHWC), got shape "
                                            f"{chroma}")
        n, h, w, c = chroma
        check(c.compatible(channels), op, lambda: f"the {name} plane has {channels} channel(s), got {c}")
        for k, (d, what) in enumerate(zip((n, h * 2, w * 2), ("batch", "height", "width"))):
            merged = out[k].merge(d)
            check(merged is not None, op,
                  lambda: f"the {name} plane's {what} ({chroma[k]}) does not match the Y plane's "
                          f"({out[k]}{', halved' if k else ''})")
            out[k] = merged
    return PartialShape(out + [Dimension(3, 3)])


def _nv12_shape(op):
    def nv12_shape(y, uv=None):
        """[N, H, W, 3]. One input: y [N, 3H/2, W, 1], H = y's height * 2 / 3 by interval division (rejected
        when no length divides). Two: Y [N, H, W, 1] merged with UV [N, H/2, W/2, 2] doubled. A static H or
        W must be even; an input of dynamic rank leaves its dims dynamic."""
        return _single_plane(op, y) if uv is None else _planes(op, y, uv.shape, "uv", 2)
    return nv12_shape


def _i420_shape(op):
    def i420_shape(y, u=None, v=None):
        """[N, H, W, 3]. One input: y [N, 3H/2, W, 1], H = y's height * 2 / 3 by interval division. Three:
        Y [N, H, W, 1] merged with U and V [N, H/2, W/2, 1] (U and V of one shape) doubled. A static H or
        W must be even; two inputs are rejected; an input of dynamic rank leaves its dims dynamic."""
        if u is None and v is None:
            return _single_plane(op, y)
        check(u is not None and v is not None, op, "expected 1 input (a single plane) or 3 (Y, U and V planes)")
        uv = u.shape.merge(v.shape)
        check(uv is not None, op, lambda: f"the U plane {u.shape} and the V plane {v.shape} must have the same shape")
        return _planes(op, y, uv, "u/v", 1)
    return i420_shape


def _color_schema(name, planes, order):
    op = f"{name}-8"
    if planes == "NV12":
        inputs = (Port("y", "T", doc="the Y plane [N, H, W, 1], or the single plane [N, 3H/2, W, 1]"),
                  Port("uv", "T", optional=True, doc="the interleaved UV plane [N, H/2, W/2, 2]"))
        shape = _nv12_shape(op)
    else:
        inputs = (Port("y", "T", doc="the Y plane [N, H, W, 1], or the single plane [N, 3H/2, W, 1]"),
                  Port("u", "T", optional=True, doc="the U plane [N, H/2, W/2, 1]"),
                  Port("v", "T", optional=True, doc="the V plane [N, H/2, W/2, 1]"))
        shape = _i420_shape(op)
    return OpSchema(name, 8, category="image", inputs=inputs,
                    outputs=(Port("output", "T", doc=f"[N, H, W, 3], channels {order}"),),
                    type_constraints={"T": T_COLOR}, shape=shape,
                    doc=f"Converts a {planes} (YUV 4:2:0) image to {order}: R = 1.164 (Y - 16) + 1.596 (V - 128), "
                        f"G = 1.164 (Y - 16) - 0.813 (V - 128) - 0.391 (U - 128), B = 1.164 (Y - 16) + "
                        f"2.018 (U - 128), clipped to [0, 255].")


NV12_TO_RGB_8 = _color_schema("NV12toRGB", "NV12", "R, G, B")
NV12_TO_BGR_8 = _color_schema("NV12toBGR", "NV12", "B, G, R")
I420_TO_RGB_8 = _color_schema("I420toRGB", "I420", "R, G, B")
I420_TO_BGR_8 = _color_schema("I420toBGR", "I420", "B, G, R")


# --- RGB/BGR to NV12-17 ----------------------------------------------------------------------------
def _to_nv12_shape(op):
    def to_nv12_shape(image, *, single_plane):
        """[N, H, W, 3] -> single plane [N, 3H/2, W, 1], or Y [N, H, W, 1] and UV [N, H/2, W/2, 2], on
        intervals. image must be 4-D with 3 channels, a static H or W even; a dynamic rank gives
        [?, ?, ?, 1] (and [?, ?, ?, 2])."""
        shape = image.shape
        if not shape.rank_is_static:
            if single_plane:
                return PartialShape([Dimension()] * 3 + [Dimension(1, 1)])
            return [PartialShape([Dimension()] * 3 + [Dimension(1, 1)]),
                    PartialShape([Dimension()] * 3 + [Dimension(2, 2)])]
        check(len(shape) == 4, op, lambda: f"input 'image' must be 4-D [N, H, W, 3] (NHWC), got shape {shape}")
        n, h, w, c = shape
        check(c.compatible(3), op, lambda: f"the image has 3 channels, got {c}")
        _even(op, "height", h)
        _even(op, "width", w)
        if single_plane:
            return PartialShape([n, (h * 3).divide(2), w, Dimension(1, 1)])
        return [PartialShape([n, h, w, Dimension(1, 1)]),
                PartialShape([n, h.divide(2), w.divide(2), Dimension(2, 2)])]
    return to_nv12_shape


# OpenVINO refuses f8 images here ("u8 or floating-point precision, got f8e4m3"), where NV12toRGB takes them
T_TO_NV12 = ("u8", "f64", "f32", "f16", "bf16")


def _to_nv12_schema(name, order):
    return OpSchema(
        name, 17, category="image",
        inputs=(Port("image", "T", doc=f"[N, H, W, 3], channels {order}; H and W even"),),
        outputs=(Port("output", "T", variadic=True,
                      doc="single plane [N, 3H/2, W, 1]; or the Y plane [N, H, W, 1] and the UV plane "
                          "[N, H/2, W/2, 2]"),),
        attributes=(Attr("single_plane", BOOL, True, doc="one NV12 tensor (true) or separate Y and UV planes"),),
        type_constraints={"T": T_TO_NV12}, shape=_to_nv12_shape(f"{name}-17"),
        output_count=lambda inputs, attrs: 1 if attrs["single_plane"] else 2,
        doc=f"Converts an {order} image to NV12: Y = 0.257 R + 0.504 G + 0.098 B + 16, U = -0.148 R - 0.291 G + "
            f"0.439 B + 128, V = 0.439 R - 0.368 G - 0.071 B + 128 per pixel, clipped to [0, 255]; U and V "
            f"averaged over each 2x2 block (as OpenVINO's reference does; the spec does not say).")


RGB_TO_NV12_17 = _to_nv12_schema("RGBtoNV12", "R, G, B")
BGR_TO_NV12_17 = _to_nv12_schema("BGRtoNV12", "B, G, R")

OPS = (INTERPOLATE_1, INTERPOLATE_4, INTERPOLATE_11, GRID_SAMPLE_9, NV12_TO_RGB_8, NV12_TO_BGR_8, I420_TO_RGB_8,
       I420_TO_BGR_8, RGB_TO_NV12_17, BGR_TO_NV12_17)
