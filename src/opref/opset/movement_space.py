"""Data-movement ops that move values between the batch or channel axes and the spatial axes:
SpaceToBatch-2, BatchToSpace-2, DepthToSpace-1, SpaceToDepth-1, Col2Im-15, ExtractImagePatches-3,
ShuffleChannels-1 (schemas and shape rules; re-exported by movement.py).

Shape rules follow OpenVINO's (src/core/shape_inference/include/<op>_shape_inference.hpp) on
partial shapes, and add the spec's own preconditions where OpenVINO only "expects" them
(block_shape[0] == 1, no padding or cropping of the batch axis, non-negative pads).
"""
from __future__ import annotations

from ..shapes import Dimension, PartialShape
from ..types import ALL, IDX, NUMERIC_BYTES
from .helpers import check, check_1d, divide, ints_of, product, rank_of
from .movement_common import T_INT, normalize_axis
from .schema import INT, INTS, STRING, Attr, OpSchema, Port


# --- SpaceToBatch-2 / BatchToSpace-2 ---------------------------------------------------------------
def _block_inputs(op, data, block_shape, begin, end, names):
    """Shared checks of the three 1-D inputs; returns (rank or None, values or None)."""
    for name, info in zip(names, (block_shape, begin, end)):
        check_1d(op, name, info)
    sizes = {i.shape[0] for i in (block_shape, begin, end) if i.shape.rank_is_static and i.shape[0].is_static}
    check(len(sizes) <= 1, op, lambda: f"{', '.join(names)} must have the same number of elements, "
                                       f"got {block_shape.shape}, {begin.shape} and {end.shape}")
    if data.shape.rank_is_static:
        check(len(data.shape) >= 2, op, lambda: f"data must have rank >= 2, got {data.shape}")
        n = rank_of(block_shape, begin, end)
        check(n is None or n == len(data.shape), op, lambda: f"{names[0]} must have as many elements as data has "
                                                             f"dimensions ({len(data.shape)}), got {n}")
    blocks, b, e = ints_of(block_shape), ints_of(begin), ints_of(end)
    if blocks is not None:
        check(all(v >= 1 for v in blocks), op, lambda: f"{names[0]} values must be >= 1, got {list(blocks)}")
        check(blocks[0] == 1, op, lambda: f"{names[0]}[0] must be 1 (the batch axis is not split), got {blocks[0]}")
    for name, vals in zip(names[1:], (b, e)):
        if vals is not None:
            check(all(v >= 0 for v in vals), op, lambda: f"{name} values must be >= 0, got {list(vals)}")
            check(vals[0] == 0, op,
                  lambda: f"{name}[0] must be 0 (the batch axis is not padded or cropped), got {vals[0]}")
    return blocks, b, e


def space_to_batch_shape(data, block_shape, pads_begin, pads_end):
    """The output batch is data's batch times the product of block_shape; dimension i >= 1 is
    (data dimension i + pads_begin[i] + pads_end[i]) / block_shape[i], which must divide exactly (an
    unbounded dimension gives [ceil(lo / block), ?]). data has rank >= 2; the three 1-D inputs have one
    element per data axis, block_shape >= 1 with block_shape[0] = 1, pads >= 0 with pads[0] = 0. Unknown
    blocks give dynamic dimensions of the data's rank, unknown pads dynamic spatial dimensions."""
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
    """The output batch is data's batch divided by the product of block_shape (exactly); dimension i >= 1 is
    data dimension i * block_shape[i] - crops_begin[i] - crops_end[i], and the crop may not exceed the grown
    static length. data has rank >= 2; the three 1-D inputs have one element per data axis, block_shape >= 1
    with block_shape[0] = 1, crops >= 0 with crops[0] = 0. Unknown blocks give a dynamic batch; unknown crops
    give dynamic spatial dimensions."""
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
        check(g.is_dynamic or crop <= g.lo, op, lambda: f"crops_begin[{i}] + crops_end[{i}] = {crop} must be <= "
                                                        f"block_shape[{i}] * data dimension {i} = {g}")
        out.append(g - crop)
    return PartialShape(out)


SPACE_TO_BATCH_2 = OpSchema(
    "SpaceToBatch", 2, category="movement", value_bounds="moves",
    inputs=(Port("data", "T", doc="the tensor [N, D1, ...], rank >= 2"),
            Port("block_shape", "T_INT", const=True,
                 doc="1-D block size per data axis, >= 1, the first (batch) 1"),
            Port("pads_begin", "T_INT", const=True, doc="1-D zero padding before each axis, >= 0, the first 0"),
            Port("pads_end", "T_INT", const=True, doc="1-D zero padding after each axis, >= 0, the first 0")),
    outputs=(Port("output", "T", doc="[N * prod(block_shape), padded D1 / block_shape[1], ...]"),),
    type_constraints={"T": ALL, "T_INT": T_INT},
    shape=space_to_batch_shape,
    doc="Zero-pads the spatial axes, splits each into blocks and moves the block offsets into the batch.",
)

