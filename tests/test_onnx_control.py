"""ONNX lowerings of the sub-graph ops (src/opref/onnx/control.py): If-8 -> If, Loop-5 and
TensorIterator-1 -> Loop. Each model is built with OpenVINO's Python API and written by OpenVINO,
loaded with opref, exported with `to_onnx`, checked by onnx's full checker and run on onnxruntime
against opref's own run of the IR (and OpenVINO's, where the inputs are ones OpenVINO runs).

Bodies use ops that have lowerings of their own (activations, Add, Concat, Slice, Convert, Broadcast,
ReduceLogicalOr, LSTMCell): the TensorIterator over an LSTMCell is the form OpenVINO gave LSTMs in
older IRs; it slices a [batch, seq * input] tensor along axis 1 with part_size = input, so parts
longer than 1 are sliced and concatenated."""
from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import openvino as ov
import openvino.opset8 as ops
import pytest

import opref
from opref.onnx.builder import Unsupported
from opref.onnx.export import to_onnx
from oracles import CPU_CONFIG

RTOL, ATOL = 1e-5, 1e-6
CORE = ov.Core()


def _export(model: ov.Model, tmp_path, name: str):
    xml = tmp_path / f"{name}.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    m = opref.load(xml)
    exported = to_onnx(m.graph)
    onnx.checker.check_model(exported.model, full_check=True)
    session = ort.InferenceSession(exported.model.SerializeToString(), providers=["CPUExecutionProvider"])
    return m, exported, session, xml


def _compare(m, session, feeds, xml=None):
    ours = list(m.run(feeds).values())
    theirs = session.run(None, feeds)
    assert len(ours) == len(theirs)
    for k, (o, t) in enumerate(zip(ours, theirs)):
        assert t.dtype == o.dtype and t.shape == o.shape, f"output {k}: {t.dtype}{t.shape} vs opref {o.dtype}{o.shape}"
        np.testing.assert_allclose(t, o, rtol=RTOL, atol=ATOL, err_msg=f"output {k}")
    if xml is not None:     # OpenVINO on the IR too: the IR means what opref says
        compiled = CORE.compile_model(str(xml), "CPU", CPU_CONFIG)
        res = compiled.create_infer_request().infer(feeds)
        for k, o in enumerate(ours):
            np.testing.assert_allclose(np.asarray(res[compiled.outputs[k]]), o, rtol=1e-4, atol=1e-5)
    return ours


def _ops_of(graph, op_type):
    return [n for n in graph.node if n.op_type == op_type]


# --- If ----------------------------------------------------------------------------------------------
def if_model(cond_shape=()):
    c = ops.parameter(list(cond_shape), ov.Type.boolean, name="c")
    x = ops.parameter([2, 3], ov.Type.f32, name="x")
    y = ops.parameter([-1], ov.Type.f32, name="y")
    tx, ty = ops.parameter([2, 3], ov.Type.f32, name="tx"), ops.parameter([-1], ov.Type.f32, name="ty")
    ex, ey = ops.parameter([2, 3], ov.Type.f32, name="ex"), ops.parameter([-1], ov.Type.f32, name="ey")
    then_body = ov.Model([ops.result(ops.relu(tx)), ops.result(ty)], [tx, ty], "then")
    else_body = ov.Model([ops.result(ops.sigmoid(ex)), ops.result(ops.clamp(ey, -0.5, 0.5))], [ex, ey], "else")
    node = ops.if_op(c)
    node.set_then_body(then_body)
    node.set_else_body(else_body)
    node.set_input(x.output(0), tx, ex)
    node.set_input(y.output(0), ty, ey)
    a = node.set_output(then_body.get_results()[0], else_body.get_results()[0])
    b = node.set_output(then_body.get_results()[1], else_body.get_results()[1])
    return ov.Model([ops.result(a), ops.result(b)], [c, x, y], "if")


@pytest.mark.parametrize("cond_shape", [(), (1,)])
def test_if_both_branches(cond_shape, tmp_path):
    m, exported, session, xml = _export(if_model(cond_shape), tmp_path, "if")
    assert [n.op_type for n in exported.model.graph.node] == ["If"]
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 3)).astype(np.float32)
    y = rng.standard_normal(5).astype(np.float32)
    got = {}
    for c in (True, False):
        got[c] = _compare(m, session, {"c": np.full(cond_shape, c), "x": x, "y": y}, xml)
    np.testing.assert_array_equal(got[True][0], np.maximum(x, 0))     # the branches differ: both were run
    np.testing.assert_array_equal(got[False][1], np.clip(y, -0.5, 0.5))


