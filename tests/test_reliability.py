"""Reliability (issue 17, parts 1 and 2): preconditions checked before computing, with an OprefError
naming the op version and the input/attribute; argument types at the public entry points; and the one
boundary that turns anything else escaping a kernel, a shape rule or folding into an InternalError.

An InternalError is a bug: no test here accepts one as a rejection."""
from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import opref
from opref import errors, run_op, infer_op
from opref.conformance.cases import all_cases
from opref.errors import InputError, InternalError, InvalidAttributeError, OprefError
from opref.runtime import kernels as kernel_registry

F = np.arange(6, dtype=np.float32).reshape(3, 2)


def i64(*v, shape=None):
    a = np.array(v, np.int64)
    return a if shape is None else a.reshape(shape)


def rejects(kind, match, op, inputs, attrs=None):
    with pytest.raises(kind, match=match) as e:
        run_op(op, inputs, attrs)
    assert not isinstance(e.value, InternalError), e.value
    return e.value


# --- (a) each fixed case: the specific error and message ----------------------------------------------

@pytest.mark.parametrize("op", ["GatherND-5", "GatherND-8"])
def test_gather_nd_index_out_of_range(op):
    rejects(InputError, rf"^{op}: input 'indices' holds indices 5 at \[0, 0, 0\], outside \[-3, 2\]",
            op, [F, i64(5, shape=(1, 1))], {"batch_dims": 0})
    rejects(InputError, r"holds indices -4 .* outside \[-3, 2\]", op, [F, i64(-4, shape=(1, 1))], {"batch_dims": 0})
    # the second column is checked against the second axis
    rejects(InputError, r"holds indices 2 at \[0, 0, 1\], outside \[-2, 1\]", op, [F, i64(0, 2, shape=(1, 2))],
            {"batch_dims": 0})
    assert run_op(op, [F, i64(-1, 1, shape=(1, 2))], {"batch_dims": 0})[0].tolist() == [5.0]


def test_scatter_update_index_out_of_range():
    # OpenVINO's reference: "ScatterUpdate indices value 5 is out of bounds for axis 0 of size 3"
    rejects(InputError, r"^ScatterUpdate-3: input 'indices' holds indices 5 .*outside \[-3, 2\]",
            "ScatterUpdate-3", [F, i64(5), np.ones((1, 2), np.float32), i64(0)])


@pytest.mark.parametrize("op,attrs", [("ScatterNDUpdate-3", {}), ("ScatterNDUpdate-15", {"reduction": "sum"})])
def test_scatter_nd_update_index_out_of_range(op, attrs):
    # OpenVINO's reference: "Index is out of bounds"
    rejects(InputError, rf"^{op}: input 'indices' holds indices 5 .*outside \[-3, 2\]",
            op, [F, i64(5, shape=(1, 1)), np.ones((1, 2), np.float32)], attrs)
    rejects(InputError, r"holds indices -2147483648", op,
            [F, np.array([[-2**31]], np.int32), np.ones((1, 2), np.float32)], attrs)


@pytest.mark.parametrize("op,attrs", [("ScatterElementsUpdate-3", {}),
                                      ("ScatterElementsUpdate-12", {"reduction": "max", "use_init_val": True})])
def test_scatter_elements_update_index_out_of_range(op, attrs):
    rejects(InputError, rf"^{op}: input 'indices' holds indices 2 at \[0, 0\], outside \[-2, 1\]",
            op, [F, i64(2, shape=(1, 1)), np.ones((1, 1), np.float32), i64(1)], attrs)


def test_gather_elements_index_out_of_range():
    rejects(InputError, r"^GatherElements-6: input 'indices' holds indices 3 .*outside \[-3, 2\]",
            "GatherElements-6", [F, i64(3, 0, shape=(1, 2))], {"axis": 0})


def test_reverse_sequence_length_out_of_range():
    # OpenVINO's CPU plugin: "Incorrect input 'seq_lengths' values!"
    rejects(InputError, r"^ReverseSequence-1: input 'seq_lengths' holds a sequence length 4 at \[0, 0\], "
            r"outside \[0, 3\]", "ReverseSequence-1", [F, i64(4, 1)], {"batch_axis": 1, "seq_axis": 0})
    rejects(InputError, r"holds a sequence length -1", "ReverseSequence-1", [F, i64(1, -1)],
            {"batch_axis": 1, "seq_axis": 0})
    rejects(InputError, r"'batch_axis' \(-1\) and 'seq_axis' \(1\) name the same axis", "ReverseSequence-1",
            [F.T.copy(), i64(1, 2, 1)], {"batch_axis": -1, "seq_axis": 1})
    # a full-length reversal and a zero length (kept as is) are fine
    out = run_op("ReverseSequence-1", [F, i64(3, 0)], {"batch_axis": 1, "seq_axis": 0})[0]
    assert out.tolist() == [[4, 1], [2, 3], [0, 5]]


