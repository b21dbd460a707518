"""Reductions. OpenVINO's ReduceX(data, axes) is ONNX's ReduceX-18 with the (constant) axes normalised
to non-negative and deduplicated, keepdims = keep_dims. Empty axes (or scalar data) reduce each
element alone, which is no ONNX reduction: the lowering emits the element-wise result itself
(the value; |x| for L1; sqrt(x*x) for L2, as opref and OpenVINO compute it). The logical reductions are
ReduceMin/ReduceMax of the booleans as u8 (onnxruntime rejects an empty bool reduction; in u8 an empty
And is 255 -> true, an empty Or 0 -> false, as opref).

Floats: onnxruntime's reductions take f32/f64, so f16/bf16/f8 are reduced in f32 and rounded back once
(opref accumulates them in f32 too). An empty reduction gives ONNX's identity (0, 1, -inf, +inf),
which is opref's.

Integers: onnxruntime's integer ReduceSum/Prod/Mean/L1 go through double on some paths (they saturate
on overflow and round above 2**53), while OpenVINO's integer sums wrap in the data's type. So integer
sums are spelled out exactly: the reduced axes moved last and flattened, a 0 put in front, CumSum
(which adds in the type and wraps) and its last element — in i32 for types up to 32 bits (the sum mod
2**32, then the cast back keeps its low bits), in i64 for 64-bit ones. Integer Mean is that wrapped sum
divided by the element count (Div truncates toward zero, as opref; the count clamped to 1 so an empty
mean is 0/1). Integer Max/Min compute in a type that holds the data (u64 as i64
with the top bit flipped, which keeps the order) and are bounded into the data type's range so an
empty reduction gives its lowest/highest value, as opref (with Max/Min: onnxruntime's i64 Clip is
wrong). Not lowered: integer ReduceProd (no exact wrapping product in onnxruntime), signed integer
ReduceL2 (the square root of a wrapped negative sum of squares, NaN made integer, is undefined).
"""
from __future__ import annotations

import numpy as np

from ..types import element_type
from .builder import Unsupported
from .glue import carrier, unsupported_type

_FLOAT_KERNEL = ("f32", "f64")


def _setup(call):
    """(data Value, sorted distinct non-negative axes, keep_dims) or Unsupported."""
    x, axes = call.inputs
    if not axes.is_const:
        return Unsupported("a reduction needs constant axes (OpenVINO's empty axes reduce nothing, ONNX's all)")
    if x.rank is None:
        return Unsupported("a reduction of dynamic rank (the axes are normalised against the rank)")
    r = x.rank
    ax = sorted({a % r for a in axes.ints()}) if r else []
    return x, ax, bool(call.attrs["keep_dims"])


def _dims(b, x, idxs):
    """The 1-D i64 tensor of x's dims at `idxs`: a constant where they are static, else read at run time."""
    dims = [x.shape[i] for i in idxs]
    if all(d.is_static for d in dims):
        return b.i64([d.length for d in dims])
    return b.node("Gather", [b.node("Shape", [x]), b.i64(idxs)], axis=0)


def _count(b, x, ax):
    """The number of elements over `ax` as a 1-element i64 tensor (a constant when the dims are static,
    else a product of the dims read at run time)."""
    dims = [x.shape[a] for a in ax]
    if all(d.is_static for d in dims):
        return b.i64([int(np.prod([d.length for d in dims]))])
    n = _dims(b, x, ax[:1])
    for a in ax[1:]:
        n = b.node("Mul", [n, _dims(b, x, [a])])
    return n


def _may_be_empty(x, ax) -> bool:
    return any(x.shape[a].lo == 0 for a in ax)


def _int_sum(b, x, src, ax, keep, ct):
    """The sum over `ax` of tensor `src` (x's shape, element type ct = i32/i64), wrapping in ct."""
    r = x.rank
    kept = [i for i in range(r) if i not in ax]
    t = src if kept + ax == list(range(r)) else b.node("Transpose", [src], perm=kept + ax)
    count = _count(b, x, ax)
    t = b.node("Reshape", [t, b.node("Concat", [_dims(b, x, kept), count], axis=0)] if kept else [t, count],
               allowzero=1)
    n = len(kept) + 1
    t = b.node("Pad", [t, b.i64([0] * (n - 1) + [1] + [0] * n), b.scalar(0, ct)])
    s = b.node("Gather", [b.node("CumSum", [t, b.scalar(-1, "i64")]), b.scalar(-1, "i64")], axis=n - 1)
    return b.node("Unsqueeze", [s, b.i64(ax)]) if keep else s


def _int_ct(et) -> str:
    return "i64" if element_type(et).bits > 32 else "i32"


def _float_reduce(b, op_type, x, ax, keep, out):
    ct = "f64" if x.element_type == "f64" else "f32"
    y = b.node(op_type, [b.cast(x, ct, x.element_type), b.i64(ax)], keepdims=int(keep))
    return b.cast(y, out, ct)


