"""Recurrent sequence ops: LSTMSequence-5, GRUSequence-5, RNNSequence-5, LSTMCell-1/4, GRUCell-3,
RNNCell-3, and the CTC ops CTCGreedyDecoder-1, CTCGreedyDecoderSeqLen-6, CTCLoss-4.

Shape rules follow OpenVINO's (src/core/shape_inference/include/rnn_base_shape_inference.hpp and
ctc_*_shape_inference.hpp) on partial shapes: batch and hidden sizes are merged across all the
inputs that carry them; the `hidden_size` attribute is not used for shapes (as in OpenVINO, for
backward compatibility). Gate orders are OpenVINO's: LSTM f,i,c,o; GRU z,r,h.
"""
from __future__ import annotations

from ..shapes import Dimension, PartialShape, TensorInfo
from ..types import FLOAT, IDX
from .helpers import check, fail
from .schema import BOOL, ELEMENT_TYPE, FLOATS, INT, REQUIRED, STRING, STRINGS, Attr, OpSchema, Port
from .schema import FLOAT as FLOAT_KIND

# "any supported integer type" for sequence lengths (sub-byte types hold no lengths worth having)
T_LEN = ("i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8")
ACTIVATIONS = ("relu", "sigmoid", "tanh")
DIRECTIONS = ("forward", "reverse", "bidirectional")


# --- shared checks ------------------------------------------------------------------------------------
def _rank(op, name, info, rank):
    s = info.shape
    check(not s.rank_is_static or len(s) == rank, op, lambda: f"input {name!r} must be {rank}-D, got shape {s}")


def _merge(op, what, a: Dimension, b: Dimension) -> Dimension:
    m = a.merge(b)
    if m is None:
        fail(op, f"dimension `{what}` does not match between inputs: {a} vs {b}")
    return m


def _static_equal(op, what, a: Dimension, b: Dimension) -> None:
    """Two static dims that must be equal (X's and W's input_size). OpenVINO's shape inference does not
    check them at all; opref rejects only a static mismatch (the kernel cannot run it), so that every
    partial shape OpenVINO accepts is still accepted."""
    if a.is_static and b.is_static and a.lo != b.lo:
        fail(op, f"dimension `{what}` does not match between inputs: {a} vs {b}")


def _dim(info, i) -> Dimension:
    return info.shape[i] if info is not None and info.shape.rank_is_static else Dimension()


def _check_activations(op, activations, count):
    check(len(activations) >= count, op,
          lambda: f"attribute 'activations' needs {count} functions, got {list(activations)}")
    bad = [a for a in activations if a not in ACTIVATIONS]
    check(not bad, op,
          lambda: f"attribute 'activations' has unsupported function(s) {bad}; expected {', '.join(ACTIVATIONS)}")


def _check_rnn_attrs(op, hidden_size, activations, clip, count):
    check(hidden_size > 0, op, lambda: f"attribute 'hidden_size' must be > 0, got {hidden_size}")
    check(clip >= 0, op, lambda: f"attribute 'clip' must be >= 0 (0: no clipping), got {clip}")
    _check_activations(op, activations, count)


def _hidden_from_weights(op, hidden, weights, gates, lead):
    """Hidden size checks against W/R (and B): as OpenVINO, a known hidden size must be compatible
    with each weight's gate dimension; an unknown one is taken from it (divided by the gate count)."""
    axis = 1 if lead else 0
    for name, info, mult in weights:
        if info is None or not info.shape.rank_is_static:
            continue
        d = info.shape[axis]
        if hidden.is_static:
            check(d.compatible(hidden.lo * mult), op, lambda: f"dimension {axis} of {name!r} must be "
                                                              f"{mult} * hidden_size = {hidden.lo * mult}, got {d}")
    if not hidden.is_static:
        for name, info, mult in weights[:2]:          # W and R only, as OpenVINO
            if info is None or not info.shape.rank_is_static or not info.shape[0].is_static:
                continue
            q = info.shape[axis].divide(gates)
            if q is None:
                fail(op, f"dimension {axis} of {name!r} ({info.shape[axis]}) is not {gates} * hidden_size")
            hidden = _merge(op, "hidden_size", hidden, q)
    return hidden


