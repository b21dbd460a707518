"""Convolution ops (filled in by the convolution work)."""
OPS = ()
