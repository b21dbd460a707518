"""ONNX equivalents: detection ops."""
from __future__ import annotations

EXPORTS = {}


# --- non-maximum suppression (detection_nms: NonMaxSuppression-1/3/4/5/9) -----------------------------------
# ONNX NonMaxSuppression-11 is OpenVINO's hard NMS in its batch, class, score order (sort_result_descending
# false) with center_point_box for box_encoding center; it takes f32 boxes/scores and 1-element int64/f32
# scalars, and returns only the selected [batch, class, box] rows as int64 (no Soft-NMS, no scores, no
# valid_outputs, no padding: the padded versions' output is padded with -1 here, the others' first output
# compared). onnxruntime keeps only scores strictly above score_threshold (the spec keeps an equal score).
def _nms_onnx(version):
    def export(inputs, attrs):
        import numpy as np

        from .onnx_export import OnnxOp
        boxes, scores = inputs[0], inputs[1]
        n_b, n_c, n = scores.shape
        if len(inputs) > 5 and float(np.asarray(inputs[5]).reshape(-1)[0]) > 0:
            return None                                               # Soft-NMS
        if attrs["sort_result_descending"] and n_b * n_c > 1:
            return None                                               # ONNX orders by batch and class
        if len(inputs) > 4 and (np.asarray(scores, np.float32) == np.asarray(inputs[4], np.float32).reshape(-1)[0]).any():
            return None                                               # a score at score_threshold
        if len(inputs) > 3 and not 0 <= float(np.asarray(inputs[3]).reshape(-1)[0]) <= 1:
            return None                                               # onnxruntime takes iou_threshold in [0, 1]
        m = np.asarray(inputs[2]).astype(np.int64).reshape(1) if len(inputs) > 2 else None
        feeds = [np.asarray(boxes, np.float32), np.asarray(scores, np.float32)]
        if m is not None:
            feeds.append(m)
            feeds += [np.asarray(x, np.float32).reshape(1) for x in inputs[3:5]]
        count = 0 if m is None else max(int(m[0]), 0)
        rows = {1: min(n, count * n_c), 3: min(n, count * n_c), 4: min(n, count) * n_b * n_c}.get(version)

        def output(y):
            y = np.asarray(y)
            if rows is None:
                return y
            return np.concatenate([y[:rows], np.full((max(rows - len(y), 0), 3), -1, y.dtype)])
        return OnnxOp("NonMaxSuppression", feeds, {"center_point_box": int(attrs["box_encoding"] == "center")},
                      opset=11, output=output, output_types=[np.int64])
    return export


EXPORTS = {**EXPORTS, **{f"NonMaxSuppression-{v}": _nms_onnx(v) for v in (1, 3, 4, 5, 9)}}


# --- region pooling (detection_roi: ROIAlign, ROIPooling) -----------------------------------------------
# ONNX RoiAlign-16: output_half_pixel is OpenVINO's asymmetric (boxes widened to at least 1), half_pixel is
# half_pixel_for_nn; OpenVINO's half_pixel, (x + 0.5) * scale - 0.5, is ONNX's half_pixel of the boxes
# shifted by 0.5. onnxruntime's max mode takes the largest weighted corner rather than the largest
# interpolated sample (not the same op), and its kernels take f32/f64 data and i64 batch indices only.
def _roi_align_onnx(inputs, attrs):
    import numpy as np

    from .onnx_export import OnnxOp
    data, rois, batch = inputs
    if attrs["mode"] != "avg" or data.dtype not in (np.float32, np.float64):
        return None
    aligned = attrs.get("aligned_mode", "asymmetric")
    if aligned == "half_pixel":
        rois = (rois + rois.dtype.type(0.5)).astype(rois.dtype)
    mode = "output_half_pixel" if aligned == "asymmetric" else "half_pixel"
    return OnnxOp("RoiAlign", [data, rois, batch.astype(np.int64)], {
        "mode": "avg", "output_height": attrs["pooled_h"], "output_width": attrs["pooled_w"],
        "sampling_ratio": attrs["sampling_ratio"], "spatial_scale": attrs["spatial_scale"],
        "coordinate_transformation_mode": mode}, opset=16)


def _roi_pooling_onnx(inputs, attrs):
    """ONNX MaxRoiPool is Caffe's ROIPooling max (onnxruntime: f32 only); ONNX has no bilinear form."""
    import numpy as np

    from .onnx_export import OnnxOp
    data, rois = inputs
    if attrs["method"] != "max" or data.dtype != np.float32:
        return None
    return OnnxOp("MaxRoiPool", [data, rois], {"pooled_shape": [attrs["pooled_h"], attrs["pooled_w"]],
                                               "spatial_scale": attrs["spatial_scale"]}, opset=16)


EXPORTS = {**EXPORTS, "ROIAlign-3": _roi_align_onnx, "ROIAlign-9": _roi_align_onnx,
           "ROIPooling-1": _roi_pooling_onnx}
