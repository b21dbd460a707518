"""ONNX equivalents: matrix ops."""
from __future__ import annotations

EXPORTS = {}
