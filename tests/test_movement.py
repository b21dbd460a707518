"""Data-movement checks the generic oracle runners cannot express: the spec's worked examples (typed
in from the spec pages), every output of the multi-output Split ops against OpenVINO, shapes and
edge cases OpenVINO cannot run, and the constant folding of shape rules (their output values agree
with the kernels)."""
from __future__ import annotations

import numpy as np
import openvino as ov
import openvino.opset1 as ops
import pytest

import opref
from opref.conformance.cases import movement as table
from opref.runtime.kernels import KERNELS
from oracles import CPU_CONFIG, from_ov, to_ov
from opref.shapes import TensorInfo
from opref.types import element_type_of

DATA = np.array([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]], np.int32)


def run(op, *inputs, **attrs):
    return opref.run_op(op, inputs, attrs)[0]


# --- Pad-12: the spec's examples ------------------------------------------------------------------------
PAD_POSITIVE = {
    "constant": [[0, 1, 2, 3, 4, 0, 0, 0], [0, 5, 6, 7, 8, 0, 0, 0], [0, 9, 10, 11, 12, 0, 0, 0],
                 [0] * 8, [0] * 8],
    "edge": [[1, 1, 2, 3, 4, 4, 4, 4], [5, 5, 6, 7, 8, 8, 8, 8], [9, 9, 10, 11, 12, 12, 12, 12],
             [9, 9, 10, 11, 12, 12, 12, 12], [9, 9, 10, 11, 12, 12, 12, 12]],
    "reflect": [[2, 1, 2, 3, 4, 3, 2, 1], [6, 5, 6, 7, 8, 7, 6, 5], [10, 9, 10, 11, 12, 11, 10, 9],
                [6, 5, 6, 7, 8, 7, 6, 5], [2, 1, 2, 3, 4, 3, 2, 1]],
    "symmetric": [[1, 1, 2, 3, 4, 4, 3, 2], [5, 5, 6, 7, 8, 8, 7, 6], [9, 9, 10, 11, 12, 12, 11, 10],
                  [9, 9, 10, 11, 12, 12, 11, 10], [5, 5, 6, 7, 8, 8, 7, 6]],
}
PAD_MIXED = {
    "constant": [[0] * 6, [0] * 6, [2, 3, 4, 0, 0, 0], [6, 7, 8, 0, 0, 0]],
    "edge": [[2, 3, 4, 4, 4, 4], [2, 3, 4, 4, 4, 4], [2, 3, 4, 4, 4, 4], [6, 7, 8, 8, 8, 8]],
    "reflect": [[10, 11, 12, 11, 10, 9], [6, 7, 8, 7, 6, 5], [2, 3, 4, 3, 2, 1], [6, 7, 8, 7, 6, 5]],
    "symmetric": [[6, 7, 8, 8, 7, 6], [2, 3, 4, 4, 3, 2], [2, 3, 4, 4, 3, 2], [6, 7, 8, 8, 7, 6]],
}


@pytest.mark.parametrize("mode", list(PAD_POSITIVE))
def test_pad_12_spec_examples(mode):
    out = run("Pad-12", DATA, np.array([0, 1]), np.array([2, 3]), pad_mode=mode)
    np.testing.assert_array_equal(out, PAD_POSITIVE[mode], strict=False)
    out = run("Pad-12", DATA, np.array([-1, -1]), np.array([-1, -1]), pad_mode=mode)
    np.testing.assert_array_equal(out, [[6, 7]])
    out = run("Pad-12", DATA, np.array([2, -1]), np.array([-1, 3]), pad_mode=mode)
    np.testing.assert_array_equal(out, PAD_MIXED[mode])


def test_pad_value_and_crop_below_zero():
    out = run("Pad-1", DATA[:1, :2], np.array([1, 0]), np.array([0, 1]), np.int32(-7), pad_mode="constant")
    np.testing.assert_array_equal(out, [[-7, -7, -7], [1, 2, -7]])
    # the spec's output size is max(pads_begin + dim + pads_end, 0); OpenVINO infers ? and cannot run it
    assert run("Pad-12", DATA, np.array([0, -3]), np.array([0, -3]), pad_mode="edge").shape == (3, 0)
    assert [str(i.shape) for i in opref.infer_op("Pad-12", [TensorInfo("i32", [3, 4]), np.array([0, -3]),
                                                             np.array([0, -3])], {"pad_mode": "edge"})] == ["[3,?]"]


