"""Cases for the recurrent sequence ops and the CTC ops: seeded random sizes (batch <= 3, seq <= 5,
hidden <= 8), every floating-point type, every direction / activation / flag, sequence lengths
from 0 to the full length, edge values (saturating inputs, ±Inf, NaN, ties in the logits), plus
error cases; shape cases loosen the same shapes into partial shapes."""
from __future__ import annotations

import itertools

import numpy as np

from ...shapes import PartialShape
from ...types import FLOAT, element_type, element_type_of
from . import Case, ShapeCase, info
from ._gen import loosen, rng_for

N_CASES = 110
T_LEN = ("i32", "i64", "i8", "i16", "u8", "u16", "u32", "u64")
ACTIVATIONS = ("relu", "sigmoid", "tanh")
DIRECTIONS = ("forward", "reverse", "bidirectional")
IS_F8 = ("f8e4m3", "f8e5m2")

F8_CPU = ("the CPU plugin has no f8 kernels (unsupported src_prc); asked with the floating-point inputs widened to "
          "f32, compared at f8 tolerance")
F64_CPU = "the CPU plugin computes f64 as f32 (saturating +-inf); asked with the inputs as f32, compared at f32 tolerance"
LSTM1_CPU = ("the CPU plugin's LSTMCell-1 ignores the peepholes P, input_forget and weights_format (it computes a "
             "plain fico LSTMCell-4) and OpenVINO has no reference evaluate for it; checked against TensorFlow's "
             "LSTMBlockCell (peepholes; gates reordered from weights_format; input_forget as i = sigmoid(-z_f))")


def _floats(rng, et, shape, scale=0.7):
    """Small normal values (RNN gates saturate beyond a few units), rounded to the type."""
    return (rng.standard_normal(tuple(shape)) * scale).astype(np.float32).astype(element_type(et).dtype)


CLIP_NAN = ("OpenVINO and onnxruntime clip a NaN gate input to a finite value (each its own: -clip or clip); the spec "
            "clips numbers to [-clip, clip] and says nothing of NaN, and opref keeps NaN (IEEE: a NaN compares "
            "neither below nor above a bound)")


ORT_LSTM_NAN = ("onnxruntime's LSTM kernel turns this NaN of X into a finite gate value (no clip set); the spec's "
                "gates, and opref's, are NaN")


def _case(op, id, inputs, attrs, float_ports, exact=None, tf=False, nan_used=None, nan_carried=None):
    """A value case, marked where OpenVINO's CPU plugin is not a faithful oracle for it."""
    et = element_type_of(inputs[0])
    why, cast, oracle, tolerance = [], {}, "openvino", None
    if tf:
        why, oracle = [LSTM1_CPU], "tensorflow"
    if et in IS_F8:
        why, cast = why + [F8_CPU], {p: "f32" for p in float_ports if p < len(inputs)}
    elif et == "f64" and not exact:
        why, tolerance = why + [F64_CPU], "f32"
        cast = {p: "f32" for p in float_ports if p < len(inputs)}
    nan_differs = {}
    # opref.onnx lowers these to onnxruntime's own LSTM/GRU/RNN kernels (the others to their steps spelled out)
    ort_kernel = et == "f32" or ("Cell" in op and et != "f64")
    if attrs.get("clip") and nan_used:
        # onnxruntime's RNN keeps a NaN in the step that reads it (unless its relu makes it 0) and loses
        # it once the hidden state carries it to a later step; its LSTM and GRU clip it at once
        ort = ort_kernel and (not op.startswith("RNN") or nan_carried or "relu" in attrs.get("activations", ()))
        nan_differs = {"openvino": CLIP_NAN, **({"onnxruntime": CLIP_NAN} if ort else {})}
    elif nan_used and ort_kernel and op == "LSTMCell-1":
        nan_differs = {"onnxruntime": ORT_LSTM_NAN}
    return Case(op, id, tuple(inputs), attrs, openvino="; ".join(why) or None, exact=exact, oracle_cast=cast,
                oracle=oracle, tolerance=tolerance, nan_differs=nan_differs)


def _edge(rng, i, x):
    """Every 10th case: saturating, infinite or NaN inputs in X."""
    kind = i // 10 % 4
    if i % 10 != 9 or x.size == 0:
        return x, ""
    x = x.copy()
    flat = x.reshape(-1)
    j = int(rng.integers(0, flat.size))
    value = {0: 30.0, 1: -30.0, 2: np.inf, 3: np.nan}[kind]
    flat[j] = value
    return x, f"_edge{kind}"


