"""Block rearrangements: Reshape -> Transpose -> Reshape, with the shapes computed from Shape at run
time (dims may be dynamic; the rank must be known to write the permutation). Spelling them out,
rather than using ONNX DepthToSpace/SpaceToDepth (rank 4, f32/f64/i8/u8 kernels, no blocks_first
SpaceToDepth), takes every rank, mode and element type.

- DepthToSpace, SpaceToDepth, ShuffleChannels: the reshape/transpose they are defined by.
- SpaceToBatch: Pad (zeros; strings by Concat) then the blocks moved into the batch; BatchToSpace:
  the blocks moved out of the batch, then a Slice crops. The tf.*ND forms are them with block 1 on the other axes;
  tf.DepthToSpace is DepthToSpace blocks_first with NHWC / NCHW_VECT_C transposed around it.
- Col2Im is ONNX Col2Im (batched only: an unbatched input gets an axis of 1). onnxruntime sums in f32
  only: f16/bf16/f8 sum in f32 as opref does; 8/16-bit integers too when no sum of kernel-size terms
  can leave f32's exact integers (then wrapped back through i32). Wider integers and f64 are one
  ScatterElements(add) of the columns to constant targets in the padded image, in their own type.
- ExtractImagePatches: one strided Slice per kernel tap of the zero-padded data, concatenated; the
  patch grid depends on the spatial dims, which must be static.
"""
from __future__ import annotations

import numpy as np

from ..opset.movement import patch_grid
from ..types import element_type
from .builder import Unsupported
from .movement import BIG, const_pad, data_type, dim, dims, ints_of, moved, reshape, slice_


def _interleave(b, sizes, blocks):
    """[s1, b1, s2, b2, ...] from a run-time 1-D `sizes` and constant `blocks`."""
    pairs = b.node("Concat", [b.node("Unsqueeze", [sizes, b.i64([1])]),
                              b.const(np.asarray(blocks, np.int64).reshape(-1, 1))],
                   axis=1)
    return reshape(b, pairs, b.i64([-1]))


def _need_rank(x, op):
    return None if x.rank is not None else Unsupported(f"{op} of data of dynamic rank (the permutation needs it)")


# --- DepthToSpace, SpaceToDepth, ShuffleChannels -------------------------------------------------------------
def depth_to_space(b, x, k, bs, blocks_first):
    """x [N, C, D1..Dk] -> [N, C / bs^k, D1 bs, ..., Dk bs]."""
    n, c, sp = dims(b, x, 0, 1), dim(b, x, 1), dims(b, x, 2)
    cp = b.node("Div", [c, b.i64([bs ** k])])
    if blocks_first:
        grid = b.node("Concat", [n, b.i64([bs] * k), cp, sp], axis=0) if k else b.node("Concat", [n, cp, sp], axis=0)
        perm = [0, k + 1] + [a for i in range(k) for a in (k + 2 + i, 1 + i)]
    else:
        grid = b.node("Concat", [n, cp, b.i64([bs] * k), sp], axis=0) if k else b.node("Concat", [n, cp, sp], axis=0)
        perm = [0, 1] + [a for i in range(k) for a in (k + 2 + i, 2 + i)]
    y = b.node("Transpose", [reshape(b, x, grid)], perm=perm)
    return reshape(b, y, b.node("Concat", [n, cp, b.node("Mul", [sp, b.i64([bs])])], axis=0))


def _depth_to_space(b, call, x, ct):
    data = call.inputs[0]
    if (why := _need_rank(data, "DepthToSpace")) is not None:
        return why
    return depth_to_space(b, x, data.rank - 2, call.attrs["block_size"], call.attrs["mode"] == "blocks_first")


