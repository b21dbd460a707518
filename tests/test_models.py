"""Real architectures, written as IR by OpenVINO itself (tests/models.py), loaded, validated and run
by opref and compared with OpenVINO's CPU runtime (f32 inference precision) within rtol 1e-4,
atol 1e-5; then written by opref, read back by opref and by OpenVINO, with the same results."""
from __future__ import annotations

import numpy as np
import openvino as ov
import pytest

import opref
from models import MODELS, model_path, random_inputs

CORE = ov.Core()
CPU_CONFIG = {"INFERENCE_PRECISION_HINT": "f32"}
RTOL, ATOL = 1e-4, 1e-5


def ov_outputs(xml, feeds: dict) -> list[np.ndarray]:
    compiled = CORE.compile_model(str(xml), "CPU", CPU_CONFIG)
    request = compiled.create_infer_request()
    result = request.infer({i: feeds[p.any_name] if p.any_name in feeds else feeds[list(feeds)[i]]
                            for i, p in enumerate(compiled.inputs)})
    return [np.asarray(result[o]) for o in compiled.outputs]


def assert_close(ours, theirs, what):
    assert len(ours) == len(theirs), what
    for k, (a, b) in enumerate(zip(ours, theirs)):
        assert a.shape == b.shape, f"{what} output {k}: shape {a.shape} vs {b.shape}"
        np.testing.assert_allclose(a, b, rtol=RTOL, atol=ATOL, err_msg=f"{what} output {k}")


CASES = [(name, False) for name in MODELS] + [(n, True) for n in ("resnet50", "transformer_block", "lstm")]


@pytest.mark.parametrize("name,fp16", CASES, ids=[f"{n}{'_fp16' if f else ''}" for n, f in CASES])
def test_model_matches_openvino_and_round_trips(name, fp16, tmp_path):
    xml = model_path(name, fp16)
    model = opref.load(xml)
    feeds = random_inputs(model, name)
    ours = list(model.run(feeds).values())
    theirs = ov_outputs(xml, feeds)
    assert_close(ours, theirs, f"{name}: opref vs OpenVINO")
    # output order and names as OpenVINO gives them
    ov_model = CORE.read_model(str(xml))
    assert [p.name for p in model.outputs] == [o.any_name for o in ov_model.outputs] or \
        all(p.name in o.names for p, o in zip(model.outputs, ov_model.outputs))
    assert [p.name for p in model.inputs] == [i.any_name for i in ov_model.inputs]
    # the writer: opref reads back what it wrote, and so does OpenVINO
    out = tmp_path / "rt.xml"
    opref.save(model, out)
    again = opref.load(out)
    assert_close(list(again.run(feeds).values()), ours, f"{name}: load(save(load(x)))")
    assert [p.name for p in again.outputs] == [p.name for p in model.outputs]
    assert [str(p.shape) for p in again.outputs] == [str(p.shape) for p in model.outputs]
    assert_close(ov_outputs(out, feeds), theirs, f"{name}: OpenVINO on opref's IR")


@pytest.mark.parametrize("name", ["transformer_block", "lstm", "resnet50"])
def test_shapes_match_openvino(name):
    """Whole-graph inference on the model's own (partial) input shapes equals OpenVINO's, per output."""
    xml = model_path(name)
    model = opref.load(xml)
    ov_model = CORE.read_model(str(xml))
    assert [str(p.shape) for p in model.outputs] == [str(o.get_partial_shape()).replace(" ", "") for o in ov_model.outputs]


def test_bundled_example_matches_openvino(tmp_path):
    """The model the README runs: committed IR, as examples/make_example.py had OpenVINO write it."""
    from pathlib import Path
    from opref import cli
    xml = Path(__file__).parent.parent / "examples" / "tiny_cnn.xml"
    model = opref.load(xml)
    feeds = {"image": np.random.default_rng(3).standard_normal((1, 3, 32, 32)).astype(np.float32)}
    assert_close(list(model.run(feeds).values()), ov_outputs(xml, feeds), "tiny_cnn")
    out = tmp_path / "out.npz"
    assert cli.main(["run", str(xml), "--output", str(out)]) == 0
    assert np.load(out)["probabilities"].shape == (1, 10)
