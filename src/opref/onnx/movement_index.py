"""Index-driven movement: gathers and scatters. The indices are data (never looked at), so the glue
makes ONNX right for every index the op accepts:

- Gather (all versions) gives zeros for an index outside [-n, n), where ONNX Gather fails: the data
  gets a row of zeros appended along the axis and every out-of-range index is pointed at it. ONNX
  Gather has no batch_dims: with batch_dims it is GatherND(batch_dims) on the index with a trailing
  axis of 1, the gathered axis moved next to the batch axes and back. onnxruntime's string Gather
  copies only the first string of each inner block: strings are picked one by one from the flat
  data at the positions a Gather of an iota gives.
- GatherElements, GatherND are ONNX's (negative indices normalised at run time; GatherND-5 fuses its
  batch axes into one, a Reshape); out-of-range indices are errors of the op.
- ScatterNDUpdate, ScatterElementsUpdate are ONNX ScatterND/ScatterElements (reductions add, mul,
  min, max; f16/bf16 reduce in f32 as opref's accumulator does; booleans in u8, or = max, and = min).
  ScatterNDUpdate's "sub" adds the negated updates (xor for booleans: the sum's parity);
  use_init_val=false first scatters the reduction's identity. "mean" (ONNX has none) divides a
  scattered sum by a scattered count.
- ScatterUpdate is ScatterND on the data with the axis moved first; SliceScatter is ScatterElements
  on the flat data at the positions a Slice of an iota picks.
- ReverseSequence is ONNX's, with the axes moved to where ONNX has them.
- GatherTree (a beam-search backtrack) is a loop over time steps: not lowered.
"""
from __future__ import annotations

import numpy as np

from ..types import element_type
from .builder import Unsupported
from .movement import data_type, dim, dims, ints_of, moved, no_stop_quirk, reshape, slice_


def _i64(b, v):
    return b.cast(v, "i64", v.element_type)


def _wrap(b, idx, n):
    """idx (i64) with negative values counted from the end of n (a run-time size, broadcasting
    along idx's last axis, or a scalar)."""
    return b.node("Where", [b.node("Less", [idx, _ZERO]), b.node("Add", [idx, n]), idx])


_ZERO, _ONE = np.array(0, np.int64), np.array(1, np.int64)


def _scalar_dim(b, x, ax):
    return b.node("Squeeze", [dim(b, x, ax), b.i64([0])])


def _axis(a, rank, what):
    if a >= 0:
        return a
    if rank is None:
        return Unsupported(f"a negative {what} on data of dynamic rank")
    return a + rank


# --- Gather ---------------------------------------------------------------------------------------------
def _gather(b, call, x, ct):
    data, indices, axis = call.inputs
    ax = _axis(int(axis.ints()[0]), data.rank, "axis")
    if isinstance(ax, Unsupported):
        return ax
    bd = call.attrs.get("batch_dims", 0)
    if bd < 0:
        if indices.rank is None:
            return Unsupported("Gather with a negative batch_dims on indices of dynamic rank")
        bd += indices.rank
    n = _scalar_dim(b, x, ax)
    idx = _wrap(b, _i64(b, indices), n)
    valid = b.node("And", [b.node("GreaterOrEqual", [idx, _ZERO]), b.node("Less", [idx, n])])
    idx = b.node("Where", [valid, idx, n])                       # out of range: the zero row at n
    tail = b.node("Shape", [x], start=ax + 1)
    zero = b.node("Expand", [b.const(np.zeros((), element_type(ct).dtype) if ct != "string"
                                     else np.array("", dtype=object), ct),
                             b.node("Concat", [dims(b, x, 0, ax), b.i64([1]), tail], axis=0)])
    x = b.node("Concat", [x, zero], axis=ax)
    if bd == 0 and ct == "string":
        # onnxruntime's string Gather copies only the first string of each block after the axis:
        # the positions are gathered from an iota, the strings picked one by one from the flat data
        shape = b.node("Shape", [x])
        iota = reshape(b, b.node("Range", [_ZERO, b.node("ReduceProd", [shape], keepdims=0), _ONE]), shape)
        return b.node("Gather", [b.node("Reshape", [x, b.i64([-1])]), b.node("Gather", [iota, idx], axis=ax)])
    if bd == 0:
        return b.node("Gather", [x, idx], axis=ax)
    if data.rank is None or indices.rank is None:
        return Unsupported("Gather with batch_dims on data or indices of dynamic rank")
    r, ni, npre = data.rank, indices.rank - bd, ax - bd
    if npre:   # the gathered axis next to the batch axes
        x = b.node("Transpose", [x], perm=list(range(bd)) + [ax] + list(range(bd, ax)) + list(range(ax + 1, r)))
    y = b.node("GatherND", [x, b.node("Unsqueeze", [idx, b.i64([-1])])], batch_dims=bd)
    if npre:   # [batch, I, pre, post] -> [batch, pre, I, post]
        perm = list(range(bd)) + list(range(bd + ni, bd + ni + npre)) + list(range(bd, bd + ni)) \
            + list(range(bd + ni + npre, r - 1 + ni))
        y = b.node("Transpose", [y], perm=perm)
    return y


