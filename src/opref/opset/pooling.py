"""Pooling ops: MaxPool-1/8/14, AvgPool-1/14/16, AdaptiveAvgPool-8, AdaptiveMaxPool-8.

Shape rules follow OpenVINO's (src/core/shape_inference/include/pooling_shape_inference_util.hpp,
max_pool_shape_inference.hpp, avg_pool_shape_inference.hpp) on partial shapes:
- the number of spatial axes is the length of `kernel`; strides, dilations and pads must match it
  (empty pads mean zeros, empty dilations mean ones);
- same_upper/same_lower pad a static spatial dim so that the windows cover it (the odd pixel at the
  end/beginning) and leave a non-static one fully dynamic (the pads would differ per length);
- otherwise an output dim is `(dim + pads - dilated_kernel) / stride + 1` in interval arithmetic,
  the division rounded down (floor) or up (ceil, ceil_torch); ceil_torch drops a last window that
  would start in the end padding, as PyTorch's ceil_mode does.

Versions: MaxPool-8 adds dilations, the indices output and its `axis`/`index_element_type`;
MaxPool-14 and AvgPool-14 add rounding_type ceil_torch; AvgPool-16 adds dilations.
"""
from __future__ import annotations

import functools
import inspect

from ..shapes import Dimension, PartialShape, TensorInfo
from ..types import FLOAT, IDX, NUMERIC_BYTES
from .helpers import AUTO_PAD, ceil_div, check, check_1d, ints_of, same_pads
from .schema import BOOL, ELEMENT_TYPE, INT, INTS, STRING, Attr, OpSchema, Port

# Max and average pooling take floating-point and integer data (of at least a byte: the kernels
# compare and sum values, and u1/nf4 share their NumPy dtype with u8/u4).
T_POOL = NUMERIC_BYTES
ROUNDING = ("floor", "ceil")
ROUNDING_14 = ("floor", "ceil", "ceil_torch")


def _no_start_in_end_padding(q: Dimension, s: int, dim: Dimension, pb: int) -> Dimension:
    """ceil_torch: q + 1 windows per bound, less the last one when it would start at or beyond the
    end of the data (in the end padding). OpenVINO applies this to each bound of an interval."""
    def count(q_bound, data_bound):
        return q_bound + (1 if q_bound * s < data_bound + pb or data_bound + pb == 0 else 0)
    lo = count(q.lo, dim.lo)
    if dim.is_static:
        return Dimension(lo, lo)
    return Dimension(lo, None if dim.hi is None or q.hi is None else count(q.hi, dim.hi))


# --- shared shape rule ------------------------------------------------------------------------------
def _check_attrs(op, n, strides, dilations, pads_begin, pads_end):
    check(len(pads_begin) == n, op, lambda: f"attribute 'pads_begin' must have {n} elements (one per kernel axis), "
                                            f"got {list(pads_begin)}")
    check(len(pads_end) == n, op, lambda: f"attribute 'pads_end' must have {n} elements (one per kernel axis), "
                                          f"got {list(pads_end)}")
    check(len(strides) == n, op, lambda: f"attribute 'strides' must have {n} elements (one per kernel axis), "
                                         f"got {list(strides)}")
    check(len(dilations) == n, op, lambda: f"attribute 'dilations' must have {n} elements (one per kernel axis), "
                                           f"got {list(dilations)}")


