"""Cases for the NMS ops (NonMaxSuppression-1/3/4/5/9): seeded random boxes and scores (continuous, or
drawn from a few levels so that many scores tie and the order rules decide), corner boxes given by
either diagonal, center boxes, every output type, f16/bf16 inputs, Soft-NMS; hand-made edges (empty
and zero-area boxes, identical boxes, thresholds exactly at a score or an IoU, max_output_boxes_per_class
0 and huge, missing optional inputs); error cases; shape cases on partial shapes with the count and the
thresholds as Const or Parameter.

Oracles. OpenVINO's CPU plugin selects as the spec says except at the thresholds' edges: it drops a
score equal to score_threshold and suppresses a box whose IoU equals iou_threshold (so iou_threshold 0
suppresses every box, overlapping or not), and NMS-5's Soft-NMS ignores iou_threshold. Those cases ask a
plain-loop transcription of the spec (tests/spec_nms.py, oracle "spec"). NonMaxSuppression-1/3/4 declare
an output padded with -1 to a static length, which the CPU plugin does not pad (oracle "openvino_padded":
its rows, padded). OpenVINO has no reference `evaluate` for these ops.
"""
from __future__ import annotations

import numpy as np

from ...shapes import Dimension, PartialShape
from . import Case, ShapeCase, info
from ._gen import loosen, rng_for

NMS_VERSIONS = ("NonMaxSuppression-1", "NonMaxSuppression-3", "NonMaxSuppression-4", "NonMaxSuppression-5",
                "NonMaxSuppression-9")
PADDED = ("NonMaxSuppression-1", "NonMaxSuppression-3", "NonMaxSuppression-4")
SOFT = ("NonMaxSuppression-5", "NonMaxSuppression-9")

SCORE_EDGE = ("a score equals score_threshold: the spec keeps it (step 6: 'greater or equal'), OpenVINO's CPU "
              "plugin drops it; asked a transcription of the spec")
IOU_EDGE = ("an IoU equals iou_threshold: the spec suppresses only IoU > threshold, OpenVINO's CPU plugin also at "
            "equality; asked a transcription of the spec")
IOU_ZERO = ("iou_threshold 0 (given, or by default): the spec suppresses boxes that overlap (IoU > 0), OpenVINO's "
            "CPU plugin every box (IoU >= 0), leaving one per class; asked a transcription of the spec")
SOFT_CUT = ("NMS-5 Soft-NMS zeroes the scores of boxes with IoU > iou_threshold (spec), OpenVINO's CPU plugin "
            "ignores iou_threshold in Soft-NMS; asked a transcription of the spec")
PAD_CPU = ("the spec pads selected_indices with -1 to its static length; OpenVINO's CPU plugin returns only the "
           "selected rows (compared padded)")
TWO_INPUTS_CPU = ("OpenVINO's CPU plugin fails to run the op with boxes and scores only ('Cannot get dims for non "
                  "static shape'); asked a transcription of the spec")
EMPTY_CPU = ("OpenVINO's CPU plugin returns an uninitialised valid_outputs when nothing can be selected (no boxes, "
             "or max_output_boxes_per_class 0); asked a transcription of the spec")
MAX_TYPES = ("i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8")


def _boxes(rng, b, n, encoding, flip=False, grid=False):
    """[b, n, 4] boxes on a 0..12 field; `grid`: coordinates on multiples of 1/8 (exact in f16 and bf16)."""
    c = rng.uniform(0, 10, (b, n, 2))
    wh = rng.uniform(0.25, 4, (b, n, 2))
    if grid:
        c, wh = np.round(c * 8) / 8, np.maximum(np.round(wh * 8) / 8, 0.125)
    if encoding == "center":                                          # [x_center, y_center, width, height]
        return np.concatenate([c + wh / 2, wh], -1).astype(np.float32)
    lo, hi = c, c + wh                                                # [y1, x1, y2, x2]
    box = np.concatenate([lo, hi], -1)
    if flip:                                                          # the other diagonal, or swapped corners
        pick = rng.integers(0, 3, (b, n))
        box = np.where((pick == 1)[..., None], np.concatenate([hi, lo], -1), box)
        box = np.where((pick == 2)[..., None], np.stack([lo[..., 0], hi[..., 1], hi[..., 0], lo[..., 1]], -1), box)
    return box.astype(np.float32)


