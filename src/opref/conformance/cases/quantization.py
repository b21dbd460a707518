"""Cases for the quantization ops: seeded random data and limits of every broadcastable shape
(scalar, per-channel, per-element, trailing), each auto_broadcast mode, inverted and equal limits,
many `levels`, ±Inf/NaN data, every float type; plus error cases and partial-shape cases."""
from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np

from ...shapes import PartialShape
from ...types import element_type, element_type_of
from ...opset.quantization import T_FC, T_FQ
from . import Case, ShapeCase, info
from ._gen import array, loosen, rng_for

N = 150
FQ = "FakeQuantize-1"
NAN_CPU = ("the CPU plugin maps NaN data to output_low; the spec's formula (and OpenVINO's reference) keeps NaN; "
           "asked OpenVINO's reference evaluate")
F64_CPU = "the CPU plugin computes f64 FakeQuantize in f32; compared at f32 tolerance"
SPEC_UNIDIRECTIONAL = ("the spec broadcasts every limit to the data's shape; OpenVINO also accepts limits that "
                       "would enlarge the data (and returns the data's shape)")
SPEC_LEVELS = "the spec requires levels >= 2; OpenVINO infers shapes for any levels"


def _tag(shape) -> str:
    return "x".join(map(str, shape)) or "scalar"


def _limit_shape(rng, shape, mode):
    """A shape that broadcasts to `shape` under auto_broadcast = mode."""
    if mode == "none" or not shape:
        return list(shape)
    r = rng.random()
    if mode == "pdpd":
        # OpenVINO's shape inference places PDPD limits at axis 0, its runtimes right-align them: only
        # a scalar or a limit of the data's rank (1s stretch) means the same to both
        return [] if r < 0.3 else [1 if rng.random() < 0.4 and d else d for d in shape]
    if r < 0.25:
        return []
    if r < 0.4:
        return [1]
    if r < 0.7 and len(shape) >= 2:                                # per channel
        return [1, shape[1]] + [1] * (len(shape) - 2)
    tail = list(shape[len(shape) - int(rng.integers(1, len(shape) + 1)):])
    return [1 if rng.random() < 0.3 else d for d in tail]


def _fq_case(i, rng, et, mode, levels):
    rank = int(rng.integers(0, 5))
    shape = [int(rng.integers(1, 5)) for _ in range(rank)]
    if i % 17 == 5 and rank:
        shape[0] = 0                                               # an empty tensor
    x = np.asarray(array(rng, et, shape))
    specials = i % 9 == 2 and x.size > 0
    if specials:
        x = x.copy()
        mask = rng.random(x.shape) < 0.3
        x[mask] = np.array([np.inf, -np.inf, np.nan, 0.0], np.float32).astype(x.dtype)[
            rng.integers(0, 4, int(mask.sum()))]
    t = element_type(et).dtype
    sl = [_limit_shape(rng, shape, mode) for _ in range(4)]
    if mode == "numpy" and rng.random() < 0.5:
        sl[1] = sl[0]            # low and high often share a shape
    kind = i % 6
    if kind == 3:
        sl[1] = sl[0]
    neg = lambda s_: -np.abs(array(rng, et, s_)).astype(t)
    pos = lambda s_: np.abs(array(rng, et, s_)).astype(t)
    il, ih = neg(sl[0]), pos(sl[1])
    if kind == 3:
        ih = il.copy()                                             # equal limits: binarization
    if kind == 4:
        il, ih = -il, -ih                                          # inverted input limits
    ol, oh = neg(sl[2]), pos(sl[3])
    if kind == 5:
        ol, oh = -ol, -oh                                          # inverted output range
    limits = [np.asarray(v, t) for v in (il, ih, ol, oh)]
    why, oracle, tolerance = [], "openvino", None
    cast = {}
    if specials and np.isnan(x.astype(np.float32)).any():
        why, oracle = [NAN_CPU], "reference"
        if et == "f64":     # no f64 reference: the case's values are all f32 values
            why, cast, tolerance = [NAN_CPU + " (no f64 reference: asked in f32, which holds all of the case's values exactly; compared at f32 tolerance)"], \
                {p: "f32" for p in range(5)}, "f32"
    if et == "f64" and oracle == "openvino":
        why, tolerance = [F64_CPU], "f32"
    id_ = f"{i}_{et}_{mode}_L{levels}_{_tag(shape)}_{'_'.join(_tag(s) for s in sl)}{'_special' if specials else ''}"
    return Case(FQ, id_, (x, *limits), {"levels": levels, "auto_broadcast": mode}, openvino="; ".join(why) or None,
                oracle=oracle, oracle_cast=cast, tolerance=tolerance)


def _fake_quantize():
    rng = rng_for(FQ)
    types = itertools.cycle(T_FQ)
    modes = itertools.cycle(["numpy"] * 4 + ["none", "pdpd"])
    levels = itertools.cycle([256, 255, 2, 3, 16, 5, 65536, 4])
    return [_fq_case(i, rng, next(types), next(modes), next(levels)) for i in range(N)] + _fq_errors()