def pool_output_dims(op, data_shape: PartialShape, *, kernel, strides, dilations, pads_begin, pads_end,
                     auto_pad, rounding_type, exclude_pad=None) -> PartialShape:
    """The output shape [N, C, spatial...] of a MaxPool/AvgPool (checks included)."""
    n = len(kernel)
    dilations = tuple(dilations) or (1,) * n
    pads_begin, pads_end = tuple(pads_begin) or (0,) * n, tuple(pads_end) or (0,) * n
    _check_attrs(op, n, strides, dilations, pads_begin, pads_end)
    check(not data_shape.rank_is_static or len(data_shape) in (3, 4, 5), op,
          lambda: f"data must have rank 3, 4 or 5, got {data_shape}")
    check(not data_shape.rank_is_static or len(data_shape) - 2 == n, op,
          lambda: f"attribute 'kernel' must have {len(data_shape) - 2 if data_shape.rank_is_static else '?'} elements "
                  f"(data rank - 2), got {list(kernel)}")
    check(all(s > 0 for s in strides), op, lambda: f"attribute 'strides' values must be > 0, got {list(strides)}")
    check(all(d > 0 for d in dilations), op, lambda: f"attribute 'dilations' values must be > 0, got {list(dilations)}")
    check(all(k > 0 for k in kernel), op, lambda: f"attribute 'kernel' values must be > 0, got {list(kernel)}")
    check(auto_pad != "explicit" or all(p >= 0 for p in pads_begin + pads_end), op,
          lambda: f"attributes 'pads_begin', 'pads_end' values must be >= 0, got {list(pads_begin)}, {list(pads_end)}")
    if not data_shape.rank_is_static:
        return PartialShape.dynamic(2 + n)
    dims = list(data_shape)
    check(not dims[0].is_static or dims[0].lo > 0, op, lambda: f"batch dimension must be > 0, got {data_shape}")
    check(not dims[1].is_static or dims[1].lo > 0, op, lambda: f"channel dimension must be > 0, got {data_shape}")
    same = auto_pad in ("same_upper", "same_lower")
    out = dims[:2]
    for i, (dim, k, s, d) in enumerate(zip(dims[2:], kernel, strides, dilations)):
        if auto_pad == "valid":
            pb = pe = 0
        elif same:
            if not dim.is_static:        # the pads would depend on the length: OpenVINO gives up
                out.append(Dimension())
                continue
            pb, pe = same_pads(dim.lo, k, s, d, auto_pad == "same_upper")
        else:
            pb, pe = pads_begin[i], pads_end[i]
        padded = dim + (pb + pe)
        window = (k - 1) * d + 1
        if dim.is_static:
            check(window <= padded.lo, op,
                  lambda: f"spatial axis {i}: the dilated kernel ({window}) is larger than the "
                          f"padded data ({padded.lo} = {dim} + {pb} + {pe})")
            check(not exclude_pad or (window > pb and window > pe), op,
                  lambda: f"spatial axis {i}: with exclude-pad, the dilated kernel ({window}) must be larger than each "
                          f"pad ({pb}, {pe}): some windows would lie entirely in the padding")
        rest = padded - window
        if rounding_type == "ceil_torch":
            out.append(_no_start_in_end_padding(ceil_div(rest, s), s, dim, pb))
        else:
            out.append((rest.floordiv(s) if rounding_type == "floor" else ceil_div(rest, s)) + 1)
    return PartialShape(out)


# --- MaxPool ----------------------------------------------------------------------------------------
def max_pool_1_shape(data, *, strides, pads_begin, pads_end, kernel, rounding_type, auto_pad):
    """[N, C, spatial...] -> [N, C, out...]: data has rank 3 to 5 with len(kernel) = rank - 2 spatial axes; strides and
    pads have one value per axis (empty pads mean 0); kernel, strides > 0, explicit pads >= 0, static N and C > 0.
    Each output dimension is (dim + pads - kernel) / stride + 1 in interval arithmetic, rounded down (floor) or up
    (ceil); valid uses no pads, same_upper/same_lower pads a static dimension to ceil(dim / stride) windows and
    gives ? for a non-static one, and a kernel larger than a static padded dimension is rejected. Unknown rank gives
    rank 2 + len(kernel)."""
    return pool_output_dims("MaxPool-1", data.shape, kernel=kernel, strides=strides, dilations=(),
                            pads_begin=pads_begin, pads_end=pads_end, auto_pad=auto_pad,
                            rounding_type=rounding_type)


