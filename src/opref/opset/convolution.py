"""Convolution ops: Convolution-1 and GroupConvolution-1.

Shape rules follow OpenVINO's (src/core/shape_inference/include/convolution_shape_inference.hpp,
group_convolution_shape_inference.hpp and convolution_shape_inference_util.hpp) on partial shapes:
the number of spatial axes comes from the data rank, else from the filter rank, else from the
attribute lengths; a dynamic filter or data dimension flows through ov::Interval arithmetic
(`(data + pads - ((k - 1) * d + 1)) / s + 1`, floor); SAME padding gives `ceil(data / s)`.
"""
from __future__ import annotations

from ..shapes import Dimension, PartialShape
from ..types import NUMERIC
from .helpers import AUTO_PAD, ceil_div, check, fail
from .schema import INTS, STRING, Attr, OpSchema, Port

# The spec's four padding modes. OpenVINO's enum also parses "notset" (which then behaves as
# explicit), but the spec does not allow it and OpenVINO never writes it.
CONV_AUTO_PAD = AUTO_PAD

# "Any numeric type" (OpenVINO: is_real() or is_integral_number()), except u1: it shares NumPy's
# uint8 with u8, so a kernel could not tell which modulus its sums wrap to.
T_CONV = tuple(t for t in NUMERIC if t != "u1")


def _num_spatial(data, filters, filter_extra: int, attrs) -> int | None:
    """Spatial rank: from the data rank, else the filter rank, else the first non-empty attribute."""
    if data.shape.rank_is_static:
        return len(data.shape) - 2
    if filters.shape.rank_is_static:
        return len(filters.shape) - filter_extra
    for values in attrs:
        if values:
            return len(values)
    return None


def _check_attrs(op, n, strides, dilations, pads_begin, pads_end, auto_pad):
    """Attribute lengths against the spatial rank, no zero stride/dilation, no negative explicit pad.
    Empty lists stand for the defaults (OpenVINO fills strides/dilations with 1, pads with 0); pad
    lengths are checked whatever auto_pad is, as OpenVINO does."""
    strides, dilations = strides or (1,) * n, dilations or (1,) * n
    for name, values in (("strides", strides), ("dilations", dilations)):
        check(len(values) == n, op, lambda: f"attribute {name!r} must have {n} elements (one per spatial axis), "
                                            f"got {list(values)}")
    for name, values in (("pads_begin", pads_begin), ("pads_end", pads_end)):
        check(len(values) in (0, n), op, lambda: f"attribute {name!r} must have {n} elements (one per spatial "
                                                 f"axis), got {list(values)}")
    check(all(v > 0 for v in strides), op, lambda: f"attribute 'strides' values must be > 0, got {list(strides)}")
    check(all(v > 0 for v in dilations), op, lambda: f"attribute 'dilations' values must be > 0, got {list(dilations)}")
    # The spec allows only pads >= 0 (OpenVINO takes negative explicit pads and returns odd shapes).
    check(auto_pad != "explicit" or all(v >= 0 for v in pads_begin + pads_end), op,
          lambda: f"attributes 'pads_begin', 'pads_end' values must be >= 0, got {list(pads_begin)}, {list(pads_end)}")


def _spatial(op, data_dims, kernel_dims, *, strides, dilations, pads_begin, pads_end, auto_pad):
    """Output spatial dims. data_dims / kernel_dims: the spatial Dimensions (dynamic when unknown)."""
    n = len(data_dims)
    strides, dilations = strides or (1,) * n, dilations or (1,) * n
    if auto_pad in ("same_upper", "same_lower"):
        return [ceil_div(d, s) for d, s in zip(data_dims, strides)]
    if auto_pad == "valid":
        pads_begin = pads_end = (0,) * n
    pads_begin, pads_end = pads_begin or (0,) * n, pads_end or (0,) * n
    out = []
    for i, (dim, k, s, d, pb, pe) in enumerate(zip(data_dims, kernel_dims, strides, dilations,
                                                     pads_begin, pads_end)):
        padded = dim + (pb + pe)
        window = (k - 1) * d + 1                 # interval arithmetic, as OpenVINO's dim::dilated
        if padded.is_static and window.is_static:
            check(window.lo <= padded.lo, op, lambda: f"spatial axis {i}: the dilated kernel ({window.lo}) is larger "
                                                      f"than the padded data ({padded.lo} = {dim} + {pb} + {pe})")
        out.append((padded - window).floordiv(s) + 1)
    return out


def _dims(shape: PartialShape, n: int, first: int) -> list[Dimension]:
    """Dims [first, first + n) of shape, or n dynamic dims for a dynamic rank."""
    return list(shape)[first:first + n] if shape.rank_is_static else [Dimension()] * n


