"""The `opref conformance` command group: generate | extract | run | report."""
from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from pathlib import Path

from ..errors import InputError

WORKFLOW = """\
workflow:
  opref conformance generate --out suite --op Col2Im-15 --op Add-1
  opref conformance run suite --backends opref,openvino,onnxruntime,my_pkg.backend:MyBackend
  opref conformance report suite/results.json --html report.html
"""


def _ops(values):
    out = []
    for v in values or []:
        out += [x.strip() for x in v.split(",") if x.strip()]
    return out


def _check_out(path: str) -> Path:
    p = Path(path)
    parent = p.resolve().parent
    if not parent.is_dir():
        raise InputError(f"--out {path}: the folder {parent} does not exist")
    if p.exists() and not p.is_dir():
        raise InputError(f"--out {path}: exists and is not a folder")
    return p


def cmd_generate(args) -> int:
    from .suite import generate
    out = _check_out(args.out)
    parts = ["opref conformance generate"]
    for op in _ops(args.op):
        parts += ["--op", op]
    for flag, v in (("--opset", args.opset), ("--category", args.category), ("-k", args.keyword)):
        if v is not None:
            parts += [flag, v]
    parts += ["--shape-mode", args.shape_mode] + (["--no-edges"] if args.no_edges else [])
    command = " ".join(shlex.quote(p) for p in parts)       # without --out: the same suite, byte for byte
    t0 = time.perf_counter()
    progress = None
    if not args.quiet:
        def progress(op, n):
            print(f"{op}: {n} cases", file=sys.stderr, flush=True)
    m = generate(out, ops=_ops(args.op) or None, opset=args.opset, category=args.category,
                 shape_mode=args.shape_mode, keyword=args.keyword, edges=not args.no_edges,
                 workers=args.workers, command=command, progress=progress)
    c = m["coverage"]
    print(f"{out}: {c['cases']} cases ({c['table_cases']} from the tables, {c['edge_cases']} edge values; "
          f"{c['with_onnx']} with an ONNX form) of {c['in_suite']} op versions "
          f"(selected {c['selected']}; {c['registered']} of {c['op_versions_total']} OpenVINO op versions registered); "
          f"{len(m['skipped'])} skipped; {time.perf_counter() - t0:.1f} s")
    if c["missing"] and not args.quiet:
        print(f"missing ({len(c['missing'])}): {', '.join(c['missing'])}", file=sys.stderr)
    return 0


def cmd_extract(args) -> int:
    from .extract import extract
    out = _check_out(args.out)
    t0 = time.perf_counter()
    command = " ".join(shlex.quote(p) for p in ["opref conformance extract", *args.models])
    m = extract(args.models, out, seed=args.seed, command=command)
    c = m["coverage"]
    print(f"{out}: {c['cases']} unique single-op cases of {c['in_suite']} op versions from "
          f"{len(args.models)} model(s); {len(m['skipped'])} skipped; {time.perf_counter() - t0:.1f} s")
    return 0


def _xfail_args(items):
    out = {}
    for item in items or []:
        spec, sep, path = item.partition("=")
        if not sep or not spec or not path:
            raise InputError(f"--xfails {item!r}: expected BACKEND=FILE")
        out[spec] = path
    return out


def cmd_run(args) -> int:
    from .backends import backend_names
    from .run import run_suite
    specs = backend_names(args.backends)
    if args.workers < 0:
        raise InputError("--workers: give 0 (in this process) or more")
    if args.timeout <= 0:
        raise InputError("--timeout: give a positive number of seconds")
    _, status, messages = run_suite(
        args.suite, specs, device=args.device, workers=args.workers, timeout=args.timeout, keyword=args.keyword,
        case_ids=args.case, results_path=args.results, xfail_paths=_xfail_args(args.xfails),
        default_xfail=not args.no_default_xfails, update=args.update_xfails, record=args.record_xfails,
        dask_scheduler=args.dask_scheduler, batch_size=args.batch_size, quiet=args.quiet)
    for m in messages:
        print(m)
    return status


