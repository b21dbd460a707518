"""ONNX equivalents: type conversion and string ops."""
from __future__ import annotations

EXPORTS = {}
