"""Schemas and shape rules: the ExperimentalDetectron*-6 ops (Mask R-CNN's Detectron building blocks):
TopKROIs, PriorGridGenerator, ROIFeatureExtractor, GenerateProposalsSingleImage, DetectionOutput.

Shape rules follow OpenVINO's (src/core/shape_inference/include/experimental_detectron_*_shape_inference.hpp)
on partial shapes: the row counts of TopKROIs, GenerateProposalsSingleImage and DetectionOutput come from
attributes (the outputs are padded), the others from the inputs' dims.
"""
from __future__ import annotations

from ..shapes import Dimension, PartialShape
from ..types import FLOAT
from .helpers import check
from .schema import BOOL, FLOAT as FLOAT_ATTR, FLOATS, INT, INTS, Attr, OpSchema, Port


def _rank(op, name, shape: PartialShape, rank: int, what: str):
    check(not shape.rank_is_static or len(shape) == rank, op, lambda: f"input {name!r} must be {what}, got {shape}")


def _dim(shape: PartialShape, i: int) -> Dimension:
    return shape[i] if shape.rank_is_static else Dimension()


def _non_negative(op, **values):
    for name, v in values.items():
        check(v >= 0, op, lambda: f"attribute {name!r} must be >= 0, got {v}")


# --- ExperimentalDetectronTopKROIs-6 ---------------------------------------------------------------------
def top_k_rois_shape(input_rois, rois_probs, *, max_rois):
    """[max_rois, 4], whatever the inputs' dims. input_rois must be [NUM_ROIS, 4] and rois_probs
    [NUM_ROIS] (checked where ranks are static); max_rois >= 0."""
    op = "ExperimentalDetectronTopKROIs-6"
    _non_negative(op, max_rois=max_rois)
    rs, ps = input_rois.shape, rois_probs.shape
    _rank(op, "input_rois", rs, 2, "2-D [NUM_ROIS, 4]")
    check(not rs.rank_is_static or rs[1].compatible(4), op,
          lambda: f"input 'input_rois' must have 4 values per box, got {rs}")
    _rank(op, "rois_probs", ps, 1, "1-D [NUM_ROIS]")
    check(not (rs.rank_is_static and ps.rank_is_static) or rs[0].compatible(ps[0]), op,
          lambda: f"inputs 'input_rois' and 'rois_probs' must have the same number of boxes, got {rs} and {ps}")
    return PartialShape([max_rois, 4])


TOP_K_ROIS_6 = OpSchema(
    "ExperimentalDetectronTopKROIs", 6, category="detection",
    inputs=(Port("input_rois", "T", doc="[NUM_ROIS, 4] boxes [x_1, y_1, x_2, y_2]"),
            Port("rois_probs", "T", doc="[NUM_ROIS] probability of each box")),
    outputs=(Port("output_rois", "T", doc="[max_rois, 4]: the boxes of highest probability, best first; rows "
                                          "past NUM_ROIS are 0"),),
    attributes=(Attr("max_rois", INT, 0, doc="how many boxes to keep (>= 0)"),),
    type_constraints={"T": FLOAT}, shape=top_k_rois_shape,
    doc="The max_rois boxes of highest probability, in descending order of probability (equal probabilities "
        "keep the input order).")


# --- ExperimentalDetectronPriorGridGenerator-6 -----------------------------------------------------------
def prior_grid_generator_shape(priors, feature_map, im_data, *, flatten, h, w, stride_x, stride_y):
    """[H * W * NUM_PRIORS, 4] when flatten, else [H, W, NUM_PRIORS, 4], H and W being feature_map's
    dims 2 and 3 (not the h, w attributes); a dynamic rank of priors or feature_map leaves those dims
    dynamic. priors must be [NUM_PRIORS, 4], feature_map and im_data 4-D with compatible batches;
    h, w, stride_x, stride_y >= 0."""
    op = "ExperimentalDetectronPriorGridGenerator-6"
    _non_negative(op, h=h, w=w, stride_x=stride_x, stride_y=stride_y)      # the spec's ranges
    ps, fs, ims = priors.shape, feature_map.shape, im_data.shape
    _rank(op, "priors", ps, 2, "2-D [NUM_PRIORS, 4]")
    check(not ps.rank_is_static or ps[1].compatible(4), op,
          lambda: f"input 'priors' must have 4 values per prior, got {ps}")
    _rank(op, "feature_map", fs, 4, "4-D [N, C, H, W]")
    _rank(op, "im_data", ims, 4, "4-D [N, C, H, W]")
    check(not (fs.rank_is_static and ims.rank_is_static) or fs[0].compatible(ims[0]), op,
          lambda: f"inputs 'feature_map' and 'im_data' must have the same first dimension, got {fs} and {ims}")
    if flatten:
        rows = _dim(fs, 2) * _dim(fs, 3) * ps[0] if ps.rank_is_static and fs.rank_is_static else Dimension()
        return PartialShape([rows, 4])
    return PartialShape([_dim(fs, 2), _dim(fs, 3), _dim(ps, 0), 4])


