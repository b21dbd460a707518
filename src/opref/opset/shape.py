"""Shape-manipulating ops: Reshape-1, ShapeOf-1/3, Squeeze-1/15, Unsqueeze-1.

Shape rules follow OpenVINO's (src/core/shape_inference/include/<op>_shape_inference.hpp).
"""
from __future__ import annotations

from ..shapes import Dimension, PartialShape, TensorInfo, exact, same_symbol
from ..types import ALL, IDX
from .helpers import check, fail, ints_of, product, rank_of, value_dims
from .movement import T_INT
from .schema import BOOL, ELEMENT_TYPE, Attr, OpSchema, Port


def _product(dims) -> Dimension:
    out = Dimension(1, 1)
    for d in dims:
        out = out * d
    return out


def reshape_shape(data, target_shape, *, special_zero):
    """The output has one dimension per target_shape element, read as OpenVINO reads it from the value or
    its bounds (an interval per element, with the element's symbol): the element itself, the data's
    dimension at the same index for a 0 when special_zero, and for one -1 the data's element count divided
    by the product of the others. Dims equal on both sides (static, or one symbol) cancel out of the two
    products, so -1 stays exact where they are dynamic; a static count must divide exactly, and with the
    others multiplying to 0 the data must have a 0. target_shape is 0-D or 1-D with values >= -1; unknown
    values give dynamic dimensions of its length."""
    op = "Reshape-1"
    ts = target_shape.shape
    check(not ts.rank_is_static or len(ts) <= 1, op, lambda: f"target_shape must be 0-D or 1-D, got {ts}")
    pattern = value_dims(target_shape)
    if pattern is None:
        return PartialShape.dynamic(rank_of(target_shape))
    values = [p for p in pattern if isinstance(p, int)]
    check(all(v == -1 for v in values), op, lambda: f"target_shape {_show(pattern)} has a value below -1")
    check(values.count(-1) <= 1, op, lambda: f"target_shape {_show(pattern)} has more than one -1")
    minus_one = next((i for i, p in enumerate(pattern) if isinstance(p, int)), None)
    if ts.rank_is_static and len(ts) == 0:
        check(pattern[0] == 1, op, lambda: f"a scalar target_shape must be 1, got {_show(pattern)}")
        pattern = []
    shape = data.shape
    zero = [special_zero and not isinstance(p, int) and p == 0 for p in pattern]
    out: list[Dimension | None] = []
    ins, outs = [], []                    # the dims of the two products
    if not shape.rank_is_static:
        out = [Dimension() if i == minus_one or z else p for i, (p, z) in enumerate(zip(pattern, zero))]
        return PartialShape(out)
    for i, (p, z) in enumerate(zip(pattern, zero)):
        if i == minus_one:
            out.append(None)
        elif z:
            check(i < len(shape), op, lambda: f"target_shape[{i}] = 0 copies input dimension {i}, but data has "
                                              f"rank {len(shape)}")
            out.append(shape[i])          # (a copied dim is in neither product)
        else:
            out.append(p)
            outs.append(p)
        if i < len(shape) and not z:
            ins.append(shape[i])
    ins.extend(shape[len(pattern):])
    in_static, in_dynamic, out_static, out_dynamic = _products(ins, outs)
    if minus_one is not None:
        if out_static.lo == 0:
            check(in_static.lo == 0, op, lambda: f"cannot infer -1 of {_show(pattern)}: other dims multiply to 0, but "
                                                 f"data {shape} has no dimension that is 0")
        out[minus_one] = d = _minus_one(in_dynamic, out_dynamic)
        if d is None and out_static.lo != 0:
            total, known = in_dynamic, out_dynamic     # (what is left once equal dims cancel)
            fail(op, f"cannot reshape data {shape} to {_show(pattern)}: {total} is not a multiple of {known}"
                 if total.is_static and known.is_static else
                 f"cannot reshape data {shape} to {_show(pattern)}: the other dims do not divide its element count")
    elif shape.is_static and all(d.is_static for d in out):
        total, known = _product(shape), _product(out)
        check(total == known or any(zero), op, lambda: f"cannot reshape data {shape} ({total} elements) to "
                                                       f"{_show(pattern)} ({known} elements)")
    return PartialShape(out)


def _show(pattern) -> str:
    return "[" + ", ".join(str(p) for p in pattern) + "]"


def _products(ins, outs):
    """(static, dynamic) products of the input and the output dims, dims equal on both sides (the same
    interval, static or carrying one symbol) cancelled; each dynamic product also takes its static one
    when the two static ones differ (OpenVINO's Reshape product)."""
    outs = list(outs)
    in_s, in_d, out_s, out_d = Dimension(1, 1), Dimension(1, 1), Dimension(1, 1), Dimension(1, 1)
    for d in ins:
        j = next((j for j, o in enumerate(outs) if _equal(d, o) and d != 0), None)
        if j is not None:
            del outs[j]
        elif d.is_static:
            in_s = d * in_s
        else:
            in_d = d * in_d
    for o in outs:
        if o.is_static:
            out_s = o * out_s
        else:
            out_d = o * out_d
    if in_s != out_s:
        in_d, out_d = in_d * in_s, out_d * out_s
    return in_s, in_d, out_s, out_d


def _equal(a: Dimension, b: Dimension) -> bool:
    same = same_symbol(a.symbol, b.symbol) or (a.symbol is None and b.symbol is None)
    return a == b and same and (a.is_static or a.symbol is not None)


def _minus_one(n: Dimension, product: Dimension) -> Dimension | None:
    """The -1 dim: the dynamic input product n over the dynamic output product (None: no whole length)."""
    if n.is_static and product.is_static:
        return n.divide(product.lo) if product.lo else None
    lo, hi = n.lo, n.hi
    hi = hi // product.lo if hi is not None and product.lo != 0 and product != Dimension() else None
    if product.hi != 0:
        lo = 0 if product.hi is None and lo == 0 else 1 if product.hi is None else -(-lo // product.hi)
    if hi is not None and lo > hi:
        return None
    keep = product.lo == 1 and product.hi == 1
    d = Dimension(lo, hi, n.symbol if keep else None)
    en, ep = exact(n), exact(product)          # precise mode: the exact quotient, where it divides
    q = None if en is None or ep is None else en.exact_div(ep)
    return d if q is None or (n.expr is None and product.expr is None) else d.with_expr(q)


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
    check(not ts.rank_is_static or len(ts) <= 1, op, lambda: f"input 'axes' must be 0-D or 1-D, got {ts}")


def _normalize(op, axes, rank):
    for a in axes:
        lo, hi = (-rank, rank - 1) if rank else (-1, 0)     # a scalar takes axis 0 or -1
        check(lo <= a <= hi, op,
              lambda: f"axis {a} of input 'axes' is out of the range [{lo}, {hi}] for data of rank {rank}")
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
        check(-out_rank <= a < out_rank, op, lambda: f"axis {a} of input 'axes' is out of the range "
                                                     f"[{-out_rank}, {out_rank - 1}] for an output of rank {out_rank}")
    out = list(dims)
    for a in sorted({a + out_rank if a < 0 else a for a in raw}):
        check(a <= len(out) + 1, op, lambda: f"axis {a} of input 'axes' is not valid for rank {len(out)}")
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
