"""Normalization ops: BatchNormInference-1/5, MVN-1/6, NormalizeL2-1, GRN-1, GroupNormalization-12,
LRN-1.

Every output has the data's shape (and type); the shape rules check what OpenVINO checks
(src/core/shape_inference/include/{batch_norm,mvn,normalize_l2,group_normalization,lrn}_shape_
inference.hpp and the ops' validate_and_infer_types): ranks, the per-channel inputs' lengths (whose
known lengths also fill in the data's channel dimension, as OpenVINO merges them), axes in range.

BatchNormInference-1 takes its inputs in the order gamma, beta, data, mean, variance;
BatchNormInference-5 in the order data, gamma, beta, mean, variance.
"""
from __future__ import annotations

from ..shapes import Dimension, PartialShape
from ..types import FLOAT, IDX, INTEGRAL
from .helpers import check, fail, ints_of
from .schema import BOOL, FLOAT as FLOAT_ATTR, INT, INTS, STRING, Attr, OpSchema, Port

T_IND_ANY = tuple(t for t in INTEGRAL if t not in ("u1", "i4", "u4"))


def _axes_values(op, data, axes, name="axes", allow_scalar=False):
    """Normalized axes when their values and the data rank are known (checks range), else None."""
    s = axes.shape
    if s.rank_is_static:
        check(len(s) == 1 or (allow_scalar and len(s) == 0), op,
              lambda: f"input {name!r} must be {'a scalar or ' if allow_scalar else ''}1-D, got shape {s}")
    values = ints_of(axes)
    if values is None or not data.shape.rank_is_static:
        return None
    r = len(data.shape)
    for v in values:
        check(-r <= v < r, op,
              lambda: f"input {name!r} value {v} is out of range [{-r}, {r - 1}] for data {data.shape}")
    return tuple(v % r if r else v for v in values)


def _channel_merged(op, data_shape: PartialShape, channel_inputs) -> PartialShape:
    """data_shape with its dimension 1 merged with the lengths of the 1-D per-channel inputs."""
    c = data_shape[1] if data_shape.rank_is_static else Dimension()
    for name, info in channel_inputs:
        s = info.shape
        if not s.rank_is_static:
            continue
        check(len(s) == 1, op, lambda: f"input {name!r} must be 1-D, got shape {s}")
        merged = c.merge(s[0])
        if merged is None:
            fail(op, f"input {name!r} must have as many elements as data has channels ({c}), got {s[0]}")
        c = merged
    if not data_shape.rank_is_static:
        return data_shape
    dims = list(data_shape)
    dims[1] = c
    return PartialShape(dims)


# --- BatchNormInference ---------------------------------------------------------------------------
def _batch_norm(op, data, gamma, beta, mean, variance, epsilon):
    check(epsilon >= 0, op, lambda: f"attribute 'epsilon' must be >= 0, got {epsilon}")
    ds = data.shape
    check(not ds.rank_is_static or len(ds) >= 2, op, lambda: f"data must have rank >= 2, got {ds}")
    return _channel_merged(op, ds, (("gamma", gamma), ("beta", beta), ("mean", mean), ("variance", variance)))


def batch_norm_inference_1_shape(gamma, beta, data, mean, variance, *, epsilon):
    """The output has the data's shape, its channel dimension (axis 1) merged with the lengths of gamma, beta,
    mean and variance, which must be 1-D and compatible with it. data has rank >= 2 and epsilon >= 0."""
    return _batch_norm("BatchNormInference-1", data, gamma, beta, mean, variance, epsilon)


def batch_norm_inference_5_shape(data, gamma, beta, mean, variance, *, epsilon):
    """The output has the data's shape, its channel dimension (axis 1) merged with the lengths of gamma, beta,
    mean and variance, which must be 1-D and compatible with it. data has rank >= 2 and epsilon >= 0."""
    return _batch_norm("BatchNormInference-5", data, gamma, beta, mean, variance, epsilon)


_BN_PORTS = {"data": Port("data", "T", doc="[N, C, ...], rank >= 2"),
             "gamma": Port("gamma", "T", doc="[C] scale"), "beta": Port("beta", "T", doc="[C] shift"),
             "mean": Port("mean", "T", doc="[C] per-channel mean"),
             "variance": Port("variance", "T", doc="[C] per-channel variance")}
_BN_OUTPUT = Port("output", "T", doc="the normalized data, of its shape")
_BN_DOC = "gamma * (data - mean) / sqrt(variance + epsilon) + beta, per channel (axis 1)."
_EPSILON = Attr("epsilon", FLOAT_ATTR, doc="added to the variance (>= 0)")