def _max_pool_indexed(op, data, strides, dilations, pads_begin, pads_end, kernel, rounding_type, auto_pad,
                      index_element_type, axis):
    check(index_element_type in IDX, op, lambda: f"attribute 'index_element_type' must be i32 or i64, "
                                                 f"got {index_element_type}")
    if data.shape.rank_is_static:
        r = len(data.shape)
        check(-r <= axis < r, op,
              lambda: f"attribute 'axis' = {axis} is out of range [{-r}, {r - 1}] for data {data.shape}")
    shape = pool_output_dims(op, data.shape, kernel=kernel, strides=strides, dilations=dilations,
                             pads_begin=pads_begin, pads_end=pads_end, auto_pad=auto_pad,
                             rounding_type=rounding_type)
    return TensorInfo(data.element_type, shape), TensorInfo(index_element_type, shape)


def max_pool_8_shape(data, *, strides, dilations, pads_begin, pads_end, kernel, rounding_type, auto_pad,
                     index_element_type, axis):
    """[N, C, spatial...] -> [N, C, out...]: data has rank 3 to 5 with len(kernel) = rank - 2 spatial axes; strides,
    pads (and dilations) have one value per axis (empty pads mean 0, empty dilations 1); kernel, strides, dilations
    > 0, explicit pads >= 0, static N and C > 0. Each output dimension is (dim + pads - dilated kernel) / stride +
    1 in interval arithmetic, rounded down (floor) or up (ceil); valid uses no pads, same_upper/same_lower pads a
    static dimension to ceil(dim / stride) windows and gives ? for a non-static one, and a dilated kernel larger
    than a static padded dimension is rejected. Unknown rank gives rank 2 + len(kernel). Values and indices
    (index_element_type i32 or i64) have that one shape; axis lies in [-rank, rank-1]."""
    return _max_pool_indexed("MaxPool-8", data, strides, dilations, pads_begin, pads_end, kernel, rounding_type,
                             auto_pad, index_element_type, axis)


def max_pool_14_shape(data, *, strides, dilations, pads_begin, pads_end, kernel, rounding_type, auto_pad,
                      index_element_type, axis):
    """[N, C, spatial...] -> [N, C, out...]: data has rank 3 to 5 with len(kernel) = rank - 2 spatial axes; strides,
    pads (and dilations) have one value per axis (empty pads mean 0, empty dilations 1); kernel, strides, dilations
    > 0, explicit pads >= 0, static N and C > 0. Each output dimension is (dim + pads - dilated kernel) / stride +
    1 in interval arithmetic, rounded down (floor), up (ceil) or up without a last window that would start in the
    end padding (ceil_torch); valid uses no pads, same_upper/same_lower pads a static dimension to ceil(dim /
    stride) windows and gives ? for a non-static one, and a dilated kernel larger than a static padded dimension is
    rejected. Unknown rank gives rank 2 + len(kernel). Values and indices (index_element_type i32 or i64) have that
    one shape; axis lies in [-rank, rank-1]."""
    return _max_pool_indexed("MaxPool-14", data, strides, dilations, pads_begin, pads_end, kernel, rounding_type,
                             auto_pad, index_element_type, axis)


def _window_attrs(dilations: bool):
    """strides, [dilations,] pads_begin, pads_end, kernel as OpenVINO writes them."""
    out = [Attr("strides", INTS, doc="step of the window per spatial axis (> 0)")]
    if dilations:
        out.append(Attr("dilations", INTS, (), doc="distance between kernel taps per spatial axis (> 0); "
                                                   "empty means 1"))
    out += [Attr("pads_begin", INTS, doc="padding before each spatial axis (used when auto_pad is explicit)"),
            Attr("pads_end", INTS, doc="padding after each spatial axis (used when auto_pad is explicit)"),
            Attr("kernel", INTS, doc="window size per spatial axis (> 0)")]
    return out


def _rounding(values):
    return Attr("rounding_type", STRING, "floor", allowed=values,
                doc="how the output size is rounded: floor, ceil" +
                    (", or ceil_torch (ceil, but no window may start in the end padding)" if len(values) > 2 else ""))


