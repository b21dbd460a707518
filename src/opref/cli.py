"""The `opref` command: run, bench, shapes, validate, ops (cli_ops.py, with the JSON printing) and
the `conformance` group.

Results go to stdout (as text, or as JSON with `--json`); errors, timings and progress to stderr.
Exit status 0 on success, 1 on a model or input error (one line on stderr, no traceback), 2 on a
usage error (argparse's own message, or a flag given twice / malformed). A closed pipe
(`opref ops | head -1`) ends the command quietly."""
from __future__ import annotations

import argparse
import math
import os
import re
import sys
import time
from pathlib import Path

import numpy as np

from . import OprefError, load
from .errors import InputError
from .shapes import PartialShape
from .cli_ops import _print_json, cmd_ops
from .types import element_type

MAX_RANDOM_BYTES = 1 << 30      # `run` without --input makes random inputs up to this size
TOP_K = 5
TOP_ROWS = 8                    # rows of a 2-D float output that get a top-5 line in the text summary

RANDOM_INPUTS = """\
random inputs (for every input not given by --input or --load-inputs), drawn with NumPy's
default_rng(--seed) in the model's input order:
  float types   standard normal N(0, 1) (drawn in f32, then cast to the input's type)
  signed ints   uniform integers in [-8, 7];  unsigned ints: [0, 7] (u4: [0, 15], u1: [0, 1])
  boolean       False / True with equal odds;  string: "opref"
  --val-range NAME:[lo,hi] draws uniformly instead: floats in [lo, hi), integers in [lo, hi] (both ends
  included); a range without NAME ([lo,hi]) applies to every input without a range of its own."""

RUN_EXAMPLES = """\
examples:
  opref run examples/tiny_cnn.xml
  opref run examples/tiny_cnn.xml --seed 7 --val-range image:[0,1] --json
  opref run model.xml --input image=x.npy --output out.npz
  opref run model.xml --shape image=2,3,224,224 --save-inputs in.npz
  opref run model.xml --load-inputs in.npz"""

BENCH_EXAMPLES = """\
examples:
  opref bench examples/tiny_cnn.xml --iterations 20 --warm-up 2
  opref bench model.xml --time 10 --threads 1 --json
  opref bench model.xml --shape image=8,3,224,224 --load-inputs in.npz"""

BENCH_THREADS = """\
--threads T: limits NumPy's BLAS thread pools (the matrix products under Convolution and MatMul) with
threadpoolctl when it is installed; otherwise the bench runs in a fresh Python process whose
OPENBLAS_NUM_THREADS, OMP_NUM_THREADS and MKL_NUM_THREADS are T before NumPy starts."""

SHAPES_EXAMPLES = """\
examples:
  opref shapes examples/tiny_cnn.xml
  opref shapes model.xml --shape image=?,3,224..512,224 --json
  opref shapes model.xml --shape image=1,3,17,17 --no-strict
  opref shapes model.xml --shape image=N,3,H,W --shape mask=N,1,H,W --json    # named dims: symbols
shapes read like OpenVINO's: ? a dynamic dim, 224..512 an interval, ..512 or 2.. half-open, [...] dynamic rank;
a name (N, seq_len) is a dynamic dim with a symbol: dims of one name are equal, and --json says which output
dims are known equal to which ("symbols"), as OpenVINO's symbol propagation finds them."""

VALIDATE_EXAMPLES = """\
examples:
  opref validate examples/tiny_cnn.xml
  opref validate model.xml --weights other.bin --json"""

OPS_EXAMPLES = """\
examples:
  opref ops                                  every op version, one a line
  opref ops --opset opset15 --category movement
  opref ops 'Conv*' --json                   a pattern (shell-style wildcards, case-insensitive)
  opref ops pool                             a word: the op versions whose name contains it
  opref ops Col2Im-15                        the full reference of one op version"""

MAIN_EXAMPLES = """\
examples:
  opref run examples/tiny_cnn.xml            run the bundled model on a random input
  opref bench examples/tiny_cnn.xml --iterations 20 --threads 1
  opref shapes examples/tiny_cnn.xml --shape image=?,3,32,32
  opref validate examples/tiny_cnn.xml
  opref ops Col2Im-15
  opref <command> --help                     every option of a command, with examples

opref reads OpenVINO IR (model.xml + model.bin). Convert other formats (ONNX, TensorFlow, PaddlePaddle,
TensorFlow Lite) with OpenVINO's converter first:  ovc model.onnx
exit status: 0 success, 1 a model or input error (one line on stderr), 2 a usage error."""


