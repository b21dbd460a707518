"""A sweep for slow kernels: every op version that runs on generic inputs (one tensor; two of one type; or
a tensor and the axes [-1]), timed by `opref.run_op` on 393,216 elements, in nanoseconds per input element
and against NumPy copying the same bytes. An elementwise kernel costs a few to a few tens of copies; one
costing hundreds (an erf by a 200-term series, a search comparing every value with every element) is a
kernel to look at. Op versions that need attributes, or refuse every generic input, are counted with the
reason, never dropped."""
from __future__ import annotations

import numpy as np

from .common import fmt, measure, progress, table

SHAPE = (4, 128, 768)
FLAG = 100          # copies: a kernel slower than this many copies of its input is listed as one to look at


def _inputs():
    """Candidate inputs per signature, tried in order: floats (also positive ones, for the domains of
    Log/Sqrt/Acosh), integers, booleans."""
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(SHAPE) * 0.5).astype(np.float32)
    y = (rng.standard_normal(SHAPE) * 0.5 + 0.1).astype(np.float32)
    positive = np.abs(x) * 0.9 + 1.05
    i, j = rng.integers(-100, 100, SHAPE).astype(np.int32), rng.integers(1, 100, SHAPE).astype(np.int32)
    b, c = x > 0, y > 0
    axes = np.array([-1], np.int64)
    return {1: [(x,), (positive,), (i,), (b,)], 2: [(x, y), (positive, positive + 1), (i, j), (b, c), (x, axes)]}


def run(repeat: int, only: list[str] | None = None) -> dict:
    import opref
    from opref.errors import OprefError
    candidates = _inputs()
    copy_source = candidates[1][0][0]
    copy_target = np.empty_like(copy_source)
    copy, _ = measure(lambda: np.copyto(copy_target, copy_source), repeat, min_time=0.2)
    rows, skipped = [], []
    for schema in opref.list_schemas():
        name = schema.versioned_name
        if only and not any(o.lower() in name.lower() for o in only):
            continue
        required = sum(1 for p in schema.inputs if not p.optional)
        if any(a.required for a in schema.attributes):
            skipped.append({"op": name, "reason": "needs attributes"})
            continue
        if required not in candidates:
            skipped.append({"op": name, "reason": f"takes {required} inputs"})
            continue
        progress(f"scan: {name}")
        error = None
        for inputs in candidates[required]:
            try:
                timing, _ = measure(lambda: opref.run_op(name, list(inputs)), repeat, budget=5.0)
            except OprefError as e:
                error = error or e
                continue
            elements = inputs[0].size
            rows.append({"op": name, "inputs": ", ".join(f"{a.dtype}{list(a.shape)}" for a in inputs),
                         "ms": timing.ms, "ns_per_element": timing.median * 1e9 / elements,
                         "copies": timing.median / copy.median * copy_source.itemsize / inputs[0].itemsize})
            break
        else:
            skipped.append({"op": name, "reason": f"refuses generic inputs ({type(error).__name__}: "
                                                  f"{str(error).splitlines()[0][:120]})"})
    rows.sort(key=lambda r: -r["ns_per_element"])
    return {"copy_ms": copy.ms, "elements": int(np.prod(SHAPE)), "ops": rows, "skipped": skipped}


def render(result: dict, top: int | None = None) -> str:
    rows = result["ops"] if top is None else result["ops"][:top]
    body = [[r["op"], r["inputs"], fmt(r["ms"], ".2f"), fmt(r["ns_per_element"], ".1f"), fmt(r["copies"], ".0f"),
             "look at it" if r["copies"] > FLAG else ""] for r in rows]
    flagged = sum(1 for r in result["ops"] if r["copies"] > FLAG)
    reasons: dict[str, int] = {}
    for s in result["skipped"]:
        key = s["reason"] if not s["reason"].startswith("refuses") else "refuses generic inputs"
        reasons[key] = reasons.get(key, 0) + 1
    return "\n".join([
        table(["op", "inputs", "opref ms", "ns/element", "copies", ""], body),
        f"Scan: opref.run_op on {result['elements']:,} elements, median after a warm-up; copies: the time of "
        f"np.copyto of the first input's bytes ({result['copy_ms']:.3f} ms for f32) per call.",
        f"{len(result['ops'])} op versions timed ({'the slowest ' + str(top) + ' shown, ' if top else ''}"
        f"{flagged} over {FLAG} copies); not timed: "
        + "; ".join(f"{n} {reason}" for reason, n in sorted(reasons.items())) + "."])