# --- sequences ----------------------------------------------------------------------------------------
def _sequence_shape(op, gates, x, states, seq_len, w, r, b, *, direction, hidden_size, activations, clip,
                    n_activations, linear_before_reset=False):
    _check_rnn_attrs(op, hidden_size, activations, clip, n_activations)
    names = ("X", "initial_hidden_state", "initial_cell_state")[:1 + len(states)]
    for name, info in zip(names, (x, *states)):
        _rank(op, name, info, 3)
    _rank(op, "sequence_lengths", seq_len, 1)
    for name, info, rank in (("W", w, 3), ("R", r, 3), ("B", b, 2)):
        _rank(op, name, info, rank)
    batch = _dim(x, 0)
    for info in (*states, seq_len):
        batch = _merge(op, "batch_size", batch, _dim(info, 0))
    _static_equal(op, "input_size", _dim(x, 2), _dim(w, 2))
    hidden = _dim(states[0], 2)
    for info in (*states[1:], r):
        hidden = _merge(op, "hidden_size", hidden, _dim(info, 2))
    dirs = Dimension(2, 2) if direction == "bidirectional" else Dimension(1, 1)
    for info, axis in [(s, 1) for s in states] + [(w, 0), (r, 0), (b, 0)]:
        m = dirs.merge(_dim(info, axis))
        check(m is not None, op, lambda: f"dimension `num_directions` of an input ({info.shape}) does not match "
                                         f"direction={direction!r} ({dirs})")
        dirs = m
    hidden = _hidden_from_weights(op, hidden, [("W", w, gates), ("R", r, gates),
                                               ("B", b, gates + linear_before_reset)], gates, lead=True)
    y = PartialShape([batch, dirs, _dim(x, 1), hidden])
    return [y] + [PartialShape([batch, dirs, hidden])] * len(states)


def lstm_sequence_shape(X, initial_hidden_state, initial_cell_state, sequence_lengths, W, R, B, *,
                        hidden_size, direction, activations, activations_alpha, activations_beta, clip):
    """With G gates: Y is [batch_size, num_directions, seq_length, hidden_size] and Ho, Co [batch_size, num_directions,
    hidden_size], batch_size merged over X, the initial states and sequence_lengths, hidden_size over the states and
    R's last dimension (or, when still unknown, taken from W's or R's G * hidden_size dimension), num_directions
    over the inputs and direction (2 for bidirectional, else 1), seq_length from X. X and the states are 3-D,
    sequence_lengths 1-D, W and R 3-D, B 2-D; W, R and B must have 4 * hidden_size rows for a known hidden_size;
    hidden_size > 0, clip >= 0 and 3 activation(s) from relu, sigmoid, tanh. The hidden_size attribute does not set
    the shape."""
    return _sequence_shape("LSTMSequence-5", 4, X, (initial_hidden_state, initial_cell_state), sequence_lengths,
                           W, R, B, direction=direction, hidden_size=hidden_size, activations=activations,
                           clip=clip, n_activations=3)


