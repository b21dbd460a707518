"""The oracles: OpenVINO's runtime and shape inference, onnxruntime, TensorFlow.

Every op is handed to OpenVINO through the IR that opref writes for it (no per-op builder code),
compiled on CPU with f32 inference precision (the CPU plugin otherwise computes in bf16 where the
machine supports it). Tensors cross the boundary as raw bytes with an explicit element type, so
bf16, f8 and packed sub-byte types mean the same thing on both sides."""
from __future__ import annotations

import numpy as np
import openvino as ov

import opref
from opref.conformance.backends import from_ov, to_ov  # noqa: F401 -- raw-byte tensors, shared with the backend
from opref.ir_xml.writer import op_model
from opref.conformance.backends import OpenVINOBackend
from opref.shapes import TensorInfo
from opref.types import element_type, element_type_of, pack, unpack

_CORE = ov.Core()
CPU_CONFIG = dict(OpenVINOBackend.CONFIG)     # f32, no dynamic quantization: one fact, in the backend


def _read(op, infos, attrs):
    xml, weights = op_model(op, infos, attrs)
    return _CORE.read_model(model=xml, weights=ov.Tensor(np.frombuffer(weights or b"\0", np.uint8)))


def ov_infer(op, inputs, attrs=None) -> list[tuple[str, str]]:
    """OpenVINO's inferred output shapes (as strings) and element types; raises where OpenVINO does."""
    infos = [x if isinstance(x, TensorInfo) else TensorInfo.of_array(x) for x in inputs]
    model = _read(op, infos, attrs)
    return [(str(o.get_partial_shape()).replace(" ", ""), o.get_element_type().get_type_name())
            for o in model.outputs]


def ov_run(op, inputs, attrs=None):
    """OpenVINO CPU's outputs: inputs on ports the schema marks `const` become Consts, the rest
    Parameters."""
    schema = opref.get_schema(op)
    infos, feeds = [], []
    for port, x in zip(schema.ports_for(len(inputs)), inputs):
        x = np.asanyarray(x)      # (an opref.typed u1/nf4 array keeps its element type)
        if port.const:
            infos.append(TensorInfo.of_array(x))
        else:
            infos.append(TensorInfo(element_type_of(x), list(x.shape)))
            feeds.append(to_ov(x))
    model = _read(op, infos, attrs)
    compiled = _CORE.compile_model(model, "CPU", CPU_CONFIG)
    request = compiled.create_infer_request()
    for i, t in enumerate(feeds):
        request.set_input_tensor(i, t)
    request.infer()
    return [from_ov(request.get_output_tensor(i)) for i in range(len(compiled.outputs))]


def ov_evaluate(op, inputs, attrs=None):
    """OpenVINO's reference implementation (`Node.evaluate` of the core op), for cases where the
    CPU plugin is not a faithful oracle (string tensors, ...)."""
    schema = opref.get_schema(op)
    arrays = [np.asanyarray(x) for x in inputs]
    infos = [TensorInfo.of_array(x) if p.const else TensorInfo(element_type_of(x), list(x.shape))
             for p, x in zip(schema.ports_for(len(arrays)), arrays)]
    model = _read(op, infos, attrs)
    node = next(n for n in model.get_ordered_ops() if n.get_type_name() not in ("Parameter", "Constant", "Result"))
    outs = [ov.Tensor(node.get_output_element_type(i), node.get_output_partial_shape(i).to_shape())
            for i in range(node.get_output_size())]
    if not node.evaluate(outs, [to_ov(x) for x in arrays]):
        raise RuntimeError(f"OpenVINO has no reference evaluate for {op} on these types")
    return [from_ov(t) for t in outs]


def spec_run(op, inputs, attrs=None):
    """A NumPy transcription of the op's spec (tests/spec_oracles.py): for cases where OpenVINO has
    no faithful route (the CPU plugin crashes or is wrong, and there is no reference `evaluate`)."""
    from opref.opset.schema import as_keywords
    from spec_oracles import SPEC
    return SPEC[op](*[np.asarray(x) for x in inputs], **as_keywords(opref.get_schema(op).bind_attrs(attrs)))


def ov_run_padded(op, inputs, attrs=None):
    """OpenVINO CPU's outputs for ops whose spec gives an output a static length filled with -1 after
    the real rows (NonMaxSuppression-1/3/4), where the CPU plugin returns only the real rows: each
    output cut or padded with -1 to the first-axis length opref's shape rule infers."""
    schema = opref.get_schema(op)
    infos = [TensorInfo.of_array(np.asarray(x)) if p.const else TensorInfo(element_type_of(np.asarray(x)),
                                                                            list(np.shape(x)))
             for p, x in zip(schema.ports_for(len(inputs)), inputs)]
    out = []
    for y, i in zip(ov_run(op, inputs, attrs), opref.infer_op(op, infos, attrs)):
        rows = i.shape.to_shape()[0]
        pad = np.full((max(rows - len(y), 0),) + y.shape[1:], -1, y.dtype)
        out.append(np.concatenate([y[:rows], pad]))
    return out


# --- TensorFlow ------------------------------------------------------------------------------------
def _tf():
    import tensorflow as tf
    return tf


