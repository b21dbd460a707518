"""Real models for the model tests, written as IR by OpenVINO itself at test time: the onnx
package's light CNNs and ONNX graphs built here (a transformer encoder block with dynamic batch and
sequence dims, LSTM/GRU/RNN models) converted with `ov.convert_model`, sub-graph models (Loop, If,
TensorIterator) built with OpenVINO's Python API, each saved with `ov.save_model` (FP16-compressed
variants too). Files are cached in one directory shared by the test workers."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np
import onnx
import openvino as ov
from onnx import TensorProto, helper, numpy_helper

LIGHT = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light"
CACHE = Path(tempfile.gettempdir()) / f"opref-models-{ov.__version__.split('-')[0]}-{onnx.__version__}"


def _init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def transformer_block(d=32, heads=4, ff=64, seed=0) -> onnx.ModelProto:
    """A pre-norm transformer encoder block on x: f32[batch, seq, d] with dynamic batch and seq."""
    rng = np.random.default_rng(seed)
    w = lambda *s: (rng.standard_normal(s) / np.sqrt(s[0])).astype(np.float32)
    dh = d // heads
    inits = [_init("ln_g", 1 + 0.1 * rng.standard_normal(d).astype(np.float32)),
             _init("ln_b", 0.1 * rng.standard_normal(d).astype(np.float32)),
             _init("wq", w(d, d)), _init("wk", w(d, d)), _init("wv", w(d, d)), _init("wo", w(d, d)),
             _init("bq", 0.1 * rng.standard_normal(d).astype(np.float32)),
             _init("w1", w(d, ff)), _init("b1", 0.1 * rng.standard_normal(ff).astype(np.float32)),
             _init("w2", w(ff, d)), _init("heads_shape", np.array([0, 0, heads, dh], np.int64)),
             _init("merge_shape", np.array([0, 0, d], np.int64)),
             _init("scale", np.array(1 / np.sqrt(dh), np.float32)),
             _init("half", np.array(0.5, np.float32)), _init("one", np.array(1.0, np.float32)),
             _init("rsqrt2", np.array(1 / np.sqrt(2), np.float32))]
    n = helper.make_node
    nodes = [
        n("LayerNormalization", ["x", "ln_g", "ln_b"], ["h"], axis=-1, epsilon=1e-5),
        n("MatMul", ["h", "wq"], ["q0"]), n("Add", ["q0", "bq"], ["q1"]),
        n("MatMul", ["h", "wk"], ["k0"]), n("MatMul", ["h", "wv"], ["v0"]),
        n("Reshape", ["q1", "heads_shape"], ["q2"]), n("Transpose", ["q2"], ["q"], perm=[0, 2, 1, 3]),
        n("Reshape", ["k0", "heads_shape"], ["k2"]), n("Transpose", ["k2"], ["kt"], perm=[0, 2, 3, 1]),
        n("Reshape", ["v0", "heads_shape"], ["v2"]), n("Transpose", ["v2"], ["v"], perm=[0, 2, 1, 3]),
        n("MatMul", ["q", "kt"], ["s0"]), n("Mul", ["s0", "scale"], ["s1"]),
        n("Softmax", ["s1"], ["p"], axis=-1),
        n("MatMul", ["p", "v"], ["o0"]), n("Transpose", ["o0"], ["o1"], perm=[0, 2, 1, 3]),
        n("Reshape", ["o1", "merge_shape"], ["o2"]), n("MatMul", ["o2", "wo"], ["o3"]),
        n("Add", ["x", "o3"], ["r1"]),
        n("MatMul", ["r1", "w1"], ["f0"]), n("Add", ["f0", "b1"], ["f1"]),
        # GELU written out with Erf, as exporters do
        n("Mul", ["f1", "rsqrt2"], ["g0"]), n("Erf", ["g0"], ["g1"]), n("Add", ["g1", "one"], ["g2"]),
        n("Mul", ["f1", "g2"], ["g3"]), n("Mul", ["g3", "half"], ["g4"]),
        n("MatMul", ["g4", "w2"], ["f2"]), n("Add", ["r1", "f2"], ["y"]),
    ]
    graph = helper.make_graph(nodes, "transformer_block",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq", d])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", "seq", d])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def recurrent(kind="LSTM", hidden=8, inputs=5, direction="bidirectional", seed=1) -> onnx.ModelProto:
    """ONNX LSTM/GRU/RNN on x: f32[seq, batch, inputs] (dynamic seq and batch), then a Tanh."""
    rng = np.random.default_rng(seed)
    gates = {"LSTM": 4, "GRU": 3, "RNN": 1}[kind]
    nd = 2 if direction == "bidirectional" else 1
    inits = [_init("W", (0.3 * rng.standard_normal((nd, gates * hidden, inputs))).astype(np.float32)),
             _init("R", (0.3 * rng.standard_normal((nd, gates * hidden, hidden))).astype(np.float32)),
             _init("B", (0.1 * rng.standard_normal((nd, 2 * gates * hidden))).astype(np.float32))]
    attrs = {"hidden_size": hidden, "direction": direction}
    if kind == "GRU":
        attrs["linear_before_reset"] = 1
    outs = ["Y", "Y_h"] + (["Y_c"] if kind == "LSTM" else [])
    nodes = [helper.make_node(kind, ["x", "W", "R", "B"], outs, **attrs),
             helper.make_node("Tanh", ["Y"], ["y"])]
    graph = helper.make_graph(nodes, kind.lower(), [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["seq", "batch", inputs])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None),
                               helper.make_tensor_value_info("Y_h", TensorProto.FLOAT, None)], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)], ir_version=8)


# --- sub-graph models through OpenVINO's Python API ----------------------------------------------------
def _ops():
    import openvino.opset13 as ops
    return ops


def loop_model() -> ov.Model:
    """Loop: trip count 3, merged x -> x + 1, last value and concatenation; current-iteration port."""
    ops = _ops()
    x = ops.parameter([1, 2], ov.Type.f32, name="x")
    bx = ops.parameter([1, 2], ov.Type.f32, name="body_x")
    bi = ops.parameter([1], ov.Type.i64, name="body_iter")
    add = ops.add(bx, ops.constant(np.ones((1, 2), np.float32)))
    cond = ops.constant(np.array(True))
    body = ov.Model([ops.result(cond), ops.result(add)], [bx, bi], "body")
    loop = ops.loop(ops.constant(np.array(3, np.int64)), ops.constant(np.array(True)))
    loop.set_function(body)
    loop.set_special_body_ports([1, 0])
    loop.set_merged_input(bx, x.output(0), add.output(0))
    last = loop.get_iter_value(add.output(0), -1)
    concat = loop.get_concatenated_slices(add.output(0), 0, 1, 1, -1, 0)
    return ov.Model([ops.result(last), ops.result(concat)], [x], "loop")


def if_model() -> ov.Model:
    ops = _ops()
    c = ops.parameter([], ov.Type.boolean, name="c")
    x = ops.parameter([2, 3], ov.Type.f32, name="x")
    tx = ops.parameter([2, 3], ov.Type.f32, name="then_x")
    ex = ops.parameter([2, 3], ov.Type.f32, name="else_x")
    then_body = ov.Model([ops.result(ops.relu(tx))], [tx], "then")
    else_body = ov.Model([ops.result(ops.negative(ex))], [ex], "else")
    node = ops.if_op(c)
    node.set_then_body(then_body)
    node.set_else_body(else_body)
    node.set_input(x.output(0), tx, ex)
    out = node.set_output(then_body.get_results()[0], else_body.get_results()[0])
    return ov.Model([ops.result(out)], [c, x], "if")


def tensor_iterator_model(reverse=False) -> ov.Model:
    """TensorIterator over axis 1 of x: f32[2, 4, 3], h <- tanh(x_t W + h), concatenated outputs."""
    ops = _ops()
    rng = np.random.default_rng(5)
    x = ops.parameter([2, 4, 3], ov.Type.f32, name="x")
    h0 = ops.parameter([2, 3], ov.Type.f32, name="h0")
    bx = ops.parameter([2, 1, 3], ov.Type.f32, name="body_x")
    bh = ops.parameter([2, 3], ov.Type.f32, name="body_h")
    xt = ops.squeeze(bx, ops.constant(np.array([1], np.int64)))
    w = ops.constant((0.5 * rng.standard_normal((3, 3))).astype(np.float32))
    h = ops.tanh(ops.add(ops.matmul(xt, w, False, False), bh))
    h_out = ops.unsqueeze(h, ops.constant(np.array([1], np.int64)))
    body = ov.Model([ops.result(h), ops.result(h_out)], [bx, bh], "body")
    ti = ops.tensor_iterator()
    ti.set_body(body)
    if reverse:
        ti.set_sliced_input(bx, x.output(0), -1, -1, 1, 0, 1)
    else:
        ti.set_sliced_input(bx, x.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(bh, h0.output(0), h.output(0))
    last = ti.get_iter_value(h.output(0), -1)
    seq = ti.get_concatenated_slices(h_out.output(0), -1, -1, 1, 0, 1) if reverse else \
        ti.get_concatenated_slices(h_out.output(0), 0, 1, 1, -1, 1)
    return ov.Model([ops.result(last), ops.result(seq)], [x, h0], "ti")


# --- the catalogue -------------------------------------------------------------------------------------
def _light(name):
    """A light model of the onnx package: the real architecture, but its generated weights make every
    channel equal, so its logits tie and the softmax output is decided by f32 rounding noise. The
    weights are therefore redrawn (He-scaled normal, small biases), keeping every op and shape."""
    def convert():
        model = ov.convert_model(str(LIGHT / f"light_{name}.onnx"))
        rng = np.random.default_rng(sum(map(ord, name)))
        ops = _ops()
        for node in model.get_ordered_ops():
            if node.get_type_name() != "Constant" or node.get_output_element_type(0) != ov.Type.f32:
                continue
            shape = list(node.get_output_shape(0))
            if int(np.prod(shape)) <= 1:
                continue
            if len(shape) >= 2 and any(t.get_node().get_type_name() in ("Convolution", "GroupConvolution", "MatMul")
                                       for t in node.output(0).get_target_inputs()):
                fan_in = int(np.prod(shape[1:])) if len(shape) > 2 else shape[0]
                value = rng.standard_normal(shape) * np.sqrt(2.0 / max(fan_in, 1))
            else:
                value = 0.1 * rng.standard_normal(shape)
            new = ops.constant(value.astype(np.float32))
            new.set_friendly_name(node.get_friendly_name())
            node.output(0).replace(new.output(0))
        return model
    return convert


def _onnx(make):
    def convert():
        with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
            onnx.save(make(), f"{tmp}/model.onnx")
            return ov.convert_model(f"{tmp}/model.onnx")
    return convert


MODELS = {
    "resnet50": _light("resnet50"),
    "squeezenet": _light("squeezenet"),
    "densenet121": _light("densenet121"),
    "inception_v1": _light("inception_v1"),
    "inception_v2": _light("inception_v2"),
    "shufflenet": _light("shufflenet"),
    "bvlc_alexnet": _light("bvlc_alexnet"),
    "transformer_block": _onnx(transformer_block),
    "lstm": _onnx(lambda: recurrent("LSTM")),
    "gru": _onnx(lambda: recurrent("GRU", direction="forward")),
    "rnn": _onnx(lambda: recurrent("RNN", direction="reverse")),
    "loop": loop_model,
    "if": if_model,
    "tensor_iterator": tensor_iterator_model,
    "tensor_iterator_reverse": lambda: tensor_iterator_model(reverse=True),
}

# Concrete input shapes for models with dynamic dims
SHAPES = {"transformer_block": {"x": (2, 7, 32)}, "lstm": {"x": (6, 2, 5)}, "gru": {"x": (4, 3, 5)},
          "rnn": {"x": (5, 1, 5)}}


def model_path(name: str, variant: str = "") -> Path:
    """model.xml written by OpenVINO (cached; written atomically, safe with parallel workers):
    variant "" is ov.save_model, "fp16" ov.save_model(compress_to_fp16=True), "v10" ov.serialize as IR v10."""
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"{name}{'_' + variant if variant else ''}.xml"
    if not path.exists():
        model = MODELS[name]()
        tmp = Path(tempfile.mkdtemp(dir=CACHE))
        if variant == "v10":
            ov.serialize(model, str(tmp / path.name), version="IR_V10")
        else:
            ov.save_model(model, str(tmp / path.name), compress_to_fp16=variant == "fp16")
        os.replace(tmp / path.with_suffix(".bin").name, path.with_suffix(".bin"))
        os.replace(tmp / path.name, path)
        tmp.rmdir()
    return path


def random_inputs(model, name: str, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    feeds = {}
    for port in model.inputs:
        shape = SHAPES.get(name, {}).get(port.name) or port.shape.to_shape()
        dtype = _dtype(port.element_type)
        if dtype == np.bool_:
            feeds[port.name] = np.array(rng.random() < 0.5)
        else:
            feeds[port.name] = rng.standard_normal(shape).astype(dtype)
    return feeds


def _dtype(et):
    from opref.types import element_type
    return element_type(et).dtype
