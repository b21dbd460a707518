"""Data movement: the ops that move values without computing them. Each is an ONNX op of the same
name, or a short composition of Shape/Slice/Concat/Reshape/Transpose/Expand, on data held in a type
the kernels take (bf16/f8 as f32, int4 as int8, f16 as f32 where a kernel lacks it: all exact, as
nothing is computed). u1/nf4 have no ONNX type.

- Concat, Split, VariadicSplit, Transpose, Tile, Slice are their ONNX namesakes; a split length not
  known before run time (a dynamic dim, VariadicSplit's -1) is computed from Shape.
- Broadcast is Expand (numpy, bidirectional, pdpd agree with it on every accepted input); explicit
  mode first puts data's axes where axes_mapping says (Transpose if unsorted, Unsqueeze the rest).
- StridedSlice with constant begin/end/stride is one Slice, a Squeeze of the shrunk axes and an
  Unsqueeze of the new ones (the data's rank must be known to place an ellipsis).
- Pad pads the positive parts of the pads with ONNX Pad (strings: Concat of Expanded pad values),
  then crops the negative parts with Slice (ONNX reflect/edge pad the cropped data, OpenVINO the
  original); symmetric is spelled out with backward Slices of the edges and Concat.
- Slice and StridedSlice avoid an onnxruntime quirk: it reads a stop >= INT32_MAX of a backward
  slice as "past the first element" (any stop >= the dim gives an empty backward slice).
- Reverse is a backward Slice; Roll is Slice + Concat per axis with the shift (data, not constant)
  taken modulo the dim at run time.
- Unique is ONNX Unique (same four outputs) on data widened to a type its kernel sorts exactly
  (none holds u64).
The index-based ops are in movement_index.py, the block rearrangements in movement_space.py.
"""
from __future__ import annotations

import numpy as np

from ..types import element_type
from .builder import Unsupported
from .glue import carrier, unsupported_type

BIG, SMALL = 2**63 - 1, -2**63


# --- shared glue ----------------------------------------------------------------------------------------
def data_type(b, x, *op_types):
    """The type x travels in through every ONNX op listed: its own when all kernels take it, else one
    holding it exactly (bf16/f8 -> f32, int4 -> int8, f16 -> f32, ...); Unsupported when none does."""
    available = None
    for op in op_types:
        kt = b.kernel_types(op)
        available = kt if available is None else available & kt
    ct = carrier(x.element_type, available or ())
    return ct if ct is not None else unsupported_type("/".join(op_types), x.element_type)


def ints_of(v):
    """A constant integer input as Python ints clipped to int64 (u64 values beyond it saturate)."""
    vals = v.ints() if v is not None else None
    return None if vals is None else [int(min(max(k, SMALL), BIG)) for k in vals]


def dim(b, x, ax: int) -> str:
    """x's dim `ax` (negative counts from the end) as a 1-element i64 tensor, read at run time."""
    return b.node("Shape", [x], start=ax, end=None if ax == -1 else ax + 1)


def dims(b, x, start: int = 0, end: int | None = None) -> str:
    return b.node("Shape", [x], start=start or None, end=end)


def reshape(b, x, shape) -> str:
    """Reshape to a run-time shape: a 0 in it means 0 (allowzero), not "keep the input's dim"."""
    return b.node("Reshape", [x, shape], allowzero=1)


def slice_(b, x, starts, ends, axes, steps=None) -> str:
    """ONNX Slice; starts/ends may be lists (constants) or tensor names."""
    s = b.i64(starts) if isinstance(starts, list) else starts
    e = b.i64(ends) if isinstance(ends, list) else ends
    return b.node("Slice", [x, s, e, b.i64(axes), None if steps is None else b.i64(steps)])


def const_pad(b, x, ct, before, after, fill=None) -> str:
    """x padded with `fill` (a scalar tensor name; None: the type's zero, "" for strings), pads >= 0:
    ONNX Pad where its kernel takes ct, else (strings) blocks of the value concatenated per axis."""
    if ct in b.kernel_types("Pad"):
        return b.node("Pad", [x, b.i64(list(before) + list(after)), fill], mode="constant")
    if fill is None:
        fill = b.const(np.array("", dtype=object) if ct == "string" else np.zeros((), element_type(ct).dtype), ct)
    for a, (p, q) in enumerate(zip(before, after)):
        if p or q:
            def block(k):
                return b.node("Expand", [fill, b.node("Concat", [dims(b, x, 0, a), b.i64([k]),
                                                                 b.node("Shape", [x], start=a + 1)], axis=0)])
            x = b.node("Concat", ([block(p)] if p else []) + [x] + ([block(q)] if q else []), axis=a)
    return x


