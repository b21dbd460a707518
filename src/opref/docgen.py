"""The op reference: one Markdown page per op version, generated from its schema (`python -m opref.docgen`,
written to docs/ops/; tests/test_docgen.py fails when the checked-in pages drift from the schemas).

A page gives the op version's description, its attributes (kind, default, allowed values, meaning), its
inputs and outputs (type constraint, optional/variadic/shape-giving, meaning), the type constraints,
the opsets that hold it, its shape rule in words (the shape rule's docstring), its ONNX counterpart
(from opref.onnx's lowerings: what it lowers to, or why it does not) and a small example computed by
opref at generation time from the op's first small case. docs/ops/README.md indexes the pages by
category and by opset.
"""
from __future__ import annotations

import argparse
import inspect
from collections import defaultdict
from pathlib import Path

import numpy as np

EXAMPLE_ELEMENTS = 24         # the example: the first value case whose inputs hold at most this many elements
PRECISION = 4                 # significant digits of the example's float values (kernels differ in the last bits per CPU)


def _fmt(v) -> str:
    if isinstance(v, tuple):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|") or "—"


def array_text(a) -> str:
    """An example array as text: element type, shape and values (floats at PRECISION significant digits)."""
    from .types import element_type
    a = np.asanyarray(a)
    et = element_type(a).name
    if a.dtype.kind == "f" or et in ("bf16", "f8e4m3", "f8e5m2"):
        body = np.array2string(np.asarray(a, np.float64), precision=PRECISION, floatmode="maxprec_equal",
                               suppress_small=True, separator=", ", threshold=10_000,
                               formatter={"float_kind": lambda x: f"{x:.{PRECISION}g}"})
    else:
        body = np.array2string(np.asarray(a).astype(np.int64) if et in ("i4", "u4") else np.asarray(a),
                               separator=", ", threshold=10_000)
    return f"{et}{list(a.shape)} = {body}"


def example_case(op: str):
    """The op version's first value case small enough to show, or None."""
    from .conformance.cases import all_cases
    for c in _cases_by_op().get(op, ()):
        if c.error is None and sum(np.asarray(x).size for x in c.inputs if x is not None) <= EXAMPLE_ELEMENTS \
                and all(x is not None for x in c.inputs):
            return c
    return None


_BY_OP = None


def _cases_by_op():
    global _BY_OP
    if _BY_OP is None:
        from .conformance.cases import all_cases
        _BY_OP = defaultdict(list)
        for c in all_cases():
            _BY_OP[c.op].append(c)
    return _BY_OP


def _onnx_text(s) -> str:
    from .onnx import registry
    why = registry.status(s.versioned_name)
    if why is not None:
        return f"No ONNX form: {why}."
    fn = registry._tables()[0][s.versioned_name]
    module = inspect.getmodule(fn)
    doc = inspect.getdoc(fn) or ""
    where = f"`{module.__name__}`" if module else "opref.onnx"
    return (f"Lowers to ONNX ({where})" + (f": {doc}" if doc else "") +
            ". A use ONNX cannot express exactly (an element type or mode it lacks) is refused by name.")


