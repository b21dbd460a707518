"""Recurrent sequence ops as ONNX's LSTM / GRU / RNN (the cells as sequences of length 1), and the CTC
greedy decoders spelled out (ArgMax, masks, a CumSum compaction).

Glue, all of it working on non-constant weights too: ONNX is time-major (X [T, N, I], Y [T, D, N, H],
states [D, N, H]) where OpenVINO is batch-major, so X, the states and the outputs are transposed;
ONNX's LSTM gate order is i,o,f,c (OpenVINO f,i,c,o, or LSTMCell-1's weights_format), so W, R and
B are Split into their gate blocks and Concatenated back in ONNX's order, and LSTMCell-1's peepholes
f,i,o become ONNX's i,o,f; ONNX keeps the W and R biases apart where OpenVINO sums them, so the R half
is zeros (GRU's linear_before_reset keeps its h-gate R bias there); sequence lengths are wrapped to
i64 and clipped to [0, T] as opref's kernel reads them, then made i32; the final states of an empty
sequence are zeros (Where). ONNX's input_forget couples f = 1 - i where LSTMCell-1 couples
i = 1 - f: with a sigmoid gate function, ONNX's input gate is given the negated forget-gate weights
(sigmoid(-z) = 1 - sigmoid(z)).

onnxruntime's kernels take f32 and f64 (its RNN only f32): f16/bf16/f8 data is computed in f32 and
rounded back once. A cell is then opref's answer; a sequence rounds its states to the element type
after every step in opref (as OpenVINO computes each step in the element type), which ONNX's ops do
not: f16/bf16 stay within their tolerance, f8 does not (Unsupported). f64 RNNSequence/RNNCell have
no f64 kernel and no exact carrier (Unsupported).

CTCLoss has no ONNX form: ONNX has no CTC op, and the loss is a dynamic-programming recursion over
time (a Loop); the greedy decoders are a handful of ONNX ops each.
"""
from __future__ import annotations

import numpy as np

from .builder import Unsupported, onnx_type

_NAMES = {"relu": "Relu", "sigmoid": "Sigmoid", "tanh": "Tanh"}
_ONNX_OP = {"lstm": "LSTM", "gru": "GRU", "rnn": "RNN"}
_N_FUNCTIONS = {"lstm": 3, "gru": 2, "rnn": 1}


def _zero_tensor(et):
    from onnx import helper
    return helper.make_tensor("value", onnx_type(et), [1], [0])


def _zeros_like(b, x, et):
    return b.node("ConstantOfShape", [b.node("Shape", [x])], value=_zero_tensor(et))


def _blocks(b, x, n, axis):
    return b.node("Split", [x], outputs=n, axis=axis, num_outputs=n) if n > 1 else [x]


def _lstm_gates(b, x, fmt, input_forget=False, order="iofc"):
    """LSTM gate blocks (axis 1) in OpenVINO's order `fmt` -> ONNX's `order`; with LSTMCell-1's
    input_forget ONNX's input gate gets the negated forget-gate block (sigmoid(-z) = 1 - sigmoid(z))."""
    blocks = dict(zip(fmt, _blocks(b, x, len(fmt), 1)))
    if input_forget:
        blocks["i"] = b.node("Neg", [blocks["f"]])
    return b.node("Concat", [blocks[g] for g in order], axis=1)


def _compute_type(b, kind, x):
    available = b.kernel_types(_ONNX_OP[kind])
    if x.element_type in available:
        return x.element_type
    if x.et.is_float and x.et.bits < 32 and "f32" in available:
        return "f32"
    return None


def _hidden(call, axis):
    d = call.outputs[0].shape[axis] if call.outputs[0].shape.rank is not None else None
    return d.length if d is not None and d.is_static else None


def _onnx_attrs(call, kind, directions, hidden):
    a = call.attrs
    out = {"hidden_size": hidden, "activations": [_NAMES[f] for f in a["activations"][:_N_FUNCTIONS[kind]]] * directions}
    if a.get("direction") is not None:
        out["direction"] = a["direction"]
    if a["clip"] > 0:
        out["clip"] = float(a["clip"])
    if kind == "gru":
        out["linear_before_reset"] = int(a["linear_before_reset"])
    return out


def _bias(b, kind, bias, linear_before_reset, ct):
    """OpenVINO's summed biases [D, G*H] -> ONNX's [Wb, Rb] [D, 2*G*H]."""
    if kind == "gru" and linear_before_reset:       # [z+r sums, Wbh, Rbh] -> [bz, br, Wbh, 0, 0, Rbh]
        bz, br, wbh, rbh = _blocks(b, bias, 4, 1)
        zero = _zeros_like(b, bz, ct)
        return b.node("Concat", [bz, br, wbh, zero, zero, rbh], axis=1)
    return b.node("Concat", [bias, _zeros_like(b, bias, ct)], axis=1)


def _lengths(b, lens, x):
    """sequence_lengths as opref reads them: wrapped to i64, clipped to [0, T]; and as ONNX's i32."""
    n = b.cast(lens, "i64", lens.element_type)
    t = b.node("Gather", [b.node("Shape", [x]), b.i64([1])], axis=0)
    n = b.node("Min", [b.node("Max", [n, b.scalar(0, "i64")]), t])
    return n, b.cast(n, "i32", "i64")


