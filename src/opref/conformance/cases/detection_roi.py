"""Cases for the region-pooling and box-generating detection ops (ROIAlign-3/9, ROIAlignRotated-15,
ROIPooling-1, PSROIPooling-1, RegionYolo-1, ReorgYolo-1, PriorBox-1/8, PriorBoxClustered-1): sampled
value cases over boxes inside, across and outside the feature map, every mode and element type of the
schemas; hand-picked edges; error cases; and partial-shape cases."""
from __future__ import annotations

import numpy as np

from ...types import element_type
from . import Case, ShapeCase, info
from ._gen import array, blur_dim, rng_for

FLOATS = ("f32", "f16", "f32", "bf16", "f32", "f64")
IND = ("i32", "i64", "i32", "u8", "i64", "i16", "u16", "i8", "u32", "u64")

# The spec's max: the largest sample of a bin. OpenVINO (CPU plugin and reference) starts the maximum
# from 0, so a bin whose samples are all negative gives 0 there; the value cases pool non-negative data
# in max mode, and tests/test_detection_roi.py checks negative data against a transcription of the spec.
MAX_FROM_ZERO = "max mode pools non-negative data (OpenVINO starts the maximum from 0)"
F64_AS_F32 = "OpenVINO's CPU plugin computes f64 in f32: compared at f32 tolerance"


def _float_case(op, id, inputs, attrs, **kw):
    """A value case; f64 data is compared at f32 tolerance (the CPU plugin computes it in f32)."""
    if element_type(inputs[0]).name == "f64":
        kw = {"openvino": F64_AS_F32, "tolerance": "f32", **kw}
    if op.startswith("ROIAlign-") and _roi_align_bins_without_samples(inputs[1], attrs):
        kw["nan_differs"] = {"openvino": EMPTY_BIN_NAN}
    return Case(op, id, tuple(inputs), attrs, **kw)


# A box of size exactly 0 (or just below, with aligned_mode other than asymmetric) with sampling_ratio
# 0 has ceil(bin size) = 0 samples per bin: OpenVINO's CPU plugin divides 0 by 0 (NaN); the spec's
# reference loop and onnxruntime leave such a bin at 0.
EMPTY_BIN_NAN = "OpenVINO's CPU plugin gives NaN (0/0) for a bin without samples; the spec's average is 0"


def _roi_align_bins_without_samples(rois, attrs) -> bool:
    if attrs["mode"] != "avg" or attrs["sampling_ratio"] != 0 or attrs.get("aligned_mode", "asymmetric") == "asymmetric" \
            or not len(rois):
        return False
    r = np.asarray(rois, np.float64) * attrs["spatial_scale"]
    cx = np.ceil((r[:, 2] - r[:, 0]) / attrs["pooled_w"])
    cy = np.ceil((r[:, 3] - r[:, 1]) / attrs["pooled_h"])
    return bool(((cx == 0) | (cy == 0)).any())


# --- ROIAlign --------------------------------------------------------------------------------------
def _boxes(rng, n, h, w, scale, spread=1.0):
    """n boxes [x1, y1, x2, y2] in input coordinates (divided by spatial_scale): mostly inside the map,
    some across its border, some reversed or tiny."""
    lo, hi = -2.0 * spread, (max(h, w) + 2.0 * spread)
    c = rng.uniform(lo, hi, (n, 4)) / scale
    boxes = np.stack([np.minimum(c[:, 0], c[:, 2]), np.minimum(c[:, 1], c[:, 3]),
                      np.maximum(c[:, 0], c[:, 2]), np.maximum(c[:, 1], c[:, 3])], 1)
    flip = rng.random(n) < 0.1                       # a few malformed boxes (x2 < x1)
    boxes[flip] = boxes[flip][:, [2, 3, 0, 1]]
    return boxes


def _roi_align_attrs(op, ph, pw, sr, ss, mode, aligned=None):
    a = {"pooled_h": ph, "pooled_w": pw, "sampling_ratio": sr, "spatial_scale": ss, "mode": mode}
    if op == "ROIAlign-9":
        a["aligned_mode"] = aligned or "asymmetric"
    return a


