"""`opref conformance generate | extract | run` end to end through the command line: a small suite
(a few op versions, a few dozen cases) on opref, OpenVINO, onnxruntime and a toy user backend that
crashes, segfaults, hangs, fails and declines on chosen cases; the xfail ratchet; Dask."""
from __future__ import annotations

import filecmp
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from opref.conformance.casefiles import SuiteCase
from opref.conformance.compare import TOLERANCE

HERE = Path(__file__).parent
OPS = "Relu-1,Abs-1,Col2Im-15"
KEY = "f32"


def _strict(text):
    def bad(c):
        raise AssertionError(f"non-strict JSON constant {c}")
    return json.loads(text, parse_constant=bad)


def opref_cli(*args, env=None, check=None):
    e = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]))
    e.update(env or {})
    p = subprocess.run([sys.executable, "-m", "opref.cli", *map(str, args)], capture_output=True, text=True, env=e,
                       timeout=300)
    if check is not None:
        assert p.returncode == check, f"exit {p.returncode}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}"
    return p


@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    out = tmp_path_factory.mktemp("suite") / "s"
    opref_cli("conformance", "generate", "--out", out, "--op", OPS, "-k", KEY, "--workers", "1", "-q", check=0)
    return out


@pytest.fixture(scope="module")
def manifest(suite):
    return _strict((suite / "manifest.json").read_text())


def _results(path):
    doc = _strict(Path(path).read_text())
    assert doc["format"] == "opref-conformance-results/1"
    return doc, {(r["id"], r["backend"]): r for r in doc["results"]}


def test_manifest_follows_the_contract(suite, manifest):
    assert manifest["format"] == "opref-conformance-suite/1"
    assert set(manifest["versions"]) == {"opref", "numpy", "onnx", "openvino", "onnxruntime"}
    cov = manifest["coverage"]
    assert cov["op_versions_total"] == 245 and cov["in_suite"] == 3 and cov["missing"] == []
    cases = manifest["cases"]
    assert 30 <= len(cases) <= 100
    assert [c["id"] for c in cases] == sorted(c["id"] for c in cases)
    origins = {c["origin"] for c in cases}
    assert origins == {"table", "edge"}
    for c in cases:
        op, dtype, mode, name = c["id"].split("/")
        assert (op, dtype, mode) == (c["op"], c["element_type"], "static") and c["dir"] == f"cases/{c['id']}"
        d = suite / c["dir"]
        assert (d / "model.xml").exists() and (d / "inputs.npz").exists() and (d / "expected.npz").exists()
        assert (c["onnx"] is None) == (c["onnx_reason"] is not None)
        t = c["tolerance"]
        if t["exact"]:                                  # data movement, integer results: exact
            assert (t["rtol"], t["atol"]) == (0.0, 0.0)
        else:                                           # computed f32: compare.py's tolerance
            assert (t["rtol"], t["atol"]) == TOLERANCE["f32"]
        with np.load(d / "expected.npz") as z:
            assert list(z.files) == c["outputs"]
    kinds = {c["id"].split("/")[3].rsplit("-", 1)[0] for c in cases if c["origin"] == "edge"}
    assert {"edge-zeros", "edge-nonfinite"} <= kinds
    # the stored arrays are the case table's arrays and opref's outputs
    c = next(c for c in cases if c["op"] == "Relu-1" and c["origin"] == "table")
    sc = SuiteCase(c, suite / c["dir"])
    np.testing.assert_array_equal(sc.expected[0], np.maximum(sc.inputs[0], 0), strict=True)


def test_generate_is_deterministic(suite, tmp_path):
    again = tmp_path / "again"
    opref_cli("conformance", "generate", "--out", again, "--op", OPS, "-k", KEY, "--workers", "2", "-q", check=0)
    cmp = filecmp.dircmp(suite, again)
    files = [p.relative_to(suite) for p in suite.rglob("*") if p.is_file() and "results" not in p.name
             and ".repro" not in str(p)]
    assert len(files) > 100
    for f in files:
        assert (suite / f).read_bytes() == (again / f).read_bytes(), f"{f} differs"
    assert not cmp.right_only


def test_dynamic_mode_declares_dynamic_dims(tmp_path):
    out = tmp_path / "dyn"
    opref_cli("conformance", "generate", "--out", out, "--op", "Col2Im-15", "--shape-mode", "dynamic",
              "-k", "f32 and not edge", "--workers", "1", "-q", check=0)
    m = _strict((out / "manifest.json").read_text())
    assert m["cases"] and all(c["mode"] == "dynamic" for c in m["cases"])
    xml = (out / m["cases"][0]["dir"] / "model.xml").read_text()
    assert 'shape="?' in xml or "..'" in xml or ".." in xml
    opref_cli("conformance", "run", out, "--backends", "opref,openvino", "-q", check=0)