def _scores(rng, b, c, n, tied):
    if tied:                                                          # a few levels: many equal scores
        return (rng.integers(0, 5, (b, c, n)) / 8 + 0.125).astype(np.float32)
    return rng.uniform(0, 1, (b, c, n)).astype(np.float32)


def _scalar(v, one_d=False):
    a = np.asarray(v, np.float32)
    return a.reshape(1) if one_d else a


def _count(m, et):
    return np.asarray(m).astype(np.dtype({"i64": "int64", "i32": "int32", "i16": "int16", "i8": "int8",
                                          "u64": "uint64", "u32": "uint32", "u16": "uint16", "u8": "uint8"}[et]))


def _with_type(x, et):
    if et == "f32":
        return x
    from ...types import element_type
    return x.astype(element_type(et).dtype)


def _attrs(op, rng, encoding=None, desc=None):
    a = {"box_encoding": encoding or "corner",
         "sort_result_descending": bool(rng.integers(0, 2)) if desc is None else desc}
    if op != "NonMaxSuppression-1":
        a["output_type"] = ("i32", "i64")[int(rng.integers(0, 2))]
    return a


def _case(op, id, inputs, attrs, why=()):
    """A value case routed to its oracle: the spec's transcription where the CPU plugin departs, the
    CPU plugin padded for the padded versions, the CPU plugin otherwise."""
    if why:
        return Case(op, id, tuple(inputs), attrs, openvino="; ".join(why), oracle="spec")
    if op in PADDED:
        return Case(op, id, tuple(inputs), attrs, openvino=PAD_CPU, oracle="openvino_padded")
    return Case(op, id, tuple(inputs), attrs)


def _random_cases(op):
    rng = rng_for(op)
    out = []
    for i in range(70):
        b, n, c = int(rng.integers(1, 4)), int(rng.integers(1, 25)), int(rng.integers(1, 5))
        encoding = "center" if i % 4 == 3 else "corner"
        et = ("f32", "f32", "f32", "f16", "bf16")[i % 5]
        tied = i % 2 == 1
        boxes = _boxes(rng, b, n, encoding, flip=i % 3 == 0, grid=et != "f32" or tied)
        scores = _scores(rng, b, c, n, tied or et != "f32")
        m = int(rng.integers(1, n + 3))
        iou = float(rng.choice([0.15, 0.3, 0.45, 0.55, 0.7, 0.9]))
        # off the score levels (k/8 + 1/8): thresholds never equal a score here
        score_thr = float(rng.choice([-0.2, 0.0625, 0.19, 0.3125, 0.44, 0.5625])) if tied or et != "f32" \
            else float(rng.uniform(-0.1, 0.6))
        inputs = [_with_type(boxes, et), _with_type(scores, et), _count(m, MAX_TYPES[i % len(MAX_TYPES)]),
                  _scalar(iou), _scalar(score_thr)]
        if op in SOFT and i % 3 == 1:
            sigma = float(rng.choice([0.1, 0.3, 0.5, 1.0]))
            inputs.append(_scalar(sigma))
            if op == "NonMaxSuppression-5":                          # no cut: the CPU plugin's answer is the
                inputs[3] = _scalar(1.0)                              # spec's (the cut: the edge cases)
        if op in SOFT and i % 7 == 2:                                 # 1-element 1-D scalars
            inputs[2:] = [x.reshape(1) for x in inputs[2:]]
        tag = f"rand{i}_{b}x{c}x{n}_{encoding}_{et}{'_tied' if tied else ''}"
        out.append(_case(op, tag, inputs, _attrs(op, rng, encoding)))
    return out


