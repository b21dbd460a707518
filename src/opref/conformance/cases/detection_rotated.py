"""Cases for ROIAlignRotated-15 and DeformablePSROIPooling-1: sampled value cases over boxes inside,
across and outside the feature map at every angle, sampling ratio, element type and offsets layout the
schemas allow; hand-picked edges; error cases; and partial-shape cases.

Neither op has a reference `evaluate` in OpenVINO 2026.4.1: values are checked against the CPU plugin
(which agrees with the spec on every value case here; bf16 ones asked in f32, see ROT_BF16) and against the plain-loop transcriptions in
tests/spec_detection_rotated.py (tests/test_detection_rotated.py)."""
from __future__ import annotations

import numpy as np

from ...types import element_type
from . import Case, ShapeCase, info
from ._gen import array, blur_dim, rng_for
from .detection_roi import FLOATS, IND, _float_case, _roi_align_shapes

# --- ROIAlignRotated ---------------------------------------------------------------------------------
ROT = "ROIAlignRotated-15"
ROT_BF16 = ("bf16 data and boxes: OpenVINO's CPU plugin computes them in f32 on AVX2 machines, but on AVX-512 ones (seen "
            "on an AVX-512 Intel Xeon) its bf16 path crashes the process or returns zeros; asked with both widened "
            "(losslessly) to f32")


def _rot_case(id, inputs, attrs):
    """A value case; bf16 ones ask the CPU plugin's f32 path (ROT_BF16)."""
    bf16 = dict(openvino=ROT_BF16, oracle_cast={0: "f32", 1: "f32"}) if element_type(inputs[0]).name == "bf16" else {}
    return _float_case(ROT, id, inputs, attrs, **bf16)


def _rot_attrs(ph, pw, sr, ss, clockwise=False):
    return {"pooled_h": ph, "pooled_w": pw, "sampling_ratio": sr, "spatial_scale": ss, "clockwise_mode": clockwise}


def _rotated_boxes(rng, n, h, w, scale):
    """n boxes [cx, cy, width, height, angle] in input coordinates: centres across and around the map,
    non-negative sizes (some 0), angles over several turns."""
    cx, cy = rng.uniform(-2, w + 2, n), rng.uniform(-2, h + 2, n)
    bw, bh = rng.uniform(0, w + 1, n), rng.uniform(0, h + 1, n)
    bw[rng.random(n) < 0.05] = 0.0
    angle = rng.choice([0.0, np.pi / 2, -np.pi / 4, np.pi]) * np.ones(n) if rng.random() < 0.2 else \
        rng.uniform(-7, 7, n)
    return np.stack([cx / scale, cy / scale, bw / scale, bh / scale, angle], 1)


def _rot_sampled(rng):
    out = []
    for i in range(72):
        et, it = FLOATS[i % len(FLOATS)], IND[i % len(IND)]
        n, c = int(rng.integers(1, 4)), int(rng.integers(1, 5))
        h, w = int(rng.integers(1, 10)), int(rng.integers(1, 10))
        ss = float(rng.choice([1.0, 0.5, 0.25, 2.0, 0.0625]))
        r = int(rng.integers(1, 6))
        ph, pw, sr = int(rng.integers(1, 5)), int(rng.integers(1, 5)), int(rng.integers(0, 4))
        cw = bool(i % 2)
        data = array(rng, et, [n, c, h, w])
        rois = _rotated_boxes(rng, r, h, w, ss).astype(data.dtype)
        b = rng.integers(0, n, r).astype(element_type(it).dtype)
        out.append(_rot_case(f"s{i:03d}_{et}_{it}_sr{sr}_{'cw' if cw else 'ccw'}", (data, rois, b),
                             _rot_attrs(ph, pw, sr, ss, cw)))
    return out


