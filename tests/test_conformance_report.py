"""`opref conformance report`: results files -> text, strict JSON, JUnit (schema-checked), CSV and the
self-contained HTML report, which is loaded in headless Chromium (rendering, filters, zero network
requests); `report diff A B`.

The results are synthetic and follow the contract (briefs: the results format); every expected number
below is counted by hand from the table CASES, not computed by the code under test."""
from __future__ import annotations

import base64
import csv
import fcntl
import io
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from lxml import etree

from opref.conformance import report
from opref.conformance.report_html import embed_json, render

# A message that tries to break out of every context it lands in (HTML, <script>, XML, CSV, JSON).
WEIRD = ('max abs error 3.1e-05 </script><script>document.title="pwned"</script> <!-- "q" \'s\' & <b>x</b>, '
         'line\u2028sep \u00e9\u4e2d \x01ctl')

# (op, case, backend, status, message, min_tolerance); category and opsets per op in OPS.
CASES = [
    ("Col2Im-15", "k2", "openvino", "passed", None, None),
    ("Col2Im-15", "k3,pads=1", "openvino", "failed", WEIRD, {"rtol": 0.0, "atol": 3.1e-05}),
    ("Col2Im-15", "nan", "openvino", "failed", "1 of 4 elements differ: NaN vs 1.0", {"rtol": "nan", "atol": "nan"}),
    ("Col2Im-15", "k2", "mybackend", "crashed", "worker died: signal 11", None),
    ("Col2Im-15", "k3,pads=1", "mybackend", "passed", None, None),
    *[("Convolution-1", f"c{i}", "openvino", "passed", None, None) for i in range(1, 5)],
    ("Convolution-1", "c5", "openvino", "xfailed", "known: bf16 accumulation", None),
    ("Convolution-1", "c1", "mybackend", "failed", "12 of 64 outside", {"rtol": 1e-3, "atol": "inf"}),
    ("Convolution-1", "c2", "mybackend", "failed", "3 of 64 outside", {"rtol": 2e-3, "atol": 1e-06}),
    ("Convolution-1", "c3", "mybackend", "timeout", "no answer in 60 s", None),
    ("Convolution-1", "c4", "mybackend", "harness-error", "cannot read model.onnx", None),
    ("Convolution-1", "c5", "mybackend", "xpassed", "expected to fail, passed", None),
    ("Abs-1", "a", "openvino", "passed", None, None),
    ("Abs-1", "a", "mybackend", "not-implemented", "no kernel for Abs", None),
    ("Softmax-8", "s1", "mybackend", "passed", None, None),
    ("Softmax-8", "s2", "mybackend", "not-implemented", "axis=-1 only", None),
]
OPS = {"Col2Im-15": ("movement", ["opset15", "opset16"]),
       "Convolution-1": ("convolution", [f"opset{i}" for i in range(1, 17)]),
       "Abs-1": ("arithmetic", [f"opset{i}" for i in range(1, 17)]),
       "Softmax-8": ("activation", [f"opset{i}" for i in range(8, 17)])}
PROBLEM = {"failed", "xpassed", "crashed", "timeout", "harness-error"}
COVERAGE = {"op_versions_total": 245, "registered": 245, "in_suite": 4, "missing": ["Add-1", "Einsum-7"]}


def case_id(op, case):
    return f"{op}/f32/static/{case}"


def result(op, case, backend, status, message, tol, *, repro=True):
    cid = case_id(op, case)
    cat, opsets = OPS[op]
    return {"id": cid, "op": op, "category": cat, "opsets": opsets, "element_type": "f32", "mode": "static",
            "backend": backend, "status": status, "message": message, "seconds": 0.25,
            "min_tolerance": tol, "repro": f"repro/{backend}/{cid}" if repro and status in PROBLEM else None,
            "command": f"opref conformance run suite --backends {backend} --case '{cid}'"}


def write_results(path: Path, rows, *, backends=("openvino", "mybackend"), make_repro=True, coverage=COVERAGE):
    """A results file as the runner writes it (strict JSON), with repro folders for its problems."""
    results = [result(*r) for r in rows]
    if make_repro:
        for r in results:
            if r["repro"]:
                d = path.parent / r["repro"]
                d.mkdir(parents=True, exist_ok=True)
                for name in ("model.xml", "model.bin", "inputs.npz", "expected.npz", "actual.npz", "command.txt"):
                    (d / name).write_text("x")
    infos = [{"name": b, "spec": b if b == "openvino" else "mypkg.backend:Backend", "version": "1.0",
              "device": "CPU", "config": {"INFERENCE_PRECISION_HINT": "f32", "DYNAMIC_QUANTIZATION_GROUP_SIZE": "0"}, "formats": ["ir"]} for b in backends]
    data = {"format": "opref-conformance-results/1", "suite": "suite", "manifest_sha256": "0" * 64,
            "started": "2026-11-23T12:00:00Z", "seconds": 12.5,
            "versions": {"opref": "0.1.0", "numpy": "2.4", "onnx": None, "openvino": "2026.4.1", "onnxruntime": None},
            "coverage": coverage, "backends": infos, "results": results}
    path.write_text(json.dumps(data, allow_nan=False), encoding="utf-8")
    return path


