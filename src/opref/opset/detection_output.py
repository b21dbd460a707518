"""Schemas and shape rules: DetectionOutput-1/-8 (the SSD head: decode, per-class NMS, top-k).

Inputs: box_logits [N, num_prior_boxes * num_loc_classes * 4], class_preds [N, num_prior_boxes * num_classes],
proposals [1 or N, 2 (1 with variance_encoded_in_target), num_prior_boxes * prior_box_size] (prior_box_size 4,
or 5 with normalized=false: [image id, xmin, ymin, xmax, ymax]), and with the ARM form (5 inputs)
aux_class_preds [N, num_prior_boxes * 2] and aux_box_preds (the shape of box_logits). The output is
[1, 1, rows, 7] of [image id, class id, score, xmin, ymin, xmax, ymax].

The shape rule gives OpenVINO 2026.4.1's shape inference on partial shapes (checked by the shape cases). It
learns the counts from the inputs one after the other, a count of 0 meaning "not known yet":
- num_classes: v1's attribute; v8 derives it (the spec: class_preds' last dim // num_prior_boxes) once
  num_prior_boxes is known from proposals' dim 2 (else from aux_class_preds' dim 1 / 2): from class_preds'
  dim 1, else (share_location false) from box_logits' or aux_box_preds' dim 1 / (4 * num_prior_boxes);
- num_prior_boxes: from box_logits' dim 1 / (4 * num_loc_classes), class_preds' dim 1 / num_classes,
  proposals' dim 2 / prior_box_size, whichever is static first, every later one checked against it;
  aux_class_preds' dim 1 / 2 (static) has the last word;
- N: box_logits' dim 0; a static class_preds dim 0 replaces an N that is not static (without a check);
- rows: N * keep_top_k[0] when keep_top_k[0] > 0; N * top_k * num_classes when keep_top_k[0] == -1 and
  top_k > 0; else N * num_prior_boxes * num_classes (an unknown count is `?`).
"""
from __future__ import annotations

from ..shapes import Dimension, PartialShape, TensorInfo
from .helpers import check
from .schema import BOOL, FLOAT, INT, INTS, STRING, Attr, OpSchema, Port

T_FLOAT = ("f32", "f16", "bf16", "f64")
CODE_TYPES = ("caffe.PriorBoxParameter.CORNER", "caffe.PriorBoxParameter.CENTER_SIZE")


def _rank(op, name, info, rank):
    sh = info.shape
    check(not sh.rank_is_static or len(sh) == rank, op, lambda: f"input {name!r} must be {rank}-D, got {sh}")
    return sh if sh.rank_is_static else None


def _static(shape, axis):
    """The static length of dim `axis` of a shape of static rank, else None."""
    return shape[axis].lo if shape is not None and shape[axis].is_static else None


def _derive_v8_counts(op, box, cls, props, aux_cls, aux_box, *, share_location, normalized):
    """v8's num_classes (and the num_prior_boxes it needs first); 0 where the shapes do not tell."""
    pbs = 4 if normalized else 5
    priors = classes = 0
    p2 = _static(props, 2)
    if p2 is not None:
        check(p2 % pbs == 0, op, lambda: f"proposals' dim 2 ({p2}) must be a multiple of prior_box_size {pbs}")
        priors = p2 // pbs
        check(priors > 0, op, lambda: f"num_prior_boxes must be > 0, got {priors} from proposals' dim 2")
    a1 = _static(aux_cls, 1)
    if not priors and a1 is not None:
        check(a1 % 2 == 0, op, lambda: f"aux_class_preds' dim 1 ({a1}) must be a multiple of 2")
        priors = a1 // 2
        check(priors > 0, op, lambda: f"num_prior_boxes must be > 0, got {priors} from aux_class_preds' dim 1")
    if priors:
        sources = [("class_preds", _static(cls, 1), priors)]
        if not share_location:
            sources += [("box_logits", _static(box, 1), priors * 4), ("aux_box_preds", _static(aux_box, 1), priors * 4)]
        for name, n, d in sources:
            if n is not None and not classes:   # (a 0 found is no answer: the next source is asked)
                check(n % d == 0, op, lambda: f"{name}' dim 1 ({n}) must be a multiple of {d} (num_prior_boxes {priors}"
                                              f"{' * 4' if d != priors else ''})")
                classes = n // d
    return classes, priors


