"""`opref conformance generate`: the case tables (and seeded edge values) written as a conformance suite.

Every value case of the selected op versions becomes a folder `cases/<Op-N>/<dtype>/<mode>/<case>/`
(see casefiles.py for the files) and one entry of the strict-JSON `manifest.json`: a one-op IR whose
shape-giving (`const`) ports are Constants and whose other ports are Parameters, the ONNX form where the
op version's lowering (opref.onnx) gives one (else the reason, in the entry), the inputs, and opref's outputs as the expected values with
the per-element-type tolerance of compare.py. In `dynamic` mode the Parameters are declared with
dynamic and interval dims, so a backend's shape inference runs too. Edge variants replace the values of
a few table cases per op version by zeros, a constant, ±inf/NaN, integer limits, empty tensors, scalars
and sub-byte types, from a seed derived from the op's name. The same command writes byte-identical
suites (no timestamps; entries sorted by id).
"""
from __future__ import annotations

import multiprocessing
import os
import re
import zlib
from importlib import metadata
from pathlib import Path

import numpy as np

from ..errors import InputError, OprefError
from ..ir_xml.writer import op_model
from ..opset import get_schema, list_schemas
from ..opset.registry import opset_table
from ..runtime import run_op
from ..shapes import TensorInfo
from ..types import element_type, element_type_of
from .casefiles import dumps, encode, write_npz
from .compare import EXACT_CATEGORIES, TOLERANCE

FORMAT = "opref-conformance-suite/1"
EDGE_KINDS = ("zeros", "const", "nonfinite", "limits", "empty", "scalar", "subbyte")
EDGE_PER_KIND = 2


