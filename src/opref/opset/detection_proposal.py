"""Schemas and shape rules: Proposal-1/-4 and GenerateProposals-9.

Shape rules give OpenVINO 2026.4.1's shape inference on partial shapes
(src/core/shape_inference/include/proposal_shape_inference.hpp, generate_proposals_shape_inference.hpp):
- Proposal: `[batch * post_nms_topn, 5]` (v4 adds `[batch * post_nms_topn]` probabilities), batch merged from
  class_probs and bbox_deltas, bbox_deltas' channels compatible with twice class_probs', image_shape 1-D of
  3 or 4 elements;
- GenerateProposals-9: rois `[0..batch * post_nms_count, 4]`, scores `[0..batch * post_nms_count]` (as many rows
  as the images keep) and roi_num `[batch]`; OpenVINO merges the batch from im_info, deltas and scores in turn
  and keeps the dims merged so far where a merge fails (only some pairs are checked).
Where the spec allows what OpenVINO rejects, opref follows the spec: GenerateProposals' nms_eta in [0, 1]
(OpenVINO accepts only 1.0) and pre_nms_count / post_nms_count 0 (OpenVINO wants them positive).
"""
from __future__ import annotations

from ..shapes import Dimension, PartialShape, TensorInfo
from .helpers import check
from .schema import BOOL, ELEMENT_TYPE, FLOAT, FLOATS, INT, STRING, Attr, OpSchema, Port

# The floating-point types both the spec ("floating-point type") and OpenVINO's CPU plugin take.
T_FLOAT = ("f32", "f16", "bf16", "f64")
T_ROI_NUM = ("i32", "i64")


def _rank(op, name, shape: PartialShape, rank: int, what: str):
    check(not shape.rank_is_static or len(shape) == rank, op, lambda: f"input {name!r} must be {what}, got {shape}")


# --- Proposal-1/-4 ---------------------------------------------------------------------------------------
def _proposal_rows(op, class_probs, bbox_deltas, image_shape, *, pre_nms_topn, post_nms_topn, base_size,
                   feat_stride, min_size, ratio, scale, nms_thresh, box_size_scale, box_coordinate_scale) -> Dimension:
    # The spec bounds these (OpenVINO's shape inference checks none of them): positive sizes and counts,
    # positive scales (the deltas are divided by them) and a positive NMS threshold.
    for name, v in (("base_size", base_size), ("pre_nms_topn", pre_nms_topn), ("post_nms_topn", post_nms_topn),
                    ("feat_stride", feat_stride), ("min_size", min_size), ("nms_thresh", nms_thresh),
                    ("box_size_scale", box_size_scale), ("box_coordinate_scale", box_coordinate_scale)):
        check(v > 0, op, lambda: f"attribute {name!r} must be positive, got {v}")
    check(len(ratio) > 0 and len(scale) > 0, op,
          lambda: f"attributes 'ratio' and 'scale' must not be empty, got ratio={list(ratio)}, scale={list(scale)}")
    c, b, i = class_probs.shape, bbox_deltas.shape, image_shape.shape
    _rank(op, "class_probs", c, 4, "4-D [batch, 2*K, H, W]")
    _rank(op, "bbox_deltas", b, 4, "4-D [batch, 4*K, H, W]")
    if i.rank_is_static:
        check(len(i) == 1 and (i[0].compatible(3) or i[0].compatible(4)), op,
              lambda: f"input 'image_shape' must be 1-D of 3 or 4 elements, got {i}")
    batch = Dimension()
    if c.rank_is_static:
        batch = c[0]
        check(not b.rank_is_static or b[1].compatible(c[1] * 2), op,
              lambda: f"'bbox_deltas' channels {b[1] if b.rank_is_static else '?'} must be twice the 'class_probs' "
                      f"channels {c[1]} (4*K and 2*K)")
    if b.rank_is_static:
        merged = batch.merge(b[0])
        check(merged is not None, op, lambda: f"'class_probs' {c} and 'bbox_deltas' {b} must have the same batch size")
        batch = merged
    return batch * post_nms_topn


