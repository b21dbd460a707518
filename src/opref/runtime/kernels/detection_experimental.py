"""NumPy reference kernels: the ExperimentalDetectron*-6 ops (TopKROIs, PriorGridGenerator,
ROIFeatureExtractor, GenerateProposalsSingleImage, DetectionOutput).

Semantics are OpenVINO's (its CPU plugin and its reference code agree on them), which the specs leave
open in places: rows past the real results of a padded output are 0; equal scores keep the input
order; box arithmetic is done in f32 as OpenVINO does (a threshold compared in f64 would move boxes
across it), results rounded once to the data type. The two box-refining ops live in
detection_experimental_boxes.py.
"""
from __future__ import annotations

import math

import numpy as np

from ...errors import InputError
from ..limits import check_size
from .detection_experimental_boxes import _work_dtype, detection_output, generate_proposals_single_image
from .detection_roi import _axis_weights, _grid, _pool_samples

F32 = np.float32


# --- ExperimentalDetectronTopKROIs-6 ---------------------------------------------------------------------
def top_k_rois(input_rois, rois_probs, *, max_rois):
    """The max_rois boxes of highest probability, best first (a stable sort: equal probabilities keep the
    input order); rows past NUM_ROIS are 0."""
    order = np.argsort(-rois_probs.astype(np.float64), kind="stable")[:max_rois]
    out = np.zeros((max_rois, 4), input_rois.dtype)
    out[:len(order)] = input_rois[order]
    return out


# --- ExperimentalDetectronPriorGridGenerator-6 -----------------------------------------------------------
def prior_grid_generator(priors, feature_map, im_data, *, flatten, h, w, stride_x, stride_y):
    """Prior p at cell (y, x) of a gh x gw grid: p + [sx (x + 0.5), sy (y + 0.5), sx (x + 0.5), sy (y + 0.5)],
    rows in (y, x, p) order. A grid smaller than the feature map fills the first gh * gw * P rows (of the
    flat layout, also for the 4-D output) and leaves the others 0."""
    op = "ExperimentalDetectronPriorGridGenerator-6"
    fh, fw = feature_map.shape[2:]
    ih, iw = im_data.shape[2:]
    for name, v, limit in (("h", h, fh), ("w", w, fw)):
        if not 0 <= v <= limit:
            raise InputError(f"{op}: attribute {name!r} must be in [0, {limit}] (the feature map's size), got {v}")
    gh, gw = h or fh, w or fw
    ct = _work_dtype(priors)
    sx = ct(stride_x) if stride_x else ct(iw) / ct(gw) if gw else ct(0)
    sy = ct(stride_y) if stride_y else ct(ih) / ct(gh) if gh else ct(0)
    cx = sx * (np.arange(gw, dtype=ct) + ct(0.5))
    cy = sy * (np.arange(gh, dtype=ct) + ct(0.5))
    shift = np.stack(np.broadcast_arrays(cx[None, :], cy[:, None], cx[None, :], cy[:, None]), -1)  # [gh, gw, 4]
    grid = (priors.astype(ct)[None, None] + shift[:, :, None]).reshape(-1, 4)
    p = len(priors)
    out = np.zeros((fh * fw * p, 4), priors.dtype)
    out[:len(grid)] = grid
    return out if flatten else out.reshape(fh, fw, p, 4)


# --- ExperimentalDetectronROIFeatureExtractor-6 ----------------------------------------------------------
def pyramid_levels(rois, levels):
    """Level of each box: clamp(floor(2 + log2(sqrt(area) / 224 + 1e-6)), 0, levels - 1) in f32, with area
    (x2 - x1)(y2 - y1); a box whose area is not positive gets `levels` (it is pooled from no level)."""
    r = rois.astype(F32)
    area = (r[:, 2] - r[:, 0]) * (r[:, 3] - r[:, 1])
    with np.errstate(invalid="ignore", divide="ignore"):
        level = np.floor(np.log2(np.sqrt(area) / F32(224) + F32(1e-6)) + F32(2))
    level = np.clip(np.nan_to_num(level, nan=0.0, neginf=0.0), 0, levels - 1).astype(np.int64)
    return np.where(area > 0, level, levels)


def roi_feature_extractor(rois, pyramid, *more_pyramid, output_size, sampling_ratio, pyramid_scales, aligned):
    """ROIAlign (average of a grid of bilinear samples per bin) of each box on its pyramid level, with
    spatial scale 1 / pyramid_scales[level]; boxes narrower than 1 are widened to 1 (aligned or not);
    aligned shifts the scaled coordinates by -0.5. A box of no area gives zeros. The second output is
    the boxes as given."""
    pyramid = (pyramid, *more_pyramid)
    ct = _work_dtype(rois)
    channels = pyramid[0].shape[1]
    dims = (len(rois), channels, output_size, output_size)
    if math.prod(d for d in dims if d) * 8 > np.iinfo(np.intp).max:      # (even with no box: NumPy refuses it)
        raise InputError(f"ExperimentalDetectronROIFeatureExtractor-6: output_size {output_size} makes an output "
                         f"{list(dims)} that NumPy cannot hold")
    out = np.zeros(dims, np.float64)
    levels = pyramid_levels(rois, len(pyramid))
    for lvl, data in enumerate(pyramid):                      # one batched ROIAlign per level
        pick = np.flatnonzero(levels == lvl)
        if not len(pick):
            continue
        scale = ct(1) / ct(pyramid_scales[lvl])
        r = rois[pick].astype(ct) * scale - ct(0.5 if aligned else 0.0)
        x1, y1, x2, y2 = r.T
        roi_w, roi_h = np.maximum(x2 - x1, ct(1)), np.maximum(y2 - y1, ct(1))
        bin_w, bin_h = roi_w / ct(output_size), roi_h / ct(output_size)
        if sampling_ratio > 0:
            ry = rx = np.full(len(pick), sampling_ratio, np.int64)
        else:
            ry, rx = (np.ceil(v).astype(np.int64) for v in (bin_h, bin_w))
        h, w = data.shape[2:]
        for ratio, size in ((ry, h), (rx, w)):     # the bilinear weights [R, bins, samples, pixels] per axis
            check_size("ExperimentalDetectronROIFeatureExtractor-6", f"the sample weights for sampling_ratio "
                       f"{sampling_ratio}", (len(pick), output_size, max(int(ratio.max()), 1), size), np.float64)
        py, my = _grid(y1.astype(np.float64), bin_h.astype(np.float64), output_size, ry)
        px, mx = _grid(x1.astype(np.float64), bin_w.astype(np.float64), output_size, rx)
        wy, wx = _axis_weights(py, my, h), _axis_weights(px, mx, w)
        batch = np.broadcast_to(data.astype(np.float64), (len(pick),) + data.shape[1:])
        out[pick] = _pool_samples(batch, wy, my, wx, mx, "avg")
    return [out.astype(rois.dtype), rois.copy()]


KERNELS = {
    "ExperimentalDetectronTopKROIs-6": top_k_rois,
    "ExperimentalDetectronPriorGridGenerator-6": prior_grid_generator,
    "ExperimentalDetectronROIFeatureExtractor-6": roi_feature_extractor,
    "ExperimentalDetectronGenerateProposalsSingleImage-6": generate_proposals_single_image,
    "ExperimentalDetectronDetectionOutput-6": detection_output,
}
