"""The executor's cost per node (a long chain of cheap ops), run_op's cost per call (first call of a
signature and repeated calls) and the cost of loading and running a one-op model, against NumPy's own
per-call floor and OpenVINO's read_model."""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np

from .common import fmt, measure, progress, ratio, table
from .models import model_path


def _kernels_only(x, step):
    """The chain's kernels called directly, in order, as a run plan calls them (a kernel's `.raw`, without its
    own errstate, inside one for the whole run): their own cost."""
    import numpy as np
    from opref.runtime.kernels import KERNELS
    relu, add = (getattr(KERNELS[op], "raw", KERNELS[op]) for op in ("Relu-1", "Add-1"))

    def run(n):
        y = x
        with np.errstate(all="ignore"):
            for i in range(n):
                y = relu(y) if i % 2 == 0 else add(y, step, auto_broadcast="numpy")
        return y
    return run


def _per_call(fn, calls: int, repeat: int) -> float:
    """Median seconds per call of fn over `calls` calls."""
    timing, _ = measure(lambda: [fn() for _ in range(calls)], max(repeat, 5))
    return timing.median / calls


def _one_op_model(folder: Path) -> Path:
    """A Relu on f32[4] written as IR by opref's one-op writer."""
    import opref
    from opref.ir_xml.writer import op_model
    inputs = [opref.TensorInfo("f32", opref.PartialShape([4]))]
    xml, weights = op_model("Relu-1", inputs, outputs=opref.infer_op("Relu-1", inputs))
    path = folder / "relu.xml"
    path.write_bytes(xml)
    path.with_suffix(".bin").write_bytes(weights)
    return path


def run(repeat: int) -> dict:
    import openvino as ov

    import opref
    from opref.runtime import ops as op_module
    clear_call_cache = getattr(op_module, "clear_call_cache", lambda: None)    # (older trees have none)
    progress("executor overhead")
    model = opref.load(model_path("chain1000"))
    ops = sum(1 for n in model.graph.nodes if n.schema.name in ("Relu", "Add"))
    x = np.linspace(-1, 1, 4, dtype=np.float32)
    step = np.full(4, 1e-3, np.float32)
    first = time.perf_counter()
    model.run({"x": x})                         # node by node (a signature's first run)
    first = time.perf_counter() - first
    second = time.perf_counter()
    model.run({"x": x})                         # node by node, preparing the run plan of the signature
    second = time.perf_counter() - second
    timing, _ = measure(lambda: model.run({"x": x}), max(repeat, 5))
    kernels = _kernels_only(x, step)
    kernel_timing, _ = measure(lambda: kernels(ops), max(repeat, 5))
    numpy_timing, _ = measure(lambda: [np.maximum(x, 0) for _ in range(ops)], max(repeat, 5))
    r = {"chain_ops": ops, "graph_nodes": len(model.graph.nodes), "first_run_ms": first * 1e3,
         "second_run_ms": second * 1e3,
         "run_ms": timing.ms, "us_per_node": timing.median / ops * 1e6,
         "kernel_us_per_node": kernel_timing.median / ops * 1e6,
         "numpy_us_per_op": numpy_timing.median / ops * 1e6}
    r["executor_us_per_node"] = r["us_per_node"] - r["kernel_us_per_node"]

    progress("run_op")
    relu = lambda: opref.run_op("Relu-1", [x])                             # noqa: E731
    add = lambda: opref.run_op("Add-1", [x, step], {"auto_broadcast": "numpy"})   # noqa: E731
    r["run_op_us_per_call"] = _per_call(relu, 100, repeat) * 1e6
    r["run_op_add_us_per_call"] = _per_call(add, 100, repeat) * 1e6
    r["run_op_first_us_per_call"] = _per_call(lambda: (clear_call_cache(), relu()), 100, repeat) * 1e6
    r["numpy_relu_us_per_call"] = _per_call(lambda: np.maximum(x, 0), 1000, repeat) * 1e6

    progress("one-op model")
    with tempfile.TemporaryDirectory() as tmp:
        path = _one_op_model(Path(tmp))
        load, tiny = measure(lambda: opref.load(path), max(repeat, 5), min_time=0.2)
        core = ov.Core()
        read, _ = measure(lambda: core.read_model(str(path)), max(repeat, 5), min_time=0.2)
        cold, second = [], []
        for _ in range(max(repeat, 5)):
            m = opref.load(path)
            start = time.perf_counter()
            m.run([x])
            cold.append(time.perf_counter() - start)
            start = time.perf_counter()
            m.run([x])
            second.append(time.perf_counter() - start)
        r["one_op_load_ms"] = load.ms
        r["one_op_read_model_ms"] = read.ms
        r["one_op_first_run_us"] = float(np.median(cold)) * 1e6
        r["one_op_second_run_us"] = float(np.median(second)) * 1e6
        r["one_op_run_us"] = _per_call(lambda: tiny.run([x]), 100, repeat) * 1e6
    return r


def render(r: dict) -> str:
    floor = r["numpy_us_per_op"]
    header = ["measure", "value", "× NumPy floor"]
    x = lambda v: fmt(ratio(v, floor), ".2f")                              # noqa: E731
    body = [[f"opref.load(chain).run: {r['chain_ops']} Relu/Add on f32[4] ({r['graph_nodes']} graph nodes), ms",
             fmt(r["run_ms"], ".2f"), ""],
            ["  its first run, ms", fmt(r["first_run_ms"], ".2f"), ""],
            ["  its second run (prepares the run plan), ms", fmt(r.get("second_run_ms"), ".2f"), ""],
            ["executor overhead, µs per node (run / nodes)", fmt(r["us_per_node"], ".2f"), x(r["us_per_node"])],
            ["  of which the kernels themselves, µs per node", fmt(r["kernel_us_per_node"], ".2f"),
             x(r["kernel_us_per_node"])],
            ["  of which the executor, µs per node", fmt(r["executor_us_per_node"], ".2f"),
             x(r["executor_us_per_node"])],
            ["np.maximum on f32[4], µs per call (the floor)", fmt(floor, ".2f"), "1.00"],
            ["opref.run_op('Relu-1', f32[4]) repeated, µs per call", fmt(r["run_op_us_per_call"], ".1f"),
             x(r["run_op_us_per_call"])],
            ["opref.run_op('Add-1', f32[4] x2) repeated, µs per call", fmt(r["run_op_add_us_per_call"], ".1f"),
             x(r["run_op_add_us_per_call"])],
            ["opref.run_op('Relu-1', f32[4]) first call of its signature, µs",
             fmt(r["run_op_first_us_per_call"], ".1f"), x(r["run_op_first_us_per_call"])],
            ["one-op model (Relu f32[4]): opref.load, ms", fmt(r["one_op_load_ms"], ".2f"), ""],
            ["  OpenVINO core.read_model of the same file, ms", fmt(r["one_op_read_model_ms"], ".2f"), ""],
            ["  Model.run, first call, µs", fmt(r["one_op_first_run_us"], ".1f"), ""],
            ["  Model.run, second call, µs", fmt(r["one_op_second_run_us"], ".1f"), ""],
            ["  Model.run repeated, µs per call", fmt(r["one_op_run_us"], ".1f"), x(r["one_op_run_us"])]]
    return table(header, body)
