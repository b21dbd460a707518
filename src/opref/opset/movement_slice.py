"""Data-movement ops that slice: StridedSlice-1, Slice-8 and SliceScatter-15 (schemas and shape
rules; re-exported by movement.py), with the slice arithmetic they share: the output length of a
slice on partial dimensions as OpenVINO computes it, and the NumPy index of a slice as OpenVINO
clamps it (also used by the kernels and the case tables)."""
from __future__ import annotations

import itertools


from ..shapes import MAX_RANK, Dimension, PartialShape, TensorInfo
from ..types import ALL
from .helpers import check, check_1d, ints_of, rank_of
from .movement_common import T_INT, normalize_axis
from .schema import INTS, Attr, OpSchema, Port

INT64_MAX, INT64_MIN = 2**63 - 1, -2**63


# --- slice lengths on partial dimensions, as OpenVINO computes them ------------------------------------
def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def sliced_length(n: int | None, start: int, stop: int, step: int) -> int | None:
    """Length of data[start:stop:step] along an axis of length n (None: unbounded, OpenVINO's
    int64 infinity), as OpenVINO's slice shape inference computes it; None when unbounded."""
    rev = step < 0
    norm = INT64_MAX if n is None else n
    huge = norm == INT64_MAX
    start_neg = start < 0
    start_limit = start in (INT64_MAX, INT64_MIN)
    any_max = INT64_MAX in (start, stop)
    if huge and (start_neg != (stop < 0) or any_max or start_limit):
        if rev:                       # an unbounded axis: only offsets from its ends are known
            ub = -1 if (start_neg or any_max) else -1 - start
        elif start_neg and not start_limit:
            ub = -start if stop == INT64_MAX else stop
        else:
            ub = -1
        lb = 0
    else:
        lb = min(max(start + norm if start < 0 else start, 0), norm - 1 if rev else norm)
        ub = min(max(stop + norm if stop < 0 else stop, -1 if rev else 0), norm)
    if huge and lb == 0 and ub == -1:
        return None
    v = min(0, ub - lb) if rev else max(0, ub - lb)
    if step == -1:
        return -v
    if v != 0 and step != 1:
        v = _trunc_div(v + 1 if rev else v - 1, step) + 1
    return v


def sliced_dim(d: Dimension, start: int, stop: int, step: int) -> Dimension:
    lo, hi = sliced_length(d.lo, start, stop, step), sliced_length(d.hi, start, stop, step)
    hi = None if hi == INT64_MAX else hi          # OpenVINO's infinity
    lo = lo or 0
    return Dimension(lo, hi) if hi is None or hi >= lo else Dimension()   # (OpenVINO: an inverted interval is ?)


def slice_bounds(info) -> tuple[int, ...] | None:
    """Known start/stop/begin/end values, with the i32 extremes read as int64 ones (as OpenVINO
    does: INT_MAX of an i32 stop means "to the end" even of an unbounded axis)."""
    v = ints_of(info)
    if v is None or info.element_type != "i32":
        return v
    return tuple(INT64_MAX if x == 2**31 - 1 else INT64_MIN if x == -2**31 else x for x in v)


# --- StridedSlice-1 ----------------------------------------------------------------------------------------
def _mask(m, n):
    return [bool(m[i]) if i < len(m) else False for i in range(n)]


def clamped_slice(n: int, start: int | None, stop: int | None, step: int) -> slice:
    """data[start:stop:step] along an axis of length n, as OpenVINO clamps it: like Python, except
    that a backward slice starting before the first element starts at the first element (Python
    gives nothing)."""
    if step < 0 and start is not None and start < -n:
        start = 0 if n else None
    return slice(start, stop, step)


def strided_slice_index(shape, begin, end, stride, *, begin_mask, end_mask, new_axis_mask, shrink_axis_mask,
                        ellipsis_mask):
    """The NumPy index (slices, None for new axes, ints for shrunk axes, Ellipsis) that a StridedSlice
    applies to data of the given shape; begin/end/stride are int tuples of one length."""
    n = len(begin)
    bm, em, nm, sm, el = (_mask(m, n) for m in (begin_mask, end_mask, new_axis_mask, shrink_axis_mask,
                                                 ellipsis_mask))
    index, k = [], 0
    for i in range(n):
        if el[i]:
            index.append(Ellipsis)
            k = len(shape) - sum(1 for j in range(i + 1, n) if not nm[j])
        elif nm[i]:
            index.append(None)
        elif sm[i]:
            index.append(begin[i])
            k += 1
        else:
            index.append(clamped_slice(shape[k], None if bm[i] else begin[i], None if em[i] else end[i], stride[i]))
            k += 1
    return tuple(index)


