"""Cases for the multi-class NMS ops (MatrixNms-8, MulticlassNms-8/9): seeded random boxes and scores
(continuous, or drawn from a few levels so that scores tie and the order rules decide), every sort
type with and without sorting across batches, nms_top_k / keep_top_k / background_class / normalized,
adaptive NMS (nms_eta), both decay functions; f16 and bf16 inputs; MulticlassNms-9's roisnum form;
hand-made edges (thresholds exactly at a score or an IoU, empty inputs, zero-area boxes); error cases;
shape cases on partial shapes.

Oracles. OpenVINO's CPU plugin, except:
- MulticlassNms suppresses a box whose IoU equals the threshold (the spec: only IoU > threshold), so
  iou_threshold 0 also suppresses disjoint boxes;
- MatrixNms with sort_result_type classid and not across batches orders each batch by score (at least
  where keep_top_k cuts; the spec: by class); and it fails ("Total number of boxes is less or equal than
  0") when nothing is selected; MulticlassNms may leave selected_num uninitialised then;
- MatrixNms orders tied candidates (equal scores) and cuts ties at keep_top_k in an unspecified way: its
  cases draw continuous scores; MulticlassNms cuts ties at keep_top_k in an unspecified way: tied
  cases keep every box.
Those cases ask a plain-loop transcription of the spec (tests/spec_multiclass.py, oracle "spec").
OpenVINO has no reference `evaluate` for these ops with dynamic outputs.
"""
from __future__ import annotations

import ml_dtypes
import numpy as np

from ...shapes import Dimension, PartialShape
from . import Case, ShapeCase, info
from ._gen import loosen, rng_for

MATRIX = "MatrixNms-8"
MC = ("MulticlassNms-8", "MulticlassNms-9")

IOU_EDGE = ("an IoU equals iou_threshold: the spec suppresses only IoU > threshold (step 8), OpenVINO's CPU plugin "
            "also at equality; asked a transcription of the spec")
IOU_ZERO = ("iou_threshold 0: the spec suppresses overlapping boxes (IoU > 0), OpenVINO's CPU plugin every box "
            "(IoU >= 0), leaving one per class; asked a transcription of the spec")
ETA_ZERO = ("nms_eta 0 makes the IoU threshold 0 after the first kept box: the spec then suppresses overlapping "
            "boxes (IoU > 0), OpenVINO's CPU plugin every box; asked a transcription of the spec")
CLASS_SORT = ("sort_result_type classid without sort_result_across_batch: the spec orders each batch by class id, "
              "OpenVINO's CPU plugin by score; asked a transcription of the spec")
NOTHING = ("nothing is selected: the spec gives empty outputs and zero counts, OpenVINO's CPU plugin may leave "
           "selected_num uninitialised; asked a transcription of the spec")
BF16_MATRIX = ("bf16 boxes and scores: OpenVINO's CPU plugin rejects them on AVX-512 machines ('unsupported 'boxes' "
               "input precision: bf16') and converts them to f32 on AVX2 ones; asked with both widened (losslessly) to f32")
NOTHING_MATRIX = ("nothing is selected: the spec gives empty outputs and zero counts, OpenVINO's CPU plugin fails "
                  "('Total number of boxes is less or equal than 0'); asked a transcription of the spec")


def _boxes(rng, b, n, grid=False):
    """[b, n, 4] boxes [xmin, ymin, xmax, ymax] on a 0..14 field; `grid`: on multiples of 1/4."""
    xy = rng.uniform(0, 10, (b, n, 2))
    wh = rng.uniform(0.5, 4, (b, n, 2))
    if grid:
        xy, wh = np.round(xy * 4) / 4, np.maximum(np.round(wh * 4) / 4, 0.25)
    return np.concatenate([xy, xy + wh], -1).astype(np.float32)


def _scores(rng, shape, tied):
    if tied:                                               # a few levels: many equal scores
        return (rng.integers(0, 5, shape) / 8 + 0.0625).astype(np.float32)
    return rng.uniform(0, 1, shape).astype(np.float32)


def _with_type(x, et):
    if et == "f32":
        return x
    from ...types import element_type
    return x.astype(element_type(et).dtype)