def gru_sequence_shape(X, initial_hidden_state, sequence_lengths, W, R, B, *, hidden_size, direction, activations,
                       activations_alpha, activations_beta, clip, linear_before_reset):
    """With G gates: Y is [batch_size, num_directions, seq_length, hidden_size] and Ho [batch_size, num_directions,
    hidden_size], batch_size merged over X, the initial states and sequence_lengths, hidden_size over the states and
    R's last dimension (or, when still unknown, taken from W's or R's G * hidden_size dimension), num_directions
    over the inputs and direction (2 for bidirectional, else 1), seq_length from X. X and the states are 3-D,
    sequence_lengths 1-D, W and R 3-D, B 2-D; W, R and B must have 3 * hidden_size rows for a known hidden_size (B 4
    * hidden_size with linear_before_reset); hidden_size > 0, clip >= 0 and 2 activation(s) from relu, sigmoid,
    tanh. The hidden_size attribute does not set the shape."""
    return _sequence_shape("GRUSequence-5", 3, X, (initial_hidden_state,), sequence_lengths, W, R, B,
                           direction=direction, hidden_size=hidden_size, activations=activations, clip=clip,
                           n_activations=2, linear_before_reset=linear_before_reset)


def rnn_sequence_shape(X, initial_hidden_state, sequence_lengths, W, R, B, *, hidden_size, direction, activations,
                       activations_alpha, activations_beta, clip):
    """With G gates: Y is [batch_size, num_directions, seq_length, hidden_size] and Ho [batch_size, num_directions,
    hidden_size], batch_size merged over X, the initial states and sequence_lengths, hidden_size over the states and
    R's last dimension (or, when still unknown, taken from W's or R's G * hidden_size dimension), num_directions
    over the inputs and direction (2 for bidirectional, else 1), seq_length from X. X and the states are 3-D,
    sequence_lengths 1-D, W and R 3-D, B 2-D; W, R and B must have 1 * hidden_size rows for a known hidden_size;
    hidden_size > 0, clip >= 0 and 1 activation(s) from relu, sigmoid, tanh. The hidden_size attribute does not set
    the shape."""
    return _sequence_shape("RNNSequence-5", 1, X, (initial_hidden_state,), sequence_lengths, W, R, B,
                           direction=direction, hidden_size=hidden_size, activations=activations, clip=clip,
                           n_activations=1)


# --- cells --------------------------------------------------------------------------------------------
def _cell_shape(op, gates, x, states, w, r, b, *, hidden_size, activations, clip, n_activations,
                linear_before_reset=False):
    _check_rnn_attrs(op, hidden_size, activations, clip, n_activations)
    names = ("X", "initial_hidden_state", "initial_cell_state")[:1 + len(states)]
    for name, info in zip(names, (x, *states)):
        _rank(op, name, info, 2)
    for name, info, rank in (("W", w, 2), ("R", r, 2), ("B", b, 1)):
        if info is not None:
            _rank(op, name, info, rank)
    batch = _dim(x, 0)
    for info in states:
        batch = _merge(op, "batch_size", batch, _dim(info, 0))
    if w is not None:
        _static_equal(op, "input_size", _dim(x, 1), _dim(w, 1))
    hidden = _dim(states[0], 1)
    for info in (*states[1:], r):
        hidden = _merge(op, "hidden_size", hidden, _dim(info, 1))
    hidden = _hidden_from_weights(op, hidden, [("W", w, gates), ("R", r, gates),
                                               ("B", b, gates + linear_before_reset)], gates, lead=False)
    return [PartialShape([batch, hidden])] * len(states)


def _lstm_cell_shape(op, x, h, c, w, r, b, hidden_size, activations, clip):
    out = _cell_shape(op, 4, x, (h, c), w, r, b, hidden_size=hidden_size, activations=activations, clip=clip,
                      n_activations=3)
    batch, hidden = out[0]
    if not hidden.is_static:    # OpenVINO's LSTMCell (unlike the other cells) falls back on the attribute
        hidden = Dimension(hidden_size, hidden_size)
    return [PartialShape([batch, hidden])] * 2


