"""NumPy reference kernels: the embedding ops."""
from __future__ import annotations

KERNELS = {}
