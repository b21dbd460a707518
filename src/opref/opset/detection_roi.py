"""Detection ops that pool regions or generate boxes: ROIAlign-3/9, ROIAlignRotated-15, ROIPooling-1,
PSROIPooling-1, RegionYolo-1, ReorgYolo-1, PriorBox-1/8, PriorBoxClustered-1.

Shape rules follow OpenVINO's (src/core/shape_inference/include/roi_align_shape_utils.hpp,
roi_pooling_shape_inference.hpp, psroi_pooling_shape_inference.hpp, region_yolo_shape_inference.hpp,
reorg_yolo_shape_inference.hpp, prior_box_shape_inference_util.hpp) on partial shapes; where the spec
bounds an attribute that OpenVINO's shape inference does not check (positive pooled sizes, a positive
spatial_scale), opref follows the spec and rejects it.
"""
from __future__ import annotations

import math

from ..errors import InvalidAttributeError
from ..shapes import Dimension, PartialShape, TensorInfo
from ..types import FLOAT, NUMERIC_BYTES
from .helpers import check, ints_of
from .schema import BOOL, FLOAT as FLOAT_ATTR, FLOATS, INT, INTS, STRING, Attr, OpSchema, Port

# Batch indices: any integer type of at least a byte (OpenVINO checks is_integral_number).
T_IND = ("i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8")
T_SIZE = T_IND
ALL_BYTES = NUMERIC_BYTES + ("boolean",)


def _rank(op, name, shape: PartialShape, rank: int, what: str):
    check(not shape.rank_is_static or len(shape) == rank, op, lambda: f"input {name!r} must be {what}, got {shape}")


def _merge(op, a: Dimension, b: Dimension, message) -> Dimension:
    m = a.merge(b)
    check(m is not None, op, message)
    return m


# --- ROIAlign ----------------------------------------------------------------------------------------
def _roi_align_shape(op, data, rois, batch_indices, *, pooled_h, pooled_w, sampling_ratio, spatial_scale,
                     coords=4):
    check(data.element_type == rois.element_type, op,
          lambda: f"inputs 'data' and 'rois' must have the same floating-point type, got {data.element_type} and "
                  f"{rois.element_type}")
    check(pooled_h > 0 and pooled_w > 0, op,
          lambda: f"attributes 'pooled_h', 'pooled_w' must be positive, got {pooled_h}, {pooled_w}")
    check(sampling_ratio >= 0, op, lambda: f"attribute 'sampling_ratio' must be >= 0, got {sampling_ratio}")
    check(spatial_scale > 0, op, lambda: f"attribute 'spatial_scale' must be positive, got {spatial_scale}")
    ds, rs, bs = data.shape, rois.shape, batch_indices.shape
    _rank(op, "data", ds, 4, "4-D [N, C, H, W]")
    _rank(op, "rois", rs, 2, f"2-D [NUM_ROIS, {coords}]")
    _rank(op, "batch_indices", bs, 1, "1-D [NUM_ROIS]")
    num = Dimension()
    if rs.rank_is_static:
        check(rs[1].compatible(coords), op, lambda: f"input 'rois' must have {coords} coordinates per box, got {rs}")
        num = rs[0]
    if bs.rank_is_static:
        num = _merge(op, num, bs[0], lambda: f"inputs 'rois' and 'batch_indices' must have the same number of "
                                             f"boxes, got {rs} and {bs}")
    channels = ds[1] if ds.rank_is_static else Dimension()
    return PartialShape([num, channels, pooled_h, pooled_w])


