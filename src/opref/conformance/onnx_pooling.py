"""ONNX equivalents: pooling ops."""
from __future__ import annotations

EXPORTS = {}
