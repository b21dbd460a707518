"""ONNX equivalents: image ops."""
from __future__ import annotations

EXPORTS = {}