def _space_to_batch(data, block_shape, pads_begin, pads_end):
    # OpenVINO's SpaceToBatch-2 with block_shape[0] == 1 is TensorFlow's with M = rank - 1
    return _tf().space_to_batch_nd(data, block_shape[1:], np.stack([pads_begin[1:], pads_end[1:]], 1))


def _batch_to_space(data, block_shape, crops_begin, crops_end):
    return _tf().batch_to_space(data, block_shape[1:], np.stack([crops_begin[1:], crops_end[1:]], 1))


def _vect_c_to_nhwc(x):       # [N, C/4, H, W, 4] -> [N, H, W, C]
    n, c4, h, w, _ = x.shape
    return x.transpose(0, 2, 3, 1, 4).reshape(n, h, w, c4 * 4)


def _nhwc_to_vect_c(y):
    n, h, w, c = y.shape
    return y.reshape(n, h, w, c // 4, 4).transpose(0, 3, 1, 2, 4)


_LAYOUTS = {"NHWC": (lambda x: x, lambda y: y),
            "NCHW": (lambda x: x.transpose(0, 2, 3, 1), lambda y: y.transpose(0, 3, 1, 2)),
            "NCHW_VECT_C": (_vect_c_to_nhwc, _nhwc_to_vect_c)}

def _depthwise(input, filter, strides, padding, data_format, dilations):
    # tf.raw_ops.DepthwiseConv2dNative has no CPU kernel for dilations; tf.nn's wrapper computes
    # them through SpaceToBatchND, with the op's own semantics.
    return _tf().nn.depthwise_conv2d(input, filter, strides, padding, data_format=data_format,
                                     dilations=dilations[1:3])


TF_FUNCTIONS = {"DepthwiseConv2dNative": _depthwise}

def tf_lstm_cell_1(X, initial_hidden_state, initial_cell_state, W, R, B=None, P=None, *, hidden_size, activations,
                   activations_alpha, activations_beta, clip, input_forget, weights_format):
    """OpenVINO's LSTMCell-1 through tf.raw_ops.LSTMBlockCell (default activations, no clip): gates taken
    from `weights_format` into TensorFlow's i, c, f, o; input_forget (i = 1 - f) as i = sigmoid(-z_f)."""
    tf = _tf()
    assert tuple(activations) == ("sigmoid", "tanh", "tanh") and clip == 0
    f32 = lambda a: np.asarray(a, np.float32)  # noqa: E731
    b = np.zeros(W.shape[0], np.float32) if B is None else f32(B)
    gates = {g: (blk_w, blk_r, blk_b) for g, blk_w, blk_r, blk_b in
             zip(weights_format, np.split(f32(W), 4), np.split(f32(R), 4), np.split(b, 4))}
    p = np.zeros((3, R.shape[-1]), np.float32) if P is None else f32(P).reshape(3, -1)   # f, i, o
    pf, pi, po = p
    if input_forget:
        gates["i"] = tuple(-a for a in gates["f"])
        pi = -pf
    w = np.concatenate([np.concatenate([gates[g][0], gates[g][1]], axis=1) for g in "icfo"]).T
    bias = np.concatenate([gates[g][2] for g in "icfo"])
    out = tf.raw_ops.LSTMBlockCell(x=f32(X), cs_prev=f32(initial_cell_state), h_prev=f32(initial_hidden_state), w=w,
                                   wci=pi, wcf=pf, wco=po, b=bias, forget_bias=0.0, cell_clip=-1.0, use_peephole=True)
    return [np.asarray(out[6]), np.asarray(out[1])]      # h, cs


TF_EQUIVALENTS = {"SpaceToBatch-2": _space_to_batch, "BatchToSpace-2": _batch_to_space,
                  "LSTMCell-1": tf_lstm_cell_1}


def tf_run(op, inputs, attrs=None):
    """TensorFlow's result: tf-domain ops by their own name in tf.raw_ops (ports and attributes
    carry TensorFlow's names), OpenVINO ops through TF_EQUIVALENTS."""
    schema = opref.get_schema(op)
    attrs = schema.bind_attrs(attrs)
    arrays = [np.asarray(x) for x in inputs]
    if schema.domain == "tf":
        # TensorFlow's CPU kernels take NHWC only: other layouts go through NHWC and back.
        fmt = attrs.get("data_format", "NHWC")
        to_nhwc, back = _LAYOUTS[fmt]
        if fmt != "NHWC":
            arrays[0] = to_nhwc(arrays[0])
            attrs = {**attrs, "data_format": "NHWC"}
            for k in ("strides", "dilations"):
                if k in attrs:
                    attrs[k] = tuple(np.asarray(attrs[k])[[0, 2, 3, 1]])
        named = {p.name: a for p, a in zip(schema.inputs, arrays)}
        fn = TF_FUNCTIONS.get(schema.name) or getattr(_tf().raw_ops, schema.name)
        out = fn(**named, **{k: list(v) if isinstance(v, tuple) else v for k, v in attrs.items()})
        out = back(np.asarray(out))
    else:
        out = TF_EQUIVALENTS[op](*arrays, **attrs)
        if isinstance(out, list):
            return [np.asarray(o) for o in out]
    return [np.asarray(out)]