# --- Loop --------------------------------------------------------------------------------------------
def counting_loop(trip_count=4, trip_param=None, cond_param=False):
    """Merged x <- sigmoid(x); parts [x', i] concatenated along axis 0 and, transposed, along axis 1; the
    last x' (a back edge's source) and the last part (no back edge reads it); iteration number fed."""
    x = ops.parameter([1, 2], ov.Type.f32, name="x")
    params = [x]
    if trip_param is not None:
        trip = ops.parameter(list(trip_param[1]), trip_param[0], name="trip")
        params.append(trip)
    else:
        trip = ops.constant(np.array(trip_count, np.int64))
    if cond_param:
        cond = ops.parameter([1], ov.Type.boolean, name="cond")
        params.append(cond)
    else:
        cond = ops.constant(np.array(True))
    bx = ops.parameter([1, 2], ov.Type.f32, name="bx")
    bi = ops.parameter([1], ov.Type.i64, name="bi")
    new = ops.sigmoid(bx)
    it = ops.broadcast(ops.convert(bi, "f32"), ops.constant(np.array([1, 1], np.int64)))
    part = ops.concat([new, it], 1)
    column = ops.transpose(part, np.array([1, 0], np.int64))
    body = ov.Model([ops.result(ops.constant(np.array(True))), ops.result(new), ops.result(part), ops.result(column)],
                    [bx, bi], "body")
    loop = ops.loop(trip, cond)
    loop.set_function(body)
    loop.set_special_body_ports([1, 0])
    loop.set_merged_input(bx, x.output(0), new.output(0))
    outs = [loop.get_iter_value(new.output(0), -1)]
    if trip_param is None and not cond_param:
        outs += [loop.get_concatenated_slices(column.output(0), 0, 1, 1, -1, 1),
                 loop.get_concatenated_slices(part.output(0), 0, 1, 1, -1, 0),
                 loop.get_iter_value(part.output(0), -1)]
    return ov.Model([ops.result(o) for o in outs], params, "loop")


def test_loop_trip_count_concatenated_and_last_outputs(tmp_path):
    m, exported, session, xml = _export(counting_loop(4), tmp_path, "loop")
    assert len(_ops_of(exported.model.graph, "Loop")) == 1
    x = np.array([[0.5, -2.0]], np.float32)
    ours = _compare(m, session, {"x": x}, xml)
    assert ours[1].shape == (3, 4) and ours[2].shape == (4, 3)
    np.testing.assert_array_equal(ours[1][2], [0, 1, 2, 3])                # the iteration numbers, in order
    np.testing.assert_array_equal(ours[2], ours[1].T)
    np.testing.assert_array_equal(ours[3], ours[2][-1:])


@pytest.mark.parametrize("trip_type,trip_shape", [(ov.Type.i64, ()), (ov.Type.i32, (1,))])
def test_loop_trip_count_at_run_time(trip_type, trip_shape, tmp_path):
    m, _, session, _ = _export(counting_loop(trip_param=(trip_type, trip_shape), cond_param=True), tmp_path, "loop")
    x = np.array([[0.25, 3.0]], np.float32)
    dtype = np.int64 if trip_type == ov.Type.i64 else np.int32
    for trip, cond in ((3, True), (0, True), (5, False), (1, True)):
        ours = _compare(m, session, {"x": x, "trip": np.full(trip_shape, trip, dtype), "cond": np.array([cond])})
        if trip == 0 or not cond:       # no iteration: the carried value is the initial one
            np.testing.assert_array_equal(ours[0], x)