def _rot_edges(rng):
    x = lambda shape, et="f32": array(rng, et, shape)     # noqa: E731
    a = _rot_attrs
    f = lambda *rows: np.array(rows, np.float32)          # noqa: E731
    ramp = np.arange(2 * 6 * 7, dtype=np.float32).reshape(1, 2, 6, 7)
    one, two = np.zeros(1, np.int32), np.zeros(2, np.int32)
    d = x([2, 3, 8, 9])
    edges = [
        ("ramp_axis_aligned", (ramp, f([3, 2.5, 4, 3, 0]), one), a(2, 2, 2, 1.0)),
        ("ramp_quarter_turn", (ramp, f([3, 2.5, 4, 2, np.pi / 2]), one), a(2, 3, 2, 1.0)),
        ("ramp_quarter_turn_cw", (ramp, f([3, 2.5, 4, 2, np.pi / 2]), one), a(2, 3, 2, 1.0, True)),
        ("ramp_half_turn", (ramp, f([3.5, 3, 3, 3, np.pi]), one), a(3, 3, 1, 1.0)),
        ("ramp_45_adaptive", (ramp, f([3.5, 3, 4, 4, np.pi / 4], [2, 2, 2.5, 1.5, -0.3]), two), a(2, 2, 0, 1.0)),
        ("spec_like_scale_16", (x([2, 8, 20, 20]), _rotated_boxes(rng, 6, 20, 20, 16.0).astype(np.float32),
                                np.array([0, 1, 1, 0, 1, 0], np.int64)), a(6, 6, 2, 16.0, True)),
        ("adaptive_large_boxes", (d, f([4, 4, 8, 7, 0.4], [4.5, 3, 9, 2, -1.2]), np.array([1, 0], np.int32)),
         a(2, 3, 0, 1.0)),
        ("adaptive_zero_width", (d, f([4, 4, 0, 3, 0.4], [2, 2, 0, 0, 0]), two), a(2, 2, 0, 1.0)),
        ("fixed_ratio_zero_size", (d, f([4, 4, 0, 0, 0.7]), one), a(2, 2, 2, 1.0)),
        ("negative_size_fixed_ratio", (d, f([4, 4, -3, 2, 0.3], [3, 3, 2, -2, -0.3]), two), a(2, 2, 2, 1.0)),
        ("boxes_outside", (d, f([-6, -6, 2, 2, 0.2], [14, 3, 3, 3, 1.0], [4, -3, 2, 1.5, 2.0]), np.zeros(3, np.int32)),
         a(2, 2, 2, 1.0)),
        ("box_over_whole_map_turning", (d, f([4.5, 4, 20, 20, 0.3]), one), a(3, 3, 3, 1.0)),
        ("edge_pixels", (d, f([8.5, 7.5, 1, 1, 0], [0, 0, 1, 1, 0]), two), a(2, 2, 3, 1.0)),
        ("one_pixel_map", (x([2, 3, 1, 1]), f([0.5, 0.5, 1, 1, 0.5], [0, 0, 2, 2, -1]), np.array([1, 0], np.int32)),
         a(2, 2, 2, 1.0)),
        ("many_rois", (x([3, 2, 6, 7]), _rotated_boxes(rng, 24, 6, 7, 1.0).astype(np.float32),
                       rng.integers(0, 3, 24).astype(np.int64)), a(3, 3, 2, 1.0)),
        ("angle_many_turns", (d, f([4, 4, 4, 3, 40.0], [4, 4, 4, 3, -40.0]), two), a(2, 2, 2, 1.0)),
        ("scale_half_adaptive", (d, f([8, 8, 6, 10, 0.25]), one), a(2, 2, 0, 0.5)),
        ("f16_adaptive", (x([1, 4, 8, 8], "f16"), _rotated_boxes(rng, 4, 8, 8, 0.5).astype(np.float16),
                          np.zeros(4, np.int32)), a(2, 4, 0, 0.5)),
        ("bf16", (x([1, 2, 6, 6], "bf16"), _rotated_boxes(rng, 3, 6, 6, 1.0).astype(x([1], "bf16").dtype),
                  np.zeros(3, np.uint8)), a(3, 3, 2, 1.0, True)),
        ("empty_rois", (x([1, 2, 4, 4]), np.zeros((0, 5), np.float32), np.zeros(0, np.int32)), a(2, 2, 2, 1.0)),
    ]
    out = [_rot_case(id, inputs, attrs) for id, inputs, attrs in edges]
    d4, boxes, b2 = x([2, 3, 6, 6]), f([2, 2, 3, 2, 0.5], [3, 3, 2, 2, 0]), np.array([0, 1], np.int32)
    err = lambda id, inputs, attrs, msg, why=None: Case(ROT, id, inputs, attrs, error=msg, openvino=why)  # noqa: E731
    spec_only = "the spec bounds it; OpenVINO's shape inference does not check it"
    out += [
        err("err_pooled_h_0", (d4, boxes, b2), a(0, 2, 2, 1.0), "'pooled_h', 'pooled_w' must be positive", spec_only),
        err("err_pooled_w_negative", (d4, boxes, b2), a(2, -1, 2, 1.0), "'pooled_h', 'pooled_w' must be positive",
            spec_only),
        err("err_sampling_ratio_negative", (d4, boxes, b2), a(2, 2, -1, 1.0), "'sampling_ratio' must be >= 0",
            spec_only),
        err("err_spatial_scale_0", (d4, boxes, b2), a(2, 2, 2, 0.0), "'spatial_scale' must be positive", spec_only),
        err("err_rois_type", (d4, boxes.astype(np.float16), b2), a(2, 2, 2, 1.0), "input 'rois' has element type f16"),
        err("err_int_data", (d4.astype(np.int32), boxes.astype(np.int32), b2), a(2, 2, 2, 1.0), "element type i32"),
        err("err_float_indices", (d4, boxes, b2.astype(np.float32)), a(2, 2, 2, 1.0), "element type f32"),
        err("err_rois_4_values", (d4, boxes[:, :4].copy(), b2), a(2, 2, 2, 1.0), "5 coordinates"),
        err("err_count_mismatch", (d4, boxes, np.zeros(3, np.int32)), a(2, 2, 2, 1.0), "same number of boxes"),
        err("err_data_rank_3", (d4[0], boxes, b2), a(2, 2, 2, 1.0), "must be 4-D"),
        err("err_indices_rank_2", (d4, boxes, b2[:, None]), a(2, 2, 2, 1.0), "must be 1-D"),
        err("err_batch_index_range", (d4, boxes, np.array([0, 2], np.int32)), a(2, 2, 2, 1.0),
            "'batch_indices' values must be in [0, 1]", "OpenVINO does not check the values (reads out of bounds)"),
        err("err_adaptive_negative_width", (d4, f([2, 2, -3, 2, 0.5]), np.zeros(1, np.int32)), a(2, 2, 0, 1.0),
            "needs a width and height >= 0",
            "ceil(size / pooled size) samples of a negative size: OpenVINO's shape inference accepts the box, its "
            "CPU plugin rejects it at run time (sampling_ratio_x >= 0)"),
    ]
    return out