def _ctc(labels, blank=None, label_length=(2, 2)):
    logits = np.zeros((2, 3, 4), np.float32)
    ins = [logits, i64(3, 3), np.asarray(labels, np.int64), i64(*label_length)]
    return ins + ([] if blank is None else [np.int64(blank)])


def test_ctc_loss_labels_and_blank_out_of_range():
    attrs = {"preprocess_collapse_repeated": False, "ctc_merge_repeated": True, "unique": False}
    rejects(InputError, r"^CTCLoss-4: input 'labels' holds 4 at \[1, 0\], outside the classes \[0, 3\]",
            "CTCLoss-4", _ctc([[0, 1, 0], [4, 1, 0]]), attrs)
    rejects(InputError, r"holds -3 at \[0, 1\]", "CTCLoss-4", _ctc([[0, -3, 0], [1, 1, 0]]), attrs)
    rejects(InputError, r"^CTCLoss-4: input 'blank_index' is 7, outside \[0, 3\]", "CTCLoss-4",
            _ctc([[0, 1, 0], [1, 1, 0]], blank=7), attrs)
    # labels beyond label_length are not read: any value there is fine (and changes nothing)
    a = run_op("CTCLoss-4", _ctc([[0, 1, -7], [2, 99, 5]], label_length=(2, 1)), attrs)[0]
    b = run_op("CTCLoss-4", _ctc([[0, 1, 0], [2, 0, 0]], label_length=(2, 1)), attrs)[0]
    assert np.array_equal(a, b) and np.all(np.isfinite(a))


def test_gather_tree_parent_out_of_range():
    step = np.ones((2, 1, 2), np.int32)
    parent = np.array([[[0, 1]], [[5, 0]]], np.int32)
    rejects(InputError, r"^GatherTree-1: input 'parent_ids' holds at step 1 the beam index 5 .*outside \[0, 1\]",
            "GatherTree-1", [step, parent, np.array([2], np.int32), np.int32(9)])
    # a step beyond max_seq_len is never read: its parent may hold anything
    out = run_op("GatherTree-1", [step, parent, np.array([1], np.int32), np.int32(9)])[0]
    assert out[:, 0].tolist() == [[1, 1], [9, 9]]


def test_cumsum_scalar_and_axis():
    rejects(InputError, r"^CumSum-3: input 'data' is a scalar; it must have rank >= 1", "CumSum-3",
            [np.float32(3), i64(0).reshape(())])
    rejects(InputError, r"^CumSum-3: input 'axis' is 2, outside \[-2, 1\]", "CumSum-3", [F, np.int64(2)])
    assert run_op("CumSum-3", [F, np.int64(-2)])[0].tolist() == [[0, 1], [2, 4], [6, 9]]


@pytest.mark.parametrize("op,ins,attrs", [
    ("Interpolate-1", [np.arange(10, dtype=np.float32).reshape(2, 5), i64(7)], {"axes": [], "mode": "linear"}),
    ("Interpolate-4", [np.arange(10, dtype=np.float32).reshape(2, 5), np.zeros(0, np.int64),
                       np.zeros(0, np.float32), np.zeros(0, np.int64)],
     {"mode": "linear_onnx", "shape_calculation_mode": "sizes"}),
])
def test_interpolate_empty_axes_is_the_identity(op, ins, attrs):
    # OpenVINO's shape inference keeps the shape ([2, 5]); resizing over no axis changes nothing
    # (its CPU plugin returns uninitialised memory there)
    assert infer_op(op, ins, attrs)[0].shape.to_shape() == (2, 5)
    out = run_op(op, ins, attrs)[0]
    assert np.array_equal(out, ins[0])


