"""Multi-class NMS: MatrixNms-8, MulticlassNms-8/9.

Outputs: selected_outputs [rows, 6] of [class_id, score, xmin, ymin, xmax, ymax] (the boxes' type),
selected_indices [rows, 1] and selected_num [num_batches] (output_type). Shape rules give OpenVINO
2026.4.1's shape inference on partial shapes (checked by the shape cases):
- rows is an upper bound `[0..R]`, R = num_batches * min(keep_top_k, num_classes * min(nms_top_k, num_boxes))
  (keep_top_k, nms_top_k -1: no limit) from the upper bounds of the dims: with boxes [N, M, 4] and scores
  [N, C, M], N is scores' dim 0, C scores' dim 1, M boxes' dim 1; with MulticlassNms-9's roisnum (boxes
  [C, M, 4], scores [C, M], roisnum [N]), N is roisnum's dim, C and M boxes' dims 0 and 1. An unbounded
  one gives `?` unless a factor before it is already 0 (an unbounded num_boxes always gives `?`); R = 0
  gives a static 0; the background class is not subtracted;
- selected_num is `[boxes dim 0]` (two inputs) or `[roisnum dim 0]`; `?` when boxes' rank is dynamic.
OpenVINO's shape inference of MulticlassNms fails on a scores input of dynamic rank (an internal
out-of-range error); opref infers as for any other unknown dims (the shape cases mark it).
"""
from __future__ import annotations

from ..shapes import Dimension, PartialShape, TensorInfo
from .helpers import check
from .schema import BOOL, ELEMENT_TYPE, FLOAT, INT, STRING, Attr, OpSchema, Port

T_BOX = ("f32", "f16", "bf16")
T_IDX = ("i32", "i64")
DYN = Dimension()


def _check_rank(op, name, info, rank, what):
    sh = info.shape
    check(not sh.rank_is_static or len(sh) == rank, op, lambda: f"input {name!r} must be {rank}-D {what}, got {sh}")


def _check_attrs(op, output_type, nms_top_k, keep_top_k, background_class, nms_eta=None):
    check(output_type in T_IDX, op, lambda: f"attribute 'output_type' must be i32 or i64, got {output_type}")
    check(nms_top_k >= -1, op, lambda: f"attribute 'nms_top_k' must be -1 (no limit) or >= 0, got {nms_top_k}")
    check(keep_top_k >= -1, op, lambda: f"attribute 'keep_top_k' must be -1 (no limit) or >= 0, got {keep_top_k}")
    check(background_class >= -1, op, lambda: f"attribute 'background_class' must be -1 (none) or >= 0, got "
                                              f"{background_class}")
    if nms_eta is not None:
        check(0 <= nms_eta <= 1, op, lambda: f"attribute 'nms_eta' must be in [0, 1], got {nms_eta}")


def _rows(batches: Dimension, classes: Dimension, boxes: Dimension, nms_top_k: int, keep_top_k: int) -> Dimension:
    """Built up per class, per batch, in all; a 0 on the way is final, an unbounded factor before it gives ?."""
    if boxes.hi is None:
        return DYN
    r = boxes.hi if nms_top_k < 0 else min(boxes.hi, nms_top_k)
    if r and classes.hi is None:
        return DYN
    r *= classes.hi if r else 1
    r = r if keep_top_k < 0 else min(r, keep_top_k)
    if r and batches.hi is None:
        return DYN
    r *= batches.hi if r else 1
    return Dimension(0, 0) if r == 0 else Dimension(0, r)


