"""Quantization ops: FakeQuantize-1, FakeConvert-13.

Shape rules follow OpenVINO's (src/core/shape_inference/include/fake_{quantize,convert}_shape_inference.hpp):
the output has the data's shape, and every other input must broadcast with it (checked one after
the other against the data shape refined by the earlier ones). The spec's broadcasting is
unidirectional — a limit never enlarges the data — which opref enforces where OpenVINO lets a
limit of shape [1,3,4,5] pass for data [1,3,1,1].
"""
from __future__ import annotations

from ..errors import OprefError
from ..shapes import PartialShape
from .families import auto_broadcast_attr, broadcast_shapes
from .helpers import check, fail
from .schema import INT, STRING, Attr, OpSchema, Port

# "any supported floating-point type": OpenVINO's CPU plugin has no f8 FakeQuantize
T_FQ = ("f64", "f32", "f16", "bf16")
T_FC = ("f32", "f16", "bf16")


def _unidirectional(op: str, name: str, data: PartialShape, limit: PartialShape, mode: str):
    """The spec's rule: `limit` broadcasts *to* data (it may not add axes or stretch a data axis of 1)."""
    if mode == "none" or not data.rank_is_static or not limit.rank_is_static:
        return
    if mode == "pdpd":
        return            # PDPD broadcasting is one-way by definition
    check(len(limit) <= len(data), op, lambda: f"input {name!r} {limit} has more dimensions than data {data}: it "
                                               f"must broadcast to the data's shape")
    for i, (d, l) in enumerate(zip(list(data)[len(data) - len(limit):], limit)):
        check(not (d == 1 and not l.contains(1)), op,
              lambda: f"input {name!r} {limit} does not broadcast to data {data}: "
                      f"dimension {i} of {name} is {l}, data has 1")


def _broadcast_inputs(op: str, data, others: dict, mode: str) -> PartialShape:
    merged = data.shape
    for name, info in others.items():
        _unidirectional(op, name, data.shape, info.shape, mode)
        try:
            merged = broadcast_shapes(op, merged, info.shape, mode)
        except OprefError as e:   # name the input at fault
            fail(op, f"input {name!r} {info.shape} does not broadcast with data {data.shape} "
                 f"(auto_broadcast={mode}): {e}")
    return data.shape


# --- FakeQuantize-1 ----------------------------------------------------------------------------------
def fake_quantize_shape(data, input_low, input_high, output_low, output_high, *, levels, auto_broadcast):
    """The output has the data's shape. Each of the four limits must broadcast with the data under
    auto_broadcast, one after the other, and (numpy) may not add axes to the data or stretch a data
    dimension of 1 (the spec's one-way broadcast, stricter than OpenVINO); levels >= 2."""
    op = "FakeQuantize-1"
    check(levels >= 2, op, lambda: f"attribute 'levels' must be >= 2, got {levels}")
    return _broadcast_inputs(op, data, {"input_low": input_low, "input_high": input_high,
                                        "output_low": output_low, "output_high": output_high}, auto_broadcast)


FAKE_QUANTIZE_1 = OpSchema(
    "FakeQuantize", 1, category="quantization",
    inputs=(Port("data", "T_F", doc="the tensor to quantize, of any rank"),
            Port("input_low", "T_F", doc="lower clipping limit, broadcast to data (e.g. a scalar or one per channel)"),
            Port("input_high", "T_F", doc="upper clipping limit, broadcast to data"),
            Port("output_low", "T_F", doc="the value of the lowest level, broadcast to data"),
            Port("output_high", "T_F", doc="the value of the highest level, broadcast to data")),
    outputs=(Port("output", "T_F", doc="data quantized to levels steps between output_low and output_high"),),
    attributes=(Attr("levels", INT, doc="number of quantization levels (>= 2; 256 for 8 bits)"),
                auto_broadcast_attr()),
    type_constraints={"T_F": T_FQ},
    shape=fake_quantize_shape,
    doc="Clips data to [input_low, input_high], rounds it (half to even) to one of `levels` evenly spaced "
        "steps and maps the steps onto [output_low, output_high]; limits broadcast to the data.",
)

# --- FakeConvert-13 ----------------------------------------------------------------------------------
def fake_convert_shape(data, scale, shift=None, *, destination_type):
    """The output is the data's shape numpy-broadcast with scale's (as OpenVINO refines it), which must stay
    compatible with the data's shape: scale may not add axes or stretch a data dimension of 1. shift, when
    given, must have scale's shape."""
    op = "FakeConvert-13"
    others = {"scale": scale} if shift is None else {"scale": scale, "shift": shift}
    if shift is not None and scale.shape.rank_is_static and shift.shape.rank_is_static:
        check(scale.shape.compatible(shift.shape), op, lambda: f"input 'shift' {shift.shape} must have the shape of "
                                                               f"'scale' {scale.shape}")
    # OpenVINO's output is the data's shape merged with scale's (refined by it, or of dynamic rank when
    # scale's is), which must still be compatible with the data's shape; shift only has to match scale
    _broadcast_inputs(op, data, others, "numpy")
    merged = broadcast_shapes(op, data.shape, scale.shape, "numpy")
    check(data.shape.compatible(merged), op,
          lambda: f"input 'scale' {scale.shape} does not broadcast to data {data.shape}")
    return merged


FAKE_CONVERT_13 = OpSchema(
    "FakeConvert", 13, category="quantization",
    inputs=(Port("data", "T_F", doc="the tensor to round, of any rank"),
            Port("scale", "T_F", doc="factor applied before the conversion, broadcast to data"),
            Port("shift", "T_F", optional=True, doc="offset subtracted after scaling, of scale's shape (default 0)")),
    outputs=(Port("output", "T_F", doc="data rounded to destination_type's values, in data's type and shape"),),
    attributes=(Attr("destination_type", STRING, allowed=("f8e4m3", "f8e5m2"), doc="the emulated 8-bit float type"),),
    type_constraints={"T_F": T_FC},
    shape=fake_convert_shape,
    doc="(ConvertLike(Convert(data * scale - shift, destination_type), data) + shift) / scale: data rounded to the "
        "values of an 8-bit float type, in its own type.",
)

OPS = (FAKE_QUANTIZE_1, FAKE_CONVERT_13)
