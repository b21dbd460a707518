"""Cases for the pooling ops: sampled value cases over 1-D/2-D/3-D windows, every auto_pad mode,
rounding type, exclude-pad choice and element type of the schemas; hand-picked edges (the spec's
examples, NaN/Inf, integer limits, windows that rounding up lets run past the padding); error
cases; and partial-shape cases (dynamic and interval dims, dynamic rank, unknown output sizes)."""
from __future__ import annotations

import dataclasses

import numpy as np

from ...opset.helpers import same_pads
from ...opset.pooling import pool_output_dims
from ...shapes import PartialShape
from ...types import element_type, element_type_of
from . import Case, ShapeCase, info
from ._gen import array, blur_dim, rng_for

MAX_OPS = ("MaxPool-1", "MaxPool-8", "MaxPool-14")
AVG_OPS = ("AvgPool-1", "AvgPool-14", "AvgPool-16")
MODES = ("explicit", "valid", "same_upper", "same_lower")
DTYPES = ("f32", "f16", "bf16", "f64", "f32", "i32", "i8", "u8", "i64", "f32", "i16", "u16", "u32", "u64",
          "f8e4m3", "f8e5m2", "f32", "f16")
FLOAT_DTYPES = ("f32", "f16", "bf16", "f64", "f32", "f8e4m3", "f8e5m2", "f32")
MAX_SIZE = {1: 12, 2: 7, 3: 5}


def _has_dilations(op):
    return op not in ("MaxPool-1", "AvgPool-1", "AvgPool-14")


def _roundings(op):
    return ("floor", "ceil", "ceil_torch") if op.endswith("-14") or op == "AvgPool-16" else ("floor", "ceil")


def _values(rng, et, shape):
    t = element_type(et)
    if t.is_float:
        return array(rng, et, shape)
    return array(rng, et, shape, low=-50, high=50)


def _attrs(op, n, *, k=2, s=1, d=1, pb=0, pe=0, mode="explicit", rounding="floor", exclude=True, **extra):
    a = {"kernel": [k] * n if isinstance(k, int) else list(k), "strides": [s] * n if isinstance(s, int) else list(s),
         "pads_begin": [pb] * n if isinstance(pb, int) else list(pb),
         "pads_end": [pe] * n if isinstance(pe, int) else list(pe), "auto_pad": mode, "rounding_type": rounding}
    if _has_dilations(op):
        a["dilations"] = [d] * n if isinstance(d, int) else list(d)
    if op in AVG_OPS:
        a["exclude-pad"] = exclude
    return {**a, **extra}


def _sample(rng, op, n):
    """Attributes and a data shape that fits them."""
    kernel = [int(rng.integers(1, 4 if n < 3 else 3)) for _ in range(n)]
    strides = [int(rng.integers(1, 4)) for _ in range(n)]
    dil = [int(rng.integers(1, 3)) for _ in range(n)] if _has_dilations(op) else [1] * n
    mode = MODES[int(rng.integers(0, len(MODES)))]
    rounding = _roundings(op)[int(rng.integers(0, len(_roundings(op))))]
    exclude = bool(rng.integers(0, 2))
    pb, pe, sizes = [], [], []
    for k, d in zip(kernel, dil):
        window = (k - 1) * d + 1
        # padding below the window: AvgPool with exclude-pad rejects a pad as large as the window
        b, e = (int(rng.integers(0, window + (0 if op in AVG_OPS else 1))) for _ in range(2))
        pb.append(b)
        pe.append(e)
        least = window if mode in ("valid", "same_upper", "same_lower") else max(window - b - e, 1)
        sizes.append(int(rng.integers(least, max(least, MAX_SIZE[n]) + 1)))
    attrs = _attrs(op, n, k=kernel, s=strides, d=dil, pb=pb, pe=pe, mode=mode, rounding=rounding, exclude=exclude)
    if op.startswith("MaxPool") and op != "MaxPool-1":
        attrs["index_element_type"] = ("i64", "i32")[int(rng.integers(0, 2))]
        attrs["axis"] = int(rng.integers(-(n + 2), n + 2))
    return attrs, sizes