def _edge_cases(op):
    rng = rng_for(op, 1)
    f = np.float32
    out = []
    # IoU of [0,0,1,2] and [0,0,1,1] is exactly 0.5; [0,5,1,6] does not touch them
    geo = np.array([[[0, 0, 1, 2], [0, 0, 1, 1], [0, 5, 1, 6], [0, 5.5, 1, 6.5]]], f)
    sc = np.array([[[0.9, 0.8, 0.5, 0.4]]], f)
    m10 = np.int64(10)
    out.append(_case(op, "iou_equal_threshold", [geo, sc, m10, _scalar(0.5), _scalar(0.0)],
                     _attrs(op, rng), [IOU_EDGE]))
    out.append(_case(op, "iou_just_below", [geo, sc, m10, _scalar(np.nextafter(f(0.5), f(0))), _scalar(0.1)],
                     _attrs(op, rng)))
    out.append(_case(op, "iou_just_above", [geo, sc, m10, _scalar(np.nextafter(f(0.5), f(1))), _scalar(0.1)],
                     _attrs(op, rng)))
    out.append(_case(op, "score_equal_threshold", [geo, sc, m10, _scalar(0.45), _scalar(0.5)],
                     _attrs(op, rng), [SCORE_EDGE]))
    out.append(_case(op, "score_just_below", [geo, sc, m10, _scalar(0.45), _scalar(np.nextafter(f(0.5), f(0)))],
                     _attrs(op, rng)))
    out.append(_case(op, "iou_threshold_zero", [geo, sc, m10, _scalar(0.0), _scalar(0.1)],
                     _attrs(op, rng), [IOU_ZERO]))
    out.append(_case(op, "iou_threshold_one", [geo, sc, m10, _scalar(1.0), _scalar(0.1)], _attrs(op, rng)))
    out.append(_case(op, "iou_threshold_negative", [geo, sc, m10, _scalar(-0.5), _scalar(0.1)], _attrs(op, rng)))
    # identical boxes (IoU 1), all scores tied: selection and output order by box index
    same = np.tile(np.array([[[1, 1, 3, 3]]], f), (2, 6, 1))
    tie = np.full((2, 3, 6), 0.5, f)
    for desc in (True, False):
        out.append(_case(op, f"identical_tied_desc{int(desc)}", [same, tie, np.int64(4), _scalar(0.5), _scalar(0.1)],
                         _attrs(op, rng, desc=desc)))
        spread = _boxes(np.random.default_rng(7), 2, 6, "corner") * 3
        out.append(_case(op, f"disjoint_tied_desc{int(desc)}", [spread, tie, np.int64(6), _scalar(0.99),
                                                                 _scalar(0.1)], _attrs(op, rng, desc=desc)))
    # zero-area boxes (points, segments) never overlap anything
    flat = np.array([[[1, 1, 1, 1], [1, 1, 1, 3], [0, 0, 2, 2], [2, 0, 2, 4], [0, 0, 2, 2.5]]], f)
    out.append(_case(op, "zero_area", [flat, np.array([[[0.9, 0.8, 0.7, 0.6, 0.5]]], f), m10, _scalar(0.2),
                                       _scalar(0.0625)], _attrs(op, rng)))
    # no boxes; nothing above the threshold; max_output_boxes_per_class 0 and huge
    empty = [EMPTY_CPU] if op in SOFT else []
    out.append(_case(op, "no_boxes", [np.zeros((2, 0, 4), f), np.zeros((2, 3, 0), f), m10, _scalar(0.5),
                                      _scalar(0.1)], _attrs(op, rng), empty))
    out.append(_case(op, "all_below_threshold", [geo, sc, m10, _scalar(0.5), _scalar(0.95)], _attrs(op, rng)))
    out.append(_case(op, "max_boxes_zero", [geo, sc, np.int64(0), _scalar(0.5), _scalar(0.1)], _attrs(op, rng),
                     empty))
    out.append(_case(op, "max_boxes_one", [_boxes(rng, 3, 8, "corner"), _scores(rng, 3, 2, 8, False),
                                           np.int32(1), _scalar(0.5), _scalar(0.1)], _attrs(op, rng)))
    out.append(_case(op, "max_boxes_huge", [geo, sc, np.int64(1 << 40), _scalar(0.45), _scalar(0.1)],
                     _attrs(op, rng)))
    # negative scores and threshold
    out.append(_case(op, "negative_scores", [geo, -sc, m10, _scalar(0.45), _scalar(-0.85)], _attrs(op, rng)))
    # optional inputs left out: 2 inputs select nothing (max 0), 3 inputs have iou_threshold 0, 4 inputs
    # have score_threshold 0 (scores here are positive, none equals 0)
    out.append(_case(op, "two_inputs", [geo, sc], _attrs(op, rng), [TWO_INPUTS_CPU]))
    out.append(_case(op, "three_inputs", [geo, sc, m10], _attrs(op, rng), [IOU_ZERO]))
    out.append(_case(op, "four_inputs", [geo, sc, m10, _scalar(0.45)], _attrs(op, rng)))
    if op in SOFT:
        bx, s = _boxes(rng, 2, 12, "corner"), _scores(rng, 2, 2, 12, False)
        out.append(_case(op, "soft_five_inputs_sigma_default", [bx, s, np.int64(12), _scalar(0.5), _scalar(0.05)],
                         _attrs(op, rng)))
        for sigma in (0.05, 0.5, 2.0):
            cut = [SOFT_CUT] if op == "NonMaxSuppression-5" else []
            out.append(_case(op, f"soft_sigma{sigma}", [bx, s, np.int64(12), _scalar(0.3), _scalar(0.05),
                                                         _scalar(sigma)], _attrs(op, rng), cut))
            out.append(_case(op, f"soft_sigma{sigma}_no_cut", [bx, s, np.int64(12), _scalar(1.0), _scalar(0.05),
                                                                _scalar(sigma)], _attrs(op, rng)))
        out.append(_case(op, "soft_tied_identical", [same, tie, np.int64(4), _scalar(1.0), _scalar(0.1),
                                                     _scalar(0.5)], _attrs(op, rng)))
        out.append(_case(op, "soft_sigma_negative", [bx, s, np.int64(5), _scalar(0.5), _scalar(0.05),
                                                     _scalar(-1.0)], _attrs(op, rng)))
    return out