def lstm_cell_4_shape(X, initial_hidden_state, initial_cell_state, W, R, B, *, hidden_size, activations,
                      activations_alpha, activations_beta, clip):
    """Ho and Co are [batch_size, hidden_size]: batch_size merged over X and the states, hidden_size over the states
    and R's last dimension (or, when still unknown, taken from W's or R's first dimension divided by 4); a
    hidden_size still unknown then comes from the hidden_size attribute. X and the states are 2-D, W and R 2-D, B
    1-D; W, R and B must have 4 * hidden_size rows for a known hidden_size; hidden_size > 0, clip >= 0 and 3
    activation(s) from relu, sigmoid, tanh."""
    return _lstm_cell_shape("LSTMCell-4", X, initial_hidden_state, initial_cell_state, W, R, B, hidden_size,
                            activations, clip)


def lstm_cell_1_shape(X, initial_hidden_state, initial_cell_state, W, R, B=None, P=None, *, hidden_size,
                      activations, activations_alpha, activations_beta, clip, input_forget, weights_format):
    """Ho and Co are [batch_size, hidden_size]: batch_size merged over X and the states, hidden_size over the states
    and R's last dimension (or, when still unknown, taken from W's or R's first dimension divided by 4); a
    hidden_size still unknown then comes from the hidden_size attribute. X and the states are 2-D, W and R 2-D, B
    1-D; W, R and B must have 4 * hidden_size rows for a known hidden_size; hidden_size > 0, clip >= 0 and 3
    activation(s) from relu, sigmoid, tanh. The optional P is 1-D with 3 * hidden_size elements."""
    op = "LSTMCell-1"
    out = _lstm_cell_shape(op, X, initial_hidden_state, initial_cell_state, W, R, B, hidden_size, activations, clip)
    if P is not None:
        _rank(op, "P", P, 1)
        hidden = out[0][1]
        if P.shape.rank_is_static and hidden.is_static:
            check(P.shape[0].compatible(3 * hidden.lo), op,
                  lambda: f"input 'P' must have 3 * hidden_size = "
                          f"{3 * hidden.lo} elements (peepholes f, i, o), got {P.shape[0]}")
    return out


def gru_cell_shape(X, initial_hidden_state, W, R, B, *, hidden_size, activations, activations_alpha,
                   activations_beta, clip, linear_before_reset):
    """Ho is [batch_size, hidden_size]: batch_size merged over X and the states, hidden_size over the states and R's
    last dimension (or, when still unknown, taken from W's or R's first dimension divided by 3). X and the states
    are 2-D, W and R 2-D, B 1-D; W, R and B must have 3 * hidden_size rows for a known hidden_size (B 4 *
    hidden_size with linear_before_reset); hidden_size > 0, clip >= 0 and 2 activation(s) from relu, sigmoid, tanh."""
    return _cell_shape("GRUCell-3", 3, X, (initial_hidden_state,), W, R, B, hidden_size=hidden_size,
                       activations=activations, clip=clip, n_activations=2, linear_before_reset=linear_before_reset)


def rnn_cell_shape(X, initial_hidden_state, W, R, B, *, hidden_size, activations, activations_alpha,
                   activations_beta, clip):
    """Ho is [batch_size, hidden_size]: batch_size merged over X and the states, hidden_size over the states
    and R's last dimension (or, when still unknown, taken from W's or R's first dimension divided by 1).
    X and the states are 2-D, W and R 2-D, B 1-D; W, R and B must have 1 * hidden_size rows for a known
    hidden_size; hidden_size > 0, clip >= 0 and 1 activation(s) from relu, sigmoid, tanh."""
    return _cell_shape("RNNCell-3", 1, X, (initial_hidden_state,), W, R, B, hidden_size=hidden_size,
                       activations=activations, clip=clip, n_activations=1)


def _rnn_attrs(activations):
    return (Attr("hidden_size", INT, REQUIRED, doc="hidden state size (shapes come from the inputs)"),
            Attr("activations", STRINGS, activations, doc="gate activation functions: relu, sigmoid, tanh"),
            Attr("activations_alpha", FLOATS, (), doc="activation parameters (unused by relu/sigmoid/tanh)"),
            Attr("activations_beta", FLOATS, (), doc="activation parameters (unused by relu/sigmoid/tanh)"),
            Attr("clip", FLOAT_KIND, 0.0, doc="clip gate pre-activations to [-clip, clip]; 0: no clipping"))


