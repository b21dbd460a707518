"""Data-movement ops: the core of the category here (Transpose-1, Concat-1, Split-1, VariadicSplit-1,
Tile-1, Pad-1/12, Broadcast-1/3, Roll-7, Reverse-1, ReverseSequence-1, Unique-10), the families in
their own modules:

- movement_space.py: SpaceToBatch, BatchToSpace, DepthToSpace, SpaceToDepth, Col2Im,
  ExtractImagePatches, ShuffleChannels (values between batch/channel and spatial axes);
- movement_slice.py: StridedSlice, Slice, SliceScatter (and the slice arithmetic they share);
- movement_gather.py: Gather, GatherElements, GatherND, GatherTree, ScatterUpdate, ScatterNDUpdate,
  ScatterElementsUpdate;
- movement_common.py: helpers they all share (T_INT, normalize_axis, constant folding).

`OPS` lists every op version of the category, and the names other modules take from here
(T_INT, PAD_MODES, SCATTER_REDUCTIONS, clamped_slice, ...) stay importable from here.

Shape rules follow OpenVINO's (src/core/shape_inference/include/<op>_shape_inference.hpp) on
partial shapes.
"""
from __future__ import annotations

import numpy as np

from ..shapes import FOLD_LIMIT, MAX_RANK, Dimension, PartialShape, TensorInfo
from ..types import ALL, IDX, NUMERIC
from .families import broadcast_shapes
from .helpers import check, check_1d, ints_of, product, rank_of
from .movement_common import T_INT, _scalar_like, normalize_axis
from .movement_gather import (ELEMENTS_REDUCTIONS, GATHER_1, GATHER_7, GATHER_8, GATHER_ELEMENTS_6, GATHER_ND_5,
                              GATHER_ND_8, GATHER_TREE_1, NOT_REDUCIBLE, SCATTER_ELEMENTS_UPDATE_3,
                              SCATTER_ELEMENTS_UPDATE_12, SCATTER_ND_UPDATE_3, SCATTER_ND_UPDATE_15, SCATTER_REDUCTIONS,
                              SCATTER_UPDATE_3)
from .movement_slice import (SLICE_8, SLICE_SCATTER_15, STRIDED_SLICE_1, clamped_slice, slice_index,
                             strided_slice_index)
from .movement_space import (BATCH_TO_SPACE_2, COL2IM_15, DEPTH_TO_SPACE_1, EXTRACT_IMAGE_PATCHES_3,
                             SHUFFLE_CHANNELS_1, SPACE_TO_BATCH_2, SPACE_TO_DEPTH_1, patch_grid)
from .schema import BOOL, ELEMENT_TYPE, INT, STRING, Attr, OpSchema, Port


# --- Transpose-1 ---------------------------------------------------------------------------------------
def transpose_shape(data, input_order):
    """output.shape[i] = data.shape[input_order[i]]; an empty input_order reverses the axes. input_order
    must be 1-D and, when its value and the data rank are known, a permutation of the data's axes. With the
    order unknown the output keeps the data's rank with every dimension dynamic; with the data rank unknown
    a known non-empty order gives the rank."""
    op = "Transpose-1"
    check(input_order.shape.rank_is_static is False or len(input_order.shape) <= 1, op,
          lambda: f"input_order must be 1-D, got {input_order.shape}")
    order = ints_of(input_order)
    shape = data.shape
    if order is None:                        # (OpenVINO does not take the rank from the order's length)
        return PartialShape.dynamic(len(shape) if shape.rank_is_static else None)
    if not shape.rank_is_static:             # a non-empty order gives the rank
        return PartialShape.dynamic(len(order)) if order else PartialShape.dynamic()
    if len(order) == 0:                       # empty order reverses the axes
        return PartialShape(list(shape)[::-1])
    n = len(shape)
    check(sorted(order) == list(range(n)), op, lambda: f"input_order {list(order)} is not a permutation of the "
                                                       f"{n} axes of data {shape}")
    return PartialShape([shape[i] for i in order])


