"""A NumPy transcription of FakeConvert-13's spec: the oracle of cases where OpenVINO rounds twice
(it converts to f16 first and then to the 8-bit type, so a value just off an f8 tie can land on it)
and its reference does too. The 8-bit types are decoded here from their bit layouts (sign, exponent,
mantissa; e4m3 has no infinities and saturates), and rounding picks the nearest value, ties to the
even mantissa, independently of ml_dtypes."""
from __future__ import annotations

import numpy as np

_LAYOUT = {"f8e4m3": (4, 3, 7), "f8e5m2": (5, 2, 15)}     # exponent bits, mantissa bits, bias


def _finite_positive(dest):
    """(values, codes) of the type's finite non-negative numbers, ascending."""
    e_bits, m_bits, bias = _LAYOUT[dest]
    codes = np.arange(1 << (e_bits + m_bits))
    e, m = codes >> m_bits, codes & ((1 << m_bits) - 1)
    normal = (1 + m / (1 << m_bits)) * 2.0 ** (e - bias)
    values = np.where(e == 0, m / (1 << m_bits) * 2.0 ** (1 - bias), normal)
    top = (1 << e_bits) - 1
    finite = (e < top) if dest == "f8e5m2" else ~((e == top) & (m == (1 << m_bits) - 1))
    return values[finite], codes[finite]


def round_to(dest, v):
    values, codes = _finite_positive(dest)
    a = np.minimum(np.abs(v), values[-1])                  # saturate (inf included)
    hi = np.clip(np.searchsorted(values, a), 0, len(values) - 1)
    lo = np.maximum(hi - 1, 0)
    dl, dh = a - values[lo], values[hi] - a
    pick = np.where(dl < dh, lo, np.where(dh < dl, hi, np.where(codes[lo] % 2 == 0, lo, hi)))
    return np.where(np.isnan(v), np.nan, np.copysign(values[pick], v))


def fake_convert_13(data, scale, shift=None, *, destination_type):
    x, s = data.astype(np.float32), scale.astype(np.float32)
    b = np.float32(0) if shift is None else shift.astype(np.float32)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        y = round_to(destination_type, (x * s - b).astype(np.float64)).astype(np.float32)
        out = (y + b) / s
    return [np.broadcast_to(out, data.shape).astype(data.dtype)]


SPEC = {"FakeConvert-13": fake_convert_13}
