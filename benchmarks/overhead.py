"""The executor's cost per node (a long chain of cheap ops) and run_op's cost per call."""
from __future__ import annotations

import numpy as np

from .common import fmt, measure, progress, table
from .models import model_path


def run(repeat: int) -> dict:
    import opref
    progress("executor overhead")
    model = opref.load(model_path("chain1000"))
    ops = sum(1 for n in model.graph.nodes if n.schema.name in ("Relu", "Add"))
    x = np.linspace(-1, 1, 4, dtype=np.float32)
    timing, _ = measure(lambda: model.run({"x": x}), max(repeat, 5))
    numpy_timing, _ = measure(lambda: [np.maximum(x, 0) for _ in range(ops)], max(repeat, 5))
    call, _ = measure(lambda: [opref.run_op("Relu-1", [x]) for _ in range(100)], max(repeat, 5))
    return {"chain_ops": ops, "graph_nodes": len(model.graph.nodes), "run_ms": timing.ms,
            "us_per_node": timing.median / ops * 1e6, "numpy_us_per_op": numpy_timing.median / ops * 1e6,
            "run_op_us_per_call": call.median / 100 * 1e6}


def render(r: dict) -> str:
    header = ["measure", "value"]
    body = [[f"opref.load(chain).run: {r['chain_ops']} Relu/Add on f32[4] ({r['graph_nodes']} graph nodes), ms",
             fmt(r["run_ms"], ".2f")],
            ["executor overhead, µs per node", fmt(r["us_per_node"], ".1f")],
            ["np.maximum on f32[4], µs per call (the floor)", fmt(r["numpy_us_per_op"], ".2f")],
            ["opref.run_op('Relu-1', f32[4]), µs per call", fmt(r["run_op_us_per_call"], ".1f")]]
    return table(header, body)
