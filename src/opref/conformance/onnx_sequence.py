"""ONNX equivalents: recurrent sequence ops."""
from __future__ import annotations

EXPORTS = {}
