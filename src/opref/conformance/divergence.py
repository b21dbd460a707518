"""`--find-divergence`: the first layer whose output diverges from opref's while its inputs agree.

opref runs the model once and spills every computed top-level tensor to disk; the other backend exposes
its tensors a batch at a time (OpenVINO: a fresh model with those layers' outputs as results;
onnxruntime: opref's own ONNX export with the exporter's tensor map as extra outputs), so memory stays
bounded on a large model. The layer found is written as a single-op conformance case (suite.py's
format, with opref's real inputs, opref's outputs as expected.npz and the backend's as
<backend>_outputs.npz) that `opref conformance run DIR --backends opref,<backend>` runs.
"""
from __future__ import annotations

import shlex
import tempfile
from pathlib import Path

import numpy as np

from ..errors import InputError, OprefError
from ..types import element_type
from .casefiles import decode, encode, write_npz
from .model_compare import Divergence, _tolerance_for, diff

BATCH_BYTES = 256 << 20          # OpenVINO outputs per batch at most this many bytes ...
BATCH_TENSORS = 64               # ... and this many tensors


SKIP = ("parameter", "constant", "result")     # roles: nothing computed to compare


def _jsonable(v):
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return str(v)


def _spill(model, feeds, folder: Path, wanted=None):
    """Runs opref once; every computed top-level tensor goes to `folder` (its path and element type by
    (layer index, port)); the inputs of the layers in `wanted` are returned in memory."""
    from ..runtime.executor import Executor
    index = {id(n): i for i, n in enumerate(model.graph.nodes)}
    stored, args_of = {}, {}

    class Recorder(Executor):
        def step(self, i, node, args):
            outs = super().step(i, node, args)
            if wanted is not None and id(node) in wanted:
                args_of[id(node)] = [None if a is None else np.array(a, copy=True) for a in args]
            if wanted is None and node.schema.role not in SKIP:
                for k, v in enumerate(outs):
                    if v is None:
                        continue
                    v = np.asarray(v)
                    et = element_type(v).name
                    p = folder / f"{index[id(node)]}_{k}.npy"
                    np.save(p, encode(v, et), allow_pickle=False)
                    stored[(index[id(node)], k)] = (p, et, v.nbytes)
            return outs

    with np.errstate(all="ignore"):
        Recorder(model.graph).run(feeds)
    return stored, args_of


def _first_bad(batch, theirs, stored, nodes, backend, atol, rtol, agreed):
    """(the first layer of the batch whose outputs diverge, as (node index, [OutputDiff]), or None; how many
    tensors were compared). Tensors that agree go to `agreed`; the scan stops after the first bad layer's
    outputs."""
    bad_layer, compared = None, 0
    for (i, k), t in zip(batch, theirs):
        path, et, _ = stored[(i, k)]
        mine = decode(np.load(path, allow_pickle=False), et)
        t = np.asarray(t)
        if t.dtype != mine.dtype and mine.dtype.kind not in "UO":
            t = t.astype(mine.dtype)            # (onnxruntime returns carriers: f32 for bf16 ...)
        name = f"{nodes[i].name}:{k}"
        a, r = _tolerance_for(name, et, atol, rtol)
        d = diff(name, backend, mine, t, a, r)
        compared += 1
        if d.passed:
            agreed.add((i, k))
            if bad_layer is not None:
                break
        elif bad_layer is None:
            bad_layer = (i, [d])
        elif bad_layer[0] == i:
            bad_layer[1].append(d)
        else:
            break
    return bad_layer, compared


