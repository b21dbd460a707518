"""NumPy reference kernels: BinaryConvolution-1, as Convolution-1 of +-1 values: data and filter bits map
to -1 (0) and +1 (1), so that each tap's product is +1 where they agree (xnor) and -1 where they
differ, and the sum over C_IN x KY x KX taps is 2 * popcount - taps; padding taps hold pad_value."""
from __future__ import annotations

import math

import numpy as np

from ...types import element_type
from .convolution import _pads, convolution


def binary_convolution(data, filters, *, strides, pads_begin, pads_end, dilations, mode, pad_value, auto_pad):
    # (mode is xnor-popcount, the only one; the sums are exact in f64: integers, or multiples of pad_value)
    signs = np.where(np.asarray(data) != 0, 1.0, -1.0)
    weights = np.where(np.asarray(filters) != 0, 1.0, -1.0)
    strides, dilations = tuple(strides) or (1, 1), tuple(dilations) or (1, 1)
    pads = _pads(signs.shape[2:], weights.shape[2:], strides, dilations, pads_begin, pads_end, auto_pad)
    padded = np.pad(signs, [(0, 0), (0, 0)] + [tuple(p) for p in pads], constant_values=pad_value)
    y = convolution(padded, weights, strides=strides, pads_begin=(0, 0), pads_end=(0, 0), dilations=dilations,
                    auto_pad="explicit")
    t = element_type(data)
    if t.is_float:
        return y.astype(t.dtype)
    return np.rint(y).astype(np.int64).astype(t.dtype)      # integers wrap to the type


KERNELS = {"BinaryConvolution-1": binary_convolution}


def workspace(ins, outs, kw) -> int:
    """Bytes of the f64 work arrays: the +-1 data and filters, the padded data, Convolution's columns
    and product."""
    data, filters = ins[0], ins[1]
    out = outs[0] or (0,) * data.ndim
    taps = math.prod(filters.shape[2:])
    strides, dilations = tuple(kw["strides"]) or (1, 1), tuple(kw["dilations"]) or (1, 1)
    pads = _pads(data.shape[2:], filters.shape[2:], strides, dilations, kw["pads_begin"], kw["pads_end"],
                 kw["auto_pad"])
    padded = data.shape[0] * data.shape[1] * math.prod(s + b + e for s, (b, e) in zip(data.shape[2:], pads))
    cols = data.shape[0] * data.shape[1] * taps * math.prod(out[2:])
    return 8 * (data.size + filters.size + padded + cols + math.prod(out))


WORKSPACE = {"BinaryConvolution-1": workspace}