BATCH_NORM_INFERENCE_1 = OpSchema(
    "BatchNormInference", 1, category="normalization",
    inputs=tuple(_BN_PORTS[p] for p in ("gamma", "beta", "data", "mean", "variance")),
    outputs=(_BN_OUTPUT,), attributes=(_EPSILON,), type_constraints={"T": FLOAT},
    shape=batch_norm_inference_1_shape, doc=_BN_DOC + " Inputs in the order gamma, beta, data, mean, variance.")

BATCH_NORM_INFERENCE_5 = OpSchema(
    "BatchNormInference", 5, category="normalization",
    inputs=tuple(_BN_PORTS[p] for p in ("data", "gamma", "beta", "mean", "variance")),
    outputs=(_BN_OUTPUT,), attributes=(_EPSILON,), type_constraints={"T": FLOAT},
    shape=batch_norm_inference_5_shape, doc=_BN_DOC + " BatchNormInference-5 takes data first.")


# --- MVN ------------------------------------------------------------------------------------------
def mvn_1_shape(data, *, eps, across_channels, normalize_variance, reduction_axes):
    """The output has the data's shape; with the rank known, reduction_axes values must lie in [-rank, rank-1]."""
    op = "MVN-1"
    if data.shape.rank_is_static and reduction_axes:
        r = len(data.shape)
        for v in reduction_axes:
            check(-r <= v < r, op, lambda: f"attribute 'reduction_axes' value {v} is out of range [{-r}, {r - 1}] "
                                           f"for data {data.shape}")
    return data.shape


def mvn_6_shape(data, axes, *, normalize_variance, eps, eps_mode):
    """The output has the data's shape. axes must be 1-D and, with its values and the rank known, lie in
    [-rank, rank-1] (repeats allowed)."""
    op = "MVN-6"
    _axes_values(op, data, axes)          # repeated axes normalize once (OpenVINO accepts them)
    return data.shape


MVN_1 = OpSchema(
    "MVN", 1, category="normalization", inputs=(Port("data", "T", doc="[N, C, ...] tensor to normalize"),),
    outputs=(Port("output", "T", doc="the normalized data, of its shape"),),
    attributes=(Attr("eps", FLOAT_ATTR, doc="added to the variance, inside the square root"),
                Attr("across_channels", BOOL, False, doc="without reduction_axes: normalize over axes 1.. "
                     "(true) or 2.. (false)"),
                Attr("normalize_variance", BOOL, False, doc="also divide by the standard deviation"),
                Attr("reduction_axes", INTS, (), doc="the axes to normalize over; empty: from across_channels")),
    type_constraints={"T": FLOAT}, shape=mvn_1_shape,
    doc="(x - mean) [/ sqrt(variance + eps)] over reduction_axes (or the across_channels axes).")

MVN_6 = OpSchema(
    "MVN", 6, category="normalization",
    inputs=(Port("data", "T", doc="tensor to normalize, of any rank"),
            Port("axes", "T_IND", const=True, doc="1-D axes to normalize over; negative counts from the end")),
    outputs=(Port("output", "T", doc="the normalized data, of its shape"),),
    attributes=(Attr("normalize_variance", BOOL, doc="also divide by the standard deviation"),
                Attr("eps", FLOAT_ATTR, doc="added to the variance (inside_sqrt) or the deviation (outside_sqrt)"),
                Attr("eps_mode", STRING, allowed=("inside_sqrt", "outside_sqrt"),
                     doc="inside_sqrt: / sqrt(var + eps); outside_sqrt: / (sqrt(var) + eps)")),
    type_constraints={"T": FLOAT, "T_IND": IDX}, shape=mvn_6_shape,
    doc="(x - mean(axes)) [/ sqrt(variance(axes) + eps) or / (sqrt(variance(axes)) + eps)].")


# --- NormalizeL2 / GRN ----------------------------------------------------------------------------
def normalize_l2_shape(data, axes, *, eps, eps_mode):
    """The output has the data's shape. axes must be a scalar or 1-D and, with its values and the rank known,
    unique and in [-rank, rank-1]."""
    op = "NormalizeL2-1"
    values = _axes_values(op, data, axes, allow_scalar=True)
    if values is not None:
        check(len(set(values)) == len(values), op,
              lambda: f"input 'axes' values must be unique, got {list(ints_of(axes))}")
    return data.shape


def grn_shape(data, *, bias):
    """The output has the data's shape; a known rank must be 2, 3 or 4."""
    op = "GRN-1"
    check(not data.shape.rank_is_static or 2 <= len(data.shape) <= 4, op,
          lambda: f"data must have rank 2, 3 or 4, got {data.shape}")
    return data.shape