def test_segment_max_huge_num_segments_fails_before_allocating():
    data = np.ones((3, 1), np.uint8)
    ids = np.array([0, 0, 1], np.int32)
    e = rejects(InputError, r"^SegmentMax-16: .*num_segments 2147483647 of shape \[2147483647(, 1)?\] would need "
                r"\d+ bytes, more than the 2147483648-byte limit \(OPREF_MAX_TENSOR_BYTES\)",
                "SegmentMax-16", [data, ids, np.int32(2**31 - 1)], {"fill_mode": "lowest"})
    assert "num_segments" in str(e)


def test_size_limit_from_environment(monkeypatch):
    x = np.zeros(100, np.float32)
    monkeypatch.setenv("OPREF_MAX_TENSOR_BYTES", "256")
    rejects(InputError, r"^Tile-1: output 'output' of shape \[200\] would need 800 bytes, more than the 256-byte "
            r"limit", "Tile-1", [x, i64(2)])
    monkeypatch.setenv("OPREF_MAX_TENSOR_BYTES", "lots")
    rejects(InputError, "OPREF_MAX_TENSOR_BYTES must be a positive number of bytes, got 'lots'", "Tile-1", [x, i64(2)])
    monkeypatch.delenv("OPREF_MAX_TENSOR_BYTES")
    assert run_op("Tile-1", [x, i64(2)])[0].shape == (200,)


@pytest.mark.parametrize("op", ["PriorBox-1", "PriorBox-8"])
def test_prior_box_non_positive_aspect_ratio(op):
    # the spec allows positive ratios only; OpenVINO accepts 0 (flipped to inf) and returns inf boxes
    a = {"min_size": [2.0], "max_size": [5.0], "offset": 0.5, "variance": [0.1], "flip": True}
    grid = [i64(2, 2), i64(10, 10)]
    for r in ([0.0], [2.0, -1.0], [float("nan")]):
        rejects(InvalidAttributeError, rf"^{op}: attribute 'aspect_ratio' must hold positive finite ratios, got",
                op, grid, {**a, "aspect_ratio": r})
    # the shape rule counts the ratios as OpenVINO does: 1, 0 and its flip inf, plus the max size -> 4 per cell
    assert infer_op(op, grid, {**a, "aspect_ratio": [0.0]})[0].shape.to_shape() == (2, 64)
    assert run_op(op, grid, {**a, "aspect_ratio": [2.0]})[0].shape == (2, 64)


@pytest.mark.parametrize("name,value,softmax", [("coords", -1, True), ("coords", -2**31, False),
                                                ("classes", -1, False), ("classes", -2**31, True), ("num", -1, True)])
def test_region_yolo_negative_counts(name, value, softmax):
    # OpenVINO's shape inference accepts them (a negative channel count becomes 0); its CPU plugin crashes
    x = np.ones((1, 18, 2, 2), np.float32)
    attrs = {"anchors": [], "axis": 1, "end_axis": 3, "coords": 4, "classes": 1, "num": 3, "do_softmax": softmax,
             "mask": [0, 1, 2], name: value}
    rejects(InvalidAttributeError, rf"^RegionYolo-1: attribute '{name}' is {value}; a count must be >= 0",
            "RegionYolo-1", [x], attrs)


def test_region_yolo_no_class():
    # classes = 0: the softmax over no class changes nothing; x, y and the objectness still get sigmoids
    x = np.zeros((1, 10, 1, 1), np.float32)
    attrs = {"anchors": [], "axis": 1, "end_axis": 3, "coords": 4, "classes": 0, "num": 2, "do_softmax": True,
             "mask": []}
    out = run_op("RegionYolo-1", [x], attrs)[0]
    assert out.shape == (1, 10) and out.tolist() == [[0.5, 0.5, 0, 0, 0.5] * 2]


def test_range_u64_beyond_i64():
    # u64 values past 2**63 (a negative value written into u64): OpenVINO's reference counts in double and
    # accumulates the exact start and step modulo 2**64
    u = np.uint64
    assert run_op("Range-1", [u(2**64 - 1), u(2**64 - 1), u(1)])[0].size == 0
    assert run_op("Range-1", [u(0), u(10), u(2**64 - 1)])[0].tolist() == [0]
    assert run_op("Range-1", [u(2**64 - 2000), u(2**64 - 1), u(1000)])[0].tolist() == \
        [2**64 - 2000, 2**64 - 1000, 0]
    out = run_op("Range-1", [u(2**63 + 1), u(2**63 + 5000), u(1)])[0]
    assert out.dtype == np.uint64 and len(out) == 4096 and int(out[0]) == 2**63 + 1 and int(out[-1]) == 2**63 + 4096
    assert run_op("Range-1", [np.int8(120), np.int8(127), np.int8(3)])[0].tolist() == [120, 123, 126]


