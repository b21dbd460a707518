"""The kernels rewritten for fewer passes over memory (issue 19): Gelu's erf, the recurrent cells and
sequences (gate blocks reordered, input projections for all steps at once, gates activated in place),
the normalisations (fused scale, in-place centring): checked against independent transcriptions of the
specs (Python's math.erf, plain NumPy formulas step by step), and that no kernel writes into its inputs.
"""
from __future__ import annotations

import inspect
import math

import numpy as np
import pytest

from opref import run_op
from opref.conformance.cases import all_cases
from opref.opset import get_schema
from opref.opset.schema import as_keywords
from opref.runtime.kernels import KERNELS

SQRT2 = math.sqrt(2.0)


def _gelu_math(x: np.ndarray) -> np.ndarray:
    """0.5 x (1 + erf(x / sqrt(2))) per element with the C library's erf, in f64."""
    return np.array([0.5 * v * (1 + math.erf(v / SQRT2)) if not math.isnan(v) else math.nan
                     for v in x.astype(np.float64).ravel()]).reshape(x.shape)


def _grid() -> np.ndarray:
    edge = 2.5 * SQRT2                      # where the series hands over to the continued fraction
    return np.concatenate([np.linspace(-12, 12, 4001), edge + np.linspace(-1e-9, 1e-9, 21),
                           -edge + np.linspace(-1e-9, 1e-9, 21), [0.0, -0.0, 5e-324, -5e-324, 1e-300, 40.0, -40.0]])


def test_gelu_erf_f64_matches_the_c_library():
    x = _grid()
    ours = run_op("Gelu-7", [x], {"approximation_mode": "erf"})[0]
    want = _gelu_math(x)
    # 1 + erf cancels for negative x: compare against the scale of the terms, not of the result
    assert np.all(np.abs(ours - want) <= 1e-14 * np.abs(x) + 1e-300), np.max(np.abs(ours - want))
    assert np.signbit(ours[x == 0]).tolist() == np.signbit(x[x == 0]).tolist()


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_gelu_erf_narrow_types_round_the_f64_value(dtype):
    x = _grid().astype(dtype)
    ours = run_op("Gelu-7", [x], {"approximation_mode": "erf"})[0]
    want = _gelu_math(x.astype(np.float64)).astype(np.float32).astype(dtype)
    ulps = np.abs(ours.astype(np.float64) - want.astype(np.float64)) / np.spacing(np.abs(want).astype(dtype)).astype(np.float64)
    assert ours.dtype == dtype and np.max(ulps) <= 1


def test_gelu_nonfinite_scalar_and_empty():
    x = np.array([np.inf, -np.inf, np.nan])
    ours = run_op("Gelu-7", [x], {"approximation_mode": "erf"})[0]
    assert ours[0] == np.inf and np.isnan(ours[1]) and np.isnan(ours[2])      # -inf * 0 is NaN
    for mode in ("erf", "tanh"):
        s = run_op("Gelu-7", [np.array(1.5, np.float32)], {"approximation_mode": mode})[0]
        assert s.shape == () and abs(float(s) - _gelu_math(np.array([1.5]))[0]) < 1e-3
        assert run_op("Gelu-7", [np.zeros((0, 3), np.float32)], {"approximation_mode": mode})[0].shape == (0, 3)


# --- recurrent cells and sequences: plain transcriptions of the spec ----------------------------------------
def _sig(x):
    return 1 / (1 + np.exp(-x))


def _lstm_ref(x, h, c, w, r, b):
    """One LSTMCell step, gates f, i, c, o (OpenVINO's order)."""
    z = x @ w.T + h @ r.T + b
    zf, zi, zc, zo = np.split(z, 4, axis=-1)
    c2 = _sig(zf) * c + _sig(zi) * np.tanh(zc)
    return _sig(zo) * np.tanh(c2), c2


def _gru_ref(x, h, w, r, b, lbr):
    hid = h.shape[-1]
    wz, wr, wh = np.split(w, 3)
    rz, rr, rh = np.split(r, 3)
    z = _sig(x @ wz.T + h @ rz.T + b[:hid])
    rt = _sig(x @ wr.T + h @ rr.T + b[hid:2 * hid])
    if lbr:
        hh = np.tanh(x @ wh.T + rt * (h @ rh.T + b[3 * hid:]) + b[2 * hid:3 * hid])
    else:
        hh = np.tanh(x @ wh.T + (rt * h) @ rh.T + b[2 * hid:])
    return (1 - z) * hh + z * h


