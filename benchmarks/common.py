"""Timing, runtime set-up and table printing shared by the benchmark sections."""
from __future__ import annotations

import math
import statistics
import sys
import time
from dataclasses import dataclass, field

import numpy as np

OV_PRECISION = {"INFERENCE_PRECISION_HINT": "f32"}    # the CPU plugin computes in bf16 by default where it can


@dataclass
class Timing:
    median: float                       # seconds
    runs: list[float] = field(default_factory=list)

    @property
    def ms(self) -> float:
        return self.median * 1e3


def measure(fn, repeat: int, budget: float = 10.0, min_time: float = 0.0, max_runs: int = 200) -> tuple[Timing, object]:
    """Median of `repeat` timed calls after one warm-up call (whose result is returned): fewer (at
    least one) when they would take more than `budget` seconds, more (up to max_runs) until they
    have taken min_time seconds - fast calls are noisy."""
    start = time.perf_counter()
    result = fn()
    first = time.perf_counter() - start
    count = max(1, min(repeat, int(budget / max(first, 1e-9))))
    count = max(count, min(max_runs, int(min_time / max(first, 1e-9))))
    runs = []
    for _ in range(count):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return Timing(statistics.median(runs), runs), result


def openvino_core():
    import openvino as ov
    return ov.Core()


def openvino_config(threads: int) -> dict:
    return {**OV_PRECISION, "INFERENCE_NUM_THREADS": threads, "NUM_STREAMS": 1, "PERFORMANCE_HINT": "LATENCY"}


def onnxruntime_session(model, threads: int):
    """model: a path or serialized bytes."""
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    return ort.InferenceSession(str(model) if not isinstance(model, bytes) else model, options,
                                providers=["CPUExecutionProvider"])


def max_abs_diff(ours, theirs) -> float:
    diffs = [float(np.max(np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64)), initial=0.0))
             for a, b in zip(ours, theirs)]
    return max(diffs, default=0.0)


def progress(message: str) -> None:
    """Progress on stderr, only when it is a terminal."""
    if sys.stderr.isatty():
        print(f"  {message}", file=sys.stderr, flush=True)


# --- tables --------------------------------------------------------------------------------------------
DASH = "—"


def fmt(value, spec: str = ".3g") -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return DASH
    if isinstance(value, str):
        return value
    return format(value, spec)


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    line = lambda cells: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))
    return "\n".join([line(header), line(["-" * w for w in widths]), *map(line, rows)])


def jsonable(value):
    """Strict JSON: non-finite numbers as strings."""
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (float, np.floating)):
        return float(value) if math.isfinite(value) else str(float(value))
    if isinstance(value, np.integer):
        return int(value)
    return value