def _rot_shapes(rng):
    attrs = _rot_attrs(3, 2, 2, 1.0)
    out = _roi_align_shapes(rng, ROT, coords=5, attrs=attrs)
    e = lambda id, at: ShapeCase(ROT, id, (info("f32", [2, 3, 8, 8]), info("f32", [4, 5]), info("i32", [4])), at)  # noqa: E731
    out += [e("clockwise", _rot_attrs(7, 1, 0, 16.0, True)), e("pooled_1x1", _rot_attrs(1, 1, 1, 0.5))]
    return out


# --- DeformablePSROIPooling ------------------------------------------------------------------------------
DPS = "DeformablePSROIPooling-1"


def _dps_attrs(od, g, ss, bx=1, by=1, trans=1.0, part=1, mode="bilinear_deformable"):
    return {"output_dim": od, "spatial_scale": ss, "group_size": g, "mode": mode, "spatial_bins_x": bx,
            "spatial_bins_y": by, "trans_std": trans, "part_size": part}


def _ps_boxes(rng, r, n, h, w, scale, spread=2.0):
    """r boxes [batch_id, x_1, y_1, x_2, y_2] in image pixels: mostly inside the map, some across its border,
    a few reversed (x_2 < x_1) or with a fractional batch id (truncated)."""
    c = rng.uniform(-spread, max(h, w) + spread, (r, 4)) / scale
    boxes = np.concatenate([np.minimum(c[:, :2], c[:, 2:]), np.maximum(c[:, :2], c[:, 2:])], 1)
    flip = rng.random(r) < 0.1
    boxes[flip] = boxes[flip][:, [2, 3, 0, 1]]
    ids = rng.integers(0, n, r).astype(np.float64)
    ids[rng.random(r) < 0.1] += 0.5
    return np.concatenate([ids[:, None], boxes], 1)


