"""Infrastructure ops: the graph's inputs (Parameter), weights (Constant), outputs (Result), and
Identity. Parameter and Constant are sources: the executor feeds them (a model input, the weights
file), so they have a shape rule but no kernel."""
from __future__ import annotations

from ..shapes import PartialShape, TensorInfo
from ..types import ALL
from .schema import ELEMENT_TYPE, SHAPE, Attr, OpSchema, Port


def parameter_shape(*, shape, element_type):
    """The output is the `shape` attribute (a partial shape: dynamic dims, intervals, dynamic rank as
    declared) with element type element_type."""
    return TensorInfo(element_type, shape)


def constant_shape(*, element_type, shape):
    """The output is the static `shape` attribute with element type element_type."""
    return TensorInfo(element_type, shape)


def same_shape(data):
    """The output has the input's shape and element type, whatever they are."""
    return data.shape


PARAMETER_1 = OpSchema(
    "Parameter", 1, category="infrastructure", inputs=(), role="parameter",
    outputs=(Port("output", "T", doc="the value fed to the model at run time, of the declared shape and type"),),
    attributes=(Attr("shape", SHAPE, PartialShape.dynamic(), doc="partial shape of the model input"),
                Attr("element_type", ELEMENT_TYPE, doc="element type of the model input")),
    type_constraints={"T": ALL}, shape=parameter_shape,
    doc="A model (or body) input, fed at run time.")

CONSTANT_1 = OpSchema(
    "Constant", 1, category="infrastructure", inputs=(), role="constant",
    outputs=(Port("output", "T", doc="the stored tensor"),),
    attributes=(Attr("element_type", ELEMENT_TYPE, doc="element type of the value"),
                Attr("shape", SHAPE, doc="static shape of the value")),
    type_constraints={"T": ALL}, shape=constant_shape,
    doc="A tensor stored with the model (in IR: bytes `offset`..`offset+size` of the weights file).")

RESULT_1 = OpSchema(
    "Result", 1, category="infrastructure", role="result",
    inputs=(Port("data", "T", doc="the value the model returns"),),
    outputs=(Port("output", "T", doc="the same tensor, as the model's output"),),
    type_constraints={"T": ALL}, shape=same_shape, doc="A model (or body) output.")

IDENTITY_16 = OpSchema(
    "Identity", 16, category="infrastructure", inputs=(Port("data", "T", doc="any tensor"),),
    outputs=(Port("output", "T", doc="a copy of data"),),
    type_constraints={"T": ALL}, shape=same_shape, doc="A copy of its input.")

OPS = (PARAMETER_1, CONSTANT_1, RESULT_1, IDENTITY_16)
