"""Detection ops. Three families have an ONNX op:
- NonMaxSuppression-1/3/4/5/9 is ONNX NonMaxSuppression (hard NMS, f32, center_point_box for the center
  encoding) plus glue for OpenVINO's conventions: a score equal to score_threshold is kept (ONNX keeps
  only scores above it: scores below the threshold become NaN and the threshold -inf, so ONNX drops
  exactly those), an iou_threshold below 0 suppresses every other box (the first box per class, with
  threshold 0) and one above 1 none (ONNX rejects both), sort_result_descending orders all selections
  by score (a stable TopK), v1/v3/v4 pad (or cut) the triplets to their static row count with -1, and
  v5/v9's selected_scores/valid_outputs are gathered from the scores and counted. Soft-NMS (a
  soft_nms_sigma input) has no ONNX form. (Kept -inf scores travel as the lowest finite f32, so with
  score_threshold -inf a -inf box and a -3.4e38 box of one class may swap places: the one input left.)
- ROIAlign-3/9 avg is ONNX RoiAlign (opset 16): asymmetric is output_half_pixel, half_pixel_for_nn is
  half_pixel, OpenVINO's half_pixel is half_pixel of the boxes shifted by half a pixel. Its max mode is
  not: onnxruntime takes the largest weighted corner rather than the largest interpolated sample.
- ROIPooling-1 max is ONNX MaxRoiPool (onnxruntime: f32; f16/bf16 data are carried in f32).
RegionYolo-1 decomposes (in f32, f64 for f64 data): the regions' channels are reshaped to [N, regions,
coords + classes + 1, H, W] (sizes read at run time), and in opref's order channels 0-1 get 1 / (1 +
exp(-x)), then objectness too and the classes Softmax (do_softmax), or every channel from coords on the
sigmoid (YOLO v3); other channels pass; do_softmax flattens axis..end_axis by a run-time Reshape.
The rest (SSD/Faster-RCNN/YOLO post-processing, prior boxes, the ExperimentalDetectron family,
multi-class and matrix NMS, rotated boxes, position-sensitive pooling) has no ONNX op."""
from __future__ import annotations

import numpy as np

from .builder import Unsupported
from .glue import carrier, unsupported_type

_F32 = 1          # ONNX TensorProto.FLOAT


# --- NonMaxSuppression -------------------------------------------------------------------------------
def _scalar_f32(b, v, default):
    if v is None:
        return b.const(np.asarray([default], np.float32), "f32")
    return b.node("Reshape", [b.cast(v, "f32", v.element_type), b.i64([1])])


