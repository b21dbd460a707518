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

onnxruntime's RNN kernels compute f32 only (its LSTM and GRU register f64 but refuse it at run time).
f32 uses them; so do the other cells, f16/bf16/f8 computed in f32 and rounded back once — exactly
opref's cell. opref's sequences round the states to the element type after every step (as OpenVINO
computes each step in the element type), and f64 has no kernel: for a static T these sequences and the
f64 cells are the steps spelled out (MatMul, Add, Clip, Sigmoid/Tanh/Relu, Where on the lengths; the
time loop unrolled, each step's states Cast to the element type and back). A sequence of dynamic T
uses ONNX's op for f16/bf16 (states unrounded between steps, within their tolerance; noted) and is
Unsupported for f8 and f64.

CTCLoss has no ONNX form: ONNX has no CTC op, and the loss is a dynamic-programming recursion over
time (a Loop); the greedy decoders are a handful of ONNX ops each.
"""
from __future__ import annotations

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


# --- the steps spelled out (f64, which onnxruntime's RNN kernels lack, and per-step rounding): data
# [D, N, K], transposed weights [D, K, G*H], biases [D, 1, G*H], peepholes [D, 1, 3*H] — opref's kernel
def _act(b, name, x, clip, ct):
    if clip > 0:                  # a NaN stays NaN through ONNX's Clip, as through np.clip
        x = b.node("Clip", [x, b.scalar(-clip, ct), b.scalar(clip, ct)])
    return b.node(_NAMES[name], [x])


def _affine(b, x, h, w_t, r_t, bias):
    return b.node("Add", [b.node("Add", [b.node("MatMul", [x, w_t]), b.node("MatMul", [h, r_t])]), bias])


def _lstm_step(b, call, ct, x, h, c, w_t, r_t, bias, p=None):
    a, clip = call.attrs["activations"], call.attrs["clip"]
    zf, zi, zc, zo = _blocks(b, _affine(b, x, h, w_t, r_t, bias), 4, 2)
    if p is not None:
        pf, pi, po = _blocks(b, p, 3, 2)
        zf, zi = b.node("Add", [zf, b.node("Mul", [pf, c])]), b.node("Add", [zi, b.node("Mul", [pi, c])])
    ft = _act(b, a[0], zf, clip, ct)
    it = b.node("Sub", [b.scalar(1, ct), ft]) if call.attrs.get("input_forget") else _act(b, a[0], zi, clip, ct)
    c_new = b.node("Add", [b.node("Mul", [ft, c]), b.node("Mul", [it, _act(b, a[1], zc, clip, ct)])])
    if p is not None:
        zo = b.node("Add", [zo, b.node("Mul", [po, c_new])])
    return [b.node("Mul", [_act(b, a[0], zo, clip, ct), _act(b, a[2], c_new, 0, ct)]), c_new]


def _gru_step(b, call, ct, x, h, w_t, r_t, bias):
    a, clip, lbr = call.attrs["activations"], call.attrs["clip"], call.attrs["linear_before_reset"]
    xz, xr, xh = _blocks(b, b.node("MatMul", [x, w_t]), 3, 2)
    rz, rr, rh = _blocks(b, r_t, 3, 2)
    bz, br, wbh, *rbh = _blocks(b, bias, 4 if lbr else 3, 2)
    zt, rt = (_act(b, a[0], b.node("Add", [b.node("Add", [xg, b.node("MatMul", [h, rg])]), bg]), clip, ct)
              for xg, rg, bg in ((xz, rz, bz), (xr, rr, br)))
    if lbr:
        inner = b.node("Mul", [rt, b.node("Add", [b.node("MatMul", [h, rh]), rbh[0]])])
    else:
        inner = b.node("MatMul", [b.node("Mul", [rt, h]), rh])
    hh = _act(b, a[1], b.node("Add", [b.node("Add", [xh, inner]), wbh]), clip, ct)
    return [b.node("Add", [b.node("Mul", [b.node("Sub", [b.scalar(1, ct), zt]), hh]), b.node("Mul", [zt, h])])]


def _rnn_step(b, call, ct, x, h, w_t, r_t, bias):
    return [_act(b, call.attrs["activations"][0], _affine(b, x, h, w_t, r_t, bias), call.attrs["clip"], ct)]


_STEPS = {"lstm": _lstm_step, "gru": _gru_step, "rnn": _rnn_step}


def _weights(b, call, kind, w, r, bias, p=None):
    """W, R (in the compute type, [D, G*H, K]) transposed to [D, K, G*H], B [D, 1, G*H], P [D, 1, 3*H];
    LSTMCell-1's gate blocks reordered to f,i,c,o."""
    fmt = call.attrs.get("weights_format", "fico")
    if kind == "lstm" and fmt != "fico":
        w, r, bias = (_lstm_gates(b, v, fmt, order="fico") for v in (w, r, bias))
    w_t, r_t = (b.node("Transpose", [v], perm=[0, 2, 1]) for v in (w, r))
    return [w_t, r_t] + [b.node("Unsqueeze", [v, b.i64([1])]) for v in (bias, p) if v is not None]


def _unrolled(b, call, kind, ct, t_max, x, states, lens, w, r, bias):
    """The time loop unrolled over a static T, each step's states rounded to the element type (as
    opref's kernel does), finished sequences keeping theirs; reverse directions read X reversed within
    each sequence's length (ReverseSequence) and their Y is reversed back."""
    et, direction = x.element_type, call.attrs["direction"]
    reverse = [direction == "reverse"] if direction != "bidirectional" else [False, True]
    n64, _ = _lengths(b, lens, x)
    xc = b.cast(x, ct, et)
    xr = b.node("ReverseSequence", [xc, n64], batch_axis=0, time_axis=1) if any(reverse) else None
    xs = b.node("Concat", [b.node("Unsqueeze", [xr if rev else xc, b.i64([0])]) for rev in reverse], axis=0)
    hs = [b.node("Transpose", [b.cast(s, ct, s.element_type)], perm=[1, 0, 2]) for s in states]
    weights = _weights(b, call, kind, *(b.cast(v, ct, v.element_type) for v in (w, r, bias)))
    ys = []
    for t in range(t_max):
        valid = b.node("Reshape", [b.node("Less", [b.scalar(t, "i64"), n64]), b.i64([1, -1, 1])])
        new = _STEPS[kind](b, call, ct, b.node("Gather", [xs, b.scalar(t, "i64")], axis=2), *hs, *weights)
        hs = [b.node("Where", [valid, b.cast(b.cast(v, et, ct), ct, et), s]) for v, s in zip(new, hs)]
        ys.append(b.node("Unsqueeze", [b.node("Where", [valid, hs[0], b.scalar(0, ct)]), b.i64([2])]))
    if ys:
        per_dir = _blocks(b, b.node("Concat", ys, axis=2), len(reverse), 0)          # [1, N, T, H] each
        y = b.node("Concat", [_unreverse(b, v, n64) if rev else b.node("Transpose", [v], perm=[1, 0, 2, 3])
                              for v, rev in zip(per_dir, reverse)], axis=1)
    else:                                                                             # T = 0: Y is empty
        dnh = b.node("Shape", [hs[0]])
        pick = lambda i: b.node("Gather", [dnh, b.i64([i])], axis=0)  # noqa: E731
        y = b.node("ConstantOfShape", [b.node("Concat", [pick(1), pick(0), b.i64([0]), pick(2)], axis=0)],
                   value=_zero_tensor(ct))
    nonempty = b.node("Reshape", [b.node("Greater", [n64, b.scalar(0, "i64")]), b.i64([1, -1, 1])])
    finals = [b.node("Transpose", [b.node("Where", [nonempty, s, b.scalar(0, ct)])], perm=[1, 0, 2]) for s in hs]
    return [y] + finals


def _unreverse(b, y, n64):
    """[1, N, T, H] of a reverse direction -> [N, 1, T, H] in time order."""
    v = b.node("ReverseSequence", [b.node("Squeeze", [y, b.i64([0])]), n64], batch_axis=0, time_axis=1)
    return b.node("Unsqueeze", [v, b.i64([1])])


# --- sequences: X [N, T, I], states [N, D, H], sequence_lengths [N], W [D, G*H, I], R [D, G*H, H], B [D, G*H]
def _sequence(kind):
    n_states = 2 if kind == "lstm" else 1

    def lower(b, call):
        x, *states = call.inputs[:1 + n_states]
        lens, w, r, bias = call.inputs[1 + n_states:]
        out, et = call.outputs[0].element_type, x.element_type
        t = x.shape[1] if x.rank is not None else None
        hidden = _hidden(call, 3)
        if t is not None and t.is_static and (et != "f32" or hidden is None):
            ct = "f64" if et == "f64" else "f32"
            return [b.cast(v, out, ct) for v in _unrolled(b, call, kind, ct, t.length, x, states, lens, w, r, bias)]
        if et not in ("f32", "f16", "bf16"):
            return Unsupported("a sequence of this element type needs a static length (ONNX's RNN ops have no "
                               "kernel for it, or keep the states unrounded; the steps are unrolled)", et)
        if hidden is None:
            return Unsupported("a sequence of dynamic length and hidden size (ONNX's RNN ops need hidden_size; "
                               "unrolling the steps needs the length)", str(call.outputs[0].shape))
        if et != "f32":
            b.note("f16/bf16 sequence of dynamic length: ONNX's op keeps the states in f32 between steps (opref "
                   "rounds them every step)")
        ct = "f32"
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
        out, et = call.outputs[0].element_type, x.element_type
        lead = lambda v, ct: None if v is None else b.node("Unsqueeze", [b.cast(v, ct, v.element_type), b.i64([0])])  # noqa: E731
        v1 = call.op == "LSTMCell-1"
        if v1 and bias is None:         # LSTMCell-1's absent B and P are zeros (0 * inf is NaN in opref's P term)
            bias = _zeros_input(b, w, 0, et)
        if v1 and p is None:
            p = _zeros_input(b, r, 1, et, mult=3)
        hidden = _hidden(call, 1)
        input_forget = bool(call.attrs.get("input_forget", False))
        if et == "f64" or hidden is None or (input_forget and call.attrs["activations"][0] != "sigmoid"):
            # the step spelled out: onnxruntime's RNN kernels have no f64, ONNX's ops need hidden_size, and
            # ONNX's input_forget couples f = 1 - i where LSTMCell-1 couples i = 1 - f
            ct = "f64" if et == "f64" else "f32"
            ins = [lead(v, ct) for v in (x, *states)]
            weights = _weights(b, call, kind, *(lead(v, ct) for v in (w, r, bias, p)))
            return [b.cast(b.node("Squeeze", [v, b.i64([0])]), out, ct)
                    for v in _STEPS[kind](b, call, ct, *ins, *weights)]
        ct = "f32"
        ys = _run(b, call, kind, ct, hidden, lead(x, ct), [lead(s, ct) for s in states], None, lead(w, ct),
                  lead(r, ct), lead(bias, ct), fmt=call.attrs.get("weights_format", "fico"), p=lead(p, ct),
                  input_forget=input_forget)
        return [b.cast(b.node("Squeeze", [s, b.i64([0])]), out, ct) for s in ys[1:]]
    return lower


def _zeros_input(b, like, axis, et, mult=1):
    """A Value of zeros [mult * dimension `axis` of `like`] (an absent B or P of LSTMCell-1)."""
    from ..shapes import PartialShape
    from .builder import Value
    n = b.node("Gather", [b.node("Shape", [like]), b.i64([axis])], axis=0)
    ct = "f64" if et == "f64" else "f32"
    zeros = b.node("ConstantOfShape", [b.node("Mul", [n, b.i64([mult])])], value=_zero_tensor(ct))
    return Value(zeros, ct, PartialShape.dynamic(1))


# --- CTC greedy decoders: best path = ArgMax per step; keep non-blank steps (not repeating the previous
# step's class when merging) within the sequence; the kept classes are moved to the front of each row by a
# CumSum of the keep mask and a ScatterElements (a dropped step writes into a spare column cut off after)
def _argmax(b, data, axis):
    """np.argmax over the classes, exactly: the first maximum, or the first NaN of a row that has one."""
    x = b.cast(data, "f64" if data.element_type == "f64" else "f32", data.element_type)
    nan = b.node("Cast", [b.node("IsNaN", [x])], to=onnx_type("f32"))
    has_nan = b.node("Greater", [b.node("ReduceMax", [nan, b.i64([axis])], keepdims=0), b.scalar(0, "f32")])
    return b.node("Where", [has_nan, b.node("ArgMax", [nan], axis=axis, keepdims=0),
                            b.node("ArgMax", [x], axis=axis, keepdims=0, select_last_index=0)])


def _greedy(b, classes, valid, blank, merge_repeated, t):
    """classes [N, T] i64, valid [N, T] bool, blank and t (= T) 1-element i64: (decoded [N, T] i64 with -1
    after the kept classes, count [N] i64)."""
    keep = b.node("And", [valid, b.node("Not", [b.node("Equal", [classes, blank])])])
    if merge_repeated:
        prev = b.node("Slice", [b.node("Pad", [classes, b.i64([0, 1, 0, 0]), b.scalar(-1, "i64")]),
                                b.i64([0]), b.i64([-1]), b.i64([1])])
        keep = b.node("And", [keep, b.node("Not", [b.node("Equal", [classes, prev])])])
    k = b.node("Cast", [keep], to=onnx_type("i64"))
    slot = b.node("Where", [keep, b.node("Sub", [b.node("CumSum", [k, b.scalar(1, "i64")]), b.scalar(1, "i64")]), t])
    rows = b.node("Gather", [b.node("Shape", [classes]), b.i64([0])], axis=0)
    blank_rows = b.node("ConstantOfShape", [b.node("Concat", [rows, b.node("Add", [t, b.i64([1])])], axis=0)],
                        value=_int_tensor(-1))
    out = b.node("ScatterElements", [blank_rows, slot, classes], axis=1)
    out = b.node("Slice", [out, b.i64([0]), t, b.i64([1])])
    return out, b.node("ReduceSum", [k, b.i64([1])], keepdims=0)


def _int_tensor(v):
    from onnx import helper
    return helper.make_tensor("value", onnx_type("i64"), [1], [v])


def _dims(b, x, *axes):
    return [b.node("Gather", [b.node("Shape", [x]), b.i64([a])], axis=0) for a in axes]


def _ctc_greedy_decoder(b, call):
    data, mask = call.inputs                                    # [T, N, C], [T, N]: 1s then 0s
    t, c = _dims(b, data, 0, 2)
    classes = b.node("Transpose", [_argmax(b, data, 2)], perm=[1, 0])
    m_et = "f64" if mask.element_type == "f64" else "f32"
    m = b.cast(mask, m_et, mask.element_type)
    zeros_so_far = b.node("CumSum", [b.node("Cast", [b.node("Equal", [m, b.scalar(0, m_et)])],
                                            to=onnx_type("i64")), b.scalar(0, "i64")])
    valid = b.node("Transpose", [b.node("Equal", [zeros_so_far, b.scalar(0, "i64")])], perm=[1, 0])
    out, _ = _greedy(b, classes, valid, b.node("Sub", [c, b.i64([1])]), call.attrs["ctc_merge_repeated"], t)
    y = b.cast(b.node("Unsqueeze", [out, b.i64([2, 3])]), "f32", "i64")     # class numbers as floats
    return b.cast(y, call.outputs[0].element_type, "f32")


def _ctc_greedy_decoder_seq_len(b, call):
    data, lengths, blank = (list(call.inputs) + [None])[:3]      # [N, T, C], [N], scalar or [1]
    t, c = _dims(b, data, 1, 2)
    classes = _argmax(b, data, 2)
    steps = b.node("Range", [b.scalar(0, "i64"), b.node("Reshape", [t, b.i64([])]), b.scalar(1, "i64")])
    n = b.node("Unsqueeze", [b.cast(lengths, "i64", lengths.element_type), b.i64([1])])
    valid = b.node("Less", [b.node("Unsqueeze", [steps, b.i64([0])]), n])
    blank = b.node("Sub", [c, b.i64([1])]) if blank is None else \
        b.node("Reshape", [b.cast(blank, "i64", blank.element_type), b.i64([1])])
    out, count = _greedy(b, classes, valid, blank, call.attrs["merge_repeated"], t)
    return [b.cast(out, call.outputs[0].element_type, "i64"), b.cast(count, call.outputs[1].element_type, "i64")]


LOWERINGS = {
    "LSTMSequence-5": _sequence("lstm"),
    "GRUSequence-5": _sequence("gru"),
    "RNNSequence-5": _sequence("rnn"),
    "LSTMCell-4": _cell("lstm", 2),
    "LSTMCell-1": _cell("lstm", 2),
    "GRUCell-3": _cell("gru", 1),
    "RNNCell-3": _cell("rnn", 1),
    "CTCGreedyDecoder-1": _ctc_greedy_decoder,
    "CTCGreedyDecoderSeqLen-6": _ctc_greedy_decoder_seq_len,
}
NO_ONNX = {
    "CTCLoss-4": "ONNX has no CTC loss; its forward recursion over time would need a Loop",
}