def _error_cases(op):
    f = np.float32
    b, s = np.zeros((1, 3, 4), f), np.zeros((1, 2, 3), f)
    m, t = np.int64(2), _scalar(0.5)
    base = {"box_encoding": "corner"}
    ov_accepts = "OpenVINO's shape inference of NonMaxSuppression-1/3/4 checks no element types"
    errs = [
        ("boxes_rank2", [b[0], s, m, t, t], {}, "input 'boxes' must be 3-D", None),
        ("scores_rank4", [b, s[None], m, t, t], {}, "input 'scores' must be 3-D", None),
        ("boxes_last_dim5", [np.zeros((1, 3, 5), f), s, m, t, t], {}, "the last dimension of 'boxes' must be 4", None),
        ("batch_mismatch", [np.zeros((2, 3, 4), f), s, m, t, t], {}, "must have the same num_batches", None),
        ("num_boxes_mismatch", [np.zeros((1, 4, 4), f), s, m, t, t], {}, "num_boxes must agree", None),
        ("max_boxes_2d", [b, s, np.zeros((1, 1), np.int64), t, t], {}, "input 'max_output_boxes_per_class' must be",
         None),
        ("iou_two_elements", [b, s, m, np.zeros(2, f), t], {}, "input 'iou_threshold' must be", None),
        ("score_threshold_two_elements", [b, s, m, t, np.zeros(2, f)], {}, "input 'score_threshold' must be", None),
        ("bad_box_encoding", [b, s, m, t, t], {"box_encoding": "corners"}, "attribute 'box_encoding'", None),
        ("boxes_i32", [b.astype(np.int32), s.astype(np.int32), m, t, t], {}, "input 'boxes' has element type i32",
         ov_accepts if op in PADDED else None),
        ("scores_type_differs", [b, s.astype(np.float16), m, t, t], {}, "input 'scores' has element type f16",
         "OpenVINO lets boxes and scores differ in type; the spec gives both type T"),
        ("max_boxes_float", [b, s, np.float32(2), t, t], {}, "input 'max_output_boxes_per_class' has element type f32",
         "the spec says T_MAX_BOXES is an integer type; OpenVINO converts any type"),
        ("one_input", [b], {}, "expected 2 to", None),
        ("too_many_inputs", [b, s, m, t, t, t, t], {}, "input(s)", None),
    ]
    if op in PADDED:
        errs.append(("max_boxes_1d", [b, s, np.zeros(1, np.int64), t, t], {},
                     "input 'max_output_boxes_per_class' must be a scalar", None))
        errs.append(("iou_i32", [b, s, m, np.int32(0), np.int32(0)], {}, "input 'iou_threshold' has element type i32",
                     ov_accepts))
    else:
        errs.append(("sigma_two_elements", [b, s, m, t, t, np.zeros(2, f)], {}, "input 'soft_nms_sigma' must be",
                     None))
        errs.append(("iou_i32", [b, s, m, np.int32(0), np.int32(0)], {}, "input 'iou_threshold' has element type i32",
                     None))
    if op != "NonMaxSuppression-1":
        errs.append(("output_type_f32", [b, s, m, t, t], {"output_type": "f32"}, "attribute 'output_type'", None))
    return [Case(op, f"error_{id}", tuple(x), {**base, **a}, error=e, openvino=why) for id, x, a, e, why in errs]