def _find_divergence(model, ir_path, feeds, atol, rtol, device, repro_dir) -> Divergence | None:
    import openvino as ov
    from .backends import OpenVINOBackend, from_ov, to_ov
    core = ov.Core()
    names_ov = {}
    for op in core.read_model(str(ir_path)).get_ops():
        names_ov[op.get_friendly_name()] = names_ov.get(op.get_friendly_name(), 0) + 1
    nodes = model.graph.nodes
    with tempfile.TemporaryDirectory(prefix="opref-divergence-") as tmp:
        stored, _ = _spill(model, feeds, Path(tmp))
        order = [(i, k) for i, n in enumerate(nodes) if n.schema.role not in SKIP and names_ov.get(n.name) == 1
                 for k in range(len(n.outputs)) if (i, k) in stored]
        batches, cur, size = [], [], 0
        for key in order:
            nb = stored[key][2]
            if cur and (len(cur) >= BATCH_TENSORS or size + nb > BATCH_BYTES):
                batches.append(cur)
                cur, size = [], 0
            cur.append(key)
            size += nb
        if cur:
            batches.append(cur)
        agreed, compared = set(), 0
        for batch in batches:
            m = core.read_model(str(ir_path))
            ops_ = {op.get_friendly_name(): op for op in m.get_ops()}
            results = [ov.opset13.result(ops_[nodes[i].name].output(k)) for i, k in batch]
            sub = ov.Model(results, m.get_parameters(), "opref-divergence")
            try:
                compiled = core.compile_model(sub, device or "CPU", OpenVINOBackend.CONFIG)
            except Exception as e:  # noqa: BLE001 -- OpenVINO raises RuntimeError subclasses
                raise InputError(f"--find-divergence: OpenVINO cannot compile the model with layers "
                                 f"{nodes[batch[0][0]].name!r}..{nodes[batch[-1][0]].name!r} as outputs: "
                                 f"{str(e).strip().splitlines()[0][:300]}") from None
            request = compiled.create_infer_request()
            tensors = [to_ov(x) for x in feeds]
            for j, t in enumerate(tensors):
                request.set_input_tensor(j, t)
            request.infer()
            theirs = [from_ov(request.get_output_tensor(j)) for j in range(len(batch))]
            bad_layer, n = _first_bad(batch, theirs, stored, nodes, "openvino", atol, rtol, agreed)
            compared += n
            del request, compiled, sub, m, tensors
            if bad_layer is not None:
                return _report(model, ir_path, bad_layer[0], bad_layer[1], agreed, compared, feeds, device,
                               repro_dir)
    return None


def _own_onnx(model, folder: Path) -> Path:
    """The IR exported to ONNX by opref (not verified: comparing is what the caller does)."""
    from .onnx_file import export_onnx
    path = folder / "opref-export.onnx"
    try:
        export_onnx(model, path, verify=False)
    except OprefError as e:
        raise InputError(f"onnxruntime runs ONNX models and opref cannot export this one (give --onnx "
                         f"MODEL.onnx): {e}") from None
    return path


def _find_divergence_onnx(model, ir_path, feeds, atol, rtol, repro_dir) -> Divergence | None:
    """As _find_divergence, against onnxruntime on opref's own export of the IR: the exporter's map from
    each layer output to its ONNX tensor names what to expose, a batch of tensors per session."""
    import onnx as onnx_
    import onnxruntime as ort
    from ..onnx.export import to_onnx
    exported = to_onnx(model.graph)
    nodes = model.graph.nodes
    index = {id(n): i for i, n in enumerate(nodes)}
    by_index = {(index[n_id], k): name for (n_id, k), name in exported.tensors.items() if n_id in index}
    with tempfile.TemporaryDirectory(prefix="opref-divergence-") as tmp:
        stored, _ = _spill(model, feeds, Path(tmp))
        order = [(i, k) for i, n in enumerate(nodes) if n.schema.role not in SKIP
                 for k in range(len(n.outputs)) if (i, k) in stored and (i, k) in by_index]
        base = exported.model
        graph_inputs = [i.name for i in base.graph.input]
        inputs = dict(zip(graph_inputs, feeds))
        agreed, compared = set(), 0
        for start in range(0, len(order), BATCH_TENSORS):
            batch = order[start:start + BATCH_TENSORS]
            m = onnx_.ModelProto()
            m.CopyFrom(base)
            del m.graph.output[:]
            m.graph.output.extend(onnx_.ValueInfoProto(name=by_index[key]) for key in batch)
            options = ort.SessionOptions()
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
            session = ort.InferenceSession(m.SerializeToString(), options, providers=["CPUExecutionProvider"])
            bad_layer, n = _first_bad(batch, session.run(None, inputs), stored, nodes, "onnxruntime", atol, rtol,
                                      agreed)
            compared += n
            if bad_layer is not None:
                return _report(model, ir_path, bad_layer[0], bad_layer[1], agreed, compared, feeds, None,
                               repro_dir, backend="onnxruntime")
    return None


