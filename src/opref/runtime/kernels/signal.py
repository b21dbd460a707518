"""NumPy reference kernels: the signal ops."""
from __future__ import annotations

KERNELS = {}