def _sum_like(kind):
    """ReduceSum, ReduceMean, ReduceL1, ReduceL2."""
    op_type = {"sum": "ReduceSum", "mean": "ReduceMean", "l1": "ReduceL1", "l2": "ReduceL2"}[kind]

    def lower(b, call):
        s = _setup(call)
        if isinstance(s, Unsupported):
            return s
        x, ax, keep = s
        et, out = x.element_type, call.outputs[0].element_type
        is_float = x.et.is_float
        if kind == "l2" and not is_float and x.et.is_signed:
            return Unsupported("signed integer ReduceL2 (the square root of a wrapped negative sum of squares "
                               "is NaN made integer: undefined)", et)
        if not ax:                                   # each element reduced alone
            if kind in ("sum", "mean"):
                return b.node("Identity", [x])
            if kind == "l1":
                ct = carrier(et, b.kernel_types("Abs")) or "f32"
                return b.cast(b.node("Abs", [b.cast(x, ct, et)]), out, ct)
            if is_float:                               # sqrt(x*x) in the accumulation type, as opref
                ct = "f64" if et == "f64" else "f32"
                v = b.cast(x, ct, et)
                return b.cast(b.node("Sqrt", [b.node("Mul", [v, v])]), out, ct)
            sq = b.node("Mul", [x, x])                 # wraps in the (unsigned) type, as opref
            return b.cast(b.node("Sqrt", [b.cast(sq, "f64", et)]), out, "f64")
        if is_float:
            return _float_reduce(b, op_type, x, ax, keep, out)
        ct = _int_ct(et)
        v = b.cast(x, ct, et)
        if kind == "l1":
            v = b.node("Abs", [v])
        elif kind == "l2":
            v = b.node("Mul", [v, v])
        total = _int_sum(b, x, v, ax, keep, ct)
        if kind == "l2":
            wrapped = b.cast(total, et, ct)               # the sum of squares in the data's type
            return b.cast(b.node("Sqrt", [b.cast(wrapped, "f64", et)]), out, "f64")
        if kind != "mean":
            return b.cast(total, out, ct)
        dt = "u64" if et == "u64" else "i64"             # the wrapped sum / count, truncated toward zero
        wrapped = b.cast(b.cast(total, et, ct), dt, et)
        count = b.cast(b.node("Max", [b.node("Reshape", [_count(b, x, ax), b.i64([])]), b.scalar(1, "i64")]), dt, "i64")
        return b.cast(b.node("Div", [wrapped, count]), out, dt)
    return lower


def _extreme(op_type, high):
    def lower(b, call):
        s = _setup(call)
        if isinstance(s, Unsupported):
            return s
        x, ax, keep = s
        et, out = x.element_type, call.outputs[0].element_type
        if not ax:
            return b.node("Identity", [x])
        if x.et.is_float:
            return _float_reduce(b, op_type, x, ax, keep, out)
        if et == "u64":              # order-preserving as i64 once the top bit is flipped
            flip = b.scalar(np.iinfo(np.int64).min, "i64")
            v = b.node("BitwiseXor", [b.cast(x, "i64", et), flip])
            y = b.node(op_type, [v, b.i64(ax)], keepdims=int(keep))
            return b.cast(b.node("BitwiseXor", [y, flip]), out, "i64")
        ct = carrier(et, {t for t in b.kernel_types(op_type) if element_type(t).is_integral})
        if ct is None:
            return unsupported_type(op_type, et)
        y = b.node(op_type, [b.cast(x, ct, et), b.i64(ax)], keepdims=int(keep))
        if ct != et and _may_be_empty(x, ax):      # an empty reduction: the data type's limit, not ct's
            info = np.iinfo(element_type(et).dtype)
            y = b.node("Max" if high else "Min", [y, b.scalar(info.min if high else info.max, ct)])
        return b.cast(y, out, ct)
    return lower


def _logical(op_type):
    def lower(b, call):
        s = _setup(call)
        if isinstance(s, Unsupported):
            return s
        x, ax, keep = s
        if not ax:
            return b.node("Identity", [x])
        y = b.node(op_type, [b.cast(x, "u8", "boolean"), b.i64(ax)], keepdims=int(keep))
        return b.cast(y, "boolean", "u8")
    return lower


def _prod(b, call):
    s = _setup(call)
    if isinstance(s, Unsupported):
        return s
    x, ax, keep = s
    if not ax:
        return b.node("Identity", [x])
    if not x.et.is_float:
        return Unsupported("integer ReduceProd (onnxruntime's saturates through double; OpenVINO's wraps)",
                           x.element_type)
    return _float_reduce(b, "ReduceProd", x, ax, keep, call.outputs[0].element_type)


LOWERINGS = {
    "ReduceSum-1": _sum_like("sum"),
    "ReduceMean-1": _sum_like("mean"),
    "ReduceL1-4": _sum_like("l1"),
    "ReduceL2-4": _sum_like("l2"),
    "ReduceMax-1": _extreme("ReduceMax", True),
    "ReduceMin-1": _extreme("ReduceMin", False),
    "ReduceProd-1": _prod,
    "ReduceLogicalAnd-1": _logical("ReduceMin"),
    "ReduceLogicalOr-1": _logical("ReduceMax"),
}
NO_ONNX: dict[str, str] = {}
