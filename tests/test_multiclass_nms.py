"""MatrixNms-8, MulticlassNms-8/9: hand-checkable cases, and every case of the table against the plain-loop
transcription of the specs (tests/spec_multiclass.py), independently of OpenVINO."""
from __future__ import annotations

import math

import numpy as np
import pytest

import opref
from opref.conformance.cases import all_cases
from opref.opset.schema import as_keywords
from opref.shapes import PartialShape, TensorInfo
from spec_multiclass import SPEC

F = np.float32
# [0,0,2,1] and [0,0,1,1]: IoU 1/2; [5,5,6,6] overlaps neither
BOXES = np.array([[[0, 0, 2, 1], [0, 0, 1, 1], [5, 5, 6, 6]]], F)
SCORES = np.array([[[0.9, 0.8, 0.5]]], F)


def _run(op, inputs, **attrs):
    return opref.run_op(op, inputs, attrs)


@pytest.mark.parametrize("op", ["MulticlassNms-8", "MulticlassNms-9"])
def test_multiclass_suppresses_above_threshold_only(op):
    out, idx, num = _run(op, [BOXES, SCORES], iou_threshold=0.45, sort_result_type="score")
    assert idx.ravel().tolist() == [0, 2] and num.tolist() == [2]
    assert out.tolist() == [[0, F(0.9), 0, 0, 2, 1], [0, F(0.5), 5, 5, 6, 6]]
    _, idx, _ = _run(op, [BOXES, SCORES], iou_threshold=0.5, sort_result_type="score")   # IoU == threshold: kept
    assert idx.ravel().tolist() == [0, 1, 2]
    _, idx, _ = _run(op, [BOXES, SCORES], iou_threshold=0.45, score_threshold=0.5)       # score == threshold: kept
    assert idx.ravel().tolist() == [0, 2]


def test_multiclass_pixel_boxes():
    # normalized=false: [0,0,1,1] and [0,0,1,3] cover 2x2 and 2x4 pixels, overlapping in 2x2: IoU 1/2
    boxes = np.array([[[0, 0, 1, 1], [0, 0, 1, 3]]], F)
    scores = np.array([[[0.9, 0.8]]], F)
    assert _run("MulticlassNms-8", [boxes, scores], iou_threshold=0.49, normalized=False)[2].tolist() == [1]
    assert _run("MulticlassNms-8", [boxes, scores], iou_threshold=0.51, normalized=False)[2].tolist() == [2]
    # normalized: IoU 1/3
    assert _run("MulticlassNms-8", [boxes, scores], iou_threshold=0.34)[2].tolist() == [2]


def test_multiclass_keep_top_k_and_order():
    scores = np.array([[[0.9, 0.8, 0.5], [0.3, 0.95, 0.6]]], F)
    out, idx, num = _run("MulticlassNms-8", [BOXES, scores], iou_threshold=0.9, keep_top_k=4,
                         sort_result_type="classid")
    # best four by score: 0.95 (c1 b1), 0.9 (c0 b0), 0.8 (c0 b1), 0.6 (c1 b2); then by class, score
    assert out[:, :2].tolist() == [[0, F(0.9)], [0, F(0.8)], [1, F(0.95)], [1, F(0.6)]]
    assert idx.ravel().tolist() == [0, 1, 1, 2] and num.tolist() == [4]
    out, _, _ = _run("MulticlassNms-8", [BOXES, scores], iou_threshold=0.9, background_class=1,
                     sort_result_type="score")
    assert out[:, 0].tolist() == [0, 0, 0]


def test_multiclass_roisnum_numbering():
    # two classes, five boxes: batch 0 has boxes 0-1, batch 1 boxes 2-4; index (start_b + i) * C + c
    boxes = np.stack([np.array([[0, 0, 1, 1], [2, 2, 3, 3], [4, 4, 5, 5], [6, 6, 7, 7], [8, 8, 9, 9]], F)] * 2)
    scores = np.array([[0.1, 0.2, 0.3, 0.4, 0.5], [0.6, 0.7, 0.8, 0.9, 0.95]], F)
    out, idx, num = _run("MulticlassNms-9", [boxes, scores, np.array([2, 3], np.int32)], iou_threshold=0.5,
                         sort_result_type="classid")
    assert num.tolist() == [4, 6]
    assert idx.ravel().tolist() == [2, 0, 3, 1, 8, 6, 4, 9, 7, 5]
    assert out[:, 1].tolist() == [F(x) for x in (0.2, 0.1, 0.7, 0.6, 0.5, 0.4, 0.3, 0.95, 0.9, 0.8)]