def _dps_sampled(rng):
    out = []
    for i in range(72):
        et = FLOATS[i % len(FLOATS)]
        n, h, w = int(rng.integers(1, 3)), int(rng.integers(1, 10)), int(rng.integers(1, 10))
        g, od = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        r = int(rng.integers(1, 6))
        ss = float(rng.choice([1.0, 0.5, 0.25, 2.0, 0.0625]))
        bx, by = int(rng.integers(1, 5)), int(rng.integers(1, 5))
        data = array(rng, et, [n, od * g * g, h, w])
        rois = _ps_boxes(rng, r, n, h, w, ss).astype(data.dtype)
        inputs = [data, rois]
        part, trans = int(rng.integers(1, 5)), float(rng.choice([1.0, 0.1, 0.0, -0.5]))
        if i % 3:
            classes = int(rng.choice([k for k in range(1, od + 1) if od % k == 0]))
            inputs.append((rng.uniform(-0.6, 0.6, (r, 2 * classes, part, part))).astype(data.dtype))
        tag = f"off{(inputs[2].shape[1] // 2) if len(inputs) == 3 else 0}"
        out.append(_float_case(DPS, f"s{i:03d}_{et}_g{g}_od{od}_{tag}", tuple(inputs),
                               _dps_attrs(od, g, ss, bx, by, trans, part)))
    return out


