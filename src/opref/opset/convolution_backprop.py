"""Transposed convolutions: ConvolutionBackpropData-1 and GroupConvolutionBackpropData-1.

Every data element scatters `data[x] * filters[k]` to the output position `x * stride + k * dilation
- pads_begin` (the adjoint of Convolution). Without `output_shape`, the output length per spatial axis
is `stride * (X - 1) + dilation * (K - 1) + 1 - pads_begin - pads_end + output_padding` (auto_pad
other than explicit: no pads). With `output_shape`, the output has exactly that spatial shape and
the pads are deduced from the total padding `stride * (X - 1) + dilation * (K - 1) + 1 + output_padding
- output_shape` (never below 0), split as the spec says: same_upper puts total // 2 at the end, every
other mode (explicit and valid too: the spec ignores pads_begin/pads_end here) puts total // 2 at
the beginning.

Shape rules follow OpenVINO's (convolution_backprop_shape_inference.hpp and its group variant) on
partial shapes: the spatial rank comes from the data rank, else the filter rank, else a known
output_shape length, else the attribute lengths; dims flow through ov::Interval arithmetic, where a
padding that makes a bound negative leaves that bound open. Where OpenVINO accepts what the spec
rejects (negative pads or output_padding, negative output lengths) opref rejects, and where OpenVINO
drops the spatial axes (an output_shape of unknown length), opref keeps them as dynamic dims.
"""
from __future__ import annotations

from ..shapes import INT64_MAX, Dimension, PartialShape
from .convolution import CONV_AUTO_PAD, T_CONV, _check_attrs, _dims, group_count
from .helpers import check, check_1d, ints_of
from .schema import INTS, STRING, Attr, OpSchema, Port

# output_shape: "any integer type"
T_SHAPE = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64")


def _dilated(k: int, d: int) -> int:
    # OpenVINO: (k - 1) * d + 1 as a Dimension, where k - 1 stops at 0 (a zero-length kernel spans 1)
    return max(k - 1, 0) * d + 1


def backprop_pads(data_spatial, kernel, *, strides, dilations, output_padding, pads_begin, pads_end, auto_pad,
                  output_shape=None) -> tuple[list[tuple[int, int]], list[int]]:
    """(pads_begin, pads_end) per spatial axis and the output spatial shape, for static sizes:
    the crop of the full scatter `[pads_begin, full + output_padding - pads_end)`."""
    n = len(data_spatial)
    strides, dilations = tuple(strides) or (1,) * n, tuple(dilations) or (1,) * n
    output_padding = tuple(output_padding) or (0,) * n
    full = [(x - 1) * s + _dilated(k, d) if x > 0 else _dilated(k, d)
            for x, k, s, d in zip(data_spatial, kernel, strides, dilations)]
    if output_shape is None:
        if auto_pad == "explicit":
            pads = list(zip(tuple(pads_begin) or (0,) * n, tuple(pads_end) or (0,) * n))
        else:
            pads = [(0, 0)] * n
        return pads, [f + op - b - e for f, op, (b, e) in zip(full, output_padding, pads)]
    pads = []
    for f, op, o in zip(full, output_padding, output_shape):
        total = max(f + op - o, 0)
        small, large = total // 2, total - total // 2
        pads.append((large, small) if auto_pad == "same_upper" else (small, large))
    return pads, list(output_shape)


def _padded(op: str, i: int, dim: Dimension, pad: int) -> Dimension:
    """dim + pad as OpenVINO's dim::padded: a bound that would go negative becomes open; a negative
    static length (or a negative upper bound) is no output at all, so opref rejects it."""
    if pad == 0:
        return dim
    if dim.hi is not None:
        check(dim.hi + pad >= 0, op,
              lambda: f"spatial axis {i}: the output length would be negative "
                      f"({dim.hi + pad if dim.is_static else f'at most {dim.hi + pad}'}); pads_begin + pads_end exceed "
                      f"stride * (input - 1) + dilated kernel + output_padding")
    hi = None if dim.hi is None else dim.hi + pad
    return Dimension(max(dim.lo + pad, 0), hi)


def _output_spatial(op, n, output_shape):
    """The output spatial dims that the output_shape input gives: its value, or n dynamic dims when
    only its length is known, or None when there is no such input."""
    if output_shape is None:
        return None
    check_1d(op, "output_shape", output_shape)
    value = ints_of(output_shape)
    if value is not None:
        check(len(value) == n, op, lambda: f"input 'output_shape' must have {n} elements (one per spatial axis), "
                                           f"got {list(value)}")
        check(all(v >= 0 for v in value), op, lambda: f"input 'output_shape' values must be >= 0, got {list(value)}")
        return [Dimension(v, v) for v in value]
    s = output_shape.shape
    if s.rank_is_static and s[0].is_static:
        check(s[0].lo == n, op,
              lambda: f"input 'output_shape' must have {n} elements (one per spatial axis), got {s[0]}")
    return [Dimension()] * n


