"""`opref export-onnx` / `opref.export_onnx`: an IR model as an ONNX file, with proof.

The graph is lowered by opref.onnx (`to_onnx`; a layer with no ONNX form stops the export with every
such layer and its reason), written to a scratch folder (weights as ONNX external data when they pass
`EXTERNAL_BYTES`, or when asked), checked by `onnx.checker.check_model(full_check=True)`, and — unless
`verify=False` — run on onnxruntime with seeded inputs (dynamic dims set to 2, or the nearest value
inside an interval) and compared with opref on the IR, every output at its element type's tolerance.
Only a model that passes is moved to `path`; on a mismatch nothing is written and the error names the
first layer whose ONNX output diverges from opref's while its inputs agree.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import InputError
from ..onnx.builder import DEFAULT_OPSET
from ..onnx.export import ExportError, to_onnx
from ..runtime.executor import Executor
from .compare import TOLERANCE, mismatch

EXTERNAL_BYTES = 1 << 30        # initializers beyond this in total go to external data (ONNX files stop at 2 GiB)


@dataclass
class ExportResult:
    path: str
    opset: int
    layers: int
    nodes: int
    notes: list[str] = field(default_factory=list)
    external_data: str | None = None
    verified: bool = False
    outputs: list = field(default_factory=list)      # [{"output", "max_abs_error", "atol", "rtol"}]

    def to_dict(self) -> dict:
        from dataclasses import asdict
        return asdict(self)


def verification_inputs(model, seed: int = 0, given=None) -> dict[str, np.ndarray]:
    """Seeded inputs for the model; a dynamic dim becomes 2 (the nearest value inside its interval)."""
    from .extract import random_array
    rng = np.random.default_rng(seed)
    feeds = {}
    given = dict(given or {})
    for port in model.inputs:
        hit = next((n for n in port.names if n in given), None)
        if hit is not None:
            feeds[port.name] = np.asarray(given[hit])
            continue
        if port.shape.rank is None:
            raise InputError(f"input {port.name!r} has a dynamic rank: give its value to verify the export")
        dims = [d.length if d.is_static else max(d.lo, min(2, d.hi if d.hi is not None else 2))
                for d in port.shape]
        feeds[port.name] = random_array(port.element_type, tuple(dims), rng)
    return feeds


def _ort_session(path, extra_outputs=None):
    import onnx
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL if extra_outputs else \
        ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    if not extra_outputs:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    m = onnx.load(str(path))
    have = {o.name for o in m.graph.output}
    for name in extra_outputs:
        if name not in have:
            m.graph.output.append(onnx.ValueInfoProto(name=name))
            have.add(name)
    return ort.InferenceSession(m.SerializeToString(), options, providers=["CPUExecutionProvider"])


def _tolerance(et: str):
    return TOLERANCE.get(et)


def _differs(theirs, ours, et) -> str | None:
    t, o = np.asarray(theirs), np.asarray(ours)
    if t.shape != o.shape:
        return f"shape {t.shape}, opref {o.shape}"
    if t.dtype != o.dtype and o.dtype.kind not in "UTO":
        t = t.astype(o.dtype)
    x = np.abs(o.astype(np.float64)) if o.dtype.kind in "iuf" else np.ones(1)
    scale = float(x[np.isfinite(x)].max(initial=1.0))
    return mismatch(t, o, exact=_tolerance(et) is None, scale=scale)


def first_divergence(model, exported, onnx_path, feeds) -> str | None:
    """The first layer (topological order) whose ONNX output differs from opref's while its inputs agree."""
    graph = model.graph
    opref_values: dict = {}

    class _Keep(Executor):
        def step(self, i, node, args):
            outs = super().step(i, node, args)
            for k, v in enumerate(outs):
                opref_values[(id(node), k)] = v
            return outs

    ordered = [p for p in graph.parameters]
    _Keep(graph).run([feeds[model.inputs[i].name] for i in range(len(ordered))])
    names = {k: v for k, v in exported.tensors.items() if k in opref_values}
    session = _ort_session(onnx_path, list(names.values()))
    out_names = [o.name for o in session.get_outputs()]
    inputs = {i.name: feeds[p.name] for i, p in zip(session.get_inputs(), model.inputs)}
    got = dict(zip(out_names, session.run(None, inputs)))
    bad = set()
    for node in exported.nodes:
        for k in range(len(node.outputs)):
            key = (id(node), k)
            if key not in names or names[key] not in got:
                continue
            if _differs(got[names[key]], opref_values[key], str(getattr(opref_values[key], "dtype", ""))
                        and _et(opref_values[key])) is not None:
                inputs_agree = all(s is None or s.info_key not in bad for s in node.inputs)
                if inputs_agree:
                    return f"{node.where()} output {k}: onnxruntime " + \
                        _differs(got[names[key]], opref_values[key], _et(opref_values[key]))
                bad.add(key)
    return None


def _et(a) -> str:
    from ..types import element_type
    return element_type(np.asarray(a)).name