def _fq_errors():
    x = np.zeros((1, 3, 2, 2), np.float32)
    s = np.float32(0)
    return [
        Case(FQ, "err_levels", (x, s, s, s, s), {"levels": 1}, error="'levels' must be >= 2"),
        Case(FQ, "err_missing_levels", (x, s, s, s, s), {}, error="missing required attribute 'levels'"),
        Case(FQ, "err_shapes", (x, np.zeros((1, 4, 1, 1), np.float32), s, s, s), {"levels": 256},
             error="input 'input_low'"),
        Case(FQ, "err_enlarges", (np.zeros((1, 3, 1, 1), np.float32), np.zeros((1, 3, 4, 5), np.float32), s, s, s),
             {"levels": 256}, error="does not broadcast to data"),
        Case(FQ, "err_extra_rank", (np.zeros((3,), np.float32), np.zeros((2, 3), np.float32), s, s, s),
             {"levels": 256}, error="more dimensions than data"),
        Case(FQ, "err_none", (x, np.zeros((1, 3, 1, 1), np.float32), x, x, x), {"levels": 256, "auto_broadcast": "none"},
             error="auto_broadcast=none"),
        Case(FQ, "err_types", (x, np.float16(0), s, s, s), {"levels": 256}, error="must match"),
        Case(FQ, "err_int", (x.astype(np.int32),) + (np.int32(0),) * 4, {"levels": 256}, error="expected one of"),
    ]


def _fq_shape_cases():
    rng = rng_for(FQ, 2)
    out = []
    for i, c in enumerate(c for c in _fake_quantize() if c.error is None):
        shapes = [loosen(rng, a.shape) if rng.random() < 0.8 else
                  (PartialShape.dynamic() if rng.random() < 0.5 else a.shape) for a in c.inputs]
        out.append(ShapeCase(FQ, f"{i}_{'_'.join(map(str, shapes))}_{c.id}",
                             tuple(info(element_type_of(a), s) for a, s in zip(c.inputs, shapes)), c.attrs))
    f = lambda s: info("f32", s)
    corners = [("[?,3,?,?]", "[1,3,1,1]", "[5,3,1,1]"), ("[?,3]", "[5,3]", "[6,3]"), ("[2..4,3]", "[1..5,3]", "[]"),
               ("[...]", "[1,3,1,1]", "[2,2]"), ("[2,?]", "[...]", "[7]"), ("[1..3,4]", "[5,4]", "[1]")]
    for j, (d, a, b) in enumerate(corners):
        for mode in ("numpy", "none", "pdpd"):
            out.append(ShapeCase(FQ, f"corner_{j}_{mode}", (f(d), f(a), f(b), f(a), f(b)),
                                 {"levels": 256, "auto_broadcast": mode}))
    out += [ShapeCase(FQ, "enlarges_data", (f("[1,3,1,1]"), f("[1,3,4,5]"), f("[]"), f("[]"), f("[]")),
                      {"levels": 256}, openvino=SPEC_UNIDIRECTIONAL, expected=None),
            ShapeCase(FQ, "adds_axes", (f("[3]"), f("[2,3]"), f("[]"), f("[]"), f("[]")),
                      {"levels": 256}, openvino=SPEC_UNIDIRECTIONAL, expected=None),
            ShapeCase(FQ, "levels_1", (f("[3]"), f("[]"), f("[]"), f("[]"), f("[]")), {"levels": 1},
                      openvino=SPEC_LEVELS, expected=None),
            ShapeCase(FQ, "levels_0", (f("[3]"), f("[]"), f("[]"), f("[]"), f("[]")), {"levels": 0},
                      openvino=SPEC_LEVELS, expected=None)]
    return out


# --- FakeConvert-13 ----------------------------------------------------------------------------------
FC = "FakeConvert-13"
FC_TWICE = ("OpenVINO (CPU plugin and reference) converts to f16 before the 8-bit type, so a value just off an f8 "
            "tie rounds twice; the spec converts once: checked against a NumPy transcription of the spec")
FC_NAN = {"openvino": "the CPU plugin converts NaN to minus the largest f8 value; the spec's Convert keeps NaN"}


def _rounds_twice(inputs, dest) -> bool:
    """Whether rounding through f16 (as OpenVINO does) changes some element's 8-bit value."""
    f8 = ml_dtypes.float8_e4m3fn if dest == "f8e4m3" else ml_dtypes.float8_e5m2
    x, s = inputs[0].astype(np.float32), inputs[1].astype(np.float32)
    b = inputs[2].astype(np.float32) if len(inputs) == 3 else np.float32(0)
    with np.errstate(all="ignore"):
        y = np.clip(x * s - b, -448 if dest == "f8e4m3" else -57344, 448 if dest == "f8e4m3" else 57344)
        direct, twice = y.astype(f8).astype(np.float32), y.astype(np.float16).astype(f8).astype(np.float32)
    return bool(((direct != twice) & ~np.isnan(y)).any())


