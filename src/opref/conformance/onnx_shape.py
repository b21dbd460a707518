"""ONNX equivalents: shape ops."""
from __future__ import annotations

EXPORTS = {}
