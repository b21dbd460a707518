"""ONNX equivalents: generation ops."""
from __future__ import annotations

EXPORTS = {}
