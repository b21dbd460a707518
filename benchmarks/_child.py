"""Measurements that need a fresh process, run by the model benchmark as
`python -m benchmarks._child load-memory MODEL.xml`,
`python -m benchmarks._child run-memory MODEL.xml FEEDS.npz` or
`python -m benchmarks._child reference MODEL.onnx FEEDS.npz REPEAT LIMIT_S`; each prints one JSON line.
The parent's environment (BLAS thread limits) is inherited."""
from __future__ import annotations

import json
import resource
import sys
import time


def _status() -> dict:
    """VmRSS, VmHWM, RssAnon, RssFile of this process, in bytes."""
    out = {}
    with open("/proc/self/status") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
                out[key] = int(rest.split()[0]) * 1024
    return out


def _reset_peak() -> bool:
    """Resets VmHWM (the peak RSS) to the current RSS (Linux >= 4.0)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def load_memory(xml: str) -> dict:
    """Peak RSS growth during opref.load (the RSS counts the pages of the memory-mapped .bin that load
    touches, and every copy it makes), what stays resident after it (anonymous vs file-backed), and
    the tracemalloc peak of a second load (heap allocations only: NumPy reports its buffers there;
    mapping the .bin is not an allocation)."""
    import gc
    import tracemalloc

    import numpy  # noqa: F401 (imported before the baseline, like opref: its memory is not load's)
    import opref
    before = _status()
    if _reset_peak():
        method, base = "VmHWM reset via /proc/self/clear_refs, minus VmRSS before", before["VmRSS"]
    else:
        method, base = "ru_maxrss after load minus ru_maxrss after imports", \
            resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    model = opref.load(xml)
    after = _status()
    peak = after["VmHWM"] if method.startswith("VmHWM") else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    del model
    gc.collect()
    tracemalloc.start()
    opref.load(xml)
    heap_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"rss_peak_delta": peak - base, "anon_delta": after["RssAnon"] - before["RssAnon"],
            "file_delta": after["RssFile"] - before["RssFile"], "heap_peak": heap_peak, "method": method}


def run_memory(xml: str, feeds_file: str) -> dict:
    """Peak memory of Model.run, two ways, each around one run with the model loaded and the feeds made:
    - heap_peak: tracemalloc's peak during the third run (warm: constants folded, the run plan prepared)
      minus what was traced before it. NumPy reports every array buffer it allocates to tracemalloc, so
      this is the most bytes of intermediates and outputs (and Python objects) alive at once in a run,
      whatever the allocator keeps cached between runs. That run is the first through the plan: it allocates
      the buffers the plan keeps between runs, so they are counted. Not counted: BLAS's own workspace
      (OpenBLAS allocates its buffers once, outside the Python allocators) and the weights (mapped by load).
    - kept_bytes: of those, the buffers the plan keeps between runs (runtime/arena.py), after the run.
    - rss_peak_delta: the peak RSS growth of the first run (VmHWM reset via /proc/self/clear_refs just
      before it, minus VmRSS then): what the OS saw, including first-run caches (folded constants, plans),
      BLAS buffers and the pages of the mapped weights the run touches. A later run can show no growth
      at all when the allocator reuses pages the first run freed, so it is measured cold; page-granular.
    The run's time under tracemalloc is not reported (tracing slows allocation)."""
    import gc
    import tracemalloc

    import numpy as np
    import opref
    model = opref.load(xml)
    with np.load(feeds_file) as data:
        feeds = {k: data[k] for k in data.files}
    gc.collect()
    before = _status()
    rss = None
    if _reset_peak():
        model.run(feeds)
        rss = _status()["VmHWM"] - before["VmRSS"]
    else:
        model.run(feeds)
    model.run(feeds)
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    outputs = model.run(feeds)
    heap_peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    output_bytes = sum(np.asarray(v).nbytes for v in outputs.values())
    kept = sum(b.nbytes for plan in model._executor.plans.values() for arena in getattr(plan, "arenas", ()) for b in arena)
    return {"heap_peak": heap_peak, "rss_peak_delta": rss, "output_bytes": output_bytes,
            "feed_bytes": sum(v.nbytes for v in feeds.values()), "kept_bytes": kept}


def reference(onnx_file: str, feeds_file: str, repeat: int, limit: float) -> dict:
    """onnx.reference.ReferenceEvaluator: one warm-up run; if it took more than `limit` seconds, no
    more; else up to `repeat` timed runs (at least one) within about `limit` seconds, warm-up included."""
    import statistics

    import numpy as np
    from onnx.reference import ReferenceEvaluator
    evaluator = ReferenceEvaluator(onnx_file)
    feeds = dict(np.load(feeds_file))
    start = time.perf_counter()
    evaluator.run(None, feeds)
    first = time.perf_counter() - start
    if first > limit:
        return {"first": first, "median": None, "runs": []}
    runs = []
    for _ in range(max(1, min(repeat, int((limit - first) / first)))):
        start = time.perf_counter()
        evaluator.run(None, feeds)
        runs.append(time.perf_counter() - start)
    return {"first": first, "median": statistics.median(runs), "runs": runs}


if __name__ == "__main__":
    verb, *args = sys.argv[1:]
    if verb == "load-memory":
        result = load_memory(args[0])
    elif verb == "run-memory":
        result = run_memory(args[0], args[1])
    else:
        result = reference(args[0], args[1], int(args[2]), float(args[3]))
    print(json.dumps(result))