def _detection_output_shape(op, box_logits, class_preds, proposals, aux_class_preds, aux_box_preds, *, num_classes,
                            top_k, variance_encoded_in_target, keep_top_k, share_location, normalized):
    check(len(keep_top_k) > 0, op, "attribute 'keep_top_k' must have at least one value")
    check((aux_class_preds is None) == (aux_box_preds is None), op,
          "expected 3 inputs, or 5 with both aux_class_preds and aux_box_preds")
    five = aux_class_preds is not None
    box = _rank(op, "box_logits", box_logits, 2)
    cls = _rank(op, "class_preds", class_preds, 2)
    props = _rank(op, "proposals", proposals, 3)
    aux_cls = _rank(op, "aux_class_preds", aux_class_preds, 2) if five else None
    priors = 0
    if num_classes is None:
        # (only v8 checks aux_box_preds' rank; v1 only asks it to be compatible with box_logits)
        aux_box = _rank(op, "aux_box_preds", aux_box_preds, 2) if five else None
        num_classes, priors = _derive_v8_counts(op, box, cls, props, aux_cls, aux_box,
                                                share_location=share_location, normalized=normalized)
    loc_classes = 1 if share_location else num_classes
    pbs = 4 if normalized else 5

    images, known = Dimension(), False
    if box is not None:
        images, known = box[0], True
        b1 = _static(box, 1)
        if not priors and b1 is not None:
            check(loc_classes != 0 and b1 % (loc_classes * 4) == 0, op,
                  lambda: f"box_logits' dim 1 ({b1}) must be a multiple of num_loc_classes * 4 ({loc_classes * 4})")
            priors = b1 // (loc_classes * 4)
        if priors and loc_classes:
            check(box[1].compatible(priors * loc_classes * 4), op,
                  lambda: f"box_logits' dim 1 {box[1]} must be "
                          f"num_prior_boxes * num_loc_classes * 4 = {priors * loc_classes * 4}")
    if cls is not None:
        if (not known or images.is_dynamic) and cls[0].is_static:
            images = cls[0]
        else:
            check(cls[0].compatible(images), op, lambda: f"class_preds' dim 0 {cls[0]} must be the batch size {images}")
        c1 = _static(cls, 1)
        if c1 is not None and num_classes:
            if not priors:
                check(c1 % num_classes == 0, op, lambda: f"class_preds' dim 1 ({c1}) must be a multiple of num_classes "
                                                         f"({num_classes})")
                priors = c1 // num_classes
            else:
                check(c1 == priors * num_classes, op, lambda: f"class_preds' dim 1 ({c1}) must be num_prior_boxes * "
                                                              f"num_classes = {priors * num_classes}")
    if props is not None:
        check(props[0].compatible(1) or props[0].compatible(images), op,
              lambda: f"proposals' dim 0 {props[0]} must be 1 or the batch size {images}")
        rows = 1 if variance_encoded_in_target else 2
        check(props[1].compatible(rows), op,
              lambda: f"proposals' dim 1 {props[1]} must be {rows} "
                      f"(variance_encoded_in_target={str(variance_encoded_in_target).lower()})")
        p2 = _static(props, 2)
        if p2 is not None:
            if not priors:
                check(p2 % pbs == 0, op, lambda: f"proposals' dim 2 ({p2}) must be a multiple of prior_box_size {pbs}")
                priors = p2 // pbs
            else:
                check(p2 == priors * pbs, op,
                      lambda: f"proposals' dim 2 ({p2}) must be num_prior_boxes * prior_box_size "
                              f"= {priors * pbs}")
    if five:
        if aux_cls is not None:
            check(aux_cls[0].compatible(images), op,
                  lambda: f"aux_class_preds' dim 0 {aux_cls[0]} must be the batch size "
                          f"{images}")
            if priors:
                check(aux_cls[1].compatible(priors * 2), op, lambda: f"aux_class_preds' dim 1 {aux_cls[1]} must be "
                                                                     f"num_prior_boxes * 2 = {priors * 2}")
            if aux_cls[1].is_static:
                priors = aux_cls[1].lo // 2
        check(aux_box_preds.shape.compatible(box_logits.shape), op,
              lambda: f"aux_box_preds {aux_box_preds.shape} must have the shape of box_logits {box_logits.shape}")

    dim_priors = Dimension(priors, priors) if priors else Dimension()
    dim_classes = Dimension(num_classes, num_classes) if num_classes else Dimension()
    if keep_top_k[0] > 0:
        rows = images * keep_top_k[0]
    elif keep_top_k[0] == -1 and top_k > 0:
        rows = images * top_k * dim_classes
    else:
        rows = images * dim_priors * dim_classes
    return TensorInfo(box_logits.element_type, PartialShape([1, 1, rows, 7]))


