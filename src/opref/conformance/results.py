"""The results file of `opref conformance run` and the expected-failure (xfail) files.

Results: strict JSON, format "opref-conformance-results/1" (see the shared contract): the suite, its
manifest's hash, versions, coverage, the backends (name, spec, version, device, config, formats) and
one record per (case, backend) with its status.

An xfail file lists the cases a backend is known to fail, one per line: an id pattern (fnmatch: `*`
matches any text, `/` included), then `#` and the reason, which is required::

    # opref conformance expected failures: openvino (CPU)
    Interpolate-4/f32/*/antialias_*   # the CPU plugin's linear mode ignores antialias

A failed, crashed or timed-out case that matches becomes `xfailed`; a passing case that matches
becomes `xpassed`, which fails the run (strict: a fixed backend makes the entry stale).
"""
from __future__ import annotations

import fnmatch
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from .casefiles import dumps

FORMAT = "opref-conformance-results/1"
STATUSES = ("passed", "failed", "xfailed", "xpassed", "not-implemented", "harness-error", "crashed", "timeout")
UNEXPECTED = ("failed", "xpassed", "harness-error", "crashed", "timeout")
FAILING = ("failed", "crashed", "timeout")          # what an xfail entry may expect


@dataclass
class XFail:
    pattern: str
    reason: str
    regex: re.Pattern

    def matches(self, case_id: str) -> bool:
        return bool(self.regex.fullmatch(case_id))


def read_xfails(path) -> list[XFail]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"xfail file {path}: {e.strerror}") from None
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        pattern, sep, reason = line.partition("#")
        pattern, reason = pattern.strip(), reason.strip()
        if not sep or not reason or not pattern or " " in pattern:
            raise InputError(f"{path}:{n}: expected 'ID-PATTERN  # reason' (a reason is required), got {raw!r}")
        out.append(XFail(pattern, reason, re.compile(fnmatch.translate(pattern))))
    return out


def write_xfails(path, backend: str, entries: list[tuple[str, str]]) -> None:
    width = min(max((len(p) for p, _ in entries), default=0), 90)
    lines = [f"# opref conformance expected failures: {backend}",
             "# one per line: ID-PATTERN (fnmatch, '*' matches '/' too)  # reason (required)"]
    lines += [f"{p:<{width}}  # {' '.join(r.split())}" for p, r in sorted(entries)]
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def default_xfails(backend: str, device: str | None) -> Path | None:
    """The expected failures opref ships for a built-in backend (OpenVINO CPU), if any."""
    if backend == "openvino" and (device or "CPU") == "CPU":
        path = Path(__file__).with_name("xfails") / "openvino-cpu.txt"
        return path if path.exists() else None
    return None


def apply_xfails(result: dict, xfails: list[XFail]) -> XFail | None:
    """Turns a failing result into xfailed / a passing one into xpassed when an entry matches."""
    if result["status"] not in FAILING + ("passed",):
        return None
    hit = next((x for x in xfails if x.matches(result["id"])), None)
    if hit is None:
        return None
    if result["status"] == "passed":
        result["status"] = "xpassed"
        result["message"] = f"expected to fail ({hit.reason}), but passed: drop the entry {hit.pattern!r}"
    else:
        result["status"] = "xfailed"
        result["message"] = f"{hit.reason} [{result['message']}]" if result["message"] else hit.reason
    return hit


def updated_xfails(xfails: list[XFail], results: list[dict]) -> list[tuple[str, str]]:
    """The ratchet: entries that still match a failing case of this run, or no case of it at all (the
    run may have been filtered); entries whose cases all passed are dropped."""
    keep = []
    for x in xfails:
        hits = [r for r in results if x.matches(r["id"])]
        if not hits or any(r["status"] == "xfailed" for r in hits):
            keep.append((x.pattern, x.reason))
    return keep


def recorded_xfails(xfails: list[XFail], results: list[dict], manifest_notes: dict) -> list[tuple[str, str]]:
    """The current failures as exact ids (with the case table's mark as the reason when there is one,
    else the failure message), plus the entries that still match something failing."""
    out = dict(updated_xfails(xfails, results))
    for r in results:
        if r["status"] in FAILING:
            note = manifest_notes.get(r["id"], {})
            reason = note.get(r["backend"]) or note.get("openvino" if r["backend"] == "openvino" else "") \
                or f"{r['status']}: {r['message'] or ''}"
            out.setdefault(r["id"], reason[:300])
    return sorted(out.items())


def sha256(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def write_results(path, doc: dict) -> None:
    Path(path).write_text(dumps(doc) + "\n", encoding="utf-8")


def read_results(path) -> dict:
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise InputError(f"{path}: cannot read conformance results ({e})") from None
    if doc.get("format") != FORMAT:
        raise InputError(f"{path}: not opref conformance results (format {doc.get('format')!r})")
    return doc


def pass_table(results: list[dict]) -> dict:
    """Per backend: op versions seen, op versions passed fully (every case passed or xfailed), and
    status counts."""
    by = {}
    for r in results:
        b = by.setdefault(r["backend"], {"ops": {}, "ran": {}, "counts": dict.fromkeys(STATUSES, 0)})
        b["counts"][r["status"]] += 1
        ok = r["status"] in ("passed", "xfailed")
        b["ops"][r["op"]] = b["ops"].get(r["op"], True) and ok
        if r["status"] != "not-implemented":
            b["ran"][r["op"]] = b["ran"].get(r["op"], True) and ok
    return {name: {"op_versions": len(b["ops"]), "op_versions_passed": sum(b["ops"].values()),
                   "op_versions_run": len(b["ran"]), "op_versions_passed_where_implemented": sum(b["ran"].values()),
                   "counts": {k: v for k, v in b["counts"].items() if v}} for name, b in by.items()}