def _empty_window(op, attrs, sizes) -> bool:
    """Whether some window holds no data at all (only padding, or past it when rounding up): its
    result is a convention (the lowest value, or 0/0) that OpenVINO's CPU plugin does not keep for
    every type; the edge cases cover it, the sampled cases avoid it."""
    n = len(sizes)
    dil = tuple(attrs.get("dilations", ())) or (1,) * n
    out = pool_output_dims(op, PartialShape([1, 1] + list(sizes)), kernel=attrs["kernel"], strides=attrs["strides"],
                           dilations=dil, pads_begin=attrs["pads_begin"], pads_end=attrs["pads_end"],
                           auto_pad=attrs["auto_pad"], rounding_type=attrs["rounding_type"]).to_shape()[2:]
    for i, (size, k, s, d, o) in enumerate(zip(sizes, attrs["kernel"], attrs["strides"], dil, out)):
        if attrs["auto_pad"] == "valid":
            pb = 0
        elif attrs["auto_pad"] == "explicit":
            pb = attrs["pads_begin"][i]
        else:
            pb = same_pads(size, k, s, d, attrs["auto_pad"] == "same_upper")[0]
        pos = np.arange(o)[:, None] * s + np.arange(k)[None, :] * d - pb
        if not ((pos >= 0) & (pos < size)).any(axis=1).all():
            return True
    return False


def _sampled(rng, op, count):
    out = []
    for i in range(count):
        n = 1 + i % 3
        et = DTYPES[i % len(DTYPES)]
        attrs, sizes = _sample(rng, op, n)
        while _empty_window(op, attrs, sizes):
            attrs, sizes = _sample(rng, op, n)
        if op == "AvgPool-16" and not element_type(et).is_float:
            # OpenVINO's CPU plugin has no integer AvgPool-16 kernel for many geometries: integer
            # AvgPool-16 is checked in tests/test_pooling.py (through AvgPool-14 and f32)
            et = FLOAT_DTYPES[i % len(FLOAT_DTYPES)]
        shape = [int(rng.integers(1, 3)), int(rng.integers(1, 4))] + sizes
        tag = f"{attrs['auto_pad']}_{attrs['rounding_type']}" + ("_ex" if attrs.get("exclude-pad") else "")
        out.append(Case(op, f"s{i:03d}_{n}d_{et}_{tag}", (_values(rng, et, shape),), attrs))
    return out