def _dps_edges(rng):
    x = lambda shape, et="f32": array(rng, et, shape)     # noqa: E731
    f = lambda *rows: np.array(rows, np.float32)          # noqa: E731
    a = _dps_attrs
    ramp = np.broadcast_to(np.arange(8, dtype=np.float32), (1, 4, 6, 8)).copy()   # value = column
    d = x([2, 8, 7, 9])                                   # output_dim 2, group_size 2
    boxes = f([0, 1, 1, 5, 4], [1, 0, 0, 8, 6], [0, 2.5, 1.5, 3.5, 5.5])
    off = lambda r, classes=1, part=2: rng.uniform(-0.4, 0.4, (r, 2 * classes, part, part)).astype(np.float32)  # noqa: E731
    edges = [
        ("ramp_one_bin", (ramp[:, :1], f([0, 1, 1, 4, 3])), a(1, 1, 1.0, 2, 2)),
        ("ramp_2x2_bins", (ramp, f([0, 0, 0, 7, 5])), a(1, 2, 1.0, 1, 1)),
        ("ramp_shift_right", (ramp, f([0, 0, 0, 3, 3]), np.full((1, 2, 1, 1), 0.25, np.float32) *
                              np.array([1, 0], np.float32)[None, :, None, None]), a(1, 2, 1.0, 2, 2, 1.0, 1)),
        ("spec_example_1_small", (x([1, 72, 16, 12]), _ps_boxes(rng, 10, 1, 16, 12, 0.0625).astype(np.float32)),
         a(8, 3, 0.0625, 4, 4, 0.0, 3)),
        ("spec_example_2_small", (x([1, 392, 12, 20]), _ps_boxes(rng, 12, 1, 12, 20, 0.0625).astype(np.float32),
                                  off(12, 1, 7)), a(8, 7, 0.0625, 4, 4, 0.1, 7)),
        ("two_classes", (d, boxes, off(3, 2, 2)), a(2, 2, 1.0, 2, 3, 0.5, 2)),
        ("part_3_group_2", (d, boxes, off(3, 1, 3)), a(2, 2, 1.0, 2, 2, 1.0, 3)),
        ("part_1_group_2", (d, boxes, off(3, 1, 1)), a(2, 2, 1.0, 2, 2, 1.0, 1)),
        ("trans_std_0", (d, boxes, off(3)), a(2, 2, 1.0, 2, 2, 0.0, 2)),
        ("large_offsets_leave_map", (d, boxes, off(3) * 20), a(2, 2, 1.0, 3, 3, 1.0, 2)),
        ("boxes_outside", (d, f([0, -20, -20, -10, -10], [1, 12, 10, 20, 20], [0, -3, 2, 1, 4])), a(2, 2, 1.0, 2, 2)),
        ("reversed_and_point_boxes", (d, f([0, 5, 5, 1, 1], [1, 3, 3, 3, 3], [0, 2, 2, 1.5, 2])), a(2, 2, 1.0, 2, 2)),
        ("half_rounding", (d, f([0, 0.5, 1.5, 2.5, -0.5], [1, -1.5, 2.5, 3.5, 4.5], [1, 2.5, 0.5, 5.5, 5.5])),
         a(2, 2, 1.0, 3, 3)),
        ("fractional_batch_ids", (d, f([0.7, 1, 1, 5, 4], [1.9, 0, 0, 8, 6])), a(2, 2, 1.0, 2, 2)),
        ("scale_2_boundary_samples", (x([1, 9, 3, 4]), f([0, 0.81, -0.23, 1.71, 0.34])), a(1, 3, 2.0, 2, 2)),
        ("one_pixel_map", (x([1, 4, 1, 1]), f([0, 0, 0, 0, 0], [0, -1, -1, 2, 2])), a(1, 2, 1.0, 2, 2)),
        ("f16_offsets", (d.astype(np.float16), boxes.astype(np.float16), off(3).astype(np.float16)),
         a(2, 2, 1.0, 2, 2, 0.5, 2)),
        ("bf16", (x([1, 8, 5, 5], "bf16"), boxes[:1].astype(x([1], "bf16").dtype)), a(2, 2, 1.0, 2, 2)),
        ("empty_rois", (d, np.zeros((0, 5), np.float32)), a(2, 2, 1.0, 2, 2)),
        ("empty_rois_offsets", (d, np.zeros((0, 5), np.float32), np.zeros((0, 2, 2, 2), np.float32)),
         a(2, 2, 1.0, 2, 2, 1.0, 2)),
    ]
    out = [_float_case(DPS, id, inputs, attrs) for id, inputs, attrs in edges]
    err = lambda id, inputs, attrs, msg, why=None: Case(DPS, id, tuple(inputs), attrs, error=msg, openvino=why)  # noqa: E731
    spec_only = "the spec bounds it; OpenVINO's shape inference does not check it"
    reads_out = "the spec's layout; OpenVINO's shape inference does not check it (its kernels read out of bounds)"
    o3 = off(3)
    out += [
        err("err_output_dim_0", (d, boxes), a(0, 2, 1.0), "'output_dim' must be > 0"),
        err("err_group_size_0", (d, boxes), a(2, 0, 1.0), "'group_size' must be > 0"),
        err("err_data_rank_3", (d[0], boxes), a(2, 2, 1.0), "must be 4-D"),
        err("err_rois_rank_3", (d, boxes[None]), a(2, 2, 1.0), "must be 2-D"),
        err("err_offsets_rank_3", (d, boxes, o3[0]), a(2, 2, 1.0, part=2), "must be 4-D"),
        err("err_mode_average", (d, boxes), a(2, 2, 1.0, mode="average"), "'mode' = 'average' is not one of",
            "the spec's only mode is bilinear_deformable: OpenVINO's shape inference accepts any string, its CPU "
            "plugin refuses 'average' (Doesn't support mode)"),
        err("err_spatial_scale_0", (d, boxes), a(2, 2, 0.0), "'spatial_scale' must be a positive number", spec_only),
        err("err_spatial_bins_0", (d, boxes), a(2, 2, 1.0, 0, 2), "'spatial_bins_x', 'spatial_bins_y' must be > 0",
            spec_only),
        err("err_part_size_0", (d, boxes, o3), a(2, 2, 1.0, part=0), "'part_size' must be > 0", spec_only),
        err("err_channels_too_few", (x([2, 6, 7, 9]), boxes), a(2, 2, 1.0), "output_dim * group_size * group_size = 8",
            reads_out),
        err("err_channels_too_many", (x([2, 10, 7, 9]), boxes), a(2, 2, 1.0),
            "output_dim * group_size * group_size = 8", "the spec's layout (output_dim groups of group_size^2 "
            "channels); OpenVINO's shape inference does not check it (its kernels read the first channels)"),
        err("err_rois_6_values", (d, np.zeros((3, 6), np.float32)), a(2, 2, 1.0), "5 values per box", reads_out),
        err("err_offsets_part_mismatch", (d, boxes, off(3, 1, 3)), a(2, 2, 1.0, part=2), "part_size = 2", reads_out),
        err("err_offsets_count_mismatch", (d, boxes, off(2)), a(2, 2, 1.0, part=2), "same number of boxes",
            reads_out),
        err("err_offsets_odd_channels", (d, boxes, o3[:, :1]), a(2, 2, 1.0, part=2), "2 * classes channels",
            reads_out),
        err("err_offsets_classes_not_dividing", (d, boxes, off(3, 3)), a(2, 2, 1.0, part=2), "2 * classes channels",
            "the classes must divide output_dim; OpenVINO's shape inference does not check it (its CPU plugin "
            "divides by zero and the process dies)"),
        err("err_rois_type", (d, boxes.astype(np.float16)), a(2, 2, 1.0), "input 'rois' has element type f16",
            "the spec gives every input the type T; OpenVINO's shape inference does not check it"),
        err("err_offsets_type", (d, boxes, o3.astype(np.float16)), a(2, 2, 1.0, part=2),
            "input 'offsets' has element type f16", "the spec gives every input the type T; OpenVINO's shape "
                                                   "inference does not check it"),
        err("err_int_data", (d.astype(np.int32), boxes.astype(np.int32)), a(2, 2, 1.0), "element type i32",
            "the spec's T is a floating-point type; OpenVINO's shape inference does not check it"),
        err("err_batch_id_range", (d, f([0, 1, 1, 5, 4], [2, 0, 0, 8, 6])), a(2, 2, 1.0),
            "batch ids (column 0) must be in [0, 1]", "the spec bounds batch ids to [0, N - 1]; OpenVINO rejects "
                                                      "them only at run time"),
        err("err_batch_id_negative", (d, f([0, 1, 1, 5, 4], [-1, 0, 0, 8, 6], [1, 2, 2, 4, 4])), a(2, 2, 1.0),
            "batch ids (column 0) must be in [0, 1]", "the spec bounds batch ids to [0, N - 1]; OpenVINO's CPU "
            "plugin ends the box list at id -1 (zeros for every later box) and reads out of bounds below"),
    ]
    return out


