"""Schemas and shape rules: ReadValue-3/-6 and Assign-3/-6 (stateful models).

A variable is a tensor a model keeps between runs. ReadValue reads it (on the first run, or after a
reset, it gives its `init_value` input, or zeros of the variable's shape and type when it has none);
Assign writes a new value, which the next run's ReadValue reads. A ReadValue and an Assign pair up
by `variable_id`. As one op each is only half of the story: ReadValue is its initial value (or the
zeros), Assign passes its input through. The executor does the reading and writing, and the model
checks the pairs (runtime/executor.py `model_variables`).

ReadValue-3 takes the variable's type and shape from its input; ReadValue-6 declares them
(`variable_type`, `variable_shape`), and its input, now optional, must fit in them.
"""
from __future__ import annotations

from ..shapes import PartialShape, TensorInfo
from ..types import ALL
from .helpers import check, fail
from .schema import SHAPE, STRING, Attr, OpSchema, Port

# "dynamic": any type (OpenVINO writes it for variables of IRs from older versions)
VARIABLE_TYPES = ALL + ("dynamic",)


def relaxes(wide: PartialShape, narrow: PartialShape) -> bool:
    """Every shape `narrow` allows, `wide` allows too (OpenVINO's PartialShape::relaxes)."""
    if not wide.rank_is_static:
        return True
    if not narrow.rank_is_static or len(wide) != len(narrow):
        return False
    return all(w.lo <= n.lo and (w.hi is None or (n.hi is not None and n.hi <= w.hi)) for w, n in zip(wide, narrow))


def _variable_id(op: str, variable_id: str):
    check(variable_id != "", op, "attribute 'variable_id' must be a non-empty string")


def read_value_3_shape(init_value, *, variable_id):
    """The output has init_value's element type and shape; variable_id must not be empty."""
    _variable_id("ReadValue-3", variable_id)
    return TensorInfo(init_value.element_type, init_value.shape)


def read_value_6_shape(init_value=None, *, variable_id, variable_type, variable_shape):
    """The output has variable_type and variable_shape; a 'dynamic' variable_type takes init_value's type, and
    with variable_shape of unknown rank too the output is init_value's type and shape. init_value, when given,
    must have a shape variable_shape relaxes (each of its intervals inside the declared one) and an element
    type equal to variable_type unless it is 'dynamic'. A 'dynamic' type without init_value is rejected; an
    empty variable_id too."""
    op = "ReadValue-6"
    _variable_id(op, variable_id)
    if init_value is not None:
        check(relaxes(variable_shape, init_value.shape), op,
              lambda: f"attribute 'variable_shape' {variable_shape} must extend (relax) the shape of input "
                      f"'init_value' {init_value.shape}")
        check(variable_type in ("dynamic", init_value.element_type), op,
              lambda: f"attribute 'variable_type' {variable_type} must be the element type of input 'init_value' "
                      f"({init_value.element_type}) or dynamic")
        if variable_type == "dynamic" and not variable_shape.rank_is_static:
            # a variable of no declared type and rank (IRs of older OpenVINO versions): the input's
            return TensorInfo(init_value.element_type, init_value.shape)
    if variable_type == "dynamic":
        if init_value is None:
            fail(op, "attribute 'variable_type' is dynamic and there is no input 'init_value': the element type "
                     "of the variable is not known")
        # OpenVINO's shape inference says element type "dynamic" here; the value is init_value's type
        return TensorInfo(init_value.element_type, variable_shape)
    return TensorInfo(variable_type, variable_shape)


def _assign_shape(op: str):
    def assign_shape(new_value, *, variable_id):
        """The output has new_value's element type and shape; variable_id must not be empty. Whether they fit
        the variable is checked against the model's ReadValue, not here."""
        # The checks against the variable (its ReadValue's type and shape) are the model's: an Assign
        # alone has no variable.
        _variable_id(op, variable_id)
        return TensorInfo(new_value.element_type, new_value.shape)
    assign_shape.__qualname__ = f"assign_shape[{op}]"
    return assign_shape


_ID = Attr("variable_id", STRING, doc="identifier of the variable (a non-empty string); a ReadValue and an "
                                      "Assign with the same one read and write the same variable")

READ_VALUE_3 = OpSchema(
    "ReadValue", 3, category="state", role="read_variable",
    inputs=(Port("init_value", "T", doc="the variable's value on the first run and after a reset; gives the "
                                        "variable its type and shape"),),
    outputs=(Port("output", "T", doc="the variable's current value, of init_value's type and shape"),),
    attributes=(_ID,), type_constraints={"T": ALL}, shape=read_value_3_shape,
    doc="The value of variable `variable_id`: what Assign wrote on the previous run, or `init_value` on the "
        "first run and after a reset.",
    partner="Assign-3")

READ_VALUE_6 = OpSchema(
    "ReadValue", 6, category="state", role="read_variable",
    inputs=(Port("init_value", "T", optional=True,
                 doc="the variable's value on the first run and after a reset (without it: zeros)"),),
    outputs=(Port("output", "T", doc="the variable's current value, of variable_type and variable_shape"),),
    attributes=(_ID,
                Attr("variable_type", STRING, "dynamic", allowed=VARIABLE_TYPES,
                     doc="element type of the variable (dynamic: that of init_value)"),
                Attr("variable_shape", SHAPE, PartialShape.dynamic(),
                     doc="partial shape of the variable; init_value's shape must fit in it")),
    type_constraints={"T": ALL}, shape=read_value_6_shape,
    doc="The value of variable `variable_id` of declared type and shape: what Assign wrote on the previous run, "
        "or on the first run and after a reset `init_value`, or zeros of `variable_shape` without it.",
    partner="Assign-6")

def _assign(version: int, variable: str) -> OpSchema:
    return OpSchema(
        "Assign", version, category="state", role="assign_variable",
        inputs=(Port("new_value", "T", doc="the value the variable takes for the next run"),),
        outputs=(Port("output", "T", doc="new_value, passed through"),),
        attributes=(_ID,), type_constraints={"T": ALL}, shape=_assign_shape(f"Assign-{version}"),
        doc=f"Writes `new_value` to variable `variable_id` at the end of the run ({variable}); outputs `new_value`.",
        partner=f"ReadValue-{version}")


ASSIGN_3 = _assign(3, "its ReadValue, upstream, gives the variable's type and shape: they must be the same")
ASSIGN_6 = _assign(6, "its type and shape must be compatible with the variable's, as its ReadValue-6 declares them")

OPS = (READ_VALUE_3, READ_VALUE_6, ASSIGN_3, ASSIGN_6)
