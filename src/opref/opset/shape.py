"""Shape-manipulating ops: Reshape-1, ShapeOf-1/3, Squeeze-1/15, Unsqueeze-1.

Shape rules follow OpenVINO's (src/core/shape_inference/include/<op>_shape_inference.hpp).
"""
from __future__ import annotations

from ..shapes import Dimension, PartialShape, TensorInfo
from ..types import ALL, IDX
from .helpers import check, fail, ints_of, product, rank_of
from .movement import T_INT
from .schema import BOOL, ELEMENT_TYPE, Attr, OpSchema, Port


def _product(dims) -> Dimension:
    out = Dimension(1, 1)
    for d in dims:
        out = out * d
    return out


def reshape_shape(data, target_shape, *, special_zero):
    """The output has one dimension per target_shape value: the value itself, the data's dimension at the same
    index for a 0 when special_zero, and for one -1 the element count divided by the product of the others
    (an interval when dimensions are dynamic; a static total must divide exactly, and with the others
    multiplying to 0 the data must have a 0). A static element count must equal the target's. target_shape is
    0-D or 1-D with values >= -1; unknown values give dynamic dimensions of its length."""
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
            # Other dims multiply to 0: OpenVINO needs a static 0 among the data's dims and makes -1 the
            # product of the data's dynamic dims (1 when all are static: [0,3] -> [-1,0] gives [1,0]).
            rest = [d for i, d in enumerate(shape) if i not in copied]
            check(_product(d for d in rest if d.is_static).lo == 0, op, f"cannot infer -1 of "
                  f"{list(pattern)}: other dims multiply to 0, but data {shape} has no dimension that is 0")
            minus_one = _product(d for d in rest if not d.is_static)
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
    "Reshape", 1, category="shape", value_bounds="moves",
    inputs=(Port("data", "T", doc="the tensor to reshape, of any shape"),
            Port("target_shape", "T_SHAPE", const=True,
                 doc="1-D new shape: values >= 0, at most one -1 (inferred), 0 copies with special_zero")),
    outputs=(Port("output", "T", doc="data's elements in order, with the new shape"),),
    attributes=(Attr("special_zero", BOOL, doc="0 in target_shape copies the input dimension"),),
    type_constraints={"T": ALL, "T_SHAPE": T_INT},
    shape=reshape_shape,
    doc="Gives data a new shape with the same elements; one -1 is inferred.",
)


# --- ShapeOf-1 / ShapeOf-3 ----------------------------------------------------------------------------
def _shape_of(op, data, output_type):
    # (the value, the dims, is whole-graph inference's: the schema's value_bounds="shape")
    shape = data.shape
    return TensorInfo(output_type, PartialShape([len(shape)]) if shape.rank_is_static else PartialShape.dynamic(1))


def shape_of_1_shape(data):
    """A 1-D i64 output of length rank(data) (of unknown length for an unknown rank)."""
    return _shape_of("ShapeOf-1", data, "i64")


def shape_of_3_shape(data, *, output_type):
    """A 1-D output of output_type and length rank(data) (of unknown length for an unknown rank)."""
    return _shape_of("ShapeOf-3", data, output_type)


SHAPE_OF_1 = OpSchema(
    "ShapeOf", 1, category="shape", value_bounds="shape",
    inputs=(Port("data", "T", doc="any tensor; only its shape is read"),),
    outputs=(Port("output", "i64", doc="1-D: the dimensions of data"),),
    type_constraints={"T": ALL},
    shape=shape_of_1_shape,
    doc="The shape of data as a 1-D i64 tensor.",
)

# v3 adds the output element type.
SHAPE_OF_3 = OpSchema(
    "ShapeOf", 3, category="shape", value_bounds="shape",
    inputs=(Port("data", "T", doc="any tensor; only its shape is read"),),
    outputs=(Port("output", "T_OUT", doc="1-D: the dimensions of data"),),
    attributes=(Attr("output_type", ELEMENT_TYPE, "i64", allowed=IDX, doc="i32 or i64"),),
    type_constraints={"T": ALL, "T_OUT": IDX},
    shape=shape_of_3_shape,
    doc="The shape of data as a 1-D tensor of output_type.",
)


