"""Type conversion and string ops (kernels)."""
from __future__ import annotations

KERNELS = {}
