"""The one place of opref's resource limits.

| limit | variable | default |
|---|---|---|
| largest tensor an op may create (an output, or a work array that grows with an input's values) | OPREF_MAX_TENSOR_BYTES | 2 GiB |
| bytes one kernel call may allocate: its outputs plus its temporaries (`WORKSPACE` estimates) | OPREF_MAX_KERNEL_BYTES | 4 x max_tensor_bytes |
| iterations of one Loop / TensorIterator | OPREF_MAX_LOOP_ITERATIONS | 2^20 |
| seconds one run may take (Model.run, run_op), checked between nodes and Loop iterations | OPREF_TIME_BUDGET | none |

Each limit is, in order of precedence: the innermost `opref.limits(...)` context that sets it (a
ContextVar: each thread, and each asyncio task, has its own), else its environment variable, else
the default. The environment is read at each check; a check runs whenever a call's input types and
shapes are validated (every run_op call of a new signature, every node of a model's first runs).
A model's run plan and run_op's prepared calls keep the limits they were checked under and are
prepared again under a different `opref.limits` context (so set the variables before the first run,
or use the context manager, to change limits of models already run).

Over a limit: an InputError naming the op (and layer in a model), the size, the limit and where it is
set; over the time budget: a TimeBudgetError (an InputError) naming the node reached."""
from __future__ import annotations

import math
import os
from contextvars import ContextVar
from time import perf_counter

import numpy as np

from ..errors import InputError

DEFAULT_MAX_TENSOR_BYTES = 2 << 30
KERNEL_BYTES_FACTOR = 4                  # default max_kernel_bytes: 4 x max_tensor_bytes (8 GiB)
DEFAULT_MAX_LOOP_ITERATIONS = 1 << 20
DEFAULT_TIME_BUDGET = None               # seconds; none: a run may take as long as it takes

VARIABLES = {"max_tensor_bytes": "OPREF_MAX_TENSOR_BYTES", "max_kernel_bytes": "OPREF_MAX_KERNEL_BYTES",
             "max_loop_iterations": "OPREF_MAX_LOOP_ITERATIONS", "time_budget": "OPREF_TIME_BUDGET"}
FIELD_OF = {variable: name for name, variable in VARIABLES.items()}


class TimeBudgetError(InputError):
    """A run took longer than its time budget (OPREF_TIME_BUDGET, or opref.limits(time_budget=...))."""


_UNSET = object()


class Limits:
    """The limits in force. A field not given is read from its environment variable (else the
    default) when first needed, then kept: a run reads each variable at most once, only if it checks
    that limit."""
    __slots__ = ("_values",)
    FIELDS = ("max_tensor_bytes", "max_kernel_bytes", "max_loop_iterations", "time_budget")

    def __init__(self, **given):
        self._values = given

    def _get(self, name: str):
        v = self._values.get(name, _UNSET)
        if v is _UNSET:
            v = self._values[name] = _READERS[name](self)
        return v

    max_tensor_bytes = property(lambda self: self._get("max_tensor_bytes"))
    max_kernel_bytes = property(lambda self: self._get("max_kernel_bytes"))
    max_loop_iterations = property(lambda self: self._get("max_loop_iterations"))
    time_budget = property(lambda self: self._get("time_budget"))

    def as_dict(self) -> dict:
        return {name: self._get(name) for name in self.FIELDS}

    def __repr__(self):
        return "Limits(" + ", ".join(f"{k}={v!r}" for k, v in self.as_dict().items()) + ")"


class _Scope:
    """What the ContextVar holds: the limits an `opref.limits` context set (None: the environment's),
    the deadline and budget of the run in progress (None: no run, or no budget), and the limits the
    run in progress resolved from the environment at its start (read once per run, not per node)."""
    __slots__ = ("limits", "deadline", "budget", "resolved")

    def __init__(self, limits: Limits | None, deadline: float | None = None, budget: float | None = None,
                 resolved: Limits | None = None):
        self.limits, self.deadline, self.budget, self.resolved = limits, deadline, budget, resolved