def _fc_case(i, rng, et, dest):
    rank = int(rng.integers(0, 5))
    shape = [int(rng.integers(1, 5)) for _ in range(rank)]
    if i % 19 == 7 and rank:
        shape[0] = 0
    t = element_type(et).dtype
    magnitude = 10.0 ** rng.uniform(-4, 5)                          # subnormal, normal and saturating f8 values
    x = np.array(rng.standard_normal(shape) * magnitude, np.float32).reshape(shape)
    specials = i % 8 == 3 and x.size > 0
    if specials:
        mask = rng.random(x.shape) < 0.4
        x[mask] = np.float32([np.inf, -np.inf, np.nan, 0.0, -0.0])[rng.integers(0, 5, int(mask.sum()))]
    sshape = _limit_shape(rng, shape, "numpy")
    scale = np.array(rng.uniform(0.05, 20, sshape) * rng.choice([1, 1, 1, -1], sshape), np.float32).reshape(sshape)
    inputs = (x.astype(t), scale.astype(t))
    if rng.random() < 0.6:
        inputs += (np.array(rng.uniform(-4, 4, sshape), np.float32).reshape(sshape).astype(t),)
    marks = {}
    if specials and np.isnan(x).any():
        marks = dict(openvino=FC_NAN["openvino"], nan_differs=FC_NAN)
    if _rounds_twice(inputs, dest):
        marks = dict(openvino=FC_TWICE, oracle="spec")
    return Case(FC, f"{i}_{et}_{dest}_{_tag(shape)}_{_tag(sshape)}{'_shift' if len(inputs) == 3 else ''}"
                    f"{'_special' if specials else ''}", inputs, {"destination_type": dest}, **marks)


def _fake_convert():
    rng = rng_for(FC)
    types, dests = itertools.cycle(T_FC), itertools.cycle(["f8e4m3", "f8e4m3", "f8e5m2"])
    out = [_fc_case(i, rng, next(types), next(dests)) for i in range(N - 40)]
    x, s = np.zeros((1, 3, 2, 2), np.float32), np.ones((1, 3, 1, 1), np.float32)
    a = {"destination_type": "f8e4m3"}
    out += [Case(FC, "err_shift_shape", (x, s, np.ones((3, 1, 1), np.float32)), a,
                 error="input 'shift' [3,1,1] must have the shape of 'scale' [1,3,1,1]"),
            Case(FC, "err_enlarges", (np.zeros((2, 1), np.float32), np.ones((2, 3), np.float32)), a,
                 error="does not broadcast to data"),
            Case(FC, "err_scale_shape", (x, np.ones((1, 4, 1, 1), np.float32)), a, error="input 'scale'"),
            Case(FC, "err_types", (x, s.astype(np.float16)), a, error="must match"),
            Case(FC, "err_f64", (x.astype(np.float64), s.astype(np.float64)), a, error="expected one of f32, f16, bf16"),
            Case(FC, "err_destination", (x, s), {"destination_type": "f16"}, error="is not one of"),
            Case(FC, "err_no_destination", (x, s), {}, error="missing required attribute 'destination_type'")]
    return out


def _fc_shape_cases():
    rng = rng_for(FC, 2)
    out = []
    for i, c in enumerate(c for c in _fake_convert() if c.error is None):
        shapes = [loosen(rng, a.shape) if rng.random() < 0.8 else PartialShape.dynamic() for a in c.inputs]
        if len(shapes) == 3 and rng.random() < 0.7:
            shapes[2] = shapes[1]
        out.append(ShapeCase(FC, f"{i}_{'_'.join(map(str, shapes))}_{c.id}",
                             tuple(info(element_type_of(a), s) for a, s in zip(c.inputs, shapes)), c.attrs))
    f, a = (lambda s: info("f32", s)), {"destination_type": "f8e5m2"}
    corners = {"shift_rank": (f([2, 3]), f([3]), f([1])), "shift_2d": (f([2, 3]), f([3]), f([2, 1])),
               "more_axes": (f([2, 3]), f([1, 3, 1])), "dyn": (f("[...]"), f([3]), f([3])),
               "interval": (f([-1, (1, 4)]), f([3])), "shift_dyn": (f([2, 3]), f([3]), f("[...]"))}
    out += [ShapeCase(FC, f"corner_{k}", v, a) for k, v in corners.items()]
    out.append(ShapeCase(FC, "enlarges_data", (f([2, 1]), f([2, 3])), a, openvino=None))
    return out


def cases():
    return _fake_quantize() + _fake_convert()


def shape_cases():
    return _fq_shape_cases() + _fc_shape_cases()
