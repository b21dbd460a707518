"""ONNX equivalents: quantization ops."""
from __future__ import annotations

EXPORTS = {}