def roi_align_3_shape(data, rois, batch_indices, *, pooled_h, pooled_w, sampling_ratio, spatial_scale, mode):
    """[NUM_ROIS, C, pooled_h, pooled_w]: NUM_ROIS merged from rois' dim 0 and batch_indices' dim 0, C
    from data's dim 1 (dynamic where ranks are). data must be 4-D, rois [NUM_ROIS, 4], batch_indices
    1-D; data and rois of one element type; pooled_h, pooled_w, spatial_scale > 0, sampling_ratio >= 0."""
    return _roi_align_shape("ROIAlign-3", data, rois, batch_indices, pooled_h=pooled_h, pooled_w=pooled_w,
                            sampling_ratio=sampling_ratio, spatial_scale=spatial_scale)


def roi_align_9_shape(data, rois, batch_indices, *, pooled_h, pooled_w, sampling_ratio, spatial_scale, mode,
                      aligned_mode):
    """ROIAlign-3's rule: [NUM_ROIS, C, pooled_h, pooled_w] (aligned_mode does not change the shape)."""
    return _roi_align_shape("ROIAlign-9", data, rois, batch_indices, pooled_h=pooled_h, pooled_w=pooled_w,
                            sampling_ratio=sampling_ratio, spatial_scale=spatial_scale)


def _roi_align_attrs():
    return (Attr("pooled_h", INT, doc="height of each pooled region (> 0)"),
            Attr("pooled_w", INT, doc="width of each pooled region (> 0)"),
            Attr("sampling_ratio", INT, doc="sampling points per bin and axis; 0: ceil(bin size) per box"),
            Attr("spatial_scale", FLOAT_ATTR, doc="multiplies box coordinates into feature-map coordinates (> 0)"),
            Attr("mode", STRING, allowed=("avg", "max"), doc="average or maximum of a bin's samples"))


_ROI_ALIGN_IN = (Port("data", "T", doc="[N, C, H, W] feature maps"),
                 Port("rois", "T", doc="[NUM_ROIS, 4] boxes [x_1, y_1, x_2, y_2]"),
                 Port("batch_indices", "IND_T", doc="[NUM_ROIS] image of each box"))
_ROI_ALIGN_DOC = ("Pools each box of a feature map into pooled_h x pooled_w bins: the mean (avg) or maximum (max) "
                  "of a grid of bilinearly interpolated samples per bin.")

ROI_ALIGN_3 = OpSchema(
    "ROIAlign", 3, category="detection", inputs=_ROI_ALIGN_IN,
    outputs=(Port("output", "T", doc="[NUM_ROIS, C, pooled_h, pooled_w] pooled features"),),
    attributes=_roi_align_attrs(), type_constraints={"T": FLOAT, "IND_T": T_IND}, shape=roi_align_3_shape,
    doc=_ROI_ALIGN_DOC + " Boxes narrower than 1 are widened to 1.")

ROI_ALIGN_9 = OpSchema(
    "ROIAlign", 9, category="detection", inputs=_ROI_ALIGN_IN,
    outputs=(Port("output", "T", doc="[NUM_ROIS, C, pooled_h, pooled_w] pooled features"),),
    attributes=(*_roi_align_attrs(),
                Attr("aligned_mode", STRING, "asymmetric", allowed=("asymmetric", "half_pixel_for_nn", "half_pixel"),
                     doc="box coordinate transform: x*scale, x*scale - 0.5, or (x + 0.5)*scale - 0.5 (the last two "
                         "keep boxes narrower than 1)")),
    type_constraints={"T": FLOAT, "IND_T": T_IND}, shape=roi_align_9_shape,
    doc=_ROI_ALIGN_DOC + " ROIAlign-9 adds aligned_mode.")