def strided_slice_shape(data, begin, end, stride=None, *, begin_mask, end_mask, new_axis_mask, shrink_axis_mask,
                        ellipsis_mask):
    """Walks begin/end/stride (1-D, one length; without a stride input begin or end must be of known rank)
    with the masks: a new axis adds a 1, a shrunk axis is dropped (a known begin must index inside a static
    dimension), the ellipsis keeps the axes it stands for, and any other entry slices its data axis
    Python-style, the length computed on both bounds of an interval (an inverted interval gives ?); data axes
    past the entries are kept. Unknown begin/end give [0, hi] (or [0, ceil(hi/|stride|)] with known strides);
    unknown lengths or data rank give dynamic rank. Strides must be non-zero, at most one ellipsis bit may
    be set, and the entries may not address more axes than data has. Known small data values are sliced."""
    op = "StridedSlice-1"
    for name, info in (("begin", begin), ("end", end), ("stride", stride)):
        if info is not None:
            check_1d(op, name, info)
    # without a stride input, OpenVINO makes default strides of begin's (or else end's) length: one of them must
    # be of known rank (OpenVINO rejects begin and end both of dynamic rank, and takes end [2] with begin [...])
    check(stride is not None or begin.shape.rank_is_static or end.shape.rank_is_static, op,
          lambda: "input 'begin' or "
                  f"'end' must be 1-D when there is no stride input (the default strides take its length), got shapes "
                  f"{begin.shape} and {end.shape}")
    check(sum(1 for v in ellipsis_mask if v) <= 1, op,
          lambda: f"ellipsis_mask {list(ellipsis_mask)} sets more than one axis")
    shape = data.shape
    if not shape.rank_is_static:
        return PartialShape.dynamic()
    rank = len(shape)
    b, e = slice_bounds(begin), slice_bounds(end)
    s = ints_of(stride) if stride is not None else (None if b is None else (1,) * len(b))
    lens = [None if i is None or not i.shape.rank_is_static or not i.shape[0].is_static else i.shape[0].lo
            for i in (begin, end)]
    if None not in lens:
        check(lens[0] == lens[1], op, lambda: f"begin and end must have the same length, got {lens[0]} and {lens[1]}")
    number = lens[0] if lens[0] is not None else lens[1]
    check(number is None or number <= MAX_RANK, op,
          lambda: f"begin has {number} entries: more than the {MAX_RANK} axes "
                  f"a shape may have")
    if s is not None:
        check(number is None or number == len(s), op, lambda: f"stride must have as many elements as begin and end "
                                                              f"({number}), got {len(s)}")
        number = len(s)
    if number is None:
        return PartialShape.dynamic()
    if s is not None:
        check(all(v != 0 for v in s), op, lambda: f"stride must be non-zero, got {list(s)}")
    nm, sm, el = (_mask(m, number) for m in (new_axis_mask, shrink_axis_mask, ellipsis_mask))
    bm, em = _mask(begin_mask, number), _mask(end_mask, number)
    if not any(el):
        check(rank + sum(nm) >= number, op, lambda: f"begin/end have {number} elements, more than the rank of data "
                                                    f"({rank}) plus new axes ({sum(nm)})")
    out, k = [], 0
    for i in range(number):
        if el[i]:
            before = sum(1 for j in range(i) if not nm[j])
            new_after = sum(1 for j in range(i + 1, number) if nm[j]) if b is not None else 0
            hidden = rank - (number - i - new_after - 1) - before
            for _ in range(hidden):
                out.append(shape[k])
                k += 1
        elif nm[i]:
            out.append(Dimension(1, 1))
        elif sm[i]:
            if k < rank and shape[k].is_static and b is not None:
                n = shape[k].lo
                check(-n <= b[i] < n, op, lambda: f"shrink_axis_mask: begin[{i}] = {b[i]} is out of range for data "
                                                  f"dimension {k} ({n})")
            k += 1
        else:
            check(k < rank, op, lambda: f"begin/end address more axes than data {shape} has")
            d = shape[k]
            if (b is not None or bm[i]) and (e is not None or em[i]) and s is not None:
                top = INT64_MAX if d.hi is None else d.hi
                step = s[i]
                start = (top if step < 0 else 0) if bm[i] else b[i]
                stop = (-1 - top if step < 0 else top) if em[i] else e[i]
                out.append(sliced_dim(d, start, stop, step))
            elif s is not None:     # known stride: at most every |stride|-th element
                out.append(Dimension(0, None if d.hi is None else -(-d.hi // abs(s[i]))))
            else:
                out.append(Dimension(0, d.hi))
            k += 1
    out += list(shape[k:])
    return PartialShape(out)


STRIDED_SLICE_1 = OpSchema(
    "StridedSlice", 1, category="movement", value_bounds="moves",
    inputs=(Port("data", "T", doc="the tensor to slice, of any rank"),
            Port("begin", "T_IND", const=True, doc="1-D start index per slicing entry; negative counts from the end"),
            Port("end", "T_IND", const=True, doc="1-D stop index (exclusive) per entry, begin's length; "
                                                 "negative counts from the end"),
            Port("stride", "T_IND", optional=True, const=True,
                 doc="1-D non-zero step per entry, begin's length (default all 1); negative walks backwards")),
    outputs=(Port("output", "T", doc="the selected elements, with new axes inserted and shrunk axes removed"),),
    attributes=(Attr("begin_mask", INTS, doc="1 at i: begin[i] is ignored (the axis starts at its beginning)"),
                Attr("end_mask", INTS, doc="1 at i: end[i] is ignored (the axis runs to its end)"),
                Attr("new_axis_mask", INTS, (), doc="1 at i: a new axis of length 1 is inserted"),
                Attr("shrink_axis_mask", INTS, (), doc="1 at i: the axis is indexed by begin[i] and removed"),
                Attr("ellipsis_mask", INTS, (), doc="1 at i (at most one): all remaining axes are kept here")),
    type_constraints={"T": ALL, "T_IND": T_INT},
    shape=strided_slice_shape,
    doc="Python-style data[begin:end:stride] with masks for begins, ends, new axes, shrunk axes and an ellipsis.",
)


# --- Slice-8 -----------------------------------------------------------------------------------------------
def slice_index(shape, start, stop, step, axes):
    index = [slice(None)] * len(shape)
    for b, e, s, a in zip(start, stop, step, axes):
        index[a] = clamped_slice(shape[a], b, e, s)
    return tuple(index)


def _slice(op, data, start, stop, step, axes):
    """Slice-8's output shape, the axes whose sliced interval is empty (OpenVINO prints them as ?, but
    they match no length), and the output value when it is known."""
    infos = [("start", start), ("stop", stop), ("step", step)] + ([("axes", axes)] if axes is not None else [])
    shape = data.shape
    for name, info in infos:
        check_1d(op, name, info)
        if shape.rank_is_static and info.shape.rank_is_static:
            check(info.shape[0].lo <= len(shape), op,
                  lambda: f"{name} has {info.shape[0]} elements, more than the rank "
                          f"of data ({len(shape)})")
    for (n1, i1), (n2, i2) in itertools.combinations(infos, 2):
        check(i1.shape.compatible(i2.shape), op,
              lambda: f"{n1} {i1.shape} and {n2} {i2.shape} must have the same length")
    if not shape.rank_is_static:
        return PartialShape.dynamic(), set()
    rank = len(shape)
    b, e, s = slice_bounds(start), slice_bounds(stop), ints_of(step)
    if axes is not None:
        ax = ints_of(axes)
        if ax is not None:
            ax = [normalize_axis(op, "axes value", a, rank) for a in ax]
            check(len(set(ax)) == len(ax), op, lambda: f"axes values must be unique, got {list(ints_of(axes))}")
    else:   # default axes 0, 1, ...: as many as start/stop/step have elements, when that is known
        n = len(b) if b is not None else rank_of(start, stop, step)
        ax = None if n is None else list(range(n))
    if ax is None:
        return PartialShape([Dimension(0, d.hi) for d in shape]), set()
    if s is not None:
        check(all(v != 0 for v in s), op, lambda: f"step must be non-zero, got {list(s)}")
    out, empty = list(shape), set()
    for i, a in enumerate(ax):
        if b is not None and e is not None and s is not None:
            d = shape[a]
            lo, hi = sliced_length(d.lo, b[i], e[i], s[i]), sliced_length(d.hi, b[i], e[i], s[i])
            if hi is not None and hi != INT64_MAX and hi < (lo or 0):
                empty.add(a)
            out[a] = sliced_dim(d, b[i], e[i], s[i])
        else:
            out[a] = Dimension(0, shape[a].hi)
    return PartialShape(out), empty


def slice_shape(data, start, stop, step, axes=None):
    """The data's shape with each axis in axes (default 0, 1, ... for as many as start has elements) replaced
    by the length of the slice start:stop:step, computed on both bounds of an interval (an inverted interval
    gives ?). start, stop, step and axes are 1-D of one length, at most the data rank; steps are non-zero;
    axes lie in [-rank, rank-1] and are unique. Unknown bounds give [0, hi] on the sliced axes (on every axis
    when the axes are unknown). Known small data values are sliced."""
    return _slice("Slice-8", data, start, stop, step, axes)[0]


SLICE_8 = OpSchema(
    "Slice", 8, category="movement", value_bounds="moves",
    inputs=(Port("data", "T", doc="the tensor to slice, of any rank"),
            Port("start", "T_IND", const=True, doc="1-D start index per sliced axis; negative counts from the end"),
            Port("stop", "T_IND", const=True, doc="1-D stop index (exclusive) per sliced axis; negative counts "
                                                  "from the end"),
            Port("step", "T_IND", const=True, doc="1-D non-zero step per sliced axis; negative walks backwards"),
            Port("axes", "T_AXIS", optional=True, const=True,
                 doc="1-D unique axes that start/stop/step apply to (default 0, 1, ...); negative from the end")),
    outputs=(Port("output", "T", doc="the selected elements, of the data's rank"),),
    type_constraints={"T": ALL, "T_IND": T_INT, "T_AXIS": T_INT},
    shape=slice_shape,
    doc="Python-style data[start:stop:step] on the given axes (default 0, 1, ...); out-of-range bounds clamp.",
)


# --- SliceScatter-15 -----------------------------------------------------------------------------------------
def slice_scatter_shape(data, updates, start, stop, step, axes=None):
    """The output has the data's shape (of updates' rank when the data rank is unknown). start/stop/step/axes
    are checked as in Slice-8, and updates must be compatible with the shape Slice-8 would give; a slice that
    is provably empty on some axis is rejected."""
    op = "SliceScatter-15"
    shape = data.shape
    if not shape.rank_is_static and updates.shape.rank_is_static:   # (OpenVINO takes the rank from updates)
        shape = PartialShape.dynamic(len(updates.shape))
    sliced, empty = _slice(op, TensorInfo(data.element_type, shape), start, stop, step, axes)
    empty = empty if updates.shape.rank_is_static else set()
    check(not empty and sliced.compatible(updates.shape), op,
          lambda: f"updates {updates.shape} must have the shape of the "
                  f"slice {sliced}{' (empty on axes ' + str(sorted(empty)) + ')' if empty else ''}")
    return shape


SLICE_SCATTER_15 = OpSchema(
    "SliceScatter", 15, category="movement", value_bounds="moves",
    inputs=(Port("data", "T", doc="the tensor to update, of any rank"),
            Port("updates", "T", doc="the values written into the slice, of the slice's shape"),
            Port("start", "T_IND", const=True, doc="1-D start index per sliced axis; negative counts from the end"),
            Port("stop", "T_IND", const=True, doc="1-D stop index (exclusive) per sliced axis; negative counts "
                                                  "from the end"),
            Port("step", "T_IND", const=True, doc="1-D non-zero step per sliced axis; negative walks backwards"),
            Port("axes", "T_AXIS", optional=True, const=True,
                 doc="1-D unique axes that start/stop/step apply to (default 0, 1, ...); negative from the end")),
    outputs=(Port("output", "T", doc="a copy of data with the slice replaced by updates"),),
    type_constraints={"T": ALL, "T_IND": T_INT, "T_AXIS": T_INT},
    shape=slice_scatter_shape,
    doc="A copy of data whose slice data[start:stop:step] (as Slice-8 selects it) is replaced by updates.",
)
