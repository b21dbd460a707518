"""ONNX equivalents: logical ops."""
from __future__ import annotations

EXPORTS = {}