def _edges(rng, op):
    n2 = lambda **kw: _attrs(op, 2, **kw)
    spec = np.array([[[[-1, 2, 3], [4, 5, -6], [-7, 8, 9]]]], np.float32)
    spec2 = np.array([[[[-1, 2, 3], [4, 5, -6], [-7, 8, 9]], [[2, -1, 5], [6, -7, 1], [8, 2, -3]]]], np.float32)
    nine = np.arange(1, 10, dtype=np.float32).reshape(1, 1, 3, 3)
    x = lambda shape, et="f32": _values(rng, et, shape)
    special = x([1, 2, 5, 5])
    special[0, 0, 1, 1], special[0, 0, 3, 2], special[0, 1, 0, 0], special[0, 1, 4, 4] = np.nan, np.inf, -np.inf, np.nan
    cases = [
        ("spec_explicit", spec, n2(pb=1, pe=1)),
        ("spec_valid_1d", np.array([[[-1, 2, 3, 5, -7, 9, 1]]], np.float32), _attrs(op, 1, k=3, mode="valid")),
        ("spec_same_lower", spec, n2(mode="same_lower")),
        ("spec_same_upper", spec2, n2(mode="same_upper")),
        ("spec_valid_ceil", spec, n2(s=2, mode="valid", rounding="ceil")),
        # (AvgPool with exclude-pad over a window without data: tests/test_pooling.py)
        ("ceil_overhang", nine, n2(s=2, pb=1, pe=1, rounding="ceil", exclude=False)),
        ("ceil_overhang_1d", x([1, 2, 7]), _attrs(op, 1, k=2, s=3, pb=1, pe=1, rounding="ceil")),
        ("ceil_no_overhang", x([1, 2, 7, 7]), n2(k=3, s=2, pb=1, pe=1, rounding="ceil")),
        ("resnet_stem", x([1, 3, 12, 12]), n2(k=3, s=2, pb=1, pe=1)),
        ("global_window", x([2, 3, 4, 4]), n2(k=4, mode="valid")),
        ("kernel_1_stride_2", x([1, 2, 5, 6]), n2(k=1, s=2)),
        ("stride_beyond_kernel", x([1, 2, 9, 9]), n2(k=2, s=3, pb=1)),
        ("big_kernel_3d", x([1, 2, 4, 4, 4]), _attrs(op, 3, k=3, s=1, pb=1, pe=1)),
        ("asymmetric_pads", x([1, 2, 6, 5]), n2(k=3, pb=(2, 0), pe=(0, 2))),
        ("valid_ignores_pads", x([1, 2, 7]), _attrs(op, 1, k=3, pb=2, pe=2, mode="valid")),
        ("same_ignores_pads", x([1, 2, 7]), _attrs(op, 1, k=3, s=2, pb=5, pe=5, mode="same_upper")),
        ("same_lower_strided", x([1, 1, 8, 9]), n2(k=3, s=2, mode="same_lower")),
        # same_upper with ceil can add a window past the data (8 -> 5 windows); AvgPool's window without
        # data is checked in tests/test_pooling.py, so it gets a length where every window holds data
        ("same_upper_ceil", x([1, 1, 9 if op in AVG_OPS else 8]),
         _attrs(op, 1, k=1, s=2, mode="same_upper", rounding="ceil")),
        ("empty_pads", x([1, 2, 6, 6]), {**n2(), "pads_begin": [], "pads_end": []}),
        ("nan_inf", special, n2(k=2, s=1, pb=1, pe=0)),
        ("all_negative", -np.abs(x([1, 2, 6])) - 1, _attrs(op, 1, k=3, pb=1, pe=1)),
        ("f16_big", x([1, 2, 6, 6], "f16") * np.float16(100), n2(k=3, pb=1, pe=1)),
        ("bf16_3d", x([1, 2, 4, 5, 4], "bf16"), _attrs(op, 3, k=2, pb=1)),
        ("i8_limits", np.array([[[-128, 127, -128, 0, 127, -1]]], np.int8), _attrs(op, 1, k=2, s=2, mode="valid")),
        ("u8_limits", np.array([[[0, 255, 255, 0, 1, 254]]], np.uint8), _attrs(op, 1, k=3, s=1, mode="valid")),
        ("i32_large", (x([1, 2, 6], "i32") * 1000), _attrs(op, 1, k=2, s=2, mode="valid")),
    ]
    if _has_dilations(op):
        cases += [
            ("spec_dilated", nine, n2(pb=1, pe=1, d=2)),
            ("dilated_3d", x([1, 1, 6, 6, 6]), _attrs(op, 3, k=2, d=(2, 3, 1), pb=1)),
            ("dilated_same_upper", x([1, 2, 9]), _attrs(op, 1, k=3, d=2, s=2, mode="same_upper")),
            ("dilated_ceil", x([1, 2, 8, 7]), n2(k=2, d=2, s=2, pb=1, pe=1, rounding="ceil")),
        ]
    if "ceil_torch" in _roundings(op):
        cases += [
            ("spec_ceil_torch", nine, n2(s=2, pb=1, pe=1, rounding="ceil_torch")),
            ("ceil_torch_drops_last", x([1, 2, 7]), _attrs(op, 1, k=2, s=3, pb=1, pe=1, rounding="ceil_torch")),
            ("ceil_torch_keeps_last", x([1, 2, 8, 8]), n2(k=3, s=2, pb=1, pe=1, rounding="ceil_torch")),
            ("ceil_torch_valid", x([1, 2, 8]), _attrs(op, 1, k=3, s=2, mode="valid", rounding="ceil_torch")),
        ]
    if op in AVG_OPS:
        cases += [
            ("include_pad", x([1, 2, 5, 5]), n2(k=3, pb=1, pe=1, exclude=False)),
            ("include_pad_ceil", nine, n2(s=2, pb=1, pe=1, rounding="ceil", exclude=False)),
            ("include_pad_same", x([1, 2, 6]), _attrs(op, 1, k=4, mode="same_lower", exclude=False)),
            ("int_rounding_half_even", np.array([[[1, 2, 3, 4, 5, 7]]], np.int32), _attrs(op, 1, k=2, s=1)),
            ("global_avg_resnet", x([1, 8, 7, 7]), n2(k=7, s=1, mode="valid")),
        ]
    else:
        cases += [("i64_min_valid", np.array([[[np.iinfo(np.int64).min, -5, 3, np.iinfo(np.int64).max]]]),
                   _attrs(op, 1, k=2, mode="valid"))]
        if op != "MaxPool-1":
            spec_axis = np.arange(1, 19, dtype=np.float32).reshape(1, 2, 3, 3)
            cases += [(f"axis_{a}_{et}", spec_axis, n2(axis=a, index_element_type=et))
                      for a in (0, 1, 2, 3, -1, -4) for et in ("i32", "i64")]
            cases += [("indices_3d_axis_2", x([2, 2, 3, 4, 3]), _attrs(op, 3, k=2, pb=1, axis=2)),
                      ("ties_first_wins", np.ones((1, 1, 4, 4), np.float32), n2(k=3, pb=1, pe=1)),
                      ("indices_batch", x([3, 2, 5]), _attrs(op, 1, k=3, s=2, pb=1, pe=1))]
    out = [Case(op, id, (data,), attrs) for id, data, attrs in cases]
    err = lambda id, data, attrs, msg: Case(op, id, (data,), attrs, error=msg)
    d4 = x([1, 2, 6, 6])
    out += [
        err("err_zero_stride", d4, n2(s=0), "'strides' values must be > 0"),
        err("err_zero_kernel", d4, n2(k=0), "'kernel' values must be > 0"),
        err("err_kernel_length", d4, _attrs(op, 1, k=2), "'kernel' must have 2 elements"),
        err("err_strides_length", d4, n2() | {"strides": [1]}, "'strides' must have 2 elements"),
        err("err_pads_length", d4, n2() | {"pads_end": [0, 0, 0]}, "'pads_end' must have 2 elements"),
        err("err_kernel_too_large", d4, n2(k=8), "larger than the padded data"),
        err("err_rank_2", x([2, 6]), _attrs(op, 0), "data must have rank 3, 4 or 5"),
        err("err_rank_6", x([1, 1, 2, 2, 2, 2]), _attrs(op, 4), "data must have rank 3, 4 or 5"),
        err("err_zero_batch", x([0, 2, 6]), _attrs(op, 1), "batch dimension must be > 0"),
        err("err_zero_channels", x([1, 0, 6]), _attrs(op, 1), "channel dimension must be > 0"),
    ]
    if _has_dilations(op):
        out.append(err("err_zero_dilation", d4, n2(d=0), "'dilations' values must be > 0"))
    if op in AVG_OPS:
        out.append(err("err_exclude_pad_window_in_pad", d4, n2(k=2, pb=2, exclude=True), "exclude-pad"))
    if op in ("MaxPool-8", "MaxPool-14"):
        out.append(err("err_axis", d4, n2(axis=4), "attribute 'axis' = 4 is out of range"))
    return out