@pytest.mark.parametrize("op", ["Gather-7", "Gather-8"])
def test_gather_batch_dims_below_minus_rank(op):
    # OpenVINO's shape inference rejects these too ("Accessing out-of-range dimension", std::bad_alloc)
    x = np.zeros((3, 1, 3, 2), np.float32)
    ind = np.zeros((3, 2), np.int64)
    rejects(errors.ShapeInferenceError, rf"^{op}: batch_dims \(-2147483648\) must be >= -2 \(minus the rank of indices\)",
            op, [x, ind, i64(3)], {"batch_dims": -2**31})
    rejects(errors.ShapeInferenceError, r"batch_dims \(-3\) must be >= -2", op, [x, ind, i64(3)], {"batch_dims": -3})
    rejects(errors.ShapeInferenceError, r"batch_dims \(-1\) must be >= 0", op, [x, np.int64(0), i64(3)], {"batch_dims": -1})
    assert run_op(op, [x, ind, i64(3)], {"batch_dims": -2})[0].shape == (3, 1, 3, 3, 2)
    assert run_op(op, [x, np.int64(1), i64(3)], {"batch_dims": 0})[0].shape == (3, 1, 3)


def test_eye_empty_batch_with_huge_matrix_allocates_nothing():
    # OpenVINO returns the empty [2, 0, 2147483647, 3] tensor; the matrix alone would need 24 GiB
    ins = [np.int32(2**31 - 1), np.int32(3), np.int32(0), np.array([2, 0], np.int32)]
    out = run_op("Eye-9", ins, {"output_type": "f32"})[0]
    assert out.shape == (2, 0, 2**31 - 1, 3) and out.dtype == np.float32
    out = run_op("Eye-9", [np.int32(2), np.int32(3), np.int32(1), np.array([2], np.int32)], {"output_type": "u8"})[0]
    assert out.tolist() == [[[0, 1, 0], [0, 0, 1]]] * 2


def test_lrn_huge_size_sums_the_whole_axes():
    # a window wider than the axes covers them all: the taps past the edges read only zeros
    x = np.random.default_rng(0).standard_normal((1, 3, 4)).astype(np.float32)
    attrs = {"alpha": 1e-2, "beta": 0.75, "bias": 1.0}
    huge = run_op("LRN-1", [x, i64(1, 2)], {**attrs, "size": 2**31 - 1})[0]
    sq = (x.astype(np.float64) ** 2).sum(axis=(1, 2), keepdims=True)
    assert np.allclose(huge, x / (1 + 1e-2 / float(2**31 - 1) ** 2 * sq) ** 0.75, rtol=1e-6)
    # size 7 on the axis of 4 already spans it (as a window of 9 does), only the scale alpha / size^2 differs
    a = run_op("LRN-1", [x, i64(2)], {**attrs, "size": 7})[0]
    b = run_op("LRN-1", [x, i64(2)], {**attrs, "alpha": 1e-2 * 9 / 7, "size": 9})[0]
    assert np.allclose(a, b, rtol=1e-6)


def test_irdft_and_adaptive_avg_pool_work_arrays_are_limited(monkeypatch):
    # the work arrays (f64 for the FFT, the bins' gather) are larger than a bf16 output: checked first
    import ml_dtypes
    monkeypatch.setenv("OPREF_MAX_TENSOR_BYTES", str(64 << 20))
    d = np.ones((1, 2, 2), ml_dtypes.bfloat16)
    rejects(InputError, r"^IRDFT-9: the f64 work array for signal_size \[1, 10000000\] of shape \[1, 10000000\] "
            r"would need 80000000 bytes", "IRDFT-9", [d, i64(0, 1), i64(1, 10**7)])
    assert run_op("IRDFT-9", [d, i64(0, 1), i64(3, 4)])[0].shape == (3, 4)
    x = np.ones((1, 2, 3, 4), ml_dtypes.bfloat16)
    rejects(InputError, r"^AdaptiveAvgPool-8: the bins' work array for output_shape \[10000000, 1\] of shape "
            r"\[1, 2, 10000000, 2, 4\]", "AdaptiveAvgPool-8", [x, i64(10**7, 1)])
    assert run_op("AdaptiveAvgPool-8", [x, i64(2, 3)])[0].shape == (1, 2, 2, 3)