def proposal_1_shape(class_probs, bbox_deltas, image_shape, *, base_size, pre_nms_topn, post_nms_topn, nms_thresh,
                     feat_stride, min_size, ratio, scale, clip_before_nms, clip_after_nms, normalize, box_size_scale,
                     box_coordinate_scale, framework):
    """[batch * post_nms_topn, 5], batch merged from class_probs' and bbox_deltas' dim 0 (dynamic when
    neither rank is static). class_probs and bbox_deltas must be 4-D with bbox_deltas' channels twice
    class_probs', image_shape 1-D of 3 or 4 elements; sizes, counts, scales and nms_thresh positive,
    ratio and scale non-empty."""
    rows = _proposal_rows("Proposal-1", class_probs, bbox_deltas, image_shape, pre_nms_topn=pre_nms_topn,
                          post_nms_topn=post_nms_topn, base_size=base_size, feat_stride=feat_stride,
                          min_size=min_size, ratio=ratio, scale=scale, nms_thresh=nms_thresh,
                          box_size_scale=box_size_scale, box_coordinate_scale=box_coordinate_scale)
    return PartialShape([rows, 5])


def proposal_4_shape(class_probs, bbox_deltas, image_shape, *, base_size, pre_nms_topn, post_nms_topn, nms_thresh,
                     feat_stride, min_size, ratio, scale, clip_before_nms, clip_after_nms, normalize, box_size_scale,
                     box_coordinate_scale, framework):
    """Proposal-1's rule: [batch * post_nms_topn, 5] proposals and [batch * post_nms_topn] probabilities."""
    rows = _proposal_rows("Proposal-4", class_probs, bbox_deltas, image_shape, pre_nms_topn=pre_nms_topn,
                          post_nms_topn=post_nms_topn, base_size=base_size, feat_stride=feat_stride,
                          min_size=min_size, ratio=ratio, scale=scale, nms_thresh=nms_thresh,
                          box_size_scale=box_size_scale, box_coordinate_scale=box_coordinate_scale)
    return PartialShape([rows, 5]), PartialShape([rows])


def _proposal_attrs():
    return (
        Attr("base_size", INT, doc="side of the base anchor that ratio and scale transform"),
        Attr("pre_nms_topn", INT, doc="proposals kept (best scores first) before NMS, per image"),
        Attr("post_nms_topn", INT, doc="proposals kept after NMS, per image: the output's rows per image"),
        Attr("nms_thresh", FLOAT, doc="NMS drops a proposal whose IoU with a kept one is above it"),
        Attr("feat_stride", INT, doc="pixels between anchor positions (one per feature-map cell)"),
        Attr("min_size", INT, doc="proposals narrower or lower than min_size * image scale get score 0"),
        Attr("ratio", FLOATS, doc="anchor aspect ratios (height / width)"),
        Attr("scale", FLOATS, doc="anchor scales; K = len(ratio) * len(scale) anchors per cell, ratio-major"),
        Attr("clip_before_nms", BOOL, True, doc="clip proposals to the image before NMS"),
        Attr("clip_after_nms", BOOL, False, doc="clip the kept proposals to the image after NMS"),
        Attr("normalize", BOOL, False, doc="divide output coordinates by the image width and height"),
        Attr("box_size_scale", FLOAT, 1.0, doc="the size deltas are divided by it"),
        Attr("box_coordinate_scale", FLOAT, 1.0, doc="the center deltas are divided by it"),
        Attr("framework", STRING, "", allowed=("", "tensorflow"),
             doc="'' (Caffe: pixel boxes, +1 in widths, rounded anchor sides) or 'tensorflow' (TF Object Detection "
                 "API: no +1, anchors centred at cell corners and clipped, x along the feature map's height)"),
    )


