"""Plain-loop transcriptions of the NonMaxSuppression specs' algorithms (steps 1-8 of the v5/v9 spec,
steps 1-3 of v1/v3/v4), one box at a time: the oracle of the cases where OpenVINO's CPU plugin departs
from the spec (a score equal to score_threshold is kept; a box whose IoU equals iou_threshold is kept;
NMS-5's Soft-NMS cuts at iou_threshold) and OpenVINO has no reference `evaluate`.

Arithmetic is f32, as the spec's element types and OpenVINO's plugins compute it; IoU of boxes with no
area is 0. A box whose weight func(iou) is 0 leaves B (the spec's "remove the input box from further
consideration" of v1-v4: a suppressed box is never selected later with a score of 0)."""
from __future__ import annotations

import math

import numpy as np

F32 = np.float32


def _corner(box, encoding):
    b = [F32(v) for v in box]
    if encoding == "center":
        xc, yc, w, h = b
        return yc - h / F32(2), xc - w / F32(2), yc + h / F32(2), xc + w / F32(2)
    y1, x1, y2, x2 = b
    return min(y1, y2), min(x1, x2), max(y1, y2), max(x1, x2)


def _iou(a, b):
    area_a = (a[2] - a[0]) * (a[3] - a[1])
    area_b = (b[2] - b[0]) * (b[3] - b[1])
    if area_a <= 0 or area_b <= 0:
        return F32(0)
    ih = max(min(a[2], b[2]) - max(a[0], b[0]), F32(0))
    iw = max(min(a[3], b[3]) - max(a[1], b[1]), F32(0))
    inter = ih * iw
    return F32(inter / (area_a + area_b - inter))


def _first(x, default):
    return default if x is None else np.asarray(x).reshape(-1)[0]


def nms_spec(boxes, scores, max_boxes, iou_threshold, score_threshold, sigma, encoding, sort_descending,
             cut_soft=False):
    """Selected (batch, class, box, score) in the spec's order."""
    m = int(_first(max_boxes, 0))
    iou_thr, score_thr = F32(_first(iou_threshold, 0)), F32(_first(score_threshold, 0))
    sigma = F32(_first(sigma, 0))
    n_batches, n_classes, n_boxes = scores.shape
    out = []
    for b in range(n_batches):
        corners = [_corner(boxes[b, i], encoding) for i in range(n_boxes)]
        for c in range(n_classes):
            left = list(range(n_boxes))                                  # B
            s = {i: F32(scores[b, c, i]) for i in left}                  # S
            chosen = []                                                  # D
            while left and len(chosen) < m:                              # step 3
                best = max(left, key=lambda i: (s[i], -i))              # step 4: highest, then lowest index
                left.remove(best)                                        # step 5
                if not s[best] >= score_thr:                             # step 6
                    break
                chosen.append((best, s[best]))
                for i in list(left):                                     # step 7
                    iou = _iou(corners[i], corners[best])
                    if sigma == 0:
                        weight = F32(1) if iou <= iou_thr else F32(0)
                    elif cut_soft and not iou <= iou_thr:
                        weight = F32(0)
                    else:
                        weight = F32(math.exp(F32(-0.5) / sigma * iou * iou))
                    if weight == 0:
                        left.remove(i)
                    else:
                        s[i] = F32(s[i] * weight)
            out += [(b, c, i, v) for i, v in chosen]
    if sort_descending:
        out = sorted(out, key=lambda t: -t[3])                           # stable: ties keep batch, class order
    return out


def _indices(sel, dtype):
    return np.array([t[:3] for t in sel], dtype).reshape(-1, 3)


def _padded(sel, rows, dtype):
    out = np.full((rows, 3), -1, dtype)
    got = _indices(sel, dtype)[:rows]
    out[:len(got)] = got
    return out


def nms_1(boxes, scores, max_output_boxes_per_class=None, iou_threshold=None, score_threshold=None, *,
          box_encoding, sort_result_descending):
    sel = nms_spec(boxes, scores, max_output_boxes_per_class, iou_threshold, score_threshold, None, box_encoding,
                   sort_result_descending)
    m = max(int(_first(max_output_boxes_per_class, 0)), 0)
    return [_padded(sel, min(scores.shape[2], m * scores.shape[1]), np.int64)]


def nms_3(boxes, scores, max_output_boxes_per_class=None, iou_threshold=None, score_threshold=None, *,
          box_encoding, sort_result_descending, output_type):
    sel = nms_spec(boxes, scores, max_output_boxes_per_class, iou_threshold, score_threshold, None, box_encoding,
                   sort_result_descending)
    m = max(int(_first(max_output_boxes_per_class, 0)), 0)
    return [_padded(sel, min(scores.shape[2], m * scores.shape[1]), np.dtype(output_type.replace("i", "int")))]