def _adaptive_cases(rng, op):
    out = []
    for i in range(110):
        n = 1 + i % 3
        et = FLOAT_DTYPES[i % len(FLOAT_DTYPES)]
        sizes = [int(rng.integers(1, MAX_SIZE[n] + 1)) for _ in range(n)]
        osz = [int(rng.integers(1, s * 2 + 1)) for s in sizes]
        shape = [int(rng.integers(1, 3)), int(rng.integers(1, 4))] + sizes
        it = ("i64", "i32")[i % 2]
        # OpenVINO's CPU plugin has no i64 indices output: i64 (the default) is checked against it
        # through i32 in tests/test_pooling.py
        attrs = {"index_element_type": "i32"} if op == "AdaptiveMaxPool-8" else {}
        out.append(Case(op, f"s{i:03d}_{n}d_{et}", (_values(rng, et, shape), np.array(osz, element_type(it).dtype)),
                        attrs))
    x = lambda shape, et="f32": _values(rng, et, shape)
    special = x([1, 2, 4, 4])
    special[0, 0, 0, 1], special[0, 1, 2, 2], special[0, 0, 3, 3] = np.inf, np.nan, -np.inf
    edges = [("global_1x1", x([2, 4, 7, 7]), [1, 1]), ("identity", x([1, 2, 5, 3]), [5, 3]),
             ("upsample", x([1, 2, 3]), [7]), ("overlapping_bins", x([1, 1, 5, 7]), [3, 4]),
             ("nan_inf", special, [2, 3]), ("ties", np.ones((1, 2, 4, 4), np.float32), [3, 3]),
             ("3d", x([1, 2, 5, 4, 6]), [2, 3, 4]), ("f16_3d", x([1, 2, 3, 4, 5], "f16"), [2, 2, 2])]
    attrs = {"index_element_type": "i32"} if op == "AdaptiveMaxPool-8" else {}
    out += [Case(op, id, (d, np.array(o, np.int64)), attrs) for id, d, o in edges]
    out += [Case(op, "err_output_shape_length", (x([1, 2, 4, 4]), np.array([2, 2, 2])),
                 error="input 'output_shape' must have 2 elements"),
            Case(op, "err_rank_2", (x([2, 4]), np.array([], np.int64)), error="data must have rank 3, 4 or 5"),
            Case(op, "err_output_shape_2d", (x([1, 2, 4, 4]), np.array([[2, 2]])), error="must be 1-D")]
    return out


