"""Sort and search ops (schemas and shape rules)."""
from __future__ import annotations

OPS = ()
