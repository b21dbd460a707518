"""Quantization kernels: FakeQuantize-1, FakeConvert-13.

FakeQuantize is the spec's formula, evaluated in f32 for the narrow float types (rounded back once)
and in the data's own type otherwise; `round` is round-half-to-even (OpenVINO's reference uses
std::nearbyint). A NaN passes both comparisons and stays NaN through the formula.
"""
from __future__ import annotations

import ml_dtypes
import numpy as np

from ...errors import InputError
from ...types import accumulator_dtype
from ._elementwise import broadcast_pair


# --- FakeQuantize-1 ----------------------------------------------------------------------------------
def fake_quantize(data, input_low, input_high, output_low, output_high, *, levels, auto_broadcast):
    acc = accumulator_dtype(data.dtype)
    x = data.astype(acc, copy=False)
    limits = {}
    for name, v in (("input_low", input_low), ("input_high", input_high), ("output_low", output_low),
                    ("output_high", output_high)):
        v = broadcast_pair(data, v, auto_broadcast)[1]
        if v.ndim > data.ndim or any(n not in (1, d) for n, d in zip(v.shape[::-1], data.shape[::-1])):
            raise InputError(f"FakeQuantize-1: input {name!r} {list(v.shape)} does not broadcast to data "
                             f"{list(data.shape)} (auto_broadcast={auto_broadcast}: each of its dims 1 or the data's)")
        limits[name] = v.astype(acc, copy=False)
    il, ih, ol, oh = limits.values()
    steps = acc.type(levels - 1)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        q = np.rint((x - il) / (ih - il) * steps) / steps * (oh - ol) + ol
        out = np.where(x <= np.minimum(il, ih), ol, np.where(x > np.maximum(il, ih), oh, q))
    return np.broadcast_to(out, data.shape).astype(data.dtype)


# --- FakeConvert-13 ----------------------------------------------------------------------------------
_F8 = {"f8e4m3": ml_dtypes.float8_e4m3fn, "f8e5m2": ml_dtypes.float8_e5m2}


def fake_convert(data, scale, shift=None, *, destination_type):
    """Scaled and shifted data rounded (half to even) to the 8-bit type, saturating at its largest
    finite value (as OpenVINO converts: +-inf too), then shifted and scaled back; computed in f32."""
    f8 = _F8[destination_type]
    big = np.float32(ml_dtypes.finfo(f8).max)
    x, s = data.astype(np.float32), scale.astype(np.float32)
    b = np.float32(0) if shift is None else shift.astype(np.float32)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        y = np.clip(x * s - b, -big, big).astype(f8).astype(np.float32)
        out = (y + b) / s
    return np.broadcast_to(out, data.shape).astype(data.dtype)


KERNELS = {
    "FakeQuantize-1": fake_quantize,
    "FakeConvert-13": fake_convert,
}
