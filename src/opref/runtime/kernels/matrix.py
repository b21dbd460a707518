"""Matrix kernels: MatMul-1, Einsum-7, Inverse-14.

Products are computed by np.matmul / np.einsum in the type's accumulator dtype: f32 for the floats
narrower than 32 bits (rounded back once at the end, as OpenVINO's CPU plugin does), the type
itself for f32/f64 and for integers (NumPy's integer matmul wraps modulo 2^bits, which is what
accumulating in the type gives, since wrapping commutes with sums and products).
"""
from __future__ import annotations

import numpy as np

from ...types import accumulator_dtype


# --- MatMul-1 ----------------------------------------------------------------------------------------
def matmul(a, b, *, transpose_a, transpose_b):
    dtype = a.dtype
    acc = accumulator_dtype(dtype)
    x, y = a.astype(acc, copy=False), b.astype(acc, copy=False)
    if transpose_a and x.ndim > 1:
        x = np.swapaxes(x, -1, -2)
    if transpose_b and y.ndim > 1:
        y = np.swapaxes(y, -1, -2)
    # np.matmul has MatMul's rules: 1-D a is a row vector, 1-D b a column vector, and the inserted
    # axes are dropped; batch axes broadcast.
    with np.errstate(over="ignore", invalid="ignore"):
        out = np.matmul(x, y)
    return np.asarray(out).astype(dtype, copy=False)


KERNELS = {
    "MatMul-1": matmul,
}
