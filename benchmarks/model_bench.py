"""Whole models: opref (IR) vs OpenVINO CPU (IR) vs onnxruntime and onnx.reference (the ONNX
original), load time and load memory, and a sanity diff of opref vs OpenVINO."""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from .common import (DASH, fmt, max_abs_diff, measure, onnxruntime_session, openvino_config, openvino_core,
                     progress, ratio, table)
from .models import LIGHT_NAMES, ONNX_MODELS, model_path, onnx_path, random_inputs

ALL = (*LIGHT_NAMES, "transformer_block", "lstm", "movement", "movement_batch")
MIN_TIME = 0.2      # s of timed runs at least (up to 200 runs): a model of a few hundred us is timed over many calls
QUICK = ("squeezenet", "resnet50", "transformer_block", "lstm", "movement", "movement_batch")
REPO = Path(__file__).resolve().parent.parent


def _child(args: list[str], timeout: float) -> dict | None:
    try:
        done = subprocess.run([sys.executable, "-m", "benchmarks._child", *args], cwd=REPO, capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        print(f"benchmarks: {args[0]} failed: {done.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def _by_name(names: list[str], feeds: dict) -> dict:
    """The feeds under the names a runtime gives its inputs (in order, where a name differs)."""
    values = list(feeds.values())
    return {n: feeds.get(n, values[i]) for i, n in enumerate(names)}


def bench_model(name: str, threads: int, repeat: int, ref_limit: float) -> dict:
    import opref
    xml = model_path(name)
    bin_size = xml.with_suffix(".bin").stat().st_size
    row = {"model": name, "bin_bytes": bin_size}

    progress(f"{name}: load")
    core = openvino_core()
    row.update(load_phases(xml, repeat, core.read_model))
    model = opref.load(xml)
    feeds = random_inputs(model, name)

    progress(f"{name}: opref")
    timing, ours = measure(lambda: model.run(feeds), repeat, min_time=MIN_TIME)
    row["opref_ms"] = timing.ms

    progress(f"{name}: OpenVINO")
    compiled = core.compile_model(core.read_model(str(xml)), "CPU", openvino_config(threads))
    request = compiled.create_infer_request()
    ov_feeds = _by_name([p.any_name for p in compiled.inputs], feeds)
    timing, result = measure(lambda: request.infer(ov_feeds), repeat, min_time=MIN_TIME)
    row["openvino_ms"] = timing.ms
    row["max_abs_diff_vs_openvino"] = max_abs_diff(ours.values(), [np.asarray(result[o]) for o in compiled.outputs])

    row["onnxruntime_ms"] = row["reference_ms"] = None
    if name in ONNX_MODELS:
        progress(f"{name}: onnxruntime")
        session = onnxruntime_session(onnx_path(name), threads)
        ort_feeds = _by_name([i.name for i in session.get_inputs()], feeds)
        row["onnxruntime_ms"] = measure(lambda: session.run(None, ort_feeds), repeat, min_time=MIN_TIME)[0].ms

        progress(f"{name}: onnx.reference")
        with tempfile.TemporaryDirectory() as tmp:
            np.savez(f"{tmp}/feeds.npz", **ort_feeds)
            ref = _child(["reference", str(onnx_path(name)), f"{tmp}/feeds.npz", str(repeat), str(ref_limit)],
                         timeout=2 * ref_limit + 30)
        row["reference_ms"] = ref["median"] * 1e3 if ref and ref["median"] is not None else None
        row["reference_note"] = None if row["reference_ms"] is not None else \
            f"single run > {ref_limit:g} s" + (f" ({ref['first']:.0f} s)" if ref else "")

    progress(f"{name}: run memory")
    with tempfile.TemporaryDirectory() as tmp:
        np.savez(f"{tmp}/feeds.npz", **feeds)
        mem = _child(["run-memory", str(xml), f"{tmp}/feeds.npz"], timeout=300)
    if mem:
        row.update({"run_heap_peak_bytes": mem["heap_peak"], "plan_kept_bytes": mem.get("kept_bytes"),
                    "first_run_rss_peak_bytes": mem["rss_peak_delta"],
                    "output_bytes": mem["output_bytes"], "feed_bytes": mem["feed_bytes"]})

    progress(f"{name}: load memory")
    mem = _child(["load-memory", str(xml)], timeout=120)
    if mem:
        row.update({"load_rss_peak_bytes": mem["rss_peak_delta"], "load_heap_peak_bytes": mem["heap_peak"],
                    "load_anon_after_bytes": mem["anon_delta"], "load_file_after_bytes": mem["file_delta"],
                    "memory_method": mem["method"]})
    return row


def load_phases(xml: Path, repeat: int, read_model) -> dict:
    """opref.load and OpenVINO's `read_model` (a function of the path) of one file, and where load's time goes:
    lxml's parse of the XML; the parse plus a bare walk (every element visited and its attributes read, nothing
    checked or typed: the least any reader on lxml does); read_graph (parse, attributes bound, ports, weights
    mapped, edges); whole-graph shape inference; the check of the shapes the IR declares against the inferred
    ones. Timed in turns, one call of each per round, median ms over the rounds (at least `repeat`, and MIN_TIME
    per measure in all, up to 200): a slow spell of the machine falls on all of them alike."""
    import opref
    from opref.ir_xml.reader import parse_xml, read_graph
    from opref.runtime.infer import check_declared, infer_graph
    data = xml.read_bytes()

    def walk():
        for el in parse_xml(data).iter():
            el.attrib.items()

    graph = read_graph(xml)
    infos = infer_graph(graph, {})
    calls = {"opref_load": lambda: opref.load(xml), "ov_read_model": lambda: read_model(str(xml)),
             "load_parse": lambda: parse_xml(data), "load_walk": walk, "load_read": lambda: read_graph(xml),
             "load_infer": lambda: infer_graph(graph, {}), "load_check": lambda: check_declared(graph, infos)}
    times: dict[str, list[float]] = {k: [] for k in calls}
    for f in calls.values():            # warm-up
        f()
    start = time.perf_counter()
    while len(times["opref_load"]) < repeat or (time.perf_counter() - start < MIN_TIME * len(calls)
                                                  and len(times["opref_load"]) < 200):
        for k, f in calls.items():
            t0 = time.perf_counter()
            f()
            times[k].append(time.perf_counter() - t0)
    row = {f"{k}_ms": statistics.median(v) * 1e3 for k, v in times.items()}
    row["layers"] = len(graph.nodes)
    return row


def run(names, threads: int, repeat: int, ref_limit: float) -> list[dict]:
    rows = []
    for name in names:
        rows.append(bench_model(name, threads, repeat, ref_limit))
    return rows


def render(rows: list[dict], threads: int) -> str:
    mb = lambda b: None if b is None else b / 2**20
    header = ["model", "opref ms", "OpenVINO ms", "ORT ms", "RefEval ms", "opref/ORT", "RefEval/opref",
              "run heap MB", "kept MB", "1st run ΔRSS MB", "load ms", "read_model ms", ".bin MB", "load ΔRSS MB", "ΔRSS/bin", "heap/bin", "max|opref-OV|"]
    body = []
    for r in rows:
        small = r["bin_bytes"] < 1 << 20     # a ratio to a few kB of weights says nothing
        ms = lambda v: fmt(v, ".3f" if v is not None and v < 1 else ".2f")  # noqa: E731  (sub-ms models: us)
        body.append([r["model"], ms(r["opref_ms"]), ms(r["openvino_ms"]), ms(r["onnxruntime_ms"]),
                     fmt(r["reference_ms"], ".1f"), fmt(ratio(r["opref_ms"], r["onnxruntime_ms"]), ".1f"),
                     fmt(ratio(r["reference_ms"], r["opref_ms"]), ".2f"),
                     fmt(mb(r.get("run_heap_peak_bytes")), ".2f"), fmt(mb(r.get("plan_kept_bytes")), ".2f"),
                     fmt(mb(r.get("first_run_rss_peak_bytes")), ".1f"),
                     fmt(r["opref_load_ms"], ".1f"), fmt(r["ov_read_model_ms"], ".1f"), fmt(mb(r["bin_bytes"]), ".2f"),
                     fmt(mb(r.get("load_rss_peak_bytes")), ".1f"),
                     DASH if small else fmt(ratio(r.get("load_rss_peak_bytes"), r["bin_bytes"]), ".3f"),
                     DASH if small else fmt(ratio(r.get("load_heap_peak_bytes"), r["bin_bytes"]), ".3f"),
                     fmt(r["max_abs_diff_vs_openvino"], ".1e")])
    method = next((r["memory_method"] for r in rows if r.get("memory_method")), "not measured")
    notes = [
        f"Models: median ms per inference after a warm-up, {threads} thread(s) for every runtime, over {MIN_TIME:g} s of runs at",
        "least (up to 200; load and read_model too). opref and OpenVINO CPU (f32 precision hint) run the IR;",
        "onnxruntime (ORT) and onnx.reference.ReferenceEvaluator (RefEval, fewer repeats",
        "when slow) run the ONNX original the IR was converted from ('—': no ONNX twin, or one RefEval run over the limit).",
        "run heap: tracemalloc peak of a warm Model.run (its 3rd) in a fresh process, minus what was traced before it:",
        "  the most bytes of intermediates and outputs alive at once (NumPy reports its buffers to tracemalloc; BLAS",
        "  workspace and the mapped weights are not counted), with the buffers the run plan keeps between runs, which",
        "  that run allocates (kept MB: those alone). 1st run ΔRSS: peak RSS growth of the first run (VmHWM",
        "  reset via /proc/self/clear_refs), with first-run caches, BLAS buffers and weight pages touched; page-granular.",
        "load ms: opref.load (parse, validate, infer shapes; weights memory-mapped); read_model ms: OpenVINO's read_model",
        "  (both timed in turns with the load phases below).",
        "load ΔRSS: peak RSS growth during opref.load in a fresh process, measured as",
        f"  {method};",
        "  it counts the pages of the mapped .bin that load touches as well as every copy it makes.",
        "heap: tracemalloc peak of a load (allocations only, not the mapping). ΔRSS/bin, heap/bin: '—' under a 1 MB .bin.",
        "max|opref-OV|: max abs difference over all outputs (a sanity check; the tests own correctness).",
    ]
    notes += [f"  {r['model']}: RefEval {r['reference_note']}" for r in rows if r.get("reference_note") and r["onnxruntime_ms"] is not None]
    return table(header, body) + "\n" + "\n".join(notes) + "\n\n" + render_load(rows)


def render_load(rows: list[dict]) -> str:
    """The load phases (load_phases) beside OpenVINO's read_model."""
    header = ["model", "layers", "parse ms", "parse+walk ms", "read_graph ms", "infer ms", "check ms", "load ms",
              "read_model ms", "parse+walk/read_model", "load/read_model"]
    body = [[r["model"], str(r.get("layers", DASH)), fmt(r.get("load_parse_ms"), ".2f"), fmt(r.get("load_walk_ms"), ".2f"),
             fmt(r.get("load_read_ms"), ".2f"), fmt(r.get("load_infer_ms"), ".2f"), fmt(r.get("load_check_ms"), ".2f"),
             fmt(r["opref_load_ms"], ".2f"), fmt(r["ov_read_model_ms"], ".2f"),
             fmt(ratio(r.get("load_walk_ms"), r["ov_read_model_ms"]), ".2f"),
             fmt(ratio(r["opref_load_ms"], r["ov_read_model_ms"]), ".2f")] for r in rows]
    notes = ["Load phases, timed in turns with load and read_model (one call of each per round; median ms over the rounds):",
             "  parse: lxml's parse of the XML (hardened parser); parse+walk: the parse and a bare walk reading every element's",
             "  attributes (no typing, no checks: the least a reader on lxml does); read_graph: parse, attributes bound by the",
             "  schemas, ports, weights mapped, edges, graph checks; infer: whole-graph shape inference; check: the IR's declared",
             "  port shapes against the inferred ones. load = read_graph + infer + check (+ the model's variables). read_model:",
             "  OpenVINO's reader, in C++ (pugixml; each node built and validated by its C++ op class)."]
    return table(header, body) + "\n" + "\n".join(notes)
