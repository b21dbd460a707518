"""Generation kernels: Range-1/4 (the arithmetic lives with the shape rule, opset/generation.py)."""
from __future__ import annotations

from ...opset.generation import range_values
from ...types import element_type_of


def range_1(start, stop, step):
    return range_values(start, stop, step, element_type_of(start))


def range_4(start, stop, step, *, output_type):
    return range_values(start, stop, step, output_type)


KERNELS = {"Range-1": range_1, "Range-4": range_4}
