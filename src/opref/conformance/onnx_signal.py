"""ONNX equivalents: signal ops."""
from __future__ import annotations

EXPORTS = {}