class UsageError(Exception):
    """A malformed or repeated flag: exit status 2, like argparse's own usage errors."""


class _Formatter(argparse.RawDescriptionHelpFormatter):
    def __init__(self, prog):
        super().__init__(prog, max_help_position=34, width=min(110, max(80, _columns())))


def _columns() -> int:
    try:
        return os.get_terminal_size().columns
    except OSError:
        return 100


def _progress(text: str) -> None:
    """A transient progress line on stderr when it is a terminal; nothing when piped."""
    if sys.stderr.isatty():
        sys.stderr.write(f"\r\033[K{text}" if text else "\r\033[K")
        sys.stderr.flush()


# --- argument parsing helpers ----------------------------------------------------------------------
def _pairs(items, flag: str, value: str) -> dict[str, str]:
    """NAME=VALUE items of a repeatable flag; a name given twice is a usage error."""
    out = {}
    for item in items or []:
        name, sep, v = item.rpartition("=")
        if not sep or not name or not v:
            raise UsageError(f"{flag} {item!r}: expected NAME={value}")
        if name in out:
            raise UsageError(f"{flag} {name!r} is given twice")
        out[name] = v
    return out


_RANGE = re.compile(r"(?:(?P<name>.*):)?\[(?P<lo>[^,\]]+),(?P<hi>[^,\]]+)\]")


def _val_ranges(items) -> dict[str | None, tuple[float, float]]:
    out: dict[str | None, tuple[float, float]] = {}
    for item in items or []:
        m = _RANGE.fullmatch(item.strip())
        lo = hi = math.nan
        if m:
            try:
                lo, hi = float(m["lo"]), float(m["hi"])
            except ValueError:
                m = None
        if m is None or not (math.isfinite(lo) and math.isfinite(hi)) or lo > hi:
            raise UsageError(f"--val-range {item!r}: expected NAME:[lo,hi] or [lo,hi] with finite lo <= hi")
        name = m["name"] or None
        if name in out:
            raise UsageError(f"--val-range {name or '[lo,hi] (for every input)'} is given twice")
        out[name] = (lo, hi)
    return out


def _shape_arg(flag: str, name: str, text: str) -> PartialShape:
    try:
        return PartialShape(text)
    except OprefError as e:
        raise UsageError(f"{flag} {name}={text}: {e}") from None


def _fmt_shape(shape) -> str:
    """Every shape the CLI prints reads one way: [1,3,224,224] (OpenVINO's spelling for partial shapes)."""
    return str(shape if isinstance(shape, PartialShape) else PartialShape(tuple(int(d) for d in shape)))


def _port_index(model) -> dict[str, object]:
    """Every tensor name of every model input (and its Parameter's name) -> the port."""
    index = {}
    for param, port in zip(model.graph.parameters, model.inputs):
        for n in (*port.names, param.name):
            index.setdefault(n, port)
    return index


def _port(index, model, flag: str, name: str):
    port = index.get(name)
    if port is None:
        known = ", ".join(repr(p.name) for p in model.inputs) or "none"
        raise InputError(f"{flag} {name}: the model has no input named {name!r}; its inputs are {known}")
    return port


def _check_writable(flag: str, path: str) -> Path:
    """Refuses before the run an output file that could not be written (the name is used as given)."""
    p = Path(path)
    parent = p.resolve().parent if p.name else None
    if p.is_dir() or parent is None:
        raise InputError(f"{flag} {path}: is a folder; give a file name")
    if not parent.is_dir():
        raise InputError(f"{flag} {path}: the folder {parent} does not exist")
    if (p.exists() and not os.access(p, os.W_OK)) or (not p.exists() and not os.access(parent, os.W_OK)):
        raise InputError(f"{flag} {path}: not writable")
    return p


def _save_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    # np.savez(path) would append ".npz" to a name without it; through a file object the name stays.
    with open(path, "wb") as f:
        np.savez(f, **{k: np.asarray(v) for k, v in arrays.items()})


# --- loading, with a hint for formats opref does not read ----------------------------------------
_FORMATS = {".onnx": "an ONNX model", ".pb": "a TensorFlow model", ".tflite": "a TensorFlow Lite model",
            ".pdmodel": "a PaddlePaddle model", ".pt": "a PyTorch model", ".pth": "a PyTorch model",
            ".keras": "a Keras model", ".h5": "a Keras model", ".safetensors": "a weights file",
            ".gguf": "a GGUF model", ".bin": "a weights file (.bin), not the model's .xml"}