_PROPOSAL_IN = (
    Port("class_probs", "T", doc="[batch, 2*K, H, W]: background scores, then the K foreground scores"),
    Port("bbox_deltas", "T", doc="[batch, 4*K, H, W]: (dx, dy, dlog_w, dlog_h) per anchor"),
    Port("image_shape", "T", doc="[3] or [4]: image height, width, scale (or scale_h, scale_w)"),
)
_PROPOSAL_DOC = ("Region proposals of Faster R-CNN: anchors at every cell moved by the deltas, scored by the "
                 "foreground probabilities, small ones scored 0, the best pre_nms_topn through NMS, the first "
                 "post_nms_topn kept per image as [batch_index, x0, y0, x1, y1]; an image with fewer ends its rows "
                 "with one whose batch index is -1, then zeros.")

PROPOSAL_1 = OpSchema(
    "Proposal", 1, category="detection", inputs=_PROPOSAL_IN,
    outputs=(Port("output", "T", doc="[batch * post_nms_topn, 5] proposals"),),
    attributes=_proposal_attrs(), type_constraints={"T": T_FLOAT}, shape=proposal_1_shape, doc=_PROPOSAL_DOC)

# v4: adds the scores of the proposals as a second output (0 after an image's last proposal).
PROPOSAL_4 = OpSchema(
    "Proposal", 4, category="detection", inputs=_PROPOSAL_IN,
    outputs=(Port("output", "T", doc="[batch * post_nms_topn, 5] proposals"),
             Port("probabilities", "T", doc="[batch * post_nms_topn] the proposals' scores")),
    attributes=_proposal_attrs(), type_constraints={"T": T_FLOAT}, shape=proposal_4_shape,
    doc=_PROPOSAL_DOC + " Proposal-4 also returns the proposals' scores.")


# --- GenerateProposals-9 ---------------------------------------------------------------------------------
def generate_proposals_9_shape(im_info, anchors, deltas, scores, *, min_size, nms_threshold, pre_nms_count,
                               post_nms_count, normalized, nms_eta, roi_num_type):
    """rois [0..batch * post_nms_count, 4], roi_scores [0..batch * post_nms_count] (both of im_info's type;
    the lower bound 0 as images may keep fewer) and roi_num [batch] of roi_num_type. batch is merged
    from im_info's, deltas' and scores' dim 0 in turn, a failed merge keeping the dims so far. Checked:
    im_info [batch, 3 or 4], anchors [H, W, A, 4], deltas [batch, A*4, H, W], scores [batch, A, H, W]
    (dims compatible between them); counts, min_size, nms_threshold >= 0; nms_eta in [0, 1]."""
    op = "GenerateProposals-9"
    check(pre_nms_count >= 0 and post_nms_count >= 0, op,
          lambda: f"attributes 'pre_nms_count' and 'post_nms_count' must be non-negative, got {pre_nms_count}, "
                  f"{post_nms_count}")
    check(0.0 <= nms_eta <= 1.0, op, lambda: f"attribute 'nms_eta' must be in [0, 1], got {nms_eta}")
    check(min_size >= 0 and nms_threshold >= 0, op,
          lambda: f"attributes 'min_size' and 'nms_threshold' must be non-negative, got {min_size}, {nms_threshold}")
    s_i, s_a, s_d, s_s = im_info.shape, anchors.shape, deltas.shape, scores.shape
    _rank(op, "im_info", s_i, 2, "2-D [batch, 3 or 4]")
    batch = Dimension()

    def merge(d):       # OpenVINO keeps what it has merged so far where a merge fails
        nonlocal batch
        m = batch.merge(d)
        batch = batch if m is None else m

    if s_i.rank_is_static:
        check(s_i[1].compatible(3) or s_i[1].compatible(4), op,
              lambda: f"input 'im_info' must be [batch, 3 or 4], got {s_i}")
        merge(s_i[0])
    _rank(op, "anchors", s_a, 4, "4-D [H, W, A, 4]")
    if s_a.rank_is_static:
        check(s_a[3].compatible(4), op, lambda: f"input 'anchors' must end in 4 coordinates, got {s_a}")
    _rank(op, "deltas", s_d, 4, "4-D [batch, A*4, H, W]")
    _rank(op, "scores", s_s, 4, "4-D [batch, A, H, W]")
    if s_d.rank_is_static:
        merge(s_d[0])
    if s_s.rank_is_static:
        merge(s_s[0])
    if s_d.rank_is_static and s_s.rank_is_static:
        for k, what in ((0, "batch"), (2, "height"), (3, "width")):
            check(s_d[k].compatible(s_s[k]), op, lambda: f"'deltas' {s_d} and 'scores' {s_s} must have the same {what}")
        check(s_d[1].compatible(s_s[1] * 4), op,
              lambda: f"'deltas' channels must be 4 times the 'scores' channels (A*4 and A), got {s_d} and {s_s}")
        if s_i.rank_is_static:
            check(s_d[0].compatible(s_i[0]), op, lambda: f"'deltas' {s_d} and 'im_info' {s_i} must have the same batch")
    if s_s.rank_is_static and s_a.rank_is_static:
        for k, j, what in ((0, 2, "height"), (1, 3, "width"), (2, 1, "number of anchors")):
            check(s_a[k].compatible(s_s[j]), op,
                  lambda: f"'anchors' {s_a} and 'scores' {s_s} must have the same {what}")
    total = batch * post_nms_count
    rois = Dimension(0, total.hi)
    return (TensorInfo(im_info.element_type, PartialShape([rois, 4])),
            TensorInfo(im_info.element_type, PartialShape([rois])),
            TensorInfo(roi_num_type, PartialShape([batch])))


