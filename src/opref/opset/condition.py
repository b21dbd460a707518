"""Condition and selection ops: Select, Bucketize, NonZero (schemas and shape rules)."""
from __future__ import annotations

from ..shapes import Dimension, PartialShape, TensorInfo
from ..types import ALL, IDX, NUMERIC
from .families import auto_broadcast_attr, broadcast_shapes
from .helpers import check
from .schema import BOOL, ELEMENT_TYPE, Attr, OpSchema, Port


# --- Select-1 -----------------------------------------------------------------------------------------
def select_shape(cond, then, else_, *, auto_broadcast):
    """numpy: cond, then and else broadcast together, as OpenVINO infers it (the spec words cond's
    broadcast as one-way, to the shape of then/else; OpenVINO also lets cond widen the output, and
    opref follows it so that every model OpenVINO accepts loads). pdpd: else, then cond, are
    broadcast one way into then's shape. none: the three shapes must be equal."""
    op = "Select-1"
    if auto_broadcast == "pdpd":
        out = broadcast_shapes(op, then.shape, else_.shape, "pdpd")
        return broadcast_shapes(op, out, cond.shape, "pdpd")
    out = broadcast_shapes(op, else_.shape, then.shape, auto_broadcast)
    return broadcast_shapes(op, out, cond.shape, auto_broadcast)


SELECT_1 = OpSchema(
    "Select", 1, category="condition",
    inputs=(Port("cond", "T_COND", doc="selection mask: true takes `then`, false takes `else`"),
            Port("then", "T"), Port("else_", "T", doc="the spec's `else` (a Python keyword)")),
    outputs=(Port("output", "T"),),
    attributes=(auto_broadcast_attr(),),
    type_constraints={"T_COND": ("boolean",), "T": ("boolean",) + NUMERIC},
    shape=select_shape,
    doc="Elementwise cond ? then : else, after broadcasting the three inputs by auto_broadcast.",
)

OPS = (SELECT_1,)
