"""Whole-model shape inference (issue 15's targets): `Model.infer_shapes` on real IRs with their inputs
given by names (dynamic dims with symbols), in the default (OpenVINO-compatible) mode and in precise mode,
and on a 10,000-layer chain. Targets: a model of 500+ layers under 50 ms, the chain under 1 s, precise mode
within 4x the default mode."""
from __future__ import annotations

from .common import fmt, measure, progress, ratio, table
from .models import model_path

# model -> its inputs given by names
SPECS = {"densenet121": {"data_0": "N,3,H,W"}, "resnet50": {"gpu_0/data_0": "N,3,H,W"},
         "inception_v2": {"data_0": "N,3,H,W"}, "transformer_block": {"x": "N,T,32"}, "lstm": {"x": "T,N,5"},
         "chain10000": {"x": "N"}}


def run(repeat: int) -> list[dict]:
    import opref
    rows = []
    for name, spec in SPECS.items():
        progress(f"shape inference: {name}")
        model = opref.load(model_path(name))
        default, _ = measure(lambda: model.infer_shapes(spec), max(repeat, 3))
        precise, _ = measure(lambda: model.infer_shapes(spec, mode="precise"), max(repeat, 3))
        rows.append({"model": name, "layers": len(model.graph.nodes), "default_ms": default.ms,
                     "precise_ms": precise.ms})
    return rows


def render(rows: list[dict]) -> str:
    header = ["model", "layers", "infer_shapes ms", "precise ms", "precise / default", "target"]
    body = []
    for r in rows:
        target = "< 1 s; " if r["layers"] >= 5000 else "< 50 ms per 500 layers; " if r["layers"] >= 500 else ""
        body.append([r["model"], str(r["layers"]), fmt(r["default_ms"], ".1f"), fmt(r["precise_ms"], ".1f"),
                     fmt(ratio(r["precise_ms"], r["default_ms"]), ".2f"), target + "precise <= 4x"])
    return table(header, body)
