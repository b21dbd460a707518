"""Non-maximum suppression: NonMaxSuppression-1/3/4/5/9, NMSRotated-13.

Shape rules give OpenVINO 2026.4.1's shape inference on partial shapes (checked against it by the
shape cases; the rules of src/core/shape_inference/include/nms_shape_inference.hpp as that release behaves:
it differs from the header in places, e.g. an absent or unknown count, a dynamic-rank scores input):
- NonMaxSuppression-1/3: `[min(num_boxes, max_output_boxes_per_class * num_classes), 3]`, static when
  the count and the dims it reads are known (the spec's padded output), else `?`;
- NonMaxSuppression-4: `[min(num_boxes, max_output_boxes_per_class) * num_batches * num_classes, 3]`,
  static, with the upper bounds of batch and class dims;
- NonMaxSuppression-5/9, NMSRotated-13: the same count as an upper bound `[0..N, 3]` (outputs are as long
  as what is selected), plus `valid_outputs` `[1]`.
NonMaxSuppression-1/3's declared length ignores the batch dim: with several batches the selected rows
beyond it are cut (the CPU plugin returns them all, beyond the shape it infers).
A negative max_output_boxes_per_class means "unknown" to OpenVINO's rules when it is -1 (its dynamic
length) and selects nothing otherwise; the kernels select nothing for any negative count.
"""
from __future__ import annotations

from ..shapes import Dimension, PartialShape, TensorInfo
from .helpers import check, ints_of
from .schema import BOOL, ELEMENT_TYPE, STRING, Attr, OpSchema, Port

# Boxes and scores: the floating-point types OpenVINO admits for NonMaxSuppression-5+ (bf16, f16, f32);
# the older versions use the same (their spec says "floating-point"; OpenVINO checks nothing there).
T_BOX = ("f32", "f16", "bf16")
T_MAX_BOXES = ("i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8")
T_IDX = ("i32", "i64")
DYN = Dimension()


# --- NonMaxSuppression-1/3/4/5/9 and NMSRotated-13: checks -------------------------------------------
def _check_nms_inputs(op, boxes, scores, scalars, *, box_size=4, one_element_1d=False):
    """Ranks, the scalar inputs, and the dims boxes and scores share (OpenVINO's nms::validate)."""
    b, s = boxes.shape, scores.shape
    check(not b.rank_is_static or len(b) == 3, op, lambda: f"input 'boxes' must be 3-D [num_batches, num_boxes, "
                                                           f"{box_size}], got {b}")
    check(not s.rank_is_static or len(s) == 3, op, lambda: "input 'scores' must be 3-D [num_batches, num_classes, "
                                                           f"num_boxes], got {s}")
    for name, info in scalars:
        if info is None:
            continue
        sh = info.shape
        ok = not sh.rank_is_static or len(sh) == 0 or (one_element_1d and len(sh) == 1 and sh[0].compatible(1))
        what = "a scalar or a 1-D tensor of one element" if one_element_1d else "a scalar"
        check(ok, op, lambda: f"input {name!r} must be {what}, got shape {sh}")
    if b.rank_is_static:
        if s.rank_is_static:
            check(b[0].compatible(s[0]), op,
                  lambda: f"'boxes' {b} and 'scores' {s} must have the same num_batches (dim 0)")
            check(b[1].compatible(s[2]), op,
                  lambda: f"num_boxes must agree: 'boxes' dim 1 of {b} and 'scores' dim 2 of {s}")
        check(b[2].compatible(box_size), op, lambda: f"the last dimension of 'boxes' must be {box_size}, got {b}")


def _count(info) -> int | None:
    v = ints_of(info)
    return None if v is None else v[0]


def _rows_v1(boxes, scores, m) -> Dimension:
    """NonMaxSuppression-1/3: min(num_boxes, max_output_boxes_per_class * num_classes)."""
    if not boxes.shape.rank_is_static or m is None or m == -1:
        return DYN
    per = max(m, 0)
    if scores.shape.rank_is_static and per:
        classes = scores.shape[1]
        if not classes.is_static:
            return DYN
        per *= classes.lo
    nb = boxes.shape[1]
    return Dimension(min(nb.lo, per), min(nb.lo, per)) if nb.is_static else DYN


def _rows_v4(boxes, scores, m) -> Dimension:
    """NonMaxSuppression-4: min(num_boxes, max_output_boxes_per_class) * num_batches * num_classes, with
    the upper bounds of the batch and class dims."""
    b, s = boxes.shape, scores.shape
    if not b.rank_is_static or not s.rank_is_static or m is None or m == -1 or not b[1].is_static:
        return DYN
    n = min(b[1].lo, max(m, 0))
    for d in (s[0], s[1]):
        if n and d.hi is None:
            return DYN
        n *= d.hi if n else 1
    return Dimension(n, n)