def test_sampling_work_arrays_are_limited(monkeypatch):
    # the samples per bin grow with an attribute, not with the output: checked before allocating
    monkeypatch.setenv("OPREF_MAX_TENSOR_BYTES", str(64 << 20))
    data = np.ones((1, 8, 4, 4), np.float32)
    rois = np.array([[0, 0, 0, 3, 3]], np.float32)
    attrs = {"output_dim": 2, "spatial_scale": 1.0, "group_size": 2, "mode": "bilinear_deformable",
             "spatial_bins_x": 10**7, "spatial_bins_y": 2, "trans_std": 1.0, "part_size": 2}
    rejects(InputError, r"^DeformablePSROIPooling-1: the samples of spatial_bins_x 10000000 x spatial_bins_y 2 of "
            r"shape \[1, 2, 2, 2, 2, 10000000\]", "DeformablePSROIPooling-1", [data, rois], attrs)
    assert run_op("DeformablePSROIPooling-1", [data, rois], {**attrs, "spatial_bins_x": 2})[0].shape == (1, 2, 2, 2)
    boxes = np.array([[0, 0, 7, 7]], np.float32)
    feat = [np.ones((1, 2, 8, 8), np.float32)]
    ex = {"output_size": 2, "sampling_ratio": 10**7, "pyramid_scales": [4], "aligned": False}
    rejects(InputError, r"^ExperimentalDetectronROIFeatureExtractor-6: the sample weights for sampling_ratio "
            r"10000000 of shape \[1, 2, 10000000, 8\]", "ExperimentalDetectronROIFeatureExtractor-6",
            [boxes] + feat, ex)
    out = run_op("ExperimentalDetectronROIFeatureExtractor-6", [boxes] + feat, {**ex, "sampling_ratio": 2})[0]
    assert np.allclose(out, 1.0)


# --- argument types at the public entry points --------------------------------------------------------

def test_run_op_and_infer_op_argument_types():
    x = np.ones((2, 3), np.float32)
    for fn in (run_op, infer_op):
        with pytest.raises(InputError, match=r"^Relu-1: inputs must be a list of arrays, one per input port; got an "
                           r"ndarray of shape \[2, 3\]"):
            fn("Relu-1", x)
        with pytest.raises(InputError, match="inputs must be a list of .*got int"):
            fn("Relu-1", 5)
        with pytest.raises(InputError, match="got generator"):
            fn("Relu-1", (a for a in [x]))
        with pytest.raises(InvalidAttributeError, match=r"^Relu-1: attrs must be a mapping .*got list"):
            fn("Relu-1", [x], [("a", 1)])
        with pytest.raises(InputError, match=r"^Add-1: input 'b' is None, but only an absent optional input may be"):
            fn("Add-1", [x, None])
        with pytest.raises(InputError, match="input 'data' is a dict, not a tensor"):
            fn("Relu-1", [{"a": x}])
    assert run_op("Relu-1", (x,))[0].shape == (2, 3)
    assert infer_op("Relu-1", [opref.TensorInfo("f32", [2, 3])])[0].shape.to_shape() == (2, 3)


@pytest.fixture()
def model(tmp_path):
    xml = b"""<?xml version="1.0"?>
<net name="m" version="11"><layers>
<layer id="0" name="x" type="Parameter" version="opset1"><data shape="2,3" element_type="f32"/>
<output><port id="0" precision="FP32" names="x"><dim>2</dim><dim>3</dim></port></output></layer>
<layer id="1" name="r" type="Relu" version="opset1"><input><port id="0"><dim>2</dim><dim>3</dim></port></input>
<output><port id="1" precision="FP32" names="y"><dim>2</dim><dim>3</dim></port></output></layer>
<layer id="2" name="out" type="Result" version="opset1"><input><port id="0"><dim>2</dim><dim>3</dim></port></input></layer>
</layers><edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/></edges></net>"""
    p = tmp_path / "m.xml"
    p.write_bytes(xml)
    p.with_suffix(".bin").write_bytes(b"")
    return opref.load(p)


