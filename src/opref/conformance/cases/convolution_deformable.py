"""Cases for DeformableConvolution-1 and -8: sampled value cases (groups, deformable groups, every
auto_pad mode, mask or none, both bilinear_interpolation_pad modes, fractional offsets that reach
beyond the map), hand-picked edges (zero offsets = Convolution, integer and half-pixel offsets on the
border), and partial-shape cases."""
from __future__ import annotations

import dataclasses

import numpy as np

from ...types import element_type
from . import Case, ShapeCase, info
from ._gen import blur_dim
from .convolution import _values

V1, V8 = "DeformableConvolution-1", "DeformableConvolution-8"
MODES = ("explicit", "valid", "same_upper", "same_lower")
DTYPES = ("f32", "f32", "f16", "f32", "bf16", "f32", "f64", "f32", "i32", "f32", "f16", "f8e4m3", "f32", "i8",
          "f32", "u8", "f32", "f16", "i64", "f32")

NOT_CPU = ("OpenVINO's CPU plugin computes this element type in f32 and OpenVINO's reference implementation "
           "has no kernel for it: checked against a direct transcription of the spec (exact sums)")
F8_VIA_F32 = ("OpenVINO has no f8 deformable convolution: asked with the f8 values widened to f32 (exactly), the "
              "f32 result rounded to f8 once, as opref rounds its f32 sums")


def _offsets(rng, et, shape, spread):
    t = element_type(et)
    if t.is_float:
        # quarter pixels: exact in every float type, so positions (and the bilinear weights) are exact
        return (np.round(rng.standard_normal(shape) * spread * 4) / 4).astype(t.dtype)
    return rng.integers(-2, 3, shape).astype(t.dtype)      # integer types sample whole pixels


def _mask(rng, et, shape):
    t = element_type(et)
    if t.is_float:
        return (rng.integers(0, 5, shape) / 4).astype(t.dtype)
    return rng.integers(0, 2, shape).astype(t.dtype)


