"""DetectionOutput-1/-8: hand-checked heads (decoding, NMS, limits, the end row), every case against the
plain-loop transcription (tests/spec_detection_output.py), the error cases against OpenVINO's own rejection,
and an SSD head written by OpenVINO (conv feature map -> box and class convs, PriorBox / PriorBoxClustered ->
DetectionOutput) run equal to OpenVINO CPU and round-tripped through opref.save."""
from __future__ import annotations

import math

import numpy as np
import openvino as ov
import openvino.opset1 as ops1
import openvino.opset8 as ops8
import pytest

import opref
from opref.conformance.cases import cases_for
from opref.conformance.compare import mismatch
from opref.shapes import TensorInfo
from opref.types import element_type_of
from oracles import CPU_CONFIG, ov_infer
from spec_detection_output import SPEC

OPS = ("DetectionOutput-1", "DetectionOutput-8")
CORNER, CENTER = "caffe.PriorBoxParameter.CORNER", "caffe.PriorBoxParameter.CENTER_SIZE"
F = np.float32


def run(inputs, op="DetectionOutput-8", **attrs):
    a = {"keep_top_k": [-1], "nms_threshold": 0.5, "normalized": True, **attrs}
    if op.endswith("-1"):
        a.setdefault("num_classes", np.asarray(inputs[1]).shape[1] * 4 // np.asarray(inputs[2]).shape[2])
    return opref.run_op(op, [np.asarray(x, F) for x in inputs], a)[0][0, 0]


def same(actual, expected):
    np.testing.assert_array_equal(actual, np.asarray(expected, F))


# two disjoint priors, no offsets, variances encoded: the decoded boxes are the priors
PRIORS = [[[0.1, 0.1, 0.4, 0.4, 0.5, 0.5, 0.9, 0.9]]]
ZERO = [[0.0] * 8]


@pytest.mark.parametrize("op", OPS)
def test_rows_by_class_then_score_then_end_row(op):
    out = run([ZERO, [[0.1, 0.6, 0.3, 0.2, 0.9, 0.5]], PRIORS], op, variance_encoded_in_target=True)
    # classes 1 and 2 (0 is the background); rows = N * priors * classes = 6
    same(out, np.array([
        [0, 1, 0.9, 0.5, 0.5, 0.9, 0.9],
        [0, 1, 0.6, 0.1, 0.1, 0.4, 0.4],
        [0, 2, 0.5, 0.5, 0.5, 0.9, 0.9],
        [0, 2, 0.3, 0.1, 0.1, 0.4, 0.4],
        [-1, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0]], F))


def test_limits_and_background():
    conf = [[0.1, 0.6, 0.3, 0.2, 0.9, 0.5]]
    keep1 = run([ZERO, conf, PRIORS], variance_encoded_in_target=True, keep_top_k=[1])
    same(keep1, [[0, 1, 0.9, 0.5, 0.5, 0.9, 0.9]])           # N * keep_top_k rows
    top1 = run([ZERO, conf, PRIORS], variance_encoded_in_target=True, top_k=1)        # N * top_k * classes
    same(top1[:, :3], [[0, 1, 0.9], [0, 2, 0.5], [-1, 0, 0]])
    no_bg = run([ZERO, conf, PRIORS], variance_encoded_in_target=True, background_label_id=-1)
    same(no_bg[:2, :3], [[0, 0, 0.2], [0, 0, 0.1]])           # class 0 detected too
    above = run([ZERO, conf, PRIORS], variance_encoded_in_target=True, confidence_threshold=0.5)
    same(above[:3, :3], [[0, 1, 0.9], [0, 1, 0.6], [-1, 0, 0]])   # 0.5 is not above


def test_nms_suppresses_only_above_the_threshold():
    # prior 1 is prior 0's left half: IoU 0.5 exactly
    priors = [[[0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.25, 0.5]]]
    conf = [[0.1, 0.9, 0.2, 0.8]]
    kept = run([ZERO, conf, priors], variance_encoded_in_target=True, nms_threshold=0.5)
    same(kept[:2, 2], [0.9, 0.8])
    cut = run([ZERO, conf, priors], variance_encoded_in_target=True, nms_threshold=0.49)
    same(cut[:2, :3], [[0, 1, 0.9], [-1, 0, 0]])


def test_decoding_by_hand():
    prior = [[[0.2, 0.2, 0.6, 0.6], [0.1, 0.1, 0.2, 0.2]]]          # box, then its variances
    loc = [[1.0, -1.0, 0.0, math.log(2) / 0.2]]
    center = run([loc, [[0.0, 1.0]], prior], code_type=CENTER)[0]
    # centre (0.4, 0.4) moved by 0.1 * offset * 0.4, width * exp(0), height * exp(0.2 * ln 2 / 0.2)
    np.testing.assert_allclose(center[3:], [0.24, -0.04, 0.64, 0.76], rtol=1e-6)
    corner = run([loc, [[0.0, 1.0]], prior], code_type=CORNER)[0]
    np.testing.assert_allclose(corner[3:], [0.3, 0.1, 0.6, 0.6 + 0.2 * math.log(2) / 0.2], rtol=1e-6)
    clipped = run([loc, [[0.0, 1.0]], prior], code_type=CENTER, clip_after_nms=True)[0]
    np.testing.assert_allclose(clipped[3:], [0.24, 0.0, 0.64, 0.76], rtol=1e-6)
    # pixel proposals [image id, x0, y0, x1, y1] divided by input_width / input_height
    pixels = [[[0, 60, 40, 180, 120], [0.1, 0.1, 0.2, 0.2, 0]]]
    px = run([loc, [[0.0, 1.0]], pixels], code_type=CENTER, normalized=False, input_width=300, input_height=200)[0]
    np.testing.assert_allclose(px[3:], [0.24, -0.04, 0.64, 0.76], rtol=1e-6)


def test_pixel_priors_end_at_image_id_minus_one():
    pixels = [[[0, 0.1, 0.1, 0.4, 0.4, -1, 0.5, 0.5, 0.9, 0.9]]]
    out = run([ZERO, [[0.1, 0.6, 0.2, 0.9]], pixels], normalized=False, variance_encoded_in_target=True)
    same(out[:2, :3], [[0, 1, 0.6], [-1, 0, 0]])


def test_mxnet_style_and_arm():
    conf = [[0.1, 0.6, 0.3, 0.2, 0.5, 0.9]]
    # each prior: its best class but 0, ids one lower; threshold inclusive
    mx = run([ZERO, conf, PRIORS], variance_encoded_in_target=True, decrease_label_id=True, confidence_threshold=0.6)
    same(mx[:3, :3], [[0, 0, 0.6], [0, 1, 0.9], [-1, 0, 0]])
    # ARM: prior 1's objectness 0.2 < 0.5 makes it background (score 1 for class 0, 0 for the others)
    arm = run([ZERO, conf, PRIORS, [[0.5, 0.5, 0.8, 0.2]], ZERO], variance_encoded_in_target=True,
              objectness_score=0.5)
    same(arm[:3, :3], [[0, 1, 0.6], [0, 2, 0.3], [-1, 0, 0]])
    # ARM offsets refine the priors before the box offsets apply
    shift = [[0.1, 0.0, 0.1, 0.0, 0.0, 0.0, 0.0, 0.0]]
    refined = run([shift, conf, PRIORS, [[0.5, 0.5, 0.5, 0.5]], shift], variance_encoded_in_target=True)
    np.testing.assert_allclose(refined[0, 3:], [0.3, 0.1, 0.6, 0.4], rtol=1e-6)


def test_v8_derives_num_classes_from_the_shapes():
    info = opref.infer_op("DetectionOutput-8", [TensorInfo("f32", [2, -1]), TensorInfo("f32", [2, 20]),
                                                TensorInfo("f32", [1, 2, 16])], {"keep_top_k": [-1],
                                                                                 "nms_threshold": 0.5,
                                                                                 "normalized": True})
    assert str(info[0].shape) == "[1,1,40,7]"          # 4 priors, 5 classes


# --- every case against the plain-loop transcription -------------------------------------------------
VALUE_CASES = [c for op in OPS for c in cases_for(op) if c.error is None]
ERROR_CASES = [c for op in OPS for c in cases_for(op) if c.error is not None]


@pytest.mark.parametrize("case", VALUE_CASES, ids=lambda c: c.name)
def test_cases_match_the_loop_transcription(case):
    ours = opref.run_op(case.op, case.inputs, case.attrs)[0]
    schema = opref.get_schema(case.op)
    from opref.opset.schema import as_keywords
    theirs = SPEC[case.op](*case.inputs, **as_keywords(schema.bind_attrs(case.attrs)))[0]
    problem = mismatch(ours, theirs, exact=False)
    assert problem is None, f"{case.name}: {problem}"


@pytest.mark.parametrize("case", ERROR_CASES, ids=lambda c: c.name)
def test_error_cases_are_rejected_by_openvino_too(case):
    if case.openvino:
        pytest.skip(case.openvino)
    if "code_type" in case.attrs and case.attrs["code_type"] not in (CORNER, CENTER):
        params = [ov.op.Parameter(ov.Type.f32, ov.PartialShape(list(x.shape))) for x in case.inputs]
        with pytest.raises(RuntimeError, match="code_type"):
            (ops1 if case.op.endswith("-1") else ops8).detection_output(*params[:3], dict(case.attrs))
        return
    infos = [TensorInfo(element_type_of(np.asarray(x)), list(np.shape(x))) for x in case.inputs]
    with pytest.raises(RuntimeError, match="Exception from src/"):
        ov_infer(case.op, infos, case.attrs)


# --- an SSD head written by OpenVINO ------------------------------------------------------------------
def _ssd_head(version: int) -> ov.Model:
    """image [1, 3, 32, 32] -> conv (stride 4) -> feature map [1, 8, 8, 8] -> box / class convs over A priors
    per cell, NHWC-flattened; PriorBox (v8) or PriorBoxClustered (v1) on the feature map's and the image's
    sizes -> Unsqueeze -> DetectionOutput, as converters write SSD heads."""
    rng = np.random.default_rng(7 + version)
    o = ops8 if version == 8 else ops1
    image = ops1.parameter([1, 3, 32, 32], np.float32, name="image")
    feat = ops1.relu(ops1.convolution(image, ops1.constant(rng.normal(0, 0.3, (8, 3, 4, 4)).astype(F)),
                                      [4, 4], [0, 0], [0, 0], [1, 1]))
    classes = 4
    if version == 8:
        priors_per_cell = 4          # min_size 6 and 12, aspect ratio 2 (flip), max_size: 1 + 1 + 2 = 4
        prior_attrs = {"min_size": [6.0], "max_size": [12.0], "aspect_ratio": [2.0], "flip": True, "clip": False,
                       "step": 4.0, "offset": 0.5, "variance": [0.1, 0.1, 0.2, 0.2], "scale_all_sizes": True}
    else:
        priors_per_cell = 3
        prior_attrs = {"width": [5.0, 9.0, 14.0], "height": [7.0, 9.0, 6.0], "clip": False, "step_widths": 4.0,
                       "step_heights": 4.0, "offset": 0.5, "variance": [0.1, 0.1, 0.2, 0.2]}

    def head(channels):
        y = ops1.convolution(feat, ops1.constant(rng.normal(0, 0.2, (channels, 8, 3, 3)).astype(F)),
                             [1, 1], [1, 1], [1, 1], [1, 1])
        y = ops1.transpose(y, ops1.constant(np.array([0, 2, 3, 1], np.int64)))
        return ops1.reshape(y, ops1.constant(np.array([0, -1], np.int64)), special_zero=True)

    box = head(priors_per_cell * 4)
    logits = ops1.reshape(head(priors_per_cell * classes), ops1.constant(np.array([0, -1, classes], np.int64)),
                          special_zero=True)
    conf = ops1.reshape(ops8.softmax(logits, -1), ops1.constant(np.array([0, -1], np.int64)), special_zero=True)

    def hw(x):
        return ops1.strided_slice(ops1.shape_of(x), ops1.constant(np.array([2], np.int64)),
                                  ops1.constant(np.array([4], np.int64)), ops1.constant(np.array([1], np.int64)),
                                  [0], [0])

    if version == 8:
        priors = o.prior_box(hw(feat), hw(image), prior_attrs)
    else:
        priors = ops1.prior_box_clustered(hw(feat), hw(image), prior_attrs)
    priors = ops1.unsqueeze(priors, ops1.constant(np.array([0], np.int64)))
    attrs = {"keep_top_k": [20], "top_k": 40, "nms_threshold": 0.45, "confidence_threshold": 0.3,
             "code_type": CENTER, "background_label_id": 0, "share_location": True, "normalized": True,
             "variance_encoded_in_target": False, "clip_after_nms": True}
    if version == 1:
        attrs["num_classes"] = classes
    det = o.detection_output(box, conf, priors, attrs)
    return ov.Model([det], [image], f"ssd_head_v{version}")


@pytest.mark.parametrize("version", (1, 8))
def test_ssd_head_matches_openvino_and_round_trips(version, tmp_path):
    xml = tmp_path / "ssd.xml"
    ov.save_model(_ssd_head(version), str(xml), compress_to_fp16=False)
    core = ov.Core()
    feed = {"image": np.random.default_rng(3).uniform(0, 1, (1, 3, 32, 32)).astype(F)}

    def openvino(path):
        return core.compile_model(str(path), "CPU", CPU_CONFIG)(feed)[0]

    model = opref.load(str(xml))
    ops = {n.op for n in model.graph.nodes}
    assert f"DetectionOutput-{version}" in ops and ("PriorBox-8" if version == 8 else "PriorBoxClustered-1") in ops
    ours = next(iter(model.run(feed).values()))
    theirs = openvino(xml)
    assert ours.shape == theirs.shape == (1, 1, 20, 7)
    assert int((ours[0, 0, :, 0] >= 0).sum()) >= 3, "the head should detect something"
    np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-5)
    out = tmp_path / "opref.xml"
    opref.save(model, str(out))
    again = next(iter(opref.load(str(out)).run(feed).values()))
    np.testing.assert_array_equal(again, ours)
    np.testing.assert_allclose(openvino(out), theirs, rtol=1e-4, atol=1e-5)