def _attrs(op, rng, tied=False):
    a = {"sort_result_type": str(rng.choice(["classid", "score", "none"])),
         "sort_result_across_batch": bool(rng.integers(0, 2)),
         "output_type": str(rng.choice(["i32", "i64"])),
         "score_threshold": float(rng.choice([0.0, 0.2, 0.35, 0.5])),
         "nms_top_k": int(rng.choice([-1, -1, 1, 2, 5])),
         "keep_top_k": -1 if tied else int(rng.choice([-1, -1, 1, 3, 7])),
         "background_class": int(rng.choice([-1, -1, 0, 1, 5])),
         "normalized": bool(rng.integers(0, 2))}
    if op == MATRIX:
        a.update(decay_function=str(rng.choice(["gaussian", "linear"])),
                 gaussian_sigma=float(rng.choice([0.5, 2.0, 4.0])), post_threshold=float(rng.choice([0.0, 0.1, 0.3])))
    else:
        # thresholds no IoU of boxes on the 1/4 grid equals (in f32)
        a.update(iou_threshold=float(rng.choice([0.1517, 0.3301, 0.4621, 0.6173, 0.7919])),
                 nms_eta=float(rng.choice([1.0, 1.0, 0.9, 0.5])))
    return a


def _selects_something(op, inputs, attrs):
    import opref
    return int(opref.run_op(op, inputs, attrs)[2].sum()) > 0


def _case(op, id, inputs, attrs, why=()):
    why = list(why)
    if op == MATRIX and attrs.get("sort_result_type") == "classid" and not attrs.get("sort_result_across_batch"):
        why.append(CLASS_SORT)
    if not _selects_something(op, inputs, attrs):
        why.append(NOTHING_MATRIX if op == MATRIX else NOTHING)
    if why:
        return Case(op, id, tuple(inputs), attrs, openvino="; ".join(why), oracle="spec")
    if op == MATRIX and inputs[0].dtype == ml_dtypes.bfloat16:
        return Case(op, id, tuple(inputs), attrs, openvino=BF16_MATRIX, oracle_cast={0: "f32", 1: "f32"})
    return Case(op, id, tuple(inputs), attrs)


def _random_cases(op):
    rng = rng_for(op)
    out = []
    for i in range(60):
        b, n, c = int(rng.integers(1, 4)), int(rng.integers(1, 13)), int(rng.integers(1, 4))
        et = ("f32", "f32", "f32", "f16", "bf16")[i % 5]
        tied = op != MATRIX and i % 2 == 1 and et == "f32"   # MatrixNms orders tied candidates unspecifiedly
        boxes = _boxes(rng, b, n, grid=tied or et != "f32")
        scores = _scores(rng, (b, c, n), tied)
        if et != "f32":     # distinct scores, still distinct once rounded to f16 / bf16
            scores = (rng.permutation(b * c * n).reshape(b, c, n) / (b * c * n) * 0.9 + 0.05).astype(np.float32)
            scores = _with_type(scores, et).astype(np.float32)
        attrs = _attrs(op, rng, tied or et != "f32")
        inputs = [_with_type(boxes, et), _with_type(scores, et)]
        out.append(_case(op, f"rand{i}_{b}x{c}x{n}_{et}{'_tied' if tied else ''}", inputs, attrs))
    return out


def _roisnum_cases():
    op = "MulticlassNms-9"
    rng = rng_for(op, 3)
    out = []
    for i in range(24):
        c, n_b = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        counts = rng.integers(0, 6, n_b)
        m = int(counts.sum()) + int(rng.integers(0, 3)) if i % 4 else int(counts.sum())   # spare boxes at the end
        boxes = _boxes(rng, c, m, grid=i % 2 == 1)
        tied = i % 2 == 1
        scores = _scores(rng, (c, m), tied)
        attrs = _attrs(op, rng, tied)
        rois = counts.astype(np.int32 if i % 3 else np.int64)
        out.append(_case(op, f"roisnum{i}_{c}x{m}_{'-'.join(map(str, counts))}", [boxes, scores, rois], attrs))
    return out


