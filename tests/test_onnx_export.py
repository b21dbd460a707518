"""`opref.export_onnx` / `opref export-onnx` on real converter-written IRs: the CNNs of the model
catalogue, a transformer block and LSTM/GRU/RNN with dynamic dims, Loop/If/TensorIterator models,
FP16-compressed weights and an int8 QDQ model. Each export passes onnx's full checker and the
exporter's own verification; the ONNX file then runs on onnxruntime equal to opref and to OpenVINO on
the original IR, and OpenVINO's convert_model of the ONNX file gives the same outputs again. IRs with
ops that have no ONNX form, and a lowering made wrong on purpose, are refused: exit 1, no file, the
layers and reasons (or the first diverging layer) named."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import openvino as ov
import pytest
from onnx import TensorProto, helper, numpy_helper

import opref
from models import LIGHT_NAMES, MODELS, model_path, random_inputs
from opref.cli import main
from opref.onnx import registry
from oracles import CPU_CONFIG

CORE = ov.Core()
RTOL, ATOL = 1e-4, 1e-5

MODEL_CASES = [(n, "") for n in (*LIGHT_NAMES, "transformer_block", "lstm", "gru", "rnn", "loop", "if",
                                  "tensor_iterator", "tensor_iterator_reverse", "movement")] + \
    [(n, "fp16") for n in ("resnet50", "transformer_block", "lstm")]


def qdq_model_path(tmp_path) -> Path:
    """An int8 QDQ convolution (QuantizeLinear/DequantizeLinear around a Conv, as quantisation tools
    write them), converted to IR by OpenVINO."""
    rng = np.random.default_rng(3)
    w = rng.integers(-100, 100, (8, 3, 3, 3)).astype(np.int8)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
        helper.make_node("DequantizeLinear", ["w", "ws", "wz"], ["wd"]),
        helper.make_node("Conv", ["xd", "wd", "b"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["y"]),
    ]
    inits = [numpy_helper.from_array(np.array(0.05, np.float32), "xs"), numpy_helper.from_array(np.array(3, np.uint8), "xz"),
             numpy_helper.from_array(w, "w"), numpy_helper.from_array(np.array(0.01, np.float32), "ws"),
             numpy_helper.from_array(np.array(0, np.int8), "wz"),
             numpy_helper.from_array(rng.standard_normal(8).astype(np.float32), "b")]
    g = helper.make_graph(nodes, "qdq", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], initializer=inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    onnx.save(m, str(tmp_path / "qdq.onnx"))
    xml = tmp_path / "qdq.xml"
    ov.save_model(ov.convert_model(str(tmp_path / "qdq.onnx")), str(xml))
    return xml


def _ov_outputs(model_file, feeds, names):
    compiled = CORE.compile_model(str(model_file) if not isinstance(model_file, ov.Model) else model_file, "CPU",
                                  CPU_CONFIG)
    req = compiled.create_infer_request()
    res = req.infer([feeds[n] for n in names])
    return [np.asarray(res[o]) for o in compiled.outputs]


def _check_export(xml, name, tmp_path):
    model = opref.load(xml)
    out = tmp_path / "model.onnx"
    result = opref.export_onnx(model, out)
    assert result.verified and out.exists()
    onnx.checker.check_model(str(out), full_check=True)
    feeds = random_inputs(model, name, seed=1)      # other inputs than the exporter's own verification
    in_names = [p.name for p in model.inputs]
    ours = list(model.run(feeds).values())
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    assert [i.name for i in session.get_inputs()] == in_names, "input names kept"
    theirs = session.run(None, {n: feeds[n] for n in in_names})
    ov_ir = _ov_outputs(xml, feeds, in_names)
    ov_onnx = _ov_outputs(ov.convert_model(str(out)), feeds, in_names)
    for k, o in enumerate(ours):
        for who, t in (("onnxruntime", theirs[k]), ("OpenVINO on the IR", ov_ir[k]),
                       ("OpenVINO on the exported ONNX", ov_onnx[k])):
            t = np.asarray(t)
            assert t.shape == o.shape, f"{name} output {k}: {who} shape {t.shape}, opref {o.shape}"
            np.testing.assert_allclose(t.astype(np.float64) if t.dtype != bool else t, o.astype(np.float64)
                                       if o.dtype != bool else o, rtol=RTOL, atol=ATOL,
                                       err_msg=f"{name} output {k}: {who} vs opref")
    return model, out


@pytest.mark.parametrize("name,variant", MODEL_CASES, ids=[f"{n}{'_' + v if v else ''}" for n, v in MODEL_CASES])
def test_real_model_exports_and_runs_equal(name, variant, tmp_path):
    _check_export(model_path(name, variant), name, tmp_path)


def test_qdq_model_exports_and_runs_equal(tmp_path):
    _check_export(qdq_model_path(tmp_path), "qdq", tmp_path)


def test_dynamic_dims_are_named_and_intervals_recorded(tmp_path):
    model = opref.load(model_path("transformer_block"))
    out = tmp_path / "t.onnx"
    opref.export_onnx(model, out)
    g = onnx.load(str(out)).graph
    dims = g.input[0].type.tensor_type.shape.dim
    assert [d.dim_param for d in dims[:2]] == ["x_dim0", "x_dim1"] and dims[2].dim_value == 32
    # an interval dim: the bounds go to the metadata
    p = ov.opset13.parameter(ov.PartialShape([ov.Dimension(1, 8), 4]), np.float32, name="x")
    xml = tmp_path / "interval.xml"
    ov.save_model(ov.Model([ov.opset13.relu(p)], [p], "interval"), str(xml))
    opref.export_onnx(xml, tmp_path / "interval.onnx")
    meta = {p.key: p.value for p in onnx.load(str(tmp_path / "interval.onnx")).metadata_props}
    assert meta["opref.dim.x_dim0"] == "1..8"


def test_large_weights_go_to_external_data(tmp_path):
    out = tmp_path / "ext.onnx"
    r = opref.export_onnx(model_path("squeezenet"), out, external_data=True)
    assert r.external_data == "ext.onnx.data" and (tmp_path / "ext.onnx.data").stat().st_size > 1 << 20
    assert out.stat().st_size < 1 << 20
    onnx.checker.check_model(str(out), full_check=True)


def _stateful_xml(tmp_path) -> Path:
    from openvino import opset6
    x = opset6.parameter([2], np.float32, name="x")
    info = ov.op.util.VariableInfo()
    info.data_shape, info.data_type, info.variable_id = ov.PartialShape([2]), ov.Type.f32, "v"
    var = ov.op.util.Variable(info)
    rv = opset6.read_value(x, var)
    add = opset6.add(rv, x)
    assign = opset6.assign(add, var)
    m = ov.Model([opset6.result(add)], [assign], [x], "stateful")
    xml = tmp_path / "stateful.xml"
    ov.save_model(m, str(xml))
    return xml


def test_unexportable_layers_are_refused_with_reasons(tmp_path, capsys):
    xml = _stateful_xml(tmp_path)
    out = tmp_path / "s.onnx"
    assert main(["export-onnx", str(xml), str(out)]) == 1
    err = capsys.readouterr().err
    assert not out.exists() and not list(tmp_path.glob("*.onnx*"))
    assert "ReadValue-6" in err and "Assign-6" in err and "keep no state" in err
    with pytest.raises(opref.ExportError) as e:
        opref.export_onnx(xml, out)
    assert {op for _, op, _, _ in e.value.unsupported} == {"ReadValue-6", "Assign-6"}


def test_a_wrong_lowering_is_caught_and_the_layer_named(tmp_path, capsys, monkeypatch):
    p = ov.opset13.parameter([2, 3], np.float32, name="x")
    y = ov.opset13.exp(ov.opset13.relu(ov.opset13.sigmoid(p)))
    xml = tmp_path / "m.xml"
    ov.save_model(ov.Model([y], [p], "m"), str(xml))
    lowerings, none = registry._tables()
    wrong = dict(lowerings)
    wrong["Relu-1"] = lambda b, call: b.node("Sigmoid", [call.inputs[0]])     # not what Relu computes
    monkeypatch.setattr(registry, "_tables", lambda: (wrong, none))
    out = tmp_path / "m.onnx"
    assert main(["export-onnx", str(xml), str(out)]) == 1
    err = capsys.readouterr().err
    assert not out.exists()
    assert "first diverging layer" in err and "(Relu-1)" in err
    assert main(["export-onnx", str(xml), str(out), "--no-verify"]) == 0 and out.exists()


def test_cli_json_and_ops_table(tmp_path, capsys):
    import json
    out = tmp_path / "sq.onnx"
    assert main(["export-onnx", str(model_path("squeezenet")), str(out), "--json", "--opset", "18"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["exported"] and doc["verified"] and doc["opset"] == 18
    assert onnx.load(str(out)).opset_import[0].version == 18
    assert main(["ops", "--onnx", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == len(opref.list_schemas()) and all(r["onnx"] or r["reason"] for r in rows)


def test_docs_table_is_current():
    from opref.onnx.__main__ import table
    doc = Path(__file__).resolve().parents[1] / "docs" / "onnx.md"
    assert doc.read_text() == table(), "regenerate it: python -m opref.onnx > docs/onnx.md"