def test_model_entry_point_argument_types(model, tmp_path):
    x = np.ones((2, 3), np.float32)
    with pytest.raises(InputError, match=r"^inputs must be a list of arrays, one per model input, or a dict by "
                       r"input name; got an ndarray of shape \[2, 3\]"):
        model.run(x)
    with pytest.raises(InputError, match="got int"):
        model.run(3)
    assert model.run([x])["y"].shape == (2, 3) and model.run({"x": x})["y"].shape == (2, 3)
    with pytest.raises(InputError, match="^shapes must be a mapping of input name to shape; got list"):
        model.infer_shapes([[4, 3]])
    assert model.infer_shapes({"x": [4, 3]})["r"][0].shape.to_shape() == (4, 3)
    with pytest.raises(InputError, match=r"^path must be a file path \(str or os.PathLike\); got int"):
        opref.load(3)
    with pytest.raises(InputError, match="^weights must be a file path"):
        opref.load(tmp_path / "m.xml", weights=b"")
    with pytest.raises(InputError, match="^save: model must be an opref.Model; got str"):
        opref.save("m.xml", tmp_path / "n.xml")
    with pytest.raises(InputError, match="^path must be a file path"):
        opref.save(model, None)


# --- (c) the boundary ------------------------------------------------------------------------------

def _boom(*args, **kwargs):
    return 1 / 0


def test_kernel_exception_becomes_internal_error(monkeypatch):
    monkeypatch.setitem(kernel_registry.KERNELS, "Relu-1", _boom)
    with pytest.raises(InternalError, match=r"^Relu-1: internal error in the kernel \(ZeroDivisionError: division "
                       r"by zero\); this is a bug in opref") as e:
        run_op("Relu-1", [F])
    assert isinstance(e.value, OprefError) and isinstance(e.value.__cause__, ZeroDivisionError)


def test_kernel_exception_in_a_model_names_the_layer(monkeypatch, model):
    monkeypatch.setitem(kernel_registry.KERNELS, "Relu-1", _boom)
    with pytest.raises(InternalError, match=r"^layer 1 'r' \(Relu-1\): Relu-1: internal error in the kernel "
                       r"\(ZeroDivisionError") as e:
        model.run([np.ones((2, 3), np.float32)])
    assert isinstance(e.value.__cause__, ZeroDivisionError)


def test_shape_rule_exception_becomes_internal_error(monkeypatch):
    import dataclasses
    from opref.runtime import ops
    schema = opref.get_schema("Relu-1")
    broken = dataclasses.replace(schema, shape=_boom)
    monkeypatch.setattr(ops, "get_schema", lambda op: broken)
    with pytest.raises(InternalError, match=r"^Relu-1: internal error in the shape rule \(ZeroDivisionError") as e:
        infer_op("Relu-1", [F])
    assert isinstance(e.value.__cause__, ZeroDivisionError)


def test_kernel_output_disagreeing_with_shape_rule_is_internal(monkeypatch):
    monkeypatch.setitem(kernel_registry.KERNELS, "Relu-1", lambda x: x[:1])
    with pytest.raises(InternalError, match=r"^Relu-1: kernel output 'output' has shape \[1, 2\], shape rule says"):
        run_op("Relu-1", [F])


def test_boundary_passes_oprefs_and_interrupts_through():
    with pytest.raises(InputError):
        with errors.internal_errors("X-1", "kernel"):
            raise InputError("X-1: bad")
    with pytest.raises(KeyboardInterrupt):
        with errors.internal_errors("X-1", "kernel"):
            raise KeyboardInterrupt


# --- (b) mutation fuzz over the case tables (bounded) -----------------------------------------------

# Ops whose remaining findings are not fixed yet (issue 17, part 3: kernels' temporaries and run time
# grow with an input's values or an attribute beyond what the output-size limit sees; or a kernel's
# own precondition not checked yet). Each has an exact reproducer in the closing notes.
KNOWN = {
    "AvgPool-1", "Interpolate-1", "Interpolate-4", "Interpolate-11",
    "MaxPool-8", "MaxPool-14", "MulticlassNms-9", "Multinomial-13", "OneHot-1", "OneHot-16", "Pad-12",
    "ROIAlign-3", "ROIAlign-9", "ROIAlignRotated-15", "RandomUniform-8",
    "SpaceToBatch-2", "SparseFillEmptyRows-16",
}

_SAMPLE = sorted((c for c in all_cases() if c.error is None and c.op not in KNOWN), key=lambda c: c.name)
_SAMPLE = random.Random(17).sample(_SAMPLE, min(600, len(_SAMPLE)))
_VALUES = (-1, -2, 10**6, 2**31 - 1, -(2**31), 0)
_ATTRS = (-1, 0, 3, 2**31 - 1, -(2**31), [], [0], [-5], [10**9], "bogus", 1.5, True)


