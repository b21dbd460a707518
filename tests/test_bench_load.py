"""The model benchmark's load phases (`python -m benchmarks models`): opref.load, OpenVINO's read_model and every
phase of the load are timed in turns on the model's own file, and the table sets them side by side."""
from __future__ import annotations

import openvino as ov

import opref
from benchmarks import model_bench
from benchmarks.models import model_path

PHASES = ("parse", "walk", "read", "infer", "check")


def test_load_phases_time_each_phase_of_a_model_and_render_beside_read_model():
    xml = model_path("movement")
    row = {"model": "movement", **model_bench.load_phases(xml, 2, ov.Core().read_model)}
    assert row["layers"] == len(opref.load(xml).graph.nodes)
    assert all(row[f"load_{p}_ms"] > 0 for p in PHASES) and row["opref_load_ms"] > 0 and row["ov_read_model_ms"] > 0
    row.update(opref_load_ms=4.0, ov_read_model_ms=2.0)
    text = model_bench.render_load([row])
    line = next(r for r in text.splitlines() if r.startswith("movement"))
    assert line.split()[1] == str(row["layers"]) and line.split()[-1] == "2.00"    # load/read_model
    assert "parse+walk/read_model" in text