_scope: ContextVar[_Scope | None] = ContextVar("opref_limits", default=None)


def _number(variable: str, text: str, what: str, kind=int):
    try:
        n = kind(text)
    except ValueError:
        n = -1
    if not n > 0 or (kind is float and not math.isfinite(n)):
        raise InputError(f"{variable} must be a positive number of {what}, got {text!r}")
    return n


def _from_env(variable: str, default, what: str, kind=int):
    v = os.environ.get(variable, "").strip()
    if not v:
        return default
    return _number(variable, v, what, kind)


_READERS = {       # field -> fn(the Limits being read) -> its value from the environment, else the default
    "max_tensor_bytes": lambda lim: _from_env("OPREF_MAX_TENSOR_BYTES", DEFAULT_MAX_TENSOR_BYTES, "bytes"),
    "max_kernel_bytes": lambda lim: _from_env("OPREF_MAX_KERNEL_BYTES", None, "bytes") or
    KERNEL_BYTES_FACTOR * lim.max_tensor_bytes,
    "max_loop_iterations": lambda lim: _from_env("OPREF_MAX_LOOP_ITERATIONS", DEFAULT_MAX_LOOP_ITERATIONS,
                                                 "iterations"),
    "time_budget": lambda lim: _from_env("OPREF_TIME_BUDGET", DEFAULT_TIME_BUDGET, "seconds", float),
}


def environment_limits() -> Limits:
    """The limits the environment variables (else the defaults) give, each read when first needed."""
    return Limits()


def current() -> Limits:
    """The limits in force in this thread/context (the innermost opref.limits, else the environment)."""
    scope = _scope.get()
    if scope is not None:
        if scope.limits is not None:
            return scope.limits
        if scope.resolved is not None:
            return scope.resolved
    return environment_limits()


def token():
    """What identifies the limits in force without reading the environment: the innermost
    opref.limits context's Limits, or None (the environment's). Run plans and prepared calls are
    kept per token."""
    scope = _scope.get()
    return None if scope is None else scope.limits


class limits:
    """`with opref.limits(max_tensor_bytes=..., max_kernel_bytes=..., max_loop_iterations=...,
    time_budget=...):` runs its block under these limits; an argument left None keeps the enclosing
    context's value (else the environment's, else the default). Contexts nest and restore on exit;
    each thread (and asyncio task) sees only its own. `time_budget` is in seconds (math.inf: none,
    even if an enclosing context or the environment sets one)."""

    def __init__(self, max_tensor_bytes: int | None = None, max_kernel_bytes: int | None = None,
                 max_loop_iterations: int | None = None, time_budget: float | None = None):
        self.given = {}
        for name, value, kind in (("max_tensor_bytes", max_tensor_bytes, int),
                                  ("max_kernel_bytes", max_kernel_bytes, int),
                                  ("max_loop_iterations", max_loop_iterations, int),
                                  ("time_budget", time_budget, float)):
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) or \
                    (kind is int and not float(value).is_integer()) or not value > 0:
                raise InputError(f"opref.limits: {name} must be a positive "
                                 f"{'whole number' if kind is int else 'number of seconds'}, got {value!r}")
            self.given[name] = kind(value) if kind is int or math.isfinite(value) else None
        self._tokens = []

    def __enter__(self) -> Limits:
        resolved = Limits(**{**current().as_dict(), **self.given})
        scope = _scope.get()
        deadline = None if scope is None else scope.deadline
        budget = None if scope is None else scope.budget
        self._tokens.append(_scope.set(_Scope(resolved, deadline, budget)))
        return resolved

    def __exit__(self, *exc):
        _scope.reset(self._tokens.pop())
        return False


# --- sizes ---------------------------------------------------------------------------------------------
def max_tensor_bytes() -> int:
    return current().max_tensor_bytes


def max_kernel_bytes() -> int:
    return current().max_kernel_bytes


def max_loop_iterations() -> int:
    return current().max_loop_iterations


def _where(name: str) -> str:
    return f"{VARIABLES[name]} or opref.limits({name}=...)"


