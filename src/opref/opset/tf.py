"""The `tf` domain: TensorFlow ops of the seed documents, with TensorFlow's semantics and names.

Each is a composite of OpenVINO ops — its `body` is written against a builder `g` with
`g.op(versioned_name, *inputs, **attrs)` and `g.const(values)`, like an ONNX function body — and
has its own shape rule with TensorFlow's checks. Layout conversions are Transposes; the
OpenVINO op in the middle does the work (SpaceToBatch-2, BatchToSpace-2, DepthToSpace-1,
GroupConvolution-1).
"""
from __future__ import annotations

import numpy as np

from ..shapes import Dimension, PartialShape
from ..types import ALL, IDX
from .helpers import ceil_div, check, check_1d, divide, ints_of, product
from .schema import INT, INTS, STRING, Attr, OpSchema, Port

NHWC_TO_NCHW, NCHW_TO_NHWC = (0, 3, 1, 2), (0, 2, 3, 1)


# --- SpaceToBatchND / BatchToSpaceND ----------------------------------------------------------------
def _nd_pairs(op, input, block_shape, pairs, pairs_name):
    """Checks block_shape [M] and paddings/crops [M, 2]; returns (M, blocks, pairs) with None where unknown."""
    check_1d(op, "block_shape", block_shape)
    ps = pairs.shape
    check(not ps.rank_is_static or (len(ps) == 2 and ps[1].compatible(2)), op,
          lambda: f"{pairs_name} must have shape [M, 2], got {ps}")
    m = None
    if block_shape.shape.rank_is_static and block_shape.shape[0].is_static:
        m = block_shape.shape[0].lo
    if ps.rank_is_static and ps[0].is_static:
        check(m is None or ps[0].lo == m, op, lambda: f"{pairs_name} must have shape [M, 2] with M = "
                                                      f"{m} (the length of block_shape), got {ps}")
        m = ps[0].lo
    if input.shape.rank_is_static and m is not None:
        check(len(input.shape) >= m + 1, op, lambda: f"input must have rank >= 1 + M = {m + 1}, got {input.shape}")
    blocks = ints_of(block_shape)
    if blocks is not None:
        check(all(b >= 1 for b in blocks), op, lambda: f"block_shape values must be >= 1, got {list(blocks)}")
    vals = None if pairs.value is None else np.asarray(pairs.value).reshape(-1, 2).astype(np.int64)
    if vals is not None:
        check(bool((vals >= 0).all()), op, lambda: f"{pairs_name} values must be >= 0, got {vals.tolist()}")
    return m, blocks, vals