def _format_hint(path: str) -> str | None:
    """What the file is when it is not OpenVINO IR XML, or None when it may be IR."""
    p = Path(path)
    if p.is_dir():
        if (p / "saved_model.pb").exists():
            return "a TensorFlow SavedModel folder"
        return "a folder"
    what = _FORMATS.get(p.suffix.lower())
    try:
        with open(p, "rb") as f:
            head = f.read(64)
    except OSError:
        return what if what and p.suffix.lower() != ".bin" else None
    if head[4:8] == b"TFL3":
        return "a TensorFlow Lite model"
    if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return None
    return what or "not XML (OpenVINO IR is model.xml + model.bin)"


def _load(args):
    hint = _format_hint(args.model)
    if hint:
        if hint.startswith("a weights file (.bin)"):
            raise InputError(f"{args.model}: {hint}; give the .xml (its .bin is read from beside it)")
        raise InputError(f"{args.model}: {hint}; opref reads OpenVINO IR (.xml + .bin): convert it with "
                         f"OpenVINO's ovc first (ovc {args.model})")
    _progress(f"loading {args.model} ...")
    try:
        return load(args.model, args.weights)
    finally:
        _progress("")


def _port_doc(port) -> dict:
    return {"name": port.name, "names": list(port.names), "element_type": port.element_type,
            "shape": _fmt_shape(port.shape)}


# --- run -------------------------------------------------------------------------------------------
def _random(port, shape, rng, rng_range) -> np.ndarray:
    t = element_type(port.element_type)
    n = 1
    for d in shape:
        n *= d
    if n * max(t.dtype.itemsize, 1) > MAX_RANDOM_BYTES:
        raise InputError(f"input {port.name!r}: a random tensor of shape {_fmt_shape(shape)} would need more than "
                         f"{MAX_RANDOM_BYTES} bytes; give --input or a smaller --shape")
    if rng_range is None:
        from .conformance.extract import random_array
        return random_array(t.name, shape, rng)
    lo, hi = rng_range
    if t.name == "string":
        raise InputError(f"--val-range {port.name}: input {port.name!r} holds strings; a range does not apply")
    if t.is_float:
        a = rng.uniform(lo, hi, shape) if hi > lo else np.full(shape, lo)
        return a.astype(np.float32).astype(t.dtype)
    ilo, ihi = math.ceil(lo), math.floor(hi)
    if t.name == "boolean":
        tlo, thi = 0, 1
    elif t.name == "u1":
        tlo, thi = 0, 1
    elif t.bits == 4:
        tlo, thi = (-8, 7) if t.is_signed else (0, 15)
    else:
        info = np.iinfo(t.dtype)
        tlo, thi = int(info.min), int(info.max)
    if ilo > ihi or ilo < tlo or ihi > thi:
        raise InputError(f"--val-range {port.name}:[{lo:g},{hi:g}]: input {port.name!r} is {t.name}; its integer "
                         f"range is [{tlo},{thi}]")
    a = rng.integers(ilo, ihi, shape, endpoint=True)
    return a.astype(bool) if t.name == "boolean" else a.astype(t.dtype)


def _stats(a: np.ndarray) -> dict:
    """Shape, type and value statistics of one output (over its finite values)."""
    d = {"element_type": element_type(a).name, "shape": _fmt_shape(a.shape)}
    if a.dtype.kind in "UTSO":
        d["first"] = str(a.reshape(-1)[0]) if a.size else None
        return d
    f = np.asarray(a).astype(np.float64)
    finite = np.isfinite(f)
    d["nan"] = int(np.isnan(f).sum())
    d["inf"] = int(np.isinf(f).sum())
    v = f[finite]
    if v.size:
        d.update(min=float(v.min()), max=float(v.max()), mean=float(v.mean()), std=float(v.std()))
    else:
        d.update(min=None, max=None, mean=None, std=None)
    if f.ndim == 2 and element_type(a).is_float and f.shape[1] > 0:
        k = min(TOP_K, f.shape[1])
        rows = np.where(np.isnan(f), -np.inf, f)
        idx = np.argsort(-rows, axis=1, kind="stable")[:, :k]
        d["top5"] = [[{"class": int(c), "value": float(f[r, c])} for c in idx[r]] for r in range(f.shape[0])]
    return d