NO_KERNEL = ("OpenVINO's CPU plugin has no {op} kernel for {et} data{extra}; the data is widened to f32, "
             "{why}")
F64_AS_F32 = "OpenVINO's CPU plugin averages f64 in f32: compared at f32 tolerance"
I64_AS_I32 = "OpenVINO's CPU plugin computes i64 as i32: values beyond 2^31 are lost; asked OpenVINO's reference"
INT_AVG_ISA = ("OpenVINO's CPU plugin picks its integer average-pooling kernels by instruction set and some are "
               "missing without AVX-512 (AvgPool-14 s008_3d_i64 fails to compile on an AVX2-only AMD EPYC: no "
               "supported primitive descriptors); the data is widened to f32 (exact: every window sum is below "
               "2^24) and the averages rounded half to even, as the integer kernels do")


def _route(case: Case) -> Case:
    """Where OpenVINO's CPU plugin cannot be asked as is, say why and ask it losslessly."""
    if case.error is not None:
        return case
    et = element_type_of(case.inputs[0])
    name = case.op.split("-")[0]
    if case.op in ("MaxPool-8", "MaxPool-14", "AdaptiveMaxPool-8"):
        narrow = ("bf16", "f8e4m3", "f8e5m2") if case.op != "AdaptiveMaxPool-8" else ("bf16", "f16", "f8e4m3",
                                                                                      "f8e5m2")
        if et in narrow:
            return dataclasses.replace(case, openvino=NO_KERNEL.format(op=name, et=et, extra=" with the indices "
                                       "output", why="where the maxima and their indices are exact"),
                                       oracle_cast={0: "f32"})
    if name in ("MaxPool",) and et in ("f8e4m3", "f8e5m2"):
        return dataclasses.replace(case, openvino=NO_KERNEL.format(op=name, et=et, extra="", why="where the "
                                   "maxima are exact"), oracle_cast={0: "f32"})
    if name in ("AvgPool", "AdaptiveAvgPool") and et in ("f8e4m3", "f8e5m2", "bf16"):
        return dataclasses.replace(case, openvino=NO_KERNEL.format(op=name, et=et, extra="", why="where opref "
                                   "also averages before rounding once"), oracle_cast={0: "f32"})
    if name in ("AvgPool", "AdaptiveAvgPool") and et == "f64":
        return dataclasses.replace(case, openvino=F64_AS_F32, tolerance="f32")
    if et in ("i64", "u64", "u32") and np.abs(case.inputs[0].astype(np.float64)).max(initial=0) >= 2**31 - 1:
        return dataclasses.replace(case, openvino=I64_AS_I32, oracle="reference")
    if name in ("AvgPool", "AdaptiveAvgPool") and not element_type(et).is_float and \
            np.abs(case.inputs[0].astype(np.float64)).sum() < 2**24:
        return dataclasses.replace(case, openvino=INT_AVG_ISA, oracle_cast={0: "f32"})
    return case