@pytest.fixture
def two_files(tmp_path):
    """One results file per backend, as from two machines."""
    a = write_results(tmp_path / "ov" / "results.json", [c for c in CASES if c[2] == "openvino"], backends=["openvino"])
    b = write_results(tmp_path / "mine" / "results.json", [c for c in CASES if c[2] == "mybackend"],
                      backends=["mybackend"])
    return a, b


def strict_loads(text):
    def reject(name):
        raise AssertionError(f"bare {name} in JSON")
    return json.loads(text, parse_constant=reject)


def run_cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "opref.conformance.report", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def rows_by_key(rep):
    return {(r["op"], r["backend"]): r for r in rep["rows"]}


# ---------------------------------------------------------------------------------------- aggregation
def test_rows_per_op_version_and_backend(two_files, tmp_path):
    rep = report.summarize(report.Merged([str(p) for p in two_files]), str(tmp_path))
    rows = rows_by_key(rep)
    assert len(rows) == 7
    col_ov, col_me = rows[("Col2Im-15", "openvino")], rows[("Col2Im-15", "mybackend")]
    assert (col_ov["cases"], col_ov["counts"]["passed"], col_ov["counts"]["failed"]) == (3, 1, 2)
    assert col_ov["pass_rate"] == pytest.approx(1 / 3)
    assert col_ov["min_tolerance"] == {"rtol": "nan", "atol": "nan"}          # NaN: no tolerance would pass
    assert col_me["pass_rate"] == 0.5 and col_me["counts"]["crashed"] == 1 and col_me["min_tolerance"] is None
    conv_ov, conv_me = rows[("Convolution-1", "openvino")], rows[("Convolution-1", "mybackend")]
    assert conv_ov["pass_rate"] == 1.0 and conv_ov["counts"]["xfailed"] == 1 and conv_ov["problems"] == 0
    assert conv_me["pass_rate"] == 0.0 and conv_me["problems"] == 5
    assert conv_me["min_tolerance"] == {"rtol": 2e-3, "atol": "inf"}          # max over the failures
    assert rows[("Abs-1", "mybackend")]["implemented"] == "no" and rows[("Abs-1", "mybackend")]["pass_rate"] is None
    assert rows[("Softmax-8", "mybackend")]["implemented"] == "partial"
    assert rows[("Softmax-8", "mybackend")]["pass_rate"] == 1.0
    assert rows[("Abs-1", "openvino")]["implemented"] == "yes"
    assert col_ov["category"] == "movement" and col_ov["opsets"] == ["opset15", "opset16"]
    # problems first: every row with a problem precedes every row without one
    flags = [r["problems"] > 0 for r in rep["rows"]]
    assert flags == sorted(flags, reverse=True) and sum(flags) == 3
    # failures carry message, tolerance, repro (relative, existing) and the rerun command
    f = next(f for f in col_ov["failures"] if f["id"] == case_id("Col2Im-15", "k3,pads=1"))
    assert f["message"] == WEIRD and f["min_tolerance"] == {"rtol": 0.0, "atol": 3.1e-05}
    assert not os.path.isabs(f["repro"]) and (tmp_path / f["repro"]).is_dir()
    assert (tmp_path / f["repro"]).resolve() == (two_files[0].parent / "repro/openvino" / f["id"]).resolve()
    assert f["files"] == ["model.xml", "model.bin", "inputs.npz", "expected.npz", "actual.npz", "command.txt"]
    assert f["command"] == f"opref conformance run suite --backends openvino --case '{f['id']}'"
    summary = {s["backend"]: s for s in rep["summary"]}
    assert summary["all"]["cases"] == len(CASES) == 19
    assert summary["mybackend"]["counts"]["not-implemented"] == 2
    assert summary["openvino"]["pass_rate"] == pytest.approx(6 / 8)           # 6 passed, 1 xfailed left out
    assert summary["mybackend"]["pass_rate"] == pytest.approx(2 / 8)          # 2 passed; 2 n-i left out
    assert summary["openvino"]["all_passed"] == 2                               # Convolution-1, Abs-1
    assert summary["mybackend"]["implemented"] == 3                             # all but Abs-1


