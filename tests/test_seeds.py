"""The worked examples of the five seed documents (/work/shared/seeds/), reproduced literally.

Every input and expected value below is typed from the document text, not computed by opref. Where
the seeds' README lists an erratum, the test checks that opref rejects the example as written with a
clear message. Each tf-domain example is also run through its OpenVINO counterpart named in the
README (SpaceToBatch-2, BatchToSpace-2, DepthToSpace-1/SpaceToDepth-1, GroupConvolution-1).

000/001: the document's values were flattened by a text extraction; the shapes stated in each example
are authoritative, so each literal is reshaped to its stated shape (its element count must match).
"""
from __future__ import annotations

import numpy as np
import pytest

import opref

I32 = np.int32


def _arr(values, shape, dtype=I32):
    a = np.array(values, dtype=dtype)
    assert a.size == int(np.prod(shape)), (a.shape, shape)
    return a.reshape(shape)


def _eq(actual, expected):
    np.testing.assert_array_equal(actual, expected, strict=True)


def _ov_pairs(pairs):
    """TF [M, 2] paddings/crops on NHWC-style data -> OpenVINO (begin, end) over all 4 dims."""
    pairs = np.asarray(pairs)
    return (np.array([0, *pairs[:, 0], 0], np.int64), np.array([0, *pairs[:, 1], 0], np.int64))


OV_BLOCK_2x2 = np.array([1, 2, 2, 1], np.int64)     # TF block_shape [2, 2] on [N, H, W, C]

