"""Multi-class NMS kernels: MatrixNms-8, MulticlassNms-8/9.

Both run per (batch, class) pair, all pairs at once: the candidates of a pair (score above
score_threshold, background class skipped) are ordered by score (ties: the lower box index) and cut to
nms_top_k, and the pairwise IoU of the pair's candidates is one gathered [B, C, K, K] array.
- MulticlassNms: greedy NMS over the ordered candidates, one candidate position per loop step for every
  pair (the greedy order is inherent; the loop is over positions, never over elements): a candidate is
  kept when its IoU with every box kept before it in its pair is below the adaptive threshold, which
  shrinks by nms_eta after each kept box while above 0.5.
- MatrixNms: no loop; each candidate's score decays by the smallest decay factor against the
  higher-scoring candidates of its pair (gaussian exp((cmax_i^2 - iou_ij^2) * sigma), or linear
  (1 - iou_ij) / (1 - cmax_i), cmax_i the largest IoU of candidate i with one above it), and is kept
  when the decayed score exceeds post_threshold.
Then per batch: at most keep_top_k boxes by score, ordered by class or score, optionally across batches.

Boxes are [xmin, ymin, xmax, ymax]; IoU as detection_nms.iou_matrix measures it (0 where a box has no
area); with normalized=false widths and heights count one more (pixel boxes), also those of the
intersection: for MulticlassNms boxes less than 1 apart overlap, for MatrixNms boxes that do not meet
have IoU 0, as OpenVINO's CPU plugin measures them.

Thresholds (OpenVINO's CPU plugin, probed): MatrixNms keeps scores > score_threshold and decayed scores
> post_threshold (the spec's "higher than"); MulticlassNms keeps scores >= score_threshold (the spec's
step 6) and suppresses IoU > threshold (the spec's step 8; the CPU plugin also suppresses at equality).
nms_eta as OpenVINO applies it: a candidate is compared with every kept box at the threshold current
when its turn comes (the spec's steps 7-8 can be read as each kept box suppressing at its own threshold).
"""
from __future__ import annotations

import numpy as np

from ...types import element_type
from .detection_nms import iou_matrix

F32 = np.float32


# --- per (batch, class) tables -------------------------------------------------------------------------
def _tables(boxes, scores, roisnum):
    """(box table [B, C, N, 4], scores [B, C, N], present [B, C, N], output index [B, C, N]).
    Two inputs: boxes [B, N, 4] shared by the classes, index b * N + i. With roisnum: boxes [C, M, 4] and
    scores [C, M] hold every batch's boxes one after the other (roisnum[b] of them), each class its own;
    index (start_b + i) * C + c (OpenVINO's numbering)."""
    boxes = np.asarray(boxes).astype(F32)
    scores = np.asarray(scores).astype(F32)
    if roisnum is None:
        n_b, n = boxes.shape[0], boxes.shape[1]
        n_c = scores.shape[1]
        table = np.broadcast_to(boxes[:, None], (n_b, n_c, n, 4))
        index = np.broadcast_to((np.arange(n_b)[:, None] * n + np.arange(n))[:, None], (n_b, n_c, n))
        return table, scores, np.ones(scores.shape, bool), index
    n_c, m = scores.shape
    # (rows past the m boxes are never present: counts beyond m change no batch's rows, and their sums
    # could overflow int64)
    counts = np.clip(np.asarray(roisnum).astype(np.int64).reshape(-1), 0, m)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    n = int(counts.max(initial=0))
    pos = starts[:, None] + np.arange(n)                                      # [B, N] rows of boxes
    present = (np.arange(n) < counts[:, None]) & (pos < m)
    pos = np.where(present, pos, 0)
    if m == 0:
        return (np.zeros((len(counts), n_c, n, 4), F32), np.zeros((len(counts), n_c, n), F32),
                np.zeros((len(counts), n_c, n), bool), np.zeros((len(counts), n_c, n), np.int64))
    table = np.moveaxis(boxes[:, pos], 0, 1)                                  # [B, C, N, 4]
    sc = np.moveaxis(scores[:, pos], 0, 1)
    index = pos[:, None, :] * n_c + np.arange(n_c)[None, :, None]
    present = np.broadcast_to(present[:, None], sc.shape)
    return table, sc, present, index


def _candidates(table, sc, present, *, score_threshold, strict, nms_top_k, background_class):
    """Each pair's candidates in score order: (order [B, C, K] box positions, valid [B, C, K])."""
    n_c = sc.shape[1]
    thr = F32(score_threshold)
    ok = present & ((sc > thr) if strict else (sc >= thr)) & ~np.isnan(sc)
    if 0 <= background_class < n_c:
        ok[:, background_class] = False
    key = np.where(ok, -sc, np.inf)
    order = np.argsort(key, axis=-1, kind="stable")                           # score desc, then box index
    valid = np.take_along_axis(ok, order, axis=-1)
    k = sc.shape[-1] if nms_top_k < 0 else min(nms_top_k, sc.shape[-1])
    return order[..., :k], valid[..., :k]


