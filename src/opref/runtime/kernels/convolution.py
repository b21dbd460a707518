"""Convolution kernels: one GEMM of the filters with a strided window view of the data (im2col),
laid out so that the product is already NCHW: W[G, C_OUT, C_IN*K] @ cols[N, G, C_IN*K, O].

A 1x1 kernel needs no window view (the data, strided if need be, is the GEMM operand), and a
depthwise GroupConvolution (one input channel per group) is a batch of per-channel GEMMs over
bounded chunks of channels (with unit strides, over one run of offsets per padded plane).

Sums run in `accumulator_dtype` for floats (f32 for f16/bf16/f8, then rounded back once), and in
64-bit integers for integer types, wrapped back to the type at the end (wrapping commutes with
sums and products, so the result equals accumulating in the type itself).
"""
from __future__ import annotations

import math

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


def _padded(x, pads):
    """x with zeros around its spatial axes; x itself when there is no padding."""
    if not any(b or e for b, e in pads):
        return x
    out = np.zeros(x.shape[:2] + tuple(size + b + e for size, (b, e) in zip(x.shape[2:], pads)), x.dtype)
    out[(slice(None), slice(None)) + tuple(slice(b, b + size) for size, (b, _) in zip(x.shape[2:], pads))] = x
    return out


def _windows(xp, kernel, strides, dilations, out):
    """Read-only view [N, C, k_1, ..., k_n, o_1, ..., o_n] of the padded data xp: element [.., t, o]
    is xp[.., o*s + t*d]. Kernel axes before output axes, so that reshaping to [N, C*K, O] (the
    im2col copy) walks the data along its rows."""
    n = len(kernel)
    st = xp.strides
    return as_strided(xp, shape=xp.shape[:2] + tuple(kernel) + tuple(out),
                      strides=st[:2] + tuple(st[2 + i] * dilations[i] for i in range(n))
                      + tuple(st[2 + i] * strides[i] for i in range(n)), writeable=False)


