"""opref on the oldest versions of its dependencies that pyproject.toml declares.

pyproject's lower bounds (`numpy>=A`, `lxml>=B`, `ml_dtypes>=C`) are the versions tested here, pinned
exactly: a clean virtual environment (not --system-site-packages: nothing of this environment's leaks
in) gets `numpy==A lxml==B ml_dtypes==C` and pytest from the package registry (the pip cache serves
them when present), and opref itself, as a wheel built from a copy of this tree, with --no-deps. There:

1. the core tests run: the test modules below that need no oracle (reader, schemas, CLI, hand-checked
   kernel examples, ...), minus the few tests in them that ask an oracle (listed with the reason);
2. every conformance case runs through `run_op` and every shape case through `infer_op`, and the
   answers are compared with this environment's opref (which the oracle tests check against OpenVINO,
   onnxruntime and TensorFlow): values within the oracle tests' tolerances (bit-exact where they are
   exact), the same error class for every rejected case (with the case's expected message), the same
   inferred shapes, types and values. The value cases' inputs and attributes are sent from here, so
   both sides run the very same arrays (an older NumPy generates some random inputs a little
   differently); the shape cases are built on both sides and must be identical (a fingerprint each).

Nothing is skipped: a registry that cannot be reached fails the test with pip's message. Run it alone
with `python -m pytest -q tests/test_oldest_deps.py`; `python tests/test_oldest_deps.py answers CASES OUT`
is the child's entry point.
"""
from __future__ import annotations

import hashlib
import json
import os
import pickle
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEPENDENCIES = ("numpy", "lxml", "ml_dtypes")

# Test modules that need no oracle (OpenVINO, onnxruntime, TensorFlow, torch, onnx, hypothesis). Not here:
# tests/test_attention.py, test_seeds.py and test_embedding.py, whose hand checks use np.testing's
# `strict=` (NumPy >= 1.24 and >= 2.0: a test-side API, not opref's); their kernels are still compared
# case by case below.
CORE_TESTS = (
    "tests/test_reader.py", "tests/test_schemas.py", "tests/test_cli.py", "tests/test_activation.py",
    "tests/test_arithmetic.py", "tests/test_bitwise.py", "tests/test_comparison.py", "tests/test_condition.py",
    "tests/test_conversion.py", "tests/test_departures.py", "tests/test_detection_proposal.py",
    "tests/test_detection_roi.py", "tests/test_multiclass_nms.py", "tests/test_quantization.py",
    "tests/test_reduction.py", "tests/test_sort.py",
)
# Tests in those modules that ask an oracle after all.
NEEDS_AN_ORACLE = {
    "tests/test_reader.py::test_one_op_model_of_a_split_keeps_every_output_apart": "runs the model on OpenVINO",
    "tests/test_schemas.py::test_bucketize_output_type_defaults_to_openvinos": "asks OpenVINO's opset3",
    "tests/test_cli.py::test_run_shape_changes_static_dims_as_shapes_does": "reshapes with OpenVINO",
    "tests/test_cli.py::test_model_reshape": "reshapes with OpenVINO",
}
# A clean venv, a pip install served from the cache, ~30k cases on each side: well under 3 minutes.
PIP_TIMEOUT = 900
RUN_TIMEOUT = 600


# --- pyproject's lower bounds ---------------------------------------------------------------------
def lower_bounds() -> dict[str, str]:
    """{name: version} from pyproject's `dependencies`, each of which must be `name>=version`."""
    text = (ROOT / "pyproject.toml").read_text()
    try:
        import tomllib
        deps = tomllib.loads(text)["project"]["dependencies"]
    except ModuleNotFoundError:                      # Python 3.10: the one line that declares them
        deps = re.findall(r'"([^"]+)"', re.search(r"^dependencies = \[(.*)\]$", text, re.M).group(1))
    bounds = {}
    for dep in deps:
        m = re.fullmatch(r"\s*([A-Za-z0-9_.-]+)\s*>=\s*([0-9]+(?:\.[0-9]+)*)\s*", dep)
        assert m, f"pyproject dependency {dep!r} is not of the form name>=version (the tested lower bound)"
        bounds[m.group(1)] = m.group(2)
    return bounds


def test_every_dependency_has_a_tested_lower_bound():
    assert set(lower_bounds()) == set(DEPENDENCIES), \
        f"pyproject's dependencies {sorted(lower_bounds())} are not the ones this test pins {DEPENDENCIES}"


# --- the answers: the same code runs here and in the oldest environment ---------------------------
def _encode(a):
    """An array as builtins only (pickles written by one NumPy/ml_dtypes version load in any other)."""
    import ml_dtypes
    import numpy as np
    a = np.asarray(a)
    if a.dtype.kind in "UT":                         # unicode, or NumPy 2's StringDType
        return ("str", a.shape, [str(s) for s in a.reshape(-1).tolist()])
    token = a.dtype.name if hasattr(ml_dtypes, a.dtype.name) else a.dtype.str     # ml_dtypes' types by name
    return (token, a.shape, np.ascontiguousarray(a).tobytes())