@pytest.mark.parametrize("mode", ["constant", "edge"])
@pytest.mark.parametrize("begin", [2**63 - 1, -(2**63 - 1), 2**62 + 5, -(2**62) - 3, 4, -2])
def test_pad_near_the_int64_limits_reads_as_the_spec_says(mode, begin):
    """Output o of an axis reads input o - pads_begin (clamped for edge, the pad value outside for constant),
    in exact integers: pads near +-2^63 that cancel (begin + end = 0 or small) crop to the right positions
    instead of wrapping around in int64. (OpenVINO's shape inference gives [3, 4]; its CPU plugin crashes on
    such pads, so the oracle is this transcription of the spec.)"""
    end = -begin + (1 if abs(begin) < 10 else 0)
    n = DATA.shape[1]
    size = max(begin + n + end, 0)
    want = np.zeros((3, size), DATA.dtype)
    for o in range(size):
        i = o - begin                                      # Python ints: exact
        if mode == "edge":
            want[:, o] = DATA[:, min(max(i, 0), n - 1)]
        elif 0 <= i < n:
            want[:, o] = DATA[:, i]
    got = run("Pad-12", DATA, np.array([0, begin], np.int64), np.array([0, end], np.int64), pad_mode=mode)
    np.testing.assert_array_equal(got, want)


# --- Gather-8: the spec's examples ----------------------------------------------------------------------
def test_gather_8_spec_examples():
    g = lambda d, i, axis, b: run("Gather-8", np.array(d), np.array(i), np.array(axis), batch_dims=b)  # noqa: E731
    np.testing.assert_array_equal(g([1, 2, 3, 4, 5], [0, 0, 4], 0, 0), [1, 1, 5])
    np.testing.assert_array_equal(g([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], [[0, 0, 4], [4, 0, 0]], 1, 1),
                                  [[1, 1, 5], [10, 6, 6]])
    np.testing.assert_array_equal(g([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], [[0, 0, 4], [4, 0, 0]], 1, -1),
                                  [[1, 1, 5], [10, 6, 6]])
    data = np.arange(1, 21).reshape(2, 2, 5)
    np.testing.assert_array_equal(g(data, [[[0, 0, 4], [4, 0, 0]], [[1, 2, 4], [4, 3, 2]]], 2, 2),
                                  [[[1, 1, 5], [10, 6, 6]], [[12, 13, 15], [20, 19, 18]]])
    data = np.arange(1, 41).reshape(2, 1, 5, 4)
    out = g(data, [[1, 2, 4], [4, 3, 2]], 2, 1)
    np.testing.assert_array_equal(out, [[[[5, 6, 7, 8], [9, 10, 11, 12], [17, 18, 19, 20]]],
                                        [[[37, 38, 39, 40], [33, 34, 35, 36], [29, 30, 31, 32]]]])
    np.testing.assert_array_equal(g([1, 2, 3, 4, 5], [0, -2, -1], 0, 0), [1, 4, 5])
    np.testing.assert_array_equal(g([1, 2, 3, 4, 5], [3, 10, -20], 0, 0), [4, 0, 0])


# --- Slice-8 / StridedSlice-1 -----------------------------------------------------------------------------
@pytest.mark.parametrize("start,stop,step,expected", [
    (1, 8, 1, [1, 2, 3, 4, 5, 6, 7]), (1, 8, 2, [1, 3, 5, 7]), (-100, 100, 1, list(range(10))),
    (9, -11, -1, list(range(9, -1, -1))), (9, 0, -1, list(range(9, 0, -1))), (9, -10, -1, list(range(9, 0, -1))),
    (9, -11, -2, [9, 7, 5, 3, 1]), (100, -100, -1, list(range(9, -1, -1))),
])
def test_slice_8_spec_examples(start, stop, step, expected):
    x = np.arange(10)
    np.testing.assert_array_equal(run("Slice-8", x, np.array([start]), np.array([stop]), np.array([step]),
                                      np.array([0])), expected)


