"""`opref reduce`: shrinks a model on which the backends disagree to a minimal sub-graph on which they
still disagree, fed with the real intermediate values of the original run.

The model runs once as `opref compare` runs it (same inputs, tolerances and backends, every backend
against opref). On a disagreement, opref records every intermediate tensor (on disk) and looks for the
first layer OpenVINO departs on (`--find-divergence`). A sub-graph is a set of the model's layers: an
input of a kept layer whose producer is not kept becomes a new Parameter fed with the producer's
recorded value (a Constant holding it where the port is shape-giving, and a copy of the Constant where
the producer is one), and each output of a kept layer that a dropped layer or a model output reads
becomes a Result. Starting from the divergent layer alone, the sub-graph grows by neighbours (1, 2, 4
... hops) until the backends disagree on it (the whole model at worst); then delta debugging removes
layers, a chunk at a time then one at a time, keeping each removal after which the backends still
disagree the same way (an output mismatch, or a backend failing to run it). The result is written as
IR with its inputs and every backend's outputs, so that `opref compare DIR/reduced.xml --load-inputs
DIR/inputs.npz` shows the disagreement again.
"""
from __future__ import annotations

import shlex
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ..errors import InputError, OprefError
from ..types import element_type
from .casefiles import decode, dumps
from .divergence import SKIP, _spill
from .model_compare import (REFERENCE, _lines, _ModelCase, _parse_range, _save_npz, _tol_args, _tolerance_for,
                            add_run_options, compare, diff, given_inputs)

MAX_TRIALS = 400                 # sub-graphs built and run at most (each one compiled by every backend)


@dataclass
class ReduceResult:
    model: str
    backends: list
    disagree: bool                   # did the backends disagree on the original model
    layers_before: int               # layers other than Parameter, Constant and Result
    layers_after: int = 0
    layers: list = field(default_factory=list)     # [{"name", "id", "op"}] of the reduced sub-graph
    inputs: dict = field(default_factory=dict)     # reduced sub-graph input name -> "f32[2,8]"
    outputs: list = field(default_factory=list)    # OutputDiff of the reduced sub-graph's outputs
    errors: dict = field(default_factory=dict)     # backend -> message where it failed on the sub-graph
    start: str | None = None         # the first divergent layer the search started from
    trials: int = 0
    out: str | None = None
    files: dict = field(default_factory=dict)
    note: str | None = None
    onnx_reason: str | None = None   # why reduced.onnx was not written (the sub-graph has no verified ONNX form)

    @property
    def ops(self) -> list[str]:
        return sorted({x["op"] for x in self.layers})

    @property
    def summary(self) -> str:
        if not self.disagree:
            return f"reduce {self.model}: the backends agree with {REFERENCE}: nothing to reduce"
        if not self.layers:
            return f"reduce {self.model}: {self.note or 'no sub-graph found'}"
        bad = [d for d in self.outputs if not d.passed]
        what = "; ".join(f"{d.backend} vs {REFERENCE} on {d.output!r}: {_error(d)}" for d in bad[:2])
        what = what or "; ".join(f"{b} fails: {m}" for b, m in self.errors.items())
        where = f"; written to {self.out}" if self.out else ""
        return (f"reduced {self.layers_before} layers -> {self.layers_after} ({', '.join(self.ops)}); "
                f"{what}{where}")

    def to_dict(self) -> dict:
        d = asdict(self)
        d["ops"], d["summary"] = self.ops, self.summary
        return d

    def to_json(self) -> str:
        return dumps(self.to_dict())


def _error(d) -> str:
    parts = []
    if d.nan_differs:
        parts.append(f"NaN differs at {d.nan_differs} position(s)")
    if d.inf_differs:
        parts.append(f"Inf differs at {d.inf_differs} position(s)")
    if d.max_abs_at is not None and d.max_abs_error > 0:
        parts.append(f"max abs error {d.max_abs_error:.3g} (rel {d.max_rel_error:.3g})")
    if d.message:
        parts.append(d.message)
    return ", ".join(parts) or "differs"


