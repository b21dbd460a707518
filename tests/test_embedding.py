"""The embedding ops by hand: the specs' examples, empty bags, default rows, integer means; and every
value case of the bag ops against the NumPy transcription of the specs (tests/spec_embedding.py)."""
from __future__ import annotations

import numpy as np
import pytest

import opref
from opref.conformance.cases import embedding as embedding_cases
from spec_embedding import SPEC

EMB = np.array([[-0.2, -0.6], [-0.1, -0.4], [-1.9, -1.8], [-1., 1.5], [0.8, -0.7]], np.float32)
I32 = np.int32


def _check(op, inputs, attrs, expected):
    out = opref.run_op(op, inputs, attrs)[0]
    np.testing.assert_allclose(out, np.array(expected, np.float32), rtol=1e-6, atol=1e-6, strict=True)


@pytest.mark.parametrize("op,attrs", [("EmbeddingBagOffsetsSum-3", {}), ("EmbeddingBagOffsets-15", {"reduction": "sum"})])
def test_offsets_spec_examples(op, attrs):
    x, o = I32([0, 2, 3, 4]), I32([0, 2, 2])
    _check(op, [EMB, x, o, I32(0), np.full(4, 0.5, np.float32)], attrs, [[-1.05, -1.2], [-0.2, -0.6], [-0.1, 0.4]])
    _check(op, [EMB, x, o, I32(-1), np.float32([0.5, 0.2, -2, 1])], attrs, [[-0.48, -0.66], [0, 0], [2.8, -3.7]])


def test_offsets_mean_and_leading_indices():
    x = I32([0, 2, 3, 4])
    _check("EmbeddingBagOffsets-15", [EMB, x, I32([0, 2, 2])], {"reduction": "mean"},
           [[-1.05, -1.2], [0, 0], [-0.1, 0.4]])
    # indices before offsets[0] are in no bag; an empty last bag takes the default row
    _check("EmbeddingBagOffsets-15", [EMB, x, I32([1, 3, 4]), I32(1)], {"reduction": "sum"},
           [[-2.9, -0.3], [0.8, -0.7], [-0.1, -0.4]])


def test_packed_spec_examples():
    x = I32([[0, 2], [1, 2], [3, 4]])
    _check("EmbeddingBagPackedSum-3", [EMB, x], {}, [[-2.1, -2.4], [-2., -2.2], [-0.2, 0.8]])
    _check("EmbeddingBagPacked-15", [EMB, x, np.full((3, 2), 0.5, np.float32)], {"reduction": "sum"},
           [[-1.05, -1.2], [-1., -1.1], [-0.1, 0.4]])
    _check("EmbeddingBagPacked-15", [EMB, x], {"reduction": "mean"}, [[-1.05, -1.2], [-1., -1.1], [-0.1, 0.4]])
    _check("EmbeddingBagPackedSum-3", [EMB, np.zeros((2, 0), I32)], {}, [[0, 0], [0, 0]])


def test_segments_spec_example():
    _check("EmbeddingSegmentsSum-3", [EMB, I32([0, 2, 3, 4]), I32([0, 0, 2, 2]), I32(3), I32(0),
                                      np.full(4, 0.5, np.float32)], {}, [[-1.05, -1.2], [-0.2, -0.6], [-0.1, 0.4]])
    _check("EmbeddingSegmentsSum-3", [EMB, I32([0, 2, 3, 4]), I32([0, 0, 2, 2]), I32(4)], {},
           [[-2.1, -2.4], [0, 0], [-0.2, 0.8], [0, 0]])


def test_sparse_fill_empty_rows_spec_example():
    values = np.float32([1, 2, 3, 4])                                   # a, b, c, d
    idx, ind, empty = opref.run_op("SparseFillEmptyRows-16", [values, I32([5, 6]), I32([[0, 1], [0, 3], [2, 0], [3, 1]]),
                                                            np.float32(9)])
    np.testing.assert_array_equal(idx, I32([[0, 1], [0, 3], [1, 0], [2, 0], [3, 1], [4, 0]]), strict=True)
    np.testing.assert_array_equal(ind, np.float32([1, 2, 9, 3, 4, 9]), strict=True)
    np.testing.assert_array_equal(empty, np.array([False, True, False, False, True]), strict=True)
    # unordered entries come out in row-major order (equal positions keep their order)
    idx, ind, _ = opref.run_op("SparseFillEmptyRows-16", [np.float32([1, 2, 3]), I32([3, 4]),
                                                          I32([[2, 3], [0, 1], [2, 0]]), np.float32(9)])
    np.testing.assert_array_equal(idx, I32([[0, 1], [1, 0], [2, 0], [2, 3]]), strict=True)
    np.testing.assert_array_equal(ind, np.float32([2, 9, 3, 1]), strict=True)


def test_integer_mean_rounds_towards_zero():
    table = np.array([[0], [1], [-1], [5], [-5]], np.int8)
    x = I32([[0, 0, 1], [0, 0, 2], [3, 3, 1], [4, 4, 2]])           # sums 1, -1, 11, -11
    out = opref.run_op("EmbeddingBagPacked-15", [table, x], {"reduction": "mean"})[0]
    np.testing.assert_array_equal(out, np.array([[0], [0], [3], [-3]], np.int8), strict=True)


def test_shapes():
    P = opref.TensorInfo
    shape = lambda op, *a, **k: str(opref.infer_op(op, a, k)[0].shape)   # noqa: E731
    assert shape("EmbeddingBagOffsets-15", P("f32", [(2, 6), -1, 3]), P("i32", [(1, 4)]), P("i32", [(2, 5)]),
                 reduction="sum") == "[2..5,?,3]"
    assert shape("EmbeddingBagPacked-15", P("f32", [5, 2]), P("i32", [-1, (1, 3)]), P("f32", [(2, 4), -1]),
                 reduction="sum") == "[2..4,2]"
    assert shape("EmbeddingSegmentsSum-3", P("f32", [5, 2]), P("i32", [4]), P("i32", [4]), I32(7)) == "[7,2]"
    assert shape("EmbeddingSegmentsSum-3", P("f32", [5, 2]), P("i32", [4]), P("i32", [4]), P("i32", [])) == "[?,2]"


@pytest.mark.parametrize("op", sorted(SPEC))
def test_every_bag_case_against_the_spec_transcription(op):
    cases = [c for c in embedding_cases.cases() if c.op == op and c.error is None]
    assert len(cases) >= 100
    for c in cases:
        attrs = {"reduction": c.attrs.get("reduction", "sum")} if op.endswith("-15") else {}
        for ours, theirs in zip(opref.run_op(op, c.inputs, c.attrs), SPEC[op](*c.inputs, **attrs), strict=True):
            if op.startswith("Embedding") and ours.dtype.kind == "f" or ours.dtype.name == "bfloat16":
                tol = {"float64": 1e-12, "float32": 1e-5, "float16": 2e-3, "bfloat16": 2e-2}[ours.dtype.name]
                np.testing.assert_allclose(ours.astype(np.float64), theirs.astype(np.float64), rtol=tol, atol=tol,
                                           err_msg=c.name)
            else:
                np.testing.assert_array_equal(ours, theirs, err_msg=c.name, strict=True)