def test_slice_clamps_a_backward_start_before_the_first_element():
    # "A value larger than the size of a dimension is silently clamped": start -6 of 4 elements is
    # element 0 (Python slicing would give nothing); OpenVINO's runtime and shape inference agree.
    x = np.arange(4)
    np.testing.assert_array_equal(run("Slice-8", x, np.array([-6]), np.array([-10]), np.array([-1])), [0])
    np.testing.assert_array_equal(run("StridedSlice-1", x, np.array([-6]), np.array([-10]), np.array([-1]),
                                      begin_mask=[0], end_mask=[0]), [0])


def test_strided_slice_masks():
    x = np.arange(24).reshape(2, 3, 4)
    out = run("StridedSlice-1", x, np.array([0, 1, 0, 0]), np.array([0, 2, 0, 3]), np.array([1, 1, 1, -1]),
              begin_mask=[1, 0, 0, 1], end_mask=[1, 0, 0, 0], new_axis_mask=[0, 0, 1, 0], shrink_axis_mask=[0, 1])
    np.testing.assert_array_equal(out, x[:, 1, None, :3:-1])
    out = run("StridedSlice-1", x, np.array([1, 0, 2]), np.array([2, 0, 4]), np.array([1, 1, 1]),
              begin_mask=[], end_mask=[], ellipsis_mask=[0, 1])
    np.testing.assert_array_equal(out, x[1:2, ..., 2:4])


def test_tile_of_a_scalar_with_no_repeats_is_the_scalar():
    # OpenVINO's reference crashes and its CPU plugin returns garbage here (not in the case table)
    assert run("Tile-1", np.float32(2.5), np.array([], np.int64)) == np.float32(2.5)


# --- Split / VariadicSplit: every output against OpenVINO --------------------------------------------------
def _ov_split(case):
    """OpenVINO's outputs and shapes for a Split/VariadicSplit case, built with its Python API (the
    generic runner compares the first output only, as the one-op IR has one Result per schema port)."""
    data = case.inputs[0]
    if element_type_of(data) == "string":
        data = np.unique(data, return_inverse=True)[1].reshape(data.shape).astype(np.int32)
    p = ops.parameter(list(data.shape), getattr(ov.Type, element_type_of(data)))
    axis = ops.constant(case.inputs[1])
    node = ops.split(p, axis, case.attrs["num_splits"]) if case.op == "Split-1" else \
        ops.variadic_split(p, axis, ops.constant(case.inputs[2]))
    model = ov.Model(node.outputs(), [p])
    compiled = ov.Core().compile_model(model, "CPU", CPU_CONFIG)
    request = compiled.create_infer_request()
    request.set_input_tensor(0, to_ov(data))
    request.infer()
    return data, [from_ov(request.get_output_tensor(i)) for i in range(len(compiled.outputs))]


SPLIT_CASES = [c for c in table.cases() if c.op in ("Split-1", "VariadicSplit-1") and c.error is None
               and element_type_of(c.inputs[0]) not in ("u1", "nf4", "u4", "i4")]


@pytest.mark.parametrize("case", SPLIT_CASES[::3], ids=lambda c: c.name)
def test_split_outputs_match_openvino(case):
    data, theirs = _ov_split(case)
    inputs = (data,) + tuple(case.inputs[1:])
    kernel = KERNELS[case.op]
    ours = kernel(*inputs, **opref.get_schema(case.op).bind_attrs(case.attrs))
    assert len(ours) == len(theirs)
    for o, t in zip(ours, theirs):
        np.testing.assert_array_equal(o, t)


SPLIT_SHAPES = [c for c in table.shape_cases() if c.op in ("Split-1", "VariadicSplit-1")]


@pytest.mark.parametrize("case", SPLIT_SHAPES[::2], ids=lambda c: c.name)
def test_split_shapes_match_openvino(case):
    def source(i):
        x = case.inputs[i]
        if x.value is not None:
            return ops.constant(np.asarray(x.value)), None
        shape = ov.PartialShape.dynamic() if not x.shape.rank_is_static else \
            ov.PartialShape([ov.Dimension(d.lo, -1 if d.hi is None else d.hi) for d in x.shape])
        p = ops.parameter(shape, getattr(ov.Type, x.element_type))
        return p, p
    outs = [source(i) for i in range(len(case.inputs))]
    try:
        node = ops.split(outs[0][0], outs[1][0], case.attrs["num_splits"]) if case.op == "Split-1" else \
            ops.variadic_split(outs[0][0], outs[1][0], outs[2][0])
        theirs = [str(o.get_partial_shape()).replace(" ", "") for o in node.outputs()]
    except RuntimeError:
        theirs = None
    try:
        ours = [str(i.shape) for i in opref.infer_op(case.op, case.inputs, case.attrs)]
    except opref.OprefError:
        ours = None
    assert ours == theirs