# --- cutting sub-graphs ------------------------------------------------------------------------------
class _Cutter:
    """Builds the sub-graph of a set of layers (indices into the model's nodes) with its inputs."""

    def __init__(self, model, feeds, stored):
        self.model, self.feeds, self.stored = model, feeds, stored
        self.nodes = model.graph.nodes
        self.index = {id(n): i for i, n in enumerate(self.nodes)}
        self.inputs = {id(p): port for p, port in zip(model.graph.parameters, model.inputs)}
        self.read = {}                                 # (i, k) -> consumer indices (Results included)
        self.neighbours = {i: set() for i, n in enumerate(self.nodes) if n.schema.role not in SKIP}
        for j, n in enumerate(self.nodes):
            for src in n.inputs:
                if src is None:
                    continue
                i = self.index[id(src.node)]
                self.read.setdefault((i, src.port), []).append(j)
                if i in self.neighbours and j in self.neighbours:
                    self.neighbours[i].add(j)
                    self.neighbours[j].add(i)
        self.layers = sorted(self.neighbours)

    def value(self, src) -> np.ndarray:
        if id(src.node) in self.inputs:
            return self.feeds[self.inputs[id(src.node)].name]
        path, et, _ = self.stored[(self.index[id(src.node)], src.port)]
        return decode(np.load(path, allow_pickle=False), et)

    def build(self, keep):
        """(Model, {input name: value}) of the layers in `keep`."""
        from ..model import Model
        from ..opset import get_schema
        from ..runtime.graph import Graph, Node, OutputPort, Source
        keep = sorted(keep)
        kept = set(keep)
        taken = {self.nodes[i].name for i in keep}
        new, cut, params, consts, feeds = {}, {}, [], [], {}

        def unique(name):
            while name in taken:
                name += "/input"
            taken.add(name)
            return name

        def cut_node(src, const: bool):
            node, i = src.node, self.index[id(src.node)]
            et = self.model.infos[src.info_key].element_type
            if node.schema.role == "constant":
                c = Node(node.id, unique(node.name), node.schema, dict(node.attrs), [],
                         [OutputPort(list(p.names)) for p in node.outputs], node.value)
                consts.append(c)
                return c
            x = np.asarray(self.value(src))
            port = self.inputs.get(id(node))
            names = list(port.names) if port else list(node.outputs[src.port].names) or [f"{node.name}:{src.port}"]
            if const:
                schema = get_schema("Constant", 1)
                c = Node(i, unique(f"{names[0]}/value"), schema,
                         schema.bind_attrs({"element_type": et, "shape": list(x.shape)}), [],
                         [OutputPort(names)], x)
                consts.append(c)
                return c
            schema = get_schema("Parameter", 1)
            p = Node(i, unique(names[0]), schema, schema.bind_attrs({"element_type": et, "shape": list(x.shape)}),
                     [], [OutputPort(names)])
            params.append(p)
            feeds[names[0]] = x
            return p

        for i in keep:
            n = self.nodes[i]
            ports = n.schema.ports_for(len(n.inputs))
            ins = []
            for j, src in enumerate(n.inputs):
                if src is None:
                    ins.append(None)
                    continue
                si = self.index[id(src.node)]
                if si in kept:
                    ins.append(Source(new[si], src.port))
                    continue
                const = ports[j].const and id(src.node) not in self.inputs
                key = (si, src.port, const or src.node.schema.role == "constant")
                if key not in cut:
                    cut[key] = cut_node(src, const)
                ins.append(Source(cut[key], 0))
            new[i] = Node(n.id, n.name, n.schema, dict(n.attrs), ins,
                          [OutputPort(list(p.names), rt_info=p.rt_info) for p in n.outputs], n.value,
                          n.bodies, n.port_maps, n.rt_info, [None] * len(ins))
        results, result_schema = [], get_schema("Result", 1)
        for i in keep:
            n = self.nodes[i]
            for k, port in enumerate(n.outputs):
                readers = self.read.get((i, k), [])
                if not any(r not in kept for r in readers):
                    continue
                name = unique(f"{port.names[0]}/sink" if port.names else f"{n.name}:{k}")
                results.append(Node(len(self.nodes) + len(results), name, result_schema, {},
                                    [Source(new[i], k)], [OutputPort()], input_dims=[None]))
        sinks = [new[i] for i in keep if any(s is self.nodes[i] for s in self.model.graph.sinks)]
        if not results and not sinks:
            raise InputError("the sub-graph has no output")
        g = self.model.graph
        graph = Graph(params + consts + [new[i] for i in keep] + results, params, results, sinks,
                      name=f"{g.name or 'model'}-reduced", ir_version=g.ir_version)
        return Model(graph), feeds

    def around(self, start: int, hops: int) -> set:
        """The layers at most `hops` edges away from `start` (either direction)."""
        seen, edge = {start}, {start}
        for _ in range(hops):
            edge = {j for i in edge for j in self.neighbours[i]} - seen
            if not edge:
                break
            seen |= edge
        return seen