# --- ReorgYolo --------------------------------------------------------------------------------------------
def reorg_yolo_shape(data, *, stride):
    """[N, C * s * s, H / s, W / s] with s = stride[0] > 0. data must be 4-D, with H and W multiples of s
    (intervals divided where they allow it) and a static C of at least s * s; a dynamic rank gives a
    dynamic rank."""
    op = "ReorgYolo-1"
    check(len(stride) > 0, op, "attribute 'stride' is required")
    s = stride[0]
    check(s > 0, op, lambda: f"attribute 'stride' must be positive, got {list(stride)}")
    ds = data.shape
    if not ds.rank_is_static:
        return PartialShape.dynamic()
    check(len(ds) == 4, op, lambda: f"input 'data' must be 4-D [N, C, H, W], got {ds}")
    n, c, h, w = ds
    check(not c.is_static or c.lo >= s * s, op,
          lambda: f"input 'data' must have C >= stride*stride = {s * s}, got {ds}")
    out = []
    for d in (h, w):
        q = d.divide(s)
        check(q is not None, op, lambda: f"input 'data' H and W must be multiples of the stride {s}, got {ds}")
        out.append(q)
    return PartialShape([n, c * (s * s), *out])


REORG_YOLO_1 = OpSchema(
    "ReorgYolo", 1, category="detection", inputs=(Port("data", "T", doc="[N, C, H, W]"),),
    outputs=(Port("output", "T", doc="[N, C*stride*stride, H/stride, W/stride]"),),
    attributes=(Attr("stride", INTS, doc="the block size (OpenVINO keeps it as a list; the first value is used)"),),
    type_constraints={"T": ALL_BYTES}, shape=reorg_yolo_shape,
    doc="Darknet's reorg: moves stride x stride blocks of each channel into channels.")


# --- RegionYolo -------------------------------------------------------------------------------------------
def region_yolo_shape(data, *, anchors, axis, coords, classes, end_axis, num, do_softmax, mask):
    """data must be 4-D [N, C, H, W] (a dynamic rank gives a dynamic rank). do_softmax false: [N,
    (classes + coords + 1) * len(mask), H, W]. do_softmax true: data's shape with axes axis..end_axis
    (each in [-4, 3]) flattened into one dim, their product."""
    op = "RegionYolo-1"
    ds = data.shape
    check(not ds.rank_is_static or len(ds) == 4, op, lambda: f"input 'data' must be 4-D [N, C, H, W], got {ds}")
    if not ds.rank_is_static:
        return PartialShape.dynamic()
    dims = list(ds)
    if not do_softmax:
        c = max(0, (classes + coords + 1) * len(mask))   # (OpenVINO's shape inference makes a negative count 0)
        dims[1] = Dimension(c, c)
        return PartialShape(dims)
    for name, v in (("axis", axis), ("end_axis", end_axis)):
        check(-4 <= v < 4, op, lambda: f"attribute {name!r} = {v} is out of range [-4, 3]")
    a, e = axis % 4, end_axis % 4
    flat = dims[a]
    for d in dims[a + 1:e + 1]:
        flat = flat * d
    return PartialShape(dims[:a] + [flat] + dims[max(e, a) + 1:])


REGION_YOLO_1 = OpSchema(
    "RegionYolo", 1, category="detection", inputs=(Port("data", "T", doc="[N, C, H, W]"),),
    outputs=(Port("output", "T", doc="the activated regions: [N, len(mask) * (classes + coords + 1), H, W], "
                                     "or with do_softmax data's values with axis..end_axis flattened"),),
    attributes=(Attr("anchors", FLOATS, (), doc="prior box sizes [w, h, ...] (kept for post-processing, unused)"),
                Attr("axis", INT, doc="first axis flattened in the output (do_softmax)"),
                Attr("coords", INT, doc="coordinates per region"),
                Attr("classes", INT, doc="classes per region"),
                Attr("end_axis", INT, doc="last axis flattened in the output (do_softmax)"),
                Attr("num", INT, doc="number of regions (do_softmax)"),
                Attr("do_softmax", BOOL, True, doc="true: YOLO v2 (softmax over classes, num regions, flattened "
                                                    "output); false: YOLO v3 (sigmoids, len(mask) regions)"),
                Attr("mask", INTS, (), doc="the regions' anchors (do_softmax false: their count is used)")),
    type_constraints={"T": FLOAT}, shape=region_yolo_shape,
    doc="YOLO region layer: sigmoid of box centres and objectness, softmax (or sigmoid) of class scores.")

