"""Hand-checkable cases for GridSample-9 and the colour conversions (NV12/I420 to RGB/BGR, RGB/BGR to
NV12): values worked out by hand from the specs, and what the case tables cannot show."""
from __future__ import annotations

import numpy as np
import pytest

import opref
from opref import TensorInfo


def gs(data, grid, **attrs):
    return opref.run_op("GridSample-9", [np.asarray(data, np.float32), np.asarray(grid, np.float32)], attrs)[0]


def point(x, y):
    """A grid of one sampling point (x, y)."""
    return np.array([[[[x, y]]]], np.float32)


IMG = np.arange(1, 13, dtype=np.float32).reshape(1, 1, 3, 4)   # rows 1..4, 5..8, 9..12


# --- GridSample-9 ----------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["bilinear", "bicubic", "nearest"])
def test_identity_grid_with_align_corners_returns_the_image(mode):
    ys, xs = np.meshgrid(np.linspace(-1, 1, 3), np.linspace(-1, 1, 4), indexing="ij")
    grid = np.stack([xs, ys], -1)[None]
    np.testing.assert_allclose(gs(IMG, grid, mode=mode, align_corners=True, padding_mode="border"), IMG,
                               rtol=0, atol=1e-5)


def test_pixel_centres_without_align_corners():
    # W=4: x = -1 + (2k + 1) / 4 is the centre of pixel k; H=3: y = -1 + (2j + 1) / 3
    assert gs(IMG, point(-1 + 3 / 4, -1 + 3 / 3))[0, 0, 0, 0] == pytest.approx(6.0)
    assert gs(IMG, point(-1 + 7 / 4, -1 + 5 / 3), mode="nearest")[0, 0, 0, 0] == 12.0


def test_corner_reads_a_quarter_of_the_pixel_with_zero_padding():
    # (-1, -1) without align_corners is the outer corner of pixel (0, 0): denormalized (-0.5, -0.5),
    # four taps of weight 1/4, three of them outside (zeros)
    assert gs(IMG, point(-1, -1))[0, 0, 0, 0] == pytest.approx(0.25)
    assert gs(IMG, point(-1, -1), padding_mode="border")[0, 0, 0, 0] == pytest.approx(1.0)
    # with align_corners it is the centre of pixel (0, 0)
    assert gs(IMG, point(-1, -1), align_corners=True)[0, 0, 0, 0] == pytest.approx(1.0)


def test_bilinear_midpoint():
    # align_corners: x = -1 + 2 * 1.5 / 3 is halfway between columns 1 and 2, y = 0 is row 1
    assert gs(IMG, point(0.0, 0.0), align_corners=True)[0, 0, 0, 0] == pytest.approx(6.5)


@pytest.mark.parametrize("xd, expected", [(0.5, 1.0), (1.5, 3.0), (2.5, 3.0), (-0.5, 0.0)])
def test_nearest_rounds_halves_to_even(xd, expected):
    # align_corners on a 1x4 row: x_d = (x + 1) * 3 / 2; values 1..4 at columns 0..3 (zeros outside)
    row = np.array([[[[1, 2, 3, 4]]]], np.float32)
    x = 2 * xd / 3 - 1
    assert gs(row, point(x, 0.0), mode="nearest", align_corners=True)[0, 0, 0, 0] == expected


@pytest.mark.parametrize("align, xd, column", [
    (False, -1.0, 0), (False, -2.0, 1), (False, 4.0, 3), (False, 5.0, 2), (False, 9.0, 1),
    (True, -1.0, 1), (True, -3.0, 3), (True, 4.0, 2), (True, 6.0, 0), (True, 7.0, 1)])
def test_reflection_of_tap_indices(align, xd, column):
    """Without align_corners the image reflects about its outer edges (period 2W: -1 -> 0, -2 -> 1,
    4 -> 3); with it, about the centres of the border pixels (period 2(W-1): -1 -> 1, 4 -> 2)."""
    row = np.array([[[[10, 20, 30, 40]]]], np.float32)
    x = 2 * xd / 3 - 1 if align else (2 * xd + 1) / 4 - 1
    got = gs(row, point(x, 0.0), mode="nearest", padding_mode="reflection", align_corners=align)
    assert got[0, 0, 0, 0] == row[0, 0, 0, column]