def versions() -> dict:
    """Installed versions of opref and of the libraries a suite or run depends on (None if absent)."""
    out = {}
    for name in ("opref", "numpy", "onnx", "openvino", "onnxruntime"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


# --- selection -------------------------------------------------------------------------------------
_TOKEN = re.compile(r"\(|\)|[^\s()]+")


def keyword_matcher(expr: str | None):
    """pytest-style `-k`: words match as case-insensitive substrings, combined with and/or/not and
    parentheses. Returns a predicate on a text (a case id)."""
    if not expr:
        return lambda text: True
    tokens = _TOKEN.findall(expr)

    def pred(text: str) -> bool:
        low = text.lower()
        py = []
        for t in tokens:
            if t in ("(", ")", "and", "or", "not"):
                py.append(t)
            else:
                py.append(str(t.lower() in low))
        return bool(eval(" ".join(py), {"__builtins__": {}}, {}))   # only True/False/and/or/not/()

    try:
        pred("")
    except SyntaxError:
        raise InputError(f"-k {expr!r}: not an expression of words with and/or/not and parentheses") from None
    return pred


def select_ops(ops=None, opset=None, category=None) -> list[str]:
    """The OpenVINO op versions (no domain ops) named by the filters, sorted."""
    if opset is not None and not str(opset).startswith("opset"):
        opset = f"opset{opset}"
    schemas = [s for s in list_schemas(opset=opset, category=category) if not s.domain]
    names = [s.versioned_name for s in schemas]
    if ops:
        for op in ops:
            get_schema(op)                       # an unknown name is a user error with a hint
        names = [n for n in names if n in set(ops)]
    return names


def table_ops(opset=None, category=None) -> list[str]:
    """The OpenVINO op versions of opsets.csv named by the filters (registered or not)."""
    from ..opset.registry import category_of
    if opset is not None and not str(opset).startswith("opset"):
        opset = f"opset{opset}"
    return sorted(n for n, e in opset_table().items()
                  if (opset is None or opset in e.opsets) and (category is None or category_of(e) == category))


# --- one case -------------------------------------------------------------------------------------
def safe_id(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._+-]+", "_", text).strip("_") or "case"


def _dynamic_dims(shape, k: int, intervals_only: bool):
    dims = []
    for j, d in enumerate(shape):
        if not intervals_only and (j + k) % 2 == 0:
            dims.append(-1)
        else:
            dims.append((d // 2, 2 * d + 1))
    return dims


def _infos(schema, inputs, mode: str, intervals_only=False):
    infos = []
    for k, (port, x) in enumerate(zip(schema.ports_for(len(inputs)), inputs)):
        if port.const:
            infos.append(TensorInfo.of_array(x))
        elif mode == "dynamic":
            infos.append(TensorInfo(element_type_of(x), _dynamic_dims(x.shape, k, intervals_only)))
        else:
            infos.append(TensorInfo(element_type_of(x), list(x.shape)))
    return infos


def _names(names) -> list[str]:
    """Port names made unique (a variadic port repeats its name): data, data_1, ..."""
    seen, out = {}, []
    for n in names:
        k = seen.get(n, 0)
        seen[n] = k + 1
        out.append(n if k == 0 else f"{n}_{k}")
    return out


def _finite_max(a) -> float:
    a = np.abs(np.asarray(a, dtype=np.float64))
    return float(a[np.isfinite(a)].max(initial=1.0))


def reduction_scale(inputs) -> float:
    """atol scales with the magnitude of the terms a computed output sums (the first two numeric inputs)."""
    xs = [_finite_max(a) for a in inputs[:2] if np.asarray(a).dtype.kind not in "UOTb" and np.asarray(a).size]
    return float(np.prod(xs)) if xs else 1.0


def tolerance_of(schema, outputs, exact: bool | None, tolerance: str | None, inputs) -> dict:
    exact = exact if exact is not None else schema.category in EXACT_CATEGORIES
    floats = [element_type_of(y) for y in outputs if element_type(y).is_float]
    key = tolerance or (floats[0] if floats else None)
    rtol, atol = TOLERANCE[key] if key in TOLERANCE and not exact else (0.0, 0.0)
    return {"exact": exact, "rtol": rtol, "atol": atol, "scale": reduction_scale(inputs), "type": tolerance}


def onnx_form(op: str, inputs, attrs, infos):
    """(opref.onnx.OnnxCase, None) — the case as a checked one-op ONNX model whose inputs are declared
    like the IR's (`infos`: dynamic dims in the dynamic mode) — or (None, the reason it has none)."""
    from ..onnx import Unsupported, case_model
    with np.errstate(all="ignore"):
        form = case_model(op, inputs, attrs, infos=infos)
    if isinstance(form, Unsupported):
        return None, str(form)
    return form, None


def write_case(root: Path, *, op, table_id, inputs, attrs, mode, origin, notes=None, exact=None,
               tolerance=None, check_id=None):
    """Writes one case folder; returns its manifest entry, or (id, reason) when the case cannot be
    written in this mode."""
    schema = get_schema(op)
    inputs = [np.asanyarray(x) for x in inputs]      # (opref.typed u1/nf4 arrays keep their type)
    dtype = element_type_of(inputs[0]) if inputs else "none"
    cid = f"{op}/{dtype}/{mode}/{table_id}"
    if check_id is not None and not check_id(cid):
        return None
    with np.errstate(all="ignore"):
        expected = run_op(op, inputs, attrs)
    infos, outputs = None, None
    for intervals_only in ((False, True) if mode == "dynamic" else (False,)):
        try:
            infos = _infos(schema, inputs, mode, intervals_only)
            outputs = schema.infer(infos, schema.bind_attrs(attrs))
            break
        except OprefError as e:
            reason = f"opref cannot infer it with dynamic input dims ({str(e).splitlines()[0]})"
            infos = None
    if infos is None:
        return cid, reason
    xml, weights = op_model(op, infos, attrs, outputs)
    d = root / "cases" / cid
    d.mkdir(parents=True, exist_ok=True)
    (d / "model.xml").write_bytes(xml)
    (d / "model.bin").write_bytes(weights)
    ports = schema.ports_for(len(inputs))
    fed = [(p.name, x) for p, x in zip(ports, inputs) if not p.const]
    in_names = _names([n for n, _ in fed])
    in_types = [element_type_of(x) for _, x in fed]
    write_npz(d / "inputs.npz", {n: encode(x, t) for n, (_, x), t in zip(in_names, fed, in_types)})
    out_names = _names([p.name for p in schema.output_ports(len(expected))])
    out_types = [element_type_of(y) for y in expected]
    write_npz(d / "expected.npz", {n: encode(y, t) for n, y, t in zip(out_names, expected, out_types)})
    form, why = onnx_form(op, inputs, attrs, infos)
    entry = {"id": cid, "op": op, "category": schema.category, "opsets": list(schema.opsets),
             "element_type": dtype, "mode": mode, "dir": f"cases/{cid}",
             "inputs": in_names, "input_types": in_types, "outputs": out_names, "output_types": out_types,
             "ir": "model.xml", "onnx": None, "onnx_reason": why,
             "tolerance": tolerance_of(schema, expected, exact, tolerance, inputs), "origin": origin,
             "table_id": table_id, "notes": notes or {}}
    if form is not None:
        (d / "model.onnx").write_bytes(form.model.SerializeToString(deterministic=True))
        names = list(form.feeds)
        types = [element_type_of(x) for x in form.feeds.values()]
        write_npz(d / "onnx_inputs.npz", {n: encode(x, t) for n, x, t in zip(names, form.feeds.values(), types)})
        entry.update(onnx="model.onnx", onnx_input_names=names, onnx_input_types=types, onnx_outputs=out_names)
    return entry


# --- edge values ----------------------------------------------------------------------------------
def _data_ports(schema, inputs) -> list[int]:
    """The ports that carry data like input 0 (same type constraint, not shape-giving)."""
    ports = schema.ports_for(len(inputs))
    if not ports or ports[0].const:
        return []
    return [i for i, p in enumerate(ports) if not p.const and p.type_constraint == ports[0].type_constraint]


def _edge(kind: str, schema, case, rng):
    """The case's inputs with edge values put into its data ports, or None when `kind` does not apply."""
    xs = [np.asarray(x) for x in case.inputs]
    idx = _data_ports(schema, xs)
    if not idx:
        return None
    et = element_type(xs[idx[0]])
    if et.name == "string":
        return None
    if kind == "zeros":
        for i in idx:
            xs[i] = np.zeros_like(xs[i])
    elif kind == "const":
        v = xs[idx[0]].reshape(-1)[rng.integers(xs[idx[0]].size)] if xs[idx[0]].size else 1
        for i in idx:
            xs[i] = np.full_like(xs[i], v)
    elif kind == "nonfinite":
        if not et.is_float or et.name.startswith("f8e4"):
            return None      # f8e4m3 has no inf
        for i in idx:
            x = xs[i].copy()
            pick = rng.integers(0, 4, x.shape)
            x[pick == 1], x[pick == 2], x[pick == 3] = np.inf, -np.inf, np.nan
            xs[i] = x
    elif kind == "limits":
        if et.is_float or et.name in ("boolean",) or et.bits < 8:
            return None
        info = np.iinfo(et.dtype)
        choices = np.array([info.min, info.max, 0, 1] + ([-1] if et.is_signed else []), dtype=et.dtype)
        for i in idx:
            xs[i] = rng.choice(choices, xs[i].shape)
    elif kind == "empty":
        shapes = {xs[i].shape for i in idx}
        if len(shapes) != 1 or not xs[idx[0]].ndim:
            return None
        for i in idx:
            xs[i] = xs[i][:0]
    elif kind == "scalar":
        shapes = {xs[i].shape for i in idx}
        if len(shapes) != 1 or not xs[idx[0]].ndim or len(idx) != len([p for p in schema.ports_for(len(xs))
                                                                         if not p.const]):
            return None
        for i in idx:
            xs[i] = xs[i].reshape(-1)[:1].reshape(()) if xs[i].size else None
        if any(xs[i] is None for i in idx):
            return None
    elif kind == "subbyte":
        allowed = schema.type_constraints.get(schema.ports_for(len(xs))[idx[0]].type_constraint, ())
        targets = [t for t in ("u4", "i4", "u1") if t in allowed]
        if not targets or et.is_float or et.name == "boolean":
            return None
        t = element_type(targets[int(rng.integers(len(targets)))])
        lo, hi = (-8, 7) if t.name == "i4" else (0, 1) if t.name == "u1" else (0, 15)
        for i in idx:
            xs[i] = np.clip(xs[i].astype(np.int64), lo, hi).astype(t.dtype)
    return xs


def edge_variants(op: str, table) -> list[tuple[str, list, dict]]:
    """(id, inputs, attrs) of the seeded edge variants of an op version's value cases."""
    schema = get_schema(op)
    out = []
    for kind in EDGE_KINDS:
        rng = np.random.default_rng(zlib.crc32(f"{op}/{kind}".encode()))
        order = rng.permutation(len(table))
        k = 0
        for j in order:
            if k == EDGE_PER_KIND:
                break
            case = table[j]
            xs = _edge(kind, schema, case, rng)
            if xs is None:
                continue
            try:
                with np.errstate(all="ignore"):
                    run_op(op, xs, case.attrs)
            except Exception:  # noqa: BLE001 -- opref rejects this variant: not a valid case
                continue
            out.append((f"edge-{kind}-{k}", xs, dict(case.attrs)))
            k += 1
    return out


def table_of(op: str) -> list:
    """The case table of one op version: its category's module first (building every table takes
    seconds), all tables when the op is declared elsewhere."""
    from . import cases
    if cases.all_cases.cache_info().currsize:
        return cases.cases_for(op)
    category = get_schema(op).category
    for m in cases._modules():
        if m.__name__.rsplit(".", 1)[-1] == category:
            found = [c for c in m.cases() if c.op == op]
            if found:
                return found
    return cases.cases_for(op)


# --- the suite ------------------------------------------------------------------------------------
def _op_job(args):
    root, op, mode, expr, edges = args
    match = keyword_matcher(expr)
    table = [c for c in table_of(op) if c.error is None]
    entries, skipped, seen = [], [], set()
    items = [(safe_id(c.id), c.inputs, c.attrs, "table", c) for c in table]
    if edges:
        items += [(i, xs, a, "edge", None) for i, xs, a in edge_variants(op, table)]
    for tid, xs, attrs, origin, c in items:
        base, n = tid, 1
        while tid in seen:          # ids that differ only in characters a path cannot carry
            n += 1
            tid = f"{base}~{n}"
        seen.add(tid)
        notes = {}
        if c is not None:
            if c.openvino:
                notes["openvino"] = c.openvino
            if c.nan_differs:
                notes["nan_differs"] = dict(c.nan_differs)
        try:
            r = write_case(Path(root), op=op, table_id=tid, inputs=xs, attrs=attrs, mode=mode, origin=origin,
                           notes=notes, exact=c.exact if c else None, tolerance=c.tolerance if c else None,
                           check_id=match)
        except Exception as e:  # noqa: BLE001 -- report the case, keep generating
            dtype = element_type_of(xs[0]) if xs else "none"
            skipped.append({"id": f"{op}/{dtype}/{mode}/{tid}", "reason": f"{type(e).__name__}: {e}"})
            continue
        if r is None:
            continue
        if isinstance(r, tuple):
            skipped.append({"id": r[0], "reason": r[1]})
        else:
            entries.append(r)
    return op, entries, skipped


def generate(out, *, ops=None, opset=None, category=None, shape_mode="static", keyword=None, edges=True,
             workers=None, command="", progress=None) -> dict:
    """Writes the suite to `out` and returns its manifest."""
    root = Path(out)
    if root.exists() and any(root.iterdir()):
        if not (root / "manifest.json").exists():
            raise InputError(f"--out {root}: not empty and not a suite; give a new or empty folder")
        import shutil
        shutil.rmtree(root / "cases", ignore_errors=True)
    root.mkdir(parents=True, exist_ok=True)
    keyword_matcher(keyword)                        # a bad -k is a usage error before any work
    names = select_ops(ops, opset, category)
    modes = ("static", "dynamic") if shape_mode == "both" else (shape_mode,)
    if len(names) > 8:
        from .cases import all_cases
        all_cases()                                 # built once, before the workers fork
    jobs = [(str(root), op, mode, keyword, edges) for mode in modes for op in names]
    workers = (os.cpu_count() or 1) if workers is None else workers
    entries, skipped = [], []
    if workers > 1 and len(jobs) > 1 and "fork" in multiprocessing.get_all_start_methods():
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            results = pool.imap_unordered(_op_job, jobs)
            for op, e, s in results:
                entries += e
                skipped += s
                if progress:
                    progress(op, len(e))
    else:
        for job in jobs:
            op, e, s = _op_job(job)
            entries += e
            skipped += s
            if progress:
                progress(op, len(e))
    wanted = table_ops(opset, category) if not ops else sorted(set(ops) & set(opset_table()))
    return write_manifest(root, entries, skipped, wanted, command=command, shape_mode=shape_mode)


def write_manifest(root: Path, entries, skipped, wanted, *, command: str, shape_mode: str) -> dict:
    entries.sort(key=lambda e: e["id"])
    skipped.sort(key=lambda s: s["id"])
    in_suite = sorted({e["op"] for e in entries})
    registered = [n for n in opset_table() if n in {s.versioned_name for s in list_schemas()}]
    manifest = {
        "format": FORMAT, "versions": versions(), "command": command, "shape_mode": shape_mode,
        "coverage": {"op_versions_total": len(opset_table()), "registered": len(registered),
                     "selected": len(wanted), "in_suite": len(in_suite),
                     "missing": sorted(set(wanted) - set(in_suite)),
                     "cases": len(entries), "table_cases": sum(e["origin"] == "table" for e in entries),
                     "edge_cases": sum(e["origin"] == "edge" for e in entries),
                     "extracted_cases": sum(e["origin"] == "extract" for e in entries),
                     "with_onnx": sum(e["onnx"] is not None for e in entries)},
        "skipped": skipped,
        "cases": entries}
    (root / "manifest.json").write_text(dumps(manifest) + "\n", encoding="utf-8")
    return manifest
