"""NumPy reference kernels: the detection ops."""
from __future__ import annotations

KERNELS = {}
