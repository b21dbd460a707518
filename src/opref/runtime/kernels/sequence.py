"""Recurrent sequence kernels: one function per cell (vectorised over batch, directions and hidden
units), a driver that loops over time steps only, and the CTC decoders and loss.

Floating-point types narrower than 32 bits are computed in f32 and the states are rounded back to
the element type after every step (OpenVINO computes each step in the element type); f64 stays f64.
"""
from __future__ import annotations

import numpy as np

from ...errors import InputError
from ...types import accumulator_dtype
from ._elementwise import quiet


def _sigmoid(x, out=None):
    """1 / (1 + exp(-x)); out=x computes it in place. (There, -x as x * -1: NumPy 2.4's np.negative misreads a
    view with a 16-byte (f32) or 64-byte (f64) stride that is its own out. The scalars are of x's type: a Python
    number costs NumPy a conversion on every call; on small arrays fresh results cost less than in-place ones.)"""
    one = x.dtype.type(1)
    if out is None:
        return np.reciprocal(np.exp(np.negative(x)) + one)
    out = np.multiply(x, -one, out=out)
    np.exp(out, out=out)
    np.add(out, one, out=out)
    return np.reciprocal(out, out=out)


def _sigmoid_of_negated(x, out=None):
    """sigmoid(-x) = 1 / (1 + exp(x)), for gates whose weights are kept negated (_lstm_weights)."""
    one = x.dtype.type(1)
    if out is None:
        return np.reciprocal(np.exp(x) + one)
    np.exp(x, out=out)
    np.add(out, one, out=out)
    return np.reciprocal(out, out=out)


_FUNCTIONS = {"relu": lambda x, out=None: np.maximum(x, x.dtype.type(0), out=out), "sigmoid": _sigmoid,
              "tanh": np.tanh, "sigmoid_of_negated": _sigmoid_of_negated}


def _activation(name, clip):
    """The activation as f(x, out=None); clipping applies to gate pre-activations (clip 0: none)."""
    f = _FUNCTIONS[name]
    if clip <= 0:
        return f

    def clipped(x, out=None):
        out = np.clip(x, -clip, clip, out=out)
        return f(out, out=out)
    return clipped


# --- cells: xp = x W^T + (input-side) B for one step, states [..., N, H] ---------------------------------------
# The input projection and its bias do not depend on the state: the sequence ops compute them for every step at
# once, and each step adds the state's projection h R^T. Gate pre-activations are fresh arrays (NumPy computes
# small ones faster fresh than in place).
# A step returns its new states, the hidden state first, written into `out` when given (the sequence's output row).
# LSTM's arrays are gate-major (xp [4, ..., N, H], rt [4, ..., H, H]: the blocks f, i, o, c, contiguous): the
# three gates that take f are one contiguous block, activated at once.
def _lstm_step(xp, h, c, rt, f, g, hf, p=None, input_forget=False, out=None):
    """One LSTM step, gate-major; p: the peepholes f, i, o [3, ..., 1, H] (LSTMCell-1): f and i see the cell
    state c, o the new one."""
    z = np.matmul(h, rt) + xp                                        # gate pre-activations
    if p is None:
        fio = f(z[:3])
        ft, it, ot = fio[0], fio[1], fio[2]
    else:
        fi = f(z[:2] + p[:2] * c)
        ft, it = fi[0], fi[1]
    if input_forget:
        it = 1 - ft
    c_new = ft * c + it * g(z[3])                                    # c' = f * c + i * g(zc)
    if p is not None:
        ot = f(z[2] + p[2] * c_new)
    return np.multiply(ot, hf(c_new), out=out), c_new               # h' = o * h(c')


# the gate blocks of LSTM weights reordered from f, i, c, o (OpenVINO's order) to f, i, o, c; GRU's stay z, r, h
_FIOC = [0, 1, 3, 2]
_ZRH = [0, 1, 2]


