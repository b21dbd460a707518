"""`opref conformance run`: every (case, backend) of a suite in isolated worker processes.

Tasks go to a pool of `--workers` subprocesses (worker.py) in batches; each worker builds a backend
once. A task that kills its worker is `crashed`, one that outlives `--timeout` is `timeout`; the worker
is restarted and the batch goes on, so a crashing or hanging backend costs one case. With
`--dask-scheduler ADDRESS` the batches are Dask tasks instead, each run by the same restartable
subprocess on a Dask worker (the suite folder must be readable there at the same path). `--workers 0`
runs in this process (no isolation; for debugging).

Expected failures per backend (results.py) turn known failures into `xfailed`; the run exits 0 only
when no case failed, crashed, timed out, hit a harness error or passed unexpectedly.
"""
from __future__ import annotations

import math
import os
import shutil
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from ..errors import InputError
from .backends import backend_class
from .casefiles import SuiteCase, load_manifest
from .results import (FORMAT, UNEXPECTED, apply_xfails, default_xfails, pass_table, read_xfails, recorded_xfails,
                      sha256, updated_xfails, write_results, write_xfails)
from .suite import keyword_matcher, versions
from .worker import WorkerProcess, _Backends, execute, pump, repro_command, run_batch, write_repro


def select_cases(manifest: dict, keyword=None, case_ids=None) -> list[dict]:
    match = keyword_matcher(keyword)
    entries = [e for e in manifest["cases"] if match(e["id"])]
    if case_ids:
        import fnmatch
        wanted = [e for e in entries if any(fnmatch.fnmatchcase(e["id"], c) for c in case_ids)]
        if not wanted:
            raise InputError(f"--case {' '.join(case_ids)}: no such case in the suite")
        entries = wanted
    return entries


class _Progress:
    """A progress line on a TTY; otherwise one line per finished op version."""

    def __init__(self, stream, entries, backends, quiet=False):
        self.stream, self.quiet = stream, quiet
        self.tty = hasattr(stream, "isatty") and stream.isatty()
        self.left = {}
        for e in entries:
            self.left[e["op"]] = self.left.get(e["op"], 0) + len(backends)
        self.per_op = {}
        self.total = len(entries) * len(backends)
        self.done = 0
        self.counts = {}
        self.t0 = time.monotonic()

    def result(self, r):
        self.done += 1
        self.counts[r["status"]] = self.counts.get(r["status"], 0) + 1
        op = self.per_op.setdefault(r["op"], {})
        b = op.setdefault(r["backend"], {})
        b[r["status"]] = b.get(r["status"], 0) + 1
        self.left[r["op"]] -= 1
        if self.quiet:
            return
        if self.tty:
            counts = ", ".join(f"{v} {k}" for k, v in sorted(self.counts.items()))
            self.stream.write(f"\r\033[K{self.done}/{self.total} ({time.monotonic() - self.t0:.0f} s): {counts}")
            self.stream.flush()
        elif self.left[r["op"]] == 0:
            parts = [f"{name}: " + ", ".join(f"{v} {k}" for k, v in sorted(st.items()))
                     for name, st in op.items()]
            print(f"{r['op']}  " + " | ".join(parts), file=self.stream, flush=True)

    def close(self):
        if self.tty and not self.quiet:
            self.stream.write("\n")
            self.stream.flush()


