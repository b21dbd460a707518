"""ONNX equivalents of the convolution ops (filled in with the convolution work)."""
EXPORTS = {}