def no_stop_quirk(start: int, stop: int, step: int) -> tuple[int, int]:
    """onnxruntime reads a stop >= INT32_MAX of a backward slice as "past the first element"; any
    stop >= the dim gives an empty backward slice (the start is clamped to dim - 1 < stop)."""
    if step < 0 and stop >= 2**31 - 1:
        return 0, 0
    return start, stop


def moved(fn, *ops):
    """A lowering `fn(b, call, x_name, ct) -> name | [names]` wrapped with the carrier type of the data
    (input 0) through the ONNX `ops`, cast back to opref's output types."""
    def lower(b, call):
        x = call.inputs[0]
        ct = data_type(b, x, *ops)
        if isinstance(ct, Unsupported):
            return ct
        out = fn(b, call, b.cast(x, ct, x.element_type), ct)
        if isinstance(out, Unsupported):
            return out
        outs = [out] if isinstance(out, str) else list(out)
        res = [b.cast(o, info.element_type, ct) for o, info in zip(outs, call.outputs)]
        return res[0] if isinstance(out, str) else res
    return lower


# --- Concat, Split, VariadicSplit, Transpose, Tile -------------------------------------------------------
def _concat(b, call):
    x = call.inputs[0]
    ct = data_type(b, x, "Concat")
    if isinstance(ct, Unsupported):
        return ct
    y = b.node("Concat", [b.cast(v, ct, v.element_type) for v in call.inputs], axis=call.attrs["axis"])
    return b.cast(y, call.outputs[0].element_type, ct)