def run_suite(suite, specs: list[str], *, device=None, workers=2, timeout=60.0, keyword=None, case_ids=None,
              results_path=None, xfail_paths=None, default_xfail=True, update=False, record=False,
              dask_scheduler=None, batch_size=None, stream=sys.stderr, quiet=False) -> tuple[dict, int, list[str]]:
    """Runs the suite; returns (results document, exit status, messages for stdout)."""
    suite_arg = str(suite)
    suite = Path(suite).resolve()
    manifest = load_manifest(suite)
    entries = select_cases(manifest, keyword, case_ids)
    results_path = Path(results_path) if results_path else suite / "results.json"
    if not results_path.parent.is_dir():
        raise InputError(f"--results {results_path}: folder {results_path.parent} does not exist")
    for spec in specs:
        if ":" in spec:
            backend_class(spec)                     # a wrong user backend is reported before any work
    xfail_paths = dict(xfail_paths or {})
    for spec in xfail_paths:
        if spec not in specs:
            raise InputError(f"--xfails {spec}=...: {spec!r} is not among --backends")
    if default_xfail:
        for spec in specs:
            if spec not in xfail_paths and default_xfails(spec, device) is not None:
                xfail_paths[spec] = default_xfails(spec, device)
    if record:
        missing = [s for s in specs if s not in xfail_paths]
        if missing:
            raise InputError(f"--record-xfails: give --xfails {missing[0]}=FILE for every backend")
    xfails = {spec: read_xfails(p) if Path(p).exists() or not record else [] for spec, p in xfail_paths.items()}
    repro_root = results_path.with_suffix(".repro")
    if repro_root.exists():
        shutil.rmtree(repro_root)
    header = {"suite": str(suite), "suite_arg": suite_arg, "repro": str(repro_root), "device": device,
              "timeout": float(timeout)}
    started = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    t0 = time.monotonic()

    # the backends, built once in a worker first: their description, and an early error if one cannot be built
    infos, by_spec = {}, {}
    probes = [{"describe": s} for s in specs]
    if workers == 0:
        local = _Backends(device)
        answers = [execute(p, suite, None, local, suite_arg) for p in probes]
    elif dask_scheduler:
        client = _dask_client(dask_scheduler)
        answers = client.submit(run_batch, header, probes, pure=False).result()
    else:
        answers = run_batch(header, probes)
    for spec, a in zip(specs, answers):
        if a["status"] != "passed":
            raise InputError(f"backend {spec!r}: {a['message']}")
        infos[spec] = a["describe"]
        by_spec[spec] = a["describe"]["name"]

    progress = _Progress(stream, entries, specs, quiet)
    results = []

    def on_result(task, r):
        e, spec = task["entry"], task["backend"]
        rec = {"id": e["id"], "op": e["op"], "category": e["category"], "opsets": e["opsets"],
               "element_type": e["element_type"], "mode": e["mode"], "backend": by_spec[spec],
               "status": r["status"], "message": r.get("message"), "seconds": round(r.get("seconds") or 0.0, 6),
               "min_tolerance": r.get("min_tolerance"), "repro": r.get("repro"),
               "command": repro_command(suite_arg, spec, e["id"], device)}
        apply_xfails(rec, xfails.get(spec, []))
        if rec["status"] in UNEXPECTED and rec["repro"] is None:
            rec["repro"] = write_repro(repro_root, by_spec[spec], SuiteCase(e, suite / e["dir"]), rec["command"])
        if rec["status"] in ("xfailed",) and rec["repro"]:
            shutil.rmtree(rec["repro"], ignore_errors=True)   # expected: no repro folder to look at
            rec["repro"] = None
        if rec["repro"]:
            rec["repro"] = os.path.relpath(rec["repro"], results_path.parent)
        results.append(rec)
        progress.result(rec)

    tasks = [{"entry": e, "backend": s} for e in entries for s in specs]
    n_workers = max(1, workers)
    size = batch_size or max(1, min(64 if dask_scheduler else 32, math.ceil(len(tasks) / (n_workers * 8))))
    batches = [tasks[i:i + size] for i in range(0, len(tasks), size)]
    try:
        if workers == 0:
            for t in tasks:
                on_result(t, execute(t, suite, repro_root, local, suite_arg))
        elif dask_scheduler:
            _run_dask(client, header, batches, on_result)
        else:
            _run_local(header, batches, workers, on_result)
    finally:
        progress.close()

    results.sort(key=lambda r: (r["id"], r["backend"]))
    messages, status = [], 0
    table = pass_table(results)
    unexpected = [r for r in results if r["status"] in UNEXPECTED]
    if update or record:
        notes = {e["id"]: e.get("notes", {}) for e in entries}
        new = [r for r in unexpected if r["status"] != "xpassed"]
        if new and not record:
            messages.append(f"xfail files not updated: {len(new)} new unexpected result(s), first {new[0]['id']} "
                            f"on {new[0]['backend']} ({new[0]['status']})")
        else:
            for spec, path in xfail_paths.items():
                mine = [r for r in results if r["backend"] == by_spec[spec]]
                entries_ = (recorded_xfails(xfails[spec], mine, notes) if record
                            else updated_xfails(xfails[spec], mine))
                write_xfails(path, f"{by_spec[spec]} ({infos[spec].get('device') or 'default device'})", entries_)
                messages.append(f"{path}: {len(entries_)} expected failure(s) written")
            unexpected = [] if record else new
    doc = {"format": FORMAT, "suite": suite_arg, "manifest_sha256": sha256(suite / "manifest.json"),
           "started": started, "seconds": round(time.monotonic() - t0, 3), "versions": versions(),
           "coverage": manifest.get("coverage"), "backends": [infos[s] for s in specs],
           "xfail_files": {by_spec[s]: str(p) for s, p in xfail_paths.items()},
           "summary": table, "results": results}
    write_results(results_path, doc)
    for name, row in table.items():
        counts = ", ".join(f"{v} {k}" for k, v in row["counts"].items())
        messages.append(f"{name}: {row['op_versions_passed']}/{row['op_versions']} op versions pass fully "
                        f"({row['op_versions_passed_where_implemented']}/{row['op_versions_run']} where implemented); "
                        f"{counts}")
    for r in unexpected[:10]:
        messages.append(f"  {r['status']}: {r['backend']} {r['id']}: {(r['message'] or '')[:200]}")
    if len(unexpected) > 10:
        messages.append(f"  ... and {len(unexpected) - 10} more unexpected results")
    messages.append(f"{len(results)} results in {doc['seconds']:.1f} s -> {results_path}")
    status = 1 if unexpected else 0
    return doc, status, messages


def _run_local(header, batches, workers, on_result):
    pool = [WorkerProcess() for _ in range(workers)]
    queue = list(reversed(batches))
    try:
        while queue or any(w.busy for w in pool):
            for w in pool:
                if not w.busy and queue:
                    w.send(header, queue.pop())
            pump(pool, on_result)
    finally:
        for w in pool:
            w.close()


def _dask_client(address):
    try:
        from distributed import Client
    except ImportError:
        raise InputError("--dask-scheduler needs dask.distributed: pip install 'opref[conformance]'") from None
    try:
        return Client(address, timeout="20s")
    except (OSError, TimeoutError) as e:
        raise InputError(f"--dask-scheduler {address}: cannot connect ({e})") from None


def _run_dask(client, header, batches, on_result):
    from distributed import as_completed
    futures = {client.submit(run_batch, header, b, pure=False): b for b in batches}
    for fut in as_completed(futures):
        batch = futures[fut]
        try:
            answers = fut.result()
        except Exception as e:  # noqa: BLE001 -- a lost Dask task: its cases are harness errors
            answers = [{"status": "harness-error", "message": f"Dask task failed: {type(e).__name__}: {e}",
                        "seconds": 0.0, "min_tolerance": None, "repro": None}] * len(batch)
        for t, a in zip(batch, answers):
            on_result(t, dict(a))