def _depthwise_windows(xp, kernel, strides, dilations, out):
    """(view [N, C, k_1, ..., k_n, P], P, windows): the windows of the padded data xp over P positions,
    and `windows(y)`, the [N, C*M, out...] view of the windows in a product y [N, C, M, P].

    With unit strides a window's position is its offset in a padded plane, so the windows of a plane
    are one run of P offsets: the im2col copy moves whole runs of P instead of rows of out[-1] (NumPy
    copies long rows several times faster), and the positions between a row's last window and the
    next row's first, computed too, are dropped. Otherwise (strides, or data not C-contiguous) the
    positions are the output grid."""
    n, st = len(kernel), xp.strides
    taps = tuple(st[2 + i] * dilations[i] for i in range(n))
    if any(s != 1 for s in strides) or not xp.flags.c_contiguous:
        view = _windows(xp, kernel, strides, dilations, out)
        return view, math.prod(out), lambda y: y.reshape((y.shape[0], -1) + out)
    rows = [st[2 + i] // xp.itemsize for i in range(n)]                 # the padded plane's strides
    run = sum((o - 1) * r for o, r in zip(out, rows)) + 1 if 0 not in out else 0
    view = as_strided(xp, shape=xp.shape[:2] + tuple(kernel) + (run,), strides=st[:2] + taps + (xp.itemsize,),
                      writeable=False)

    def windows(y):
        return as_strided(y, shape=(y.shape[0], y.shape[1] * y.shape[2]) + out,
                          strides=(y.strides[0], y.strides[2]) + tuple(r * y.itemsize for r in rows))
    return view, run, windows


def _tap_sums(xp, w, kernel, dilations, out):
    """The convolution with unit strides as a sum over kernel taps of 1x1 convolutions, each shifted by its
    tap's offset: y[n, g, m, o] = sum_t (W_t @ xp)[n, g, m, o + t*d], W_t = w[g, :, :, t]. One GEMM gives every
    tap's product at every position of the padded plane ([N, G, taps, M, plane]: no im2col copy of the data);
    on the flattened plane an output position and its taps' positions lie a constant offset apart, so each
    tap adds one contiguous run of offsets (the positions between a row's last window and the next row's
    first are summed too, and left out of the [N, G*M, out...] view returned)."""
    n = len(kernel)
    batch, (g, m, c) = xp.shape[0], w.shape[:3]
    taps, plane = math.prod(kernel), math.prod(xp.shape[2:])
    rows = [math.prod(xp.shape[3 + i:]) for i in range(n)]              # the padded plane's strides
    filters = w.reshape(g, m, c, taps).transpose(0, 3, 1, 2).reshape(g, taps * m, c)
    products = np.matmul(filters, xp.reshape(batch, g, c, plane)).reshape(batch, g, taps, m, plane)
    run = sum((o - 1) * r for o, r in zip(out, rows)) + 1
    offsets = [sum(t * d * r for t, d, r in zip(tap, dilations, rows)) for tap in np.ndindex(*kernel)]
    y = np.add(products[:, :, 0, :, offsets[0]:offsets[0] + run], products[:, :, 1, :, offsets[1]:offsets[1] + run])
    for t in range(2, taps):
        y += products[:, :, t, :, offsets[t]:offsets[t] + run]
    return as_strided(y, shape=(batch, g * m) + tuple(out),
                      strides=(y.strides[0], y.strides[2]) + tuple(r * y.itemsize for r in rows), writeable=False)


def _convolve(data, filters, *, strides, pads_begin, pads_end, dilations, auto_pad, out=None):
    """data [N, G*C, spatial...] with filters [G, M, C, kernel...] -> [N, G*M, out...] in data's type; computed into
    `out` (a C-contiguous array of that type and shape) where data's type is the compute type (see INTO)."""
    n = data.ndim - 2
    batch, (g, m, c), kernel = data.shape[0], filters.shape[:3], filters.shape[3:]
    strides, dilations = tuple(strides) or (1,) * n, tuple(dilations) or (1,) * n
    ct = _compute_dtype(data.dtype)
    x, w = data.astype(ct, copy=False), filters.astype(ct, copy=False)
    xp = _padded(x, _pads(data.shape[2:], kernel, strides, dilations, pads_begin, pads_end, auto_pad))
    # A kernel axis of length 0 still spans one position (OpenVINO: (0 - 1) * d + 1 clips to 1).
    spatial = tuple((size - max((k - 1) * d + 1, 1)) // s + 1
                    for size, k, s, d in zip(xp.shape[2:], kernel, strides, dilations))
    taps, positions = math.prod(kernel), math.prod(spatial)
    into = out is not None and ct == data.dtype and out.flags.c_contiguous
    if c == 1 and g > 1:
        # Depthwise: one small GEMM per channel, [M, taps] @ [taps, P], batched over a chunk of
        # channels whose windows are copied together (about 1 MB at a time: the im2col copy stays
        # bounded, never taps times the whole input).
        win, run, windows = _depthwise_windows(xp, kernel, strides, dilations, spatial)
        if into and run == positions:          # the product is the output itself
            y, windows = out.reshape(batch, g, m, positions), lambda y: out
        else:
            y = np.empty((batch, g, m, run), ct)
        positions = run
        wr = w.reshape(g, m, taps)
        chunk = max(1, (1 << 20) // max(taps * positions * ct.itemsize, 1))
        for b in range(batch):
            for g0 in range(0, g, chunk):
                g1 = min(g, g0 + chunk)
                np.matmul(wr[g0:g1], win[b, g0:g1].reshape(g1 - g0, taps, positions), out=y[b, g0:g1])
        return windows(y).astype(data.dtype, copy=False)      # (f32: a view of the product, not copied)
    plane = math.prod(xp.shape[2:])
    if taps > 1 and positions and all(s == 1 for s in strides) and 2 * m * plane <= c * positions:
        # Few output channels for the input channels (DenseNet's 3x3 layers, 128 -> 32): the taps'
        # products, m x plane each, are fewer than the im2col columns, c x positions each (see _tap_sums).
        y = _tap_sums(xp, w, kernel, dilations, spatial)
        if into:
            np.copyto(out, y)
            return out
        return y.astype(data.dtype, copy=False)              # (f32: a view of the sums, not copied)
    if all(k == 1 for k in kernel):
        # 1x1: each window is one position of the (strided) data itself.
        cols = xp[(slice(None), slice(None)) + tuple(slice(0, (o - 1) * s + 1, s) for o, s in zip(spatial, strides))]
    else:
        cols = _windows(xp, kernel, strides, dilations, spatial)
    cols = cols.reshape(batch, g, c * taps, positions)               # the im2col copy (a view for 1x1)
    if into:
        np.matmul(w.reshape(g, m, c * taps), cols, out=out.reshape(batch, g, m, positions))
        return out
    y = np.matmul(w.reshape(g, m, c * taps), cols)                   # [N, G, M, O]
    return y.reshape((batch, g * m) + spatial).astype(data.dtype, copy=False)


def convolution(data, filters, *, strides, pads_begin, pads_end, dilations, auto_pad, out=None):
    return _convolve(data, filters[None], strides=strides, pads_begin=pads_begin, pads_end=pads_end,
                     dilations=dilations, auto_pad=auto_pad, out=out)


def group_convolution(data, filters, *, strides, pads_begin, pads_end, dilations, auto_pad, out=None):
    return _convolve(data, filters, strides=strides, pads_begin=pads_begin, pads_end=pads_end,
                     dilations=dilations, auto_pad=auto_pad, out=out)


KERNELS = {"Convolution-1": convolution, "GroupConvolution-1": group_convolution}
INTO = {"Convolution-1": (), "GroupConvolution-1": ()}          # (see kernels/__init__.py)


# --- temporaries (runtime/limits.py's max_kernel_bytes) -------------------------------------------------
def workspace(ins, outs, kw) -> int:
    """Bytes of the work arrays, in the compute type: data and filters converted, the padded copy, the
    im2col columns [N, G*C_IN*K, O] and the product [N, C_OUT, O]; for depthwise, a chunk of the columns
    (about 1 MB, at least one channel's) over P positions (with unit strides, the run of offsets of a
    padded plane: _depthwise_windows) and the product [N, C_OUT, P]."""
    data, filters = ins[0], ins[1]
    n = data.ndim - 2
    ct = _compute_dtype(data.dtype)
    kernel = filters.shape[-n:] if n else ()
    out = outs[0] or (0,) * data.ndim
    positions, taps = math.prod(out[2:]), math.prod(kernel)
    ones = (1,) * n
    strides = tuple(kw["strides"]) or ones
    pads = _pads(data.shape[2:], kernel, strides, tuple(kw["dilations"]) or ones,
                 kw["pads_begin"], kw["pads_end"], kw["auto_pad"])
    padded = [s + b + e for s, (b, e) in zip(data.shape[2:], pads)]
    elements = 0 if ct == data.dtype else data.size + filters.size
    if any(b or e for b, e in pads):
        elements += data.shape[0] * data.shape[1] * math.prod(padded)
    depthwise = filters.ndim == data.ndim + 1 and filters.shape[2] == 1 and filters.shape[0] > 1
    if not depthwise:
        return (elements + data.shape[0] * data.shape[1] * taps * positions + math.prod(out)) * ct.itemsize
    if all(s == 1 for s in strides) and 0 not in out[2:]:
        positions = sum((o - 1) * math.prod(padded[i + 1:]) for i, o in enumerate(out[2:])) + 1
    groups = filters.shape[0]
    chunk = min(groups, max(1, (1 << 20) // max(taps * positions * ct.itemsize, 1)))
    elements += chunk * taps * positions + out[0] * out[1] * positions
    return elements * ct.itemsize


WORKSPACE = {"Convolution-1": workspace, "GroupConvolution-1": workspace}