GENERATE_PROPOSALS_9 = OpSchema(
    "GenerateProposals", 9, category="detection",
    inputs=(Port("im_info", "T", doc="[batch, 3] or [batch, 4]: image height, width, scale (or scale_h, scale_w)"),
            Port("anchors", "T", doc="[H, W, A, 4] anchors as [xmin, ymin, xmax, ymax]"),
            Port("deltas", "T", doc="[batch, A*4, H, W]: (dx, dy, dlog_w, dlog_h) per anchor"),
            Port("scores", "T", doc="[batch, A, H, W] proposal scores")),
    outputs=(Port("rois", "T", doc="[num_rois, 4] proposals of all images, image by image"),
             Port("roi_scores", "T", doc="[num_rois] their scores"),
             Port("roi_num", "T_ROI_NUM", doc="[batch] proposals kept per image")),
    attributes=(
        Attr("min_size", FLOAT, doc="proposals narrower or lower than min_size * image scale are dropped"),
        Attr("nms_threshold", FLOAT, doc="NMS drops a proposal whose IoU with a kept one is above it"),
        Attr("pre_nms_count", INT, doc="proposals kept (best scores first) before NMS, per image"),
        Attr("post_nms_count", INT, doc="most proposals kept after NMS, per image"),
        Attr("normalized", BOOL, True, doc="false: pixel boxes (+1 in widths and areas)"),
        Attr("nms_eta", FLOAT, 1.0, doc="adaptive NMS: after each kept proposal a threshold above 0.5 is "
                                        "multiplied by nms_eta (1: fixed threshold)"),
        Attr("roi_num_type", ELEMENT_TYPE, "i64", allowed=T_ROI_NUM, doc="element type of roi_num"),
    ),
    type_constraints={"T": T_FLOAT, "T_ROI_NUM": T_ROI_NUM}, shape=generate_proposals_9_shape,
    doc="Region proposals of Mask R-CNN / PaddlePaddle per image: anchors moved by the deltas and clipped to the "
        "image, the best pre_nms_count, small ones dropped, NMS, at most post_nms_count kept per image.")

OPS = (PROPOSAL_1, PROPOSAL_4, GENERATE_PROPOSALS_9)
