"""Sequence-op checks the generic runners cannot express: LSTMCell-1's peepholes, input_forget and
weights_format against TensorFlow's LSTMBlockCell (OpenVINO's CPU plugin ignores all three and has no
reference evaluate), CTCLoss on empty sequences (the CPU plugin crashes, TensorFlow rejects them) by
the closed form, and small hand-checked examples of masking and decoding."""
from __future__ import annotations

import numpy as np
import pytest

import opref
from opref.conformance.cases import all_cases


TF_CASES = [c for c in all_cases() if c.op == "LSTMCell-1" and c.oracle == "tensorflow"]


def test_there_are_tensorflow_cases():
    """LSTMCell-1's peepholes, input_forget and weights_format are checked against TensorFlow by the
    generic runner (tests/oracles.py: TF_EQUIVALENTS)."""
    assert len(TF_CASES) >= 30
    assert any(len(c.inputs) == 7 for c in TF_CASES) and any(c.attrs.get("input_forget") for c in TF_CASES)
    assert {c.attrs.get("weights_format", "fico") for c in TF_CASES} >= {"icof", "ifco", "ifoc", "iofc"}


def _log_softmax(x):
    m = x.max(axis=-1, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=-1, keepdims=True))


@pytest.mark.parametrize("merge", [True, False])
def test_ctc_loss_empty_sequences(merge):
    """An empty target aligns only with all-blank paths: loss = -sum of log p(blank) over the logit length;
    an empty logit sequence gives 0 for an empty target and +inf for a non-empty one."""
    rng = np.random.default_rng(7)
    logits = rng.standard_normal((4, 5, 3)).astype(np.float32)
    logit_length = np.array([5, 2, 0, 0], np.int32)
    label_length = np.array([0, 0, 0, 2], np.int32)
    labels = np.ones((4, 5), np.int32)
    blank = 2
    (loss,) = opref.run_op("CTCLoss-4", [logits, logit_length, labels, label_length],
                           {"ctc_merge_repeated": merge})
    lp = _log_softmax(logits.astype(np.float64))[:, :, blank]
    expected = [-lp[0, :5].sum(), -lp[1, :2].sum(), 0.0, np.inf]
    np.testing.assert_allclose(loss, expected, rtol=1e-5)


def test_ctc_loss_single_step_and_blank_index():
    """One step, one label: -log softmax(label); blank_index moves the blank."""
    x = np.array([[[1.0, 2.0, 0.5]]], np.float32)
    lp = _log_softmax(x.astype(np.float64))[0, 0]
    (a,) = opref.run_op("CTCLoss-4", [x, np.array([1]), np.array([[0]]), np.array([1])])
    (b,) = opref.run_op("CTCLoss-4", [x, np.array([1]), np.array([[2]]), np.array([1]), np.array(0)])
    np.testing.assert_allclose([a[0], b[0]], [-lp[0], -lp[2]], rtol=1e-6)


def test_ctc_greedy_decoder_spec_example():
    """The spec's ABB*B*B: merged ABBB, unmerged ABBBB (classes A=0, B=1, blank *=2)."""
    path = [0, 1, 1, 2, 1, 2, 1]
    data = np.eye(3, dtype=np.float32)[path][:, None, :]           # [T, N=1, C]
    mask = np.ones((7, 1), np.float32)
    merged = opref.run_op("CTCGreedyDecoder-1", [data, mask], {"ctc_merge_repeated": True})[0].reshape(-1)
    kept = opref.run_op("CTCGreedyDecoder-1", [data, mask], {"ctc_merge_repeated": False})[0].reshape(-1)
    assert merged.tolist() == [0, 1, 1, 1, -1, -1, -1]
    assert kept.tolist() == [0, 1, 1, 1, 1, -1, -1]
    decoded, length = opref.run_op("CTCGreedyDecoderSeqLen-6", [data.transpose(1, 0, 2), np.array([4], np.int32)])
    assert decoded.tolist() == [[0, 1, -1, -1, -1, -1, -1]] and length.tolist() == [2]


@pytest.mark.parametrize("direction", ["forward", "reverse", "bidirectional"])
def test_sequence_masking(direction):
    """Steps past a sequence's length are zeros in Y; Ho is Y at the last step processed (position
    length-1 forward, 0 reverse); an empty sequence's states are zeros (OpenVINO)."""
    rng = np.random.default_rng(3)
    d = 2 if direction == "bidirectional" else 1
    x, h = rng.standard_normal((3, 5, 2)).astype(np.float32), rng.standard_normal((3, d, 4)).astype(np.float32)
    w, r, b = (rng.standard_normal(s).astype(np.float32) for s in ((d, 4, 2), (d, 4, 4), (d, 4)))
    lens = np.array([5, 2, 0], np.int32)
    y, ho = opref.run_op("RNNSequence-5", [x, h, lens, w, r, b], {"hidden_size": 4, "direction": direction})
    for n, length in enumerate(lens):
        assert not y[n, :, length:].any()
        for k in range(d):
            reverse = direction == "reverse" or k == 1
            last = 0 if reverse else length - 1
            np.testing.assert_array_equal(ho[n, k], y[n, k, last] if length else 0)
    # the first step forward is one cell from the initial state
    step = np.tanh(x[:, 0] @ w[0].T + h[:, 0] @ r[0].T + b[0])
    if direction != "reverse":
        np.testing.assert_allclose(y[:2, 0, 0], step[:2], rtol=1e-6)
