"""Cases for the generation ops. Range: every element type, positive and negative steps, float
steps, empty ranges, truncation of float inputs to an integral output_type; shape cases with
unknown start/stop/step (a dynamic length) and non-scalar inputs."""
from __future__ import annotations

import itertools

import numpy as np

from ...opset.generation import RANGE_1_TYPES, RANGE_4_INPUTS, range_values
from ...shapes import PartialShape
from ...types import NUMERIC_BYTES, element_type, element_type_of
from . import Case, ShapeCase, info
from ._gen import rng_for

F8 = ("f8e4m3", "f8e5m2")
RANGE_ZERO_STEP = ("OpenVINO's shape inference lets a step that truncates to 0 through (the length becomes "
                   "(uint32)inf); the spec leaves it undefined and opref rejects it")


def _scalar(v, et):
    return np.asarray(v).astype(element_type(et).dtype)


def _limits(et):
    t = element_type(et)
    if t.is_float:
        return (-60, 60) if t.bits == 8 else (-1000, 1000)
    if t.name == "u1":
        return 0, 1
    if t.bits == 4:
        return (-8, 7) if t.is_signed else (0, 15)
    info = np.iinfo(t.dtype)
    return max(int(info.min), -1000), min(int(info.max), 1000)


def _range_triple(rng, types, out_type):
    """start, stop, step (as Python numbers) that every input and the output type hold, giving at
    most ~40 elements; sometimes empty, sometimes a fractional step."""
    lo, hi = np.max([_limits(t)[0] for t in types]), np.min([_limits(t)[1] for t in types])
    floats = [element_type(t).is_float for t in types]
    r = rng.random()
    start = int(rng.integers(lo, hi + 1))
    stop = int(rng.integers(lo, hi + 1))
    if rng.random() < 0.6:                                   # a handful of elements
        stop = int(np.clip(start + rng.integers(-15, 16), lo, hi))
    sign = 1 if stop >= start else -1
    if lo >= 0 and r < 0.9:
        sign = 1
        start, stop = min(start, stop), max(start, stop)
    span = max(abs(stop - start), 1)
    step = sign * max(1, int(np.ceil(span / rng.integers(1, 40))))
    if r > 0.9:                                              # an empty range: the step points away
        step = -step if lo < 0 or step < 0 else step
        if lo >= 0:
            start, stop = stop, start
    if floats[2] and rng.random() < 0.5:
        step = step * float(rng.choice([0.5, 0.25, 1.5, 0.75]))
    if floats[0] and rng.random() < 0.4:
        start = start + 0.5
    if floats[1] and rng.random() < 0.4:
        stop = stop - 0.25
    if out_type is not None and element_type(out_type).is_integral and abs(np.trunc(step)) < 1:
        step = 1.5 if step > 0 else -1.5
    return start, stop, step


def _range_cases(op):
    rng = rng_for(op)
    out = []
    in_types = RANGE_1_TYPES if op == "Range-1" else RANGE_4_INPUTS
    cycle = itertools.cycle(in_types)
    out_cycle = itertools.cycle(NUMERIC_BYTES)
    for i in range(130):
        if op == "Range-1":
            types, out_type, attrs = [next(cycle)] * 3, None, {}
        else:
            types = [next(cycle), in_types[int(rng.integers(0, len(in_types)))],
                     in_types[int(rng.integers(0, len(in_types)))]]
            out_type = next(out_cycle)
            attrs = {"output_type": out_type}
        triple = _range_triple(rng, types + ([out_type] if out_type else []), out_type)
        if any(t.startswith("u") for t in types) and triple[2] < 0:
            triple = (triple[1], triple[0], -triple[2])
        inputs = tuple(_scalar(v, t) for v, t in zip(triple, types))
        if out_type in F8 and range_values(*inputs, out_type).size == 0:
            # OpenVINO's CPU plugin crashes (SIGSEGV) on an empty f8 Range: f8 ranges are non-empty
            inputs = (inputs[1], inputs[0], inputs[2]) if float(inputs[1]) != float(inputs[0]) else \
                (inputs[0], _scalar(float(inputs[0]) + 3 * float(inputs[2]), types[1]), inputs[2])
        out.append(Case(op, f"{i}_{'_'.join(types)}_{out_type or ''}_{'_'.join(f'{float(x):g}' for x in inputs)}",
                        inputs, attrs))
    f = lambda v: np.float32(v)
    extra = {} if op == "Range-1" else {"output_type": "f32"}
    out += [Case(op, "err_zero_step", (f(0), f(4), f(0)), extra, error="input 'step' must not be zero"),
            Case(op, "err_nan_start", (f(np.nan), f(4), f(1)), extra, error="input 'start' must be finite"),
            Case(op, "err_inf_stop", (f(0), f(np.inf), f(1)), extra, error="input 'stop' must be finite"),
            Case(op, "err_not_scalar", (f(0), np.array([4], np.float32), f(1)), extra,
                 error="input 'stop' must be a scalar")]
    if op == "Range-1":
        out.append(Case(op, "err_mixed_types", (f(0), np.int32(4), f(1)), {}, error="another T input has f32"))
    else:
        out += [Case(op, "err_step_truncates_to_zero", (f(0), f(4), f(0.5)), {"output_type": "i32"},
                     error="must not be zero after truncation to i32"),
                Case(op, "err_no_output_type", (f(0), f(4), f(1)), {}, error="missing required attribute 'output_type'")]
    return out


def _range_shape_cases(op):
    rng = rng_for(op, 1)
    out = []
    for c in _range_cases(op):
        if c.error and "after truncation" not in c.error:
            continue
        known = [rng.random() < 0.7 for _ in range(3)]
        if c.error:                                          # the zero step is known: the spec rejects it
            known = [True, True, True]
        shapes = [PartialShape([]) if rng.random() < 0.85 else PartialShape.dynamic() for _ in range(3)]
        inputs = tuple(info(element_type_of(x), s, x if k else None) for x, s, k in zip(c.inputs, shapes, known))
        marked = dict(openvino=RANGE_ZERO_STEP, expected=None) if c.error and known[2] else {}
        out.append(ShapeCase(op, f"{''.join('k' if k else 'u' for k in known)}_{c.id}", inputs, c.attrs, **marked))
    et = "f32"
    for j, bad in enumerate(([1], [2], "[?]", [1, 1])):
        out.append(ShapeCase(op, f"err_shape_{j}", (info(et, []), info(et, bad), info(et, [])),
                             {} if op == "Range-1" else {"output_type": "i64"}))
    return out


def cases():
    return _range_cases("Range-1") + _range_cases("Range-4")


def shape_cases():
    return _range_shape_cases("Range-1") + _range_shape_cases("Range-4")
