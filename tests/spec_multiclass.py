"""Plain-loop transcriptions of the MatrixNms-8 and MulticlassNms-8/9 specs, one box at a time: the
oracle of the cases where OpenVINO's CPU plugin departs from the spec (MulticlassNms suppresses at
IoU == iou_threshold; MatrixNms orders classid results by score within a batch, and fails when nothing
is selected).

Where the specs leave things open, the transcriptions take OpenVINO's reading (the case tables never
depend on the choice otherwise): IoU of pixel boxes (normalized=false) counts widths and heights one
more, intersections too (MatrixNms: boxes that do not meet have IoU 0); candidates with equal scores go
by box index; "set s_i = 0" of MulticlassNms' step 8 removes the box (a zeroed box is never selected
later), and a candidate is compared with every kept box at the adaptive threshold current when its turn
comes (OpenVINO's reading of nms_eta); sort_result none orders each batch by score; selected_indices with roisnum number box i of batch b and class c as
(start_b + i) * num_classes + c. Arithmetic is f32."""
from __future__ import annotations

import math

import numpy as np

F32 = np.float32


def _iou(a, b, normalized, apart_is_zero=False):
    """apart_is_zero (MatrixNms): boxes that do not meet have IoU 0 (MulticlassNms counts pixel boxes'
    one-pixel margin also there)."""
    o = F32(0 if normalized else 1)
    a = [F32(v) for v in a]
    b = [F32(v) for v in b]
    area_a = (a[2] - a[0] + o) * (a[3] - a[1] + o)
    area_b = (b[2] - b[0] + o) * (b[3] - b[1] + o)
    if area_a <= 0 or area_b <= 0:
        return F32(0)
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    if apart_is_zero and (iw < 0 or ih < 0):
        return F32(0)
    iw, ih = max(iw + o, F32(0)), max(ih + o, F32(0))
    inter = iw * ih
    union = area_a + area_b - inter
    return F32(inter / union) if inter > 0 and union > 0 else F32(0)


def _per_class(boxes, scores, roisnum):
    """[(batch, class, [(box, score, output index), ...])] for every batch and class."""
    out = []
    if roisnum is None:
        n_b, n_c, n = scores.shape
        for b in range(n_b):
            for c in range(n_c):
                out.append((b, c, [(boxes[b, i], F32(scores[b, c, i]), b * n + i) for i in range(n)]))
        return out, n_b
    n_c, m = scores.shape
    start = 0
    for b, count in enumerate(int(x) for x in roisnum):
        for c in range(n_c):
            rows = range(start, min(start + max(count, 0), m))
            out.append((b, c, [(boxes[c, r], F32(scores[c, r]), r * n_c + c) for r in rows]))
        start += max(count, 0)
    return out, len(roisnum)


def _candidates(items, score_threshold, strict, nms_top_k):
    thr = F32(score_threshold)
    keep = [(k, it) for k, it in enumerate(items) if (it[1] > thr if strict else it[1] >= thr)]
    keep.sort(key=lambda t: (-t[1][1], t[0]))                       # score descending, then box order
    keep = [it for _, it in keep]
    return keep if nms_top_k < 0 else keep[:nms_top_k]


def _finish(selected, n_batches, boxes_dtype, keep_top_k, sort_result_type, across, output_type):
    """selected: (batch, class, score, index, box) -> the three outputs."""
    batches = []
    for b in range(n_batches):
        mine = [s for s in selected if s[0] == b]
        mine.sort(key=lambda s: (-s[2], s[1], s[3]))                 # keep_top_k takes the best scores
        if keep_top_k >= 0:
            mine = mine[:keep_top_k]
        if sort_result_type == "classid":
            mine.sort(key=lambda s: (s[1], -s[2], s[3]))
        batches.append(mine)
    rows = [s for m in batches for s in m]
    if across and sort_result_type == "classid":
        rows.sort(key=lambda s: (s[1], s[0], -s[2], s[3]))
    elif across and sort_result_type == "score":
        rows.sort(key=lambda s: (-s[2], s[0], s[1], s[3]))
    it = np.int32 if output_type == "i32" else np.int64
    out = np.array([[s[1], s[2], *[F32(v) for v in s[4]]] for s in rows], np.float32).reshape(-1, 6)
    idx = np.array([s[3] for s in rows], it).reshape(-1, 1)
    num = np.array([len(m) for m in batches], it)
    return [out.astype(boxes_dtype), idx, num]


def multiclass_nms(boxes, scores, roisnum=None, *, sort_result_type, sort_result_across_batch, output_type,
                   iou_threshold, score_threshold, nms_top_k, keep_top_k, background_class, normalized, nms_eta):
    groups, n_batches = _per_class(boxes.astype(np.float32), scores.astype(np.float32), roisnum)
    selected = []
    for b, c, items in groups:
        if c == background_class:
            continue
        thr = F32(iou_threshold)
        kept = []
        for box, score, index in _candidates(items, score_threshold, False, nms_top_k):
            if all(not _iou(box, k[0], normalized) > thr for k in kept):     # suppressed when IoU > threshold
                kept.append((box, score, index))
                if nms_eta < 1 and thr > 0.5:
                    thr = F32(thr * F32(nms_eta))
        selected += [(b, c, s, i, bx) for bx, s, i in kept]
    return _finish(selected, n_batches, boxes.dtype, keep_top_k, sort_result_type, sort_result_across_batch,
                   output_type)


def multiclass_nms_8(boxes, scores, **attrs):
    return multiclass_nms(boxes, scores, None, **attrs)


def matrix_nms_8(boxes, scores, *, sort_result_type, sort_result_across_batch, output_type, score_threshold,
                 nms_top_k, keep_top_k, background_class, decay_function, gaussian_sigma, post_threshold,
                 normalized):
    groups, n_batches = _per_class(boxes.astype(np.float32), scores.astype(np.float32), None)
    selected = []
    for b, c, items in groups:
        if c == background_class:
            continue
        cand = _candidates(items, score_threshold, True, nms_top_k)
        n = len(cand)
        x = [[_iou(cand[i][0], cand[j][0], normalized, True) if i < j else F32(0) for j in range(n)] for i in range(n)]
        cmax = [max([x[i][j] for i in range(n)], default=F32(0)) for j in range(n)]       # column-wise max
        for j in range(n):
            factor = F32(1)
            for i in range(j):
                if decay_function == "gaussian":
                    d = F32(math.exp(F32((cmax[i] * cmax[i] - x[i][j] * x[i][j]) * F32(gaussian_sigma))))
                else:
                    d = F32((F32(1) - x[i][j]) / (F32(1) - cmax[i]))
                factor = min(factor, d)
            score = F32(cand[j][1] * factor)
            if score > F32(post_threshold):
                selected.append((b, c, score, cand[j][2], cand[j][0]))
    return _finish(selected, n_batches, boxes.dtype, keep_top_k, sort_result_type, sort_result_across_batch,
                   output_type)


SPEC = {"MatrixNms-8": matrix_nms_8, "MulticlassNms-8": multiclass_nms_8, "MulticlassNms-9": multiclass_nms}
