"""Op families declared in one line each: unary elementwise ops, binary elementwise ops with
`auto_broadcast`, and the broadcasting rules they share (NumPy and PDPD style, on partial shapes).

`unary("Relu", 1, "activation", FLOAT, "max(x, 0)")` is a complete schema; its shape rule is the
identity and its kernel lives beside the other kernels of its category.
"""
from __future__ import annotations

import inspect
from typing import Callable, Sequence

from ..shapes import Dimension, PartialShape, merge_symbols
from .helpers import fail
from .schema import STRING, Attr, OpSchema, Port

AUTO_BROADCAST = ("none", "numpy", "pdpd")


def auto_broadcast_attr(default: str = "numpy") -> Attr:
    return Attr("auto_broadcast", STRING, default, allowed=AUTO_BROADCAST,
                doc="none: shapes must be equal; numpy: right-aligned, 1 stretches; pdpd: the second "
                    "input is broadcast to the first")


def with_signature(fn: Callable, ports: Sequence[str], attrs: Sequence[str]) -> Callable:
    """Gives a generic rule or kernel the exact signature of its schema (ports positional,
    attributes keyword-only), so that signature checks and readers see the op's real interface."""
    P = inspect.Parameter
    fn.__signature__ = inspect.Signature([P(p, P.POSITIONAL_OR_KEYWORD) for p in ports] +
                                         [P(a, P.KEYWORD_ONLY) for a in attrs])
    return fn


# --- broadcasting on partial shapes ---------------------------------------------------------------
def broadcast_dim(a: Dimension, b: Dimension) -> Dimension | None:
    """NumPy broadcasting of two dimensions as OpenVINO does it on intervals: a dim that may be 1
    yields to the other; two that may both be 1 give their hull; otherwise they must merge."""
    a_1, b_1 = a.contains(1), b.contains(1)
    if a_1 and b_1:
        lo = min(a.lo, b.lo)
        hi = None if a.hi is None or b.hi is None else max(a.hi, b.hi)
        # (two different symbols name the hull only when it is static); the exact length is the other's
        # where one is exactly 1, and the common one where both have it
        d = Dimension(lo, hi, merge_symbols(a.symbol, b.symbol, unequal=lo == hi))
        e = b.expr if a == 1 else a.expr if b == 1 else a.expr if a.expr is not None and a.expr == b.expr else None
        return d if e is None else d.with_expr(e)
    if a_1:
        return b
    if b_1:
        return a
    return a.merge(b)


# The axis of a at which pdpd broadcasting aligns b. OpenVINO's IR carries it as
# `auto_broadcast.auto_broadcast_axis`; when an IR leaves it out (as opref's schemas do), OpenVINO's
# reader uses 0 (b aligned with a's leading dims), not the spec's -1 (rank(a) - rank(b)).
PDPD_AXIS = 0