# --- NMSRotated-13 ---------------------------------------------------------------------------------------
ROT = "NMSRotated-13"


def _rotated(rng, b, n, grid=False):
    """[b, n, 5] boxes [x_center, y_center, width, height, angle (radians)]."""
    c, wh = rng.uniform(0, 8, (b, n, 2)), rng.uniform(0.5, 4, (b, n, 2))
    a = rng.uniform(-3.2, 3.2, (b, n, 1))
    if grid:
        c, wh, a = np.round(c * 8) / 8, np.maximum(np.round(wh * 8) / 8, 0.5), np.round(a * 8) / 8
    return np.concatenate([c, wh, a], -1).astype(np.float32)


def _rot_attrs(rng, desc=None):
    return {"sort_result_descending": bool(rng.integers(0, 2)) if desc is None else desc,
            "output_type": ("i32", "i64")[int(rng.integers(0, 2))], "clockwise": bool(rng.integers(0, 2))}


def _rotated_cases():
    rng = rng_for(ROT)
    f = np.float32
    out = []
    for i in range(70):
        b, n, c = int(rng.integers(1, 3)), int(rng.integers(1, 16)), int(rng.integers(1, 4))
        et = ("f32", "f32", "f32", "f16", "bf16")[i % 5]
        tied = i % 2 == 1
        boxes = _rotated(rng, b, n, grid=et != "f32")
        scores = _scores(rng, b, c, n, tied or et != "f32")
        score_thr = float(rng.choice([-0.2, 0.0625, 0.19, 0.3125, 0.44]))
        inputs = [_with_type(boxes, et), _with_type(scores, et), _count(int(rng.integers(1, n + 3)),
                                                                        MAX_TYPES[i % len(MAX_TYPES)]),
                  _scalar(float(rng.choice([0.1, 0.25, 0.4, 0.6, 0.8]))), _scalar(score_thr)]
        if i % 7 == 2:
            inputs[2:] = [x.reshape(1) for x in inputs[2:]]
        out.append(Case(ROT, f"rand{i}_{b}x{c}x{n}_{et}{'_tied' if tied else ''}", tuple(inputs), _rot_attrs(rng)))
    # axis-aligned boxes: IoU of [0.5, 1, 1, 2, 0] and [0.5, 0.5, 1, 1, 0] is exactly 0.5
    geo = np.array([[[0.5, 1, 1, 2, 0], [0.5, 0.5, 1, 1, 0], [5.5, 0.5, 1, 1, 0], [6, 0.5, 1, 1, 0]]], f)
    sc = np.array([[[0.9, 0.8, 0.5, 0.4]]], f)
    m10 = np.int64(10)
    edges = [
        ("iou_equal_threshold", [geo, sc, m10, _scalar(0.5), _scalar(0.0)], None),
        ("iou_just_above", [geo, sc, m10, _scalar(np.nextafter(f(0.5), f(1))), _scalar(0.0)], None),
        ("iou_just_below", [geo, sc, m10, _scalar(np.nextafter(f(0.5), f(0))), _scalar(0.0)], None),
        ("score_equal_threshold", [geo, sc, m10, _scalar(0.45), _scalar(0.5)], SCORE_EDGE),
        ("score_just_below", [geo, sc, m10, _scalar(0.45), _scalar(np.nextafter(f(0.5), f(0)))], None),
        ("iou_threshold_one", [geo, sc, m10, _scalar(1.0), _scalar(0.0)], None),
        ("all_below_threshold", [geo, sc, m10, _scalar(0.5), _scalar(0.95)], None),
        ("max_boxes_zero", [geo, sc, np.int64(0), _scalar(0.5), _scalar(0.1)], EMPTY_CPU),
        ("no_boxes", [np.zeros((2, 0, 5), f), np.zeros((2, 3, 0), f), m10, _scalar(0.5), _scalar(0.1)], EMPTY_CPU),
        ("max_boxes_huge", [geo, sc, np.int64(1 << 40), _scalar(0.45), _scalar(0.1)], None),
        ("negative_scores", [geo, -sc, m10, _scalar(0.45), _scalar(-0.85)], None),
        # a square turned by 90 degrees is the same square; by 45 degrees it overlaps by 2(sqrt 2 - 1)/(...)
        ("quarter_turns", [np.array([[[2, 2, 2, 2, 0], [2, 2, 2, 2, np.pi / 2], [2, 2, 2, 2, np.pi / 4],
                                       [2, 2, 2, 2, np.pi]]], f), np.array([[[0.9, 0.8, 0.7, 0.6]]], f), m10,
                           _scalar(0.9), _scalar(0.0)], None),
        ("crossed_bars", [np.array([[[3, 3, 4, 1, 0], [3, 3, 4, 1, 1.5707964], [3, 3, 4, 1, 0.7853982]]], f),
                          np.array([[[0.9, 0.8, 0.7]]], f), m10, _scalar(0.2), _scalar(0.0)], None),
    ]
    # zero-size boxes (no area) overlap nothing
    flat = np.array([[[1, 1, 0, 2, 0.4], [1, 1, 2, 0, 0], [1, 1, 2, 2, 0], [1, 1, 0, 0, 1]]], f)
    edges.append(("zero_area", [flat, np.array([[[0.9, 0.8, 0.7, 0.6]]], f), m10, _scalar(0.1), _scalar(0.0)], None))
    for cw in (True, False):      # bars turned 45 degrees, centers offset along y = x: in line (overlapping)
        bars = np.array([[[2, 2, 4, 0.5, np.pi / 4], [3, 3, 4, 0.5, np.pi / 4]]], f)   # or side by side
        edges.append((f"turn_direction_cw{int(cw)}", [bars, np.array([[[0.9, 0.8]]], f), m10, _scalar(0.1),
                                                       _scalar(0.0)], None))
    same = np.tile(np.array([[[1, 1, 2, 1, 0.3]]], f), (2, 6, 1))
    tie = np.full((2, 3, 6), 0.5, f)
    for desc in (True, False):
        edges.append((f"identical_tied_desc{int(desc)}", [same, tie, np.int64(4), _scalar(0.5), _scalar(0.1)], None))
    for id, inputs, why in edges:
        attrs = _rot_attrs(rng)
        if id.startswith("turn_direction"):
            attrs["clockwise"] = id.endswith("1")
        if why:
            out.append(Case(ROT, id, tuple(inputs), attrs, openvino=why, oracle="spec"))
        else:
            out.append(Case(ROT, id, tuple(inputs), attrs))
    b, sco, m, t = np.zeros((1, 3, 5), f), np.zeros((1, 2, 3), f), np.int64(2), _scalar(0.5)
    errs = [
        ("boxes_rank2", [b[0], sco, m, t, t], {}, "input 'boxes' must be 3-D"),
        ("scores_rank2", [b, sco[0], m, t, t], {}, "input 'scores' must be 3-D"),
        ("boxes_last_dim4", [np.zeros((1, 3, 4), f), sco, m, t, t], {}, "the last dimension of 'boxes' must be 5"),
        ("batch_mismatch", [np.zeros((2, 3, 5), f), sco, m, t, t], {}, "must have the same num_batches"),
        ("num_boxes_mismatch", [np.zeros((1, 4, 5), f), sco, m, t, t], {}, "num_boxes must agree"),
        ("max_boxes_2d", [b, sco, np.zeros((1, 1), np.int64), t, t], {}, "input 'max_output_boxes_per_class' must be"),
        ("max_boxes_two_elements", [b, sco, np.zeros(2, np.int64), t, t], {},
         "input 'max_output_boxes_per_class' must be"),
        ("iou_two_elements", [b, sco, m, np.zeros(2, f), t], {}, "input 'iou_threshold' must be"),
        ("score_threshold_2d", [b, sco, m, t, np.zeros((1, 1), f)], {}, "input 'score_threshold' must be"),
        ("output_type_f32", [b, sco, m, t, t], {"output_type": "f32"}, "attribute 'output_type'"),
        ("boxes_i32", [b.astype(np.int32), sco.astype(np.int32), m, t, t], {}, "input 'boxes' has element type i32"),
        ("three_inputs", [b, sco, m], {}, "expected 5 input(s)"),
        ("six_inputs", [b, sco, m, t, t, t], {}, "expected 5 input(s)"),
        ("iou_i32", [b, sco, m, np.int32(0), t], {}, "input 'iou_threshold' has element type i32"),
    ]
    why = {"boxes_i32": None}
    out += [Case(ROT, f"error_{id}", tuple(x), a, error=e, openvino=why.get(id)) for id, x, a, e in errs]
    return out