def _stats_line(name: str, d: dict) -> str:
    head = f"{name}: {d['element_type']}{d['shape']}"
    if "first" in d:
        return f"{head} first {d['first']!r}" if d["first"] is not None else f"{head} empty"
    if d["min"] is None:
        body = "no finite values"
    else:
        body = " ".join(f"{k} {d[k]:.6g}" for k in ("min", "max", "mean", "std"))
    lines = [f"{head} {body} nan {d['nan']} inf {d['inf']}"]
    for r, top in enumerate(d.get("top5", [])[:TOP_ROWS]):
        lines.append(f"  top-{len(top)} row {r}: " + ", ".join(f"{t['class']} ({t['value']:.4g})" for t in top))
    if len(d.get("top5", [])) > TOP_ROWS:
        lines.append(f"  ... {len(d['top5']) - TOP_ROWS} more rows (--json gives all)")
    return "\n".join(lines)


def _read_npy(flag: str, name: str, path: str) -> np.ndarray:
    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError) as e:
        raise InputError(f"{flag} {name}={path}: cannot read a .npy array ({e})") from None


def _read_npz(path: str) -> dict[str, np.ndarray]:
    try:
        with np.load(path, allow_pickle=False) as z:
            if not isinstance(z, np.lib.npyio.NpzFile):
                raise ValueError("a single .npy array, not an .npz archive")
            return {k: z[k] for k in z.files}
    except (OSError, ValueError, EOFError, AttributeError) as e:
        raise InputError(f"--load-inputs {path}: cannot read an .npz archive ({e})") from None


def _input_args(args):
    """run's and bench's --input, --shape and --val-range, checked before the (possibly long) load."""
    given_files = _pairs(args.input, "--input", "FILE.npy")
    shapes = {k: _shape_arg("--shape", k, v) for k, v in _pairs(args.shape, "--shape", "DIMS").items()}
    return given_files, shapes, _val_ranges(args.val_range)


def _inputs(args, model, given_files, shapes, ranges):
    """The model's inputs as run and bench take them: --input files, then --load-inputs arrays, then random
    ones (at --shape, in --val-range, from --seed). --shape re-declares inputs as `shapes --shape` does
    (`Model.reshape`: static dims may change). Returns (model, feeds, sources), both by input name."""
    index = _port_index(model)

    # name -> port for every flag; two names of one input are the same input
    def by_port(flag, items):
        out = {}
        for name, v in items.items():
            port = _port(index, model, flag, name)
            if port.name in out:
                raise UsageError(f"{flag}: {name!r} and {out[port.name][0]!r} are the same input {port.name!r}")
            out[port.name] = (name, v)
        return out

    files = by_port("--input", given_files)
    loaded = by_port("--load-inputs", _read_npz(args.load_inputs)) if args.load_inputs else {}
    shape_of = by_port("--shape", shapes)
    range_of = by_port("--val-range", {k: v for k, v in ranges.items() if k is not None})

    if shape_of:
        try:
            model = model.reshape({name: want for name, (_, want) in shape_of.items()})
        except OprefError as e:
            given = " ".join(f"{flag_name}={_fmt_shape(want)}" for flag_name, want in shape_of.values())
            raise InputError(f"--shape {given}: the model cannot take this shape: {e}") from None
    rng = np.random.default_rng(args.seed)
    feeds, sources = {}, {}
    for port in model.inputs:
        declared = port.shape
        want = shape_of.get(port.name, (None, None))[1]
        if port.name in files:
            flag_name, path = files[port.name]
            a = _read_npy("--input", flag_name, path)
            src, flag = f"--input {path}", "--input"
        elif port.name in loaded:
            flag_name, a = loaded[port.name]
            src, flag = f"--load-inputs {args.load_inputs}[{flag_name}]", "--load-inputs"
        else:
            shape = want if want is not None else declared
            if not shape.is_static:
                raise InputError(f"input {port.name!r} has shape {_fmt_shape(shape)}: give a static --shape "
                                 f"{port.name}=... or --input {port.name}=FILE.npy")
            r = range_of.get(port.name, (None, ranges.get(None)))[1]
            feeds[port.name] = _random(port, shape.to_shape(), rng, r)
            sources[port.name] = "random" + (f" uniform [{r[0]:g},{r[1]:g}]" if r else "")
            continue
        for check in (want, declared):
            if check is not None and not check.compatible(tuple(a.shape)):
                what = "--shape" if check is want else "the model"
                raise InputError(f"{flag} {flag_name}: input {port.name!r} has shape {_fmt_shape(a.shape)}; "
                                 f"{what} says {_fmt_shape(check)}")
        if port.name in range_of:
            raise UsageError(f"--val-range {range_of[port.name][0]}: input {port.name!r} is given by {flag}; "
                             f"a range applies to random inputs only")
        feeds[port.name] = a
        sources[port.name] = src
    return model, feeds, sources


