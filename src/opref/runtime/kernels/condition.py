"""Condition and selection ops (kernels)."""
from __future__ import annotations

KERNELS = {}
