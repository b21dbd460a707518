"""ONNX equivalents: normalization ops."""
from __future__ import annotations

EXPORTS = {}
