"""Logical kernels on boolean arrays."""
from __future__ import annotations

import numpy as np

from ._elementwise import binary, unary

KERNELS = {
    "LogicalAnd-1": binary(np.logical_and),
    "LogicalOr-1": binary(np.logical_or),
    "LogicalXor-1": binary(np.logical_xor),
    "LogicalNot-1": unary(np.logical_not),
    "Xor-1": binary(np.logical_xor),
}