def test_three_backends(suite, manifest):
    p = opref_cli("conformance", "run", suite, "--backends", "opref,openvino,onnxruntime", "--workers", "2",
                  "--results", suite / "three.json", "--no-default-xfails")
    doc, by = _results(suite / "three.json")
    assert [b["name"] for b in doc["backends"]] == ["opref", "openvino", "onnxruntime"]
    ov = doc["backends"][1]
    assert ov["config"] == {"INFERENCE_PRECISION_HINT": "f32", "DYNAMIC_QUANTIZATION_GROUP_SIZE": "0"} and ov["device"] == "CPU" and ov["formats"] == ["ir"]
    assert len(doc["results"]) == 3 * len(manifest["cases"])
    assert {r["status"] for (i, b), r in by.items() if b == "opref"} == {"passed"}
    # OpenVINO's CPU plugin maps NaN to 0 in Relu (a departure from the spec): those cases fail, nothing else
    entries = {c["id"]: c for c in manifest["cases"]}
    failed = [i for (i, b), r in by.items() if b == "openvino" and r["status"] != "passed"]
    for i in failed:
        assert by[(i, "openvino")]["status"] == "failed" and "nan" in by[(i, "openvino")]["message"]
        assert np.isnan(SuiteCase(entries[i], suite / entries[i]["dir"]).inputs[0]).any()
        assert by[(i, "openvino")]["min_tolerance"]["atol"] == "inf"
    assert p.returncode == (1 if failed else 0)
    for c in manifest["cases"]:
        assert by[(c["id"], "onnxruntime")]["status"] == ("passed" if c["onnx"] else "not-implemented")
    assert "opref: 3/3 op versions pass fully" in p.stdout
    assert "Relu-1" in p.stderr                      # one progress line per finished op version (no TTY)


@pytest.fixture(scope="module")
def picks(suite, manifest):
    relu = [c["id"] for c in manifest["cases"] if c["op"] == "Relu-1" and c["origin"] == "table"
            and SuiteCase(c, suite / c["dir"]).inputs[0].size]
    return {"TOY_CRASH": relu[0], "TOY_SEGV": relu[1], "TOY_HANG": relu[2], "TOY_WRONG": relu[3],
            "TOY_NOT_IMPLEMENTED": relu[4], "TOY_RAISE": relu[5]}


def test_toy_backend_statuses(suite, manifest, picks):
    res = suite / "toy.json"
    p = opref_cli("conformance", "run", suite, "--backends", "toy_backend:ToyBackend", "-k", "Relu",
                  "--timeout", "4", "--workers", "2", "--results", res, env=picks, check=1)
    doc, by = _results(res)
    assert doc["backends"][0] == {"name": "toy", "spec": "toy_backend:ToyBackend", "version": "0.0.1",
                                  "device": None, "config": {}, "formats": ["ir"]}
    status = {k: by[(v, "toy")]["status"] for k, v in picks.items()}
    assert status == {"TOY_CRASH": "crashed", "TOY_SEGV": "crashed", "TOY_HANG": "timeout", "TOY_WRONG": "failed",
                      "TOY_NOT_IMPLEMENTED": "not-implemented", "TOY_RAISE": "failed"}
    assert "SIGSEGV" in by[(picks["TOY_SEGV"], "toy")]["message"]
    wrong = by[(picks["TOY_WRONG"], "toy")]
    # off by one everywhere: the smallest passing atol (in the manifest's units, before `scale`) is 1/scale
    scale = next(c for c in manifest["cases"] if c["id"] == picks["TOY_WRONG"])["tolerance"]["scale"]
    assert wrong["min_tolerance"]["rtol"] == TOLERANCE["f32"][0]
    assert wrong["min_tolerance"]["atol"] * scale == pytest.approx(1.0, rel=1e-3)
    others = [r for (i, b), r in by.items() if i not in picks.values()]
    assert others and {r["status"] for r in others} == {"passed"}
    for key in ("TOY_CRASH", "TOY_HANG", "TOY_WRONG"):
        r = by[(picks[key], "toy")]
        repro = res.parent / r["repro"]
        assert (repro / "model.xml").exists() and (repro / "command.txt").read_text().strip() == r["command"]
    assert (res.parent / wrong["repro"] / "actual.npz").exists()
    assert "crashed" in p.stdout and "timeout" in p.stdout


def test_repro_command_runs_one_case(suite, picks):
    res = suite / "one.json"
    opref_cli("conformance", "run", suite, "--backends", "toy_backend:ToyBackend", "--case", picks["TOY_WRONG"],
              "--results", res, env=picks, check=1)
    doc, by = _results(res)
    assert list(by) == [(picks["TOY_WRONG"], "toy")] and by[(picks["TOY_WRONG"], "toy")]["status"] == "failed"
    opref_cli("conformance", "run", suite, "--backends", "toy_backend:ToyBackend", "--case", "nope", check=1)


