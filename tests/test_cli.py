"""The `opref` command: run, shapes, validate, ops; exit 0 / 1 (one line, no traceback) / 2."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from opref import cli
from opref.conformance.backends import OpenVINOBackend   # (oracles.py imports openvino: these run without it)
from test_reader import GOOD


@pytest.fixture
def model(tmp_path):
    xml = tmp_path / "m.xml"
    xml.write_bytes(GOOD.replace(b'shape="1,8,2,2"', b'shape="?,8,2,2"'))
    (tmp_path / "m.bin").write_bytes(b"")
    return xml


def test_run_with_shape_input_and_output(model, tmp_path, capsys):
    assert cli.main(["run", str(model), "--shape", "x=2,8,2,2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("y: f32[2,2,4,4] min ")
    x = np.arange(32, dtype=np.float32).reshape(1, 8, 2, 2) * -1
    np.save(tmp_path / "x.npy", x)
    assert cli.main(["run", str(model), "--input", f"x={tmp_path / 'x.npy'}", "--output", str(tmp_path / "o.npz")]) == 0
    y = np.load(tmp_path / "o.npz")["y"]
    assert y.shape == (1, 2, 4, 4) and y.max() == 0 and y.min() == -31


def test_shapes_validate_ops(model, capsys):
    assert cli.main(["shapes", str(model), "--shape", "x=1..4,8,2,2"]) == 0
    assert "d2s (DepthToSpace-1): f32[1..4,2,4,4]" in capsys.readouterr().out
    assert cli.main(["validate", str(model)]) == 0
    assert "valid IR v11" in capsys.readouterr().out
    assert cli.main(["ops", "--opset", "opset15", "--category", "movement"]) == 0
    listed = capsys.readouterr().out
    assert "Col2Im-15" in listed and "SpaceToBatch-2" in listed and "Convolution-1" not in listed


@pytest.mark.parametrize("args,message", [
    (["run", "{m}"], "input 'x' has shape [?,8,2,2]: give a static --shape x=... or --input x=FILE.npy"),
    (["run", "{m}", "--shape", "z=1,8,2,2"], "no input named 'z'"),
    (["run", "{m}", "--shape", "x=1,8"], "--shape x=[1,8]: the model cannot take this shape: layer"),
    (["run", "{m}", "--input", "x=/nonexistent.npy"], "cannot read a .npy array"),
    (["run", "{m}", "--shape", "x=100000000,8,2,2"], "would need more than"),
    (["validate", "/nonexistent/model.xml"], "cannot read /nonexistent/model.xml"),
])
def test_errors_are_one_line(model, args, message, capsys):
    assert cli.main([a.format(m=model) for a in args]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("opref: error: ") and message in err and "\n" not in err


def test_usage_error_and_no_traceback(model, tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_bytes(b"<net version='11'><layers>")
    p = subprocess.run([sys.executable, "-m", "opref.cli", "validate", str(bad)], capture_output=True, text=True)
    assert p.returncode == 1 and "Traceback" not in p.stderr and "malformed XML" in p.stderr
    p = subprocess.run([sys.executable, "-m", "opref.cli", "frobnicate"], capture_output=True, text=True)
    assert p.returncode == 2 and "invalid choice" in p.stderr


# --- a scripted session on the bundled example model (the README's first command) -------------------
import json                                    # noqa: E402
from pathlib import Path                       # noqa: E402

import opref                                   # noqa: E402

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "tiny_cnn.xml"


def opref_main(capsys, *args):
    """cli.main in-process: (exit code, stdout, stderr); argparse's usage errors give 2 too."""
    try:
        code = cli.main([str(a) for a in args])
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def test_run_summary_seed_and_val_range(capsys):
    code, out, err = opref_main(capsys, "run", EXAMPLE)
    assert code == 0 and "loaded in" in err and "loaded in" not in out
    lines = out.splitlines()
    assert lines[0].startswith("probabilities: f32[1,10] min ") and " std " in lines[0] and "nan 0 inf 0" in lines[0]
    assert lines[1].startswith("  top-5 row 0: ") and lines[1].count("(") == 5
    code, again, _ = opref_main(capsys, "run", EXAMPLE)
    assert again == out                                         # the default seed is fixed
    code, other, _ = opref_main(capsys, "run", EXAMPLE, "--seed", 5)
    assert other != out
    # --json: the same facts as data; the top-5 agree with the saved outputs
    code, out, _ = opref_main(capsys, "run", EXAMPLE, "--seed", 5, "--json")
    doc = json.loads(out)
    p = doc["outputs"]["probabilities"]
    assert code == 0 and doc["inputs"]["image"]["source"] == "random" and doc["inputs"]["image"]["shape"] == "[1,3,32,32]"
    assert p["shape"] == "[1,10]" and p["element_type"] == "f32" and p["nan"] == 0 and p["inf"] == 0
    rng = np.random.default_rng(5)
    x = rng.standard_normal((1, 3, 32, 32)).astype(np.float32)
    y = opref.load(EXAMPLE).run({"image": x})["probabilities"]
    assert [t["class"] for t in p["top5"][0]] == list(np.argsort(-y[0], kind="stable")[:5])
    assert p["min"] == pytest.approx(float(y.min())) and p["std"] == pytest.approx(float(y.std()), rel=1e-5)