def nms_4(boxes, scores, max_output_boxes_per_class=None, iou_threshold=None, score_threshold=None, *,
          box_encoding, sort_result_descending, output_type):
    sel = nms_spec(boxes, scores, max_output_boxes_per_class, iou_threshold, score_threshold, None, box_encoding,
                   sort_result_descending)
    m = max(int(_first(max_output_boxes_per_class, 0)), 0)
    rows = min(scores.shape[2], m) * scores.shape[0] * scores.shape[1]
    return [_padded(sel, rows, np.dtype(output_type.replace("i", "int")))]


def _dynamic(sel, output_type):
    dtype = np.dtype(output_type.replace("i", "int"))
    scores = np.array([[t[0], t[1], t[3]] for t in sel], F32).reshape(-1, 3)
    return [_indices(sel, dtype), scores, np.array([len(sel)], dtype)]


def nms_5(boxes, scores, max_output_boxes_per_class=None, iou_threshold=None, score_threshold=None,
          soft_nms_sigma=None, *, box_encoding, sort_result_descending, output_type):
    return _dynamic(nms_spec(boxes, scores, max_output_boxes_per_class, iou_threshold, score_threshold,
                             soft_nms_sigma, box_encoding, sort_result_descending, cut_soft=True), output_type)


def nms_9(boxes, scores, max_output_boxes_per_class=None, iou_threshold=None, score_threshold=None,
          soft_nms_sigma=None, *, box_encoding, sort_result_descending, output_type):
    return _dynamic(nms_spec(boxes, scores, max_output_boxes_per_class, iou_threshold, score_threshold,
                             soft_nms_sigma, box_encoding, sort_result_descending), output_type)


def _rotated_polygon(box, clockwise):
    xc, yc, w, h, a = (float(v) for v in box)
    a = a if clockwise else -a
    c, s = math.cos(a), math.sin(a)
    return [(xc + dx * w * c - dy * h * s, yc + dx * w * s + dy * h * c)
            for dx, dy in ((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5))]


def _area(poly):
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]))) / 2


def _clip(subject, clipper):
    """Sutherland-Hodgman: the part of convex polygon `subject` inside convex polygon `clipper`."""
    orient = 1 if sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(clipper, clipper[1:] + clipper[:1])) > 0 else -1
    out = subject
    for (ax, ay), (bx, by) in zip(clipper, clipper[1:] + clipper[:1]):
        side = [orient * ((bx - ax) * (py - ay) - (by - ay) * (px - ax)) for px, py in out]
        nxt = []
        for k, (p, sp) in enumerate(zip(out, side)):
            q, sq = out[(k + 1) % len(out)], side[(k + 1) % len(out)]
            if sp >= 0:
                nxt.append(p)
            if (sp >= 0) != (sq >= 0):
                t = sp / (sp - sq)
                nxt.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
        out = nxt
        if not out:
            break
    return out


def nms_rotated_13(boxes, scores, max_output_boxes_per_class, iou_threshold, score_threshold, *,
                   sort_result_descending, output_type, clockwise):
    """The greedy loop of the spec with rotated_iou (intersection polygon by clipping)."""
    m = max(int(_first(max_output_boxes_per_class, 0)), 0)
    iou_thr, score_thr = F32(_first(iou_threshold, 0)), F32(_first(score_threshold, 0))
    n_batches, n_classes, n_boxes = scores.shape
    out = []
    for b in range(n_batches):
        polys = [_rotated_polygon(boxes[b, i], clockwise) for i in range(n_boxes)]

        def iou(i, j):
            inter = _area(_clip(polys[i], polys[j]))
            union = _area(polys[i]) + _area(polys[j]) - inter
            return F32(inter / union) if union > 0 else F32(0)
        for c in range(n_classes):
            left, s, chosen = list(range(n_boxes)), scores[b, c].astype(F32), []
            while left and len(chosen) < m:
                best = max(left, key=lambda i: (s[i], -i))
                left.remove(best)
                if not s[best] >= score_thr:
                    break
                chosen.append((best, s[best]))
                left = [i for i in left if iou(i, best) <= iou_thr]
            out += [(b, c, i, v) for i, v in chosen]
    if sort_result_descending:
        out = sorted(out, key=lambda t: -t[3])
    return _dynamic(out, output_type)


SPEC = {"NonMaxSuppression-1": nms_1, "NonMaxSuppression-3": nms_3, "NonMaxSuppression-4": nms_4,
        "NonMaxSuppression-5": nms_5, "NonMaxSuppression-9": nms_9, "NMSRotated-13": nms_rotated_13}