def _edge_cases(op):
    rng = rng_for(op, 1)
    f = np.float32
    out = []
    mc = op != MATRIX
    # [0,0,2,1] and [0,0,1,1] have IoU 0.5; [5,5,6,6] and [5.5,5,6.5,6] touch neither
    geo = np.array([[[0, 0, 2, 1], [0, 0, 1, 1], [5, 5, 6, 6], [5.5, 5, 6.5, 6]]], f)
    sc = np.array([[[0.9, 0.8, 0.5, 0.4], [0.3, 0.7, 0.6, 0.2]]], f)
    base = {"sort_result_type": "score", **({"iou_threshold": 0.45} if mc else {})}
    if mc:
        out.append(_case(op, "iou_equal_threshold", [geo, sc], {**base, "iou_threshold": 0.5}, [IOU_EDGE]))
        out.append(_case(op, "iou_just_above", [geo, sc], {**base, "iou_threshold": float(np.nextafter(f(0.5), f(1)))}))
        out.append(_case(op, "iou_just_below", [geo, sc], {**base, "iou_threshold": float(np.nextafter(f(0.5), f(0)))}))
        out.append(_case(op, "iou_threshold_zero", [geo, sc], {**base, "iou_threshold": 0.0}, [IOU_ZERO]))
        out.append(_case(op, "iou_threshold_one", [geo, sc], {**base, "iou_threshold": 1.0}))
        out.append(_case(op, "score_equal_threshold", [geo, sc], {**base, "iou_threshold": 0.3,
                                                                   "score_threshold": 0.5}))
        out.append(_case(op, "eta_adaptive", [np.array([[[0, 0, 1, 1], [5, 5, 6, 6], [0, 0, 2, 1], [0, 0, 1.2, 1]]], f),
                                              np.array([[[0.9, 0.8, 0.7, 0.6]]], f)],
                         {**base, "iou_threshold": 0.9, "nms_eta": 0.6}))
        out.append(_case(op, "eta_zero", [geo, sc], {**base, "iou_threshold": 0.6, "nms_eta": 0.0}, [ETA_ZERO]))
        out.append(_case(op, "pixel_boxes_gap", [np.array([[[0, 0, 2, 2], [2.5, 0, 4.5, 2], [10, 10, 12, 12]]], f),
                                                 np.array([[[0.9, 0.8, 0.7]]], f)],
                         {**base, "iou_threshold": 0.1, "normalized": False}))
    else:
        out.append(_case(op, "score_equal_threshold", [geo, sc], {**base, "score_threshold": 0.5}))
        out.append(_case(op, "post_equal_threshold", [geo, sc], {**base, "post_threshold": 0.5}))
        out.append(_case(op, "post_just_below", [geo, sc],
                         {**base, "post_threshold": float(np.nextafter(f(0.5), f(0)))}))
        for d in ("gaussian", "linear"):
            out.append(_case(op, f"decay_{d}", [geo, sc], {**base, "decay_function": d, "gaussian_sigma": 1.5}))
            out.append(_case(op, f"decay_{d}_pixels", [geo * 3, sc],
                             {**base, "decay_function": d, "normalized": False}))
        out.append(_case(op, "classid_across", [np.tile(geo, (2, 1, 1)), np.tile(sc, (2, 1, 1)) * f(0.9)],
                         {"sort_result_type": "classid", "sort_result_across_batch": True}))
        out.append(_case(op, "classid_per_batch", [np.tile(geo, (2, 1, 1)), np.tile(sc, (2, 1, 1)) * f(0.9)],
                         {"sort_result_type": "classid"}))
        out.append(_case(op, "post_threshold_high", [geo, sc], {**base, "post_threshold": 0.95}))
        same3 = np.tile(np.array([[[1, 1, 3, 3]]], f), (1, 3, 1))
        for post in (0.0, -1.0):      # linear decay of identical boxes: 0 / 0 against the second
            out.append(_case(op, f"identical_linear_post{post}", [same3, np.array([[[0.9, 0.7, 0.5]]], f)],
                             {**base, "post_threshold": post}))
    # identical boxes, one class per batch: the best survives (Multiclass), scores decay to 0 (Matrix)
    same = np.tile(np.array([[[1, 1, 3, 3]]], f), (2, 4, 1))
    out.append(_case(op, "identical_boxes", [same, np.array([[[0.9, 0.7, 0.5, 0.3]], [[0.2, 0.4, 0.6, 0.8]]], f)],
                     {**base, **({"iou_threshold": 0.5} if mc else {"decay_function": "gaussian"})}))
    # zero-area boxes (points, segments) overlap nothing (normalized)
    flat = np.array([[[1, 1, 1, 1], [1, 1, 3, 1], [0, 0, 2, 2], [0, 2, 4, 2]]], f)
    out.append(_case(op, "zero_area", [flat, np.array([[[0.9, 0.8, 0.7, 0.6]]], f)],
                     {**base, **({"iou_threshold": 0.2} if mc else {})}))
    # every class the background; no boxes; nothing above the score threshold; keep_top_k 0; nms_top_k 0
    out.append(_case(op, "only_background", [geo, sc[:, :1]], {**base, "background_class": 0}))
    out.append(_case(op, "background_out_of_range", [geo, sc], {**base, "background_class": 7}))
    out.append(_case(op, "no_boxes", [np.zeros((2, 0, 4), f), np.zeros((2, 3, 0), f)], base))
    out.append(_case(op, "all_below_threshold", [geo, sc], {**base, "score_threshold": 0.95}))
    out.append(_case(op, "keep_top_k_zero", [geo, sc], {**base, "keep_top_k": 0}))
    out.append(_case(op, "nms_top_k_zero", [geo, sc], {**base, "nms_top_k": 0}))
    out.append(_case(op, "negative_scores", [geo, -sc], {**base, "score_threshold": -0.85}))
    for t in ("classid", "score", "none"):
        for across in (False, True):
            bx = _boxes(np.random.default_rng(5), 3, 6)
            s = _scores(np.random.default_rng(6), (3, 3, 6), False)
            out.append(_case(op, f"sort_{t}_across{int(across)}", [bx, s],
                             {"sort_result_type": t, "sort_result_across_batch": across, "keep_top_k": 4,
                              **({"iou_threshold": 0.4} if mc else {})}))
    if op == "MulticlassNms-9":
        bx, s = _boxes(rng, 2, 6)[:, :, :], _scores(rng, (2, 6), False)
        for rois in ([6], [0, 6], [6, 0], [2, 2, 2], [1, 1], [0, 0]):
            out.append(_case(op, f"roisnum_{'_'.join(map(str, rois))}", [bx, s, np.array(rois, np.int32)],
                             {"sort_result_type": "classid", "iou_threshold": 0.5}))
        out.append(_case(op, "roisnum_score_across", [bx, s, np.array([3, 3], np.int64)],
                         {"sort_result_type": "score", "sort_result_across_batch": True, "keep_top_k": 3,
                          "iou_threshold": 0.45}))
    return out


