"""Cases for Reshape-1: -1 and 0 (special_zero) patterns, every element type, empty tensors."""
from __future__ import annotations

import itertools

import numpy as np

from ...types import ALL, element_type_of
from . import Case, ShapeCase, info
from ._gen import array, ints_array, loosen

N = 200


def cases():
    rng = np.random.default_rng(11)
    types = itertools.cycle(ALL)
    out = []
    for i in range(N):
        shape = [int(rng.integers(1, 4)) for _ in range(int(rng.integers(0, 5)))]
        total = int(np.prod(shape))
        # a random factorisation of the element count, then some dims replaced by -1 or 0
        target = []
        rest = total
        for _ in range(int(rng.integers(0, 4))):
            f = int(rng.choice([d for d in range(1, rest + 1) if rest % d == 0]))
            target.append(f)
            rest //= f
        target.append(rest)
        special_zero = bool(i % 2)
        if rng.random() < 0.5:
            target[int(rng.integers(0, len(target)))] = -1
        if special_zero:
            for j in range(min(len(target), len(shape))):
                if target[j] == shape[j] and rng.random() < 0.5:
                    target[j] = 0
        et, idx = next(types), ("i64", "i32", "u8", "i8")[i % 4]
        if idx.startswith("u") and -1 in target:
            idx = "i32"
        if target.count(0) and not special_zero:
            target = [t for t in target if t != 0] or [1]
        out.append(Case("Reshape-1", f"{i}_{et}_{'x'.join(map(str, shape)) or 'scalar'}_to_{target}_{special_zero}",
                        (array(rng, et, shape), ints_array(target, idx)), {"special_zero": special_zero}))
    f = np.zeros((2, 3), np.float32)
    out += [Case("Reshape-1", "err_two_minus_one", (f, np.array([-1, -1])), {"special_zero": False},
                 error="more than one -1"),
            Case("Reshape-1", "err_count", (f, np.array([4, 2])), {"special_zero": False}, error="6 elements"),
            Case("Reshape-1", "err_not_multiple", (f, np.array([4, -1])), {"special_zero": False},
                 error="not a multiple of 4"),
            Case("Reshape-1", "err_below_minus_one", (f, np.array([-2, 3])), {"special_zero": False},
                 error="below -1"),
            Case("Reshape-1", "err_missing_attr", (f, np.array([6])), {}, error="missing required attribute")]
    return out


def shape_cases():
    rng = np.random.default_rng(12)
    out = []
    for i, c in enumerate(c for c in cases() if c.error is None):
        x, target = c.inputs
        r = rng.random()
        shape = x.shape if r < 0.4 else loosen(rng, x.shape)
        known = rng.random() < 0.85
        out.append(ShapeCase(c.op, f"{i}_{shape}_{c.id}", (info(element_type_of(x), shape),
                   info(element_type_of(target), target.shape, target if known else None)), c.attrs))
    return out

