"""`opref ops`: the op schemas listed, filtered, or one op version's full reference (text or JSON);
and the strict-JSON printing every `opref` command uses (non-finite numbers as "nan"/"inf" strings)."""
from __future__ import annotations

import difflib
import fnmatch
import json
import math

import numpy as np

from .errors import InputError, UnknownOpError
from .opset import list_schemas


# --- JSON ------------------------------------------------------------------------------------------
def _jsonable(v):
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        return f if math.isfinite(f) else ("nan" if math.isnan(f) else "inf" if f > 0 else "-inf")
    if isinstance(v, (str, type(None))):
        return v
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    return str(v)         # PartialShape, attribute kinds, REQUIRED, ...


def _print_json(doc) -> None:
    print(json.dumps(_jsonable(doc), indent=2, allow_nan=False))



# --- ops -------------------------------------------------------------------------------------------
def _opset_arg(text: str) -> str:
    return f"opset{text}" if text.isdigit() else text


def _domain_arg(text: str) -> str:
    return "" if text.lower() in ("openvino", "ov", "") else text


def _fmt_value(v) -> str:
    if isinstance(v, tuple):
        return "[" + ",".join(_fmt_value(x) for x in v) + "]"
    if isinstance(v, str):
        return repr(v)
    return str(v)


def _schema_doc(s, full: bool) -> dict:
    d = {"name": s.versioned_name, "op": s.name, "version": s.version, "domain": s.domain or "openvino",
         "category": s.category, "opsets": list(s.opsets),
         "inputs": [p.name for p in s.inputs], "outputs": [p.name for p in s.outputs],
         "attributes": [a.name for a in s.attributes]}
    if full:
        d["doc"] = s.doc
        d["attributes"] = [{"name": a.name, "kind": a.type.name, "required": a.required,
                            "default": None if a.required else a.default,
                            "allowed": None if a.allowed is None else list(a.allowed), "doc": a.doc}
                           for a in s.attributes]
        ports = lambda ps: [{"name": p.name, "type_constraint": p.type_constraint, "optional": p.optional,  # noqa: E731
                             "variadic": p.variadic, "shape_giving": p.const, "doc": p.doc} for p in ps]
        d["inputs"], d["outputs"] = ports(s.inputs), ports(s.outputs)
        d["type_constraints"] = {k: list(v) for k, v in s.type_constraints.items()}
    return d


def _reference(s) -> str:
    where = f"domain {s.domain}" if s.domain else ("opsets " + ", ".join(s.opsets) if s.opsets else "in no opset")
    lines = [f"{s.versioned_name}  (category {s.category}; {where})"]
    if s.doc:
        lines += ["", s.doc.strip()]
    lines += ["", "Attributes:" if s.attributes else "Attributes: none"]
    width = max((len(a.name) for a in s.attributes), default=0)
    for a in s.attributes:
        default = "required" if a.required else f"default {_fmt_value(a.default)}"
        line = f"  {a.name:{width}}  {a.type.name:12} {default}"
        if a.allowed is not None:
            line += "; one of " + ", ".join(_fmt_value(x) for x in a.allowed)
        lines.append(line + (f"  - {a.doc}" if a.doc else ""))
    for title, ports in (("Inputs", s.inputs), ("Outputs", s.outputs)):
        lines += ["", f"{title}:" if ports else f"{title}: none"]
        width = max((len(p.name) for p in ports), default=0)
        for i, p in enumerate(ports):
            notes = [n for n, on in (("optional", p.optional), ("variadic: repeats", p.variadic),
                                     ("shape-giving: its value sets output shapes", p.const)) if on]
            lines.append(f"  {i} {p.name:{width}}  {p.type_constraint}" + (f"  ({'; '.join(notes)})" if notes else "")
                         + (f"  - {p.doc}" if p.doc else ""))
    lines += ["", "Type constraints:" if s.type_constraints else "Type constraints: none"]
    for k, v in s.type_constraints.items():
        lines.append(f"  {k}: {', '.join(v)}")
    return "\n".join(lines)


def _match(schemas, pattern: str):
    p = pattern.casefold()
    if any(c in pattern for c in "*?["):
        return [s for s in schemas if fnmatch.fnmatchcase(s.versioned_name.casefold(), p)
                or fnmatch.fnmatchcase(s.name.casefold(), p)]
    return [s for s in schemas if p in s.versioned_name.casefold()]


def cmd_ops(args) -> int:
    opset = _opset_arg(args.opset) if args.opset is not None else None
    domain = _domain_arg(args.domain) if args.domain is not None else None
    everything = list_schemas()
    if domain is not None and domain not in {s.domain for s in everything}:
        known = ", ".join(sorted({s.domain or "openvino" for s in everything}))
        raise InputError(f"--domain {args.domain}: unknown domain; known domains: {known}")
    categories = sorted({s.category for s in everything})
    if args.category is not None and args.category not in categories:
        raise InputError(f"--category {args.category}: unknown category; known categories: {', '.join(categories)}")
    try:
        schemas = list_schemas(opset=opset, category=args.category, domain=domain)
    except UnknownOpError as e:
        raise InputError(f"--opset {args.opset}: {e}") from None
    if args.name is not None:
        exact = [s for s in schemas if s.versioned_name == args.name]
        if exact:
            s = exact[0]
            if args.json:
                _print_json(_schema_doc(s, full=True))
            else:
                print(_reference(s))
            return 0
        picked = _match(schemas, args.name)
        if not picked:
            names = [s.versioned_name for s in everything]
            close = difflib.get_close_matches(args.name, names, n=5, cutoff=0.6)
            filtered = " with these filters" if len(schemas) != len(everything) else ""
            raise InputError(f"no op version matches {args.name!r}{filtered}"
                             + (f"; did you mean {', '.join(close)}?" if close else ""))
        schemas = picked
    if getattr(args, "onnx", False):
        from .onnx.registry import status
        rows = [(s.versioned_name, s.category, status(s.versioned_name)) for s in schemas]
        if args.json:
            _print_json([{"name": n, "category": c, "onnx": why is None, "reason": why} for n, c, why in rows])
            return 0
        for n, c, why in rows:
            print(f"{n:32} {c:14} " + ("lowers to ONNX" if why is None else f"no ONNX form: {why}"))
        print(f"{sum(why is None for _, _, why in rows)} of {len(rows)} op versions lower to ONNX "
              "(a lowering may still refuse some uses: element types, modes; `opref export-onnx` names them)")
        return 0
    if args.json:
        _print_json([_schema_doc(s, full=False) for s in schemas])
        return 0
    for s in schemas:
        attrs = ", ".join(f"{a.name}: {a.type.name}" + ("" if a.required else f" = {_fmt_value(a.default)}")
                          for a in s.attributes)
        print(f"{s.versioned_name:32} {s.category:14} {', '.join(p.name for p in s.inputs)}"
              + (f"  [{attrs}]" if attrs else ""))
    return 0