def test_run_inputs_files_and_names(capsys, tmp_path):
    saved, out_npz = tmp_path / "in.npz", tmp_path / "outputs.data"      # no .npz suffix: kept as given
    code, out, err = opref_main(capsys, "run", EXAMPLE, "--val-range", "image:[2,3]", "--seed", 1,
                                "--save-inputs", saved, "--output", out_npz)
    assert code == 0 and out_npz.exists() and not Path(str(out_npz) + ".npz").exists()
    x = np.load(saved)["image"]
    assert x.shape == (1, 3, 32, 32) and x.dtype == np.float32 and 2 <= x.min() and x.max() < 3
    y = np.load(out_npz)["probabilities"]
    np.testing.assert_array_equal(y, opref.load(EXAMPLE).run({"image": x})["probabilities"])
    # --load-inputs gives the same run; --input (a .npy, by the input's name) wins over it
    code, out2, _ = opref_main(capsys, "run", EXAMPLE, "--load-inputs", saved)
    assert code == 0 and out2 == out
    np.save(tmp_path / "zeros.npy", np.zeros((1, 3, 32, 32), np.float32))
    code, out3, _ = opref_main(capsys, "run", EXAMPLE, "--load-inputs", saved, "--input",
                               f"image={tmp_path / 'zeros.npy'}", "--json")
    assert code == 0 and json.loads(out3)["inputs"]["image"]["source"].startswith("--input ")
    # a range for every input ([lo,hi] without a name), integer-valued floats
    code, out4, _ = opref_main(capsys, "run", EXAMPLE, "--val-range", "[0,0]", "--save-inputs", saved)
    assert code == 0 and not np.load(saved)["image"].any()


def test_run_by_any_tensor_name(tmp_path, capsys):
    xml = tmp_path / "m.xml"
    xml.write_bytes(GOOD.replace(b'shape="1,8,2,2"', b'shape="?,8,2,2"'))
    (tmp_path / "m.bin").write_bytes(b"")
    port = opref.load(xml).inputs[0]
    np.save(tmp_path / "x.npy", np.ones((3, 8, 2, 2), np.float32))
    for name in {*port.names, "x"}:
        code, out, _ = opref_main(capsys, "run", xml, "--input", f"{name}={tmp_path / 'x.npy'}")
        assert code == 0 and out.startswith("y: f32[3,2,4,4] min 1 max 1 mean 1 std 0 nan 0 inf 0")
    # interval --shape: a given input must fit it; a random one needs a static shape
    code, _, err = opref_main(capsys, "run", xml, "--input", f"x={tmp_path / 'x.npy'}", "--shape", "x=1..2,8,2,2")
    assert code == 1 and "--input x: input 'x' has shape [3,8,2,2]; --shape says [1..2,8,2,2]" in err
    code, _, err = opref_main(capsys, "run", xml, "--shape", "x=1..2,8,2,2")
    assert code == 1 and "give a static --shape x=... or --input x=FILE.npy" in err


