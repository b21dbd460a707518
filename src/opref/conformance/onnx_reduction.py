"""ONNX equivalents: reduction ops."""
from __future__ import annotations

EXPORTS = {}
