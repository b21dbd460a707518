"""Coverage-guided fuzzing campaigns (atheris), issue 17: `python -m fuzz TARGET [--runs N] [--seed S]`.

Targets:
- `reader`: IR XML bytes (seeded with converter-written models of the model catalogue and one-op models
  the writer makes) -> `read_graph`, whole-graph shape inference and, when that succeeds and the model is
  small, a run on seeded inputs;
- `run_op`: bytes -> a case of the case tables mutated (an input's values, dtype or rank, an attribute)
  -> `run_op` and `infer_op`;
- `attrs`: bytes -> a schema (each equally likely) and one of its cases as a one-op IR whose op layer's
  attribute text is mutated (raw text, the old text cut or repeated, enum spellings, edge numbers, lists,
  an attribute removed or an unknown one added) -> load (parsing, binding, whole-graph inference) and a run;
- `infer`: bytes -> a converter-written model of the catalogue or a case's one-op model with its inputs
  re-declared as random partial shapes (dynamic rank, dims, intervals, 0 to 2^62) ->
  `Model.infer_shapes(strict=True)` or `(strict=False)`.
The bytes are decoded by `targets.Draw`, which the bounded hypothesis twins in tests/test_reliability.py
share. Any exception other than an `OprefError` that is not an `InternalError` is a finding, and so is an
input that takes longer than the target's timeout (a hang): atheris stops and writes the input (crash-* or
timeout-*) to the current folder. The campaign prints how many inputs it ran (stat::number_of_executed_units) and, when a finding
stops it, the count so far and the slowest input's time.
Not a test: a long command (CI runs the bounded hypothesis twins in tests/test_reliability.py).
"""
from __future__ import annotations

import argparse
import os
import sys
import time


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m fuzz")
    p.add_argument("target", choices=("reader", "run_op", "attrs", "infer"))
    p.add_argument("--runs", type=int, default=100_000, help="inputs to run (default 100000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--corpus", help="corpus folder (default fuzz/corpus_<target>, git-ignored, grows as it runs)")
    p.add_argument("--address-space", type=float, default=6.0,
                   help="GiB of address space the campaign may use (Linux RLIMIT_AS; default 6, 0: no cap): an "
                        "allocation past it fails at once with a MemoryError, which the targets classify, instead "
                        "of growing until libFuzzer's 4 GiB RSS limit stops the campaign")
    args = p.parse_args(argv)
    if args.address_space > 0:
        try:
            import resource
            _, hard = resource.getrlimit(resource.RLIMIT_AS)
            cap = int(args.address_space * (1 << 30))
            resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))
        except (ImportError, ValueError, OSError):     # not Linux: libFuzzer's RSS limit alone
            pass
    os.environ.setdefault("OPREF_MAX_TENSOR_BYTES", str(64 << 20))    # findings are about logic, not size
    os.environ.setdefault("OPREF_MAX_LOOP_ITERATIONS", "1000")
    import atheris
    with atheris.instrument_imports():
        import opref  # noqa: F401
    from . import targets
    corpus = args.corpus or os.path.join(os.path.dirname(__file__), f"corpus_{args.target}")
    os.makedirs(corpus, exist_ok=True)
    if not os.listdir(corpus):
        targets.seed_corpus(args.target, corpus)
    targets.warm(args.target)
    fn = getattr(targets, f"fuzz_{args.target}")
    counter = {"n": 0, "slowest": 0.0}

    def report():
        print(f"fuzz {args.target}: {counter['n']} inputs run, slowest {counter['slowest']:.3f} s", file=sys.stderr,
              flush=True)

    def one(data: bytes):
        counter["n"] += 1
        t = time.perf_counter()
        try:
            fn(data)
        except BaseException:
            report()                                   # a finding ends the campaign: the count so far
            raise
        counter["slowest"] = max(counter["slowest"], time.perf_counter() - t)
        if counter["n"] == args.runs:                  # the last input: libFuzzer exits without atexit
            report()

    # libFuzzer ends the process without Python's atexit: the report runs at the last of --runs inputs
    # (libFuzzer counts the corpus's inputs in them) and where a finding stops the campaign; the final
    # stats' stat::number_of_executed_units is the same count
    # a hang: the structured targets' inputs take milliseconds; the reader and run_op may run a whole model
    timeout = {"attrs": 10, "infer": 10}.get(args.target, 60)
    max_len = {"attrs": 512, "infer": 512}.get(args.target, 65536)
    atheris.Setup([sys.argv[0], corpus, f"-runs={args.runs}", f"-seed={args.seed}", "-rss_limit_mb=4096",
                   f"-timeout={timeout}", f"-max_len={max_len}", "-print_final_stats=1"], one)
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