# --- 000 SpaceToBatchND --------------------------------------------------------------------------------
# (example, input shape, x, paddings, output shape, output value) -- block_shape = [2, 2] in all four.
SPACE_TO_BATCH = [
    ("000-ex1", [1, 2, 2, 1], [[[[1], [2]], [[3], [4]]]], [[0, 0], [0, 0]],
     [4, 1, 1, 1], [[[[1]]], [[[2]]], [[[3]]], [[[4]]]]),
    ("000-ex2", [1, 2, 2, 3], [[[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]], [[0, 0], [0, 0]],
     [4, 1, 1, 3], [[[[1, 2, 3]]], [[[4, 5, 6]]], [[[7, 8, 9]]], [[[10, 11, 12]]]]),
    ("000-ex3", [1, 4, 4, 1],
     [[[[1], [2], [3], [4]],
       [[5], [6], [7], [8]],
       [[9], [10], [11], [12]],
       [[13], [14], [15], [16]]]], [[0, 0], [0, 0]],
     [4, 2, 2, 1],
     [[[[1], [3]], [[9], [11]]],
      [[[2], [4]], [[10], [12]]],
      [[[5], [7]], [[13], [15]]],
      [[[6], [8]], [[14], [16]]]]),
    ("000-ex4", [2, 2, 4, 1],
     [[[[1], [2], [3], [4]],
       [[5], [6], [7], [8]]],
      [[[9], [10], [11], [12]],
       [[13], [14], [15], [16]]]], [[0, 0], [2, 0]],
     [8, 1, 3, 1],
     [[[[0], [1], [3]]], [[[0], [9], [11]]],
      [[[0], [2], [4]]], [[[0], [10], [12]]],
      [[[0], [5], [7]]], [[[0], [13], [15]]],
      [[[0], [6], [8]]], [[[0], [14], [16]]]]),
]


@pytest.mark.parametrize("name, in_shape, x, paddings, out_shape, out",
                         SPACE_TO_BATCH, ids=[c[0] for c in SPACE_TO_BATCH])
def test_space_to_batch_nd_seed_examples(name, in_shape, x, paddings, out_shape, out):
    x, expected = _arr(x, in_shape), _arr(out, out_shape)
    block, pads = np.array([2, 2], I32), np.array(paddings, I32)

    (y,) = opref.run_op("tf.SpaceToBatchND", [x, block, pads])
    assert list(y.shape) == out_shape
    _eq(y, expected)
    (info,) = opref.infer_op("tf.SpaceToBatchND", [opref.TensorInfo("i32", in_shape), block, pads])
    assert str(info.shape) == "[" + ",".join(map(str, out_shape)) + "]"

    # OpenVINO SpaceToBatch-2: block_shape / pads over all dims, block_shape[0] == 1.
    begin, end = _ov_pairs(paddings)
    (y_ov,) = opref.run_op("SpaceToBatch-2", [x, OV_BLOCK_2x2, begin, end])
    _eq(y_ov, expected)


# --- 001 BatchToSpaceND --------------------------------------------------------------------------------
# (example, input shape, x, crops, output shape, output value) -- block_shape = [2, 2] in all four.
# Ex. 2's input and ex. 3's output lost a bracket level in the extraction: the stated shape rules.
BATCH_TO_SPACE = [
    ("001-ex1", [4, 1, 1, 1], [[[[1]]], [[[2]]], [[[3]]], [[[4]]]], [[0, 0], [0, 0]],
     [1, 2, 2, 1], [[[[1], [2]], [[3], [4]]]]),
    ("001-ex2", [4, 1, 1, 3], [[[1, 2, 3]], [[4, 5, 6]], [[7, 8, 9]], [[10, 11, 12]]], [[0, 0], [0, 0]],
     [1, 2, 2, 3], [[[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]]),
    ("001-ex3", [4, 2, 2, 1],
     [[[[1], [3]], [[9], [11]]], [[[2], [4]], [[10], [12]]], [[[5], [7]],
      [[13], [15]]], [[[6], [8]], [[14], [16]]]], [[0, 0], [0, 0]],
     [1, 4, 4, 1],
     [[[1], [2], [3], [4]], [[5], [6], [7], [8]], [[9], [10], [11], [12]],
      [[13], [14], [15], [16]]]),
    ("001-ex4", [8, 1, 3, 1],
     [[[[0], [1], [3]]], [[[0], [9], [11]]], [[[0], [2], [4]]], [[[0],
      [10], [12]]], [[[0], [5], [7]]], [[[0], [13], [15]]], [[[0], [6],
      [8]]], [[[0], [14], [16]]]], [[0, 0], [2, 0]],
     [2, 2, 4, 1],
     [[[[1], [2], [3], [4]], [[5], [6], [7], [8]]], [[[9], [10], [11], [12]],
      [[13], [14], [15], [16]]]]),
]


@pytest.mark.parametrize("name, in_shape, x, crops, out_shape, out",
                         BATCH_TO_SPACE, ids=[c[0] for c in BATCH_TO_SPACE])
def test_batch_to_space_nd_seed_examples(name, in_shape, x, crops, out_shape, out):
    x, expected = _arr(x, in_shape), _arr(out, out_shape)
    block, crop = np.array([2, 2], I32), np.array(crops, I32)

    (y,) = opref.run_op("tf.BatchToSpaceND", [x, block, crop])
    assert list(y.shape) == out_shape
    _eq(y, expected)
    (info,) = opref.infer_op("tf.BatchToSpaceND", [opref.TensorInfo("i32", in_shape), block, crop])
    assert str(info.shape) == "[" + ",".join(map(str, out_shape)) + "]"

    begin, end = _ov_pairs(crops)
    (y_ov,) = opref.run_op("BatchToSpace-2", [x, OV_BLOCK_2x2, begin, end])
    _eq(y_ov, expected)


# --- 002 DepthwiseConv2dNative (no numeric example: hand-computed from its formula) -------------------
# output[b, i, j, k*M + q] = sum_{di,dj} input[b, s*i + di, s*j + dj, k] * filter[di, dj, k, q]

def _group_conv_filter(f_hwcm):
    """[H, W, C, M] -> GroupConvolution-1's [G=C, M, 1, H, W]."""
    return np.ascontiguousarray(np.transpose(f_hwcm, (2, 3, 0, 1))[:, :, None])


def _tf_depthwise(x_nhwc, f, stride, padding):
    import tensorflow as tf
    return tf.nn.depthwise_conv2d(x_nhwc, f, strides=[1, stride, stride, 1], padding=padding).numpy()


def test_depthwise_conv2d_native_nhwc_valid_by_hand():
    # input [1, 3, 3, 2]: channel 0 = 1..9 row-major, channel 1 = all 2; channel_multiplier 2.
    c0 = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]], np.float32)
    x = np.stack([c0, np.full((3, 3), 2, np.float32)], axis=-1)[None]
    f = np.zeros((2, 2, 2, 2), np.float32)                  # [H, W, in_channels, multiplier]
    f[:, :, 0, 0] = [[1, 1], [1, 1]]       # 2x2 window sums of channel 0
    f[:, :, 0, 1] = [[1, 0], [0, -1]]      # x[i, j] - x[i+1, j+1] = -4 everywhere
    f[:, :, 1, 0] = [[1, 2], [3, 4]]       # 2 * (1+2+3+4) = 20
    f[:, :, 1, 1] = [[0, 0], [0, 1]]       # 2
    # channels k*M+q: [c0q0, c0q1, c1q0, c1q1]; window sums of c0: 1+2+4+5, 2+3+5+6, 4+5+7+8, 5+6+8+9
    expected = np.array([[[[12, -4, 20, 2], [16, -4, 20, 2]],
                          [[24, -4, 20, 2], [28, -4, 20, 2]]]], np.float32)
    attrs = {"strides": [1, 1, 1, 1], "padding": "VALID", "data_format": "NHWC", "dilations": [1, 1, 1, 1]}

    (y,) = opref.run_op("tf.DepthwiseConv2dNative", [x, f], attrs)
    _eq(y, expected)
    (info,) = opref.infer_op("tf.DepthwiseConv2dNative", [opref.TensorInfo("f32", [1, 3, 3, 2]),
                                                          opref.TensorInfo("f32", [2, 2, 2, 2])], attrs)
    assert str(info.shape) == "[1,2,2,4]"
    _eq(_tf_depthwise(x, f, 1, "VALID"), expected)

    (y_ov,) = opref.run_op("GroupConvolution-1", [np.transpose(x, (0, 3, 1, 2)), _group_conv_filter(f)],
                           {"strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0],
                            "dilations": [1, 1], "auto_pad": "explicit"})
    _eq(np.transpose(y_ov, (0, 2, 3, 1)), expected)


