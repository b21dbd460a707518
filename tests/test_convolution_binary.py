"""BinaryConvolution-1: hand-checked cases, then the case table against a NumPy transcription of the spec
(values: OpenVINO 2026.4.1's CPU plugin ignores the filters and there is no reference evaluate), OpenVINO's
shape inference (partial shapes) and OpenVINO's own rejections (errors)."""
from __future__ import annotations

import re

import numpy as np
import pytest

import opref
from opref.conformance.cases import convolution_binary as cases_module

from oracles import CPU_CONFIG, spec_run
from conv_compare import openvino_error, opref_shape, ov_shape

BC = "BinaryConvolution-1"
CASES = cases_module.cases()
VALUE_CASES = [c for c in CASES if c.error is None]
ERROR_CASES = [c for c in CASES if c.error is not None]
SHAPE_CASES = cases_module.shape_cases()


def _attrs(s=1, d=1, pb=0, pe=0, pad_value=1.0, mode="explicit"):
    return {"strides": [s, s], "pads_begin": [pb, pb], "pads_end": [pe, pe], "dilations": [d, d],
            "mode": "xnor-popcount", "pad_value": pad_value, "auto_pad": mode}


def _bits(a):
    return opref.typed(np.asarray(a, np.uint8), "u1")


# --- hand-checkable ------------------------------------------------------------------------------------
def test_agreeing_bits_count_plus_one_differing_minus_one():
    x = np.array([[1, 0], [0, 1]], np.float32)[None, None]
    for w, expected in (([[1, 0], [0, 1]], 4), ([[0, 1], [1, 0]], -4), ([[1, 1], [1, 1]], 0), ([[1, 0], [1, 1]], 2)):
        (y,) = opref.run_op(BC, [x, _bits([[w]])], _attrs())
        assert y.shape == (1, 1, 1, 1) and y.item() == expected, (w, y)


def test_output_is_two_popcount_minus_taps():
    """2 * P - B with B = C_IN * KY * KX bits per output, summed over input channels."""
    rng = np.random.default_rng(0)
    x, w = rng.integers(0, 2, (2, 3, 6, 5)).astype(np.float32), rng.integers(0, 2, (4, 3, 2, 3))
    (y,) = opref.run_op(BC, [x, _bits(w)], _attrs())
    for n, o, i, j in ((0, 0, 0, 0), (1, 3, 4, 2), (0, 2, 3, 1)):
        p = int((x[n, :, i:i + 2, j:j + 3] == w[o]).sum())
        assert y[n, o, i, j] == 2 * p - w[o].size


def test_pad_value_fills_the_padding():
    """Padding taps hold pad_value against the filter's -1/+1: 1 acts as a 1 bit, -1 as a 0 bit, 0 adds nothing."""
    x, w = np.ones((1, 1, 1, 1), np.float32), _bits(np.ones((1, 1, 3, 3)))
    for pad_value, expected in ((1.0, 9), (-1.0, -7), (0.0, 1)):
        (y,) = opref.run_op(BC, [x, w], _attrs(pb=1, pe=1, pad_value=pad_value))
        assert y.item() == expected, pad_value


def test_same_lower_pads_before():
    x = np.array([[1, 0, 0]], np.float32)[None, None]                     # [1, 1, 1, 3]
    w = _bits([[[[1, 1]]]])                                                # [1, 1, 1, 2]
    (lo,) = opref.run_op(BC, [x, w], _attrs(pad_value=0.0, mode="same_lower"))
    (up,) = opref.run_op(BC, [x, w], _attrs(pad_value=0.0, mode="same_upper"))
    np.testing.assert_array_equal(lo[0, 0, 0], [1, 0, -2])                # pad, 1 | 1, 0 | 0, 0
    np.testing.assert_array_equal(up[0, 0, 0], [0, -2, -1])               # 1, 0 | 0, 0 | 0, pad


def test_integer_data_and_wrapping():
    x = np.ones((1, 40, 2, 2), np.uint8)
    (y,) = opref.run_op(BC, [x, _bits(np.zeros((1, 40, 2, 2)))], _attrs())
    assert y.dtype == np.uint8 and int(y.item()) == 256 - 160              # -160 wraps in u8
    (y,) = opref.run_op(BC, [x.astype(np.int8), _bits(np.ones((1, 40, 2, 2)))], _attrs())
    assert y.dtype == np.int8 and int(y.item()) == 160 - 256


def test_filters_must_be_u1():
    with pytest.raises(opref.OprefError, match="expected one of u1"):
        opref.run_op(BC, [np.ones((1, 1, 2, 2), np.float32), np.ones((1, 1, 2, 2), np.uint8)], _attrs())