def _roi_align_sampled(rng, op, count):
    out = []
    aligned_modes = ("asymmetric", "half_pixel_for_nn", "half_pixel")
    for i in range(count):
        et, it = FLOATS[i % len(FLOATS)], IND[i % len(IND)]
        n, c = int(rng.integers(1, 4)), int(rng.integers(1, 5))
        h, w = int(rng.integers(1, 10)), int(rng.integers(1, 10))
        ss = float(rng.choice([1.0, 0.5, 0.25, 2.0, 0.0625]))
        r = int(rng.integers(1, 6))
        ph, pw = int(rng.integers(1, 5)), int(rng.integers(1, 5))
        sr = int(rng.integers(0, 4))
        mode = ("avg", "max")[i % 2]
        aligned = aligned_modes[(i // 2) % 3]
        data = array(rng, et, [n, c, h, w])
        if mode == "max":
            data = np.abs(data)
        rois = _boxes(rng, r, h, w, ss).astype(data.dtype)
        b = rng.integers(0, n, r).astype(element_type(it).dtype)
        attrs = _roi_align_attrs(op, ph, pw, sr, ss, mode, aligned)
        tag = f"{mode}_{attrs.get('aligned_mode', 'asym')[:6]}_sr{sr}"
        out.append(_float_case(op, f"s{i:03d}_{et}_{it}_{tag}", (data, rois, b), attrs))
    return out


def _roi_align_edges(rng, op):
    x = lambda shape, et="f32": array(rng, et, shape)
    a = lambda *args, **kw: _roi_align_attrs(op, *args, **kw)
    ramp = np.arange(2 * 4 * 4, dtype=np.float32).reshape(1, 2, 4, 4)
    spec_like = x([2, 8, 20, 20])
    big = np.abs(x([1, 3, 16, 16]))
    one = np.array([0], np.int32)
    edges = [
        ("ramp_whole_map", (ramp, np.array([[0, 0, 3, 3]], np.float32), one), a(2, 2, 2, 1.0, "avg")),
        ("ramp_unit_box", (ramp, np.array([[1, 1, 2, 2]], np.float32), one), a(1, 1, 1, 1.0, "avg")),
        ("ramp_max", (ramp, np.array([[0.5, 0.5, 2.5, 3]], np.float32), one), a(2, 3, 2, 1.0, "max")),
        ("spec_like_scale_16", (spec_like, _boxes(rng, 6, 20, 20, 0.0625).astype(np.float32),
                                np.array([0, 1, 1, 0, 1, 0], np.int64)), a(6, 6, 2, 0.0625, "avg")),
        ("adaptive_large_boxes", (big, np.array([[0, 0, 15, 15], [2, 1, 13, 9]], np.float32), np.zeros(2, np.int32)),
         a(2, 2, 0, 1.0, "avg")),
        ("adaptive_large_boxes_max", (big, np.array([[0, 0, 15, 15], [2, 1, 13, 9]], np.float32),
                                      np.zeros(2, np.int32)), a(3, 2, 0, 1.0, "max")),
        ("boxes_outside", (x([1, 2, 5, 5]), np.array([[-8, -8, -3, -3], [6, 6, 9, 9], [-1.5, 4, 0.5, 7]], np.float32),
                           np.zeros(3, np.int32)), a(2, 2, 2, 1.0, "avg")),
        ("edge_pixels", (x([1, 2, 5, 5]), np.array([[3.5, 3.5, 5, 5], [-1, -1, 0.5, 0.5]], np.float32),
                         np.zeros(2, np.int32)), a(2, 2, 3, 1.0, "avg")),
        ("malformed_box", (x([1, 2, 6, 6]), np.array([[4, 4, 1, 1], [2, 2, 2, 2]], np.float32), np.zeros(2, np.int32)),
         a(2, 2, 0, 1.0, "avg")),
        ("one_pixel_map", (x([2, 3, 1, 1]), np.array([[0, 0, 1, 1], [-0.5, -0.5, 0.5, 0.5]], np.float32),
                           np.array([1, 0], np.int32)), a(2, 2, 2, 1.0, "avg")),
        ("many_rois_one_image", (x([3, 2, 6, 7]), _boxes(rng, 20, 6, 7, 1.0).astype(np.float32),
                                 rng.integers(0, 3, 20).astype(np.int64)), a(3, 3, 2, 1.0, "avg")),
        ("f16_scale_half", (x([1, 4, 8, 8], "f16"), _boxes(rng, 4, 8, 8, 0.5).astype(np.float16),
                            np.zeros(4, np.int32)), a(2, 4, 0, 0.5, "avg")),
        ("bf16_max", (np.abs(x([1, 2, 6, 6], "bf16")), _boxes(rng, 3, 6, 6, 1.0).astype(x([1], "bf16").dtype),
                      np.zeros(3, np.int32)), a(3, 3, 2, 1.0, "max")),
        ("empty_rois", (x([1, 2, 4, 4]), np.zeros((0, 4), np.float32), np.zeros(0, np.int32)), a(2, 2, 2, 1.0, "avg")),
    ]
    if op == "ROIAlign-9":
        for am in ("half_pixel_for_nn", "half_pixel"):
            edges += [
                (f"ramp_{am}", (ramp, np.array([[0, 0, 3, 3], [1, 1, 2, 2]], np.float32), np.zeros(2, np.int32)),
                 a(2, 2, 2, 1.0, "avg", am)),
                (f"small_box_{am}", (x([1, 2, 6, 6]), np.array([[2, 2, 2.4, 2.2], [1, 1, 1, 1]], np.float32),
                                     np.zeros(2, np.int32)), a(2, 2, 0, 1.0, "avg", am)),
                (f"reversed_box_fixed_ratio_{am}", (x([1, 2, 6, 6]), np.array([[4, 4, 1, 1]], np.float32), one),
                 a(2, 2, 2, 1.0, "avg", am)),
                (f"scale_16_{am}", (spec_like, _boxes(rng, 5, 20, 20, 0.0625).astype(np.float32),
                                    np.array([0, 1, 1, 0, 1], np.int32)), a(6, 6, 2, 0.0625, "avg", am)),
            ]
    out = [_float_case(op, id, inputs, attrs) for id, inputs, attrs in edges]
    d4, boxes, b2 = x([2, 3, 6, 6]), np.array([[0, 0, 3, 3], [1, 2, 4, 5]], np.float32), np.array([0, 1], np.int32)
    err = lambda id, inputs, attrs, msg, why=None: Case(op, id, inputs, attrs, error=msg, openvino=why)
    spec_only = "the spec bounds it; OpenVINO's shape inference does not check it"
    out += [
        err("err_pooled_h_0", (d4, boxes, b2), a(0, 2, 2, 1.0, "avg"), "'pooled_h', 'pooled_w' must be positive",
            spec_only),
        err("err_sampling_ratio_negative", (d4, boxes, b2), a(2, 2, -1, 1.0, "avg"), "'sampling_ratio' must be >= 0",
            spec_only),
        err("err_spatial_scale_0", (d4, boxes, b2), a(2, 2, 2, 0.0, "avg"), "'spatial_scale' must be positive",
            spec_only),
        err("err_rois_type", (d4, boxes.astype(np.float16), b2), a(2, 2, 2, 1.0, "avg"),
            "input 'rois' has element type f16"),
        err("err_int_data", (d4.astype(np.int32), boxes.astype(np.int32), b2), a(2, 2, 2, 1.0, "avg"),
            "element type i32"),
        err("err_float_indices", (d4, boxes, b2.astype(np.float32)), a(2, 2, 2, 1.0, "avg"), "element type f32"),
        err("err_rois_5_coords", (d4, np.zeros((2, 5), np.float32), b2), a(2, 2, 2, 1.0, "avg"), "4 coordinates"),
        err("err_count_mismatch", (d4, boxes, np.zeros(3, np.int32)), a(2, 2, 2, 1.0, "avg"), "same number of boxes"),
        err("err_data_rank_3", (d4[0], boxes, b2), a(2, 2, 2, 1.0, "avg"), "must be 4-D"),
        err("err_batch_index_range", (d4, boxes, np.array([0, 2], np.int32)), a(2, 2, 2, 1.0, "avg"),
            "'batch_indices' values must be in [0, 1]", "OpenVINO does not check the values (reads out of bounds)"),
        err("err_bad_mode", (d4, boxes, b2), a(2, 2, 2, 1.0, "sum"), "'mode' = 'sum' is not one of"),
    ]
    if op == "ROIAlign-9":
        out.append(err("err_bad_aligned_mode", (d4, boxes, b2), a(2, 2, 2, 1.0, "avg", "align_corners"),
                       "is not one of"))
    return out


def _roi_align_shapes(rng, op, coords=4, attrs=None):
    attrs = attrs or _roi_align_attrs(op, 3, 2, 2, 1.0, "avg")
    out = []
    for i in range(24):
        n, c, h, w, r = (int(v) for v in rng.integers(1, 9, 5))
        ds = None if rng.random() < 0.1 else [blur_dim(rng, d) for d in (n, c, h, w)]
        rs = None if rng.random() < 0.1 else [blur_dim(rng, r), blur_dim(rng, coords)]
        bs = None if rng.random() < 0.1 else [blur_dim(rng, r)]
        out.append(ShapeCase(op, f"p{i:02d}", (info("f32", ds), info("f32", rs), info("i32", bs)), attrs))
    e = lambda id, ds, rs, bs, et="f32", it="i32", at=attrs: ShapeCase(
        op, id, (info(et, ds), info(et, rs), info(it, bs)), at)
    out += [
        e("dynamic_all", None, None, None),
        e("rois_count_from_indices", [1, 3, 8, 8], [-1, coords], [(2, 7)]),
        e("count_intervals_merge", [1, 3, 8, 8], [(1, 5), coords], [(3, 9)]),
        e("count_mismatch", [1, 3, 8, 8], [4, coords], [5]),
        e("count_intervals_disjoint", [1, 3, 8, 8], [(1, 3), coords], [(4, 9)]),
        e("coords_wrong", [1, 3, 8, 8], [4, coords + 1], [4]),
        e("coords_interval", [1, 3, 8, 8], [4, (1, coords)], [4]),
        e("data_rank_5", [1, 3, 8, 8, 1], [4, coords], [4]),
        e("rois_rank_3", [1, 3, 8, 8], [4, coords, 1], [4]),
        e("indices_rank_2", [1, 3, 8, 8], [4, coords], [4, 1]),
        e("f16", [1, (2, 5), 8, 8], [4, coords], [4], "f16"),
        e("bf16_i64", [1, 3, -1, -1], [-1, coords], [-1], "bf16", "i64"),
        e("u8_indices", [2, 3, 8, 8], [4, coords], [4], "f32", "u8"),
        e("zero_rois", [2, 3, 8, 8], [0, coords], [0]),
    ]
    return out


# --- ReorgYolo ---------------------------------------------------------------------------------------
REORG_TYPES = ("f32", "f16", "i32", "u8", "bf16", "i64", "i8", "f64", "boolean", "u16", "i16", "f32")


def _reorg_cases(rng):
    op = "ReorgYolo-1"
    out = []
    for i in range(90):
        et = REORG_TYPES[i % len(REORG_TYPES)]
        s = (2, 1, 3, 2, 4)[i % 5]
        n = int(rng.integers(1, 3))
        # C need not be a multiple of stride^2 (the gather then reads some elements twice)
        c = s * s * int(rng.integers(1, 4)) + (int(rng.integers(0, s * s)) if i % 4 == 3 else 0)
        h, w = s * int(rng.integers(1, 4)), s * int(rng.integers(1, 4))
        out.append(Case(op, f"s{i:03d}_{et}_s{s}_c{c}", (array(rng, et, [n, c, h, w]),), {"stride": [s]}, exact=True))
    x = lambda shape, et="f32": array(rng, et, shape)
    out += [
        Case(op, "spec_26x26", (x([1, 64, 26, 26]),), {"stride": [2]}, exact=True),
        Case(op, "ramp_4x4", (np.arange(64, dtype=np.float32).reshape(1, 4, 4, 4),), {"stride": [2]}, exact=True),
        Case(op, "c_equals_s2", (np.arange(36, dtype=np.int32).reshape(1, 9, 2, 2),), {"stride": [1]}, exact=True),
        Case(op, "c_5_s_2", (np.arange(80, dtype=np.float32).reshape(1, 5, 4, 4),), {"stride": [2]}, exact=True),
        Case(op, "nan_inf", (np.array([np.nan, np.inf, -np.inf, 0, -0.0, 1, 2, 3] * 4, np.float32).reshape(1, 4, 2, 4),),
             {"stride": [2]}, exact=True),
    ]
    err = lambda id, data, attrs, msg, why=None: Case(op, id, (data,), attrs, error=msg, openvino=why)
    out += [
        err("err_c_below_s2", x([1, 3, 4, 4]), {"stride": [2]}, "C >= stride*stride"),
        err("err_h_not_multiple", x([1, 4, 5, 4]), {"stride": [2]}, "multiples of the stride"),
        err("err_w_not_multiple", x([1, 9, 6, 4]), {"stride": [3]}, "multiples of the stride"),
        err("err_rank_3", x([4, 4, 4]), {"stride": [2]}, "must be 4-D"),
        err("err_stride_0", x([1, 4, 4, 4]), {"stride": [0]}, "'stride' must be positive"),
        err("err_stride_empty", x([1, 4, 4, 4]), {"stride": []}, "'stride' is required"),
    ]
    return out


def _reorg_shapes(rng):
    op = "ReorgYolo-1"
    out = []
    for i in range(20):
        s = (2, 1, 3)[i % 3]
        shape = [int(rng.integers(1, 4)), s * s * int(rng.integers(1, 3)), s * int(rng.integers(1, 4)),
                 s * int(rng.integers(1, 4))]
        xs = None if rng.random() < 0.1 else [blur_dim(rng, d) for d in shape]
        out.append(ShapeCase(op, f"p{i:02d}_s{s}", (info("f32", xs),), {"stride": [s]}))
    e = lambda id, xs, st=2, et="f32": ShapeCase(op, id, (info(et, xs),), {"stride": [st]})
    out += [
        e("spec", [1, 64, 26, 26]), e("dynamic_rank", None), e("all_dynamic", [-1, -1, -1, -1]),
        e("interval_hw", [1, 8, (3, 9), (4, None)]), e("interval_hw_no_multiple", [1, 8, (5, 5), 4]),
        e("interval_c", [1, (2, 8), 4, 4]), e("c_too_small", [1, 3, 4, 4]), e("c_upper_too_small", [1, (1, 3), 4, 4]),
        e("h_not_multiple", [1, 4, 3, 4]), e("rank_5", [1, 4, 4, 4, 1]), e("rank_3", [4, 4, 4]),
        e("i8", [2, 4, 2, 2], 2, "i8"), e("stride_3_intervals", [(1, 4), 18, (6, 12), 9], 3),
    ]
    return out


# --- RegionYolo --------------------------------------------------------------------------------------
# Each batch holds its own channels. With more channels than the regions use and more than one image,
# OpenVINO's CPU plugin steps from image to image by the regions' channels only (reading the wrong
# data); such inputs are checked in tests/test_detection_roi.py, the table keeps to one image there.
V2_ANCHORS = [1.08, 1.19, 3.42, 4.41, 6.63, 11.38, 9.42, 5.11, 16.62, 10.52]
V3_ANCHORS = [10, 14, 23, 27, 37, 58, 81, 82, 135, 169, 344, 319]


def _region_attrs(coords, classes, num, softmax, mask=(), axis=1, end_axis=3, anchors=()):
    return {"anchors": list(anchors), "axis": axis, "coords": coords, "classes": classes, "end_axis": end_axis,
            "num": num, "do_softmax": softmax, "mask": list(mask)}


def _region_cases(rng):
    op = "RegionYolo-1"
    out = []
    axes = ((1, 3), (0, 3), (2, 3), (1, 2), (0, 1), (-3, -1), (3, 3), (1, 1), (0, 0), (2, 1))
    for i in range(90):
        et = ("f32", "f16", "f32", "bf16", "f64", "f32")[i % 6]
        coords, classes = int(rng.integers(1, 6)), int(rng.integers(1, 8))
        softmax = i % 2 == 0
        if softmax:
            regions = num = int(rng.integers(1, 6))
            mask = ()
        else:
            num = int(rng.integers(1, 9))
            regions = int(rng.integers(1, 4))
            mask = tuple(int(v) for v in rng.integers(0, num, regions))
        n = int(rng.integers(1, 3))
        extra = int(rng.integers(1, 4)) if i % 5 == 4 else 0
        if extra:
            n = 1
        c = regions * (coords + classes + 1) + extra
        h, w = int(rng.integers(1, 6)), int(rng.integers(1, 6))
        axis, end_axis = axes[(i // 2) % len(axes)]
        attrs = _region_attrs(coords, classes, num, softmax, mask, axis, end_axis)
        out.append(_float_case(op, f"s{i:03d}_{et}_{'v2' if softmax else 'v3'}_c{c}", (array(rng, et, [n, c, h, w]),),
                               attrs))
    x = lambda shape, et="f32": array(rng, et, shape)
    out += [
        _float_case(op, "spec_v2", (x([1, 125, 13, 13]),), _region_attrs(4, 20, 5, True, anchors=V2_ANCHORS)),
        _float_case(op, "spec_v3", (x([1, 255, 4, 4]),), _region_attrs(4, 80, 6, False, [0, 1, 2],
                                                                          anchors=V3_ANCHORS)),
        _float_case(op, "v3_batch_2", (x([2, 18, 3, 3]),), _region_attrs(4, 1, 9, False, [3, 4, 5])),
        _float_case(op, "v2_big_logits", (x([1, 14, 2, 2]) * 20,), _region_attrs(4, 9, 1, True)),
        _float_case(op, "v2_one_class", (x([2, 12, 2, 3]),), _region_attrs(4, 1, 2, True)),
        _float_case(op, "v3_mask_ignores_num", (x([1, 14, 2, 2]),), _region_attrs(2, 4, 1, False, [5, 6])),
    ]
    err = lambda id, data, attrs, msg, why=None: Case(op, id, (data,), attrs, error=msg, openvino=why)
    few = "the regions need that many channels; OpenVINO reads past the data"
    out += [
        err("err_rank_3", x([125, 13, 13]), _region_attrs(4, 20, 5, True), "must be 4-D"),
        err("err_axis", x([1, 125, 2, 2]), _region_attrs(4, 20, 5, True, axis=4), "'axis' = 4 is out of range"),
        err("err_end_axis", x([1, 125, 2, 2]), _region_attrs(4, 20, 5, True, end_axis=-5),
            "'end_axis' = -5 is out of range"),
        err("err_int_data", x([1, 125, 2, 2], "i32"), _region_attrs(4, 20, 5, True), "element type i32"),
        err("err_too_few_channels_v2", x([1, 100, 2, 2]), _region_attrs(4, 20, 5, True), "fewer than the regions'",
            few),
        err("err_too_few_channels_v3", x([1, 20, 2, 2]), _region_attrs(4, 2, 5, False, [0, 1, 2]),
            "fewer than the regions'", few),
    ]
    neg = "a count below 0 means nothing; OpenVINO's shape inference accepts it (its CPU plugin crashes)"
    out += [err(f"err_negative_{name}_{'v2' if sm else 'v3'}", x([1, 18, 2, 2]),
                {**_region_attrs(4, 1, 3, sm, [0, 1, 2]), name: v},
                f"RegionYolo-1: attribute {name!r} is {v}; a count must be >= 0", neg)
            for name, v, sm in (("coords", -1, True), ("classes", -1, False), ("num", -1, True),
                                ("coords", -2**31, False), ("classes", -2**31, True))]
    return out


def _region_shapes(rng):
    op = "RegionYolo-1"
    out = []
    for i in range(20):
        softmax = i % 2 == 0
        axis, end_axis = int(rng.integers(-4, 4)), int(rng.integers(-4, 4))
        shape = [int(rng.integers(1, 4)), int(rng.integers(1, 40)), int(rng.integers(1, 14)), int(rng.integers(1, 14))]
        xs = None if rng.random() < 0.1 else [blur_dim(rng, d) for d in shape]
        attrs = _region_attrs(4, int(rng.integers(1, 20)), 3, softmax, [0, 1][: int(rng.integers(0, 3))], axis,
                              end_axis)
        out.append(ShapeCase(op, f"p{i:02d}_{'v2' if softmax else 'v3'}", (info("f32", xs),), attrs))
    e = lambda id, xs, attrs, et="f32": ShapeCase(op, id, (info(et, xs),), attrs)
    v2, v3 = _region_attrs(4, 20, 5, True), _region_attrs(4, 80, 6, False, [0, 1, 2])
    out += [
        e("spec_v2_shape", [1, 125, 13, 13], v2), e("spec_v3_shape", [1, 255, 26, 26], v3), e("v2_dynamic_rank", None, v2),
        e("v3_dynamic_rank", None, v3), e("v2_intervals", [(1, 4), 125, (13, 26), -1], v2),
        e("v3_intervals", [(1, 4), -1, (13, 26), -1], v3), e("rank_3", [125, 13, 13], v2),
        e("v3_rank_5", [1, 255, 26, 26, 1], v3), e("axis_out_of_range", [1, 125, 13, 13], {**v2, "axis": 4}),
        e("end_before_axis", [1, 125, 13, 13], {**v2, "axis": 2, "end_axis": 1}),
        e("v3_empty_mask", [1, 255, 26, 26], {**v3, "mask": []}), e("f16", [1, 125, 13, 13], v2, "f16"),
        e("v3_ignores_axis", [1, 255, 26, 26], {**v3, "axis": 7}),
        # a negative channel count becomes 0 (the kernel rejects negative counts)
        e("v3_negative_classes", [1, 18, 2, 2], {**v3, "classes": -10}),
        e("v3_min_coords", [1, 18, 2, 2], {**v3, "coords": -2**31}),
        e("v2_negative_num", [1, 18, 2, 2], {**v2, "num": -1}),
    ]
    return out


# --- PriorBox / PriorBoxClustered -----------------------------------------------------------------------
SIZE_TYPES = ("i64", "i32", "u8", "i16", "u16", "i8", "u32", "u64")
VARIANCES = ([], [0.1], [0.1, 0.1, 0.2, 0.2], [0.5])
# PriorBox's inputs are constants in every model OpenVINO's CPU plugin compiles here: it folds them with
# OpenVINO's reference, so the fixed_size density grids (where the plugin's own kernel departs) are
# checked against the reference too.


def _prior_attrs(op, **kw):
    a = {"min_size": [], "max_size": [], "aspect_ratio": [], "density": [], "fixed_ratio": [], "fixed_size": [],
         "clip": False, "flip": False, "step": 0.0, "offset": 0.5, "variance": [], "scale_all_sizes": True}
    if op == "PriorBox-8":
        a["min_max_aspect_ratios_order"] = True
    return {**a, **kw}


def _prior_sample(rng, op, i):
    """SSD-style (min/max sizes, aspect ratios), mxnet-style (sizes relative to the image height) or
    fixed-size (density grids) attributes."""
    ratios = [float(v) for v in rng.choice([2.0, 3.0, 0.5, 1.0, 1.5, 0.25], int(rng.integers(0, 4)), replace=False)]
    common = {"clip": bool(rng.integers(0, 2)), "flip": bool(rng.integers(0, 2)),
              "offset": float(rng.choice([0.5, 0.0, 0.3])), "variance": VARIANCES[int(rng.integers(0, 4))]}
    if op == "PriorBox-8":
        common["min_max_aspect_ratios_order"] = bool(rng.integers(0, 2))
    kind = ("ssd", "ssd", "mxnet", "fixed")[i % 4]
    if kind == "ssd":
        mins = sorted(float(v) for v in rng.integers(2, 60, int(rng.integers(1, 4))))
        maxs = [m + float(rng.integers(1, 40)) for m in mins[: int(rng.integers(0, len(mins) + 1))]]
        step = float(rng.choice([0.0, 8.0, 16.0, 5.5]))
        return kind, _prior_attrs(op, min_size=mins, max_size=maxs, aspect_ratio=ratios, step=step, **common)
    if kind == "mxnet":
        mins = sorted(float(v) for v in rng.uniform(0.05, 0.9, int(rng.integers(1, 4))).round(3))
        step = float(rng.choice([0.0, -1.0, 0.125]))
        return kind, _prior_attrs(op, min_size=mins, aspect_ratio=ratios, step=step, scale_all_sizes=False, **common)
    sizes = [float(v) for v in rng.integers(3, 40, int(rng.integers(1, 3)))]
    density = [float(v) for v in rng.integers(1, 4, len(sizes))]
    fixed = {"fixed_size": sizes, "density": density, "step": float(rng.choice([0.0, 16.0]))}
    if rng.random() < 0.5:        # fixed ratios: as many as the aspect ratios OpenVINO counts
        ratios = ratios[:1] if rng.random() < 0.5 else []
        count = len({1.0, *ratios, *([1 / r for r in ratios] if common["flip"] else [])})
        fixed["fixed_ratio"] = [float(v) for v in rng.choice([1.0, 2.0, 0.5, 3.0], count, replace=False)]
    return kind, _prior_attrs(op, aspect_ratio=ratios, **fixed, **common)


def _prior_box_cases(rng, op):
    out = []
    for i in range(84):
        kind, attrs = _prior_sample(rng, op, i)
        et = SIZE_TYPES[i % len(SIZE_TYPES)]
        dt = element_type(et).dtype
        grid = np.array([int(rng.integers(1, 6)), int(rng.integers(1, 6))], dt)
        image = np.array([int(rng.integers(10, 120)), int(rng.integers(10, 120))], dt)
        out.append(Case(op, f"s{i:03d}_{kind}_{et}", (grid, image), attrs))
    a = lambda **kw: _prior_attrs(op, **kw)
    g = lambda *v: np.array(v, np.int64)
    edges = [
        ("spec_example", g(24, 42), g(384, 672), a(aspect_ratio=[2.0], flip=True, max_size=[38.46], min_size=[16.0],
                                                   step=16.0, variance=[0.1, 0.1, 0.2, 0.2])),
        ("ssd300_conv4", g(38, 38), g(300, 300), a(min_size=[30.0], max_size=[60.0], aspect_ratio=[2.0], flip=True,
                                                   clip=False, step=8.0, variance=[0.1, 0.1, 0.2, 0.2])),
        ("duplicate_ratios", g(3, 2), g(60, 40), a(min_size=[10.0], aspect_ratio=[2.0, 2.0, 0.5, 1.0], flip=True)),
        ("clip_big_boxes", g(2, 3), g(20, 30), a(min_size=[40.0], max_size=[80.0], clip=True)),
        ("mxnet_step_minus_1", g(4, 4), g(64, 48), a(min_size=[0.2, 0.5], aspect_ratio=[2.0, 0.5], step=-1.0,
                                                     scale_all_sizes=False)),
        ("one_cell", g(1, 1), g(8, 8), a(min_size=[4.0, 6.0], max_size=[5.0, 7.0], aspect_ratio=[3.0], flip=True,
                                         variance=[0.2])),
        ("offset_0_step", g(3, 3), g(30, 30), a(min_size=[5.0], offset=0.0, step=10.0)),
        ("non_square_image", g(2, 5), g(20, 100), a(min_size=[7.0], aspect_ratio=[2.0], flip=True)),
    ]
    out += [Case(op, id, (grid, image), attrs) for id, grid, image, attrs in edges]
    out += [Case(op, "fixed_density_odd", (g(2, 2), g(32, 32)), a(fixed_size=[7.0], density=[3.0])),
            Case(op, "fixed_density_even", (g(2, 3), g(32, 48)), a(fixed_size=[16.0], density=[2.0], step=16.0)),
            Case(op, "fixed_ratio", (g(2, 2), g(40, 40)), a(fixed_size=[10.0, 20.0], density=[2.0, 1.0],
                                                            fixed_ratio=[2.0])),
            Case(op, "fixed_with_aspect", (g(2, 2), g(40, 40)), a(fixed_size=[9.0], density=[2.0], aspect_ratio=[2.0],
                                                                  flip=True))]
    err = lambda id, grid, image, attrs, msg, why=None: Case(op, id, (grid, image), attrs, error=msg, openvino=why)
    few = "the attributes' boxes do not fill the output OpenVINO declares (its reference writes out of bounds)"
    out += [
        err("err_output_size_3", g(2, 2, 2), g(10, 10), a(min_size=[2.0]), "two elements"),
        err("err_output_size_2d", np.array([[2, 2]]), g(10, 10), a(min_size=[2.0]), "must be 1-D"),
        err("err_output_size_negative", np.array([-3, 4]), g(10, 10), a(min_size=[2.0]), "must be >= 0",
            "output_size is a feature map's height and width; OpenVINO's shape inference declares [2, 0] for a "
            "negative one, a model its kernels cannot fill"),
        err("err_float_sizes", np.array([2.0, 2.0], np.float32), g(10, 10), a(min_size=[2.0]), "element type f32"),
        err("err_variance_3", g(2, 2), g(10, 10), a(min_size=[2.0], variance=[0.1, 0.2, 0.3]),
            "'variance' must have 0, 1 or 4 values", "OpenVINO's shape inference does not check it"),
        err("err_fixed_without_density", g(2, 2), g(10, 10), a(fixed_size=[4.0]), "'density' must have a value",
            few),
        err("err_fixed_and_min_size", g(2, 2), g(10, 10), a(fixed_size=[4.0], density=[1.0], min_size=[2.0]),
            "describe", few),
    ]
    ratio = ("the spec allows positive aspect ratios only; OpenVINO accepts 0 and negative ones and returns "
             "inf/nan boxes")
    out += [err(f"err_aspect_ratio_{n}", g(2, 2), g(10, 10), a(min_size=[2.0], aspect_ratio=r, flip=f),
                f"{op}: attribute 'aspect_ratio' must hold positive finite ratios", ratio)
            for n, r, f in (("zero_flip", [0.0], True), ("zero", [2.0, 0.0], False), ("negative", [-1.0], True))]
    return out


def _prior_box_clustered_cases(rng):
    op = "PriorBoxClustered-1"
    out = []
    for i in range(96):
        et = SIZE_TYPES[i % len(SIZE_TYPES)]
        dt = element_type(et).dtype
        k = int(rng.integers(1, 5))
        attrs = {"width": [float(v) for v in rng.uniform(1, 80, k).round(2)],
                 "height": [float(v) for v in rng.uniform(1, 80, k).round(2)],
                 "clip": bool(rng.integers(0, 2)), "offset": float(rng.choice([0.5, 0.0, 0.25])),
                 "variance": VARIANCES[int(rng.integers(0, 4))]}
        steps = int(rng.integers(0, 4))
        if steps == 1:
            attrs["step"] = float(rng.choice([8.0, 16.0]))
        elif steps == 2:
            attrs["step_w"], attrs["step_h"] = float(rng.integers(4, 20)), float(rng.integers(4, 20))
        elif steps == 3:
            attrs["step"], attrs["step_w"] = 10.0, float(rng.integers(4, 20))     # step_h falls back to step
        grid = np.array([int(rng.integers(1, 6)), int(rng.integers(1, 6))], dt)
        image = np.array([int(rng.integers(10, 120)), int(rng.integers(10, 120))], dt)
        out.append(Case(op, f"s{i:03d}_{et}_k{k}_steps{steps}", (grid, image), attrs))
    g = lambda *v: np.array(v, np.int64)
    out += [
        Case(op, "spec_like", (g(10, 19), g(180, 320)), {"width": [86.0, 13.0, 57.0, 39.0, 68.0, 34.0, 142.0, 50.0,
             23.0], "height": [44.0, 10.0, 30.0, 19.0, 94.0, 32.0, 61.0, 53.0, 17.0], "clip": False, "step": 16.0,
             "offset": 0.5, "variance": [0.1, 0.1, 0.2, 0.2]}),
        Case(op, "one_cell_no_clip", (g(1, 1), g(10, 10)), {"width": [30.0], "height": [4.0], "clip": False,
                                                            "offset": 0.5}),
        Case(op, "only_step_h", (g(3, 2), g(30, 20)), {"width": [4.0], "height": [6.0], "step_h": 7.0, "offset": 0.5}),
        Case(op, "no_boxes", (g(3, 2), g(30, 20)), {"width": [], "height": [], "offset": 0.5}),
    ]
    err = lambda id, grid, image, attrs, msg, why=None: Case(op, id, (grid, image), attrs, error=msg, openvino=why)
    out += [
        err("err_width_height_length", g(2, 2), g(10, 10), {"width": [1.0, 2.0], "height": [1.0], "offset": 0.5},
            "same length"),
        err("err_output_size_3", g(2, 2, 2), g(10, 10), {"width": [1.0], "height": [1.0], "offset": 0.5},
            "two elements"),
        err("err_float_sizes", np.array([2.0, 2.0], np.float32), g(10, 10), {"width": [1.0], "height": [1.0],
            "offset": 0.5}, "element type f32"),
        err("err_variance_2", g(2, 2), g(10, 10), {"width": [1.0], "height": [1.0], "offset": 0.5,
                                                   "variance": [0.1, 0.2]}, "'variance' must have 0, 1 or 4 values",
            "OpenVINO's shape inference does not check it"),
    ]
    return out


def _prior_shapes(rng, op):
    attrs = ({"width": [2.0, 3.0], "height": [1.0, 4.0], "offset": 0.5} if op == "PriorBoxClustered-1" else
             _prior_attrs(op, min_size=[2.0, 4.0], max_size=[3.0], aspect_ratio=[2.0], flip=True))
    out = []
    for i in range(16):
        et = SIZE_TYPES[i % len(SIZE_TYPES)]
        dt = element_type(et).dtype
        known = i % 3 != 2
        grid = np.array([int(rng.integers(1, 40)), int(rng.integers(1, 40))], dt)
        g = info(et, [2], grid) if known else info(et, [blur_dim(rng, 2)])
        img = info(et, [2], np.array([100, 120], dt)) if i % 2 else info(et, [blur_dim(rng, 2)])
        out.append(ShapeCase(op, f"p{i:02d}_{et}{'_known' if known else ''}", (g, img), attrs))
    e = lambda id, g, img, at=attrs: ShapeCase(op, id, (g, img), at)
    c = lambda *v, et="i64": info(et, [len(v)], np.array(v, element_type(et).dtype))
    out += [
        e("dynamic_ranks", info("i64", None), info("i64", None)),
        e("known_grid_dynamic_image", c(3, 4), info("i64", None)),
        e("grid_3_values", c(3, 4, 5), c(30, 30)),
        e("grid_rank_2", info("i64", [1, 2]), c(30, 30)),
        e("image_rank_2", c(3, 4), info("i64", [1, 2])),
        e("image_rank_0", c(3, 4), info("i64", [])),
        e("float_grid", info("f32", [2], np.array([2, 2], np.float32)), c(30, 30)),
        e("zero_grid", c(0, 4), c(30, 30)),
        e("i32_grid", c(5, 7, et="i32"), c(300, 300, et="i32")),
    ]
    if op != "PriorBoxClustered-1":
        for id, at in (("fixed_size_density", _prior_attrs(op, fixed_size=[8.0, 16.0], density=[2.0, 3.0])),
                       ("fixed_ratio_shape", _prior_attrs(op, fixed_size=[8.0], density=[3.0],
                                                          fixed_ratio=[1.0, 2.0])),
                       ("mxnet", _prior_attrs(op, min_size=[0.1, 0.2, 0.3], aspect_ratio=[2.0, 3.0], flip=True,
                                              scale_all_sizes=False)),
                       ("ratios_rounded", _prior_attrs(op, min_size=[4.0], aspect_ratio=[2.0, 2.0000001, 0.5],
                                                       flip=True)),
                       ("no_sizes", _prior_attrs(op)),
                       # 0 flips to an infinite ratio, counted apart (the kernel rejects both, as the spec does)
                       ("zero_ratio_flipped", _prior_attrs(op, min_size=[4.0], aspect_ratio=[0.0], flip=True)),
                       ("negative_ratio", _prior_attrs(op, min_size=[4.0], aspect_ratio=[-1.0, 2.0]))):
            out.append(e(id, c(3, 5), c(30, 50), at))
    else:
        out.append(e("width_height_mismatch", c(3, 5), c(30, 50), {"width": [2.0], "height": [], "offset": 0.5}))
    return out


# --- ROIPooling --------------------------------------------------------------------------------------
def _roi_pool_rois(rng, r, n, h, w, scale, method, dtype):
    b = rng.integers(0, n, r).astype(np.float64)
    if method == "max":
        boxes = _boxes(rng, r, h, w, scale)
    else:           # normalised, a few slightly outside [0, 1]
        c = rng.uniform(-0.15, 1.15, (r, 4))
        boxes = np.stack([np.minimum(c[:, 0], c[:, 2]), np.minimum(c[:, 1], c[:, 3]),
                          np.maximum(c[:, 0], c[:, 2]), np.maximum(c[:, 1], c[:, 3])], 1)
    return np.concatenate([b[:, None], boxes], 1).astype(dtype)


def _roi_pooling_cases(rng):
    op = "ROIPooling-1"
    out = []
    for i in range(84):
        et = FLOATS[i % len(FLOATS)]
        method = ("max", "bilinear")[i % 2]
        n, c = int(rng.integers(1, 4)), int(rng.integers(1, 5))
        h, w = int(rng.integers(1, 10)), int(rng.integers(1, 10))
        if method == "bilinear":
            h, w = max(h, 2), max(w, 2)
        ss = float(rng.choice([1.0, 0.5, 0.25, 0.0625])) if method == "max" else 1.0
        data = array(rng, et, [n, c, h, w])
        rois = _roi_pool_rois(rng, int(rng.integers(1, 6)), n, h, w, ss, method, data.dtype)
        attrs = {"pooled_h": int(rng.integers(1, 5)), "pooled_w": int(rng.integers(1, 5)), "spatial_scale": ss,
                 "method": method}
        out.append(_float_case(op, f"s{i:03d}_{et}_{method}", (data, rois), attrs))
    x = lambda shape, et="f32": array(rng, et, shape)
    a = lambda ph, pw, ss=1.0, m="max": {"pooled_h": ph, "pooled_w": pw, "spatial_scale": ss, "method": m}
    ramp = np.arange(36, dtype=np.float32).reshape(1, 1, 6, 6)
    f = lambda *rows: np.array(rows, np.float32)
    out += [_float_case(op, id, inputs, attrs) for id, inputs, attrs in [
        ("ramp_max", (ramp, f([0, 0, 0, 5, 5], [0, 1, 1, 3, 4])), a(2, 2)),
        ("ramp_bilinear", (ramp, f([0, 0, 0, 1, 1], [0, 0.2, 0.1, 0.7, 0.9])), a(3, 2, m="bilinear")),
        ("bilinear_1x1", (ramp, f([0, 0.1, 0.2, 0.5, 0.9])), a(1, 1, m="bilinear")),
        ("bilinear_outside", (ramp, f([0, -0.5, -0.5, 1.5, 1.5])), a(3, 3, m="bilinear")),
        ("max_malformed", (x([1, 2, 6, 6]), f([0, 4, 4, 1, 1], [0, 2, 2, 2, 2])), a(2, 2)),
        ("max_outside", (x([1, 2, 5, 5]), f([0, 6, 6, 9, 9], [0, -4, -4, -2, -2], [0, -1, -1, 7, 7])), a(3, 3)),
        ("max_half_rounding", (x([2, 2, 8, 8]), f([1, 0.5, 1.5, 2.5, 3.5], [0, 1.49, 0.51, 6.5, 6.5])), a(2, 3)),
        ("max_scale_16", (x([1, 3, 10, 10]), f([0, 16, 16, 128, 96], [0, 0, 0, 159, 159])), a(7, 7, 0.0625)),
        ("max_more_bins_than_pixels", (x([1, 2, 4, 4]), f([0, 1, 1, 2, 2])), a(4, 5)),
        ("max_negative_data", (-np.abs(x([1, 2, 5, 5])) - 1, f([0, 0, 0, 4, 4], [0, 1, 2, 3, 3])), a(2, 2)),
        ("f16_bilinear", (x([1, 2, 5, 7], "f16"), f([0, 0.1, 0.1, 0.9, 0.8]).astype(np.float16)), a(2, 3, m="bilinear")),
        ("empty_rois", (x([1, 2, 4, 4]), np.zeros((0, 5), np.float32)), a(2, 2)),
    ]]
    d4, rois = x([2, 3, 6, 6]), f([0, 0, 0, 3, 3], [1, 1, 2, 4, 5])
    err = lambda id, inputs, attrs, msg, why=None: Case(op, id, inputs, attrs, error=msg, openvino=why)
    out += [
        err("err_pooled_0", (d4, rois), a(0, 2), "'pooled_h', 'pooled_w' must be positive"),
        err("err_scale_0", (d4, rois), a(2, 2, 0.0), "'spatial_scale' must be a positive number"),
        err("err_scale_negative", (d4, rois), a(2, 2, -1.0), "'spatial_scale' must be a positive number"),
        err("err_rois_4", (d4, rois[:, 1:]), a(2, 2), "5 values per box"),
        err("err_rois_type", (d4, rois.astype(np.float16)), a(2, 2), "input 'rois' has element type f16"),
        err("err_int_data", (d4.astype(np.int32), rois.astype(np.int32)), a(2, 2), "element type i32"),
        err("err_data_rank_3", (d4[0], rois), a(2, 2), "must be 4-D"),
        err("err_method", (d4, rois), a(2, 2, m="avg"), "'method' = 'avg' is not one of"),
        err("err_batch_id", (d4, f([2, 0, 0, 3, 3])), a(2, 2), "'batch_indices' values must be in [0, 1]",
            "OpenVINO's CPU plugin does not check the batch id"),
    ]
    return out


def _roi_pooling_shapes(rng):
    op = "ROIPooling-1"
    attrs = {"pooled_h": 3, "pooled_w": 2, "spatial_scale": 0.5, "method": "max"}
    out = []
    for i in range(20):
        n, c, h, w, r = (int(v) for v in rng.integers(1, 9, 5))
        ds = None if rng.random() < 0.1 else [blur_dim(rng, d) for d in (n, c, h, w)]
        rs = None if rng.random() < 0.1 else [blur_dim(rng, r), blur_dim(rng, 5)]
        out.append(ShapeCase(op, f"p{i:02d}", (info("f32", ds), info("f32", rs)), attrs))
    e = lambda id, ds, rs, et="f32", at=attrs: ShapeCase(op, id, (info(et, ds), info(et, rs)), at)
    out += [
        e("dynamic_all", None, None), e("rois_5_interval", [1, 3, 8, 8], [4, (1, 5)]),
        e("rois_4", [1, 3, 8, 8], [4, 4]), e("rois_rank_3", [1, 3, 8, 8], [4, 5, 1]),
        e("data_rank_5", [1, 3, 8, 8, 1], [4, 5]), e("f16", [1, (2, 5), 8, 8], [-1, 5], "f16"),
        e("bilinear", [1, 3, 8, 8], [(1, 9), 5], at={**attrs, "method": "bilinear"}),
        e("pooled_w_0", [1, 3, 8, 8], [4, 5], at={**attrs, "pooled_w": 0}),
        e("scale_0", [1, 3, 8, 8], [4, 5], at={**attrs, "spatial_scale": 0.0}),
        e("scale_negative", [1, 3, 8, 8], [4, 5], at={**attrs, "spatial_scale": -2.0}),
        e("zero_rois", [2, 3, 8, 8], [0, 5]),
    ]
    return out


# --- PSROIPooling ------------------------------------------------------------------------------------
# bilinear mode reads boxes in normalised coordinates: OpenVINO's CPU plugin and its reference disagree
# on samples before or past the map (unsigned casts in the reference), so the bilinear cases keep boxes
# inside [0, 1] (opref rejects samples before the map).
def _psroi_rois(rng, r, n, h, w, scale, mode, dtype):
    b = rng.integers(0, n, r).astype(np.float64)
    if mode == "average":
        c = rng.uniform(-0.2, 1.2, (r, 4)) * np.array([w, h, w, h]) / scale
    else:
        c = rng.uniform(0, 1, (r, 4))
    boxes = np.stack([np.minimum(c[:, 0], c[:, 2]), np.minimum(c[:, 1], c[:, 3]),
                      np.maximum(c[:, 0], c[:, 2]), np.maximum(c[:, 1], c[:, 3])], 1)
    return np.concatenate([b[:, None], boxes], 1).astype(dtype)


def _psroi_attrs(od, g, ss, mode="average", bx=1, by=1):
    return {"output_dim": od, "group_size": g, "spatial_scale": ss, "mode": mode, "spatial_bins_x": bx,
            "spatial_bins_y": by}


def _psroi_cases(rng):
    op = "PSROIPooling-1"
    out = []
    for i in range(84):
        et = FLOATS[i % len(FLOATS)]
        mode = ("average", "bilinear")[i % 2]
        od, g = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        bx, by = (int(rng.integers(1, 4)), int(rng.integers(1, 4))) if mode == "bilinear" else (1, 1)
        c = od * (g * g if mode == "average" else bx * by)
        n, h, w = int(rng.integers(1, 3)), int(rng.integers(2, 9)), int(rng.integers(2, 9))
        ss = float(rng.choice([1.0, 0.5, 0.25])) if mode == "average" else 1.0
        data = array(rng, et, [n, c, h, w])
        rois = _psroi_rois(rng, int(rng.integers(1, 5)), n, h, w, ss, mode, data.dtype)
        out.append(_float_case(op, f"s{i:03d}_{et}_{mode}_g{g}", (data, rois), _psroi_attrs(od, g, ss, mode, bx, by)))
    x = lambda shape, et="f32": array(rng, et, shape)
    f = lambda *rows: np.array(rows, np.float32)
    ramp = np.arange(4 * 36, dtype=np.float32).reshape(1, 4, 6, 6)
    out += [_float_case(op, id, inputs, attrs) for id, inputs, attrs in [
        ("ramp_average", (ramp, f([0, 0, 0, 5, 5], [0, 1, 1, 3, 4])), _psroi_attrs(1, 2, 1.0)),
        ("ramp_bilinear", (ramp, f([0, 0, 0, 1, 1], [0, 0.2, 0.1, 0.7, 0.9])), _psroi_attrs(1, 3, 1.0, "bilinear", 2, 2)),
        ("bilinear_group_1", (ramp, f([0, 0.1, 0.2, 0.5, 0.9])), _psroi_attrs(2, 1, 1.0, "bilinear", 2, 1)),
        ("average_past_map", (ramp, f([0, 3, 3, 9, 9], [0, -4, -4, -1, -1])), _psroi_attrs(1, 2, 1.0)),
        ("average_reversed", (ramp, f([0, 4, 4, 1, 1])), _psroi_attrs(1, 2, 1.0)),
        ("rfcn_like", (x([1, 2 * 49, 14, 14]), _psroi_rois(rng, 6, 1, 14, 14, 0.0625, "average", np.float32)),
         _psroi_attrs(2, 7, 0.0625)),
        ("average_edge_box", (x([1, 8, 5, 5]), f([0, 4, 4, 9, 9], [0, 0, 0, 0, 0])), _psroi_attrs(2, 2, 1.0)),
        ("f16_average", (x([2, 9, 6, 6], "f16"), _psroi_rois(rng, 3, 2, 6, 6, 1.0, "average", np.float16)),
         _psroi_attrs(1, 3, 1.0)),
        ("empty_rois", (x([1, 4, 4, 4]), np.zeros((0, 5), np.float32)), _psroi_attrs(1, 2, 1.0)),
    ]]
    d, rois = x([2, 8, 6, 6]), f([0, 0, 0, 3, 3], [1, 1, 2, 4, 5])
    err = lambda id, inputs, attrs, msg, why=None: Case(op, id, inputs, attrs, error=msg, openvino=why)
    neg = "OpenVINO reads such boxes through unsigned casts (out of bounds)"
    out += [
        err("err_channels", (d, rois), _psroi_attrs(1, 3, 1.0), "channels"),
        err("err_channels_bilinear", (d, rois), _psroi_attrs(1, 2, 1.0, "bilinear", 3, 1), "channels"),
        err("err_group_0", (d, rois), _psroi_attrs(2, 0, 1.0), "'group_size' must be > 0"),
        err("err_bins_0", (d, rois), _psroi_attrs(8, 2, 1.0, "bilinear", 0, 1), "'spatial_bins_x', 'spatial_bins_y'"),
        err("err_scale_0", (d, rois), _psroi_attrs(2, 2, 0.0), "'spatial_scale' must be a positive number"),
        err("err_rois_4", (d, rois[:, 1:]), _psroi_attrs(2, 2, 1.0), "5 values per box"),
        err("err_mode", (d, rois), _psroi_attrs(2, 2, 1.0, "max"), "'mode' = 'max' is not one of"),
        err("err_negative_box", (d, f([0, -0.5, 0, 0.3, 0.3])), _psroi_attrs(8, 2, 1.0, "bilinear"), "before the map",
            neg),
        err("err_batch_id", (d, f([2, 0, 0, 3, 3])), _psroi_attrs(2, 2, 1.0), "'batch_indices' values",
            "OpenVINO does not check the batch id"),
    ]
    return out


def _psroi_shapes(rng):
    op = "PSROIPooling-1"
    out = []
    for i in range(20):
        mode = ("average", "bilinear")[i % 2]
        od, g, bx, by = (int(v) for v in rng.integers(1, 4, 4))
        c = od * (g * g if mode == "average" else bx * by)
        ds = None if rng.random() < 0.1 else [blur_dim(rng, d) for d in (2, c, 8, 8)]
        rs = None if rng.random() < 0.1 else [blur_dim(rng, int(rng.integers(1, 9))), blur_dim(rng, 5)]
        out.append(ShapeCase(op, f"p{i:02d}_{mode}", (info("f32", ds), info("f32", rs)),
                             _psroi_attrs(od, g, 0.5, mode, bx, by)))
    e = lambda id, ds, rs, at, et="f32": ShapeCase(op, id, (info(et, ds), info(et, rs)), at)
    a = _psroi_attrs(2, 3, 0.0625)
    out += [
        e("dynamic_all", None, None, a), e("channels_wrong", [1, 17, 8, 8], [4, 5], a),
        e("channels_interval", [1, (10, 20), 8, 8], [4, 5], a), e("channels_interval_wrong", [1, (1, 10), 8, 8], [4, 5], a),
        e("rois_4", [1, 18, 8, 8], [4, 4], a), e("data_rank_3", [18, 8, 8], [4, 5], a),
        e("group_0", [1, 18, 8, 8], [4, 5], _psroi_attrs(2, 0, 1.0)),
        e("bins_0", [1, 18, 8, 8], [4, 5], _psroi_attrs(2, 3, 1.0, "bilinear", 0, 3)),
        e("scale_negative", [1, 18, 8, 8], [4, 5], _psroi_attrs(2, 3, -1.0)),
        e("f16", [1, 18, 8, 8], [(1, 9), 5], a, "f16"),
        e("bilinear_bins", [1, 12, 8, 8], [3, 5], _psroi_attrs(2, 5, 1.0, "bilinear", 3, 2)),
    ]
    return out


def cases():
    out = []
    for op in ("ROIAlign-3", "ROIAlign-9"):
        rng = rng_for(op)
        out += _roi_align_edges(rng, op) + _roi_align_sampled(rng, op, 80)
    out += _reorg_cases(rng_for("ReorgYolo-1")) + _region_cases(rng_for("RegionYolo-1"))
    for op in ("PriorBox-1", "PriorBox-8"):
        out += _prior_box_cases(rng_for(op), op)
    out += _prior_box_clustered_cases(rng_for("PriorBoxClustered-1"))
    out += _roi_pooling_cases(rng_for("ROIPooling-1")) + _psroi_cases(rng_for("PSROIPooling-1"))
    return out


def shape_cases():
    out = []
    for op in ("ROIAlign-3", "ROIAlign-9"):
        out += _roi_align_shapes(rng_for(op, 1), op)
    out += _reorg_shapes(rng_for("ReorgYolo-1", 1)) + _region_shapes(rng_for("RegionYolo-1", 1))
    for op in ("PriorBox-1", "PriorBox-8", "PriorBoxClustered-1"):
        out += _prior_shapes(rng_for(op, 1), op)
    out += _roi_pooling_shapes(rng_for("ROIPooling-1", 1)) + _psroi_shapes(rng_for("PSROIPooling-1", 1))
    return out
