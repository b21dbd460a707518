"""Data-movement kernels: reshapes, transposes, index arithmetic. They move values, never compute
them, so every element type (strings, sub-byte types held unpacked) goes through unchanged."""
from __future__ import annotations

import math

import numpy as np

from ...errors import InputError
from ...opset.movement import patch_grid, slice_index, strided_slice_index, unique_values
from ...types import accumulator_dtype, element_type
from ..limits import check_holdable


def _check_range(op, port, idx, n, negative=True, what="indices"):
    """Index values (int64, any shape; `n` broadcasts against them: one size per column) within
    [-n, n) (negative counting from the end) or [0, n): else an InputError naming the op and input."""
    n = np.asarray(n, np.int64)
    lo = -n if negative else np.zeros_like(n)
    bad = (idx < lo) | (idx >= n)
    if np.any(bad):
        at = tuple(int(k) for k in np.argwhere(bad)[0])
        size = int(np.broadcast_to(n, bad.shape)[at])
        allowed = f"[{-size}, {size - 1}]" if negative else f"[0, {size - 1}]"
        raise InputError(f"{op}: input {port!r} holds {what} {int(idx[at])} at {list(at)}, outside {allowed}"
                         + (" (the axis is empty)" if size == 0 else ""))


def _ints(x):
    return [int(v) for v in np.asarray(x).reshape(-1).tolist()]


# SpaceToBatch, BatchToSpace and DepthToSpace move each block offset b (a tuple, one entry per
# spatial axis) in one strided slice assignment into a preallocated output: a single copy whose inner
# loop runs along whole data rows (a transpose-then-reshape copy would run along the short block axes
# when they are innermost in the output; SpaceToDepth's are not, so one transposed copy does).
def _every(offsets, step):
    """The slices start::step per axis, for a block offset."""
    return tuple(slice(o, None, s) for o, s in zip(offsets, step))


def _new(shape, dtype, filled):
    """An output array, holding the type's zero (0, False, "") when some of it is padding."""
    return np.full(shape, _zero(dtype), dtype) if filled else np.empty(shape, dtype)