def test_cpu_plugin_still_ignores_the_filters():
    """The reason the values are checked against the spec: if OpenVINO's CPU plugin agrees again, the marks
    in the case table are stale."""
    x, w = np.ones((1, 1, 3, 3), np.float32), _bits(np.zeros((2, 1, 3, 3)))
    (want,) = opref.run_op(BC, [x, w], _attrs())
    assert want.ravel().tolist() == [-9, -9]
    ov = pytest.importorskip("openvino")
    import openvino.opset1 as ops
    bits = ov.Tensor(ov.Type.u1, [2, 1, 3, 3])                            # all zero bits
    bits.data.view(np.uint8)[...] = 0
    a = _attrs()
    data = ops.parameter([1, 1, 3, 3], ov.Type.f32, name="x")
    y = ops.binary_convolution(data, ov.op.Constant(bits), a["strides"], a["pads_begin"], a["pads_end"], a["dilations"],
                               a["mode"], a["pad_value"])
    compiled = ov.Core().compile_model(ov.Model([y], [data]), "CPU", CPU_CONFIG)
    got = compiled([x])[0]
    assert not np.array_equal(got, want), "OpenVINO's CPU plugin now computes BinaryConvolution: drop the marks"


def test_round_trip_through_ir(tmp_path):
    """u1 filters as a Const in IR (bits packed most significant first): opref writes, reads and runs them."""
    from opref.ir_xml.writer import op_model
    case = VALUE_CASES[5]
    infos = [opref.TensorInfo(opref.types.element_type_of(case.inputs[0]), list(case.inputs[0].shape)),
             opref.TensorInfo.of_array(case.inputs[1])]
    xml, weights = op_model(BC, infos, case.attrs, opref.infer_op(BC, infos, case.attrs))
    (tmp_path / "m.xml").write_bytes(xml)
    (tmp_path / "m.bin").write_bytes(weights)
    model = opref.load(tmp_path / "m.xml")
    (got,) = model.run([case.inputs[0]]).values()
    np.testing.assert_array_equal(got, opref.run_op(BC, case.inputs, case.attrs)[0], strict=True)


def test_case_tables_are_large_enough():
    assert len(VALUE_CASES) >= 100 and len(ERROR_CASES) >= 10 and len(SHAPE_CASES) >= 100


# --- the case table against the oracles ---------------------------------------------------------------
@pytest.mark.parametrize("case", VALUE_CASES, ids=lambda c: c.name)
def test_values_against_spec(case):
    assert case.oracle == "spec" and case.openvino
    (got,) = opref.run_op(case.op, case.inputs, case.attrs)
    (want,) = spec_run(case.op, case.inputs, case.attrs)
    np.testing.assert_array_equal(got, want, strict=True)


@pytest.mark.parametrize("case", ERROR_CASES, ids=lambda c: c.name)
def test_error_cases_rejected_by_both(case):
    with pytest.raises(opref.OprefError, match=re.escape(case.error)):
        opref.run_op(case.op, case.inputs, case.attrs)
    if case.openvino:      # the spec rejects what OpenVINO accepts (the case says why)
        return
    try:
        message = openvino_error(case)
    except pytest.fail.Exception:
        # opref refuses to write the IR (an attribute value the schema does not allow): ask OpenVINO's factory
        message = _factory_error(case)
    assert "Exception from src/" in message or "is not a member of enum" in message, f"{case.name}: {message[:200]}"


def _factory_error(case) -> str:
    import openvino as ov
    import openvino.opset1 as ops
    a = case.attrs
    x = ops.parameter(list(case.inputs[0].shape), ov.Type.f32)
    try:
        ops.binary_convolution(x, ops.parameter(list(case.inputs[1].shape), ov.Type.u1), a["strides"], a["pads_begin"],
                               a["pads_end"], a["dilations"], a["mode"], a.get("pad_value", 0.0), a["auto_pad"])
    except RuntimeError as e:
        return str(e)
    return "accepted"


@pytest.mark.parametrize("case", SHAPE_CASES, ids=lambda c: c.name)
def test_shapes_against_openvino(case):
    ours, theirs = opref_shape(case), ov_shape(case)
    if case.openvino:
        assert not isinstance(theirs, Exception), f"{case.name}: OpenVINO rejects now; the mark is stale"
        assert isinstance(ours, opref.OprefError), f"{case.name}: the spec rejects this ({case.openvino})"
        return
    if isinstance(theirs, Exception):
        assert "Exception from src/" in str(theirs), str(theirs)[:200]
        assert isinstance(ours, opref.OprefError), f"{case.name}: OpenVINO rejects, opref gives {ours}"
    else:
        assert ours == theirs, f"{case.name}: opref {ours}, OpenVINO {theirs}"
