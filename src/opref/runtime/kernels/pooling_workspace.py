"""Temporaries of the MaxPool and AvgPool kernels (runtime/limits.py's max_kernel_bytes), kept apart from
pooling.py. What they count, as pooling.py computes (keep the two in step):

- MaxPool's data in the compute type (f32 for floats narrower than f32) when that is not its own type:
  a copy;
- MaxPool's values: the window maximum taken one spatial axis at a time, outer axes first, each step a
  new array with that axis at its output size (the padding never materialised);
- MaxPool's indices (MaxPool-8/14): for floats, the stride-split copy of AvgPool below (padding -inf)
  and the maxima laid on its grid, with a code of the first matching tap (the smallest unsigned type
  holding the kernel's tap count), its term and match mask over the grid; for integers, a copy of the
  data padded on every side where a window reaches outside it (at the end up to the last window's
  reach, `(o - 1) * s + (k - 1) * d + 1`) and output-sized code, term and mask; then the i64 flat
  indices (output-sized; the output itself for i64) and their zero mask;
- AvgPool: the data padded and split along every spatial axis by its stride, one [N, C, grid...]
  array per phase some tap reads (per axis min(k, s / gcd(d, s)) phases; grid o + (k - 1) * d // s
  per axis: the output's windows and the positions their taps reach), the sum over that grid (the
  output a view of it), the divisors on the grid and in i64 per window, and per axis the [o, k] tap
  positions of the exclude-pad counts. No copy of the data in the compute type apart from the phases.
"""
from __future__ import annotations

import math

import numpy as np

from ...opset.helpers import same_pads
from ...types import element_type


def _compute_dtype(dtype, average: bool) -> np.dtype:
    """f32 for floats narrower than f64, f64 for f64 (and AvgPool's integers), else the data's type."""
    t = element_type(dtype)
    if t.is_float:
        return np.dtype(np.float64 if t.name == "f64" else np.float32)
    return np.dtype(np.float64) if average else np.dtype(dtype)


def _geometry(data, kw):
    """Per spatial axis (size, kernel, stride, dilation, pad_begin, pad_end)."""
    sizes = [int(d) for d in data.shape[2:]]
    n = len(sizes)
    kernel, strides = [int(k) for k in kw["kernel"]], [int(s) for s in kw["strides"]]
    dilations = [int(d) for d in kw.get("dilations") or ()] or [1] * n
    auto_pad = kw["auto_pad"]
    if auto_pad == "valid":
        pads = [(0, 0)] * n
    elif auto_pad in ("same_upper", "same_lower"):
        pads = [same_pads(size, k, s, d, auto_pad == "same_upper")
                for size, k, s, d in zip(sizes, kernel, strides, dilations)]
    else:
        pads = list(zip([int(p) for p in kw["pads_begin"]] or [0] * n, [int(p) for p in kw["pads_end"]] or [0] * n))
    return [(size, k, s, d, pb, pe) for size, k, s, d, (pb, pe) in zip(sizes, kernel, strides, dilations, pads)]


def _padded_sizes(geometry, out):
    """The padded copy's size along each spatial axis: the data and its pads, or the last window's reach."""
    return [max(size + pb + pe, (o - 1) * s + (k - 1) * d + 1)
            for (size, k, s, d, pb, pe), o in zip(geometry, out)]


def _phase_grid_bytes(nc, geometry, spatial, ct) -> int:
    """The stride-split copy of _phase_grid: one [N, C, grid...] array per phase some tap reads (per
    axis min(k, s / gcd(d, s)) phases; grid o + (k - 1) * d // s per axis)."""
    phases = math.prod(min(k, s // math.gcd(d, s)) for _, k, s, d, _, _ in geometry)
    return nc * phases * _grid(geometry, spatial) * ct


def _grid(geometry, spatial) -> int:
    """Positions of the windows' grid: the output's windows and the positions their taps reach."""
    return math.prod(o + (k - 1) * d // s for o, (_, k, s, d, _, _) in zip(spatial, geometry))


def _max_pool_workspace(ins, outs, kw) -> int:
    data, out = ins[0], outs[0]
    if out is None or 0 in out:
        return 0
    geometry, spatial = _geometry(data, kw), [int(o) for o in out[2:]]
    dtype = _compute_dtype(data.dtype, False)
    ct, cast = dtype.itemsize, dtype != data.dtype
    nc, sizes = int(data.shape[0]) * int(data.shape[1]), [g[0] for g in geometry]
    # the maximum along axis i: output sizes on the axes before and at i, data sizes after it
    steps = [nc * math.prod(spatial[:i + 1]) * math.prod(sizes[i + 1:]) for i in range(len(spatial))]
    copy, values = (data.size * ct if cast else 0), ct * sum(steps)
    if "index_element_type" not in kw:              # MaxPool-1: the values only
        return copy + values
    outputs = nc * math.prod(spatial)
    code = np.min_scalar_type(math.prod(k for _, k, *_ in geometry)).itemsize
    if dtype.kind == "f":          # first taps over the phase grid, against the maxima laid on the grid
        grid = nc * _grid(geometry, spatial)
        first = _phase_grid_bytes(nc, geometry, spatial, ct) + grid * (ct + 3 * code + 1)
    else:                          # over the padded data's strided views (a copy where windows reach out)
        padded = _padded_sizes(geometry, spatial)
        first = (nc * math.prod(padded) * ct if padded != sizes else 0) + outputs * (2 * code + 1)
    index = 8 * outputs if kw["index_element_type"] != "i64" else 0       # (i64: the output itself)
    # the indices are found after the values' steps are freed (their last, the maximum, kept)
    return copy + max(values, ct * steps[-1] + first + index + outputs * (1 + code) + 8 * math.prod(spatial))


def _avg_pool_workspace(ins, outs, kw) -> int:
    data, out = ins[0], outs[0]
    if out is None or 0 in out:
        return 0
    geometry, spatial = _geometry(data, kw), [int(o) for o in out[2:]]
    ct = _compute_dtype(data.dtype, True).itemsize
    nc = int(data.shape[0]) * int(data.shape[1])
    grid = _grid(geometry, spatial)
    outputs = math.prod(spatial)
    counts = sum(o * k * 19 for o, (_, k, *_) in zip(spatial, geometry))      # exclude-pad's [o, k] positions
    return _phase_grid_bytes(nc, geometry, spatial, ct) + (nc + 1) * grid * ct + 2 * 8 * outputs + counts


WORKSPACE = {**{name: _max_pool_workspace for name in ("MaxPool-1", "MaxPool-8", "MaxPool-14")},
             **{name: _avg_pool_workspace for name in ("AvgPool-1", "AvgPool-14", "AvgPool-16")}}