def page(s) -> str:
    from .runtime import run_op
    out = [f"# {s.versioned_name}", ""]
    where = f"domain `{s.domain}`" if s.domain else \
        ("opsets " + ", ".join(s.opsets) if s.opsets else "in no opset")
    out += [f"Category **{s.category}**; {where}.", "", (s.doc or "").strip(), ""]
    out += ["## Attributes", ""]
    if s.attributes:
        out += ["| name | kind | default | allowed | meaning |", "|---|---|---|---|---|"]
        for a in s.attributes:
            out.append(f"| `{a.name}` | {a.type.name} | {'required' if a.required else _cell(_fmt(a.default))} | "
                       f"{'any' if a.allowed is None else _cell(', '.join(_fmt(x) for x in a.allowed))} | {_cell(a.doc)} |")
    else:
        out.append("None.")
    for title, ports in (("Inputs", s.inputs), ("Outputs", s.outputs)):
        out += ["", f"## {title}", ""]
        if not ports:
            out.append("None.")
            continue
        out += ["| # | name | type | notes | meaning |", "|---|---|---|---|---|"]
        for i, p in enumerate(ports):
            notes = [n for n, on in (("optional", p.optional), ("variadic", p.variadic),
                                     ("shape-giving", p.const)) if on]
            out.append(f"| {i} | `{p.name}` | {p.type_constraint} | {', '.join(notes) or '—'} | {_cell(p.doc)} |")
    out += ["", "## Type constraints", ""]
    out += [f"- **{k}**: {', '.join(v)}" for k, v in s.type_constraints.items()] or ["None."]
    rule = inspect.getdoc(s.shape) if s.shape is not None else None
    if rule is None and s.shape is None:      # sub-graph ops: inferred through their bodies
        from .runtime import subgraph
        rule = inspect.getdoc(subgraph.infer)
    out += ["", "## Shape rule", "", " ".join((rule or "Not described in words yet.").split())]
    out += ["", "## ONNX", "", _onnx_text(s)]
    c = example_case(s.versioned_name)
    out += ["", "## Example", ""]
    if c is None:
        out.append("No case of the op's table is small enough to show.")
    else:
        with np.errstate(all="ignore"):
            outs = run_op(c.op, list(c.inputs), c.attrs)
        attrs = ", ".join(f"{k}={_fmt(v) if not isinstance(v, (list,)) else _fmt(tuple(v))}"
                          for k, v in sorted(c.attrs.items()))
        out += [f"Computed by opref from case `{c.id}`" + (f" with {attrs}" if attrs else "") + ":", "", "```"]
        for p, x in zip(s.ports_for(len(c.inputs)), c.inputs):
            out.append(f"{p.name}: {array_text(x)}")
        out.append("->")
        for p, y in zip(s.output_ports(len(outs)), outs):
            out.append(f"{p.name}: {array_text(y)}")
        out.append("```")
    return "\n".join(out) + "\n"


def file_name(s) -> str:
    return f"{s.versioned_name}.md"


def index(schemas) -> str:
    out = ["# Op reference", "", f"{len(schemas)} op versions, generated from their schemas by "
           "`python -m opref.docgen` (do not edit by hand). See also [ONNX lowering table](../onnx.md).", "",
           "## By category", ""]
    by_cat = defaultdict(list)
    for s in schemas:
        by_cat[s.category].append(s)
    for cat in sorted(by_cat):
        out.append(f"- **{cat}**: " + ", ".join(f"[{s.versioned_name}]({file_name(s)})" for s in by_cat[cat]))
    out += ["", "## By opset", ""]
    by_opset = defaultdict(list)
    for s in schemas:
        for o in s.opsets:
            by_opset[o].append(s)
    for o in sorted(by_opset, key=lambda x: int(x[5:])):
        out.append(f"- **{o}** ({len(by_opset[o])}): " + ", ".join(f"[{s.versioned_name}]({file_name(s)})"
                                                               for s in by_opset[o]))
    tf = [s for s in schemas if s.domain]
    if tf:
        out += ["", "## Other domains", "", ", ".join(f"[{s.versioned_name}]({file_name(s)})" for s in tf)]
    return "\n".join(out) + "\n"


def generate() -> dict[str, str]:
    """{file name: text} of every page and the index."""
    from .opset import list_schemas
    schemas = sorted(list_schemas(), key=lambda s: (s.category, s.versioned_name))
    pages = {file_name(s): page(s) for s in schemas}
    pages["README.md"] = index(schemas)
    return pages


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m opref.docgen", description=__doc__.splitlines()[0])
    p.add_argument("--out", default="docs/ops", help="folder of the pages (default docs/ops)")
    args = p.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    pages = generate()
    for old in out.glob("*.md"):
        if old.name not in pages:
            old.unlink()
    for name, text in pages.items():
        (out / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(pages)} pages to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