def _space_to_depth(b, call, x, ct):
    data = call.inputs[0]
    if (why := _need_rank(data, "SpaceToDepth")) is not None:
        return why
    k, bs = data.rank - 2, call.attrs["block_size"]
    nc, c, sp = dims(b, x, 0, 2), dim(b, x, 1), dims(b, x, 2)
    reduced = b.node("Div", [sp, b.i64([bs])])
    y = reshape(b, x, b.node("Concat", [nc, _interleave(b, reduced, [bs] * k)], axis=0) if k else nc)
    blocks, kept = [3 + 2 * i for i in range(k)], [2 + 2 * i for i in range(k)]
    perm = [0] + (blocks + [1] if call.attrs["mode"] == "blocks_first" else [1] + blocks) + kept
    y = b.node("Transpose", [y], perm=perm)
    return reshape(b, y, b.node("Concat", [dims(b, x, 0, 1), b.node("Mul", [c, b.i64([bs ** k])]), reduced],
                                axis=0))


def _shuffle_channels(b, call, x, ct):
    data = call.inputs[0]
    if (why := _need_rank(data, "ShuffleChannels")) is not None:
        return why
    r, g = data.rank, call.attrs["group"]
    ax = call.attrs["axis"] + (r if call.attrs["axis"] < 0 else 0)
    grid = b.node("Concat", [dims(b, x, 0, ax), b.i64([g]), b.node("Div", [dim(b, x, ax), b.i64([g])]),
                             b.node("Shape", [x], start=ax + 1)], axis=0)
    perm = list(range(r + 1))
    perm[ax], perm[ax + 1] = ax + 1, ax
    return reshape(b, b.node("Transpose", [reshape(b, x, grid)], perm=perm), b.node("Shape", [x]))


# --- SpaceToBatch, BatchToSpace (and the TF forms) ---------------------------------------------------------------
def space_to_batch(b, x, ct, blocks, pb, pe):
    """x [B, D1..Dk] zero-padded, then [B prod(blocks), (D1 + pads) / b1, ...]; blocks[0] is 1."""
    k = len(blocks) - 1
    if any(pb) or any(pe):
        x = const_pad(b, x, ct, pb, pe)
    batch, sp = dims(b, x, 0, 1), dims(b, x, 1)
    reduced = b.node("Div", [sp, b.i64(blocks[1:])])
    y = reshape(b, x, b.node("Concat", [batch, _interleave(b, reduced, blocks[1:])], axis=0))
    y = b.node("Transpose", [y], perm=[2 + 2 * i for i in range(k)] + [0] + [1 + 2 * i for i in range(k)])
    return reshape(b, y, b.node("Concat", [b.node("Mul", [batch, b.i64([int(np.prod(blocks))])]), reduced], axis=0))


def batch_to_space(b, x, blocks, cb, ce):
    """x [B prod(blocks), D1..Dk] -> [B, D1 b1 - crops, ...]; blocks[0] is 1."""
    k = len(blocks) - 1
    batch = b.node("Div", [dims(b, x, 0, 1), b.i64([int(np.prod(blocks))])])
    sp = dims(b, x, 1)
    y = reshape(b, x, b.node("Concat", [b.i64(blocks[1:]), batch, sp], axis=0) if k else batch)
    y = b.node("Transpose", [y], perm=[k] + [a for i in range(k) for a in (k + 1 + i, i)])
    y = reshape(b, y, b.node("Concat", [batch, b.node("Mul", [sp, b.i64(blocks[1:])])], axis=0) if k else batch)
    cut = [a for a in range(1, k + 1) if cb[a] or ce[a]]
    if cut:
        y = slice_(b, y, [cb[a] for a in cut], [-ce[a] if ce[a] else BIG for a in cut], cut)
    return y


def _blocks(b, call):
    blocks, first, second = (ints_of(v) for v in call.inputs[1:4])
    if blocks[0] != 1:
        return Unsupported("a block over the batch axis", f"block_shape {blocks}")
    return blocks, first, second


def _space_to_batch(b, call, x, ct):
    got = _blocks(b, call)
    return got if isinstance(got, Unsupported) else space_to_batch(b, x, ct, *got)


def _batch_to_space(b, call, x, ct):
    got = _blocks(b, call)
    return got if isinstance(got, Unsupported) else batch_to_space(b, x, *got)


def _tf_nd(call):
    data, block, pairs = call.inputs
    if data.rank is None:
        return Unsupported("TF SpaceToBatchND/BatchToSpaceND of data of dynamic rank")
    m = ints_of(block)
    rest = [0] * (data.rank - 1 - len(m))
    p = np.asarray(pairs.value, np.int64).reshape(-1, 2)
    return [1] + m + [1] * len(rest), [0] + p[:, 0].tolist() + rest, [0] + p[:, 1].tolist() + rest


