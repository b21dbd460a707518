"""`opref compare` and `--find-divergence` end to end: small networks written by OpenVINO at test time with,
in their middle, an op on which OpenVINO's CPU plugin departs from the spec (Relu and Clamp map NaN to a
number; the spec, opref and onnxruntime keep NaN), fed inputs that trigger the departure."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import opref


def _strict(text):
    def bad(c):
        raise AssertionError(f"non-strict JSON constant {c}")
    return json.loads(text, parse_constant=bad)


def opref_cli(*args, check=None):
    p = subprocess.run([sys.executable, "-m", "opref.cli", *map(str, args)], capture_output=True, text=True,
                       env=dict(os.environ), timeout=300)
    if check is not None:
        assert p.returncode == check, f"exit {p.returncode}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}"
    return p


def _network(path: Path, act: str) -> Path:
    """x -> Add(0.5) -> act -> Multiply(2) -> y; x -> Subtract(1) -> z (a branch both backends agree on)."""
    import openvino as ov
    import openvino.opset13 as ops
    x = ops.parameter([2, 8], np.float32, name="x")
    add = ops.add(x, ops.constant(np.full([1, 8], 0.5, np.float32)), name="add")
    mid = {"relu": lambda: ops.relu(add, name="act"),
           "clamp": lambda: ops.clamp(add, -1.0, 1.0, name="act"),
           "tanh": lambda: ops.tanh(add, name="act")}[act]()
    mul = ops.multiply(mid, ops.constant(np.full([1, 8], 2.0, np.float32)), name="mul")
    mul.output(0).set_names({"y"})
    sub = ops.subtract(x, ops.constant(np.float32(1.0)), name="sub")
    sub.output(0).set_names({"z"})
    model = ov.Model([ops.result(mul, name="y/sink"), ops.result(sub, name="z/sink")], [x], act)
    xml = path / f"{act}.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    return xml


def _x(nan=True):
    x = np.linspace(-2, 2, 16, dtype=np.float32).reshape(2, 8)
    if nan:
        x[0, 3] = np.nan
        x[1, 6] = np.nan
    return x


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    d = tmp_path_factory.mktemp("models")
    x = d / "x_nan.npy"
    np.save(x, _x())
    np.save(d / "x_finite.npy", _x(nan=False))
    return d, {a: _network(d, a) for a in ("relu", "clamp", "tanh")}


@pytest.mark.parametrize("act", ["relu", "clamp"])
def test_compare_names_the_output_that_differs(models, act):
    d, xml = models
    p = opref_cli("compare", xml[act], "--input", f"x={d / 'x_nan.npy'}", "--json", check=1)
    doc = _strict(p.stdout)
    assert doc["reference"] == "opref" and doc["passed"] is False
    by = {(o["backend"], o["output"]): o for o in doc["outputs"]}
    assert set(by) == {("openvino", "y"), ("openvino", "z")}
    y, z = by["openvino", "y"], by["openvino", "z"]
    assert z["passed"] is True and z["mismatched"] == 0
    assert y["passed"] is False
    assert y["nan_differs"] == 2 and y["nan_positions"] == [[0, 3], [1, 6]]
    assert y["mismatched"] == 2 and y["min_atol"] == "inf"          # no tolerance passes a one-sided NaN
    text = opref_cli("compare", xml[act], "--input", f"x={d / 'x_nan.npy'}", check=1).stdout
    assert "compared against opref" in text and "MISMATCH" in text and "NaN differs at 2 position(s)" in text


def test_compare_agreeing_models_exit_0(models):
    d, xml = models
    p = opref_cli("compare", xml["relu"], "--input", f"x={d / 'x_finite.npy'}", check=0)
    assert "PASSED" in p.stdout
    p = opref_cli("compare", xml["tanh"], "--input", f"x={d / 'x_nan.npy'}", "--find-divergence", "--json", check=0)
    doc = _strict(p.stdout)
    assert doc["passed"] is True and doc["divergence"] is None


def test_compare_onnxruntime_on_the_onnx_form(models, tmp_path):
    """onnxruntime keeps Relu(NaN) = NaN like opref: it agrees where OpenVINO does not."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    d, xml = models
    g = helper.make_graph(
        [helper.make_node("Add", ["x", "half"], ["a"]), helper.make_node("Relu", ["a"], ["r"]),
         helper.make_node("Mul", ["r", "two"], ["y"]), helper.make_node("Sub", ["x", "one"], ["z"])],
        "relu", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, [2, 8]),     # outputs matched by name
         helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 8])],
        [numpy_helper.from_array(np.full([1, 8], 0.5, np.float32), "half"),
         numpy_helper.from_array(np.full([1, 8], 2.0, np.float32), "two"),
         numpy_helper.from_array(np.array(1.0, np.float32), "one")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, tmp_path / "relu.onnx")
    p = opref_cli("compare", xml["relu"], "--backends", "opref,openvino,onnxruntime", "--onnx", tmp_path / "relu.onnx",
                  "--input", f"x={d / 'x_nan.npy'}", "--json", check=1)
    doc = _strict(p.stdout)
    by = {(o["backend"], o["output"]): o["passed"] for o in doc["outputs"]}
    assert by == {("openvino", "y"): False, ("openvino", "z"): True,
                  ("onnxruntime", "y"): True, ("onnxruntime", "z"): True}