PRIOR_GRID_GENERATOR_6 = OpSchema(
    "ExperimentalDetectronPriorGridGenerator", 6, category="detection",
    inputs=(Port("priors", "T", doc="[NUM_PRIORS, 4] prior boxes [x_1, y_1, x_2, y_2] around the origin"),
            Port("feature_map", "T", doc="[N, C, H, W] feature map (only its height and width are used)"),
            Port("im_data", "T", doc="[N, C, IMAGE_H, IMAGE_W] image (only its height and width are used)")),
    outputs=(Port("output", "T", doc="[H * W * NUM_PRIORS, 4] (flatten) or [H, W, NUM_PRIORS, 4]: every prior "
                                     "shifted to every cell centre; cells past the grid of h x w are 0"),),
    attributes=(Attr("flatten", BOOL, True, doc="2-D output (true) or 4-D (false)"),
                Attr("h", INT, 0, doc="grid rows (0: the feature map's height)"),
                Attr("w", INT, 0, doc="grid columns (0: the feature map's width)"),
                Attr("stride_x", FLOAT_ATTR, 0.0, doc="horizontal cell step (0: image width / grid columns)"),
                Attr("stride_y", FLOAT_ATTR, 0.0, doc="vertical cell step (0: image height / grid rows)")),
    type_constraints={"T": FLOAT}, shape=prior_grid_generator_shape,
    doc="Lays the prior boxes over a grid: prior p at cell (y, x) is p + [sx (x + 0.5), sy (y + 0.5), "
        "sx (x + 0.5), sy (y + 0.5)].")


# --- ExperimentalDetectronROIFeatureExtractor-6 ----------------------------------------------------------
def roi_feature_extractor_shape(rois, pyramid, *more_pyramid, output_size, sampling_ratio, pyramid_scales, aligned):
    """output [NUM_ROIS, C, output_size, output_size] and output_rois [NUM_ROIS, 4]: NUM_ROIS from rois
    ([NUM_ROIS, 4]), C merged over the pyramid levels (each 4-D with batch 1; dynamic if no level has a
    static rank). Rejects output_size <= 0, sampling_ratio < 0, and a pyramid_scales that does not hold
    one positive scale per level."""
    op = "ExperimentalDetectronROIFeatureExtractor-6"
    pyramid = (pyramid, *more_pyramid)
    names = ("rois",) + tuple(f"pyramid[{i}]" for i in range(len(pyramid)))
    # the spec's ranges (OpenVINO's shape inference checks none of them)
    check(output_size > 0, op, lambda: f"attribute 'output_size' must be > 0, got {output_size}")
    check(sampling_ratio >= 0, op, lambda: f"attribute 'sampling_ratio' must be >= 0, got {sampling_ratio}")
    check(len(pyramid_scales) == len(pyramid) and all(s > 0 for s in pyramid_scales), op,
          lambda: f"attribute 'pyramid_scales' must have a positive scale per pyramid level ({len(pyramid)}), got "
                  f"{list(pyramid_scales)}")
    rs = rois.shape
    _rank(op, "rois", rs, 2, "2-D [NUM_ROIS, 4]")
    check(not rs.rank_is_static or rs[1].compatible(4), op,
          lambda: f"input 'rois' must have 4 values per box, got {rs}")
    channels = None
    for name, level in zip(names[1:], pyramid):
        ls = level.shape
        _rank(op, name, ls, 4, "4-D [1, C, H, W]")
        if not ls.rank_is_static:
            continue
        check(ls[0].compatible(1), op, lambda: f"input {name!r} must have a first dimension of 1, got {ls}")
        if channels is None:
            channels = ls[1]
        else:
            merged = channels.merge(ls[1])
            check(merged is not None, op, lambda: f"every pyramid level must have the same channels, got {ls} after "
                                                  f"{channels} channels")
            channels = merged
    num = _dim(rs, 0)
    return (PartialShape([num, channels if channels is not None else Dimension(), output_size, output_size]),
            PartialShape([num, 4]))


