"""Cases for Identity-16 (every element type, scalars, empty tensors). Parameter, Constant and Result
are exercised through models (tests/test_models.py, tests/test_reader.py)."""
from __future__ import annotations

import itertools

from ...types import ALL
from . import Case, ShapeCase, info
from ._gen import array, loosen, rng_for

N = 110


def cases():
    rng = rng_for("identity")
    types = itertools.cycle(ALL)
    out = []
    for i in range(N):
        et = next(types)
        shape = [int(rng.integers(0, 4)) if i % 17 == 0 else int(rng.integers(1, 5)) for _ in range(i % 5)]
        route = {}
        if et in ("string", "nf4"):   # values travel as i32 codes (index among the distinct values)
            why = "returns string tensors empty" if et == "string" else "crashes (segfault) on an nf4 Identity"
            route = dict(openvino=f"CPU plugin {why}; moved as i32 codes", oracle_cast={0: "codes"})
        out.append(Case("Identity-16", f"{i}_{et}_{'x'.join(map(str, shape)) or 'scalar'}", (array(rng, et, shape),),
                        exact=True, **route))
    return out


def shape_cases():
    rng = rng_for("identity", 1)
    out = []
    for i, c in enumerate(cases()):
        x = c.inputs[0]
        shape = loosen(rng, x.shape) if i % 7 else "..."
        out.append(ShapeCase(c.op, f"{i}_{shape}", (info(str(c.id.split('_')[1]), shape),)))
    return out