def _rows_v5(boxes, scores, m) -> Dimension:
    """NonMaxSuppression-5/9, NMSRotated-13: up to min(num_boxes, max_output_boxes_per_class) per batch
    and class, with the upper bounds of the dims."""
    b, s = boxes.shape, scores.shape
    if not b.rank_is_static or not s.rank_is_static or m is None or m < 0 or b[1].hi is None:
        return DYN
    n = min(b[1].hi, m)
    for d in (s[0], s[1]):
        if n and d.hi is None:
            return DYN
        n *= d.hi if n else 1
    return Dimension(0, n)


def _scalars(max_output_boxes_per_class, iou_threshold, score_threshold, soft_nms_sigma=None):
    return (("max_output_boxes_per_class", max_output_boxes_per_class), ("iou_threshold", iou_threshold),
            ("score_threshold", score_threshold), ("soft_nms_sigma", soft_nms_sigma))


def _check_output_type(op, output_type):
    check(output_type in T_IDX, op, lambda: f"attribute 'output_type' must be i32 or i64, got {output_type}")


def non_max_suppression_1_shape(boxes, scores, max_output_boxes_per_class=None, iou_threshold=None,
                                score_threshold=None, *, box_encoding, sort_result_descending):
    """selected_indices (i64) [rows, 3], rows = min(num_boxes, max_output_boxes_per_class * num_classes):
    static when num_boxes, the count (absent: 0) and num_classes are known (a scores of dynamic rank
    leaves the class factor out), dynamic otherwise or for a count of -1. boxes must be 3-D [B, M, 4],
    scores 3-D [B, C, M] (shared dims compatible), the three optional inputs scalars."""
    op = "NonMaxSuppression-1"
    _check_nms_inputs(op, boxes, scores, _scalars(max_output_boxes_per_class, iou_threshold, score_threshold))
    m = 0 if max_output_boxes_per_class is None else _count(max_output_boxes_per_class)   # default Const 0
    return TensorInfo("i64", PartialShape([_rows_v1(boxes, scores, m), 3]))


def non_max_suppression_3_shape(boxes, scores, max_output_boxes_per_class=None, iou_threshold=None,
                                score_threshold=None, *, box_encoding, sort_result_descending, output_type):
    """NonMaxSuppression-1's rule, the indices of element type output_type (i32 or i64)."""
    op = "NonMaxSuppression-3"
    _check_output_type(op, output_type)
    _check_nms_inputs(op, boxes, scores, _scalars(max_output_boxes_per_class, iou_threshold, score_threshold))
    m = 0 if max_output_boxes_per_class is None else _count(max_output_boxes_per_class)   # default Const 0
    return TensorInfo(output_type, PartialShape([_rows_v1(boxes, scores, m), 3]))


def non_max_suppression_4_shape(boxes, scores, max_output_boxes_per_class=None, iou_threshold=None,
                                score_threshold=None, *, box_encoding, sort_result_descending, output_type):
    """selected_indices [rows, 3] of output_type, rows = min(num_boxes, max_output_boxes_per_class) *
    num_batches * num_classes, static, with the upper bounds of the batch and class dims; dynamic when
    num_boxes is not static, the count is unknown or -1, a rank is dynamic, or a needed bound is
    unbounded. Inputs checked as for NonMaxSuppression-1."""
    op = "NonMaxSuppression-4"
    _check_output_type(op, output_type)
    _check_nms_inputs(op, boxes, scores, _scalars(max_output_boxes_per_class, iou_threshold, score_threshold))
    m = 0 if max_output_boxes_per_class is None else _count(max_output_boxes_per_class)   # default Const 0
    return TensorInfo(output_type, PartialShape([_rows_v4(boxes, scores, m), 3]))


def _nms5_outputs(op, boxes, scores, max_output_boxes_per_class, iou_threshold, score_threshold,
                  soft_nms_sigma, output_type, box_size=4):
    _check_output_type(op, output_type)
    _check_nms_inputs(op, boxes, scores, _scalars(max_output_boxes_per_class, iou_threshold, score_threshold,
                                                  soft_nms_sigma), box_size=box_size, one_element_1d=True)
    m = _count(max_output_boxes_per_class)        # absent: unknown to OpenVINO's rules (no default Const)
    rows = _rows_v5(boxes, scores, m)
    # selected_scores is f32 whatever the input types (OpenVINO's shape inference; the spec says T_THRESHOLDS)
    return (TensorInfo(output_type, PartialShape([rows, 3])), TensorInfo("f32", PartialShape([rows, 3])),
            TensorInfo(output_type, PartialShape([1])))