ROI_FEATURE_EXTRACTOR_6 = OpSchema(
    "ExperimentalDetectronROIFeatureExtractor", 6, category="detection",
    inputs=(Port("rois", "T", doc="[NUM_ROIS, 4] boxes [x_1, y_1, x_2, y_2] in image coordinates"),
            Port("pyramid", "T", variadic=True, doc="feature maps [1, C, H_l, W_l], one per pyramid level")),
    outputs=(Port("output", "T", doc="[NUM_ROIS, C, output_size, output_size] pooled features"),
             Port("output_rois", "T", doc="[NUM_ROIS, 4] the boxes (as given)")),
    attributes=(Attr("output_size", INT, doc="bins per axis of each pooled box"),
                Attr("sampling_ratio", INT, doc="samples per bin and axis; 0: ceil(bin size) per box"),
                Attr("pyramid_scales", INTS, doc="image size / level size, one per pyramid level"),
                Attr("aligned", BOOL, False, doc="shift box coordinates by -0.5 pixel after scaling")),
    type_constraints={"T": FLOAT}, shape=roi_feature_extractor_shape,
    doc="ROIAlign (average) over a feature pyramid: each box pooled from level "
        "clamp(floor(2 + log2(sqrt(w h) / 224 + 1e-6)), 0, L - 1); a box of no area is not pooled (zeros).")


# --- ExperimentalDetectronGenerateProposalsSingleImage-6 -------------------------------------------------
def generate_proposals_single_image_shape(im_info, anchors, deltas, scores, *, min_size, nms_threshold,
                                          pre_nms_count, post_nms_count):
    """[post_nms_count, 4] and [post_nms_count], whatever the inputs' dims. Checked where ranks are
    static: im_info [3], anchors [*, 4], deltas and scores 3-D with the same height and width;
    pre_nms_count and post_nms_count >= 0."""
    op = "ExperimentalDetectronGenerateProposalsSingleImage-6"
    _non_negative(op, pre_nms_count=pre_nms_count, post_nms_count=post_nms_count)
    iis, ans, ds, ss = im_info.shape, anchors.shape, deltas.shape, scores.shape
    _rank(op, "im_info", iis, 1, "1-D [3]")
    check(not iis.rank_is_static or iis[0].compatible(3), op, lambda: f"input 'im_info' must have 3 values, got {iis}")
    _rank(op, "anchors", ans, 2, "2-D [H * W * A, 4]")
    check(not ans.rank_is_static or ans[1].compatible(4), op, lambda: f"input 'anchors' must have 4 values per anchor, "
                                                                      f"got {ans}")
    _rank(op, "deltas", ds, 3, "3-D [A * 4, H, W]")
    _rank(op, "scores", ss, 3, "3-D [A, H, W]")
    if ds.rank_is_static and ss.rank_is_static:
        check(ds[1].compatible(ss[1]) and ds[2].compatible(ss[2]), op,
              lambda: f"inputs 'deltas' and 'scores' must have the same height and width, got {ds} and {ss}")
    return PartialShape([post_nms_count, 4]), PartialShape([post_nms_count])


GENERATE_PROPOSALS_SINGLE_IMAGE_6 = OpSchema(
    "ExperimentalDetectronGenerateProposalsSingleImage", 6, category="detection",
    inputs=(Port("im_info", "T", doc="[3] image [height, width, scale]"),
            Port("anchors", "T", doc="[H * W * A, 4] anchors [x_1, y_1, x_2, y_2], in (h, w, a) order"),
            Port("deltas", "T", doc="[A * 4, H, W] box deltas [dx, dy, d_log_w, d_log_h] per anchor"),
            Port("scores", "T", doc="[A, H, W] objectness scores")),
    outputs=(Port("output_rois", "T", doc="[post_nms_count, 4] proposals, best first; rows past the found ones "
                                          "are 0"),
             Port("output_scores", "T", doc="[post_nms_count] their scores")),
    attributes=(Attr("min_size", FLOAT_ATTR, doc="proposals narrower or lower than this are dropped"),
                Attr("nms_threshold", FLOAT_ATTR, doc="IoU above which NMS suppresses a proposal"),
                Attr("pre_nms_count", INT, doc="proposals kept (by score) before NMS"),
                Attr("post_nms_count", INT, doc="proposals returned")),
    type_constraints={"T": FLOAT}, shape=generate_proposals_single_image_shape,
    doc="Decodes anchors with deltas (width and height deltas capped at log(1000/16)) into pixel boxes clipped to "
        "the image; boxes smaller than min_size get score 0 (they sort last, as OpenVINO keeps them); the "
        "pre_nms_count best go through a greedy NMS and the post_nms_count first survivors are returned.")