# --- Squeeze-1 / Squeeze-15 ----------------------------------------------------------------------------
def _axes_input(op, axes):
    ts = axes.shape
    check(not ts.rank_is_static or len(ts) <= 1, op, f"input 'axes' must be 0-D or 1-D, got {ts}")


def _normalize(op, axes, rank):
    for a in axes:
        lo, hi = (-rank, rank - 1) if rank else (-1, 0)     # a scalar takes axis 0 or -1
        check(lo <= a <= hi, op, f"axis {a} of input 'axes' is out of the range [{lo}, {hi}] for data of rank {rank}")
    return sorted({a % rank if rank else 0 for a in axes})


def squeeze_dims(op, dims, axes, *, allow_axis_skip=False):
    """The squeezed shape of a static-rank `dims` for known `axes` (None: no axes input), as
    OpenVINO infers it: axes at dims that cannot be 1 are kept; without axes (or with empty axes)
    every 1 goes, and a dynamic dim that may be 1 makes the rank unknown."""
    rank = len(dims)
    if not axes:
        if any(d.is_dynamic and d.contains(1) for d in dims):
            return PartialShape.dynamic()
        return PartialShape([d for d in dims if not d.contains(1)])
    chosen = set(_normalize(op, axes, rank))
    if allow_axis_skip and any(d.is_dynamic and d.contains(1) for i, d in enumerate(dims) if i in chosen):
        return PartialShape.dynamic()
    return PartialShape([d for i, d in enumerate(dims) if i not in chosen or not d.contains(1)])


def _squeeze(op, data, axes, allow_axis_skip, v15):
    shape = data.shape
    if axes is None:
        return squeeze_dims(op, list(shape), None) if shape.rank_is_static else PartialShape.dynamic()
    _axes_input(op, axes)
    values = ints_of(axes)
    if not shape.rank_is_static or not axes.shape.is_static:
        return PartialShape.dynamic()
    if values is None:
        if len(shape) > 0 and product(axes.shape.to_shape()) == 1:
            # one unknown axis: v1 knows the rank drops by one if any dim may be 1; v15 does not
            if any(d.contains(1) for d in shape):
                return PartialShape.dynamic() if v15 else PartialShape.dynamic(len(shape) - 1)
            return shape
        return PartialShape.dynamic()
    return squeeze_dims(op, list(shape), values, allow_axis_skip=allow_axis_skip)


def squeeze_1_shape(data, axes=None):
    """Without axes (or with empty axes) every dimension that is 1 is removed, and a dynamic dimension that may be 1
    makes the rank unknown. With known axes (in [-rank, rank-1]; a scalar data takes 0 or -1) the dimensions there
    that may be 1 are removed and the others named are kept. With one unknown axis, the rank drops by one if some
    dimension may be 1 (the data shape is kept otherwise); more unknown axes or an unknown data rank give dynamic
    rank. axes must be 0-D or 1-D."""
    return _squeeze("Squeeze-1", data, axes, False, False)


def squeeze_15_shape(data, axes=None, *, allow_axis_skip):
    """Without axes (or with empty axes) every dimension that is 1 is removed, and a dynamic dimension that may be 1
    makes the rank unknown. With known axes (in [-rank, rank-1]; a scalar data takes 0 or -1) the dimensions there
    that may be 1 are removed and the others named are kept; with allow_axis_skip a dynamic dimension that may be 1
    at an axis makes the rank unknown. With one unknown axis, a dimension that may be 1 makes the rank unknown (the
    data shape is kept otherwise); more unknown axes or an unknown data rank give dynamic rank. axes must be 0-D or
    1-D."""
    return _squeeze("Squeeze-15", data, axes, allow_axis_skip, True)


