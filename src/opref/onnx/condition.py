"""Condition ops. Select is ONNX Where (numpy broadcasting; pdpd unsqueezes cond and else at their
trailing dims to align them with then at axis 0), in a type onnxruntime's Where takes that carries
the values exactly (booleans as 8-bit integers, f16/bf16/f8 as f32, u64 as i64 bits). NonZero is
ONNX NonZero of x != 0 (a scalar reshaped to [1], at run time when the rank is dynamic: OpenVINO
gives [1, n] where ONNX gives [0, n]),
int64 indices cast to i32 where asked. Bucketize (boundaries sorted, as the op requires) counts the
boundaries below each element: the sum of Less/LessOrEqual(buckets, data[..., None]) compared in
the type NumPy's searchsorted compares in (opref's kernel), NaN past the last boundary when the
right bound is excluded."""
from __future__ import annotations

import numpy as np

from ..types import element_type
from .arithmetic import operands, where
from .glue import carrier, unsupported_type


def _select(b, call):
    et = call.inputs[1].element_type
    xs = operands(b, call, et, ref=1, others=(0, 2))
    return where(b, *xs, et)


def _non_zero(b, call):
    x = call.inputs[0]
    if x.rank is None:       # shape[:max(rank, 1)] of shape + [1]: [1] for a scalar, the shape otherwise
        shape = b.node("Shape", [x])
        rank = b.node("Max", [b.node("Size", [shape]), b.const(np.asarray(1, np.int64), "i64")])
        new = b.node("Slice", [b.node("Concat", [shape, b.i64([1])], axis=0), b.i64([0]),
                               b.node("Reshape", [rank, b.i64([1])])])
        v = b.node("Reshape", [x, new], allowzero=1)
    else:
        v = x.name if x.rank else b.node("Reshape", [x, b.i64([1])])
    if x.element_type != "boolean":
        ct = carrier(x.element_type, b.kernel_types("Equal"))
        if ct is None:
            return unsupported_type("Equal", x.element_type)
        v = b.node("Not", [b.node("Equal", [b.cast(v, ct, x.element_type), b.scalar(0, ct)])])
    return b.cast(b.node("NonZero", [v]), call.outputs[0].element_type, "i64")


def _comparable(et: str) -> np.dtype:
    t = element_type(et)
    return np.dtype(np.float64) if t.is_float else t.dtype


def _bucketize(b, call):
    data, buckets = call.inputs
    dt, bt = _comparable(data.element_type), _comparable(buckets.element_type)
    ct = element_type(np.result_type(dt, bt)).name          # as searchsorted compares them
    op_type = "Less" if call.attrs["with_right_bound"] else "LessOrEqual"
    if ct not in b.kernel_types(op_type):
        return unsupported_type(op_type, ct)
    x = b.node("Unsqueeze", [b.cast(data, ct, data.element_type), b.i64([-1])])
    # one more boundary that never counts, so the compared axis is never empty and its count is the
    # last running sum (onnxruntime's ReduceSum mis-shapes empty tensors): NaN for floats, the type's largest value for Less; for integers b <= x is
    # counted as not x < b, less the extra (smallest) boundary
    t = element_type(ct)
    inverted = not t.is_float and op_type == "LessOrEqual"
    extra = np.nan if t.is_float else np.iinfo(t.dtype).min if inverted else np.iinfo(t.dtype).max
    bounds = b.node("Concat", [b.cast(buckets, ct, buckets.element_type), b.const(np.array([extra]), ct)], axis=0)
    below = b.node("Not", [b.node("Less", [x, bounds])]) if inverted else b.node(op_type, [bounds, x])
    running = b.node("CumSum", [b.cast(below, "i64", "boolean"), b.const(np.asarray(-1, np.int64), "i64")])
    count = b.node("Gather", [running, b.const(np.asarray(-1, np.int64), "i64")], axis=-1)
    if inverted:
        count = b.node("Sub", [count, b.scalar(1, "i64")])
    if not call.attrs["with_right_bound"] and element_type(ct).is_float:    # NaN: past the last boundary
        n = b.node("Shape", [buckets])
        nan = b.node("IsNaN", [b.node("Squeeze", [x, b.i64([-1])])])
        count = b.node("Where", [nan, b.node("Reshape", [n, b.i64([])]), count])
    return b.cast(count, call.outputs[0].element_type, "i64")


LOWERINGS = {"Select-1": _select, "NonZero-3": _non_zero, "Bucketize-3": _bucketize}
NO_ONNX: dict[str, str] = {}
