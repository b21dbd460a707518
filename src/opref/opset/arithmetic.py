"""Arithmetic ops: unary math and binary elementwise arithmetic (schemas and shape rules)."""
from __future__ import annotations

OPS = ()
