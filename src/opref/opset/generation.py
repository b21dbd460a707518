"""Generation ops: Range-1/4 (schemas and shape rules). The values of a Range are computed here
(`range_values`), so that the shape rule can give them when start, stop and step are known and
the kernel computes the same thing."""
from __future__ import annotations

import math

import numpy as np

from ..shapes import PartialShape, TensorInfo
from ..types import NUMERIC_BYTES, element_type
from .helpers import check
from .schema import ELEMENT_TYPE, Attr, OpSchema, Port

FOLD_LIMIT = 1 << 16      # the shape rule gives a Range's value up to this many elements
# OpenVINO cannot read f8 start/stop/step values ("Element not supported" in shape inference) and
# misreads sub-byte ones (i4 -1 as 15): those types are left out of the inputs' constraints.
_WIDE_FLOAT = ("f64", "f32", "f16", "bf16")
_BYTE_INT = ("i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8")
RANGE_1_TYPES = _WIDE_FLOAT + _BYTE_INT
RANGE_4_INPUTS = RANGE_1_TYPES


# --- Range-1 / Range-4 -----------------------------------------------------------------------------------
def range_count(start: float, stop: float, step: float) -> int:
    """max(ceil((stop - start) / step), 0), computed in double as OpenVINO does."""
    if (step > 0 and start >= stop) or (step < 0 and start <= stop):
        return 0
    return int(math.ceil(abs(stop - start) / abs(step)))


def range_values(start, stop, step, output_type: str) -> np.ndarray:
    """The sequence start, start + step, ... (stop excluded) of element type output_type. Integral
    outputs truncate the inputs towards zero first and accumulate with wrap-around; floating-point
    outputs compute start + i * step in the output type (OpenVINO's reference), each operation
    rounded to it."""
    t = element_type(output_type)
    a, b, c = (float(np.asarray(v).astype(np.float64)) for v in (start, stop, step))
    if t.is_integral:
        a, b, c = math.trunc(a), math.trunc(b), math.trunc(c)
    n = range_count(a, b, c)
    if t.is_integral:
        i = np.arange(n, dtype=np.int64)
        return (np.int64(a) + i * np.int64(c)).astype(t.dtype)      # two's-complement wrap
    first, delta = np.asarray(start).astype(t.dtype), np.asarray(step).astype(t.dtype)
    return (first + np.arange(n).astype(t.dtype) * delta).astype(t.dtype)


def _scalar(op, name, info):
    check(not info.shape.rank_is_static or len(info.shape) == 0, op, f"input {name!r} must be a scalar, "
          f"got shape {info.shape}")
    if info.value is None:
        return None
    v = float(np.asarray(info.value).astype(np.float64).reshape(-1)[0])
    return v


def _range(op, start, stop, step, output_type):
    integral = element_type(output_type).is_integral
    vals = {}
    for name, info in (("start", start), ("stop", stop), ("step", step)):
        v = _scalar(op, name, info)
        if v is not None:
            check(math.isfinite(v), op, f"input {name!r} must be finite, got {v}")
            vals[name] = math.trunc(v) if integral else v
    if "step" in vals:
        check(vals["step"] != 0, op, f"input 'step' must not be zero{' after truncation to ' + output_type if integral else ''}, "
              f"got {np.asarray(step.value).item()}")
    if len(vals) < 3:
        return TensorInfo(output_type, PartialShape.dynamic(1))
    n = range_count(vals["start"], vals["stop"], vals["step"])
    value = range_values(start.value, stop.value, step.value, output_type) if n <= FOLD_LIMIT else None
    return TensorInfo(output_type, PartialShape([n]), value)


def range_1_shape(start, stop, step):
    return _range("Range-1", start, stop, step, start.element_type)


def range_4_shape(start, stop, step, *, output_type):
    # OpenVINO's shape inference lets a zero step (after truncation) through to a count of
    # (uint32)inf; the spec leaves it undefined: opref rejects it.
    return _range("Range-4", start, stop, step, output_type)


RANGE_1 = OpSchema(
    "Range", 1, category="generation",
    inputs=(Port("start", "T", const=True), Port("stop", "T", const=True), Port("step", "T", const=True)),
    outputs=(Port("output", "T"),),
    type_constraints={"T": RANGE_1_TYPES},
    shape=range_1_shape,
    doc="The sequence [start, stop) with a step, of the inputs' element type.",
)

# v4: inputs of any numeric types, the output type an attribute (integral: inputs truncated).
RANGE_4 = OpSchema(
    "Range", 4, category="generation",
    inputs=(Port("start", "T1", const=True), Port("stop", "T2", const=True), Port("step", "T3", const=True)),
    outputs=(Port("output", "T_OUT"),),
    attributes=(Attr("output_type", ELEMENT_TYPE, allowed=NUMERIC_BYTES, doc="the output element type"),),
    type_constraints={"T1": RANGE_4_INPUTS, "T2": RANGE_4_INPUTS, "T3": RANGE_4_INPUTS, "T_OUT": NUMERIC_BYTES},
    shape=range_4_shape,
    doc="The sequence [start, stop) with a step, of element type output_type.",
)

OPS = (RANGE_1, RANGE_4)