# --- PriorBox / PriorBoxClustered ----------------------------------------------------------------------------
def number_of_priors(*, aspect_ratio, flip, min_size, max_size, fixed_size, fixed_ratio, density, scale_all_sizes,
                     op="PriorBox", **_) -> int:
    """Boxes per grid cell, as OpenVINO counts them (the output's size depends on it): the distinct
    aspect ratios (rounded to 1e-6, flipped ones included, 1 always) times the min sizes plus the max
    sizes; with fixed sizes, the ratios times the fixed sizes; each density d adds d*d - 1 boxes per
    fixed ratio (or per aspect ratio)."""
    def key(r):                                    # (0 flips to inf and nan stays nan, as in OpenVINO's count)
        return round(r * 1e6) / 1e6 if math.isfinite(r) else r

    ratios = {1.0}
    for r in aspect_ratio:
        ratios.add(key(r))
        if flip:
            ratios.add(key(1 / r if r else math.inf))
    total = len(ratios)
    n = total * len(min_size) + len(max_size) if scale_all_sizes else total + len(min_size) - 1
    if fixed_size:
        n = total * len(fixed_size)
    bad = [d for d in density if not math.isfinite(d)]
    if bad:    # the spec: positive densities; OpenVINO's count of an infinite one wraps ([2, 0] for inf)
        raise InvalidAttributeError(f"{op}: attribute 'density' must hold finite values, got {bad[0]!r}")
    for d in density:
        n += (len(fixed_ratio) if fixed_ratio else total) * (int(d) * int(d) - 1)
    return n


def _prior_box_shape(op, output_size, image_size, count):
    for name, i in (("output_size", output_size), ("image_size", image_size)):
        check(not i.shape.rank_is_static or len(i.shape) == 1, op, lambda: f"input {name!r} must be 1-D, got {i.shape}")
    size = ints_of(output_size)
    if size is None:
        return TensorInfo("f32", PartialShape([2, Dimension()]))
    check(len(size) == 2, op, lambda: f"input 'output_size' must have two elements [height, width], got {list(size)}")
    check(min(size) >= 0, op, lambda: f"input 'output_size' must be >= 0, got {list(size)}")
    return TensorInfo("f32", PartialShape([2, size[0] * size[1] * count * 4]))


def prior_box_1_shape(output_size, image_size, *, min_size, max_size, aspect_ratio, density, fixed_ratio, fixed_size,
                      clip, flip, step, offset, variance, scale_all_sizes):
    """f32 [2, 4 * height * width * priors] when output_size's value [height, width] is known (priors per
    cell counted from the attributes as number_of_priors does), else [2, ?]. output_size and image_size
    must be 1-D; a known output_size must hold two values."""
    return _prior_box_shape("PriorBox-1", output_size, image_size, number_of_priors(
        aspect_ratio=aspect_ratio, flip=flip, min_size=min_size, max_size=max_size, fixed_size=fixed_size,
        fixed_ratio=fixed_ratio, density=density, scale_all_sizes=scale_all_sizes, op="PriorBox-1"))


def prior_box_8_shape(output_size, image_size, *, min_size, max_size, aspect_ratio, density, fixed_ratio, fixed_size,
                      clip, flip, step, offset, variance, scale_all_sizes, min_max_aspect_ratios_order):
    """PriorBox-1's rule: f32 [2, 4 * height * width * priors], or [2, ?] while output_size is unknown
    (min_max_aspect_ratios_order changes the order, not the count)."""
    return _prior_box_shape("PriorBox-8", output_size, image_size, number_of_priors(
        aspect_ratio=aspect_ratio, flip=flip, min_size=min_size, max_size=max_size, fixed_size=fixed_size,
        fixed_ratio=fixed_ratio, density=density, scale_all_sizes=scale_all_sizes, op="PriorBox-8"))