def _gather_elements(b, call, x, ct):
    data, indices = call.inputs
    ax = call.attrs["axis"]
    idx = _wrap(b, _i64(b, indices), dim(b, x, ax))
    return b.node("GatherElements", [x, idx], axis=ax)


def _gather_nd(fuse):
    def lower(b, call, x, ct):
        data, indices = call.inputs
        bd = call.attrs["batch_dims"]
        y = b.node("GatherND", [x, _i64(b, indices)], batch_dims=bd)
        if fuse and bd > 1:      # GatherND-5: the batch axes fused into one
            lead = b.node("ReduceProd", [dims(b, x, 0, bd)], keepdims=1)
            y = reshape(b, y, b.node("Concat", [lead, b.node("Shape", [y], start=bd)], axis=0))
        return y
    return lower


# --- scatters -------------------------------------------------------------------------------------------
_ONNX_REDUCTION = {"none": "none", "sum": "add", "prod": "mul", "min": "min", "max": "max", "sub": "add"}
_BOOL_REDUCTION = {"none": "none", "sum": "max", "prod": "min", "min": "min", "max": "max", "sub": "add",
                   "mean": "min"}     # (opref's boolean mean is an and)


def _reduce_type(b, data, reduction, op_type):
    """The compute type of a scatter: booleans reduce as u8, narrow floats in f32 (onnxruntime reduces
    no f16/bf16), else the movement carrier."""
    if reduction == "none":
        return data_type(b, data, op_type)
    if data.element_type == "boolean":
        return "u8"
    if data.et.is_float and data.element_type not in ("f32", "f64"):
        return "f32"
    return data_type(b, data, op_type)


def _identity(reduction, ct):
    if reduction in ("sum", "sub"):
        return 0
    if reduction == "prod":
        return 1
    if element_type(ct).is_float:
        return np.inf if reduction == "min" else -np.inf
    info = np.iinfo(element_type(ct).dtype)
    return info.max if reduction == "min" else info.min


def _scatter(b, call, op_type, idx, updates, **attrs):
    """Emit the ONNX scatter `op_type` of `updates` at `idx` into data, with the reduction,
    use_init_val and the boolean/narrow-float compute types handled."""
    data = call.inputs[0]
    reduction = call.attrs.get("reduction", "none")
    ct = _reduce_type(b, data, reduction, op_type)
    if isinstance(ct, Unsupported):
        return ct
    x = b.cast(data, ct, data.element_type)
    u = b.cast(updates, ct, data.element_type)
    is_bool = data.element_type == "boolean"
    if reduction == "sub" and not is_bool:
        u = b.node("Neg", [u]) if element_type(ct).is_float else b.node("Sub", [b.scalar(0, ct), u])
    if not call.attrs.get("use_init_val", True):        # the touched elements start from the identity
        start = b.node("Expand", [b.scalar(int(reduction in ("prod", "min")) if is_bool
                                           else _identity(reduction, ct), ct), b.node("Shape", [u])])
        x = b.node(op_type, [x, idx, start], **attrs)
    onnx_reduction = (_BOOL_REDUCTION if is_bool else _ONNX_REDUCTION)[reduction]
    y = b.node(op_type, [x, idx, u], reduction=None if onnx_reduction == "none" else onnx_reduction, **attrs)
    if is_bool and reduction == "sub":      # xor: the parity of the (wrapping) sum
        y = b.node("BitwiseAnd", [y, b.scalar(1, "u8")])
    return b.cast(y, call.outputs[0].element_type, ct)