_DIRECTION = Attr("direction", STRING, "forward", allowed=DIRECTIONS,
                  doc="forward, reverse (num_directions 1) or bidirectional (2)")
_LBR = Attr("linear_before_reset", BOOL, False, doc="apply the reset gate after the recurrent matmul (ONNX's GRU "
            "linear_before_reset); B then holds 4 * hidden_size biases")
_FLOATS = {"T": FLOAT, "T_LEN": T_LEN}

LSTM_SEQUENCE_5 = OpSchema(
    "LSTMSequence", 5, category="sequence",
    inputs=(Port("X", "T", doc="input sequences [batch_size, seq_length, input_size]"),
            Port("initial_hidden_state", "T", doc="initial hidden state [batch_size, num_directions, hidden_size]"),
            Port("initial_cell_state", "T", doc="initial cell state [batch_size, num_directions, hidden_size]"),
            Port("sequence_lengths", "T_LEN", doc="[batch_size]: the number of valid steps of each sequence"),
            Port("W", "T", doc="input weights [num_directions, 4 * hidden_size, input_size], gates f, i, c, o"),
            Port("R", "T", doc="recurrent weights [num_directions, 4 * hidden_size, hidden_size]"),
            Port("B", "T", doc="biases [num_directions, 4 * hidden_size]")),
    outputs=(Port("Y", "T", doc="every step's hidden state [batch_size, num_directions, seq_length, hidden_size]"),
             Port("Ho", "T", doc="the last valid step's hidden state [batch_size, num_directions, hidden_size]"),
             Port("Co", "T", doc="the last valid step's cell state [batch_size, num_directions, hidden_size]")),
    attributes=(_DIRECTION,) + _rnn_attrs(("sigmoid", "tanh", "tanh")),
    type_constraints=_FLOATS, shape=lstm_sequence_shape,
    doc="LSTM over a batch of sequences [batch, seq, input]; gates f,i,c,o; steps past a sequence's length "
        "give zeros in Y and leave the states unchanged.",
)

GRU_SEQUENCE_5 = OpSchema(
    "GRUSequence", 5, category="sequence",
    inputs=(Port("X", "T", doc="input sequences [batch_size, seq_length, input_size]"),
            Port("initial_hidden_state", "T", doc="initial hidden state [batch_size, num_directions, hidden_size]"),
            Port("sequence_lengths", "T_LEN", doc="[batch_size]: the number of valid steps of each sequence"),
            Port("W", "T", doc="input weights [num_directions, 3 * hidden_size, input_size], gates z, r, h"),
            Port("R", "T", doc="recurrent weights [num_directions, 3 * hidden_size, hidden_size]"),
            Port("B", "T",
                 doc="biases [num_directions, 3 * hidden_size], or 4 * hidden_size with linear_before_reset")),
    outputs=(Port("Y", "T", doc="every step's hidden state [batch_size, num_directions, seq_length, hidden_size]"),
             Port("Ho", "T", doc="the last valid step's hidden state [batch_size, num_directions, hidden_size]")),
    attributes=(_DIRECTION,) + _rnn_attrs(("sigmoid", "tanh")) + (_LBR,),
    type_constraints=_FLOATS, shape=gru_sequence_shape,
    doc="GRU over a batch of sequences; gates z,r,h.",
)