def _tf_space_to_batch(b, call, x, ct):
    got = _tf_nd(call)
    return got if isinstance(got, Unsupported) else space_to_batch(b, x, ct, *got)


def _tf_batch_to_space(b, call, x, ct):
    got = _tf_nd(call)
    return got if isinstance(got, Unsupported) else batch_to_space(b, x, *got)


def _tf_depth_to_space(b, call, x, ct):
    bs, fmt = call.attrs["block_size"], call.attrs["data_format"]
    if fmt == "NCHW":
        return depth_to_space(b, x, 2, bs, True)
    if fmt == "NHWC":
        y = depth_to_space(b, b.node("Transpose", [x], perm=[0, 3, 1, 2]), 2, bs, True)
        return b.node("Transpose", [y], perm=[0, 2, 3, 1])
    # NCHW_VECT_C: [N, C/4, H, W, 4] holds channel c at (c // 4, ..., c % 4)
    n, c4, hw = dims(b, x, 0, 1), dim(b, x, 1), dims(b, x, 2, 4)
    y = reshape(b, b.node("Transpose", [x], perm=[0, 1, 4, 2, 3]),
                b.node("Concat", [n, b.node("Mul", [c4, b.i64([4])]), hw], axis=0))
    y = depth_to_space(b, y, 2, bs, True)
    y = reshape(b, y, b.node("Concat", [n, b.node("Div", [c4, b.i64([bs * bs])]), b.i64([4]),
                                        b.node("Mul", [hw, b.i64([bs])])], axis=0))
    return b.node("Transpose", [y], perm=[0, 1, 3, 4, 2])


# --- Col2Im, ExtractImagePatches ---------------------------------------------------------------------------------
def _col2im(b, call):
    data, size, kernel = call.inputs
    et = data.et
    taps = int(np.prod(ints_of(kernel)))
    exact_in_f32 = not et.is_integral and data.element_type != "f64"
    if et.is_integral:
        info = np.iinfo(et.dtype)
        exact_in_f32 = et.bits <= 16 and max(abs(int(info.min)), int(info.max)) * taps < 2**24
    if not exact_in_f32:
        return _col2im_scatter(b, call)
    x = b.cast(data, "f32", data.element_type)
    if data.rank == 2:
        x = b.node("Unsqueeze", [x, b.i64([0])])
    a = call.attrs
    y = b.node("Col2Im", [x, b.cast(size, "i64", size.element_type), b.cast(kernel, "i64", kernel.element_type)],
               strides=list(a["strides"]), dilations=list(a["dilations"]),
               pads=list(a["pads_begin"]) + list(a["pads_end"]))
    if data.rank == 2:
        y = b.node("Squeeze", [y, b.i64([0])])
    if et.is_integral:          # f32 -> i32 is exact here, i32 -> the 8/16-bit type wraps as opref's sum
        y = b.cast(y, "i32", "f32")
        return b.cast(y, call.outputs[0].element_type, "i32")
    return b.cast(y, call.outputs[0].element_type, "f32")


