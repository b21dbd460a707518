"""Data-movement ops: SpaceToBatch, BatchToSpace, DepthToSpace, SpaceToDepth, Col2Im, Transpose.

Shape rules follow OpenVINO's (src/core/shape_inference/include/<op>_shape_inference.hpp) on
partial shapes, and add the spec's own preconditions where OpenVINO only "expects" them
(block_shape[0] == 1, no padding or cropping of the batch axis, non-negative pads).
"""
from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass

import numpy as np

from ..shapes import Dimension, PartialShape, TensorInfo
from ..types import ALL, IDX, NUMERIC, NUMERIC_BYTES, element_type
from .families import broadcast_shapes
from .helpers import check, check_1d, divide, ints_of, product, rank_of
from .schema import BOOL, ELEMENT_TYPE, INT, INTS, STRING, Attr, OpSchema, Port

T_INT = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64")


# --- SpaceToBatch-2 / BatchToSpace-2 ---------------------------------------------------------------
def _block_inputs(op, data, block_shape, begin, end, names):
    """Shared checks of the three 1-D inputs; returns (rank or None, values or None)."""
    for name, info in zip(names, (block_shape, begin, end)):
        check_1d(op, name, info)
    sizes = {i.shape[0] for i in (block_shape, begin, end) if i.shape.rank_is_static and i.shape[0].is_static}
    check(len(sizes) <= 1, op, f"{', '.join(names)} must have the same number of elements, "
          f"got {block_shape.shape}, {begin.shape} and {end.shape}")
    if data.shape.rank_is_static:
        check(len(data.shape) >= 2, op, f"data must have rank >= 2, got {data.shape}")
        n = rank_of(block_shape, begin, end)
        check(n is None or n == len(data.shape), op, f"{names[0]} must have as many elements as data has "
              f"dimensions ({len(data.shape)}), got {n}")
    blocks, b, e = ints_of(block_shape), ints_of(begin), ints_of(end)
    if blocks is not None:
        check(all(v >= 1 for v in blocks), op, f"{names[0]} values must be >= 1, got {list(blocks)}")
        check(blocks[0] == 1, op, f"{names[0]}[0] must be 1 (the batch axis is not split), got {blocks[0]}")
    for name, vals in zip(names[1:], (b, e)):
        if vals is not None:
            check(all(v >= 0 for v in vals), op, f"{name} values must be >= 0, got {list(vals)}")
            check(vals[0] == 0, op, f"{name}[0] must be 0 (the batch axis is not padded or cropped), got {vals[0]}")
    return blocks, b, e