TRANSPOSE_1 = OpSchema(
    "Transpose", 1, category="movement", value_bounds="moves",
    inputs=(Port("data", "T", doc="the tensor to permute, of any rank"),
            Port("input_order", "T_AXIS", const=True,
                 doc="1-D permutation of [0, rank-1]: output axis i takes data axis input_order[i]; empty "
                     "reverses the axes")),
    outputs=(Port("output", "T", doc="data with its axes permuted"),),
    type_constraints={"T": ALL, "T_AXIS": T_INT},
    shape=transpose_shape,
    doc="Permutes the axes of data: output.shape[i] = data.shape[input_order[i]]; empty order reverses.",
)


# --- Concat-1 --------------------------------------------------------------------------------------------
def concat_shape(data, *more_data, axis):
    """All inputs must have one rank (inputs of dynamic rank are skipped in the check) and merge on every
    axis but `axis`, which must be in [-rank, rank-1]; the output's `axis` dimension is the sum of the inputs'
    (an input of dynamic rank adds an unknown length), the others are the merged dimensions. Dynamic rank
    everywhere gives dynamic rank. Known small input values are concatenated into the output value."""
    op = "Concat-1"
    infos = (data,) + more_data
    ranks = [len(i.shape) for i in infos if i.shape.rank_is_static]
    if not ranks:
        return PartialShape.dynamic()
    rank = ranks[0]
    for k, i in enumerate(infos):
        check(not i.shape.rank_is_static or len(i.shape) == rank, op,
              lambda: f"all inputs must have the same rank: input 0 has rank {rank}, input {k} has shape {i.shape}")
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
            check(m is not None, op, lambda: f"input {k} has dimension {d} on axis {j}, other inputs have {out[j]}; "
                                             f"inputs must be equal everywhere except on the concatenation axis {axis}")
            out[j] = m
    out[a] = total
    return PartialShape(out)


CONCAT_1 = OpSchema(
    "Concat", 1, category="movement", value_bounds="moves",
    inputs=(Port("data", "T", variadic=True,
                 doc="one or more tensors of one rank, equal on every axis but the concatenation axis"),),
    outputs=(Port("output", "T", doc="the inputs joined in order along axis"),),
    attributes=(Attr("axis", INT, doc="the axis to concatenate on; negative counts from the end"),),
    type_constraints={"T": ALL},
    shape=concat_shape,
    doc="Joins the inputs along axis; they must be equal on every other axis.",
)