@pytest.mark.parametrize("dtype,hidden", [(np.float32, 1), (np.float32, 4), (np.float64, 8), (np.float32, 5)])
def test_lstm_cell_gates_on_strided_views(dtype, hidden):
    # hidden 4 (f32) and 8 (f64): gate views with 16- and 64-byte strides, where NumPy 2.4's in-place
    # np.negative misreads its input (the kernels avoid it)
    rng = np.random.default_rng(hidden)
    n, i = 3, 2
    x, h, c = (rng.standard_normal(s).astype(dtype) for s in ((n, i), (n, hidden), (n, hidden)))
    w, r, b = (rng.standard_normal(s).astype(dtype) for s in ((4 * hidden, i), (4 * hidden, hidden), (4 * hidden,)))
    ho, co = run_op("LSTMCell-4", [x, h, c, w, r, b], {"hidden_size": hidden})
    hw, cw = _lstm_ref(*(a.astype(np.float64) for a in (x, h, c, w, r, b)))
    tol = 1e-6 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(ho, hw, rtol=tol, atol=tol)
    np.testing.assert_allclose(co, cw, rtol=tol, atol=tol)


def _sequence_ref(cell, x, states, lengths, reverse):
    """One direction, batch by batch, step by step: Y [N, T, H] and the final states."""
    n, t_max = x.shape[:2]
    y = np.zeros((n, t_max, states[0].shape[-1]))
    finals = [np.zeros_like(s) for s in states]
    for k in range(n):
        st = [s[k] for s in states]
        steps = range(lengths[k])
        for t in (reversed(steps) if reverse else steps):
            st = cell(x[k, t], *st)
            st = st if isinstance(st, tuple) else (st,)
            y[k, t] = st[0]
        for f, s in zip(finals, st):
            f[k] = s if lengths[k] > 0 else 0
    return y, finals