def _decode(enc):
    import ml_dtypes
    import numpy as np
    token, shape, data = enc
    if token == "str":
        return np.array(data, dtype=np.str_).reshape(shape)
    dtype = np.dtype(getattr(ml_dtypes, token)) if hasattr(ml_dtypes, token) else np.dtype(token)
    return np.frombuffer(data, dtype=dtype).reshape(shape).copy()


def _pack(v):
    """A case's input or attribute value in builtins (tagged tuples for arrays, scalars, shapes)."""
    import numpy as np

    from opref.shapes import PartialShape
    if isinstance(v, np.ndarray):
        et = getattr(v, "element_type", None)          # an opref.typed array (u1, nf4)
        return ("\0array", et, _encode(v.view(np.ndarray)))
    if isinstance(v, np.generic):
        return ("\0scalar", _encode(v))
    if isinstance(v, PartialShape):
        return ("\0shape", str(v))
    if isinstance(v, dict):
        return {k: _pack(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return type(v)(_pack(x) for x in v)
    assert v is None or isinstance(v, (bool, int, float, str)), f"cannot send a {type(v).__name__}"
    return v


def _unpack(v):
    from opref import typed
    from opref.shapes import PartialShape
    if isinstance(v, tuple) and v and isinstance(v[0], str) and v[0].startswith("\0"):
        if v[0] == "\0array":
            a = _decode(v[2])
            return a if v[1] is None else typed(a, v[1])
        if v[0] == "\0scalar":
            return _decode(v[1])[()]
        return PartialShape(v[1])
    if isinstance(v, dict):
        return {k: _unpack(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return type(v)(_unpack(x) for x in v)
    return v


def _canonical(v):
    """A JSON-able form of a shape case's inputs and attributes, the same under any NumPy version."""
    import numpy as np
    if isinstance(v, np.ndarray):
        token, shape, data = _encode(v)
        return ["array", token, list(shape), hashlib.sha256(repr(data).encode() if token == "str" else data)
                .hexdigest()]
    if isinstance(v, np.generic):
        return ["scalar", _encode(v)[0], _canonical(v.item())]
    if isinstance(v, dict):
        return {str(k): _canonical(x) for k, x in sorted(v.items(), key=lambda kv: str(kv[0]))}
    if isinstance(v, (list, tuple)):
        return [_canonical(x) for x in v]
    if isinstance(v, float):
        return ["float", v.hex()]
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if hasattr(v, "shape") and hasattr(v, "element_type"):        # a TensorInfo
        value = getattr(v, "value", None)
        return ["info", str(v.element_type), str(v.shape), None if value is None else _canonical(np.asarray(value))]
    return ["repr", type(v).__name__, repr(v)]


def _fingerprint(case) -> str:
    return hashlib.sha256(json.dumps([_canonical(list(case.inputs)), _canonical(case.attrs)]).encode()).hexdigest()


def sent_cases() -> list:
    """Every conformance case as builtins: (name, op, inputs, attrs). The oldest environment runs these
    very inputs (its own NumPy could generate the tables' random inputs a little differently)."""
    from opref.conformance.cases import all_cases
    return [(c.name, c.op, _pack(list(c.inputs)), _pack(c.attrs)) for c in all_cases()]


def answers(cases: list) -> dict:
    """opref's answer to every sent case and to every shape case, in builtins: {"versions": ...,
    "values": {name: ("ok", [encoded outputs]) | ("error", class name, message)},
    "shapes": {name: (fingerprint, ("ok", [(shape, type, encoded value or None)]) | ("error", ...))}}."""
    import importlib.metadata
    import warnings

    import opref
    from opref.conformance.cases import all_shape_cases
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # a kernel's own float warnings: values are compared
        out = {"versions": {name: importlib.metadata.version(name) for name in DEPENDENCIES},
               "values": {}, "shapes": {}}
        for name, op, inputs, attrs in cases:
            try:
                got = ("ok", [_encode(y) for y in opref.run_op(op, _unpack(inputs), _unpack(attrs))])
            except Exception as e:                       # noqa: BLE001 - recorded and compared, never hidden
                got = ("error", type(e).__name__, str(e))
            out["values"][name] = got
        for case in all_shape_cases():
            try:
                got = ("ok", [(str(i.shape), str(i.element_type), None if i.value is None else _encode(i.value))
                              for i in opref.infer_op(case.op, list(case.inputs), case.attrs)])
            except Exception as e:                       # noqa: BLE001
                got = ("error", type(e).__name__, str(e))
            out["shapes"][case.name] = (_fingerprint(case), got)
    return out


# --- the oldest environment -----------------------------------------------------------------------
def _child_env(extra_path: Path | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV",
                                                            "PYTHONSTARTUP", "PYTHONUSERBASE")}
    env["PYTHONNOUSERSITE"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"           # no __pycache__ left in the shared tree
    if extra_path is not None:
        env["PYTHONPATH"] = str(extra_path)
    return env


def _run(cmd, *, timeout, what, cwd=None, extra_path=None) -> subprocess.CompletedProcess:
    try:
        p = subprocess.run([str(c) for c in cmd], cwd=cwd, env=_child_env(extra_path), capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise AssertionError(f"{what}: no answer within {timeout} s ({' '.join(map(str, cmd))})") from e
    return p


def _tail(text: str, lines: int = 40) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


def _oldest_env(base: Path) -> Path:
    """A clean venv with exactly pyproject's lower bounds, pytest, and opref (--no-deps); its python."""
    import importlib.metadata
    venv = base / "venv"
    p = _run([sys.executable, "-m", "venv", venv], timeout=120, what="python -m venv")
    assert p.returncode == 0, f"python -m venv failed:\n{_tail(p.stdout + p.stderr)}"
    python = venv / "bin" / "python"
    pins = [f"{name}=={version}" for name, version in lower_bounds().items()]
    pins.append(f"pytest=={importlib.metadata.version('pytest')}")
    p = _run([python, "-m", "pip", "install", "--only-binary=:all:", *pins], timeout=PIP_TIMEOUT,
             what="pip install of the oldest dependencies")
    assert p.returncode == 0, (
        f"pip could not install {' '.join(pins)} from the package registry (this environment promises one; "
        f"is it reachable?):\n{_tail(p.stdout + p.stderr)}")
    # opref: a wheel built here from a copy of the tree (a build writes build/ and *.egg-info next to its
    # sources), installed there without its dependencies
    src, wheels = base / "opref-src", base / "wheels"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(ROOT / "src", src / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    p = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", wheels, src],
             timeout=PIP_TIMEOUT, what="building opref's wheel")
    assert p.returncode == 0, f"building opref's wheel failed:\n{_tail(p.stdout + p.stderr)}"
    p = _run([python, "-m", "pip", "install", "--no-deps", *wheels.glob("opref-*.whl")], timeout=PIP_TIMEOUT,
             what="pip install opref")
    assert p.returncode == 0, f"pip install --no-deps opref failed:\n{_tail(p.stdout + p.stderr)}"
    p = _run([python, "-m", "pip", "freeze"], timeout=120, what="pip freeze")
    have = {line.split("==")[0].lower().replace("-", "_"): line.split("==")[1]
            for line in p.stdout.splitlines() if "==" in line}
    for name, version in lower_bounds().items():
        assert have.get(name.lower().replace("-", "_")) == version, f"the venv has {name} {have.get(name)}"
    assert not {"openvino", "onnxruntime", "tensorflow", "onnx", "torch"} & set(have), \
        f"an oracle leaked into the clean venv: {sorted(have)}"
    # run from the tree as pytest runs (pythonpath "."), opref must still be the installed copy
    p = _run([python, "-c", "import numpy, opref; print(opref.__file__); print(numpy.__file__)"], cwd=ROOT,
             timeout=120, what="import opref", extra_path=ROOT)
    assert p.returncode == 0 and all(Path(f).is_relative_to(venv) for f in p.stdout.split()), \
        f"the venv does not import its own opref and numpy:\n{_tail(p.stdout + p.stderr)}"
    return python


def _reduction_scale(case) -> float:
    """As tests/test_oracle_openvino.py: computed outputs sum many products, so the absolute tolerance
    grows with the largest finite magnitude of the first two inputs."""
    import numpy as np
    scale = 1.0
    for a in case.inputs[:2]:
        if a is not None and np.asarray(a).dtype.kind not in "UOb":
            a = np.abs(np.asarray(a, dtype=np.float64))
            scale *= float(a[np.isfinite(a)].max(initial=1.0))
    return scale


def _outcome(answer) -> str:
    return "values" if answer[0] == "ok" else f"{answer[1]}: {answer[2]}"[:300]


def differences(theirs: dict, ours: dict) -> tuple[list[str], int]:
    """Where the oldest environment's answers (`answers()` run there) differ from this environment's,
    and how many value cases gave bit-identical outputs."""
    import opref
    from opref.conformance.cases import all_cases
    from opref.conformance.compare import EXACT_CATEGORIES, mismatch

    by_name = {c.name: c for c in all_cases()}
    for part in ("values", "shapes"):
        only_theirs, only_ours = sorted(set(theirs[part]) - set(ours[part])), sorted(set(ours[part]) - set(theirs[part]))
        assert not only_theirs and not only_ours, \
            (f"the {part} case tables have different case names on the oldest versions: {len(only_theirs)} only "
             f"there, e.g. {only_theirs[:5]}; {len(only_ours)} only here, e.g. {only_ours[:5]}")
    problems, identical = [], 0
    for name, got in theirs["values"].items():
        case, want = by_name[name], ours["values"][name]
        if got[0] == "error" and want[0] == "error" and got[1] == want[1]:
            if case.error is not None and case.error not in got[2]:
                problems.append(f"{name}: the error {got[2]!r} does not say {case.error!r}"[:400])
        elif got[0] != "ok" or want[0] != "ok":
            problems.append(f"{name}: {_outcome(got)} there, {_outcome(want)} here")
        elif len(got[1]) != len(want[1]):
            problems.append(f"{name}: {len(got[1])} outputs there, {len(want[1])} here")
        elif got[1] == want[1]:
            identical += 1
        else:
            exact = case.exact if case.exact is not None else opref.get_schema(case.op).category in EXACT_CATEGORIES
            for k, (g, w) in enumerate(zip(got[1], want[1])):
                problem = mismatch(_decode(w), _decode(g), exact=exact, scale=_reduction_scale(case),
                                   tolerance=case.tolerance)
                if problem:
                    problems.append(f"{name}: output {k}: {problem}")
    for name, (fp, got) in theirs["shapes"].items():
        our_fp, want = ours["shapes"][name]
        if fp != our_fp:
            problems.append(f"{name}: the shape case's inputs differ on the oldest versions")
        elif got[0] != want[0] or (got[0] == "error" and got[1] != want[1]) or (
                got[0] == "ok" and len(got[1]) != len(want[1])):
            problems.append(f"{name} (shapes): {_outcome(got) if got[0] != 'ok' else got[1]} there, "
                            f"{_outcome(want) if want[0] != 'ok' else want[1]} here"[:400])
        elif got[0] == "ok":
            for k, (g, w) in enumerate(zip(got[1], want[1])):
                if g[:2] != w[:2] or (g[2] is None) != (w[2] is None) or (
                        g[2] is not None and mismatch(_decode(w[2]), _decode(g[2]), exact=True)):
                    problems.append(f"{name} (shapes): output {k}: {g[:2]} there, {w[:2]} here (or its value)")
    return problems, identical


def test_core_on_the_oldest_dependency_versions(tmp_path):
    start = time.monotonic()
    python = _oldest_env(tmp_path)
    setup = time.monotonic() - start
    failures = []

    # 1. the core test modules
    deselect = [a for node in NEEDS_AN_ORACLE for a in ("--deselect", node)]
    p = _run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", *deselect,
              *CORE_TESTS], cwd=ROOT, timeout=RUN_TIMEOUT, what="the core tests on the oldest versions")
    if p.returncode != 0:
        failures.append(f"core tests on the oldest versions (exit {p.returncode}):\n{_tail(p.stdout + p.stderr, 60)}")

    # 2. every case, there (a child process) and here at the same time
    cases = sent_cases()
    sent, out, log = tmp_path / "cases.pickle", tmp_path / "answers.pickle", tmp_path / "answers.log"
    sent.write_bytes(pickle.dumps(cases, protocol=4))
    with open(log, "w") as log_file:
        child = subprocess.Popen([str(python), str(Path(__file__)), "answers", str(sent), str(out)], cwd=tmp_path,
                                 env=_child_env(), stdout=log_file, stderr=subprocess.STDOUT)
        try:
            ours = answers(cases)
            code = child.wait(timeout=RUN_TIMEOUT)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
    assert code == 0, f"the case run on the oldest versions failed (exit {code}):\n{_tail(log.read_text())}"
    theirs = pickle.loads(out.read_bytes())
    assert theirs["versions"] == lower_bounds(), f"the child ran {theirs['versions']}, not {lower_bounds()}"
    problems, identical = differences(theirs, ours)
    if problems:
        failures.append(f"{len(problems)} of {len(theirs['values']) + len(theirs['shapes'])} cases answer differently "
                        f"on {theirs['versions']}:\n" + "\n".join(problems[:60]))
    elapsed = time.monotonic() - start
    print(f"oldest versions {theirs['versions']}: {len(theirs['values'])} value/error cases ({identical} with "
          f"bit-identical outputs) and {len(theirs['shapes'])} shape cases compared; setup {setup:.0f} s, "
          f"total {elapsed:.0f} s")
    assert not failures, "\n\n".join(failures)


if __name__ == "__main__":
    if sys.argv[1:2] != ["answers"] or len(sys.argv) != 4:
        sys.exit("usage: python tests/test_oldest_deps.py answers CASES OUT")
    Path(sys.argv[3]).write_bytes(pickle.dumps(answers(pickle.loads(Path(sys.argv[2]).read_bytes())), protocol=4))
