"""Cases for ConvolutionBackpropData-1 and GroupConvolutionBackpropData-1: sampled value cases over
1-D/2-D/3-D, every auto_pad mode with and without output_shape, output_padding and every element
type of the schema; hand-picked edges (the upsampling layers of segmentation and super-resolution
models, the spec's examples scaled down); and partial-shape cases (dynamic and interval dims, dynamic
ranks, output_shape as a constant and as a parameter, invalid attributes)."""
from __future__ import annotations

import dataclasses

import numpy as np

from ...errors import OprefError
from ...opset import get_schema
from ...opset.convolution_backprop import backprop_pads
from ...types import element_type
from . import Case, ShapeCase, info
from ._gen import blur_dim
from .convolution import _values

CONV, GROUP = "ConvolutionBackpropData-1", "GroupConvolutionBackpropData-1"
MODES = ("explicit", "valid", "same_upper", "same_lower")
# Cycled over the sampled value cases: floats two times in three (integer cases are checked against exact
# sums, not OpenVINO), every schema type regularly.
DTYPES = ("f32", "f16", "i32", "f32", "bf16", "i8", "f32", "f64", "u8", "f32", "f16", "i64", "f32", "f8e4m3",
          "i16", "f32", "f8e5m2", "u16", "f32", "f16", "u32", "f32", "bf16", "u64", "f32", "f16", "i4", "f32",
          "f32", "u4")
MAX_SIZE = {1: 7, 2: 5, 3: 3}

# Why OpenVINO's CPU plugin is not asked as is (tests/test_convolution_backprop.py checks these cases
# against exact direct sums of the spec's formula, and keeps the marks honest).
OUTPUT_SHAPE_PADS = ("with output_shape the spec deduces the pads (total // 2 at the beginning for explicit and "
                     "valid); OpenVINO's CPU plugin crops by pads_begin (explicit) or by 0 (valid)")
GROUP_OF_ONE = ("OpenVINO's CPU plugin fails to compile GroupConvolutionBackpropData with one group; asked as "
                "the equal ConvolutionBackpropData instead")
INTEGER = ("OpenVINO's CPU plugin computes integer deconvolutions in f32 (and differently per ISA): sums "
           "beyond 2^24 and wrapping are lost; checked against exact integer sums")
F64_AS_F32 = "OpenVINO's CPU plugin computes f64 in f32: f64-only precision is lost"
F8_VIA_F32 = ("OpenVINO's CPU plugin has no f8 deconvolution: asked with the f8 values widened to f32 (exactly), "
              "its f32 result rounded to f8 once, as opref rounds its f32 sums")
EMPTY_KERNEL = "OpenVINO's CPU plugin cannot compile a zero-length kernel axis; the sums are empty, so 0"


def _filters_shape(op, g, c_in, c_out, kernel):
    return [g, c_in, c_out] + kernel if op == GROUP else [c_in, c_out] + kernel


def _full(xs, kernel, strides, dilations):
    return [(x - 1) * s + (k - 1) * d + 1 for x, k, s, d in zip(xs, kernel, strides, dilations)]


def _sample(rng, n):
    kmax = 4 if n == 1 else 3 if n == 2 else 2
    kernel = [int(rng.integers(1, kmax + 1)) for _ in range(n)]
    strides = [int(rng.integers(1, 4)) for _ in range(n)]
    dilations = [int(rng.integers(1, 3)) for _ in range(n)]
    xs = [int(rng.integers(1, MAX_SIZE[n] + 1)) for _ in range(n)]
    full = _full(xs, kernel, strides, dilations)
    output_padding = [int(rng.integers(0, s)) if rng.random() < 0.4 else 0 for s in strides]
    # explicit pads that keep at least one output position
    pads_begin, pads_end = [], []
    for f, op in zip(full, output_padding):
        room = f + op - 1
        pads_begin.append(int(rng.integers(0, min(3, room) + 1)))
        pads_end.append(int(rng.integers(0, min(3, room - pads_begin[-1]) + 1)))
    mode = MODES[int(rng.integers(0, len(MODES)))]
    attrs = {"strides": strides, "pads_begin": pads_begin, "pads_end": pads_end, "dilations": dilations,
             "auto_pad": mode, "output_padding": output_padding}
    output_shape = None
    if rng.random() < 0.45:
        output_shape = [max(f + op + int(rng.integers(-3, 3)), 1) for f, op in zip(full, output_padding)]
    return kernel, xs, attrs, output_shape


