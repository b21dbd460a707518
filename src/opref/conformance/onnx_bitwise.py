"""ONNX equivalents: bitwise ops."""
from __future__ import annotations

EXPORTS = {}