def test_shapes_validate_json(capsys):
    code, out, _ = opref_main(capsys, "shapes", EXAMPLE, "--shape", "image=?,3,32..64,32..64", "--json")
    doc = json.loads(out)
    first = doc["layers"][0]
    assert code == 0 and first == {"name": "image", "op": "Parameter-1",
                                   "outputs": [{"element_type": "f32", "shape": "[?,3,32..64,32..64]"}]}
    assert doc["layers"][-1]["outputs"][0]["shape"] == "[?,10]"
    code, out, _ = opref_main(capsys, "shapes", EXAMPLE)
    assert code == 0 and "image (Parameter-1): f32[1,3,32,32]" in out.splitlines()
    code, out, _ = opref_main(capsys, "validate", EXAMPLE, "--json")
    doc = json.loads(out)
    assert code == 0 and doc["valid"] and doc["inputs"] == [{"name": "image", "names": ["image"],
                                                             "element_type": "f32", "shape": "[1,3,32,32]"}]
    code, out, _ = opref_main(capsys, "validate", EXAMPLE)
    assert code == 0 and "inputs image: f32[1,3,32,32]; outputs probabilities: f32[1,10]" in out


def test_ops_filters_and_reference(capsys):
    code, out, _ = opref_main(capsys, "ops", "--opset", "15", "--category", "movement", "--json")
    names = [d["name"] for d in json.loads(out)]
    assert code == 0 and names == [s.versioned_name for s in opref.list_schemas(opset="opset15", category="movement")]
    code, out, _ = opref_main(capsys, "ops", "--domain", "tf")
    assert code == 0 and {line.split()[0] for line in out.splitlines()} == \
        {s.versioned_name for s in opref.list_schemas(domain="tf")}
    code, out, _ = opref_main(capsys, "ops", "conv*", "--category", "convolution")
    listed = [line.split()[0] for line in out.splitlines()]
    assert code == 0 and "Convolution-1" in listed and all(n.lower().startswith("conv") for n in listed)
    code, out, _ = opref_main(capsys, "ops", "Col2Im-15")
    assert code == 0 and out.startswith("Col2Im-15  (category movement; opsets opset15, opset16")
    assert "  strides     ints         default [1,1]" in out and "T_IDX: i32, i64" in out and "1 output_size" in out
    code, out, _ = opref_main(capsys, "ops", "DepthToSpace-1", "--json")
    doc = json.loads(out)
    mode = next(a for a in doc["attributes"] if a["name"] == "mode")
    assert mode["kind"] == "string" and mode["required"] and set(mode["allowed"]) == {"blocks_first", "depth_first"}
    assert doc["opsets"][0] == "opset1" and doc["inputs"][0]["type_constraint"] == "T"


@pytest.mark.parametrize("args,code,message", [
    (["run", "{m}", "--input", "image=a.npy", "--input", "image=b.npy"], 2, "--input 'image' is given twice"),
    (["run", "{m}", "--input", "image"], 2, "expected NAME=FILE.npy"),
    (["run", "{m}", "--val-range", "image:[3,1]"], 2, "--val-range 'image:[3,1]'"),
    (["run", "{m}", "--val-range", "image:0,1"], 2, "expected NAME:[lo,hi]"),
    (["run", "{m}", "--shape", "image=2x,3"], 2, "--shape image=2x,3: invalid dimension '2x'"),
    (["run", "{m}", "--inp", "image=x.npy"], 2, "unrecognized arguments: --inp"),       # allow_abbrev=False
    (["ops", "--cat", "movement"], 2, "unrecognized arguments: --cat"),
    (["run", "{m}", "--val-range", "nope:[0,1]"], 1, "--val-range nope: the model has no input named 'nope'"),
    (["run", "{m}", "--input", "nope=x.npy"], 1, "--input nope: the model has no input named 'nope'; its inputs are 'image'"),
    (["run", "{m}", "--input", "image=/nonexistent.npy"], 1, "--input image=/nonexistent.npy: cannot read a .npy"),
    (["run", "{m}", "--load-inputs", "/nonexistent.npz"], 1, "--load-inputs /nonexistent.npz: cannot read"),
    (["run", "{m}", "--shape", "image=2,3,32"], 1, "--shape image=[2,3,32]: the model cannot take this shape: layer 2"),
    (["run", "{m}", "--output", "/nonexistent/o.npz"], 1, "--output /nonexistent/o.npz: the folder"),
    (["run", "{m}", "--save-inputs", "{tmp}"], 1, "is a folder"),
    (["run", "{onnx}"], 1, "an ONNX model; opref reads OpenVINO IR (.xml + .bin): convert it with OpenVINO's ovc first"),
    (["shapes", "{bin}"], 1, "a weights file (.bin), not the model's .xml"),
    (["shapes", "{m}", "--shape", "nope=1"], 1, "--shape nope: the model has no input named 'nope'"),
    (["validate", "{onnx}", "--json"], 1, "convert it with OpenVINO's ovc first"),
    (["ops", "--opset", "opset99"], 1, "--opset opset99: unknown opset 'opset99'; known opsets: opset1 to opset17"),
    (["ops", "--category", "nope"], 1, "--category nope: unknown category; known categories: activation"),
    (["ops", "--domain", "nope"], 1, "--domain nope: unknown domain"),
    (["ops", "Col2Im-99"], 1, "no op version matches 'Col2Im-99'; did you mean Col2Im-15?"),
])
def test_session_errors(args, code, message, capsys, tmp_path):
    onnx_file = tmp_path / "m.onnx"
    onnx_file.write_bytes(b"\x08\x07\x12\x04test")             # protobuf bytes, not XML
    out_code, out, err = opref_main(capsys, *[a.format(m=EXAMPLE, tmp=tmp_path, onnx=onnx_file,
                                                       bin=EXAMPLE.with_suffix(".bin")) for a in args])
    assert out_code == code and message in err, err
    if code == 1:
        assert err.startswith("opref: error: ") and err.count("\n") == 1
    if args[0] == "validate":
        assert json.loads(out)["valid"] is False


