"""Pooling kernels: a window reduction is a handful of whole-tensor operations, one per kernel tap
(or per tap of one axis), never a loop over elements.

A max over a box window is separable: the max over a k_1 x ... x k_n window is the max along the
first spatial axis of the max along the next, and so on, so MaxPool reduces one spatial axis at a
time, outer axes first (their taps are whole contiguous rows, and they shrink the data before the
strided innermost axis); each tap is one strided slice of the data applied only to the windows where
it lands on data (or, along the innermost axis, to all of them on the flattened rows, the others put
back: _reduce_flat), so the padding is never materialised. A max does not depend on the order it is
taken in; MaxPool's indices compare every tap of the window, in row-major order, against the
maximum. AvgPool adds its taps in row-major window order, starting from 0 (the rounding of a float
sum depends on its order: this one is OpenVINO's, bit for bit; a separable sum, one axis at a time,
differs by up to 2^14 ulp where terms cancel), over a zero-padded copy split by the strides, where
one tap of every window is one contiguous slice (_phase_grid).

MaxPool never takes padding; ties keep the first tap in row-major window order. AvgPool sums in f32
(f64 for f64) and divides by the number of counted positions: with exclude-pad only data positions,
otherwise data and explicit padding, never the overhang that rounding_type ceil adds beyond the
padding. Integer averages are rounded half to even, as OpenVINO does.
"""
from __future__ import annotations

import functools
import itertools
import math

import ml_dtypes
import numpy as np

from ...errors import InputError
from ...opset.helpers import same_pads
from ...opset.pooling import pool_output_dims
from ...shapes import PartialShape
from ...types import element_type
from ..limits import check_size


def _geometry(op, shape, kernel, strides, dilations, pads_begin, pads_end, auto_pad, rounding_type):
    """Resolved (pad_begin, pad_end) per spatial axis, the dilations and the output spatial sizes."""
    return _geometry_of(op, tuple(shape), *(tuple(int(v) for v in a) for a in (kernel, strides, dilations,
                                                                               pads_begin, pads_end)),
                        auto_pad, rounding_type)


@functools.lru_cache(maxsize=256)      # a network repeats a few pooling geometries: resolve each once
def _geometry_of(op, shape, kernel, strides, dilations, pads_begin, pads_end, auto_pad, rounding_type):
    n = len(kernel)
    dilations = tuple(dilations) or (1,) * n
    out = pool_output_dims(op, PartialShape(shape), kernel=kernel, strides=strides, dilations=dilations,
                           pads_begin=pads_begin, pads_end=pads_end, auto_pad=auto_pad,
                           rounding_type=rounding_type).to_shape()[2:]
    if auto_pad == "valid":
        pads = [(0, 0)] * n
    elif auto_pad in ("same_upper", "same_lower"):
        pads = [same_pads(size, k, s, d, auto_pad == "same_upper")
                for size, k, s, d in zip(shape[2:], kernel, strides, dilations)]
    else:
        pads = list(zip(tuple(pads_begin) or (0,) * n, tuple(pads_end) or (0,) * n))
    return tuple(pads), dilations, tuple(out)


def _padded(x, pads, kernel, strides, dilations, out, fill):
    """x padded with `fill`, with room at the end for windows that rounding up lets run past the pads;
    x itself when no window reaches outside it."""
    width = []
    for size, (pb, pe), k, s, d, o in zip(x.shape[2:], pads, kernel, strides, dilations, out):
        need = (o - 1) * s + (k - 1) * d + 1 if o else 0
        width.append((pb, max(pe, need - size - pb)))
    if not any(b or e for b, e in width):
        return x
    xp = np.full(x.shape[:2] + tuple(size + b + e for size, (b, e) in zip(x.shape[2:], width)), fill, x.dtype)
    xp[(slice(None), slice(None)) + tuple(slice(b, b + size) for size, (b, _) in zip(x.shape[2:], width))] = x
    return xp


