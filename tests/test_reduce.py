"""`opref reduce` end to end: 12-layer networks written by OpenVINO at test time with, in their middle, an op
on which OpenVINO's CPU plugin departs from the spec (Relu and Clamp map NaN to a number; the spec and opref
keep NaN); the reduced sub-graph is checked with `opref compare` on the files it writes. A user backend that
disagrees only on a ShapeOf -> Reshape pair checks the delta debugging on a minimum of two layers."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import opref
from opref.conformance.model_reduce import _ddmin, reduce_model
from test_compare import _strict, _x, opref_cli


def _network(path: Path, act: str) -> Path:
    """x -> add1 -> mul1 -> sub1 -> act -> mul2 -> add2 -> tr (Transpose) -> rs (Reshape to ShapeOf(mul2)) ->
    mul3 -> y; x -> abs -> sub2 -> z (a branch both backends agree on)."""
    import openvino as ov
    import openvino.opset13 as ops

    def c(v):
        return ops.constant(np.full([1, 8], v, np.float32))
    x = ops.parameter([2, 8], np.float32, name="x")
    s1 = ops.subtract(ops.multiply(ops.add(x, c(0.5), name="add1"), c(1.5), name="mul1"), c(0.25), name="sub1")
    mid = ops.relu(s1, name="act") if act == "relu" else ops.clamp(s1, -1.0, 1.0, name="act")
    m2 = ops.multiply(mid, c(2.0), name="mul2")
    t = ops.transpose(ops.add(m2, c(1.0), name="add2"), ops.constant(np.array([1, 0], np.int64)), name="tr")
    y = ops.multiply(ops.reshape(t, ops.shape_of(m2, name="shape"), False, name="rs"), c(3.0), name="mul3")
    y.output(0).set_names({"y"})
    z = ops.subtract(ops.abs(x, name="abs"), c(1.0), name="sub2")
    z.output(0).set_names({"z"})
    model = ov.Model([ops.result(y, name="y/sink"), ops.result(z, name="z/sink")], [x], act)
    xml = path / f"{act}.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    return xml


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    d = tmp_path_factory.mktemp("reduce")
    np.save(d / "x_nan.npy", _x())
    np.save(d / "x_finite.npy", _x(nan=False))
    return d, {a: _network(d, a) for a in ("relu", "clamp")}


@pytest.mark.parametrize("act,op", [("relu", "Relu-1"), ("clamp", "Clamp-1")])
def test_reduce_to_the_departing_layer_fed_with_real_values(models, tmp_path, act, op):
    d, xml = models
    assert sum(1 for n in opref.load(xml[act]).graph.nodes if n.schema.name not in ("Parameter", "Constant",
                                                                                      "Result")) == 12
    out = tmp_path / "reduced"
    p = opref_cli("reduce", xml[act], "--backends", "opref,openvino", "--input", f"x={d / 'x_nan.npy'}",
                  "--out", out, check=1)
    summary = p.stdout.strip().splitlines()[-1]
    assert summary.startswith(f"reduced 12 layers -> 1 ({op}); openvino vs opref on 'act:0': NaN differs at 2")
    doc = _strict((out / "reduce.json").read_text())
    assert [(x["name"], x["op"]) for x in doc["layers"]] == [("act", op)] and doc["start"] == "act"
    assert doc["layers_before"] == 12 and doc["layers_after"] <= 3 and doc["summary"] == summary
    # fed with the recorded input of `act` (not random data), and both backends' outputs are written
    with np.load(out / "inputs.npz") as z:
        fed = dict(z)
    x = _x()
    want = (x + np.float32(0.5)) * np.float32(1.5) - np.float32(0.25)
    assert list(fed) == ["sub1:0"] and np.array_equal(fed["sub1:0"], want, equal_nan=True)
    with np.load(out / "opref_outputs.npz") as r, np.load(out / "openvino_outputs.npz") as o:
        ref, ov_out = r["act:0"], o["act:0"]
    assert np.isnan(ref[0, 3]) and np.isnan(ref[1, 6]) and not np.isnan(ov_out[0, 3])
    # the written IR with its inputs still disagrees in `opref compare`
    c = opref_cli("compare", out / "reduced.xml", "--load-inputs", out / "inputs.npz", "--json", check=1)
    outs = _strict(c.stdout)["outputs"]
    assert [(o["output"], o["passed"], o["nan_differs"]) for o in outs] == [("act:0", False, 2)]
    assert (out / "command.txt").read_text().startswith(f"opref compare {out / 'reduced.xml'}")
    # ... and as ONNX (verified against opref when written): onnxruntime keeps the spec's NaN, as opref
    assert doc["files"]["onnx"] == str(out / "reduced.onnx") and doc["onnx_reason"] is None
    import onnxruntime as ort
    (y,) = ort.InferenceSession(str(out / "reduced.onnx")).run(None, {"sub1:0": fed["sub1:0"]})
    assert np.array_equal(y, ref, equal_nan=True)


def test_reduce_from_the_whole_model(models):
    """Without the divergence search, delta debugging shrinks the whole model to the same layer."""
    d, xml = models
    r = reduce_model(xml["clamp"], "opref,openvino", {"x": _x()}, from_divergence=False)
    assert r.disagree and r.start is None and r.trials > 1
    assert [x["name"] for x in r.layers] == ["act"] and r.ops == ["Clamp-1"]
    assert [(o.output, o.passed) for o in r.outputs] == [("act:0", False)]
    _strict(r.to_json())


class ContextBackend:
    """opref itself, but off by one on every output of a model where a ShapeOf feeds a Reshape."""
    name = "context"

    def run(self, case):
        m = opref.load(case.ir_path)
        outs = list(m.run(case.inputs).values())
        if any(n.schema.name == "Reshape" and n.inputs[1].node.schema.name == "ShapeOf" for n in m.graph.nodes):
            outs = [y + np.float32(1) for y in outs]
        return outs


def test_reduce_keeps_the_layers_the_disagreement_needs(models):
    d, xml = models
    r = reduce_model(xml["relu"], "opref,test_reduce:ContextBackend", {"x": _x(nan=False)})
    assert r.disagree and r.start is None
    assert [(x["name"], x["op"]) for x in r.layers] == [("shape", "ShapeOf-3"), ("rs", "Reshape-1")]
    assert [(o.backend, o.output, o.passed) for o in r.outputs] == [("context", "rs:0", False)]
    assert abs(r.outputs[0].max_abs_error - 1.0) < 1e-6


def test_agreeing_model_has_nothing_to_reduce(models, tmp_path):
    d, xml = models
    out = tmp_path / "none"
    p = opref_cli("reduce", xml["relu"], "--input", f"x={d / 'x_finite.npy'}", "--out", out, check=0)
    assert "nothing to reduce" in p.stdout and not out.exists()
    p = opref_cli("reduce", xml["clamp"], "--input", f"x={d / 'x_finite.npy'}", "--json", check=0)
    doc = _strict(p.stdout)
    assert doc["disagree"] is False and doc["layers"] == [] and "nothing to reduce" in doc["summary"]


def test_usage_errors_exit_2(models, tmp_path):
    d, xml = models
    p = opref_cli("reduce", xml["relu"], "--backends", "opref,onnxruntime", check=2)
    assert "does not read IR" in p.stderr and "Traceback" not in p.stderr
    p = opref_cli("reduce", xml["relu"], "--backends", "opref", check=2)
    assert "no backend to compare" in p.stderr
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "keep.txt").write_text("x")
    p = opref_cli("reduce", xml["relu"], "--input", f"x={d / 'x_nan.npy'}", "--out", busy, check=2)
    assert "not empty" in p.stderr
    assert sorted(x.name for x in busy.iterdir()) == ["keep.txt"]


def test_ddmin_is_one_minimal():
    """Delta debugging ends on a sub-list from which no single item can be removed."""
    def test(items):
        s = set(items)
        return {3, 11} <= s or {15, 16} <= s
    got = _ddmin(list(range(20)), test)
    assert got in ([3, 11], [15, 16])
    assert all(not test([x for x in got if x != y]) for y in got)
    assert _ddmin([7], test) == [7]