def test_bicubic_weights_by_hand_and_a_constant_with_border():
    ramp = np.tile(np.arange(6, dtype=np.float32) * 2, (1, 1, 5, 1))
    # align_corners, x_d = 2.25: taps at columns 1..4 (values 2, 4, 6, 8), fraction t = 1/4; Keys' cubic
    # with A = -0.75 weighs them -27/256, 225/256, 67/256, -9/256 (A = -0.75 does not reproduce a ramp:
    # 4.59375, not 4.5)
    w = np.array([-27, 225, 67, -9]) / 256
    x = 2 * 2.25 / 5 - 1
    assert gs(ramp, point(x, 0.0), mode="bicubic", align_corners=True)[0, 0, 0, 0] == pytest.approx(
        float(w @ [2, 4, 6, 8]))
    flat = np.full((1, 1, 2, 2), 7.0, np.float32)
    grid = np.random.default_rng(0).uniform(-2, 2, (1, 3, 3, 2))
    np.testing.assert_allclose(gs(flat, grid, mode="bicubic", padding_mode="border"), 7.0, rtol=1e-6)


def test_integral_data_is_truncated_and_saturated():
    # bilinear halfway between 0 and 5 = 2.5 -> 2; between -5 and 0 = -2.5 -> -2
    x = np.array([[[[0, 5, -5]]]], np.int32)
    grid = np.array([[[[-1 + 1 / 2, 0.0], [-1 + 3 / 2, 0.0]]]], np.float32)   # align: x_d 0.5 and 1.5
    out = opref.run_op("GridSample-9", [x, grid], {"align_corners": True})[0]
    assert out.dtype == np.int32 and out.tolist() == [[[[2, 0]]]]
    # bicubic overshoot below zero on unsigned data saturates at 0
    u = np.array([[[[0, 0, 200, 200, 0, 0]]]], np.uint8)
    g = np.array([[[[2 * 0.5 / 5 - 1, 0.0]]]], np.float32)     # x_d = 0.5: the 200 at tap 2 weighs -0.09375
    out = opref.run_op("GridSample-9", [u, g], {"align_corners": True, "mode": "bicubic"})[0]
    ref = opref.run_op("GridSample-9", [u.astype(np.float32), g], {"align_corners": True, "mode": "bicubic"})[0]
    assert ref[0, 0, 0, 0] < 0 and out[0, 0, 0, 0] == 0


def test_grid_sample_spec_example_shape():
    out = opref.infer_op("GridSample-9", [TensorInfo("f32", [1, 3, 100, 100]), TensorInfo("f32", [1, 10, 10, 2])],
                         {"align_corners": True, "mode": "nearest", "padding_mode": "border"})
    assert str(out[0].shape) == "[1,3,10,10]" and out[0].element_type == "f32"


def test_grid_sample_empty_image():
    x, g = np.zeros((1, 2, 0, 3), np.float32), np.zeros((1, 2, 2, 2), np.float32)
    assert gs(x, g).shape == (1, 2, 2, 2) and not gs(x, g).any()       # zeros padding: every tap outside
    with pytest.raises(opref.OprefError, match="GridSample-9: padding_mode 'reflection' cannot sample"):
        gs(x, g, padding_mode="reflection")


# --- NV12/I420 to RGB/BGR-8 ----------------------------------------------------------------------
COLOR = ("NV12toRGB-8", "NV12toBGR-8", "I420toRGB-8", "I420toBGR-8")


def nv12_planes(yuv, dtype=np.uint8):
    """One 2x2 block of a single (Y, U, V): the Y plane [1, 2, 2, 1] and the UV plane [1, 1, 1, 2]."""
    y, u, v = yuv
    return np.full((1, 2, 2, 1), y, dtype), np.array([u, v], dtype).reshape(1, 1, 1, 2)


@pytest.mark.parametrize("yuv, rgb", [
    ((16, 128, 128), (0, 0, 0)),             # black
    ((235, 128, 128), (255, 255, 255)),      # 1.164 * 219 = 254.916
    ((81, 90, 240), (254, 0, 0)),            # R 75.66 + 178.752; G 75.66 + 14.858 - 91.056 < 0; B 75.66 - 76.684 < 0
    ((145, 54, 34), (0, 255, 1)),            # R 150.156 - 150.024; G 150.156 + 28.934 + 76.422 > 255; B 150.156 - 149.332
    ((100, 150, 100), (53, 112, 142)),       # R 97.776 - 44.688; G 97.776 - 8.602 + 22.764; B 97.776 + 44.396
])
def test_nv12_u8_by_hand(yuv, rgb):
    out = opref.run_op("NV12toRGB-8", nv12_planes(yuv))[0]
    assert out.shape == (1, 2, 2, 3) and (out == np.array(rgb, np.uint8)).all()
    assert (opref.run_op("NV12toBGR-8", nv12_planes(yuv))[0] == np.array(rgb[::-1], np.uint8)).all()


