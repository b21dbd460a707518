"""The case tables: sampled inputs and attributes per op version, declared once per category and
used both by the test suite and by the conformance command.

A `Case` runs an op on concrete arrays (values are checked against the oracles); a `ShapeCase`
infers an op on partial shapes and/or known values (shapes are checked against OpenVINO's shape
inference). Tables are built from a fixed seed, so case ids are stable.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from ...shapes import TensorInfo


@dataclass(frozen=True)
class Case:
    op: str                            # versioned name, e.g. "Col2Im-15"
    id: str                            # stable, unique within the op
    inputs: tuple                      # numpy arrays, one per input port
    attrs: dict = field(default_factory=dict)
    openvino: str | None = None        # why OpenVINO's CPU runtime is not asked, or disagrees (kept, marked)
    error: str | None = None           # expected OprefError message substring (an error case)
    exact: bool | None = None          # bit-exact comparison; None: exact for movement/shape ops
    # With `openvino` (why OpenVINO's CPU plugin is not asked as is):
    oracle_cast: dict = field(default_factory=dict)   # port -> lossless widening (f8 data via f32, ...)
    oracle: str = "openvino"          # or "reference" (OpenVINO's `evaluate`), "tensorflow", or "spec" (a NumPy
                                      # transcription of the spec in the tests, e.g. exact direct sums), or
                                      # "openvino_padded" (CPU rows cut/padded with -1 to the declared length)
    tolerance: str | None = None                      # compare at this element type's tolerance
    # oracle ("openvino", "onnxruntime") -> why its NaN-ness differs from the spec's answer at some
    # elements (NaN/inf edge values): there the comparison is skipped, and the test asserts that such
    # elements still exist (a fixed oracle makes the mark stale and fails); all else is compared as usual.
    nan_differs: dict = field(default_factory=dict)
    # Departures an oracle makes only on some machines (names in conformance/departures.py): the oracle's
    # answer may equal the spec's or exactly the named departure's, never anything else.
    departures: tuple = ()
    # why onnxruntime's answer for this case departs from the spec (a kernel bug or a choice ONNX leaves
    # open that no glue can pin down): the case still runs, must still differ (xfail, strict), and is counted
    onnxruntime: str | None = None

    @property
    def name(self) -> str:
        return f"{self.op}:{self.id}"


@dataclass(frozen=True)
class ShapeCase:
    op: str
    id: str
    inputs: tuple                      # TensorInfo (value optional) per input port
    attrs: dict = field(default_factory=dict)
    openvino: str | None = None        # why OpenVINO's shape inference is not followed here (spec wins)
    expected: str | tuple | None = None   # with `openvino`: the spec's output shape (one for every output, or
                                          # a tuple of one per output); None: the spec rejects

    @property
    def name(self) -> str:
        return f"{self.op}:{self.id}"


def info(element_type: str, shape, value=None) -> TensorInfo:
    return TensorInfo(element_type, shape, None if value is None else np.asarray(value))


def _modules():
    from . import (activation, infrastructure, arithmetic, attention, bitwise, comparison, condition, conversion, convolution, convolution_backprop, convolution_deformable, convolution_binary,
                   generation, image, logical, matrix, movement, normalization, pooling, quantization, reduction,
                   sequence, shape, sort, tf, signal, signal_stft, embedding, detection, state)
    return (infrastructure, movement, convolution, convolution_backprop, convolution_deformable, convolution_binary, shape, arithmetic, activation, conversion, comparison, logical, bitwise,
            condition, reduction, generation, pooling, normalization, image, matrix, attention, quantization,
            sort, sequence, signal, signal_stft, embedding, detection, state, tf)


@functools.cache
def all_cases() -> tuple[Case, ...]:
    return tuple(c for m in _modules() for c in m.cases())


@functools.cache
def all_shape_cases() -> tuple[ShapeCase, ...]:
    return tuple(c for m in _modules() for c in m.shape_cases())


def cases_for(op: str) -> list[Case]:
    return [c for c in all_cases() if c.op == op]