# --- ExperimentalDetectronDetectionOutput-6 --------------------------------------------------------------
def detection_output_shape(rois, deltas, scores, im_info, *, score_threshold, nms_threshold, max_delta_log_wh,
                           num_classes, post_nms_count, max_detections_per_image, class_agnostic_box_regression,
                           deltas_weights):
    """[max_detections_per_image, 4], [max_detections_per_image] and [max_detections_per_image], whatever
    the inputs' dims. Checked where ranks are static: rois [R, 4], deltas [R, num_classes * 4], scores
    [R, num_classes] with one R, im_info [1, 3]; deltas_weights holds 4 values; num_classes,
    post_nms_count and max_detections_per_image >= 0."""
    op = "ExperimentalDetectronDetectionOutput-6"
    _non_negative(op, num_classes=num_classes, post_nms_count=post_nms_count,
                  max_detections_per_image=max_detections_per_image)
    check(len(deltas_weights) == 4, op,
          lambda: f"attribute 'deltas_weights' must have 4 values (dx, dy, d_log_w, d_log_h), "
                  f"got {list(deltas_weights)}")
    rs, ds, ss, iis = rois.shape, deltas.shape, scores.shape, im_info.shape
    _rank(op, "rois", rs, 2, "2-D [NUM_ROIS, 4]")
    check(not rs.rank_is_static or rs[1].compatible(4), op,
          lambda: f"input 'rois' must have 4 values per box, got {rs}")
    _rank(op, "deltas", ds, 2, "2-D [NUM_ROIS, num_classes * 4]")
    check(not ds.rank_is_static or ds[1].compatible(num_classes * 4), op,
          lambda: f"input 'deltas' must have num_classes * 4 = {num_classes * 4} columns, got {ds}")
    _rank(op, "scores", ss, 2, "2-D [NUM_ROIS, num_classes]")
    check(not ss.rank_is_static or ss[1].compatible(num_classes), op,
          lambda: f"input 'scores' must have num_classes = {num_classes} columns, got {ss}")
    check(iis.compatible([1, 3]), op, lambda: f"input 'im_info' must have shape [1, 3], got {iis}")
    if rs.rank_is_static and ds.rank_is_static and ss.rank_is_static:
        m = rs[0].merge(ds[0])
        check(m is not None and m.merge(ss[0]) is not None, op,
              lambda: f"inputs 'rois', 'deltas' and 'scores' must have the same number of rows, got {rs}, {ds} and "
                      f"{ss}")
    n = max_detections_per_image
    return PartialShape([n, 4]), PartialShape([n]), PartialShape([n])


DETECTION_OUTPUT_6 = OpSchema(
    "ExperimentalDetectronDetectionOutput", 6, category="detection",
    inputs=(Port("rois", "T", doc="[NUM_ROIS, 4] boxes [x_1, y_1, x_2, y_2]"),
            Port("deltas", "T", doc="[NUM_ROIS, num_classes * 4] box deltas per class"),
            Port("scores", "T", doc="[NUM_ROIS, num_classes] class scores"),
            Port("im_info", "T", doc="[1, 3] image [height, width, scale]")),
    outputs=(Port("boxes", "T", doc="[max_detections_per_image, 4] detected boxes; rows past the detections are 0"),
             Port("classes", "i32", doc="[max_detections_per_image] their classes"),
             Port("scores", "T", doc="[max_detections_per_image] their scores")),
    attributes=(Attr("score_threshold", FLOAT_ATTR, doc="only scores above it are detections"),
                Attr("nms_threshold", FLOAT_ATTR, doc="IoU above which NMS suppresses a box"),
                Attr("max_delta_log_wh", FLOAT_ATTR, doc="cap of the width and height deltas"),
                Attr("num_classes", INT, doc="classes, the background class 0 included"),
                Attr("post_nms_count", INT, doc="detections kept per class"),
                Attr("max_detections_per_image", INT, doc="detections returned"),
                Attr("class_agnostic_box_regression", BOOL, False, doc="(read, not used by OpenVINO's CPU plugin)"),
                Attr("deltas_weights", FLOATS, doc="divisors of the deltas [dx, dy, d_log_w, d_log_h]")),
    type_constraints={"T": FLOAT}, shape=detection_output_shape,
    doc="Mask R-CNN's box head output: per class but the background, boxes decoded from the deltas, scores "
        "above the threshold, greedy NMS, post_nms_count per class; the max_detections_per_image best overall.")

OPS = (TOP_K_ROIS_6, PRIOR_GRID_GENERATOR_6, ROI_FEATURE_EXTRACTOR_6, GENERATE_PROPOSALS_SINGLE_IMAGE_6,
       DETECTION_OUTPUT_6)
