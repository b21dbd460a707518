"""Plane-parallel kernels (runtime/kernels/_parallel.py): split over threads, pooling gives the bits of one call on
every case; a part sees the caller's limits and errstate, its errors reach the caller, parts never nest, and the
thread count comes from OPREF_NUM_THREADS, the BLAS variables or the CPUs."""
from __future__ import annotations

import multiprocessing
import threading

import numpy as np
import pytest

import opref
from opref.conformance.cases import all_cases
from opref.errors import InputError
from opref.opset import get_schema
from opref.opset.schema import as_keywords
from opref.runtime import limits
from opref.runtime.kernels import FIRST_OUTPUT, KERNELS, _parallel


@pytest.fixture
def every_size(monkeypatch):
    """Parts of any size: every case with two planes or more is split."""
    monkeypatch.setattr(_parallel, "MIN_PART_BYTES", 1)
    split = []
    over = _parallel.over_planes

    def counted(fn, data, shape, dtype):
        out = over(fn, data, shape, dtype)
        split.append(out is not None)
        return out
    monkeypatch.setattr(_parallel, "over_planes", counted)
    from opref.runtime.kernels import pooling
    monkeypatch.setattr(pooling, "over_planes", counted)
    return split


@pytest.mark.parametrize("threads", [2, 3])
def test_pooling_by_parts_gives_the_bits_of_one_call(every_size, threads):
    """Every MaxPool/AvgPool value case (MaxPool-8/14 through their values-only kernels too), split over 2 and 3
    threads: the same dtype, shape and bits as computed whole, NaN and -0 included."""
    ops = [op for op in KERNELS if op.startswith(("MaxPool", "AvgPool"))]
    kernels = [(op, KERNELS[op]) for op in ops] + [(op, FIRST_OUTPUT[op]) for op in ops if op in FIRST_OUTPUT]
    checked = 0
    for op, kernel in kernels:
        cases = [c for c in all_cases() if c.op == op and c.error is None]
        assert len(cases) >= 50, (op, len(cases))
        for c in cases:
            kw = as_keywords(get_schema(op).bind_attrs(c.attrs))
            with _parallel.limited(1):
                want = kernel(*c.inputs, **kw)
            with _parallel.limited(threads):
                got = kernel(*c.inputs, **kw)
            for w, g in zip(want if isinstance(want, tuple) else (want,), got if isinstance(got, tuple) else (got,)):
                assert g.dtype == w.dtype and g.shape == w.shape and g.tobytes() == w.tobytes(), (c.name, kernel)
            checked += 1
    assert checked >= 1000
    assert sum(every_size) >= 500           # (cases of one plane, or empty, are computed whole)


def _parts(fn, planes=4, threads=2):
    """over_planes of fn on [1, planes, 8] (each part's planes given to fn), parts of any size."""
    data = np.arange(planes * 8, dtype=np.float32).reshape(1, planes, 8)
    saved = _parallel.MIN_PART_BYTES
    _parallel.MIN_PART_BYTES = 1
    try:
        with _parallel.limited(threads):
            return _parallel.over_planes(fn, data, data.shape, data.dtype)
    finally:
        _parallel.MIN_PART_BYTES = saved


def test_a_part_on_another_thread_sees_the_callers_limits_and_errstate():
    seen = []

    def fn(part):
        seen.append((threading.get_ident(), limits.current().max_tensor_bytes, np.geterr()["divide"]))
        return part * 2
    with opref.limits(max_tensor_bytes=12345), np.errstate(divide="raise"):
        out = _parts(fn)
    np.testing.assert_array_equal(out, np.arange(32, dtype=np.float32).reshape(1, 4, 8) * 2)
    assert len({t for t, _, _ in seen}) == 2                 # the caller's thread and a worker
    assert {(b, d) for _, b, d in seen} == {(12345, "raise")}


def test_an_error_in_a_part_reaches_the_caller_after_every_part_ends():
    ended = []

    def fn(part):
        if part[0, 0, 0] != 0:                               # the second part, on the worker
            raise InputError("second part")
        ended.append(1)
        return part
    with pytest.raises(InputError, match="second part"):
        _parts(fn)
    assert ended == [1]

    def floating(part):                                      # the caller's errstate holds in the worker's part
        return part / np.float32(0) if part[0, 0, 0] != 0 else part
    with np.errstate(divide="raise"), pytest.raises(FloatingPointError):
        _parts(floating)


def test_parts_never_nest_and_small_data_stays_whole():
    inner = []

    def fn(part):
        inner.append(_parallel.over_planes(lambda p: p, part, part.shape, part.dtype))
        return part
    _parts(fn)
    assert inner == [None, None]
    assert _parallel.over_planes(lambda p: p, np.zeros((1, 64, 8, 8), np.float32), (1, 64, 8, 8), np.float32) is None
    assert _parts(lambda p: p, threads=1) is None


def test_thread_count_from_the_environment(monkeypatch):
    monkeypatch.setattr(_parallel, "_threads", None)
    for v in ("OPREF_NUM_THREADS", *_parallel.BLAS_VARIABLES):
        monkeypatch.delenv(v, raising=False)
    assert _parallel.threads() == _parallel._cpus()
    monkeypatch.setattr(_parallel, "_threads", None)
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "3")
    assert _parallel.threads() == 3
    monkeypatch.setattr(_parallel, "_threads", None)
    monkeypatch.setenv("OPREF_NUM_THREADS", "5")
    assert _parallel.threads() == 5
    with _parallel.limited(1):
        assert _parallel.threads() == 1
    assert _parallel.threads() == 5
    for bad in ("0", "-2", "two", "1.5"):
        monkeypatch.setattr(_parallel, "_threads", None)
        monkeypatch.setenv("OPREF_NUM_THREADS", bad)
        with pytest.raises(InputError, match="OPREF_NUM_THREADS must be a positive number of threads"):
            _parallel.threads()
    monkeypatch.setattr(_parallel, "_threads", None)


def test_bench_threads_hold_the_plane_threads():
    from opref import bench
    with _parallel.limited(4):
        with bench.limit(bench.Threads(1, "environment", "")):
            assert _parallel.threads() == 1
        assert _parallel.threads() == 4


def _pool_in_child(queue):
    x = np.random.default_rng(0).standard_normal((1, 64, 64, 64)).astype(np.float32)
    attrs = {"strides": [2, 2], "kernel": [3, 3], "pads_begin": [0, 0], "pads_end": [0, 0]}
    queue.put(opref.run_op("MaxPool-1", [x], attrs)[0].tobytes())


def test_a_forked_child_starts_its_own_threads():
    """The parent's pool has run a part; a child forked afterwards (whose copy of the pool has no threads) still
    splits and finishes, with the parent's bits."""
    x = np.random.default_rng(0).standard_normal((1, 64, 64, 64)).astype(np.float32)
    attrs = {"strides": [2, 2], "kernel": [3, 3], "pads_begin": [0, 0], "pads_end": [0, 0]}
    with _parallel.limited(2):
        want = opref.run_op("MaxPool-1", [x], attrs)[0].tobytes()
        assert _parallel._pool is not None
        ctx = multiprocessing.get_context("fork")
        queue = ctx.Queue()
        child = ctx.Process(target=_pool_in_child, args=(queue,))
        child.start()
        got = queue.get(timeout=60)
        child.join(60)
    assert child.exitcode == 0 and got == want