def shifting_loop(with_slice=False):
    """Merged mask <- mask shifted left by one; runs while any element is non-zero (the body's
    condition Result), the trip count a run-time input (-1: unbounded). With `with_slice`, a sliced
    input (along axis 1 of s: [1, 8]) bounds the count too and is concatenated back."""
    mask = ops.parameter([1, 4], ov.Type.f32, name="mask")
    trip = ops.parameter([], ov.Type.i64, name="trip")
    params = [mask, trip]
    bm = ops.parameter([1, 4], ov.Type.f32, name="bm")
    body_params = [bm]
    shifted = ops.slice(ops.concat([bm, ops.constant(np.zeros((1, 1), np.float32))], 1),
                        np.array([1], np.int64), np.array([5], np.int64), np.array([1], np.int64),
                        np.array([1], np.int64))
    go = ops.reduce_logical_or(ops.convert(shifted, "boolean"), np.array([0, 1], np.int64), False)
    results = [ops.result(go), ops.result(shifted)]
    if with_slice:
        s = ops.parameter([1, 8], ov.Type.f32, name="s")
        params.append(s)
        bs = ops.parameter([1, 1], ov.Type.f32, name="bs")
        body_params.append(bs)
        results.append(ops.result(ops.relu(bs)))
    body = ov.Model(results, body_params, "body")
    loop = ops.loop(trip, ops.constant(np.array(True)))
    loop.set_function(body)
    loop.set_special_body_ports([-1, 0])
    loop.set_merged_input(bm, mask.output(0), shifted.output(0))
    outs = [loop.get_iter_value(shifted.output(0), -1),
            loop.get_concatenated_slices(shifted.output(0), 0, 1, 1, -1, 0)]
    if with_slice:
        loop.set_sliced_input(bs, s.output(0), 0, 1, 1, -1, 1)
        outs.append(loop.get_concatenated_slices(body.get_results()[2].input_value(0), 0, 1, 1, -1, 1))
    return ov.Model([ops.result(o) for o in outs], params, "while")


def test_loop_with_condition(tmp_path):
    m, exported, session, xml = _export(shifting_loop(), tmp_path, "while")
    assert len(_ops_of(exported.model.graph, "Loop")) == 1
    counts = []
    for mask, trip in (([1, 0, 0, 0], -1), ([0, 0, 0, 1], -1), ([0, 2, 0, 1], -1), ([0, 0, 0, 1], 2),
                       ([0, 0, 1, 0], 9)):
        ours = _compare(m, session, {"mask": np.array([mask], np.float32), "trip": np.array(trip, np.int64)},
                        xml if trip >= 0 else None)
        counts.append(ours[1].shape[0])
    assert counts == [1, 4, 4, 2, 3]        # the condition stops it (or the trip count does)


def test_loop_with_sliced_input(tmp_path):
    m, _, session, xml = _export(shifting_loop(with_slice=True), tmp_path, "while_sliced")
    s = np.arange(-4, 4, dtype=np.float32).reshape(1, 8)
    counts = []
    for mask, trip in (([0, 0, 0, 1], -1), ([0, 0, 0, 1], 2), ([1, 1, 1, 1], 3), ([1, 0, 0, 0], 7), ([1, 1, 1, 1], -1)):
        ours = _compare(m, session, {"mask": np.array([mask], np.float32), "trip": np.array(trip, np.int64), "s": s},
                        xml if trip >= 0 else None)
        counts.append(ours[1].shape[0])
        np.testing.assert_array_equal(ours[2], np.maximum(s[:, :counts[-1]], 0))
    assert counts == [4, 2, 3, 1, 4]


# --- TensorIterator ----------------------------------------------------------------------------------
def lstm_iterator(reverse=False, seq=5, inputs=3, hidden=4, batch=2, start_end=None):
    """An LSTMCell over the parts of x: f32[batch, seq * inputs] (sliced along axis 1, part_size = inputs;
    seq -1: a dynamic dim), h and c merged; the last h and c, every h concatenated along axis 1 (in the
    order of the parts), every relu(c) along axis 0, and the last relu(c) (a Result no back edge reads)."""
    rng = np.random.default_rng(7)
    x = ops.parameter([batch, seq * inputs if seq > 0 else -1], ov.Type.f32, name="x")
    h0 = ops.parameter([batch, hidden], ov.Type.f32, name="h0")
    c0 = ops.parameter([batch, hidden], ov.Type.f32, name="c0")
    bx = ops.parameter([batch, inputs], ov.Type.f32, name="bx")
    bh = ops.parameter([batch, hidden], ov.Type.f32, name="bh")
    bc = ops.parameter([batch, hidden], ov.Type.f32, name="bc")
    w = (0.5 * rng.standard_normal((4 * hidden, inputs))).astype(np.float32)
    r = (0.5 * rng.standard_normal((4 * hidden, hidden))).astype(np.float32)
    bias = (0.1 * rng.standard_normal(4 * hidden)).astype(np.float32)
    cell = ops.lstm_cell(bx, bh, bc, w, r, bias, hidden)
    h, c = cell.output(0), cell.output(1)
    rc = ops.relu(c)
    body = ov.Model([ops.result(h), ops.result(c), ops.result(rc)], [bx, bh, bc], "body")
    ti = ops.tensor_iterator()
    ti.set_body(body)
    if start_end is not None:
        start, end = start_end
    else:
        start, end = (-1, 0) if reverse else (0, -1)
    stride = -inputs if reverse else inputs
    ti.set_sliced_input(bx, x.output(0), start, stride, inputs, end, 1)
    ti.set_merged_input(bh, h0.output(0), h)
    ti.set_merged_input(bc, c0.output(0), c)
    outs = [ti.get_iter_value(h, -1), ti.get_iter_value(c, -1),
            ti.get_concatenated_slices(h, -1 if reverse else 0, -hidden if reverse else hidden, hidden,
                                       0 if reverse else -1, 1),
            ti.get_concatenated_slices(rc.output(0), 0, batch, batch, -1, 0),
            ti.get_iter_value(rc.output(0), -1)]
    return ov.Model([ops.result(o) for o in outs], [x, h0, c0], "lstm_ti")