def _nms(version):
    def lower(b, call):
        boxes, scores = call.inputs[:2]
        extra = list(call.inputs[2:]) + [None] * (6 - len(call.inputs))
        m, iou, thr, sigma = extra[:4]
        if sigma is not None:
            s = sigma.scalar()
            if s is None:
                return Unsupported("NonMaxSuppression needs a constant soft_nms_sigma (ONNX has hard NMS only)")
            if s > 0:
                return Unsupported("Soft-NMS (ONNX NonMaxSuppression is hard NMS only)", f"sigma={s}")
        a = call.attrs
        box = b.cast(boxes, "f32", boxes.element_type)
        sc = b.cast(scores, "f32", scores.element_type)
        # max_output_boxes_per_class as int64 >= 0
        if m is None:
            mv = b.i64([0])
        elif m.is_const:
            mv = b.i64([min(max(m.ints()[0], 0), 2 ** 63 - 1)])
        elif m.element_type == "u64":
            return Unsupported("NonMaxSuppression with a non-constant u64 max_output_boxes_per_class")
        else:
            mv = b.node("Max", [b.node("Reshape", [b.cast(m, "i64", m.element_type), b.i64([1])]), b.i64([0])])
        # iou_threshold: < 0 keeps only the first box of a class, > 1 suppresses none (NaN stays NaN)
        it = _scalar_f32(b, iou, 0.0)
        neg = b.node("Less", [it, b.scalar(0, "f32")])
        m_onnx = b.node("Where", [neg, b.node("Min", [mv, b.i64([1])]), mv])
        it = b.node("Where", [neg, b.scalar(0, "f32"), b.node("Where", [b.node("Greater", [it, b.scalar(1, "f32")]),
                                                                         b.scalar(1, "f32"), it])])
        # score_threshold kept inclusively: below it -> NaN, ONNX's threshold -inf
        st = _scalar_f32(b, thr, 0.0)
        low = np.float32(np.finfo(np.float32).min)
        keep_sc = b.node("Where", [b.node("GreaterOrEqual", [sc, st]), b.node("Max", [sc, b.scalar(low, "f32")]),
                                   b.scalar(np.nan, "f32")])
        sel = b.node("NonMaxSuppression", [box, keep_sc, m_onnx, it, b.const(np.asarray([-np.inf], np.float32), "f32")],
                     center_point_box=int(a["box_encoding"] == "center"))
        chosen = b.node("GatherND", [sc, sel])                                       # [K] scores
        if a["sort_result_descending"] and not (scores.shape.rank == 3 and scores.shape[0].is_static and
                                                scores.shape[1].is_static and
                                                scores.shape[0].length * scores.shape[1].length == 1):
            k = b.node("Shape", [chosen])
            order = b.node("TopK", [chosen, k], outputs=2, largest=1, sorted=1)[1]
            sel = b.node("Gather", [sel, order], axis=0)
            chosen = b.node("Gather", [chosen, order], axis=0)
        out_et = call.outputs[0].element_type
        if version in (5, 9):
            count = b.node("Shape", [chosen])
            pair = b.node("Cast", [b.node("Slice", [sel, b.i64([0]), b.i64([2]), b.i64([1])])], to=_F32)
            triplets = b.node("Concat", [pair, b.node("Unsqueeze", [chosen, b.i64([1])])], axis=1)
            return [b.cast(sel, out_et, "i64"), b.cast(triplets, call.outputs[1].element_type, "f32"),
                    b.cast(count, call.outputs[2].element_type, "i64")]
        shape = b.node("Shape", [scores])
        n_b, n_c, n = (b.node("Gather", [shape, b.i64([i])]) for i in range(3))
        per_class = b.node("Min", [n, mv])
        rows = b.node("Mul", [b.node("Mul", [per_class, n_b]), n_c]) if version == 4 else \
            b.node("Min", [n, b.node("Mul", [per_class, n_c])])
        sel = b.node("Slice", [sel, b.i64([0]), rows, b.i64([0])])
        short = b.node("Sub", [rows, b.node("Shape", [sel], start=0, end=1)])
        pads = b.node("Concat", [b.i64([0, 0]), short, b.i64([0])], axis=0)
        sel = b.node("Pad", [sel, pads, b.const(np.asarray(-1, np.int64), "i64")], mode="constant")
        return b.cast(sel, out_et, "i64")
    return lower


# --- ROIAlign / ROIPooling ---------------------------------------------------------------------------
def _roi_align(b, call):
    data, rois, batch = call.inputs
    a = call.attrs
    if a["mode"] != "avg":
        return Unsupported("ROIAlign max (onnxruntime's RoiAlign max takes the largest weighted corner, not the "
                           "largest interpolated sample)")
    ct = "f64" if data.element_type == "f64" else "f32"       # opref pools in f64; f16/bf16 are exact in f32
    aligned = a.get("aligned_mode", "asymmetric")
    r = b.cast(rois, ct, rois.element_type)
    if aligned == "half_pixel":                                 # (x + 0.5) * scale - 0.5
        r = b.node("Add", [r, b.scalar(0.5, ct)])
    y = b.node("RoiAlign", [b.cast(data, ct, data.element_type), r, b.cast(batch, "i64", batch.element_type)],
               mode="avg", output_height=a["pooled_h"], output_width=a["pooled_w"],
               sampling_ratio=a["sampling_ratio"], spatial_scale=float(a["spatial_scale"]),
               coordinate_transformation_mode="output_half_pixel" if aligned == "asymmetric" else "half_pixel")
    return b.cast(y, call.outputs[0].element_type, ct)