def space_to_batch_shape(data, block_shape, pads_begin, pads_end):
    op = "SpaceToBatch-2"
    blocks, pb, pe = _block_inputs(op, data, block_shape, pads_begin, pads_end,
                                   ("block_shape", "pads_begin", "pads_end"))
    if not data.shape.rank_is_static:
        return PartialShape.dynamic()
    dims = list(data.shape)
    if blocks is None:
        return PartialShape.dynamic(len(dims))
    out = [dims[0] * product(blocks)]
    for i in range(1, len(dims)):
        if pb is None or pe is None:
            out.append(Dimension())
            continue
        padded = dims[i] + (pb[i] + pe[i])
        if padded.hi is None:   # unbounded stays unbounded (OpenVINO: ceil_div(lo), inf)
            out.append(Dimension(-(-padded.lo // blocks[i]), None))
        else:
            out.append(divide(op, f"padded dimension {i}", padded, blocks[i]))
    return PartialShape(out)


def batch_to_space_shape(data, block_shape, crops_begin, crops_end):
    op = "BatchToSpace-2"
    blocks, cb, ce = _block_inputs(op, data, block_shape, crops_begin, crops_end,
                                   ("block_shape", "crops_begin", "crops_end"))
    if not data.shape.rank_is_static:
        return PartialShape.dynamic()
    dims = list(data.shape)
    if blocks is None:          # OpenVINO bounds an unknown block by [1, inf)
        grown = [d * Dimension(1, None) for d in dims[1:]]
        batch = Dimension()
    else:
        batch = divide(op, "batch dimension", dims[0], product(blocks))
        grown = [d * b for d, b in zip(dims[1:], blocks[1:])]
    if cb is None or ce is None:
        return PartialShape([batch] + [Dimension()] * len(grown))
    out = [batch]
    for i, g in enumerate(grown, start=1):
        crop = cb[i] + ce[i]
        check(g.is_dynamic or crop <= g.lo, op, f"crops_begin[{i}] + crops_end[{i}] = {crop} must be <= "
              f"block_shape[{i}] * data dimension {i} = {g}")
        out.append(g - crop)
    return PartialShape(out)


SPACE_TO_BATCH_2 = OpSchema(
    "SpaceToBatch", 2, category="movement",
    inputs=(Port("data", "T"), Port("block_shape", "T_INT", const=True),
            Port("pads_begin", "T_INT", const=True), Port("pads_end", "T_INT", const=True)),
    outputs=(Port("output", "T"),),
    type_constraints={"T": ALL, "T_INT": T_INT},
    shape=space_to_batch_shape,
    doc="Zero-pads the spatial axes, splits each into blocks and moves the block offsets into the batch.",
)

BATCH_TO_SPACE_2 = OpSchema(
    "BatchToSpace", 2, category="movement",
    inputs=(Port("data", "T"), Port("block_shape", "T_INT", const=True),
            Port("crops_begin", "T_INT", const=True), Port("crops_end", "T_INT", const=True)),
    outputs=(Port("output", "T"),),
    type_constraints={"T": ALL, "T_INT": T_INT},
    shape=batch_to_space_shape,
    doc="Moves blocks of the batch into the spatial axes, then crops them (inverse of SpaceToBatch).",
)


# --- DepthToSpace-1 / SpaceToDepth-1 ---------------------------------------------------------------
MODES = ("blocks_first", "depth_first")


def depth_to_space_shape(data, *, block_size, mode):
    op = "DepthToSpace-1"
    check(block_size > 0, op, f"block_size must be > 0, got {block_size}")
    shape = data.shape
    if not shape.rank_is_static:
        return PartialShape.dynamic()
    check(len(shape) >= 3, op, f"data must have rank >= 3, got {shape}")
    divisor = block_size ** (len(shape) - 2)
    channels = divide(op, f"depth (dimension 1, block_size^{len(shape) - 2} = {divisor})", shape[1], divisor)
    return PartialShape([shape[0], channels] + [d * block_size for d in shape[2:]])


def space_to_depth_shape(data, *, block_size, mode):
    op = "SpaceToDepth-1"
    check(block_size > 0, op, f"block_size must be > 0, got {block_size}")
    shape = data.shape
    if not shape.rank_is_static:
        return PartialShape.dynamic()
    check(len(shape) >= 3, op, f"data must have rank >= 3, got {shape}")
    spatial = [divide(op, f"spatial dimension {i}", d, block_size) for i, d in enumerate(shape[2:], start=2)]
    return PartialShape([shape[0], shape[1] * block_size ** (len(shape) - 2)] + spatial)


_BLOCK_ATTRS = (Attr("block_size", INT, 1, doc="size of the spatial block"),
                Attr("mode", STRING, allowed=MODES,
                     doc="blocks_first: depth is [block, block, ..., C']; depth_first: [C', block, block, ...]"))

DEPTH_TO_SPACE_1 = OpSchema(
    "DepthToSpace", 1, category="movement",
    inputs=(Port("data", "T"),), outputs=(Port("output", "T"),),
    attributes=_BLOCK_ATTRS, type_constraints={"T": ALL}, shape=depth_to_space_shape,
    doc="Rearranges depth into spatial blocks: [N, C, D1, ...] -> [N, C/bs^K, D1*bs, ...].",
)

SPACE_TO_DEPTH_1 = OpSchema(
    "SpaceToDepth", 1, category="movement",
    inputs=(Port("data", "T"),), outputs=(Port("output", "T"),),
    attributes=_BLOCK_ATTRS, type_constraints={"T": ALL}, shape=space_to_depth_shape,
    doc="Rearranges spatial blocks into depth: [N, C, D1, ...] -> [N, C*bs^K, D1/bs, ...].",
)


# --- Col2Im-15 ----------------------------------------------------------------------------------------
def col2im_blocks(size: int, k: int, s: int, d: int, pb: int, pe: int) -> int:
    return (size + pb + pe - d * (k - 1) - 1) // s + 1


def col2im_shape(data, output_size, kernel_size, *, strides, dilations, pads_begin, pads_end):
    op = "Col2Im-15"
    for name, v in (("strides", strides), ("dilations", dilations), ("pads_begin", pads_begin),
                    ("pads_end", pads_end)):
        check(len(v) == 2, op, f"attribute {name!r} must have 2 elements, got {list(v)}")
    check(all(v > 0 for v in strides), op, f"strides must be > 0, got {list(strides)}")
    check(all(v > 0 for v in dilations), op, f"dilations must be > 0, got {list(dilations)}")
    check(all(v >= 0 for v in pads_begin + pads_end), op, f"pads must be >= 0, got {list(pads_begin)}, {list(pads_end)}")
    check_1d(op, "output_size", output_size, 2)
    check_1d(op, "kernel_size", kernel_size, 2)
    shape = data.shape
    if not shape.rank_is_static:
        return PartialShape.dynamic()
    check(len(shape) in (2, 3), op, f"data must be 2-D (unbatched) or 3-D (batched), got {shape}")
    size, kernel = ints_of(output_size), ints_of(kernel_size)
    if size is not None:
        check(all(v > 0 for v in size), op, f"output_size values must be > 0, got {list(size)}")
    if kernel is not None:
        check(all(v > 0 for v in kernel), op, f"kernel_size values must be > 0, got {list(kernel)}")
    *batch, ckk, length = shape
    # OpenVINO divides only a static C*kh*kw; an interval gives an unknown channel count.
    channels = Dimension() if kernel is None or not ckk.is_static else divide(
        op, "data dimension C*kernel_size[0]*kernel_size[1]", ckk, product(kernel))
    if size is not None and kernel is not None:
        blocks = [col2im_blocks(*a) for a in zip(size, kernel, strides, dilations, pads_begin, pads_end)]
        check(all(b > 0 for b in blocks), op, f"no complete block fits: output_size {list(size)}, "
              f"kernel_size {list(kernel)} give {blocks[0]}x{blocks[1]} blocks")
        expected = blocks[0] * blocks[1]
        check(length.contains(expected), op, f"expected L={expected} blocks ({blocks[0]}x{blocks[1]}) in the "
              f"last data dimension, got {length}")
    spatial = [Dimension(), Dimension()] if size is None else list(size)
    return PartialShape(batch + [channels] + spatial)


COL2IM_15 = OpSchema(
    "Col2Im", 15, category="movement",
    inputs=(Port("data", "T"), Port("output_size", "T_IDX", const=True),
            Port("kernel_size", "T_IDX", const=True)),
    outputs=(Port("output", "T"),),
    attributes=(Attr("strides", INTS, (1, 1)), Attr("dilations", INTS, (1, 1)),
                Attr("pads_begin", INTS, (0, 0)), Attr("pads_end", INTS, (0, 0))),
    type_constraints={"T": NUMERIC_BYTES, "T_IDX": IDX},   # sums values: no boolean, string, sub-byte
    shape=col2im_shape,
    doc="Sums sliding blocks (N, C*kh*kw, L) back into an image (N, C, H, W); overlapping values add up.",
)


# --- Transpose-1 ---------------------------------------------------------------------------------------
def transpose_shape(data, input_order):
    op = "Transpose-1"
    check(input_order.shape.rank_is_static is False or len(input_order.shape) <= 1, op,
          f"input_order must be 1-D, got {input_order.shape}")
    order = ints_of(input_order)
    shape = data.shape
    if order is None:                        # (OpenVINO does not take the rank from the order's length)
        return PartialShape.dynamic(len(shape) if shape.rank_is_static else None)
    if not shape.rank_is_static:             # a non-empty order gives the rank
        return PartialShape.dynamic(len(order)) if order else PartialShape.dynamic()
    if len(order) == 0:                       # empty order reverses the axes
        return PartialShape(list(shape)[::-1])
    n = len(shape)
    check(sorted(order) == list(range(n)), op, f"input_order {list(order)} is not a permutation of the "
          f"{n} axes of data {shape}")
    return PartialShape([shape[i] for i in order])


TRANSPOSE_1 = OpSchema(
    "Transpose", 1, category="movement",
    inputs=(Port("data", "T"), Port("input_order", "T_AXIS", const=True)),
    outputs=(Port("output", "T"),),
    type_constraints={"T": ALL, "T_AXIS": T_INT},
    shape=transpose_shape,
    doc="Permutes the axes of data: output.shape[i] = data.shape[input_order[i]]; empty order reverses.",
)



# === shared helpers of the indexing ops ================================================================
INT64_MAX, INT64_MIN = 2**63 - 1, -2**63
VALUE_LIMIT = 1 << 16     # shape rules compute output values (constant folding) up to this many elements


def normalize_axis(op: str, what: str, axis: int, rank: int) -> int:
    check(-rank <= axis < rank, op, f"{what} {axis} is out of range [{-rank}, {rank - 1}] for data of rank {rank}")
    return axis + rank if axis < 0 else axis


def _scalar_like(op: str, name: str, info, allow_1=True):
    """axis inputs: a scalar, or (where allowed) a 1-D tensor of one element."""
    s = info.shape
    if not s.rank_is_static or len(s) == 0:
        return
    ok = allow_1 and len(s) == 1 and s[0].compatible(1)
    check(ok, op, f"input {name!r} must be a scalar{' or have 1 element' if allow_1 else ''}, got shape {s}")


def _valued(info, shape, value):
    """The output TensorInfo: shape, and the value when it was cheap to compute."""
    if value is None or np.size(value) > VALUE_LIMIT:
        return TensorInfo(info.element_type, shape)
    return TensorInfo(info.element_type, shape, np.asarray(value))


def _known(*infos) -> bool:
    """All values known and small enough to fold."""
    return all(i is not None and i.value is not None and np.size(i.value) <= VALUE_LIMIT for i in infos)


def _plus(d: Dimension, k: int) -> Dimension:
    """d + k for an integer k of any sign, as OpenVINO's Pad computes it: the lower bound clipped at
    0, and an upper bound below 0 read as unknown (so a static 2 - 3 gives ?, not 0)."""
    if d.hi is not None and d.hi + k < 0:
        return Dimension()
    return Dimension(max(d.lo + k, 0), None if d.hi is None else d.hi + k)


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def sliced_length(n: int | None, start: int, stop: int, step: int) -> int | None:
    """Length of data[start:stop:step] along an axis of length n (None: unbounded, OpenVINO's
    int64 infinity), as OpenVINO's slice shape inference computes it; None when unbounded."""
    rev = step < 0
    norm = INT64_MAX if n is None else n
    huge = norm == INT64_MAX
    start_neg = start < 0
    start_limit = start in (INT64_MAX, INT64_MIN)
    any_max = INT64_MAX in (start, stop)
    if huge and (start_neg != (stop < 0) or any_max or start_limit):
        if rev:                       # an unbounded axis: only offsets from its ends are known
            ub = -1 if (start_neg or any_max) else -1 - start
        elif start_neg and not start_limit:
            ub = -start if stop == INT64_MAX else stop
        else:
            ub = -1
        lb = 0
    else:
        lb = min(max(start + norm if start < 0 else start, 0), norm - 1 if rev else norm)
        ub = min(max(stop + norm if stop < 0 else stop, -1 if rev else 0), norm)
    if huge and lb == 0 and ub == -1:
        return None
    v = min(0, ub - lb) if rev else max(0, ub - lb)
    if step == -1:
        return -v
    if v != 0 and step != 1:
        v = _trunc_div(v + 1 if rev else v - 1, step) + 1
    return v


def sliced_dim(d: Dimension, start: int, stop: int, step: int) -> Dimension:
    lo, hi = sliced_length(d.lo, start, stop, step), sliced_length(d.hi, start, stop, step)
    hi = None if hi == INT64_MAX else hi          # OpenVINO's infinity
    lo = lo or 0
    return Dimension(lo, hi) if hi is None or hi >= lo else Dimension()   # (OpenVINO: an inverted interval is ?)


def slice_bounds(info) -> tuple[int, ...] | None:
    """Known start/stop/begin/end values, with the i32 extremes read as int64 ones (as OpenVINO
    does: INT_MAX of an i32 stop means "to the end" even of an unbounded axis)."""
    v = ints_of(info)
    if v is None or info.element_type != "i32":
        return v
    return tuple(INT64_MAX if x == 2**31 - 1 else INT64_MIN if x == -2**31 else x for x in v)


# --- Concat-1 --------------------------------------------------------------------------------------------
def concat_shape(data, *more_data, axis):
    op = "Concat-1"
    infos = (data,) + more_data
    ranks = [len(i.shape) for i in infos if i.shape.rank_is_static]
    if not ranks:
        return PartialShape.dynamic()
    rank = ranks[0]
    for k, i in enumerate(infos):
        check(not i.shape.rank_is_static or len(i.shape) == rank, op,
              f"all inputs must have the same rank: input 0 has rank {rank}, input {k} has shape {i.shape}")
    a = normalize_axis(op, "axis", axis, rank)
    out = [Dimension()] * rank
    total = Dimension(0, 0)
    for k, i in enumerate(infos):
        if not i.shape.rank_is_static:
            total = total + Dimension()
            continue
        for j, d in enumerate(i.shape):
            if j == a:
                total = total + d
                continue
            m = out[j].merge(d)
            check(m is not None, op, f"input {k} has dimension {d} on axis {j}, other inputs have {out[j]}; "
                  f"inputs must be equal everywhere except on the concatenation axis {axis}")
            out[j] = m
    out[a] = total
    value = np.concatenate([np.asarray(i.value) for i in infos], axis=a) if _known(*infos) else None
    return _valued(data, PartialShape(out), value)


CONCAT_1 = OpSchema(
    "Concat", 1, category="movement",
    inputs=(Port("data", "T", variadic=True),),
    outputs=(Port("output", "T"),),
    attributes=(Attr("axis", INT, doc="the axis to concatenate on; negative counts from the end"),),
    type_constraints={"T": ALL},
    shape=concat_shape,
    doc="Joins the inputs along axis; they must be equal on every other axis.",
)


# --- Split-1 / VariadicSplit-1 -----------------------------------------------------------------------------
def _split_values(data, axis, lengths):
    if data.value is None:
        return [None] * len(lengths)
    return np.split(np.asarray(data.value), np.cumsum(lengths)[:-1].tolist(), axis=axis)


def split_shape(data, axis, *, num_splits):
    op = "Split-1"
    check(num_splits > 0, op, f"num_splits must be > 0, got {num_splits}")
    _scalar_like(op, "axis", axis, allow_1=False)
    a = ints_of(axis)
    shape = data.shape
    if a is None or not shape.rank_is_static:
        return [PartialShape.dynamic(shape.rank)] * num_splits
    ax = normalize_axis(op, "axis", a[0], len(shape))
    d = shape[ax]
    if d.is_static:
        check(d.lo % num_splits == 0, op, f"data dimension {ax} ({d.lo}) must be a multiple of num_splits "
              f"({num_splits})")
        part = Dimension(d.lo // num_splits, d.lo // num_splits)
    else:
        check(d.hi is None or d.hi >= num_splits, op, f"data dimension {ax} ({d}) can never be split into "
              f"num_splits = {num_splits} parts")
        # OpenVINO scales the bounds by a float32 1/num_splits and truncates
        inv = np.float32(1.0) / np.float32(num_splits)
        part = Dimension(int(np.float32(d.lo) * inv), None if d.hi is None else int(np.float32(d.hi) * inv))
    out = PartialShape(list(shape[:ax]) + [part] + list(shape[ax + 1:]))
    values = _split_values(data, ax, [d.lo // num_splits] * num_splits) if d.is_static else [None] * num_splits
    return [_valued(data, out, v) for v in values]


def variadic_split_shape(data, axis, split_lengths):
    op = "VariadicSplit-1"
    _scalar_like(op, "axis", axis)
    s = split_lengths.shape
    check(s.rank_is_static and len(s) == 1 and s[0].is_static, op, f"split_lengths must be 1-D of known "
          f"length (it gives the number of outputs), got shape {s}")
    n = s[0].lo
    shape = data.shape
    a = ints_of(axis)
    if a is None or not shape.rank_is_static:
        return [PartialShape.dynamic(shape.rank)] * n
    ax = normalize_axis(op, "axis", a[0], len(shape))
    lengths = ints_of(split_lengths)
    d = shape[ax]
    if lengths is None:
        return [PartialShape(list(shape[:ax]) + [Dimension()] + list(shape[ax + 1:]))] * n
    check(all(v >= -1 for v in lengths), op, f"split_lengths {list(lengths)} has a value below -1")
    check(lengths.count(-1) <= 1, op, f"split_lengths {list(lengths)} has more than one -1")
    known = sum(v for v in lengths if v != -1)
    lengths = list(lengths)
    if d.is_static:
        if -1 in lengths:
            check(known <= d.lo, op, f"split_lengths {lengths} sum to {known}, more than data dimension "
                  f"{ax} ({d.lo})")
            lengths[lengths.index(-1)] = d.lo - known
        check(sum(lengths) == d.lo, op, f"split_lengths {lengths} sum to {sum(lengths)}, data dimension {ax} "
              f"is {d.lo}")
    outs = [PartialShape(list(shape[:ax]) + [Dimension() if v == -1 else Dimension(v, v)] + list(shape[ax + 1:]))
            for v in lengths]
    values = _split_values(data, ax, lengths) if -1 not in lengths else [None] * n
    return [_valued(data, o, v) for o, v in zip(outs, values)]


SPLIT_1 = OpSchema(
    "Split", 1, category="movement",
    inputs=(Port("data", "T"), Port("axis", "T_AXIS", const=True)),
    outputs=(Port("output", "T", variadic=True),),
    attributes=(Attr("num_splits", INT, doc="number of equal parts (and outputs)"),),
    type_constraints={"T": ALL, "T_AXIS": T_INT},
    shape=split_shape,
    output_count=lambda inputs, attrs: max(int(attrs["num_splits"]), 0),
    doc="Splits data into num_splits equal parts along axis (one output per part).",
)

VARIADIC_SPLIT_1 = OpSchema(
    "VariadicSplit", 1, category="movement",
    # axis and split_lengths take their integer types independently (i64 axis, i32 lengths from PyTorch's split)
    inputs=(Port("data", "T"), Port("axis", "T_AXIS", const=True), Port("split_lengths", "T_LEN", const=True)),
    outputs=(Port("output", "T", variadic=True),),
    type_constraints={"T": ALL, "T_AXIS": T_INT, "T_LEN": T_INT},
    shape=variadic_split_shape,
    output_count=lambda inputs, attrs: _length_count(inputs[2]) if len(inputs) > 2 else None,
    doc="Splits data along axis into parts of the given lengths; one length may be -1 (the rest).",
)


def _length_count(lengths) -> int | None:
    """How many parts split_lengths names: its value's size, or its static length."""
    if lengths.value is not None:
        return int(np.asarray(lengths.value).size)
    return lengths.shape.to_shape()[0] if lengths.shape.rank == 1 and lengths.shape.is_static else None


# --- Gather-1 / Gather-7 / Gather-8 ------------------------------------------------------------------------
def _gather(op, data, indices, axis, batch_dims, negative):
    _scalar_like(op, "axis", axis)
    ds, is_ = data.shape, indices.shape
    b = batch_dims
    if b < 0 and is_.rank_is_static:
        b += len(is_)
    a = ints_of(axis)
    ax = None
    if a is not None:
        ax = normalize_axis(op, "axis", a[0], len(ds)) if ds.rank_is_static else a[0]
        check(b <= ax or b < 0 or ax < 0, op, f"batch_dims ({batch_dims}) must be <= axis ({a[0]}) after "
              "normalization")
    if is_.rank_is_static and b >= 0:
        check(b <= len(is_), op, f"batch_dims ({batch_dims}) must be <= the rank of indices ({len(is_)})")
    if ds.rank_is_static and is_.rank_is_static:
        check(b <= len(ds), op, f"batch_dims ({batch_dims}) must be <= the rank of data ({len(ds)})")
        rank = len(ds) + len(is_) - 1 - b
        out = [Dimension()] * rank
        for i in range(b):
            m = ds[i].merge(is_[i])
            check(m is not None, op, f"data {ds} and indices {is_} must be equal on the {b} batch dimensions")
            out[i] = m
        if ax is not None:
            out = out[:b] + list(ds[b:ax]) + list(is_[b:]) + list(ds[ax + 1:])
        shape = PartialShape(out)
    else:
        shape = PartialShape.dynamic()
    value = None
    if ax is not None and b == 0 and _known(data, indices) and shape.is_static:
        x, idx = np.asarray(data.value), np.asarray(indices.value).astype(np.int64)
        n = x.shape[ax]
        if negative:
            idx = np.where(idx < 0, idx + n, idx)
        if np.all((idx >= 0) & (idx < n)):
            value = np.take(x, idx, axis=ax)
    return _valued(data, shape, value)


def gather_1_shape(data, indices, axis):
    return _gather("Gather-1", data, indices, axis, 0, False)


def gather_7_shape(data, indices, axis, *, batch_dims):
    return _gather("Gather-7", data, indices, axis, batch_dims, False)


def gather_8_shape(data, indices, axis, *, batch_dims):
    return _gather("Gather-8", data, indices, axis, batch_dims, True)


def _gather_schema(version, shape, attrs, doc):
    return OpSchema(
        "Gather", version, category="movement",
        inputs=(Port("data", "T"), Port("indices", "T_IND"), Port("axis", "T_AXIS", const=True)),
        outputs=(Port("output", "T"),), attributes=attrs,
        type_constraints={"T": ALL, "T_IND": T_INT, "T_AXIS": T_INT}, shape=shape, doc=doc)


_BATCH_DIMS = (Attr("batch_dims", INT, 0, doc="leading dimensions of data and indices that are batches; "
                    "negative counts from the rank of indices"),)
GATHER_1 = _gather_schema(1, gather_1_shape, (), "Takes slices of data along axis at the given indices.")
GATHER_7 = _gather_schema(7, gather_7_shape, _BATCH_DIMS, "Gather with batch_dims: each batch has its own indices.")
GATHER_8 = _gather_schema(8, gather_8_shape, _BATCH_DIMS,   # v8: negative indices; out of range gives 0
                          "Gather with batch_dims and negative indices; out-of-range indices give zeros.")


# --- Tile-1 ------------------------------------------------------------------------------------------------
def tile_shape(data, repeats):
    op = "Tile-1"
    check_1d(op, "repeats", repeats)
    reps = ints_of(repeats)
    shape = data.shape
    if reps is None:
        n = rank_of(repeats)
        if shape.rank_is_static and n is not None:
            return PartialShape.dynamic(max(len(shape), n))
        return PartialShape.dynamic()
    check(all(r >= 0 for r in reps), op, f"repeats must be >= 0, got {list(reps)}")
    if not shape.rank_is_static:
        return PartialShape.dynamic()
    n = max(len(shape), len(reps))
    dims = [Dimension(1, 1)] * (n - len(shape)) + list(shape)
    reps = (1,) * (n - len(reps)) + tuple(reps)
    out = PartialShape([d * r for d, r in zip(dims, reps)])
    small = _known(data) and np.size(data.value) * product(reps) <= VALUE_LIMIT
    return _valued(data, out, np.tile(np.asarray(data.value), reps) if small else None)


TILE_1 = OpSchema(
    "Tile", 1, category="movement",
    inputs=(Port("data", "T"), Port("repeats", "T_REP", const=True)),
    outputs=(Port("output", "T"),),
    type_constraints={"T": ALL, "T_REP": T_INT},
    shape=tile_shape,
    doc="Repeats data repeats[i] times along each axis (the shorter of rank and repeats padded with 1s).",
)


# --- Pad-1 / Pad-12 ----------------------------------------------------------------------------------------
PAD_MODES = ("constant", "edge", "reflect", "symmetric")


def _pad(op, data, pads_begin, pads_end, pad_value, pad_mode, negative):
    if pad_value is not None:
        check(not pad_value.shape.rank_is_static or len(pad_value.shape) == 0, op,
              f"pad_value must be a scalar, got shape {pad_value.shape}")
        # other modes ignore it: OpenVINO's converter writes it for reflect/edge/symmetric too, and OpenVINO reads it
    check_1d(op, "pads_begin", pads_begin)
    check_1d(op, "pads_end", pads_end)
    if data.element_type == "string":
        check(pad_mode == "constant", op, f"string data can only be padded with pad_mode 'constant', got {pad_mode!r}")
    shape = data.shape
    pb, pe = ints_of(pads_begin), ints_of(pads_end)
    for name, v in (("pads_begin", pb), ("pads_end", pe)):
        if v is not None and not negative:
            check(all(p >= 0 for p in v), op, f"{name} must be >= 0 (negative pads need Pad-12), got {list(v)}")
    if not shape.rank_is_static:
        return PartialShape.dynamic()
    r = len(shape)
    for name, info in (("pads_begin", pads_begin), ("pads_end", pads_end)):
        n = rank_of(info)
        check(n is None or n == r, op, f"{name} must have {r} elements (the rank of data), got {n}")
    if pb is None or pe is None:
        return PartialShape.dynamic(r)
    out = []
    for i, (d, b, e) in enumerate(zip(shape, pb, pe)):
        if d.is_static:
            n = d.lo
            if pad_mode == "edge":
                check(n >= 1 or (b <= 0 and e <= 0), op, f"pad_mode 'edge' needs data dimension {i} >= 1 to pad it")
            if pad_mode == "reflect":
                check(b < n and e < n, op, f"pad_mode 'reflect' needs pads_begin[{i}] = {b} and pads_end[{i}] = {e} "
                      f"below data dimension {i} ({n})")
            if pad_mode == "symmetric":
                check(b <= n and e <= n, op, f"pad_mode 'symmetric' needs pads_begin[{i}] = {b} and pads_end[{i}] "
                      f"= {e} at most data dimension {i} ({n})")
        out.append(_plus(d, b + e))
    return PartialShape(out)


def pad_1_shape(data, pads_begin, pads_end, pad_value=None, *, pad_mode):
    return _pad("Pad-1", data, pads_begin, pads_end, pad_value, pad_mode, False)


def pad_12_shape(data, pads_begin, pads_end, pad_value=None, *, pad_mode):
    return _pad("Pad-12", data, pads_begin, pads_end, pad_value, pad_mode, True)


def _pad_schema(version, shape, doc):
    return OpSchema(
        "Pad", version, category="movement",
        inputs=(Port("data", "T"), Port("pads_begin", "T_INT", const=True), Port("pads_end", "T_INT", const=True),
                Port("pad_value", "T", optional=True)),
        outputs=(Port("output", "T"),),
        attributes=(Attr("pad_mode", STRING, "constant", allowed=PAD_MODES,
                         doc="constant: pad_value (or 0); edge: the edge value; reflect: mirror without the "
                             "edge; symmetric: mirror with the edge"),),
        type_constraints={"T": ALL, "T_INT": T_INT}, shape=shape, doc=doc)


PAD_1 = _pad_schema(1, pad_1_shape, "Extends data on its edges by pads_begin/pads_end elements per axis.")
PAD_12 = _pad_schema(12, pad_12_shape, "Pad where negative pads crop the axis instead.")


# --- Broadcast-1 / Broadcast-3 -----------------------------------------------------------------------------
BROADCAST_1_MODES = ("numpy", "explicit", "none", "pdpd")     # OpenVINO writes explicit as "none"
BROADCAST_3_MODES = ("numpy", "explicit", "none", "bidirectional", "pdpd")


def _broadcast(op, data, target_shape, axes_mapping, mode):
    check_1d(op, "target_shape", target_shape)
    explicit = mode in ("explicit", "none")
    if explicit:
        check(axes_mapping is not None, op, "mode 'explicit' needs the axes_mapping input")
        check_1d(op, "axes_mapping", axes_mapping)
    else:   # OpenVINO writes Broadcast-1 with a scalar u8 axes_mapping 0 in every mode (it is ignored)
        check(axes_mapping is None or op == "Broadcast-1", op,
              f"axes_mapping is only for mode 'explicit', got mode {mode!r}")
    target = ints_of(target_shape)
    shape = data.shape
    n = rank_of(target_shape)
    if target is not None:
        check(all(t >= 0 for t in target), op, f"target_shape must be >= 0, got {list(target)}")
    if explicit:
        out = PartialShape(target) if target is not None else PartialShape.dynamic(n)
        amap = ints_of(axes_mapping)
        if shape.rank_is_static and axes_mapping.shape.rank_is_static and axes_mapping.shape.is_static \
                and n is not None:
            m = axes_mapping.shape[0].lo
            expected = 1 if len(shape) == 0 and m > 0 else len(shape)
            check(m == expected, op, f"axes_mapping must have {expected} elements (the rank of data), got {m}")
            if target is not None and amap is not None:
                check(list(amap) == sorted(amap), op, f"axes_mapping {list(amap)} must be sorted (no transposes)")
                for i, t in enumerate(amap):
                    check(0 <= t < len(target), op, f"axes_mapping[{i}] = {t} is out of range for target_shape "
                          f"of {len(target)} elements")
                    if len(shape):
                        check(shape[i].compatible(target[t]) or shape[i].compatible(1), op,
                              f"data dimension {i} ({shape[i]}) cannot be broadcast to target_shape[{t}] = {target[t]}")
                    else:
                        check(target[t] == 1, op, f"scalar data: target_shape[{t}] must be 1, got {target[t]}")
        value = None
        if target is not None and amap is not None and _known(data) and np.ndim(data.value) == len(amap):
            grid = [1] * len(target)
            for i, t in enumerate(amap):
                grid[t] = np.shape(data.value)[i]
            value = np.broadcast_to(np.reshape(data.value, grid), target)
        return _valued(data, out, value)
    if target is None:
        if mode == "bidirectional" and n is not None and shape.rank_is_static:
            return broadcast_shapes(op, PartialShape.dynamic(n), shape, "numpy")
        return PartialShape.dynamic(n)
    if mode == "numpy":
        if shape.rank_is_static:
            check(len(target) >= len(shape), op, f"target_shape {list(target)} has a smaller rank than data {shape}")
            for i, d in enumerate(shape):
                t = target[len(target) - len(shape) + i]
                check(d.compatible(1) or d.compatible(t), op, f"data dimension {i} ({d}) cannot be broadcast to "
                      f"{t} (numpy mode: it must be 1 or {t})")
        out = PartialShape(target)
        value = np.broadcast_to(data.value, target) if _known(data) else None
        return _valued(data, out, value)
    if mode == "bidirectional":
        if not shape.rank_is_static:
            return PartialShape.dynamic()
        out = broadcast_shapes(op, PartialShape(target), shape, "numpy")
        value = np.broadcast_to(data.value, out.to_shape()) if _known(data) and out.is_static else None
        return _valued(data, out, value)
    # pdpd: data aligned at axis 0 of the target; a 1 on either side stretches
    if not shape.rank_is_static:
        return PartialShape.dynamic(len(target))
    check(len(target) == len(shape), op, f"mode 'pdpd' needs target_shape {list(target)} of the rank of data {shape}")
    out = []
    for i, (d, t) in enumerate(zip(shape, target)):
        if d == 1:
            out.append(Dimension(t, t))
        elif t == 1:
            out.append(d)
        else:
            m = d.merge(t)
            check(m is not None, op, f"data dimension {i} ({d}) cannot be broadcast to {t} (pdpd: 1 or {t})")
            out.append(m)
    out = PartialShape(out)
    value = np.broadcast_to(data.value, out.to_shape()) if _known(data) and out.is_static else None
    return _valued(data, out, value)


def broadcast_1_shape(data, target_shape, axes_mapping=None, *, mode):
    return _broadcast("Broadcast-1", data, target_shape, axes_mapping, mode)


def broadcast_3_shape(data, target_shape, axes_mapping=None, *, mode):
    return _broadcast("Broadcast-3", data, target_shape, axes_mapping, mode)


def _broadcast_schema(version, shape, modes, doc):
    return OpSchema(
        "Broadcast", version, category="movement",
        inputs=(Port("data", "T"), Port("target_shape", "T_SHAPE", const=True),
                Port("axes_mapping", "T_AXES", optional=True, const=True)),
        outputs=(Port("output", "T"),),
        attributes=(Attr("mode", STRING, "numpy", allowed=modes,
                         doc="numpy: right-aligned, data dims 1 stretch; explicit (written 'none'): data axis i "
                             "goes to target axis axes_mapping[i]; bidirectional: numpy both ways; pdpd: "
                             "aligned at axis 0, a 1 on either side stretches"),),
        type_constraints={"T": ALL, "T_SHAPE": T_INT, "T_AXES": T_INT}, shape=shape, doc=doc)


BROADCAST_1 = _broadcast_schema(1, broadcast_1_shape, BROADCAST_1_MODES,
                                "Replicates data to target_shape (numpy, explicit or pdpd rules).")
BROADCAST_3 = _broadcast_schema(3, broadcast_3_shape, BROADCAST_3_MODES,
                                "Broadcast-1 plus mode 'bidirectional' (the output may be larger than target_shape).")


# --- StridedSlice-1 ----------------------------------------------------------------------------------------
def _mask(m, n):
    return [bool(m[i]) if i < len(m) else False for i in range(n)]


def clamped_slice(n: int, start: int | None, stop: int | None, step: int) -> slice:
    """data[start:stop:step] along an axis of length n, as OpenVINO clamps it: like Python, except
    that a backward slice starting before the first element starts at the first element (Python
    gives nothing)."""
    if step < 0 and start is not None and start < -n:
        start = 0 if n else None
    return slice(start, stop, step)


def strided_slice_index(shape, begin, end, stride, *, begin_mask, end_mask, new_axis_mask, shrink_axis_mask,
                        ellipsis_mask):
    """The NumPy index (slices, None for new axes, ints for shrunk axes, Ellipsis) that a StridedSlice
    applies to data of the given shape; begin/end/stride are int tuples of one length."""
    n = len(begin)
    bm, em, nm, sm, el = (_mask(m, n) for m in (begin_mask, end_mask, new_axis_mask, shrink_axis_mask,
                                                 ellipsis_mask))
    index, k = [], 0
    for i in range(n):
        if el[i]:
            index.append(Ellipsis)
            k = len(shape) - sum(1 for j in range(i + 1, n) if not nm[j])
        elif nm[i]:
            index.append(None)
        elif sm[i]:
            index.append(begin[i])
            k += 1
        else:
            index.append(clamped_slice(shape[k], None if bm[i] else begin[i], None if em[i] else end[i], stride[i]))
            k += 1
    return tuple(index)


def strided_slice_shape(data, begin, end, stride=None, *, begin_mask, end_mask, new_axis_mask, shrink_axis_mask,
                        ellipsis_mask):
    op = "StridedSlice-1"
    for name, info in (("begin", begin), ("end", end), ("stride", stride)):
        if info is not None:
            check_1d(op, name, info)
    # without a stride input, OpenVINO makes default strides of begin's (or else end's) length: one of them must
    # be of known rank (OpenVINO rejects begin and end both of dynamic rank, and takes end [2] with begin [...])
    check(stride is not None or begin.shape.rank_is_static or end.shape.rank_is_static, op, "input 'begin' or "
          f"'end' must be 1-D when there is no stride input (the default strides take its length), got shapes "
          f"{begin.shape} and {end.shape}")
    check(sum(1 for v in ellipsis_mask if v) <= 1, op, f"ellipsis_mask {list(ellipsis_mask)} sets more than one axis")
    shape = data.shape
    if not shape.rank_is_static:
        return PartialShape.dynamic()
    rank = len(shape)
    b, e = slice_bounds(begin), slice_bounds(end)
    s = ints_of(stride) if stride is not None else (None if b is None else (1,) * len(b))
    lens = [None if i is None or not i.shape.rank_is_static or not i.shape[0].is_static else i.shape[0].lo
            for i in (begin, end)]
    if None not in lens:
        check(lens[0] == lens[1], op, f"begin and end must have the same length, got {lens[0]} and {lens[1]}")
    number = lens[0] if lens[0] is not None else lens[1]
    if s is not None:
        check(number is None or number == len(s), op, f"stride must have as many elements as begin and end "
              f"({number}), got {len(s)}")
        number = len(s)
    if number is None:
        return PartialShape.dynamic()
    if s is not None:
        check(all(v != 0 for v in s), op, f"stride must be non-zero, got {list(s)}")
    nm, sm, el = (_mask(m, number) for m in (new_axis_mask, shrink_axis_mask, ellipsis_mask))
    bm, em = _mask(begin_mask, number), _mask(end_mask, number)
    if not any(el):
        check(rank + sum(nm) >= number, op, f"begin/end have {number} elements, more than the rank of data "
              f"({rank}) plus new axes ({sum(nm)})")
    out, k = [], 0
    for i in range(number):
        if el[i]:
            before = sum(1 for j in range(i) if not nm[j])
            new_after = sum(1 for j in range(i + 1, number) if nm[j]) if b is not None else 0
            hidden = rank - (number - i - new_after - 1) - before
            for _ in range(hidden):
                out.append(shape[k])
                k += 1
        elif nm[i]:
            out.append(Dimension(1, 1))
        elif sm[i]:
            if k < rank and shape[k].is_static and b is not None:
                n = shape[k].lo
                check(-n <= b[i] < n, op, f"shrink_axis_mask: begin[{i}] = {b[i]} is out of range for data "
                      f"dimension {k} ({n})")
            k += 1
        else:
            check(k < rank, op, f"begin/end address more axes than data {shape} has")
            d = shape[k]
            if (b is not None or bm[i]) and (e is not None or em[i]) and s is not None:
                top = INT64_MAX if d.hi is None else d.hi
                step = s[i]
                start = (top if step < 0 else 0) if bm[i] else b[i]
                stop = (-1 - top if step < 0 else top) if em[i] else e[i]
                out.append(sliced_dim(d, start, stop, step))
            elif s is not None:     # known stride: at most every |stride|-th element
                out.append(Dimension(0, None if d.hi is None else -(-d.hi // abs(s[i]))))
            else:
                out.append(Dimension(0, d.hi))
            k += 1
    out += list(shape[k:])
    result = PartialShape(out)
    value = None
    if _known(data) and b is not None and e is not None and s is not None:
        value = np.asarray(data.value)[strided_slice_index(
            np.shape(data.value), b, e, s, begin_mask=begin_mask, end_mask=end_mask, new_axis_mask=new_axis_mask,
            shrink_axis_mask=shrink_axis_mask, ellipsis_mask=ellipsis_mask)]
    return _valued(data, result, value)


STRIDED_SLICE_1 = OpSchema(
    "StridedSlice", 1, category="movement",
    inputs=(Port("data", "T"), Port("begin", "T_IND", const=True), Port("end", "T_IND", const=True),
            Port("stride", "T_IND", optional=True, const=True)),
    outputs=(Port("output", "T"),),
    attributes=(Attr("begin_mask", INTS, doc="1 at i: begin[i] is ignored (the axis starts at its beginning)"),
                Attr("end_mask", INTS, doc="1 at i: end[i] is ignored (the axis runs to its end)"),
                Attr("new_axis_mask", INTS, (), doc="1 at i: a new axis of length 1 is inserted"),
                Attr("shrink_axis_mask", INTS, (), doc="1 at i: the axis is indexed by begin[i] and removed"),
                Attr("ellipsis_mask", INTS, (), doc="1 at i (at most one): all remaining axes are kept here")),
    type_constraints={"T": ALL, "T_IND": T_INT},
    shape=strided_slice_shape,
    doc="Python-style data[begin:end:stride] with masks for begins, ends, new axes, shrunk axes and an ellipsis.",
)


# --- Slice-8 -----------------------------------------------------------------------------------------------
def slice_index(shape, start, stop, step, axes):
    index = [slice(None)] * len(shape)
    for b, e, s, a in zip(start, stop, step, axes):
        index[a] = clamped_slice(shape[a], b, e, s)
    return tuple(index)


def _slice(op, data, start, stop, step, axes):
    """Slice-8's output shape, the axes whose sliced interval is empty (OpenVINO prints them as ?, but
    they match no length), and the output value when it is known."""
    infos = [("start", start), ("stop", stop), ("step", step)] + ([("axes", axes)] if axes is not None else [])
    shape = data.shape
    for name, info in infos:
        check_1d(op, name, info)
        if shape.rank_is_static and info.shape.rank_is_static:
            check(info.shape[0].lo <= len(shape), op, f"{name} has {info.shape[0]} elements, more than the rank "
                  f"of data ({len(shape)})")
    for (n1, i1), (n2, i2) in itertools.combinations(infos, 2):
        check(i1.shape.compatible(i2.shape), op, f"{n1} {i1.shape} and {n2} {i2.shape} must have the same length")
    if not shape.rank_is_static:
        return PartialShape.dynamic(), set(), None
    rank = len(shape)
    b, e, s = slice_bounds(start), slice_bounds(stop), ints_of(step)
    if axes is not None:
        ax = ints_of(axes)
        if ax is not None:
            ax = [normalize_axis(op, "axes value", a, rank) for a in ax]
            check(len(set(ax)) == len(ax), op, f"axes values must be unique, got {list(ints_of(axes))}")
    else:   # default axes 0, 1, ...: as many as start/stop/step have elements, when that is known
        n = len(b) if b is not None else rank_of(start, stop, step)
        ax = None if n is None else list(range(n))
    if ax is None:
        return PartialShape([Dimension(0, d.hi) for d in shape]), set(), None
    if s is not None:
        check(all(v != 0 for v in s), op, f"step must be non-zero, got {list(s)}")
    out, empty = list(shape), set()
    for i, a in enumerate(ax):
        if b is not None and e is not None and s is not None:
            d = shape[a]
            lo, hi = sliced_length(d.lo, b[i], e[i], s[i]), sliced_length(d.hi, b[i], e[i], s[i])
            if hi is not None and hi != INT64_MAX and hi < (lo or 0):
                empty.add(a)
            out[a] = sliced_dim(d, b[i], e[i], s[i])
        else:
            out[a] = Dimension(0, shape[a].hi)
    value = None
    if _known(data) and b is not None and e is not None and s is not None:
        value = np.asarray(data.value)[slice_index(np.shape(data.value), b, e, s, ax)]
    return PartialShape(out), empty, value


def slice_shape(data, start, stop, step, axes=None):
    out, _, value = _slice("Slice-8", data, start, stop, step, axes)
    return _valued(data, out, value)


SLICE_8 = OpSchema(
    "Slice", 8, category="movement",
    inputs=(Port("data", "T"), Port("start", "T_IND", const=True), Port("stop", "T_IND", const=True),
            Port("step", "T_IND", const=True), Port("axes", "T_AXIS", optional=True, const=True)),
    outputs=(Port("output", "T"),),
    type_constraints={"T": ALL, "T_IND": T_INT, "T_AXIS": T_INT},
    shape=slice_shape,
    doc="Python-style data[start:stop:step] on the given axes (default 0, 1, ...); out-of-range bounds clamp.",
)



# --- GatherElements-6 --------------------------------------------------------------------------------------
def gather_elements_shape(data, indices, *, axis):
    op = "GatherElements-6"
    ds, is_ = data.shape, indices.shape
    if ds.rank_is_static:
        check(len(ds) >= 1, op, f"data must have rank >= 1, got {ds}")
        ax = normalize_axis(op, "axis", axis, len(ds))
    check(not is_.rank_is_static or len(is_) >= 1, op, f"indices must have rank >= 1, got {is_}")
    if not ds.rank_is_static:
        return PartialShape.dynamic() if not is_.rank_is_static else is_
    if not is_.rank_is_static:
        return PartialShape([Dimension() if i == ax else d for i, d in enumerate(ds)])
    check(len(ds) == len(is_), op, f"data {ds} and indices {is_} must have the same rank")
    out = []
    for i, (d, k) in enumerate(zip(ds, is_)):
        m = k if i == ax else d.merge(k)
        check(m is not None, op, f"data {ds} and indices {is_} must be equal except on axis {axis} (dimension {i})")
        out.append(m)
    return PartialShape(out)


GATHER_ELEMENTS_6 = OpSchema(
    "GatherElements", 6, category="movement",
    inputs=(Port("data", "T"), Port("indices", "T_IND")),
    outputs=(Port("output", "T"),),
    attributes=(Attr("axis", INT, doc="the axis indices address; negative counts from the end"),),
    type_constraints={"T": ALL, "T_IND": IDX},
    shape=gather_elements_shape,
    doc="output[i, j, k] = data[i, indices[i, j, k], k] (for axis 1): one element per index.",
)


# --- GatherND-5 / GatherND-8 -------------------------------------------------------------------------------
def _gather_nd(op, data, indices, batch_dims, fuse):
    ds, is_ = data.shape, indices.shape
    b = batch_dims
    check(b >= 0, op, f"batch_dims must be >= 0, got {b}")
    if ds.rank_is_static:
        check(len(ds) > 0, op, "data rank must be at least 1")
        check(len(ds) > b, op, f"batch_dims ({b}) must be below the rank of data ({len(ds)})")
    if is_.rank_is_static:
        check(len(is_) > 0, op, "indices rank must be at least 1")
        check(len(is_) > b, op, f"batch_dims ({b}) must be below the rank of indices ({len(is_)})")
    if not (ds.rank_is_static and is_.rank_is_static and is_[len(is_) - 1].is_static):
        return PartialShape.dynamic()
    k = is_[len(is_) - 1].lo
    check(k + b <= len(ds), op, f"index tuples of length {k} address more than the {len(ds) - b} non-batch axes of "
          f"data {ds}")
    batch = []
    for i in range(b):
        m = ds[i].merge(is_[i])
        check(m is not None, op, f"batch dimensions of data {ds} and indices {is_} must be the same")
        batch.append(m)
    rest = list(is_[b:len(is_) - 1]) + list(ds[b + k:])
    if fuse and b > 1:
        prod = Dimension(1, 1)
        for d in batch:
            prod = prod * d
        batch = [prod]
    return PartialShape(batch + rest)


def gather_nd_5_shape(data, indices, *, batch_dims):
    return _gather_nd("GatherND-5", data, indices, batch_dims, True)


def gather_nd_8_shape(data, indices, *, batch_dims):
    return _gather_nd("GatherND-8", data, indices, batch_dims, False)


def _gather_nd_schema(version, shape, doc):
    return OpSchema(
        "GatherND", version, category="movement",
        inputs=(Port("data", "T"), Port("indices", "T_IND")),
        outputs=(Port("output", "T"),),
        attributes=(Attr("batch_dims", INT, 0, doc="leading dimensions of data and indices that are batches"),),
        type_constraints={"T": ALL, "T_IND": IDX}, shape=shape, doc=doc)


GATHER_ND_5 = _gather_nd_schema(5, gather_nd_5_shape, "Gathers slices of data at index tuples (the last axis of "
                                "indices); batch dimensions are fused into one output dimension.")
GATHER_ND_8 = _gather_nd_schema(8, gather_nd_8_shape, "GatherND whose output keeps the batch dimensions apart.")


# --- ScatterUpdate-3 / ScatterNDUpdate-3 / ScatterNDUpdate-15 -----------------------------------------------
def _check_updates(op, expected, updates):
    """updates must have the expected (partial) shape, given as a list of dims (None: unknown rank)."""
    us = updates.shape
    if expected is None or not us.rank_is_static:
        return
    check(len(us) == len(expected), op, f"updates must have rank {len(expected)} ({PartialShape(expected)}), "
          f"got {us}")
    for i, (u, e) in enumerate(zip(us, expected)):
        check(u.compatible(e), op, f"updates dimension {i} is {u}, expected {e} (updates shape {PartialShape(expected)})")


def scatter_update_shape(data, indices, updates, axis):
    op = "ScatterUpdate-3"
    _scalar_like(op, "axis", axis)
    ds, is_ = data.shape, indices.shape
    a = ints_of(axis)
    if ds.rank_is_static and a is not None:
        ax = normalize_axis(op, "axis", a[0], len(ds))
        if is_.rank_is_static:
            _check_updates(op, list(ds[:ax]) + list(is_) + list(ds[ax + 1:]), updates)
    elif ds.rank_is_static and is_.rank_is_static and updates.shape.rank_is_static:
        check(len(updates.shape) == len(ds) + len(is_) - 1, op, f"updates must have rank {len(ds) + len(is_) - 1} "
              f"(data rank + indices rank - 1), got {updates.shape}")
    value = None
    if a is not None and _known(data, indices, updates):
        x = np.array(data.value)
        ax = a[0] + x.ndim if a[0] < 0 else a[0]
        idx = np.asarray(indices.value).astype(np.int64).reshape(-1)
        u = np.asarray(updates.value).reshape(x.shape[:ax] + (idx.size,) + x.shape[ax + 1:])
        np.moveaxis(x, ax, 0)[np.where(idx < 0, idx + x.shape[ax], idx)] = np.moveaxis(u, ax, 0)
        value = x
    return _valued(data, ds, value)


SCATTER_UPDATE_3 = OpSchema(
    "ScatterUpdate", 3, category="movement",
    inputs=(Port("data", "T"), Port("indices", "T_IND"), Port("updates", "T"), Port("axis", "T_AXIS", const=True)),
    outputs=(Port("output", "T"),),
    type_constraints={"T": ALL, "T_IND": T_INT, "T_AXIS": T_INT},
    shape=scatter_update_shape,
    doc="A copy of data whose slices along axis at indices are replaced by updates.",
)

SCATTER_REDUCTIONS = ("none", "sum", "sub", "prod", "min", "max")
NOT_REDUCIBLE = ("string", "u1", "nf4", "u4", "i4")


def _scatter_nd(op, data, indices, updates, reduction):
    ds, is_ = data.shape, indices.shape
    if reduction != "none":
        check(data.element_type not in NOT_REDUCIBLE, op, f"reduction {reduction!r} needs numeric data of at least "
              f"a byte, got {data.element_type}")
    if ds.rank_is_static:
        check(len(ds) >= 1, op, f"data must have rank >= 1, got {ds}")
    if is_.rank_is_static:
        check(len(is_) >= 1, op, f"indices must have rank >= 1, got {is_}")
    if ds.rank_is_static and is_.rank_is_static and is_[len(is_) - 1].is_static:
        k = is_[len(is_) - 1].lo
        check(k <= len(ds), op, f"index tuples of length {k} address more than the {len(ds)} axes of data {ds}")
        _check_updates(op, list(is_[:len(is_) - 1]) + list(ds[k:]), updates)
    value = None
    if reduction == "none" and _known(data, indices, updates):
        x = np.array(data.value)
        k = np.shape(indices.value)[-1]
        idx = np.asarray(indices.value).astype(np.int64).reshape(-1, k)
        idx = np.where(idx < 0, idx + np.array(x.shape[:k], np.int64), idx)
        x[tuple(idx.T)] = np.asarray(updates.value).reshape((-1,) + x.shape[k:])
        value = x
    return _valued(data, ds, value)


def scatter_nd_update_3_shape(data, indices, updates):
    return _scatter_nd("ScatterNDUpdate-3", data, indices, updates, "none")


def scatter_nd_update_15_shape(data, indices, updates, *, reduction):
    return _scatter_nd("ScatterNDUpdate-15", data, indices, updates, reduction)


def _scatter_nd_schema(version, shape, attrs, doc):
    return OpSchema(
        "ScatterNDUpdate", version, category="movement",
        inputs=(Port("data", "T"), Port("indices", "T_IND"), Port("updates", "T")),
        outputs=(Port("output", "T"),), attributes=attrs,
        type_constraints={"T": ALL, "T_IND": IDX}, shape=shape, doc=doc)


SCATTER_ND_UPDATE_3 = _scatter_nd_schema(3, scatter_nd_update_3_shape, (),
                                         "A copy of data with the elements or slices at index tuples replaced.")
SCATTER_ND_UPDATE_15 = _scatter_nd_schema(
    15, scatter_nd_update_15_shape,
    (Attr("reduction", STRING, "none", allowed=SCATTER_REDUCTIONS,
          doc="how an update combines with the value it lands on (boolean: sum is or, sub xor, prod and)"),),
    "ScatterNDUpdate whose updates may combine with the data (sum, sub, prod, min, max).")


# --- ScatterElementsUpdate-3 / ScatterElementsUpdate-12 ------------------------------------------------------
ELEMENTS_REDUCTIONS = ("none", "sum", "prod", "min", "max", "mean")


def _scatter_elements(op, data, indices, updates, axis, reduction):
    _scalar_like(op, "axis", axis)
    if reduction != "none":
        check(data.element_type not in NOT_REDUCIBLE, op, f"reduction {reduction!r} needs numeric data of at least "
              f"a byte, got {data.element_type}")
    check(not (reduction == "mean" and data.element_type == "boolean"), op, "reduction 'mean' has no boolean version")
    ds, is_, us = data.shape, indices.shape, updates.shape
    if ds.rank_is_static and is_.rank_is_static:
        check(len(ds) == len(is_), op, f"indices {is_} must have the rank of data {ds}")
    check(is_.compatible(us), op, f"updates {us} must have the shape of indices {is_}")
    a = ints_of(axis)
    if a is not None and ds.rank_is_static:
        normalize_axis(op, "axis", a[0], len(ds))
    return ds


def scatter_elements_update_3_shape(data, indices, updates, axis):
    return _scatter_elements("ScatterElementsUpdate-3", data, indices, updates, axis, "none")


def scatter_elements_update_12_shape(data, indices, updates, axis, *, reduction, use_init_val):
    return _scatter_elements("ScatterElementsUpdate-12", data, indices, updates, axis, reduction)


def _scatter_elements_schema(version, shape, attrs, doc):
    return OpSchema(
        "ScatterElementsUpdate", version, category="movement",
        inputs=(Port("data", "T"), Port("indices", "T_IND"), Port("updates", "T"),
                Port("axis", "T_AXIS", const=True)),
        outputs=(Port("output", "T"),), attributes=attrs,
        type_constraints={"T": ALL, "T_IND": T_INT, "T_AXIS": T_INT}, shape=shape, doc=doc)


SCATTER_ELEMENTS_UPDATE_3 = _scatter_elements_schema(
    3, scatter_elements_update_3_shape, (),
    "A copy of data where data[..., indices[i, j, k], ...] (indices on axis) = updates[i, j, k].")
SCATTER_ELEMENTS_UPDATE_12 = _scatter_elements_schema(
    12, scatter_elements_update_12_shape,
    (Attr("reduction", STRING, "none", allowed=ELEMENTS_REDUCTIONS,
          doc="how updates combine with what they land on; mean of integers rounds down"),
     Attr("use_init_val", BOOL, True, doc="whether the data values take part in the reduction")),
    "ScatterElementsUpdate whose updates may combine (sum, prod, min, max, mean), with or without the data.")


# --- Roll-7 / Reverse-1 / ShuffleChannels-1 / ReverseSequence-1 -------------------------------------------------
def roll_shape(data, shift, axes):
    op = "Roll-7"
    for name, info in (("shift", shift), ("axes", axes)):
        check(not info.shape.rank_is_static or len(info.shape) <= 1, op,
              f"input {name!r} must be a scalar or 1-D, got shape {info.shape}")
    ss, as_ = shift.shape, axes.shape
    if ss.rank_is_static and len(ss) == 1 and as_.rank_is_static and len(as_) == 1:
        check(ss[0].compatible(as_[0]), op, f"shift {ss} and axes {as_} must have the same number of elements")
    a = ints_of(axes)
    if a is not None and data.shape.rank_is_static:
        for v in a:
            normalize_axis(op, "axes value", v, len(data.shape))
    return data.shape


ROLL_7 = OpSchema(
    "Roll", 7, category="movement",
    inputs=(Port("data", "T"), Port("shift", "T_SHIFT"), Port("axes", "T_AXES", const=True)),
    outputs=(Port("output", "T"),),
    type_constraints={"T": ALL, "T_SHIFT": IDX, "T_AXES": IDX},
    shape=roll_shape,
    doc="Rolls data along axes by shift elements (a scalar shift applies to every axis; repeated axes add up).",
)


def reverse_shape(data, reverse_axes, *, mode):
    op = "Reverse-1"
    check_1d(op, "reverse_axes", reverse_axes)
    if mode == "mask":
        check(reverse_axes.element_type == "boolean", op, f"mode 'mask' needs a boolean reverse_axes, got "
              f"{reverse_axes.element_type}")
    else:
        check(reverse_axes.element_type in T_INT, op, f"mode 'index' needs integer reverse_axes, got "
              f"{reverse_axes.element_type}")
    shape = data.shape
    if shape.rank_is_static:
        n = rank_of(reverse_axes)
        if mode == "mask":
            check(n is None or n == len(shape), op, f"mode 'mask' needs {len(shape)} mask values (the rank of "
                  f"data), got {n}")
        else:
            a = ints_of(reverse_axes)
            if a is not None:
                check(all(0 <= v < len(shape) for v in a), op, f"reverse_axes {list(a)} must be in [0, "
                      f"{len(shape) - 1}] for data {shape}")
    return shape


REVERSE_1 = OpSchema(
    "Reverse", 1, category="movement",
    inputs=(Port("data", "T"), Port("reverse_axes", "T_AXES", const=True)),
    outputs=(Port("output", "T"),),
    attributes=(Attr("mode", STRING, allowed=("index", "mask"),
                     doc="index: reverse_axes lists axes; mask: a boolean per axis"),),
    type_constraints={"T": ALL, "T_AXES": T_INT + ("boolean",)},
    shape=reverse_shape,
    doc="Reverses data along the given axes.",
)


def shuffle_channels_shape(data, *, axis, group):
    op = "ShuffleChannels-1"
    check(group >= 1, op, f"group must be >= 1, got {group}")
    shape = data.shape
    if not shape.rank_is_static:
        return shape
    check(len(shape) >= 1, op, f"data must have rank >= 1, got {shape}")
    ax = normalize_axis(op, "axis", axis, len(shape))
    d = shape[ax]
    check(not d.is_static or d.lo % group == 0, op, f"data dimension {ax} ({d}) must be a multiple of group ({group})")
    return shape


SHUFFLE_CHANNELS_1 = OpSchema(
    "ShuffleChannels", 1, category="movement",
    inputs=(Port("data", "T"),), outputs=(Port("output", "T"),),
    attributes=(Attr("axis", INT, 1, doc="the channel axis; negative counts from the end"),
                Attr("group", INT, 1, doc="number of groups the channels are split into")),
    type_constraints={"T": ALL},
    shape=shuffle_channels_shape,
    doc="Splits the channels into group groups and interleaves them: [group, C/group] -> [C/group, group].",
)


def reverse_sequence_shape(data, seq_lengths, *, batch_axis, seq_axis):
    op = "ReverseSequence-1"
    check_1d(op, "seq_lengths", seq_lengths)
    shape = data.shape
    if not shape.rank_is_static:     # (OpenVINO cannot place a negative seq_axis without the rank)
        check(seq_axis >= 0, op, f"a negative seq_axis ({seq_axis}) needs data of known rank, got {shape}")
        return shape
    check(len(shape) >= 2, op, f"data must have rank >= 2, got {shape}")
    b = normalize_axis(op, "batch_axis", batch_axis, len(shape))
    normalize_axis(op, "seq_axis", seq_axis, len(shape))
    out = list(shape)
    if seq_lengths.shape.rank_is_static:
        m = shape[b].merge(seq_lengths.shape[0])
        check(m is not None, op, f"seq_lengths has {seq_lengths.shape[0]} elements, data dimension {b} (batch_axis) "
              f"is {shape[b]}")
        out[b] = m
    return PartialShape(out)


REVERSE_SEQUENCE_1 = OpSchema(
    "ReverseSequence", 1, category="movement",
    inputs=(Port("data", "T"), Port("seq_lengths", "T_IND")),
    outputs=(Port("output", "T"),),
    attributes=(Attr("batch_axis", INT, 0, doc="the axis seq_lengths runs along"),
                Attr("seq_axis", INT, 1, doc="the axis whose first seq_lengths[b] elements are reversed")),
    type_constraints={"T": ALL, "T_IND": T_INT},
    shape=reverse_sequence_shape,
    doc="Reverses the first seq_lengths[b] elements along seq_axis, for every batch b.",
)


# --- SliceScatter-15 -----------------------------------------------------------------------------------------
def slice_scatter_shape(data, updates, start, stop, step, axes=None):
    op = "SliceScatter-15"
    shape = data.shape
    if not shape.rank_is_static and updates.shape.rank_is_static:   # (OpenVINO takes the rank from updates)
        shape = PartialShape.dynamic(len(updates.shape))
    sliced, empty, _ = _slice(op, TensorInfo(data.element_type, shape), start, stop, step, axes)
    empty = empty if updates.shape.rank_is_static else set()
    check(not empty and sliced.compatible(updates.shape), op, f"updates {updates.shape} must have the shape of the "
          f"slice {sliced}{' (empty on axes ' + str(sorted(empty)) + ')' if empty else ''}")
    return shape


SLICE_SCATTER_15 = OpSchema(
    "SliceScatter", 15, category="movement",
    inputs=(Port("data", "T"), Port("updates", "T"), Port("start", "T_IND", const=True),
            Port("stop", "T_IND", const=True), Port("step", "T_IND", const=True),
            Port("axes", "T_AXIS", optional=True, const=True)),
    outputs=(Port("output", "T"),),
    type_constraints={"T": ALL, "T_IND": T_INT, "T_AXIS": T_INT},
    shape=slice_scatter_shape,
    doc="A copy of data whose slice data[start:stop:step] (as Slice-8 selects it) is replaced by updates.",
)


# --- Unique-10 -----------------------------------------------------------------------------------------------
def unique_values(x, axis, is_sorted):
    """NumPy's unique (first indices, inverse, counts), reordered by first occurrence when not sorted."""
    u, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True, return_counts=True, axis=axis)
    inverse = inverse.reshape(-1)
    if not is_sorted:
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        u = np.take(u, order, axis=0 if axis is None else axis)
        first, counts, inverse = first[order], counts[order], rank[inverse]
    return u, first, inverse, counts


def unique_shape(data, axis=None, *, sorted, index_element_type, count_element_type):
    op = "Unique-10"
    for name, t in (("index_element_type", index_element_type), ("count_element_type", count_element_type)):
        check(t in IDX, op, f"{name} must be i32 or i64, got {t}")
    shape = data.shape
    size = product(shape.to_shape()) if shape.is_static else 0
    # (as OpenVINO bounds them: by the element count, known only for a static non-empty shape)
    count = Dimension(1, size) if size else Dimension()
    a = None
    if axis is None:
        out, rev = PartialShape([count]), Dimension(size, size) if size else Dimension()
    else:
        _scalar_like(op, "axis", axis)
        v = ints_of(axis)
        check(v is not None, op, "the axis input must be a constant (its value must be known)")
        out, rev = PartialShape.dynamic(), Dimension()
        if v is not None and shape.rank_is_static:
            a = normalize_axis(op, "axis", v[0], len(shape))
            d = shape[a]
            # (as OpenVINO bounds it: 1..hi; unbounded: from min(lo, 1); a static 0 stays 0)
            u = Dimension(min(d.lo, 1), None) if d.hi is None else d if d == 0 else Dimension(1, d.hi)
            out = PartialShape([u if k == a else x for k, x in enumerate(shape)])
            rev = d
            if d == 0:
                count = Dimension(0, 0)
        elif shape.rank_is_static:
            out = PartialShape.dynamic(len(shape))
    infos = [TensorInfo(data.element_type, out), TensorInfo(index_element_type, PartialShape([count])),
             TensorInfo(index_element_type, PartialShape([rev])), TensorInfo(count_element_type, PartialShape([count]))]
    if _known(data) and (axis is None or a is not None) and 0 < np.size(data.value) <= VALUE_LIMIT:
        vals = unique_values(np.asarray(data.value), a, sorted)
        types = (data.element_type, index_element_type, index_element_type, count_element_type)
        infos = [TensorInfo(t, v.shape, v.astype(element_type(t).dtype)) for v, t in zip(vals, types)]
    return infos


UNIQUE_10 = OpSchema(
    "Unique", 10, category="movement",
    inputs=(Port("data", "T"), Port("axis", "T_AXIS", optional=True, const=True)),
    outputs=(Port("unique_elements", "T"), Port("indices", "T_IDX"), Port("reverse_indices", "T_IDX"),
             Port("counts", "T_CNT")),
    attributes=(Attr("sorted", BOOL, True, doc="unique elements in ascending order (else in order of appearance)"),
                Attr("index_element_type", ELEMENT_TYPE, "i64", doc="element type of indices and reverse_indices"),
                Attr("count_element_type", ELEMENT_TYPE, "i64", doc="element type of counts")),
    type_constraints={"T": NUMERIC, "T_AXIS": IDX, "T_IDX": IDX, "T_CNT": IDX},
    shape=unique_shape,
    doc="The unique elements (or slices along axis) of data, with first indices, reverse indices and counts.",
)


# --- ExtractImagePatches-3 -------------------------------------------------------------------------------------
def patch_grid(size: int, k: int, stride: int, rate: int, auto_pad: str) -> tuple[int, int]:
    """(number of patches, zero padding before) along one spatial axis of the given length."""
    eff = rate * (k - 1) + 1
    if auto_pad == "valid":
        return max((size - eff) // stride + 1, 0), 0
    out = -(-size // stride)
    total = max((out - 1) * stride + eff - size, 0)
    return out, total // 2 if auto_pad == "same_upper" else total - total // 2


def extract_image_patches_shape(data, *, sizes, strides, rates, auto_pad):
    op = "ExtractImagePatches-3"
    for name, v in (("sizes", sizes), ("strides", strides), ("rates", rates)):
        check(len(v) == 2, op, f"attribute {name!r} must have 2 elements ([rows, cols]), got {list(v)}")
    check(all(v > 0 for v in strides), op, f"strides must be > 0, got {list(strides)}")
    check(all(v > 0 for v in rates), op, f"rates must be > 0, got {list(rates)}")
    check(all(v >= 0 for v in sizes), op, f"sizes must be >= 0, got {list(sizes)}")
    shape = data.shape
    check(not shape.rank_is_static or len(shape) == 4, op, f"data must be 4-D [N, C, rows, cols], got {shape}")
    if not shape.rank_is_static:
        return PartialShape.dynamic(4)
    n, c, h, w = shape
    spatial = [Dimension(patch_grid(d.lo, k, st, r, auto_pad)[0],
                         None if d.hi is None else patch_grid(d.hi, k, st, r, auto_pad)[0])
               for d, k, st, r in zip((h, w), sizes, strides, rates)]
    return PartialShape([n, c * (sizes[0] * sizes[1])] + spatial)


EXTRACT_IMAGE_PATCHES_3 = OpSchema(
    "ExtractImagePatches", 3, category="movement",
    inputs=(Port("data", "T"),), outputs=(Port("output", "T"),),
    attributes=(Attr("sizes", INTS, doc="patch size [rows, cols]"),
                Attr("strides", INTS, doc="distance between patch origins [rows, cols]"),
                Attr("rates", INTS, doc="distance between the samples of a patch [rows, cols] (dilation)"),
                Attr("auto_pad", STRING, allowed=("valid", "same_upper", "same_lower"),
                     doc="valid: whole patches only; same_*: zero padding to ceil(size / stride) patches, the odd "
                         "pixel at the end (upper) or beginning (lower)")),
    type_constraints={"T": ALL},
    shape=extract_image_patches_shape,
    doc="[N, C, H, W] -> [N, rows*cols*C, out_h, out_w]: each output pixel holds one patch, depth ordered "
        "[patch row, patch col, channel].",
)


# --- GatherTree-1 ---------------------------------------------------------------------------------------------
def gather_tree_shape(step_ids, parent_ids, max_seq_len, end_token):
    op = "GatherTree-1"
    a, b = step_ids.shape, parent_ids.shape
    if not a.rank_is_static:
        a, b = b, a
    if a.rank_is_static:
        ok = not b.rank_is_static or len(a) == len(b) and all(x.compatible(y) for x, y in zip(a, b))
        check(ok and len(a) == 3, op, f"step_ids {step_ids.shape} and parent_ids {parent_ids.shape} must have the "
              "same shape of rank 3 [MAX_TIME, BATCH_SIZE, BEAM_WIDTH]")
        out = [x if not b.rank_is_static else x.merge(y) for x, y in zip(a, b if b.rank_is_static else a)]
    else:
        out = None
    m = max_seq_len.shape
    check(not m.rank_is_static or len(m) == 1, op, f"max_seq_len must be 1-D, got {m}")
    if out is not None and m.rank_is_static:
        batch = out[1].merge(m[0])
        check(batch is not None, op, f"max_seq_len has {m[0]} elements, BATCH_SIZE is {out[1]}")
        out[1] = batch
    check(not end_token.shape.rank_is_static or len(end_token.shape) == 0, op,
          f"end_token must be a scalar, got {end_token.shape}")
    return PartialShape.dynamic() if out is None else PartialShape(out)


GATHER_TREE_1 = OpSchema(
    "GatherTree", 1, category="movement",
    inputs=(Port("step_ids", "T"), Port("parent_ids", "T"), Port("max_seq_len", "T"), Port("end_token", "T")),
    outputs=(Port("final_ids", "T"),),
    type_constraints={"T": NUMERIC_BYTES},
    shape=gather_tree_shape,
    doc="Backtracks beam-search parents into whole beams [MAX_TIME, BATCH, BEAM]; after the first end_token of a "
        "beam (and past max_seq_len) every id is end_token.",
)

OPS = (SPACE_TO_BATCH_2, BATCH_TO_SPACE_2, DEPTH_TO_SPACE_1, SPACE_TO_DEPTH_1, COL2IM_15, TRANSPOSE_1,
       CONCAT_1, SPLIT_1, VARIADIC_SPLIT_1, GATHER_1, GATHER_7, GATHER_8, TILE_1, PAD_1, PAD_12,
       BROADCAST_1, BROADCAST_3, STRIDED_SLICE_1, SLICE_8, GATHER_ELEMENTS_6, GATHER_ND_5, GATHER_ND_8,
       SCATTER_UPDATE_3, SCATTER_ND_UPDATE_3, SCATTER_ND_UPDATE_15, SCATTER_ELEMENTS_UPDATE_3,
       SCATTER_ELEMENTS_UPDATE_12, ROLL_7, REVERSE_1, SHUFFLE_CHANNELS_1, REVERSE_SEQUENCE_1, SLICE_SCATTER_15,
       UNIQUE_10, EXTRACT_IMAGE_PATCHES_3, GATHER_TREE_1)