def test_nv12_float_images_are_clipped_not_rounded():
    out = opref.run_op("NV12toRGB-8", nv12_planes((100, 150, 100), np.float32))[0][0, 0, 0]
    np.testing.assert_allclose(out, [53.088, 111.938, 142.172], rtol=1e-5)
    out = opref.run_op("NV12toRGB-8", nv12_planes((300, 128, 128), np.float32))[0][0, 0, 0]
    assert out.tolist() == [255.0, 255.0, 255.0]
    out = opref.run_op("NV12toRGB-8", nv12_planes((-5, 128, 128), np.float32))[0][0, 0, 0]
    assert out.tolist() == [0.0, 0.0, 0.0]


def test_u8_halves_round_away_from_zero_where_the_cpu_plugin_rounds_to_even():
    # Y 35, V 132: R = 1.164 * 19 + 1.596 * 4 = 22.116 + 6.384 = 28.5 exactly in float32
    planes = nv12_planes((35, 128, 132))
    assert opref.run_op("NV12toRGB-8", planes)[0][0, 0, 0, 0] == 29
    from oracles import ov_run
    assert ov_run("NV12toRGB-8", list(planes))[0][0, 0, 0, 0] == 28      # the departure the cases mark


def test_chroma_is_shared_by_each_2x2_block():
    y = np.full((1, 2, 4, 1), 128, np.uint8)
    uv = np.array([[[[128, 128], [128, 255]]]], np.uint8)          # block 0 grey, block 1 red-shifted
    out = opref.run_op("NV12toRGB-8", [y, uv])[0]
    assert (out[0, :, :2] == out[0, 0, 0]).all() and (out[0, :, 2:] == out[0, 0, 2]).all()
    assert out[0, 0, 0].tolist() == [130, 130, 130] and out[0, 0, 2, 0] == 255


def test_single_plane_layouts():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 256, (2, 4, 6, 1)).astype(np.uint8)
    u, v = (rng.integers(0, 256, (2, 2, 3, 1)).astype(np.uint8) for _ in range(2))
    # NV12: after the Y rows, rows of interleaved U, V pairs
    uv = np.concatenate([u, v], -1)
    nv12 = np.concatenate([y, uv.reshape(2, 2, 6, 1)], axis=1)
    assert (opref.run_op("NV12toRGB-8", [nv12])[0] == opref.run_op("NV12toRGB-8", [y, uv])[0]).all()
    # I420: after the Y rows, the whole U plane, then the whole V plane (each (H/2) * (W/2) values)
    i420 = np.concatenate([y, np.concatenate([u.reshape(2, -1), v.reshape(2, -1)], 1).reshape(2, 2, 6, 1)], axis=1)
    assert (opref.run_op("I420toRGB-8", [i420])[0] == opref.run_op("I420toRGB-8", [y, u, v])[0]).all()
    assert (opref.run_op("I420toRGB-8", [y, u, v])[0] == opref.run_op("NV12toRGB-8", [y, uv])[0]).all()
    assert (opref.run_op("I420toBGR-8", [i420])[0] == opref.run_op("I420toRGB-8", [i420])[0][..., ::-1]).all()


@pytest.mark.parametrize("op", COLOR)
def test_spec_examples_shapes(op):
    t = lambda s: TensorInfo("u8", s)                                  # noqa: E731
    assert str(opref.infer_op(op, [t([1, 720, 640, 1])])[0].shape) == "[1,480,640,3]"
    planes = [t([1, 480, 640, 1]), t([1, 240, 320, 2])] if op.startswith("NV12") else \
        [t([1, 480, 640, 1]), t([1, 240, 320, 1]), t([1, 240, 320, 1])]
    out = opref.infer_op(op, planes)[0]
    assert str(out.shape) == "[1,480,640,3]" and out.element_type == "u8"


@pytest.fixture(scope="module")
def image_cases():
    from opref.conformance.cases.image import cases
    return cases()


@pytest.mark.parametrize("op", COLOR)
def test_every_case_matches_the_spec_transcription(op, image_cases):
    """tests/spec_image.py (flat offsets into the planes, written from the spec) against the kernels."""
    from spec_image import SPEC
    for case in image_cases:
        if case.error or case.op != op:
            continue
        ours, spec = opref.run_op(op, case.inputs)[0], SPEC[op](*case.inputs)[0]
        if ours.dtype == np.float64:          # opref computes f64 in f64, the transcription in f32
            np.testing.assert_allclose(ours, spec, rtol=1e-6, atol=1e-4, err_msg=case.name)
        else:
            assert ours.dtype == spec.dtype and (ours.astype(np.float64) == spec.astype(np.float64)).all(), case.name


# --- RGB/BGR to NV12-17 -----------------------------------------------------------------------------
def to_nv12(op, image, single_plane=False):
    return opref.run_op(op, [image], {"single_plane": single_plane})