def _num_spatial(data, filters, filter_extra, output_shape, attrs) -> int | None:
    if data.shape.rank_is_static:
        return len(data.shape) - 2
    if filters.shape.rank_is_static:
        return len(filters.shape) - filter_extra
    if output_shape is not None:
        value = ints_of(output_shape)
        if value is not None and value:
            return len(value)
        s = output_shape.shape
        if s.rank_is_static and len(s) == 1 and s[0].is_static and s[0].lo > 0:
            return s[0].lo
    for values in attrs:
        if values:
            return len(values)
    return None


def _common(op, n, ds, *, strides, pads_begin, pads_end, dilations, auto_pad, output_padding):
    check(not ds.rank_is_static or len(ds) in (3, 4, 5), op, lambda: f"data must have rank 3, 4 or 5, got {ds}")
    _check_attrs(op, n, strides, dilations, pads_begin, pads_end, auto_pad)
    check(len(output_padding) in (0, n), op, lambda: f"attribute 'output_padding' must have {n} elements (one per "
                                                     f"spatial axis), got {list(output_padding)}")
    check(all(v >= 0 for v in output_padding), op,
          lambda: f"attribute 'output_padding' values must be >= 0, got {list(output_padding)}")


def _spatial(op, data_dims, kernel_dims, *, strides, pads_begin, pads_end, dilations, auto_pad, output_padding):
    n = len(data_dims)
    strides, dilations = strides or (1,) * n, dilations or (1,) * n
    output_padding = output_padding or (0,) * n
    if auto_pad == "explicit":
        pads_begin, pads_end = pads_begin or (0,) * n, pads_end or (0,) * n
    else:
        pads_begin = pads_end = (0,) * n
    out = []
    for i, (x, k, s, d) in enumerate(zip(data_dims, kernel_dims, strides, dilations)):
        full = (x - 1) * s + ((k - 1) * d + 1)            # interval arithmetic, as OpenVINO's
        out.append(_padded(op, i, full, output_padding[i] - pads_begin[i] - pads_end[i]))
    return out


def _backprop_shape(op, data, filters, output_shape, filter_extra, channels, attrs):
    n = _num_spatial(data, filters, filter_extra, output_shape,
                     (attrs["strides"], attrs["dilations"], attrs["pads_begin"], attrs["pads_end"]))
    if n is None:
        if output_shape is not None:
            check_1d(op, "output_shape", output_shape)
        return PartialShape.dynamic()
    out_spatial = _output_spatial(op, n, output_shape)
    ds, fs = data.shape, filters.shape
    # (with data of dynamic rank the filters alone give the spatial rank: at least one spatial axis)
    check(ds.rank_is_static or not fs.rank_is_static or len(fs) > filter_extra, op,
          lambda: f"filters must have rank >= {filter_extra + 1} ({filter_extra} channel dims and a kernel dim per "
                  f"spatial axis), got {fs}")
    c_out = channels(ds, fs)
    _common(op, n, ds, **attrs)
    batch = ds[0] if ds.rank_is_static else Dimension()
    if out_spatial is None:
        out_spatial = _spatial(op, _dims(ds, n, 2), _dims(fs, n, filter_extra), **attrs)
    return PartialShape([batch, c_out] + out_spatial)


def convolution_backprop_data_shape(data, filters, output_shape=None, *, strides, pads_begin, pads_end, dilations,
                                    auto_pad, output_padding):
    """[N, C_OUT, spatial...]: N from data, C_OUT from filters' dimension 1. Spatial dims: output_shape's
    values when given (dynamic dims when only its length is known), else stride * (in - 1) + (k - 1) *
    dilation + 1 - pads_begin - pads_end + output_padding (pads only with auto_pad explicit), on
    intervals (a lower bound that goes negative becomes 0). The spatial rank comes from data, else
    filters, else output_shape's length, else the attributes; none gives a dynamic rank. Rejected: data
    rank outside 3..5, data and filters of different ranks, data channels != filters' dimension 0, a
    non-1-D output_shape or one of the wrong length or with negative values, attribute lengths != the
    spatial rank, strides/dilations <= 0, negative pads or output_padding, a negative output length."""
    op = "ConvolutionBackpropData-1"

    def channels(ds, fs):
        if ds.rank_is_static and fs.rank_is_static:
            check(len(ds) == len(fs), op, lambda: f"data and filters must have the same rank, got data {ds} and "
                                                  f"filters {fs}")
            check(ds[1].compatible(fs[0]), op,
                  lambda: f"data channels (dimension 1 of data {ds}) must equal the "
                          f"filter's input channels (dimension 0 of filters {fs}), got {ds[1]} and {fs[0]}")
        return fs[1] if fs.rank_is_static else Dimension()

    return _backprop_shape(op, data, filters, output_shape, 2, channels, dict(
        strides=strides, pads_begin=pads_begin, pads_end=pads_end, dilations=dilations, auto_pad=auto_pad,
        output_padding=output_padding))