AUTO_PAD_ATTR = Attr("auto_pad", STRING, "explicit", allowed=AUTO_PAD,
                     doc="explicit: pads_begin/pads_end; valid: no padding; same_upper/same_lower: pad so that "
                         "the windows cover the input, an odd total pad puts the extra pixel at the end/beginning")
INDEX_ATTRS = (Attr("index_element_type", ELEMENT_TYPE, "i64", allowed=IDX, doc="element type of the indices"),
               Attr("axis", INT, 0, doc="indices count elements of the data flattened from this axis on "
                                        "(negative: from the end)"))

_DATA = Port("data", "T", doc="[N, C, spatial...], 1 to 3 spatial axes")
_MAX_DOC = "Max over sliding windows of each channel; padding never wins (it is -inf)."

_POOLED = Port("output", "T", doc="[N, C, out...]: the pooled value of each window")

MAX_POOL_1 = OpSchema(
    "MaxPool", 1, category="pooling", inputs=(_DATA,), outputs=(_POOLED,),
    attributes=(*_window_attrs(False), _rounding(ROUNDING), AUTO_PAD_ATTR),
    type_constraints={"T": T_POOL}, shape=max_pool_1_shape, doc=_MAX_DOC)

MAX_POOL_8 = OpSchema(
    "MaxPool", 8, category="pooling", inputs=(_DATA,),
    outputs=(_POOLED, Port("output_indices", "T_IND", doc="flat index of each maximum in the data "
                                                                      "(from `axis` on), padding not counted")),
    attributes=(*_window_attrs(True), _rounding(ROUNDING), AUTO_PAD_ATTR, *INDEX_ATTRS),
    type_constraints={"T": T_POOL, "T_IND": IDX}, shape=max_pool_8_shape,
    doc=_MAX_DOC + " MaxPool-8 adds dilations and the indices of the maxima.")

MAX_POOL_14 = OpSchema(
    "MaxPool", 14, category="pooling", inputs=(_DATA,), outputs=MAX_POOL_8.outputs,
    attributes=(*_window_attrs(True), _rounding(ROUNDING_14), AUTO_PAD_ATTR, *INDEX_ATTRS),
    type_constraints={"T": T_POOL, "T_IND": IDX}, shape=max_pool_14_shape,
    doc=_MAX_DOC + " MaxPool-14 adds rounding_type ceil_torch.")


# --- AvgPool ----------------------------------------------------------------------------------------
def _avg_pool_1_shape(data, *, strides, pads_begin, pads_end, kernel, exclude_pad, rounding_type, auto_pad):
    """[N, C, spatial...] -> [N, C, out...]: data has rank 3 to 5 with len(kernel) = rank - 2 spatial axes; strides and
    pads have one value per axis (empty pads mean 0); kernel, strides > 0, explicit pads >= 0, static N and C > 0.
    Each output dimension is (dim + pads - kernel) / stride + 1 in interval arithmetic, rounded down (floor) or up
    (ceil); valid uses no pads, same_upper/same_lower pads a static dimension to ceil(dim / stride) windows and
    gives ? for a non-static one, and a kernel larger than a static padded dimension is rejected. Unknown rank gives
    rank 2 + len(kernel). With exclude-pad, a static axis's kernel must be larger than each of its pads."""
    return pool_output_dims("AvgPool-1", data.shape, kernel=kernel, strides=strides, dilations=(),
                            pads_begin=pads_begin, pads_end=pads_end, auto_pad=auto_pad,
                            rounding_type=rounding_type, exclude_pad=exclude_pad)


