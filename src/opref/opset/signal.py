"""Schemas and shape rules: the signal ops."""
from __future__ import annotations

OPS = ()
