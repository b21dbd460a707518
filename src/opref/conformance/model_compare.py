"""`opref compare`: one model on several backends, every backend against opref (the reference).

`compare` feeds the same inputs (given, loaded from an .npz, or seeded random values) to each backend and
reports per output: the largest absolute and relative error and where, the NaN/Inf positions that differ,
and the smallest atol (at the given rtol) and rtol (at the given atol) that would have passed. NaN equals
NaN and an infinity equals the same infinity. Default tolerance per output: compare.TOLERANCE of its
element type for floating-point outputs, exact for the others; `atol`/`rtol` override it for every
output or per output name.

With `find_divergence`, divergence.py names the first layer where OpenVINO or onnxruntime departs.
"""
from __future__ import annotations

import json
import shlex
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ..errors import InputError, OprefError
from ..types import element_type
from .casefiles import decode, dumps, encode, write_npz
from .compare import TOLERANCE

REFERENCE = "opref"
_FIRST = 5                       # NaN/Inf positions listed per output


# --- results ---------------------------------------------------------------------------------------
@dataclass
class OutputDiff:
    """One output of one backend against the reference."""
    output: str
    backend: str
    passed: bool
    element_type: str | None = None
    shape: list | None = None
    atol: float = 0.0
    rtol: float = 0.0
    elements: int = 0
    mismatched: int = 0
    max_abs_error: float = 0.0
    max_abs_at: list | None = None
    reference_value: float | None = None
    backend_value: float | None = None
    max_rel_error: float = 0.0
    max_rel_at: list | None = None
    nan_differs: int = 0
    nan_positions: list = field(default_factory=list)
    inf_differs: int = 0
    inf_positions: list = field(default_factory=list)
    min_atol: float = 0.0            # smallest atol that passes at this rtol (inf: none does)
    min_rtol: float = 0.0            # smallest rtol that passes at this atol (inf: none does)
    message: str | None = None       # shape/type difference


@dataclass
class Divergence:
    """The first layer (topological order) whose output diverges while its inputs agree."""
    layer: str
    layer_id: int
    op: str
    attributes: dict
    inputs: list                     # [{"from": "layer:port", "status": "agree" | "parameter" | ...}]
    outputs: list                    # OutputDiff per diverging output port (backend = the other backend)
    tensors_compared: int
    repro: str | None = None
    repro_case: str | None = None
    reproduced: bool | None = None   # does the single-op repro fail on the backend by itself
    repro_message: str | None = None


@dataclass
class CompareResult:
    model: str
    reference: str
    backends: list
    versions: dict
    inputs: dict                     # name -> "f32[1,3]"
    outputs: list                    # OutputDiff
    errors: dict                     # backend -> message when it could not run the model
    divergence: Divergence | None = None
    divergence_note: str | None = None
    onnx_source: str | None = None   # where the ONNX form came from when opref exported it itself

    @property
    def passed(self) -> bool:
        return not self.errors and all(o.passed for o in self.outputs)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["passed"] = self.passed
        return d

    def to_json(self) -> str:
        return dumps(self.to_dict())


# --- comparing two arrays ----------------------------------------------------------------------------
def _idx(flat_index, shape) -> list:
    return [int(i) for i in np.unravel_index(int(flat_index), shape)] if shape else []


def _scalar(v) -> float | None:
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def default_tolerance(et: str) -> tuple[float, float]:
    """(atol, rtol) for an output of element type `et`: compare.TOLERANCE for floats, exact otherwise."""
    if et in TOLERANCE:
        rtol, atol = TOLERANCE[et]
        return atol, rtol
    return 0.0, 0.0


