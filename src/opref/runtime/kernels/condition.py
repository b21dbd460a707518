"""Condition and selection kernels: Select, Bucketize, NonZero."""
from __future__ import annotations

import numpy as np

from ._elementwise import broadcast_pair


def select(cond, then, else_, *, auto_broadcast):
    if auto_broadcast == "pdpd":          # else and cond are aligned to then, which gives the shape
        else_ = broadcast_pair(then, else_, "pdpd")[1]
        cond = broadcast_pair(then, cond, "pdpd")[1]
    return np.where(cond, then, else_)


def _comparable(x):
    """Values NumPy compares exactly across types: integers as i64/u64, floats as f64."""
    return x.astype(np.float64) if x.dtype.kind not in "iub" else x


def bucketize(data, buckets, *, output_type, with_right_bound):
    x, b = _comparable(data), _comparable(buckets)
    if x.dtype.kind != b.dtype.kind and (x.dtype.kind == "f" or b.dtype.kind == "f"):
        x, b = x.astype(np.float64), b.astype(np.float64)
    if with_right_bound:        # count of boundaries < x; NaN compares false: bucket 0 (as OpenVINO)
        idx = np.searchsorted(b, x, side="left")
        if x.dtype.kind == "f":
            idx = np.where(np.isnan(x), 0, idx)
    else:                       # count of boundaries <= x; NaN: past the last boundary
        idx = np.searchsorted(b, x, side="right")
    return np.asarray(idx).astype(output_type_dtype(output_type))


def output_type_dtype(name):
    return np.int32 if name == "i32" else np.int64


def non_zero(data, *, output_type):
    dtype = output_type_dtype(output_type)
    if data.ndim == 0:             # OpenVINO treats a scalar as a 1-element 1-D tensor: [1, 0 or 1]
        return np.zeros((1, int(data != 0)), dtype)
    return np.stack(np.nonzero(data != 0)).astype(dtype)


KERNELS = {"Select-1": select, "Bucketize-3": bucketize, "NonZero-3": non_zero}