def _avg_pool_14_shape(data, *, strides, pads_begin, pads_end, kernel, exclude_pad, rounding_type, auto_pad):
    """[N, C, spatial...] -> [N, C, out...]: data has rank 3 to 5 with len(kernel) = rank - 2 spatial axes; strides and
    pads have one value per axis (empty pads mean 0); kernel, strides > 0, explicit pads >= 0, static N and C > 0.
    Each output dimension is (dim + pads - kernel) / stride + 1 in interval arithmetic, rounded down (floor), up
    (ceil) or up without a last window that would start in the end padding (ceil_torch); valid uses no pads,
    same_upper/same_lower pads a static dimension to ceil(dim / stride) windows and gives ? for a non-static one,
    and a kernel larger than a static padded dimension is rejected. Unknown rank gives rank 2 + len(kernel). With
    exclude-pad, a static axis's kernel must be larger than each of its pads."""
    return pool_output_dims("AvgPool-14", data.shape, kernel=kernel, strides=strides, dilations=(),
                            pads_begin=pads_begin, pads_end=pads_end, auto_pad=auto_pad,
                            rounding_type=rounding_type, exclude_pad=exclude_pad)


def _avg_pool_16_shape(data, *, strides, pads_begin, pads_end, kernel, exclude_pad, rounding_type, auto_pad,
                       dilations):
    """[N, C, spatial...] -> [N, C, out...]: data has rank 3 to 5 with len(kernel) = rank - 2 spatial axes; strides,
    pads (and dilations) have one value per axis (empty pads mean 0, empty dilations 1); kernel, strides, dilations
    > 0, explicit pads >= 0, static N and C > 0. Each output dimension is (dim + pads - dilated kernel) / stride +
    1 in interval arithmetic, rounded down (floor), up (ceil) or up without a last window that would start in the
    end padding (ceil_torch); valid uses no pads, same_upper/same_lower pads a static dimension to ceil(dim /
    stride) windows and gives ? for a non-static one, and a dilated kernel larger than a static padded dimension is
    rejected. Unknown rank gives rank 2 + len(kernel). With exclude-pad, a static axis's dilated kernel must be
    larger than each of its pads."""
    return pool_output_dims("AvgPool-16", data.shape, kernel=kernel, strides=strides, dilations=dilations,
                            pads_begin=pads_begin, pads_end=pads_end, auto_pad=auto_pad,
                            rounding_type=rounding_type, exclude_pad=exclude_pad)


avg_pool_1_shape, avg_pool_14_shape, avg_pool_16_shape = _avg_pool_1_shape, _avg_pool_14_shape, _avg_pool_16_shape


def _avg_attrs(rounding, dilations=False):
    w = _window_attrs(False)
    out = [w[3], w[0], w[1], w[2],          # OpenVINO writes kernel first
           Attr("exclude-pad", BOOL, doc="true: padding is not counted in the average; false: it counts as zeros"),
           AUTO_PAD_ATTR, _rounding(rounding)]
    if dilations:
        out.append(Attr("dilations", INTS, (), doc="distance between kernel taps per spatial axis (> 0); "
                                                   "empty means 1"))
    return tuple(out)


_AVG_DOC = "Mean over sliding windows of each channel."

AVG_POOL_1 = OpSchema(
    "AvgPool", 1, category="pooling", inputs=(_DATA,), outputs=(_POOLED,),
    attributes=_avg_attrs(ROUNDING), type_constraints={"T": T_POOL}, shape=avg_pool_1_shape, doc=_AVG_DOC)

AVG_POOL_14 = OpSchema(
    "AvgPool", 14, category="pooling", inputs=(_DATA,), outputs=(_POOLED,),
    attributes=_avg_attrs(ROUNDING_14), type_constraints={"T": T_POOL}, shape=avg_pool_14_shape,
    doc=_AVG_DOC + " AvgPool-14 adds rounding_type ceil_torch.")

AVG_POOL_16 = OpSchema(
    "AvgPool", 16, category="pooling", inputs=(_DATA,), outputs=(_POOLED,),
    attributes=_avg_attrs(ROUNDING_14, dilations=True), type_constraints={"T": T_POOL}, shape=avg_pool_16_shape,
    doc=_AVG_DOC + " AvgPool-16 adds dilations.")