def test_output_checked_before_run(tmp_path, capsys, monkeypatch):
    import os
    ran = []
    monkeypatch.setattr(opref.Model, "run", lambda self, feeds: ran.append(1) or {})
    if os.geteuid() != 0:                        # (root writes anywhere)
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        try:
            code, _, err = opref_main(capsys, "run", EXAMPLE, "--output", ro / "o.npz")
        finally:
            ro.chmod(0o700)
        assert code == 1 and "--output " in err and "not writable" in err
    code, _, err = opref_main(capsys, "run", EXAMPLE, "--output", tmp_path / "a.npz", "--save-inputs", tmp_path / "a.npz")
    assert code == 2 and "--output and --save-inputs name the same file" in err
    code, _, err = opref_main(capsys, "run", EXAMPLE, "--output", tmp_path / "no" / "a.npz")
    assert code == 1 and "the folder" in err and not ran


def test_closed_pipe_is_quiet(capsys, monkeypatch):
    class Closed:
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            raise BrokenPipeError(32, "Broken pipe")

        def fileno(self):
            raise ValueError("no file")
    monkeypatch.setattr(sys, "stdout", Closed())
    assert cli.main(["ops"]) == 0
    assert capsys.readouterr().err == ""


def test_subprocess_version_help_and_pipe():
    run = lambda *a, **k: subprocess.run([sys.executable, "-m", "opref.cli", *map(str, a)],  # noqa: E731
                                         capture_output=True, text=True, **k)
    p = run("--version")
    assert p.returncode == 0 and p.stdout.startswith(f"opref {opref.__version__}\n")
    for backend in ("openvino", "onnxruntime", "onnx"):
        assert f"  {backend} " in p.stdout
    p = run("run", "--help")
    assert p.returncode == 0 and "examples:" in p.stdout and "--val-range" in p.stdout and "standard normal" in p.stdout
    for command in ("shapes", "validate", "ops"):
        assert "examples:" in run(command, "--help").stdout
    sh = subprocess.run(f"{sys.executable} -m opref.cli ops --json | head -1", shell=True, capture_output=True,
                        text=True)
    assert sh.stdout == "[\n" and sh.stderr == ""
    p = run("ops", "Col2Im-15", "--opset", "opset1")
    assert p.returncode == 1 and p.stderr.startswith("opref: error: no op version matches 'Col2Im-15' with these")