BATCH_TO_SPACE_2 = OpSchema(
    "BatchToSpace", 2, category="movement", value_bounds="moves",
    inputs=(Port("data", "T", doc="the tensor [N, D1, ...], rank >= 2, N a multiple of prod(block_shape)"),
            Port("block_shape", "T_INT", const=True,
                 doc="1-D block size per data axis, >= 1, the first (batch) 1"),
            Port("crops_begin", "T_INT", const=True,
                 doc="1-D elements cropped from the start of each grown axis, >= 0, the first 0"),
            Port("crops_end", "T_INT", const=True,
                 doc="1-D elements cropped from the end of each grown axis, >= 0, the first 0")),
    outputs=(Port("output", "T", doc="[N / prod(block_shape), D1 * block_shape[1] - crops, ...]"),),
    type_constraints={"T": ALL, "T_INT": T_INT},
    shape=batch_to_space_shape,
    doc="Moves blocks of the batch into the spatial axes, then crops them (inverse of SpaceToBatch).",
)


# --- DepthToSpace-1 / SpaceToDepth-1 ---------------------------------------------------------------
MODES = ("blocks_first", "depth_first")


def depth_to_space_shape(data, *, block_size, mode):
    """[N, C, D1, ..., DK] -> [N, C / block_size^K, D1 * block_size, ..., DK * block_size]: data has rank >= 3,
    block_size > 0 and C must be a multiple of block_size^K (an interval is divided bound by bound). Dynamic
    rank stays dynamic."""
    op = "DepthToSpace-1"
    check(block_size > 0, op, lambda: f"block_size must be > 0, got {block_size}")
    shape = data.shape
    if not shape.rank_is_static:
        return PartialShape.dynamic()
    check(len(shape) >= 3, op, lambda: f"data must have rank >= 3, got {shape}")
    divisor = block_size ** (len(shape) - 2)
    channels = divide(op, f"depth (dimension 1, block_size^{len(shape) - 2} = {divisor})", shape[1], divisor)
    return PartialShape([shape[0], channels] + [d * block_size for d in shape[2:]])


def space_to_depth_shape(data, *, block_size, mode):
    """[N, C, D1, ..., DK] -> [N, C * block_size^K, D1 / block_size, ..., DK / block_size]: data has rank >= 3,
    block_size > 0 and each spatial dimension must be a multiple of block_size (an interval is divided bound
    by bound). Dynamic rank stays dynamic."""
    op = "SpaceToDepth-1"
    check(block_size > 0, op, lambda: f"block_size must be > 0, got {block_size}")
    shape = data.shape
    if not shape.rank_is_static:
        return PartialShape.dynamic()
    check(len(shape) >= 3, op, lambda: f"data must have rank >= 3, got {shape}")
    spatial = [divide(op, f"spatial dimension {i}", d, block_size) for i, d in enumerate(shape[2:], start=2)]
    return PartialShape([shape[0], shape[1] * block_size ** (len(shape) - 2)] + spatial)


_BLOCK_ATTRS = (Attr("block_size", INT, 1, doc="size of the spatial block"),
                Attr("mode", STRING, allowed=MODES,
                     doc="blocks_first: depth is [block, block, ..., C']; depth_first: [C', block, block, ...]"))

DEPTH_TO_SPACE_1 = OpSchema(
    "DepthToSpace", 1, category="movement", value_bounds="moves",
    inputs=(Port("data", "T", doc="[N, C, D1, ..., DK], rank >= 3, C a multiple of block_size^K"),),
    outputs=(Port("output", "T", doc="[N, C / block_size^K, D1 * block_size, ..., DK * block_size]"),),
    attributes=_BLOCK_ATTRS, type_constraints={"T": ALL}, shape=depth_to_space_shape,
    doc="Rearranges depth into spatial blocks: [N, C, D1, ...] -> [N, C/bs^K, D1*bs, ...].",
)