def test_xfail_ratchet(suite, picks, tmp_path):
    env = {"TOY_WRONG": picks["TOY_WRONG"], "TOY_CRASH": picks["TOY_CRASH"]}
    xf = tmp_path / "toy.txt"
    passing = picks["TOY_HANG"]                         # not set to hang here: it passes
    xf.write_text(f"{picks['TOY_WRONG']}  # adds one\n{picks['TOY_CRASH'][:-2]}*  # dies\n{passing}  # stale\n")
    args = ["conformance", "run", suite, "--backends", "toy_backend:ToyBackend", "-k", "Relu",
            "--xfails", f"toy_backend:ToyBackend={xf}", "--results", tmp_path / "r.json"]
    opref_cli(*args, env=env, check=1)                  # the stale entry passes: xpassed fails the run
    _, by = _results(tmp_path / "r.json")
    assert by[(picks["TOY_WRONG"], "toy")]["status"] == "xfailed"
    assert by[(picks["TOY_CRASH"], "toy")]["status"] == "xfailed"
    assert by[(passing, "toy")]["status"] == "xpassed"
    # something new fails: the file is left alone
    before = xf.read_text()
    p = opref_cli(*args, "--update-xfails", env={**env, "TOY_RAISE": picks["TOY_RAISE"]}, check=1)
    assert xf.read_text() == before and "not updated" in p.stdout
    # nothing new: the stale entry is dropped, the others kept with their reasons
    opref_cli(*args, "--update-xfails", env=env, check=0)
    text = xf.read_text()
    assert passing not in text and "# adds one" in text and "# dies" in text
    opref_cli(*args, env=env, check=0)
    xf.write_text(f"{passing}\n")                        # a reason is required
    assert "reason is required" in opref_cli(*args, env=env, check=1).stderr


def test_extract_from_a_model(tmp_path):
    out = tmp_path / "ex"
    opref_cli("conformance", "extract", HERE.parent / "examples" / "tiny_cnn.xml", "--out", out, check=0)
    m = _strict((out / "manifest.json").read_text())
    ops = [c["op"] for c in m["cases"]]
    assert {"Convolution-1", "Relu-1", "Softmax-8"} <= set(ops) and all(c["origin"] == "extract" for c in m["cases"])
    keys = [(c["op"], c["input_types"], len(c["inputs"])) for c in m["cases"]]
    assert len(ops) < 20 and len(keys) == len(m["cases"])
    opref_cli("conformance", "run", out, "--backends", "opref,openvino", "-q", check=0)


def test_dask_local_cluster(suite, tmp_path, monkeypatch):
    distributed = pytest.importorskip("distributed")
    from opref import cli
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as c:
        monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]))
        code = cli.main(["conformance", "run", str(suite), "--backends", "opref,toy_backend:ToyBackend",
                         "-k", "Abs", "--dask-scheduler", c.scheduler_address, "--results", str(tmp_path / "d.json"),
                         "-q"])
    assert code == 0
    doc, by = _results(tmp_path / "d.json")
    assert by and {r["status"] for r in by.values()} == {"passed"} and {b for _, b in by} == {"opref", "toy"}


def test_usage_and_input_errors(suite, tmp_path):
    assert opref_cli("conformance", "run", suite).returncode == 2                      # --backends missing
    assert opref_cli("conformance", "generate").returncode == 2                        # --out missing
    p = opref_cli("conformance", "run", tmp_path, "--backends", "opref", check=1)
    assert "manifest" in p.stderr and "Traceback" not in p.stderr
    p = opref_cli("conformance", "run", suite, "--backends", "nosuch.module:X", check=1)
    assert "cannot import" in p.stderr
    p = opref_cli("conformance", "run", suite, "--backends", "toy_backend:Broken", check=1)
    assert "no device here" in p.stderr
    p = opref_cli("conformance", "generate", "--out", tmp_path / "x", "--op", "Nope-1", check=1)
    assert "unknown op" in p.stderr


def test_state_ops_are_written_with_their_partner(tmp_path):
    """A ReadValue or an Assign alone is not a valid model: each one-op model carries its partner on the
    same variable (schema.partner), and OpenVINO runs them (f32 cases, both shape modes)."""
    out = tmp_path / "state"
    opref_cli("conformance", "generate", "--out", out, "--op", "ReadValue-3,ReadValue-6,Assign-3,Assign-6",
              "--shape-mode", "both", "-k", "f32 and not edge", "--workers", "1", "-q", check=0)
    m = _strict((out / "manifest.json").read_text())
    assert {c["op"] for c in m["cases"]} == {"ReadValue-3", "ReadValue-6", "Assign-3", "Assign-6"}
    for c in m["cases"][:8]:
        xml = (out / c["dir"] / "model.xml").read_text()
        assert xml.count('type="ReadValue"') == 1 and xml.count('type="Assign"') == 1, c["id"]
    opref_cli("conformance", "run", out, "--backends", "opref,openvino", "-q", check=0)
    doc, by = _results(out / "results.json")
    assert {r["status"] for r in by.values()} == {"passed"} and len(by) == 2 * len(m["cases"])
