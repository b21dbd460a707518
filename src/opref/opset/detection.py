"""Schemas and shape rules: the detection ops."""
from __future__ import annotations

OPS = ()