def diff(name: str, backend: str, ref: np.ndarray, got: np.ndarray, atol: float, rtol: float) -> OutputDiff:
    """`got` (a backend's) against `ref` (the reference's)."""
    ref, got = np.asarray(ref), np.asarray(got)
    try:
        et, gt = element_type(ref).name, element_type(got).name
    except OprefError:
        et = gt = str(ref.dtype)
    d = OutputDiff(name, backend, False, et, list(ref.shape), float(atol), float(rtol), int(ref.size))
    if ref.shape != got.shape:
        d.message = f"shape {list(got.shape)}, expected {list(ref.shape)}"
        d.min_atol = d.min_rtol = float("inf")
        return d
    notes = [f"element type {gt}, expected {et} (values compared)"] if gt != et else []
    if ref.dtype.kind in "UTSO" or got.dtype.kind in "UTSO":
        bad = ref.astype(str) != got.astype(str)
        d.mismatched = int(bad.sum())
        d.passed = d.mismatched == 0 and not notes
        if bad.any():
            d.max_abs_at = _idx(np.argmax(bad), ref.shape)
            notes.append(f"{d.mismatched} strings differ")
        d.min_atol = d.min_rtol = 0.0 if d.passed else float("inf")
        d.message = "; ".join(notes) or None
        return d
    e, a = ref.astype(np.float64), got.astype(np.float64)
    if ref.dtype.kind in "iu" and got.dtype.kind in "iu":      # int64 beyond 2**53: exact integers
        same = ref.astype(np.int64 if ref.dtype.kind == "i" else np.uint64) == got.astype(ref.dtype)
    else:
        same = (e == a) | (np.isnan(e) & np.isnan(a))
    nan_bad = np.isnan(e) != np.isnan(a)
    inf_bad = ~same & ~nan_bad & (np.isinf(e) | np.isinf(a))
    finite = ~same & ~nan_bad & ~inf_bad
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.where(finite, np.abs(e - a), 0.0)
        mag = np.abs(np.where(np.isfinite(e), e, 0.0))
        rel = np.where(finite, np.where(mag > 0, err / np.where(mag > 0, mag, 1.0), np.inf), 0.0)
    bad = nan_bad | inf_bad | (finite & ~(err <= atol + rtol * mag))
    d.mismatched = int(bad.sum())
    d.nan_differs, d.inf_differs = int(nan_bad.sum()), int(inf_bad.sum())
    d.nan_positions = [_idx(i, ref.shape) for i in np.flatnonzero(nan_bad)[:_FIRST]]
    d.inf_positions = [_idx(i, ref.shape) for i in np.flatnonzero(inf_bad)[:_FIRST]]
    if finite.any():
        i = int(np.argmax(err))
        d.max_abs_error = float(err.reshape(-1)[i])
        d.max_abs_at = _idx(i, ref.shape)
        d.reference_value, d.backend_value = _scalar(e.reshape(-1)[i]), _scalar(a.reshape(-1)[i])
        j = int(np.argmax(rel))
        d.max_rel_error = float(rel.reshape(-1)[j])
        d.max_rel_at = _idx(j, ref.shape)
    if nan_bad.any() or inf_bad.any():
        d.min_atol = d.min_rtol = float("inf")
    else:
        d.min_atol = float(max(np.max(err - rtol * mag, initial=0.0), 0.0))
        over = finite & (err > atol)
        if (over & (mag == 0)).any():
            d.min_rtol = float("inf")
        else:
            d.min_rtol = float(max(np.max(np.where(over, (err - atol) / np.where(mag > 0, mag, 1.0), 0.0),
                                          initial=0.0), 0.0))
    d.passed = d.mismatched == 0 and not notes
    d.message = "; ".join(notes) or None
    return d


def _tolerance_for(name: str, et: str, atol, rtol) -> tuple[float, float]:
    a, r = default_tolerance(et)
    for given, k in ((atol, 0), (rtol, 1)):
        if given is None:
            continue
        if isinstance(given, dict):
            v = given.get(name, given.get(None, given.get("*")))
        else:
            v = given
        if v is not None:
            if k == 0:
                a = float(v)
            else:
                r = float(v)
    return a, r


# --- running backends --------------------------------------------------------------------------------
class _ModelCase:
    """What a conformance backend's `run` needs, for a whole model."""

    def __init__(self, ir_path, inputs, output_types, onnx_path=None, onnx_inputs=None):
        self.id = self.op = "model"
        self.dir = Path(ir_path).parent
        self.ir_path = Path(ir_path)
        self.inputs = inputs
        self.onnx_path = Path(onnx_path) if onnx_path else None
        self.onnx_inputs = onnx_inputs
        self.entry = {"id": "model", "op": "model", "output_types": output_types,
                      "onnx_reason": "no ONNX form of the model: give --onnx MODEL.onnx"}