def _roi_pooling(b, call):
    data, rois = call.inputs
    a = call.attrs
    if a["method"] != "max":
        return Unsupported("ROIPooling bilinear (ONNX has only the max form, MaxRoiPool)")
    ct = carrier(data.element_type, b.kernel_types("MaxRoiPool"))
    if ct is None:
        return unsupported_type("MaxRoiPool", data.element_type)
    y = b.node("MaxRoiPool", [b.cast(data, ct, data.element_type), b.cast(rois, ct, rois.element_type)],
               pooled_shape=[a["pooled_h"], a["pooled_w"]], spatial_scale=float(a["spatial_scale"]))
    return b.cast(y, call.outputs[0].element_type, ct)


def _reorg_yolo(b, call):
    """Darknet's reorg is a fixed gather (not DepthToSpace/SpaceToDepth): the flat input read at the element
    map of runtime/kernels ReorgYolo, computed here for the static input shape, then the output shape."""
    x = call.inputs[0]
    shape = x.static_shape
    if shape is None or len(shape) != 4:
        return Unsupported("ReorgYolo needs a static 4-D input shape (its element map is fixed at export)",
                           str(x.shape))
    s = int(call.attrs["stride"][0])
    n, c, h, w = shape
    cs = c // (s * s)
    ni, ci, hi, wi = np.ogrid[:n, :c, :h, :w]
    off, ic = ci // cs, ci % cs
    index = ((ni * cs + ic) * (h * s) + hi * s + off // s) * (w * s) + wi * s + off % s
    flat = b.node("Reshape", [x, b.i64([-1])])
    y = b.node("Gather", [flat, b.const(index.reshape(-1).astype(np.int64), "i64")], axis=0)
    return b.node("Reshape", [y, b.i64([n, c * s * s, h // s, w // s])])


# --- RegionYolo ----------------------------------------------------------------------------------------
def _region_yolo(b, call):
    data = call.inputs[0]
    a = call.attrs
    coords, classes, soft = a["coords"], a["classes"], a["do_softmax"]
    regions = a["num"] if soft else len(a["mask"])
    if min(coords, classes, regions) < 0:
        return Unsupported("RegionYolo with a negative count (opref rejects it)")
    if data.rank is not None and data.rank != 4:
        return Unsupported("RegionYolo of other than 4-D data")
    et = data.element_type
    ct = "f64" if et == "f64" else "f32"
    x = b.cast(data, ct, et)
    k = coords + classes + 1
    shape = b.node("Shape", [x])
    dim = lambda lo, hi: b.node("Slice", [shape, b.i64([lo]), b.i64([hi])])             # noqa: E731
    cut = lambda t, lo, hi, ax: b.node("Slice", [t, b.i64([lo]), b.i64([hi]), b.i64([ax])])  # noqa: E731

    def sigmoid(t):
        return b.node("Div", [b.scalar(1, ct), b.node("Add", [b.scalar(1, ct), b.node("Exp", [b.node("Neg", [t])])])])

    def apply(t, lo, hi, f):
        """t [N, regions, k, H, W] with f applied to channels lo..hi of each region."""
        hi = min(hi, k)
        if lo >= hi:
            return t
        parts = ([cut(t, 0, lo, 2)] if lo else []) + [f(cut(t, lo, hi, 2))] + ([cut(t, hi, k, 2)] if hi < k else [])
        return parts[0] if len(parts) == 1 else b.node("Concat", parts, axis=2)

    if regions * k:
        head = cut(x, 0, regions * k, 1)
        r = b.node("Reshape", [head, b.node("Concat", [dim(0, 1), b.i64([regions, k]), dim(2, 4)], axis=0)],
                   allowzero=1)
        r = apply(r, 0, 2, sigmoid)
        if soft:
            r = apply(r, coords, coords + 1, sigmoid)
            if classes:
                r = apply(r, coords + 1, k, lambda t: b.node("Softmax", [t], axis=2))
        else:
            r = apply(r, coords, k, sigmoid)
        r = b.node("Reshape", [r, b.node("Concat", [dim(0, 1), b.i64([regions * k]), dim(2, 4)], axis=0)],
                   allowzero=1)
        x = b.node("Concat", [r, cut(x, regions * k, np.iinfo(np.int64).max, 1)], axis=1) if soft else r
    elif not soft:
        x = cut(x, 0, 0, 1)
    if soft:
        first, last = a["axis"] % 4, a["end_axis"] % 4
        if last > first:
            flat = b.node("ReduceProd", [dim(first, last + 1), b.i64([0])], keepdims=1)
            x = b.node("Reshape", [x, b.node("Concat", [dim(0, first), flat, dim(last + 1, 4)], axis=0)], allowzero=1)
    return b.cast(x, et, ct)


LOWERINGS = {
    "ReorgYolo-1": _reorg_yolo,
    **{f"NonMaxSuppression-{v}": _nms(v) for v in (1, 3, 4, 5, 9)},
    "ROIAlign-3": _roi_align,
    "ROIAlign-9": _roi_align,
    "ROIPooling-1": _roi_pooling,
    "RegionYolo-1": _region_yolo,
}
NO_ONNX = {
    "DetectionOutput-1": "ONNX has no op for SSD DetectionOutput (box decoding + per-class NMS + top-k)",
    "DetectionOutput-8": "ONNX has no op for SSD DetectionOutput (box decoding + per-class NMS + top-k)",
    "Proposal-1": "ONNX has no op for Faster R-CNN Proposal (anchor decoding + NMS)",
    "Proposal-4": "ONNX has no op for Faster R-CNN Proposal (anchor decoding + NMS)",
    "GenerateProposals-9": "ONNX has no op for GenerateProposals (anchor decoding + NMS per image)",
    "PriorBox-1": "ONNX has no prior-box generator (SSD PriorBox)",
    "PriorBox-8": "ONNX has no prior-box generator (SSD PriorBox)",
    "PriorBoxClustered-1": "ONNX has no prior-box generator (PriorBoxClustered)",
    "MatrixNms-8": "ONNX has no Matrix NMS (score decay by IoU matrix)",
    "MulticlassNms-8": "ONNX has no multi-class NMS with per-image top-k and score-sorted, padded outputs",
    "MulticlassNms-9": "ONNX has no multi-class NMS with per-image top-k and score-sorted, padded outputs",
    "NMSRotated-13": "ONNX has no NMS of rotated boxes",
    "ROIAlignRotated-15": "ONNX has no ROIAlign of rotated boxes",
    "PSROIPooling-1": "ONNX has no position-sensitive ROI pooling",
    "DeformablePSROIPooling-1": "ONNX has no deformable position-sensitive ROI pooling",
    "ExperimentalDetectronDetectionOutput-6": "ONNX has no op for ExperimentalDetectronDetectionOutput",
    "ExperimentalDetectronGenerateProposalsSingleImage-6":
        "ONNX has no op for ExperimentalDetectronGenerateProposalsSingleImage",
    "ExperimentalDetectronPriorGridGenerator-6": "ONNX has no prior-grid generator",
    "ExperimentalDetectronROIFeatureExtractor-6": "ONNX has no multi-level (FPN) ROI feature extractor",
    "ExperimentalDetectronTopKROIs-6": "ONNX has no op for ExperimentalDetectronTopKROIs",
}
