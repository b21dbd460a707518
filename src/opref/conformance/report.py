"""`opref conformance report`: read one or several results files (one per backend or per machine),
merge them, and tell per op version x backend what is implemented, what passes, what fails and the
smallest tolerance that would have passed; `report diff A B`: what changed between two runs.

Outputs: a compact text table on stdout (the default), strict JSON (`--json`), JUnit XML as Jenkins
and pytest write it (`--junit`), CSV (`--csv`) and one self-contained HTML file (`--html`, see
report_html.py). Failures come first everywhere; repro links are relative to the output file.

Definitions used in every output:
- a *problem* is a case whose status is failed, xpassed, crashed, timeout or harness-error (these
  have a repro folder);
- pass rate = passed / (cases - xfailed - not-implemented): the share of the cases the backend ran
  and expected to pass that did pass; None (shown as "-") when no such case exists;
- implemented = "yes" (no case not-implemented), "no" (every case) or "partial";
- min tolerance of a row = the largest, over its failures, of the smallest rtol and atol that would
  have passed ("nan" when no tolerance would pass, e.g. NaN against a number).
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import math
import os
import re
import sys
from collections import Counter, defaultdict
from urllib.parse import quote
from xml.sax.saxutils import escape as _xml_escape

from ..errors import OprefError

RESULTS_FORMAT = "opref-conformance-results/1"
REPORT_FORMAT = "opref-conformance-report/1"
DIFF_FORMAT = "opref-conformance-diff/1"

STATUSES = ("passed", "failed", "xfailed", "xpassed", "not-implemented", "harness-error", "crashed", "timeout")
PROBLEMS = ("failed", "xpassed", "crashed", "timeout", "harness-error")
HARD = ("failed", "crashed", "timeout", "harness-error", "not-implemented")     # a case that does not work
REPRO_FILES = ("model.xml", "model.bin", "model.onnx", "inputs.npz", "expected.npz", "actual.npz", "command.txt")
# JUnit: how each status is written (pytest writes xfail as <skipped type="pytest.xfail">).
JUNIT_KIND = {"failed": "failure", "xpassed": "failure", "crashed": "error", "timeout": "error",
              "harness-error": "error", "not-implemented": "skipped", "xfailed": "skipped"}


class ReportError(OprefError):
    """A results file is unreadable or does not follow the results format."""


# --------------------------------------------------------------------------------------- numbers
def num(v) -> float | None:
    """A number of the results format (a JSON number or "nan" / "inf" / "-inf") as a float."""
    if v is None:
        return None
    if isinstance(v, bool):
        raise ValueError(f"not a number: {v!r}")
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str) and v.strip().lower() in ("nan", "inf", "+inf", "-inf", "infinity", "-infinity"):
        return float(v.strip().lower().replace("infinity", "inf"))
    raise ValueError(f"not a number: {v!r}")


def jnum(x: float | None):
    """A float for strict JSON: non-finite values as the strings "nan", "inf", "-inf"."""
    if x is None or math.isfinite(x):
        return x
    return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")


def _worse(a: float | None, b: float | None) -> float | None:
    """The larger tolerance, NaN ("no tolerance passes") above inf above any finite value."""
    if a is None or b is None:
        return b if a is None else a
    if math.isnan(a) or math.isnan(b):
        return math.nan
    return max(a, b)


def fmt_tol(x: float | None) -> str:
    return "-" if x is None else ("nan" if math.isnan(x) else f"{x:.3g}")


def fmt_rate(r: float | None) -> str:
    return "-" if r is None else f"{100 * r:.1f}%"


def _op_key(op: str):
    """Natural order: Abs-1, Add-1, ..., Col2Im-15, ..., with numbers compared as numbers."""
    return [(0, int(t), "") if t.isdigit() else (1, 0, t.lower()) for t in re.split(r"(\d+)", op)]


# --------------------------------------------------------------------------------------- reading
def _strict_constant(name):
    # Bare NaN/Infinity is not JSON; read it leniently the way the format spells it.
    return {"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}[name]


def read_results(path: str) -> dict:
    """One results file, checked against the results format."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f, parse_constant=_strict_constant)
    except OSError as e:
        raise ReportError(f"cannot read results file {path}: {e.strerror or e}") from None
    except (ValueError, UnicodeDecodeError) as e:
        raise ReportError(f"{path}: not a JSON results file ({e})") from None
    if not isinstance(data, dict) or not str(data.get("format", "")).startswith("opref-conformance-results/"):
        raise ReportError(f"{path}: not an opref conformance results file (format should be {RESULTS_FORMAT!r}, "
                          f"got {data.get('format') if isinstance(data, dict) else type(data).__name__!r})")
    results = data.get("results")
    if not isinstance(results, list):
        raise ReportError(f"{path}: 'results' should be a list")
    for i, r in enumerate(results):
        if not isinstance(r, dict):
            raise ReportError(f"{path}: results[{i}] should be an object")
        for key in ("id", "op", "backend", "status"):
            if not isinstance(r.get(key), str):
                raise ReportError(f"{path}: results[{i}] has no {key!r} string")
        if r["status"] not in STATUSES:
            raise ReportError(f"{path}: results[{i}] ({r['id']}): unknown status {r['status']!r}; "
                              f"expected one of {', '.join(STATUSES)}")
        tol = r.get("min_tolerance")
        if tol is not None:
            try:
                r["min_tolerance"] = {"rtol": num(tol.get("rtol")), "atol": num(tol.get("atol"))}
            except (ValueError, AttributeError):
                raise ReportError(f"{path}: results[{i}] ({r['id']}): bad min_tolerance {tol!r}") from None
    return data