def _onnx_io(onnx_path, model):
    """The ONNX model's input order (as indices of the IR's inputs) and output order (indices of the IR's)."""
    import onnx
    try:
        g = onnx.load(str(onnx_path), load_external_data=False).graph
    except Exception as e:  # noqa: BLE001 -- onnx raises DecodeError and others
        raise InputError(f"--onnx {onnx_path}: cannot read an ONNX model ({e})") from None
    inits = {i.name for i in g.initializer}
    names_in = [i.name for i in g.input if i.name not in inits]
    names_out = [o.name for o in g.output]

    def order(onnx_names, ports, what):
        if len(onnx_names) != len(ports):
            raise InputError(f"--onnx {onnx_path}: {len(onnx_names)} {what}s, the IR has {len(ports)}")
        out = []
        for k, n in enumerate(onnx_names):
            hit = [j for j, p in enumerate(ports) if n in p.names]
            out.append(hit[0] if len(hit) == 1 else k)
        return out if sorted(out) == list(range(len(ports))) else list(range(len(ports)))
    return order(names_in, model.inputs, "input"), order(names_out, model.outputs, "output")


def _parse_range(text: str):
    name, sep, rng = text.rpartition(":")
    try:
        lo, hi = json.loads(rng)
        lo, hi = float(lo), float(hi)
    except (ValueError, TypeError):
        raise InputError(f"--val-range {text!r}: expected [NAME:][lo,hi]") from None
    if not lo <= hi:
        raise InputError(f"--val-range {text!r}: lo > hi")
    return (name if sep else None), (lo, hi)


def make_inputs(model, given=None, seed: int = 0, val_range=None) -> dict[str, np.ndarray]:
    """The model's inputs by name: given arrays (by any of an input's names), else seeded random values
    (standard normal floats, small integers; `val_range` {name or None: (lo, hi)}: uniform in [lo, hi])."""
    from .extract import random_array
    given = dict(given or {})
    val_range = dict(val_range or {})
    known = {n for p in model.inputs for n in p.names}
    for name in list(given) + [n for n in val_range if n is not None]:
        if name not in known:
            raise InputError(f"the model has no input named {name!r}; its inputs are "
                             f"{', '.join(repr(p.name) for p in model.inputs)}")
    rng = np.random.default_rng(seed)
    feeds = {}
    for port in model.inputs:
        hit = next((n for n in port.names if n in given), None)
        if hit is not None:
            feeds[port.name] = np.asarray(given[hit])
            continue
        if not port.shape.is_static:
            raise InputError(f"input {port.name!r} has shape {port.shape}: give --input {port.name}=FILE.npy")
        shape = port.shape.to_shape()
        rng_ = next((val_range[n] for n in port.names if n in val_range), val_range.get(None))
        t = element_type(port.element_type)
        if rng_ is None:
            feeds[port.name] = random_array(port.element_type, shape, rng)
        elif t.is_float:
            feeds[port.name] = rng.uniform(rng_[0], rng_[1], shape).astype(np.float32).astype(t.dtype)
        else:
            feeds[port.name] = rng.integers(int(np.ceil(rng_[0])), int(np.floor(rng_[1])) + 1, shape).astype(t.dtype)
    return feeds


def _describe(name, backend):
    v = getattr(backend, "version", None)
    v = v() if callable(v) else v
    dev = getattr(backend, "device", None)
    return f"{name} {v or ''}".strip() + (f" ({dev})" if dev and name != "opref" else "")