def _report(model, ir_path, i, diffs, agreed, compared, feeds, device, repro_dir, backend="openvino") -> Divergence:
    nodes = model.graph.nodes
    node = nodes[i]
    index = {id(n): j for j, n in enumerate(nodes)}
    ins = []
    for src in node.inputs:
        if src is None:
            continue
        role = src.node.schema.role
        j = index[id(src.node)]
        status = (role if role in ("parameter", "constant") else
                  "agree" if (j, src.port) in agreed else "not compared")
        ins.append({"from": f"{src.node.name}:{src.port}", "op": src.node.op, "status": status})
    div = Divergence(node.name, node.id, node.op, _jsonable(node.attrs), ins, diffs, compared)
    if repro_dir is None:
        return div
    try:
        _write_repro(model, ir_path, node, feeds, div, Path(repro_dir), device, backend)
    except OprefError as e:
        div.repro_message = f"no repro written: {e}"
    except Exception as e:  # noqa: BLE001 -- an op the case writer cannot take (e.g. sub-graph bodies)
        div.repro_message = f"no repro written: {type(e).__name__}: {e}"
    return div


def _write_repro(model, ir_path, node, feeds, div, root: Path, device, backend="openvino"):
    from .backends import OnnxRuntimeBackend, OpenVINOBackend
    from .casefiles import SuiteCase
    from .suite import safe_id, write_case, write_manifest
    from .worker import compare as compare_case
    if node.bodies:
        raise InputError(f"{node.where()} has sub-graph bodies: a single-op case cannot hold it")
    if root.exists() and any(root.iterdir()) and not (root / "manifest.json").exists():
        raise InputError(f"--repro {root}: not empty and not a suite; give a new or empty folder")
    root.mkdir(parents=True, exist_ok=True)
    _, args_of = _spill(model, feeds, root, wanted={id(node)})
    args = args_of[id(node)]
    if any(a is None for a in args):
        raise InputError(f"{node.where()} has an absent optional input")
    entry = write_case(root, op=node.op, table_id=safe_id(node.name), inputs=args, attrs=node.attrs,
                       mode="static", origin="divergence",
                       notes={"model": str(ir_path), "layer": node.name, "layer_id": node.id})
    if isinstance(entry, tuple):
        raise InputError(entry[1])
    case = SuiteCase(entry, root / entry["dir"])
    runner = OpenVINOBackend(device) if backend == "openvino" else OnnxRuntimeBackend()
    if backend == "onnxruntime" and case.onnx_path is None:
        raise InputError(f"the layer alone has no ONNX form ({entry.get('onnx_reason')})")
    with np.errstate(all="ignore"):
        ov_outs = runner.run(case)
    write_npz(case.dir / f"{backend}_outputs.npz",
              {n: encode(np.asarray(y), element_type(np.asarray(y)).name) for n, y in zip(entry["outputs"], ov_outs)})
    cmd = f"opref conformance run {shlex.quote(str(root))} --backends opref,{backend}"
    (case.dir / "command.txt").write_text(cmd + "\n", encoding="utf-8")
    write_manifest(root, [entry], [], [node.op], command=f"opref compare {ir_path} --find-divergence",
                   shape_mode="static")
    status, message, _ = compare_case(case, ov_outs, onnx=backend == "onnxruntime")
    div.repro, div.repro_case = str(root), entry["id"]
    div.reproduced = status == "failed"
    who = "OpenVINO" if backend == "openvino" else "onnxruntime"
    div.repro_message = message if div.reproduced else \
        f"{who} gives opref's answer on the layer alone (the model's context, e.g. a fusion, matters)"