class Merged:
    """Several results files as one: results keyed by (case id, backend), later files win."""

    def __init__(self, paths: list[str]):
        self.paths = [os.path.abspath(p) for p in paths]
        self.files = [read_results(p) for p in paths]
        self.duplicates = 0
        by_key: dict[tuple[str, str], dict] = {}
        for k, data in enumerate(self.files):
            for r in data["results"]:
                key = (r["id"], r["backend"])
                self.duplicates += key in by_key
                by_key[key] = dict(r, _src=k)
        self.results = list(by_key.values())
        self.backends: dict[str, dict] = {}
        for data in self.files:
            for b in data.get("backends") or []:
                if isinstance(b, dict) and isinstance(b.get("name"), str):
                    self.backends.setdefault(b["name"], b)
        for r in self.results:
            self.backends.setdefault(r["backend"], {"name": r["backend"]})
        self.coverage = self._coverage()

    def _coverage(self) -> dict:
        covs = [d["coverage"] for d in self.files if isinstance(d.get("coverage"), dict)]
        ops = {r["op"] for r in self.results}

        def most(key):
            vals = [c[key] for c in covs if isinstance(c.get(key), int)]
            return max(vals) if vals else None
        missing = [set(c["missing"]) for c in covs if isinstance(c.get("missing"), list)]
        # Several suites: an op version is missing only when no suite has it.
        missing = sorted(set.intersection(*missing) - ops, key=_op_key) if missing else None
        in_suite = most("in_suite")
        return {"op_versions_total": most("op_versions_total"), "registered": most("registered"),
                "selected": most("selected"),
                "in_suite": max(in_suite or 0, len(ops)) if covs else len(ops),
                "in_results": len(ops), "missing": missing}

    def repro_dir(self, r) -> str | None:
        if not r.get("repro"):
            return None
        return os.path.normpath(os.path.join(os.path.dirname(self.paths[r["_src"]]), r["repro"]))


# --------------------------------------------------------------------------------------- aggregating
def pass_rate(counts) -> float | None:
    ran = sum(counts.values()) - counts.get("xfailed", 0) - counts.get("not-implemented", 0)
    return counts.get("passed", 0) / ran if ran else None


def implemented(counts) -> str:
    ni, total = counts.get("not-implemented", 0), sum(counts.values())
    return "yes" if ni == 0 else "no" if ni == total else "partial"


def _link(path: str | None, out_dir: str) -> str | None:
    return None if path is None else os.path.relpath(path, out_dir).replace(os.sep, "/")


