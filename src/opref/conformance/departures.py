"""Documented departures of an oracle from the spec that depend on the machine it runs on.

OpenVINO's CPU plugin (and TensorFlow) pick kernels by instruction set: the same model can give the
spec's answer on one CPU and a different, documented answer on another. A case that names a
departure accepts exactly two answers — the spec's (opref's) and the departure's, computed here from
the inputs without opref's kernels — so the same case holds on AVX2-only and AVX-512 machines alike.
A departure never excuses anything else: an answer equal to neither fails.

Where a departure does not depend on the machine, the case is marked `nan_differs` (asserted to
still differ) or routed to an oracle that is faithful everywhere (OpenVINO's reference evaluate,
inputs widened losslessly, exact sums) instead. One exception, `empty-max-finite`: a result the spec
leaves undefined, where OpenVINO's answer differs between its reference code and its CPU kernels.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import ml_dtypes
import numpy as np


@dataclass(frozen=True)
class Departure:
    name: str
    oracle: str             # the oracle that departs: "openvino" (CPU plugin and reference evaluate), "tensorflow"
    why: str                # what it computes instead, and on which machines it was seen
    answer: Callable        # (oracle inputs, attrs, spec outputs) -> the departure's outputs
    applies: Callable       # (oracle inputs, attrs) -> whether the departure changes the answer for them


def _bf16_odd_rounding(inputs, attrs, expected):
    """f32 -> bf16 adding half an ulp only when the kept bits are odd: bits + (lsb << 15), then the top half
    (matched bit for bit on 200,000 random f32 patterns); NaN stays NaN."""
    x = np.asarray(inputs[0]).astype(np.float32)
    bits = x.view(np.uint32).astype(np.uint64)
    kept = ((bits + (((bits >> 16) & 1) << 15)) >> 16).astype(np.uint16)
    out = kept.view(ml_dtypes.bfloat16).copy()
    out[np.isnan(x)] = np.nan
    return [out]


def _bf16_odd_rounding_applies(inputs, attrs) -> bool:
    """Rounding to nearest even differs where the kept bits are even and the dropped half exceeds 0x8000."""
    bits = np.asarray(inputs[0]).astype(np.float32).reshape(-1)
    bits = bits[np.isfinite(bits)].view(np.uint32)
    return bool(np.any(((bits >> 16) & 1 == 0) & ((bits & 0xFFFF) > 0x8000)))


def _gelu_inf_nan(inputs, attrs, expected):
    x = np.asarray(inputs[0]).astype(np.float64)
    e = expected[0].copy()
    e[np.isposinf(x)] = np.nan
    return [e]


def _has_posinf(inputs, attrs) -> bool:
    return bool(np.any(np.isposinf(np.asarray(inputs[0]).astype(np.float64))))


def _has_empty_segment(inputs, attrs) -> bool:
    ids = np.asarray(inputs[1]).reshape(-1)
    count = int(inputs[2]) if len(inputs) > 2 else int(ids.max(initial=-1)) + 1
    return len(np.setdiff1d(np.arange(count), ids)) > 0


def _lowest_as_inf(inputs, attrs, expected):
    e = expected[0].copy()
    e[e.astype(np.float64) == float(ml_dtypes.finfo(e.dtype).min)] = -np.inf
    return [e] + list(expected[1:])


def _empty_max_finite(inputs, attrs, expected):
    e = expected[0].copy()
    e[np.isneginf(e)] = np.finfo(e.dtype).min
    return [e]


def _empty_float_reduction(inputs, attrs) -> bool:
    x = np.asarray(inputs[0])
    return x.size == 0 and x.dtype.kind == "f" and x.dtype.itemsize >= 4


DEPARTURES = {d.name: d for d in (
    Departure("bf16-odd-rounding", "openvino",
              "without AVX-512 (seen on an AVX2-only AMD EPYC), OpenVINO's f32 -> bf16 conversion, in the CPU plugin "
              "and in its reference evaluate alike, rounds up only when the kept bits are odd and the dropped half "
              "is >= 0x8000 (it truncates 0.4 to 0.3984); with AVX-512 it rounds to nearest even, as the IEEE "
              "conversion (and opref) does, except on its direct nf4 -> bf16 path (seen on an AVX-512 Intel Xeon)", _bf16_odd_rounding, _bf16_odd_rounding_applies),
    Departure("gelu-inf-nan", "openvino",
              "with AVX-512, OpenVINO's CPU plugin gives Gelu(+inf) = NaN (its erf polynomial evaluates inf * 0); "
              "without AVX-512 it gives +inf, the spec's 0.5 * x * (1 + erf(x / sqrt 2))", _gelu_inf_nan, _has_posinf),
    Departure("bf16-lowest-as-inf", "openvino",
              "without AVX-512 (seen on an AVX2-only AMD EPYC), OpenVINO's CPU plugin fills empty bf16 segments with "
              "-inf; with AVX-512 it gives bf16's lowest finite value, which the spec's 'lowest' fill asks for",
              _lowest_as_inf, _has_empty_segment),
    Departure("empty-max-finite", "openvino",
              "ReduceMax over an empty set, which the spec leaves undefined: for f32 OpenVINO's reference evaluate "
              "(on every CPU) and its CPU plugin on an AVX2-only AMD EPYC give f32's lowest finite value; opref gives "
              "-inf as ONNX defines it (checked against onnxruntime) and as OpenVINO gives for f16/bf16 and for "
              "ReduceMin's +inf in its reference", _empty_max_finite, _empty_float_reduction),
)}


def departures_for(names, inputs, attrs=None) -> tuple[str, ...]:
    """The named departures that change the answer for these (oracle) inputs: what a case should carry."""
    return tuple(n for n in names if DEPARTURES[n].applies(inputs, attrs or {}))


def departure_answers(names, inputs, attrs, expected) -> dict[str, list]:
    """The outputs each named departure would give."""
    return {n: DEPARTURES[n].answer(inputs, attrs, expected) for n in names}