def cases():
    out = []
    for op in MAX_OPS + AVG_OPS:
        rng = rng_for(op)
        out += _edges(rng, op) + _sampled(rng, op, 110)
    for op in ("AdaptiveAvgPool-8", "AdaptiveMaxPool-8"):
        out += _adaptive_cases(rng_for(op), op)
    return [_route(c) for c in out]


# --- shape cases -----------------------------------------------------------------------------------
def _pool_shape_cases(rng, op):
    out = []
    for i in range(130):
        n = 1 + i % 3
        attrs, sizes = _sample(rng, op, n)
        shape = [int(rng.integers(1, 4)), int(rng.integers(1, 5))] + [s + int(rng.integers(0, 4)) for s in sizes]
        tag = ""
        r = rng.random()
        if r < 0.05:
            shape[2] = 1                                    # the window may no longer fit
            tag = "_small"
        elif r < 0.08:
            attrs["strides"] = attrs["strides"] + [1]
            tag = "_slen"
        elif r < 0.10:
            attrs["pads_begin"], attrs["pads_end"] = [], []
            tag = "_nopads"
        xs = None if rng.random() < 0.08 else [blur_dim(rng, d) for d in shape]
        out.append(ShapeCase(op, f"p{i:03d}_{n}d_{attrs['auto_pad']}_{attrs['rounding_type']}{tag}",
                             (info("f32", xs),), attrs))
    a = lambda n, **kw: _attrs(op, n, **kw)
    edges = [
        ("dynamic_rank", None, a(2, k=3, s=2)),
        ("dynamic_rank_same", None, a(1, mode="same_upper")),
        ("interval_same_upper", [1, 3, (4, 9), 8], a(2, k=3, s=2, mode="same_upper")),
        ("interval_same_lower", [1, 3, (4, None), -1], a(2, k=3, s=2, mode="same_lower")),
        ("interval_explicit_floor", [(1, 4), 3, (4, 9), (2, None)], a(2, k=3, s=2, pb=1)),
        ("interval_explicit_ceil", [(1, 4), 3, (4, 9), (2, None)], a(2, k=3, s=2, pb=1, rounding="ceil")),
        ("interval_valid", [1, -1, (0, 9), -1], a(2, k=2, s=3, mode="valid")),
        ("interval_too_small", [1, 3, (1, 2)], a(1, k=4)),
        ("dynamic_batch_channels", [-1, -1, 8], a(1, k=3)),
        ("zero_batch", [0, 3, 8], a(1)),
        ("zero_channels", [1, 0, 8], a(1)),
        ("interval_batch_from_zero", [(0, 3), 3, 8], a(1)),
        ("rank_mismatch", [1, 3, 8, 8], a(1)),
        ("rank_2", [1, 3], a(0)),
        ("stride_zero", [1, 3, 8], a(1, s=0)),
        ("kernel_too_large", [1, 3, 3], a(1, k=5)),
        ("kernel_equals_padded", [1, 3, 3], a(1, k=5, pb=1, pe=1)),
        ("i8", [1, 3, 8], a(1), "i8"),
        ("f8e5m2", [1, 3, 8], a(1), "f8e5m2"),
        ("u64", [1, 3, 8], a(1), "u64"),
    ]
    if "ceil_torch" in _roundings(op):
        edges += [("ceil_torch_static", [1, 3, 7], a(1, k=2, s=3, pb=1, pe=1, rounding="ceil_torch")),
                  ("ceil_torch_interval", [1, 3, (5, 9)], a(1, k=2, s=3, pb=1, pe=1, rounding="ceil_torch")),
                  ("ceil_torch_same", [1, 3, 7], a(1, k=2, s=3, mode="same_upper", rounding="ceil_torch"))]
    if op in AVG_OPS:
        edges += [("exclude_pad_pad_too_big", [1, 3, 8], a(1, k=2, pb=2, exclude=True)),
                  ("include_pad_pad_too_big", [1, 3, 8], a(1, k=2, pb=2, exclude=False)),
                  ("exclude_pad_dynamic_dim", [1, 3, -1], a(1, k=2, pb=2, exclude=True))]
    if op in ("MaxPool-8", "MaxPool-14"):
        edges += [("axis_out_of_range", [1, 3, 8], a(1, axis=3)), ("axis_negative", [1, 3, 8], a(1, axis=-3)),
                  ("axis_dynamic_rank", None, a(1, axis=7)),
                  ("index_i32", [1, 3, (2, 8)], a(1, index_element_type="i32"))]
    for e in edges:
        id, xs, attrs = e[:3]
        out.append(ShapeCase(op, id, (info(e[3] if len(e) > 3 else "f32", xs),), attrs))
    return out