def _rotated_shape_cases():
    rng = rng_for(ROT, 2)
    out = []
    for i in range(45):
        b, n, c = int(rng.integers(1, 4)), int(rng.integers(0, 12)), int(rng.integers(1, 4))
        bs = loosen(rng, [b, n, 5]) if i % 5 else PartialShape.dynamic()
        ss = loosen(rng, [b, c, n]) if i % 7 else PartialShape.dynamic()
        m = int(rng.choice([0, 1, 3, 7, 20, -1, -3, 1 << 33]))
        shape_1 = [1] if i % 3 == 0 else []
        et = MAX_TYPES[i % len(MAX_TYPES)]
        mv = m if m >= 0 or et.startswith("i") else 3
        ins = [info("f32", bs), info("f32", ss),
               info(et, shape_1, _count(np.full(shape_1, mv), et) if i % 4 != 1 else None)]
        ins += [info("f32", shape_1, _scalar(0.5, one_d=bool(shape_1)) if (i + j) % 2 else None) for j in (1, 2)]
        out.append(ShapeCase(ROT, f"shape{i}", tuple(ins), {"output_type": ("i32", "i64")[i % 2]}))
    for id, bs, ss in [("last_dim_4", [1, 10, 4], [1, 2, 10]), ("boxes_mismatch", [1, 9, 5], [1, 2, 10]),
                       ("batch_mismatch", [2, 10, 5], [1, 2, 10]), ("f16", [2, 10, 5], [2, 3, 10])]:
        et = "f16" if id == "f16" else "f32"
        out.append(ShapeCase(ROT, f"hand_{id}", (info(et, bs), info(et, ss), info("i64", [], np.int64(3)),
                                                 info("f32", []), info("f32", [])), {}))
    return out