@pytest.mark.parametrize("rgb, yuv", [
    ((0, 0, 0), (16, 128, 128)),
    ((255, 255, 255), (235, 128, 128)),     # Y 0.859 * 255 + 16 = 235.045; U and V: the weights sum to 0
    ((255, 0, 0), (82, 90, 240)),           # Y 65.535 + 16; U -37.74 + 128; V 111.945 + 128
    ((0, 0, 255), (41, 240, 110)),          # Y 24.99 + 16; U 111.945 + 128; V -18.105 + 128
])
def test_rgb_to_nv12_u8_by_hand(rgb, yuv):
    image = np.broadcast_to(np.array(rgb, np.uint8), (1, 2, 2, 3)).copy()
    y, uv = to_nv12("RGBtoNV12-17", image)
    assert y.shape == (1, 2, 2, 1) and uv.shape == (1, 1, 1, 2)
    assert (y == yuv[0]).all() and uv.reshape(2).tolist() == list(yuv[1:])
    y2, uv2 = to_nv12("BGRtoNV12-17", image[..., ::-1].copy())
    assert (y2 == y).all() and (uv2 == uv).all()


def test_chroma_is_the_mean_of_each_2x2_block():
    # a block of red and black columns: U = (90 + 128 + 90 + 128) / 4 = 109, V = (240 + 128 + 240 + 128) / 4 = 184
    image = np.zeros((1, 2, 2, 3), np.uint8)
    image[0, :, 0] = (255, 0, 0)
    _, uv = to_nv12("RGBtoNV12-17", image)
    assert uv.reshape(2).tolist() == [109, 184]
    # u8: each pixel's U is rounded before the mean (U of (255, 0, 0) is 90.26 -> 90, of (254, 0, 0)
    # 90.408 -> 90, of (0, 0, 1) 128.439 -> 128), then the mean is rounded
    image = np.array([[[[255, 0, 0], [254, 0, 0]], [[0, 0, 1], [0, 0, 1]]]], np.uint8)
    _, uv = to_nv12("RGBtoNV12-17", image)
    assert uv[0, 0, 0, 0] == 109                      # (90 + 90 + 128 + 128) / 4 = 109
    f = to_nv12("RGBtoNV12-17", image.astype(np.float32))[1]
    np.testing.assert_allclose(f[0, 0, 0, 0], (90.26 + 90.408 + 128.439 * 2) / 4, rtol=1e-6)


def test_float_images_are_clipped_not_rounded():
    image = np.full((1, 2, 2, 3), 300.0, np.float32)
    y, uv = to_nv12("RGBtoNV12-17", image)
    assert (y == 255).all()                           # 0.859 * 300 + 16 > 255
    np.testing.assert_allclose(uv, 128, atol=1e-3)    # the U and V weights sum to 0
    y, _ = to_nv12("RGBtoNV12-17", np.full((1, 2, 2, 3), -100.0, np.float32))
    assert (y == 0).all()


def test_single_plane_is_y_rows_then_uv_rows():
    image = np.random.default_rng(4).integers(0, 256, (2, 4, 6, 3)).astype(np.uint8)
    y, uv = to_nv12("RGBtoNV12-17", image)
    (single,) = to_nv12("RGBtoNV12-17", image, single_plane=True)
    assert single.shape == (2, 6, 6, 1)
    assert (single[:, :4] == y).all() and (single[:, 4:].reshape(2, 2, 3, 2) == uv).all()
    # the NV12 it writes is what NV12toRGB reads
    assert (opref.run_op("NV12toRGB-8", [single])[0] == opref.run_op("NV12toRGB-8", [y, uv])[0]).all()


def test_round_trip_through_nv12_is_close_on_flat_blocks():
    rng = np.random.default_rng(5)
    colours = rng.integers(30, 220, (1, 3, 4, 3))
    image = np.repeat(np.repeat(colours, 2, 1), 2, 2).astype(np.uint8)     # constant 2x2 blocks
    back = opref.run_op("NV12toRGB-8", to_nv12("RGBtoNV12-17", image))[0]
    assert np.abs(back.astype(int) - image).max() <= 3


@pytest.mark.parametrize("op", ["RGBtoNV12-17", "BGRtoNV12-17"])
def test_to_nv12_spec_example_shapes(op):
    t = TensorInfo("u8", [1, 480, 640, 3])
    (single,) = opref.infer_op(op, [t], {"single_plane": True})
    assert str(single.shape) == "[1,720,640,1]"
    y, uv = opref.infer_op(op, [t], {"single_plane": False})
    assert (str(y.shape), str(uv.shape)) == ("[1,480,640,1]", "[1,240,320,2]")
