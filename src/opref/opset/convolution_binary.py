"""Schemas and shape rules: BinaryConvolution-1, the 2-D convolution of binary data with u1 filters
(mode xnor-popcount). Its shape rule is Convolution-1's (the helpers of convolution.py) on rank 4 only."""
from __future__ import annotations

from ..shapes import Dimension, PartialShape
from ..types import NUMERIC_BYTES
from .convolution import CONV_AUTO_PAD, _check_attrs, _dims, _num_spatial, _spatial
from .helpers import check
from .schema import FLOAT, INTS, STRING, Attr, OpSchema, Port

BINARY_CONVOLUTION = "BinaryConvolution-1"


def binary_convolution_shape(data, filters, *, strides, pads_begin, pads_end, dilations, mode, pad_value, auto_pad):
    """Convolution-1's output shape, [N, C_OUT, Y, X]. The spec's ranks are 4 (OpenVINO checks a static
    data rank, but takes a rank 3 or 5 from the filters or the attributes when the data rank is dynamic)."""
    op = BINARY_CONVOLUTION
    ds, fs = data.shape, filters.shape
    for name, s in (("data", ds), ("filters", fs)):
        check(not s.rank_is_static or len(s) == 4, op, lambda: f"input {name!r} must have rank 4, got {s}")
    n = _num_spatial(data, filters, 2, (strides, dilations, pads_begin, pads_end))
    check(n in (None, 2), op,
          lambda: f"BinaryConvolution is 2-D: the attributes must have 2 elements, got strides "
                  f"{list(strides)}, dilations {list(dilations)}, pads {list(pads_begin)}, {list(pads_end)}")
    if ds.rank_is_static and fs.rank_is_static:
        check(ds[1].compatible(fs[1]), op,
              lambda: f"data channels (dimension 1 of data {ds}) must equal the filter's "
                      f"input channels (dimension 1 of filters {fs}), got {ds[1]} and {fs[1]}")
    _check_attrs(op, 2, strides, dilations, pads_begin, pads_end, auto_pad)
    batch = ds[0] if ds.rank_is_static else Dimension()
    c_out = fs[0] if fs.rank_is_static else Dimension()
    spatial = _spatial(op, _dims(ds, 2, 2), _dims(fs, 2, 2), strides=strides, dilations=dilations,
                       pads_begin=pads_begin, pads_end=pads_end, auto_pad=auto_pad)
    return PartialShape([batch, c_out] + spatial)


BINARY_CONVOLUTION_1 = OpSchema(
    "BinaryConvolution", 1, category="convolution",
    inputs=(Port("data", "T1", doc="[N, C_IN, Y, X] of 0/1 values (0 stands for -1, anything else for 1)"),
            Port("filters", "T2", doc="[C_OUT, C_IN, KY, KX] of bits (0 stands for -1, 1 for 1)")),
    outputs=(Port("output", "T1", doc="[N, C_OUT, Y', X']"),),
    attributes=(
        Attr("strides", INTS, doc="step of the window per spatial axis (> 0)"),
        Attr("pads_begin", INTS, doc="padding before each spatial axis (ignored unless auto_pad is explicit)"),
        Attr("pads_end", INTS, doc="padding after each spatial axis (ignored unless auto_pad is explicit)"),
        Attr("dilations", INTS, doc="distance between kernel taps per spatial axis (> 0)"),
        Attr("mode", STRING, allowed=("xnor-popcount",),
             doc="xnor-popcount: 2 * (number of taps where data and filter bits agree) - (number of taps)"),
        Attr("pad_value", FLOAT, doc="the real value of the padding taps: 1 or -1 act as a 1 or 0 bit, "
                                     "0 leaves them out of the sum (as OpenVINO's CPU plugin does)"),
        Attr("auto_pad", STRING, "explicit", allowed=CONV_AUTO_PAD,
             doc="explicit: pads_begin/pads_end; valid: no padding; same_upper/same_lower: output "
                 "ceil(input/stride), an odd total pad puts the extra pixel at the end/beginning"),
    ),
    # T1: numeric types of at least a byte (the output holds the sums in T1)
    type_constraints={"T1": NUMERIC_BYTES, "T2": ("u1",)},
    shape=binary_convolution_shape,
    doc="2-D convolution of binary data with binary filters: each tap contributes +1 where the data and "
        "filter bits agree and -1 where they differ (padding taps contribute pad_value times the filter's "
        "+-1), summed over input channels and taps.",
)

OPS = (BINARY_CONVOLUTION_1,)