SPACE_TO_DEPTH_1 = OpSchema(
    "SpaceToDepth", 1, category="movement", value_bounds="moves",
    inputs=(Port("data", "T", doc="[N, C, D1, ..., DK], rank >= 3, each Di a multiple of block_size"),),
    outputs=(Port("output", "T", doc="[N, C * block_size^K, D1 / block_size, ..., DK / block_size]"),),
    attributes=_BLOCK_ATTRS, type_constraints={"T": ALL}, shape=space_to_depth_shape,
    doc="Rearranges spatial blocks into depth: [N, C, D1, ...] -> [N, C*bs^K, D1/bs, ...].",
)


# --- Col2Im-15 ----------------------------------------------------------------------------------------
def col2im_blocks(size: int, k: int, s: int, d: int, pb: int, pe: int) -> int:
    return (size + pb + pe - d * (k - 1) - 1) // s + 1


def col2im_shape(data, output_size, kernel_size, *, strides, dilations, pads_begin, pads_end):
    """[N, C*kh*kw, L] -> [N, C, H, W] (or unbatched [C*kh*kw, L] -> [C, H, W]) with [H, W] = output_size.
    C is the static second-to-last data dimension divided exactly by kh*kw (dynamic when the kernel is
    unknown or that dimension is not static). With both sizes known, L must be able to equal the number of
    block positions (H + pads - dilation*(k-1) - 1) // stride + 1 multiplied over H and W, at least one per axis.
    The four attributes have 2 elements, strides and dilations > 0, pads >= 0, sizes > 0."""
    op = "Col2Im-15"
    for name, v in (("strides", strides), ("dilations", dilations), ("pads_begin", pads_begin),
                    ("pads_end", pads_end)):
        check(len(v) == 2, op, lambda: f"attribute {name!r} must have 2 elements, got {list(v)}")
    check(all(v > 0 for v in strides), op, lambda: f"strides must be > 0, got {list(strides)}")
    check(all(v > 0 for v in dilations), op, lambda: f"dilations must be > 0, got {list(dilations)}")
    check(all(v >= 0 for v in pads_begin + pads_end), op,
          lambda: f"pads must be >= 0, got {list(pads_begin)}, {list(pads_end)}")
    check_1d(op, "output_size", output_size, 2)
    check_1d(op, "kernel_size", kernel_size, 2)
    shape = data.shape
    if not shape.rank_is_static:
        return PartialShape.dynamic()
    check(len(shape) in (2, 3), op, lambda: f"data must be 2-D (unbatched) or 3-D (batched), got {shape}")
    size, kernel = ints_of(output_size), ints_of(kernel_size)
    if size is not None:
        check(all(v > 0 for v in size), op, lambda: f"output_size values must be > 0, got {list(size)}")
    if kernel is not None:
        check(all(v > 0 for v in kernel), op, lambda: f"kernel_size values must be > 0, got {list(kernel)}")
    *batch, ckk, length = shape
    # OpenVINO divides only a static C*kh*kw; an interval gives an unknown channel count.
    channels = Dimension() if kernel is None or not ckk.is_static else divide(
        op, "data dimension C*kernel_size[0]*kernel_size[1]", ckk, product(kernel))
    if size is not None and kernel is not None:
        blocks = [col2im_blocks(*a) for a in zip(size, kernel, strides, dilations, pads_begin, pads_end)]
        check(all(b > 0 for b in blocks), op, lambda: f"no complete block fits: output_size {list(size)}, "
                                                      f"kernel_size {list(kernel)} give {blocks[0]}x{blocks[1]} blocks")
        expected = blocks[0] * blocks[1]
        check(length.contains(expected), op, lambda: f"expected L={expected} blocks ({blocks[0]}x{blocks[1]}) in the "
                                                     f"last data dimension, got {length}")
    spatial = [Dimension(), Dimension()] if size is None else list(size)
    return PartialShape(batch + [channels] + spatial)


COL2IM_15 = OpSchema(
    "Col2Im", 15, category="movement", value_bounds="moves",
    inputs=(Port("data", "T", doc="sliding blocks [N, C*kh*kw, L] or unbatched [C*kh*kw, L], L the block count"),
            Port("output_size", "T_IDX", const=True, doc="1-D [H, W], the image's spatial size, > 0"),
            Port("kernel_size", "T_IDX", const=True, doc="1-D [kh, kw], the block size, > 0")),
    outputs=(Port("output", "T", doc="the image [N, C, H, W] (or [C, H, W]) with overlapping block values summed"),),
    attributes=(Attr("strides", INTS, (1, 1), doc="step between block positions [rows, cols], > 0"),
                Attr("dilations", INTS, (1, 1), doc="distance between the taps of a block [rows, cols], > 0"),
                Attr("pads_begin", INTS, (0, 0),
                    doc="implicit padding before [rows, cols], >= 0; block values landing there are dropped"),
                Attr("pads_end", INTS, (0, 0),
                    doc="implicit padding after [rows, cols], >= 0; block values landing there are dropped")),
    type_constraints={"T": NUMERIC_BYTES, "T_IDX": IDX},   # sums values: no boolean, string, sub-byte
    shape=col2im_shape,
    doc="Sums sliding blocks (N, C*kh*kw, L) back into an image (N, C, H, W); overlapping values add up.",
)


