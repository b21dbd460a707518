"""Sorting and search. TopK is ONNX TopK-11 (largest = mode max, sorted) on a key that orders as opref
does: one stable order with NaN below every number. onnxruntime's TopK puts equal values in input
order, as opref, but scatters NaN, so float data is ranked by an f64 key (-inf -> the lowest finite f64,
NaN -> -inf: exact for every type up to f32; f64 data has no room below -inf and is not lowered). The
values are gathered from the data by the selected indices. Integers rank in a type onnxruntime's TopK
takes that holds them (booleans and 4-bit types in 8 bits, u64 as i64 with the top bit flipped, which
keeps the order). sort = index re-sorts the K selected indices ascending (a second TopK); sort = none is
opref's value order. K is clamped to the axis length (OpenVINO's output holds min(K, dim)); the
indices are cast to index_element_type.

SearchSorted has no ONNX op: for a sorted sequence the index is the count of sequence elements below
the value (<= for right_mode), spelled out as a broadcast Less/LessOrEqual and a sum — with a 1-D
sequence opref follows NumPy's binary search, where NaN sorts above every number, so the comparison
gets the NaN glue for that order.
"""
from __future__ import annotations

import numpy as np

from ..types import element_type
from .builder import Unsupported
from .glue import axis as norm_axis, carrier, unsupported_type


def _key(b, x):
    """(key tensor name, error) ranking x's elements as opref: floats with NaN lowest."""
    et = x.element_type
    if x.et.is_float:
        if et == "f64":
            return None, Unsupported("f64 TopK (NaN must rank below -inf; no wider key type)", et)
        v = b.cast(x, "f64", et)
        v = b.node("Where", [b.node("IsInf", [v], detect_positive=0), b.scalar(np.finfo(np.float64).min, "f64"), v])
        return b.node("Where", [b.node("IsNaN", [v]), b.scalar(-np.inf, "f64"), v]), None
    if et == "u64":
        return b.node("BitwiseXor", [b.cast(x, "i64", et), b.scalar(np.iinfo(np.int64).min, "i64")]), None
    src = {"boolean": "u8", "i4": "i8", "u4": "u8"}.get(et, et)
    ct = carrier(src, {t for t in b.kernel_types("TopK") if element_type(t).is_integral})
    if ct is None:
        return None, unsupported_type("TopK", et)
    return b.cast(x, ct, et), None


def _topk(b, call):
    x, k = call.inputs
    if x.rank is None:
        return Unsupported("TopK of dynamic rank (ONNX needs the axis)")
    ax = norm_axis(call.attrs["axis"], x.rank)
    key, err = _key(b, x)
    if err is not None:
        return err
    kk = b.node("Reshape", [b.cast(k, "i64", k.element_type), b.i64([1])])
    d = x.shape[ax]
    if not (k.is_const and d.hi is not None and k.scalar() <= d.lo):      # K beyond the axis: min(K, dim)
        kk = b.node("Min", [kk, b.node("Gather", [b.node("Shape", [x]), b.i64([ax])], axis=0)])
    _, idx = b.node("TopK", [key, kk], 2, axis=ax, largest=int(call.attrs["mode"] == "max"), sorted=1)
    if call.attrs["sort"] == "index":
        idx, _ = b.node("TopK", [idx, kk], 2, axis=ax, largest=0, sorted=1)
    et = x.element_type
    ct = et if et in b.kernel_types("GatherElements") else {"i4": "i8", "u4": "u8"}.get(et, "f32")
    values = b.cast(b.node("GatherElements", [b.cast(x, ct, et), idx], axis=ax), et, ct)
    return [values, b.cast(idx, call.outputs[1].element_type, "i64")]


def _search_sorted(b, call):
    seq, v = call.inputs
    out = call.outputs[0].element_type
    if seq.rank is None:
        return Unsupported("SearchSorted of dynamic rank (the 1-D and N-D forms differ)")
    et = seq.element_type
    ct = "f32" if seq.et.is_float and seq.et.bits < 32 else et
    s = b.cast(seq, ct, et)
    s = s if seq.rank == 1 else b.node("Unsqueeze", [s, b.i64([-2])])
    w = b.node("Unsqueeze", [b.cast(v, ct, et), b.i64([-1])])
    right = call.attrs["right_mode"]
    below = b.node("LessOrEqual" if right else "Less", [s, w])
    if seq.et.is_float and seq.rank == 1:     # NumPy's order: NaN above every number
        v_nan = b.node("IsNaN", [w])
        below = b.node("Or", [below, v_nan if right else b.node("And", [v_nan, b.node("Not", [b.node("IsNaN", [s])])])])
    n = b.node("ReduceSum", [b.cast(below, "i64", "boolean"), b.i64([-1])], keepdims=0)
    return b.cast(n, out, "i64")


LOWERINGS = {"TopK-1": _topk, "TopK-3": _topk, "TopK-11": _topk, "SearchSorted-15": _search_sorted}
NO_ONNX: dict[str, str] = {}