def compare(model_or_path, backends=("opref", "openvino"), inputs=None, atol=None, rtol=None, *, onnx=None,
            seed: int = 0, val_range=None, golden=None, device=None, find_divergence: bool = False,
            repro_dir=None) -> CompareResult:
    """Runs the model on each backend with the same inputs and compares every backend against opref
    (or against `golden`, {output name: array}, when given). `atol`/`rtol`: a number for every output or
    {output name: number}. With `find_divergence`, also looks for the first divergent layer of OpenVINO
    (see `find_divergence`) when an output mismatches, and writes its repro under `repro_dir`."""
    from ..model import Model, load, save
    from .backends import backend_names, make_backend
    from .divergence import _find_divergence, _find_divergence_onnx, _own_onnx
    specs = backend_names(",".join(backends)) if not isinstance(backends, str) else backend_names(backends)
    with tempfile.TemporaryDirectory(prefix="opref-compare-") as tmp:
        if isinstance(model_or_path, Model):
            model = model_or_path
            if model.path and Path(model.path).suffix == ".xml":
                ir_path = Path(model.path)
            else:
                ir_path = Path(tmp) / "model.xml"
                save(model, ir_path)
        else:
            ir_path = Path(model_or_path)
            model = load(ir_path)
        feeds = make_inputs(model, inputs, seed, val_range)
        outs_info = model.outputs
        names = [p.name for p in outs_info]
        types = [p.element_type for p in outs_info]
        with np.errstate(all="ignore"):
            ref_outs = model.run(feeds)
        reference = REFERENCE
        ref = dict(ref_outs)
        if golden is not None:
            missing = [n for n in names if n not in golden]
            if missing:
                raise InputError(f"the golden outputs lack {', '.join(map(repr, missing))}")
            ref = {n: np.asarray(golden[n]) for n in names}
            reference = "golden"
        in_list = [feeds[p.name] for p in model.inputs]
        onnx_inputs, onnx_out = None, None
        if onnx is not None:
            in_order, onnx_out = _onnx_io(onnx, model)
            onnx_inputs = [in_list[j] for j in in_order]
        result = CompareResult(str(ir_path), reference, list(specs), {}, 
                               {p.name: f"{element_type(feeds[p.name]).name}{_shape(np.shape(feeds[p.name]))}"
                                for p in model.inputs}, [], {})
        for spec in specs:
            if spec == REFERENCE and golden is None:
                result.versions[spec] = _describe(spec, make_backend(spec))
                continue
            try:
                backend = make_backend(spec, device if spec != REFERENCE else None)
            except OprefError:
                raise
            except Exception as e:  # noqa: BLE001 -- a backend that cannot be built
                raise InputError(f"backend {spec!r}: {type(e).__name__}: {e}") from None
            name = getattr(backend, "name", spec)
            result.versions[name] = _describe(name, backend)
            formats = tuple(getattr(backend, "formats", ("ir",)))
            use_onnx = "ir" not in formats
            if use_onnx and onnx is None:
                onnx = _own_onnx(model, Path(tmp))      # opref's export of the IR (opref.export_onnx)
                result.onnx_source = "exported by opref (opref export-onnx) from the IR"
                in_order, onnx_out = _onnx_io(onnx, model)
                onnx_inputs = [in_list[j] for j in in_order]
            case_types = [types[j] for j in onnx_out] if use_onnx else types
            case = _ModelCase(ir_path, in_list, case_types, onnx, onnx_inputs)
            try:
                with np.errstate(all="ignore"):
                    got = list(backend.run(case))
            except Exception as e:  # noqa: BLE001 -- the backend failed on the model: reported, exit 1
                result.errors[name] = f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"
                continue
            if use_onnx:
                back = [None] * len(got)
                for k, j in enumerate(onnx_out[:len(got)]):
                    back[j] = got[k]
                got = back
            if len(got) != len(names):
                result.errors[name] = f"{len(got)} outputs, the model has {len(names)}"
                continue
            for n, t, g in zip(names, types, got):
                a, r = _tolerance_for(n, t, atol, rtol)
                result.outputs.append(diff(n, name, ref[n], g, a, r))
        if find_divergence:
            others = [s for s in specs if s != REFERENCE]
            failing = [o.backend for o in result.outputs if not o.passed] + list(result.errors)
            other = "openvino" if "openvino" in failing else "onnxruntime" if "onnxruntime" in failing else None
            if not {"openvino", "onnxruntime"} & set(others):
                result.divergence_note = ("--find-divergence compares opref with OpenVINO or onnxruntime: add one "
                                          "to --backends")
            elif result.passed or other is None:
                result.divergence_note = "all outputs agree: no divergent layer to look for"
            elif other == "onnxruntime":
                try:
                    result.divergence = _find_divergence_onnx(model, ir_path, in_list, atol, rtol, repro_dir)
                except OprefError as e:
                    result.divergence_note = f"no layer-by-layer comparison with onnxruntime: {e}"
                if result.divergence is None and result.divergence_note is None:
                    result.divergence_note = ("every layer output of opref's ONNX export agrees on onnxruntime: the "
                                              "difference is in the --onnx file's own graph")
            else:
                result.divergence = _find_divergence(model, ir_path, in_list, atol, rtol, device, repro_dir)
                if result.divergence is None:
                    result.divergence_note = ("every intermediate tensor OpenVINO exposes agrees: the difference is "
                                              "in a tensor it does not expose (fused or constant-folded)")
        result.reference_outputs = ref_outs     # not fields: kept off the JSON
        result.feeds = feeds
        return result