def _error_cases(op):
    f = np.float32
    b, s = np.zeros((1, 3, 4), f), np.zeros((1, 2, 3), f)
    errs = [
        ("boxes_rank2", [b[0], s], {}, "input 'boxes' must be 3-D", None),
        ("scores_rank2", [b, s[0]], {}, "input 'scores' must be 3-D", None),
        ("boxes_last_dim5", [np.zeros((1, 3, 5), f), s], {}, "the last dimension of 'boxes' must be 4", None),
        ("batch_mismatch", [np.zeros((2, 3, 4), f), s], {}, "must have the same num_batches", None),
        ("num_boxes_mismatch", [np.zeros((1, 4, 4), f), s], {}, "num_boxes must agree", None),
        ("boxes_f64", [b.astype(np.float64), s.astype(np.float64)], {}, "input 'boxes' has element type f64", None),
        ("boxes_i32", [b.astype(np.int32), s.astype(np.int32)], {}, "input 'boxes' has element type i32", None),
        ("scores_type_differs", [b, s.astype(np.float16)], {}, "input 'scores' has element type f16", None),
        ("output_type_f32", [b, s], {"output_type": "f32"}, "attribute 'output_type'", None),
        ("nms_top_k_minus2", [b, s], {"nms_top_k": -2}, "attribute 'nms_top_k'", None),
        ("keep_top_k_minus2", [b, s], {"keep_top_k": -2}, "attribute 'keep_top_k'", None),
        ("background_minus2", [b, s], {"background_class": -2}, "attribute 'background_class'", None),
        ("bad_sort_type", [b, s], {"sort_result_type": "class"}, "attribute 'sort_result_type'", None),
        ("one_input", [b], {}, "expected 2", None),
    ]
    if op == MATRIX:
        errs += [("bad_decay", [b, s], {"decay_function": "exp"}, "attribute 'decay_function'", None),
                 ("three_inputs", [b, s, np.array([1], np.int32)], {}, "input(s)", None),
                 ("unknown_attr_iou", [b, s], {"iou_threshold": 0.5}, "unknown attribute(s) iou_threshold", None)]
    else:
        errs += [("nms_eta_above_one", [b, s], {"nms_eta": 1.5}, "attribute 'nms_eta'", None),
                 ("nms_eta_negative", [b, s], {"nms_eta": -0.5}, "attribute 'nms_eta'", None),
                 ("unknown_attr_decay", [b, s], {"decay_function": "linear"}, "unknown attribute(s) decay_function",
                  None)]
    if op == "MulticlassNms-8":
        errs.append(("three_inputs", [b, s, np.array([1], np.int32)], {}, "input(s)", None))
    if op == "MulticlassNms-9":
        bc, sc2, r = np.zeros((2, 5, 4), f), np.zeros((2, 5), f), np.array([2, 3], np.int32)
        errs += [("rois_scores_rank3", [bc, sc2[None], r], {}, "input 'scores' must be 2-D", None),
                 ("rois_classes_mismatch", [bc, sc2[:1], r], {}, "must have the same num_classes", None),
                 ("rois_boxes_mismatch", [bc, sc2[:, :4], r], {}, "num_boxes must agree", None),
                 ("rois_rank2", [bc, sc2, r[None]], {}, "input 'roisnum' must be 1-D", None),
                 ("rois_f32", [bc, sc2, r.astype(f)], {}, "input 'roisnum' has element type f32", None),
                 ("rois_u8", [bc, sc2, r.astype(np.uint8)], {}, "input 'roisnum' has element type u8", None),
                 ("rois_boxes_last_dim3", [np.zeros((2, 5, 3), f), sc2, r], {},
                  "the last dimension of 'boxes' must be 4", None),
                 ("four_inputs", [bc, sc2, r, r], {}, "input(s)", None)]
    return [Case(op, f"error_{id}", tuple(x), a, error=e, openvino=why) for id, x, a, e, why in errs]