def cmd_run(args) -> int:
    # everything about the command line is checked before the (possibly long) load and run
    given_files, shapes, ranges = _input_args(args)
    out_path = _check_writable("--output", args.output) if args.output else None
    save_path = _check_writable("--save-inputs", args.save_inputs) if args.save_inputs else None
    if out_path and save_path and out_path.resolve() == save_path.resolve():
        raise UsageError(f"--output and --save-inputs name the same file {args.output}")

    t0 = time.perf_counter()
    model = _load(args)
    t1 = time.perf_counter()
    model, feeds, sources = _inputs(args, model, given_files, shapes, ranges)

    _progress(f"running {args.model} ({len(model.graph.nodes)} layers) ...")
    try:
        outs = model.run(feeds)
    finally:
        _progress("")
    t2 = time.perf_counter()
    if save_path:
        _save_npz(save_path, feeds)
    if out_path:
        _save_npz(out_path, outs)
    stats = {name: _stats(a) for name, a in outs.items()}
    if args.json:
        _print_json({"model": args.model, "seed": args.seed,
                     "inputs": {p.name: {**_port_doc(p), "source": sources[p.name],
                                         "shape": _fmt_shape(np.shape(feeds[p.name]))} for p in model.inputs},
                     "outputs": stats,
                     "time_ms": {"load": 1e3 * (t1 - t0), "run": 1e3 * (t2 - t1)},
                     "output_file": args.output, "inputs_file": args.save_inputs})
    else:
        for name, d in stats.items():
            print(_stats_line(name, d))
    print(f"loaded in {1e3 * (t1 - t0):.1f} ms, ran in {1e3 * (t2 - t1):.1f} ms"
          + (f"; outputs written to {args.output}" if args.output else "")
          + (f"; inputs written to {args.save_inputs}" if args.save_inputs else ""), file=sys.stderr)
    return 0


# --- bench -----------------------------------------------------------------------------------------
def _at_least(minimum, kind=int):
    """An argparse type: a number >= minimum (a float one also finite and > 0 when minimum is 0.0)."""
    def parse(text: str):
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {'an integer' if kind is int else 'a number'}, got {text!r}")
        if not (math.isfinite(v) and (v > minimum if kind is float else v >= minimum)):
            raise argparse.ArgumentTypeError(f"{text}: must be {'more than' if kind is float else 'at least'} "
                                             f"{minimum:g}")
        return v
    return parse


def cmd_bench(args) -> int:
    from . import bench
    given_files, shapes, ranges = _input_args(args)
    plan = bench.threads_plan(args.threads)
    if plan.how == "respawn":           # NumPy is loaded: only a fresh process reads the thread variables
        return bench.run_fresh(bench.argv(args), args.threads)
    model = _load(args)
    model, feeds, sources = _inputs(args, model, given_files, shapes, ranges)
    try:
        with bench.limit(plan):
            latencies, wall = bench.measure(lambda: model.run(feeds), iterations=args.iterations,
                                            warm_up=args.warm_up, seconds=args.time,
                                            progress=lambda text: _progress(f"bench {args.model}: {text}"))
    finally:
        _progress("")
    r = bench.summary(latencies, wall)
    inputs = {p.name: {"element_type": p.element_type, "shape": _fmt_shape(np.shape(feeds[p.name])),
                       "source": sources[p.name]} for p in model.inputs}
    doc = {"model": args.model, "layers": len(model.graph.nodes), "inputs": inputs, "seed": args.seed,
           "warm_up": args.warm_up, "iterations": r["count"], "duration_ms": r["duration_ms"],
           "latency_ms": r["latency_ms"], "throughput_per_s": r["throughput_per_s"], "threads": plan.doc()}
    if args.json:
        _print_json(doc)
    else:
        print(bench.text(doc))
    return 0