# --- constant folding: one home, the kernel ------------------------------------------------------------
def _every_input_known():
    from opref.conformance.cases import all_cases
    return [c for c in all_cases() if c.error is None and c.inputs and
            all(isinstance(x, np.ndarray) for x in c.inputs)]


def test_no_shape_rule_folds_values():
    """Values are folded in one place, by running the kernel (runtime/infer.py's infer_call, for whole
    graphs and infer_op alike): given every input's value, no shape rule gives an output value."""
    cases = _every_input_known()
    assert len(cases) > 5000
    folding = set()
    for case in cases:
        schema = opref.get_schema(case.op)
        try:
            infos = schema.infer([TensorInfo.of_array(x) for x in case.inputs], case.attrs)
        except opref.OprefError:
            continue           # (a case whose array dtype is not its element type: u1, nf4)
        if any(i.value is not None for i in infos):
            folding.add(case.op)
    assert not folding, f"shape rules that fold values: {sorted(folding)}"


def test_shape_subgraph_folds():
    """ShapeOf -> Gather -> Concat -> the value of a Reshape target, with the batch dim taken from a
    known shape: each step keeps the value."""
    shape = np.array([2, 3, 8, 8], np.int64)
    hw = opref.infer_op("Gather-8", [shape, np.array([2, 3]), np.array(0)])[0]
    assert hw.value.tolist() == [8, 8]
    target = opref.infer_op("Concat-1", [np.array([-1], np.int64), hw], {"axis": 0})[0]
    assert target.value.tolist() == [-1, 8, 8]
    part = opref.infer_op("StridedSlice-1", [shape, np.array([1]), np.array([0])],
                          {"begin_mask": [0], "end_mask": [1]})[0]
    assert part.value.tolist() == [3, 8, 8]
    assert opref.infer_op("Slice-8", [shape, np.array([-1]), np.array([-5]), np.array([-2])])[0].value.tolist() == [8, 3]


def test_roll_scalar_shift_applies_to_every_axis():
    # the spec: a scalar shift is used for every axis; repeated axes add their shifts up.
    # (OpenVINO's CPU plugin rejects a scalar shift with several axes, and has no reference Roll)
    x = np.arange(12).reshape(3, 4)
    np.testing.assert_array_equal(run("Roll-7", x, np.array(1), np.array([0, 1])),
                                  [[11, 8, 9, 10], [3, 0, 1, 2], [7, 4, 5, 6]])
    np.testing.assert_array_equal(run("Roll-7", x, np.array([1, 2]), np.array([1, -1])),
                                  [[1, 2, 3, 0], [5, 6, 7, 4], [9, 10, 11, 8]])


# --- ExtractImagePatches-3: the spec's examples -----------------------------------------------------------
IMAGE = np.arange(1, 101).reshape(1, 1, 10, 10)