def broadcast_shapes(op: str, a: PartialShape, b: PartialShape, mode: str, pdpd_axis: int = PDPD_AXIS) -> PartialShape:
    """The output shape of a binary elementwise op under `auto_broadcast` = mode (as OpenVINO's
    eltwise shape inference computes it, on intervals and dynamic ranks)."""
    if mode == "none":
        if not a.rank_is_static:
            return b if b.rank_is_static else a
        if not b.rank_is_static:
            return a
        if len(a) != len(b):
            fail(op, f"auto_broadcast=none needs equal shapes, got {a} and {b}")
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            m = x.merge(y)
            if m is None:
                fail(op, f"auto_broadcast=none needs equal shapes, got {a} and {b} (axis {i})")
            out.append(m)
        return PartialShape(out)
    if mode == "numpy":
        if not a.rank_is_static or not b.rank_is_static:
            return PartialShape.dynamic()
        n = max(len(a), len(b))
        da = [Dimension(1, 1)] * (n - len(a)) + list(a)
        db = [Dimension(1, 1)] * (n - len(b)) + list(b)
        out = []
        for i, (x, y) in enumerate(zip(da, db)):
            m = broadcast_dim(x, y)
            if m is None:
                fail(op, f"shapes {a} and {b} do not broadcast (numpy): {x} vs {y} at output axis {i}")
            out.append(m)
        return PartialShape(out)
    if mode == "pdpd":
        # b is broadcast to a starting at axis `pdpd_axis` (-1: rank(a) - rank(b), right-aligned);
        # b may not reach past a's last dim, nor have a static dim longer than a's; each pair of
        # dims broadcast-merges as under numpy, so the output is a's shape refined by b's.
        if not a.rank_is_static or not b.rank_is_static:
            return PartialShape.dynamic()
        axis = len(a) - len(b) if pdpd_axis == -1 else pdpd_axis
        if len(b) > len(a) or axis < 0 or axis + len(b) > len(a):
            fail(op, f"auto_broadcast=pdpd: second input {b} does not fit into the first {a} from axis {axis}")
        out = list(a)
        for i, y in enumerate(b):
            x = out[axis + i]
            m = broadcast_dim(x, y)
            if m is None or (x.is_static and y.is_static and y.lo > x.lo):
                fail(op, f"auto_broadcast=pdpd: {b} does not broadcast to {a} at axis {axis + i}")
            out[axis + i] = m
        return PartialShape(out)
    fail(op, f"unknown auto_broadcast {mode!r}")


# --- schema makers ---------------------------------------------------------------------------------
def unary(name: str, version: int, category: str, types: Sequence[str], doc: str,
          out: str = "T", attributes: tuple[Attr, ...] = (), value_bounds: str | None = None,
          value_expr=None) -> OpSchema:
    """An elementwise op of one input `data` whose output has the input's shape; `out` is "T"
    (same element type) or a fixed element type ("boolean"); `value_bounds`, `value_expr` as OpSchema's."""
    def rule(data, **attrs):
        """The output has the input's shape (any rank; dynamic dims, intervals and a dynamic rank are kept)."""
        return data.shape

    with_signature(rule, ["data"], [a.name for a in attributes])
    return OpSchema(name, version, category=category, inputs=(Port("data", "T", doc="the input tensor, any shape"),),
                    outputs=(Port("output", out, doc="the elementwise result, in data's shape"),), attributes=attributes,
                    type_constraints={"T": tuple(types)}, shape=rule, doc=doc, value_bounds=value_bounds,
                    value_expr=value_expr)


def binary(name: str, version: int, category: str, types: Sequence[str], doc: str,
           out: str = "T", attributes: tuple[Attr, ...] = (), broadcast: str = "numpy",
           value_bounds: str | None = None, value_expr=None) -> OpSchema:
    """An elementwise op of two inputs `a`, `b` of one element type, broadcast by `auto_broadcast`;
    `out` is "T" or a fixed element type ("boolean"); `value_bounds`, `value_expr` as OpSchema's."""
    attributes = (auto_broadcast_attr(broadcast),) + tuple(attributes)
    versioned = f"{name}-{version}"

    def rule(a, b, *, auto_broadcast, **_):
        """The output shape broadcasts a and b by auto_broadcast. numpy right-aligns the shapes: a dim that
        may be 1 stretches to the other, two that may both be 1 give their hull, other dims must merge.
        pdpd broadcasts b into a (b may be neither longer than a nor larger in a static dim). none needs
        equal (mergeable) shapes. A dynamic rank gives a dynamic rank (under none, the other input's
        shape). Shapes that do not broadcast are rejected."""
        return broadcast_shapes(versioned, a.shape, b.shape, auto_broadcast)

    with_signature(rule, ["a", "b"], [x.name for x in attributes])
    return OpSchema(name, version, category=category,
                    inputs=(Port("a", "T", doc="the first operand, any shape"),
                            Port("b", "T", doc="the second operand, broadcast against a by auto_broadcast")),
                    outputs=(Port("output", out, doc="the elementwise result, in the broadcast shape"),),
                    attributes=attributes,
                    type_constraints={"T": tuple(types)}, shape=rule, doc=doc, value_bounds=value_bounds,
                    value_expr=value_expr)