def non_max_suppression_5_shape(boxes, scores, max_output_boxes_per_class=None, iou_threshold=None,
                                score_threshold=None, soft_nms_sigma=None, *, box_encoding,
                                sort_result_descending, output_type):
    """selected_indices [rows, 3] (output_type), selected_scores [rows, 3] (f32) and valid_outputs [1]:
    rows is the interval [0, min(M, count) * B * C] from the upper bounds of boxes' M and scores' B, C;
    dynamic when the count is absent, unknown or negative, a rank is dynamic or a needed bound is
    unbounded. boxes must be 3-D [B, M, 4], scores [B, C, M]; the four scalar inputs scalars or 1-D of
    one element; output_type i32/i64."""
    return _nms5_outputs("NonMaxSuppression-5", boxes, scores, max_output_boxes_per_class, iou_threshold,
                         score_threshold, soft_nms_sigma, output_type)


def non_max_suppression_9_shape(boxes, scores, max_output_boxes_per_class=None, iou_threshold=None,
                                score_threshold=None, soft_nms_sigma=None, *, box_encoding,
                                sort_result_descending, output_type):
    """NonMaxSuppression-5's rule: [0..min(M, count) * B * C] rows of indices and f32 scores, and [1]."""
    return _nms5_outputs("NonMaxSuppression-9", boxes, scores, max_output_boxes_per_class, iou_threshold,
                         score_threshold, soft_nms_sigma, output_type)


def nms_rotated_13_shape(boxes, scores, max_output_boxes_per_class, iou_threshold, score_threshold, *,
                         sort_result_descending, output_type, clockwise):
    """NonMaxSuppression-5's rule with boxes [B, M, 5]: [0..min(M, count) * B * C] rows of indices and
    f32 scores, and valid_outputs [1]."""
    return _nms5_outputs("NMSRotated-13", boxes, scores, max_output_boxes_per_class, iou_threshold,
                         score_threshold, None, output_type, box_size=5)


# --- schemas -------------------------------------------------------------------------------------------
_BOX_ENCODING = Attr("box_encoding", STRING, "corner", allowed=("corner", "center"),
                     doc="corner: [y1, x1, y2, x2] (any diagonal pair of corners); center: [x_center, y_center, "
                         "width, height]")
_SORT_DESC = Attr("sort_result_descending", BOOL, True,
                  doc="true: all selected boxes ordered by score (descending) across batches and classes; false: "
                      "by batch, then class, then score")
_OUTPUT_TYPE = Attr("output_type", ELEMENT_TYPE, "i64", allowed=T_IDX, doc="element type of the index outputs")


def _nms_inputs(max_boxes_optional=True, sigma=False, box_doc="[num_batches, num_boxes, 4] box coordinates"):
    opt = max_boxes_optional
    ports = (Port("boxes", "T", doc=box_doc),
             Port("scores", "T", doc="[num_batches, num_classes, num_boxes] box scores"),
             Port("max_output_boxes_per_class", "T_MAX_BOXES", optional=opt, const=True,
                  doc="most boxes selected per batch and class (default 0: none)"),
             Port("iou_threshold", "T_THRESHOLDS", optional=opt,
                  doc="a box whose IoU with a selected box exceeds it is suppressed (default 0)"),
             Port("score_threshold", "T_THRESHOLDS", optional=opt,
                  doc="boxes scoring below it are never selected (default 0)"))
    if sigma:
        ports += (Port("soft_nms_sigma", "T_THRESHOLDS", optional=True,
                       doc="Soft-NMS sigma: scores decay by exp(-0.5 * iou^2 / sigma) (default 0: hard NMS)"),)
    return ports


_NMS_TYPES = {"T": T_BOX, "T_MAX_BOXES": T_MAX_BOXES, "T_THRESHOLDS": T_BOX}
_NMS_DOC = ("Greedy non-maximum suppression per batch and class: take the best-scoring box (ties: the lower box "
            "index) while its score is >= score_threshold, drop the boxes whose IoU with it is > iou_threshold. ")
_PADDED = (Port("selected_indices", "T_IND",
                doc="[batch, class, box] triplets; rows after the selected boxes are filled with -1"),)