def _gathered_iou(table, order, normalized, apart_is_zero=False):
    """[B, C, K, K] IoU between the ordered candidates of each pair. `apart_is_zero` (MatrixNms): boxes
    that do not meet have IoU 0 also for pixel boxes (MulticlassNms counts their one-pixel margin)."""
    cand = np.take_along_axis(table, order[..., None], axis=2)                # [B, C, K, 4]
    iou = iou_matrix(cand, 0.0 if normalized else 1.0)       # symmetric in x and y: [x, y, x, y] boxes do
    if apart_is_zero and not normalized:
        lo, hi = np.maximum(cand[..., :, None, :2], cand[..., None, :, :2]), \
            np.minimum(cand[..., :, None, 2:], cand[..., None, :, 2:])
        iou = np.where((hi < lo).any(-1), F32(0), iou)
    return iou


# --- the final stage: keep_top_k, order, outputs ------------------------------------------------------
def _finish(sel_b, sel_c, sel_pos, sel_score, table, index, n_batches, *, keep_top_k, sort_result_type,
            sort_result_across_batch, output_type, out_dtype):
    """sel_*: the selections (batch, class, box position, score) of every pair."""
    # per batch: best scores first (ties: lower class, then lower box index) for keep_top_k
    box_idx = index[sel_b, sel_c, sel_pos]
    order = np.lexsort((box_idx, sel_c, -sel_score, sel_b))
    sel_b, sel_c, sel_pos, sel_score, box_idx = (x[order] for x in (sel_b, sel_c, sel_pos, sel_score, box_idx))
    if keep_top_k >= 0:
        rank = np.arange(len(sel_b)) - np.searchsorted(sel_b, sel_b)          # rank within its batch
        keep = rank < keep_top_k
        sel_b, sel_c, sel_pos, sel_score, box_idx = (x[keep] for x in (sel_b, sel_c, sel_pos, sel_score, box_idx))
    if sort_result_type == "classid":
        keys = (box_idx, -sel_score, sel_c, sel_b)
        if sort_result_across_batch:
            keys = (box_idx, -sel_score, sel_b, sel_c)
    elif sort_result_type == "score":
        keys = (box_idx, sel_c, -sel_score, sel_b)
        if sort_result_across_batch:
            keys = (box_idx, sel_c, sel_b, -sel_score)
    else:          # none: the spec guarantees no order; per batch by score, as OpenVINO's CPU plugin gives
        keys = (box_idx, sel_c, -sel_score, sel_b)
    order = np.lexsort(keys)
    sel_b, sel_c, sel_pos, sel_score, box_idx = (x[order] for x in (sel_b, sel_c, sel_pos, sel_score, box_idx))
    coords = table[sel_b, sel_c, sel_pos].reshape(-1, 4)
    outputs = np.concatenate([sel_c.astype(F32)[:, None], sel_score.astype(F32)[:, None], coords], axis=1)
    it = element_type(output_type).dtype
    num = np.bincount(sel_b, minlength=n_batches)[:n_batches]
    return outputs.astype(out_dtype).reshape(-1, 6), box_idx.astype(it).reshape(-1, 1), num.astype(it)


# --- MulticlassNms ------------------------------------------------------------------------------------
def _multiclass(boxes, scores, roisnum, *, sort_result_type, sort_result_across_batch, output_type,
                iou_threshold, score_threshold, nms_top_k, keep_top_k, background_class, normalized, nms_eta):
    table, sc, present, index = _tables(boxes, scores, roisnum)
    n_b, n_c, _ = sc.shape
    order, valid = _candidates(table, sc, present, score_threshold=score_threshold, strict=False,
                               nms_top_k=nms_top_k, background_class=background_class)
    iou = _gathered_iou(table, order, normalized)
    k = order.shape[-1]
    max_iou = np.full((n_b, n_c, k), -np.inf, F32)                           # largest IoU with a kept box
    thr = np.full((n_b, n_c), F32(iou_threshold), F32)
    eta = F32(nms_eta)
    kept = np.zeros((n_b, n_c, k), bool)
    for p in range(k):                       # one candidate position of every pair per step
        keep = valid[..., p] & ~(max_iou[..., p] > thr)
        kept[..., p] = keep
        max_iou = np.where(keep[..., None], np.maximum(max_iou, iou[..., p, :]), max_iou)
        thr = np.where(keep & (eta < 1) & (thr > F32(0.5)), thr * eta, thr).astype(F32)
    b, c, p = np.nonzero(kept)
    pos = order[b, c, p]
    return _finish(b, c, pos, sc[b, c, pos], table, index, n_b, keep_top_k=keep_top_k,
                   sort_result_type=sort_result_type, sort_result_across_batch=sort_result_across_batch,
                   output_type=output_type, out_dtype=np.asarray(boxes).dtype)


