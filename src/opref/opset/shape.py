"""Shape-manipulating ops: Reshape-1."""
from __future__ import annotations

from ..shapes import Dimension, PartialShape
from ..types import ALL
from .helpers import check, fail, ints_of, rank_of
from .movement import T_INT
from .schema import BOOL, Attr, OpSchema, Port


def _product(dims) -> Dimension:
    out = Dimension(1, 1)
    for d in dims:
        out = out * d
    return out


def reshape_shape(data, target_shape, *, special_zero):
    op = "Reshape-1"
    ts = target_shape.shape
    check(not ts.rank_is_static or len(ts) <= 1, op, f"target_shape must be 0-D or 1-D, got {ts}")
    pattern = ints_of(target_shape)
    if pattern is None:
        n = rank_of(target_shape)
        return PartialShape.dynamic(n)
    shape = data.shape
    check(pattern.count(-1) <= 1, op, f"target_shape {list(pattern)} has more than one -1")
    check(all(v >= -1 for v in pattern), op, f"target_shape {list(pattern)} has a value below -1")
    out: list[Dimension | None] = []
    for i, v in enumerate(pattern):
        if v == 0 and special_zero:
            if not shape.rank_is_static:
                out.append(Dimension())
                continue
            check(i < len(shape), op, f"target_shape[{i}] = 0 copies input dimension {i}, but data has "
                  f"rank {len(shape)}")
            out.append(shape[i])
        elif v == -1:
            out.append(None)
        else:
            out.append(Dimension(v, v))
    if not shape.rank_is_static:
        return PartialShape([Dimension() if d is None else d for d in out])
    # Dims copied by a 0 stand on both sides and cancel (as OpenVINO does), which keeps -1 exact
    # when they are dynamic.
    copied = {i for i, v in enumerate(pattern) if v == 0 and special_zero}
    total = _product(d for i, d in enumerate(shape) if i not in copied)
    known = _product(d for i, d in enumerate(out) if d is not None and i not in copied)
    if None in out:
        if known.is_static and known.lo == 0:
            check(total.contains(0), op, f"cannot infer -1 of {list(pattern)}: other dims multiply to 0, "
                  f"data {shape} has elements")
            minus_one = Dimension() if not total.is_static else Dimension(0, 0)
        elif total.is_static and known.is_static:
            check(total.lo % known.lo == 0, op, f"cannot reshape data {shape} ({total.lo} elements) to "
                  f"{list(pattern)}: {total.lo} is not a multiple of {known.lo}")
            minus_one = Dimension(total.lo // known.lo, total.lo // known.lo)
        else:
            lo = 0 if known.hi is None else -(-total.lo // max(known.hi, 1))
            hi = None if total.hi is None or known.lo == 0 else total.hi // known.lo
            minus_one = Dimension(lo, hi) if hi is None or lo <= hi else fail(
                op, f"cannot reshape data {shape} to {list(pattern)}")
        out[out.index(None)] = minus_one
    elif total.is_static and known.is_static:
        check(total.lo == known.lo, op, f"cannot reshape data {shape} ({total.lo} elements) to "
              f"{list(pattern)} ({known.lo} elements)")
    return PartialShape(out)


RESHAPE_1 = OpSchema(
    "Reshape", 1, category="shape",
    inputs=(Port("data", "T"), Port("target_shape", "T_SHAPE", const=True)),
    outputs=(Port("output", "T"),),
    attributes=(Attr("special_zero", BOOL, doc="0 in target_shape copies the input dimension"),),
    type_constraints={"T": ALL, "T_SHAPE": T_INT},
    shape=reshape_shape,
    doc="Gives data a new shape with the same elements; one -1 is inferred.",
)

OPS = (RESHAPE_1,)