# --- command line ------------------------------------------------------------------------------------
def _tol_args(items, what):
    if not items:
        return None
    out = {}
    for item in items:
        name, sep, v = item.rpartition(":")
        try:
            out[name if sep else None] = float(v)
        except ValueError:
            raise InputError(f"{what} {item!r}: expected [OUTPUT:]NUMBER") from None
    return out


def _fmt(x) -> str:
    return "never (NaN/Inf positions differ)" if x == float("inf") else f"{x:.3g}"


def _shape(shape) -> str:
    return "[" + ",".join(map(str, shape)) + "]" if shape is not None else ""


def _lines(d: OutputDiff, ref: str) -> list[str]:
    head = f"  {d.output} {d.element_type}{_shape(d.shape)}: {'ok' if d.passed else 'MISMATCH'}"
    if d.message and d.shape is not None and d.max_abs_at is None and d.mismatched == 0 and not d.passed:
        return [head + f" ({d.message})"]
    out = [head + f" ({d.mismatched} of {d.elements} elements outside atol={d.atol:g}, rtol={d.rtol:g})"]
    if d.message:
        out.append(f"    {d.message}")
    if d.max_abs_at is not None:
        out.append(f"    max abs error {d.max_abs_error:.6g} at {d.max_abs_at} ({ref} {d.reference_value!r}, "
                   f"{d.backend} {d.backend_value!r}); max rel error {d.max_rel_error:.6g} at {d.max_rel_at}")
    if d.nan_differs:
        out.append(f"    NaN differs at {d.nan_differs} position(s), first {d.nan_positions}")
    if d.inf_differs:
        out.append(f"    Inf differs at {d.inf_differs} position(s), first {d.inf_positions}")
    if not d.passed and d.min_atol != float("inf"):
        out.append(f"    passes with atol >= {_fmt(d.min_atol)} (at rtol={d.rtol:g}) or rtol >= {_fmt(d.min_rtol)} "
                   f"(at atol={d.atol:g})")
    elif not d.passed:
        out.append("    no tolerance passes: NaN/Inf positions or shapes differ")
    return out


def text_report(r: CompareResult) -> str:
    ref = r.reference
    lines = [f"model: {r.model}",
             f"reference: {r.versions.get(ref, ref)} -- every backend is compared against {ref}",
             "inputs: " + ", ".join(f"{k} {v}" for k, v in r.inputs.items())]
    for name, v in r.versions.items():
        if name == ref:
            continue
        lines.append(f"{v} vs {ref}:")
        if name in r.errors:
            lines.append(f"  FAILED to run: {r.errors[name]}")
        for d in r.outputs:
            if d.backend == name:
                lines += _lines(d, ref)
    dv = r.divergence
    if dv is not None:
        lines.append(f"first divergent layer: {dv.layer!r} (id {dv.layer_id}, {dv.op}) after {dv.tensors_compared} "
                     f"tensor(s) compared")
        if dv.attributes:
            lines.append("  attributes: " + ", ".join(f"{k}={v!r}" for k, v in dv.attributes.items()))
        lines.append("  inputs: " + (", ".join(f"{x['from']} ({x['status']})" for x in dv.inputs) or "none"))
        for d in dv.outputs:
            lines += _lines(d, "opref")
        if dv.repro:
            lines.append(f"  repro: {dv.repro} (case {dv.repro_case}); reproduced by the layer alone: "
                         f"{'yes' if dv.reproduced else 'no'}")
            lines.append(f"    opref conformance run {shlex.quote(dv.repro)} --backends opref,openvino")
        elif dv.repro_message:
            lines.append(f"  {dv.repro_message}")
    elif r.divergence_note:
        lines.append(f"find-divergence: {r.divergence_note}")
    lines.append("PASSED: all backends agree with the reference" if r.passed else
                 "FAILED: a backend disagrees with the reference")
    return "\n".join(lines)


def _read_npz(path, what, ports) -> dict:
    try:
        z = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError) as e:
        raise InputError(f"{what} {path}: cannot read an .npz ({e})") from None
    with z:
        types = {n: p.element_type for p in ports for n in p.names}
        return {k: decode(z[k], types[k]) if k in types else z[k] for k in z.files}


def _save_npz(path, arrays: dict) -> None:
    write_npz(path, {k: encode(np.asarray(v), element_type(np.asarray(v)).name) for k, v in arrays.items()})


