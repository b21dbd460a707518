"""ConvolutionBackpropData-1 and GroupConvolutionBackpropData-1: hand-checked cases, then the case
tables against OpenVINO (values and partial shapes), onnxruntime ConvTranspose, and exact direct sums
of the spec's formula where OpenVINO's CPU plugin is not a faithful oracle."""
from __future__ import annotations

import inspect
import math
import re

import numpy as np
import pytest

import opref
from opref.conformance.cases import convolution_backprop as cases_module
from opref.onnx import Unsupported, case_model
from opref.runtime.kernels import convolution_backprop as kernels
from opref.types import element_type

from oracles import ov_run
from conv_compare import compare, openvino_error, opref_shape, ov_shape

CONV, GROUP = "ConvolutionBackpropData-1", "GroupConvolutionBackpropData-1"
CASES = cases_module.cases()
VALUE_CASES = [c for c in CASES if c.error is None]
ERROR_CASES = [c for c in CASES if c.error is not None]
SHAPE_CASES = cases_module.shape_cases()


def _attrs(n, s=1, d=1, pb=0, pe=0, mode="explicit", op=0):
    return {"strides": [s] * n, "pads_begin": [pb] * n, "pads_end": [pe] * n, "dilations": [d] * n,
            "auto_pad": mode, "output_padding": [op] * n}


# --- hand-checkable ------------------------------------------------------------------------------------
def test_ones_count_overlapping_scatters_1d():
    # 4 ones, kernel of 3 ones, stride 2: windows [0..2], [2..4], [4..6], [6..8] overlap at 2, 4, 6.
    x, w = np.ones((1, 1, 4), np.float32), np.ones((1, 1, 3), np.float32)
    (y,) = opref.run_op(CONV, [x, w], _attrs(1, s=2))
    np.testing.assert_array_equal(y, np.array([[[1, 1, 2, 1, 2, 1, 2, 1, 1]]], np.float32), strict=True)
    (y,) = opref.run_op(CONV, [x, w], _attrs(1, s=2, pb=1, pe=2))          # crop 1 at the start, 2 at the end
    np.testing.assert_array_equal(y[0, 0], [1, 2, 1, 2, 1, 2])


def test_output_padding_adds_zeros_at_the_end_unless_pads_end_uncovers_sums():
    x, w = np.ones((1, 1, 2), np.float32), np.ones((1, 1, 2), np.float32)
    (y,) = opref.run_op(CONV, [x, w], _attrs(1, s=3, op=2))
    np.testing.assert_array_equal(y[0, 0], [1, 1, 0, 1, 1, 0, 0])
    (y,) = opref.run_op(CONV, [x, w], _attrs(1, s=3, pe=2, op=2))
    np.testing.assert_array_equal(y[0, 0], [1, 1, 0, 1, 1])


def test_output_shape_splits_the_total_padding_as_the_spec_says():
    # full scatter of x = [1, 2, 3] with kernel [1, 10] (stride 1): [1, 12, 23, 30]; output_shape 1: total 3
    x, w = np.array([1, 2, 3], np.float32).reshape(1, 1, 3), np.array([1, 10], np.float32).reshape(1, 1, 2)
    got = {mode: opref.run_op(CONV, [x, w, np.array([1])], _attrs(1, mode=mode))[0][0, 0].tolist()
           for mode in ("explicit", "valid", "same_lower", "same_upper")}
    # same_upper: pads_end = 3 // 2 = 1, pads_begin 2; every other mode: pads_begin = 1
    assert got == {"explicit": [12], "valid": [12], "same_lower": [12], "same_upper": [23]}
    (y,) = opref.run_op(CONV, [x, w, np.array([6])], _attrs(1, mode="same_upper"))   # larger: zeros at the end
    np.testing.assert_array_equal(y[0, 0], [1, 12, 23, 30, 0, 0])