# --- Split-1 / VariadicSplit-1 -----------------------------------------------------------------------------
def split_shape(data, axis, *, num_splits):
    """num_splits outputs, each the data's shape with the `axis` dimension divided by num_splits. axis must be a
    scalar in [-rank, rank-1]; a static split dimension must be a multiple of num_splits, a dynamic one is
    divided bound by bound (truncated) and must be able to reach num_splits. With axis unknown (or the data
    rank unknown) each output keeps the data's rank with dynamic dimensions."""
    op = "Split-1"
    check(num_splits > 0, op, lambda: f"num_splits must be > 0, got {num_splits}")
    check(num_splits <= MAX_RANK, op, lambda: f"num_splits {num_splits} is more outputs than opref makes ({MAX_RANK})")
    _scalar_like(op, "axis", axis, allow_1=False)
    a = ints_of(axis)
    shape = data.shape
    if a is None or not shape.rank_is_static:
        return [PartialShape.dynamic(shape.rank)] * num_splits
    ax = normalize_axis(op, "axis", a[0], len(shape))
    d = shape[ax]
    if d.is_static:
        check(d.lo % num_splits == 0, op, lambda: f"data dimension {ax} ({d.lo}) must be a multiple of num_splits "
                                                  f"({num_splits})")
        part = Dimension(d.lo // num_splits, d.lo // num_splits)
    else:
        check(d.hi is None or d.hi >= num_splits, op, lambda: f"data dimension {ax} ({d}) can never be split into "
                                                              f"num_splits = {num_splits} parts")
        # OpenVINO scales the bounds by a float32 1/num_splits and truncates
        inv = np.float32(1.0) / np.float32(num_splits)
        part = Dimension(int(np.float32(d.lo) * inv), None if d.hi is None else int(np.float32(d.hi) * inv))
    return [PartialShape(list(shape[:ax]) + [part] + list(shape[ax + 1:]))] * num_splits


def variadic_split_shape(data, axis, split_lengths):
    """One output per element of split_lengths (which must be 1-D of static length): the data's shape with the
    `axis` dimension replaced by that length. At most one length is -1 (the rest of the axis, dynamic when
    the axis is); the others must be >= 0 and, on a static axis, sum to its length. With the lengths unknown
    the split dimension is dynamic; with axis or the data rank unknown every dimension is."""
    op = "VariadicSplit-1"
    _scalar_like(op, "axis", axis)
    s = split_lengths.shape
    check(s.rank_is_static and len(s) == 1 and s[0].is_static, op,
          lambda: f"split_lengths must be 1-D of known "
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
    check(all(v >= -1 for v in lengths), op, lambda: f"split_lengths {list(lengths)} has a value below -1")
    check(lengths.count(-1) <= 1, op, lambda: f"split_lengths {list(lengths)} has more than one -1")
    known = sum(v for v in lengths if v != -1)
    lengths = list(lengths)
    if d.is_static:
        if -1 in lengths:
            check(known <= d.lo, op, lambda: f"split_lengths {lengths} sum to {known}, more than data dimension "
                                             f"{ax} ({d.lo})")
            lengths[lengths.index(-1)] = d.lo - known
        check(sum(lengths) == d.lo, op, lambda: f"split_lengths {lengths} sum to {sum(lengths)}, data dimension {ax} "
                                                f"is {d.lo}")
    return [PartialShape(list(shape[:ax]) + [Dimension() if v == -1 else Dimension(v, v)] + list(shape[ax + 1:]))
            for v in lengths]


SPLIT_1 = OpSchema(
    "Split", 1, category="movement", value_bounds="moves",
    inputs=(Port("data", "T", doc="the tensor to split, of rank >= 1"),
            Port("axis", "T_AXIS", const=True, doc="scalar axis to split along; negative counts from the end")),
    outputs=(Port("output", "T", variadic=True, doc="num_splits equal parts of data, in order along axis"),),
    attributes=(Attr("num_splits", INT, doc="number of equal parts (and outputs)"),),
    type_constraints={"T": ALL, "T_AXIS": T_INT},
    shape=split_shape,
    output_count=lambda inputs, attrs: max(int(attrs["num_splits"]), 0),
    doc="Splits data into num_splits equal parts along axis (one output per part).",
)

VARIADIC_SPLIT_1 = OpSchema(
    "VariadicSplit", 1, category="movement", value_bounds="moves",
    # axis and split_lengths take their integer types independently (i64 axis, i32 lengths from PyTorch's split)
    inputs=(Port("data", "T", doc="the tensor to split, of rank >= 1"),
            Port("axis", "T_AXIS", const=True,
                 doc="axis to split along, a scalar or 1 element; negative counts from the end"),
            Port("split_lengths", "T_LEN", const=True,
                 doc="1-D lengths of the parts along axis; one may be -1 for the remainder")),
    outputs=(Port("output", "T", variadic=True, doc="one part per split_lengths element, in order along axis"),),
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


# --- Tile-1 ------------------------------------------------------------------------------------------------
def tile_shape(data, repeats):
    """The shorter of the data shape and the 1-D repeats is padded with leading 1s; output dimension i is
    data dimension i times repeats[i] (intervals scale bound by bound). repeats must be >= 0. With repeats
    unknown but of known length the output has rank max(rank, len(repeats)) with dynamic dimensions;
    otherwise dynamic rank."""
    op = "Tile-1"
    check_1d(op, "repeats", repeats)
    reps = ints_of(repeats)
    shape = data.shape
    if reps is None:
        n = rank_of(repeats)
        if shape.rank_is_static and n is not None:
            return PartialShape.dynamic(max(len(shape), n))
        return PartialShape.dynamic()
    check(all(r >= 0 for r in reps), op, lambda: f"repeats must be >= 0, got {list(reps)}")
    if not shape.rank_is_static:
        return PartialShape.dynamic()
    n = max(len(shape), len(reps))
    dims = [Dimension(1, 1)] * (n - len(shape)) + list(shape)
    reps = (1,) * (n - len(reps)) + tuple(reps)
    return PartialShape([d * r for d, r in zip(dims, reps)])


TILE_1 = OpSchema(
    "Tile", 1, category="movement", value_bounds="moves",
    inputs=(Port("data", "T", doc="the tensor to repeat, of any rank"),
            Port("repeats", "T_REP", const=True, doc="1-D repeat counts per axis (>= 0), aligned to the last axes")),
    outputs=(Port("output", "T", doc="data tiled repeats[i] times along each axis"),),
    type_constraints={"T": ALL, "T_REP": T_INT},
    shape=tile_shape,
    doc="Repeats data repeats[i] times along each axis (the shorter of rank and repeats padded with 1s).",
)


# --- Pad-1 / Pad-12 ----------------------------------------------------------------------------------------
PAD_MODES = ("constant", "edge", "reflect", "symmetric")


def _plus(d: Dimension, k: int) -> Dimension:
    """d + k for an integer k of any sign, as OpenVINO's Pad computes it: the lower bound clipped at
    0, and an upper bound below 0 read as unknown (so a static 2 - 3 gives ?, not 0)."""
    if d.hi is not None and d.hi + k < 0:
        return Dimension()
    return Dimension(max(d.lo + k, 0), None if d.hi is None else d.hi + k)


def _pad(op, data, pads_begin, pads_end, pad_value, pad_mode, negative):
    if pad_value is not None:
        check(not pad_value.shape.rank_is_static or len(pad_value.shape) == 0, op,
              lambda: f"pad_value must be a scalar, got shape {pad_value.shape}")
        # other modes ignore it: OpenVINO's converter writes it for reflect/edge/symmetric too, and OpenVINO reads it
    check_1d(op, "pads_begin", pads_begin)
    check_1d(op, "pads_end", pads_end)
    if data.element_type == "string":
        check(pad_mode == "constant", op,
              lambda: f"string data can only be padded with pad_mode 'constant', got {pad_mode!r}")
    shape = data.shape
    pb, pe = ints_of(pads_begin), ints_of(pads_end)
    for name, v in (("pads_begin", pb), ("pads_end", pe)):
        if v is not None and not negative:
            check(all(p >= 0 for p in v), op, lambda: f"{name} must be >= 0 (negative pads need Pad-12), got {list(v)}")
    if not shape.rank_is_static:
        return PartialShape.dynamic()
    r = len(shape)
    for name, info in (("pads_begin", pads_begin), ("pads_end", pads_end)):
        n = rank_of(info)
        check(n is None or n == r, op, lambda: f"{name} must have {r} elements (the rank of data), got {n}")
    if pb is None or pe is None:
        return PartialShape.dynamic(r)
    out = []
    for i, (d, b, e) in enumerate(zip(shape, pb, pe)):
        if d.is_static:
            n = d.lo
            if pad_mode == "edge":
                check(n >= 1 or (b <= 0 and e <= 0), op,
                      lambda: f"pad_mode 'edge' needs data dimension {i} >= 1 to pad it")
            if pad_mode == "reflect":
                check(b < n and e < n, op,
                      lambda: f"pad_mode 'reflect' needs pads_begin[{i}] = {b} and pads_end[{i}] = {e} "
                              f"below data dimension {i} ({n})")
            if pad_mode == "symmetric":
                check(b <= n and e <= n, op,
                      lambda: f"pad_mode 'symmetric' needs pads_begin[{i}] = {b} and pads_end[{i}] "
                              f"= {e} at most data dimension {i} ({n})")
        out.append(_plus(d, b + e))
    return PartialShape(out)


def pad_1_shape(data, pads_begin, pads_end, pad_value=None, *, pad_mode):
    """Output dimension i is data dimension i + pads_begin[i] + pads_end[i]. pads_begin and pads_end are 1-D
    with one element per data axis, all >= 0 (negative pads need Pad-12). pad_value must be a
    scalar; on a static axis 'reflect' needs pads < its length, 'symmetric' pads <= it, 'edge' a length >= 1
    (when padding); string data only pads in 'constant'. Unknown pads give dynamic dimensions of the data's rank."""
    return _pad("Pad-1", data, pads_begin, pads_end, pad_value, pad_mode, False)


def pad_12_shape(data, pads_begin, pads_end, pad_value=None, *, pad_mode):
    """As Pad-1 (output dimension i is data dimension i + pads_begin[i] + pads_end[i], pads 1-D with one element
    per data axis), but pads may be negative and crop: a lower bound is clipped at 0 and a result whose upper
    bound falls below 0 is dynamic. pad_value must be a scalar; on a static axis 'reflect' needs pads < its
    length, 'symmetric' pads <= it, 'edge' a length >= 1 (when padding); string data only pads in 'constant'.
    Unknown pads give dynamic dimensions of the data's rank."""
    return _pad("Pad-12", data, pads_begin, pads_end, pad_value, pad_mode, True)


def _pad_schema(version, shape, doc):
    return OpSchema(
        "Pad", version, category="movement", value_bounds="moves",
        inputs=(Port("data", "T", doc="the tensor to pad, of any rank"),
                Port("pads_begin", "T_INT", const=True,
                     doc="1-D, one count per data axis: elements added before the start of that axis"),
                Port("pads_end", "T_INT", const=True,
                     doc="1-D, one count per data axis: elements added after the end of that axis"),
                Port("pad_value", "T", optional=True, doc="scalar fill value for pad_mode 'constant' (default 0)")),
        outputs=(Port("output", "T", doc="the padded (Pad-12: and cropped) data"),),
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
              lambda: f"axes_mapping is only for mode 'explicit', got mode {mode!r}")
    target = ints_of(target_shape)
    shape = data.shape
    n = rank_of(target_shape)
    if target is not None:
        check(all(t >= 0 for t in target), op, lambda: f"target_shape must be >= 0, got {list(target)}")
    if explicit:
        out = PartialShape(target) if target is not None else PartialShape.dynamic(n)
        amap = ints_of(axes_mapping)
        if shape.rank_is_static and axes_mapping.shape.rank_is_static and axes_mapping.shape.is_static \
                and n is not None:
            m = axes_mapping.shape[0].lo
            expected = 1 if len(shape) == 0 and m > 0 else len(shape)
            check(m == expected, op, lambda: f"axes_mapping must have {expected} elements (the rank of data), got {m}")
            if target is not None and amap is not None:
                check(list(amap) == sorted(amap), op,
                      lambda: f"axes_mapping {list(amap)} must be sorted (no transposes)")
                for i, t in enumerate(amap):
                    check(0 <= t < len(target), op, lambda: f"axes_mapping[{i}] = {t} is out of range for target_shape "
                                                            f"of {len(target)} elements")
                    if len(shape):
                        check(shape[i].compatible(target[t]) or shape[i].compatible(1), op,
                              lambda: f"data dimension {i} ({shape[i]}) cannot be broadcast to target_shape[{t}] = "
                                      f"{target[t]}")
                    else:
                        check(target[t] == 1, op, lambda: f"scalar data: target_shape[{t}] must be 1, got {target[t]}")
        return out
    if target is None:
        if mode == "bidirectional" and n is not None and shape.rank_is_static:
            return broadcast_shapes(op, PartialShape.dynamic(n), shape, "numpy")
        return PartialShape.dynamic(n)
    if mode == "numpy":
        if shape.rank_is_static:
            check(len(target) >= len(shape), op,
                  lambda: f"target_shape {list(target)} has a smaller rank than data {shape}")
            for i, d in enumerate(shape):
                t = target[len(target) - len(shape) + i]
                check(d.compatible(1) or d.compatible(t), op,
                      lambda: f"data dimension {i} ({d}) cannot be broadcast to "
                              f"{t} (numpy mode: it must be 1 or {t})")
        return PartialShape(target)
    if mode == "bidirectional":
        if not shape.rank_is_static:
            return PartialShape.dynamic()
        return broadcast_shapes(op, PartialShape(target), shape, "numpy")
    # pdpd: data aligned at axis 0 of the target; a 1 on either side stretches
    if not shape.rank_is_static:
        return PartialShape.dynamic(len(target))
    check(len(target) == len(shape), op,
          lambda: f"mode 'pdpd' needs target_shape {list(target)} of the rank of data {shape}")
    out = []
    for i, (d, t) in enumerate(zip(shape, target)):
        if d == 1:
            out.append(Dimension(t, t))
        elif t == 1:
            out.append(d)
        else:
            m = d.merge(t)
            check(m is not None, op, lambda: f"data dimension {i} ({d}) cannot be broadcast to {t} (pdpd: 1 or {t})")
            out.append(m)
    return PartialShape(out)


def broadcast_1_shape(data, target_shape, axes_mapping=None, *, mode):
    """numpy and explicit ('none'): the output shape is target_shape (dynamic dimensions of its length when its
    value is unknown); numpy needs the data right-aligned with each dimension 1 or the target's, explicit
    needs axes_mapping (sorted, one entry per data axis, in range of the target) with each mapped data
    dimension 1 or the target's. pdpd: equal ranks, a 1 on either side stretches. target_shape must be 1-D
    and >= 0; an axes_mapping given in another mode is ignored."""
    return _broadcast("Broadcast-1", data, target_shape, axes_mapping, mode)


def broadcast_3_shape(data, target_shape, axes_mapping=None, *, mode):
    """numpy and explicit ('none'): the output shape is target_shape (dynamic dimensions of its length when its
    value is unknown); numpy needs the data right-aligned with each dimension 1 or the target's, explicit
    needs axes_mapping (sorted, one entry per data axis, in range of the target) with each mapped data
    dimension 1 or the target's, and rejects axes_mapping in other modes. bidirectional: numpy broadcasting
    of target_shape with the data shape, so the output may exceed target_shape. pdpd: equal ranks, a 1 on
    either side stretches. target_shape must be 1-D and >= 0."""
    return _broadcast("Broadcast-3", data, target_shape, axes_mapping, mode)


def _broadcast_schema(version, shape, modes, doc):
    return OpSchema(
        "Broadcast", version, category="movement", value_bounds="moves",
        inputs=(Port("data", "T", doc="the tensor to replicate, of any rank"),
                Port("target_shape", "T_SHAPE", const=True, doc="1-D target shape, values >= 0"),
                Port("axes_mapping", "T_AXES", optional=True, const=True,
                     doc="mode explicit: 1-D sorted target axes, one per data axis, that data axis i maps to")),
        outputs=(Port("output", "T", doc="data broadcast to the target shape"),),
        attributes=(Attr("mode", STRING, "numpy", allowed=modes,
                         doc="numpy: right-aligned, data dims 1 stretch; explicit (written 'none'): data axis i "
                             "goes to target axis axes_mapping[i]; bidirectional: numpy both ways; pdpd: "
                             "aligned at axis 0, a 1 on either side stretches"),),
        type_constraints={"T": ALL, "T_SHAPE": T_INT, "T_AXES": T_INT}, shape=shape, doc=doc)


BROADCAST_1 = _broadcast_schema(1, broadcast_1_shape, BROADCAST_1_MODES,
                                "Replicates data to target_shape (numpy, explicit or pdpd rules).")
BROADCAST_3 = _broadcast_schema(3, broadcast_3_shape, BROADCAST_3_MODES,
                                "Broadcast-1 plus mode 'bidirectional' (the output may be larger than target_shape).")


# --- Roll-7 / Reverse-1 / ReverseSequence-1 ------------------------------------------------------------
def roll_shape(data, shift, axes):
    """The output has the data's shape. shift and axes must be scalars or 1-D, of the same length when both
    are 1-D, and known axes must lie in [-rank, rank-1]."""
    op = "Roll-7"
    for name, info in (("shift", shift), ("axes", axes)):
        check(not info.shape.rank_is_static or len(info.shape) <= 1, op,
              lambda: f"input {name!r} must be a scalar or 1-D, got shape {info.shape}")
    ss, as_ = shift.shape, axes.shape
    if ss.rank_is_static and len(ss) == 1 and as_.rank_is_static and len(as_) == 1:
        check(ss[0].compatible(as_[0]), op, lambda: f"shift {ss} and axes {as_} must have the same number of elements")
    a = ints_of(axes)
    if a is not None and data.shape.rank_is_static:
        for v in a:
            normalize_axis(op, "axes value", v, len(data.shape))
    return data.shape


ROLL_7 = OpSchema(
    "Roll", 7, category="movement", value_bounds="moves",
    inputs=(Port("data", "T", doc="the tensor to roll, of any rank"),
            Port("shift", "T_SHIFT", doc="scalar or 1-D shifts, one per axes element (a scalar applies to all); "
                                         "negative rolls toward the start"),
            Port("axes", "T_AXES", const=True, doc="scalar or 1-D axes to roll along; negative counts from the end")),
    outputs=(Port("output", "T", doc="data with elements moved cyclically along the axes"),),
    type_constraints={"T": ALL, "T_SHIFT": IDX, "T_AXES": IDX},
    shape=roll_shape,
    doc="Rolls data along axes by shift elements (a scalar shift applies to every axis; repeated axes add up).",
)


def reverse_shape(data, reverse_axes, *, mode):
    """The output has the data's shape. reverse_axes must be 1-D: in mode 'index' integers in [0, rank-1],
    in mode 'mask' booleans, one per data axis; the wrong element type for the mode is rejected."""
    op = "Reverse-1"
    check_1d(op, "reverse_axes", reverse_axes)
    if mode == "mask":
        check(reverse_axes.element_type == "boolean", op, lambda: f"mode 'mask' needs a boolean reverse_axes, got "
                                                                  f"{reverse_axes.element_type}")
    else:
        check(reverse_axes.element_type in T_INT, op, lambda: f"mode 'index' needs integer reverse_axes, got "
                                                              f"{reverse_axes.element_type}")
    shape = data.shape
    if shape.rank_is_static:
        n = rank_of(reverse_axes)
        if mode == "mask":
            check(n is None or n == len(shape), op, lambda: f"mode 'mask' needs {len(shape)} mask values (the rank of "
                                                            f"data), got {n}")
        else:
            a = ints_of(reverse_axes)
            if a is not None:
                check(all(0 <= v < len(shape) for v in a), op, lambda: f"reverse_axes {list(a)} must be in [0, "
                                                                       f"{len(shape) - 1}] for data {shape}")
    return shape


REVERSE_1 = OpSchema(
    "Reverse", 1, category="movement", value_bounds="moves",
    inputs=(Port("data", "T", doc="the tensor to reverse, of any rank"),
            Port("reverse_axes", "T_AXES", const=True,
                 doc="1-D: axis indices in [0, rank-1] (mode index) or one boolean per axis (mode mask)")),
    outputs=(Port("output", "T", doc="data reversed along the chosen axes"),),
    attributes=(Attr("mode", STRING, allowed=("index", "mask"),
                     doc="index: reverse_axes lists axes; mask: a boolean per axis"),),
    type_constraints={"T": ALL, "T_AXES": T_INT + ("boolean",)},
    shape=reverse_shape,
    doc="Reverses data along the given axes.",
)


def reverse_sequence_shape(data, seq_lengths, *, batch_axis, seq_axis):
    """The output has the data's shape, its batch_axis dimension merged with the length of the 1-D seq_lengths
    (they must be compatible). data must have rank >= 2 and both axes must lie in [-rank, rank-1]; with the
    data rank unknown the shape passes through, but a negative seq_axis is rejected."""
    op = "ReverseSequence-1"
    check_1d(op, "seq_lengths", seq_lengths)
    shape = data.shape
    if not shape.rank_is_static:     # (OpenVINO cannot place a negative seq_axis without the rank)
        check(seq_axis >= 0, op, lambda: f"a negative seq_axis ({seq_axis}) needs data of known rank, got {shape}")
        return shape
    check(len(shape) >= 2, op, lambda: f"data must have rank >= 2, got {shape}")
    b = normalize_axis(op, "batch_axis", batch_axis, len(shape))
    normalize_axis(op, "seq_axis", seq_axis, len(shape))
    out = list(shape)
    if seq_lengths.shape.rank_is_static:
        m = shape[b].merge(seq_lengths.shape[0])
        check(m is not None, op,
              lambda: f"seq_lengths has {seq_lengths.shape[0]} elements, data dimension {b} (batch_axis) "
                      f"is {shape[b]}")
        out[b] = m
    return PartialShape(out)


REVERSE_SEQUENCE_1 = OpSchema(
    "ReverseSequence", 1, category="movement", value_bounds="moves",
    inputs=(Port("data", "T", doc="the tensor of sequences, rank >= 2"),
            Port("seq_lengths", "T_IND", doc="1-D, one length per batch_axis entry: how many leading elements "
                                             "along seq_axis to reverse")),
    outputs=(Port("output", "T", doc="data with each batch entry's first seq_lengths[b] elements reversed"),),
    attributes=(Attr("batch_axis", INT, 0, doc="the axis seq_lengths runs along"),
                Attr("seq_axis", INT, 1, doc="the axis whose first seq_lengths[b] elements are reversed")),
    type_constraints={"T": ALL, "T_IND": T_INT},
    shape=reverse_sequence_shape,
    doc="Reverses the first seq_lengths[b] elements along seq_axis, for every batch b.",
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
    """Without axis: unique_elements, indices and counts are 1-D of length 1..N (N the element count; dynamic
    when the data shape is not static and non-empty) and reverse_indices has length N. With axis (a known
    scalar or 1-element constant in [-rank, rank-1]): unique_elements is the data shape with the axis
    dimension d replaced by 1..d (a static 0 stays 0), reverse_indices has length d. Index and count types
    must be i32 or i64. Known small data values are folded into all four outputs."""
    op = "Unique-10"
    for name, t in (("index_element_type", index_element_type), ("count_element_type", count_element_type)):
        check(t in IDX, op, lambda: f"{name} must be i32 or i64, got {t}")
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
    if data.value is not None and (axis is None or a is not None) and 0 < np.size(data.value) <= FOLD_LIMIT:
        # the output lengths depend on the values: a known (small) data gives them exactly
        vals = unique_values(np.asarray(data.value), a, sorted)
        infos = [TensorInfo(i.element_type, v.shape) for i, v in zip(infos, vals)]
    return infos


UNIQUE_10 = OpSchema(
    "Unique", 10, category="movement",
    inputs=(Port("data", "T", doc="the tensor to search, of any rank"),
            Port("axis", "T_AXIS", optional=True, const=True,
                 doc="scalar or 1-element axis whose slices are compared; absent: elements of the flattened data")),
    outputs=(Port("unique_elements", "T", doc="the unique elements (1-D) or slices along axis"),
             Port("indices", "T_IDX", doc="1-D: for each unique element, the index of its first occurrence"),
             Port("reverse_indices", "T_IDX",
                  doc="1-D: for each data element (or slice), the index of its value in unique_elements"),
             Port("counts", "T_CNT", doc="1-D: how many times each unique element occurs")),
    attributes=(Attr("sorted", BOOL, True, doc="unique elements in ascending order (else in order of appearance)"),
                Attr("index_element_type", ELEMENT_TYPE, "i64", doc="element type of indices and reverse_indices"),
                Attr("count_element_type", ELEMENT_TYPE, "i64", doc="element type of counts")),
    type_constraints={"T": NUMERIC, "T_AXIS": IDX, "T_IDX": IDX, "T_CNT": IDX},
    shape=unique_shape,
    doc="The unique elements (or slices along axis) of data, with first indices, reverse indices and counts.",
)

OPS = (SPACE_TO_BATCH_2, BATCH_TO_SPACE_2, DEPTH_TO_SPACE_1, SPACE_TO_DEPTH_1, COL2IM_15, TRANSPOSE_1,
       CONCAT_1, SPLIT_1, VARIADIC_SPLIT_1, GATHER_1, GATHER_7, GATHER_8, TILE_1, PAD_1, PAD_12,
       BROADCAST_1, BROADCAST_3, STRIDED_SLICE_1, SLICE_8, GATHER_ELEMENTS_6, GATHER_ND_5, GATHER_ND_8,
       SCATTER_UPDATE_3, SCATTER_ND_UPDATE_3, SCATTER_ND_UPDATE_15, SCATTER_ELEMENTS_UPDATE_3,
       SCATTER_ELEMENTS_UPDATE_12, ROLL_7, REVERSE_1, SHUFFLE_CHANNELS_1, REVERSE_SEQUENCE_1, SLICE_SCATTER_15,
       UNIQUE_10, EXTRACT_IMAGE_PATCHES_3, GATHER_TREE_1)

# names that other modules import from here (the schemas are reachable through OPS)
__all__ = ["OPS", "T_INT", "PAD_MODES", "ELEMENTS_REDUCTIONS", "NOT_REDUCIBLE", "SCATTER_REDUCTIONS", "clamped_slice",
           "patch_grid", "slice_index", "strided_slice_index", "unique_values"]