@pytest.mark.parametrize("direction", ["forward", "reverse", "bidirectional"])
def test_lstm_sequence_mixed_lengths(direction):
    rng = np.random.default_rng(7)
    n, t, i, hid = 4, 5, 3, 4
    d = 2 if direction == "bidirectional" else 1
    lengths = np.array([5, 0, 3, 1], np.int64)
    x = rng.standard_normal((n, t, i))
    h0, c0 = rng.standard_normal((n, d, hid)), rng.standard_normal((n, d, hid))
    w, r, b = rng.standard_normal((d, 4 * hid, i)), rng.standard_normal((d, 4 * hid, hid)), rng.standard_normal((d, 4 * hid))
    y, ho, co = run_op("LSTMSequence-5", [x, h0, c0, lengths, w, r, b], {"hidden_size": hid, "direction": direction})
    for k in range(d):
        rev = direction == "reverse" or k == 1
        cell = lambda xt, h, c, k=k: _lstm_ref(xt, h, c, w[k], r[k], b[k])     # noqa: E731
        yw, (hw, cw) = _sequence_ref(cell, x, [h0[:, k], c0[:, k]], lengths, rev)
        np.testing.assert_allclose(y[:, k], yw, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(ho[:, k], hw, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(co[:, k], cw, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("lbr", [False, True])
def test_gru_sequence_and_cell(lbr):
    rng = np.random.default_rng(11)
    n, t, i, hid, d = 3, 4, 2, 3, 2
    lengths = np.array([4, 2, 0], np.int64)
    x, h0 = rng.standard_normal((n, t, i)), rng.standard_normal((n, d, hid))
    w, r = rng.standard_normal((d, 3 * hid, i)), rng.standard_normal((d, 3 * hid, hid))
    b = rng.standard_normal((d, (4 if lbr else 3) * hid))
    attrs = {"hidden_size": hid, "direction": "bidirectional", "linear_before_reset": lbr}
    y, ho = run_op("GRUSequence-5", [x, h0, lengths, w, r, b], attrs)
    for k in range(d):
        cell = lambda xt, h, k=k: _gru_ref(xt, h, w[k], r[k], b[k], lbr)     # noqa: E731
        yw, (hw,) = _sequence_ref(cell, x, [h0[:, k]], lengths, k == 1)
        np.testing.assert_allclose(y[:, k], yw, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(ho[:, k], hw, rtol=1e-12, atol=1e-12)
    one = run_op("GRUCell-3", [x[:, 0], h0[:, 0], w[0], r[0], b[0]], {"hidden_size": hid, "linear_before_reset": lbr})[0]
    np.testing.assert_allclose(one, _gru_ref(x[:, 0], h0[:, 0], w[0], r[0], b[0], lbr), rtol=1e-12, atol=1e-12)


# --- normalisations: the spec's formulas in f64 ----------------------------------------------------------------
def test_batch_norm_and_group_norm_formulas():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 6, 3, 4)).astype(np.float32)
    g, b, m = (rng.standard_normal(6).astype(np.float32) for _ in range(3))
    v = rng.random(6).astype(np.float32) + 0.5
    ch = lambda a: a.astype(np.float64).reshape(1, -1, 1, 1)        # noqa: E731
    bn = run_op("BatchNormInference-5", [x, g, b, m, v], {"epsilon": 1e-3})[0]
    np.testing.assert_allclose(bn, ch(g) * (x - ch(m)) / np.sqrt(ch(v) + 1e-3) + ch(b), rtol=1e-5, atol=1e-5)
    gn = run_op("GroupNormalization-12", [x, g, b], {"num_groups": 3, "epsilon": 1e-5})[0]
    xg = x.astype(np.float64).reshape(2, 3, -1)
    want = ((xg - xg.mean(-1, keepdims=True)) / np.sqrt(xg.var(-1, keepdims=True) + 1e-5)).reshape(x.shape)
    np.testing.assert_allclose(gn, want * ch(g) + ch(b), rtol=1e-5, atol=1e-5)
    mvn = run_op("MVN-6", [x, np.array([2, 3])], {"normalize_variance": True, "eps": 1e-9, "eps_mode": "outside_sqrt"})[0]
    xd = x.astype(np.float64)
    c = xd - xd.mean((2, 3), keepdims=True)
    np.testing.assert_allclose(mvn, c / (np.sqrt((c * c).mean((2, 3), keepdims=True)) + 1e-9), rtol=1e-5, atol=1e-5)


# --- no kernel writes into its inputs (they compute in place on fresh temporaries only) -------------------------
OPS = ("Gelu-2", "Gelu-7", "Softmax-1", "Softmax-8", "LogSoftmax-5", "BatchNormInference-1", "BatchNormInference-5",
       "MVN-1", "MVN-6", "NormalizeL2-1", "GRN-1", "GroupNormalization-12", "LSTMSequence-5", "GRUSequence-5",
       "RNNSequence-5", "LSTMCell-4", "LSTMCell-1", "GRUCell-3", "RNNCell-3")


@pytest.mark.parametrize("op", OPS)
def test_kernels_leave_their_inputs_alone(op):
    schema = get_schema(op)
    kernel = KERNELS[op]
    checked = 0
    for case in all_cases():
        if case.op != op or case.error is not None:
            continue
        arrays = [None if a is None else np.array(a) for a in case.inputs]
        for a in arrays:
            if a is not None:
                a.flags.writeable = False          # a write raises ValueError
        try:
            kernel(*arrays, **as_keywords(schema.bind_attrs(case.attrs)))
        except ValueError as e:
            if "read-only" in str(e):
                pytest.fail(f"{case.name}: the kernel writes into an input ({e})")
            raise
        checked += 1
    assert checked >= 20


# --- FIRST_OUTPUT: output 0 alone, for nodes whose later outputs nothing reads --------------------------------
def test_first_output_kernels_give_output_0_of_every_case():
    """Each FIRST_OUTPUT kernel takes its op's signature and gives, on every value case of the op, exactly
    output 0 of the full kernel (bit for bit, NaN included)."""
    from opref.runtime.kernels import FIRST_OUTPUT
    assert FIRST_OUTPUT, "no FIRST_OUTPUT kernel"
    for op, lean in FIRST_OUTPUT.items():
        assert inspect.signature(lean) == inspect.signature(KERNELS[op]), op
        cases = [c for c in all_cases() if c.op == op and c.error is None]
        assert len(cases) >= 50, (op, len(cases))
        for c in cases:
            want = run_op(c.op, c.inputs, c.attrs)[0]
            got = lean(*c.inputs, **as_keywords(get_schema(op).bind_attrs(c.attrs)))
            assert got.dtype == want.dtype and got.shape == want.shape and got.tobytes() == want.tobytes(), c.name


# --- PREPARED: kernels bound to constant inputs ------------------------------------------------------------------
def test_prepared_kernels_give_the_kernels_outputs_on_every_case():
    """Each PREPARED entry, prepared with a case's arrays on its ports, gives on that case exactly the outputs of
    the op's kernel (bit for bit, NaN included), run as a plan runs it (inside np.errstate, as `.raw`). (A case
    without an input on those ports is one a plan never prepares.) Prepared twice over, a kernel that keeps work
    per input shape (Squeeze/Unsqueeze) is checked on its second call too."""
    from opref.runtime.kernels import PREPARED
    assert PREPARED, "no PREPARED kernel"
    for op, (ports, prepare) in PREPARED.items():
        cases = [c for c in all_cases() if c.op == op and c.error is None and
                 all(k < len(c.inputs) and c.inputs[k] is not None for k in ports)]
        assert len(cases) >= 20, (op, len(cases))
        kernel = KERNELS[op]
        params = list(inspect.signature(prepare).parameters)
        assert params[:len(ports)] == [get_schema(op).inputs[k].name for k in ports], (op, params)
        for c in cases:
            kw = as_keywords(get_schema(op).bind_attrs(c.attrs))
            want = run_op(c.op, c.inputs, c.attrs)
            with np.errstate(all="ignore"):
                bound = prepare(*(c.inputs[k] for k in ports), **kw)
                got, second = bound(*c.inputs, **kw), bound(*c.inputs, **kw)
                again = kernel(*c.inputs, **kw)
            got, second, again = (list(r) if isinstance(r, (list, tuple)) else [r] for r in (got, second, again))
            assert [np.asarray(x).tobytes() for x in got] == [np.asarray(x).tobytes() for x in second], c.name
            assert len(got) == len(want) == len(again), c.name
            for g, a, w in zip(got, again, want):
                g, a, w = np.asarray(g), np.asarray(a), np.asarray(w)
                assert g.dtype == w.dtype and g.shape == w.shape and g.tobytes() == w.tobytes(), c.name
                assert a.tobytes() == w.tobytes(), c.name


# --- INTO: kernels that write their output into a given array ----------------------------------------------------
def test_into_kernels_give_the_kernels_bits_written_into_out():
    """Each INTO kernel, given `out=` a new array of its output's type and shape, or a copy of an input on one of its
    ports with that type and shape, gives on every value case exactly the op's outputs (bit for bit, NaN included),
    run as a plan runs it; where it returns `out` itself, the bits are in it, and it writes into no other array.
    Every op writes into `out` on some cases (f32 ones at least), and into an input where it may be one."""
    from opref.runtime.kernels import INTO
    assert {"Add-1", "Relu-1", "Convolution-1"} <= set(INTO)
    for op, ports in INTO.items():
        cases = [c for c in all_cases() if c.op == op and c.error is None]
        assert len(cases) >= 20, (op, len(cases))
        kernel = getattr(KERNELS[op], "raw", KERNELS[op])
        written = in_place = 0
        for c in cases:
            kw = as_keywords(get_schema(op).bind_attrs(c.attrs))
            (want,) = run_op(c.op, c.inputs, c.attrs)
            fits = [k for k in ports if k < len(c.inputs) and isinstance(c.inputs[k], np.ndarray) and
                    c.inputs[k].shape == want.shape and c.inputs[k].dtype == want.dtype]
            for port in [None] + fits:               # a new array, then each input that fits
                inputs = [None if a is None else a.copy() for a in c.inputs]
                out = np.empty_like(want) if port is None else inputs[port]
                with np.errstate(all="ignore"):
                    got = kernel(*inputs, out=out, **kw)
                assert got.dtype == want.dtype and got.shape == want.shape and got.tobytes() == want.tobytes(), \
                    (c.name, port)
                written += got is out
                in_place += got is out and port is not None
                for k, (a, b) in enumerate(zip(inputs, c.inputs)):     # no other array written into
                    if a is not None and a is not out:
                        assert a.tobytes() == b.tobytes(), (c.name, port, k)
        assert written and (in_place or not ports), f"{op}: never wrote into out ({written}) or an input ({in_place})"


def test_a_plan_skips_indices_nothing_reads(monkeypatch, tmp_path):
    """A model whose MaxPool-8 indices reach no node: its run plan (from the third run of a signature) calls the
    values-only kernel, so the indices are computed on the first two runs only; every run gives the same
    values. With the indices read, every run computes them."""
    import openvino as ov
    from openvino import opset8

    import opref
    from opref.runtime.kernels import pooling
    calls = []
    indices = pooling._indices
    monkeypatch.setattr(pooling, "_indices", lambda *a, **k: calls.append(1) or indices(*a, **k))
    x = np.random.default_rng(0).standard_normal((1, 3, 9, 9)).astype(np.float32)
    for read_indices in (False, True):
        p = opset8.parameter([1, 3, 9, 9], np.float32, name="x")
        pool = opset8.max_pool(p, [2, 2], [1, 1], [0, 0], [0, 0], [3, 3])
        results = [opset8.result(pool.output(0))] + ([opset8.result(pool.output(1))] if read_indices else [])
        path = tmp_path / f"m{read_indices}.xml"
        ov.save_model(ov.Model(results, [p]), path, compress_to_fp16=False)
        m = opref.load(path)
        want = run_op("MaxPool-8", [x], {"strides": [2, 2], "kernel": [3, 3], "pads_begin": [0, 0],
                                          "pads_end": [0, 0]})
        calls.clear()
        runs = [m.run({"x": x}) for _ in range(5)]
        for r in runs:
            got = list(r.values())
            assert all(np.array_equal(g, w) for g, w in zip(got, want)) and len(got) == 1 + read_indices
        assert len(calls) == (5 if read_indices else 2)
