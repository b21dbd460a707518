"""The `opref` command: run, shapes, validate, ops.

Exit status 0 on success, 1 on a model or input error (one line on stderr, no traceback), 2 on a
usage error (argparse's own message)."""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from . import OprefError, list_schemas, load
from .errors import InputError
from .shapes import PartialShape
from .types import element_type

MAX_RANDOM_BYTES = 1 << 30      # `run` without --input makes random inputs up to this size


def _pairs(items, what):
    out = {}
    for item in items or []:
        name, sep, value = item.rpartition("=")
        if not sep or not name:
            raise InputError(f"{what} {item!r} is not NAME=VALUE")
        out[name] = value
    return out


def _load_npy(name: str, path: str) -> np.ndarray:
    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError) as e:
        raise InputError(f"--input {name}={path}: cannot read a .npy array ({e})") from None


def _shape_of(text: str) -> PartialShape:
    return PartialShape(text)


def _random(port, shape, rng) -> np.ndarray:
    t = element_type(port.element_type)
    n = 1
    for d in shape:
        n *= d
    if n * max(t.dtype.itemsize, 1) > MAX_RANDOM_BYTES:
        raise InputError(f"input {port.name!r}: a random tensor of shape {list(shape)} would need more than "
                         f"{MAX_RANDOM_BYTES} bytes; give --input or a smaller --shape")
    from .conformance.extract import random_array
    return random_array(t.name, shape, rng)


def _summary(a: np.ndarray) -> str:
    if a.size == 0:
        return "empty"
    if a.dtype.kind in "UTSO":
        return f"first {a.reshape(-1)[0]!r}"
    f = a.astype(np.float64)
    return f"min {f.min():.6g} max {f.max():.6g} mean {f.mean():.6g}"


def cmd_run(args) -> int:
    t0 = time.perf_counter()
    model = load(args.model, args.weights)
    t1 = time.perf_counter()
    given = {k: _load_npy(k, v) for k, v in _pairs(args.input, "--input").items()}
    shapes = {k: _shape_of(v) for k, v in _pairs(args.shape, "--shape").items()}
    names = {p.name for p in model.inputs}
    for name in list(given) + list(shapes):
        if name not in names:
            raise InputError(f"the model has no input named {name!r}; its inputs are {', '.join(sorted(names))}")
    rng = np.random.default_rng(args.seed)
    feeds = {}
    for port in model.inputs:
        if port.name in given:
            feeds[port.name] = given.pop(port.name)
            continue
        shape = shapes.pop(port.name, port.shape)
        if not shape.is_static:
            raise InputError(f"input {port.name!r} has shape {shape}: give --shape {port.name}=... or --input")
        feeds[port.name] = _random(port, shape.to_shape(), rng)
    outs = model.run(feeds)
    t2 = time.perf_counter()
    for name, a in outs.items():
        print(f"{name}: {element_type(a).name}[{','.join(map(str, a.shape))}] {_summary(a)}")
    print(f"loaded in {1e3 * (t1 - t0):.1f} ms, ran in {1e3 * (t2 - t1):.1f} ms", file=sys.stderr)
    if args.output:
        np.savez(args.output, **outs)
    return 0


def cmd_shapes(args) -> int:
    model = load(args.model, args.weights)
    shapes = {k: _shape_of(v) for k, v in _pairs(args.shape, "--shape").items()}
    infos = model.infer_shapes(shapes)
    by_name = {n.name: n for n in model.graph.nodes}
    for name, outs in infos.items():
        op = by_name[name].op
        print(f"{name} ({op}): " + ", ".join(f"{i.element_type}{i.shape}" for i in outs))
    return 0


def cmd_validate(args) -> int:
    model = load(args.model, args.weights)
    print(f"{args.model}: valid IR v{model.graph.ir_version}, {len(model.graph.nodes)} layers; inputs "
          f"{', '.join(map(str, model.inputs))}; outputs {', '.join(map(str, model.outputs))}")
    return 0


def cmd_ops(args) -> int:
    for s in list_schemas(opset=args.opset, category=args.category, domain=args.domain):
        attrs = ", ".join(f"{a.name}: {a.type}" + ("" if a.required else f" = {a.default!r}") for a in s.attributes)
        print(f"{s.versioned_name:32} {s.category:14} {', '.join(p.name for p in s.inputs)}"
              + (f"  [{attrs}]" if attrs else ""))
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="opref", description="OpenVINO operators as data, with NumPy kernels.")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run an IR model on random or given inputs")
    r.add_argument("model")
    r.add_argument("--weights", help="weights file (default: the .bin beside the .xml)")
    r.add_argument("--input", action="append", metavar="NAME=FILE.npy")
    r.add_argument("--shape", action="append", metavar="NAME=1,3,224,224")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--output", metavar="OUT.npz")
    r.set_defaults(fn=cmd_run)
    s = sub.add_parser("shapes", help="inferred type and shape of every layer output")
    s.add_argument("model")
    s.add_argument("--weights")
    s.add_argument("--shape", action="append", metavar="NAME=?,3,224..512,224")
    s.set_defaults(fn=cmd_shapes)
    v = sub.add_parser("validate", help="schema and shape checks")
    v.add_argument("model")
    v.add_argument("--weights")
    v.set_defaults(fn=cmd_validate)
    o = sub.add_parser("ops", help="list op schemas")
    o.add_argument("--opset")
    o.add_argument("--category")
    o.add_argument("--domain")
    o.set_defaults(fn=cmd_ops)
    from .conformance import commands as conformance_commands
    conformance_commands.add_parser(sub)      # conformance generate | extract | run | report
    return p


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.fn(args)
    except OprefError as e:
        print(f"opref: error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"opref: error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
