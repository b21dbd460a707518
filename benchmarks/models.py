"""The models of the model tests and of the benchmarks, written as IR by OpenVINO itself: the onnx
package's light CNNs (weights redrawn, see `light_model`) and ONNX graphs built here (a transformer
encoder block with dynamic batch and sequence dims, LSTM/GRU/RNN models), each converted with
`ov.convert_model` from an ONNX file kept beside the IR (`onnx_path`: the original that onnxruntime
and onnx.reference run); sub-graph models (Loop, If, TensorIterator) and data-movement models built
with OpenVINO's Python API. Each is saved with `ov.save_model` (FP16-compressed and IR v10 variants
too). Files are cached in one directory shared by test workers and benchmark runs."""
from __future__ import annotations

import os
import tempfile
from collections import defaultdict
from pathlib import Path

import numpy as np
import onnx
import openvino as ov
from onnx import TensorProto, helper, numpy_helper

LIGHT = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light"
REVISION = 2    # of what the builders write; part of the cache's name (2: light weights redrawn in ONNX)
CACHE = Path(tempfile.gettempdir()) / f"opref-models-{ov.__version__.split('-')[0]}-{onnx.__version__}-r{REVISION}"


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


# --- the onnx package's light models, weights redrawn ------------------------------------------------
_SHAPE_ONLY = {"Reshape", "Unsqueeze", "Squeeze", "Flatten"}      # a weight passes through these unchanged
_SCALES = {("BatchNormalization", 1), ("BatchNormalization", 4), ("Mul", 0), ("Mul", 1)}


def light_model(name: str) -> onnx.ModelProto:
    """A light model of the onnx package with every f32 weight redrawn, keeping every op and shape.

    Its generated weights (ConstantOfShape of one value) make every channel equal, so its logits tie
    and the softmax output is decided by f32 rounding noise. Redrawn (seeded by the name, in graph
    order): He-scaled normal for the weight of a Conv, Gemm or MatMul; 1 + 0.1 N for a factor
    (BatchNormalization scale and variance, the variance as |.|; a Mul operand); 0.1 N for the rest
    (biases, means). The weights become initializers, so the IR converted from this model, onnxruntime
    and onnx.reference all compute the same thing."""
    src = onnx.shape_inference.infer_shapes(onnx.load(str(LIGHT / f"light_{name}.onnx")))
    g = src.graph
    inits = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    generated = {n.output[0]: inits[n.input[0]].astype(np.int64) for n in g.node if n.op_type == "ConstantOfShape"}
    shapes = {**{k: list(v.shape) for k, v in inits.items()}, **{k: list(v) for k, v in generated.items()},
              **{v.name: [d.dim_value for d in v.type.tensor_type.shape.dim] for v in g.value_info}}
    consumers = defaultdict(list)
    for node in g.node:
        for i, x in enumerate(node.input):
            consumers[x].append((node, i))

    def use(x):
        """(node, input index, shape there) of the first consumer that computes with x."""
        node, i = consumers[x][0]
        if node.op_type in _SHAPE_ONLY and i == 0:
            return use(node.output[0])
        return node, i, shapes[x]

    def is_weight(x):
        if x in generated:
            return int(np.prod(generated[x])) > 1
        return x in inits and inits[x].dtype == np.float32 and inits[x].size > 1

    rng = np.random.default_rng(sum(map(ord, name)))
    weights = {}
    for node in g.node:
        for x in node.input:
            if x in weights or not is_weight(x) or node.op_type == "ConstantOfShape":
                continue
            user, i, there = use(x)
            attrs = {a.name: helper.get_attribute_value(a) for a in user.attribute}
            n = rng.standard_normal(shapes[x])
            if (user.op_type, i) in (("Conv", 1), ("Gemm", 1), ("MatMul", 1)):
                fan_in = (int(np.prod(there[1:])) if user.op_type == "Conv" else
                          there[1] if user.op_type == "Gemm" and attrs.get("transB") else there[-2])
                value = n * np.sqrt(2.0 / max(fan_in, 1))
            elif (user.op_type, i) in _SCALES:
                value = np.abs(1 + 0.1 * n) if i == 4 else 1 + 0.1 * n
            else:
                value = 0.1 * n
            weights[x] = value.astype(np.float32)
    nodes = [n for n in g.node if n.output[0] not in weights]
    used = {x for n in nodes for x in n.input}
    initializers = [numpy_helper.from_array(v, k) for k, v in weights.items()] + \
        [t for t in g.initializer if t.name in used and t.name not in weights]
    graph = helper.make_graph(nodes, f"light_{name}", [i for i in g.input if i.name not in inits],
                              list(g.output), initializers)
    model = helper.make_model(graph, opset_imports=list(src.opset_import), ir_version=8)
    _temper_logits(model, weights)
    return model