def _mutate(case, kind, pick, where, value):
    inputs = list(case.inputs)
    attrs = dict(case.attrs)
    ints = [k for k, x in enumerate(inputs) if x is not None and np.asarray(x).dtype.kind in "iu"
            and np.asarray(x).size]
    if kind == "value" and ints:
        k = ints[pick % len(ints)]
        a = np.array(inputs[k], copy=True)
        v = _VALUES[value % len(_VALUES)]
        if v == 0:     # one past the largest value there (an index just out of range)
            v = int(a.max()) + 1
        info = np.iinfo(a.dtype)
        a.flat[where % a.size] = min(max(v, info.min), info.max)
        inputs[k] = a
        return inputs, attrs, f"input {k}[{where % a.size}] = {a.flat[where % a.size]}"
    if kind == "attr" and attrs:
        name = sorted(attrs)[pick % len(attrs)]
        attrs[name] = _ATTRS[value % len(_ATTRS)]
        return inputs, attrs, f"attr {name} = {attrs[name]!r}"
    present = [k for k, x in enumerate(inputs) if x is not None and np.asarray(x).size]
    if not present:
        return inputs, attrs, "unchanged"
    k = present[pick % len(present)]
    a = np.asarray(inputs[k])
    inputs[k] = a[None] if value % 2 or a.ndim == 0 else a.reshape(-1)[:1].reshape(())
    return inputs, attrs, f"input {k} rank {a.ndim} -> {np.ndim(inputs[k])}"


@pytest.fixture()
def small_limit(monkeypatch):
    monkeypatch.setenv("OPREF_MAX_TENSOR_BYTES", str(64 << 20))   # the fuzz never allocates much