def _mark(case: Case) -> Case:
    """The reason OpenVINO's CPU plugin is not asked as is, if any."""
    x, w = case.inputs[:2]
    t = element_type(x.dtype)
    reason = None
    if not t.is_float:
        reason = INTEGER
    elif t.name == "f64":
        reason = F64_AS_F32
    elif t.name.startswith("f8"):
        reason = F8_VIA_F32
    elif 0 in w.shape[(3 if case.op == GROUP else 2):]:
        reason = EMPTY_KERNEL
    elif case.op == GROUP and w.shape[0] == 1:
        reason = GROUP_OF_ONE
    n = x.ndim - 2
    pointwise = all(k == 1 for k in w.shape[w.ndim - n:]) and all(v == 1 for v in case.attrs.get("strides") or [1])
    # (a pointwise deconvolution runs on another path of the CPU plugin, which agrees with the spec)
    if len(case.inputs) == 3 and case.attrs.get("auto_pad", "explicit") in ("explicit", "valid") and not pointwise:
        a = case.attrs
        pads, _ = backprop_pads(x.shape[2:], w.shape[-n:], strides=a["strides"], dilations=a["dilations"],
                                output_padding=a.get("output_padding", ()), pads_begin=a["pads_begin"],
                                pads_end=a["pads_end"], auto_pad=a["auto_pad"],
                                output_shape=[int(v) for v in case.inputs[2]])
        cpu_crop = (a["pads_begin"] or [0] * n) if a["auto_pad"] == "explicit" else [0] * n
        if [b for b, _ in pads] != list(cpu_crop):
            reason = OUTPUT_SHAPE_PADS if reason is None else f"{reason}; {OUTPUT_SHAPE_PADS}"
    if reason is None:
        return case
    cast = {0: "f32", 1: "f32"} if reason == F8_VIA_F32 else {}
    return dataclasses.replace(case, openvino=reason, oracle_cast=cast)


def _sampled(rng, op: str, count: int) -> list[Case]:
    out = []
    for i in range(count):
        n = 1 + i % 3
        et = DTYPES[i % len(DTYPES)]
        kernel, xs, attrs, output_shape = _sample(rng, n)
        batch = int(rng.integers(1, 3))
        c_in, c_out = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        g = int(rng.integers(2, 4)) if op == GROUP and i % 7 else 1          # one group now and then
        if op == GROUP and i % 5 == 0:
            c_in = 1                                                          # depthwise
        x = _values(rng, et, [batch, g * c_in] + xs)
        w = _values(rng, et, _filters_shape(op, g, c_in, c_out, kernel))
        inputs = (x, w)
        tag = attrs["auto_pad"]
        if output_shape is not None:
            inputs += (np.array(output_shape, np.int64 if i % 2 else np.int32),)
            tag += "_oshape"
        out.append(Case(op, f"s{i:03d}_{n}d_{et}_{tag}", inputs, attrs))
    return out


def _attrs(n, s=1, d=1, pb=0, pe=0, mode="explicit", op=0):
    return {"strides": [s] * n, "pads_begin": [pb] * n, "pads_end": [pe] * n, "dilations": [d] * n,
            "auto_pad": mode, "output_padding": [op] * n}