def detection_output_1_shape(box_logits, class_preds, proposals, aux_class_preds=None, aux_box_preds=None, *,
                             num_classes, background_label_id, top_k, variance_encoded_in_target, keep_top_k,
                             code_type, share_location, nms_threshold, confidence_threshold, clip_after_nms,
                             clip_before_nms, decrease_label_id, normalized, input_height, input_width,
                             objectness_score):
    """[1, 1, rows, 7] of box_logits' type: rows = N * keep_top_k[0] when keep_top_k[0] > 0, N * top_k *
    num_classes when keep_top_k[0] is -1 and top_k > 0, else N * num_prior_boxes * num_classes (a count
    that is not known gives a dynamic dim). N is box_logits' dim 0 (class_preds' when that is not
    static); num_prior_boxes comes from the first static of box_logits' dim 1 / (4 * num_loc_classes),
    class_preds' dim 1 / num_classes, proposals' dim 2 / prior_box_size, the later ones checked against
    it. Rejected: num_classes <= 0, wrong ranks (2, 2, 3, 2), dims that are not such multiples, 4 inputs,
    an empty keep_top_k, proposals [1 or N, 1 or 2 (variance_encoded_in_target), ...] violated."""
    op = "DetectionOutput-1"
    check(num_classes > 0, op, lambda: f"attribute 'num_classes' must be > 0, got {num_classes}")
    return _detection_output_shape(op, box_logits, class_preds, proposals, aux_class_preds, aux_box_preds,
                                   num_classes=num_classes, top_k=top_k,
                                   variance_encoded_in_target=variance_encoded_in_target, keep_top_k=keep_top_k,
                                   share_location=share_location, normalized=normalized)


def detection_output_8_shape(box_logits, class_preds, proposals, aux_class_preds=None, aux_box_preds=None, *,
                             background_label_id, top_k, variance_encoded_in_target, keep_top_k, code_type,
                             share_location, nms_threshold, confidence_threshold, clip_after_nms, clip_before_nms,
                             decrease_label_id, normalized, input_height, input_width, objectness_score):
    """DetectionOutput-1's rule, with num_classes derived from the shapes: once num_prior_boxes is known
    from proposals' dim 2 / prior_box_size (else aux_class_preds' dim 1 / 2), num_classes is class_preds'
    dim 1 / num_prior_boxes (with share_location false, else box_logits' or aux_box_preds' dim 1 /
    (4 * num_prior_boxes)); an unknown num_classes makes rows dynamic unless keep_top_k[0] > 0."""
    op = "DetectionOutput-8"
    return _detection_output_shape(op, box_logits, class_preds, proposals, aux_class_preds, aux_box_preds,
                                   num_classes=None, top_k=top_k,
                                   variance_encoded_in_target=variance_encoded_in_target, keep_top_k=keep_top_k,
                                   share_location=share_location, normalized=normalized)