RNN_SEQUENCE_5 = OpSchema(
    "RNNSequence", 5, category="sequence",
    inputs=(Port("X", "T", doc="input sequences [batch_size, seq_length, input_size]"),
            Port("initial_hidden_state", "T", doc="initial hidden state [batch_size, num_directions, hidden_size]"),
            Port("sequence_lengths", "T_LEN", doc="[batch_size]: the number of valid steps of each sequence"),
            Port("W", "T", doc="input weights [num_directions, hidden_size, input_size]"),
            Port("R", "T", doc="recurrent weights [num_directions, hidden_size, hidden_size]"),
            Port("B", "T", doc="biases [num_directions, hidden_size]")),
    outputs=(Port("Y", "T", doc="every step's hidden state [batch_size, num_directions, seq_length, hidden_size]"),
             Port("Ho", "T", doc="the last valid step's hidden state [batch_size, num_directions, hidden_size]")),
    attributes=(_DIRECTION,) + _rnn_attrs(("tanh",)),
    type_constraints=_FLOATS, shape=rnn_sequence_shape,
    doc="Vanilla RNN over a batch of sequences: H = f(X W^T + H R^T + B).",
)

LSTM_CELL_4 = OpSchema(
    "LSTMCell", 4, category="sequence",
    inputs=(Port("X", "T", doc="input [batch_size, input_size]"),
            Port("initial_hidden_state", "T", doc="hidden state [batch_size, hidden_size]"),
            Port("initial_cell_state", "T", doc="cell state [batch_size, hidden_size]"),
            Port("W", "T", doc="input weights [4 * hidden_size, input_size], gates f, i, c, o"),
            Port("R", "T", doc="recurrent weights [4 * hidden_size, hidden_size]"),
            Port("B", "T", doc="biases [4 * hidden_size]")),
    outputs=(Port("Ho", "T", doc="the next hidden state [batch_size, hidden_size]"),
             Port("Co", "T", doc="the next cell state [batch_size, hidden_size]")),
    attributes=_rnn_attrs(("sigmoid", "tanh", "tanh")),
    type_constraints={"T": FLOAT}, shape=lstm_cell_4_shape,
    doc="One LSTM step; gates f,i,c,o (B is required: OpenVINO's IR reader needs all six inputs).",
)

WEIGHTS_FORMATS = ("fico", "icof", "ifco", "ifoc", "iofc")

LSTM_CELL_1 = OpSchema(
    "LSTMCell", 1, category="sequence",
    inputs=(Port("X", "T", doc="input [batch_size, input_size]"),
            Port("initial_hidden_state", "T", doc="hidden state [batch_size, hidden_size]"),
            Port("initial_cell_state", "T", doc="cell state [batch_size, hidden_size]"),
            Port("W", "T", doc="input weights [4 * hidden_size, input_size], gates in weights_format order"),
            Port("R", "T", doc="recurrent weights [4 * hidden_size, hidden_size]"),
            Port("B", "T", optional=True, doc="biases [4 * hidden_size] (default zeros)"),
            Port("P", "T", optional=True, doc="peephole weights [3 * hidden_size] for gates f, i, o (default zeros)")),
    outputs=(Port("Ho", "T", doc="the next hidden state [batch_size, hidden_size]"),
             Port("Co", "T", doc="the next cell state [batch_size, hidden_size]")),
    attributes=_rnn_attrs(("sigmoid", "tanh", "tanh")) + (
        Attr("input_forget", BOOL, False, doc="couple the input and forget gates: i = 1 - f"),
        Attr("weights_format", STRING, "fico", allowed=WEIGHTS_FORMATS, doc="gate order of W, R and B")),
    type_constraints={"T": FLOAT}, shape=lstm_cell_1_shape,
    doc="One LSTM step with optional peepholes P [3 * hidden_size] (f, i, o); v4 drops P, input_forget and "
        "weights_format.",
)

GRU_CELL_3 = OpSchema(
    "GRUCell", 3, category="sequence",
    inputs=(Port("X", "T", doc="input [batch_size, input_size]"),
            Port("initial_hidden_state", "T", doc="hidden state [batch_size, hidden_size]"),
            Port("W", "T", doc="input weights [3 * hidden_size, input_size], gates z, r, h"),
            Port("R", "T", doc="recurrent weights [3 * hidden_size, hidden_size]"),
            Port("B", "T", doc="biases [3 * hidden_size], or 4 * hidden_size with linear_before_reset")),
    outputs=(Port("Ho", "T", doc="the next hidden state [batch_size, hidden_size]"),),
    attributes=_rnn_attrs(("sigmoid", "tanh")) + (_LBR,),
    type_constraints={"T": FLOAT}, shape=gru_cell_shape,
    doc="One GRU step; gates z,r,h (the spec calls B optional, but OpenVINO's IR reader needs it).",
)