def test_depthwise_conv2d_native_nchw_same_stride2_by_hand():
    # input NCHW [1, 2, 4, 4]: channel 0 = 1..16 row-major, channel 1 = ones; 3x3 filters of ones, M = 1.
    # SAME, stride 2: out = ceil(4/2) = 2; total pad = (2-1)*2 + 3 - 4 = 1 -> 0 before, 1 after.
    c0 = np.array([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]], np.float32)
    x = np.stack([c0, np.ones((4, 4), np.float32)])[None]
    f = np.ones((3, 3, 2, 1), np.float32)
    expected = np.array([[[[1 + 2 + 3 + 5 + 6 + 7 + 9 + 10 + 11, 3 + 4 + 7 + 8 + 11 + 12],     # 54, 45
                           [9 + 10 + 11 + 13 + 14 + 15, 11 + 12 + 15 + 16]],                 # 72, 54
                          [[9, 6], [6, 4]]]], np.float32)                                     # taps on data
    assert expected[0, 0].tolist() == [[54, 45], [72, 54]]
    attrs = {"strides": [1, 1, 2, 2], "padding": "SAME", "data_format": "NCHW", "dilations": [1, 1, 1, 1]}

    (y,) = opref.run_op("tf.DepthwiseConv2dNative", [x, f], attrs)
    _eq(y, expected)
    (info,) = opref.infer_op("tf.DepthwiseConv2dNative", [opref.TensorInfo("f32", [1, 2, 4, 4]),
                                                          opref.TensorInfo("f32", [3, 3, 2, 1])], attrs)
    assert str(info.shape) == "[1,2,2,2]"
    # TensorFlow's CPU kernel takes NHWC: transpose around it.
    _eq(np.transpose(_tf_depthwise(np.transpose(x, (0, 2, 3, 1)), f, 2, "SAME"), (0, 3, 1, 2)), expected)

    ov_attrs = {"strides": [2, 2], "dilations": [1, 1], "pads_begin": [0, 0], "pads_end": [1, 1],
                "auto_pad": "explicit"}
    (y_ov,) = opref.run_op("GroupConvolution-1", [x, _group_conv_filter(f)], ov_attrs)
    _eq(y_ov, expected)
    (y_ov,) = opref.run_op("GroupConvolution-1", [x, _group_conv_filter(f)], {**ov_attrs, "auto_pad": "same_upper"})
    _eq(y_ov, expected)


def test_depthwise_conv2d_native_rejects_depth_stride():
    # "Must have strides[0] = strides[3] = 1" (NHWC)
    x, f = np.ones((1, 3, 3, 2), np.float32), np.ones((2, 2, 2, 1), np.float32)
    with pytest.raises(opref.OprefError, match="strides in the batch and depth dimensions must be 1"):
        opref.run_op("tf.DepthwiseConv2dNative", [x, f], {"strides": [1, 1, 1, 2], "padding": "VALID"})