_DYNAMIC = (Port("selected_indices", "T_IND", doc="[batch, class, box] triplets of the selected boxes"),
            Port("selected_scores", "f32", doc="[batch, class, score] triplets (score after Soft-NMS decay)"),
            Port("valid_outputs", "T_IND", doc="[1]: the number of selected boxes"))

NON_MAX_SUPPRESSION_1 = OpSchema(
    "NonMaxSuppression", 1, category="detection", inputs=_nms_inputs(), outputs=(
        Port("selected_indices", "i64", doc=_PADDED[0].doc),),
    attributes=(_BOX_ENCODING, _SORT_DESC), type_constraints=_NMS_TYPES, shape=non_max_suppression_1_shape,
    doc=_NMS_DOC + "Output padded to min(num_boxes, max_output_boxes_per_class * num_classes) rows.")

# v3: adds output_type (v1's indices are i64).
NON_MAX_SUPPRESSION_3 = OpSchema(
    "NonMaxSuppression", 3, category="detection", inputs=_nms_inputs(), outputs=_PADDED,
    attributes=(_BOX_ENCODING, _SORT_DESC, _OUTPUT_TYPE), type_constraints={**_NMS_TYPES, "T_IND": T_IDX},
    shape=non_max_suppression_3_shape,
    doc=_NMS_DOC + "Output padded to min(num_boxes, max_output_boxes_per_class * num_classes) rows.")

# v4: the padded output counts every batch: min(num_boxes, max_output_boxes_per_class) * batches * classes.
NON_MAX_SUPPRESSION_4 = OpSchema(
    "NonMaxSuppression", 4, category="detection", inputs=_nms_inputs(), outputs=_PADDED,
    attributes=(_BOX_ENCODING, _SORT_DESC, _OUTPUT_TYPE), type_constraints={**_NMS_TYPES, "T_IND": T_IDX},
    shape=non_max_suppression_4_shape,
    doc=_NMS_DOC + "Output padded to min(num_boxes, max_output_boxes_per_class) * num_batches * num_classes rows.")

# v5: adds soft_nms_sigma, selected_scores and valid_outputs; outputs hold exactly the selected boxes.
# Soft-NMS (sigma > 0) decays a score by exp(-0.5 * iou^2 / sigma), and by 0 where iou > iou_threshold.
NON_MAX_SUPPRESSION_5 = OpSchema(
    "NonMaxSuppression", 5, category="detection", inputs=_nms_inputs(sigma=True), outputs=_DYNAMIC,
    attributes=(_BOX_ENCODING, _SORT_DESC, _OUTPUT_TYPE), type_constraints={**_NMS_TYPES, "T_IND": T_IDX},
    shape=non_max_suppression_5_shape,
    doc=_NMS_DOC + "Soft-NMS: scores decay by exp(-0.5 iou^2 / sigma), to 0 where iou > iou_threshold.")

# v9: as v5, but Soft-NMS decays by exp(-0.5 * iou^2 / sigma) whatever the IoU (no iou_threshold cut).
NON_MAX_SUPPRESSION_9 = OpSchema(
    "NonMaxSuppression", 9, category="detection", inputs=_nms_inputs(sigma=True), outputs=_DYNAMIC,
    attributes=(_BOX_ENCODING, _SORT_DESC, _OUTPUT_TYPE), type_constraints={**_NMS_TYPES, "T_IND": T_IDX},
    shape=non_max_suppression_9_shape,
    doc=_NMS_DOC + "Soft-NMS: scores decay by exp(-0.5 iou^2 / sigma) for every IoU.")

NMS_ROTATED_13 = OpSchema(
    "NMSRotated", 13, category="detection",
    inputs=_nms_inputs(max_boxes_optional=False,
                       box_doc="[num_batches, num_boxes, 5] boxes as [x_center, y_center, width, height, angle]"),
    outputs=_DYNAMIC,
    attributes=(_SORT_DESC, _OUTPUT_TYPE,
                Attr("clockwise", BOOL, True, doc="true: a positive angle (radians) turns the box clockwise")),
    type_constraints={"T": ("f32", "f16", "bf16"), "T_MAX_BOXES": T_MAX_BOXES, "T_THRESHOLDS": T_BOX,
                      "T_IND": T_IDX},
    shape=nms_rotated_13_shape,
    doc="Greedy non-maximum suppression of rotated boxes (IoU of the rotated rectangles' intersection polygon).")

OPS = (NON_MAX_SUPPRESSION_1, NON_MAX_SUPPRESSION_3, NON_MAX_SUPPRESSION_4, NON_MAX_SUPPRESSION_5,
       NON_MAX_SUPPRESSION_9, NMS_ROTATED_13)