# --- schemas -------------------------------------------------------------------------------------------
_ATTRS = (
    Attr("background_label_id", INT, 0, doc="the background class: never detected (-1: none)"),
    Attr("top_k", INT, -1, doc="most candidates per image and class (MXNet style: per image), by score, "
                               "before NMS (-1: all)"),
    Attr("variance_encoded_in_target", BOOL, False,
         doc="true: box_logits are already scaled (proposals carry no variances); false: proposals' second row "
             "gives a variance per coordinate that scales them"),
    Attr("keep_top_k", INTS, doc="keep_top_k[0]: most detections per image after NMS, by score (-1: all)"),
    Attr("code_type", STRING, "caffe.PriorBoxParameter.CORNER", allowed=CODE_TYPES,
         doc="CORNER: box_logits are offsets of the corners; CENTER_SIZE: of the centre (scaled by the prior's "
             "size) and log-scales of the width and height"),
    Attr("share_location", BOOL, True, doc="true: one box per prior for all classes; false: one per class"),
    Attr("nms_threshold", FLOAT, doc="NMS suppresses a box whose IoU with a kept box of its class is above it"),
    Attr("confidence_threshold", FLOAT, 0.0,
         doc="candidates score above it (MXNet style, decrease_label_id: at least it)"),
    Attr("clip_after_nms", BOOL, False, doc="clip the output boxes to [0, 1]"),
    Attr("clip_before_nms", BOOL, False, doc="clip the decoded boxes to [0, 1] before NMS"),
    Attr("decrease_label_id", BOOL, False,
         doc="false: Caffe style (every class has its candidates); true: MXNet style (each prior is a candidate "
             "of its best class other than 0 only, top_k per image, class ids reported one lower)"),
    Attr("normalized", BOOL, False,
         doc="true: proposals are [xmin, ymin, xmax, ymax] in [0, 1]; false: [image id, xmin, ymin, xmax, ymax] "
             "in pixels, divided by input_width/input_height (an image id of -1 ends the priors)"),
    Attr("input_height", INT, 1, doc="the image height that normalizes pixel proposals"),
    Attr("input_width", INT, 1, doc="the image width that normalizes pixel proposals"),
    Attr("objectness_score", FLOAT, 0.0,
         doc="5 inputs: a prior whose objectness (aux_class_preds' second value) is below it scores 1 for the "
             "background class and 0 for every other class"),
)
_INPUTS = (
    Port("box_logits", "T", doc="[N, num_prior_boxes * num_loc_classes * 4] box offsets"),
    Port("class_preds", "T", doc="[N, num_prior_boxes * num_classes] class scores"),
    Port("proposals", "T_PRIORS", doc="[1 or N, 2 (1 with variance_encoded_in_target), num_prior_boxes * "
                                      "prior_box_size] the prior boxes, then their variances"),
    Port("aux_class_preds", "T", optional=True, doc="[N, num_prior_boxes * 2] ARM scores (background, object)"),
    Port("aux_box_preds", "T", optional=True, doc="box_logits' shape: ARM offsets that refine the priors first"),
)
_OUTPUTS = (Port("output", "T", doc="[1, 1, rows, 7]: [image id, class id, score, xmin, ymin, xmax, ymax] per "
                                    "detection, by image, then class, then score; a row with image id -1 ends "
                                    "them, the rows after it are 0"),)
_DOC = ("SSD's detection output: decodes box_logits against the prior boxes (with ARM inputs: against the priors "
        "refined by aux_box_preds), keeps per image and class the top_k candidates scoring above "
        "confidence_threshold, suppresses by IoU above nms_threshold, and keeps the keep_top_k best of each image.")

DETECTION_OUTPUT_1 = OpSchema(
    "DetectionOutput", 1, category="detection", inputs=_INPUTS, outputs=_OUTPUTS,
    attributes=(Attr("num_classes", INT, doc="number of classes, the background class included"), *_ATTRS),
    type_constraints={"T": T_FLOAT, "T_PRIORS": T_FLOAT}, shape=detection_output_1_shape, doc=_DOC)

# v8: num_classes is no attribute any more; the shapes give it (class_preds' dim 1 / num_prior_boxes).
DETECTION_OUTPUT_8 = OpSchema(
    "DetectionOutput", 8, category="detection", inputs=_INPUTS, outputs=_OUTPUTS, attributes=_ATTRS,
    type_constraints={"T": T_FLOAT, "T_PRIORS": T_FLOAT}, shape=detection_output_8_shape, doc=_DOC)

OPS = (DETECTION_OUTPUT_1, DETECTION_OUTPUT_8)
