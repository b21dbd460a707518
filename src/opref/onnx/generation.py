"""Generation ops, spelled out with ONNX Range, Equal, Where/Gather and Expand:
- Range-1/4 (start, stop and step constant, as opref computes each element): ONNX Range(0, n, 1) gives
  the element indices i, and the values are start + i * step: for integral outputs in i64 (start and
  step truncated and taken modulo 2^64, the sum wrapping, then wrapped into the output type), for
  floats in the output type, each product and sum rounded to it (f16/bf16 computed in f32 and rounded
  back after each step: f32 has more than twice their precision, so that equals one rounding). ONNX's
  own Range accumulates (start + step + step ...), which rounds differently.
- Eye-9: column - row == diagonal_index on two Ranges (diagonal_index need not be constant, unlike
  ONNX EyeLike's attribute k), Expand'ed to batch_shape, then Cast to the output type.
- OneHot-1/16: index == position (Range(0, depth)) along the new axis, negative indices moved by depth
  first for OneHot-16's normalize; out-of-range indices hit nothing, as in opref (ONNX OneHot normalises
  negative indices always and takes few value types). The values are picked by Gather from [off, on]
  (every element type, in a carrier that holds it where onnxruntime lacks one).
RandomUniform and Multinomial draw from OpenVINO's generators (Philox, MT19937), which ONNX's random
ops do not reproduce.
"""
from __future__ import annotations

import numpy as np

from ..types import element_type
from .builder import Unsupported, onnx_type
from .glue import axis, carrier

_I64 = onnx_type("i64")


def _scalar_i64(b, x) -> str:
    """A one-element integer input as an i64 scalar tensor."""
    return b.node("Reshape", [b.cast(x, "i64", x.element_type), b.i64([])])


def _range(b, call):
    start, stop, step = call.inputs
    out = call.outputs[0].element_type
    t = element_type(out)
    if not all(v.is_const for v in call.inputs):
        return Unsupported("Range needs constant start, stop and step")
    n = call.outputs[0].shape[0].lo
    idx = b.node("Range", [b.scalar(0, "i64"), b.scalar(n, "i64"), b.scalar(1, "i64")])
    if t.is_integral:
        first, delta = (int(v.value.reshape(-1)[0]) if v.value.dtype.kind in "iub" else
                        int(np.trunc(float(v.value.reshape(-1)[0]))) for v in (start, step))
        wrap = [np.asarray(v % 2 ** 64, np.uint64).view(np.int64) for v in (first, delta)]
        y = b.node("Add", [b.node("Mul", [idx, b.const(wrap[1], "i64")]), b.const(wrap[0], "i64")])
        return b.cast(y, out, "i64")
    if n > 2 ** 24:
        return Unsupported("Range of more than 2^24 floats (the index would round twice)", str(n))
    first, delta = (np.asarray(v.value).reshape(()).astype(t.dtype) for v in (start, step))
    ct = out if out in ("f32", "f64") else "f32"

    def rounded(v):                                    # v (in ct) rounded to the output type, in ct
        return b.cast(b.cast(v, out, ct), ct, out)

    i = rounded(b.cast(idx, ct, "i64"))
    y = rounded(b.node("Mul", [i, b.const(delta.astype(element_type(ct).dtype), ct)]))
    y = b.node("Add", [y, b.const(first.astype(element_type(ct).dtype), ct)])
    return b.cast(y, out, ct)


def _positions(b, length) -> str:
    return b.node("Range", [b.scalar(0, "i64"), length, b.scalar(1, "i64")])


def _eye(b, call):
    rows, cols, diag = call.inputs[:3]
    batch = call.inputs[3] if len(call.inputs) > 3 else None
    out = call.outputs[0].element_type
    r, c = _scalar_i64(b, rows), _scalar_i64(b, cols)
    offset = b.node("Sub", [b.node("Unsqueeze", [_positions(b, c), b.i64([0])]),
                            b.node("Unsqueeze", [_positions(b, r), b.i64([1])])])
    hit = b.node("Equal", [offset, _scalar_i64(b, diag)])
    if batch is not None:
        dims = b.node("Concat", [b.cast(batch, "i64", batch.element_type), b.node("Unsqueeze", [r, b.i64([0])]),
                                 b.node("Unsqueeze", [c, b.i64([0])])], axis=0)
        hit = b.node("Expand", [hit, dims])
    return b.cast(hit, out, "boolean")


def _one_hot(b, call):
    indices, depth, on, off = call.inputs
    out = call.outputs[0].element_type
    if indices.rank is None:
        return Unsupported("OneHot of indices of dynamic rank (the new axis needs the rank)")
    a = axis(call.attrs["axis"], indices.rank + 1)
    n = _scalar_i64(b, depth)
    idx = b.cast(indices, "i64", indices.element_type)
    if call.attrs.get("negative_indices_mode") == "normalize":
        idx = b.node("Where", [b.node("Less", [idx, b.scalar(0, "i64")]), b.node("Add", [idx, n]), idx])
    where = b.node("Reshape", [_positions(b, n), b.i64([-1] + [1] * (indices.rank - a))])
    hit = b.node("Equal", [b.node("Unsqueeze", [idx, b.i64([a])]), where])
    ct = carrier(out, b.kernel_types("Gather"))
    if ct is None:
        return Unsupported("onnxruntime has no Gather kernel for this element type", out)
    values = b.node("Concat", [b.node("Reshape", [b.cast(v, ct, v.element_type), b.i64([1])]) for v in (off, on)],
                    axis=0)
    return b.cast(b.node("Gather", [values, b.node("Cast", [hit], to=_I64)], axis=0), out, ct)


LOWERINGS = {
    "Range-1": _range,
    "Range-4": _range,
    "Eye-9": _eye,
    "OneHot-1": _one_hot,
    "OneHot-16": _one_hot,
}
NO_ONNX = {
    "RandomUniform-8": "ONNX RandomUniform does not reproduce OpenVINO's Philox / MT19937 streams",
    "Multinomial-13": "ONNX Multinomial does not reproduce OpenVINO's MT19937 stream and CDF algorithm",
}
