"""ONNX equivalents: activation functions."""
from __future__ import annotations

EXPORTS = {}
