"""`opref bench`: latency and throughput of one model on opref, in the manner of OpenVINO's benchmark_app.

Inferences run one after another on the same inputs (benchmark_app's synchronous latency mode): a few
warm-up runs first (not counted), then timed runs until both --iterations and --time are reached.
Throughput is the timed runs' count over their wall time.

BLAS threads (NumPy's matrix products, and so opref's Convolution and MatMul kernels): OpenBLAS reads its
thread count once, when NumPy loads it, and opref has loaded NumPy before a command runs. So `--threads T`
limits the running pools through threadpoolctl when it is installed; without it, the bench runs again in
a fresh Python process whose OPENBLAS/OMP/MKL_NUM_THREADS are T before NumPy starts."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

import numpy as np

THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
FRESH_MARK = "OPREF_BENCH_FRESH_PROCESS"      # set in the fresh process that applies THREAD_VARIABLES
DEFAULT_ITERATIONS = 10                        # when neither --iterations nor --time is given


# --- timing -----------------------------------------------------------------------------------------
def measure(fn, *, iterations: int | None, warm_up: int, seconds: float | None,
            progress=None) -> tuple[list[float], float]:
    """Calls fn() warm_up times, then times calls until `iterations` calls and `seconds` seconds are both
    reached (a limit that is None does not hold the loop; both None: DEFAULT_ITERATIONS).
    Returns (the latency of each timed call in seconds, the timed loop's wall time in seconds)."""
    if iterations is None and seconds is None:
        iterations = DEFAULT_ITERATIONS
    say = progress or (lambda text: None)
    for i in range(warm_up):
        say(f"warm-up {i + 1}/{warm_up}")
        fn()
    latencies: list[float] = []
    start = said = time.perf_counter()
    while True:
        elapsed = time.perf_counter() - start
        if ((iterations is None or len(latencies) >= iterations) and (seconds is None or elapsed >= seconds)):
            break
        if progress and (not latencies or start + elapsed - said >= 0.2):   # a fast model: a few lines a second
            said = start + elapsed
            goal = [f"{len(latencies)}/{iterations}" if iterations is not None else f"{len(latencies)}",
                    f"{elapsed:.1f}/{seconds:g} s" if seconds is not None else ""]
            say("iteration " + " ".join(g for g in goal if g))
        t = time.perf_counter()
        fn()
        latencies.append(time.perf_counter() - t)
    return latencies, time.perf_counter() - start


def summary(latencies: list[float], wall: float) -> dict:
    """benchmark_app's figures: count, duration, latency min/median/mean/p90/max (ms), throughput (1/s)."""
    ms = np.asarray(latencies, dtype=np.float64) * 1e3
    return {"count": int(ms.size), "duration_ms": wall * 1e3,
            "latency_ms": {"min": float(ms.min()), "median": float(np.median(ms)), "mean": float(ms.mean()),
                           "p90": float(np.percentile(ms, 90)), "max": float(ms.max())},
            "throughput_per_s": ms.size / wall if wall > 0 else float("inf")}


# --- BLAS threads ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Threads:
    """How the bench's BLAS thread count is set: `how` is "threadpoolctl", "environment" (the thread
    variables were T when NumPy started: in the fresh process run_fresh starts, or set by the user),
    "default" (no --threads) or "respawn" (this process must run the bench in a fresh one); `detail` says
    it in words."""
    count: int | None
    how: str
    detail: str

    def doc(self) -> dict:
        return {"count": self.count, "how": self.how, "detail": self.detail}


def _threadpoolctl():
    try:
        import threadpoolctl
    except ImportError:
        return None
    return threadpoolctl


def _variables() -> str:
    found = [f"{v}={os.environ[v]}" for v in THREAD_VARIABLES if v in os.environ]
    return ", ".join(found)


def threads_plan(threads: int | None) -> Threads:
    """How this process will honour --threads (or reports the default when it is None)."""
    tpc = _threadpoolctl()
    if threads is None:
        if tpc is not None:
            counts = sorted({p["num_threads"] for p in tpc.threadpool_info() if p.get("user_api") == "blas"})
            if counts:
                return Threads(None, "default", f"NumPy's BLAS default: {'/'.join(map(str, counts))} threads, "
                                                f"as threadpoolctl reports")
        found = _variables()
        return Threads(None, "default", f"NumPy's BLAS default, from {found}" if found else
                       f"NumPy's BLAS default; no thread variable is set, so OpenBLAS takes one per CPU: "
                       f"{os.cpu_count()} here")
    names = ", ".join(THREAD_VARIABLES)
    preset = all(os.environ.get(v) == str(threads) for v in THREAD_VARIABLES)
    if preset and os.environ.get(FRESH_MARK) == "1":       # run_fresh started this process for that
        return Threads(threads, "environment", f"{names} set before NumPy started, in a fresh process "
                                               f"(threadpoolctl is not installed)")
    if tpc is not None:
        return Threads(threads, "threadpoolctl", "BLAS/OpenMP pools limited by threadpoolctl for the run")
    if preset:
        return Threads(threads, "environment", f"{names} already {threads} in the environment")
    return Threads(threads, "respawn", "")


def limit(plan: Threads):
    """A context manager that holds the plan's thread limit while it is open."""
    if plan.how == "threadpoolctl":
        return _threadpoolctl().threadpool_limits(limits=plan.count)
    return nullcontext()


def run_fresh(argv: list[str], threads: int) -> int:
    """Runs `opref <argv>` in a fresh Python process with the thread variables at `threads`: its stdout is
    relayed through sys.stdout; its stderr goes straight to a terminal (progress) or is relayed too."""
    env = dict(os.environ, **{v: str(threads) for v in THREAD_VARIABLES}, **{FRESH_MARK: "1"})
    src = str(Path(__file__).resolve().parent.parent)       # the same opref in the child as here
    env["PYTHONPATH"] = os.pathsep.join([src, *filter(None, [os.environ.get("PYTHONPATH")])])
    tty = sys.stderr.isatty()
    p = subprocess.run([sys.executable, "-m", "opref.cli", *argv], env=env, stdout=subprocess.PIPE,
                       stderr=None if tty else subprocess.PIPE, text=True)
    sys.stdout.write(p.stdout)
    if not tty and p.stderr:
        sys.stderr.write(p.stderr)
    return p.returncode


# --- the command's text ------------------------------------------------------------------------------
def argv(args) -> list[str]:
    """The command line of a parsed `opref bench` again, for the fresh process that applies --threads."""
    out = ["bench", args.model]
    for flag, v in (("--weights", args.weights), ("--iterations", args.iterations), ("--warm-up", args.warm_up),
                    ("--time", args.time), ("--threads", args.threads), ("--load-inputs", args.load_inputs),
                    ("--seed", args.seed)):
        if v is not None:
            out += [flag, str(v)]
    for flag, items in (("--input", args.input), ("--shape", args.shape), ("--val-range", args.val_range)):
        for item in items or []:
            out += [flag, item]
    return out + (["--json"] if args.json else [])


def text(doc: dict) -> str:
    """The bench's result as benchmark_app prints it (doc: what `--json` prints)."""
    lat, threads = doc["latency_ms"], doc["threads"]
    lines = [f"Model:       {doc['model']} ({doc['layers']} layers, opref's NumPy kernels)",
             "Inputs:      " + ", ".join(f"{k} {d['element_type']}{d['shape']} {d['source']}"
                                         for k, d in doc["inputs"].items()),
             f"Threads:     {threads['count'] if threads['count'] is not None else 'not set'}: {threads['detail']}",
             f"Count:       {doc['iterations']} iterations after {doc['warm_up']} warm-up",
             f"Duration:    {doc['duration_ms']:.2f} ms",
             "Latency:"]
    lines += [f"    {label:9}{lat[key]:.2f} ms" for label, key in
              (("Min:", "min"), ("Median:", "median"), ("P90:", "p90"), ("Max:", "max"), ("Average:", "mean"))]
    lines.append(f"Throughput:  {doc['throughput_per_s']:.2f} inferences/s")
    return "\n".join(lines)