@pytest.mark.parametrize("image,attrs,expected", [
    (IMAGE, dict(sizes=[3, 3], strides=[5, 5], rates=[1, 1], auto_pad="valid"),
     [[1, 6, 51, 56], [2, 7, 52, 57], [3, 8, 53, 58], [11, 16, 61, 66], [12, 17, 62, 67], [13, 18, 63, 68],
      [21, 26, 71, 76], [22, 27, 72, 77], [23, 28, 73, 78]]),
    (IMAGE, dict(sizes=[4, 4], strides=[8, 8], rates=[1, 1], auto_pad="valid"),
     [[1], [2], [3], [4], [11], [12], [13], [14], [21], [22], [23], [24], [31], [32], [33], [34]]),
    (IMAGE, dict(sizes=[4, 4], strides=[9, 9], rates=[1, 1], auto_pad="same_upper"),
     [[0, 0, 0, 89], [0, 0, 81, 90], [0, 0, 82, 0], [0, 0, 83, 0], [0, 9, 0, 99], [1, 10, 91, 100], [2, 0, 92, 0],
      [3, 0, 93, 0], [0, 19, 0, 0], [11, 20, 0, 0], [12, 0, 0, 0], [13, 0, 0, 0], [0, 29, 0, 0], [21, 30, 0, 0],
      [22, 0, 0, 0], [23, 0, 0, 0]]),
    (IMAGE, dict(sizes=[3, 3], strides=[5, 5], rates=[2, 2], auto_pad="valid"),
     [[1, 6, 51, 56], [3, 8, 53, 58], [5, 10, 55, 60], [21, 26, 71, 76], [23, 28, 73, 78], [25, 30, 75, 80],
      [41, 46, 91, 96], [43, 48, 93, 98], [45, 50, 95, 100]]),
    (np.arange(1, 51).reshape(1, 2, 5, 5), dict(sizes=[2, 2], strides=[3, 3], rates=[1, 1], auto_pad="valid"),
     [[1, 4, 16, 19], [26, 29, 41, 44], [2, 5, 17, 20], [27, 30, 42, 45], [6, 9, 21, 24], [31, 34, 46, 49],
      [7, 10, 22, 25], [32, 35, 47, 50]]),
])
def test_extract_image_patches_spec_examples(image, attrs, expected):
    out = run("ExtractImagePatches-3", image, **attrs)
    np.testing.assert_array_equal(out.reshape(len(expected), -1), expected)


def test_scatter_elements_update_12_spec_examples():
    d = np.array([2, 3, 4, 6], np.float32)
    u = np.array([10, 20, 30, 40, 70, 60], np.float32)
    np.testing.assert_array_equal(run("ScatterElementsUpdate-12", d, np.array([1, 0, 0, -2, -1, 2]), u, np.array([0]),
                                      reduction="sum"), [52, 13, 104, 76])
    np.testing.assert_array_equal(run("ScatterElementsUpdate-12", d, np.array([1, 0, 0, 2, 3, 2]), u, np.array([0]),
                                      reduction="sum", use_init_val=False), [50, 10, 100, 70])
    d = np.full((3, 4), 2, np.int32)
    out = run("ScatterElementsUpdate-12", d, np.array([[1, 1], [0, 3]]), np.array([[11, 12], [13, 14]], np.int32),
              np.array([1]), reduction="prod")
    np.testing.assert_array_equal(out, [[2, 264, 2, 2], [26, 2, 2, 28], [2, 2, 2, 2]])
    # integer means round down: (2 + 13 - 20) / 3 = -1.67 -> -2; without the data (13 - 20) / 2 = -3.5 -> -4
    out = run("ScatterElementsUpdate-12", d, np.array([[0, 0]]), np.array([[13, -20]], np.int32), np.array([1]),
              reduction="mean")
    assert out[0, 0] == -2
    out = run("ScatterElementsUpdate-12", d, np.array([[0, 0]]), np.array([[13, -20]], np.int32), np.array([1]),
              reduction="mean", use_init_val=False)
    assert out[0, 0] == -4


def test_gather_tree_backtracks_and_stops_at_end_token():
    # beam 0 of the last step descends from beam 1, which descends from beam 0; beam 1 ends at step 1
    step = np.array([[[1, 2]], [[3, 9]], [[5, 6]]], np.int32)       # [T=3, B=1, K=2]
    parent = np.array([[[0, 0]], [[0, 0]], [[1, 1]]], np.int32)
    out = run("GatherTree-1", step, parent, np.array([3], np.int32), np.int32(9))
    # beam 0: t2 -> 5 (parent 1), t1 -> step[1][1] = 9 (parent 0), t0 -> 1; after the 9, end_token
    np.testing.assert_array_equal(out[:, 0, 0], [1, 9, 9])
    np.testing.assert_array_equal(out[:, 0, 1], [1, 9, 9])
    out = run("GatherTree-1", step, parent, np.array([2], np.int32), np.int32(0))
    np.testing.assert_array_equal(out[:, 0, :], [[1, 1], [3, 9], [0, 0]])