def export_onnx(model, path, *, opset: int = DEFAULT_OPSET, verify: bool = True, inputs=None, seed: int = 0,
                external_data: bool | None = None) -> ExportResult:
    """Write `model` (an opref.Model or an IR path) as ONNX to `path`; see the module docstring.
    Raises ExportError (nothing written) when a layer has no ONNX form or the check or comparison fails."""
    import onnx
    from ..model import Model, load
    if not isinstance(model, Model):
        model = load(model)
    path = Path(path)
    exported = to_onnx(model.graph, opset=opset, name=Path(model.path).stem if model.path else None)
    proto = exported.model
    total = sum(len(t.raw_data) for t in proto.graph.initializer)
    external = external_data if external_data is not None else total > EXTERNAL_BYTES
    with tempfile.TemporaryDirectory(prefix="opref-export-", dir=path.parent if path.parent.exists() else None) as tmp:
        scratch = Path(tmp) / path.name
        location = path.name + ".data"
        if external:
            onnx.save_model(proto, str(scratch), save_as_external_data=True, all_tensors_to_one_file=True,
                            location=location, size_threshold=1024)
        else:
            onnx.save_model(proto, str(scratch))
        try:
            onnx.checker.check_model(str(scratch), full_check=True)
        except Exception as e:  # noqa: BLE001 -- onnx raises ValidationError and InferenceError
            raise ExportError(f"the exported model fails onnx's checker: {e}") from None
        result = ExportResult(str(path), opset, len(model.graph.nodes), len(proto.graph.node), exported.notes,
                              location if external else None)
        if verify:
            feeds = verification_inputs(model, seed, inputs)
            with np.errstate(all="ignore"):
                ours = model.run(feeds)
            session = _ort_session(scratch)
            onnx_in = {i.name: feeds[p.name] for i, p in zip(session.get_inputs(), model.inputs)}
            theirs = session.run(None, onnx_in)
            problems = []
            for port, t in zip(model.outputs, theirs):
                o = ours[port.name]
                why = _differs(t, o, port.element_type)
                result.outputs.append({"output": port.name, "element_type": port.element_type,
                                       "agrees": why is None})
                if why is not None:
                    problems.append(f"output {port.name!r}: onnxruntime {why}")
            if problems:
                where = first_divergence(model, exported, scratch, feeds)
                raise ExportError("the exported model does not compute what the IR does (no file written):\n  "
                                  + "\n  ".join(problems)
                                  + (f"\nfirst diverging layer: {where}" if where else ""))
            result.verified = True
        path.parent.mkdir(parents=True, exist_ok=True)
        os.replace(scratch, path)
        if external:
            shutil.move(str(Path(tmp) / location), str(path.parent / location))
    return result


# --- the command ------------------------------------------------------------------------------------
def text_report(r: ExportResult) -> str:
    lines = [f"wrote {r.path} (ONNX opset {r.opset}: {r.layers} IR layers -> {r.nodes} ONNX nodes"
             + (f", weights in {r.external_data}" if r.external_data else "") + ")"]
    if r.verified:
        lines.append(f"verified: onnxruntime equals opref on the IR for {len(r.outputs)} output(s) "
                     "(seeded inputs, each output at its element type's tolerance)")
    else:
        lines.append("not verified (--no-verify)")
    lines += [f"note: {n}" for n in r.notes]
    return "\n".join(lines)


def cmd_export_onnx(args) -> int:
    import sys
    from ..errors import OprefError
    from ..model import load
    from .casefiles import dumps
    from .model_compare import given_inputs
    try:
        model = load(args.model)
        given = given_inputs(model, args.load_inputs, args.input)
        r = export_onnx(model, args.out, opset=args.opset, verify=not args.no_verify, inputs=given,
                        seed=args.seed, external_data=True if args.external_data else None)
    except ExportError as e:
        if args.json:
            print(dumps({"exported": False, "error": str(e),
                         "unsupported": [{"layer": w, "op": op, "reason": why, "detail": d}
                                         for w, op, why, d in e.unsupported]}))
        print(f"opref export-onnx: {e}", file=sys.stderr)
        return 1
    except (OprefError, OSError) as e:
        print(f"opref: error: {e}", file=sys.stderr)
        return 2
    print(dumps({"exported": True, **r.to_dict()}) if args.json else text_report(r))
    return 0


def add_parser(sub) -> None:
    """Adds `export-onnx` to the `opref` sub-commands."""
    from ..onnx.builder import MAX_OPSET, MIN_OPSET
    c = sub.add_parser("export-onnx", help="write an IR model as ONNX, checked and verified on onnxruntime",
                       description="Lowers every layer of MODEL.xml to ONNX (sub-graphs included; dynamic dims as "
                                   "named dim_params), checks the result with onnx's full checker and, unless "
                                   "--no-verify, runs it on onnxruntime with seeded inputs and compares every output "
                                   "with opref on the IR. Writes OUT.onnx only when all of that passes. Exit 0 when "
                                   "written; 1 when a layer has no ONNX form (every such layer is listed with its op "
                                   "version and reason) or the ONNX model computes something else (the first "
                                   "diverging layer is named); 2 on a usage or model error.", allow_abbrev=False)
    c.add_argument("model", metavar="MODEL.xml")
    c.add_argument("out", metavar="OUT.onnx")
    c.add_argument("--opset", type=int, default=DEFAULT_OPSET, choices=range(MIN_OPSET, MAX_OPSET + 1),
                   metavar="N", help=f"ONNX opset to target, {MIN_OPSET}..{MAX_OPSET} (default {DEFAULT_OPSET})")
    c.add_argument("--no-verify", action="store_true", help="skip the comparison on onnxruntime")
    c.add_argument("--external-data", action="store_true",
                   help="weights in OUT.onnx.data (default: only when they pass 1 GiB)")
    c.add_argument("--input", action="append", metavar="NAME=FILE.npy", help="an input's value for the "
                   "verification (repeatable); needed for an input of dynamic rank")
    c.add_argument("--load-inputs", metavar="F.npz", help="verification inputs by name from an .npz")
    c.add_argument("--seed", type=int, default=0, help="seed of the verification inputs (default 0)")
    c.add_argument("--json", action="store_true", help="strict JSON on stdout")
    c.set_defaults(fn=cmd_export_onnx)