def _dps_shapes(rng):
    out = []
    for i in range(24):
        g, od = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        part, classes = int(rng.integers(1, 4)), int(rng.choice([k for k in range(1, od + 1) if od % k == 0]))
        n, h, w, r = (int(v) for v in rng.integers(1, 9, 4))
        ds = None if rng.random() < 0.1 else [blur_dim(rng, v) for v in (n, od * g * g, h, w)]
        rs = None if rng.random() < 0.1 else [blur_dim(rng, r), blur_dim(rng, 5)]
        inputs = [info("f32", ds), info("f32", rs)]
        if i % 2:
            inputs.append(info("f32", None if rng.random() < 0.1 else
                               [blur_dim(rng, v) for v in (r, 2 * classes, part, part)]))
        out.append(ShapeCase(DPS, f"p{i:02d}{'_offsets' if i % 2 else ''}", tuple(inputs),
                             _dps_attrs(od, g, 0.5, 2, 2, 0.1, part)))
    at = _dps_attrs(2, 2, 0.0625, 2, 2, 0.1, 2)
    e = lambda id, ds, rs, os=False, et="f32", attrs=at: ShapeCase(   # noqa: E731
        DPS, id, (info(et, ds), info(et, rs)) + (() if os is False else (info(et, os),)), attrs)
    why = "the spec bounds it; OpenVINO's shape inference does not check it"
    out += [
        e("spec_example_1", [1, 7938, 63, 38], [300, 5], attrs=_dps_attrs(882, 3, 0.0625, 4, 4, 0.0, 3)),
        e("spec_example_2", [1, 392, 38, 63], [300, 5], [300, 2, 7, 7], attrs=_dps_attrs(8, 7, 0.0625, 4, 4, 0.1, 7)),
        e("dynamic_all", None, None), e("dynamic_all_offsets", None, None, None),
        e("rois_interval", [1, 8, -1, -1], [(1, 300), 5], [(2, 500), 2, 2, 2]),
        e("data_rank_5", [1, 8, 4, 4, 1], [4, 5]), e("rois_rank_1", [1, 8, 4, 4], [5]),
        e("offsets_rank_2", [1, 8, 4, 4], [4, 5], [4, 2]),
        e("f16", [1, 8, 4, 4], [4, 5], [4, 2, 2, 2], "f16"), e("bf16_dynamic", [-1, -1, -1, -1], [-1, -1], None, "bf16"),
        e("channels_interval", [1, (4, 10), 4, 4], [4, 5]),
        e("zero_rois", [1, 8, 4, 4], [0, 5], [0, 2, 2, 2]),
        e("output_dim_0", [1, 8, 4, 4], [4, 5], attrs={**at, "output_dim": 0}),
        e("group_size_0", [1, 8, 4, 4], [4, 5], attrs={**at, "group_size": 0}),
    ]
    spec = lambda id, ds, rs, os=False, attrs=at: ShapeCase(   # noqa: E731
        DPS, id, (info("f32", ds), info("f32", rs)) + (() if os is False else (info("f32", os),)), attrs,
        openvino=why, expected=None)
    out += [
        spec("channels_mismatch", [1, 9, 4, 4], [4, 5]), spec("rois_6_values", [1, 8, 4, 4], [4, 6]),
        spec("offsets_part_mismatch", [1, 8, 4, 4], [4, 5], [4, 2, 3, 3]),
        spec("offsets_count_mismatch", [1, 8, 4, 4], [4, 5], [3, 2, 2, 2]),
        spec("offsets_odd_channels", [1, 8, 4, 4], [4, 5], [4, 3, 2, 2]),
        spec("spatial_scale_negative", [1, 8, 4, 4], [4, 5], attrs={**at, "spatial_scale": -1.0}),
        spec("part_size_0", [1, 8, 4, 4], [4, 5], attrs={**at, "part_size": 0}),
    ]
    return out


def cases():
    rng = rng_for("detection_rotated")
    return _rot_sampled(rng) + _rot_edges(rng) + _dps_sampled(rng) + _dps_edges(rng)


def shape_cases():
    rng = rng_for("detection_rotated", 1)
    return _rot_shapes(rng) + _dps_shapes(rng)