def space_to_batch_nd_shape(input, block_shape, paddings):
    """With M the length of block_shape (1-D) and paddings of shape [M, 2] (values >= 0): batch * prod(block_shape),
    then (input dimension 1+i + paddings[i, 0] + paddings[i, 1]) / block_shape[i] for i < M (exact division; an
    unbounded dimension gives [ceil(lo / block), ?]), then the remaining input dimensions unchanged. input must
    have rank >= 1 + M; block_shape >= 1. Unknown M gives dynamic dimensions of the input's rank, unknown
    values dynamic batch or spatial dimensions."""
    op = "tf.SpaceToBatchND"
    m, blocks, pads = _nd_pairs(op, input, block_shape, paddings, "paddings")
    if not input.shape.rank_is_static:
        return PartialShape.dynamic()
    dims = list(input.shape)
    if m is None:
        return PartialShape.dynamic(len(dims))
    batch = Dimension() if blocks is None else dims[0] * product(blocks)
    spatial = []
    for i in range(m):
        if blocks is None or pads is None:
            spatial.append(Dimension())
            continue
        padded = dims[1 + i] + int(pads[i].sum())
        spatial.append(divide(op, f"padded spatial dimension {i} (input dimension {i + 1} + paddings)",
                              padded, blocks[i]) if padded.hi is not None else
                       Dimension(-(-padded.lo // blocks[i]), None))
    return PartialShape([batch] + spatial + dims[1 + m:])


def space_to_batch_nd(g, input, block_shape, paddings):
    blocks = [int(v) for v in np.asarray(block_shape).reshape(-1)]
    pads = np.asarray(paddings).reshape(-1, 2)
    rest = input.ndim - 1 - len(blocks)
    zero = [0] * rest
    return g.op("SpaceToBatch-2", input, g.const([1] + blocks + [1] * rest),
                g.const([0] + pads[:, 0].tolist() + zero), g.const([0] + pads[:, 1].tolist() + zero))


def batch_to_space_nd_shape(input, block_shape, crops):
    """With M the length of block_shape (1-D) and crops of shape [M, 2] (values >= 0): batch / prod(block_shape)
    (exact division), then input dimension 1+i * block_shape[i] - crops[i, 0] - crops[i, 1] for i < M (the crop
    may not exceed a static grown length), then the remaining input dimensions unchanged. input must have
    rank >= 1 + M; block_shape >= 1. Unknown M gives dynamic dimensions of the input's rank, unknown values
    dynamic batch or spatial dimensions."""
    op = "tf.BatchToSpaceND"
    m, blocks, crop = _nd_pairs(op, input, block_shape, crops, "crops")
    if not input.shape.rank_is_static:
        return PartialShape.dynamic()
    dims = list(input.shape)
    if m is None:
        return PartialShape.dynamic(len(dims))
    batch = Dimension() if blocks is None else divide(
        op, f"input batch dimension (prod(block_shape) = {product(blocks)})", dims[0], product(blocks))
    spatial = []
    for i in range(m):
        if blocks is None or crop is None:
            spatial.append(Dimension())
            continue
        grown, c = dims[1 + i] * blocks[i], int(crop[i].sum())
        check(grown.is_dynamic or c <= grown.lo, op, lambda: f"crops[{i}] sum {c} must be <= block_shape[{i}] * "
                                                             f"input dimension {i + 1} = {grown}")
        spatial.append(grown - c)
    return PartialShape([batch] + spatial + dims[1 + m:])


def batch_to_space_nd(g, input, block_shape, crops):
    blocks = [int(v) for v in np.asarray(block_shape).reshape(-1)]
    crop = np.asarray(crops).reshape(-1, 2)
    rest = input.ndim - 1 - len(blocks)
    zero = [0] * rest
    return g.op("BatchToSpace-2", input, g.const([1] + blocks + [1] * rest),
                g.const([0] + crop[:, 0].tolist() + zero), g.const([0] + crop[:, 1].tolist() + zero))


SPACE_TO_BATCH_ND = OpSchema(
    "SpaceToBatchND", None, category="movement", value_bounds="moves", domain="tf",
    inputs=(Port("input", "T", doc="[batch, spatial_1..spatial_M, rest...], rank >= 1 + M"),
            Port("block_shape", "Tblock_shape", const=True, doc="1-D [M] block size per spatial dimension, >= 1"),
            Port("paddings", "Tpaddings", const=True,
                 doc="[M, 2] zeros added before and after each spatial dimension, >= 0")),
    outputs=(Port("output", "T", doc="[batch * prod(block_shape), padded spatial_i / block_shape[i], rest...]"),),
    type_constraints={"T": ALL, "Tblock_shape": IDX, "Tpaddings": IDX},
    shape=space_to_batch_nd_shape, body=space_to_batch_nd,
    doc="tf.raw_ops.SpaceToBatchND: zero-pads spatial dims 1..M and moves blocks into the batch.",
)

BATCH_TO_SPACE_ND = OpSchema(
    "BatchToSpaceND", None, category="movement", value_bounds="moves", domain="tf",
    inputs=(Port("input", "T", doc="[batch, spatial_1..spatial_M, rest...], rank >= 1 + M, batch a multiple "
                                    "of prod(block_shape)"),
            Port("block_shape", "Tblock_shape", const=True, doc="1-D [M] block size per spatial dimension, >= 1"),
            Port("crops", "Tcrops", const=True,
                 doc="[M, 2] elements cropped from the start and end of each grown spatial dimension, >= 0")),
    outputs=(Port("output", "T", doc="[batch / prod(block_shape), spatial_i * block_shape[i] - crops, rest...]"),),
    type_constraints={"T": ALL, "Tblock_shape": IDX, "Tcrops": IDX},
    shape=batch_to_space_nd_shape, body=batch_to_space_nd,
    doc="tf.raw_ops.BatchToSpaceND: moves batch blocks into spatial dims 1..M, then crops them.",
)


# --- DepthToSpace -------------------------------------------------------------------------------------
DATA_FORMATS = ("NHWC", "NCHW", "NCHW_VECT_C")


def tf_depth_to_space_shape(input, *, block_size, data_format):
    """NHWC [N, H, W, C] -> [N, H*bs, W*bs, C/bs^2]; NCHW [N, C, H, W] -> [N, C/bs^2, H*bs, W*bs];
    NCHW_VECT_C [N, C/4, H, W, 4] -> [N, C/4/bs^2, H*bs, W*bs, 4] (int8 input only, last dimension 4). The
    depth must be a multiple of bs^2 and block_size >= 2; the rank must be 4 (5 for NCHW_VECT_C), and an
    unknown rank gives that many dynamic dimensions."""
    op = "tf.DepthToSpace"
    check(block_size >= 2, op, lambda: f"block_size must be >= 2, got {block_size}")
    shape = input.shape
    if data_format == "NCHW_VECT_C":
        check(input.element_type == "i8", op, lambda: f"NCHW_VECT_C takes int8 (qint8) input, got {input.element_type}")
    rank = 5 if data_format == "NCHW_VECT_C" else 4
    if not shape.rank_is_static:
        return PartialShape.dynamic(rank)
    check(len(shape) == rank, op, lambda: f"input must have rank {rank} for {data_format}, got {shape}")
    bs2 = block_size * block_size
    if data_format == "NHWC":
        n, h, w, c = shape
        return PartialShape([n, h * block_size, w * block_size, divide(op, f"depth (block_size^2 = {bs2})", c, bs2)])
    if data_format == "NCHW":
        n, c, h, w = shape
        return PartialShape([n, divide(op, f"depth (block_size^2 = {bs2})", c, bs2), h * block_size, w * block_size])
    n, c4, h, w, v = shape
    check(v.compatible(4), op, lambda: f"NCHW_VECT_C input must have last dimension 4, got {shape}")
    return PartialShape([n, divide(op, f"depth/4 (block_size^2 = {bs2})", c4, bs2), h * block_size,
                         w * block_size, 4])


def tf_depth_to_space(g, input, *, block_size, data_format):
    if data_format == "NCHW":
        return g.op("DepthToSpace-1", input, block_size=block_size, mode="blocks_first")
    if data_format == "NHWC":
        x = g.op("Transpose-1", input, g.const(NHWC_TO_NCHW))
        y = g.op("DepthToSpace-1", x, block_size=block_size, mode="blocks_first")
        return g.op("Transpose-1", y, g.const(NCHW_TO_NHWC))
    # NCHW_VECT_C: [N, C/4, H, W, 4] holds channel c at (c // 4, ..., c % 4)
    n, c4, h, w, _ = input.shape
    x = g.op("Transpose-1", input, g.const((0, 1, 4, 2, 3)))
    x = g.op("Reshape-1", x, g.const((n, c4 * 4, h, w)), special_zero=False)
    y = g.op("DepthToSpace-1", x, block_size=block_size, mode="blocks_first")
    bs = block_size
    y = g.op("Reshape-1", y, g.const((n, c4 // (bs * bs), 4, h * bs, w * bs)), special_zero=False)
    return g.op("Transpose-1", y, g.const((0, 1, 3, 4, 2)))


TF_DEPTH_TO_SPACE = OpSchema(
    "DepthToSpace", None, category="movement", value_bounds="moves", domain="tf",
    inputs=(Port("input", "T", doc="4-D image in data_format (NCHW_VECT_C: 5-D int8 [N, C/4, H, W, 4]); depth a "
                                    "multiple of block_size^2"),),
    outputs=(Port("output", "T", doc="the image in the same layout, depth / block_size^2 and H, W times block_size"),),
    attributes=(Attr("block_size", INT, doc="spatial block size, >= 2"),
                Attr("data_format", STRING, "NHWC", allowed=DATA_FORMATS,
                     doc="layout of input and output: NHWC (default), NCHW, or NCHW_VECT_C (channels in groups "
                         "of 4 in a last axis)")),
    type_constraints={"T": ALL},
    shape=tf_depth_to_space_shape, body=tf_depth_to_space,
    doc="tf.nn.depth_to_space: depth chunks of block_size^2 become spatial blocks (DCR order).",
)


# --- DepthwiseConv2dNative ----------------------------------------------------------------------------
def _hw(data_format, values):
    return (values[1], values[2]) if data_format == "NHWC" else (values[2], values[3])


def depthwise_conv2d_native_shape(input, filter, *, strides, padding, data_format, dilations):
    """[N, H, W, C] (NHWC) or [N, C, H, W] (NCHW) with filter [kh, kw, C, M] gives C*M output channels and
    spatial sizes ceil(D / stride) for SAME, ceil((D - dilation*(k-1)) / stride) for VALID (an interval bound
    by bound; dynamic when k is). input and filter are 4-D, the input depth must equal the filter's
    in_channels, strides and dilations have 4 values >= 1 with 1 in the batch and depth dimensions, and VALID
    rejects a filter larger than the whole input."""
    op = "tf.DepthwiseConv2dNative"
    check(len(strides) == 4, op, lambda: f"strides must have 4 elements, got {list(strides)}")
    check(len(dilations) == 4, op, lambda: f"dilations must have 4 elements, got {list(dilations)}")
    c_axis = 3 if data_format == "NHWC" else 1
    check(strides[0] == 1 and strides[c_axis] == 1, op,
          lambda: f"strides in the batch and depth dimensions must be 1, got {list(strides)} ({data_format})")
    check(dilations[0] == 1 and dilations[c_axis] == 1, op,
          lambda: f"dilations in the batch and depth dimensions must be 1, got {list(dilations)} ({data_format})")
    check(all(v >= 1 for v in strides + dilations), op, lambda: f"strides and dilations must be >= 1, got "
                                                                f"{list(strides)}, {list(dilations)}")
    fs = filter.shape
    check(not fs.rank_is_static or len(fs) == 4, op, lambda: f"filter must be 4-D [H, W, in_channels, "
                                                             f"channel_multiplier], got {fs}")
    shape = input.shape
    check(not shape.rank_is_static or len(shape) == 4, op, lambda: f"input must be 4-D, got {shape}")
    dims = list(shape) if shape.rank_is_static else [Dimension()] * 4
    fdims = list(fs) if fs.rank_is_static else [Dimension()] * 4
    n, c = dims[0], dims[c_axis]
    h, w = _hw(data_format, dims)
    check(c.compatible(fdims[2]), op, lambda: f"input depth {c} must equal filter in_channels {fdims[2]}")
    c = c.merge(fdims[2])
    out_hw = []
    for d, k, s, dl in zip((h, w), fdims[:2], _hw(data_format, strides), _hw(data_format, dilations)):
        if padding == "SAME":
            out_hw.append(ceil_div(d, s))
        elif not k.is_static:
            out_hw.append(Dimension())
        else:
            eff = dl * (k.lo - 1) + 1
            lo = max(-(-(d.lo - eff + 1) // s), 0)
            hi = None if d.hi is None else max(-(-(d.hi - eff + 1) // s), 0)
            check(hi is None or hi > 0 or d.hi is None, op,
                  lambda: f"VALID: filter ({k}, dilation {dl}) is larger than "
                          f"the input ({d})")
            out_hw.append(Dimension(lo, hi))
    out_c = c * fdims[3]
    if data_format == "NHWC":
        return PartialShape([n, *out_hw, out_c])
    return PartialShape([n, out_c, *out_hw])


def depthwise_conv2d_native(g, input, filter, *, strides, padding, data_format, dilations):
    x = g.op("Transpose-1", input, g.const(NHWC_TO_NCHW)) if data_format == "NHWC" else input
    kh, kw, c, m = filter.shape
    # [H, W, C, M] -> [C, M, H, W] -> GroupConvolution's [G=C, C_OUT/G=M, C_IN/G=1, H, W]
    f = g.op("Transpose-1", filter, g.const((2, 3, 0, 1)))
    f = g.op("Reshape-1", f, g.const((c, m, 1, kh, kw)), special_zero=False)
    y = g.op("GroupConvolution-1", x, f, strides=_hw(data_format, strides), dilations=_hw(data_format, dilations),
             pads_begin=(0, 0), pads_end=(0, 0), auto_pad="same_upper" if padding == "SAME" else "valid")
    return g.op("Transpose-1", y, g.const(NCHW_TO_NHWC)) if data_format == "NHWC" else y


DEPTHWISE_CONV2D_NATIVE = OpSchema(
    "DepthwiseConv2dNative", None, category="convolution", domain="tf",
    inputs=(Port("input", "T", doc="4-D image [N, H, W, C] (NHWC) or [N, C, H, W] (NCHW)"),
            Port("filter", "T", doc="[kh, kw, C, M]: M filters per input channel")),
    outputs=(Port("output", "T", doc="4-D image in data_format with C*M channels"),),
    attributes=(Attr("strides", INTS, doc="4 values, 1 in the batch and depth dimensions"),
                Attr("padding", STRING, allowed=("SAME", "VALID"),
                     doc="SAME: zero padding to ceil(D / stride) outputs, the odd pixel at the end; VALID: none"),
                Attr("data_format", STRING, "NHWC", allowed=("NHWC", "NCHW"), doc="layout of input and output"),
                Attr("dilations", INTS, (1, 1, 1, 1),
                     doc="4 values >= 1, distance between filter taps; 1 in the batch and depth dimensions")),
    type_constraints={"T": ("f16", "bf16", "f32", "f64")},
    shape=depthwise_conv2d_native_shape, body=depthwise_conv2d_native,
    doc="tf.nn.depthwise_conv2d_native: filter [H, W, in_channels, channel_multiplier]; output channel "
        "k*multiplier + q comes from input channel k.",
)

OPS = (SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND, TF_DEPTH_TO_SPACE, DEPTHWISE_CONV2D_NATIVE)