# --- ExtractImagePatches-3 -----------------------------------------------------------------------------
def patch_grid(size: int, k: int, stride: int, rate: int, auto_pad: str) -> tuple[int, int]:
    """(number of patches, zero padding before) along one spatial axis of the given length."""
    eff = rate * (k - 1) + 1
    if auto_pad == "valid":
        return max((size - eff) // stride + 1, 0), 0
    out = -(-size // stride)
    total = max((out - 1) * stride + eff - size, 0)
    return out, total // 2 if auto_pad == "same_upper" else total - total // 2


def extract_image_patches_shape(data, *, sizes, strides, rates, auto_pad):
    """[N, C, H, W] -> [N, C * sizes[0] * sizes[1], out_h, out_w]. 'valid' gives max((D - rate*(size-1) - 1)
    // stride + 1, 0) patches per spatial axis, 'same_upper'/'same_lower' ceil(D / stride); an interval is
    mapped bound by bound. data must be 4-D (dynamic rank gives 4 dynamic dimensions); sizes, strides and
    rates have 2 elements, strides and rates > 0, sizes >= 0."""
    op = "ExtractImagePatches-3"
    for name, v in (("sizes", sizes), ("strides", strides), ("rates", rates)):
        check(len(v) == 2, op, lambda: f"attribute {name!r} must have 2 elements ([rows, cols]), got {list(v)}")
    check(all(v > 0 for v in strides), op, lambda: f"strides must be > 0, got {list(strides)}")
    check(all(v > 0 for v in rates), op, lambda: f"rates must be > 0, got {list(rates)}")
    check(all(v >= 0 for v in sizes), op, lambda: f"sizes must be >= 0, got {list(sizes)}")
    shape = data.shape
    check(not shape.rank_is_static or len(shape) == 4, op, lambda: f"data must be 4-D [N, C, rows, cols], got {shape}")
    if not shape.rank_is_static:
        return PartialShape.dynamic(4)
    n, c, h, w = shape
    spatial = [Dimension(patch_grid(d.lo, k, st, r, auto_pad)[0],
                         None if d.hi is None else patch_grid(d.hi, k, st, r, auto_pad)[0])
               for d, k, st, r in zip((h, w), sizes, strides, rates)]
    return PartialShape([n, c * (sizes[0] * sizes[1])] + spatial)


EXTRACT_IMAGE_PATCHES_3 = OpSchema(
    "ExtractImagePatches", 3, category="movement", value_bounds="moves",
    inputs=(Port("data", "T", doc="the image [N, C, H, W]"),),
    outputs=(Port("output", "T", doc="[N, sizes[0]*sizes[1]*C, out_h, out_w], one flattened patch per output pixel"),),
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


# --- ShuffleChannels-1 ---------------------------------------------------------------------------------
def shuffle_channels_shape(data, *, axis, group):
    """The output has the data's shape. data has rank >= 1, axis lies in [-rank, rank-1], group >= 1, and a
    static dimension at axis must be a multiple of group."""
    op = "ShuffleChannels-1"
    check(group >= 1, op, lambda: f"group must be >= 1, got {group}")
    shape = data.shape
    if not shape.rank_is_static:
        return shape
    check(len(shape) >= 1, op, lambda: f"data must have rank >= 1, got {shape}")
    ax = normalize_axis(op, "axis", axis, len(shape))
    d = shape[ax]
    check(not d.is_static or d.lo % group == 0, op,
          lambda: f"data dimension {ax} ({d}) must be a multiple of group ({group})")
    return shape


SHUFFLE_CHANNELS_1 = OpSchema(
    "ShuffleChannels", 1, category="movement", value_bounds="moves",
    inputs=(Port("data", "T", doc="the tensor of rank >= 1 whose axis dimension holds the channels"),),
    outputs=(Port("output", "T", doc="data with the channels along axis reordered"),),
    attributes=(Attr("axis", INT, 1, doc="the channel axis; negative counts from the end"),
                Attr("group", INT, 1, doc="number of groups the channels are split into")),
    type_constraints={"T": ALL},
    shape=shuffle_channels_shape,
    doc="Splits the channels into group groups and interleaves them: [group, C/group] -> [C/group, group].",
)