def _temper_logits(model: onnx.ModelProto, weights: dict, target_std: float = 3.0) -> None:
    """He-scaled weights through residual and concatenating blocks grow the logits to thousands, and
    the softmax saturates to one-hot. The classifier (the last Conv/Gemm: what follows it up to the
    Softmax is positively homogeneous - Relu, pooling, reshapes) is rescaled, weight and bias, so the
    logits of the seed-0 input have target_std. One onnxruntime run, at build time only."""
    import onnxruntime
    g = model.graph
    softmax = [n for n in g.node if n.op_type == "Softmax"]
    if not softmax:
        return
    probe = onnx.ModelProto()
    probe.CopyFrom(model)
    probe.graph.output.append(helper.make_tensor_value_info(softmax[-1].input[0], TensorProto.FLOAT, None))
    session = onnxruntime.InferenceSession(probe.SerializeToString(), providers=["CPUExecutionProvider"])
    x = session.get_inputs()[0]
    logits = session.run(None, {x.name: np.random.default_rng(0).standard_normal(x.shape).astype(np.float32)})[-1]
    classifier = [n for n in g.node if n.op_type in ("Conv", "Gemm")][-1]
    factor = target_std / float(np.std(logits))
    for t in g.initializer:
        if t.name in classifier.input[1:] and t.name in weights:
            t.CopyFrom(numpy_helper.from_array((weights[t.name] * factor).astype(np.float32), t.name))


# --- data movement through OpenVINO's Python API (ONNX twin where ONNX has the ops) ----------------
MOVEMENT_SHAPE = (1, 64, 128, 128)      # 4 MiB of f32


def _const(values, dtype=np.int64):
    return _ops15().constant(np.array(values, dtype))


def _ops15():
    import openvino.opset15 as ops
    return ops


def movement_model() -> ov.Model:
    """DepthToSpace, SpaceToDepth, Transpose and Col2Im in a chain on a 4 MiB tensor."""
    ops = _ops15()
    n, c, h, w = MOVEMENT_SHAPE
    x = ops.parameter(MOVEMENT_SHAPE, ov.Type.f32, name="x")
    a = ops.depth_to_space(x, "blocks_first", 2)                       # [1, 16, 256, 256]
    b = ops.space_to_depth(a, "blocks_first", 2)                       # [1, 64, 128, 128]
    t = ops.transpose(b, _const([0, 1, 3, 2]))                         # a spatial transpose
    cols = ops.reshape(t, _const([n, c, h * w]), False)                # 16 channels x 2x2 taps, 128x128 blocks
    y = ops.col2im(cols, _const([h + 1, w + 1]), _const([2, 2]))       # overlapping windows: [1, 16, 129, 129]
    y.output(0).get_tensor().set_names({"y"})
    return ov.Model([ops.result(y)], [x], "movement")


