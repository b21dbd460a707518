"""ONNX equivalents: detection ops."""
from __future__ import annotations

EXPORTS = {}