def test_python_api_polish():
    import ml_dtypes
    from opref import errors
    for spelling in (np.float32, np.dtype(np.float32), "float32", "f32"):
        assert opref.TensorInfo(spelling, [1, -1]).element_type == "f32"
    assert [opref.TensorInfo(t, [1]).element_type for t in ("int64", "bool", np.bool_, "float16", ml_dtypes.bfloat16,
                                                            "uint8", "u1", "i4")] == \
        ["i64", "boolean", "boolean", "f16", "bf16", "u8", "u1", "i4"]          # opref's own names win ("u1", "i4")
    with pytest.raises(opref.OprefError, match="unknown element type 'f8'"):
        opref.TensorInfo("f8", [1])                                             # NumPy's codes are not names
    with pytest.raises(opref.OprefError, match="unknown opset 'opset99'"):
        opref.list_schemas(opset="opset99")
    assert errors.UnknownOpsetError.__name__ == "UnknownOpsetError" and issubclass(errors.UnknownOpsetError,
                                                                                  errors.UnknownOpError)
    assert errors.InvalidAttributeError.__name__ == "InvalidAttributeError"
    assert errors.AttributeError_ is errors.InvalidAttributeError               # the old name stays an alias
    with pytest.raises(errors.InvalidAttributeError) as e:
        opref.run_op("DepthToSpace-1", [np.zeros((1, 4, 1, 1), np.float32)], {"block_size": 2, "mode": "nope"})
    assert type(e.value).__name__ == "InvalidAttributeError"


# --- bench ------------------------------------------------------------------------------------------
LATENCY_KEYS = ("min", "median", "p90", "max")


def _latency_ordered(lat: dict) -> None:
    values = [lat[k] for k in LATENCY_KEYS]
    assert all(v > 0 for v in values) and values == sorted(values)
    assert lat["min"] <= lat["mean"] <= lat["max"]


def test_bench_text_and_json(capsys):
    code, out, err = opref_main(capsys, "bench", EXAMPLE, "--iterations", 3, "--warm-up", 1)
    assert code == 0 and err == ""                                    # no progress when stderr is not a terminal
    lines = out.splitlines()
    assert lines[0].startswith("Model:       ") and "tiny_cnn.xml" in lines[0]
    assert "image f32[1,3,32,32] random" in lines[1]
    assert lines[2].startswith("Threads:     not set: NumPy's BLAS default")
    assert "Count:       3 iterations after 1 warm-up" in lines
    ms = {ln.split(":")[0].strip(): float(ln.split(":")[1].split()[0]) for ln in lines if ln.startswith("    ")}
    assert list(ms) == ["Min", "Median", "P90", "Max", "Average"]
    _latency_ordered({"min": ms["Min"], "median": ms["Median"], "p90": ms["P90"], "max": ms["Max"],
                      "mean": ms["Average"]})
    assert lines[-1].startswith("Throughput:  ") and lines[-1].endswith(" inferences/s")

    code, out, err = opref_main(capsys, "bench", EXAMPLE, "--iterations", 3, "--warm-up", 1, "--json",
                                "--seed", 5, "--val-range", "[0,1]")
    assert code == 0
    doc = json.loads(out)
    assert {"model", "layers", "inputs", "seed", "warm_up", "iterations", "duration_ms", "latency_ms",
            "throughput_per_s", "threads"} <= set(doc)
    assert doc["iterations"] == 3 and doc["warm_up"] == 1 and doc["seed"] == 5
    assert doc["inputs"]["image"] == {"element_type": "f32", "shape": "[1,3,32,32]", "source": "random uniform [0,1]"}
    _latency_ordered(doc["latency_ms"])
    assert doc["duration_ms"] >= 3 * doc["latency_ms"]["min"]
    assert doc["throughput_per_s"] == pytest.approx(3e3 / doc["duration_ms"])
    assert doc["threads"]["count"] is None and doc["threads"]["how"] == "default"