def _activations(rng, i, default):
    if i % 4 != 3:
        return {}
    return {"activations": [str(rng.choice(ACTIVATIONS)) for _ in default]}


def _clip(rng, i):
    return {"clip": float(np.float32(rng.uniform(0.3, 2.0)))} if i % 5 == 4 else {}


def _lengths(rng, n, t, et):
    lens = rng.integers(0, t + 1, n)
    if rng.random() < 0.5:
        lens[int(rng.integers(0, n))] = t
    return lens.astype(element_type(et).dtype)


# --- sequences -------------------------------------------------------------------------------------------
_SEQ = {  # op -> (gates, state count, default activations)
    "LSTMSequence-5": (4, 2, ("sigmoid", "tanh", "tanh")),
    "GRUSequence-5": (3, 1, ("sigmoid", "tanh")),
    "RNNSequence-5": (1, 1, ("tanh",)),
}


def _sequences(op):
    gates, n_states, default = _SEQ[op]
    rng = rng_for(op)
    types = itertools.cycle(FLOAT)
    out = []
    for i in range(N_CASES):
        et, direction, len_et = next(types), DIRECTIONS[i % 3], T_LEN[i % len(T_LEN)]
        n, t = int(rng.integers(1, 4)), int(rng.integers(1, 6))
        inp, h = int(rng.integers(1, 5)), int(rng.integers(1, 9))
        d = 2 if direction == "bidirectional" else 1
        attrs = {"hidden_size": h, "direction": direction, **_activations(rng, i, default), **_clip(rng, i)}
        lbr = op == "GRUSequence-5" and i % 2 == 1
        if op == "GRUSequence-5":
            attrs["linear_before_reset"] = lbr
        x, edge = _edge(rng, i, _floats(rng, et, (n, t, inp)))
        states = [_floats(rng, et, (n, d, h)) for _ in range(n_states)]
        weights = [_floats(rng, et, (d, gates * h, inp)), _floats(rng, et, (d, gates * h, h)),
                   _floats(rng, et, (d, (gates + lbr) * h))]
        inputs = [x, *states, _lengths(rng, n, t, len_et), *weights]
        floats = [p for p in range(len(inputs)) if p != 1 + n_states]
        steps = np.arange(t)[None, :] < inputs[1 + n_states].astype(np.int64)[:, None]     # [N, T] within length
        lengths = inputs[1 + n_states].astype(np.int64)
        nan_at = np.isnan(x.astype(np.float64)).any(axis=2) & steps
        last = (np.arange(t)[None, :] == (lengths - 1)[:, None] if direction == "forward"   # the last step read
                else np.arange(t)[None, :] == 0 if direction == "reverse" else np.zeros((n, t), bool))
        out.append(_case(op, f"{i}_{et}_{direction}_{len_et}_n{n}t{t}i{inp}h{h}{edge}", inputs, attrs, floats,
                         nan_used=bool(nan_at.any()), nan_carried=bool((nan_at & ~last).any())))
    return out


# --- cells ---------------------------------------------------------------------------------------------------
_CELL = {  # op -> (gates, state count, default activations)
    "LSTMCell-4": (4, 2, ("sigmoid", "tanh", "tanh")),
    "LSTMCell-1": (4, 2, ("sigmoid", "tanh", "tanh")),
    "GRUCell-3": (3, 1, ("sigmoid", "tanh")),
    "RNNCell-3": (1, 1, ("tanh",)),
}
WEIGHTS_FORMATS = ("fico", "icof", "ifco", "ifoc", "iofc")


