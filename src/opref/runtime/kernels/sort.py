"""Sort and search ops (kernels)."""
from __future__ import annotations

KERNELS = {}
