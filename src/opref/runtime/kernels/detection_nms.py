"""Non-maximum suppression kernels: NonMaxSuppression-1/3/4/5/9, NMSRotated-13.

Greedy NMS runs for every (batch, class) pair at once: the pairwise IoU matrix of each batch is one
NumPy expression, and each step of the loop selects the best remaining box of every pair (argmax: ties
go to the lower box index) and suppresses or decays the others with one row of that matrix. The loop
runs once per selected box of the busiest pair (at most max_output_boxes_per_class times): the greedy
order is inherent to NMS, the loop is over selections, never over elements.

Where the spec and OpenVINO's CPU plugin differ (see the cases), the spec is followed: a score equal to
score_threshold is kept, a box whose IoU equals iou_threshold is not suppressed.
"""
from __future__ import annotations

import numpy as np

from ...types import element_type

F32 = np.float32


def _f32(x) -> np.ndarray:
    return np.asarray(x).astype(F32)


def _scalar(x, default, dtype=F32):
    return dtype(default) if x is None else np.asarray(x).reshape(-1)[0].astype(dtype)


def _count(x) -> int:
    return 0 if x is None else max(int(np.asarray(x).reshape(-1)[0]), 0)


# --- geometry ----------------------------------------------------------------------------------------
def corners(boxes: np.ndarray, box_encoding: str) -> np.ndarray:
    """[..., 4] boxes as (ymin, xmin, ymax, xmax) in f32: corner boxes give any diagonal pair of
    corners, center boxes are [x_center, y_center, width, height]."""
    b = _f32(boxes)
    if box_encoding == "center":
        xc, yc, w, h = np.moveaxis(b, -1, 0)
        half_w, half_h = w / F32(2), h / F32(2)
        return np.stack([yc - half_h, xc - half_w, yc + half_h, xc + half_w], axis=-1)
    y1, x1, y2, x2 = np.moveaxis(b, -1, 0)
    return np.stack([np.minimum(y1, y2), np.minimum(x1, x2), np.maximum(y1, y2), np.maximum(x1, x2)], axis=-1)


