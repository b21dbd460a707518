"""ONNX equivalents: embedding ops."""
from __future__ import annotations

EXPORTS = {}
