"""DeformableConvolution-1 and -8: hand-checked cases, then the case tables against OpenVINO (CPU
values, its reference implementation where the CPU plugin has no kernel for the type, shapes) and
onnxruntime DeformConv."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest

import opref
from opref.conformance.cases import convolution_deformable as cases_module
from opref.onnx import Unsupported, case_model
from opref.types import element_type

from oracles import ov_run
from conv_compare import openvino_error, opref_shape, ov_shape

V1, V8 = "DeformableConvolution-1", "DeformableConvolution-8"
CASES = cases_module.cases()
VALUE_CASES = [c for c in CASES if c.error is None]
ERROR_CASES = [c for c in CASES if c.error is not None]
SHAPE_CASES = cases_module.shape_cases()


def _attrs(s=1, pb=0, pe=0, g=1, dg=1, pad=None):
    a = {"strides": [s, s], "pads_begin": [pb, pb], "pads_end": [pe, pe], "dilations": [1, 1], "group": g,
         "deformable_group": dg}
    return a if pad is None else {**a, "bilinear_interpolation_pad": pad}


# --- hand-checkable ------------------------------------------------------------------------------------
def test_zero_offsets_equal_convolution():
    rng = np.random.default_rng(5)
    x, w = rng.standard_normal((2, 4, 6, 5)), rng.standard_normal((6, 2, 3, 2))
    conv = {"strides": [2, 1], "pads_begin": [1, 0], "pads_end": [1, 1], "dilations": [1, 2]}
    (want,) = opref.run_op("GroupConvolution-1", [x, w.reshape(2, 3, 2, 3, 2)], conv)
    off = np.zeros((2, 2 * 3 * 2 * 2) + want.shape[2:])
    (got,) = opref.run_op(V1, [x, off, w], {**conv, "group": 2, "deformable_group": 2})
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_one_tap_samples_bilinearly():
    x = np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3)          # x[y, x] = 3y + x
    w = np.ones((1, 1, 1, 1), np.float32)

    def at(dy, dx, pad):
        off = np.broadcast_to(np.array([dy, dx], np.float32).reshape(1, 2, 1, 1), (1, 2, 3, 3))
        return opref.run_op(V8, [x, off, w], _attrs(pad=pad))[0][0, 0]

    # x = 2.25 < W: sampled, its right neighbour clamped to column 2: (0.5 * 2 + 0.5 * 5)
    np.testing.assert_allclose(at(0.5, 0.25, False)[0], [1.75, 2.75, 3.5])
    # y = 2.5 < H: sampled from row 2 alone (6 * 0.75 + 7 * 0.25)
    np.testing.assert_allclose(at(0.5, 0.25, False)[:, 0], [1.75, 4.75, 6.25])
    # with the zero pad, column 3 reads 0: 3.5 * 0.75
    np.testing.assert_allclose(at(0.5, 0.25, True)[0], [1.75, 2.75, 2.625])
    np.testing.assert_allclose(at(-0.5, 0, True)[0], [0.0, 0.5, 1.0])        # y = -0.5: half of row 0
    np.testing.assert_allclose(at(-0.5, 0, False)[0], [0, 0, 0])             # y < 0: no sample
    np.testing.assert_allclose(at(-1.0, 0, True)[:2], [[0, 0, 0], [0, 1, 2]])  # y = -1: outside (-1, H)


def test_mask_scales_each_tap():
    rng = np.random.default_rng(6)
    x, w = rng.standard_normal((1, 2, 4, 4)), rng.standard_normal((3, 2, 2, 2))
    off = rng.standard_normal((1, 8, 3, 3))
    (plain,) = opref.run_op(V8, [x, off, w], _attrs(pad=False))
    (half,) = opref.run_op(V8, [x, off, w, np.full((1, 4, 3, 3), 0.5)], _attrs(pad=False))
    np.testing.assert_allclose(half, plain / 2, rtol=1e-12)
    (v1,) = opref.run_op(V1, [x, off, w], _attrs())
    np.testing.assert_allclose(v1, plain, rtol=1e-12)


def test_errors_name_the_op():
    x, w = np.zeros((1, 3, 4, 4), np.float32), np.zeros((2, 1, 2, 2), np.float32)
    with pytest.raises(opref.OprefError, match=r"^DeformableConvolution-8: data channels \(3\) must be divisible"):
        opref.run_op(V8, [x, np.zeros((1, 8, 3, 3), np.float32), w], _attrs(g=2, pad=False))
    with pytest.raises(opref.OprefError, match=r"offsets channels \(6\) must equal deformable_group"):
        opref.run_op(V1, [x[:, :2], np.zeros((1, 6, 3, 3), np.float32), np.zeros((2, 2, 2, 2), np.float32)],
                     _attrs())
    with pytest.raises(opref.OprefError, match=r"spatial dims of offsets"):
        opref.run_op(V1, [x[:, :1], np.zeros((1, 8, 2, 3), np.float32), w], _attrs())


def test_case_tables_are_large_enough():
    assert len({c.name for c in CASES}) == len(CASES)
    for op in (V1, V8):
        assert sum(c.op == op for c in CASES) >= 90
        assert sum(c.op == op for c in SHAPE_CASES) >= 100
        assert sum(c.op == op and c.openvino is None for c in VALUE_CASES) >= 50
    assert sum(c.op == V8 and len(c.inputs) == 4 for c in VALUE_CASES) >= 40


# --- against OpenVINO -----------------------------------------------------------------------------------
TOLERANCE = {"f64": (1e-9, 1e-9), "f32": (1e-5, 1e-5), "f16": (2e-3, 2e-3), "bf16": (1.6e-2, 1.6e-2),
             "f8e4m3": (0.125, 0.125), "f8e5m2": (0.25, 0.25)}


def _compare(case, got, want, what):
    assert got.dtype == want.dtype and got.shape == want.shape, \
        f"{case.name}: {what} gave {want.dtype}{list(want.shape)}, opref {got.dtype}{list(got.shape)}"
    et = element_type(got.dtype)
    if not et.is_float:
        np.testing.assert_array_equal(got, want, strict=True, err_msg=f"{case.name} vs {what}")
        return
    rtol, atol = TOLERANCE[et.name]
    k = case.inputs[2].shape[1] * math.prod(case.inputs[2].shape[2:])
    scale = max(1.0, float(np.abs(case.inputs[0].astype(np.float64)).max(initial=0)))
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol,
                               atol=atol * scale * max(1.0, math.sqrt(k)), err_msg=f"{case.name} vs {what}")


def _direct(case) -> np.ndarray:
    """The spec transcribed one output position and tap at a time (exact: Python ints for integer types,
    f64 for floats), rounded or wrapped to the type once."""
    x, off, w = case.inputs[:3]
    a = opref.get_schema(case.op).bind_attrs(case.attrs)
    mask = case.inputs[3] if len(case.inputs) == 4 else None
    pad = a.get("bilinear_interpolation_pad", False)
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    oh, ow = off.shape[2:]
    g, dg = a["group"], a["deformable_group"]
    s, d = a["strides"] or [1, 1], a["dilations"] or [1, 1]
    pads = []
    for i, (size, k) in enumerate(zip((h, wd), (kh, kw))):
        if a["auto_pad"] in ("same_upper", "same_lower"):
            total = max((-(-size // s[i]) - 1) * s[i] + (k - 1) * d[i] + 1 - size, 0)
            pads.append(total // 2 if a["auto_pad"] == "same_upper" else total - total // 2)
        else:
            pads.append(0 if a["auto_pad"] == "valid" else (a["pads_begin"] or [0, 0])[i])
    t = element_type(x.dtype)
    exact = (lambda v: v.astype(np.float64)) if t.is_float else (lambda v: v.astype(np.int64).astype(object))
    xv, wv, fv = exact(x), exact(w), off.astype(np.float64)
    mv = None if mask is None else exact(mask)
    out = np.zeros((n, o, oh, ow), np.float64 if t.is_float else object)

    def pixel(b, ch, yy, xx):
        return xv[b, ch, yy, xx] if 0 <= yy < h and 0 <= xx < wd else 0

    for b, oc, py, px in np.ndindex(n, o, oh, ow):
        grp = oc // (o // g)
        for ci, ky, kx in np.ndindex(cg, kh, kw):
            ch = grp * cg + ci
            dgi, tap = ch // (c // dg), ky * kw + kx
            y = py * s[0] - pads[0] + ky * d[0] + fv[b, (dgi * kh * kw + tap) * 2, py, px]
            xx = px * s[1] - pads[1] + kx * d[1] + fv[b, (dgi * kh * kw + tap) * 2 + 1, py, px]
            if pad:
                if not (-1 < y < h and -1 < xx < wd):
                    continue
                y0, x0 = math.floor(y), math.floor(xx)
                y1, x1 = y0 + 1, x0 + 1
            else:
                if not (0 <= y < h and 0 <= xx < wd):
                    continue
                y0, x0 = math.floor(y), math.floor(xx)
                y1, x1 = min(math.ceil(y), h - 1), min(math.ceil(xx), wd - 1)
            fy, fx = y - y0, xx - x0
            if t.is_float:
                v = ((1 - fy) * (1 - fx) * pixel(b, ch, y0, x0) + (1 - fy) * fx * pixel(b, ch, y0, x1)
                     + fy * (1 - fx) * pixel(b, ch, y1, x0) + fy * fx * pixel(b, ch, y1, x1))
            else:                         # integer offsets: the sample is the pixel itself
                assert fy == 0 and fx == 0
                v = pixel(b, ch, y0, x0)
            m = 1 if mv is None else mv[b, dgi * kh * kw + tap, py, px]
            out[b, oc, py, px] += v * wv[oc, ci, ky, kx] * m
    if t.is_float:
        return out.astype(x.dtype)
    bits = t.bits
    wrap = np.vectorize(lambda v: (v + (1 << (bits - 1))) % (1 << bits) - (1 << (bits - 1)) if t.is_signed
                        else v % (1 << bits), otypes=[object])
    return wrap(out).astype(x.dtype)


@pytest.mark.parametrize("case", VALUE_CASES, ids=lambda c: c.name)
def test_values_against_openvino(case):
    (got,) = opref.run_op(case.op, case.inputs, case.attrs)
    if case.oracle_cast:
        widened = [x.astype(np.float32) for x in case.inputs]
        (want,) = ov_run(case.op, widened, case.attrs)
        want = want.astype(got.dtype)
    elif case.openvino:
        want = _direct(case)
    else:
        (want,) = ov_run(case.op, case.inputs, case.attrs)
    _compare(case, got, want, "OpenVINO")


@pytest.mark.parametrize("case", ERROR_CASES, ids=lambda c: c.name)
def test_error_cases_rejected_by_both(case):
    with pytest.raises(opref.OprefError, match=re.escape(case.error)):
        opref.run_op(case.op, case.inputs, case.attrs)
    assert "Exception from src/" in openvino_error(case), f"{case.name}: not OpenVINO's own error"


@pytest.mark.parametrize("case", SHAPE_CASES, ids=lambda c: c.name)
def test_shapes_against_openvino(case):
    mine = opref_shape(case)
    theirs = ov_shape(case)
    if isinstance(theirs, Exception) or isinstance(mine, Exception):
        assert isinstance(theirs, Exception) and isinstance(mine, Exception), \
            f"{case.name}: OpenVINO gave {theirs!s:.300}, opref gave {mine!s:.300}"
        assert str(mine).startswith(case.op + ": ")
        return
    assert mine == theirs, f"{case.name}: OpenVINO {theirs}, opref {mine}"


def test_shape_cases_cover_errors():
    for op in (V1, V8):
        cases = [c for c in SHAPE_CASES if c.op == op]
        errors = sum(isinstance(opref_shape(c), Exception) for c in cases)
        assert 5 <= errors <= len(cases) // 2


# --- against onnxruntime --------------------------------------------------------------------------------
# every value case whose lowering (opref.onnx) has an ONNX form
ONNX_CASES = [c for c in VALUE_CASES if not isinstance(case_model(c.op, c.inputs, c.attrs), Unsupported)]


def test_onnx_cases():
    assert sum(len(c.inputs) == 4 for c in ONNX_CASES) >= 10
    assert len(ONNX_CASES) >= 35
    assert {c.inputs[0].dtype.name for c in ONNX_CASES} >= {"float32", "float16", "float8_e4m3fn"}


@pytest.mark.parametrize("case", ONNX_CASES, ids=lambda c: c.name)
def test_values_against_onnxruntime(case):
    (want,) = case_model(case.op, case.inputs, case.attrs).run()
    (got,) = opref.run_op(case.op, case.inputs, case.attrs)
    _compare(case, got, want, "onnxruntime")