def test_spec_example_shapes():
    t = opref.TensorInfo
    (o,) = opref.infer_op(CONV, [t("f32", [1, 20, 224, 224]), t("f32", [20, 10, 3, 3])], _attrs(2, s=2, pb=1, pe=1))
    assert str(o.shape) == "[1,10,447,447]"
    (o,) = opref.infer_op(CONV, [t("f32", [1, 20, 2, 2]), t("f32", [20, 10, 3, 3])], _attrs(2, s=3, op=2))
    assert str(o.shape) == "[1,10,8,8]"
    (o,) = opref.infer_op(CONV, [t("f32", [1, 20, 224, 224]), t("f32", [20, 10, 3, 3]), np.array([450, 450])],
                          _attrs(2, pb=1, pe=1, mode="valid"))
    assert str(o.shape) == "[1,10,450,450]"
    (o,) = opref.infer_op(GROUP, [t("f32", [1, 20, 224]), t("f32", [4, 5, 2, 3])], _attrs(1, s=2, pb=1, pe=1))
    assert str(o.shape) == "[1,8,447]"
    (o,) = opref.infer_op(GROUP, [t("f32", [1, 20, 224, 224, 224]), t("f32", [4, 5, 2, 3, 3, 3])],
                          _attrs(3, s=2, pb=1, pe=1))
    assert str(o.shape) == "[1,8,447,447,447]"


def test_group_equals_backprop_per_group():
    rng = np.random.default_rng(3)
    x, w = rng.standard_normal((2, 6, 4, 3)), rng.standard_normal((3, 2, 2, 3, 2))
    attrs = _attrs(2, s=2, pb=1, op=1)
    (y,) = opref.run_op(GROUP, [x, w], attrs)
    parts = [opref.run_op(CONV, [x[:, 2 * g:2 * g + 2], w[g]], attrs)[0] for g in range(3)]
    np.testing.assert_allclose(y, np.concatenate(parts, axis=1), rtol=1e-12, atol=1e-12, strict=True)


def test_backprop_is_the_adjoint_of_convolution():
    # <conv(x, w), y> == <x, backprop(y, w)> for the same strides, dilations and pads.
    rng = np.random.default_rng(4)
    x, w = rng.standard_normal((1, 3, 9, 8)), rng.standard_normal((2, 3, 3, 2))
    fwd = {"strides": [2, 3], "pads_begin": [1, 0], "pads_end": [2, 1], "dilations": [2, 1]}
    (y,) = opref.run_op("Convolution-1", [x, w], fwd)
    dy = rng.standard_normal(y.shape)
    # the forward pads cropped again, output_padding restoring the rows the forward windows skipped
    full = [(o - 1) * s + (k - 1) * d + 1 for o, s, k, d in zip(y.shape[2:], fwd["strides"], w.shape[2:],
                                                                  fwd["dilations"])]
    op = [xl + pb + pe - f for xl, pb, pe, f in zip(x.shape[2:], fwd["pads_begin"], fwd["pads_end"], full)]
    (dx,) = opref.run_op(CONV, [dy, w], {**fwd, "output_padding": op})
    assert dx.shape == x.shape
    np.testing.assert_allclose(np.vdot(y, dy), np.vdot(x, dx), rtol=1e-12)


def test_integers_wrap_to_their_type():
    x, w = np.full((1, 2, 1), 100, np.int8), np.full((2, 1, 1), 2, np.int8)
    (y,) = opref.run_op(CONV, [x, w], _attrs(1))
    assert y.dtype == np.int8 and int(y[0, 0, 0]) == (400 + 128) % 256 - 128


def test_infer_dynamic_output_shape_input():
    t = opref.TensorInfo
    (o,) = opref.infer_op(CONV, [t("f32", [1, 3, 5, 5]), t("f32", [3, 2, 3, 3]), t("i64", [2])], _attrs(2))
    assert str(o.shape) == "[1,2,?,?]"
    (o,) = opref.infer_op(CONV, [t("f32", None), t("f32", None), np.array([7, 8, 9])],
                          {"strides": [], "pads_begin": [], "pads_end": [], "dilations": []})
    assert str(o.shape) == "[?,?,7,8,9]"
    (o,) = opref.infer_op(CONV, [t("f32", [1, 3, (1, 5)]), t("f32", [3, 2, 3])], _attrs(1, s=2, pb=3, pe=3))
    assert str(o.shape) == "[1,2,..5]"


