"""Deformable convolutions: DeformableConvolution-1 and DeformableConvolution-8 (2-D).

A Convolution whose kernel taps sample the data at learned fractional offsets (bilinear
interpolation); -8 adds an optional modulation mask and `bilinear_interpolation_pad`. The output
spatial shape is the forward Convolution's; offsets [N, DG * KH * KW * 2, OH, OW] and mask
[N, DG * KH * KW, OH, OW] must cover it.

Shape rules follow OpenVINO's (deformable_convolution_shape_inference.hpp) on partial shapes: the
spatial rank comes from the data rank, else the filters', else the offsets'; every input has rank 4;
the channel counts must divide by group / deformable_group; the batch of data and offsets merge.
"""
from __future__ import annotations

from ..shapes import Dimension, PartialShape
from .convolution import CONV_AUTO_PAD, T_CONV, _check_attrs, _dims, _spatial
from .helpers import check
from .schema import BOOL, INT, INTS, STRING, Attr, OpSchema, Port


def _divisible(op, what, dim: Dimension, by: int, name: str):
    check(dim.divide(by) is not None, op, lambda: f"{what} channels ({dim}) must be divisible by '{name}' ({by})")


def _deformable_shape(op, data, offsets, filters, mask, *, strides, pads_begin, pads_end, dilations, auto_pad,
                      group, deformable_group):
    ds, os_, fs = data.shape, offsets.shape, filters.shape
    if ds.rank_is_static:
        n = len(ds) - 2
    elif fs.rank_is_static:
        n = len(fs) - 2
    elif os_.rank_is_static:
        n = len(os_) - 2
    else:
        return PartialShape.dynamic()
    for name, info in (("data", data), ("offsets", offsets), ("filters", filters), ("mask", mask)):
        if info is not None:
            check(not info.shape.rank_is_static or len(info.shape) == 4, op,
                  lambda: f"input {name!r} must have rank 4, got {info.shape}")
    check(group > 0, op, lambda: f"attribute 'group' must be > 0, got {group}")
    check(deformable_group > 0, op, lambda: f"attribute 'deformable_group' must be > 0, got {deformable_group}")
    _check_attrs(op, n, strides, dilations, pads_begin, pads_end, auto_pad)
    taps = fs[2] * fs[3] if fs.rank_is_static else None
    if mask is not None and mask.shape.rank_is_static:
        ms = mask.shape
        if taps is not None:
            check(ms[1].compatible(taps * deformable_group), op,
                  lambda: f"mask channels ({ms[1]}) must equal "
                          f"deformable_group ({deformable_group}) x KH x KW of filters {fs}")
        _divisible(op, "mask", ms[1], deformable_group, "deformable_group")
        if ds.rank_is_static:
            check(ms[0].compatible(ds[0]), op, lambda: f"mask batch ({ms[0]}) must equal data batch ({ds[0]})")
    batch = ds[0] if ds.rank_is_static else Dimension()
    if ds.rank_is_static:
        _divisible(op, "data", ds[1], group, "group")
    if os_.rank_is_static:
        if taps is not None:
            check(os_[1].compatible(taps * (2 * deformable_group)), op,
                  lambda: f"offsets channels ({os_[1]}) must equal "
                          f"deformable_group ({deformable_group}) x KH x KW x 2 of filters {fs}")
        _divisible(op, "offsets", os_[1], deformable_group, "deformable_group")
        merged = batch.merge(os_[0])
        check(merged is not None, op, lambda: f"offsets batch ({os_[0]}) must equal data batch ({batch})")
        batch = merged
    if fs.rank_is_static:
        _divisible(op, "filters output", fs[0], group, "group")
        if ds.rank_is_static:
            check(ds[1].compatible(fs[1] * group), op,
                  lambda: f"data channels ({ds[1]}) must equal group ({group}) x filter input channels ({fs[1]})")
        c_out = fs[0]
    else:
        c_out = Dimension()
    spatial = _spatial(op, _dims(ds, n, 2), _dims(fs, n, 2), strides=strides, dilations=dilations,
                       pads_begin=pads_begin, pads_end=pads_end, auto_pad=auto_pad)
    for name, info in (("offsets", offsets), ("mask", mask)):
        if info is not None and info.shape.rank_is_static:
            check(all(a.compatible(b) for a, b in zip(spatial, list(info.shape)[2:])), op,
                  lambda: f"spatial dims of {name} {info.shape} must equal the output's {PartialShape(spatial)}")
    return PartialShape([batch, c_out] + spatial)


