"""ONNX equivalents: sort and search ops."""
from __future__ import annotations

EXPORTS = {}