def _scatter_nd(b, call):
    data, indices, updates = call.inputs
    if call.attrs.get("reduction", "none") not in _ONNX_REDUCTION:
        return Unsupported("ScatterNDUpdate reduction ONNX ScatterND lacks", call.attrs["reduction"])
    k = indices.shape[-1] if indices.rank else None
    if k is None or not k.is_static:
        return Unsupported("ScatterNDUpdate with the index depth (last dim of indices) not static")
    idx = _wrap(b, _i64(b, indices), dims(b, data, 0, k.length))
    return _scatter(b, call, "ScatterND", idx, updates)


def _scatter_elements(b, call):
    data, indices, updates, axis = call.inputs
    ax = int(axis.ints()[0])
    idx = _wrap(b, _i64(b, indices), dim(b, data, ax))
    if call.attrs.get("reduction", "none") == "mean" and data.element_type != "boolean":
        return _scatter_mean(b, call, idx, ax)
    return _scatter(b, call, "ScatterElements", idx, updates, axis=ax)


def _scatter_mean(b, call, idx, ax):
    """reduction 'mean' (ONNX has none): the sum and the count of what lands on each element, both
    scattered with add; integers sum in i64 and divide flooring, floats divide in f64 (as opref)."""
    data, updates = call.inputs[0], call.inputs[2]
    is_int = data.et.is_integral
    ct = "i64" if is_int else ("f64" if data.element_type == "f64" else "f32")
    x, u = b.cast(data, ct, data.element_type), b.cast(updates, ct, data.element_type)
    init = int(call.attrs["use_init_val"])
    if not init:
        x = b.node("ScatterElements", [x, idx, b.node("Expand", [b.scalar(0, ct), b.node("Shape", [u])])], axis=ax)
    total = b.node("ScatterElements", [x, idx, u], axis=ax, reduction="add")
    count = b.node("ScatterElements", [b.node("Expand", [b.scalar(init, "i64"), b.node("Shape", [x])]), idx,
                                       b.node("Expand", [b.scalar(1, "i64"), b.node("Shape", [idx])])],
                   axis=ax, reduction="add")
    touched = b.node("Greater", [count, b.scalar(init, "i64")])
    safe = b.node("Max", [count, b.scalar(1, "i64")])
    if is_int:     # floor division: (s - s mod c) / c, the mod taking the divisor's sign
        mean = b.node("Div", [b.node("Sub", [total, b.node("Mod", [total, safe])]), safe])
    else:
        mean = b.node("Div", [b.cast(total, "f64", ct), b.cast(safe, "f64", "i64")])
        total = b.cast(total, "f64", ct)
        ct = "f64"
    return b.cast(b.node("Where", [touched, mean, total]), call.outputs[0].element_type, ct)


