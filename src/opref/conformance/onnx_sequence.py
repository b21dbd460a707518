"""ONNX equivalents: recurrent sequence ops as ONNX LSTM / GRU / RNN (cells as sequences of length 1).

What differs from OpenVINO: ONNX's layout is time-major ([seq, num_dir, batch, hidden] for Y, [num_dir,
batch, hidden] for states) where OpenVINO's is batch-major; ONNX's LSTM gate order is i,o,f,c (OpenVINO
f,i,c,o) and its peepholes i,o,f (OpenVINO f,i,o); ONNX keeps the W and R biases apart (OpenVINO sums
them, except GRU's linear_before_reset h gate); activation names are capitalised and listed per
direction. onnxruntime's CPU kernels take f32 (and the ONNX CTC ops do not exist): data is widened to
f32 (lossless); f8 cases are left out (opref rounds the states to f8 every step, onnxruntime would not).
"""
from __future__ import annotations

import numpy as np

from ..types import element_type
from .onnx_export import OnnxOp

_NAMES = {"relu": "Relu", "sigmoid": "Sigmoid", "tanh": "Tanh"}


def _f32(x):
    return np.asarray(x).astype(np.float32)


def _exportable(x) -> bool:
    return element_type(x).name not in ("f8e4m3", "f8e5m2")


def _common(attrs, n_functions, directions):
    out = {"hidden_size": attrs["hidden_size"], "direction": attrs.get("direction", "forward"),
           "activations": [_NAMES[a] for a in attrs["activations"][:n_functions]] * directions}
    if attrs["clip"] > 0:
        out["clip"] = float(attrs["clip"])
    return out


def _to_batch_major(y):
    y = np.asarray(y)
    return y.transpose(2, 1, 0, 3) if y.ndim == 4 else y.transpose(1, 0, 2)


def _lstm_gates(a, fmt="fico"):
    """OpenVINO gate blocks (in `fmt` order, along axis -2 or -1) -> ONNX's i, o, f, c."""
    axis = -2 if a.ndim == 3 else -1
    blocks = np.split(a, 4, axis=axis)
    return np.concatenate([blocks[fmt.index(g)] for g in "iofc"], axis=axis)


def _with_zero_recurrent_bias(b):
    return np.concatenate([b, np.zeros_like(b)], axis=-1)


def _lstm(x, states, lens, w, r, b, attrs, p=None, fmt="fico"):
    d = w.shape[0]
    inputs = [x.transpose(1, 0, 2), _lstm_gates(w, fmt), _lstm_gates(r, fmt),
              _with_zero_recurrent_bias(_lstm_gates(b, fmt)), lens.astype(np.int32),
              *(s.transpose(1, 0, 2) for s in states)]
    if p is not None:                                   # OpenVINO f, i, o -> ONNX i, o, f
        pf, pi, po = np.split(p, 3, axis=-1)
        inputs.append(np.concatenate([pi, po, pf], axis=-1))
    return inputs, _common(attrs, 3, d)


def _lstm_sequence(inputs, attrs):
    x, h, c, lens, w, r, b = inputs
    if not _exportable(x):
        return None
    onnx_inputs, onnx_attrs = _lstm(_f32(x), (_f32(h), _f32(c)), lens, _f32(w), _f32(r), _f32(b), attrs)
    return OnnxOp("LSTM", onnx_inputs, onnx_attrs, opset=14, output=_to_batch_major,
                  output_types=[np.float32] * 3)


def _gru_bias(b, hidden, linear_before_reset):
    if not linear_before_reset:                         # the h biases add up outside the reset gate
        return _with_zero_recurrent_bias(b)
    bz_r, wbh, rbh = b[..., :2 * hidden], b[..., 2 * hidden:3 * hidden], b[..., 3 * hidden:]
    return np.concatenate([bz_r, wbh, np.zeros_like(bz_r), rbh], axis=-1)


def _gru_sequence(inputs, attrs):
    x, h, lens, w, r, b = inputs
    if not _exportable(x):
        return None
    hidden, d = r.shape[-1], w.shape[0]
    onnx_attrs = {**_common(attrs, 2, d), "linear_before_reset": int(attrs["linear_before_reset"])}
    return OnnxOp("GRU", [_f32(x).transpose(1, 0, 2), _f32(w), _f32(r),
                          _f32(_gru_bias(b, hidden, attrs["linear_before_reset"])), lens.astype(np.int32),
                          _f32(h).transpose(1, 0, 2)],
                  onnx_attrs, opset=14, output=_to_batch_major, output_types=[np.float32] * 2)