@pytest.mark.parametrize("op,inputs,attrs,match", [
    (CONV, ([1, 3, 4], [2, 2, 3]), _attrs(1), r"^ConvolutionBackpropData-1: data channels .* got 3 and 2"),
    (CONV, ([1, 2, 4], [2, 2, 3]), _attrs(1, s=0), r"'strides' values must be > 0"),
    (CONV, ([1, 2, 4], [2, 2, 3]), _attrs(1, op=-1), r"'output_padding' values must be >= 0"),
    (CONV, ([1, 2, 4], [2, 2, 3]), _attrs(1, pb=-1), r"'pads_begin', 'pads_end' values must be >= 0"),
    (CONV, ([1, 2, 4, 4], [2, 2, 3, 3]), {**_attrs(2), "output_padding": [0]}, r"'output_padding' must have 2"),
    (CONV, ([1, 2, 1], [2, 2, 1]), _attrs(1, pb=1, pe=1), r"spatial axis 0: the output length would be negative"),
    (CONV, ([1, 2, 4], [2, 2, 3, 3]), _attrs(1), r"data and filters must have the same rank"),
    (GROUP, ([1, 5, 4], [2, 2, 2, 3]), _attrs(1), r"^GroupConvolutionBackpropData-1: data channels \(5"),
    (GROUP, ([1, 4, 4], [2, 2, 3]), _attrs(1), r"filters must have rank data rank \+ 1"),
])
def test_errors(op, inputs, attrs, match):
    x, w = (np.zeros(s, np.float32) for s in inputs)
    with pytest.raises(opref.OprefError, match=match):
        opref.run_op(op, [x, w], attrs)
    with pytest.raises(opref.OprefError, match=match):
        opref.infer_op(op, [opref.TensorInfo("f32", s) for s in inputs], attrs)


def test_output_shape_errors():
    x, w = np.zeros((1, 2, 4, 4), np.float32), np.zeros((2, 2, 3, 3), np.float32)
    with pytest.raises(opref.OprefError, match=r"input 'output_shape' must have 2 elements .*got \[6\]"):
        opref.run_op(CONV, [x, w, np.array([6])], _attrs(2))
    with pytest.raises(opref.OprefError, match=r"input 'output_shape' must be 1-D"):
        opref.run_op(CONV, [x, w, np.array([[6, 6]])], _attrs(2))
    with pytest.raises(opref.OprefError, match=r"'output_shape' has element type f32"):
        opref.run_op(CONV, [x, w, np.array([6, 6], np.float32)], _attrs(2))


def test_kernel_signatures_match_schemas():
    for name, fn in kernels.KERNELS.items():
        s = opref.get_schema(name)
        params = inspect.signature(fn).parameters
        assert [p for p, v in params.items() if v.kind == v.POSITIONAL_OR_KEYWORD] == [p.name for p in s.inputs]
        assert [p for p, v in params.items() if v.kind == v.KEYWORD_ONLY] == [a.name for a in s.attributes]


def test_case_tables_are_deterministic_and_large_enough():
    again = cases_module.cases()
    assert [c.name for c in again] == [c.name for c in CASES]
    assert len({c.name for c in CASES}) == len(CASES)
    assert len({c.name for c in SHAPE_CASES}) == len(SHAPE_CASES)
    for op in (CONV, GROUP):
        assert sum(c.op == op for c in VALUE_CASES) >= 120
        assert sum(c.op == op for c in SHAPE_CASES) >= 150
        assert sum(c.op == op and len(c.inputs) == 3 for c in VALUE_CASES) >= 40
        assert sum(c.op == op and c.openvino is None for c in VALUE_CASES) >= 60
    types = {c.inputs[0].dtype for c in VALUE_CASES}
    for t in opref.get_schema(CONV).type_constraints["T"]:
        assert element_type(t).dtype in types, t