def _scatter_update(b, call, x, ct):
    data, indices, updates, axis = call.inputs
    ax = _axis(int(axis.ints()[0]), data.rank, "axis")
    if isinstance(ax, Unsupported):
        return ax
    if data.rank is None:
        return Unsupported("ScatterUpdate on data of dynamic rank")
    r = data.rank
    front = [ax] + [a for a in range(r) if a != ax]             # the scattered axis first
    idx = b.node("Reshape", [_wrap(b, _i64(b, indices), _scalar_dim(b, x, ax)), b.i64([-1, 1])])
    grid = b.node("Concat", [dims(b, x, 0, ax), b.node("ReduceProd", [b.node("Shape", [indices]), None], keepdims=1),
                             b.node("Shape", [x], start=ax + 1)], axis=0)
    u = b.node("Transpose", [reshape(b, b.cast(updates, ct, updates.element_type), grid)], perm=front)
    y = b.node("ScatterND", [b.node("Transpose", [x], perm=front), idx, u])
    return b.node("Transpose", [y], perm=[int(i) for i in np.argsort(front)])


def _slice_scatter(b, call, x, ct):
    data, updates, start, stop, step = call.inputs[:5]
    axes = call.inputs[5] if len(call.inputs) > 5 and call.inputs[5] is not None else None
    starts, stops, steps = ints_of(start), ints_of(stop), ints_of(step)
    ax = ints_of(axes) if axes is not None else list(range(len(starts)))
    shape = b.node("Shape", [x])
    iota = reshape(b, b.node("Range", [_ZERO, b.node("ReduceProd", [shape], keepdims=0), _ONE]), shape)
    pairs = [no_stop_quirk(s, e, k) for s, e, k in zip(starts, stops, steps)]
    at = slice_(b, iota, [p[0] for p in pairs], [p[1] for p in pairs], ax, steps) if starts else iota
    flat = b.i64([-1])
    y = b.node("ScatterElements", [b.node("Reshape", [x, flat]), b.node("Reshape", [at, flat]),
                                   b.node("Reshape", [b.cast(updates, ct, updates.element_type), flat])], axis=0)
    return reshape(b, y, shape)


def _reverse_sequence(b, call, x, ct):
    data, lengths = call.inputs
    bt = [_axis(call.attrs[k], data.rank, k) for k in ("batch_axis", "seq_axis")]
    if any(isinstance(a, Unsupported) for a in bt):
        return next(a for a in bt if isinstance(a, Unsupported))
    ba, ta = bt
    lens = _i64(b, lengths)
    if {ba, ta} == {0, 1}:
        return b.node("ReverseSequence", [x, lens], batch_axis=ba, time_axis=ta)
    if data.rank is None:
        return Unsupported("ReverseSequence with axes beyond the first two on data of dynamic rank")
    perm = [ba, ta] + [a for a in range(data.rank) if a not in (ba, ta)]
    y = b.node("ReverseSequence", [b.node("Transpose", [x], perm=perm), lens], batch_axis=0, time_axis=1)
    return b.node("Transpose", [y], perm=[int(i) for i in np.argsort(perm)])


LOWERINGS = {
    "Gather-1": moved(_gather, "Gather", "Concat", "Expand"),
    "Gather-7": moved(_gather, "Gather", "GatherND", "Concat", "Expand", "Transpose"),
    "Gather-8": moved(_gather, "Gather", "GatherND", "Concat", "Expand", "Transpose"),
    "GatherElements-6": moved(_gather_elements, "GatherElements"),
    "GatherND-5": moved(_gather_nd(True), "GatherND", "Reshape"),
    "GatherND-8": moved(_gather_nd(False), "GatherND"),
    "ScatterNDUpdate-3": _scatter_nd,
    "ScatterNDUpdate-15": _scatter_nd,
    "ScatterElementsUpdate-3": _scatter_elements,
    "ScatterElementsUpdate-12": _scatter_elements,
    "ScatterUpdate-3": moved(_scatter_update, "ScatterND", "Transpose", "Reshape"),
    "SliceScatter-15": moved(_slice_scatter, "ScatterElements", "Reshape"),
    # (ONNX's ReverseSequence type list lacks bf16, which onnxruntime registers: Tile's carries it in f32)
    "ReverseSequence-1": moved(_reverse_sequence, "ReverseSequence", "Transpose", "Tile"),
}
NO_ONNX = {
    "GatherTree-1": "a backtrack over time steps, each step's beam read from the previous one: it needs an "
                    "ONNX Loop, which is not written",
}