RNN_CELL_3 = OpSchema(
    "RNNCell", 3, category="sequence",
    inputs=(Port("X", "T", doc="input [batch_size, input_size]"),
            Port("initial_hidden_state", "T", doc="hidden state [batch_size, hidden_size]"),
            Port("W", "T", doc="input weights [hidden_size, input_size]"),
            Port("R", "T", doc="recurrent weights [hidden_size, hidden_size]"),
            Port("B", "T", doc="biases [hidden_size]")),
    outputs=(Port("Ho", "T", doc="the next hidden state [batch_size, hidden_size]"),),
    attributes=_rnn_attrs(("tanh",)),
    type_constraints={"T": FLOAT}, shape=rnn_cell_shape,
    doc="One vanilla RNN step: H = f(X W^T + H R^T + B).",
)


# --- CTC ------------------------------------------------------------------------------------------------
def ctc_greedy_decoder_shape(data, sequence_mask, *, ctc_merge_repeated):
    """data [T, N, C] and sequence_mask [T, N] (T and N merged between them) give [N, T, 1, 1]; data must be 3-D
    and sequence_mask 2-D."""
    op = "CTCGreedyDecoder-1"
    _rank(op, "data", data, 3)
    _rank(op, "sequence_mask", sequence_mask, 2)
    time, batch = _dim(data, 0), _dim(data, 1)
    time = _merge(op, "T (dimension 0)", time, _dim(sequence_mask, 0))
    batch = _merge(op, "N (dimension 1)", batch, _dim(sequence_mask, 1))
    return PartialShape([batch, time, 1, 1])


def ctc_greedy_decoder_seq_len_shape(data, sequence_length, blank_index=None, *, merge_repeated,
                                     classes_index_type, sequence_length_type):
    """data [N, T, C] and sequence_length [N] (N merged between them) give decoded [N, T] of classes_index_type
    and decoded_length [N] of sequence_length_type. data must be 3-D, sequence_length 1-D, and a static
    blank_index a scalar or 1 element."""
    op = "CTCGreedyDecoderSeqLen-6"
    _rank(op, "data", data, 3)
    _rank(op, "sequence_length", sequence_length, 1)
    if blank_index is not None and blank_index.shape.is_static:
        s = blank_index.shape
        check(len(s) == 0 or (len(s) == 1 and s[0] == 1), op,
              lambda: f"input 'blank_index' must be a scalar or hold 1 element, got shape {s}")
    batch = _merge(op, "N", _dim(data, 0), _dim(sequence_length, 0))
    return [TensorInfo(classes_index_type, PartialShape([batch, _dim(data, 1)])),
            TensorInfo(sequence_length_type, PartialShape([batch]))]


def ctc_loss_shape(logits, logit_length, labels, label_length, blank_index=None, *, preprocess_collapse_repeated,
                   ctc_merge_repeated, unique):
    """loss is [N], N merged over logits [N, T, C], logit_length [N], labels [N, T] and label_length [N]; T is
    merged between logits and labels. The ranks must be 3, 1, 2, 1, and blank_index a scalar."""
    op = "CTCLoss-4"
    _rank(op, "logits", logits, 3)
    _rank(op, "logit_length", logit_length, 1)
    _rank(op, "labels", labels, 2)
    _rank(op, "label_length", label_length, 1)
    if blank_index is not None:
        _rank(op, "blank_index", blank_index, 0)
    batch = _dim(logits, 0)
    for info in (logit_length, labels, label_length):
        batch = _merge(op, "N (batch)", batch, _dim(info, 0))
    _merge(op, "T (time)", _dim(logits, 1), _dim(labels, 1))
    return PartialShape([batch])


