"""Shape ops. Each is an ONNX Reshape (allowzero=1: a 0 in the new shape is a 0) to an output shape
built at run time from Shape(x), so dynamic dims need nothing known in advance:
- Reshape: target_shape's values (a constant) with special_zero's 0s read from the input's dims (what
  ONNX's allowzero=0 does) and the -1 computed as opref does: the copied dims cancel, and when the
  other given dims multiply to 0 the -1 is 1 (ONNX's -1 rejects that case).
- Squeeze: the dims at `axes` (or anywhere, without axes) that are 1 at run time are taken out of
  Shape(x) (Compress); OpenVINO keeps a named dim that is not 1, which ONNX Squeeze rejects.
- Unsqueeze: 1s inserted where OpenVINO inserts them (repeated axes insert one 1; axes that coincide
  once normalised append one at the end), between slices of Shape(x); ONNX rejects such repeats.
- ShapeOf: ONNX Shape (i64), cast to i32 for ShapeOf-3's output_type i32.
i4/u4 data (no onnxruntime Reshape/Shape kernel) travels as i8/u8, which holds it exactly.
"""
from __future__ import annotations

import math

import numpy as np

from ..opset.shape import squeeze_dims, unsqueeze_dims
from ..shapes import Dimension
from .builder import Unsupported
from .glue import carrier


def _reshape(b, x, shape: str) -> str:
    ct = carrier(x.element_type, b.kernel_types("Reshape"))
    if ct is None:
        return Unsupported("onnxruntime has no Reshape kernel for this element type", x.element_type)
    y = b.node("Reshape", [b.cast(x, ct, x.element_type), shape], allowzero=1)
    return b.cast(y, x.element_type, ct)


def _shape(b, x, **attrs) -> str:
    ct = carrier(x.element_type, b.kernel_types("Shape"))
    return b.node("Shape", [b.cast(x, ct, x.element_type)], **attrs)


def _shape_of(b, call):
    x = call.inputs[0]
    return b.cast(_shape(b, x), call.outputs[0].element_type, "i64")


def _reshape_1(b, call):
    x, target = call.inputs
    if target.value is None:
        return Unsupported("Reshape needs a constant target_shape")
    pattern = target.ints()
    copied = [i for i, v in enumerate(pattern) if v == 0 and call.attrs["special_zero"]]
    pieces, run = [], []
    for i, v in enumerate(pattern):
        if i in copied or v == -1:
            if run:
                pieces.append(b.i64(run))
                run = []
            pieces.append(_shape(b, x, start=i, end=i + 1) if i in copied else _minus_one(b, x, pattern, copied))
        else:
            run.append(v)
    if run or not pieces:
        pieces.append(b.i64(run))
    shape = pieces[0] if len(pieces) == 1 else b.node("Concat", pieces, axis=0)
    return _reshape(b, x, shape)


def _minus_one(b, x, pattern, copied) -> str:
    """The -1 of a Reshape: the product of the dims not copied over the given values' (1 when those are 0)."""
    known = math.prod(v for i, v in enumerate(pattern) if v != -1 and i not in copied)
    if known == 0:
        return b.i64([1])
    dims = _shape(b, x)
    if copied:                                         # copied dims stand on both sides: count them as 1
        dims = b.node("ScatterElements", [dims, b.i64(copied), b.i64([1] * len(copied))], axis=0)
    total = b.node("ReduceProd", [dims], keepdims=1)
    return b.node("Div", [total, b.i64([known])])


def _squeeze(b, call):
    x = call.inputs[0]
    axes = call.inputs[1] if len(call.inputs) > 1 else None
    dims = _shape(b, x)
    ones = b.node("Equal", [dims, b.i64([1])])
    if axes is not None and axes.value is None:
        return Unsupported("Squeeze needs constant axes")
    if axes is not None and axes.ints():
        if x.rank is None:
            return Unsupported("Squeeze with axes of data of dynamic rank", str(x.shape))
        squeeze_dims(call.op, [Dimension()] * x.rank, axes.ints())           # checks the axes' range
        chosen = np.zeros(x.rank, bool)
        chosen[[a % x.rank for a in axes.ints()] if x.rank else []] = True
        ones = b.node("And", [ones, b.const(chosen, "boolean")])
    if x.rank is not None:
        # which dims go is decided by static dims alone: a plain Squeeze keeps the rank known to every
        # reader of the ONNX file (a Compress of the shape leaves it open)
        picked = chosen if axes is not None and axes.ints() else np.ones(x.rank, bool)
        if all(d.is_static for d, c in zip(x.shape, picked) if c):
            kept = [k for k, (d, c) in enumerate(zip(x.shape, picked)) if not (c and d.length == 1)]
            if len(kept) == x.rank:
                return b.node("Identity", [x])
            if not kept:
                return _reshape(b, x, b.const(np.zeros(0, np.int64), "i64"))
            target = [_shape(b, x, start=k, end=k + 1) for k in kept]
            return _reshape(b, x, target[0] if len(target) == 1 else b.node("Concat", target, axis=0))
    return _reshape(b, x, b.node("Compress", [dims, b.node("Not", [ones])], axis=0))


def _unsqueeze(b, call):
    x, axes = call.inputs
    if axes.value is None:
        return Unsupported("Unsqueeze needs constant axes")
    if x.rank is None:
        return Unsupported("Unsqueeze of data of dynamic rank", str(x.shape))
    # input dim i is marked i + 2, so the inserted dims are the 1s of the pattern
    marks = [d.lo for d in unsqueeze_dims(call.op, [Dimension(i + 2, i + 2) for i in range(x.rank)], axes.ints())]
    pieces, start = [], None
    for k, m in enumerate(marks + [1]):
        if m >= 2 and start is None:
            start = m - 2
        if m == 1:
            if start is not None:
                pieces.append(_shape(b, x, start=start, end=marks[k - 1] - 1))
                start = None
            if k < len(marks):
                pieces.append(b.i64([1]))
    shape = pieces[0] if len(pieces) == 1 else b.node("Concat", pieces, axis=0)
    return _reshape(b, x, shape)


LOWERINGS = {
    "Reshape-1": _reshape_1,
    "ShapeOf-1": _shape_of,
    "ShapeOf-3": _shape_of,
    "Squeeze-1": _squeeze,
    "Squeeze-15": _squeeze,
    "Unsqueeze-1": _unsqueeze,
}
NO_ONNX: dict[str, str] = {}