def check_size(op: str, what: str, shape, dtype, limit: Limits | None = None) -> int:
    """An InputError naming `op` and `what` when an array of `shape` and `dtype` would exceed
    max_tensor_bytes, or is empty but NumPy cannot hold it (its other dims multiply past the largest
    array size: np.empty refuses it); else the array's bytes."""
    n = 1
    for d in shape:
        n *= int(d)
    size = n * max(np.dtype(dtype).itemsize, 1)
    if not n:
        check_holdable(op, what, shape, dtype)
    cap = (limit or current()).max_tensor_bytes
    if size > cap:
        raise InputError(f"{op}: {what} of shape {list(map(int, shape))} would need {size} bytes, more than the "
                         f"{cap}-byte limit (OPREF_MAX_TENSOR_BYTES)")
    return size


def check_holdable(op: str, what: str, shape, dtype) -> None:
    """An InputError when an array of `shape` holds no element but NumPy cannot hold it all the same: its
    other dims multiply past the largest array size (np.empty refuses it). check_size asks it of every
    static output; a kernel whose output the shape rule could only bound (huge dims) asks it itself."""
    if math.prod(int(d) for d in shape if d) * max(np.dtype(dtype).itemsize, 1) > np.iinfo(np.intp).max:
        raise InputError(f"{op}: the {what} shape {list(map(int, shape))} holds no element, but its other dims "
                         f"multiply past the largest array size (NumPy cannot hold it)")


def nbytes(shape, dtype) -> int:
    """Bytes of an array of `shape` and `dtype` (sub-byte types count a byte per element, as NumPy holds them)."""
    return math.prod(int(d) for d in shape) * max(np.dtype(dtype).itemsize, 1)


def check_kernel_bytes(op: str, outputs: int, workspace: int, limit: Limits) -> None:
    """An InputError when a kernel call's outputs plus temporaries would exceed max_kernel_bytes."""
    total = outputs + workspace
    if total > limit.max_kernel_bytes:
        raise InputError(f"{op}: the kernel would allocate about {total} bytes ({outputs} for its outputs, "
                         f"{workspace} for its temporaries), more than the {limit.max_kernel_bytes}-byte "
                         f"limit ({_where('max_kernel_bytes')})")


# --- time --------------------------------------------------------------------------------------------
clock = perf_counter


def over_time(where: str) -> TimeBudgetError:
    """The error of a run past its deadline, raised by the check at `where` (a layer, an iteration)."""
    scope = _scope.get()
    budget = None if scope is None else scope.budget
    return TimeBudgetError(f"{where}: the run has taken longer than its time budget of {budget:g} s "
                           f"({_where('time_budget')})")


def deadline() -> float | None:
    """The deadline of the run in progress in this context (None: none)."""
    scope = _scope.get()
    return None if scope is None else scope.deadline


def check_time(where: str) -> None:
    """A TimeBudgetError when the run in progress is past its deadline."""
    scope = _scope.get()
    if scope is not None and scope.deadline is not None and clock() > scope.deadline:
        raise over_time(where)


def start_run(limit: Limits, pin: bool = False):
    """Starts the clock of a run with limit.time_budget seconds unless a run is already timed in this
    context (a body, a composite op's ops: they share the outer run's deadline); with `pin`, the run's
    checks read `limit` instead of the environment. Returns the ContextVar token to give `end_run`,
    or None when nothing needed to change."""
    scope = _scope.get()
    if scope is None:
        budget = limit.time_budget
        if budget is None:
            return _scope.set(_Scope(None, None, None, limit)) if pin else None
        return _scope.set(_Scope(None, clock() + budget, budget, limit if pin else None))
    if scope.deadline is not None:           # a run inside a timed run: its deadline holds
        return None
    budget = limit.time_budget
    pin = pin and scope.limits is None and scope.resolved is None
    if budget is None and not pin:
        return None
    return _scope.set(_Scope(scope.limits, None if budget is None else clock() + budget,
                             budget, limit if pin else scope.resolved))


def end_run(started) -> None:
    if started is not None:
        _scope.reset(started)