# --- 003 Col2Im-15 (XML examples, C = 3; shapes from the XML, values hand-derived from all-ones data) ---
def _coverage(size, k, s, d, pb, pe):
    """How many blocks cover each pixel along one axis (hand formula, for the full-array asserts)."""
    n = (size + pb + pe - d * (k - 1) - 1) // s + 1
    cov = np.zeros(size, I32)
    for b in range(n):
        for t in range(k):
            p = b * s + t * d - pb
            if 0 <= p < size:
                cov[p] += 1
    return cov


def test_col2im_example1_default_batched():
    # data [3, 12, 225] I32, output_size [16, 16], kernel_size [2, 2] -> [3, 3, 16, 16]
    size, kernel = np.array([16, 16], I32), np.array([2, 2], I32)
    (info,) = opref.infer_op("Col2Im-15", [opref.TensorInfo("i32", [3, 12, 225]), size, kernel])
    assert str(info.shape) == "[3,3,16,16]" and info.element_type == "i32"
    (y,) = opref.run_op("Col2Im-15", [np.ones((3, 12, 225), I32), size, kernel])
    assert y.shape == (3, 3, 16, 16) and y.dtype == I32
    # 2x2 kernel, stride 1: corners are in 1 block, edges in 2, the interior in 4.
    assert y[0, 0, 0, 0] == y[2, 2, 15, 15] == y[1, 1, 0, 15] == y[1, 0, 15, 0] == 1
    assert y[0, 0, 0, 7] == y[1, 2, 9, 0] == y[2, 1, 15, 3] == 2
    assert y[0, 0, 1, 1] == y[2, 2, 8, 13] == y[1, 0, 14, 14] == 4
    axis = np.array([1] + [2] * 14 + [1], I32)
    _eq(y, np.broadcast_to(np.outer(axis, axis), (3, 3, 16, 16)))
    _eq(axis, _coverage(16, 2, 1, 1, 0, 0))


def test_col2im_example4_default_unbatched():
    # data [12, 225] -> [3, 16, 16]
    size, kernel = np.array([16, 16], I32), np.array([2, 2], I32)
    (info,) = opref.infer_op("Col2Im-15", [opref.TensorInfo("i32", [12, 225]), size, kernel])
    assert str(info.shape) == "[3,16,16]"
    (y,) = opref.run_op("Col2Im-15", [np.ones((12, 225), I32), size, kernel])
    assert y.shape == (3, 16, 16)
    assert y[0, 0, 0] == 1 and y[1, 0, 5] == 2 and y[2, 7, 7] == 4
    axis = np.array([1] + [2] * 14 + [1], I32)
    _eq(y, np.broadcast_to(np.outer(axis, axis), (3, 16, 16)))


EX2_ATTRS = {"dilations": [2, 2], "pads_begin": [1, 1], "pads_end": [1, 1], "strides": [2, 2]}
EX3_ATTRS = {"dilations": [2, 2], "pads_begin": [3, 3], "pads_end": [3, 3]}


def test_col2im_example2_as_written_is_rejected():
    # Erratum: L = 7*7 = 49, not the example's 25.
    size, kernel = np.array([16, 16], I32), np.array([3, 3], I32)
    msg = r"expected L=49 blocks \(7x7\) in the last data dimension, got 25"
    with pytest.raises(opref.OprefError, match=msg):
        opref.infer_op("Col2Im-15", [opref.TensorInfo("i32", [1, 27, 25]), size, kernel], EX2_ATTRS)
    with pytest.raises(opref.OprefError, match=msg):
        opref.run_op("Col2Im-15", [np.ones((1, 27, 25), I32), size, kernel], EX2_ATTRS)


def test_col2im_example2_corrected():
    size, kernel = np.array([16, 16], I32), np.array([3, 3], I32)
    (info,) = opref.infer_op("Col2Im-15", [opref.TensorInfo("i32", [1, 27, 49]), size, kernel], EX2_ATTRS)
    assert str(info.shape) == "[1,3,16,16]"
    (y,) = opref.run_op("Col2Im-15", [np.ones((1, 27, 49), I32), size, kernel], EX2_ATTRS)
    # Padded axis 0..17 (pixel = p - 1); blocks start at p = 0, 2, ..., 12 with taps +0, +2, +4: only odd
    # pixels are hit; pixel 1 by 2 blocks, 3..11 by 3, 13 by 2, 15 by 1.
    axis = np.array([0, 2, 0, 3, 0, 3, 0, 3, 0, 3, 0, 3, 0, 2, 0, 1], I32)
    _eq(axis, _coverage(16, 3, 2, 2, 1, 1))
    _eq(y, np.broadcast_to(np.outer(axis, axis), (1, 3, 16, 16)))
    assert y[0, 0, 0, 0] == 0 and y[0, 1, 1, 1] == 4 and y[0, 2, 5, 7] == 9 and y[0, 0, 15, 15] == 1