@settings(derandomize=True, max_examples=1500, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(case=st.sampled_from(_SAMPLE), kind=st.sampled_from(["value", "attr", "rank"]),
       pick=st.integers(0, 7), where=st.integers(0, 10**6), value=st.integers(0, 23))
def test_mutated_cases_succeed_or_raise_a_clean_oprefs_error(small_limit, case, kind, pick, where, value):
    inputs, attrs, what = _mutate(case, kind, pick, where, value)
    try:
        run_op(case.op, inputs, attrs)
    except InternalError as e:
        pytest.fail(f"{case.name} with {what}: internal error (a bug): {e}")
    except OprefError:
        pass
    except Exception as e:  # noqa: BLE001 -- anything else escaping run_op is the bug this test looks for
        pytest.fail(f"{case.name} with {what}: {type(e).__name__} escaped run_op: {e}")


# --- findings of the atheris campaigns (python -m fuzz) ---------------------------------------------------
@pytest.mark.parametrize("op,mode", [("Broadcast-1", "numpy"), ("Broadcast-1", "explicit"), ("Broadcast-3", "numpy"),
                                     ("Broadcast-3", "bidirectional"), ("Broadcast-3", "pdpd")])
def test_broadcast_of_a_known_value_to_a_huge_target_is_inferred_not_folded(op, mode):
    """fuzz reader: a Constant broadcast to a target of 2^40 x 2^40 made NumPy's broadcast_to raise inside
    the shape rule (it folded the value whatever the output's size)."""
    from opref import TensorInfo
    data = TensorInfo.of_array(np.ones(1 if mode != "pdpd" else (1, 1), np.float32))
    target = TensorInfo.of_array(np.array([2**40, 2**40], np.int64))
    ins = [data, target] + ([TensorInfo.of_array(np.array([1], np.int64))] if mode == "explicit" else [])
    (out,) = opref.infer_op(op, ins, {"mode": mode})
    assert out.shape == opref.PartialShape([2**40, 2**40]) and out.value is None


@pytest.mark.parametrize("op,attrs", [("ScatterNDUpdate-3", {}), ("ScatterNDUpdate-15", {}), ("ScatterUpdate-3", None)])
def test_constant_scatter_with_an_index_out_of_range_is_not_folded(op, attrs):
    """fuzz reader: Constants scattered with an index far out of range made the shape rule's fold index
    NumPy out of bounds; the shape is still inferred, and running names the index."""
    from opref import TensorInfo
    data = np.zeros((2, 3), np.float32)
    if op == "ScatterUpdate-3":
        ins = [data, np.array([-2099652829], np.int64), np.ones((1, 3), np.float32), np.array(0, np.int64)]
    else:
        ins = [data, np.array([[-2099652829]], np.int64), np.ones((1, 3), np.float32)]
    (out,) = opref.infer_op(op, [TensorInfo.of_array(x) for x in ins], attrs or {})
    assert out.shape == opref.PartialShape([2, 3]) and out.value is None
    with pytest.raises(InputError, match="out of range|outside"):
        run_op(op, ins, attrs or {})


@pytest.mark.parametrize("op", ["DFT-7", "IDFT-7", "RDFT-9", "IRDFT-9"])
def test_fft_with_empty_axes_is_rejected(op):
    """fuzz reader: RDFT's shape rule indexed the last of no axes. The spec transforms the axes given, at
    least one; OpenVINO cannot be asked (its shape inference crashes the process on empty axes)."""
    data = np.zeros((2, 3) if op == "RDFT-9" else (2, 3, 2), np.float32)
    with pytest.raises(OprefError, match="'axes' must hold at least one axis"):
        run_op(op, [data, np.zeros(0, np.int64)])


@pytest.mark.parametrize("op", ["RNNSequence-5", "GRUSequence-5", "LSTMSequence-5", "RNNCell-3", "GRUCell-3",
                                "LSTMCell-4"])
def test_rnn_weights_of_another_input_size_are_rejected(op):
    """fuzz reader: W with input_size 1 against X with input_size 2 passed the shape rule and failed inside
    the kernel's matmul. The spec's W is [.., input_size] of X; opref rejects the mismatch naming the
    dimension. OpenVINO's shape inference does not check it (it accepts the model)."""
    gates = {"RNN": 1, "GRU": 3, "LSTM": 4}[op.split("Sequence")[0].split("Cell")[0]]
    h, f = 2, np.float32
    if "Sequence" in op:
        ins = [np.zeros((3, 2, 2), f), np.zeros((3, 1, h), f)] + ([np.zeros((3, 1, h), f)] if gates == 4 else []) + \
            [np.array([2, 2, 2], np.int32), np.zeros((1, gates * h, 1), f), np.zeros((1, gates * h, h), f),
             np.zeros((1, gates * h), f)]
        attrs = {"hidden_size": h, "direction": "forward"}
    else:
        ins = [np.zeros((3, 2), f), np.zeros((3, h), f)] + ([np.zeros((3, h), f)] if gates == 4 else []) + \
            [np.zeros((gates * h, 1), f), np.zeros((gates * h, h), f), np.zeros(gates * h, f)]
        attrs = {"hidden_size": h}
    with pytest.raises(OprefError, match="`input_size` does not match"):
        run_op(op, ins, attrs)


def test_if_whose_body_input_is_not_connected_is_a_model_error(tmp_path):
    """fuzz reader: an If whose port 1 (mapped to both bodies' parameters) had lost its edge met a missing
    input info inside a body layer's shape rule; now a ModelError names the port and the parameter."""
    import re
    from models import model_path
    xml = model_path("if").read_text()
    if_id = re.search(r'<layer id="(\d+)" name="[^"]*" type="If"', xml).group(1)
    cut = re.sub(rf'<edge from-layer="\d+" from-port="\d+" to-layer="{if_id}" to-port="1"\s*/>', "", xml)
    assert cut != xml
    (tmp_path / "m.xml").write_text(cut)
    (tmp_path / "m.bin").write_bytes(model_path("if").with_suffix(".bin").read_bytes())
    with pytest.raises(opref.errors.ModelError, match=r"input 1, which feeds then_body parameter .* is not connected"):
        opref.load(tmp_path / "m.xml")


@pytest.mark.parametrize("op,attrs", [("PriorBox-8", {"min_size": [2.0], "aspect_ratio": [1.0], "offset": 0.5}),
                                      ("PriorBoxClustered-1", {"width": [2.0], "height": [3.0], "offset": 0.5})])
def test_prior_box_image_size_of_one_value(op, attrs):
    """fuzz run_op: an image_size of one value reached the kernel's unpacking (the shape rule reads only
    output_size's value)."""
    with pytest.raises(InputError, match=r"input 'image_size' must hold two values"):
        run_op(op, [np.array([2, 2], np.int64), np.array([32], np.int64)], attrs)
