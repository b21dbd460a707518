"""ONNX equivalents: condition and selection ops."""
from __future__ import annotations

EXPORTS = {}