def test_col2im_example3_as_written_is_rejected():
    # Erratum: with default strides L = 36*36 = 1296, not 324.
    size, kernel = np.array([32, 32], I32), np.array([2, 2], I32)
    msg = r"expected L=1296 blocks \(36x36\) in the last data dimension, got 324"
    with pytest.raises(opref.OprefError, match=msg):
        opref.infer_op("Col2Im-15", [opref.TensorInfo("i32", [12, 12, 324]), size, kernel], EX3_ATTRS)
    with pytest.raises(opref.OprefError, match=msg):
        opref.run_op("Col2Im-15", [np.ones((12, 12, 324), I32), size, kernel], EX3_ATTRS)
    # 324 = 18*18 is what strides 2,2 would give.
    (info,) = opref.infer_op("Col2Im-15", [opref.TensorInfo("i32", [12, 12, 324]), size, kernel],
                             {**EX3_ATTRS, "strides": [2, 2]})
    assert str(info.shape) == "[12,3,32,32]"


def test_col2im_example3_corrected():
    size, kernel = np.array([32, 32], I32), np.array([2, 2], I32)
    (info,) = opref.infer_op("Col2Im-15", [opref.TensorInfo("i32", [12, 12, 1296]), size, kernel], EX3_ATTRS)
    assert str(info.shape) == "[12,3,32,32]"
    (y,) = opref.run_op("Col2Im-15", [np.ones((12, 12, 1296), I32), size, kernel], EX3_ATTRS)
    # pads 3 >= dilation 2: every pixel p gets the taps of blocks p+3 and p+1 (padded) -> 2 per axis, 4 in 2-D
    assert y.shape == (12, 3, 32, 32)
    _eq(y, np.full((12, 3, 32, 32), 4, I32))


# The examples' XML with the broken <dim>27/dim> tag. The `<layer ... type="Col2Im" ... >` placeholder
# of the document is made concrete so that the broken tag is the only defect.
EX2_XML = """<net><layers>
 <layer id="0" name="col2im" type="Col2Im" version="opset15">
     <data dilations="2,2" pads_begin="1,1" pads_end="1,1" strides="2,2"/>
     <input>
         <port id="0" precision="I32">
             <dim>1</dim>     <!-- batch_axis -->
             <dim>27/dim>     <!-- C * Product(kernel_size) -->
             <dim>25</dim>    <!-- L -->
         </port>
     </input>
 </layer>
</layers></net>"""


def test_col2im_broken_dim_tag_is_malformed_xml_with_line():
    from lxml import etree
    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    with pytest.raises(etree.XMLSyntaxError) as err:
        etree.fromstring(EX2_XML.encode(), parser)
    broken_line = EX2_XML.splitlines().index("             <dim>27/dim>     <!-- C * Product(kernel_size) -->") + 1
    assert broken_line == 7
    assert err.value.lineno is not None and err.value.lineno >= broken_line
    assert f"dim line {broken_line}" in str(err.value) and "line" in str(err.value)
    # control: with the tag repaired the same text parses
    etree.fromstring(EX2_XML.replace("<dim>27/dim>", "<dim>27</dim>").encode(), parser)


# --- 004 DepthToSpace ------------------------------------------------------------------------------------
DEPTH_TO_SPACE = [
    ("004-ex1", [1, 1, 1, 4], [[[[1, 2, 3, 4]]]], [1, 2, 2, 1], [[[[1], [2]], [[3], [4]]]]),
    ("004-ex2", [1, 1, 1, 12], [[[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]]]],
     [1, 2, 2, 3], [[[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]]),
    ("004-ex3", [1, 2, 2, 4],
     [[[[1, 2, 3, 4],
        [5, 6, 7, 8]],
       [[9, 10, 11, 12],
        [13, 14, 15, 16]]]],
     [1, 4, 4, 1],
     [[[[1], [2], [5], [6]],
       [[3], [4], [7], [8]],
       [[9], [10], [13], [14]],
       [[11], [12], [15], [16]]]]),
]