def test_matrix_decay():
    # box 1 (0.8) has IoU 1/2 with box 0, whose own largest IoU (with boxes above it) is 0
    out, idx, _ = _run("MatrixNms-8", [BOXES, SCORES], sort_result_type="score")
    assert idx.ravel().tolist() == [0, 2, 1]
    assert out[:, 1].tolist() == [F(0.9), F(0.5), F(0.8 * 0.5)]                       # linear: (1 - 1/2) / 1
    out, _, _ = _run("MatrixNms-8", [BOXES, SCORES], sort_result_type="score", decay_function="gaussian",
                     gaussian_sigma=2.0)
    assert out[2, 1] == pytest.approx(0.8 * math.exp(-0.25 * 2.0), rel=1e-6)
    # post_threshold and score_threshold drop scores equal to them
    assert _run("MatrixNms-8", [BOXES, SCORES], post_threshold=0.4)[2].tolist() == [2]
    assert _run("MatrixNms-8", [BOXES, SCORES], score_threshold=0.5)[2].tolist() == [2]


def test_matrix_classid_per_batch():
    scores = np.array([[[0.9, 0.3, 0.5], [0.2, 0.95, 0.6]]], F)
    out, _, _ = _run("MatrixNms-8", [np.array([[[0, 0, 1, 1], [2, 2, 3, 3], [4, 4, 5, 5]]], F), scores],
                     sort_result_type="classid")
    assert out[:, :2].tolist() == [[0, F(0.9)], [0, F(0.5)], [0, F(0.3)], [1, F(0.95)], [1, F(0.6)], [1, F(0.2)]]


@pytest.mark.parametrize("op, attrs, rows", [
    ("MatrixNms-8", {}, "[..60,6]"), ("MulticlassNms-8", {"nms_top_k": 2}, "[..12,6]"),
    ("MulticlassNms-9", {"keep_top_k": 5}, "[..10,6]"), ("MatrixNms-8", {"keep_top_k": 0}, "[0,6]")])
def test_shape_rule(op, attrs, rows):
    outs = opref.infer_op(op, [TensorInfo("f32", [2, 10, 4]), TensorInfo("f32", [2, 3, 10])], attrs)
    assert [str(o.shape) for o in outs] == [rows, rows[:-2] + "1]", "[2]"]
    outs = opref.infer_op("MulticlassNms-9", [TensorInfo("f32", [3, 10, 4]), TensorInfo("f32", [3, 10]),
                                              TensorInfo("i32", PartialShape.dynamic())], {})
    assert [str(o.shape) for o in outs] == ["[?,6]", "[?,1]", "[?]"]


def test_rejects_f64():
    with pytest.raises(opref.OprefError, match="element type f64"):
        _run("MatrixNms-8", [BOXES.astype(np.float64), SCORES.astype(np.float64)])


@pytest.mark.parametrize("op", sorted(SPEC))
def test_every_case_matches_the_spec_transcription(op):
    schema = opref.get_schema(op)
    cases = [c for c in all_cases() if c.op == op and c.error is None]
    assert len(cases) > 50
    for c in cases:
        attrs = as_keywords(schema.bind_attrs(c.attrs))
        ours = opref.run_op(op, c.inputs, c.attrs)
        theirs = SPEC[op](*[np.asarray(x) for x in c.inputs], **attrs)
        assert [o.dtype for o in ours] == [t.dtype for t in theirs], c.name
        np.testing.assert_array_equal(ours[1], theirs[1], err_msg=c.name)
        np.testing.assert_array_equal(ours[2], theirs[2], err_msg=c.name)
        np.testing.assert_allclose(ours[0].astype(np.float64), theirs[0].astype(np.float64), rtol=1e-5, atol=1e-6,
                                   err_msg=c.name)
