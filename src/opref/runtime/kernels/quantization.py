"""Quantization kernels: FakeQuantize-1, FakeConvert-13.

FakeQuantize is the spec's formula, evaluated in f32 for the narrow float types (rounded back once)
and in the data's own type otherwise; `round` is round-half-to-even (OpenVINO's reference uses
std::nearbyint). A NaN passes both comparisons and stays NaN through the formula.
"""
from __future__ import annotations

import numpy as np

from ...types import accumulator_dtype
from ._elementwise import broadcast_pair


# --- FakeQuantize-1 ----------------------------------------------------------------------------------
def fake_quantize(data, input_low, input_high, output_low, output_high, *, levels, auto_broadcast):
    acc = accumulator_dtype(data.dtype)
    x = data.astype(acc, copy=False)
    il, ih, ol, oh = (broadcast_pair(data, v, auto_broadcast)[1].astype(acc, copy=False)
                      for v in (input_low, input_high, output_low, output_high))
    steps = acc.type(levels - 1)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        q = np.rint((x - il) / (ih - il) * steps) / steps * (oh - ol) + ol
        out = np.where(x <= np.minimum(il, ih), ol, np.where(x > np.maximum(il, ih), oh, q))
    return np.broadcast_to(out, data.shape).astype(data.dtype)


KERNELS = {
    "FakeQuantize-1": fake_quantize,
}
