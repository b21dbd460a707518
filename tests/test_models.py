"""Real architectures, written as IR by OpenVINO itself (tests/models.py), loaded, validated and run
by opref and compared with OpenVINO's CPU runtime (f32 inference precision) within rtol 1e-4,
atol 1e-5; then written by opref, read back by opref and by OpenVINO, with the same results."""
from __future__ import annotations

import numpy as np
import openvino as ov
import pytest

import opref
from models import MODELS, model_path, random_inputs
from oracles import CPU_CONFIG

CORE = ov.Core()
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


CASES = [(name, "") for name in MODELS] + [(n, "fp16") for n in ("resnet50", "transformer_block", "lstm")] + \
    [(n, "v10") for n in ("squeezenet", "gru", "loop")]


@pytest.mark.parametrize("name,variant", CASES, ids=[f"{n}{'_' + v if v else ''}" for n, v in CASES])
def test_model_matches_openvino_and_round_trips(name, variant, tmp_path):
    xml = model_path(name, variant)
    model = opref.load(xml)
    feeds = random_inputs(model, name)
    ours = list(model.run(feeds).values())
    theirs = ov_outputs(xml, feeds)
    assert_close(ours, theirs, f"{name}: opref vs OpenVINO")
    # output order and names as OpenVINO gives them
    ov_model = CORE.read_model(str(xml))
    assert [set(p.names) for p in model.outputs] == [set(o.names) for o in ov_model.outputs]
    assert [set(p.names) for p in model.inputs] == [set(i.names) for i in ov_model.inputs]
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


def _is_file_view(a) -> bool:
    """A view whose memory is the memory-mapped .bin (an mmap at the bottom of its base chain)."""
    import mmap
    while a is not None:
        if isinstance(a, (np.memmap, mmap.mmap)):
            return True
        a = getattr(a, "base", None) if isinstance(a, np.ndarray) else getattr(a, "obj", None)
    return False


def test_weights_are_memory_mapped():
    model = opref.load(model_path("resnet50"))
    consts = [n.value for n in model.graph.nodes if n.schema.name == "Constant" and n.value.dtype == np.float32]
    assert consts and all(_is_file_view(v) for v in consts)


# lstm: the zero initial state of a converted ONNX LSTM is Broadcast(0, Concat(Gather(ShapeOf(x)), ...)),
# whose shape OpenVINO bounds through the values ([2..3,2,8]); so does opref (runtime/infer.py).
@pytest.mark.parametrize("name,shapes", [
    ("lstm", {"x": "?,2..3,5"}),
    ("transformer_block", {"x": "1..8,?,32"}),
    ("resnet50", {"gpu_0/data_0": "?,3,224,224"}),
    ("squeezenet", {"data_0": "1..4,3,224..320,?"}),
    ("inception_v2", {"data_0": "?,3,224,224"}),
])
def test_infer_shapes_matches_openvino_on_every_layer(name, shapes):
    """Model.infer_shapes with new input shapes against OpenVINO's Model.reshape, layer by layer."""
    xml = model_path(name)
    ours = opref.load(xml).infer_shapes(shapes)
    ov_model = CORE.read_model(str(xml))
    in_ir = {op.get_friendly_name() for op in ov_model.get_ordered_ops()}
    ov_model.reshape({k: ov.PartialShape(v) for k, v in shapes.items()})
    # OpenVINO's reshape (SmartReshape) may insert a shape sub-graph of its own (ShapeOf -> Gather ->
    # Concat for a Reshape target): those layers are not the IR's and are not asked of opref
    layers = [op for op in ov_model.get_ordered_ops() if op.get_type_name() != "Result"
              and op.get_friendly_name() in in_ir]
    compared, missing = 0, []
    for op in layers:
        name_ = op.get_friendly_name()
        if name_ not in ours:
            missing.append(f"{name_} ({op.get_type_name()})")
            continue
        theirs = [(str(op.get_output_partial_shape(i)).replace(" ", ""), op.get_output_element_type(i).get_type_name())
                  for i in range(op.get_output_size())]
        assert [(str(i.shape), i.element_type) for i in ours[name_]] == theirs, name_
        compared += 1
    assert not missing, f"{name}: {len(missing)} of OpenVINO's layers have no shapes from opref: {missing[:20]}"
    assert compared == len(layers) > 0