CTC_GREEDY_DECODER_1 = OpSchema(
    "CTCGreedyDecoder", 1, category="sequence",
    inputs=(Port("data", "T_F", doc="logits [T, N, C]; class C-1 is the blank"),
            Port("sequence_mask", "T_F", doc="[T, N]: 1 for valid steps, 0 after a sequence's end")),
    outputs=(Port("output", "T_F", doc="[N, T, 1, 1]: the decoded classes of each sequence, padded with -1"),),
    attributes=(Attr("ctc_merge_repeated", BOOL, True, doc="merge repeated classes"),),
    type_constraints={"T_F": FLOAT}, shape=ctc_greedy_decoder_shape,
    doc="Best-path decoding of logits [T, N, C] (blank C-1) under a 0/1 mask [T, N]: [N, T, 1, 1], -1 padded.",
)

CTC_GREEDY_DECODER_SEQ_LEN_6 = OpSchema(
    "CTCGreedyDecoderSeqLen", 6, category="sequence",
    inputs=(Port("data", "T_F", doc="logits [N, T, C]"),
            Port("sequence_length", "T_I", doc="[N]: the number of valid steps of each sequence"),
            Port("blank_index", "T_I", optional=True, doc="scalar or 1-element class of the blank (default C-1)")),
    outputs=(Port("decoded", "T_IND1", doc="[N, T]: the decoded classes of each sequence, padded with -1"),
             Port("decoded_length", "T_IND2", doc="[N]: the number of decoded classes of each sequence")),
    attributes=(Attr("merge_repeated", BOOL, True, doc="merge repeated classes"),
                Attr("classes_index_type", ELEMENT_TYPE, "i32", allowed=IDX, doc="element type of output 0"),
                Attr("sequence_length_type", ELEMENT_TYPE, "i32", allowed=IDX, doc="element type of output 1")),
    type_constraints={"T_F": FLOAT, "T_I": IDX, "T_IND1": IDX, "T_IND2": IDX},
    shape=ctc_greedy_decoder_seq_len_shape,
    doc="Best-path decoding of logits [N, T, C] with sequence lengths [N]; blank defaults to C-1.",
)

CTC_LOSS_4 = OpSchema(
    "CTCLoss", 4, category="sequence",
    inputs=(Port("logits", "T_F", doc="unnormalized scores [N, T, C]"),
            Port("logit_length", "T1", doc="[N]: the number of valid time steps of each item"),
            Port("labels", "T2", doc="[N, T]: each item's target classes, padded after label_length"),
            Port("label_length", "T1", doc="[N]: the number of valid labels of each item"),
            Port("blank_index", "T2", optional=True, doc="scalar class of the blank (default C-1)")),
    outputs=(Port("loss", "T_F", doc="[N]: the CTC loss of each item"),),
    attributes=(Attr("preprocess_collapse_repeated", BOOL, False, doc="merge repeated labels first"),
                Attr("ctc_merge_repeated", BOOL, True, doc="repeated path classes merge into one label"),
                Attr("unique", BOOL, False, doc="keep only the first occurrence of each label")),
    type_constraints={"T_F": FLOAT, "T1": IDX, "T2": IDX}, shape=ctc_loss_shape,
    doc="Connectionist temporal classification loss per batch item: -ln of the summed alignment probabilities.",
)

OPS = (LSTM_SEQUENCE_5, GRU_SEQUENCE_5, RNN_SEQUENCE_5, LSTM_CELL_4, LSTM_CELL_1, GRU_CELL_3, RNN_CELL_3,
       CTC_GREEDY_DECODER_1, CTC_GREEDY_DECODER_SEQ_LEN_6, CTC_LOSS_4)