def multiclass_nms_8(boxes, scores, *, sort_result_type, sort_result_across_batch, output_type, iou_threshold,
                     score_threshold, nms_top_k, keep_top_k, background_class, normalized, nms_eta):
    return _multiclass(boxes, scores, None, sort_result_type=sort_result_type,
                       sort_result_across_batch=sort_result_across_batch, output_type=output_type,
                       iou_threshold=iou_threshold, score_threshold=score_threshold, nms_top_k=nms_top_k,
                       keep_top_k=keep_top_k, background_class=background_class, normalized=normalized,
                       nms_eta=nms_eta)


def multiclass_nms_9(boxes, scores, roisnum=None, *, sort_result_type, sort_result_across_batch, output_type,
                     iou_threshold, score_threshold, nms_top_k, keep_top_k, background_class, normalized, nms_eta):
    return _multiclass(boxes, scores, roisnum, sort_result_type=sort_result_type,
                       sort_result_across_batch=sort_result_across_batch, output_type=output_type,
                       iou_threshold=iou_threshold, score_threshold=score_threshold, nms_top_k=nms_top_k,
                       keep_top_k=keep_top_k, background_class=background_class, normalized=normalized,
                       nms_eta=nms_eta)


# --- MatrixNms ---------------------------------------------------------------------------------------
def matrix_nms_8(boxes, scores, *, sort_result_type, sort_result_across_batch, output_type, score_threshold,
                 nms_top_k, keep_top_k, background_class, decay_function, gaussian_sigma, post_threshold,
                 normalized):
    table, sc, present, index = _tables(boxes, scores, None)
    n_b = sc.shape[0]
    order, valid = _candidates(table, sc, present, score_threshold=score_threshold, strict=True,
                               nms_top_k=nms_top_k, background_class=background_class)
    k = order.shape[-1]
    above = np.triu(np.ones((k, k), bool), 1)                                 # [i, j]: i scores above j
    iou = np.where(above & valid[..., :, None] & valid[..., None, :], _gathered_iou(table, order, normalized, True),
                   F32(0))
    cmax = iou.max(axis=-2, initial=F32(0))                                   # [B, C, K]: per column j
    ci = cmax[..., :, None]                                                   # compensation of row i
    if decay_function == "gaussian":
        decay = np.exp((ci * ci - iou * iou) * F32(gaussian_sigma))
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            decay = (F32(1) - iou) / (F32(1) - ci)
    decay = np.where(above, decay, np.inf).astype(F32)     # 0 / 0 (linear, a box identical to one above): NaN,
    factor = np.fmin(np.fmin.reduce(decay, axis=-2, initial=np.inf), F32(1)) if k else \
        np.ones(order.shape, F32)                            # which the smallest factor ignores
    ordered = np.take_along_axis(sc, order, axis=-1)
    decayed = (ordered * factor).astype(F32)
    kept = valid & (decayed > F32(post_threshold))
    b, c, p = np.nonzero(kept)
    return _finish(b, c, order[b, c, p], decayed[b, c, p], table, index, n_b, keep_top_k=keep_top_k,
                   sort_result_type=sort_result_type, sort_result_across_batch=sort_result_across_batch,
                   output_type=output_type, out_dtype=np.asarray(boxes).dtype)


KERNELS = {
    "MatrixNms-8": matrix_nms_8,
    "MulticlassNms-8": multiclass_nms_8,
    "MulticlassNms-9": multiclass_nms_9,
}


# --- temporaries (runtime/limits.py's max_kernel_bytes) -------------------------------------------------
def _sizes(ins, kw):
    """(B, C, N, K) of a call: batches, classes, boxes per pair and candidates per pair (nms_top_k)."""
    boxes, scores = ins[0], ins[1]
    roisnum = ins[2] if len(ins) > 2 else None
    if roisnum is None:
        b, n, c = boxes.shape[0], boxes.shape[1], scores.shape[1]
    else:                                        # every batch's rows in one [C, M] table: N its most rows
        c, m = scores.shape
        b = roisnum.size
        n = min(max(int(np.asarray(roisnum).astype(np.int64).max(initial=0)), 0), m)
    k = n if kw["nms_top_k"] < 0 else min(kw["nms_top_k"], n)
    return b, c, n, k


def _workspace(pair_bytes):
    """Bytes of the per-pair tables (boxes, scores, order: about 50 bytes per box of each (batch, class)
    pair), the [B, C, K, K] IoU and its intermediates (`pair_bytes` per candidate pair) and the selections
    (the dynamic outputs: at most K per pair)."""
    def estimate(ins, outs, kw) -> int:
        b, c, n, k = _sizes(ins, kw)
        return b * c * (50 * n + pair_bytes * k * k + 64 * k)
    return estimate


WORKSPACE = {"MulticlassNms-8": _workspace(40), "MulticlassNms-9": _workspace(40), "MatrixNms-8": _workspace(70)}