def _run(b, call, kind, ct, hidden, xs, states, lens, w, r, bias, *, fmt="fico", p=None, input_forget=False):
    """The ONNX op on time-major data already in the compute type; returns its outputs (Y, Y_h[, Y_c])."""
    directions = 2 if call.attrs.get("direction") == "bidirectional" else 1
    if kind == "lstm":
        w, r = (_lstm_gates(b, a, fmt, input_forget) for a in (w, r))
        bias = None if bias is None else _lstm_gates(b, bias, fmt, input_forget)
        if p is not None:  # OpenVINO's peepholes f, i, o -> ONNX's i, o, f
            p = _lstm_gates(b, p, "fio", input_forget, order="iof")
    if bias is not None:
        bias = _bias(b, kind, bias, call.attrs.get("linear_before_reset", False), ct)
    attrs = _onnx_attrs(call, kind, directions, hidden)
    if input_forget:
        attrs["input_forget"] = 1
    inputs = [xs, w, r, bias, lens, *states] + ([p] if p is not None else [])
    return b.node(_ONNX_OP[kind], inputs, outputs=1 + len(states), **attrs)


# --- sequences: X [N, T, I], states [N, D, H], sequence_lengths [N], W [D, G*H, I], R [D, G*H, H], B [D, G*H]
def _sequence(kind):
    n_states = 2 if kind == "lstm" else 1

    def lower(b, call):
        x, *states = call.inputs[:1 + n_states]
        lens, w, r, bias = call.inputs[1 + n_states:]
        out = call.outputs[0].element_type
        ct = _compute_type(b, kind, x)
        if ct is None:
            return Unsupported(f"onnxruntime's {_ONNX_OP[kind]} has no kernel for this element type "
                               "(nor one that holds it exactly)", x.element_type)
        if x.element_type in ("f8e4m3", "f8e5m2"):
            return Unsupported("opref rounds the recurrent states to f8 after every step; ONNX's RNN ops keep "
                               "them in the compute type", x.element_type)
        hidden = _hidden(call, 3)
        if hidden is None:
            return Unsupported("ONNX's RNN ops need a static hidden size", str(call.outputs[0].shape))
        c = lambda v, perm=None: b.cast(v, ct, v.element_type) if perm is None else \
            b.node("Transpose", [b.cast(v, ct, v.element_type)], perm=perm)  # noqa: E731
        n64, n32 = _lengths(b, lens, x)
        ys = _run(b, call, kind, ct, hidden, c(x, [1, 0, 2]), [c(s, [1, 0, 2]) for s in states], n32,
                  c(w), c(r), c(bias))
        y = b.node("Transpose", [ys[0]], perm=[2, 1, 0, 3])
        nonempty = b.node("Reshape", [b.node("Greater", [n64, b.scalar(0, "i64")]), b.i64([-1, 1, 1])])
        finals = [b.node("Where", [nonempty, b.node("Transpose", [s], perm=[1, 0, 2]), b.scalar(0, ct)])
                  for s in ys[1:]]
        return [b.cast(v, out, ct) for v in [y, *finals]]
    return lower


# --- cells: X [N, I], states [N, H], W [G*H, I], R [G*H, H], B [G*H] (P [3*H]): a sequence of length 1
def _cell(kind, n_states):
    def lower(b, call):
        x, *states = call.inputs[:1 + n_states]
        w, r, *rest = call.inputs[1 + n_states:]
        bias, p = (rest + [None, None])[:2]
        out = call.outputs[0].element_type
        ct = _compute_type(b, kind, x)
        if ct is None:
            return Unsupported(f"onnxruntime's {_ONNX_OP[kind]} has no kernel for this element type "
                               "(nor one that holds it exactly)", x.element_type)
        hidden = _hidden(call, 1)
        if hidden is None:
            return Unsupported("ONNX's RNN ops need a static hidden size", str(call.outputs[0].shape))
        input_forget = bool(call.attrs.get("input_forget", False))
        if input_forget and call.attrs["activations"][0] != "sigmoid":
            return Unsupported("LSTMCell-1's input_forget (i = 1 - f) with a gate function other than sigmoid "
                               "(ONNX couples f = 1 - i)", call.attrs["activations"][0])
        lead = lambda v: None if v is None else b.node("Unsqueeze", [b.cast(v, ct, v.element_type), b.i64([0])])  # noqa: E731
        ys = _run(b, call, kind, ct, hidden, lead(x), [lead(s) for s in states], None, lead(w), lead(r), lead(bias),
                  fmt=call.attrs.get("weights_format", "fico"), p=lead(p), input_forget=input_forget)
        return [b.cast(b.node("Squeeze", [s, b.i64([0])]), out, ct) for s in ys[1:]]
    return lower


LOWERINGS = {
    "LSTMSequence-5": _sequence("lstm"),
    "GRUSequence-5": _sequence("gru"),
    "RNNSequence-5": _sequence("rnn"),
    "LSTMCell-4": _cell("lstm", 2),
    "LSTMCell-1": _cell("lstm", 2),
    "GRUCell-3": _cell("gru", 1),
    "RNNCell-3": _cell("rnn", 1),
}
NO_ONNX = {
    "CTCLoss-4": "ONNX has no CTC loss; its forward recursion over time would need a Loop",
    "CTCGreedyDecoder-1": "not lowered yet",
    "CTCGreedyDecoderSeqLen-6": "not lowered yet",
}