def deformable_convolution_1_shape(data, offsets, filters, *, strides, pads_begin, pads_end, dilations, auto_pad,
                                   group, deformable_group):
    """[N, C_OUT, OH, OW] as Convolution-1 computes it from data and filters (attributes checked the same
    way), N merged with offsets' batch. Every input has rank 4 (a dynamic rank of all three gives a
    dynamic rank); group and deformable_group must be > 0; data channels = group x filters' dimension 1,
    filters' dimension 0 divisible by group; offsets channels = deformable_group x KH x KW x 2 and their
    spatial dims equal the output's."""
    return _deformable_shape("DeformableConvolution-1", data, offsets, filters, None, strides=strides,
                             pads_begin=pads_begin, pads_end=pads_end, dilations=dilations, auto_pad=auto_pad,
                             group=group, deformable_group=deformable_group)


def deformable_convolution_8_shape(data, offsets, filters, mask=None, *, strides, pads_begin, pads_end, dilations,
                                   auto_pad, group, deformable_group, bilinear_interpolation_pad):
    """DeformableConvolution-1's rule; a mask, when given, must have rank 4, data's batch, deformable_group
    x KH x KW channels and the output's spatial dims."""
    return _deformable_shape("DeformableConvolution-8", data, offsets, filters, mask, strides=strides,
                             pads_begin=pads_begin, pads_end=pads_end, dilations=dilations, auto_pad=auto_pad,
                             group=group, deformable_group=deformable_group)


def _attrs():
    return (
        Attr("strides", INTS, doc="step of the window per spatial axis (> 0)"),
        Attr("pads_begin", INTS, doc="zeros added before each spatial axis (explicit mode only)"),
        Attr("pads_end", INTS, doc="zeros added after each spatial axis (explicit mode only)"),
        Attr("dilations", INTS, doc="distance between kernel taps per spatial axis (> 0)"),
        Attr("auto_pad", STRING, "explicit", allowed=CONV_AUTO_PAD,
             doc="explicit: pads_begin/pads_end; valid: none; same_upper/same_lower: output ceil(input/stride)"),
        Attr("group", INT, 1, doc="groups of input and output channels (> 0)"),
        Attr("deformable_group", INT, 1, doc="groups of input channels sharing one set of offsets (> 0)"),
    )


_DATA = Port("data", "T", doc="[N, C_IN, H, W]")
_OFFSETS = Port("offsets", "T", doc="[N, DG * KH * KW * 2, OH, OW]: (y, x) per deformable group and tap")
_FILTERS = Port("filters", "T", doc="[C_OUT, C_IN / group, KH, KW]")
_OUTPUT = Port("output", "T", doc="[N, C_OUT, OH, OW]")

DEFORMABLE_CONVOLUTION_1 = OpSchema(
    "DeformableConvolution", 1, category="convolution",
    inputs=(_DATA, _OFFSETS, _FILTERS),
    outputs=(_OUTPUT,),
    attributes=_attrs(),
    type_constraints={"T": T_CONV},
    shape=deformable_convolution_1_shape,
    doc="2-D convolution whose taps sample the data bilinearly at per-position learned offsets.",
)

# -8: an optional mask input scales each sample; bilinear_interpolation_pad samples near the border
# from a zero-padded map instead of clamping to it.
DEFORMABLE_CONVOLUTION_8 = OpSchema(
    "DeformableConvolution", 8, category="convolution",
    inputs=(_DATA, _OFFSETS, _FILTERS,
            Port("mask", "T", optional=True, doc="[N, DG * KH * KW, OH, OW]: scales each sample (default 1)")),
    outputs=(_OUTPUT,),
    attributes=_attrs() + (
        Attr("bilinear_interpolation_pad", BOOL, False,
             doc="true: locations within one pixel outside the map interpolate with zeros; false: only "
                 "locations inside the map are sampled, their neighbours clamped into it"),),
    type_constraints={"T": T_CONV},
    shape=deformable_convolution_8_shape,
    doc="DeformableConvolution-1 with a modulation mask (Deformable ConvNets v2) and a padding choice.",
)

OPS = (DEFORMABLE_CONVOLUTION_1, DEFORMABLE_CONVOLUTION_8)
