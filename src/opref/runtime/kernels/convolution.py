"""Convolution kernels (filled in by the convolution work)."""
KERNELS = {}