def _out(size, k, s, d, pb, pe, mode):
    if mode in ("same_upper", "same_lower"):
        return -(-size // s)
    if mode == "valid":
        pb = pe = 0
    return (size + pb + pe - ((k - 1) * d + 1)) // s + 1


def _sample(rng, i):
    g, dg = int(rng.integers(1, 3)), int(rng.integers(1, 3))
    c_in = g * dg * int(rng.integers(1, 3)) if i % 2 else g * dg      # a multiple of both groups
    c_out = g * int(rng.integers(1, 3))
    kernel = [int(rng.integers(1, 4)) for _ in range(2)]
    strides = [int(rng.integers(1, 3)) for _ in range(2)]
    dilations = [int(rng.integers(1, 3)) for _ in range(2)]
    pads_begin = [int(rng.integers(0, 2)) for _ in range(2)]
    pads_end = [int(rng.integers(0, 2)) for _ in range(2)]
    mode = MODES[i % 4]
    sizes = []
    for k, d, pb, pe in zip(kernel, dilations, pads_begin, pads_end):
        window = (k - 1) * d + 1
        least = window if mode == "valid" else max(window - (pb + pe if mode == "explicit" else 0), 1)
        sizes.append(int(rng.integers(max(least, 2), max(least, 6) + 1)))
    attrs = {"strides": strides, "pads_begin": pads_begin, "pads_end": pads_end, "dilations": dilations,
             "auto_pad": mode, "group": g, "deformable_group": dg}
    out = [_out(n, k, s, d, pb, pe, mode) for n, k, s, d, pb, pe in
           zip(sizes, kernel, strides, dilations, pads_begin, pads_end)]
    return c_in, c_out, kernel, sizes, out, attrs


def _mark(case: Case) -> Case:
    t = element_type(case.inputs[0].dtype)
    if t.name.startswith("f8"):
        return dataclasses.replace(case, openvino=F8_VIA_F32, oracle_cast={i: "f32" for i in range(len(case.inputs))})
    if not t.is_float or t.name == "f64":
        return dataclasses.replace(case, openvino=NOT_CPU)
    return case


def _sampled(rng, op, count):
    out = []
    for i in range(count):
        et = DTYPES[i % len(DTYPES)]
        c_in, c_out, kernel, sizes, osz, attrs = _sample(rng, i)
        batch = int(rng.integers(1, 3))
        dg, taps = attrs["deformable_group"], kernel[0] * kernel[1]
        x = _values(rng, et, [batch, c_in] + sizes)
        w = _values(rng, et, [c_out, c_in // attrs["group"]] + kernel)
        off = _offsets(rng, et, [batch, dg * taps * 2] + osz, spread=1.0 + (i % 3))
        inputs = (x, off, w)
        tag = attrs["auto_pad"]
        if op == V8:
            attrs["bilinear_interpolation_pad"] = bool(i % 2)
            tag += "_pad" if i % 2 else ""
            if i % 3:
                inputs += (_mask(rng, et, [batch, dg * taps] + osz),)
                tag += "_mask"
        out.append(Case(op, f"s{i:03d}_{et}_{tag}", inputs, attrs))
    return out


def _attrs(s=1, d=1, pb=0, pe=0, mode="explicit", g=1, dg=1):
    return {"strides": [s, s], "pads_begin": [pb, pb], "pads_end": [pe, pe], "dilations": [d, d], "auto_pad": mode,
            "group": g, "deformable_group": dg}


def _edges(rng, op):
    v8 = op == V8

    def case(id, x_shape, w_shape, attrs, offsets=None, error=None, pad=None, mask=True, et="f32"):
        kh, kw = w_shape[2:]
        dg = attrs.get("deformable_group", 1)
        osz = [max(_out(n, k, max(attrs["strides"][0], 1), attrs["dilations"][0], attrs["pads_begin"][0],
                        attrs["pads_end"][0], attrs["auto_pad"]), 1) for n, k in zip(x_shape[2:], (kh, kw))]
        off_shape = [x_shape[0], dg * kh * kw * 2] + osz
        off = _offsets(rng, et, off_shape, 1.0) if offsets is None else np.broadcast_to(
            np.asarray(offsets, element_type(et).dtype), off_shape).copy()
        inputs = (_values(rng, et, x_shape), off, _values(rng, et, w_shape))
        if v8:
            attrs = {**attrs, "bilinear_interpolation_pad": bool(pad)}
            if mask:
                inputs += (_mask(rng, et, [x_shape[0], dg * kh * kw] + osz),)
        return Case(op, id, inputs, attrs, error=error)

    out = [
        case("zero_offsets_is_convolution", [1, 2, 5, 5], [3, 2, 3, 3], _attrs(pb=1, pe=1), offsets=0.0, mask=False),
        case("integer_offsets", [1, 2, 5, 4], [2, 2, 2, 2], _attrs(), offsets=rng.integers(-2, 3, (1, 8, 4, 3))),
        case("half_pixel_offsets", [1, 2, 4, 4], [2, 2, 2, 2], _attrs(), offsets=0.5),
        case("offsets_to_last_row_plus_half", [1, 1, 3, 3], [1, 1, 1, 1], _attrs(), offsets=[[[[2.5]], [[0.0]]]]),
        case("offsets_to_minus_half", [1, 1, 3, 3], [1, 1, 1, 1], _attrs(), offsets=[[[[-0.5]], [[-0.5]]]]),
        case("offsets_to_minus_one", [1, 1, 3, 3], [1, 1, 1, 1], _attrs(), offsets=[[[[-1.0]], [[0.0]]]]),
        case("offsets_far_outside", [1, 2, 4, 4], [2, 2, 2, 2], _attrs(), offsets=7.25),
        case("deformable_groups_4_group_2", [2, 8, 5, 5], [4, 4, 3, 3], _attrs(pb=1, pe=1, g=2, dg=4)),
        case("depthwise", [1, 4, 5, 5], [4, 1, 3, 3], _attrs(s=2, mode="same_upper", g=4, dg=2)),
        case("strided_dilated_valid", [1, 2, 9, 8], [2, 2, 3, 2], _attrs(s=2, d=2, mode="valid")),
        case("f16", [1, 2, 5, 5], [2, 2, 3, 3], _attrs(pb=1, pe=1), et="f16"),
        case("zero_batch", [0, 2, 4, 4], [2, 2, 2, 2], _attrs()),
        case("err_group_zero", [1, 2, 4, 4], [2, 2, 2, 2], {**_attrs(), "group": 0}, error="'group' must be > 0"),
        case("err_deformable_group_zero", [1, 2, 4, 4], [2, 2, 2, 2], {**_attrs(), "deformable_group": 0},
             error="'deformable_group' must be > 0"),
        case("err_channels_not_divisible_by_group", [1, 3, 4, 4], [2, 1, 2, 2], _attrs(g=2),
             error="data channels (3) must be divisible by 'group' (2)"),
        case("err_channels_mismatch", [1, 4, 4, 4], [2, 1, 2, 2], _attrs(), error="must equal group (1) x filter"),
        case("err_zero_stride", [1, 2, 4, 4], [2, 2, 2, 2], _attrs(s=0), error="'strides' values must be > 0"),
        case("err_kernel_too_large", [1, 2, 2, 2], [2, 2, 3, 3], _attrs(), error="larger than the padded data"),
    ]
    if v8:
        out += [
            case("pad_offsets_to_minus_half", [1, 1, 3, 3], [1, 1, 1, 1], _attrs(), offsets=[[[[-0.5]], [[-0.5]]]],
                 pad=True),
            case("pad_offsets_to_last_plus_half", [1, 1, 3, 3], [1, 1, 1, 1], _attrs(), offsets=[[[[2.5]], [[2.5]]]],
                 pad=True),
            case("pad_offsets_to_minus_one", [1, 1, 3, 3], [1, 1, 1, 1], _attrs(), offsets=[[[[-1.0]], [[0.0]]]],
                 pad=True),
            case("quarter_offsets_pad", [1, 2, 4, 4], [2, 2, 2, 2], _attrs(), offsets=0.25, pad=True),
        ]
    return out


def cases():
    rng = np.random.default_rng(20240803)
    out = []
    for op in (V1, V8):
        out += _edges(rng, op)
        out += _sampled(rng, op, 84)
    return [_mark(c) if c.error is None else c for c in out]


# --- shape cases -----------------------------------------------------------------------------------
def _shape_case(rng, op, i):
    c_in, c_out, kernel, sizes, osz, attrs = _sample(rng, i)
    batch = int(rng.integers(1, 3))
    dg, taps = attrs["deformable_group"], kernel[0] * kernel[1]
    x, w = [batch, c_in] + sizes, [c_out, c_in // attrs["group"]] + kernel
    off, m = [batch, dg * taps * 2] + osz, [batch, dg * taps] + osz
    tag = ""
    r = rng.random()
    if r < 0.05:
        off[1] += 1
        tag = "_offch"
    elif r < 0.09:
        off[3] += 1
        tag = "_offsp"
    elif r < 0.12:
        m[1] += 1
        tag = "_maskch"
    elif r < 0.15:
        x[1] += 1
        tag = "_chan"
    elif r < 0.18:
        off[0] += 1
        tag = "_offbatch"
    elif r < 0.21:
        attrs["group"] = attrs["group"] + 1
        tag = "_group"
    elif r < 0.24:
        attrs["pads_begin"], attrs["pads_end"], attrs["dilations"] = [], [], []
        tag = "_empty"
    blur = lambda shape: None if rng.random() < 0.1 else [blur_dim(rng, d) for d in shape]   # noqa: E731
    inputs = (info("f32", blur(x)), info("f32", blur(off)), info("f32", blur(w)))
    if op == V8:
        attrs["bilinear_interpolation_pad"] = bool(i % 2)
        if i % 3:
            inputs += (info("f32", blur(m)),)
            tag += "_mask"
        elif tag == "_maskch":
            tag = "_nomask"
    return ShapeCase(op, f"p{i:03d}_{attrs['auto_pad']}{tag}", inputs, attrs)


def _shape_edges(op):
    v8 = op == V8

    def sc(id, shapes, attrs):
        if v8:
            attrs = {**attrs, "bilinear_interpolation_pad": False}
        else:
            shapes = shapes[:3]
        return ShapeCase(op, id, tuple(info("f32", s) for s in shapes), attrs)

    return [
        sc("spec_example", [[1, 4, 224, 224], [1, 50, 220, 220], [64, 4, 5, 5], [1, 25, 220, 220]], _attrs()),
        sc("all_dynamic_rank", [None, None, None, None], _attrs()),
        sc("rank_from_offsets", [None, [1, 18, 5, 5], None, None], _attrs()),
        sc("rank_from_filters", [None, None, [2, 2, 3, 3], None], _attrs(pb=1, pe=1)),
        sc("data_rank_5", [[1, 2, 5, 5, 5], [1, 18, 3, 3], [2, 2, 3, 3], [1, 9, 3, 3]], _attrs()),
        sc("offsets_rank_3", [[1, 2, 5, 5], [1, 18, 3], [2, 2, 3, 3], [1, 9, 3, 3]], _attrs()),
        sc("mask_rank_3", [[1, 2, 5, 5], [1, 18, 3, 3], [2, 2, 3, 3], [1, 9, 3]], _attrs()),
        sc("batch_from_offsets", [[-1, 2, 5, 5], [(2, 4), 18, 3, 3], [2, 2, 3, 3], [1, 9, 3, 3]], _attrs()),
        sc("batch_conflict", [[1, 2, 5, 5], [2, 18, 3, 3], [2, 2, 3, 3], [1, 9, 3, 3]], _attrs()),
        sc("mask_batch_conflict", [[1, 2, 5, 5], [1, 18, 3, 3], [2, 2, 3, 3], [2, 9, 3, 3]], _attrs()),
        sc("interval_spatial", [[1, 2, (4, 9), -1], [1, 18, -1, -1], [2, 2, 3, 3], [1, 9, -1, 4]], _attrs(s=2)),
        sc("dynamic_kernel", [[1, 2, 5, 5], [1, -1, 3, 3], [2, 2, -1, 3], [1, -1, 3, 3]], _attrs()),
        sc("offsets_channels_dynamic_dg_2", [[1, 4, 5, 5], [1, (1, 40), 3, 3], [2, 4, 3, 3], None], _attrs(dg=2)),
        sc("offsets_channels_odd_dg_2", [[1, 4, 5, 5], [1, -1, 3, 3], [2, 2, 3, 3], [1, 9, 3, 3]], _attrs(g=2, dg=4)),
        sc("same_lower_dynamic_kernel", [[1, 2, 7, 7], [1, -1, 4, 4], [2, 2, -1, -1], None], _attrs(s=2, mode="same_lower")),
    ]


def shape_cases():
    rng = np.random.default_rng(20240804)
    out = []
    for op in (V1, V8):
        out += _shape_edges(op)
        out += [_shape_case(rng, op, i) for i in range(90)]
    return out