def cases():
    out = []
    for op in (MATRIX, *MC):
        out += _random_cases(op) + _edge_cases(op) + _error_cases(op)
    return out + _roisnum_cases()


# --- shape cases -----------------------------------------------------------------------------------------
DYN_RANK_SCORES = ("OpenVINO's shape inference of MulticlassNms fails on scores of dynamic rank (an internal "
                   "out-of-range error); the spec's outputs are inferred as for unknown dims")


def _shape_attrs(rng):
    return {"nms_top_k": int(rng.choice([-1, -1, 0, 2, 5])), "keep_top_k": int(rng.choice([-1, -1, 0, 3, 10])),
            "background_class": int(rng.choice([-1, 0, 2])), "output_type": str(rng.choice(["i32", "i64"]))}


def _shape_cases(op):
    rng = rng_for(op, 2)
    out = []
    for i in range(40):
        b, n, c = int(rng.integers(1, 4)), int(rng.integers(0, 12)), int(rng.integers(1, 4))
        bs = loosen(rng, [b, n, 4]) if i % 9 else PartialShape.dynamic()
        ss = loosen(rng, [b, c, n])
        et = ("f32", "f16", "bf16")[i % 3]
        out.append(ShapeCase(op, f"shape{i}", (info(et, bs), info(et, ss)), _shape_attrs(rng)))
    d = Dimension
    hand = [("static", [2, 10, 4], [2, 3, 10]), ("batch_interval", [(1, 3), 10, 4], [(2, 4), (2, 5), 10]),
            ("boxes_interval", [2, (1, 12), 4], [2, 3, -1]), ("boxes_unbounded", [2, (5, None), 4], [2, 3, (0, 7)]),
            ("scores_batch_dynamic", [2, 10, 4], [-1, 3, 10]), ("boxes_batch_dynamic", [-1, 10, 4], [2, 3, 10]),
            ("empty", [2, 0, 4], [2, 3, 0]), ("last_dim_dynamic", [2, 10, -1], [2, 3, 10]),
            ("classes_dynamic", [2, 10, 4], [2, -1, 10]), ("all_dynamic_dims", [-1, -1, -1], [-1, -1, -1]),
            ("boxes_dynamic_rank", None, [2, 3, 10]),
            ("batch_mismatch", [2, 10, 4], [3, 3, 10]), ("boxes_mismatch", [2, 10, 4], [2, 3, 9]),
            ("last_dim_5", [2, 10, 5], [2, 3, 10]), ("boxes_rank4", [2, 10, 4, 1], [2, 3, 10]),
            ("scores_rank2", [2, 10, 4], [2, 3])]

    def ps(x):
        return PartialShape.dynamic() if x is None else PartialShape(
            [d(v[0], v[1]) if isinstance(v, tuple) else d.of(v) for v in x])
    for id, bs, ss in hand:
        for kw in ({}, {"nms_top_k": 2}, {"keep_top_k": 5}):
            tag = "_".join(f"{k}{v}" for k, v in kw.items())
            out.append(ShapeCase(op, f"hand_{id}{'_' + tag if tag else ''}", (info("f32", ps(bs)), info("f32", ps(ss))),
                                 kw))
    why = None if op == MATRIX else DYN_RANK_SCORES
    out.append(ShapeCase(op, "hand_scores_dynamic_rank", (info("f32", [2, 10, 4]), info("f32", PartialShape.dynamic())),
                         {}, openvino=why, expected=None if why is None else ("[?,6]", "[?,1]", "[2]")))
    if op == "MulticlassNms-9":
        rois = [("rois_static", [3, 10, 4], [3, 10], [2]), ("rois_dynamic", [3, 10, 4], [3, 10], [-1]),
                ("rois_interval", [3, 10, 4], [3, 10], [(1, 4)]), ("rois_classes_dynamic", [-1, 10, 4], [3, 10], [2]),
                ("rois_boxes_dynamic", [3, -1, 4], [3, (0, 8)], [2]),
                ("rois_scores_dynamic", [3, 10, 4], [-1, -1], [2]),
                ("rois_boxes_dynamic_rank", None, [3, 10], [2]), ("rois_rank_dynamic", [3, 10, 4], [3, 10], None),
                ("rois_empty", [3, 0, 4], [3, 0], [2]), ("rois_mismatch", [3, 10, 4], [3, 9], [2]),
                ("rois_classes_mismatch", [3, 10, 4], [2, 10], [2]), ("rois_rank2", [3, 10, 4], [3, 10], [2, 1]),
                ("rois_scores_rank3", [3, 10, 4], [3, 10, 1], [2])]
        for id, bs, ss, rs in rois:
            for kw in ({}, {"nms_top_k": 3}, {"keep_top_k": 4}):
                tag = "_".join(f"{k}{v}" for k, v in kw.items())
                out.append(ShapeCase(op, f"hand_{id}{'_' + tag if tag else ''}",
                                     (info("f32", ps(bs)), info("f32", ps(ss)), info("i32", ps(rs))), kw))
        out.append(ShapeCase(op, "hand_rois_scores_dynamic_rank",
                             (info("f32", [3, 10, 4]), info("f32", PartialShape.dynamic()), info("i64", [2])), {},
                             openvino=DYN_RANK_SCORES, expected=("[..60,6]", "[..60,1]", "[2]")))
        for i in range(15):
            c, n, nb = int(rng.integers(1, 4)), int(rng.integers(0, 12)), int(rng.integers(1, 4))
            out.append(ShapeCase(op, f"rois_shape{i}", (info("f32", loosen(rng, [c, n, 4])),
                                                        info("f32", loosen(rng, [c, n])),
                                                        info(("i32", "i64")[i % 2], loosen(rng, [nb]))),
                                 _shape_attrs(rng)))
    return out


def shape_cases():
    out = []
    for op in (MATRIX, *MC):
        out += _shape_cases(op)
    return out
