"""`opref conformance extract`: the unique single-op sub-graphs of real models as conformance cases.

Each model runs once in opref on seeded random inputs (dynamic dims taken as their lower bound, at
least 1); every node's real input values are recorded. A node becomes a case unless one with the same
op version, attributes, input element types and input ranks was already taken (from any of the
models): its inputs are the recorded values, its expected outputs opref's. Nodes with sub-graph
bodies (Loop, If, TensorIterator) are skipped. Same suite format as `generate`, origin "extract".
"""
from __future__ import annotations


from pathlib import Path

import numpy as np

from ..errors import InputError
from ..model import load
from ..runtime.executor import Executor
from ..types import element_type
from .suite import safe_id, write_case, write_manifest

SKIP = ("parameter", "constant", "result")     # roles: no op to extract


def random_array(et: str, shape, rng) -> np.ndarray:
    """Random values of element type `et`: standard normal floats, small integers (non-negative for
    unsigned types), both booleans; what `opref run` and `extract` feed a model that has no inputs given."""
    t = element_type(et)
    if t.name == "boolean":
        return rng.integers(0, 2, shape).astype(bool)
    if t.name == "string":
        return np.full(shape, "opref")
    if t.is_float:
        return rng.standard_normal(shape).astype(np.float32).astype(t.dtype)
    lo, hi = (0, 2) if t.name == "u1" else (0, 16) if t.bits == 4 and not t.is_signed else \
        (0, 8) if not t.is_signed else (-8, 8)
    return rng.integers(lo, hi, shape).astype(t.dtype)


def _key(node, args) -> tuple:
    attrs = tuple(sorted((k, repr(v)) for k, v in node.attrs.items()))
    return (node.schema.versioned_name, attrs,
            tuple((None, None) if a is None else (element_type(a).name, np.ndim(a)) for a in args))


class _Recorder(Executor):
    """An executor that hands every node's inputs to `sink` (top level only: bodies run as usual)."""

    def __init__(self, graph, sink):
        super().__init__(graph)
        self.sink = sink

    def step(self, i, node, args):
        outs = super().step(i, node, args)
        if node.schema.role not in SKIP and not getattr(node, "bodies", None):
            self.sink(node, args)
        return outs


def extract(models, out, *, seed: int = 0, command: str = "") -> dict:
    root = Path(out)
    if root.exists() and any(root.iterdir()) and not (root / "manifest.json").exists():
        raise InputError(f"--out {root}: not empty and not a suite; give a new or empty folder")
    root.mkdir(parents=True, exist_ok=True)
    seen, entries, skipped, ops = set(), [], [], set()
    for path in models:
        model = load(path)
        stem = safe_id(Path(path).stem)
        rng = np.random.default_rng(seed)
        feeds = []
        for port in model.inputs:
            if not port.shape.rank_is_static:
                raise InputError(f"{path}: input {port.name!r} has a dynamic rank; extract needs ranked inputs")
            feeds.append(random_array(port.element_type, [max(d.lo, 1) for d in port.shape], rng))

        def sink(node, args, path=path, stem=stem):
            if any(a is None for a in args):
                return
            key = _key(node, args)
            op = key[0]
            ops.add(op)
            if key in seen:
                return
            seen.add(key)
            tid = f"{stem}-{safe_id(node.name)}"
            try:
                r = write_case(root, op=op, table_id=tid, inputs=[np.asarray(a) for a in args], attrs=node.attrs,
                               mode="static", origin="extract", notes={"model": str(path), "layer": node.name})
            except Exception as e:  # noqa: BLE001 -- keep extracting; the case is listed as skipped
                skipped.append({"id": f"{op}/{tid}", "reason": f"{type(e).__name__}: {e}"})
                return
            if isinstance(r, tuple):
                skipped.append({"id": r[0], "reason": r[1]})
            elif r is not None:
                entries.append(r)

        with np.errstate(all="ignore"):
            _Recorder(model.graph, sink).run(feeds)
    return write_manifest(root, entries, skipped, sorted(ops), command=command, shape_mode="static")