def _cells(op):
    gates, n_states, default = _CELL[op]
    rng = rng_for(op)
    types = itertools.cycle(FLOAT)
    out = []
    for i in range(N_CASES):
        et = next(types)
        n, inp, h = int(rng.integers(1, 4)), int(rng.integers(1, 5)), int(rng.integers(1, 9))
        attrs = {"hidden_size": h}
        tf = False
        lbr = op == "GRUCell-3" and i % 2 == 1
        if op == "GRUCell-3":
            attrs["linear_before_reset"] = lbr
        x, edge = _edge(rng, i, _floats(rng, et, (n, inp)))
        inputs = [x] + [_floats(rng, et, (n, h)) for _ in range(n_states)] + \
                 [_floats(rng, et, (gates * h, inp)), _floats(rng, et, (gates * h, h)),
                  _floats(rng, et, ((gates + lbr) * h,))]
        if op == "LSTMCell-1" and i % 2 == 1:
            # the v0 extras (only TensorFlow's LSTMBlockCell can check them: default activations, no clip)
            variant = i // 2 % 4
            if variant in (0, 3):
                inputs.append(_floats(rng, et, (3 * h,)))
            if variant in (1, 3):
                attrs["input_forget"] = True
            if variant in (2, 3) or i % 3 == 0:
                attrs["weights_format"] = WEIGHTS_FORMATS[i % 5]
            tf = len(inputs) == 7 or attrs.get("input_forget") or attrs.get("weights_format", "fico") != "fico"
            edge = f"_v0extra{variant}"
        else:
            attrs.update(_activations(rng, i, default))
            attrs.update(_clip(rng, i))
            if op == "LSTMCell-1" and i % 4 == 2:
                inputs = inputs[:5]                      # B is optional in v0
                edge += "_noB"
        if tf and et in IS_F8:                           # TensorFlow has no f8 LSTM: keep these on f16
            inputs = [a.astype(np.float16) for a in inputs]
            et = "f16"
        out.append(_case(op, f"{i}_{et}_n{n}i{inp}h{h}{edge}", inputs, attrs, list(range(len(inputs))), tf=tf,
                         nan_used=bool(np.isnan(inputs[0].astype(np.float64)).any())))
    return out


