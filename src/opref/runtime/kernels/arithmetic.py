"""Arithmetic ops: unary math and binary elementwise arithmetic (kernels)."""
from __future__ import annotations

KERNELS = {}