def _adaptive_shape_cases(rng, op):
    out = []
    for i in range(110):
        n = 1 + i % 3
        shape = [int(rng.integers(1, 4)), int(rng.integers(1, 5))] + [int(rng.integers(1, 9)) for _ in range(n)]
        osz = [int(rng.integers(1, 9)) for _ in range(n)]
        xs = None if rng.random() < 0.08 else [blur_dim(rng, d) for d in shape]
        et = ("i32", "i64")[i % 2]
        known = rng.random() < 0.7
        os_info = info(et, [n], np.array(osz, element_type(et).dtype)) if known else info(et, [blur_dim(rng, n)])
        attrs = {"index_element_type": ("i64", "i32")[(i // 2) % 2]} if op == "AdaptiveMaxPool-8" else {}
        out.append(ShapeCase(op, f"p{i:03d}_{n}d{'_known' if known else ''}", (info("f32", xs), os_info), attrs))
    edges = [
        ("dynamic_rank_known", None, info("i64", [2], np.array([3, 4]))),
        ("dynamic_rank_unknown", None, info("i64", [-1])),
        ("length_mismatch_known", [1, 2, 8, 8], info("i64", [3], np.array([1, 2, 3]))),
        ("length_mismatch_shape", [1, 2, 8, 8], info("i64", [3])),
        ("output_shape_rank_2", [1, 2, 8, 8], info("i64", [1, 2])),
        ("output_shape_dynamic_rank", [1, 2, 8, 8], info("i64", None)),
        ("zero_output", [1, 2, 8, 8], info("i64", [2], np.array([0, 3]))),
        ("rank_2", [2, 8], info("i64", [0])),
        ("rank_6", [1, 1, 2, 2, 2, 2], info("i64", [4])),
        ("interval_dims", [(1, 3), -1, (2, 9)], info("i32", [1], np.array([5], np.int32))),
    ]
    out += [ShapeCase(op, id, (info("f32", xs), o)) for id, xs, o in edges]
    return out


def shape_cases():
    out = []
    for op in MAX_OPS + AVG_OPS:
        out += _pool_shape_cases(rng_for(op, 1), op)
    for op in ("AdaptiveAvgPool-8", "AdaptiveMaxPool-8"):
        out += _adaptive_shape_cases(rng_for(op, 1), op)
    return out