def _edges(rng, op: str) -> list[Case]:
    group = op == GROUP

    def ws(c_in, c_out, kernel, g=2):
        return _filters_shape(op, g if group else 1, c_in, c_out, kernel)

    def xc(c_in, g=2):
        return c_in * (g if group else 1)

    def case(id, x_shape, w_shape, attrs, output_shape=None, et="f32", error=None, values=None):
        x, w = (_values(rng, et, x_shape), _values(rng, et, w_shape)) if values is None else values
        inputs = (x, w) if output_shape is None else (x, w, np.array(output_shape, np.int64))
        return Case(op, id, inputs, attrs, error=error)

    def two(c_in):
        return [1, xc(c_in)]

    cases = [
        # the spec's examples, smaller: 3x3 stride 2 pads 1 (2N-1), output_padding 2 with stride 3, output_shape
        case("spec_example_1", two(4) + [6, 6], ws(4, 3, [3, 3]), _attrs(2, s=2, pb=1, pe=1)),
        case("spec_example_2_output_padding", two(4) + [2, 2], ws(4, 3, [3, 3]), _attrs(2, s=3, op=2)),
        case("spec_example_3_output_shape_valid", two(4) + [5, 5], ws(4, 3, [3, 3]), _attrs(2, pb=1, pe=1,
             mode="valid"), output_shape=[9, 9]),
        # the upsampling layers of real models
        case("upsample_2x2_s2", [2, xc(3)] + [4, 5], ws(3, 2, [2, 2]), _attrs(2, s=2)),
        case("dcgan_4x4_s2_p1", [1, xc(3)] + [4, 4], ws(3, 2, [4, 4]), _attrs(2, s=2, pb=1, pe=1)),
        case("unet_3x3_s2_p1_op1", [1, xc(2)] + [5, 4], ws(2, 3, [3, 3]), _attrs(2, s=2, pb=1, pe=1, op=1)),
        case("fcn_16x16_s8_p4", [1, xc(2)] + [3, 2], ws(2, 2, [16, 16]), _attrs(2, s=8, pb=4, pe=4)),
        case("same_upper_s2_oshape_even", [1, xc(2)] + [4, 3], ws(2, 2, [3, 3]), _attrs(2, s=2, mode="same_upper"),
             output_shape=[8, 6]),
        case("same_lower_s2_oshape_even", [1, xc(2)] + [4, 3], ws(2, 2, [3, 3]), _attrs(2, s=2, mode="same_lower"),
             output_shape=[8, 6]),
        case("same_upper_odd_total", [1, xc(2), 5], ws(2, 2, [4]), _attrs(1, s=2, mode="same_upper"),
             output_shape=[10]),
        case("same_lower_odd_total", [1, xc(2), 5], ws(2, 2, [4]), _attrs(1, s=2, mode="same_lower"),
             output_shape=[10]),
        case("same_upper_no_oshape_is_valid", [1, xc(2), 5], ws(2, 2, [3]), _attrs(1, s=2, pb=2, mode="same_upper")),
        case("valid_ignores_pads", [1, xc(2), 5], ws(2, 2, [3]), _attrs(1, s=2, pb=2, pe=1, mode="valid")),
        case("oshape_larger_zeros_at_end", [1, xc(2), 4], ws(2, 2, [3]), _attrs(1, s=2, mode="same_upper"),
             output_shape=[13]),
        case("oshape_valid_larger", [1, xc(2), 4], ws(2, 2, [3]), _attrs(1, s=2, mode="valid"), output_shape=[11]),
        case("oshape_explicit_equal_crop", [1, xc(2), 4], ws(2, 2, [3]), _attrs(1, s=2, pb=1, pe=0),
             output_shape=[8]),
        case("oshape_explicit_spec_split", [1, xc(2), 4], ws(2, 2, [3]), _attrs(1, s=2, pb=0, pe=3),
             output_shape=[6]),
        case("oshape_valid_spec_split", [1, xc(2), 4, 3], ws(2, 2, [3, 3]), _attrs(2, s=2, mode="valid"),
             output_shape=[6, 5]),
        case("oshape_zero", [1, xc(2), 4], ws(2, 2, [3]), _attrs(1, s=2, mode="same_upper"), output_shape=[0]),
        case("output_padding_beyond_stride", [1, xc(2), 3], ws(2, 2, [2]), _attrs(1, s=2, op=3)),
        case("output_padding_with_pads_end", [1, xc(2), 3, 3], ws(2, 2, [3, 3]), _attrs(2, s=2, pb=1, pe=2, op=1)),
        case("pads_crop_all_but_one", [1, xc(2), 2], ws(2, 2, [2]), _attrs(1, s=2, pb=2, pe=1)),
        case("pads_crop_everything", [1, xc(2), 2], ws(2, 2, [2]), _attrs(1, s=1, pb=2, pe=1)),
        case("pointwise_1x1_s1", [2, xc(3), 3, 4], ws(3, 2, [1, 1]), _attrs(2)),
        case("pointwise_1x1_s3_holes", [1, xc(2), 3, 2], ws(2, 2, [1, 1]), _attrs(2, s=3)),
        case("dilated_3d", [1, xc(2), 2, 3, 2], ws(2, 2, [2, 2, 2]), _attrs(3, s=2, d=2, pb=1)),
        case("empty_attribute_lists", [1, xc(2), 4, 3], ws(2, 2, [2, 3]),
             {"strides": [], "pads_begin": [], "pads_end": [], "dilations": []}),
        case("zero_batch", [0, xc(2), 5], ws(2, 2, [3]), _attrs(1, s=2)),
        case("zero_length_kernel_axis", [1, xc(2), 4], ws(2, 2, [0]), _attrs(1, s=2)),
        case("f16_large_sums", [1, xc(8), 5, 5], ws(8, 3, [3, 3]), _attrs(2, s=1), et="f16"),
        case("bf16_3d", [1, xc(2), 3, 2, 3], ws(2, 2, [2, 2, 2]), _attrs(3, s=2), et="bf16"),
        case("i8_wraps", [1, xc(4), 4], ws(4, 2, [3]), _attrs(1), et="i8",
             values=(rng.integers(60, 120, (1, xc(4), 4)).astype(np.int8),
                     rng.integers(50, 120, ws(4, 2, [3])).astype(np.int8))),
        case("u8_wraps", [1, xc(4), 4], ws(4, 2, [3]), _attrs(1), et="u8",
             values=(rng.integers(100, 250, (1, xc(4), 4)).astype(np.uint8),
                     rng.integers(100, 250, ws(4, 2, [3])).astype(np.uint8))),
        case("i64_beyond_i32", [1, xc(2), 4], ws(2, 2, [2]), _attrs(1), et="i64",
             values=(rng.integers(2**31, 2**33, (1, xc(2), 4)).astype(np.int64),
                     rng.integers(1, 9, ws(2, 2, [2])).astype(np.int64))),
        case("f64_beyond_f32", [1, xc(2), 4], ws(2, 2, [2]), _attrs(1), et="f64",
             values=((1e9 + rng.integers(0, 1000, (1, xc(2), 4)) / 7).astype(np.float64),
                     (1 + rng.integers(0, 100, ws(2, 2, [2])) / 3).astype(np.float64))),
        # rejected by the shape rule: the kernel never runs
        case("err_zero_stride", [1, xc(2), 4], ws(2, 2, [3]), _attrs(1, s=0), error="'strides' values must be > 0"),
        case("err_zero_dilation", [1, xc(2), 4], ws(2, 2, [3]), _attrs(1, d=0), error="'dilations' values must be > 0"),
        case("err_strides_length", [1, xc(2), 4], ws(2, 2, [3]), {**_attrs(1), "strides": [1, 1]},
             error="'strides' must have 1 elements"),
        case("err_output_padding_length", [1, xc(2), 4, 4], ws(2, 2, [3, 3]), {**_attrs(2), "output_padding": [1]},
             error="'output_padding' must have 2 elements"),
        case("err_output_shape_length", [1, xc(2), 4, 4], ws(2, 2, [3, 3]), _attrs(2), output_shape=[6],
             error="'output_shape' must have 2 elements"),
        case("err_output_shape_negative", [1, xc(2), 4], ws(2, 2, [3]), _attrs(1), output_shape=[-3],
             error="'output_shape' values must be >= 0"),
        case("err_data_rank_2", [1, xc(2)], ws(2, 2, []), _attrs(0), error="data must have rank 3, 4 or 5"),
        case("err_negative_output_length", [1, xc(2), 1], ws(2, 2, [1]), _attrs(1, pb=1, pe=1),
             error="output length would be negative"),
    ]
    if group:
        cases += [
            case("depthwise_upsample", [1, 4, 3, 3], [4, 1, 1, 4, 4], _attrs(2, s=2, pb=1, pe=1)),
            case("depthwise_multiplier_2", [2, 3, 5], [3, 1, 2, 3], _attrs(1, s=2, mode="same_lower"),
                 output_shape=[10]),
            case("single_group", [1, 3, 4, 4], [1, 3, 2, 2, 2], _attrs(2, s=2)),
            case("err_channels_not_groups_x_cin", [1, 5, 4], [2, 2, 2, 3], _attrs(1),
                 error="must equal GROUPS (2) x input channels per group (2)"),
            case("err_filter_rank", [1, 4, 4], [2, 2, 3], _attrs(1), error="filters must have rank data rank + 1"),
        ]
    else:
        cases += [
            case("err_channel_mismatch", [1, 3, 4], [2, 2, 3], _attrs(1), error="must equal the filter's input channels"),
            case("err_filter_rank", [1, 2, 4], [2, 2, 3, 3], _attrs(1), error="must have the same rank"),
        ]
    return cases


