"""Cases: arithmetic ops: unary math and binary elementwise arithmetic."""
from __future__ import annotations


def cases():
    return []


def shape_cases():
    return []
