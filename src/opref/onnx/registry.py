"""The op version -> ONNX table, gathered from the category modules of this package.

Each category module (every module here but the infrastructure ones) declares
`LOWERINGS = {"Relu-1": fn, ...}` — fn(builder, call) -> output names | Unsupported — and
`NO_ONNX = {"Op-N": "why ONNX has no exact form of it"}`. Every registered op version is in exactly
one of the two (tests/test_onnx_lowering.py checks it), so the table of what exports and why not is
generated from here (`status`, `opref ops --onnx`, docs/onnx.md).
"""
from __future__ import annotations

import functools
import importlib
import pkgutil

from .builder import Builder, Call, Unsupported

_INFRASTRUCTURE = {"builder", "registry", "single", "export", "glue", "subgraph", "verify"}


@functools.lru_cache(maxsize=None)
def _tables() -> tuple[dict, dict]:
    from . import __path__ as here
    lowerings, none = {}, {}
    for info in sorted(pkgutil.iter_modules(here), key=lambda m: m.name):
        if info.name in _INFRASTRUCTURE or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__package__}.{info.name}")
        for op, fn in getattr(module, "LOWERINGS", {}).items():
            if op in lowerings or op in none:
                raise RuntimeError(f"{op} is lowered twice (opref.onnx.{info.name})")
            lowerings[op] = fn
        for op, reason in getattr(module, "NO_ONNX", {}).items():
            if op in lowerings or op in none:
                raise RuntimeError(f"{op} is declared twice (opref.onnx.{info.name})")
            none[op] = reason
    return lowerings, none


def has_lowering(op: str) -> bool:
    return op in _tables()[0]


def status(op: str) -> str | None:
    """None when `op` lowers (for some of its uses), else why it never does."""
    lowerings, none = _tables()
    if op in lowerings:
        return None
    return none.get(op, "no ONNX lowering written for it yet")


def lower(builder: Builder, call: Call) -> list[str] | Unsupported:
    """The ONNX outputs of one op application, emitted into `builder`, or why it has no ONNX form."""
    lowerings, none = _tables()
    fn = lowerings.get(call.op)
    if fn is None:
        return Unsupported(none.get(call.op, f"no ONNX lowering for {call.op}"))
    out = fn(builder, call)
    if isinstance(out, Unsupported):
        return out
    out = [out] if isinstance(out, str) else list(out)
    if len(out) != len(call.outputs):
        raise RuntimeError(f"the ONNX lowering of {call.op} gave {len(out)} outputs for {len(call.outputs)}")
    return out