def cases():
    rng = np.random.default_rng(20240801)
    out = []
    for op in (CONV, GROUP):
        out += _edges(rng, op)
        out += _sampled(rng, op, 100)
    return [_mark(c) if c.error is None else c for c in out]


# --- shape cases -----------------------------------------------------------------------------------
NEGATIVE_PADS = "the spec allows pads >= 0; OpenVINO takes negative explicit pads and returns odd shapes"
NEGATIVE_OUTPUT_PADDING = "the spec allows output_padding >= 0; OpenVINO takes negative values and shrinks the output"
NEGATIVE_LENGTH = ("the pads exceed the output: a negative length is no tensor (OpenVINO's shape inference "
                   "leaves the dim dynamic)")
LOST_AXES = ("an output_shape of unknown length: the output keeps one dynamic dim per spatial axis; OpenVINO's "
             "shape inference drops the spatial axes (its output has rank 2)")


def _shape_case(rng, op: str, i: int) -> ShapeCase:
    n = 1 + i % 3
    kernel, xs, attrs, output_shape = _sample(rng, n)
    batch, c_in, c_out = int(rng.integers(1, 4)), int(rng.integers(1, 4)), int(rng.integers(1, 4))
    g = int(rng.integers(1, 4))
    x = [batch, (g if op == GROUP else 1) * c_in] + xs
    w = _filters_shape(op, g, c_in, c_out, kernel)
    tag = ""
    r = rng.random()
    if r < 0.05:
        x[1] += 1
        tag = "_chan"
    elif r < 0.08:
        attrs["strides"] = attrs["strides"] + [1]
        tag = "_slen"
    elif r < 0.11:
        attrs["output_padding"] = attrs["output_padding"][:-1]
        tag = "_oplen"
    elif r < 0.13:
        attrs["dilations"] = [0] + attrs["dilations"][1:]
        tag = "_dil0"
    elif r < 0.16 and output_shape is not None:
        output_shape = output_shape + [3]
        tag = "_oslen"
    elif r < 0.19 and op == GROUP:
        w[0] += 1
        tag = "_groups"
    elif r < 0.22:
        attrs["pads_begin"], attrs["pads_end"], attrs["output_padding"] = [], [], []
        tag = "_empty"
    elif r < 0.27:
        attrs["pads_begin"] = [p + 4 for p in attrs["pads_begin"]]      # may crop beyond the output
        tag = "_bigpads"
    xs_ = None if rng.random() < 0.1 else [blur_dim(rng, d) for d in x]
    ws_ = None if rng.random() < 0.1 else [blur_dim(rng, d) for d in w]
    inputs = (info("f32", xs_), info("f32", ws_))
    if output_shape is not None:
        # as a constant, or as a parameter (of static length) whose value shape inference cannot see
        inputs += (info("i64", [len(output_shape)], output_shape if rng.random() < 0.7 else None),)
        tag += "_oshape"
    case = ShapeCase(op, f"p{i:03d}_{n}d_{attrs['auto_pad']}{tag}", inputs, attrs)
    if tag.startswith("_bigpads") and attrs["auto_pad"] == "explicit" and output_shape is None:
        case = _negative_length(case)
    return case