@pytest.mark.parametrize("act,op,attrs", [("relu", "Relu-1", {}), ("clamp", "Clamp-1", {"min": -1.0, "max": 1.0})])
def test_find_divergence_names_the_layer_and_writes_a_repro(models, tmp_path, act, op, attrs):
    d, xml = models
    repro = tmp_path / "repro"
    p = opref_cli("compare", xml[act], "--input", f"x={d / 'x_nan.npy'}", "--find-divergence", "--repro", repro,
                  "--json", check=1)
    dv = _strict(p.stdout)["divergence"]
    assert dv["layer"] == "act" and dv["op"] == op
    assert dv["attributes"] == attrs
    assert dv["inputs"] == [{"from": "add:0", "op": "Add-1", "status": "agree"}]
    assert [o["output"] for o in dv["outputs"]] == ["act:0"] and dv["outputs"][0]["nan_differs"] == 2
    assert dv["reproduced"] is True and Path(dv["repro"]) == repro
    case = repro / "cases" / dv["repro_case"]
    with np.load(case / "inputs.npz") as z:
        fed = list(z.values())
    assert len(fed) == 1 and np.array_equal(fed[0], _x() + np.float32(0.5), equal_nan=True)   # real values
    with np.load(case / "openvino_outputs.npz") as z, np.load(case / "expected.npz") as e:
        ov_out, ref = list(z.values())[0], list(e.values())[0]
    assert np.isnan(ref[0, 3]) and not np.isnan(ov_out[0, 3])
    # the repro reproduces the disagreement in `opref conformance run`
    r = opref_cli("conformance", "run", repro, "--backends", "opref,openvino", "--workers", "1", "-q", check=1)
    doc = _strict((repro / "results.json").read_text())
    status = {r_["backend"]: r_["status"] for r_ in doc["results"]}
    assert status == {"opref": "passed", "openvino": "failed"}, r.stdout
    text = opref_cli("compare", xml[act], "--input", f"x={d / 'x_nan.npy'}", "--find-divergence", "--repro",
                     tmp_path / "again", check=1).stdout
    assert "first divergent layer: 'act'" in text and op in text


def test_golden_outputs_and_the_smallest_passing_tolerance(models, tmp_path):
    d, xml = models
    ins, gold = tmp_path / "in.npz", tmp_path / "gold.npz"
    opref_cli("compare", xml["relu"], "--backends", "opref", "--seed", "3", "--save-inputs", ins,
              "--save-outputs", gold, check=0)
    with np.load(ins) as z:
        x = z["x"]
    with np.load(gold) as z:
        g = dict(z)
    y = np.maximum(x + np.float32(0.5), 0) * np.float32(2)           # the network by hand
    np.testing.assert_allclose(g["y"], y, rtol=1e-6)
    np.testing.assert_allclose(g["z"], x - 1, rtol=1e-6)
    g["z"][1, 2] += np.float32(0.25)                                  # a golden that differs by 0.25 at one place
    np.savez(gold, **g)
    p = opref_cli("compare", xml["relu"], "--backends", "opref,openvino", "--load-inputs", ins, "--load-outputs",
                  gold, "--rtol", "0", "--json", check=1)
    doc = _strict(p.stdout)
    assert doc["reference"] == "golden"
    for o in doc["outputs"]:
        assert o["passed"] is (o["output"] == "y")
        if o["output"] == "z":
            assert o["max_abs_at"] == [1, 2] and o["mismatched"] == 1
            assert abs(o["max_abs_error"] - 0.25) < 1e-6 and abs(o["min_atol"] - 0.25) < 1e-6
            assert abs(o["max_rel_error"] - 0.25 / abs(float(g["z"][1, 2]))) < 1e-5
    opref_cli("compare", xml["relu"], "--backends", "opref,openvino", "--load-inputs", ins, "--load-outputs",
              gold, "--rtol", "0", "--atol", "z:0.2500001", check=0)