# --- an independent transcription of the spec: direct sums ---------------------------------------------
def _spec_pads(x_sizes, kernel, a, output_shape):
    n = len(x_sizes)
    s, d = a["strides"] or [1] * n, a["dilations"] or [1] * n
    op = a["output_padding"] or [0] * n
    full = [s[i] * (max(x_sizes[i], 1) - 1) + max(kernel[i] - 1, 0) * d[i] + 1 for i in range(n)]
    if output_shape is None:
        if a["auto_pad"] == "explicit":
            pb, pe = a["pads_begin"] or [0] * n, a["pads_end"] or [0] * n
        else:
            pb = pe = [0] * n
        return pb, [full[i] + op[i] - pb[i] - pe[i] for i in range(n)]
    pb = []
    for i in range(n):
        total = max(full[i] + op[i] - int(output_shape[i]), 0)
        pb.append(total - total // 2 if a["auto_pad"] == "same_upper" else total // 2)
    return pb, [int(v) for v in output_shape]


def _direct(case) -> np.ndarray:
    """Exact sums (Python ints for integers, f64 for floats) scattered one data position and kernel
    tap at a time, wrapped or rounded to the type once."""
    x, w = case.inputs[:2]
    a = opref.get_schema(case.op).bind_attrs(case.attrs)
    if case.op == CONV:
        w = w[None]
    g, c, m = w.shape[:3]
    n = x.ndim - 2
    k = w.shape[3:]
    s, d = a["strides"] or [1] * n, a["dilations"] or [1] * n
    pb, ys = _spec_pads(x.shape[2:], k, a, case.inputs[2] if len(case.inputs) == 3 else None)
    t = element_type(x.dtype)
    exact = np.float64 if t.is_float else object
    xg = (x.astype(np.float64) if t.is_float else x.astype(np.int64).astype(object)).reshape(
        (x.shape[0], g, c) + x.shape[2:])
    wv = w.astype(np.float64) if t.is_float else w.astype(np.int64).astype(object)
    out = np.zeros((x.shape[0], g, m) + tuple(ys), dtype=exact)
    for pos in np.ndindex(*x.shape[2:]):
        for tap in np.ndindex(*k):
            o = tuple(pos[i] * s[i] + tap[i] * d[i] - pb[i] for i in range(n))
            if all(0 <= o[i] < ys[i] for i in range(n)):
                xv = xg[(slice(None),) * 3 + pos]                              # [N, G, C]
                out[(slice(None),) * 3 + o] += (xv[:, :, :, None] * wv[(slice(None),) * 3 + tap][None]).sum(axis=2)
    out = out.reshape((x.shape[0], g * m) + tuple(ys))
    if t.is_float:
        return out.astype(x.dtype)
    bits = t.bits
    wrapped = np.vectorize(lambda v: (v + (1 << (bits - 1))) % (1 << bits) - (1 << (bits - 1)) if t.is_signed
                           else v % (1 << bits), otypes=[object])(out)
    return wrapped.astype(np.int64).astype(x.dtype) if t.bits < 64 else wrapped.astype(x.dtype)


def _reduction(case) -> int:
    w = case.inputs[1]
    lead = 3 if case.op == GROUP else 2
    return w.shape[lead - 2] * math.prod(w.shape[lead:])


def _compare(case, got, want, what):
    compare(case, got, want, what, _reduction(case))


def _check_direct(case, got):
    want = _direct(case)
    t = element_type(got.dtype)
    if t.is_float and t.name != "f64":          # the direct sums round once from f64, the kernel from f32
        _compare(case, got, want, "direct sums")
    elif t.is_float:
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-10, strict=True)
    else:
        np.testing.assert_array_equal(got, want, strict=True)


# --- against OpenVINO: values ---------------------------------------------------------------------------
@pytest.mark.parametrize("case", VALUE_CASES, ids=lambda c: c.name)
def test_values_against_openvino(case):
    (got,) = opref.run_op(case.op, case.inputs, case.attrs)
    reason = case.openvino or ""
    if reason == cases_module.GROUP_OF_ONE:
        # one group: the equal ConvolutionBackpropData (filters [1, C_IN, C_OUT, k...] -> [C_IN, C_OUT, k...])
        (want,) = ov_run(CONV, (case.inputs[0], case.inputs[1][0]) + tuple(case.inputs[2:]), case.attrs)
        _compare(case, got, want, "OpenVINO (as ConvolutionBackpropData)")
    elif case.oracle_cast:
        # f8: OpenVINO computes the widened values in f32; its result rounded to f8 once
        widened = [x.astype(np.float32) if i in case.oracle_cast else x for i, x in enumerate(case.inputs)]
        (want,) = ov_run(case.op, widened, case.attrs)
        _compare(case, got, want.astype(got.dtype), "OpenVINO (f8 via f32)")
    elif reason:
        _check_direct(case, got)
    else:
        (want,) = ov_run(case.op, case.inputs, case.attrs)
        _compare(case, got, want, "OpenVINO")