def cases():
    out = []
    for op in NMS_VERSIONS:
        out += _random_cases(op) + _edge_cases(op) + _error_cases(op)
    return out + _rotated_cases()


# --- shape cases -----------------------------------------------------------------------------------------
def _shape_cases(op):
    rng = rng_for(op, 2)
    out = []
    soft = op in SOFT
    scalars = 4 if soft else 3
    for i in range(45):
        b, n, c = int(rng.integers(1, 4)), int(rng.integers(0, 12)), int(rng.integers(1, 4))
        bs = loosen(rng, [b, n, 4]) if i % 5 else PartialShape.dynamic()
        ss = loosen(rng, [b, c, n]) if i % 7 else PartialShape.dynamic()
        m = int(rng.choice([0, 1, 3, 7, 20, -1, -3, 1 << 33]))
        ins = [info("f32", bs), info("f32", ss)]
        k = int(rng.integers(0, scalars + 1))             # how many optional inputs are given
        one_d = soft and i % 3 == 0
        shape_1 = [1] if one_d else []
        if k >= 1:
            known = i % 4 != 1                                 # max boxes as Const (value known) or Parameter
            et = MAX_TYPES[i % len(MAX_TYPES)]
            mv = m if m >= 0 or et.startswith("i") else 3
            ins.append(info(et, shape_1, _count(np.full(shape_1, mv), et) if known else None))
        for j in range(1, k):                                  # thresholds: Const or Parameter
            v = _scalar(0.5, one_d=one_d) if (i + j) % 2 else None
            ins.append(info("f32", shape_1, v))
        attrs = {} if op == "NonMaxSuppression-1" else {"output_type": ("i32", "i64")[i % 2]}
        out.append(ShapeCase(op, f"shape{i}", tuple(ins), attrs))
    # hand-made: the dims the rules read (OpenVINO's, see opset/detection_nms.py)
    d = Dimension
    hand = [
        ("static", [2, 10, 4], [2, 3, 10], 3),
        ("static_large_max", [2, 10, 4], [2, 3, 10], 50),
        ("batch_interval", [2, 10, 4], [(1, 4), 3, 10], 3),
        ("class_interval", [2, 10, 4], [2, (2, 3), 10], 3),
        ("class_dynamic_max0", [2, 10, 4], [2, -1, 10], 0),
        ("boxes_interval", [1, (2, 6), 4], [1, 2, (3, 8)], 3),
        ("boxes_interval_unbounded", [1, (5, None), 4], [1, 2, -1], 3),
        ("scores_dynamic_rank", [1, 10, 4], None, 3),
        ("scores_dynamic_rank_max0", [1, 10, 4], None, 0),
        ("boxes_dynamic_rank", None, [1, 2, 10], 3),
        ("batch_unbounded", [1, 10, 4], [-1, 2, 10], 3),
        ("batch_only_in_boxes", [(2, 3), 10, 4], [-1, 2, 10], 3),
        ("negative_max", [1, 10, 4], [1, 2, 10], -5),
        ("minus_one_max", [1, 10, 4], [1, 2, 10], -1),
        ("num_boxes_mismatch", [1, (2, 6), 4], [1, 2, 10], 3),
        ("num_boxes_disjoint", [1, (0, 6), 4], [1, 2, (7, None)], 3),
        ("batch_mismatch", [2, 10, 4], [3, 2, 10], 3),
        ("last_dim_3", [1, 10, 3], [1, 2, 10], 3),
        ("last_dim_interval", [1, 10, (3, 5)], [1, 2, 10], 3),
        ("boxes_rank4", [1, 10, 4, 1], [1, 2, 10], 3),
    ]
    for id, bs, ss, m in hand:
        bs = PartialShape.dynamic() if bs is None else PartialShape([d.of(x) if not isinstance(x, tuple) else
                                                                     d(x[0], x[1]) for x in bs])
        ss = PartialShape.dynamic() if ss is None else PartialShape([d.of(x) if not isinstance(x, tuple) else
                                                                     d(x[0], x[1]) for x in ss])
        ins = (info("f32", bs), info("f32", ss), info("i64", [], np.int64(m)), info("f32", []), info("f32", []))
        out.append(ShapeCase(op, f"hand_{id}", ins, {}))
    out.append(ShapeCase(op, "hand_max_unknown", (info("f32", [1, 10, 4]), info("f32", [1, 2, 10]),
                                                  info("i32", [])), {}))
    out.append(ShapeCase(op, "hand_two_inputs", (info("f32", [1, 10, 4]), info("f32", [1, 2, 10])), {}))
    out.append(ShapeCase(op, "hand_max_1d", (info("f32", [1, 10, 4]), info("f32", [1, 2, 10]),
                                             info("i64", [1], np.array([4], np.int64))), {}))
    out.append(ShapeCase(op, "hand_max_1d_dynamic", (info("f32", [1, 10, 4]), info("f32", [1, 2, 10]),
                                                     info("i64", [-1])), {}))
    out.append(ShapeCase(op, "hand_f16_bf16", (info("f16", [1, 10, 4]), info("f16", [1, 2, 10]),
                                               info("u8", [], np.uint8(3)), info("bf16", []), info("bf16", [])), {}))
    return out


def shape_cases():
    out = []
    for op in NMS_VERSIONS:
        out += _shape_cases(op)
    return out + _rotated_shape_cases()
