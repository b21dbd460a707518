"""ONNX equivalents: comparison ops."""
from __future__ import annotations

EXPORTS = {}
