"""The `opref` command: run, shapes, validate, ops; exit 0 / 1 (one line, no traceback) / 2."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from opref import cli
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
    (["run", "{m}"], "input 'x' has shape [?,8,2,2]: give --shape x=... or --input"),
    (["run", "{m}", "--shape", "z=1,8,2,2"], "no input named 'z'"),
    (["run", "{m}", "--shape", "x=1,8,2"], "expected shape [?,8,2,2], got [1, 8, 2]"),
    (["run", "{m}", "--input", "x=/nonexistent.npy"], "cannot read a .npy array"),
    (["run", "{m}", "--shape", "x=1000000,8,200000,2"], "bytes"),
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