SQUEEZE_1 = OpSchema(
    "Squeeze", 1, category="shape", value_bounds="moves",
    inputs=(Port("data", "T", doc="the tensor to squeeze, of any rank"),
            Port("axes", "T_INT", optional=True, const=True,
                 doc="scalar or 1-D axes to remove; negative counts from the end (absent: every 1)")),
    outputs=(Port("output", "T", doc="data without the removed dimensions of length 1"),),
    type_constraints={"T": ALL, "T_INT": T_INT},
    shape=squeeze_1_shape,
    doc="Removes dimensions of length 1: those at `axes` (others named there are kept), or all of them.",
)

# v15 adds allow_axis_skip: a dynamic dim that may be 1 at an axis gives a dynamic rank.
SQUEEZE_15 = OpSchema(
    "Squeeze", 15, category="shape", value_bounds="moves",
    inputs=(Port("data", "T", doc="the tensor to squeeze, of any rank"),
            Port("axes", "T_INT", optional=True, const=True,
                 doc="scalar or 1-D axes to remove; negative counts from the end (absent: every 1)")),
    outputs=(Port("output", "T", doc="data without the removed dimensions of length 1"),),
    attributes=(Attr("allow_axis_skip", BOOL, False,
                     doc="a dynamic dim that may be 1 at an axis gives a dynamic output rank"),),
    type_constraints={"T": ALL, "T_INT": T_INT},
    shape=squeeze_15_shape,
    doc="Removes dimensions of length 1: those at `axes` (others named there are kept), or all of them.",
)


# --- Unsqueeze-1 ------------------------------------------------------------------------------------------
def unsqueeze_dims(op, dims, axes):
    """Inserts 1s at `axes` as OpenVINO does: the output rank counts the distinct raw axes; axes
    normalised against it that coincide (4 and -1 of rank 5) insert one 1, appended at the end."""
    check(len(axes) > 0, op, "input 'axes' must not be empty")
    raw = sorted(set(axes))
    out_rank = len(dims) + len(raw)
    for a in raw:
        check(-out_rank <= a < out_rank, op, f"axis {a} of input 'axes' is out of the range "
              f"[{-out_rank}, {out_rank - 1}] for an output of rank {out_rank}")
    out = list(dims)
    for a in sorted({a + out_rank if a < 0 else a for a in raw}):
        check(a <= len(out) + 1, op, f"axis {a} of input 'axes' is not valid for rank {len(out)}")
        if a <= len(out):
            out.insert(a, Dimension(1, 1))
        else:
            out.append(Dimension(1, 1))
    return out


def unsqueeze_shape(data, axes):
    """A 1 is inserted at each distinct axis; the output rank is rank(data) + the number of distinct axes values,
    which must lie in [-out_rank, out_rank-1] (two values that name one output axis insert a single 1, at
    the end). axes is 0-D or 1-D and not empty; unknown axes or an unknown data rank give dynamic rank."""
    op = "Unsqueeze-1"
    _axes_input(op, axes)
    values = ints_of(axes)
    shape = data.shape
    if values is not None and shape.rank_is_static:
        return PartialShape(unsqueeze_dims(op, list(shape), values))
    return PartialShape.dynamic()   # (OpenVINO 2026.4 gives a dynamic rank even for one unknown axis)


UNSQUEEZE_1 = OpSchema(
    "Unsqueeze", 1, category="shape", value_bounds="moves",
    inputs=(Port("data", "T", doc="the tensor to expand, of any rank"),
            Port("axes", "T_INT", const=True,
                 doc="scalar or 1-D axes of the output to insert 1s at; negative counts from the output's end")),
    outputs=(Port("output", "T", doc="data with dimensions of length 1 inserted"),),
    type_constraints={"T": ALL, "T_INT": T_INT},
    shape=unsqueeze_shape,
    doc="Inserts dimensions of length 1 at `axes` (indices into the output shape).",
)

OPS = (RESHAPE_1, SHAPE_OF_1, SHAPE_OF_3, SQUEEZE_1, SQUEEZE_15, UNSQUEEZE_1)