def iou_matrix(c: np.ndarray, offset: float = 0.0) -> np.ndarray:
    """Pairwise IoU [..., N, N] of (ymin, xmin, ymax, xmax) boxes [..., N, 4]; 0 where either box has
    no area. `offset` 1 measures pixel boxes (MatrixNms/MulticlassNms with normalized=false)."""
    o = F32(offset)
    ymin, xmin, ymax, xmax = (c[..., k] for k in range(4))
    area = (ymax - ymin + o) * (xmax - xmin + o)
    ih = np.minimum(ymax[..., :, None], ymax[..., None, :]) - np.maximum(ymin[..., :, None], ymin[..., None, :]) + o
    iw = np.minimum(xmax[..., :, None], xmax[..., None, :]) - np.maximum(xmin[..., :, None], xmin[..., None, :]) + o
    inter = np.maximum(ih, F32(0)) * np.maximum(iw, F32(0))
    union = area[..., :, None] + area[..., None, :] - inter
    empty = (area[..., :, None] <= 0) | (area[..., None, :] <= 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = inter / union
    return np.where(empty | ~(union > 0), F32(0), iou).astype(F32)


# --- greedy selection for every (batch, class) at once ----------------------------------------------
def greedy_nms(scores: np.ndarray, iou: np.ndarray, *, max_per_class: int, iou_threshold, score_threshold,
               decay=None, keep_equal_score=True):
    """scores [B, C, N], iou [B, N, N] (or [B, C, N, N]) -> (batch, class, box, score, step) of every
    selection, in the order batch, class, step. `decay(iou)` (Soft-NMS) multiplies the other scores
    instead of the hard cut iou > iou_threshold (a decay of 0 removes the box)."""
    n_b, n_c, n = scores.shape
    cur = scores.astype(F32, copy=True)
    thr = F32(score_threshold)
    alive = (cur >= thr) if keep_equal_score else (cur > thr)
    alive &= ~np.isnan(cur)
    picks = []
    bi, ci = np.meshgrid(np.arange(n_b), np.arange(n_c), indexing="ij")
    for step in range(min(max_per_class, n)):       # one selection per (batch, class) per step
        masked = np.where(alive, cur, -np.inf)
        best = np.argmax(masked, axis=-1)                               # first maximum: lower index wins
        ok = np.take_along_axis(alive, best[..., None], axis=-1)[..., 0]
        if not ok.any():
            break
        score = np.take_along_axis(cur, best[..., None], axis=-1)[..., 0]
        picks.append((bi[ok], ci[ok], best[ok], score[ok], np.full(int(ok.sum()), step)))
        row = iou[bi, best] if iou.ndim == 3 else iou[bi, ci, best]     # [B, C, N]: IoU with the selection
        if decay is None:
            suppressed = row > F32(iou_threshold)
        else:
            cur = np.where(ok[..., None], cur * decay(row), cur).astype(F32)
            suppressed = (cur < thr) if keep_equal_score else (cur <= thr)
            suppressed |= decay(row) == 0
        alive &= ~(ok[..., None] & suppressed)
        alive[bi[ok], ci[ok], best[ok]] = False
    if not picks:
        empty = np.zeros(0, np.int64)
        return empty, empty, empty, np.zeros(0, F32), empty
    b, c, box, score, step = (np.concatenate(p) for p in zip(*picks))
    order = np.lexsort((step, c, b))
    return b[order], c[order], box[order], score[order], step[order]


def _nms_select(boxes, scores, max_output_boxes_per_class, iou_threshold, score_threshold, soft_nms_sigma,
                box_encoding, sort_result_descending, cut_soft_at_threshold, iou=None):
    m = _count(max_output_boxes_per_class)
    iou_thr = _scalar(iou_threshold, 0.0)
    score_thr = _scalar(score_threshold, 0.0)
    sigma = _scalar(soft_nms_sigma, 0.0)
    if iou is None:
        iou = iou_matrix(corners(boxes, box_encoding))
    decay = None
    if sigma > 0:
        scale = F32(-0.5) / sigma
        if cut_soft_at_threshold:
            def decay(x):
                return np.where(x <= iou_thr, np.exp(scale * x * x), F32(0)).astype(F32)
        else:
            def decay(x):
                return np.exp(scale * x * x).astype(F32)
    b, c, box, score, _ = greedy_nms(_f32(scores), iou, max_per_class=m, iou_threshold=iou_thr,
                                     score_threshold=score_thr, decay=decay)
    if sort_result_descending:     # by score across batches and classes; ties keep batch, class, step order
        order = np.argsort(-score, kind="stable")
        b, c, box, score = b[order], c[order], box[order], score[order]
    return np.stack([b, c, box], axis=-1).reshape(-1, 3), score


def _padded(triplets, rows, output_type):
    out = np.full((rows, 3), -1, element_type(output_type).dtype)
    out[:len(triplets)] = triplets[:rows]
    return out


def non_max_suppression_1(boxes, scores, max_output_boxes_per_class=None, iou_threshold=None, score_threshold=None,
                          *, box_encoding, sort_result_descending):
    return non_max_suppression_3(boxes, scores, max_output_boxes_per_class, iou_threshold, score_threshold,
                                 box_encoding=box_encoding, sort_result_descending=sort_result_descending,
                                 output_type="i64")


def non_max_suppression_3(boxes, scores, max_output_boxes_per_class=None, iou_threshold=None, score_threshold=None,
                          *, box_encoding, sort_result_descending, output_type):
    triplets, _ = _nms_select(boxes, scores, max_output_boxes_per_class, iou_threshold, score_threshold, None,
                              box_encoding, sort_result_descending, False)
    rows = min(scores.shape[2], _count(max_output_boxes_per_class) * scores.shape[1])
    return _padded(triplets, rows, output_type)


def non_max_suppression_4(boxes, scores, max_output_boxes_per_class=None, iou_threshold=None, score_threshold=None,
                          *, box_encoding, sort_result_descending, output_type):
    triplets, _ = _nms_select(boxes, scores, max_output_boxes_per_class, iou_threshold, score_threshold, None,
                              box_encoding, sort_result_descending, False)
    rows = min(scores.shape[2], _count(max_output_boxes_per_class)) * scores.shape[0] * scores.shape[1]
    return _padded(triplets, rows, output_type)


def _dynamic_outputs(triplets, score, output_type):
    dtype = element_type(output_type).dtype
    scores_out = np.concatenate([triplets[:, :2].astype(F32), score[:, None].astype(F32)], axis=1)
    return triplets.astype(dtype), scores_out, np.array([len(triplets)], dtype)


def non_max_suppression_5(boxes, scores, max_output_boxes_per_class=None, iou_threshold=None, score_threshold=None,
                          soft_nms_sigma=None, *, box_encoding, sort_result_descending, output_type):
    triplets, score = _nms_select(boxes, scores, max_output_boxes_per_class, iou_threshold, score_threshold,
                                  soft_nms_sigma, box_encoding, sort_result_descending, True)
    return _dynamic_outputs(triplets, score, output_type)


def non_max_suppression_9(boxes, scores, max_output_boxes_per_class=None, iou_threshold=None, score_threshold=None,
                          soft_nms_sigma=None, *, box_encoding, sort_result_descending, output_type):
    triplets, score = _nms_select(boxes, scores, max_output_boxes_per_class, iou_threshold, score_threshold,
                                  soft_nms_sigma, box_encoding, sort_result_descending, False)
    return _dynamic_outputs(triplets, score, output_type)


# --- NMSRotated-13 --------------------------------------------------------------------------------------
def rotated_corners(boxes: np.ndarray, clockwise: bool) -> np.ndarray:
    """[..., 5] boxes [x_center, y_center, width, height, angle] -> [..., 4, 2] corners in order around
    the box. clockwise=true: a positive angle turns the box clockwise as an image shows it (y pointing
    down), i.e. by +angle in (x, y); clockwise=false by -angle (as OpenVINO's CPU plugin does)."""
    b = _f32(boxes)
    xc, yc, w, h, a = np.moveaxis(b, -1, 0)
    a = a if clockwise else -a
    cos, sin = np.cos(a), np.sin(a)
    dx = np.array([-0.5, 0.5, 0.5, -0.5], F32)
    dy = np.array([-0.5, -0.5, 0.5, 0.5], F32)
    ox, oy = dx * w[..., None], dy * h[..., None]
    return np.stack([xc[..., None] + ox * cos[..., None] - oy * sin[..., None],
                     yc[..., None] + ox * sin[..., None] + oy * cos[..., None]], axis=-1)


def _cross(o, a, b):
    return (a[..., 0] - o[..., 0]) * (b[..., 1] - o[..., 1]) - (a[..., 1] - o[..., 1]) * (b[..., 0] - o[..., 0])


def _inside(points, quad):
    """[P, K, 2] points inside (or on) the convex [P, 4, 2] quads, of either orientation."""
    c = np.stack([_cross(quad[:, k, None], quad[:, (k + 1) % 4, None], points) for k in range(4)], axis=-1)
    return (c >= 0).all(-1) | (c <= 0).all(-1)


def rotated_iou_matrix(corners4: np.ndarray) -> np.ndarray:
    """Pairwise IoU [N, N] of rotated boxes given as corners [N, 4, 2] (the spec's steps: edge crossings and
    corners inside the other box form the intersection polygon, its area by the shoelace formula)."""
    n = corners4.shape[0]
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    a, b = corners4[i.ravel()].astype(np.float64), corners4[j.ravel()].astype(np.float64)    # [P, 4, 2]
    p1, p2 = a[:, :, None], np.roll(a, -1, axis=1)[:, :, None]                             # edges of A [P, 4, 1, 2]
    q1, q2 = b[:, None], np.roll(b, -1, axis=1)[:, None]                                   # edges of B [P, 1, 4, 2]
    r, s = p2 - p1, q2 - q1
    denom = r[..., 0] * s[..., 1] - r[..., 1] * s[..., 0]
    qp = q1 - p1
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (qp[..., 0] * s[..., 1] - qp[..., 1] * s[..., 0]) / denom
        u = (qp[..., 0] * r[..., 1] - qp[..., 1] * r[..., 0]) / denom
    cross_ok = (denom != 0) & (t >= 0) & (t <= 1) & (u >= 0) & (u <= 1)
    crossings = (p1 + np.where(cross_ok, t, 0.0)[..., None] * r).reshape(-1, 16, 2)
    pts = np.concatenate([crossings, a, b], axis=1)                                          # [P, 24, 2]
    ok = np.concatenate([cross_ok.reshape(-1, 16), _inside(a, b), _inside(b, a)], axis=1)
    count = ok.sum(-1)
    center = np.where(ok[..., None], pts, 0).sum(1) / np.maximum(count, 1)[:, None]
    angle = np.where(ok, np.arctan2(pts[..., 1] - center[:, None, 1], pts[..., 0] - center[:, None, 0]), np.inf)
    order = np.argsort(angle, axis=1)
    pts = np.take_along_axis(pts, order[..., None], axis=1)
    ok = np.take_along_axis(ok, order, axis=1)
    pts = np.where(ok[..., None], pts, pts[:, :1])        # unused slots repeat the first point: no area
    nxt = np.roll(pts, -1, axis=1)
    inter = np.abs((pts[..., 0] * nxt[..., 1] - pts[..., 1] * nxt[..., 0]).sum(1)) / 2
    inter = np.where(count >= 3, inter, 0.0)
    area = np.abs(_cross(corners4[:, 0], corners4[:, 1], corners4[:, 2])).astype(np.float64)
    union = area[i.ravel()] + area[j.ravel()] - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = np.where(union > 0, inter / union, 0.0)
    no_area = (area[i.ravel()] <= 0) | (area[j.ravel()] <= 0)      # a point or a segment overlaps nothing
    return np.where(no_area, 0.0, iou).reshape(n, n).astype(F32)


def nms_rotated(boxes, scores, max_output_boxes_per_class, iou_threshold, score_threshold, *,
                sort_result_descending, output_type, clockwise):
    corners4 = rotated_corners(boxes, clockwise)
    iou = np.stack([rotated_iou_matrix(c) for c in corners4]) if len(corners4) else \
        np.zeros((0, boxes.shape[1], boxes.shape[1]), F32)                  # one IoU matrix per batch
    triplets, score = _nms_select(boxes, scores, max_output_boxes_per_class, iou_threshold, score_threshold, None,
                                  "corner", sort_result_descending, False, iou=iou)
    return _dynamic_outputs(triplets, score, output_type)


KERNELS = {
    "NonMaxSuppression-1": non_max_suppression_1,
    "NonMaxSuppression-3": non_max_suppression_3,
    "NonMaxSuppression-4": non_max_suppression_4,
    "NonMaxSuppression-5": non_max_suppression_5,
    "NonMaxSuppression-9": non_max_suppression_9,
    "NMSRotated-13": nms_rotated,
}


# --- temporaries (runtime/limits.py's max_kernel_bytes) -------------------------------------------------
def _pairs_workspace(ins, outs, kw) -> int:
    """Bytes of the pairwise IoU of every batch's boxes: about ten [B, N, N] f32 arrays (overlaps, areas,
    union, masks, the IoU)."""
    boxes = ins[0]
    b, n = (boxes.shape[0], boxes.shape[1]) if boxes.ndim == 3 else (1, 0)
    return 10 * 4 * b * n * n


ROTATED_PAIR_BYTES = 3200    # NMSRotated: the work arrays of one pair of boxes (edge crossings, the
                             # intersection polygon's 24 points sorted by angle, their areas), in f64


def _rotated_workspace(ins, outs, kw) -> int:
    """NMSRotated's rotated IoU: one batch's N * N pairs at a time, plus the [B, N, N] matrices."""
    boxes = ins[0]
    b, n = (boxes.shape[0], boxes.shape[1]) if boxes.ndim == 3 else (1, 0)
    return ROTATED_PAIR_BYTES * n * n + 4 * b * n * n


WORKSPACE = {**{name: _pairs_workspace for name in KERNELS if name != "NMSRotated-13"},
             "NMSRotated-13": _rotated_workspace}