def _split(b, call, x, ct):
    data, axis = call.inputs
    n, ax = call.attrs["num_splits"], int(axis.scalar())
    d = data.shape[ax] if data.rank is not None else None
    if d is not None and d.is_static:
        lengths = b.i64([d.length // n] * n)
    else:      # (ONNX's num_outputs is rejected by onnxruntime on an empty axis)
        lengths = b.node("Expand", [b.node("Div", [dim(b, x, ax), b.i64([n])]), b.i64([n])])
    return b.node("Split", [x, lengths], n, axis=ax) if n > 1 else [b.node("Identity", [x])]


def _variadic_split(b, call, x, ct):
    data, axis, lengths = call.inputs
    ax = int(axis.ints()[0])
    n = ints_of(lengths)
    if -1 in n:
        k = n.index(-1)
        rest = sum(n) + 1
        d = data.shape[ax] if data.rank is not None else None
        if d is not None and d.is_static:
            n[k] = d.length - rest
        else:
            own = b.node("Sub", [dim(b, x, ax), b.i64([rest])])
            parts = ([b.i64(n[:k])] if k else []) + [own] + ([b.i64(n[k + 1:])] if k + 1 < len(n) else [])
            split = b.node("Concat", parts, axis=0)
            return b.node("Split", [x, split], len(n), axis=ax) if len(n) > 1 else [b.node("Identity", [x])]
    if len(n) == 1:
        return [b.node("Identity", [x])]
    return b.node("Split", [x, b.i64(n)], len(n), axis=ax)


def _transpose(b, call, x, ct):
    order = ints_of(call.inputs[1])
    return b.node("Transpose", [x], perm=order or None)     # no perm: ONNX reverses the axes too


def _tile(b, call, x, ct):
    data, reps = call.inputs[0], ints_of(call.inputs[1])
    if data.rank is None:
        return Unsupported("Tile of data of dynamic rank (ONNX Tile needs one repeat per axis)")
    r = data.rank
    if not reps and r == 0:
        return b.node("Identity", [x])
    if len(reps) > r:       # more repeats than axes: leading axes of 1
        x = b.node("Unsqueeze", [x, b.i64(list(range(len(reps) - r)))])
    reps = [1] * (r - len(reps)) + reps
    return b.node("Tile", [x, b.i64(reps)])


# --- Broadcast --------------------------------------------------------------------------------------------
def _broadcast(b, call, x, ct):
    data, target = call.inputs[0], call.inputs[1]
    shape = ints_of(target)
    mode = call.attrs["mode"]
    if shape is None:                # a target computed at run time (ShapeOf of a dynamic tensor, ...)
        n = target.shape[0] if target.rank == 1 else None
        if mode not in ("numpy", "bidirectional", "explicit", "none") or n is None or not n.is_static:
            return Unsupported("Broadcast to a non-constant target needs numpy/bidirectional/explicit mode and a "
                               "target of static length", f"mode={mode}, target {target.shape}")
        if mode in ("explicit", "none"):
            mapping = ints_of(call.inputs[2])
            if data.rank is None or mapping is None:
                return Unsupported("Broadcast explicit needs data of static rank and constant axes_mapping")
            mapping = mapping[:data.rank]
            if mapping != sorted(mapping):
                x = b.node("Transpose", [x], perm=[int(i) for i in np.argsort(mapping)])
                mapping = sorted(mapping)
            rest = [a for a in range(n.length) if a not in mapping]
            if rest and data.rank:
                x = b.node("Unsqueeze", [x, b.i64(rest)])
        # Expand broadcasts both ways: on the inputs numpy mode accepts, that is the target itself
        return b.node("Expand", [x, b.cast(target, "i64", target.element_type)])
    if mode in ("explicit", "none"):
        if data.rank is None:
            return Unsupported("Broadcast explicit of data of dynamic rank")
        mapping = ints_of(call.inputs[2])[:data.rank]
        if mapping != sorted(mapping):             # data's axes in target order first
            x = b.node("Transpose", [x], perm=[int(i) for i in np.argsort(mapping)])
            mapping = sorted(mapping)
        rest = [a for a in range(len(shape)) if a not in mapping]
        if rest and data.rank:
            x = b.node("Unsqueeze", [x, b.i64(rest)])
    # numpy, bidirectional and pdpd (equal ranks, 1s stretch either way) are Expand on accepted inputs,
    # but onnxruntime's graph optimiser drops an Expand whose target has a 0 where the data has a 1
    # (as if it were a no-op; seen when the data's shape is inferred): a 0 in the target (the
    # output's 0 in every mode) is expanded as 1 and sliced away
    zeros = [i - len(shape) for i, d in enumerate(shape) if d == 0]
    y = b.node("Expand", [x, b.i64([d if d else 1 for d in shape])])
    return slice_(b, y, [0] * len(zeros), [0] * len(zeros), zeros) if zeros else y


# --- Slice, StridedSlice ------------------------------------------------------------------------------------
def _slice(b, call, x, ct):
    data, start, stop, step = call.inputs[:4]
    axes = call.inputs[4] if len(call.inputs) > 4 and call.inputs[4] is not None else None
    starts, stops, steps = ints_of(start), ints_of(stop), ints_of(step)
    ax = ints_of(axes) if axes is not None else list(range(len(starts)))
    if not starts:
        return b.node("Identity", [x])
    pairs = [no_stop_quirk(s, e, k) for s, e, k in zip(starts, stops, steps)]
    return slice_(b, x, [p[0] for p in pairs], [p[1] for p in pairs], ax, steps)


def _strided_slice(b, call, x, ct):
    data, begin, end = call.inputs[:3]
    stride = call.inputs[3] if len(call.inputs) > 3 else None
    bg, en = ints_of(begin), ints_of(end)
    n = len(bg)
    st = ints_of(stride) if stride is not None else [1] * n

    def mask(name):
        m = call.attrs[name] or ()
        return [bool(m[i]) if i < len(m) else False for i in range(n)]
    bm, em, nm, sm, el = (mask(k) for k in ("begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask",
                                             "ellipsis_mask"))
    if any(el) and data.rank is None:
        return Unsupported("StridedSlice with an ellipsis on data of dynamic rank")
    starts, stops, steps, axes, shrink, new = [], [], [], [], [], []
    k, out = 0, 0                               # the data axis and the output axis the entry reaches
    for i in range(n):
        if el[i]:
            k2 = data.rank - sum(1 for j in range(i + 1, n) if not nm[j])
            out += k2 - k
            k = k2
        elif nm[i]:
            new.append(out)
            out += 1
        elif sm[i]:
            starts.append(bg[i])
            stops.append(bg[i] + 1 if bg[i] != -1 else BIG)
            steps.append(1)
            axes.append(k)
            shrink.append(k)
            k += 1
        else:
            s = st[i]
            lo = (BIG if s < 0 else 0) if bm[i] else bg[i]
            hi = (SMALL if s < 0 else BIG) if em[i] else en[i]
            lo, hi = no_stop_quirk(lo, hi, s)
            starts.append(lo)
            stops.append(hi)
            steps.append(s)
            axes.append(k)
            k += 1
            out += 1
    y = slice_(b, x, starts, stops, axes, steps) if axes else x
    if shrink:
        y = b.node("Squeeze", [y, b.i64(shrink)])
    if new:
        y = b.node("Unsqueeze", [y, b.i64(new)])
    return y if y != x else b.node("Identity", [x])


# --- Pad ----------------------------------------------------------------------------------------------------
def _symmetric(b, x, before, after):
    """Symmetric padding (the edge repeated): per axis, the first `before` and last `after` elements
    reversed on either side (accepted pads are at most the dim)."""
    for a, (p, q) in enumerate(zip(before, after)):
        if p == 0 and q == 0:
            continue
        parts = [x]
        if p:
            parts.insert(0, slice_(b, x, [p - 1], [SMALL], [a], [-1]))
        if q:
            parts.append(slice_(b, x, [-1], [-1 - q], [a], [-1]))
        x = b.node("Concat", parts, axis=a)
    return x


def _pad(b, call):
    data, pb, pe = call.inputs[:3]
    value = call.inputs[3] if len(call.inputs) > 3 else None
    mode = call.attrs["pad_mode"]
    before, after = ints_of(pb), ints_of(pe)
    grow = [max(p, 0) for p in before], [max(p, 0) for p in after]
    ops = ("Slice", "Concat") if mode == "symmetric" else ("Pad", "Slice")
    ct = data_type(b, data, *ops)
    if isinstance(ct, Unsupported) and mode == "constant":      # strings: padded by Concat
        ct = data_type(b, data, "Expand", "Concat", "Slice")
    if isinstance(ct, Unsupported):
        return ct
    x = b.cast(data, ct, data.element_type)
    if mode == "symmetric":
        y = _symmetric(b, x, *grow)
    elif any(grow[0]) or any(grow[1]):
        fill = b.cast(value, ct, value.element_type) if value is not None and mode == "constant" else None
        y = const_pad(b, x, ct, *grow, fill) if mode == "constant" else \
            b.node("Pad", [x, b.i64(grow[0] + grow[1])], mode=mode)
    else:
        y = x
    cut = [a for a, (p, q) in enumerate(zip(before, after)) if p < 0 or q < 0]
    if cut:   # negative pads crop what the positive ones padded
        y = slice_(b, y, [max(-before[a], 0) for a in cut], [after[a] if after[a] < 0 else BIG for a in cut], cut)
    if y == x:
        y = b.node("Identity", [x])
    return b.cast(y, call.outputs[0].element_type, ct)


# --- Reverse, Roll ------------------------------------------------------------------------------------------
def _reverse(b, call, x, ct):
    axes_in = call.inputs[1]
    if call.attrs["mode"] == "mask":
        axes = [int(i) for i in np.flatnonzero(np.asarray(axes_in.value).reshape(-1))]
    else:
        axes = ints_of(axes_in)
    if not axes:
        return b.node("Identity", [x])
    return slice_(b, x, [-1] * len(axes), [SMALL] * len(axes), axes, [-1] * len(axes))


def _roll(b, call, x, ct):
    data, shift, axes_in = call.inputs
    axes = ints_of(axes_in)
    if data.rank == 0 or not axes:
        return b.node("Identity", [x])
    # one shift per axis (a single shift stretched to all of them)
    s = b.node("Expand", [b.node("Reshape", [b.cast(shift, "i64", shift.element_type), b.i64([-1])]),
                          b.i64([len(axes)])])
    for i, a in enumerate(axes):
        k = slice_(b, s, [i], [i + 1], [0])
        n = dim(b, x, a)
        k = b.node("Mod", [k, b.node("Max", [n, b.i64([1])])])     # in [0, n): a shift right by k
        cut = b.node("Sub", [n, k])
        x = b.node("Concat", [slice_(b, x, cut, b.i64([BIG]), [a]), slice_(b, x, b.i64([0]), cut, [a])], axis=a)
    return x


# --- Unique -------------------------------------------------------------------------------------------------
def _unique(b, call):
    data = call.inputs[0]
    axis = call.inputs[1] if len(call.inputs) > 1 else None
    ct = data_type(b, data, "Unique")
    if isinstance(ct, Unsupported):
        return ct
    attrs = {"sorted": int(call.attrs["sorted"])}
    if axis is not None:
        attrs["axis"] = int(axis.ints()[0])
    outs = b.node("Unique", [b.cast(data, ct, data.element_type)], 4, **attrs)
    return [b.cast(outs[0], call.outputs[0].element_type, ct)] + \
        [b.cast(o, info.element_type, "i64") for o, info in zip(outs[1:], call.outputs[1:])]


LOWERINGS = {
    "Concat-1": _concat,
    "Split-1": moved(_split, "Split", "Identity"),
    "VariadicSplit-1": moved(_variadic_split, "Split", "Identity"),
    "Transpose-1": moved(_transpose, "Transpose"),
    "Tile-1": moved(_tile, "Tile", "Unsqueeze"),
    "Broadcast-1": moved(_broadcast, "Expand", "Unsqueeze", "Transpose"),
    "Broadcast-3": moved(_broadcast, "Expand", "Unsqueeze", "Transpose"),
    "Slice-8": moved(_slice, "Slice"),
    "StridedSlice-1": moved(_strided_slice, "Slice", "Squeeze", "Unsqueeze"),
    "Pad-1": _pad,
    "Pad-12": _pad,
    "Reverse-1": moved(_reverse, "Slice"),
    "Roll-7": moved(_roll, "Slice", "Concat"),
    "Unique-10": _unique,
}
NO_ONNX: dict[str, str] = {}
