"""Convolution kernels: one GEMM over a strided window view (im2col), per group for GroupConvolution.

Sums run in `accumulator_dtype` for floats (f32 for f16/bf16/f8, then rounded back once), and in
64-bit integers for integer types, wrapped back to the type at the end (wrapping commutes with
sums and products, so the result equals accumulating in the type itself).
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ...opset.helpers import same_pads
from ...types import accumulator_dtype, element_type


def _compute_dtype(dtype) -> np.dtype:
    t = element_type(dtype)
    if t.is_float:
        return accumulator_dtype(dtype)
    return np.dtype(np.int64 if t.is_signed else np.uint64)


def _pads(spatial, kernel, strides, dilations, pads_begin, pads_end, auto_pad):
    """(begin, end) per spatial axis as the auto_pad mode resolves them."""
    n = len(spatial)
    if auto_pad == "valid":
        return [(0, 0)] * n
    if auto_pad in ("same_upper", "same_lower"):
        return [same_pads(size, k, s, d, auto_pad == "same_upper")
                for size, k, s, d in zip(spatial, kernel, strides, dilations)]
    return list(zip(pads_begin or (0,) * n, pads_end or (0,) * n))


def _windows(data, kernel, *, strides, pads_begin, pads_end, dilations, auto_pad):
    """The zero-padded data in the compute dtype as a read-only view
    [N, C, out_1, ..., out_n, k_1, ..., k_n]: element [.., o, t] is padded[.., o*s + t*d]."""
    n = data.ndim - 2
    strides, dilations = tuple(strides) or (1,) * n, tuple(dilations) or (1,) * n
    pads = _pads(data.shape[2:], kernel, strides, dilations, pads_begin, pads_end, auto_pad)
    x = np.pad(data.astype(_compute_dtype(data.dtype)), [(0, 0), (0, 0)] + pads)
    # A kernel axis of length 0 still spans one position (OpenVINO: (0 - 1) * d + 1 clips to 1).
    out = [(size - max((k - 1) * d + 1, 1)) // s + 1
           for size, k, s, d in zip(x.shape[2:], kernel, strides, dilations)]
    st = x.strides
    return as_strided(x, shape=x.shape[:2] + tuple(out) + tuple(kernel),
                      strides=st[:2] + tuple(st[2 + i] * strides[i] for i in range(n))
                      + tuple(st[2 + i] * dilations[i] for i in range(n)), writeable=False)


def convolution(data, filters, *, strides, pads_begin, pads_end, dilations, auto_pad):
    n = data.ndim - 2
    view = _windows(data, filters.shape[2:], strides=strides, pads_begin=pads_begin, pads_end=pads_end,
                    dilations=dilations, auto_pad=auto_pad)
    w = filters.astype(view.dtype)
    # [N, C, O.., K..] x [C_OUT, C, K..] -> [N, O.., C_OUT]: one GEMM of (N*O) x (C*K) by (C*K) x C_OUT
    out = np.tensordot(view, w, axes=([1] + [2 + n + i for i in range(n)], [1] + [2 + i for i in range(n)]))
    return np.moveaxis(out, -1, 1).astype(data.dtype)


def group_convolution(data, filters, *, strides, pads_begin, pads_end, dilations, auto_pad):
    n = data.ndim - 2
    g, m, c = filters.shape[:3]
    batch = data.shape[0]
    x = data.reshape((batch * g, c) + data.shape[2:])           # groups into the batch: [N*G, C/G, ...]
    view = _windows(x, filters.shape[3:], strides=strides, pads_begin=pads_begin, pads_end=pads_end,
                    dilations=dilations, auto_pad=auto_pad)
    out_sp = view.shape[2:2 + n]
    view = view.reshape((batch, g) + view.shape[1:])            # [N, G, C/G, O.., K..] (still a view)
    w = filters.astype(view.dtype)
    if c == 1:
        # Depthwise: one multiply-add per kernel tap, no im2col copy of the windows.
        acc = np.zeros((batch, g, m) + out_sp, dtype=view.dtype)
        for tap in np.ndindex(*filters.shape[3:]):
            xs = view[(slice(None), slice(None), 0) + (slice(None),) * n + tap]      # [N, G, O..]
            acc += xs[:, :, None] * w[(slice(None), slice(None), 0) + tap][(None, ...) + (None,) * n]
    else:
        # One batched GEMM per group: [G, N*O, C/G*K] @ [G, C/G*K, M].
        k = int(np.prod(filters.shape[3:], dtype=np.int64)) * c
        order = [1, 0] + [3 + i for i in range(n)] + [2] + [3 + n + i for i in range(n)]
        cols = view.transpose(order).reshape(g, batch * int(np.prod(out_sp, dtype=np.int64)), k)
        acc = np.matmul(cols, w.reshape(g, m, k).transpose(0, 2, 1))            # [G, N*O, M]
        acc = acc.reshape((g, batch) + out_sp + (m,))
        acc = acc.transpose([1, 0, 2 + n] + [2 + i for i in range(n)])         # [N, G, M, O..]
    return acc.reshape((batch, g * m) + out_sp).astype(data.dtype)


KERNELS = {"Convolution-1": convolution, "GroupConvolution-1": group_convolution}