def space_to_batch(data, block_shape, pads_begin, pads_end):
    blocks, pb, pe = _ints(block_shape)[1:], _ints(pads_begin)[1:], _ints(pads_end)[1:]
    batch, sizes = data.shape[0], data.shape[1:]
    grid = [(d + b + e) // k for d, b, e, k in zip(sizes, pb, pe, blocks)]
    shape = [batch * math.prod(blocks)] + grid
    if 0 in shape:          # no element: no block offset to move (there may be very many)
        check_holdable("SpaceToBatch-2", "output 'output'", shape, data.dtype)
        return np.empty(shape, data.dtype)
    out = _new(shape, data.dtype, any(pb + pe))
    # output[(r, b), q] = padded data[b, q * block + r]; the data itself starts at pads_begin
    per_offset = out.reshape(blocks + [batch] + grid)
    for r in np.ndindex(*blocks):
        first = [(o - b) % k for o, b, k in zip(r, pb, blocks)]             # first data index at offset r
        rows = [len(range(f, d, k)) for f, d, k in zip(first, sizes, blocks)]
        at = tuple(slice((f + b) // k, (f + b) // k + m) for f, b, k, m in zip(first, pb, blocks, rows))
        per_offset[r][(slice(None),) + at] = data[(slice(None),) + _every(first, blocks)]
    return out


def batch_to_space(data, block_shape, crops_begin, crops_end):
    blocks, cb, ce = _ints(block_shape)[1:], _ints(crops_begin)[1:], _ints(crops_end)[1:]
    sizes = list(data.shape[1:])
    batch = data.shape[0] // int(np.prod(blocks))
    span = [d * k - b - e for d, k, b, e in zip(sizes, blocks, cb, ce)]
    out = np.empty([batch] + span, data.dtype)
    # output[b, q * block + r - crops_begin] = data[(r, b), q]
    per_offset = data.reshape(blocks + [batch] + sizes)
    for r in np.ndindex(*blocks):
        first = [(o - b) % k for o, b, k in zip(r, cb, blocks)]             # first output index at offset r
        rows = [len(range(f, s, k)) for f, s, k in zip(first, span, blocks)]
        at = tuple(slice((f + b) // k, (f + b) // k + m) for f, b, k, m in zip(first, cb, blocks, rows))
        out[(slice(None),) + _every(first, blocks)] = per_offset[r][(slice(None),) + at]
    return out


def depth_to_space(data, *, block_size, mode):
    n, c, *spatial = data.shape
    k, bs = len(spatial), block_size
    c_out = c // bs ** k
    out = np.empty([n, c_out] + [d * bs for d in spatial], data.dtype)
    if mode == "blocks_first":     # depth is [bs, ..., bs, C']: x[:, b] is block offset b's channels
        x = data.reshape([n] + [bs] * k + [c_out] + spatial)
    else:                          # depth_first: depth is [C', bs, ..., bs]
        x = np.moveaxis(data.reshape([n, c_out] + [bs] * k + spatial), 1, k + 1)
    for b in np.ndindex(*[bs] * k):
        out[(slice(None), slice(None)) + _every(b, [bs] * k)] = x[(slice(None),) + b]
    return out


def space_to_depth(data, *, block_size, mode):
    n, c, *spatial = data.shape
    k, bs = len(spatial), block_size
    # [N, C, D1/bs, bs, D2/bs, bs, ...]
    x = data.reshape([n, c] + [v for d in spatial for v in (d // bs, bs)])
    blocks = [3 + 2 * i for i in range(k)]
    reduced = [2 + 2 * i for i in range(k)]
    order = [0] + (blocks + [1] if mode == "blocks_first" else [1] + blocks) + reduced
    return x.transpose(order).reshape([n, c * bs ** k] + [d // bs for d in spatial])


def col2im(data, output_size, kernel_size, *, strides, dilations, pads_begin, pads_end):
    x = data if data.ndim == 3 else data[None]                  # unbatched -> N=1
    (h, w), (kh, kw) = _ints(output_size), _ints(kernel_size)
    (sh, sw), (dh, dw) = strides, dilations
    (pt, pl), (pb, pr) = pads_begin, pads_end
    bh = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1
    bw = (w + pl + pr - dw * (kw - 1) - 1) // sw + 1
    n = x.shape[0]
    cols = x.reshape(n, -1, kh, kw, bh, bw)                      # C is outermost in C*kh*kw
    acc = accumulator_dtype(x.dtype)
    padded = np.zeros((n, cols.shape[1], h + pt + pb, w + pl + pr), dtype=acc)
    for i in range(kh):                                          # one strided slab per kernel tap;
        for j in range(kw):                                      # overlapping blocks sum
            padded[:, :, i * dh: i * dh + sh * (bh - 1) + 1: sh,
                   j * dw: j * dw + sw * (bw - 1) + 1: sw] += cols[:, :, i, j]
    out = padded[:, :, pt: pt + h, pl: pl + w].astype(x.dtype, copy=False)
    return out if data.ndim == 3 else out[0]


def transpose(data, input_order):
    return _transpose_to(input_order)(data)


def _transpose_to(input_order):
    """Transpose bound to its order (PREPARED): kernel(data, ...) gives the view of data with its axes in that order
    (reversed where the order is empty)."""
    order = np.asarray(input_order).reshape(-1).tolist() or None

    def kernel(data, *_):
        return data.transpose(order)
    return kernel


def _zero(dtype):
    """The padding / filler value of a type: 0, False or the empty string."""
    return np.zeros((), dtype)[()] if dtype.kind not in "UT" else ""


def concat(data, *more_data, axis):
    return np.concatenate((data,) + more_data, axis=axis)


def split(data, axis, *, num_splits):
    return np.split(data, num_splits, axis=int(axis))


def variadic_split(data, axis, split_lengths):
    ax = int(np.asarray(axis).reshape(-1)[0])
    lengths = _ints(split_lengths)
    if -1 in lengths:
        lengths[lengths.index(-1)] = data.shape[ax] - (sum(lengths) + 1)
    return np.split(data, np.cumsum(lengths)[:-1].tolist(), axis=ax)


def _gather(data, indices, axis, batch_dims):
    """output[b..., p..., i..., q...] = data[b..., p..., indices[b..., i...], q...]; indices below 0
    count from the end, indices out of [-n, n) give zeros."""
    ax = int(np.asarray(axis).reshape(-1)[0])
    ax += data.ndim if ax < 0 else 0
    b = batch_dims + indices.ndim if batch_dims < 0 else batch_dims
    n = data.shape[ax]
    idx = indices.astype(np.int64)
    idx = np.where(idx < 0, idx + n, idx)
    valid = (idx >= 0) & (idx < n)
    if b == 0 and valid.all():          # no batch dims, every index in range: NumPy's take is the definition
        return np.take(data, idx, axis=ax)
    batch, pre, post = data.shape[:b], data.shape[b:ax], data.shape[ax + 1:]
    nb, npre, npost = int(np.prod(batch)), int(np.prod(pre)), int(np.prod(post))
    x = data.reshape(nb, npre, n, npost)
    i = np.where(valid, idx, 0).reshape(nb, -1)
    if n == 0:
        out = np.full((nb, npre, i.shape[1], npost), _zero(data.dtype), data.dtype)
    else:
        out = x[np.arange(nb)[:, None, None], :, i[:, :, None], np.arange(npost)[None, None, :]]  # (B, I, Q, P)
        out = out.transpose(0, 3, 1, 2)
        out = np.where(valid.reshape(nb, 1, -1, 1), out, np.asarray(_zero(data.dtype), data.dtype))
    return out.reshape(batch + pre + indices.shape[b:] + post)


def gather_1(data, indices, axis):
    return _gather(data, indices, axis, 0)


def gather_7(data, indices, axis, *, batch_dims):
    return _gather(data, indices, axis, batch_dims)


def tile(data, repeats):
    reps = _ints(repeats)
    n = max(len(reps), data.ndim)
    shape = [d * r for d, r in zip((1,) * (n - data.ndim) + data.shape, [1] * (n - len(reps)) + reps)]
    if 0 in shape:        # no element (np.tile would repeat the axes before the empty one first)
        check_holdable("Tile-1", "output 'output'", shape, data.dtype)
        return np.empty(shape, data.dtype)
    return np.tile(data, reps) if data.ndim or len(reps) else data.copy()


def _pad(op, data, pads_begin, pads_end, pad_value, pad_mode):
    """Each output coordinate o reads input coordinate o - pads_begin, mapped back into range by the
    mode (negative pads simply start or stop inside the data: cropping)."""
    pb, pe = _ints(pads_begin), _ints(pads_end)
    out_shape = [max(b + n + e, 0) for b, n, e in zip(pb, data.shape, pe)]
    value = _zero(data.dtype) if pad_value is None or pad_mode != "constant" else np.asarray(pad_value)[()]
    if data.size == 0 or 0 in out_shape:
        check_holdable(op, "output 'output'", out_shape, data.dtype)
        return np.full(out_shape, value, data.dtype)
    index, outside = [], np.zeros(out_shape, bool)
    for axis, (b, n, size) in enumerate(zip(pb, data.shape, out_shape)):
        # o - b in int64 for b within n + size of 0; further off, every o lies as far out as at that bound
        # (constant and edge; the shape rule bounds reflect's and symmetric's pads by n): no wrap-around
        i = np.arange(size) - min(max(b, -(n + size)), n + size)
        if pad_mode == "constant":
            miss = (i < 0) | (i >= n)
            outside |= miss.reshape([-1 if k == axis else 1 for k in range(len(out_shape))])
            i = np.clip(i, 0, n - 1)
        elif pad_mode == "edge":
            i = np.clip(i, 0, n - 1)
        elif pad_mode == "reflect":
            period = 2 * (n - 1)
            i = np.mod(i, period) if period else np.zeros_like(i)
            i = np.where(i >= n, period - i, i)
        else:  # symmetric
            i = np.mod(i, 2 * n)
            i = np.where(i >= n, 2 * n - 1 - i, i)
        index.append(i)
    out = data[np.ix_(*index)]
    if pad_mode == "constant":
        out = np.where(outside, np.asarray(value, data.dtype), out)
    return out


def pad_1(data, pads_begin, pads_end, pad_value=None, *, pad_mode):
    return _pad("Pad-1", data, pads_begin, pads_end, pad_value, pad_mode)


def pad_12(data, pads_begin, pads_end, pad_value=None, *, pad_mode):
    return _pad("Pad-12", data, pads_begin, pads_end, pad_value, pad_mode)


def _broadcast(op, data, target_shape, axes_mapping, mode):
    target = _ints(target_shape)
    if mode in ("explicit", "none"):
        grid = [1] * len(target)
        axes = _ints(axes_mapping)[:data.ndim]
        if len(set(axes)) < len(axes):      # two data axes cannot lie on one target axis
            raise InputError(f"{op}: input 'axes_mapping' {axes} names a target axis twice (each data axis needs "
                             f"its own)")
        for i, t in enumerate(axes):
            grid[t] = data.shape[i]
        return np.array(np.broadcast_to(data.reshape(grid), target))
    if mode == "bidirectional":
        target = np.broadcast_shapes(tuple(target), data.shape)
    elif mode == "pdpd":
        target = [d if t == 1 else t for d, t in zip(data.shape, target)]
    return np.array(np.broadcast_to(data, target))


def broadcast_1(data, target_shape, axes_mapping=None, *, mode):
    return _broadcast("Broadcast-1", data, target_shape, axes_mapping, mode)


def broadcast_3(data, target_shape, axes_mapping=None, *, mode):
    return _broadcast("Broadcast-3", data, target_shape, axes_mapping, mode)


def strided_slice(data, begin, end, stride=None, *, begin_mask, end_mask, new_axis_mask, shrink_axis_mask,
                  ellipsis_mask):
    b, e = _ints(begin), _ints(end)
    s = _ints(stride) if stride is not None else [1] * len(b)
    index = strided_slice_index(data.shape, b, e, s, begin_mask=begin_mask, end_mask=end_mask,
                                new_axis_mask=new_axis_mask, shrink_axis_mask=shrink_axis_mask,
                                ellipsis_mask=ellipsis_mask)
    return np.array(data[index])


def slice_(data, start, stop, step, axes=None):
    b = _ints(start)
    axes = list(range(len(b))) if axes is None else [a + data.ndim if a < 0 else a for a in _ints(axes)]
    return np.array(data[slice_index(data.shape, b, _ints(stop), _ints(step), axes)])


def gather_elements(data, indices, *, axis):
    n = data.shape[axis]
    idx = indices.astype(np.int64)
    _check_range("GatherElements-6", "indices", idx, n)
    return np.take_along_axis(data, np.where(idx < 0, idx + n, idx), axis=axis)


def _gather_nd(data, indices, batch_dims, fuse, op):
    """Each index tuple (the last axis of indices) picks one slice of data, per batch."""
    b, k = batch_dims, indices.shape[-1]
    batch = data.shape[:b]
    nb = int(np.prod(batch))
    x = data.reshape((nb,) + data.shape[b:])
    m = int(np.prod(indices.shape[b:-1]))           # index tuples per batch (-1 cannot tell when k is 0)
    idx = indices.astype(np.int64).reshape(nb, m, k)
    _check_range(op, "indices", idx, data.shape[b:b + k])
    idx = np.where(idx < 0, idx + np.array(data.shape[b:b + k], np.int64), idx)
    if k == 0:                                      # an empty index tuple picks the whole batch element
        out = np.broadcast_to(x[:, None], (nb, m) + x.shape[1:])
    else:
        out = x[(np.arange(nb)[:, None],) + tuple(idx[..., j] for j in range(k))]
    lead = ((nb,) if fuse and b > 1 else batch)
    return out.reshape(lead + indices.shape[b:-1] + data.shape[b + k:])


def gather_nd_5(data, indices, *, batch_dims):
    return _gather_nd(data, indices, batch_dims, True, "GatherND-5")


def gather_nd_8(data, indices, *, batch_dims):
    return _gather_nd(data, indices, batch_dims, False, "GatherND-8")


def scatter_update(data, indices, updates, axis):
    ax = int(np.asarray(axis).reshape(-1)[0])
    ax += data.ndim if ax < 0 else 0
    idx = indices.astype(np.int64).reshape(-1)
    _check_range("ScatterUpdate-3", "indices", idx, data.shape[ax])
    out = data.copy()
    u = updates.reshape(data.shape[:ax] + (idx.size,) + data.shape[ax + 1:])
    np.moveaxis(out, ax, 0)[np.where(idx < 0, idx + data.shape[ax], idx)] = np.moveaxis(u, ax, 0)
    return out


_REDUCE = {"sum": np.add, "sub": np.subtract, "prod": np.multiply, "min": np.minimum, "max": np.maximum}
_REDUCE_BOOL = {"sum": np.logical_or, "sub": np.logical_xor, "prod": np.logical_and, "min": np.logical_and,
                "max": np.logical_or}


def _scatter_nd(data, indices, updates, reduction, op):
    k = indices.shape[-1]
    if k == 0:     # each index tuple is empty and addresses the whole data: a depth-1 scatter into [1, ...]
        at = np.zeros(indices.shape[:-1] + (1,), np.int64)
        return _scatter_nd(data[None], at, updates, reduction, op)[0]
    idx = indices.astype(np.int64).reshape(-1, k)
    _check_range(op, "indices", idx, data.shape[:k])
    idx = tuple(np.where(idx < 0, idx + np.array(data.shape[:k], np.int64), idx).T)
    u = updates.reshape((-1,) + data.shape[k:])
    out = data.copy()
    if reduction == "none":
        out[idx] = u
        return out
    if data.dtype == np.bool_:
        _REDUCE_BOOL[reduction].at(out, idx, u)
        return out
    # one update at a time, in the data type (integers wrap); narrow floats go through f32
    acc = accumulator_dtype(data.dtype)
    work = out.astype(acc, copy=False)
    _REDUCE[reduction].at(work, idx, u.astype(acc, copy=False))
    return work.astype(data.dtype, copy=False)


def scatter_nd_update_3(data, indices, updates):
    return _scatter_nd(data, indices, updates, "none", "ScatterNDUpdate-3")


def scatter_nd_update_15(data, indices, updates, *, reduction):
    return _scatter_nd(data, indices, updates, reduction, "ScatterNDUpdate-15")


def _identity(reduction, dtype):
    """What an element holds before any update lands on it when the data is not used."""
    if reduction in ("sum", "mean"):
        return 0
    if reduction == "prod":
        return 1
    if dtype.kind == "f":
        return np.inf if reduction == "min" else -np.inf
    info = np.iinfo(dtype)
    return info.max if reduction == "min" else info.min


def _scatter_elements(data, indices, updates, axis, reduction, use_init_val, op):
    ax = int(np.asarray(axis).reshape(-1)[0])
    ax += data.ndim if ax < 0 else 0
    idx = indices.astype(np.int64)
    _check_range(op, "indices", idx, data.shape[ax])
    # off the axis an index's own position is the data position it writes: within the data's dims
    if any(i != ax and n > d for i, (n, d) in enumerate(zip(indices.shape, data.shape))):
        raise InputError(f"{op}: input 'indices' {list(indices.shape)} is larger than data {list(data.shape)} on an "
                         f"axis other than axis {ax} (its positions there are the data positions updated)")
    where = list(np.indices(indices.shape, sparse=True))
    where[ax] = np.where(idx < 0, idx + data.shape[ax], idx)
    where = tuple(np.broadcast_arrays(*where))
    out = data.copy()
    if reduction == "none":
        out[where] = updates
        return out
    if data.dtype == np.bool_:
        ufunc = np.logical_or if reduction in ("sum", "max") else np.logical_and
        if not use_init_val:
            out[where] = reduction in ("prod", "min")
        ufunc.at(out, where, updates)
        return out
    acc = accumulator_dtype(data.dtype)
    if reduction == "mean" and data.dtype.kind in "iu":
        acc = np.dtype(np.int64)
    work = out.astype(acc)
    if not use_init_val:
        work[where] = _identity(reduction, acc)
    if reduction == "mean":
        count = np.full(data.shape, 1 if use_init_val else 0, np.int64)
        np.add.at(count, where, 1)
        np.add.at(work, where, updates.astype(acc))
        touched = np.zeros(data.shape, bool)
        touched[where] = True
        safe = np.maximum(count, 1)
        mean = work // safe if acc.kind in "iu" else work / safe
        work = np.where(touched, mean, work)
    else:
        {"sum": np.add, "prod": np.multiply, "min": np.minimum, "max": np.maximum}[reduction].at(
            work, where, updates.astype(acc))
    return work.astype(data.dtype)


def scatter_elements_update_3(data, indices, updates, axis):
    return _scatter_elements(data, indices, updates, axis, "none", True, "ScatterElementsUpdate-3")


def scatter_elements_update_12(data, indices, updates, axis, *, reduction, use_init_val):
    return _scatter_elements(data, indices, updates, axis, reduction, use_init_val, "ScatterElementsUpdate-12")


def roll(data, shift, axes):
    axes = _ints(axes)
    shifts = _ints(shift)
    shifts = shifts * len(axes) if len(shifts) == 1 else shifts
    if data.ndim == 0 or not axes:
        return data.copy()
    return np.roll(data, shifts, [a + data.ndim if a < 0 else a for a in axes])


def reverse(data, reverse_axes, *, mode):
    mask = np.asarray(reverse_axes).reshape(-1)
    axes = np.flatnonzero(mask).tolist() if mode == "mask" else _ints(reverse_axes)
    axes = sorted({a % data.ndim for a in axes}) if data.ndim else []    # an axis named twice reverses once
    return np.flip(data, axes).copy() if axes else data.copy()


def shuffle_channels(data, *, axis, group):
    ax = axis + data.ndim if axis < 0 else axis
    pre, c, post = data.shape[:ax], data.shape[ax], data.shape[ax + 1:]
    x = data.reshape(pre + (group, c // group) + post)
    return np.swapaxes(x, ax, ax + 1).reshape(data.shape)


def reverse_sequence(data, seq_lengths, *, batch_axis, seq_axis):
    b = batch_axis + data.ndim if batch_axis < 0 else batch_axis
    t = seq_axis + data.ndim if seq_axis < 0 else seq_axis
    if b == t:
        raise InputError(f"ReverseSequence-1: attributes 'batch_axis' ({batch_axis}) and 'seq_axis' ({seq_axis}) "
                         f"name the same axis of data of rank {data.ndim}")
    x = np.moveaxis(data, (b, t), (0, 1))                     # [batch, seq, ...]
    n = x.shape[1]
    lengths = np.asarray(seq_lengths).astype(np.int64).reshape(-1, 1)
    # a length 0 leaves its row as is (OpenVINO's reference does the same); above the axis is an error
    _check_range("ReverseSequence-1", "seq_lengths", lengths, n + 1, negative=False, what="a sequence length")
    j = np.arange(n)[None, :]
    src = np.where(j < lengths, lengths - 1 - j, j)           # the first lengths[b] reversed
    src = src.reshape(src.shape + (1,) * (x.ndim - 2))
    out = np.take_along_axis(x, np.broadcast_to(src, x.shape), axis=1)
    return np.moveaxis(out, (0, 1), (b, t))


def slice_scatter(data, updates, start, stop, step, axes=None):
    b = _ints(start)
    axes = list(range(len(b))) if axes is None else [a + data.ndim if a < 0 else a for a in _ints(axes)]
    out = data.copy()
    out[slice_index(data.shape, b, _ints(stop), _ints(step), axes)] = updates
    return out


def unique(data, axis=None, *, sorted, index_element_type, count_element_type):
    ax = None if axis is None else int(np.asarray(axis).reshape(-1)[0]) % max(data.ndim, 1)
    u, first, inverse, counts = unique_values(data, ax, sorted)
    idx, cnt = element_type(index_element_type).dtype, element_type(count_element_type).dtype
    return u, first.astype(idx), inverse.astype(idx), counts.astype(cnt)


def extract_image_patches(data, *, sizes, strides, rates, auto_pad):
    n, c, h, w = data.shape
    (kh, kw), (sh, sw), (rh, rw) = sizes, strides, rates
    (oh, pt), (ow, pl) = patch_grid(h, kh, sh, rh, auto_pad), patch_grid(w, kw, sw, rw, auto_pad)
    if data.size == 0 or oh * ow == 0:
        return np.full((n, kh * kw * c, oh, ow), _zero(data.dtype), data.dtype)
    rows = (np.arange(oh) * sh)[None, :] + (np.arange(kh) * rh)[:, None] - pt     # (kh, oh)
    cols = (np.arange(ow) * sw)[None, :] + (np.arange(kw) * rw)[:, None] - pl               # (kw, ow)
    r, q = rows[:, :, None, None], cols[None, None, :, :]
    inside = (r >= 0) & (r < h) & (q >= 0) & (q < w)                                        # zero padding
    p = data[:, :, np.clip(r, 0, h - 1), np.clip(q, 0, w - 1)]                              # (n, c, kh, oh, kw, ow)
    p = np.where(inside, p, np.asarray(_zero(data.dtype), data.dtype))
    return p.transpose(0, 2, 4, 1, 3, 5).reshape(n, kh * kw * c, oh, ow)


def gather_tree(step_ids, parent_ids, max_seq_len, end_token):
    """Backtracking over time, for all batches and beams at once (loops over time steps only)."""
    t_max, batch, beam = step_ids.shape
    end = np.asarray(end_token, step_ids.dtype)
    length = np.minimum(max_seq_len.astype(np.int64), t_max)[:, None]        # (B, 1)
    out = np.empty_like(step_ids)
    b = np.arange(batch)[:, None]
    parent = np.broadcast_to(np.arange(beam), (batch, beam))
    for t in reversed(range(t_max)):
        active = t < length
        out[t] = np.where(active, step_ids[t, b, parent], end)
        step = parent_ids[t, b, parent].astype(np.int64)
        # only the parents the backtracking follows must be beam indices (padding beyond max_seq_len is not read)
        _check_range("GatherTree-1", "parent_ids", np.where(active, step, 0), beam, negative=False,
                     what=f"at step {t} the beam index")
        parent = np.where(active, step, parent)
    finished = np.zeros((batch, beam), bool)
    for t in range(t_max):
        active = t < length
        out[t] = np.where(finished & active, end, out[t])
        finished |= active & (out[t] == end)
    return out


KERNELS = {
    "SpaceToBatch-2": space_to_batch,
    "BatchToSpace-2": batch_to_space,
    "DepthToSpace-1": depth_to_space,
    "SpaceToDepth-1": space_to_depth,
    "Col2Im-15": col2im,
    "Transpose-1": transpose,
    "Concat-1": concat,
    "Split-1": split,
    "VariadicSplit-1": variadic_split,
    "Gather-1": gather_1,
    "Gather-7": gather_7,
    "Gather-8": gather_7,          # v8 adds negative indices and zeros out of range; _gather does both
    "Tile-1": tile,
    "Pad-1": pad_1,
    "Pad-12": pad_12,
    "Broadcast-1": broadcast_1,
    "Broadcast-3": broadcast_3,
    "StridedSlice-1": strided_slice,
    "Slice-8": slice_,
    "GatherElements-6": gather_elements,
    "GatherND-5": gather_nd_5,
    "GatherND-8": gather_nd_8,
    "ScatterUpdate-3": scatter_update,
    "ScatterNDUpdate-3": scatter_nd_update_3,
    "ScatterNDUpdate-15": scatter_nd_update_15,
    "ScatterElementsUpdate-3": scatter_elements_update_3,
    "ScatterElementsUpdate-12": scatter_elements_update_12,
    "Roll-7": roll,
    "Reverse-1": reverse,
    "ShuffleChannels-1": shuffle_channels,
    "ReverseSequence-1": reverse_sequence,
    "SliceScatter-15": slice_scatter,
    "Unique-10": unique,
    "ExtractImagePatches-3": extract_image_patches,
    "GatherTree-1": gather_tree,
}


# --- temporaries (runtime/limits.py's max_kernel_bytes) -------------------------------------------------
def _pad_workspace(ins, outs, kw) -> int:
    """Pad: the padding mask (a byte per output element), the gathered data before the pad value is put
    in, and each axis' source indices."""
    out = outs[0]
    if out is None or 0 in out or ins[0].size == 0:
        return 0
    return math.prod(out) * (1 + ins[0].itemsize) + 24 * sum(out)


WORKSPACE = {"Pad-1": _pad_workspace, "Pad-12": _pad_workspace}
PREPARED = {"Transpose-1": ((1,), _transpose_to)}             # (see kernels/__init__.py)