def _lstm_feeds(rng, seq, inputs=3, hidden=4, batch=2):
    return {"x": rng.standard_normal((batch, seq * inputs)).astype(np.float32),
            "h0": rng.standard_normal((batch, hidden)).astype(np.float32),
            "c0": rng.standard_normal((batch, hidden)).astype(np.float32)}


def _lstm_numpy(feeds, parts, hidden=4):
    """The LSTM by hand (gates f, i, c, o as OpenVINO orders them) over the given parts, in order."""
    rng = np.random.default_rng(7)
    inputs = parts[0].shape[1]
    w = (0.5 * rng.standard_normal((4 * hidden, inputs))).astype(np.float32)
    r = (0.5 * rng.standard_normal((4 * hidden, hidden))).astype(np.float32)
    bias = (0.1 * rng.standard_normal(4 * hidden)).astype(np.float32)
    h, c = feeds["h0"].astype(np.float64), feeds["c0"].astype(np.float64)
    sig = lambda v: 1 / (1 + np.exp(-v))      # noqa: E731
    hs = []
    for xt in parts:
        g = xt @ w.T + h @ r.T + bias
        f, i, z, o = np.split(g, 4, axis=1)
        c = sig(f) * c + sig(i) * np.tanh(z)
        h = sig(o) * np.tanh(c)
        hs.append(h)
    return hs


@pytest.mark.parametrize("reverse", [False, True], ids=["forward", "reverse"])
@pytest.mark.parametrize("seq", [5, -1], ids=["static", "dynamic"])
def test_tensor_iterator_lstm(reverse, seq, tmp_path):
    m, exported, session, xml = _export(lstm_iterator(reverse, seq), tmp_path, "lstm_ti")
    assert len(_ops_of(exported.model.graph, "Loop")) == 1
    rng = np.random.default_rng(3)
    for n in ((5,) if seq > 0 else (5, 1, 3)):
        feeds = _lstm_feeds(rng, n)
        ours = _compare(m, session, feeds, xml)
        parts = [feeds["x"][:, 3 * t:3 * t + 3] for t in range(n)]
        hs = _lstm_numpy(feeds, parts[::-1] if reverse else parts)
        np.testing.assert_allclose(ours[0], hs[-1], rtol=1e-4, atol=1e-5)     # an independent check
        joined = np.concatenate(hs[::-1] if reverse else hs, axis=1)
        np.testing.assert_allclose(ours[2], joined, rtol=1e-4, atol=1e-5)
        assert ours[3].shape == (2 * n, 4) and ours[4].shape == (2, 4)


@pytest.mark.parametrize("seq", [6, -1], ids=["static", "dynamic"])
@pytest.mark.parametrize("start_end,reverse", [((3, -4), False), ((-4, 3), True), ((-4, 0), True), ((-13, -1), False),
                                               ((-2, 3), True), ((1, -1), False)])