def prior_box_clustered_shape(output_size, image_size, *, width, height, clip, step_w, step_h, step, offset, variance):
    """f32 [2, 4 * out_height * out_width * len(width)] when output_size's value is known, else [2, ?].
    width and height must have one length; output_size and image_size must be 1-D, a known output_size
    of two values."""
    op = "PriorBoxClustered-1"
    check(len(width) == len(height), op, lambda: f"attributes 'width' and 'height' must have the same length, got "
                                                 f"{list(width)} and {list(height)}")
    return _prior_box_shape(op, output_size, image_size, len(width))


def _prior_box_attrs(v8):
    out = (Attr("min_size", FLOATS, (), doc="square box sizes in pixels"),
           Attr("max_size", FLOATS, (), doc="per min_size, adds a sqrt(min_size * max_size) square"),
           Attr("aspect_ratio", FLOATS, (), doc="aspect ratios of extra boxes (duplicates ignored)"),
           Attr("density", FLOATS, (), doc="per fixed_size: the square root of the number of shifted boxes"),
           Attr("fixed_ratio", FLOATS, (), doc="aspect ratios of the fixed_size boxes"),
           Attr("fixed_size", FLOATS, (), doc="box sizes in pixels laid on a density x density grid"),
           Attr("clip", BOOL, False, doc="clip every coordinate to [0, 1]"),
           Attr("flip", BOOL, False, doc="add the inverse of each aspect ratio"),
           Attr("step", FLOAT_ATTR, 0.0, doc="distance between box centres in pixels; 0: image size / grid size"),
           Attr("offset", FLOAT_ATTR, doc="shift of the box centres within a cell, in cells"),
           Attr("variance", FLOATS, (), doc="the second output row: 1 or 4 values ([] means 0.1)"),
           Attr("scale_all_sizes", BOOL, True, doc="false: max_size ignored, sizes and step relative to the "
                                                    "image height (mxnet)"))
    if v8:
        out += (Attr("min_max_aspect_ratios_order", BOOL, True,
                     doc="true: [min, max, aspect ratios] boxes per min_size (Caffe); false: [min, aspect ratios, "
                         "max]"),)
    return out


_PRIOR_IN = (Port("output_size", "T_INT", const=True, doc="[height, width] of the grid"),
             Port("image_size", "T_INT", const=True, doc="[image_height, image_width]"))
_PRIOR_OUT = (Port("output", "f32", doc="[2, 4 * height * width * priors]: boxes [xmin, ymin, xmax, ymax] "
                                        "normalised by the image size, then their variances"),)

PRIOR_BOX_1 = OpSchema(
    "PriorBox", 1, category="detection", inputs=_PRIOR_IN, outputs=_PRIOR_OUT, attributes=_prior_box_attrs(False),
    type_constraints={"T_INT": T_SIZE}, shape=prior_box_1_shape,
    doc="SSD prior boxes of several sizes and aspect ratios at every cell of a grid.")

PRIOR_BOX_8 = OpSchema(
    "PriorBox", 8, category="detection", inputs=_PRIOR_IN, outputs=_PRIOR_OUT, attributes=_prior_box_attrs(True),
    type_constraints={"T_INT": T_SIZE}, shape=prior_box_8_shape,
    doc="SSD prior boxes of several sizes and aspect ratios at every cell of a grid. PriorBox-8 adds "
        "min_max_aspect_ratios_order.")

