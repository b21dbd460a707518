"""Comparison kernels: NumPy's comparisons (IEEE: NaN compares unequal to everything, also itself)
and the floating-point class tests. ml_dtypes' bf16/f8/int4 compare by value."""
from __future__ import annotations

import numpy as np

from ._elementwise import binary, quiet, unary


def _quiet(fn):
    """fn without NumPy's 'invalid value' warnings: comparing NaN is defined (false), not an error."""
    return quiet(fn, invalid="ignore")


@_quiet
def is_inf(data, *, detect_negative, detect_positive):
    inf = np.isinf(data)
    return (inf & (data > 0) & detect_positive) | (inf & (data < 0) & detect_negative)


KERNELS = {
    "Equal-1": binary(_quiet(np.equal)),
    "NotEqual-1": binary(_quiet(np.not_equal)),
    "Less-1": binary(_quiet(np.less)),
    "LessEqual-1": binary(_quiet(np.less_equal)),
    "Greater-1": binary(_quiet(np.greater)),
    "GreaterEqual-1": binary(_quiet(np.greater_equal)),
    "IsFinite-10": unary(np.isfinite),
    "IsInf-10": unary(is_inf, ["detect_negative", "detect_positive"]),
    "IsNaN-10": unary(np.isnan),
}