def _rnn_sequence(inputs, attrs):
    x, h, lens, w, r, b = inputs
    if not _exportable(x):
        return None
    return OnnxOp("RNN", [_f32(x).transpose(1, 0, 2), _f32(w), _f32(r), _f32(_with_zero_recurrent_bias(b)),
                          lens.astype(np.int32), _f32(h).transpose(1, 0, 2)],
                  _common(attrs, 1, w.shape[0]), opset=14, output=_to_batch_major, output_types=[np.float32] * 2)


# --- cells: a sequence of length 1; only Y (= the new hidden state) is compared, as the one-node model
# lists the ONNX outputs in order (LSTMCell's Co would meet ONNX's Y_h)
def _single_step(y):
    return np.asarray(y)[0, 0]


def _as_sequence(x, states, w, r, b):
    n = x.shape[0]
    return (_f32(x)[:, None], [_f32(s)[:, None] for s in states], np.ones(n, np.int32),
            _f32(w)[None], _f32(r)[None], _f32(b)[None])


def _lstm_cell_4(inputs, attrs):
    x, h, c, w, r, b = inputs
    if not _exportable(x):
        return None
    xs, states, lens, ws, rs, bs = _as_sequence(x, (h, c), w, r, b)
    onnx_inputs, onnx_attrs = _lstm(xs, states, lens, ws, rs, bs, attrs)
    return OnnxOp("LSTM", onnx_inputs, onnx_attrs, opset=14, output=_single_step, output_types=[np.float32])


def _lstm_cell_1(inputs, attrs):
    x, h, c, w, r, *rest = inputs
    # ONNX's input_forget couples the gates the other way round (f = 1 - i; OpenVINO: i = 1 - f)
    if not _exportable(x) or attrs["input_forget"]:
        return None
    b = rest[0] if rest else np.zeros(w.shape[0], w.dtype)
    p = _f32(rest[1])[None] if len(rest) > 1 else None
    xs, states, lens, ws, rs, bs = _as_sequence(x, (h, c), w, r, b)
    onnx_inputs, onnx_attrs = _lstm(xs, states, lens, ws, rs, bs, attrs, p=p, fmt=attrs["weights_format"])
    return OnnxOp("LSTM", onnx_inputs, onnx_attrs, opset=14, output=_single_step, output_types=[np.float32])


def _gru_cell(inputs, attrs):
    x, h, w, r, b = inputs
    if not _exportable(x):
        return None
    xs, (hs,), lens, ws, rs, _ = _as_sequence(x, (h,), w, r, b)
    bias = _f32(_gru_bias(b, r.shape[-1], attrs["linear_before_reset"]))[None]
    onnx_attrs = {**_common(attrs, 2, 1), "linear_before_reset": int(attrs["linear_before_reset"])}
    return OnnxOp("GRU", [xs.transpose(1, 0, 2), ws, rs, bias, lens, hs.transpose(1, 0, 2)], onnx_attrs,
                  opset=14, output=_single_step, output_types=[np.float32])


def _rnn_cell(inputs, attrs):
    x, h, w, r, b = inputs
    if not _exportable(x):
        return None
    xs, (hs,), lens, ws, rs, bs = _as_sequence(x, (h,), w, r, b)
    return OnnxOp("RNN", [xs.transpose(1, 0, 2), ws, rs, _with_zero_recurrent_bias(bs), lens, hs.transpose(1, 0, 2)],
                  _common(attrs, 1, 1), opset=14, output=_single_step, output_types=[np.float32])


EXPORTS = {
    "LSTMSequence-5": _lstm_sequence,
    "GRUSequence-5": _gru_sequence,
    "RNNSequence-5": _rnn_sequence,
    "LSTMCell-4": _lstm_cell_4,
    "LSTMCell-1": _lstm_cell_1,
    "GRUCell-3": _gru_cell,
    "RNNCell-3": _rnn_cell,
}