class _Trials:
    """Runs sub-graphs on opref and the other backends; `disagrees(keep)` says whether they still
    disagree the way they did on the whole model."""

    def __init__(self, cutter, backends, atol, rtol, kind, folder: Path, limit=MAX_TRIALS):
        self.cutter, self.backends, self.atol, self.rtol = cutter, backends, atol, rtol
        self.kind, self.folder, self.limit = kind, folder, limit
        self.count = 0
        self.memo = {}

    def run(self, keep, folder: Path):
        """(model, feeds, reference outputs, {backend: outputs}, diffs, errors), or None when the sub-graph
        cannot be built or opref cannot run it."""
        from ..model import save
        try:
            sub, feeds = self.cutter.build(keep)
            with np.errstate(all="ignore"):
                ref = sub.run(feeds)
        except OprefError:
            return None
        path = folder / "reduced.xml"
        save(sub, path)
        ins = [feeds[p.name] for p in sub.inputs]
        ports = sub.outputs
        got, diffs, errors = {}, [], {}
        for name, backend in self.backends:
            try:
                with np.errstate(all="ignore"):
                    outs = list(backend.run(_ModelCase(path, ins, [p.element_type for p in ports])))
            except Exception as e:  # noqa: BLE001 -- a backend failing on the sub-graph is an outcome
                lines = str(e).strip().splitlines()
                errors[name] = f"{type(e).__name__}: {lines[0][:300] if lines else ''}"
                continue
            if len(outs) != len(ports):
                errors[name] = f"{len(outs)} outputs, the sub-graph has {len(ports)}"
                continue
            got[name] = dict(zip([p.name for p in ports], outs))
            for p, y in zip(ports, outs):
                a, r = _tolerance_for(p.name, p.element_type, self.atol, self.rtol)
                diffs.append(diff(p.name, name, ref[p.name], y, a, r))
        return sub, feeds, ref, got, diffs, errors

    def disagrees(self, keep) -> bool:
        key = frozenset(keep)
        if key in self.memo:
            return self.memo[key]
        if self.count >= self.limit:
            return False
        self.count += 1
        r = self.run(keep, self.folder)
        if r is None:
            ok = False
        elif self.kind == "mismatch":
            ok = any(not d.passed for d in r[4])
        else:
            ok = bool(r[5])
        self.memo[key] = ok
        return ok


