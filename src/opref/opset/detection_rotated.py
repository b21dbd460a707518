"""Schemas and shape rules: ROIAlignRotated-15 and DeformablePSROIPooling-1.

ROIAlignRotated shares ROIAlign's shape rule (OpenVINO's roi_align_shape_utils.hpp) with 5 values per
box. DeformablePSROIPooling follows deformable_psroi_pooling_shape_inference.hpp (ranks only, output
[NUM_ROIS, output_dim, group_size, group_size]); where the spec bounds what OpenVINO's shape inference
leaves unchecked (positive spatial_scale, spatial bins and part_size; 5 values per box; output_dim *
group_size^2 input channels; offsets [NUM_ROIS, 2 * classes, part_size, part_size] with the classes
dividing output_dim), opref follows the spec and rejects: OpenVINO's kernels read out of bounds there
(or, for classes that do not divide output_dim, divide by zero and crash).
"""
from __future__ import annotations

import math

from ..shapes import Dimension, PartialShape
from ..types import FLOAT
from .detection_roi import T_IND, _rank, _roi_align_shape
from .helpers import check
from .schema import BOOL, FLOAT as FLOAT_ATTR, INT, STRING, Attr, OpSchema, Port


# --- ROIAlignRotated ---------------------------------------------------------------------------------
def roi_align_rotated_15_shape(data, rois, batch_indices, *, pooled_h, pooled_w, sampling_ratio, spatial_scale,
                               clockwise_mode):
    """ROIAlign-3's rule with 5 values per box: [NUM_ROIS, C, pooled_h, pooled_w], NUM_ROIS merged from
    rois [NUM_ROIS, 5] and batch_indices [NUM_ROIS], C from data [N, C, H, W]; pooled_h, pooled_w,
    spatial_scale > 0, sampling_ratio >= 0; data and rois of one element type."""
    return _roi_align_shape("ROIAlignRotated-15", data, rois, batch_indices, pooled_h=pooled_h, pooled_w=pooled_w,
                            sampling_ratio=sampling_ratio, spatial_scale=spatial_scale, coords=5)


ROI_ALIGN_ROTATED_15 = OpSchema(
    "ROIAlignRotated", 15, category="detection",
    inputs=(Port("data", "T", doc="[N, C, H, W] feature maps"),
            Port("rois", "T", doc="[NUM_ROIS, 5] boxes [center_x, center_y, width, height, angle in radians]"),
            Port("batch_indices", "IND_T", doc="[NUM_ROIS] image of each box")),
    outputs=(Port("output", "T", doc="[NUM_ROIS, C, pooled_h, pooled_w]"),),
    attributes=(Attr("pooled_h", INT, doc="height of each pooled region (> 0)"),
                Attr("pooled_w", INT, doc="width of each pooled region (> 0)"),
                Attr("sampling_ratio", INT, doc="sampling points per bin and axis; 0: ceil(bin size) per box"),
                Attr("spatial_scale", FLOAT_ATTR, doc="multiplies box centres and sizes into feature-map "
                                                      "coordinates (> 0)"),
                Attr("clockwise_mode", BOOL, False, doc="true: the angle turns the box clockwise")),
    type_constraints={"T": FLOAT, "IND_T": T_IND}, shape=roi_align_rotated_15_shape,
    doc="Pools each rotated box of a feature map into pooled_h x pooled_w bins: the mean of a grid of bilinearly "
        "interpolated samples per bin, the grid turned by the box's angle about its centre (shifted by -0.5).")


