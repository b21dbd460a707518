"""Plane-parallel kernels: a kernel that treats every [n, c] plane of its data on its own (pooling) may split the
planes between threads, each computing its part with the same NumPy calls as the whole. NumPy lets go of the GIL
inside its loops, so the parts' loops run at once: MaxPool 3x3/2 on [1,64,111,111] f32 1.1 -> 0.73 ms on 2 cores.
The bits are those of one call (each plane's values depend on that plane alone).

Threads: OPREF_NUM_THREADS, else the count NumPy's BLAS is given (OMP_NUM_THREADS, OPENBLAS_NUM_THREADS,
MKL_NUM_THREADS: one setting holds both), else the CPUs this process may run on; read when first needed. 1: no
threads. `opref bench --threads T` holds it at T for its run (`limited`).

A part runs in a copy of the caller's context (its `opref.limits`) and under the caller's np.errstate; a kernel
called inside a part runs whole (parts never wait for parts). The caller computes one part itself and waits for the
others before it returns or raises (no thread writes into the result after that): an error raised in a part is
raised to the caller, the first part's first. After os.fork the child starts its own threads.
"""
from __future__ import annotations

import contextlib
import contextvars
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

import numpy as np

from ...errors import InputError

VARIABLE = "OPREF_NUM_THREADS"
BLAS_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
# Bytes of data per part at least: handing a part to a thread and waiting for it costs ~30 us, which a smaller
# part does not win back (MaxPool 3x3/2 runs at ~1 ns per input byte).
MIN_PART_BYTES = 1 << 18

_lock = threading.Lock()
_local = threading.local()          # .inside: this thread is computing a part
_threads: int | None = None         # the count in force (None: not read yet)
_pool: ThreadPoolExecutor | None = None


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _from_environment() -> int:
    text = os.environ.get(VARIABLE, "").strip()
    if text:
        try:
            n = int(text)
        except ValueError:
            n = 0
        if n < 1:
            raise InputError(f"{VARIABLE} must be a positive number of threads, got {text!r}")
        return n
    for variable in BLAS_VARIABLES:          # (BLAS libraries' own syntax may be richer: a plain count is taken)
        text = os.environ.get(variable, "").strip()
        if text.isdigit() and int(text) > 0:
            return int(text)
    return _cpus()


def threads() -> int:
    """The number of threads plane-parallel kernels use (1: none)."""
    global _threads
    n = _threads
    if n is None:
        n = _threads = _from_environment()
    return n


@contextlib.contextmanager
def limited(n: int):
    """Holds the thread count at n (>= 1) while open (for the whole process: `opref bench`'s run)."""
    global _threads
    before = _threads
    _threads = max(1, int(n))
    try:
        yield
    finally:
        _threads = before


def _workers(n: int) -> ThreadPoolExecutor:
    global _pool
    pool = _pool
    if pool is None or pool._max_workers < n:
        with _lock:
            if _pool is None or _pool._max_workers < n:
                if _pool is not None:
                    _pool.shutdown(wait=False)      # (its threads finish their parts, then end)
                _pool = ThreadPoolExecutor(max_workers=n, thread_name_prefix="opref-plane")
            pool = _pool
    return pool


def _forget_pool():                         # a forked child has none of its parent's threads
    global _pool
    _pool = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


def over_planes(fn: Callable[[np.ndarray], np.ndarray], data: np.ndarray, shape: tuple, dtype) -> np.ndarray | None:
    """fn(data) for a kernel fn that treats every [n, c] plane of data [N, C, ...] on its own and gives an array of
    `shape` and `dtype` ([N, C, ...] too), computed by parts of the planes (along C, or N where it is longer) in
    threads; None where that is not worth it (small data, one thread, or already inside a part): the caller then
    computes it whole."""
    n = threads()
    if n < 2 or data.ndim < 2 or getattr(_local, "inside", False) or data.nbytes < 2 * MIN_PART_BYTES:
        return None
    axis = 1 if data.shape[1] >= data.shape[0] else 0
    k = min(n, data.shape[axis], data.nbytes // MIN_PART_BYTES)
    if k < 2:
        return None
    bounds = [data.shape[axis] * i // k for i in range(k + 1)]
    out = np.empty(shape, dtype)
    errors = np.geterr()

    def part(i):
        index = (slice(None),) * axis + (slice(bounds[i], bounds[i + 1]),)
        _local.inside = True
        try:
            with np.errstate(**errors):
                out[index] = fn(data[index])
        finally:
            _local.inside = False

    pool = _workers(n - 1)
    futures = [pool.submit(contextvars.copy_context().run, part, i) for i in range(1, k)]
    failure = None
    try:
        part(0)
    except BaseException as e:              # (the others are waited for first)
        failure = e
    for f in futures:
        e = f.exception()
        if failure is None and e is not None:
            failure = e
    if failure is not None:
        raise failure
    return out