def group_convolution_backprop_data_shape(data, filters, output_shape=None, *, strides, pads_begin, pads_end,
                                          dilations, auto_pad, output_padding):
    """ConvolutionBackpropData-1's rule with filters [GROUPS, C_IN, C_OUT, kernel...] (rank data rank + 1):
    the output is [N, GROUPS * C_OUT, spatial...] with the same spatial dims. Data channels must equal
    GROUPS x C_IN (when C_IN is static, GROUPS is refined by data channels / C_IN); a channel count past
    int64 becomes unbounded; a dynamic filters rank gives a dynamic channel dim."""
    op = "GroupConvolutionBackpropData-1"

    def channels(ds, fs):
        check(not (ds.rank_is_static and fs.rank_is_static) or len(fs) == len(ds) + 1, op,
              lambda: f"filters must have rank data rank + 1 ([GROUPS, C_IN, C_OUT, kernel...]), got data {ds} and "
                      f"filters {fs}")
        if not fs.rank_is_static:
            return Dimension()
        c_out = group_count(op, ds, fs, c_in_axis=1) * fs[2]
        # ov::Interval saturates a product beyond int64 to an unbounded one
        return c_out if c_out.hi is None or c_out.hi < INT64_MAX else Dimension(c_out.lo, None)

    return _backprop_shape(op, data, filters, output_shape, 3, channels, dict(
        strides=strides, pads_begin=pads_begin, pads_end=pads_end, dilations=dilations, auto_pad=auto_pad,
        output_padding=output_padding))


def _attrs():
    return (
        Attr("strides", INTS, doc="output step between the scatters of neighbouring data elements (> 0)"),
        Attr("pads_begin", INTS, doc="output positions cropped at the beginning of each spatial axis (explicit "
                                     "mode without output_shape only)"),
        Attr("pads_end", INTS, doc="output positions cropped at the end of each spatial axis (explicit mode "
                                   "without output_shape only)"),
        Attr("dilations", INTS, doc="distance between kernel taps per spatial axis (> 0)"),
        Attr("auto_pad", STRING, "explicit", allowed=CONV_AUTO_PAD,
             doc="explicit: pads_begin/pads_end; other modes: no pads. With output_shape: how the deduced total "
                 "padding is split (same_upper: the larger half at the beginning; otherwise at the end)"),
        Attr("output_padding", INTS, (), doc="positions added at the end of each spatial axis (>= 0; empty: 0)"),
    )


CONVOLUTION_BACKPROP_DATA_1 = OpSchema(
    "ConvolutionBackpropData", 1, category="convolution",
    inputs=(Port("data", "T", doc="[N, C_IN, spatial...], 1 to 3 spatial axes"),
            Port("filters", "T", doc="[C_IN, C_OUT, kernel...]"),
            Port("output_shape", "T_SHAPE", optional=True, const=True,
                 doc="1-D: the output's spatial shape; the pads are then deduced")),
    outputs=(Port("output", "T", doc="[N, C_OUT, spatial...]"),),
    attributes=_attrs(),
    type_constraints={"T": T_CONV, "T_SHAPE": T_SHAPE},
    shape=convolution_backprop_data_shape,
    doc="Transposed convolution (the gradient of Convolution with respect to its data), no bias.",
)

GROUP_CONVOLUTION_BACKPROP_DATA_1 = OpSchema(
    "GroupConvolutionBackpropData", 1, category="convolution",
    inputs=(Port("data", "T", doc="[N, GROUPS * C_IN, spatial...]"),
            Port("filters", "T", doc="[GROUPS, C_IN, C_OUT, kernel...]; GROUPS comes from this shape"),
            Port("output_shape", "T_SHAPE", optional=True, const=True,
                 doc="1-D: the output's spatial shape; the pads are then deduced")),
    outputs=(Port("output", "T", doc="[N, GROUPS * C_OUT, spatial...]"),),
    attributes=_attrs(),
    type_constraints={"T": T_CONV, "T_SHAPE": T_SHAPE},
    shape=group_convolution_backprop_data_shape,
    doc="ConvolutionBackpropData of each of GROUPS channel groups with its own filters; outputs concatenated.",
)

OPS = (CONVOLUTION_BACKPROP_DATA_1, GROUP_CONVOLUTION_BACKPROP_DATA_1)
