"""Coverage-guided fuzzing campaigns (atheris), issue 17: `python -m fuzz TARGET [--runs N] [--seed S]`.

Targets:
- `reader`: IR XML bytes (seeded with converter-written models of the model catalogue and one-op models
  the writer makes) -> `read_graph`, whole-graph shape inference and, when that succeeds and the model is
  small, a run on seeded inputs;
- `run_op`: bytes -> a case of the case tables mutated (an input's values, dtype or rank, an attribute)
  -> `run_op` and `infer_op`.
Any exception other than an `OprefError` that is not an `InternalError` is a finding: atheris stops and
writes the crashing input (crash-*) to the current folder. The campaign prints how many inputs it ran.
Not a test: a long command (CI runs the bounded hypothesis twins in tests/test_reliability.py).
"""
from __future__ import annotations

import argparse
import os
import sys


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m fuzz")
    p.add_argument("target", choices=("reader", "run_op"))
    p.add_argument("--runs", type=int, default=100_000, help="inputs to run (default 100000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--corpus", help="corpus folder (default fuzz/corpus_<target>, git-ignored, grows as it runs)")
    args = p.parse_args(argv)
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
    fn = getattr(targets, f"fuzz_{args.target}")
    counter = {"n": 0}

    def one(data: bytes):
        counter["n"] += 1
        fn(data)

    import atexit
    atexit.register(lambda: print(f"fuzz {args.target}: {counter['n']} inputs run", file=sys.stderr))
    atheris.Setup([sys.argv[0], corpus, f"-runs={args.runs}", f"-seed={args.seed}", "-rss_limit_mb=4096",
                   "-timeout=60", "-max_len=65536"], one)
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