def test_bench_time_and_given_inputs(capsys, tmp_path):
    """--time keeps the loop going past --iterations; inputs come from the same flags as run's."""
    x = np.random.default_rng(0).random((1, 3, 32, 32), dtype=np.float32)
    np.save(tmp_path / "x.npy", x)
    code, out, _ = opref_main(capsys, "bench", EXAMPLE, "--iterations", 1, "--warm-up", 0, "--time", 0.05,
                              "--input", f"image={tmp_path / 'x.npy'}", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["duration_ms"] >= 50 and doc["iterations"] >= 1 and doc["warm_up"] == 0
    assert doc["inputs"]["image"]["source"] == f"--input {tmp_path / 'x.npy'}"
    _latency_ordered(doc["latency_ms"])


def test_bench_loop_limits():
    from opref import bench
    calls = []
    said = []
    lat, wall = bench.measure(lambda: calls.append(1), iterations=4, warm_up=2, seconds=None, progress=said.append)
    assert len(calls) == 6 and len(lat) == 4 and wall >= sum(lat)
    assert said == ["warm-up 1/2", "warm-up 2/2", "iteration 0/4"]        # then at most five lines a second
    calls.clear()
    lat, _ = bench.measure(lambda: calls.append(1), iterations=None, warm_up=0, seconds=None)
    assert len(lat) == bench.DEFAULT_ITERATIONS == len(calls)
    s = bench.summary([0.004, 0.001, 0.002, 0.003], 0.01)
    assert s["latency_ms"]["min"] == pytest.approx(1) and s["latency_ms"]["max"] == pytest.approx(4)
    assert s["latency_ms"]["median"] == pytest.approx(2.5) and s["latency_ms"]["p90"] == pytest.approx(3.7)
    assert s["count"] == 4 and s["throughput_per_s"] == pytest.approx(400)


def test_bench_threads_with_threadpoolctl(capsys, monkeypatch):
    """With threadpoolctl importable, --threads limits the pools in-process for the timed loop."""
    import contextlib
    import types
    seen = []

    @contextlib.contextmanager
    def threadpool_limits(limits=None, user_api=None):
        seen.append(("enter", limits))
        yield
        seen.append(("exit", limits))

    fake = types.ModuleType("threadpoolctl")
    fake.threadpool_limits = threadpool_limits
    fake.threadpool_info = lambda: [{"user_api": "blas", "num_threads": 7}]
    monkeypatch.setitem(sys.modules, "threadpoolctl", fake)
    code, out, _ = opref_main(capsys, "bench", EXAMPLE, "--iterations", 2, "--threads", 3, "--json")
    doc = json.loads(out)
    assert code == 0 and doc["threads"]["count"] == 3 and doc["threads"]["how"] == "threadpoolctl"
    assert seen == [("enter", 3), ("exit", 3)]
    code, out, _ = opref_main(capsys, "bench", EXAMPLE, "--iterations", 2)
    assert code == 0 and "Threads:     not set: NumPy's BLAS default: 7 threads, as threadpoolctl reports" in out


def test_bench_threads_without_threadpoolctl(capsys, monkeypatch):
    """Without threadpoolctl the bench runs again in a fresh process with the thread variables set."""
    monkeypatch.setitem(sys.modules, "threadpoolctl", None)         # import threadpoolctl -> ImportError
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPREF_BENCH_FRESH_PROCESS"):
        monkeypatch.delenv(var, raising=False)
    code, out, _ = opref_main(capsys, "bench", EXAMPLE, "--iterations", 2, "--warm-up", 0, "--threads", 1,
                              "--seed", 2, "--json")
    doc = json.loads(out)
    assert code == 0 and doc["threads"]["count"] == 1 and doc["threads"]["how"] == "environment"
    assert "in a fresh process" in doc["threads"]["detail"] and doc["seed"] == 2 and doc["iterations"] == 2
    _latency_ordered(doc["latency_ms"])
    # the fresh process's errors come back as this process's: exit 1, one line, no traceback
    code, out, err = opref_main(capsys, "bench", EXAMPLE, "--threads", 1, "--shape", "z=1,2")
    assert code == 1 and out == "" and err.strip() == \
        "opref: error: --shape z: the model has no input named 'z'; its inputs are 'image'"
    # variables already at T in the environment: no fresh process needed
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(var, "2")
    code, out, _ = opref_main(capsys, "bench", EXAMPLE, "--iterations", 1, "--threads", 2)
    assert code == 0 and "Threads:     2: OPENBLAS_NUM_THREADS, OMP_NUM_THREADS, MKL_NUM_THREADS already 2" in out


@pytest.mark.parametrize("args,code,message", [
    (["--iterations", "0"], 2, "argument --iterations: 0: must be at least 1"),
    (["--iterations", "x"], 2, "argument --iterations: expected an integer, got 'x'"),
    (["--warm-up", "-1"], 2, "argument --warm-up: -1: must be at least 0"),
    (["--time", "0"], 2, "argument --time: 0: must be more than 0"),
    (["--threads", "0"], 2, "argument --threads: 0: must be at least 1"),
    (["--val-range", "[1,0]"], 2, "--val-range '[1,0]': expected NAME:[lo,hi]"),
    (["--input", "image=a.npy", "--input", "image=b.npy"], 2, "--input 'image' is given twice"),
    (["--shape", "image=1,3"], 1, "--shape image=[1,3]: the model cannot take this shape: layer 2 'c1/WithoutBiases' (Convolution-1)"),
    (["--input", "image=/nonexistent.npy"], 1, "--input image=/nonexistent.npy: cannot read a .npy array"),
    (["--load-inputs", "/nonexistent.npz"], 1, "--load-inputs /nonexistent.npz: cannot read an .npz archive"),
])
def test_bench_errors(args, code, message, capsys):
    got, out, err = opref_main(capsys, "bench", EXAMPLE, "--iterations", 1, *args)
    assert got == code and out == "" and message in err and err.count("error:") == 1


def test_bench_model_errors(capsys, tmp_path):
    code, out, err = opref_main(capsys, "bench", tmp_path / "missing.xml")
    assert code == 1 and err.startswith("opref: error: cannot read ") and err.count("\n") == 1
    (tmp_path / "m.onnx").write_bytes(b"\x08\x07")
    code, out, err = opref_main(capsys, "bench", tmp_path / "m.onnx")
    assert code == 1 and "convert it with OpenVINO's ovc first" in err


def test_attr_kind_repr_reads_as_its_name():
    from opref.opset.schema import BOOL, INT, INTS, STRING
    assert [repr(k) for k in (INT, INTS, BOOL, STRING)] == ["int", "ints", "bool", "string"]
    attr = next(a for a in opref.get_schema("Col2Im-15").attributes if a.name == "strides")
    assert "type=ints" in repr(attr)


def test_run_shape_changes_static_dims_as_shapes_does(capsys, tmp_path):
    """`run --shape` re-declares the input as `shapes --shape` does (issue 18): the example's static
    [1,3,32,32] input runs at batch 2 and 64x48, equal to OpenVINO's reshaped model on the same input."""
    import openvino as ov
    code, out, _ = opref_main(capsys, "shapes", EXAMPLE, "--shape", "image=2,3,64,48", "--json")
    assert code == 0
    inferred = json.loads(out)["layers"]
    code, _, err = opref_main(capsys, "run", EXAMPLE, "--shape", "image=2,3,64,48", "--seed", 5,
                              "--save-inputs", tmp_path / "in.npz", "--output", tmp_path / "out.npz")
    assert code == 0, err
    x = np.load(tmp_path / "in.npz")["image"]
    y = np.load(tmp_path / "out.npz")["probabilities"]
    assert x.shape == (2, 3, 64, 48)
    assert [o["shape"] for o in inferred["probabilities"]["outputs"]] == [str(opref.PartialShape(y.shape))] \
        if "probabilities" in inferred else True
    core = ov.Core()
    m = core.read_model(EXAMPLE)
    m.reshape({"image": [2, 3, 64, 48]})
    want = core.compile_model(m, "CPU", OpenVINOBackend.CONFIG)(x)[0]     # f32: bf16 by default on AVX-512
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6)


def test_model_reshape(tmp_path):
    import openvino as ov
    m = opref.load(EXAMPLE)
    r = m.reshape({"image": "?,3,16..64,16..64"})
    assert str(m.inputs[0].shape) == "[1,3,32,32]" and str(r.inputs[0].shape) == "[?,3,16..64,16..64]"
    y = r.run([np.ones((3, 3, 20, 40), np.float32)])["probabilities"]
    assert y.shape == (3, 10)
    with pytest.raises(opref.OprefError, match="input 'image'"):
        m.run([np.ones((3, 3, 20, 40), np.float32)])           # the original model keeps its shapes
    with pytest.raises(opref.OprefError, match="Convolution-1"):
        m.reshape({"image": [1, 3]})
    opref.save(r, tmp_path / "r.xml")
    back = ov.Core().read_model(tmp_path / "r.xml")
    assert str(back.inputs[0].get_partial_shape()) == "[?,3,16..64,16..64]"
    assert str(back.outputs[0].get_partial_shape()) == "[?,10]"