def add_parser(sub) -> None:
    """Adds `conformance` (generate, extract, run, report) to the `opref` sub-commands."""
    c = sub.add_parser("conformance", help="generate conformance suites, run backends on them, report",
                       description="Conformance suites from opref's case tables: generate a suite, run any "
                                   "backend on it, report.", epilog=WORKFLOW,
                       formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False)
    cs = c.add_subparsers(dest="conformance_command", required=True, metavar="{generate,extract,run,report}")

    g = cs.add_parser("generate", help="write a suite (IR + ONNX + inputs + expected values) from the case tables",
                      description="Writes every value case of the case tables (and seeded edge values: zeros, a "
                                  "constant, +-inf/NaN, integer limits, empty tensors, scalars, sub-byte types) of "
                                  "the selected op versions as a suite folder with a strict-JSON manifest.json. "
                                  "Deterministic: the same command writes a byte-identical suite.",
                      allow_abbrev=False)
    g.add_argument("--out", required=True, metavar="DIR", help="suite folder (new, empty, or an older suite)")
    g.add_argument("--op", action="append", metavar="Name-N", help="op version(s), repeatable or comma-separated")
    g.add_argument("--opset", metavar="N", help="only op versions of this OpenVINO opset (15 or opset15)")
    g.add_argument("--category", metavar="C", help="only this category (movement, arithmetic, ...)")
    g.add_argument("--shape-mode", choices=("static", "dynamic", "both"), default="static",
                   help="static input dims, or dynamic/interval dims that exercise shape inference (default static)")
    g.add_argument("-k", dest="keyword", metavar="EXPR",
                   help="only case ids matching EXPR (words as substrings, and/or/not, parentheses)")
    g.add_argument("--no-edges", action="store_true", help="without the seeded edge-value variants")
    g.add_argument("--workers", type=int, default=None, metavar="N", help="processes (default: CPU count)")
    g.add_argument("-q", "--quiet", action="store_true", help="no per-op progress on stderr")
    g.set_defaults(fn=cmd_generate)

    e = cs.add_parser("extract", help="unique single-op cases of real IR models, with their real inputs",
                      description="Runs each model with opref on seeded inputs and writes each unique single-op "
                                  "sub-graph (by op version, attributes, input element types and ranks) as a case "
                                  "whose inputs are the real intermediate values (same suite format, origin extract).",
                      allow_abbrev=False)
    e.add_argument("models", nargs="+", metavar="MODEL.xml")
    e.add_argument("--out", required=True, metavar="DIR")
    e.add_argument("--seed", type=int, default=0, help="seed of the random model inputs (default 0)")
    e.set_defaults(fn=cmd_extract)

    r = cs.add_parser("run", help="run backends on a suite: isolated workers, per-case timeout, xfails",
                      description="Runs every case of the suite on each backend in worker processes (a crash or a "
                                  "hang costs one case) and writes strict-JSON results. Statuses: passed, failed, "
                                  "xfailed, xpassed, not-implemented, harness-error, crashed, timeout. Exit 0 only "
                                  "when nothing unexpected happened (failed, xpassed, crashed, timeout, harness-error).",
                      epilog="backends: opref, openvino, onnxruntime, or package.module:Class (a subclass of "
                             "opref.conformance.backends.Backend, importable by the workers)",
                      allow_abbrev=False)
    r.add_argument("suite", metavar="DIR")
    r.add_argument("--backends", required=True, metavar="B1,B2", help="comma-separated backends")
    r.add_argument("--device", help="device for the backends (OpenVINO: CPU, GPU, ...; default CPU)")
    r.add_argument("--workers", type=int, default=os.cpu_count() or 1, metavar="N",
                   help="worker processes (default: CPU count; 0: in this process, no isolation)")
    r.add_argument("--timeout", type=float, default=60.0, metavar="S", help="per-case timeout (default 60 s)")
    r.add_argument("-k", dest="keyword", metavar="EXPR", help="only case ids matching EXPR")
    r.add_argument("--case", action="append", metavar="ID", help="only this case id (glob; repeatable)")
    r.add_argument("--results", metavar="R.json", help="results file (default DIR/results.json); repro folders "
                                                        "go to R.repro/")
    r.add_argument("--xfails", action="append", metavar="BACKEND=FILE",
                   help="expected failures of a backend (default for openvino on CPU: opref's shipped file)")
    r.add_argument("--no-default-xfails", action="store_true", help="do not use opref's shipped xfail files")
    r.add_argument("--update-xfails", action="store_true",
                   help="drop entries whose cases now pass; refused when anything new fails")
    r.add_argument("--record-xfails", action="store_true",
                   help="write every current failure into the xfail files (starts a ratchet)")
    r.add_argument("--dask-scheduler", metavar="ADDRESS",
                   help="run the batches on a Dask distributed cluster (tcp://host:8786) instead of local workers")
    r.add_argument("--batch-size", type=int, metavar="N", help="cases per worker task (default: automatic)")
    r.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    r.set_defaults(fn=cmd_run)

    from . import report
    report.add_parser(cs)