def test_coverage_says_how_many_of_245(two_files, tmp_path):
    rep = report.summarize(report.Merged([str(p) for p in two_files]), str(tmp_path))
    cov = rep["coverage"]
    assert (cov["op_versions_total"], cov["in_suite"], cov["in_results"]) == (245, 4, 4)
    assert cov["missing"] == ["Add-1", "Einsum-7"]
    assert "covers 4 of 245 op versions" in cov["text"]
    assert cov["per_backend"]["mybackend"] == {"with_results": 4, "implemented": 3, "all_passed": 0}


def test_merge_later_file_wins(tmp_path):
    a = write_results(tmp_path / "a.json", [("Abs-1", "a", "openvino", "failed", "old", None)])
    b = write_results(tmp_path / "b.json", [("Abs-1", "a", "openvino", "passed", None, None)])
    m = report.Merged([str(a), str(b)])
    assert m.duplicates == 1 and [r["status"] for r in m.results] == ["passed"]
    m = report.Merged([str(b), str(a)])
    assert [r["status"] for r in m.results] == ["failed"]


# ---------------------------------------------------------------------------------------- files
def test_cli_writes_every_format(two_files, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    p = run_cli(*two_files, "--html", out / "r.html", "--json", out / "r.json", "--junit", out / "r.xml",
                "--csv", out / "r.csv", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    # JSON: strict, parsed back, and the numbers match the hand counts
    rep = strict_loads((out / "r.json").read_text(encoding="utf-8"))
    assert rep["format"] == "opref-conformance-report/1"
    rows = rows_by_key(rep)
    assert rows[("Convolution-1", "mybackend")]["counts"] == {
        "passed": 0, "failed": 2, "xfailed": 0, "xpassed": 1, "not-implemented": 0, "harness-error": 1,
        "crashed": 0, "timeout": 1}
    assert rows[("Col2Im-15", "openvino")]["min_tolerance"] == {"rtol": "nan", "atol": "nan"}
    repro = rows[("Col2Im-15", "mybackend")]["failures"][0]["repro"]
    assert (out / repro).is_dir()                                               # relative to the JSON file
    # CSV: one row per op version x backend, problems first
    table = list(csv.DictReader(io.StringIO((out / "r.csv").read_text(encoding="utf-8"))))
    assert len(table) == 7
    assert {(t["op"], t["backend"]) for t in table[:3]} == {
        ("Col2Im-15", "openvino"), ("Col2Im-15", "mybackend"), ("Convolution-1", "mybackend")}
    conv = next(t for t in table if (t["op"], t["backend"]) == ("Convolution-1", "mybackend"))
    assert (conv["cases"], conv["failed"], conv["timeout"], conv["pass_rate"], conv["min_rtol"], conv["min_atol"]) == (
        "5", "2", "1", "0", "0.002", "inf")
    assert p.stdout == ""


JUNIT_XSD = b"""<?xml version="1.0" encoding="UTF-8"?>
<!-- JUnit XML as Jenkins' junit/xunit plugins and pytest read and write it (the element and attribute
     set of Jenkins' junit-10 schema), written out here so the test needs no download. -->
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:simpleType name="seconds">
    <xs:restriction base="xs:string"><xs:pattern value="[0-9]+(\\.[0-9]*)?"/></xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="count">
    <xs:restriction base="xs:string"><xs:pattern value="[0-9]+"/></xs:restriction>
  </xs:simpleType>
  <xs:complexType name="outcome" mixed="true">
    <xs:attribute name="type" type="xs:string"/>
    <xs:attribute name="message" type="xs:string"/>
  </xs:complexType>
  <xs:element name="testsuites">
    <xs:complexType>
      <xs:sequence><xs:element ref="testsuite" minOccurs="0" maxOccurs="unbounded"/></xs:sequence>
      <xs:attribute name="name" type="xs:string"/>
      <xs:attribute name="time" type="seconds"/>
      <xs:attribute name="tests" type="count"/>
      <xs:attribute name="failures" type="count"/>
      <xs:attribute name="errors" type="count"/>
    </xs:complexType>
  </xs:element>
  <xs:element name="testsuite">
    <xs:complexType>
      <xs:choice minOccurs="0" maxOccurs="unbounded">
        <xs:element name="properties">
          <xs:complexType><xs:sequence>
            <xs:element name="property" minOccurs="0" maxOccurs="unbounded">
              <xs:complexType>
                <xs:attribute name="name" type="xs:string" use="required"/>
                <xs:attribute name="value" type="xs:string" use="required"/>
              </xs:complexType>
            </xs:element>
          </xs:sequence></xs:complexType>
        </xs:element>
        <xs:element name="testcase">
          <xs:complexType>
            <xs:choice minOccurs="0" maxOccurs="unbounded">
              <xs:element name="failure" type="outcome"/>
              <xs:element name="error" type="outcome"/>
              <xs:element name="skipped" type="outcome"/>
              <xs:element name="system-out" type="xs:string"/>
              <xs:element name="system-err" type="xs:string"/>
            </xs:choice>
            <xs:attribute name="name" type="xs:string" use="required"/>
            <xs:attribute name="classname" type="xs:string"/>
            <xs:attribute name="time" type="seconds"/>
          </xs:complexType>
        </xs:element>
        <xs:element name="system-out" type="xs:string"/>
        <xs:element name="system-err" type="xs:string"/>
      </xs:choice>
      <xs:attribute name="name" type="xs:string" use="required"/>
      <xs:attribute name="tests" type="count" use="required"/>
      <xs:attribute name="failures" type="count" use="required"/>
      <xs:attribute name="errors" type="count" use="required"/>
      <xs:attribute name="skipped" type="count"/>
      <xs:attribute name="time" type="seconds"/>
      <xs:attribute name="timestamp" type="xs:string"/>
      <xs:attribute name="hostname" type="xs:string"/>
    </xs:complexType>
  </xs:element>
</xs:schema>
"""


def test_junit_is_schema_valid(two_files, tmp_path):
    path = tmp_path / "junit.xml"
    assert run_cli(*two_files, "--junit", path, cwd=tmp_path).returncode == 0
    doc = etree.parse(str(path))
    schema = etree.XMLSchema(etree.fromstring(JUNIT_XSD))
    assert schema.validate(doc), schema.error_log
    suites = {s.get("name"): s for s in doc.getroot().findall("testsuite")}
    assert set(suites) == {"openvino", "mybackend"}
    # counted by hand from CASES: failures = failed + xpassed, errors = crashed + timeout + harness-error,
    # skipped = not-implemented + xfailed
    me, ov = suites["mybackend"], suites["openvino"]
    assert (me.get("tests"), me.get("failures"), me.get("errors"), me.get("skipped")) == ("10", "3", "3", "2")
    assert (ov.get("tests"), ov.get("failures"), ov.get("errors"), ov.get("skipped")) == ("9", "2", "0", "1")
    root = doc.getroot()
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("19", "5", "3")
    case = ov.find(f"testcase[@name='{case_id('Col2Im-15', 'k3,pads=1')}']")
    assert case.get("classname") == "openvino.movement.Col2Im-15"
    fail = case.find("failure")
    # the message survives XML escaping; the control character XML cannot carry is replaced
    assert fail.get("message") == WEIRD.replace("\x01", "\ufffd")
    assert "rerun: opref conformance run suite" in fail.text and "repro: " in fail.text
    assert "atol=3.1e-05" in fail.text
    assert len(ov.findall("testcase/skipped[@type='pytest.xfail']")) == 1


def test_text_table(two_files, tmp_path):
    p = run_cli(*two_files, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0].split()[:2] == ["op", "version"]
    body = [ln.split() for ln in lines[2:9]]
    assert {tuple(b[:2]) for b in body[:3]} == {("Col2Im-15", "openvino"), ("Col2Im-15", "mybackend"),
                                                ("Convolution-1", "mybackend")}
    assert any("covers 4 of 245 op versions" in ln for ln in lines)
    assert "problems: 8" in p.stdout
    assert f"--case '{case_id('Convolution-1', 'c3')}'" in p.stdout


def test_user_errors_are_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something-else"}')
    p = run_cli(bad, cwd=tmp_path)
    assert p.returncode == 1 and p.stderr.startswith("opref: error:") and len(p.stderr.splitlines()) == 1
    assert "not an opref conformance results file" in p.stderr
    good = write_results(tmp_path / "r.json", CASES[:2])
    p = run_cli(good, "--html", tmp_path / "nowhere" / "r.html", cwd=tmp_path)
    assert p.returncode == 1 and "does not exist" in p.stderr
    data = json.loads(good.read_text())
    data["results"][0]["status"] = "green"
    bad.write_text(json.dumps(data))
    p = run_cli(bad, cwd=tmp_path)
    assert p.returncode == 1 and "unknown status 'green'" in p.stderr


def test_bare_nan_in_input_still_gives_strict_json(tmp_path):
    path = write_results(tmp_path / "r.json", CASES[:3])
    sloppy = path.read_text().replace('"rtol": "nan"', '"rtol": NaN')          # a writer that broke the format
    assert sloppy.count('"rtol": NaN') == 1
    path.write_text(sloppy)
    rep = report.summarize(report.Merged([str(path)]), str(tmp_path))
    assert strict_loads(report.to_json(rep))["rows"][0]["min_tolerance"]["rtol"] == "nan"   # strict_loads rejects NaN


# ---------------------------------------------------------------------------------------- diff
def test_diff_regressions_exit_1(tmp_path):
    before = [("Abs-1", "a", "openvino", "passed", None, None),
              ("Abs-1", "b", "openvino", "failed", "off by one", None),
              ("Abs-1", "c", "openvino", "xfailed", "known", None),
              ("Abs-1", "d", "openvino", "passed", None, None),
              ("Abs-1", "e", "openvino", "failed", "x", None)]
    after = [("Abs-1", "a", "openvino", "crashed", "signal 11", None),     # passed -> crashed: regression
             ("Abs-1", "b", "openvino", "passed", None, None),             # newly passing
             ("Abs-1", "c", "openvino", "xfailed", "known", None),         # unchanged
             ("Abs-1", "e", "openvino", "timeout", "slow", None),          # failed -> timeout: other change
             ("Abs-1", "f", "openvino", "passed", None, None)]             # added; d removed
    a = write_results(tmp_path / "a.json", before, make_repro=False)
    b = write_results(tmp_path / "b.json", after, make_repro=False)
    p = run_cli("diff", a, b, "--json", tmp_path / "d.json", cwd=tmp_path)
    assert p.returncode == 1, p.stderr
    d = strict_loads((tmp_path / "d.json").read_text())
    assert d["regressed"] is True
    assert d["counts"] == {"newly_failing": 1, "newly_passing": 1, "status_changed": 1, "added": 1, "removed": 1,
                           "unchanged": 1}
    assert d["newly_failing"][0]["id"] == case_id("Abs-1", "a") and d["newly_failing"][0]["after"] == "crashed"
    assert d["removed"][0]["id"] == case_id("Abs-1", "d") and d["added"][0]["id"] == case_id("Abs-1", "f")
    assert "1 newly failing" in p.stdout and "REGRESSED" in p.stdout
    assert d["ops"] == []                       # 2 of 4 passed before and after: no pass-rate change
    # B -> A has no regression from a passing case except b (passed -> failed) and f removed
    p = run_cli("diff", b, a, "--json", "-", cwd=tmp_path)
    assert p.returncode == 1 and strict_loads(p.stdout)["counts"]["newly_failing"] == 1
    p = run_cli("diff", a, a, cwd=tmp_path)
    assert p.returncode == 0 and "no regression" in p.stdout
    p = run_cli("diff", a, tmp_path / "missing.json", cwd=tmp_path)
    assert p.returncode == 2 and p.stderr.startswith("opref: error:")


def test_add_parser_wires_into_a_cli():
    import argparse
    top = argparse.ArgumentParser(prog="opref")
    group = top.add_subparsers(dest="command").add_parser("conformance").add_subparsers(dest="sub")
    report.add_parser(group)
    args = top.parse_args(["conformance", "report", "a.json", "b.json", "--html", "x.html"])
    assert args.fn is report.cmd_report and args.results == ["a.json", "b.json"] and args.html == "x.html"


# ---------------------------------------------------------------------------------------- HTML
def test_embedded_json_cannot_close_the_script():
    data = {"m": WEIRD + "</SCRIPT ><!--<script>"}
    text = embed_json(data)
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == data


def test_html_is_self_contained(two_files, tmp_path):
    rep = report.summarize(report.Merged([str(p) for p in two_files]), str(tmp_path))
    page = render(rep)
    assert page.count("</script>") == 2                      # the data block and the code, nothing injected
    assert not re.search(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/|@import|url\(|\bsrc\s*=", page, re.I)
    assert "Content-Security-Policy" in page and "default-src 'none'" in page


class Chromium:
    """Headless Chromium over the DevTools protocol on a pipe (fd 3: commands in, fd 4: answers out),
    with nothing but the standard library."""

    FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-default-apps", "--disable-extensions", "--host-resolver-rules=MAP * ~NOTFOUND",
             "--remote-debugging-pipe"]

    def __init__(self, exe):
        self.profile = tempfile.mkdtemp(prefix="opref-chromium-")
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()
        # The child's ends above fd 9, so that `3<&N 4>&M` cannot overwrite one with the other (bash: dash takes
        # one-digit descriptors only).
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (to_r, from_w)]
        os.close(to_r)
        os.close(from_w)
        to_r, from_w = high
        cmd = ["/bin/bash", "-c", f'exec "$0" "$@" 3<&{to_r} 4>&{from_w}', exe, *self.FLAGS,
               f"--user-data-dir={self.profile}", "about:blank"]
        self.proc = subprocess.Popen(cmd, pass_fds=(to_r, from_w), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        self.buf, self.last_id, self.events = b"", 0, []

    def _pump(self, deadline):
        ready, _, _ = select.select([self.from_r], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            raise TimeoutError("chromium did not answer in time")
        chunk = os.read(self.from_r, 1 << 20)
        if not chunk:
            raise RuntimeError("chromium closed the DevTools pipe")
        self.buf += chunk
        *msgs, self.buf = self.buf.split(b"\0")
        self.events += [json.loads(m) for m in msgs]

    def send(self, method, params=None, session=None, timeout=60):
        self.last_id += 1
        msg = {"id": self.last_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            for i, m in enumerate(self.events):
                if m.get("id") == self.last_id:
                    del self.events[i]
                    if "error" in m:
                        raise RuntimeError(f"{method}: {m['error']}")
                    return m.get("result", {})
            self._pump(deadline)

    def wait_for(self, method, timeout=60):
        deadline = time.monotonic() + timeout
        while True:
            for i, m in enumerate(self.events):
                if m.get("method") == method:
                    return self.events.pop(i)
            self._pump(deadline)

    def close(self):
        try:
            self.send("Browser.close", timeout=10)
        except (OSError, RuntimeError, TimeoutError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_w)
        os.close(self.from_r)
        shutil.rmtree(self.profile, ignore_errors=True)


class Page:
    """One tab with the network, console and exceptions recorded."""

    def __init__(self, browser, url):
        self.b = browser
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Network", "Runtime", "Log"):
            self.send(f"{domain}.enable")
        browser.events.clear()
        self.t0 = time.monotonic()
        self.send("Page.navigate", {"url": url})
        self.b.wait_for("Page.loadEventFired")
        self.load_seconds = time.monotonic() - self.t0

    def send(self, method, params=None):
        return self.b.send(method, params, self.session)

    def js(self, expr):
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            raise AssertionError(f"{expr}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def events(self, method):
        return [e["params"] for e in self.b.events if e.get("method") == method and e.get("sessionId") == self.session]

    def summary(self):
        """The summary rows as shown: {backend: {column: text}}."""
        return self.js("""Object.fromEntries([...document.querySelectorAll('#summary tbody tr')].map(tr =>
            [tr.dataset.backend, Object.fromEntries([...tr.cells].map(td => [td.dataset.k, td.textContent]))]))""")

    def matrix_ops(self):
        return self.js("[...document.querySelectorAll('#matrix tbody tr[data-op]:not(.detail)')].map(tr => tr.dataset.op)")


@pytest.fixture(scope="module")
def chromium():
    exe = shutil.which("chromium")
    if exe is None:
        pytest.fail("Debian's `chromium` is not installed: `apt-get install -y chromium` "
                    "(.ci/run installs it); the HTML report must be checked in a browser")
    browser = Chromium(exe)
    yield browser
    browser.close()


@pytest.fixture
def html_report(two_files, tmp_path):
    out = tmp_path / "site" / "report dir"                  # a space: links must be URL-escaped
    out.mkdir(parents=True)
    path = out / "report.html"
    p = run_cli(*two_files, "--html", path, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    return path


def test_html_renders_filters_and_stays_offline(chromium, html_report):
    page = Page(chromium, html_report.as_uri())
    assert page.js("document.body.dataset.ready") == "1"
    assert page.js("document.title") == "opref conformance report"             # the message did not inject
    # no request but the page itself, no console error (a CSP violation would be one), no exception
    urls = [e["request"]["url"] for e in page.events("Network.requestWillBeSent")]
    assert urls == [html_report.as_uri()]
    assert page.events("Runtime.exceptionThrown") == []
    assert [e for e in page.events("Log.entryAdded") if e["entry"]["level"] == "error"] == []

    s = page.summary()
    assert set(s) == {"mybackend", "openvino", "all"}
    assert (s["all"]["cases"], s["all"]["passed"], s["all"]["failed"], s["all"]["op_versions"]) == ("19", "8", "4", "4")
    assert s["openvino"]["pass_rate"] == "75.0%" and s["mybackend"]["pass_rate"] == "25.0%"
    assert s["mybackend"]["implemented"] == "3" and s["openvino"]["all_passed"] == "2"
    cov = page.js("document.querySelector('#summary tfoot td[data-k=coverage]').textContent")
    assert "covers 4 of 245 op versions" in cov and "2 op versions not in the suite" in cov
    assert page.matrix_ops()[:2] == ["Convolution-1", "Col2Im-15"]        # the worst pass rate first

    # a filter through the controls: backend -> the summary follows
    page.js("""(() => { const s = document.getElementById('f-backend'); s.value = 'mybackend';
               s.dispatchEvent(new Event('change')); })()""")
    s = page.summary()
    assert set(s) == {"mybackend", "all"} and s["all"]["cases"] == "10" and s["all"]["xpassed"] == "1"
    assert "backend=mybackend" in page.js("location.hash")
    # status: only the failed cases count; rows without one disappear
    page.js("""(() => { const s = document.getElementById('f-status'); s.value = 'failed';
               s.dispatchEvent(new Event('change')); })()""")
    s = page.summary()
    assert (s["all"]["cases"], s["all"]["failed"], s["all"]["passed"]) == ("2", "2", "0")
    assert page.matrix_ops() == ["Convolution-1"]
    # op text
    page.js("window.oprefReport.setFilters({op: 'col2im'})")
    assert page.matrix_ops() == ["Col2Im-15"] and page.summary()["all"]["cases"] == "5"
    page.js("window.oprefReport.setFilters({opset: 'opset8', category: 'activation'})")
    assert page.matrix_ops() == ["Softmax-8"] and page.summary()["all"]["not-implemented"] == "1"
    page.js("window.oprefReport.setFilters({status: 'problems'})")
    assert page.summary()["all"]["cases"] == "8" and page.summary()["all"]["passed"] == "0"
    page.js("window.oprefReport.setFilters({})")
    assert page.summary()["all"]["cases"] == "19"

    # failure details: the hostile message shows as text; the repro link resolves to the folder
    page.js("document.querySelector('#matrix tr[data-op=\"Col2Im-15\"] td.cell[data-backend=openvino]').click()")
    texts = page.js("[...document.querySelectorAll('tr.detail .fail pre')].map(p => p.textContent)")
    assert WEIRD in texts
    hrefs = page.js("[...document.querySelectorAll('tr.detail .fail a')].map(a => a.href)")
    folders = [Path(unquote(urlparse(h).path)) for h in hrefs if h.endswith("/")]
    assert len(folders) == 2 and all(f.is_dir() for f in folders)
    assert all(Path(unquote(urlparse(h).path)).is_file() for h in hrefs if not h.endswith("/"))
    cmds = page.js("[...document.querySelectorAll('tr.detail code.cmd')].map(c => c.textContent)")
    assert f"opref conformance run suite --backends openvino --case '{case_id('Col2Im-15', 'nan')}'" in cmds
    assert page.js("document.querySelectorAll('tr.detail button.copy').length") == 2
    tols = page.js("[...document.querySelectorAll('tr.detail .fail > div')].map(d => d.textContent)")
    assert "min tolerance that would pass: rtol nan, atol nan" in tols
    # every link in the page is relative (or a fragment): nothing leaves the machine
    assert page.js("[...document.querySelectorAll('[href],[src]')].filter(e => "
                   "/^[a-z][a-z0-9+.-]*:/i.test(e.getAttribute('href') || e.getAttribute('src') || '')).length") == 0
    urls = [e["request"]["url"] for e in page.events("Network.requestWillBeSent")]
    assert urls == [html_report.as_uri()]


def test_html_filters_from_the_url_fragment(chromium, html_report):
    page = Page(chromium, html_report.as_uri() + "#backend=openvino&status=xfailed")
    s = page.summary()
    assert set(s) == {"openvino", "all"} and s["all"]["cases"] == "1" and s["all"]["xfailed"] == "1"
    assert page.matrix_ops() == ["Convolution-1"]
    assert page.js("document.getElementById('f-status').value") == "xfailed"


def test_html_with_100k_results_stays_responsive(chromium, tmp_path):
    """250 op versions x 2 backends x 200 cases; every 20th case fails (with a repro), every 97th crashes."""
    statuses = []
    results = []
    for k in range(250):
        op = f"Op{k}-1"
        for backend in ("openvino", "mybackend"):
            for c in range(200):
                i = len(results)
                st = "crashed" if i % 97 == 0 else "failed" if i % 20 == 0 else "passed"
                statuses.append(st)
                results.append({"id": f"{op}/f32/static/c{c}", "op": op, "category": "movement",
                                "opsets": ["opset1"], "backend": backend, "status": st,
                                "message": None if st == "passed" else f"case {c} off",
                                "min_tolerance": {"rtol": 0.0, "atol": c * 1e-6} if st == "failed" else None,
                                "repro": None if st == "passed" else f"repro/{i}", "seconds": 0.001,
                                "command": f"opref conformance run suite --case '{op}/f32/static/c{c}'"})
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"format": "opref-conformance-results/1", "coverage": COVERAGE, "backends": [],
                                "results": results}))
    html = tmp_path / "big.html"
    t0 = time.monotonic()
    assert run_cli(path, "--html", html, cwd=tmp_path).returncode == 0
    assert time.monotonic() - t0 < 60
    page = Page(chromium, html.as_uri())
    assert page.load_seconds < 30
    assert int(page.js("document.body.dataset.renderMs")) < 3000
    s = page.summary()
    assert s["all"]["cases"] == "100000"
    assert s["all"]["crashed"] == str(statuses.count("crashed")) and s["all"]["failed"] == str(statuses.count("failed"))
    t0 = time.monotonic()
    page.js("window.oprefReport.setFilters({status: 'crashed', backend: 'mybackend'})")
    assert time.monotonic() - t0 < 5
    assert page.summary()["all"]["cases"] == str(sum(
        st == "crashed" and r["backend"] == "mybackend" for st, r in zip(statuses, results)))
    # details on demand: only the opened cell's failures are in the DOM, 100 at a time
    page.js("window.oprefReport.setFilters({})")
    assert page.js("document.querySelectorAll('.fail').length") == 0
    page.js("document.querySelector('#matrix td.cell').click()")
    assert 0 < page.js("document.querySelectorAll('.fail').length") <= 100


def test_screenshot_shows_a_matrix(chromium, html_report, tmp_path):
    """Rendering really happened: a screenshot is a non-trivial PNG."""
    page = Page(chromium, html_report.as_uri())
    png = base64.b64decode(page.send("Page.captureScreenshot", {"format": "png"})["data"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
    assert page.js("getComputedStyle(document.querySelector('#matrix td.cell')).backgroundColor") != "rgba(0, 0, 0, 0)"


# ---------------------------------------------------------------------------------------- end to end
SLOPPY = '''
import numpy as np
from opref.conformance.backends import Backend, NotImplementedByBackend, OprefBackend


class Sloppy(Backend):
    """opref's results plus 1e-3 on floating-point outputs; integer outputs are not implemented."""
    name = "sloppy"
    formats = ("ir",)

    def __init__(self, device=None):
        self.ref = OprefBackend()

    def version(self):
        return "0.1"

    def run(self, case):
        outs = self.ref.run(case)
        if not all(o.dtype.kind == "f" for o in outs):
            raise NotImplementedByBackend("floating point only")
        return [o + np.asarray(1e-3, o.dtype) for o in outs]
'''


def test_report_of_a_real_run(chromium, tmp_path):
    """generate -> run (opref and a sloppy user backend) -> report, all through `opref conformance`."""
    (tmp_path / "sloppy_backend.py").write_text(SLOPPY)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))

    def opref(*args):
        p = subprocess.run([sys.executable, "-m", "opref.cli", "conformance", *map(str, args)], cwd=tmp_path,
                           env=env, capture_output=True, text=True, timeout=300)
        return p
    p = opref("generate", "--out", "suite", "--op", "Abs-1", "--no-edges", "-k", "f32 or i32", "--workers", "1", "-q")
    assert p.returncode == 0, p.stderr
    p = opref("run", "suite", "--backends", "opref,sloppy_backend:Sloppy", "--workers", "1", "-q")
    assert p.returncode == 1, p.stderr                      # the sloppy backend fails cases
    run = json.loads((tmp_path / "suite" / "results.json").read_text())
    got = {(r["backend"], r["status"]) for r in run["results"]}
    assert {("opref", "passed"), ("sloppy", "failed"), ("sloppy", "not-implemented")} <= got
    p = opref("report", "suite/results.json", "--html", "report.html", "--json", "report.json", "--junit", "junit.xml")
    assert p.returncode == 0, p.stderr
    rep = strict_loads((tmp_path / "report.json").read_text())
    rows = rows_by_key(rep)
    for backend in ("opref", "sloppy"):
        mine = [r for r in run["results"] if r["backend"] == backend]
        assert rows[("Abs-1", backend)]["cases"] == len(mine)
        for status in report.STATUSES:
            assert rows[("Abs-1", backend)]["counts"][status] == sum(r["status"] == status for r in mine)
    assert rows[("Abs-1", "opref")]["pass_rate"] == 1.0 and rows[("Abs-1", "sloppy")]["implemented"] == "partial"
    assert "of 245 op versions" in rep["coverage"]["text"]
    tol = rows[("Abs-1", "sloppy")]["min_tolerance"]
    assert 5e-4 < tol["atol"] < 2e-2                        # the 1e-3 the backend added, scaled by atol's rule
    fail = rows[("Abs-1", "sloppy")]["failures"][0]
    assert {"model.xml", "model.bin", "inputs.npz", "expected.npz", "actual.npz"} <= set(fail["files"])
    assert fail["command"].startswith("opref conformance run") and fail["id"] in fail["command"]
    assert etree.XMLSchema(etree.fromstring(JUNIT_XSD)).validate(etree.parse(str(tmp_path / "junit.xml")))
    page = Page(chromium, (tmp_path / "report.html").as_uri())
    s = page.summary()
    assert s["sloppy"]["failed"] == str(rows[("Abs-1", "sloppy")]["counts"]["failed"])
    assert s["opref"]["pass_rate"] == "100.0%"
    assert [e["request"]["url"] for e in page.events("Network.requestWillBeSent")] == [
        (tmp_path / "report.html").as_uri()]
    page.js("document.querySelector('#matrix td.cell[data-backend=sloppy]').click()")
    href = page.js("document.querySelector('tr.detail .fail a').href")
    assert (Path(unquote(urlparse(href).path)) / "expected.npz").is_file()