def cmd_compare(args) -> int:
    try:
        return _cmd_compare(args)
    except OprefError as e:
        print(f"opref: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"opref: error: {e}", file=sys.stderr)
        return 2


def given_inputs(model, load_inputs=None, input_items=None) -> dict:
    """The inputs given on the command line: --load-inputs F.npz, then each --input NAME=FILE.npy."""
    given = {}
    if load_inputs:
        given.update(_read_npz(load_inputs, "--load-inputs", model.inputs))
    for item in input_items or []:
        name, sep, path = item.rpartition("=")
        if not sep or not name:
            raise InputError(f"--input {item!r} is not NAME=FILE.npy")
        try:
            given[name] = np.load(path, allow_pickle=False)
        except (OSError, ValueError, EOFError) as e:
            raise InputError(f"--input {item}: cannot read a .npy array ({e})") from None
    return given


def _cmd_compare(args) -> int:
    from ..model import load
    model = load(args.model)
    given = given_inputs(model, args.load_inputs, args.input)
    val_range = dict(_parse_range(t) for t in args.val_range or [])
    golden = _read_npz(args.load_outputs, "--load-outputs", model.outputs) if args.load_outputs else None
    if args.repro and not args.find_divergence:
        raise InputError("--repro needs --find-divergence")
    repro = args.repro or (str(Path(args.model).with_suffix("")) + ".divergence" if args.find_divergence else None)
    r = compare(model, backends=args.backends, inputs=given, atol=_tol_args(args.atol, "--atol"),
                rtol=_tol_args(args.rtol, "--rtol"), onnx=args.onnx, seed=args.seed, val_range=val_range,
                golden=golden, device=args.device, find_divergence=args.find_divergence, repro_dir=repro)
    if args.save_inputs:
        _save_npz(args.save_inputs, r.feeds)
    if args.save_outputs:
        _save_npz(args.save_outputs, r.reference_outputs)
    print(r.to_json() if args.json else text_report(r))
    return 0 if r.passed else 1


def add_run_options(c) -> None:
    """The options `compare` and `reduce` share: device, inputs, tolerances, random inputs."""
    c.add_argument("--device", help="device of the backends (OpenVINO: CPU, GPU, ...)")
    c.add_argument("--input", action="append", metavar="NAME=FILE.npy", help="an input's value (repeatable)")
    c.add_argument("--load-inputs", metavar="F.npz", help="inputs by name from an .npz")
    c.add_argument("--atol", action="append", metavar="[OUT:]V", help="absolute tolerance, for all or one output")
    c.add_argument("--rtol", action="append", metavar="[OUT:]V", help="relative tolerance, for all or one output")
    c.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default 0)")
    c.add_argument("--val-range", action="append", metavar="[NAME:][lo,hi]", help="random inputs in [lo, hi]")


def add_parser(sub) -> None:
    """Adds `compare` to the `opref` sub-commands."""
    c = sub.add_parser("compare", help="run a model on several backends and compare each against opref",
                       description="Runs MODEL.xml on each backend with the same inputs and compares every backend "
                                   "against opref, the reference (or against --load-outputs). Per output: max abs and "
                                   "rel error and where, NaN/Inf positions that differ, the smallest atol/rtol that "
                                   "would pass. NaN equals NaN. Exit 0 when all agree, 1 on a mismatch, 2 on a "
                                   "usage or model error.", allow_abbrev=False)
    c.add_argument("model", metavar="MODEL.xml")
    c.add_argument("--backends", default="opref,openvino", metavar="B1,B2",
                   help="comma-separated: opref, openvino, onnxruntime, package.module:Class (default opref,openvino)")
    c.add_argument("--onnx", metavar="MODEL.onnx", help="the model's ONNX form, for onnxruntime")
    add_run_options(c)
    c.add_argument("--save-inputs", metavar="F.npz", help="write the inputs used")
    g = c.add_mutually_exclusive_group()
    g.add_argument("--save-outputs", metavar="F.npz", help="write opref's outputs (a golden file)")
    g.add_argument("--load-outputs", metavar="golden.npz", help="compare every backend against these outputs")
    c.add_argument("--find-divergence", action="store_true",
                   help="on a mismatch, name the first layer whose output diverges in OpenVINO while its inputs "
                        "agree, and write it as a single-op conformance case")
    c.add_argument("--repro", metavar="DIR", help="where --find-divergence writes its case (default MODEL.divergence)")
    c.add_argument("--json", action="store_true", help="strict JSON on stdout")
    c.set_defaults(fn=cmd_compare)