def _ddmin(items: list, test) -> list:
    """A 1-minimal sub-list of `items` on which `test` holds (it holds on `items`): removes chunks of
    n = 2, 4, ... parts, then single items, keeping every removal after which the test still holds."""
    n = 2
    while len(items) >= 2:
        size = -(-len(items) // n)
        chunks = [items[k:k + size] for k in range(0, len(items), size)]
        for chunk in chunks:
            rest = [x for x in items if x not in chunk]
            if rest and test(rest):
                items, n = rest, max(n - 1, 2)
                break
        else:
            if n >= len(items):
                break
            n = min(2 * n, len(items))
    return items


# --- the search -------------------------------------------------------------------------------------
def reduce_model(model_or_path, backends=("opref", "openvino"), inputs=None, atol=None, rtol=None, *,
                 out=None, seed: int = 0, val_range=None, device=None, max_trials: int = MAX_TRIALS,
                 from_divergence: bool = True) -> ReduceResult:
    """Shrinks a model on which the backends disagree (each against opref, as `compare` decides with
    `atol`/`rtol`) to a minimal sub-graph on which they still disagree, fed with the real intermediate
    values of the original run; writes it to `out` (when given): reduced.xml/.bin, inputs.npz,
    <backend>_outputs.npz for opref and every other backend, reduce.json. Backends must read IR.
    With `from_divergence` (and OpenVINO among the backends) the search starts from the first divergent
    layer and grows; otherwise (or when none is found) it shrinks the whole model."""
    from ..model import Model, load
    from .backends import backend_names, make_backend
    model = model_or_path if isinstance(model_or_path, Model) else load(model_or_path)
    specs = backend_names(backends if isinstance(backends, str) else ",".join(backends))
    others = []
    for spec in specs:
        if spec == REFERENCE:
            continue
        backend = make_backend(spec, device)
        if "ir" not in tuple(getattr(backend, "formats", ("ir",))):
            raise InputError(f"reduce: backend {spec!r} does not read IR (reduce cuts IR sub-graphs); "
                             f"use opref compare --onnx for it")
        others.append((getattr(backend, "name", spec), backend))
    if not others:
        raise InputError(f"reduce: --backends {','.join(specs)} names no backend to compare with {REFERENCE}")
    if out is not None:
        _prepare(Path(out), create=False)          # before the (possibly long) search
    path = str(model.path or "model")
    r = compare(model, [REFERENCE] + [s for s in specs if s != REFERENCE], inputs, atol, rtol, seed=seed,
                val_range=val_range, device=device, find_divergence=from_divergence and "openvino" in [n for n, _ in others])
    layers = sum(1 for n in model.graph.nodes if n.schema.role not in SKIP)
    result = ReduceResult(path, list(specs), not r.passed, layers)
    if r.passed:
        result.note = "the backends agree: nothing to reduce"
        return result
    kind = "mismatch" if any(not o.passed for o in r.outputs) else "error"
    with tempfile.TemporaryDirectory(prefix="opref-reduce-") as tmp:
        stored, _ = _spill(model, [r.feeds[p.name] for p in model.inputs], Path(tmp))
        cutter = _Cutter(model, r.feeds, stored)
        trials = _Trials(cutter, others, atol, rtol, kind, Path(tmp), max_trials)
        start = None
        if r.divergence is not None:
            start = next((i for i in cutter.layers if cutter.nodes[i].name == r.divergence.layer
                          and cutter.nodes[i].id == r.divergence.layer_id), None)
        keep = None
        if start is not None:
            result.start = cutter.nodes[start].name
            hops = 0
            while True:
                cand = cutter.around(start, hops)
                if trials.disagrees(cand):
                    keep = cand
                    break
                if len(cand) == len(cutter.layers) or trials.count >= max_trials:
                    break
                bigger = cutter.around(start, max(1, 2 * hops))
                if bigger == cand:         # the start's connected part is exhausted: the whole model
                    break
                hops = max(1, 2 * hops)
        if keep is None and trials.disagrees(cutter.layers):
            keep = set(cutter.layers)
        if keep is None:
            result.trials = trials.count
            result.note = ("the whole model, rebuilt layer by layer, no longer shows the disagreement"
                           if trials.count < max_trials else f"no disagreeing sub-graph within {max_trials} trials")
            return result
        keep = _ddmin(sorted(keep), trials.disagrees)
        result.trials = trials.count
        final = Path(out) if out is not None else Path(tmp) / "final"
        _prepare(final)
        sub, feeds, ref, got, diffs, errors = trials.run(keep, final)
    result.layers = [{"name": cutter.nodes[i].name, "id": cutter.nodes[i].id, "op": cutter.nodes[i].op}
                     for i in keep]
    result.layers_after = len(keep)
    result.inputs = {p.name: f"{element_type(feeds[p.name]).name}[{','.join(map(str, np.shape(feeds[p.name])))}]"
                     for p in sub.inputs}
    result.outputs, result.errors = diffs, errors
    if out is not None:
        result.out = str(final)
        files = {"model": final / "reduced.xml", "inputs": final / "inputs.npz",
                 REFERENCE: final / f"{REFERENCE}_outputs.npz"}
        _save_npz(files["inputs"], feeds)
        _save_npz(files[REFERENCE], ref)
        for name, outs in got.items():
            files[name] = final / f"{name}_outputs.npz"
            _save_npz(files[name], outs)
        try:      # the sub-graph as ONNX too, verified on onnxruntime against opref (opref.export_onnx)
            from .onnx_file import export_onnx
            export_onnx(sub, final / "reduced.onnx", inputs=feeds)
            files["onnx"] = final / "reduced.onnx"
        except OprefError as e:
            result.onnx_reason = str(e).splitlines()[0]
        files["result"] = final / "reduce.json"
        result.files = {k: str(v) for k, v in files.items()}
        cmd = (f"opref compare {shlex.quote(str(files['model']))} --backends {','.join(specs)} "
               f"--load-inputs {shlex.quote(str(files['inputs']))}")
        (final / "command.txt").write_text(cmd + "\n", encoding="utf-8")
        files["result"].write_text(result.to_json() + "\n", encoding="utf-8")
    return result


def _prepare(folder: Path, create: bool = True) -> None:
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir()) and not (folder / "reduce.json").exists()):
        raise InputError(f"--out {folder}: not empty and not an earlier reduce output; give a new or empty folder")
    if create:
        folder.mkdir(parents=True, exist_ok=True)