def _outputs(op, boxes, scores, roisnum, *, output_type, nms_top_k, keep_top_k, background_class, nms_eta=None):
    _check_attrs(op, output_type, nms_top_k, keep_top_k, background_class, nms_eta)
    b, s = boxes.shape, scores.shape
    _check_rank(op, "boxes", boxes, 3, "[num_batches, num_boxes, 4]" if roisnum is None
                else "[num_classes, num_boxes, 4]")
    if roisnum is None:
        _check_rank(op, "scores", scores, 3, "[num_batches, num_classes, num_boxes]")
    else:
        _check_rank(op, "scores", scores, 2, "[num_classes, num_boxes] (with roisnum)")
        _check_rank(op, "roisnum", roisnum, 1, "[num_batches]")
    if b.rank_is_static:
        check(b[2].compatible(4), op, lambda: f"the last dimension of 'boxes' must be 4, got {b}")
        if s.rank_is_static:
            if roisnum is None:
                check(b[0].compatible(s[0]), op, lambda: f"'boxes' {b} and 'scores' {s} must have the same num_batches "
                                                         f"(dim 0)")
                check(b[1].compatible(s[2]), op,
                      lambda: f"num_boxes must agree: 'boxes' dim 1 of {b} and 'scores' dim 2 "
                              f"of {s}")
            else:
                check(b[0].compatible(s[0]), op, lambda: f"'boxes' {b} and 'scores' {s} must have the same num_classes "
                                                         f"(dim 0)")
                check(b[1].compatible(s[1]), op,
                      lambda: f"num_boxes must agree: 'boxes' dim 1 of {b} and 'scores' dim 1 "
                              f"of {s}")
    if not b.rank_is_static:
        rows, num = DYN, DYN
    elif roisnum is None:
        num = b[0]
        rows = _rows(s[0], s[1], b[1], nms_top_k, keep_top_k) if s.rank_is_static else DYN
    else:
        num = roisnum.shape[0] if roisnum.shape.rank_is_static else DYN
        rows = _rows(num, b[0], b[1], nms_top_k, keep_top_k)
    return (TensorInfo(boxes.element_type, PartialShape([rows, 6])),
            TensorInfo(output_type, PartialShape([rows, 1])), TensorInfo(output_type, PartialShape([num])))


def matrix_nms_8_shape(boxes, scores, *, sort_result_type, sort_result_across_batch, output_type, score_threshold,
                       nms_top_k, keep_top_k, background_class, decay_function, gaussian_sigma, post_threshold,
                       normalized):
    """selected_outputs [rows, 6] (boxes' type), selected_indices [rows, 1] and selected_num [N]
    (output_type), N being boxes' dim 0. rows is the interval [0, R], R = N * min(keep_top_k, C *
    min(nms_top_k, M)) from the upper bounds of N, C (scores' dim 1) and M (boxes' dim 1), -1 limits
    meaning none; an unbounded factor makes rows dynamic, R = 0 a static 0; a dynamic boxes rank makes
    both dims dynamic. boxes must be [N, M, 4] and scores [N, C, M]; output_type i32/i64; nms_top_k,
    keep_top_k, background_class >= -1."""
    return _outputs("MatrixNms-8", boxes, scores, None, output_type=output_type, nms_top_k=nms_top_k,
                    keep_top_k=keep_top_k, background_class=background_class)


def multiclass_nms_8_shape(boxes, scores, *, sort_result_type, sort_result_across_batch, output_type,
                           iou_threshold, score_threshold, nms_top_k, keep_top_k, background_class, normalized,
                           nms_eta):
    """MatrixNms-8's rule (outputs [rows, 6], [rows, 1], [N]; rows in [0, N * min(keep_top_k, C *
    min(nms_top_k, M))] from the dims' upper bounds), and nms_eta must lie in [0, 1]."""
    return _outputs("MulticlassNms-8", boxes, scores, None, output_type=output_type, nms_top_k=nms_top_k,
                    keep_top_k=keep_top_k, background_class=background_class, nms_eta=nms_eta)


def multiclass_nms_9_shape(boxes, scores, roisnum=None, *, sort_result_type, sort_result_across_batch, output_type,
                           iou_threshold, score_threshold, nms_top_k, keep_top_k, background_class, normalized,
                           nms_eta):
    """MulticlassNms-8's rule without roisnum. With roisnum ([N]), boxes are [C, M, 4] and scores [C, M]:
    rows is bounded by N * min(keep_top_k, C * min(nms_top_k, M)) with N from roisnum's dim 0 and C, M
    from boxes' dims 0 and 1, and selected_num is [N]."""
    return _outputs("MulticlassNms-9", boxes, scores, roisnum, output_type=output_type, nms_top_k=nms_top_k,
                    keep_top_k=keep_top_k, background_class=background_class, nms_eta=nms_eta)


