"""Activation functions (kernels)."""
from __future__ import annotations

KERNELS = {}