def summarize(m: Merged, out_dir: str | None = None, *, check_files: bool = True) -> dict:
    """The report's data (what --json writes and the HTML embeds): one row per op version x backend,
    problems first, with its failures; per backend totals; coverage. Repro paths are relative to
    `out_dir` (default: the working directory); `files` lists which repro files exist (with
    `check_files`, else None)."""
    out_dir = os.path.abspath(out_dir or os.getcwd())
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in m.results:
        groups[(r["op"], r["backend"])].append(r)
    rows = []
    for (op, backend), rs in groups.items():
        counts = Counter(r["status"] for r in rs)
        rtol = atol = None
        failures = []
        for r in rs:
            tol = r.get("min_tolerance")
            if tol is not None and r["status"] in PROBLEMS:
                rtol, atol = _worse(rtol, tol["rtol"]), _worse(atol, tol["atol"])
            if r["status"] in PROBLEMS:
                d = m.repro_dir(r)
                present = ([f for f in REPRO_FILES if os.path.isfile(os.path.join(d, f))]
                           if check_files and d and os.path.isdir(d) else None)
                failures.append({
                    "id": r["id"], "status": r["status"], "element_type": r.get("element_type"),
                    "mode": r.get("mode"), "message": r.get("message"), "seconds": r.get("seconds"),
                    "min_tolerance": None if tol is None else {"rtol": jnum(tol["rtol"]), "atol": jnum(tol["atol"])},
                    "repro": _link(d, out_dir), "files": present, "command": r.get("command")})
        failures.sort(key=lambda f: (PROBLEMS.index(f["status"]), _op_key(f["id"])))
        first = rs[0]
        opsets = sorted({s for r in rs for s in (r.get("opsets") or [])}, key=_op_key)
        rows.append({
            "op": op, "category": first.get("category") or "", "opsets": opsets, "backend": backend,
            "implemented": implemented(counts), "cases": len(rs),
            "counts": {s: counts.get(s, 0) for s in STATUSES}, "problems": sum(counts[s] for s in PROBLEMS),
            "pass_rate": pass_rate(counts),
            "min_tolerance": None if rtol is None and atol is None else {"rtol": jnum(rtol), "atol": jnum(atol)},
            "failures": failures})
    rows.sort(key=_row_order)
    return {"format": REPORT_FORMAT, "sources": [_link(p, out_dir) for p in m.paths], "backends": [m.backends[b] for b in sorted(m.backends)],
            "versions": _versions(m), "duplicates": m.duplicates, "statuses": list(STATUSES),
            "problem_statuses": list(PROBLEMS), "coverage": _coverage_row(m, rows),
            "summary": _backend_summary(rows), "rows": rows}


def _row_order(row):
    rate = row["pass_rate"]
    return (row["problems"] == 0, 2.0 if rate is None else rate, -row["problems"], _op_key(row["op"]), row["backend"])


def _versions(m: Merged) -> dict:
    out: dict = {}
    for d in m.files:
        for k, v in (d.get("versions") or {}).items():
            out.setdefault(k, v)
    return out


def _backend_summary(rows) -> list[dict]:
    out = []
    by_backend = defaultdict(list)
    for row in rows:
        by_backend[row["backend"]].append(row)
    for backend in sorted(by_backend) + ["all"]:
        rs = rows if backend == "all" else by_backend[backend]
        counts = Counter()
        for row in rs:
            counts.update(row["counts"])
        out.append({"backend": backend, "op_versions": len({r["op"] for r in rs}),
                    "implemented": len({r["op"] for r in rs if r["implemented"] != "no"}),
                    "all_passed": len({r["op"] for r in rs if r["pass_rate"] == 1.0 and r["problems"] == 0
                                       and r["implemented"] == "yes"}),
                    "cases": sum(counts.values()), "counts": {s: counts.get(s, 0) for s in STATUSES},
                    "pass_rate": pass_rate(counts)})
    return out