def test_usage_errors_exit_2_without_traceback(models):
    d, xml = models
    p = opref_cli("compare", xml["relu"], "--input", f"nope={d / 'x_nan.npy'}", check=2)
    assert "no input named 'nope'" in p.stderr and "Traceback" not in p.stderr
    stateful = _stateful(d)          # onnxruntime without --onnx runs opref's export, which a state op stops
    p = opref_cli("compare", stateful, "--backends", "opref,onnxruntime", check=2)
    assert "--onnx" in p.stderr and "ReadValue-6" in p.stderr and "Traceback" not in p.stderr
    p = opref_cli("compare", xml["relu"], "--atol", "y:abc", check=2)
    assert "[OUTPUT:]NUMBER" in p.stderr


def _stateful(d: Path) -> Path:
    import openvino as ov
    from openvino import opset6
    x = opset6.parameter([2], np.float32, name="x")
    info = ov.op.util.VariableInfo()
    info.data_shape, info.data_type, info.variable_id = ov.PartialShape([2]), ov.Type.f32, "v"
    var = ov.op.util.Variable(info)
    add = opset6.add(opset6.read_value(x, var), x)
    xml = d / "stateful.xml"
    ov.save_model(ov.Model([opset6.result(add)], [opset6.assign(add, var)], [x], "stateful"), str(xml))
    return xml


def test_find_divergence_on_onnxruntime_through_opref_export(tmp_path):
    """onnxruntime's f64 LogSoftmax gives -inf on a row holding +inf where the spec (and opref) give NaN:
    compare runs opref's own ONNX export of the IR, and --find-divergence names that layer, with a repro
    that `opref conformance run --backends opref,onnxruntime` fails."""
    import openvino as ov
    import openvino.opset13 as ops
    x = ops.parameter([2, 4], np.float64, name="x")
    add = ops.add(x, ops.constant(np.full([1, 4], 0.5)), name="add")
    lsm = ops.log_softmax(add, 1, name="lsm")
    mul = ops.multiply(lsm, ops.constant(np.full([1, 4], 2.0)), name="mul")
    mul.output(0).set_names({"y"})
    xml = tmp_path / "lsm.xml"
    ov.save_model(ov.Model([ops.result(mul)], [x], "lsm"), str(xml))
    v = np.array([[0.0, 1.0, np.inf, 2.0], [0.0, 1.0, 2.0, 3.0]])
    np.save(tmp_path / "x.npy", v)
    repro = tmp_path / "repro"
    p = opref_cli("compare", xml, "--backends", "opref,onnxruntime", "--input", f"x={tmp_path / 'x.npy'}",
                  "--find-divergence", "--repro", repro, "--json", check=1)
    doc = _strict(p.stdout)
    assert doc["onnx_source"].startswith("exported by opref")
    dv = doc["divergence"]
    assert dv["layer"] == "lsm" and dv["op"] == "LogSoftmax-5" and dv["reproduced"] is True
    assert dv["inputs"] == [{"from": "add:0", "op": "Add-1", "status": "agree"}]
    r = opref_cli("conformance", "run", repro, "--backends", "opref,onnxruntime", "--workers", "1", "-q", check=1)
    status = {r_["backend"]: r_["status"] for r_ in _strict((repro / "results.json").read_text())["results"]}
    assert status == {"opref": "passed", "onnxruntime": "failed"}, r.stdout


def test_python_api(models):
    d, xml = models
    r = opref.compare(xml["relu"], backends=["opref", "openvino"], inputs={"x": _x()})
    assert isinstance(r, opref.CompareResult) and not r.passed
    assert [(o.output, o.passed) for o in r.outputs] == [("y", False), ("z", True)]
    _strict(r.to_json())
    r = opref.compare(opref.load(xml["clamp"]), backends="opref,openvino", inputs={"x": _x(nan=False)}, atol=0.0,
                      rtol={"y": 0.0})
    assert r.passed
