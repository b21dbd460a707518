"""Data-movement ops: SpaceToBatch, BatchToSpace, DepthToSpace, SpaceToDepth, Col2Im, Transpose.

Shape rules follow OpenVINO's (src/core/shape_inference/include/<op>_shape_inference.hpp) on
partial shapes, and add the spec's own preconditions where OpenVINO only "expects" them
(block_shape[0] == 1, no padding or cropping of the batch axis, non-negative pads).
"""
from __future__ import annotations

from ..shapes import Dimension, PartialShape
from ..types import ALL, IDX, NUMERIC_BYTES
from .helpers import check, check_1d, divide, ints_of, product, rank_of
from .schema import INT, INTS, STRING, Attr, OpSchema, Port

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

OPS = (SPACE_TO_BATCH_2, BATCH_TO_SPACE_2, DEPTH_TO_SPACE_1, SPACE_TO_DEPTH_1, COL2IM_15, TRANSPOSE_1)