def movement_onnx() -> onnx.ModelProto:
    """The ONNX twin of `movement_model` (DCR is blocks_first; ONNX SpaceToDepth is blocks_first)."""
    n, c, h, w = MOVEMENT_SHAPE
    m = helper.make_node
    nodes = [m("DepthToSpace", ["x"], ["a"], blocksize=2, mode="DCR"),
             m("SpaceToDepth", ["a"], ["b"], blocksize=2),
             m("Transpose", ["b"], ["t"], perm=[0, 1, 3, 2]),
             m("Reshape", ["t", "cols_shape"], ["cols"]),
             m("Col2Im", ["cols", "image_shape", "block_shape"], ["y"])]
    inits = [_init("cols_shape", np.array([n, c, h * w], np.int64)),
             _init("image_shape", np.array([h + 1, w + 1], np.int64)), _init("block_shape", np.array([2, 2], np.int64))]
    graph = helper.make_graph(nodes, "movement", [helper.make_tensor_value_info("x", TensorProto.FLOAT, MOVEMENT_SHAPE)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


def movement_batch_model() -> ov.Model:
    """SpaceToBatch then BatchToSpace (ops ONNX lacks) on a 4 MiB tensor, cropped elsewhere than padded."""
    ops = _ops15()
    x = ops.parameter(MOVEMENT_SHAPE, ov.Type.f32, name="x")
    block = _const([1, 1, 2, 2])
    b = ops.space_to_batch(x, block, _const([0, 0, 1, 1]), _const([0, 0, 1, 1]))       # [4, 64, 65, 65]
    y = ops.batch_to_space(b, block, _const([0, 0, 0, 0]), _const([0, 0, 2, 2]))      # [1, 64, 128, 128]
    y.output(0).get_tensor().set_names({"y"})
    return ov.Model([ops.result(y)], [x], "movement_batch")


def chain_model(length: int = 1000) -> ov.Model:
    """Relu and Add alternating, `length` ops on a 4-element tensor: the executor's cost per node."""
    ops = _ops15()
    x = ops.parameter([4], ov.Type.f32, name="x")
    step = ops.constant(np.full(4, 1e-3, np.float32))
    y = x
    for i in range(length):
        y = ops.relu(y) if i % 2 == 0 else ops.add(y, step)
    y.output(0).get_tensor().set_names({"y"})
    return ov.Model([ops.result(y)], [x], f"chain{length}")


# --- the catalogue -------------------------------------------------------------------------------------
LIGHT_NAMES = ("resnet50", "squeezenet", "densenet121", "inception_v1", "inception_v2", "shufflenet", "bvlc_alexnet")

# The ONNX original of each model that has one: the IR is converted from exactly this file
ONNX_MODELS = {
    **{name: (lambda name=name: light_model(name)) for name in LIGHT_NAMES},
    "transformer_block": transformer_block,
    "lstm": lambda: recurrent("LSTM"),
    "gru": lambda: recurrent("GRU", direction="forward"),
    "rnn": lambda: recurrent("RNN", direction="reverse"),
    "movement": movement_onnx,
}


def _converted(name):
    return lambda: ov.convert_model(str(onnx_path(name)))


MODELS = {
    **{name: _converted(name) for name in (*LIGHT_NAMES, "transformer_block", "lstm", "gru", "rnn")},
    "loop": loop_model,
    "if": if_model,
    "tensor_iterator": tensor_iterator_model,
    "tensor_iterator_reverse": lambda: tensor_iterator_model(reverse=True),
    "movement": movement_model,
    "movement_batch": movement_batch_model,
}

# Models of the benchmarks only
BENCH_MODELS = {"chain1000": chain_model, "chain10000": lambda: chain_model(10000)}

# Concrete input shapes for models with dynamic dims
SHAPES = {"transformer_block": {"x": (2, 7, 32)}, "lstm": {"x": (6, 2, 5)}, "gru": {"x": (4, 3, 5)},
          "rnn": {"x": (5, 1, 5)}}


def _publish(path: Path, write) -> Path:
    """Writes path (and its .bin, if write makes one) in a private directory, then moves it in place:
    parallel workers never see a half-written file; the .xml/.onnx moves last."""
    tmp = Path(tempfile.mkdtemp(dir=CACHE))
    write(tmp / path.name)
    if (tmp / path.with_suffix(".bin").name).exists():
        os.replace(tmp / path.with_suffix(".bin").name, path.with_suffix(".bin"))
    os.replace(tmp / path.name, path)
    tmp.rmdir()
    return path


def onnx_path(name: str) -> Path:
    """model.onnx, the ONNX original of a model of ONNX_MODELS (cached)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"{name}.onnx"
    if not path.exists():
        _publish(path, lambda p: onnx.save(ONNX_MODELS[name](), str(p)))
    return path


def model_path(name: str, variant: str = "") -> Path:
    """model.xml written by OpenVINO (cached; written atomically, safe with parallel workers):
    variant "" is ov.save_model, "fp16" ov.save_model(compress_to_fp16=True), "v10" ov.serialize as IR v10."""
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"{name}{'_' + variant if variant else ''}.xml"
    if not path.exists():
        model = {**MODELS, **BENCH_MODELS}[name]()
        if variant == "v10":
            _publish(path, lambda p: ov.serialize(model, str(p), version="IR_V10"))
        else:
            _publish(path, lambda p: ov.save_model(model, str(p), compress_to_fp16=variant == "fp16"))
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