def test_tensor_iterator_sub_range(seq, start_end, reverse, tmp_path):
    """start/end inside the axis (negative ones count from its end: -1 is the end itself); the last two
    leave a remainder shorter than a part (OpenVINO's CPU plugin rejects those; opref drops it)."""
    m, _, session, _ = _export(lstm_iterator(reverse, seq, start_end=start_end), tmp_path, "lstm_ti_range")
    rng = np.random.default_rng(4)
    for n in ((6,) if seq > 0 else (6, 5)):
        feeds = _lstm_feeds(rng, n)
        length = 3 * n
        s, e = (v if v >= 0 else length + v + 1 for v in start_end)
        # not OpenVINO's CPU plugin: it takes as many parts as opref but from the axis's beginning (its end
        # when stride < 0), ignoring start; opref's parts are checked against a transcription below
        ours = _compare(m, session, feeds)
        lo, hi = min(s, e), max(s, e)
        parts = [feeds["x"][:, k:k + 3] for k in range(lo, hi - 2, 3)] if not reverse else \
            [feeds["x"][:, k - 3:k] for k in range(hi, lo + 2, -3)]
        hs = _lstm_numpy(feeds, parts)
        np.testing.assert_allclose(ours[0], hs[-1], rtol=1e-4, atol=1e-5)
        assert ours[2].shape == (2, 4 * len(parts))


def nested_model():
    """An If whose then-branch runs a Loop (x <- sigmoid(x) + sigmoid(clamp(x0)), 3 times, every x
    concatenated): a body inside a body, with an invariant input."""
    c = ops.parameter([], ov.Type.boolean, name="c")
    x = ops.parameter([1, 2], ov.Type.f32, name="x")
    tx, ex = ops.parameter([1, 2], ov.Type.f32, name="tx"), ops.parameter([1, 2], ov.Type.f32, name="ex")
    bx, bk = ops.parameter([1, 2], ov.Type.f32, name="bx"), ops.parameter([1, 2], ov.Type.f32, name="bk")
    new = ops.add(ops.sigmoid(bx), ops.sigmoid(bk))     # (as Concat + ReduceSum, OpenVINO's CPU plugin errs)
    body = ov.Model([ops.result(ops.constant(np.array(True))), ops.result(new)], [bx, bk], "body")
    loop = ops.loop(ops.constant(np.array(3, np.int64)), ops.constant(np.array(True)))
    loop.set_function(body)
    loop.set_special_body_ports([-1, 0])
    loop.set_merged_input(bx, tx.output(0), new.output(0))
    loop.set_invariant_input(bk, ops.clamp(tx, -1.0, 1.0).output(0))
    then_body = ov.Model([ops.result(loop.get_concatenated_slices(new.output(0), 0, 1, 1, -1, 0))], [tx], "then")
    else_body = ov.Model([ops.result(ops.concat([ops.relu(ex), ex, ex], 0))], [ex], "else")
    node = ops.if_op(c)
    node.set_then_body(then_body)
    node.set_else_body(else_body)
    node.set_input(x.output(0), tx, ex)
    out = node.set_output(then_body.get_results()[0], else_body.get_results()[0])
    return ov.Model([ops.result(out)], [c, x], "nested")


def test_loop_inside_if(tmp_path):
    m, exported, session, xml = _export(nested_model(), tmp_path, "nested")
    x = np.array([[0.5, -1.5]], np.float32)
    for c in (True, False):
        ours = _compare(m, session, {"c": np.array(c), "x": x}, xml)
        assert ours[0].shape == (3, 2)
    prev, want = x.astype(np.float64), []
    for _ in range(3):
        prev = 1 / (1 + np.exp(-prev)) + 1 / (1 + np.exp(-np.clip(x, -1, 1)))
        want.append(prev)
    np.testing.assert_allclose(_compare(m, session, {"c": np.array(True), "x": x})[0], np.concatenate(want), rtol=1e-6)


def test_body_without_onnx_form_is_reported(tmp_path, monkeypatch):
    """A body layer with no lowering makes the sub-graph op unsupported, with the body layer named."""
    from opref.onnx import registry
    lowerings, none = registry._tables()
    patched = dict(lowerings)
    del patched["Sigmoid-1"]
    monkeypatch.setattr(registry, "_tables", lambda: (patched, none))
    xml = tmp_path / "loop.xml"
    ov.save_model(counting_loop(4), str(xml))
    with pytest.raises(opref.ExportError) as e:
        to_onnx(opref.load(xml).graph)
    ops_named = {op for _, op, _, _ in e.value.unsupported}
    assert ops_named == {"Sigmoid-1", "Loop-5"}


def test_single_case_has_no_form():
    from opref.onnx.control import LOWERINGS
    from opref.onnx.builder import Builder, Call
    from opref.opset import get_schema
    got = LOWERINGS["If-8"](Builder(), Call(get_schema("If-8"), {}, [], []))
    assert isinstance(got, Unsupported) and "inside a model" in got.reason