NORMALIZE_L2_1 = OpSchema(
    "NormalizeL2", 1, category="normalization",
    inputs=(Port("data", "T", doc="tensor to normalize, of any rank"),
            Port("axes", "T_IND", const=True,
                 doc="scalar or 1-D unique axes of the L2 reduction; negative counts from the end")),
    outputs=(Port("output", "T", doc="data divided by its L2 norm over axes, of its shape"),),
    attributes=(Attr("eps", FLOAT_ATTR, doc="combined with the sum of squares by eps_mode"),
                Attr("eps_mode", STRING, allowed=("add", "max"), doc="sqrt(sum + eps) or sqrt(max(sum, eps))")),
    type_constraints={"T": FLOAT, "T_IND": T_IND_ANY}, shape=normalize_l2_shape,
    doc="x / sqrt(eps_mode(sum of x^2 over axes, eps)).")

GRN_1 = OpSchema(
    "GRN", 1, category="normalization", inputs=(Port("data", "T", doc="[N, C, ...], rank 2 to 4"),),
    outputs=(Port("output", "T", doc="the normalized data, of its shape"),),
    attributes=(Attr("bias", FLOAT_ATTR, doc="added to the sum of squares"),),
    type_constraints={"T": FLOAT}, shape=grn_shape, doc="x / sqrt(sum of x^2 over channels (axis 1) + bias).")


# --- GroupNormalization ---------------------------------------------------------------------------
def group_normalization_shape(data, scale, bias, *, num_groups, epsilon):
    """The output has the data's shape, unrefined (as OpenVINO keeps it). data has rank >= 2; scale and bias
    must be 1-D with lengths compatible with the channel dimension (axis 1) and each other, a static channel
    count must be a multiple of num_groups, num_groups > 0 and epsilon >= 0."""
    op = "GroupNormalization-12"
    check(num_groups > 0, op, lambda: f"attribute 'num_groups' must be > 0, got {num_groups}")
    check(epsilon >= 0, op, lambda: f"attribute 'epsilon' must be >= 0, got {epsilon}")
    ds = data.shape
    check(not ds.rank_is_static or len(ds) >= 2, op, lambda: f"data must have rank >= 2, got {ds}")
    _channel_merged(op, ds, (("scale", scale), ("bias", bias)))
    if ds.rank_is_static and ds[1].is_static:
        check(ds[1].lo % num_groups == 0, op, lambda: f"the channel count ({ds[1]}) must be a multiple of "
                                                      f"num_groups ({num_groups})")
    return ds                     # OpenVINO checks the channels against scale and bias but keeps data's shape


GROUP_NORMALIZATION_12 = OpSchema(
    "GroupNormalization", 12, category="normalization",
    inputs=(Port("data", "T", doc="[N, C, ...]"), Port("scale", "T", doc="[C]"), Port("bias", "T", doc="[C]")),
    outputs=(Port("output", "T", doc="the normalized data, of its shape"),),
    attributes=(Attr("num_groups", INT, doc="channel groups (C must be a multiple)"),
                Attr("epsilon", FLOAT_ATTR, doc="added to the variance")),
    type_constraints={"T": FLOAT}, shape=group_normalization_shape,
    doc="scale * (x - mean) / sqrt(variance + epsilon) + bias, mean and variance per batch and channel group.")


# --- LRN ------------------------------------------------------------------------------------------
def lrn_shape(data, axes, *, alpha, beta, bias, size):
    """The output has the data's shape. axes must be 1-D and, with its values and the rank known, lie in
    [-rank, rank-1] (repeats allowed); size > 0."""
    op = "LRN-1"
    _axes_values(op, data, axes)          # repeated axes count once (OpenVINO accepts them)
    check(size > 0, op, lambda: f"attribute 'size' must be > 0, got {size}")
    return data.shape


LRN_1 = OpSchema(
    "LRN", 1, category="normalization",
    inputs=(Port("data", "T", doc="tensor to normalize, of any rank ([N, C, ...] for the usual axes [1])"),
            Port("axes", "T_IND", const=True, doc="1-D axes of the local region; negative counts from the end")),
    outputs=(Port("output", "T", doc="the normalized data, of its shape"),),
    attributes=(Attr("alpha", FLOAT_ATTR, doc="scale of the sum of squares (divided by size^len(axes))"),
                Attr("beta", FLOAT_ATTR, doc="exponent"), Attr("bias", FLOAT_ATTR, doc="offset"),
                Attr("size", INT, doc="side of the region, centered on each element")),
    type_constraints={"T": FLOAT, "T_IND": T_IND_ANY}, shape=lrn_shape,
    doc="x / (bias + alpha / size^len(axes) * sum of x^2 over the region)^beta.")

OPS = (BATCH_NORM_INFERENCE_1, BATCH_NORM_INFERENCE_5, MVN_1, MVN_6, NORMALIZE_L2_1, GRN_1, GROUP_NORMALIZATION_12,
       LRN_1)
