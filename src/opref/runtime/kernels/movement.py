"""Data-movement kernels: each is one or two reshapes around a transpose, as the specs define them."""
from __future__ import annotations

import numpy as np

from ...types import accumulator_dtype


def _ints(x):
    return [int(v) for v in np.asarray(x).reshape(-1)]


def space_to_batch(data, block_shape, pads_begin, pads_end):
    blocks, pb, pe = _ints(block_shape), _ints(pads_begin), _ints(pads_end)
    x = np.pad(data, list(zip(pb, pe))) if data.dtype.kind not in "UO" else \
        np.pad(data, list(zip(pb, pe)), constant_values="")
    n = x.ndim
    # [batch, D1/B1, B1, D2/B2, B2, ...] -> [B1, B2, ..., batch, D1/B1, D2/B2, ...]
    split = [x.shape[0]] + [v for i in range(1, n) for v in (x.shape[i] // blocks[i], blocks[i])]
    order = [2 * i for i in range(1, n)] + [0] + [2 * i - 1 for i in range(1, n)]
    y = x.reshape(split).transpose(order)
    return y.reshape([x.shape[0] * int(np.prod(blocks))] + [x.shape[i] // blocks[i] for i in range(1, n)])


def batch_to_space(data, block_shape, crops_begin, crops_end):
    blocks, cb, ce = _ints(block_shape), _ints(crops_begin), _ints(crops_end)
    n = data.ndim
    batch = data.shape[0] // int(np.prod(blocks))
    # [B1, ..., B_{N-1}, batch', D1, ..., D_{N-1}] -> [batch', D1, B1, D2, B2, ...]
    x = data.reshape(blocks[1:] + [batch] + list(data.shape[1:]))
    order = [n - 1] + [v for i in range(1, n) for v in (n - 1 + i, i - 1)]
    y = x.transpose(order).reshape([batch] + [data.shape[i] * blocks[i] for i in range(1, n)])
    return y[tuple(slice(b, y.shape[i] - e) for i, (b, e) in enumerate(zip(cb, ce)))]


def depth_to_space(data, *, block_size, mode):
    n, c, *spatial = data.shape
    k, bs = len(spatial), block_size
    c_out = c // bs ** k
    if mode == "blocks_first":     # depth is [bs, ..., bs, C']
        x = data.reshape([n] + [bs] * k + [c_out] + spatial)
        order = [0, k + 1] + [v for i in range(k) for v in (k + 2 + i, 1 + i)]
    else:                          # depth_first: depth is [C', bs, ..., bs]
        x = data.reshape([n, c_out] + [bs] * k + spatial)
        order = [0, 1] + [v for i in range(k) for v in (k + 2 + i, 2 + i)]
    return x.transpose(order).reshape([n, c_out] + [d * bs for d in spatial])


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
    order = _ints(input_order)
    return np.transpose(data, order if order else None)


KERNELS = {
    "SpaceToBatch-2": space_to_batch,
    "BatchToSpace-2": batch_to_space,
    "DepthToSpace-1": depth_to_space,
    "SpaceToDepth-1": space_to_depth,
    "Col2Im-15": col2im,
    "Transpose-1": transpose,
}