def _gate_major(a, axis, order=_FIOC):
    """a [G*H, ...] (axis 0) or [D, G*H, ...] (axis 1) as [G, H, ...] or [G, D, H, ...] (G = len(order)), the gate
    blocks taken in `order`: block k of the result is a's block order[k] (a new array)."""
    gates = len(order)
    blocks = a.reshape(a.shape[:axis] + (gates, a.shape[axis] // gates) + a.shape[axis + 1:])
    return blocks.swapaxes(0, axis)[order]


def _signed(a, sign):
    """A contiguous copy of a, times sign (None: as it is), in one pass."""
    return a.copy() if sign is None else np.multiply(a, sign, order="C")


def _gate_project(w, b, acc, order, sign=None):
    """project(xs [D, T, N, I]) -> x W^T + B of every step, gate-major [T, G, D, N, H]; w [D, G*H, I], b [D, G*H],
    their gate blocks taken in `order`; sign [G, 1, 1, 1]: the gate blocks' signs (see _lstm_weights)."""
    wg = _signed(_gate_major(w.astype(acc, copy=False), 1, order).swapaxes(-1, -2), sign)   # [G, D, I, H]
    bg = _signed(_gate_major(b.astype(acc, copy=False), 1, order)[:, :, None, :], sign)     # [G, D, 1, H]

    def project(xs):
        dirs, t_max, n, i = xs.shape
        xw = np.matmul(xs.reshape(dirs, t_max * n, i), wg).reshape(len(order), dirs, t_max, n, -1)
        return np.add(xw.transpose(2, 0, 1, 3, 4), bg, out=np.empty((t_max,) + xw.shape[:2] + xw.shape[3:], acc))
    return project


def _gru_step(xp, h, rt_zr, rt_h, rbh, f, g, linear_before_reset, out=None):
    """One GRU step, gate-major: xp [3, ..., N, H]: x W^T + the input-side biases of z, r and h; rt_zr [2, ..., H, H]:
    Rz^T and Rr^T; rt_h: Rh^T; rbh: Rh's bias (linear_before_reset, else 0)."""
    zr = f(np.matmul(h, rt_zr) + xp[:2])
    zt, rt = zr[0], zr[1]
    if linear_before_reset:
        hh = g(xp[2] + rt * (np.matmul(h, rt_h) + rbh))            # g(x Wh^T + r * (h Rh^T + Rbh) + Wbh)
    else:
        hh = g(xp[2] + np.matmul(rt * h, rt_h))                    # g(x Wh^T + (r * h) Rh^T + Bh)
    new = np.subtract(zt.dtype.type(1), zt, out=out)                 # h' = (1 - z) * hh + z * h
    new *= hh
    new += zt * h
    return (new,)


def _rnn_step(xp, h, rt, f, out=None):
    z = np.matmul(h, rt, out=out)
    z += xp
    return (f(z, out=z),)


def _transposed(a, acc):
    """A [..., G, K] weight as a contiguous [..., K, G] array of the compute type."""
    return a.astype(acc, copy=False).swapaxes(-1, -2).copy()


def _gru_recurrence(r, b, acc, linear_before_reset, negate=False):
    """GRU's R gate-major as [Rz Rr]^T [2, ..., H, H] (negated with `negate`, see _lstm_weights) and Rh^T
    [..., H, H]; B as its input-side part [..., 3H] and Rh's bias [..., 1, H] (or 0)."""
    hidden = r.shape[-1]
    rt = _gate_major(r.astype(acc, copy=False), r.ndim - 2, _ZRH).swapaxes(-1, -2)      # [3, ..., H, H]
    rt_zr, rt_h = rt[:2].copy(), rt[2].copy()
    if negate:
        np.negative(rt_zr, out=rt_zr)
    b = b.astype(acc, copy=False)
    # B: [Bz, Br, Bh] sums of W's and R's biases; with linear_before_reset [Bz, Br, Wbh, Rbh]
    rbh = b[..., None, 3 * hidden:] if linear_before_reset else 0
    return rt_zr, rt_h, b[..., :3 * hidden], rbh


# --- the time loop ------------------------------------------------------------------------------------------
def _reverse_index(lengths, t_max):
    """Per-batch reversal of the first length[b] steps (the rest stays in place): idx[b, t]. It is its own inverse."""
    t = np.arange(t_max)[None, :]
    return np.where(t < lengths[:, None], lengths[:, None] - 1 - t, t)


def _reversed(direction, dirs):
    """Per direction of the weights, whether it reads the sequence from its end."""
    return tuple(direction == "reverse" or (direction == "bidirectional" and d == 1) for d in range(dirs))


def _sequence(step, x, states, sequence_lengths, project, reverse, acc):
    """Runs `step(xp_t, *states, out=None) -> new states` over time for every direction at once, where
    xp_t = x_t W^T + b is step t of project(xs) (xs: every direction's inputs in its time order [D, T, N, I], in the
    compute type `acc`). x [N, T, I]; states [N, D, H]; reverse: per direction, _reversed; returns Y [N, D, T, H]
    and the final states."""
    dtype = x.dtype
    n, t_max, _ = x.shape
    dirs = len(reverse)
    steady = min(max(min(sequence_lengths.tolist()), 0), t_max) if n else t_max   # steps every sequence takes
    full = steady == t_max
    x = x.astype(acc, copy=False)
    if full:                # every sequence runs all steps: a reversed direction reads the time axis flipped
        xt = x.swapaxes(0, 1)
        xs = np.empty((dirs,) + xt.shape, acc)                                    # [D, T, N, I]
        for d, rev in enumerate(reverse):
            xs[d] = xt[::-1] if rev else xt
    else:
        lengths = np.minimum(np.maximum(sequence_lengths.astype(np.int64), 0), t_max)
        idx = np.stack([_reverse_index(lengths, t_max) if rev else np.broadcast_to(np.arange(t_max), (n, t_max))
                        for rev in reverse])                                    # [D, N, T]
        # each direction's inputs in its time order, time-major: xs[d, t, b] = x[b, idx[d, b, t]]
        xs = x[np.arange(n)[None, None, :], idx.swapaxes(1, 2)]                 # [D, T, N, I]
    xp = project(xs)                                                            # all steps' projections at once
    hs = [s.swapaxes(0, 1).astype(acc, copy=False) for s in states]             # [D, N, H]
    ys = np.empty((t_max, dirs, n, hs[0].shape[-1]), acc)                       # Y, time-major
    rounded = acc != dtype
    for t in range(t_max):
        if t < steady and not rounded:
            hs = step(xp[t], *hs, out=ys[t])
            continue
        new = step(xp[t], *hs)
        if rounded:                                 # states round to the element type each step
            new = [v.astype(dtype).astype(acc) for v in new]
        if t < steady:
            hs = new
            ys[t] = hs[0]
        else:                                       # finished sequences keep their states and give zeros
            valid = (t < lengths)[None, :, None]
            hs = [np.where(valid, v, s) for v, s in zip(new, hs)]
            ys[t] = np.where(valid, hs[0], 0)
    if full:                                        # Y [N, D, T, H], reversed directions flipped back
        y = np.empty((n, dirs, t_max, ys.shape[-1]), dtype)
        for d, rev in enumerate(reverse):
            y[:, d] = (ys[::-1, d] if rev else ys[:, d]).swapaxes(0, 1)
    else:
        y = ys[idx, np.arange(dirs)[:, None, None], np.arange(n)[None, :, None]].transpose(1, 0, 2, 3).astype(dtype)
    if n and steady <= 0:           # OpenVINO: the final states of an empty sequence are zeros (not the initial)
        hs = [np.where((lengths > 0)[None, :, None], s, 0) for s in hs]
    return [y] + [s.swapaxes(0, 1).astype(dtype, copy=False) for s in hs]     # (views of the states)


# --- the sequence ops, bound to their weights ----------------------------------------------------------------
# Each sequence op is its weights' preparation (reordered, transposed, in the compute type) then the time loop:
# `_<op>_weights(W, R, B, **attrs)` gives the kernel of the inputs X, initial states and sequence_lengths (the
# weights that follow them are ignored). The op's kernel prepares and runs at once; a run plan whose W, R and B
# are constants prepares once (PREPARED).
def _lstm_weights(W, R, B, *, hidden_size, direction, activations, activations_alpha, activations_beta, clip):
    acc = accumulator_dtype(W.dtype)
    g, h = _activation(activations[1], clip), _FUNCTIONS[activations[2]]
    sign = None
    if activations[0] == "sigmoid":
        # The f, i and o blocks of W, R and B are kept negated: those gates' pre-activations come out as -z, and
        # sigmoid(z) = 1 / (1 + exp(-z)) takes one NumPy call less. Negation is exact (and clipping symmetric):
        # the same bits as without it.
        sign = np.array([-1, -1, -1, 1], acc).reshape(4, 1, 1, 1)
        f = _activation("sigmoid_of_negated", clip)
    else:
        f = _activation(activations[0], clip)
    rt = _signed(_gate_major(R.astype(acc, copy=False), 1).swapaxes(-1, -2), sign)      # [4, D, H, H]
    project = _gate_project(W, B, acc, _FIOC, sign)
    reverse = _reversed(direction, W.shape[0])

    def step(xp, hs, cs, out=None):
        return _lstm_step(xp, hs, cs, rt, f, g, h, out=out)

    def kernel(X, initial_hidden_state, initial_cell_state, sequence_lengths, *weights, **attrs):
        return _sequence(step, X, (initial_hidden_state, initial_cell_state), sequence_lengths, project, reverse, acc)
    return kernel


def _gru_weights(W, R, B, *, hidden_size, direction, activations, activations_alpha, activations_beta, clip,
                 linear_before_reset):
    acc = accumulator_dtype(W.dtype)
    # with f the sigmoid, z's and r's weights are kept negated, as LSTM's are (_lstm_weights)
    negate = activations[0] == "sigmoid"
    f = _activation("sigmoid_of_negated" if negate else activations[0], clip)
    g = _activation(activations[1], clip)
    rt_zr, rt_h, bx, rbh = _gru_recurrence(R, B, acc, linear_before_reset, negate)
    sign = np.array([-1, -1, 1], acc).reshape(3, 1, 1, 1) if negate else None
    project, reverse = _gate_project(W, bx, acc, _ZRH, sign), _reversed(direction, W.shape[0])

    def step(xp, hs, out=None):
        return _gru_step(xp, hs, rt_zr, rt_h, rbh, f, g, linear_before_reset, out=out)

    def kernel(X, initial_hidden_state, sequence_lengths, *weights, **attrs):
        return _sequence(step, X, (initial_hidden_state,), sequence_lengths, project, reverse, acc)
    return kernel


def _rnn_weights(W, R, B, *, hidden_size, direction, activations, activations_alpha, activations_beta, clip):
    acc = accumulator_dtype(W.dtype)
    f, rt = _activation(activations[0], clip), _transposed(R, acc)
    project, reverse = _gate_project(W, B, acc, [0]), _reversed(direction, W.shape[0])

    def step(xp, hs, out=None):
        return _rnn_step(xp[0], hs, rt, f, out=out)                 # (xp: its one gate block)

    def kernel(X, initial_hidden_state, sequence_lengths, *weights, **attrs):
        return _sequence(step, X, (initial_hidden_state,), sequence_lengths, project, reverse, acc)
    return kernel


def lstm_sequence(X, initial_hidden_state, initial_cell_state, sequence_lengths, W, R, B, *, hidden_size, direction,
                  activations, activations_alpha, activations_beta, clip):
    kernel = _lstm_weights(W, R, B, hidden_size=hidden_size, direction=direction, activations=activations,
                           activations_alpha=activations_alpha, activations_beta=activations_beta, clip=clip)
    return kernel(X, initial_hidden_state, initial_cell_state, sequence_lengths)


def gru_sequence(X, initial_hidden_state, sequence_lengths, W, R, B, *, hidden_size, direction, activations,
                 activations_alpha, activations_beta, clip, linear_before_reset):
    kernel = _gru_weights(W, R, B, hidden_size=hidden_size, direction=direction, activations=activations,
                          activations_alpha=activations_alpha, activations_beta=activations_beta, clip=clip,
                          linear_before_reset=linear_before_reset)
    return kernel(X, initial_hidden_state, sequence_lengths)


def rnn_sequence(X, initial_hidden_state, sequence_lengths, W, R, B, *, hidden_size, direction, activations,
                 activations_alpha, activations_beta, clip):
    kernel = _rnn_weights(W, R, B, hidden_size=hidden_size, direction=direction, activations=activations,
                          activations_alpha=activations_alpha, activations_beta=activations_beta, clip=clip)
    return kernel(X, initial_hidden_state, sequence_lengths)


# --- single cells -----------------------------------------------------------------------------------------
def _cast(dtype, *arrays):
    acc = accumulator_dtype(dtype)
    return [None if a is None else a.astype(acc) for a in arrays]


def _bias(B, W):
    return B if B is not None else np.zeros(W.shape[0], W.dtype)


def _project(x, w, b):
    """x W^T + b: the input side of one step."""
    xp = np.matmul(x, np.swapaxes(w, -1, -2))
    xp += b
    return xp


def _lstm_cell(x, h, c, w, r, b, order, activations, clip, p=None, input_forget=False):
    """One LSTM step of the cell ops: x [N, I], h and c [N, H], w [4H, I], r [4H, H], b [4H] in the compute
    type, their gate blocks in `order`'s positions of f, i, o, c; p: the peepholes [3H] (f, i, o)."""
    hidden = r.shape[-1]
    xp = np.matmul(x, np.swapaxes(_gate_major(w, 0, order), -1, -2))            # [4, N, H]
    xp += _gate_major(b, 0, order)[:, None, :]
    rt = np.swapaxes(_gate_major(r, 0, order), -1, -2)                          # [4, H, H]
    f, g, hf = _activation(activations[0], clip), _activation(activations[1], clip), _FUNCTIONS[activations[2]]
    return _lstm_step(xp, h, c, rt, f, g, hf, p=None if p is None else p.reshape(3, 1, hidden),
                      input_forget=input_forget)


@np.errstate(all="ignore")
def lstm_cell_4(X, initial_hidden_state, initial_cell_state, W, R, B, *, hidden_size, activations,
                activations_alpha, activations_beta, clip):
    x, h, c, w, r, b = _cast(X.dtype, X, initial_hidden_state, initial_cell_state, W, R, B)
    return [y.astype(X.dtype) for y in _lstm_cell(x, h, c, w, r, b, _FIOC, activations, clip)]


# weights_format -> the position of f, i, o, c among its gate blocks
_FORMAT = {"fico": [0, 1, 3, 2], "icof": [3, 0, 2, 1], "ifco": [1, 0, 3, 2], "ifoc": [1, 0, 2, 3], "iofc": [2, 0, 1, 3]}


@np.errstate(all="ignore")
def lstm_cell_1(X, initial_hidden_state, initial_cell_state, W, R, B=None, P=None, *, hidden_size, activations,
                activations_alpha, activations_beta, clip, input_forget, weights_format):
    hidden = R.shape[-1]
    P = P if P is not None else np.zeros(3 * hidden, X.dtype)
    x, h, c, w, r, b, p = _cast(X.dtype, X, initial_hidden_state, initial_cell_state, W, R, _bias(B, W), P)
    out = _lstm_cell(x, h, c, w, r, b, _FORMAT[weights_format], activations, clip, p=p, input_forget=input_forget)
    return [y.astype(X.dtype) for y in out]


@np.errstate(all="ignore")
def gru_cell(X, initial_hidden_state, W, R, B, *, hidden_size, activations, activations_alpha, activations_beta,
             clip, linear_before_reset):
    x, h, w = _cast(X.dtype, X, initial_hidden_state, W)
    f, g = _activation(activations[0], clip), _activation(activations[1], clip)
    rt_zr, rt_h, bx, rbh = _gru_recurrence(R, B, x.dtype, linear_before_reset)
    xp = np.matmul(x, _gate_major(w, 0, _ZRH).swapaxes(-1, -2))                    # [3, N, H]
    xp += _gate_major(bx, 0, _ZRH)[:, None, :]
    return _gru_step(xp, h, rt_zr, rt_h, rbh, f, g, linear_before_reset)[0].astype(X.dtype)


@np.errstate(all="ignore")
def rnn_cell(X, initial_hidden_state, W, R, B, *, hidden_size, activations, activations_alpha, activations_beta,
             clip):
    x, h, w, r, b = _cast(X.dtype, X, initial_hidden_state, W, R, B)
    return _rnn_step(_project(x, w, b), h, np.swapaxes(r, -1, -2), _activation(activations[0], clip))[0].astype(X.dtype)


# --- CTC ------------------------------------------------------------------------------------------------------
def _greedy(classes, valid, blank, merge_repeated):
    """classes [N, T] (argmax per step), valid [N, T]: the kept classes moved to the front of each row,
    -1 after them; and the count kept per row."""
    prev = np.concatenate([np.full_like(classes[:, :1], -1), classes[:, :-1]], axis=1)
    keep = valid & (classes != blank)
    if merge_repeated:
        keep &= classes != prev
    order = np.argsort(~keep, axis=1, kind="stable")                 # kept steps first, in time order
    count = keep.sum(axis=1)
    out = np.take_along_axis(classes, order, axis=1)
    out = np.where(np.arange(classes.shape[1])[None, :] < count[:, None], out, -1)
    return out, count


def ctc_greedy_decoder(data, sequence_mask, *, ctc_merge_repeated):
    t_max, n, c = data.shape
    classes = np.argmax(data, axis=2).T.astype(np.int64)             # [N, T]; ties: the first class
    # the mask is 1s then 0s; decoding stops at its first 0
    valid = np.cumprod(sequence_mask.T != 0, axis=1).astype(bool)
    out, _ = _greedy(classes, valid, c - 1, ctc_merge_repeated)
    return out.astype(data.dtype).reshape(n, t_max, 1, 1)


def ctc_greedy_decoder_seq_len(data, sequence_length, blank_index=None, *, merge_repeated, classes_index_type,
                               sequence_length_type):
    n, t_max, c = data.shape
    blank = c - 1 if blank_index is None else int(np.asarray(blank_index).reshape(-1)[0])
    classes = np.argmax(data, axis=2).astype(np.int64)
    valid = np.arange(t_max)[None, :] < np.asarray(sequence_length).astype(np.int64)[:, None]
    out, count = _greedy(classes, valid, blank, merge_repeated)
    return [out.astype(np.dtype(classes_index_type.replace("i", "int"))),
            count.astype(np.dtype(sequence_length_type.replace("i", "int")))]


def _logsumexp(*xs):
    m = np.maximum.reduce(xs)
    safe = np.where(np.isfinite(m), m, 0)
    with np.errstate(divide="ignore"):
        return safe + np.log(sum(np.exp(x - safe) for x in xs))


def _ctc_targets(labels, label_length, preprocess_collapse_repeated, unique):
    """The processed targets [N, L] (moved to the front of each row) and their lengths."""
    n, length = labels.shape
    pos = np.arange(length)[None, :]
    valid = pos < label_length[:, None]
    if unique:                                                      # first occurrences only
        earlier = (labels[:, :, None] == labels[:, None, :]) & (pos.T[None] > pos[None]) & valid[:, None, :]
        keep = valid & ~earlier.any(axis=2)
    elif preprocess_collapse_repeated:
        prev = np.concatenate([np.full_like(labels[:, :1], -1), labels[:, :-1]], axis=1)
        keep = valid & ((pos == 0) | (labels != prev))
    else:
        keep = valid
    order = np.argsort(~keep, axis=1, kind="stable")
    return np.take_along_axis(labels, order, axis=1), keep.sum(axis=1)


def ctc_loss(logits, logit_length, labels, label_length, blank_index=None, *, preprocess_collapse_repeated,
             ctc_merge_repeated, unique):
    n, t_max, c = logits.shape
    acc = accumulator_dtype(logits.dtype)
    blank = c - 1 if blank_index is None else int(np.asarray(blank_index))
    if not 0 <= blank < c:
        raise InputError(f"CTCLoss-4: input 'blank_index' is {blank}, outside [0, {c - 1}] (logits have {c} classes)")
    lab = labels.astype(np.int64)
    used = np.arange(lab.shape[1])[None, :] < label_length.astype(np.int64).reshape(-1, 1)
    bad = used & ((lab < 0) | (lab >= c))
    if bad.any():
        i, j = (int(k) for k in np.argwhere(bad)[0])
        raise InputError(f"CTCLoss-4: input 'labels' holds {int(lab[i, j])} at [{i}, {j}], outside the classes "
                         f"[0, {c - 1}]")
    x = logits.astype(acc)
    m = x.max(axis=2, keepdims=True)
    logp = x - m - np.log(np.exp(x - m).sum(axis=2, keepdims=True))          # log-softmax [N, T, C]
    # labels beyond a row's label_length are not read (any value); 0 keeps them inside the classes
    target, tlen = _ctc_targets(np.where(used, lab, 0), label_length.astype(np.int64),
                                preprocess_collapse_repeated, unique)
    lengths = logit_length.astype(np.int64)
    rows = np.arange(n)[:, None]
    neg_inf = np.array(-np.inf, acc)
    if ctc_merge_repeated:
        # states: blank, l1, blank, l2, ..., blank (2L+1); a label may repeat over steps
        s = 2 * target.shape[1] + 1
        ext = np.full((n, s), blank, np.int64)
        ext[:, 1::2] = target
        skip = np.zeros((n, s), bool)                                # l(s-2) -> l(s) when they differ
        skip[:, 3::2] = target[:, 1:] != target[:, :-1]
        end = 2 * tlen + 1
        alpha = np.full((n, s), neg_inf)
        alpha[:, 0] = logp[:, 0, blank] if t_max else neg_inf
        alpha[:, 1] = np.where(tlen > 0, logp[rows[:, 0], 0, ext[:, 1]], neg_inf) if t_max else neg_inf
        for t in range(1, t_max):
            a1 = np.concatenate([np.full((n, 1), neg_inf), alpha[:, :-1]], axis=1)
            a2 = np.concatenate([np.full((n, 2), neg_inf), alpha[:, :-2]], axis=1)
            new = _logsumexp(alpha, a1, np.where(skip, a2, neg_inf)) + logp[rows, t, ext]
            alpha = np.where((t < lengths)[:, None], new, alpha)
        last = np.take_along_axis(alpha, (end - 1)[:, None], 1)[:, 0]
        before = np.where(end >= 2, np.take_along_axis(alpha, np.maximum(end - 2, 0)[:, None], 1)[:, 0], neg_inf)
        total = _logsumexp(last, before)
    else:
        # states: k labels emitted so far (0..L); each label takes exactly one step, blanks the others
        s = target.shape[1] + 1
        alpha = np.full((n, s), neg_inf)
        alpha[:, 0] = 0
        lab = np.concatenate([target, np.zeros((n, 1), np.int64)], axis=1)   # label emitted from state k
        for t in range(t_max):
            stay = alpha + logp[:, t, blank][:, None]
            move = np.concatenate([np.full((n, 1), neg_inf), alpha[:, :-1] + logp[rows, t, lab[:, :-1]]], axis=1)
            alpha = np.where((t < lengths)[:, None], _logsumexp(stay, move), alpha)
        total = np.take_along_axis(alpha, tlen[:, None], 1)[:, 0]
    if ctc_merge_repeated:     # an empty sequence (length 0) aligns only with an empty target
        total = np.where(lengths == 0, np.where(tlen == 0, 0, neg_inf), total)
    return (-total).astype(logits.dtype)


def _sequence_workspace(ins, outs, kw):
    """Bytes of the sequence kernels' temporaries beyond their outputs: every step's inputs in time order
    [D, T, N, I], their projections [D, T, N, G*H] (twice: as computed, then time-major) and the per-step outputs
    [D, T, N, H], in the compute type, and the weights transposed and reordered (twice their size)."""
    x, w, r = ins[0], ins[-3], ins[-2]
    n, t, i = x.shape
    dirs, gh = w.shape[0], w.shape[1]
    size = np.dtype(accumulator_dtype(x.dtype)).itemsize
    return size * (dirs * t * n * (i + 2 * gh + r.shape[-1]) + 2 * (w.size + r.size + ins[-1].size))


WORKSPACE = {"LSTMSequence-5": _sequence_workspace, "GRUSequence-5": _sequence_workspace,
             "RNNSequence-5": _sequence_workspace}


KERNELS = {
    # NaN/inf follow IEEE arithmetic (inf * 0 in a product is NaN, quietly)
    "LSTMSequence-5": quiet(lstm_sequence),
    "GRUSequence-5": quiet(gru_sequence),
    "RNNSequence-5": quiet(rnn_sequence),
    "LSTMCell-4": lstm_cell_4,
    "LSTMCell-1": lstm_cell_1,
    "GRUCell-3": gru_cell,
    "RNNCell-3": rnn_cell,
    "CTCGreedyDecoder-1": ctc_greedy_decoder,
    "CTCGreedyDecoderSeqLen-6": ctc_greedy_decoder_seq_len,
    "CTCLoss-4": ctc_loss,
}

# The sequence ops bound to constant weights: op -> (the ports prepared, the preparation), for run plans
# (runtime/executor.py): preparation(W, R, B, **attrs) gives a kernel of the op's inputs and attributes that
# ignores the prepared ports' arrays (the same values) and is called as the op's kernel's `.raw` is.
PREPARED = {"LSTMSequence-5": ((4, 5, 6), _lstm_weights), "GRUSequence-5": ((3, 4, 5), _gru_weights),
            "RNNSequence-5": ((3, 4, 5), _rnn_weights)}