def _coverage_row(m: Merged, rows) -> dict:
    cov = dict(m.coverage)
    per = {}
    for b in sorted({r["backend"] for r in rows}):
        rs = [r for r in rows if r["backend"] == b]
        per[b] = {"with_results": len(rs), "implemented": sum(r["implemented"] != "no" for r in rs),
                  "all_passed": sum(r["pass_rate"] == 1.0 and r["problems"] == 0 and r["implemented"] == "yes"
                                    for r in rs)}
    cov["per_backend"] = per
    cov["text"] = coverage_text(cov)
    return cov


def coverage_text(cov) -> str:
    total = cov.get("op_versions_total")
    text = (f"the suite covers {cov['in_suite']} of {total} op versions" if total
            else f"the suite covers {cov['in_suite']} op versions")
    notes = [f"{cov['selected']} selected"] if cov.get("selected") not in (None, total) else []
    notes += [f"opref registers {cov['registered']}"] if cov.get("registered") is not None else []
    if notes:
        text += f" ({'; '.join(notes)})"
    if cov.get("missing"):
        text += f"; {len(cov['missing'])} missing"
    for b, c in cov.get("per_backend", {}).items():
        text += f"; {b}: results for {c['with_results']}, implemented {c['implemented']}, all passed {c['all_passed']}"
    return text


# --------------------------------------------------------------------------------------- writers
def to_json(report: dict) -> str:
    """Strict JSON (`allow_nan=False` proves there is no bare NaN/Infinity left)."""
    return json.dumps(report, indent=1, allow_nan=False, ensure_ascii=False) + "\n"


CSV_COLUMNS = ("op", "category", "opsets", "backend", "implemented", "cases", *STATUSES, "pass_rate",
               "min_rtol", "min_atol")


def to_csv(report: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for row in report["rows"]:
        tol = row["min_tolerance"] or {}
        w.writerow([row["op"], row["category"], " ".join(row["opsets"]), row["backend"], row["implemented"],
                    row["cases"], *(row["counts"][s] for s in STATUSES),
                    "" if row["pass_rate"] is None else f"{row['pass_rate']:.6g}",
                    "" if tol.get("rtol") is None else tol["rtol"], "" if tol.get("atol") is None else tol["atol"]])
    return buf.getvalue()


_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _x(text) -> str:
    """Text for XML 1.0: escaped, and without the characters XML cannot carry at all."""
    return _xml_escape(_XML_BAD.sub("\ufffd", str(text)), {'"': "&quot;", "\n": "&#10;"})


def to_junit(m: Merged, out_dir: str | None = None) -> str:
    """JUnit XML as Jenkins and pytest write it: one <testsuite> per backend, one <testcase> per case
    (classname backend.category.op, name = case id) with <failure>, <error> or <skipped>."""
    out_dir = os.path.abspath(out_dir or os.getcwd())
    by_backend = defaultdict(list)
    for r in m.results:
        by_backend[r["backend"]].append(r)
    suites, totals = [], Counter()
    for backend in sorted(by_backend):
        rs = sorted(by_backend[backend], key=lambda r: (r["status"] not in PROBLEMS, _op_key(r["id"])))
        kinds = Counter(JUNIT_KIND.get(r["status"]) for r in rs)
        seconds = sum(_seconds(r) or 0.0 for r in rs)
        totals.update(kinds)
        totals["tests"] += len(rs)
        totals["time"] += seconds
        info = m.backends.get(backend, {})
        lines = [f'  <testsuite name="{_x(backend)}" tests="{len(rs)}" failures="{kinds["failure"]}" '
                 f'errors="{kinds["error"]}" skipped="{kinds["skipped"]}" time="{seconds:.3f}">']
        props = [(k, info[k]) for k in ("spec", "version", "device") if info.get(k) is not None]
        props += [(f"config.{k}", v) for k, v in sorted((info.get("config") or {}).items())]
        if props:
            lines.append("    <properties>")
            lines += [f'      <property name="{_x(k)}" value="{_x(v)}"/>' for k, v in props]
            lines.append("    </properties>")
        for r in rs:
            t = _seconds(r)
            time_attr = "" if t is None else f' time="{t:.3f}"'
            head = (f'    <testcase classname="{_x(backend)}.{_x(r.get("category") or "ops")}.{_x(r["op"])}" '
                    f'name="{_x(r["id"])}"{time_attr}')
            kind = JUNIT_KIND.get(r["status"])
            if kind is None:
                lines.append(head + "/>")
                continue
            msg = r.get("message") or r["status"]
            body = [f"{r['status']}: {r['message']}" if r.get("message") else r["status"]]
            tol = r.get("min_tolerance")
            if tol is not None:
                body.append(f"min tolerance: rtol={fmt_tol(tol['rtol'])} atol={fmt_tol(tol['atol'])}")
            d = m.repro_dir(r)
            if d:
                body.append(f"repro: {_link(d, out_dir)}")
            if r.get("command") and r["status"] in PROBLEMS:
                body.append(f"rerun: {r['command']}")
            typ = "pytest.xfail" if r["status"] == "xfailed" else r["status"]
            lines.append(head + ">")
            lines.append(f'      <{kind} type="{_x(typ)}" message="{_x(msg)}">'
                         + _xml_escape(_XML_BAD.sub("\ufffd", "\n".join(body))) + f"</{kind}>")
            lines.append("    </testcase>")
        lines.append("  </testsuite>")
        suites.append("\n".join(lines))
    head = (f'<testsuites name="opref conformance" tests="{totals["tests"]}" failures="{totals["failure"]}" '
            f'errors="{totals["error"]}" time="{totals["time"]:.3f}">')
    return '<?xml version="1.0" encoding="utf-8"?>\n' + "\n".join([head, *suites, "</testsuites>"]) + "\n"


def _seconds(r) -> float | None:
    t = r.get("seconds")
    ok = isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t) and t >= 0
    return float(t) if ok else None