# --- shapes, validate ------------------------------------------------------------------------------
def cmd_shapes(args) -> int:
    shapes = {k: _shape_arg("--shape", k, v) for k, v in _pairs(args.shape, "--shape", "DIMS").items()}
    model = _load(args)
    index = _port_index(model)
    seen = {}
    for name in shapes:
        port = _port(index, model, "--shape", name)
        if port.name in seen:
            raise UsageError(f"--shape: {name!r} and {seen[port.name]!r} are the same input {port.name!r}")
        seen[port.name] = name
    infos = model.infer_shapes(shapes, strict=not args.no_strict, mode="precise" if args.precise else "openvino")
    by_name = {n.name: n for n in model.graph.nodes}
    failed = [{"name": f.name, "layer_id": f.layer_id, "op": f.op, "error": str(f.error)} for f in infos.not_inferred]
    if args.json:
        # "layers" keeps its form (element type and shape string per output); "ports" adds, per layer and
        # output port, dims as [lo, hi|null] and the value or value bounds inference knows
        doc = {"model": args.model, "layers": [
            {"name": name, "op": by_name[name].op,
             "outputs": [{"element_type": i.element_type, "shape": _fmt_shape(i.shape)} for i in outs]}
            for name, outs in infos.items()],
            "ports": {name: [_info_doc(i) for i in outs] for name, outs in infos.items()}}
        if args.no_strict:
            doc["not_inferred"] = failed
        _print_json(doc)
    else:
        for name, outs in infos.items():
            print(f"{name} ({by_name[name].op}): " + ", ".join(f"{i.element_type}{_fmt_shape(i.shape)}{_exprs(i)}"
                                                                 for i in outs))
    if failed:
        print(f"opref shapes: not inferred ({len(failed)} layer{'s' if len(failed) != 1 else ''}, outputs "
              f"dynamic):", file=sys.stderr)
        for f in failed:
            print(f"  {f['name']}: {f['error']}", file=sys.stderr)
    return 0


def _exprs(info) -> str:
    """--precise: " = [N,8,⌈H/2⌉,⌈W/2⌉]" when some dim of the shape has an exact expression."""
    shape = info.shape
    if not shape.rank_is_static or all(d.expr is None for d in shape):
        return ""
    return " = [" + ",".join(str(d.expr) if d.expr is not None else str(d) for d in shape) + "]"


def _bounds_doc(b, unbounded: int):
    """A value bound array as (nested) JSON lists: null where inference has no finite bound (at or
    beyond +-2**40)."""
    b = np.asarray(b, np.int64)
    return np.where(np.abs(b) >= unbounded, None, b.astype(object)).tolist()


def _info_doc(info) -> dict:
    """One output port for `shapes --json`: element type, shape string, dims as [lo, hi] (hi null: no
    upper bound; null for a dynamic rank), each dim's symbol ("symbols": the name of the input dim it is
    known to equal, or null) when any has one, and the value (small integer values) or value bounds
    ([lower], [upper], null where unbounded) when inference knows them, with their symbols."""
    from .runtime.infer import INF
    shape = info.shape
    doc = {"element_type": info.element_type, "shape": _fmt_shape(shape),
           "dims": [[d.lo, d.hi] for d in shape] if shape.rank_is_static else None}
    if shape.rank_is_static and any(d.symbol is not None for d in shape):
        doc["symbols"] = [d.symbol_name for d in shape]        # dims of one name are equal
    if shape.rank_is_static and any(d.expr is not None for d in shape):
        doc["exprs"] = [str(d.expr) if d.expr is not None else (str(d.lo) if d.is_static else None) for d in shape]
    if info.value is not None:
        doc["value"] = np.asarray(info.value).astype(np.int64).tolist()
    elif info.bounds is not None:
        doc["bounds"] = [_bounds_doc(info.bounds[0], INF), _bounds_doc(info.bounds[1], INF)]
    if info.symbols is not None:
        doc["value_symbols"] = [None if x is None else str(x) for x in info.symbols]
    return doc


def cmd_validate(args) -> int:
    try:
        model = _load(args)
    except OprefError as e:
        if args.json:
            _print_json({"model": args.model, "valid": False, "error": str(e)})
        raise
    g = model.graph
    if args.json:
        _print_json({"model": args.model, "valid": True, "ir_version": g.ir_version, "layers": len(g.nodes),
                     "inputs": [_port_doc(p) for p in model.inputs],
                     "outputs": [_port_doc(p) for p in model.outputs]})
        return 0
    ports = lambda ps: ", ".join(f"{p.name}: {p.element_type}{_fmt_shape(p.shape)}" for p in ps)  # noqa: E731
    print(f"{args.model}: valid IR v{g.ir_version}, {len(g.nodes)} layers; inputs {ports(model.inputs)}; "
          f"outputs {ports(model.outputs)}")
    return 0


# --- the parser --------------------------------------------------------------------------------------
def versions() -> dict[str, str | None]:
    """opref's version and those of NumPy and the optional backends found (None: not installed)."""
    from importlib import metadata
    out: dict[str, str | None] = {}
    for name, dists in (("opref", ("opref",)), ("numpy", ("numpy",)), ("openvino", ("openvino",)),
                        ("onnxruntime", ("onnxruntime", "onnxruntime-gpu", "onnxruntime-openvino")),
                        ("onnx", ("onnx",))):
        out[name] = None
        for d in dists:
            try:
                out[name] = metadata.version(d)
                break
            except metadata.PackageNotFoundError:
                continue
    if out["opref"] is None:
        from . import __version__
        out["opref"] = __version__
    return out


