"""Cases for the signal ops."""
from __future__ import annotations


def cases():
    return []


def shape_cases():
    return []