def test_output_shape_pad_marks_disagree_with_openvino():
    """OpenVINO's CPU plugin crops by pads_begin (explicit) or 0 (valid) where the spec splits the total
    padding: every such mark is a real disagreement (the CPU plugin's crop is checked too)."""
    marked = [c for c in VALUE_CASES if c.openvino == cases_module.OUTPUT_SHAPE_PADS]
    assert len(marked) >= 10
    for case in marked[::2]:
        (got,) = opref.run_op(case.op, case.inputs, case.attrs)
        (want,) = ov_run(case.op, case.inputs, case.attrs)
        assert got.shape == want.shape and not np.allclose(got, want), case.name
        # the CPU plugin's own rule: the spec's kernel with the crop moved to pads_begin (explicit) or 0
        n = got.ndim - 2
        pb = list(case.attrs["pads_begin"]) if case.attrs["auto_pad"] == "explicit" else [0] * n
        full = [(xl - 1) * s + (k - 1) * d + 1 for xl, s, k, d in
                zip(case.inputs[0].shape[2:], case.attrs["strides"], case.inputs[1].shape[-n:],
                    case.attrs["dilations"])]
        cpu_attrs = {**case.attrs, "auto_pad": "explicit", "pads_begin": pb,
                     "pads_end": [max(f - b - o, 0) for f, b, o in zip(full, pb, case.inputs[2])],
                     "output_padding": [max(o + b - f, 0) for f, b, o in zip(full, pb, case.inputs[2])]}
        (cpu,) = opref.run_op(case.op, case.inputs[:2], cpu_attrs)
        _compare(case, cpu, want, "OpenVINO (crop by pads_begin)")


DIRECT_CASES = [c for c in VALUE_CASES if not re.match(r"s\d{3}_", c.id) or int(c.id[1:4]) % 3 == 0]


@pytest.mark.parametrize("case", DIRECT_CASES, ids=lambda c: c.name)
def test_values_against_direct_sums(case):
    (got,) = opref.run_op(case.op, case.inputs, case.attrs)
    _check_direct(case, got)


@pytest.mark.parametrize("case", ERROR_CASES, ids=lambda c: c.name)
def test_error_cases_rejected_by_both(case):
    with pytest.raises(opref.OprefError, match=re.escape(case.error)):
        opref.run_op(case.op, case.inputs, case.attrs)
    assert "Exception from src/" in openvino_error(case), f"{case.name}: not OpenVINO's own error"


# --- against OpenVINO: shapes ---------------------------------------------------------------------------
@pytest.mark.parametrize("case", SHAPE_CASES, ids=lambda c: c.name)
def test_shapes_against_openvino(case):
    mine, theirs = opref_shape(case), ov_shape(case)
    if case.openvino is not None:
        # the spec wins: opref gives the spec's answer where OpenVINO departs from it
        if case.expected is None:
            assert isinstance(mine, opref.OprefError), f"{case.name}: the spec rejects this ({case.openvino})"
        else:
            assert mine == case.expected, f"{case.name}: spec gives {case.expected}, opref {mine}"
        assert not isinstance(theirs, Exception) and theirs != mine, \
            f"{case.name}: marked ({case.openvino}) but OpenVINO agrees ({theirs})"
        return
    if isinstance(theirs, Exception) or isinstance(mine, Exception):
        assert isinstance(theirs, Exception) and isinstance(mine, Exception), \
            f"{case.name}: OpenVINO gave {theirs!s:.300}, opref gave {mine!s:.300}"
        assert str(mine).startswith(case.op + ": ") or "element type" in str(mine)
        return
    assert mine == theirs, f"{case.name}: OpenVINO {theirs}, opref {mine}"


def test_shape_cases_cover_errors_and_dynamic_ranks():
    for op in (CONV, GROUP):
        cases = [c for c in SHAPE_CASES if c.op == op]
        errors = sum(isinstance(opref_shape(c), Exception) for c in cases)
        assert 15 <= errors <= len(cases) // 2
        assert sum(not c.inputs[0].shape.rank_is_static for c in cases) >= 10
        assert sum(len(c.inputs) == 3 and c.inputs[2].value is None for c in cases) >= 10
        assert sum(len(c.inputs) == 3 and c.inputs[2].value is not None for c in cases) >= 20


# --- against onnxruntime --------------------------------------------------------------------------------
# every value case whose lowering (opref.onnx) has an ONNX form
ONNX_CASES = [c for c in VALUE_CASES if not isinstance(case_model(c.op, c.inputs, c.attrs), Unsupported)]


def test_onnx_cases_cover_both_ops():
    for op in (CONV, GROUP):
        assert sum(c.op == op for c in ONNX_CASES) >= 85
        assert sum(c.op == op and len(c.inputs) == 3 for c in ONNX_CASES) >= 15
        assert any(c.op == op and c.inputs[0].dtype.name == "bfloat16" for c in ONNX_CASES)


@pytest.mark.parametrize("case", ONNX_CASES, ids=lambda c: c.name)
def test_values_against_onnxruntime(case):
    (want,) = case_model(case.op, case.inputs, case.attrs).run()
    (got,) = opref.run_op(case.op, case.inputs, case.attrs)
    _compare(case, got, want, "onnxruntime")
