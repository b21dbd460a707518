"""One op at a time on realistic sizes: opref.run_op vs OpenVINO (a one-op model compiled once) vs
onnxruntime (a one-op ONNX model); data-movement ops also against np.copyto of their output bytes."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .common import fmt, measure, onnxruntime_session, openvino_config, openvino_core, progress, ratio, table

MIN_TIME = 0.3      # seconds of timed calls at least, per op and runtime


@dataclass
class OpCase:
    label: str
    op: str                          # opref's versioned name
    inputs: list                     # arrays: the first is the model input, the rest are constants
    attrs: dict
    openvino: Callable               # (data node, *constant nodes) -> node
    onnx: tuple | None = None        # (op type, attributes, how many of `inputs` it takes); None: ONNX lacks the op
    onnx_inputs: list | None = None  # where ONNX's constants differ from opref's (layout)
    movement: bool = False
    extra: dict = field(default_factory=dict)


def _rand(*shape):
    return np.random.default_rng(len(shape) * 7 + sum(shape)).standard_normal(shape).astype(np.float32)


def _i64(*values):
    return np.array(values, np.int64)


def cases() -> list[OpCase]:
    import openvino.opset1 as o1
    import openvino.opset15 as o15
    conv = dict(strides=[1, 1], pads_begin=[1, 1], pads_end=[1, 1], dilations=[1, 1])
    pool = dict(strides=[2, 2], pads_begin=[1, 1], pads_end=[1, 1], kernel=[3, 3])
    onnx_pool = dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    dw, grouped = _rand(128, 1, 1, 3, 3), _rand(32, 4, 4, 3, 3)
    return [
        OpCase("Convolution 3x3 64->64 @56", "Convolution-1", [_rand(1, 64, 56, 56), _rand(64, 64, 3, 3)], conv,
               lambda x, w: o15.convolution(x, w, **conv), ("Conv", dict(pads=[1, 1, 1, 1]), 2)),
        OpCase("Convolution 1x1 256->64 @56", "Convolution-1", [_rand(1, 256, 56, 56), _rand(64, 256, 1, 1)],
               dict(conv, pads_begin=[0, 0], pads_end=[0, 0]),
               lambda x, w: o15.convolution(x, w, [1, 1], [0, 0], [0, 0], [1, 1]), ("Conv", {}, 2)),
        OpCase("Convolution 7x7/2 3->64 @224", "Convolution-1", [_rand(1, 3, 224, 224), _rand(64, 3, 7, 7)],
               dict(strides=[2, 2], pads_begin=[3, 3], pads_end=[3, 3], dilations=[1, 1]),
               lambda x, w: o15.convolution(x, w, [2, 2], [3, 3], [3, 3], [1, 1]),
               ("Conv", dict(strides=[2, 2], pads=[3, 3, 3, 3]), 2)),
        OpCase("GroupConvolution depthwise 3x3 128 @56", "GroupConvolution-1", [_rand(1, 128, 56, 56), dw], conv,
               lambda x, w: o15.group_convolution(x, w, **conv), ("Conv", dict(group=128, pads=[1, 1, 1, 1]), 2),
               onnx_inputs=[dw.reshape(128, 1, 3, 3)]),
        OpCase("GroupConvolution 32 groups 3x3 128 @28", "GroupConvolution-1", [_rand(1, 128, 28, 28), grouped], conv,
               lambda x, w: o15.group_convolution(x, w, **conv), ("Conv", dict(group=32, pads=[1, 1, 1, 1]), 2),
               onnx_inputs=[grouped.reshape(128, 4, 3, 3)]),
        OpCase("MatMul [1,256,768]x[768,768]", "MatMul-1", [_rand(1, 256, 768), _rand(768, 768)], {},
               lambda a, b: o15.matmul(a, b, False, False), ("MatMul", {}, 2)),
        OpCase("MaxPool 3x3/2 64 @112", "MaxPool-1", [_rand(1, 64, 112, 112)], pool,
               lambda x: o1.max_pool(x, [2, 2], [1, 1], [1, 1], [3, 3]), ("MaxPool", onnx_pool, 1)),
        OpCase("AvgPool 3x3/2 64 @112", "AvgPool-1", [_rand(1, 64, 112, 112)], {**pool, "exclude-pad": True},
               lambda x: o1.avg_pool(x, [2, 2], [1, 1], [1, 1], [3, 3], True),
               ("AveragePool", dict(onnx_pool, count_include_pad=0), 1)),
        OpCase("Softmax [1,12,128,128] axis -1", "Softmax-8", [_rand(1, 12, 128, 128)], {"axis": -1},
               lambda x: o15.softmax(x, -1), ("Softmax", dict(axis=-1), 1)),
        *_activation_normalization_sequence_cases(),
        OpCase("DepthToSpace [1,256,64,64] b2", "DepthToSpace-1", [_rand(1, 256, 64, 64)],
               {"mode": "blocks_first", "block_size": 2}, lambda x: o15.depth_to_space(x, "blocks_first", 2),
               ("DepthToSpace", dict(blocksize=2, mode="DCR"), 1), movement=True),
        OpCase("SpaceToDepth [1,64,128,128] b2", "SpaceToDepth-1", [_rand(1, 64, 128, 128)],
               {"mode": "blocks_first", "block_size": 2}, lambda x: o15.space_to_depth(x, "blocks_first", 2),
               ("SpaceToDepth", dict(blocksize=2), 1), movement=True),
        OpCase("SpaceToBatch [1,64,128,128] b2 pad1", "SpaceToBatch-2",
               [_rand(1, 64, 128, 128), _i64(1, 1, 2, 2), _i64(0, 0, 1, 1), _i64(0, 0, 1, 1)], {},
               lambda x, b, p0, p1: o15.space_to_batch(x, b, p0, p1), movement=True),
        OpCase("BatchToSpace [4,64,65,65] b2 crop1", "BatchToSpace-2",
               [_rand(4, 64, 65, 65), _i64(1, 1, 2, 2), _i64(0, 0, 1, 1), _i64(0, 0, 1, 1)], {},
               lambda x, b, c0, c1: o15.batch_to_space(x, b, c0, c1), movement=True),
        OpCase("Transpose [1,64,128,128] NCHW->NHWC", "Transpose-1", [_rand(1, 64, 128, 128), _i64(0, 2, 3, 1)], {},
               lambda x, p: o15.transpose(x, p), ("Transpose", dict(perm=[0, 2, 3, 1]), 1), movement=True),
        OpCase("Col2Im k2/2 [1,256,4096]->64x128x128", "Col2Im-15", [_rand(1, 256, 4096), _i64(128, 128), _i64(2, 2)],
               {"strides": [2, 2]}, lambda x, s, k: o15.col2im(x, s, k, strides=[2, 2]),
               ("Col2Im", dict(strides=[2, 2]), 3), movement=True),
        OpCase("Col2Im k3 pad1 [1,144,16384]->16x128x128", "Col2Im-15",
               [_rand(1, 144, 16384), _i64(128, 128), _i64(3, 3)], {"pads_begin": [1, 1], "pads_end": [1, 1]},
               lambda x, s, k: o15.col2im(x, s, k, pads_begin=[1, 1], pads_end=[1, 1]),
               ("Col2Im", dict(pads=[1, 1, 1, 1]), 3), movement=True),
    ]


def _activation_normalization_sequence_cases() -> list[OpCase]:
    """Softmax/LogSoftmax on a non-last axis, the normalisations (MVN as LayerNorm and as InstanceNorm),
    Gelu and Erf, and the recurrent sequences (ONNX's LSTM/GRU take time-major inputs: no ORT column)."""
    import openvino.opset1 as o1
    import openvino.opset5 as o5
    import openvino.opset6 as o6
    import openvino.opset7 as o7
    import openvino.opset12 as o12
    import openvino.opset15 as o15
    ones, zeros = (lambda n: np.ones(n, np.float32)), (lambda n: np.zeros(n, np.float32))
    mvn = dict(normalize_variance=True, eps=1e-5, eps_mode="inside_sqrt")
    n, t, i, h = 16, 50, 64, 128
    rnn = dict(hidden_size=h, direction="bidirectional")
    lstm = dict(rnn, activations=["sigmoid", "tanh", "tanh"], activations_alpha=[], activations_beta=[], clip=0.0)
    gru = dict(rnn, activations=["sigmoid", "tanh"], activations_alpha=[], activations_beta=[], clip=0.0,
               linear_before_reset=False)
    w = lambda *s: _rand(*s) / np.float32(np.sqrt(s[-1]))       # noqa: E731 (states stay in the activations' range)
    return [
        OpCase("Softmax [1,64,56,56] axis 1", "Softmax-8", [_rand(1, 64, 56, 56)], {"axis": 1},
               lambda x: o15.softmax(x, 1), ("Softmax", dict(axis=1), 1)),
        OpCase("LogSoftmax [1,12,128,128] axis -1", "LogSoftmax-5", [_rand(1, 12, 128, 128)], {"axis": -1},
               lambda x: o5.log_softmax(x, -1), ("LogSoftmax", dict(axis=-1), 1)),
        OpCase("MVN [1,128,768] axes -1 (LayerNorm)", "MVN-6", [_rand(1, 128, 768), _i64(-1)], mvn,
               lambda x, a: o6.mvn(x, a, **mvn), ("LayerNormalization", dict(axis=-1, epsilon=1e-5), 2),
               onnx_inputs=[ones(768)]),
        OpCase("MVN [1,64,56,56] axes 2,3 (InstanceNorm)", "MVN-6", [_rand(1, 64, 56, 56), _i64(2, 3)], mvn,
               lambda x, a: o6.mvn(x, a, **mvn), ("InstanceNormalization", dict(epsilon=1e-5), 3),
               onnx_inputs=[ones(64), zeros(64)]),
        OpCase("NormalizeL2 [1,512,28,28] axes 1", "NormalizeL2-1", [_rand(1, 512, 28, 28), _i64(1)],
               {"eps": 1e-10, "eps_mode": "add"}, lambda x, a: o1.normalize_l2(x, a, 1e-10, "add"),
               ("LpNormalization", dict(axis=1, p=2), 1)),
        OpCase("GroupNormalization [1,64,56,56] 32 groups", "GroupNormalization-12",
               [_rand(1, 64, 56, 56), 1 + _rand(64) / 4, _rand(64) / 4], {"num_groups": 32, "epsilon": 1e-5},
               lambda x, g, b: o12.group_normalization(x, g, b, 32, 1e-5)),
        OpCase("BatchNormInference [1,64,112,112]", "BatchNormInference-5",
               [_rand(1, 64, 112, 112), 1 + _rand(64) / 4, _rand(64) / 4, _rand(64) / 4, 1 + np.abs(_rand(64))],
               {"epsilon": 1e-5}, lambda x, g, b, m, v: o5.batch_norm_inference(x, g, b, m, v, 1e-5),
               ("BatchNormalization", dict(epsilon=1e-5), 5)),
        OpCase("Gelu erf [1,128,3072]", "Gelu-7", [_rand(1, 128, 3072)], {"approximation_mode": "erf"},
               lambda x: o7.gelu(x, "erf")),
        OpCase("Gelu tanh [1,128,3072]", "Gelu-7", [_rand(1, 128, 3072)], {"approximation_mode": "tanh"},
               lambda x: o7.gelu(x, "tanh")),
        OpCase("Erf [1,128,3072]", "Erf-1", [_rand(1, 128, 3072)], {}, lambda x: o1.erf(x), ("Erf", {}, 1)),
        OpCase(f"LSTMSequence N{n} T{t} I{i} H{h} bidir", "LSTMSequence-5",
               [_rand(n, t, i), zeros((n, 2, h)), zeros((n, 2, h)), np.full(n, t, np.int32), w(2, 4 * h, i),
                w(2, 4 * h, h), zeros((2, 4 * h))], lstm,
               lambda *a: o5.lstm_sequence(*a, **lstm)),
        OpCase(f"GRUSequence N{n} T{t} I{i} H{h} bidir", "GRUSequence-5",
               [_rand(n, t, i), zeros((n, 2, h)), np.full(n, t, np.int32), w(2, 3 * h, i), w(2, 3 * h, h),
                zeros((2, 3 * h))], gru,
               lambda *a: o5.gru_sequence(*a, **gru)),
    ]


def _openvino_request(case: OpCase, threads: int):
    import openvino as ov
    import openvino.opset15 as o15
    x = o15.parameter(case.inputs[0].shape, ov.Type.f32, name="x")
    node = case.openvino(x, *(o15.constant(a) for a in case.inputs[1:]))
    model = ov.Model([o15.result(node.output(0))], [x], case.op)
    return openvino_core().compile_model(model, "CPU", openvino_config(threads)).create_infer_request()


def _onnx_session(case: OpCase, threads: int):
    from onnx import TensorProto, helper, numpy_helper
    op_type, attrs, count = case.onnx
    constants = (case.onnx_inputs or case.inputs[1:])[:count - 1]
    names = ["x"] + [f"c{i}" for i in range(len(constants))]
    graph = helper.make_graph(
        [helper.make_node(op_type, names, ["y"], **attrs)], case.label,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, case.inputs[0].shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(a, n) for a, n in zip(constants, names[1:])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    return onnxruntime_session(model.SerializeToString(), threads)


def bench_op(case: OpCase, threads: int, repeat: int) -> dict:
    import opref
    progress(case.label)
    x = case.inputs[0]
    timing, (out,) = measure(lambda: opref.run_op(case.op, case.inputs, case.attrs)[:1], repeat, min_time=MIN_TIME)
    row = {"op": case.label, "schema": case.op, "output_shape": list(out.shape), "opref_ms": timing.ms,
           "output_is_view": bool(np.shares_memory(out, x))}
    request = _openvino_request(case, threads)
    timing, result = measure(lambda: request.infer([x]), repeat, min_time=MIN_TIME)
    row["openvino_ms"] = timing.ms
    theirs = np.asarray(result[0])
    row["max_abs_diff_vs_openvino"] = float(np.max(np.abs(out - theirs))) if theirs.shape == out.shape else None
    row["onnxruntime_ms"] = None
    if case.onnx:
        session = _onnx_session(case, threads)
        row["onnxruntime_ms"] = measure(lambda: session.run(None, {"x": x}), repeat, min_time=MIN_TIME)[0].ms
    row["copy_ms"] = None
    if case.movement:
        src = np.ones(out.nbytes, np.uint8)
        dst = np.ones_like(src)
        row["copy_ms"] = measure(lambda: np.copyto(dst, src), repeat, min_time=MIN_TIME)[0].ms
    return row


def run(threads: int, repeat: int, only: list[str] | None = None) -> list[dict]:
    """only: run the cases whose label contains one of these strings (case-insensitive)."""
    chosen = [c for c in cases() if not only or any(o.lower() in c.label.lower() for o in only)]
    return [bench_op(case, threads, repeat) for case in chosen]


def render(rows: list[dict], threads: int) -> str:
    header = ["op", "opref ms", "OpenVINO ms", "ORT ms", "opref/OV", "opref/ORT", "copy ms", "opref/copy",
              "max|opref-OV|"]
    body = [[r["op"] + (" (view)" if r["output_is_view"] else ""), fmt(r["opref_ms"], ".2f"), fmt(r["openvino_ms"], ".2f"),
             fmt(r["onnxruntime_ms"], ".2f"), fmt(ratio(r["opref_ms"], r["openvino_ms"]), ".1f"),
             fmt(ratio(r["opref_ms"], r["onnxruntime_ms"]), ".1f"), fmt(r["copy_ms"], ".3f"),
             fmt(ratio(r["opref_ms"], r["copy_ms"]), ".1f"), fmt(r["max_abs_diff_vs_openvino"], ".1e")] for r in rows]
    notes = [f"Ops: median ms per call after a warm-up, {threads} thread(s). opref: opref.run_op (validation + shape rule +",
             "kernel); OpenVINO: a one-op model compiled once, constant weights; ORT: a one-op ONNX model ('—': ONNX has",
             "no such op). Data-movement ops: copy = np.copyto of as many bytes as the op's output into a warm buffer;",
             "opref/copy: target <= 2. (view): opref returned a view of its input, no bytes moved yet.",
             "Overlapping Col2Im (k3) reads 9x its output bytes."]
    return table(header, body) + "\n" + "\n".join(notes)