PRIOR_BOX_CLUSTERED_1 = OpSchema(
    "PriorBoxClustered", 1, category="detection", inputs=_PRIOR_IN, outputs=_PRIOR_OUT,
    attributes=(Attr("step", FLOAT_ATTR, 0.0, doc="distance between box centres (when step_w/step_h are 0)"),
                Attr("step_w", FLOAT_ATTR, 0.0, doc="horizontal distance between box centres"),
                Attr("step_h", FLOAT_ATTR, 0.0, doc="vertical distance between box centres"),
                Attr("width", FLOATS, (), doc="box widths in pixels"),
                Attr("height", FLOATS, (), doc="box heights in pixels (one per width)"),
                Attr("clip", BOOL, True, doc="clip every coordinate to [0, 1]"),
                Attr("offset", FLOAT_ATTR, doc="shift of the box centres within a cell, in cells"),
                Attr("variance", FLOATS, (), doc="the second output row: 1 or 4 values ([] means 0.1)")),
    type_constraints={"T_INT": T_SIZE}, shape=prior_box_clustered_shape,
    doc="Prior boxes of given widths and heights (clustered from a data set) at every cell of a grid.")

# --- ROIPooling --------------------------------------------------------------------------------------------
def roi_pooling_shape(data, rois, *, pooled_h, pooled_w, spatial_scale, method):
    """[NUM_ROIS, C, pooled_h, pooled_w]: NUM_ROIS from rois' dim 0, C from data's dim 1 (dynamic where a
    rank is). data must be 4-D, rois [NUM_ROIS, 5], both of one element type; pooled_h, pooled_w > 0
    and spatial_scale a finite positive (normal) number."""
    op = "ROIPooling-1"
    check(data.element_type == rois.element_type, op,
          lambda: f"inputs 'data' and 'rois' must have the same floating-point type, got {data.element_type} and "
                  f"{rois.element_type}")
    ds, rs = data.shape, rois.shape
    _rank(op, "data", ds, 4, "4-D [N, C, H, W]")
    _rank(op, "rois", rs, 2, "2-D [NUM_ROIS, 5]")
    check(not rs.rank_is_static or rs[1].compatible(5), op,
          lambda: f"input 'rois' must have 5 values per box [batch_id, x_1, y_1, x_2, y_2], got {rs}")
    check(pooled_h > 0 and pooled_w > 0, op,
          lambda: f"attributes 'pooled_h', 'pooled_w' must be positive, got {pooled_h}, {pooled_w}")
    check(math.isfinite(spatial_scale) and spatial_scale > 0 and abs(spatial_scale) >= 2.2250738585072014e-308, op,
          lambda: f"attribute 'spatial_scale' must be a positive number, got {spatial_scale}")
    return PartialShape([rs[0] if rs.rank_is_static else Dimension(), ds[1] if ds.rank_is_static else Dimension(),
                         pooled_h, pooled_w])


ROI_POOLING_1 = OpSchema(
    "ROIPooling", 1, category="detection",
    inputs=(Port("data", "T", doc="[N, C, H, W] feature maps"),
            Port("rois", "T", doc="[NUM_ROIS, 5] boxes [batch_id, x_1, y_1, x_2, y_2] (max: in image pixels, "
                                  "bilinear: normalised to [0, 1])")),
    outputs=(Port("output", "T", doc="[NUM_ROIS, C, pooled_h, pooled_w]"),),
    attributes=(Attr("pooled_h", INT, doc="height of each pooled region (> 0)"),
                Attr("pooled_w", INT, doc="width of each pooled region (> 0)"),
                Attr("spatial_scale", FLOAT_ATTR, doc="multiplies box coordinates into feature-map coordinates (> 0)"),
                Attr("method", STRING, "max", allowed=("max", "bilinear"),
                     doc="max: maximum over each bin's pixels; bilinear: one interpolated sample per bin")),
    type_constraints={"T": FLOAT}, shape=roi_pooling_shape,
    doc="Fast R-CNN region pooling: each box into pooled_h x pooled_w bins.")