# --- DeformablePSROIPooling ----------------------------------------------------------------------------
def deformable_psroi_pooling_1_shape(data, rois, offsets=None, *, output_dim, spatial_scale, group_size, mode,
                                     spatial_bins_x, spatial_bins_y, trans_std, part_size):
    """[NUM_ROIS, output_dim, group_size, group_size], NUM_ROIS from rois' dim 0. data must be 4-D with
    output_dim * group_size^2 channels, rois [NUM_ROIS, 5], offsets (when given) [NUM_ROIS, 2 * classes,
    part_size, part_size] with classes dividing output_dim; output_dim, group_size, spatial bins,
    part_size > 0 and spatial_scale finite and > 0."""
    op = "DeformablePSROIPooling-1"
    ds, rs = data.shape, rois.shape
    _rank(op, "data", ds, 4, "4-D [N, C, H, W]")
    _rank(op, "rois", rs, 2, "2-D [NUM_ROIS, 5]")
    if offsets is not None:
        _rank(op, "offsets", offsets.shape, 4, "4-D [NUM_ROIS, 2 * classes, part_size, part_size]")
    check(output_dim > 0, op, lambda: f"attribute 'output_dim' must be > 0, got {output_dim}")
    check(group_size > 0, op, lambda: f"attribute 'group_size' must be > 0, got {group_size}")
    # the spec's bounds below: OpenVINO's shape inference does not check them
    check(math.isfinite(spatial_scale) and spatial_scale > 0, op,
          lambda: f"attribute 'spatial_scale' must be a positive number, got {spatial_scale}")
    check(spatial_bins_x > 0 and spatial_bins_y > 0, op,
          lambda: f"attributes 'spatial_bins_x', 'spatial_bins_y' must be > 0, got {spatial_bins_x}, {spatial_bins_y}")
    check(part_size > 0, op, lambda: f"attribute 'part_size' must be > 0, got {part_size}")
    if ds.rank_is_static:
        per = output_dim * group_size * group_size
        check(ds[1].compatible(per), op,
              lambda: f"input 'data' must have output_dim * group_size * group_size = {per} channels, got {ds}")
    check(not rs.rank_is_static or rs[1].compatible(5), op,
          lambda: f"input 'rois' must have 5 values per box [batch_id, x_1, y_1, x_2, y_2], got {rs}")
    num = rs[0] if rs.rank_is_static else Dimension()
    if offsets is not None and offsets.shape.rank_is_static:
        n, c, h, w = offsets.shape
        check(h.compatible(part_size) and w.compatible(part_size), op,
              lambda: f"input 'offsets' must be [NUM_ROIS, 2 * classes, part_size, part_size] with part_size = "
                      f"{part_size}, got {offsets.shape}")
        check(n.compatible(num), op,
              lambda: f"inputs 'rois' and 'offsets' must have the same number of boxes, got {rs} and "
                      f"{offsets.shape}")
        if c.is_static:
            check(c.lo > 0 and c.lo % 2 == 0 and output_dim % (c.lo // 2) == 0, op,
                  lambda: f"input 'offsets' must have 2 * classes channels, the classes dividing output_dim = "
                          f"{output_dim}, got {offsets.shape}")
    return PartialShape([num, output_dim, group_size, group_size])


DEFORMABLE_PSROI_POOLING_1 = OpSchema(
    "DeformablePSROIPooling", 1, category="detection",
    inputs=(Port("data", "T", doc="[N, output_dim * group_size^2, H, W] position-sensitive score maps"),
            Port("rois", "T", doc="[NUM_ROIS, 5] boxes [batch_id, x_1, y_1, x_2, y_2] in image pixels"),
            Port("offsets", "T", optional=True,
                 doc="[NUM_ROIS, 2 * classes, part_size, part_size] normalised (x, y) shifts of the bins' corners")),
    outputs=(Port("output", "T", doc="[NUM_ROIS, output_dim, group_size, group_size]"),),
    attributes=(Attr("output_dim", INT, doc="output channels (> 0)"),
                Attr("spatial_scale", FLOAT_ATTR, doc="multiplies box coordinates into feature-map coordinates (> 0)"),
                Attr("group_size", INT, 1, doc="bins per axis of the output (> 0); each bin reads its own channel"),
                Attr("mode", STRING, "bilinear_deformable", allowed=("bilinear_deformable",),
                     doc="the only mode: the mean of bilinear samples per bin"),
                Attr("spatial_bins_x", INT, 1, doc="horizontal samples per bin (> 0)"),
                Attr("spatial_bins_y", INT, 1, doc="vertical samples per bin (> 0)"),
                Attr("trans_std", FLOAT_ATTR, 1.0, doc="multiplies the offsets"),
                Attr("part_size", INT, 1, doc="height and width of the offsets' grid (> 0)")),
    type_constraints={"T": FLOAT}, shape=deformable_psroi_pooling_1_shape,
    doc="Deformable R-FCN position-sensitive region pooling: each output bin reads its own channel, its "
        "samples shifted by the optional offsets (times trans_std and the box size).")

OPS = (ROI_ALIGN_ROTATED_15, DEFORMABLE_PSROI_POOLING_1)