class _Version(argparse.Action):
    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        v = versions()
        print(f"opref {v.pop('opref')}")
        for name, ver in v.items():
            print(f"  {name:12} {ver or 'not installed'}")
        parser.exit()


def _no_abbrev(p: argparse.ArgumentParser) -> None:
    """allow_abbrev=False on every parser and sub-parser (--out never stands for --output)."""
    p.allow_abbrev = False
    for action in p._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                _no_abbrev(child)


def _model_args(p, json_help: str) -> None:
    p.add_argument("model", metavar="MODEL.xml", help="OpenVINO IR model (its weights: the .bin beside it)")
    p.add_argument("--weights", metavar="FILE.bin", help="weights file (default: MODEL.bin beside MODEL.xml)")
    p.add_argument("--json", action="store_true", help=json_help)


def _input_flags(p) -> None:
    """How run and bench take the model's inputs (see RANDOM_INPUTS)."""
    p.add_argument("--input", action="append", metavar="NAME=FILE.npy",
                   help="an input's value from a .npy file (repeatable, once per input); wins over --load-inputs")
    p.add_argument("--load-inputs", metavar="FILE.npz", help="input values from an .npz archive, one array per input "
                   "name (as --save-inputs writes); inputs it lacks are drawn at random")
    p.add_argument("--shape", action="append", metavar="NAME=1,3,224,224",
                   help="re-declares the input, as `shapes --shape` does (Model.reshape: static dims may change; "
                        "?, intervals like 224..512 allowed); a random input is drawn at it (then it must be "
                        "static), a given input must fit it")
    p.add_argument("--val-range", action="append", metavar="[NAME:][lo,hi]",
                   help="draw this input uniformly in [lo,hi] instead (repeatable; without NAME: every input)")
    p.add_argument("--seed", type=int, default=0, metavar="N", help="seed of the random inputs (default: 0)")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="opref", description="OpenVINO operators as data, with NumPy kernels: run, "
                                "inspect and check OpenVINO IR models and op schemas.", epilog=MAIN_EXAMPLES,
                                formatter_class=_Formatter, allow_abbrev=False)
    p.add_argument("--version", action=_Version, help="print opref's version and those of NumPy and the optional "
                   "backends found (openvino, onnxruntime, onnx), then exit")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    r = sub.add_parser("run", help="run an IR model with NumPy on random or given inputs",
                       description="Runs MODEL.xml with opref's NumPy kernels and prints, per output, its type and "
                                   "shape, min/max/mean/std of its finite values, NaN and Inf counts and, for a 2-D "
                                   "float output, the top-5 classes of each row. An input is named by any of its "
                                   "tensor names (or its Parameter's name).",
                       epilog=RANDOM_INPUTS + "\n\n" + RUN_EXAMPLES, formatter_class=_Formatter, allow_abbrev=False)
    _model_args(r, "print inputs, per-output statistics and timings as JSON on stdout")
    _input_flags(r)
    r.add_argument("--save-inputs", metavar="FILE.npz", help="write the inputs used (given or random) to this .npz, "
                   "one array per input name, exactly under this file name")
    r.add_argument("--output", metavar="OUT.npz", help="write the outputs, one array per output name, to this file "
                   "(checked for writability before the run; the name is used exactly as given)")
    r.set_defaults(fn=cmd_run)

    b = sub.add_parser("bench", help="latency and throughput of a model on opref (benchmark_app-style)",
                       description="Runs MODEL.xml again and again on one set of inputs (drawn as `run` draws them) "
                                   "and prints latency min/median/p90/max/average (ms) and throughput (inferences/s) "
                                   "of opref's NumPy kernels: --warm-up runs first (not timed), then timed runs "
                                   "until both --iterations and --time are reached (neither given: "
                                   "10 iterations). Progress goes to stderr on a terminal only.",
                       epilog=BENCH_THREADS + "\n\n" + RANDOM_INPUTS + "\n\n" + BENCH_EXAMPLES,
                       formatter_class=_Formatter, allow_abbrev=False)
    _model_args(b, "print the inputs, the thread setting, latency and throughput as JSON on stdout")
    b.add_argument("--iterations", type=_at_least(1), metavar="N", help="timed runs, at least (default: 10 when "
                   "--time is not given either)")
    b.add_argument("--warm-up", type=_at_least(0), default=1, metavar="K", help="untimed runs first (default: 1)")
    b.add_argument("--time", type=_at_least(0.0, float), metavar="S", help="run for at least S seconds")
    b.add_argument("--threads", type=_at_least(1), metavar="T", help="NumPy's BLAS threads for the run (default: "
                   "NumPy's own); the output says how they were set")
    _input_flags(b)
    b.set_defaults(fn=cmd_bench)

    s = sub.add_parser("shapes", help="inferred element type and shape of every layer output",
                       description="Infers the element type and partial shape of every layer's outputs, optionally "
                                   "for new input shapes (dynamic and interval dims allowed), as OpenVINO's shape "
                                   "inference does.",
                       epilog=SHAPES_EXAMPLES, formatter_class=_Formatter, allow_abbrev=False)
    _model_args(s, "print the layers' types and shapes as JSON on stdout")
    s.add_argument("--shape", action="append", metavar="NAME=?,3,224..512,224",
                   help="a new shape for an input, named by any of its tensor names (repeatable)")
    s.add_argument("--no-strict", action="store_true",
                   help="a layer whose shapes cannot be inferred gets dynamic outputs and inference goes on; "
                        "such layers are listed on stderr (in the JSON: \"not_inferred\"), exit 0")
    s.add_argument("--precise", action="store_true",
                   help="also give each dim that is exact in the input dims' names as an expression (dims given "
                        "by names in --shape: N, H ...): printed after the shape, in the JSON as \"exprs\"")
    s.set_defaults(fn=cmd_shapes)

    v = sub.add_parser("validate", help="schema, edge and shape checks of a model",
                       description="Loads MODEL.xml with every check opref has (known op versions, attributes, "
                                   "edges, element types, shapes, weights); exit 1 with a message naming the layer "
                                   "and the attribute or port at fault.",
                       epilog=VALIDATE_EXAMPLES, formatter_class=_Formatter, allow_abbrev=False)
    _model_args(v, 'print {"valid": ..., "inputs": ..., "outputs": ...} (or the error) as JSON on stdout')
    v.set_defaults(fn=cmd_validate)

    o = sub.add_parser("ops", help="list op schemas, or print one op version's full reference",
                       description="Lists the op versions opref knows (name, category, inputs, attributes with "
                                   "defaults). With an exact versioned NAME (Col2Im-15) prints its full reference: "
                                   "attributes (kind, default, allowed values), ports, type constraints, opsets.",
                       epilog=OPS_EXAMPLES, formatter_class=_Formatter, allow_abbrev=False)
    o.add_argument("name", nargs="?", metavar="NAME", help="an op version (Col2Im-15), a name pattern with "
                   "wildcards ('Conv*', case-insensitive) or a word its name contains")
    o.add_argument("--opset", metavar="opsetN", help="only the op versions of this OpenVINO opset (opset15 or 15)")
    o.add_argument("--category", metavar="C", help="only this category (movement, convolution, arithmetic, ...)")
    o.add_argument("--domain", metavar="D", help="only this domain: openvino or tf (TensorFlow semantics)")
    o.add_argument("--onnx", action="store_true", help="whether each op version lowers to ONNX (opref export-onnx), "
                   "and why not")
    o.add_argument("--json", action="store_true", help="print the list (or the reference) as JSON on stdout")
    o.set_defaults(fn=cmd_ops)

    from .conformance import commands as conformance_commands
    conformance_commands.add_parser(sub)      # conformance generate | extract | run | report
    from .conformance import model_compare; model_compare.add_parser(sub)   # compare [--find-divergence]
    from .conformance import model_reduce; model_reduce.add_parser(sub)     # reduce: a minimal disagreeing sub-graph
    from .conformance import onnx_file; onnx_file.add_parser(sub)           # export-onnx: IR -> verified ONNX
    _no_abbrev(p)
    return p


def _main(argv) -> int:
    p = parser()
    args = p.parse_args(argv)
    try:
        return args.fn(args)
    except UsageError as e:
        prog = f"opref {args.command}" if getattr(args, "command", None) else "opref"
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    except OprefError as e:
        print(f"opref: error: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        raise
    except OSError as e:
        print(f"opref: error: {e}", file=sys.stderr)
        return 1


def main(argv=None) -> int:
    try:
        code = _main(argv)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        # the reader went away (`opref ops | head -1`): stop quietly; point stdout at /dev/null so that
        # the interpreter's final flush does not complain either
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return 0
    except KeyboardInterrupt:
        print("opref: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
