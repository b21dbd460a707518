"""Bitwise kernels. Byte-sized integers use NumPy's operators in their own dtype (which wrap modulo
2^bits); i4/u4 are computed in 8 bits and wrapped back into 4, since ml_dtypes' int4 types do not
wrap (uint4 ~1 would be -2, int4 7 << 1 would be 14)."""
from __future__ import annotations

import ml_dtypes
import numpy as np

from ._elementwise import binary, unary

_WIDE = {np.dtype(ml_dtypes.int4): np.int8, np.dtype(ml_dtypes.uint4): np.uint8}


def _wrap4(x: np.ndarray, dtype) -> np.ndarray:
    """8-bit results reduced modulo 16 into int4 (sign from bit 3) or uint4."""
    low = x.astype(np.int16) & 0x0F
    if np.dtype(dtype) == np.dtype(ml_dtypes.int4):
        low = low - ((low & 0x08) << 1)
    return low.astype(dtype)


def _on_bits(fn):
    """fn on the arrays' integer bits, wrapped back into sub-byte types."""
    def k(*arrays):
        wide = _WIDE.get(arrays[0].dtype)
        if wide is None:
            return fn(*arrays)
        return _wrap4(fn(*(a.astype(wide) for a in arrays)), arrays[0].dtype)
    return k


def _shift(fn):
    # NumPy shifts in the promoted dtype of both operands; the shift count is cast to the data's
    # type first so the result keeps it (counts are small and non-negative in defined cases).
    return _on_bits(lambda a, b: fn(a, b.astype(a.dtype)).astype(a.dtype))


KERNELS = {
    "BitwiseAnd-13": binary(_on_bits(np.bitwise_and)),
    "BitwiseOr-13": binary(_on_bits(np.bitwise_or)),
    "BitwiseXor-13": binary(_on_bits(np.bitwise_xor)),
    "BitwiseNot-13": unary(_on_bits(np.invert)),
    "BitwiseLeftShift-15": binary(_shift(np.left_shift)),
    "BitwiseRightShift-15": binary(_shift(np.right_shift)),
}