# --- schemas -------------------------------------------------------------------------------------------
_COMMON = (
    Attr("sort_result_type", STRING, "none", allowed=("classid", "score", "none"),
         doc="order of the outputs: classid (ascending, then score), score (descending), none (no order "
             "guaranteed; OpenVINO gives score order per batch). The spec calls it sort_result"),
    Attr("sort_result_across_batch", BOOL, False,
         doc="true: sort the outputs of all batches together; false: per batch, batches in order"),
    Attr("output_type", ELEMENT_TYPE, "i64", allowed=T_IDX, doc="element type of selected_indices and selected_num"),
)
_TOPK = (
    Attr("score_threshold", FLOAT, 0.0, doc="boxes scoring below it (MatrixNms: not above it) are not candidates"),
    Attr("nms_top_k", INT, -1, doc="most candidates per batch and class, by score (-1: all)"),
    Attr("keep_top_k", INT, -1, doc="most selected boxes per batch, by score (-1: all)"),
    Attr("background_class", INT, -1, doc="the class id whose boxes are never selected (-1: none)"),
)
_NORMALIZED = Attr("normalized", BOOL, True,
                   doc="true: normalized coordinates; false: pixel coordinates (widths and heights count one more)")
_INPUTS = (Port("boxes", "T", doc="[num_batches, num_boxes, 4] boxes [xmin, ymin, xmax, ymax]"),
           Port("scores", "T", doc="[num_batches, num_classes, num_boxes] box scores"))
_OUTPUTS = (Port("selected_outputs", "T", doc="[selected, 6]: [class_id, score, xmin, ymin, xmax, ymax]"),
            Port("selected_indices", "T_IND", doc="[selected, 1]: the boxes' indices in the flattened boxes input"),
            Port("selected_num", "T_IND", doc="[num_batches]: how many boxes each batch selected"))
_MC_ATTRS = (*_COMMON, Attr("iou_threshold", FLOAT, 0.0, doc="IoU above which a box is suppressed"), *_TOPK,
             _NORMALIZED, Attr("nms_eta", FLOAT, 1.0,
                               doc="adaptive NMS: after each kept box an IoU threshold above 0.5 is multiplied by it"))
_MC_DOC = ("Greedy NMS per batch and class over the nms_top_k best candidates (ties: the lower box index); at most "
           "keep_top_k boxes per batch.")

MATRIX_NMS_8 = OpSchema(
    "MatrixNms", 8, category="detection", inputs=_INPUTS, outputs=_OUTPUTS,
    attributes=(*_COMMON, *_TOPK,
                Attr("decay_function", STRING, "linear", allowed=("gaussian", "linear"),
                     doc="gaussian: exp((cmax^2 - iou^2) * gaussian_sigma); linear: (1 - iou) / (1 - cmax)"),
                Attr("gaussian_sigma", FLOAT, 2.0, doc="the gaussian decay's factor"),
                Attr("post_threshold", FLOAT, 0.0, doc="decayed scores must be above it"),
                _NORMALIZED),
    type_constraints={"T": T_BOX, "T_IND": T_IDX}, shape=matrix_nms_8_shape,
    doc="Matrix NMS (Wang et al. 2020): each candidate's score decays by its IoU with the higher-scoring "
        "candidates of its batch and class; boxes whose decayed score is above post_threshold are selected.")

MULTICLASS_NMS_8 = OpSchema(
    "MulticlassNms", 8, category="detection", inputs=_INPUTS, outputs=_OUTPUTS, attributes=_MC_ATTRS,
    type_constraints={"T": T_BOX, "T_IND": T_IDX}, shape=multiclass_nms_8_shape, doc=_MC_DOC)

# v9: an optional roisnum input; with it boxes are [num_classes, num_boxes, 4] (each class its own boxes) and
# scores [num_classes, num_boxes], the batches' boxes one after the other (roisnum[b] of them).
MULTICLASS_NMS_9 = OpSchema(
    "MulticlassNms", 9, category="detection",
    inputs=(Port("boxes", "T", doc="[num_batches, num_boxes, 4], or with roisnum [num_classes, num_boxes, 4]"),
            Port("scores", "T", doc="[num_batches, num_classes, num_boxes], or with roisnum [num_classes, "
                                    "num_boxes]"),
            Port("roisnum", "T_ROIS", optional=True, doc="[num_batches]: how many of the boxes each batch has")),
    outputs=_OUTPUTS, attributes=_MC_ATTRS, type_constraints={"T": T_BOX, "T_ROIS": T_IDX, "T_IND": T_IDX},
    shape=multiclass_nms_9_shape,
    doc=_MC_DOC + " With roisnum, selected_indices number box i of batch b and class c as (start_b + i) * "
                  "num_classes + c.")

OPS = (MATRIX_NMS_8, MULTICLASS_NMS_8, MULTICLASS_NMS_9)