@pytest.mark.parametrize("name, in_shape, x, out_shape, out", DEPTH_TO_SPACE, ids=[c[0] for c in DEPTH_TO_SPACE])
def test_depth_to_space_seed_examples(name, in_shape, x, out_shape, out):
    x, expected = _arr(x, in_shape), _arr(out, out_shape)
    (y,) = opref.run_op("tf.DepthToSpace", [x], {"block_size": 2, "data_format": "NHWC"})
    assert list(y.shape) == out_shape
    _eq(y, expected)
    (y,) = opref.run_op("tf.DepthToSpace", [x], {"block_size": 2})          # NHWC is the default
    _eq(y, expected)
    (info,) = opref.infer_op("tf.DepthToSpace", [opref.TensorInfo("i32", in_shape)], {"block_size": 2})
    assert str(info.shape) == "[" + ",".join(map(str, out_shape)) + "]"

    # NCHW, and OpenVINO DepthToSpace-1 blocks_first on NCHW, and its inverse SpaceToDepth-1
    x_nchw, expected_nchw = np.transpose(x, (0, 3, 1, 2)), np.transpose(expected, (0, 3, 1, 2))
    (y,) = opref.run_op("tf.DepthToSpace", [x_nchw], {"block_size": 2, "data_format": "NCHW"})
    _eq(y, expected_nchw)
    (y_ov,) = opref.run_op("DepthToSpace-1", [x_nchw], {"block_size": 2, "mode": "blocks_first"})
    _eq(y_ov, expected_nchw)
    (back,) = opref.run_op("SpaceToDepth-1", [expected_nchw], {"block_size": 2, "mode": "blocks_first"})
    _eq(back, x_nchw)


def test_depth_to_space_output_width_is_input_width_times_block():
    # Erratum: width is input_width * block_size (3*2 = 6), not input_depth * block_size (4*2 = 8).
    (info,) = opref.infer_op("tf.DepthToSpace", [opref.TensorInfo("f32", [1, 1, 3, 4])], {"block_size": 2})
    assert str(info.shape) == "[1,2,6,1]"


def test_depth_to_space_nchw_vect_c_int8_by_hand():
    # NHWC equivalent: input [1, 1, 2, 16] with value(c, w=0) = c+1, value(c, w=1) = -(c+1).
    # NCHW_VECT_C [N, C/4, H, W, 4] holds channel c at [c//4, h, w, c%4].
    x = np.array([[[[[1, 2, 3, 4], [-1, -2, -3, -4]]],           # channels 0..3
                   [[[5, 6, 7, 8], [-5, -6, -7, -8]]],           # channels 4..7
                   [[[9, 10, 11, 12], [-9, -10, -11, -12]]],     # channels 8..11
                   [[[13, 14, 15, 16], [-13, -14, -15, -16]]]]], np.int8)   # channels 12..15
    assert x.shape == (1, 4, 1, 2, 4)
    # block 2: out[by, 2*w + bx, oc] = value((2*by + bx)*4 + oc, w); output C = 4 -> [1, 1, 2, 4, 4]
    expected = np.array([[[[[1, 2, 3, 4], [5, 6, 7, 8], [-1, -2, -3, -4], [-5, -6, -7, -8]],
                           [[9, 10, 11, 12], [13, 14, 15, 16], [-9, -10, -11, -12], [-13, -14, -15, -16]]]]],
                        np.int8)
    assert expected.shape == (1, 1, 2, 4, 4)
    (y,) = opref.run_op("tf.DepthToSpace", [x], {"block_size": 2, "data_format": "NCHW_VECT_C"})
    _eq(y, expected)
    (info,) = opref.infer_op("tf.DepthToSpace", [opref.TensorInfo("i8", [1, 4, 1, 2, 4])],
                             {"block_size": 2, "data_format": "NCHW_VECT_C"})
    assert str(info.shape) == "[1,1,2,4,4]"
    # Same numbers through NHWC
    x_nhwc = np.concatenate([np.arange(1, 17), -np.arange(1, 17)]).astype(np.int8).reshape(1, 1, 2, 16)
    (y_nhwc,) = opref.run_op("tf.DepthToSpace", [x_nhwc], {"block_size": 2})
    _eq(y_nhwc, expected[:, 0])
