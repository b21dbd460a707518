"""Reduction ops (kernels)."""
from __future__ import annotations

KERNELS = {}