# --- PSROIPooling ------------------------------------------------------------------------------------------
def psroi_pooling_shape(data, rois, *, output_dim, group_size, spatial_scale, mode, spatial_bins_x, spatial_bins_y):
    """[NUM_ROIS, output_dim, group_size, group_size], NUM_ROIS from rois' dim 0. data must be 4-D with
    output_dim * group_size^2 channels (average) or output_dim * spatial_bins_x * spatial_bins_y
    (bilinear); rois [NUM_ROIS, 5], of data's element type; output_dim, group_size (and in bilinear
    mode the spatial bins) > 0; spatial_scale a finite positive number."""
    op = "PSROIPooling-1"
    check(data.element_type == rois.element_type, op,
          lambda: f"inputs 'data' and 'rois' must have the same floating-point type, got {data.element_type} and "
                  f"{rois.element_type}")
    check(group_size > 0, op, lambda: f"attribute 'group_size' must be > 0, got {group_size}")
    check(output_dim > 0, op, lambda: f"attribute 'output_dim' must be > 0, got {output_dim}")
    if mode == "bilinear":
        check(spatial_bins_x > 0 and spatial_bins_y > 0, op,
              lambda: f"attributes 'spatial_bins_x', 'spatial_bins_y' must be > 0, got {spatial_bins_x}, "
                      f"{spatial_bins_y}")
    check(math.isfinite(spatial_scale) and spatial_scale >= 2.2250738585072014e-308, op,
          lambda: f"attribute 'spatial_scale' must be a positive number, got {spatial_scale}")
    ds, rs = data.shape, rois.shape
    _rank(op, "data", ds, 4, "4-D [N, C, H, W]")
    if ds.rank_is_static:
        per = group_size * group_size if mode == "average" else spatial_bins_x * spatial_bins_y
        what = "group_size * group_size" if mode == "average" else "spatial_bins_x * spatial_bins_y"
        check(ds[1].compatible(per * output_dim), op,
              lambda: f"input 'data' must have output_dim * {what} = {per * output_dim} channels, got {ds}")
    _rank(op, "rois", rs, 2, "2-D [NUM_ROIS, 5]")
    check(not rs.rank_is_static or rs[1].compatible(5), op,
          lambda: f"input 'rois' must have 5 values per box [batch_id, x_1, y_1, x_2, y_2], got {rs}")
    return PartialShape([rs[0] if rs.rank_is_static else Dimension(), output_dim, group_size, group_size])


PSROI_POOLING_1 = OpSchema(
    "PSROIPooling", 1, category="detection",
    inputs=(Port("data", "T", doc="[N, C, H, W] position-sensitive score maps"),
            Port("rois", "T", doc="[NUM_ROIS, 5] boxes [batch_id, x_1, y_1, x_2, y_2]")),
    outputs=(Port("output", "T", doc="[NUM_ROIS, output_dim, group_size, group_size]"),),
    attributes=(Attr("output_dim", INT, doc="output channels (> 0)"),
                Attr("group_size", INT, 1, doc="bins per axis of the output (> 0)"),
                Attr("spatial_scale", FLOAT_ATTR, doc="multiplies box coordinates into feature-map coordinates (> 0)"),
                Attr("mode", STRING, "average", allowed=("average", "bilinear"),
                     doc="average: mean of each bin's pixels from its own channel; bilinear: mean of one sample "
                         "per spatial bin, each from its own channel"),
                Attr("spatial_bins_x", INT, 1, doc="bilinear: horizontal spatial bins (> 0)"),
                Attr("spatial_bins_y", INT, 1, doc="bilinear: vertical spatial bins (> 0)")),
    type_constraints={"T": FLOAT}, shape=psroi_pooling_shape,
    doc="R-FCN position-sensitive region pooling: each output bin reads its own group of channels.")

OPS = (ROI_ALIGN_3, ROI_ALIGN_9, REORG_YOLO_1, REGION_YOLO_1, PRIOR_BOX_1, PRIOR_BOX_8, PRIOR_BOX_CLUSTERED_1,
       ROI_POOLING_1, PSROI_POOLING_1)