# --- CTC ---------------------------------------------------------------------------------------------------
def _logits(rng, et, shape, i):
    """Logits; every 3rd case rounded to integers so that argmax ties happen (the first class wins)."""
    x = rng.standard_normal(shape) * 2
    if i % 3 == 0:
        x = np.round(x)
    if i % 10 == 9 and x.size:
        x.reshape(-1)[int(rng.integers(0, x.size))] = (np.inf, -np.inf)[i // 10 % 2]
    return x.astype(np.float32).astype(element_type(et).dtype)


def _ctc_greedy_decoder():
    op = "CTCGreedyDecoder-1"
    rng = rng_for(op)
    types = itertools.cycle(FLOAT)
    out = []
    for i in range(N_CASES):
        et = next(types)
        t, n, c = int(rng.integers(1, 7)), int(rng.integers(1, 4)), int(rng.integers(1, 7))
        lens = rng.integers(0, t + 1, n)
        mask = (np.arange(t)[:, None] < lens[None, :]).astype(element_type(et).dtype)
        merge = i % 2 == 0
        out.append(_case(op, f"{i}_{et}_t{t}n{n}c{c}_{'merge' if merge else 'keep'}",
                         [_logits(rng, et, (t, n, c), i), mask], {"ctc_merge_repeated": merge}, [0, 1], exact=True))
    return out


def _ctc_greedy_decoder_seq_len():
    op = "CTCGreedyDecoderSeqLen-6"
    rng = rng_for(op)
    types = itertools.cycle(FLOAT)
    out = []
    for i in range(N_CASES):
        et, idx = next(types), ("i32", "i64")[i % 2]
        n, t, c = int(rng.integers(1, 4)), int(rng.integers(1, 7)), int(rng.integers(1, 7))
        lens = rng.integers(0, t + 1, n).astype(element_type(idx).dtype)
        inputs = [_logits(rng, et, (n, t, c), i), lens]
        blank = i % 3
        if blank:                                   # a scalar or a 1-element blank_index, any class
            value = int(rng.integers(0, c))
            inputs.append(np.array(value if blank == 1 else [value], element_type(idx).dtype))
        attrs = {"merge_repeated": i % 4 < 2, "classes_index_type": ("i32", "i64")[i // 2 % 2],
                 "sequence_length_type": ("i32", "i64")[i // 3 % 2]}
        out.append(_case(op, f"{i}_{et}_{idx}_n{n}t{t}c{c}_blank{blank}", inputs, attrs, [0], exact=True))
    return out


def _ctc_loss():
    op = "CTCLoss-4"
    rng = rng_for(op)
    types = itertools.cycle(FLOAT)
    out = []
    for i in range(N_CASES):
        et, t1, t2 = next(types), ("i32", "i64")[i % 2], ("i32", "i64")[i // 2 % 2]
        n, t, c = int(rng.integers(1, 4)), int(rng.integers(1, 6)), int(rng.integers(2, 6))
        blank = c - 1 if i % 3 == 0 else int(rng.integers(0, c))
        others = np.array([k for k in range(c) if k != blank])
        # lengths >= 1: OpenVINO's CPU plugin crashes on an empty label or logit sequence and TensorFlow
        # rejects an empty label (tests/test_sequence.py checks those by hand)
        logit_len = rng.integers(1, t + 1, n)
        label_len = np.array([rng.integers(1, m + 1) for m in logit_len])
        labels = others[rng.integers(0, len(others), (n, t))]        # labels never hold the blank
        attrs = {"preprocess_collapse_repeated": bool(i & 1), "ctc_merge_repeated": bool(i & 2),
                 "unique": bool(i & 4)}
        x = (rng.standard_normal((n, t, c)) * 2).astype(np.float32).astype(element_type(et).dtype)
        inputs = [x, logit_len.astype(element_type(t1).dtype), labels.astype(element_type(t2).dtype),
                  label_len.astype(element_type(t1).dtype)]
        if i % 3:
            inputs.append(np.array(blank, element_type(t2).dtype))
        out.append(_case(op, f"{i}_{et}_{t1}{t2}_n{n}t{t}c{c}_b{blank}", inputs, attrs, [0]))
    return out


# --- errors ----------------------------------------------------------------------------------------------------
def _errors():
    z = lambda *s: np.zeros(s, np.float32)  # noqa: E731
    lens = np.array([2, 2], np.int32)
    lstm = (z(2, 2, 3), z(2, 1, 4), z(2, 1, 4), lens, z(1, 16, 3), z(1, 16, 4), z(1, 16))
    gru = (z(2, 2, 3), z(2, 1, 4), lens, z(1, 12, 3), z(1, 12, 4), z(1, 12))
    rnn = (z(2, 2, 3), z(2, 1, 4), lens, z(1, 4, 3), z(1, 4, 4), z(1, 4))
    cell = (z(2, 3), z(2, 4), z(2, 4), z(16, 3), z(16, 4), z(16))
    return [
        Case("LSTMSequence-5", "err_direction_dims", lstm, {"hidden_size": 4, "direction": "bidirectional"},
             error="num_directions"),
        Case("LSTMSequence-5", "err_activation", lstm, {"hidden_size": 4, "activations": ["sigmoid", "elu", "tanh"]},
             error="unsupported function(s) ['elu']"),
        Case("LSTMSequence-5", "err_activation_count", lstm, {"hidden_size": 4, "activations": ["sigmoid"]},
             error="needs 3 functions"),
        Case("LSTMSequence-5", "err_hidden", lstm[:2] + (z(2, 1, 5),) + lstm[3:], {"hidden_size": 4},
             error="hidden_size"),
        Case("LSTMSequence-5", "err_W_gates", lstm[:4] + (z(1, 12, 3),) + lstm[5:], {"hidden_size": 4},
             error="dimension 1 of 'W' must be 4 * hidden_size = 16"),
        Case("LSTMSequence-5", "err_batch", lstm[:3] + (np.array([1, 2, 3], np.int32),) + lstm[4:],
             {"hidden_size": 4}, error="batch_size"),
        Case("LSTMSequence-5", "err_rank", (z(2, 3),) + lstm[1:], {"hidden_size": 4}, error="must be 3-D"),
        Case("LSTMSequence-5", "err_direction", lstm, {"hidden_size": 4, "direction": "both"}, error="'direction'"),
        Case("LSTMSequence-5", "err_float_lengths", lstm[:3] + (np.array([2.0, 2.0], np.float32),) + lstm[4:],
             {"hidden_size": 4}, error="sequence_lengths"),
        Case("GRUSequence-5", "err_lbr_bias", gru, {"hidden_size": 4, "linear_before_reset": True},
             error="must be 4 * hidden_size = 16"),
        Case("GRUSequence-5", "err_hidden_size", gru, {"hidden_size": 0}, error="'hidden_size' must be > 0"),
        Case("GRUSequence-5", "err_int_data", tuple(a.astype(np.int32) for a in gru), {"hidden_size": 4},
             error="expected one of"),
        Case("RNNSequence-5", "err_clip", rnn, {"hidden_size": 4, "clip": -1.0}, error="'clip' must be >= 0"),
        Case("RNNSequence-5", "err_R_hidden", rnn[:4] + (z(1, 4, 5),) + rnn[5:], {"hidden_size": 4},
             error="hidden_size"),
        Case("LSTMCell-4", "err_rank", (z(2, 2, 3),) + cell[1:], {"hidden_size": 4}, error="must be 2-D"),
        Case("LSTMCell-4", "err_B", cell[:5] + (z(12),), {"hidden_size": 4}, error="dimension 0 of 'B'"),
        Case("LSTMCell-4", "err_no_B", cell[:5], {"hidden_size": 4}, error="expected 6 input(s)"),
        Case("LSTMCell-1", "err_P", cell + (z(8),), {"hidden_size": 4}, error="input 'P' must have 3 * hidden_size"),
        Case("LSTMCell-1", "err_format", cell, {"hidden_size": 4, "weights_format": "fioc"}, error="'weights_format'"),
        Case("GRUCell-3", "err_batch", (z(2, 3), z(3, 4), z(12, 3), z(12, 4), z(12)), {"hidden_size": 4},
             error="batch_size"),
        Case("GRUCell-3", "err_activation", (z(2, 3), z(2, 4), z(12, 3), z(12, 4), z(12)),
             {"hidden_size": 4, "activations": ["sigmoid", "softsign"]}, error="unsupported function(s)"),
        Case("RNNCell-3", "err_W", (z(2, 3), z(2, 4), z(5, 3), z(4, 4), z(4)), {"hidden_size": 4},
             error="dimension 0 of 'W' must be 1 * hidden_size = 4"),
        Case("CTCGreedyDecoder-1", "err_rank", (z(2, 3), z(2, 3)), error="'data' must be 3-D"),
        Case("CTCGreedyDecoder-1", "err_time", (z(2, 1, 3), z(3, 1)), error="T (dimension 0)"),
        Case("CTCGreedyDecoderSeqLen-6", "err_blank_shape", (z(1, 2, 3), np.array([2], np.int32),
                                                            np.array([1, 2], np.int32)), error="'blank_index'"),
        Case("CTCGreedyDecoderSeqLen-6", "err_batch", (z(2, 2, 3), np.array([2], np.int32)), error="`N`"),
        Case("CTCGreedyDecoderSeqLen-6", "err_type", (z(1, 2, 3), np.array([2], np.int32)),
             {"classes_index_type": "f32"}, error="'classes_index_type'"),
        Case("CTCLoss-4", "err_labels_rank", (z(1, 2, 3), np.array([2], np.int32), np.array([1, 1], np.int32),
                                              np.array([2], np.int32)), error="'labels' must be 2-D"),
        Case("CTCLoss-4", "err_time", (z(1, 2, 3), np.array([2], np.int32), np.array([[1, 1, 1]], np.int32),
                                       np.array([2], np.int32)), error="T (time)"),
        Case("CTCLoss-4", "err_blank_rank", (z(1, 2, 3), np.array([2], np.int32), np.array([[1, 1]], np.int32),
                                             np.array([2], np.int32), np.array([2], np.int32)),
             error="'blank_index' must be 0-D"),
    ]


def cases():
    return ([c for op in _SEQ for c in _sequences(op)] + [c for op in _CELL for c in _cells(op)]
            + _ctc_greedy_decoder() + _ctc_greedy_decoder_seq_len() + _ctc_loss() + _errors())


# --- shape cases ----------------------------------------------------------------------------------------------
def _loosen_case(rng, case: Case, i: int) -> ShapeCase:
    """A partial-shape variant of a value case: every input loosened (or, now and then, of dynamic rank)."""
    infos = []
    for x in case.inputs:
        r = rng.random()
        shape = PartialShape.dynamic() if r < 0.06 else loosen(rng, x.shape)
        infos.append(info(element_type_of(x), shape))
    if case.op == "LSTMCell-1" and len(infos) == 7 and not infos[6].shape.rank_is_static:
        from ...opset import get_schema
        expected = str(get_schema(case.op).infer(infos, case.attrs)[0].shape)
        return ShapeCase(case.op, f"loose{i}_{case.id}", tuple(infos), case.attrs, P_DYNAMIC_RANK, expected)
    return ShapeCase(case.op, f"loose{i}_{case.id}", tuple(infos), case.attrs)


P_DYNAMIC_RANK = ("OpenVINO's LSTMCell-1 shape inference reads P's first dimension even when P's rank is dynamic "
                  "(\"Accessing out-of-range dimension\"); a P of unknown rank constrains nothing")


def _shape_specials():
    f, i = "f32", "i32"
    h4 = {"hidden_size": 4}
    return [
        # hidden size only from W (divided by the gate count, as OpenVINO)
        ShapeCase("LSTMSequence-5", "hidden_from_W", (info(f, [2, 3, 5]), info(f, None), info(f, None), info(i, [2]),
                                                      info(f, [1, 16, 5]), info(f, None), info(f, None)), h4),
        ShapeCase("LSTMSequence-5", "all_dynamic_rank", tuple(info(t, None) for t in (f, f, f, i, f, f, f)), h4),
        ShapeCase("GRUSequence-5", "bidirectional_from_attr", (info(f, [2, 3, 5]), info(f, [2, -1, 4]), info(i, [-1]),
                                                               info(f, None), info(f, None), info(f, None)),
                  {"hidden_size": 4, "direction": "bidirectional"}),
        ShapeCase("GRUSequence-5", "hidden_interval", (info(f, [2, 3, 5]), info(f, [2, 1, (2, 6)]), info(i, [2]),
                                                       info(f, [1, 12, 5]), info(f, [1, 12, (3, 5)]), info(f, [1, 12])),
                  h4),
        ShapeCase("GRUSequence-5", "W_not_divisible", (info(f, [2, 3, 5]), info(f, [2, 1, -1]), info(i, [2]),
                                                       info(f, [1, 13, 5]), info(f, [1, -1, -1]), info(f, [1, -1])),
                  h4),
        ShapeCase("RNNSequence-5", "seq_len_batch", (info(f, [-1, 3, 5]), info(f, None), info(i, [7]), info(f, None),
                                                     info(f, None), info(f, None)), h4),
        ShapeCase("RNNSequence-5", "direction_mismatch", (info(f, [2, 3, 5]), info(f, [2, 2, 4]), info(i, [2]),
                                                          info(f, None), info(f, None), info(f, None)), h4),
        ShapeCase("LSTMCell-4", "hidden_from_W", (info(f, [2, 5]), info(f, None), info(f, None), info(f, [16, 5]),
                                                  info(f, None), info(f, None)), h4),
        ShapeCase("LSTMCell-4", "all_dynamic_rank", tuple(info(f, None) for _ in range(6)), h4),
        ShapeCase("LSTMCell-1", "P_interval", (info(f, [2, 5]), info(f, [2, 4]), info(f, [2, 4]), info(f, [16, 5]),
                                               info(f, [16, 4]), info(f, [16]), info(f, [(10, 14)])), h4),
        ShapeCase("LSTMCell-1", "P_dynamic_rank", (info(f, [2, 5]), info(f, [2, 4]), info(f, [2, 4]), info(f, [16, 5]),
                                                   info(f, [16, 4]), info(f, [16]), info(f, None)), h4,
                  P_DYNAMIC_RANK, "[2,4]"),
        ShapeCase("LSTMCell-1", "P_wrong", (info(f, [2, 5]), info(f, [2, 4]), info(f, [2, 4]), info(f, [16, 5]),
                                            info(f, [16, 4]), info(f, [16]), info(f, [8])), h4),
        ShapeCase("GRUCell-3", "lbr_bias", (info(f, [2, 5]), info(f, [2, 4]), info(f, [12, 5]), info(f, [12, 4]),
                                            info(f, [16])), {"hidden_size": 4, "linear_before_reset": True}),
        ShapeCase("RNNCell-3", "batch_interval", (info(f, [(1, 4), 5]), info(f, [(3, 8), -1]), info(f, [-1, 5]),
                                                  info(f, [4, 4]), info(f, [4])), h4),
        ShapeCase("CTCGreedyDecoder-1", "both_dynamic_rank", (info(f, None), info(f, None))),
        ShapeCase("CTCGreedyDecoder-1", "mask_only", (info(f, None), info(f, [(2, 5), 3]))),
        ShapeCase("CTCGreedyDecoderSeqLen-6", "blank_1d", (info(f, [2, 3, 4]), info(i, [2]), info(i, [1])),
                  {"classes_index_type": "i64"}),
        ShapeCase("CTCGreedyDecoderSeqLen-6", "blank_2_elements", (info(f, [2, 3, 4]), info(i, [2]), info(i, [2]))),
        ShapeCase("CTCLoss-4", "batch_from_labels", (info(f, None), info(i, None), info(i, [3, 5]), info(i, [-1]))),
        ShapeCase("CTCLoss-4", "all_dynamic", (info(f, None), info(i, None), info(i, None), info(i, None))),
    ]


def shape_cases():
    rng = np.random.default_rng(2025)
    value_cases = [c for c in cases() if c.error is None]
    return [_loosen_case(rng, c, i) for i, c in enumerate(value_cases)] + _shape_specials()
