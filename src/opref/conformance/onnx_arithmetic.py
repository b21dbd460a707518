"""ONNX equivalents: arithmetic ops: unary math and binary elementwise arithmetic."""
from __future__ import annotations

EXPORTS = {}