def _negative_length(case: ShapeCase) -> ShapeCase:
    """Marks a case whose pads make a static (or bounded) output length negative: the spec rejects it."""
    try:
        get_schema(case.op).infer(list(case.inputs), case.attrs)
    except OprefError as e:
        if "output length would be negative" in str(e):
            return dataclasses.replace(case, openvino=NEGATIVE_LENGTH)
    return case


def _shape_edges(op: str) -> list[ShapeCase]:
    group = op == GROUP
    f = (lambda shape: [2] + shape) if group else (lambda shape: shape)   # prepend GROUPS
    xc = 4 if group else 2

    def sc(id, xs, ws, attrs, oshape=None, openvino=None, expected=None, et="f32"):
        inputs = (info(et, xs), info(et, ws))
        if oshape is not None:
            inputs += (oshape,)
        return ShapeCase(op, id, inputs, attrs, openvino=openvino, expected=expected)

    const = lambda v, et="i64": info(et, [len(v)], v)          # noqa: E731
    param = lambda shape, et="i64": info(et, shape)            # noqa: E731
    out = [
        sc("spec_shape_1", [1, xc * 10, 224, 224], f([20, 10, 3, 3]), _attrs(2, s=2, pb=1, pe=1)),
        sc("spec_shape_2", [1, xc * 10, 2, 2], f([20, 10, 3, 3]), _attrs(2, s=3, op=2)),
        sc("spec_shape_3", [1, xc * 10, 224, 224], f([20, 10, 3, 3]), _attrs(2, pb=1, pe=1, mode="valid"),
           const([450, 450])),
        sc("both_dynamic_rank_from_strides", None, None, _attrs(2)),
        sc("both_dynamic_rank_no_attrs", None, None, {"strides": [], "pads_begin": [], "pads_end": [],
                                                      "dilations": []}),
        sc("both_dynamic_rank_attr_mismatch", None, None, {**_attrs(2), "dilations": [1]}),
        sc("both_dynamic_rank_oshape_const", None, None, {"strides": [], "pads_begin": [], "pads_end": [],
                                                          "dilations": []}, const([3, 4])),
        sc("both_dynamic_rank_oshape_param", None, None, {"strides": [], "pads_begin": [], "pads_end": [],
                                                          "dilations": []}, param([3])),
        sc("both_dynamic_rank_oshape_param_strides_mismatch", None, None, _attrs(2), param([3])),
        sc("both_dynamic_rank_oshape_const_mismatch", None, None, _attrs(1), const([4, 5])),
        sc("data_dynamic_rank", None, f([2, 3, 3, 3]), _attrs(2, s=2)),
        sc("data_dynamic_rank_oshape", None, f([2, 3, 3, 3]), _attrs(2, s=2), const([7, 8])),
        sc("filter_dynamic_rank", [1, xc, 5, 5], None, _attrs(2, s=2, pb=1)),
        sc("filter_dynamic_rank_oshape_length_mismatch", None, f([2, 3, 3]), _attrs(1), const([4, 5])),
        sc("interval_data", [(1, 4), xc, (2, 9), -1], f([2, 3, 3, 3]), _attrs(2, s=2, pb=1, pe=1)),
        sc("interval_data_pads_below_zero", [1, xc, (1, 5)], f([2, 3, 3]), _attrs(1, s=2, pb=3, pe=3)),
        sc("interval_data_output_padding", [1, xc, (3, 6)], f([2, 3, 3]), _attrs(1, s=3, op=2, pb=1)),
        sc("interval_kernel", [1, xc, 5], f([2, 3, (2, 5)]), _attrs(1, d=2)),
        sc("dynamic_kernel", [1, xc, 5, 5], f([2, 3, -1, (0, 3)]), _attrs(2, s=2)),
        sc("zero_data_axis", [1, xc, 0], f([2, 3, 2]), _attrs(1, s=2)),
        sc("zero_kernel_axis", [1, xc, 5], f([2, 3, 0]), _attrs(1)),
        sc("dynamic_channels", [1, -1, 5], f([2, 3, 3]), _attrs(1)),
        sc("interval_channels", [1, (1, 9), 5], f([2, 3, 3]), _attrs(1)),
        sc("same_upper_no_oshape", [1, xc, 5], f([2, 3, 3]), _attrs(1, s=2, pb=3, mode="same_upper")),
        sc("oshape_const_i32", [1, xc, 5], f([2, 3, 3]), _attrs(1, s=2), const([10], "i32")),
        sc("oshape_const_u8", [1, xc, 5], f([2, 3, 3]), _attrs(1, s=2), const([10], "u8")),
        sc("oshape_const_zero", [1, xc, 5], f([2, 3, 3]), _attrs(1, s=2), const([0])),
        sc("oshape_negative", [1, xc, 5], f([2, 3, 3]), _attrs(1, s=2), const([-3])),
        sc("oshape_param_static_length", [1, xc, 5, 5], f([2, 3, 3, 3]), _attrs(2, s=2), param([2])),
        sc("oshape_param_wrong_length", [1, xc, 5, 5], f([2, 3, 3, 3]), _attrs(2, s=2), param([3])),
        sc("oshape_param_rank_2", [1, xc, 5, 5], f([2, 3, 3, 3]), _attrs(2, s=2), param([2, 1])),
        sc("oshape_param_dynamic_length", [1, xc, 5, 5], f([2, 3, 3, 3]), _attrs(2, s=2), param([-1]),
           openvino=LOST_AXES, expected="[1,6,?,?]" if group else "[1,3,?,?]"),
        sc("oshape_param_interval_length", [1, xc, 5], f([2, 3, 3]), _attrs(1), param([(1, 3)]),
           openvino=LOST_AXES, expected="[1,6,?]" if group else "[1,3,?]"),
        sc("oshape_float", [1, xc, 5], f([2, 3, 3]), _attrs(1), info("f32", [1], [9.0])),
        sc("oshape_ignores_output_padding_length", [1, xc, 5], f([2, 3, 3]), {**_attrs(1), "output_padding": []},
           const([9])),
        sc("empty_output_padding_filled_with_zeros", [1, xc, 5, 4], f([2, 3, 3, 2]),
           {**_attrs(2, s=2), "output_padding": []}),
        sc("data_rank_6", [1, xc, 3, 3, 3, 3], f([2, 3, 1, 1, 1, 1]), _attrs(4)),
        sc("data_rank_2", [1, xc], f([2, 3]), _attrs(0)),
        sc("i4", [1, xc, 5], f([2, 3, 3]), _attrs(1), et="i4"),
        sc("f8e5m2", [1, xc, 5], f([2, 3, 3]), _attrs(1), et="f8e5m2"),
        sc("valid_negative_pads_ignored", [1, xc, 5], f([2, 3, 3]), _attrs(1, pb=-2, mode="valid")),
        sc("negative_explicit_pads", [1, xc, 5], f([2, 3, 3]), _attrs(1, pb=-1), openvino=NEGATIVE_PADS),
        sc("negative_output_padding", [1, xc, 5], f([2, 3, 3]), _attrs(1, op=-2), openvino=NEGATIVE_OUTPUT_PADDING),
        sc("negative_static_length", [1, xc, 1], f([2, 3, 1]), _attrs(1, pb=1, pe=1), openvino=NEGATIVE_LENGTH),
        sc("negative_interval_length", [1, xc, (1, 2)], f([2, 3, 1]), _attrs(1, pb=2, pe=2),
           openvino=NEGATIVE_LENGTH),
        sc("zero_static_length", [1, xc, 1], f([2, 3, 2]), _attrs(1, pb=1, pe=1)),
    ]
    if group:
        out += [
            sc("groups_from_channels", [1, 6, 5], [-1, 2, 3, 3], _attrs(1)),
            sc("groups_from_interval_channels", [1, (3, 12), 5], [-1, 2, 3, 3], _attrs(1)),
            sc("groups_interval_merge", [1, 6, 5], [(1, 4), 2, 3, 3], _attrs(1)),
            sc("groups_interval_no_overlap", [1, 6, 5], [(4, 5), 2, 3, 3], _attrs(1)),
            sc("channels_not_divisible", [1, 7, 5], [-1, 2, 3, 3], _attrs(1)),
            sc("cin_dynamic", [1, 6, 5], [3, -1, 2, 3], _attrs(1)),
            sc("output_channels_interval", [1, 6, 5], [(1, 3), 2, (2, 4), 3], _attrs(1)),
            sc("filter_rank_mismatch", [1, 4, 5], [2, 2, 3], _attrs(1)),
        ]
    else:
        out += [
            sc("channel_mismatch", [1, 3, 5], [2, 2, 3], _attrs(1)),
            sc("channel_interval_compatible", [1, (2, 5), 5], [(4, 8), 2, 3], _attrs(1)),
            sc("channel_interval_incompatible", [1, (2, 3), 5], [(4, 8), 2, 3], _attrs(1)),
            sc("output_channels_interval", [1, 2, 5], [2, (1, 3), 3], _attrs(1)),
            sc("filter_rank_mismatch", [1, 2, 5], [2, 2, 3, 3], _attrs(1)),
        ]
    return out


def shape_cases():
    rng = np.random.default_rng(20240802)
    out = []
    for op in (CONV, GROUP):
        out += _shape_edges(op)
        out += [_shape_case(rng, op, i) for i in range(110)]
    return out