def _taps(xp, kernel, strides, dilations, out):
    """(tap, view) per kernel tap in row-major order: view[n, c, o...] = xp[n, c, o*s + tap*d ...]."""
    axes = [[slice(t * d, t * d + s * (o - 1) + 1, s) for t in range(k)]
            for k, d, s, o in zip(kernel, dilations, strides, out)]
    whole = (slice(None), slice(None))
    for tap, index in zip(itertools.product(*map(range, kernel)), itertools.product(*axes)):
        yield tap, xp[whole + index]


def _axis_taps(size, k, s, d, pad, o):
    """Along one axis, per kernel tap t: (first, stop, start), the windows [first, stop) where data
    position o*s + t*d - pad lies in [0, size), and the position of window `first`'s tap; None for a
    tap that lands on data in no window."""
    spans = []
    for t in range(k):
        shift = t * d - pad
        first, stop = max(0, -(shift // s)), min(o, (size - 1 - shift) // s + 1)
        spans.append((first, stop, first * s + shift) if first < stop else None)
    return spans


def _phase_grid(x, pads, kernel, strides, dilations, out, fill, dtype):
    """(grid, taps): x in `dtype`, padded with `fill` and split along every spatial axis by its stride
    (phase p of an axis holds the padded positions p, p + s, ...), each phase a [N, C, grid...]
    array; per kernel tap in row-major order, a 1-D view of its phase flattened.

    Tap t of window o reads phase (t*d) % s at index o + (t*d) // s on each axis, so on the flattened
    phase every window's tap lies a constant offset from the window's own index in a [N, C, grid...]
    array: one tap of every window is one contiguous slice (NumPy runs an operation over one long
    slice several times faster than over the short rows of a strided view). The windows are the
    [N, C, out...] corner of that array; the rest of it holds sums of unrelated positions, unused."""
    phases, grid, fills, copies, shifts = _phase_plan(x.shape[2:], tuple(pads), tuple(kernel), tuple(strides),
                                                      tuple(dilations), tuple(out))
    buffer = np.empty(phases + x.shape[:2] + grid, dtype)        # [phases..., N, C, grid...]
    for where in fills:
        buffer[where] = fill
    for where, source in copies:
        buffer[where] = x[source]
    flat = buffer.reshape(math.prod(phases), -1)
    length = flat.shape[1] - max(offset for _, offset in shifts)   # the windows all lie before it
    return grid, [flat[i, offset:offset + length] for i, offset in shifts]


@functools.lru_cache(maxsize=256)
def _phase_plan(sizes, pads, kernel, strides, dilations, out):
    """For _phase_grid: the number of phases and the grid length per axis (only the phases and
    positions some window reads), the index of each padding slab, (phase box, data positions) per
    phase, and (phase number, flat offset) per kernel tap in row-major order."""
    n = len(sizes)
    geometry = list(zip(sizes, pads, kernel, strides, dilations, out))
    grid = tuple(o + max(t * d // s for t in range(k)) for _, _, k, s, d, o in geometry)
    phases = [sorted({t * d % s for t in range(k)}) for _, _, k, s, d, _ in geometry]
    fills, boxes = [], []       # boxes: per axis, per phase, (grid indices holding data, their positions)
    for a, ((size, (pb, _), _, s, _, _), g) in enumerate(zip(geometry, grid)):
        boxes.append([])
        for i, p in enumerate(phases[a]):
            lo = -(-max(pb - p, 0) // s)                    # index q of phase p is position q*s + p - pb
            hi = max(lo, min(g, (size - 1 + pb - p) // s + 1))
            boxes[a].append((slice(lo, hi), slice(lo * s + p - pb, (hi - 1) * s + p - pb + 1, s)))
            fills += [(slice(None),) * a + (i,) + (slice(None),) * (n + 1) + (pad,)
                      for pad in (slice(0, lo), slice(hi, g)) if pad.start < pad.stop]
    whole = (slice(None), slice(None))
    copies = [(i + whole + box, whole + source)
              for i, combo in zip(itertools.product(*map(range, map(len, phases))), itertools.product(*boxes))
              for box, source in [tuple(zip(*combo))] if all(b.start < b.stop for b in box)]
    rows = [math.prod(grid[a + 1:]) for a in range(n)]                # flat stride of each grid axis
    counts = [len(p) for p in phases]
    shifts = []
    for tap in itertools.product(*map(range, kernel)):
        number = 0
        for a, (t, s, d) in enumerate(zip(tap, strides, dilations)):
            number = number * counts[a] + phases[a].index(t * d % s)
        shifts.append((number, sum(t * d // s * r for t, s, d, r in zip(tap, strides, dilations, rows))))
    return tuple(counts), grid, tuple(fills), tuple(copies), tuple(shifts)


def _window_reduce(x, reduce, fill, geometry):
    """reduce (np.fmax / np.maximum) over every window of x, one spatial axis at a time:
    y[n, c, o...] = reduce over the window's taps that land on data; `fill` where none does.
    geometry: per spatial axis (kernel, stride, dilation, pad_begin, out)."""
    for axis, (k, s, d, pad, o) in enumerate(geometry, start=2):
        def at(lo, hi, step=1):
            return (slice(None),) * axis + (slice(lo, hi, step),)
        spans = [span for span in _axis_taps(x.shape[axis], k, s, d, pad, o) if span]
        # taps on data in every window first: the first two make the result without an initial fill
        spans.sort(key=lambda span: span[:2] != (0, o))
        whole = [span for span in spans if span[:2] == (0, o)]
        if len(whole) >= 2:
            (_, _, a), (_, _, b), spans = whole[0], whole[1], spans[2:]
            y = reduce(x[at(a, a + (o - 1) * s + 1, s)], x[at(b, b + (o - 1) * s + 1, s)])
        else:
            y = np.full(x.shape[:axis] + (o,) + x.shape[axis + 1:], fill, x.dtype)
        for first, stop, start in spans:
            if axis == x.ndim - 1 and x.shape[-1] == o * s and x.flags.c_contiguous and first < stop:
                _reduce_flat(y, x, reduce, first, stop, start - first * s, s)
            else:
                part = y[at(first, stop)]
                reduce(part, x[at(start, start + (stop - first - 1) * s + 1, s)], out=part)
        x = y
    return x


def _reduce_flat(y, x, reduce, first, stop, shift, s):
    """reduce(y[..., o], x[..., o*s + shift]) for the windows o in [first, stop) of the innermost axis,
    where x's rows are s times as long as y's: on the flattened arrays window k reads x[k*s + shift],
    so one long strided operation covers every row (NumPy runs it several times faster than one over
    the short rows of a partial view). The windows outside [first, stop) it also reaches are put back
    from a copy (a max is unchanged by taking a value again, so they may be taken, then restored)."""
    o = y.shape[-1]
    keep = [(side, y[..., side].copy()) for side in (slice(0, first), slice(stop, o)) if side.start < side.stop]
    yf, xf = y.reshape(-1), x.reshape(-1)
    k0, k1 = -(shift // s) if shift < 0 else 0, min(yf.size, (xf.size - 1 - shift) // s + 1)
    if k0 < k1:
        reduce(yf[k0:k1], xf[k0 * s + shift:(k1 - 1) * s + shift + 1:s], out=yf[k0:k1])
    for side, values in keep:
        y[..., side] = values


def _on_data(tap, sizes, pads, strides, dilations, out):
    """Per spatial axis, a mask broadcastable to [o...]: whether this tap of each window lands on data."""
    n = len(tap)
    masks = []
    for i, (t, size, (pb, _), s, d, o) in enumerate(zip(tap, sizes, pads, strides, dilations, out)):
        pos = np.arange(o) * s + t * d - pb
        masks.append(((pos >= 0) & (pos < size)).reshape((-1,) + (1,) * (n - 1 - i)))
    return masks


def _compute_dtype(dtype):
    t = element_type(dtype)
    if t.is_float:
        return np.dtype(np.float64 if t.name == "f64" else np.float32)
    return t.dtype


def _lowest(dtype):
    """The lowest finite value of a data type (ml_dtypes knows bf16 and f8 too)."""
    return ml_dtypes.finfo(dtype).min if element_type(dtype).is_float else np.iinfo(dtype).min


# --- MaxPool ----------------------------------------------------------------------------------------
def _max_pool(op, data, kernel, strides, dilations, pads_begin, pads_end, auto_pad, rounding_type,
              index_element_type=None, axis=0):
    pads, dilations, out = _geometry(op, data.shape, kernel, strides, dilations, pads_begin, pads_end, auto_pad,
                                     rounding_type)
    ct = _compute_dtype(data.dtype)
    x = data.astype(ct, copy=False)
    shape = x.shape[:2] + tuple(out)
    if 0 in shape:
        empty = np.zeros(shape, data.dtype)
        return empty if index_element_type is None else (empty, np.zeros(shape, element_type(index_element_type).dtype))
    # OpenVINO's rule: start from the lowest finite value; the first data tap at or above it is taken,
    # then only strictly greater ones. So the value is a NaN-ignoring max that starts from the lowest
    # value (NaN and -inf are never taken), and the index is that of the first data tap equal to it;
    # a window that takes nothing (all padding, NaN or -inf) gives the lowest value and index 0.
    lowest = ct.type(_lowest(data.dtype))
    geometry = [(k, s, d, pb, o) for k, s, d, (pb, _), o in zip(kernel, strides, dilations, pads, out)]
    if ct.kind == "f":
        best = _window_reduce(x, np.fmax, lowest, geometry)
        np.fmax(best, lowest, out=best)
    else:
        best = _window_reduce(x, np.maximum, lowest, geometry)
    values = best.astype(data.dtype, copy=False)
    if index_element_type is None:
        return values
    return values, _indices(x, best, kernel, strides, dilations, pads, out, axis, index_element_type)


def _first_taps(x, best, kernel, strides, dilations, pads, out):
    """Per window, K - k for the first tap k (row-major) that holds its maximum `best`, 0 for none, in a
    small integer type. Floats: over the stride-split grid (_phase_grid), where every tap of every
    window is one contiguous slice (padding -inf, below any maximum; NaN equals nothing). Integers:
    over the padded data's strided views, masked to data positions (the padding is the lowest value,
    which a window of lowest values has as its maximum)."""
    k_all = math.prod(kernel)
    code_type = np.min_scalar_type(k_all)
    if x.dtype.kind == "f":
        grid, taps = _phase_grid(x, pads, kernel, strides, dilations, out, -np.inf, x.dtype)
        target = np.full(x.shape[:2] + grid, np.nan, x.dtype)          # best on the windows, NaN elsewhere
        target[(slice(None), slice(None)) + tuple(slice(o) for o in out)] = best
        target = target.reshape(-1)[:len(taps[0])]
        code, term, match = (np.zeros(len(target), code_type), np.empty(len(target), code_type),
                             np.empty(len(target), bool))
        for k, view in enumerate(taps):
            np.equal(view, target, out=match)
            _keep_first(code, term, match, k_all - k)
        code = np.pad(code, (0, math.prod(x.shape[:2] + grid) - len(code)))
        return code.reshape(x.shape[:2] + grid)[(slice(None), slice(None)) + tuple(slice(o) for o in out)]
    xp = _padded(x, pads, kernel, strides, dilations, out, np.iinfo(x.dtype).min)
    code, term, match = np.zeros(best.shape, code_type), np.empty(best.shape, code_type), np.empty(best.shape, bool)
    for k, (tap, view) in enumerate(_taps(xp, kernel, strides, dilations, out)):
        np.equal(view, best, out=match)
        inside = _on_data(tap, x.shape[2:], pads, strides, dilations, out)
        if not all(m.all() for m in inside):
            match &= functools.reduce(np.logical_and, inside)
        _keep_first(code, term, match, k_all - k)
    return code


def _keep_first(code, term, match, value):
    """code = max(code, value where match): with values K - k falling tap by tap, the first match stays.
    (Two whole-array passes; np.copyto(where=) is tens of times slower.)"""
    np.multiply(match.view(np.uint8), code.dtype.type(value), out=term)
    np.maximum(code, term, out=code)


def _indices(x, best, kernel, strides, dilations, pads, out, axis, index_element_type):
    """Flat index into data flattened from `axis` of the first tap of every window that holds its
    maximum `best`. A data coordinate is linear in the tap, so the index is the window's origin plus
    the first matching tap's offset (_first_taps)."""
    shape, sizes = x.shape, x.shape[2:]
    n, k_all = len(sizes), math.prod(kernel)
    row = [math.prod(sizes[i + 1:]) for i in range(n)]               # flat stride of each spatial axis
    code = _first_taps(x, best, kernel, strides, dilations, pads, out)
    offset = np.zeros(k_all + 1, np.int64)            # offset[K - k]: tap k's; offset[0]: no tap matched
    for k, tap in enumerate(np.ndindex(*kernel)):
        offset[k_all - k] = sum(t * d * r for t, d, r in zip(tap, dilations, row))
    origin = sum(((np.arange(o) * s - pb) * r).reshape((-1,) + (1,) * (n - 1 - i))
                 for i, (o, s, (pb, _), r) in enumerate(zip(out, strides, pads, row)))
    index = offset[code]
    index += origin
    index[code == 0] = 0                                              # nothing taken: the plane's first element
    # the planes before this one, as far as the flattening from `axis` sees them
    axis = axis + len(shape) if axis < 0 else axis
    size, period = math.prod(sizes), math.prod(shape[axis:])
    planes = np.arange(shape[0] * shape[1], dtype=np.int64).reshape(shape[:2] + (1,) * n)
    index += planes * size
    if period < math.prod(shape):
        index %= period
    return index.astype(element_type(index_element_type).dtype, copy=False)


def max_pool_1(data, *, strides, pads_begin, pads_end, kernel, rounding_type, auto_pad):
    return _max_pool("MaxPool-1", data, kernel, strides, (), pads_begin, pads_end, auto_pad, rounding_type)


def max_pool_8(data, *, strides, dilations, pads_begin, pads_end, kernel, rounding_type, auto_pad,
               index_element_type, axis):
    return _max_pool("MaxPool-8", data, kernel, strides, dilations, pads_begin, pads_end, auto_pad, rounding_type,
                     index_element_type, axis)


def max_pool_14(data, *, strides, dilations, pads_begin, pads_end, kernel, rounding_type, auto_pad,
                index_element_type, axis):
    return _max_pool("MaxPool-14", data, kernel, strides, dilations, pads_begin, pads_end, auto_pad, rounding_type,
                     index_element_type, axis)


def _max_pool_values(op):
    """MaxPool-8/14's output 0 alone: the values, by the same steps, without the indices (which cost about
    three times as much), for a model that reads no index (kernels/__init__.py's FIRST_OUTPUT)."""
    def values(data, *, strides, dilations, pads_begin, pads_end, kernel, rounding_type, auto_pad,
               index_element_type, axis):
        return _max_pool(op, data, kernel, strides, dilations, pads_begin, pads_end, auto_pad, rounding_type)
    return values


FIRST_OUTPUT = {"MaxPool-8": _max_pool_values("MaxPool-8"), "MaxPool-14": _max_pool_values("MaxPool-14")}


# --- AvgPool ----------------------------------------------------------------------------------------
def _counts(size, pad, k, s, d, o):
    """How many taps of each window along one axis land on data."""
    pos = np.arange(o)[:, None] * s + np.arange(k)[None, :] * d - pad[0]
    return ((pos >= 0) & (pos < size)).sum(axis=1)


# AvgPool sums on the stride-split grid unless it is more than GRID_WASTE times the windows' own size
GRID_WASTE = 2


def _avg_pool(op, data, kernel, strides, dilations, pads_begin, pads_end, auto_pad, rounding_type, exclude_pad):
    pads, dilations, out = _geometry(op, data.shape, kernel, strides, dilations, pads_begin, pads_end, auto_pad,
                                     rounding_type)
    ct = _compute_dtype(data.dtype) if element_type(data.dtype).is_float else np.dtype(np.float64)
    shape = data.shape[:2] + tuple(out)
    if 0 in shape:
        return np.zeros(shape, data.dtype)
    grid = _phase_plan(data.shape[2:], tuple(pads), tuple(kernel), tuple(strides), tuple(dilations), out)[1]
    with np.errstate(all="ignore"):            # (positions outside the windows may overflow)
        if math.prod(grid) <= GRID_WASTE * math.prod(out):
            total = _grid_sums(data, pads, kernel, strides, dilations, out, ct)
        else:                                  # few windows far apart (global pooling): the grid would be
            total, grid = _tap_sums(data, pads, kernel, strides, dilations, out, ct), out   # mostly unused
        geometry = (tuple(data.shape[2:]), tuple(map(tuple, pads)), tuple(kernel), tuple(strides), tuple(dilations),
                    tuple(out), tuple(grid), bool(exclude_pad), ct)
        divisor = _divisor_kept(*geometry) if math.prod(grid) <= DIVISOR_KEPT else _divisor(*geometry)
        np.divide(total, divisor, out=total)   # over the whole grid: long rows
        if not element_type(data.dtype).is_float:
            np.rint(total, out=total)          # half to even, as OpenVINO rounds
    windows = total[(slice(None), slice(None)) + tuple(slice(0, o) for o in out)]
    return windows.astype(data.dtype, copy=False)             # (f32: a view of the grid, not copied)


def _grid_sums(data, pads, kernel, strides, dilations, out, ct):
    """Every window's sum over its taps in row-major order, from 0, as OpenVINO sums (a window of -0 gives +0),
    on the stride-split grid (_phase_grid): [N, C, grid...], the windows in its [N, C, out...] corner."""
    grid, taps = _phase_grid(data, pads, kernel, strides, dilations, out, 0, ct)
    total = np.empty(data.shape[:2] + grid, ct)
    flat = total.reshape(-1)[:taps[0].size]
    np.add(taps[0], ct.type(0), out=flat)
    for tap in taps[1:]:
        np.add(flat, tap, out=flat)
    return total


def _tap_sums(data, pads, kernel, strides, dilations, out, ct):
    """The same sums [N, C, out...], in the same order, over the zero-padded data's strided view per tap: for
    windows that cover a small part of the grid, where these views are less work than the grid's slices."""
    xp = _padded(data.astype(ct, copy=False), pads, kernel, strides, dilations, out, 0)
    planes = xp.reshape((1, -1) + xp.shape[2:])           # (one axis of planes: fewer axes to iterate)
    total = np.zeros(planes.shape[:2] + tuple(out), ct)
    for _, view in _taps(planes, kernel, strides, dilations, out):
        np.add(total, view, out=total)
    return total.reshape(data.shape[:2] + tuple(out))


def _divisor(sizes, pads, kernel, strides, dilations, out, grid, exclude_pad, ct):
    """AvgPool's divisor of each window, laid out on the grid (1 outside the windows; read-only). As OpenVINO
    defines it: with exclude-pad, the data positions in the window; without it, the whole kernel when
    there is any padding (even where rounding up lets the window run past the padding), and the data
    positions when there is none. A window without any data gives 0, as OpenVINO's reference does
    (its CPU plugin gives -0 in 1-D, NaN in 2-D): its divisor is 1."""
    if not exclude_pad and any(p for pair in pads for p in pair):
        count = np.full(out, math.prod(kernel), np.int64)
    else:
        count = np.ones((), np.int64)
        for size, pad, k, s, d, o in zip(sizes, pads, kernel, strides, dilations, out):
            count = np.multiply.outer(count, _counts(size, pad, k, s, d, o))
    divisor = np.ones(grid, ct)
    divisor[tuple(slice(0, o) for o in out)] = np.maximum(count, 1)
    divisor.flags.writeable = False
    return divisor


# the divisors of planes up to this many grid positions (256 KB in f32) are made once per geometry and shared
DIVISOR_KEPT = 1 << 16
_divisor_kept = functools.lru_cache(maxsize=256)(_divisor)


def _avg_pool_1(data, *, strides, pads_begin, pads_end, kernel, exclude_pad, rounding_type, auto_pad):
    return _avg_pool("AvgPool-1", data, kernel, strides, (), pads_begin, pads_end, auto_pad, rounding_type,
                     exclude_pad)


def _avg_pool_14(data, *, strides, pads_begin, pads_end, kernel, exclude_pad, rounding_type, auto_pad):
    return _avg_pool("AvgPool-14", data, kernel, strides, (), pads_begin, pads_end, auto_pad, rounding_type,
                     exclude_pad)


def _avg_pool_16(data, *, strides, pads_begin, pads_end, kernel, exclude_pad, rounding_type, auto_pad, dilations):
    return _avg_pool("AvgPool-16", data, kernel, strides, dilations, pads_begin, pads_end, auto_pad, rounding_type,
                     exclude_pad)


avg_pool_1 = _avg_pool_1
avg_pool_14 = _avg_pool_14
avg_pool_16 = _avg_pool_16


# --- AdaptiveAvgPool / AdaptiveMaxPool -------------------------------------------------------------
def _bins(size, o):
    """Gather indices [o, width] of the bins along one axis (the last index repeated to pad a short
    bin) and their true widths."""
    i = np.arange(o)
    start, end = (i * size) // o, -((-(i + 1) * size) // o)
    width = int((end - start).max()) if o else 0
    j = np.arange(width)
    return np.minimum(start[:, None] + j[None, :], end[:, None] - 1), end - start, j[None, :] < (end - start)[:, None]


def adaptive_avg_pool(data, output_shape):
    x = data.astype(_compute_dtype(data.dtype))
    for a, o in enumerate(int(v) for v in output_shape):       # a box mean is a mean per axis in turn
        axis = 2 + a
        idx, width, valid = _bins(x.shape[axis], o)
        check_size("AdaptiveAvgPool-8", f"the bins' work array for output_shape {[int(v) for v in output_shape]}",
                   x.shape[:axis] + idx.shape + x.shape[axis + 1:], x.dtype)
        g = np.moveaxis(np.take(x, idx, axis=axis), (axis, axis + 1), (-2, -1))    # [..., o, width]
        x = np.moveaxis((g * valid).sum(-1) / width, -1, axis)
    return x.astype(data.dtype)


def adaptive_max_pool(data, output_shape, *, index_element_type):
    """Max over each bin in row-major order, as OpenVINO scans it: the bin's first element, then each
    strictly greater one (ties keep the first; a NaN is kept only when it comes first)."""
    sizes = data.shape[2:]
    out_shape = data.shape[:2] + tuple(int(o) for o in output_shape)
    index_dtype = element_type(index_element_type).dtype
    if 0 in out_shape:                             # no bin: empty outputs
        return np.zeros(out_shape, data.dtype), np.zeros(out_shape, index_dtype)
    if 0 in sizes:     # (OpenVINO's plugin reads memory outside the empty input there)
        raise InputError(f"AdaptiveMaxPool-8: input 'data' {list(data.shape)} has an empty spatial axis: the bins "
                         f"of output_shape {list(out_shape[2:])} have no element to take the max of")
    x = data.astype(_compute_dtype(data.dtype))
    bins = [_bins(size, int(o))[0] for size, o in zip(sizes, output_shape)]     # [o, width] per axis
    n = len(bins)
    best = flat = None
    for tap in np.ndindex(*(b.shape[1] for b in bins)):
        coords = [b[:, t].reshape((-1,) + (1,) * (n - 1 - i)) for i, (b, t) in enumerate(zip(bins, tap))]
        view = x[(slice(None), slice(None)) + np.ix_(*(b[:, t] for b, t in zip(bins, tap)))]
        where = np.zeros(view.shape[2:], np.int64)
        for size, c in zip(sizes, coords):
            where = where * size + c
        where = np.broadcast_to(where, view.shape)
        if best is None:
            best, flat = view.copy(), where.copy()
            continue
        better = view > best
        np.copyto(best, view, where=better)
        np.copyto(flat, where, where=better)
    return best.astype(data.dtype), flat.astype(index_dtype)


KERNELS = {"MaxPool-1": max_pool_1, "MaxPool-8": max_pool_8, "MaxPool-14": max_pool_14,
           "AvgPool-1": avg_pool_1, "AvgPool-14": avg_pool_14, "AvgPool-16": avg_pool_16,
           "AdaptiveAvgPool-8": adaptive_avg_pool, "AdaptiveMaxPool-8": adaptive_max_pool}