# --- AdaptiveAvgPool / AdaptiveMaxPool ----------------------------------------------------------------
def _adaptive(op, data, output_shape):
    ds = data.shape
    check(not ds.rank_is_static or len(ds) in (3, 4, 5), op, lambda: f"data must have rank 3, 4 or 5, got {ds}")
    check_1d(op, "output_shape", output_shape)
    if not ds.rank_is_static:
        return PartialShape.dynamic()
    n = len(ds) - 2
    os_ = output_shape.shape
    check(not os_.rank_is_static or os_[0].compatible(n), op,
          lambda: f"input 'output_shape' must have {n} elements (data rank - 2), got shape {os_}")
    values = ints_of(output_shape)
    if values is None:
        return PartialShape(list(ds)[:2] + [Dimension()] * n)
    check(len(values) == n, op,
          lambda: f"input 'output_shape' must have {n} elements (data rank - 2), got {list(values)}")
    check(all(v >= 0 for v in values), op, lambda: f"input 'output_shape' values must be >= 0, got {list(values)}")
    return PartialShape(list(ds)[:2] + list(values))


def adaptive_avg_pool_shape(data, output_shape):
    """[N, C, spatial...] -> [N, C] + output_shape: data has rank 3 to 5 and output_shape is 1-D with rank - 2
    values >= 0. Unknown output_shape values give dynamic spatial dimensions; an unknown data rank gives
    dynamic rank."""
    return _adaptive("AdaptiveAvgPool-8", data, output_shape)


def adaptive_max_pool_shape(data, output_shape, *, index_element_type):
    """[N, C, spatial...] -> [N, C] + output_shape for both values and indices (index_element_type i32 or i64):
    data has rank 3 to 5 and output_shape is 1-D with rank - 2 values >= 0. Unknown output_shape values give
    dynamic spatial dimensions; an unknown data rank gives dynamic rank."""
    op = "AdaptiveMaxPool-8"
    check(index_element_type in IDX, op, lambda: f"attribute 'index_element_type' must be i32 or i64, "
                                                 f"got {index_element_type}")
    shape = _adaptive(op, data, output_shape)
    return TensorInfo(data.element_type, shape), TensorInfo(index_element_type, shape)


_ADAPTIVE_IN = (Port("data", "T", doc="[N, C, spatial...], 1 to 3 spatial axes"),
                Port("output_shape", "T_SHAPE", const=True, doc="1-D: the output's spatial sizes"))

ADAPTIVE_AVG_POOL_8 = OpSchema(
    "AdaptiveAvgPool", 8, category="pooling", inputs=_ADAPTIVE_IN,
    outputs=(Port("output", "T", doc="[N, C] + output_shape: the mean of each bin"),),
    type_constraints={"T": FLOAT, "T_SHAPE": IDX}, shape=adaptive_avg_pool_shape,
    doc="Mean over adaptive bins: bin i of an axis spans [floor(i*L/O), ceil((i+1)*L/O)).")

ADAPTIVE_MAX_POOL_8 = OpSchema(
    "AdaptiveMaxPool", 8, category="pooling", inputs=_ADAPTIVE_IN,
    outputs=(Port("output", "T", doc="[N, C] + output_shape: the maximum of each bin"),
             Port("output_indices", "T_IND", doc="index of each maximum in the flattened "
                                                                      "spatial dims of its channel")),
    attributes=(Attr("index_element_type", ELEMENT_TYPE, "i64", allowed=IDX, doc="element type of the indices"),),
    type_constraints={"T": FLOAT, "T_SHAPE": IDX, "T_IND": IDX}, shape=adaptive_max_pool_shape,
    doc="Max over adaptive bins: bin i of an axis spans [floor(i*L/O), ceil((i+1)*L/O)).")

OPS = (MAX_POOL_1, MAX_POOL_8, MAX_POOL_14, AVG_POOL_1, AVG_POOL_14, AVG_POOL_16, ADAPTIVE_AVG_POOL_8,
       ADAPTIVE_MAX_POOL_8)