def _col2im_scatter(b, call):
    """Col2Im as one ScatterElements(add) of the columns into the padded image: the target of every
    column element is a constant (output_size and kernel_size are), the sums run tap by tap in the
    data's own type (integers wrap, f64 adds in opref's order)."""
    data, size, kernel = call.inputs
    ct = data_type(b, data, "ScatterElements", "Expand", "Reshape", "Slice")
    if isinstance(ct, Unsupported):
        return ct
    a = call.attrs
    (h, w), (kh, kw) = ints_of(size), ints_of(kernel)
    (sh, sw), (dh, dw), (pt, pl), (pb, pr) = a["strides"], a["dilations"], a["pads_begin"], a["pads_end"]
    hp, wp = h + pt + pb, w + pl + pr
    bh, bw = (hp - dh * (kh - 1) - 1) // sh + 1, (wp - dw * (kw - 1) - 1) // sw + 1
    i, j, p, q = np.ogrid[:kh, :kw, :bh, :bw]
    at = ((i * dh + p * sh) * wp + (j * dw + q * sw)).reshape(-1).astype(np.int64)
    x = b.cast(data, ct, data.element_type)
    if data.rank == 2:
        x = b.node("Unsqueeze", [x, b.i64([0])])
    n, c = dims(b, x, 0, 1), b.node("Div", [dim(b, x, 1), b.i64([kh * kw])])
    cols = reshape(b, x, b.node("Concat", [n, c, b.i64([at.size])], axis=0))
    zero = b.node("Expand", [b.const(np.zeros((), element_type(ct).dtype), ct),
                             b.node("Concat", [n, c, b.i64([hp * wp])], axis=0)])
    idx = b.node("Expand", [b.const(at, "i64"), b.node("Shape", [cols])])
    y = b.node("ScatterElements", [zero, idx, cols], axis=2, reduction="add")
    y = slice_(b, reshape(b, y, b.node("Concat", [n, c, b.i64([hp, wp])], axis=0)), [pt, pl], [pt + h, pl + w],
               [2, 3])
    if data.rank == 2:
        y = b.node("Squeeze", [y, b.i64([0])])
    return b.cast(y, call.outputs[0].element_type, ct)


def _extract_image_patches(b, call, x, ct):
    data = call.inputs[0]
    a = call.attrs
    if data.rank is None or not all(d.is_static for d in list(data.shape)[2:]):
        return Unsupported("ExtractImagePatches with dynamic spatial dims (the patch grid needs them)")
    h, w = (d.length for d in list(data.shape)[2:])
    (kh, kw), (sh, sw), (rh, rw) = a["sizes"], a["strides"], a["rates"]
    (oh, pt), (ow, pl) = patch_grid(h, kh, sh, rh, a["auto_pad"]), patch_grid(w, kw, sw, rw, a["auto_pad"])
    if oh * ow * kh * kw == 0:     # no patches (or empty ones): the output is empty
        zero = b.const(np.zeros((), element_type(ct).dtype), ct)
        return b.node("Expand", [zero, b.node("Concat", [dims(b, x, 0, 1), b.node("Mul", [dim(b, x, 1),
                                                         b.i64([kh * kw])]), b.i64([oh, ow])], axis=0)])
    pb = [(oh - 1) * sh + rh * (kh - 1) + 1 - pt - h, (ow - 1) * sw + rw * (kw - 1) + 1 - pl - w]
    pads = [0, 0, pt, pl, 0, 0, max(pb[0], 0), max(pb[1], 0)]
    if any(pads):
        x = const_pad(b, x, ct, pads[:4], pads[4:])
    taps = [slice_(b, x, [i * rh, j * rw], [i * rh + (oh - 1) * sh + 1, j * rw + (ow - 1) * sw + 1], [2, 3], [sh, sw])
            for i in range(kh) for j in range(kw)]                       # each [N, C, oh, ow]
    y = b.node("Concat", taps, axis=1) if len(taps) > 1 else taps[0]     # [N, (kh kw C)] as (tap, channel)
    return y


LOWERINGS = {
    "DepthToSpace-1": moved(_depth_to_space, "Reshape", "Transpose"),
    "SpaceToDepth-1": moved(_space_to_depth, "Reshape", "Transpose"),
    "ShuffleChannels-1": moved(_shuffle_channels, "Reshape", "Transpose"),
    "SpaceToBatch-2": moved(_space_to_batch, "Expand", "Concat", "Reshape", "Transpose"),
    "BatchToSpace-2": moved(_batch_to_space, "Reshape", "Transpose", "Slice"),
    "tf.SpaceToBatchND": moved(_tf_space_to_batch, "Expand", "Concat", "Reshape", "Transpose"),
    "tf.BatchToSpaceND": moved(_tf_batch_to_space, "Reshape", "Transpose", "Slice"),
    "tf.DepthToSpace": moved(_tf_depth_to_space, "Reshape", "Transpose"),
    "Col2Im-15": _col2im,
    "ExtractImagePatches-3": moved(_extract_image_patches, "Slice", "Concat", "Expand"),
}
NO_ONNX: dict[str, str] = {}
