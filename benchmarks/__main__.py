"""python -m benchmarks [all|models|ops|overhead|infer|scan] [--quick] [--threads N] [--models a,b] [--ops a,b] [--repeat N] [--json OUT]

Every runtime gets the same thread count: OpenVINO's INFERENCE_NUM_THREADS, onnxruntime's
intra_op_num_threads, and NumPy's BLAS through OPENBLAS/OMP/MKL_NUM_THREADS, set here before
numpy is first imported (this module imports nothing heavy before that)."""
from __future__ import annotations

import argparse
import os
import sys
import time

THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def parse(argv):
    p = argparse.ArgumentParser(prog="python -m benchmarks", allow_abbrev=False,
                                description="opref against OpenVINO, onnxruntime and onnx.reference: whole models, "
                                            "single ops, executor overhead, whole-model shape inference.")
    p.add_argument("section", nargs="?", default="all", choices=("all", "models", "ops", "overhead", "infer", "scan"),
                   help="what to run (default: all but scan, the sweep of every op version for slow kernels)")
    p.add_argument("--threads", type=int, default=2, help="threads for every runtime (default 2)")
    p.add_argument("--quick", action="store_true", help="fewer repeats and models (about 2 minutes)")
    p.add_argument("--models", help="comma-separated model names (default: all; with --quick a few)")
    p.add_argument("--ops", help="comma-separated parts of op labels: run the op cases whose label contains one "
                                 "(case-insensitive; default: all)")
    p.add_argument("--repeat", type=int, help="timed runs per measurement, after one warm-up (default 5, quick 3)")
    p.add_argument("--reference-limit", type=float, default=30.0, metavar="S",
                   help="skip onnx.reference where one run takes more than S seconds (default 30, quick 10)")
    p.add_argument("--json", metavar="OUT.json", help="also write the results as JSON")
    args = p.parse_args(argv)
    if args.threads < 1 or (args.repeat is not None and args.repeat < 1):
        p.error("--threads and --repeat must be at least 1")
    if args.json and not os.path.isdir(os.path.dirname(os.path.abspath(args.json))):
        p.error(f"--json: no directory for {args.json}")
    return p, args


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser, args = parse(argv)
    for var in THREAD_VARIABLES:
        os.environ[var] = str(args.threads)
    if "numpy" in sys.modules:      # too late for the BLAS to see the limit: start again
        os.execv(sys.executable, [sys.executable, "-m", "benchmarks", *argv])

    import json

    from . import infer_bench, model_bench, op_bench, overhead, scan
    from .common import jsonable
    from .models import MODELS

    repeat = args.repeat or (3 if args.quick else 5)
    ref_limit = 10.0 if args.quick and args.reference_limit == 30.0 else args.reference_limit
    names = args.models.split(",") if args.models else list(model_bench.QUICK if args.quick else model_bench.ALL)
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        parser.error(f"--models: unknown {', '.join(unknown)} (known: {', '.join(MODELS)})")

    import numpy as np
    import onnxruntime
    import openvino as ov
    config = {"threads": args.threads, "repeat": repeat, "quick": args.quick, "numpy": np.__version__,
              "openvino": ov.__version__, "onnxruntime": onnxruntime.__version__, "cpus": os.cpu_count()}
    print(f"opref benchmarks: {args.threads} thread(s) per runtime, median of {repeat} after a warm-up; "
          f"numpy {np.__version__}, OpenVINO {ov.__version__.split('-')[0]}, onnxruntime {onnxruntime.__version__}, "
          f"{os.cpu_count()} CPUs")
    load = os.getloadavg()[0]
    config["load_average"] = load
    if load > (os.cpu_count() or 1):
        print(f"warning: the machine is busy (load average {load:.1f} on {os.cpu_count()} CPUs): threads are "
              f"oversubscribed and multi-threaded BLAS calls (Convolution, MatMul) can slow down several times; "
              f"compare within one run, or use --threads 1")
    results = {"config": config}
    start = time.perf_counter()
    if args.section in ("all", "models"):
        results["models"] = model_bench.run(names, args.threads, repeat, ref_limit)
        print("\n== Models ==\n" + model_bench.render(results["models"], args.threads), flush=True)
    if args.section in ("all", "ops"):
        results["ops"] = op_bench.run(args.threads, repeat, args.ops.split(",") if args.ops else None)
        print("\n== Ops ==\n" + op_bench.render(results["ops"], args.threads), flush=True)
    if args.section in ("all", "overhead"):
        results["overhead"] = overhead.run(repeat)
        print("\n== Executor overhead ==\n" + overhead.render(results["overhead"]), flush=True)
    if args.section in ("all", "infer"):
        results["infer"] = infer_bench.run(repeat)
        print("\n== Shape inference ==\n" + infer_bench.render(results["infer"]), flush=True)
    if args.section == "scan":
        results["scan"] = scan.run(repeat, args.ops.split(",") if args.ops else None)
        print("\n== Scan ==\n" + scan.render(results["scan"], 30 if args.quick else None), flush=True)
    results["seconds"] = time.perf_counter() - start
    print(f"\n({results['seconds']:.0f} s)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(jsonable(results), f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
