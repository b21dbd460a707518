"""ONNX equivalents: attention ops."""
from __future__ import annotations

EXPORTS = {}