# --- command line ------------------------------------------------------------------------------------
def text_report(r: ReduceResult) -> str:
    if not r.disagree or not r.layers:
        return r.summary
    lines = [f"model: {r.model} ({r.layers_before} layers); backends {', '.join(r.backends)}, each against "
             f"{REFERENCE}" + (f"; started from the first divergent layer {r.start!r}" if r.start else ""),
             f"reduced sub-graph after {r.trials} trial(s): {r.layers_after} layer(s)"]
    lines += [f"  {x['name']!r} (id {x['id']}, {x['op']})" for x in r.layers]
    lines.append("  inputs (recorded values of the original run): " +
                 ", ".join(f"{k} {v}" for k, v in r.inputs.items()))
    for d in r.outputs:
        if not d.passed:
            lines += _lines(d, REFERENCE)
    for name, msg in r.errors.items():
        lines.append(f"  {name} FAILED to run it: {msg}")
    if r.out:
        lines.append(f"  check: opref compare {shlex.quote(r.files['model'])} --backends {','.join(r.backends)} "
                     f"--load-inputs {shlex.quote(r.files['inputs'])}")
    lines.append(r.summary)
    return "\n".join(lines)


def cmd_reduce(args) -> int:
    try:
        from ..model import load
        model = load(args.model)
        given = given_inputs(model, args.load_inputs, args.input)
        val_range = dict(_parse_range(t) for t in args.val_range or [])
        out = args.out or str(Path(args.model).with_suffix("")) + ".reduced"
        r = reduce_model(model, args.backends, given, _tol_args(args.atol, "--atol"), _tol_args(args.rtol, "--rtol"),
                         out=out, seed=args.seed, val_range=val_range, device=args.device)
    except (OprefError, OSError) as e:
        print(f"opref: error: {e}", file=sys.stderr)
        return 2
    print(r.to_json() if args.json else text_report(r))
    return 1 if r.disagree else 0


def add_parser(sub) -> None:
    """Adds `reduce` to the `opref` sub-commands."""
    c = sub.add_parser("reduce", help="shrink a model the backends disagree on to a minimal disagreeing sub-graph",
                       description="Runs MODEL.xml like `opref compare` and, when a backend disagrees with opref, "
                                   "shrinks it to a minimal sub-graph on which it still disagrees, fed with the real "
                                   "intermediate values of the original run; writes it to --out as reduced.xml with "
                                   "inputs.npz and every backend's outputs, and prints a one-line summary. Exit 0 when "
                                   "the backends agree (nothing to reduce), 1 when they disagree (the sub-graph is "
                                   "written), 2 on a usage or model error.", allow_abbrev=False)
    c.add_argument("model", metavar="MODEL.xml")
    c.add_argument("--backends", default="opref,openvino", metavar="B1,B2",
                   help="comma-separated backends that read IR: opref, openvino, package.module:Class "
                        "(default opref,openvino)")
    c.add_argument("--out", metavar="DIR", help="where the reduced model goes (default MODEL.reduced)")
    add_run_options(c)
    c.add_argument("--json", action="store_true", help="strict JSON on stdout")
    c.set_defaults(fn=cmd_reduce)