def convolution_shape(data, filters, *, strides, pads_begin, pads_end, dilations, auto_pad):
    """[N, C_OUT, spatial...]: N from data, C_OUT from filters' dimension 0, each spatial dim
    floor((in + pads_begin + pads_end - ((k - 1) * dilation + 1)) / stride) + 1 (valid: no pads;
    same_upper/same_lower: ceil(in / stride)), on intervals for dynamic dims. The spatial rank comes
    from data's rank, else filters', else the attribute lengths; if none tells it the rank is dynamic.
    Rejected: data rank outside 3..5, data and filters of different ranks, data channels != filters'
    dimension 1, attribute lengths != the spatial rank (empty lists mean the defaults), strides or
    dilations <= 0, negative explicit pads, a dilated kernel longer than the padded input."""
    op = "Convolution-1"
    n = _num_spatial(data, filters, 2, (strides, dilations, pads_begin, pads_end))
    if n is None:
        return PartialShape.dynamic()
    ds, fs = data.shape, filters.shape
    check(not ds.rank_is_static or len(ds) in (3, 4, 5), op, lambda: f"data must have rank 3, 4 or 5, got {ds}")
    if ds.rank_is_static and fs.rank_is_static:
        check(len(ds) == len(fs), op, lambda: f"data and filters must have the same rank, got data {ds} and "
                                              f"filters {fs}")
        check(ds[1].compatible(fs[1]), op,
              lambda: f"data channels (dimension 1 of data {ds}) must equal the filter's "
                      f"input channels (dimension 1 of filters {fs}), got {ds[1]} and {fs[1]}")
    _check_attrs(op, n, strides, dilations, pads_begin, pads_end, auto_pad)
    batch = ds[0] if ds.rank_is_static else Dimension()
    c_out = fs[0] if fs.rank_is_static else Dimension()
    spatial = _spatial(op, _dims(ds, n, 2), _dims(fs, n, 2), strides=strides, dilations=dilations,
                       pads_begin=pads_begin, pads_end=pads_end, auto_pad=auto_pad)
    return PartialShape([batch, c_out] + spatial)


def group_count(op, ds, fs, *, c_in_axis: int) -> Dimension:
    """GROUPS of a grouped convolution's filters fs [GROUPS, ...] (static rank), merged with what the data's
    channels ds[1] = GROUPS x C_IN say, C_IN being filters dimension c_in_axis."""
    groups = fs[0]
    if ds.rank_is_static and fs[c_in_axis].is_static:
        c_in = fs[c_in_axis].lo
        check(c_in > 0, op, lambda: f"filters dimension {c_in_axis} (input channels per group) must be > 0, got {fs}")
        per_group = ds[1].divide(c_in)
        merged = None if per_group is None else groups.merge(per_group)
        if merged is None:
            fail(op, f"data channels ({ds[1]}, dimension 1 of data {ds}) must equal GROUPS ({groups}) x "
                 f"input channels per group ({c_in}) of filters {fs}")
        groups = merged
    return groups


def group_convolution_shape(data, filters, *, strides, pads_begin, pads_end, dilations, auto_pad):
    """Convolution-1's rule with filters [GROUPS, C_OUT, C_IN, kernel...] (rank data rank + 1): the
    output is [N, GROUPS * C_OUT, spatial...], spatial dims as for Convolution-1. Data channels must
    equal GROUPS x C_IN (when C_IN is static, GROUPS is refined by data channels / C_IN). A dynamic
    filters rank gives a dynamic output channel dim."""
    op = "GroupConvolution-1"
    n = _num_spatial(data, filters, 3, (strides, dilations, pads_begin, pads_end))
    if n is None:
        return PartialShape.dynamic()
    ds, fs = data.shape, filters.shape
    check(not ds.rank_is_static or len(ds) in (3, 4, 5), op, lambda: f"data must have rank 3, 4 or 5, got {ds}")
    check(not (ds.rank_is_static and fs.rank_is_static) or len(fs) == len(ds) + 1, op,
          lambda: f"filters must have rank data rank + 1 ([GROUPS, C_OUT, C_IN, spatial...]), got data {ds} and "
                  f"filters {fs}")
    _check_attrs(op, n, strides, dilations, pads_begin, pads_end, auto_pad)
    batch = ds[0] if ds.rank_is_static else Dimension()
    if fs.rank_is_static:
        c_out = group_count(op, ds, fs, c_in_axis=2) * fs[1]
    else:
        c_out = Dimension()
    spatial = _spatial(op, _dims(ds, n, 2), _dims(fs, n, 3), strides=strides, dilations=dilations,
                       pads_begin=pads_begin, pads_end=pads_end, auto_pad=auto_pad)
    return PartialShape([batch, c_out] + spatial)


def _attrs():
    return (
        Attr("strides", INTS, doc="step of the window per spatial axis (> 0)"),
        Attr("pads_begin", INTS, doc="zeros added before each spatial axis (ignored unless auto_pad is explicit)"),
        Attr("pads_end", INTS, doc="zeros added after each spatial axis (ignored unless auto_pad is explicit)"),
        Attr("dilations", INTS, doc="distance between kernel taps per spatial axis (> 0)"),
        Attr("auto_pad", STRING, "explicit", allowed=CONV_AUTO_PAD,
             doc="explicit: pads_begin/pads_end; valid: no padding; same_upper/same_lower: output "
                 "ceil(input/stride), an odd total pad puts the extra pixel at the end/beginning"),
    )


CONVOLUTION_1 = OpSchema(
    "Convolution", 1, category="convolution",
    inputs=(Port("data", "T", doc="[N, C_IN, spatial...], 1 to 3 spatial axes"),
            Port("filters", "T", doc="[C_OUT, C_IN, kernel...]")),
    outputs=(Port("output", "T", doc="[N, C_OUT, spatial...]"),),
    attributes=_attrs(),
    type_constraints={"T": T_CONV},
    shape=convolution_shape,
    doc="1-D/2-D/3-D convolution (cross-correlation) of data with filters, no bias.",
)

GROUP_CONVOLUTION_1 = OpSchema(
    "GroupConvolution", 1, category="convolution",
    inputs=(Port("data", "T", doc="[N, GROUPS * C_IN, spatial...]"),
            Port("filters", "T", doc="[GROUPS, C_OUT, C_IN, kernel...]; GROUPS comes from this shape")),
    outputs=(Port("output", "T", doc="[N, GROUPS * C_OUT, spatial...]"),),
    attributes=_attrs(),
    type_constraints={"T": T_CONV},
    shape=group_convolution_shape,
    doc="Convolution of each of GROUPS channel groups of data with its own filters; outputs concatenated.",
)

OPS = (CONVOLUTION_1, GROUP_CONVOLUTION_1)
