"""Schemas and shape rules: the embedding ops."""
from __future__ import annotations

OPS = ()
