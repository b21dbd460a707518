"""Cases for the detection ops."""
from __future__ import annotations


def cases():
    return []


def shape_cases():
    return []