def to_text(report: dict, *, max_failures: int = 20) -> str:
    """The compact table for a terminal: problems first, then the coverage line and the first failures."""
    rows = report["rows"]
    header = ("op version", "backend", "impl", "pass rate", "passed/cases", "problems", "min rtol", "min atol")
    table = [header]
    for row in rows:
        tol = row["min_tolerance"] or {}
        table.append((row["op"], row["backend"], row["implemented"], fmt_rate(row["pass_rate"]),
                      f"{row['counts']['passed']}/{row['cases']}",
                      _problem_text(row["counts"]), fmt_tol(num(tol.get("rtol"))), fmt_tol(num(tol.get("atol")))))
    for s in report["summary"]:
        table.append((f"TOTAL ({s['op_versions']} ops)", s["backend"], f"{s['implemented']}",
                      fmt_rate(s["pass_rate"]), f"{s['counts']['passed']}/{s['cases']}", _problem_text(s["counts"]),
                      "", ""))
    widths = [max(len(str(r[i])) for r in table) for i in range(len(header))]
    out = ["  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip() for r in table]
    out.insert(1, "  ".join("-" * w for w in widths))
    out.append("")
    out.append("coverage: " + report["coverage"]["text"])
    failures = [(row["backend"], f) for row in rows for f in row["failures"]]
    if failures:
        out.append(f"problems: {len(failures)}" + (f" (first {max_failures} below)" if len(failures) > max_failures
                                                    else ""))
        for backend, f in failures[:max_failures]:
            out.append(f"  {f['status']:13} {backend}  {f['id']}: {f['message'] or ''}".rstrip())
            if f["repro"]:
                out.append(f"      repro: {f['repro']}")
            if f["command"]:
                out.append(f"      rerun: {f['command']}")
    if report.get("duplicates"):
        out.append(f"note: {report['duplicates']} results appeared in more than one file; the later file's were used")
    return "\n".join(out) + "\n"


def _problem_text(counts) -> str:
    parts = [f"{counts[s]} {s}" for s in STATUSES if s != "passed" and counts.get(s)]
    return ", ".join(parts) or "-"


def href(path: str | None) -> str | None:
    """A relative path as a URL reference (spaces, '#', '?' and '%' escaped)."""
    return None if path is None else quote(path, safe="/:._-~")


# --------------------------------------------------------------------------------------- diff
def diff(a: Merged, b: Merged) -> dict:
    """What changed from run A to run B, per (case id, backend). A regression is a case that passed
    (or was an expected failure) in A and fails, crashes, times out, errs or is not implemented in B,
    or that passed in A and is anything but passed in B."""
    before = {(r["id"], r["backend"]): r for r in a.results}
    after = {(r["id"], r["backend"]): r for r in b.results}
    out = {"newly_failing": [], "newly_passing": [], "status_changed": [], "added": [], "removed": []}
    unchanged = 0
    for key in sorted(set(before) | set(after), key=lambda k: (_op_key(k[0]), k[1])):
        ra, rb = before.get(key), after.get(key)
        if ra is None:
            out["added"].append(_diff_item(None, rb))
        elif rb is None:
            out["removed"].append(_diff_item(ra, None))
        elif ra["status"] == rb["status"]:
            unchanged += 1
        elif ((ra["status"] == "passed") or (ra["status"] == "xfailed" and rb["status"] in HARD)):
            out["newly_failing"].append(_diff_item(ra, rb))
        elif rb["status"] == "passed" or (ra["status"] == "xfailed" and rb["status"] == "xpassed"):
            out["newly_passing"].append(_diff_item(ra, rb))
        else:
            out["status_changed"].append(_diff_item(ra, rb))
    rows_a = {(r["op"], r["backend"]): r for r in summarize(a, check_files=False)["rows"]}
    rows_b = {(r["op"], r["backend"]): r for r in summarize(b, check_files=False)["rows"]}
    ops = []
    for key in sorted(set(rows_a) | set(rows_b), key=lambda k: (_op_key(k[0]), k[1])):
        pa, pb = (None if key not in rows_a else rows_a[key]["pass_rate"]), (None if key not in rows_b
                                                                             else rows_b[key]["pass_rate"])
        if pa != pb or (key in rows_a) != (key in rows_b):
            ops.append({"op": key[0], "backend": key[1], "pass_rate_before": pa, "pass_rate_after": pb,
                        "cases_before": rows_a[key]["cases"] if key in rows_a else 0,
                        "cases_after": rows_b[key]["cases"] if key in rows_b else 0})
    counts = {k: len(v) for k, v in out.items()}
    counts["unchanged"] = unchanged
    return {"format": DIFF_FORMAT, "a": a.paths, "b": b.paths, "regressed": bool(out["newly_failing"]),
            "counts": counts, **out, "ops": ops}


def _diff_item(ra, rb) -> dict:
    r = rb or ra                                          # the newer result when there is one
    return {"id": r["id"], "op": r["op"], "backend": r["backend"],
            "before": ra["status"] if ra else None, "after": rb["status"] if rb else None,
            "message": r.get("message"), "command": r.get("command")}


def diff_text(d: dict, *, limit: int = 50) -> str:
    c = d["counts"]
    out = [f"{' + '.join(d['a'])} -> {' + '.join(d['b'])}",
           f"{c['newly_failing']} newly failing, {c['newly_passing']} newly passing, {c['status_changed']} other "
           f"status changes, {c['added']} added, {c['removed']} removed, {c['unchanged']} unchanged"]
    titles = {"newly_failing": "newly failing (regressions)", "newly_passing": "newly passing",
              "status_changed": "other status changes", "added": "added cases", "removed": "removed cases"}
    for key, title in titles.items():
        items = d[key]
        if not items:
            continue
        out.append(f"{title}:" + (f" (first {limit} of {len(items)})" if len(items) > limit else ""))
        for it in items[:limit]:
            change = f"{it['before'] or 'absent'} -> {it['after'] or 'absent'}"
            msg = f": {it['message']}" if it["message"] and key in ("newly_failing", "status_changed") else ""
            out.append(f"  {it['backend']}  {it['id']}  {change}{msg}")
    if d["ops"]:
        out.append("pass rate per op version x backend:")
        for o in d["ops"][:limit]:
            out.append(f"  {o['op']:28} {o['backend']:12} {fmt_rate(o['pass_rate_before'])} -> "
                       f"{fmt_rate(o['pass_rate_after'])} ({o['cases_before']} -> {o['cases_after']} cases)")
    out.append("REGRESSED" if d["regressed"] else "no regression")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------------------- command line
def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("results", nargs="+", metavar="RESULTS",
                   help="results files (merged; a later file wins for the same case and backend), "
                        "or `diff A B` to compare two runs")
    p.add_argument("--html", metavar="FILE", help="one self-contained HTML report")
    p.add_argument("--json", metavar="FILE", help="strict JSON (`-` for stdout); with diff: the diff as JSON")
    p.add_argument("--junit", metavar="FILE", help="JUnit XML (Jenkins, GitLab, pytest's format)")
    p.add_argument("--csv", metavar="FILE", help="one row per op version x backend")
    p.add_argument("--title", default="opref conformance report", help="title of the HTML report")
    p.add_argument("--max-failures", type=int, default=20, metavar="N",
                   help="failures listed in the text output (default 20)")


USAGE = ("%(prog)s RESULTS [RESULTS ...] [--html FILE] [--json FILE] [--junit FILE] [--csv FILE]\n"
         "       %(prog)s diff A B [--json FILE]")
DESCRIPTION = ("Report on conformance results: per op version x backend whether it is implemented, the pass "
               "rate, counts per status, the smallest tolerance that would have passed and a repro folder per "
               "failure. `report diff A B` lists what changed between two results files and exits 1 when "
               "something regressed.")


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add `report` to the `opref conformance` sub-command group."""
    p = subparsers.add_parser("report", help="text/HTML/JSON/JUnit/CSV report of results; `report diff A B`",
                              usage=USAGE, description=DESCRIPTION, allow_abbrev=False)
    _add_arguments(p)
    p.set_defaults(fn=cmd_report)
    return p


def _check_writable(path: str, option: str) -> None:
    if path == "-":
        return
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise ReportError(f"{option} {path}: the folder {parent} does not exist")
    if os.path.isdir(path):
        raise ReportError(f"{option} {path}: is a folder")
    if not os.access(parent, os.W_OK):
        raise ReportError(f"{option} {path}: cannot write in {parent}")


def _write(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text)
        return
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def cmd_report(args) -> int:
    if args.results[0] == "diff":
        return cmd_diff(args)
    outputs = {"--html": args.html, "--json": args.json, "--junit": args.junit, "--csv": args.csv}
    for option, path in outputs.items():
        if path:
            _check_writable(path, option)
    m = Merged(args.results)
    here = os.getcwd()

    def out_dir(path):
        return here if path == "-" else os.path.dirname(os.path.abspath(path))
    if args.json:
        _write(args.json, to_json(summarize(m, out_dir(args.json))))
    if args.csv:
        _write(args.csv, to_csv(summarize(m, out_dir(args.csv), check_files=False)))
    if args.junit:
        _write(args.junit, to_junit(m, out_dir(args.junit)))
    if args.html:
        from .report_html import render
        _write(args.html, render(summarize(m, out_dir(args.html)), title=args.title))
    if not any(outputs.values()):
        sys.stdout.write(to_text(summarize(m, here), max_failures=args.max_failures))
    else:
        written = [f"{o} {p}" for o, p in outputs.items() if p and p != "-"]
        if written:
            print("wrote " + ", ".join(written), file=sys.stderr)
    return 0


def cmd_diff(args) -> int:
    """Exit 0: no regression; 1: something regressed; 2: a file could not be read or bad usage."""
    paths = args.results[1:]
    if len(paths) != 2 or args.html or args.junit or args.csv:
        print("opref: error: usage: opref conformance report diff A B [--json FILE]", file=sys.stderr)
        return 2
    try:
        if args.json:
            _check_writable(args.json, "--json")
        d = diff(Merged([paths[0]]), Merged([paths[1]]))
    except OprefError as e:
        print(f"opref: error: {e}", file=sys.stderr)
        return 2
    if args.json:
        _write(args.json, to_json(d))
    if args.json != "-":
        sys.stdout.write(diff_text(d))
    return 1 if d["regressed"] else 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="opref conformance report", usage=USAGE, description=DESCRIPTION,
                                allow_abbrev=False)
    _add_arguments(p)
    args = p.parse_args(argv)
    try:
        return cmd_report(args)
    except OprefError as e:
        print(f"opref: error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
