"""Glue the lowerings share: which element type carries another's values exactly, computing an
ONNX op in a type onnxruntime's CPU kernel has, scalars as 1-element tensors, axes normalised."""
from __future__ import annotations

from ..types import element_type
from .builder import Builder, Unsupported, Value

# wider types tried in this order for each kind, narrowest first
_WIDER = {"float": ("f16", "f32", "f64"), "signed": ("i8", "i16", "i32", "i64"),
          "unsigned": ("u8", "u16", "u32", "u64")}


def holds(wide: str, narrow: str) -> bool:
    """Every value of element type `narrow` is exactly a value of `wide`."""
    if wide == narrow:
        return True
    w, n = element_type(wide), element_type(narrow)
    if n.name == "boolean":
        return w.name != "string"
    if w.name in ("boolean", "string") or n.name == "string":
        return False
    if w.is_float:
        if n.is_float:
            mant = {"f64": 53, "f32": 24, "f16": 11, "bf16": 8, "f8e4m3": 4, "f8e5m2": 3}
            rng = {"f64": 1024, "f32": 128, "f16": 16, "bf16": 128, "f8e4m3": 9, "f8e5m2": 16}
            return mant[w.name] >= mant[n.name] and rng[w.name] >= rng[n.name]
        mant = {"f64": 53, "f32": 24, "f16": 11, "bf16": 8}.get(w.name, 0)
        return n.bits - (1 if n.is_signed else 0) <= mant
    if n.is_float:
        return False
    if n.is_signed and not w.is_signed:
        return False
    return w.bits - (1 if w.is_signed and not n.is_signed else 0) >= n.bits


def carrier(et: str, available) -> str | None:
    """The narrowest type among `available` that holds every value of `et` (itself when available),
    of the same kind (integer / float) when there is one; ties broken by name, so the choice never
    depends on set order."""
    if et in available:
        return et
    fits = [cand for cand in available if holds(cand, et)]
    kind = element_type(et).is_float      # same kind first (an integer product must wrap, not round), then fixed
    return min(fits, key=lambda c: (element_type(c).is_float != kind, element_type(c).bits, c), default=None)


def unsupported_type(op_type: str, et: str) -> Unsupported:
    return Unsupported(f"onnxruntime has no {op_type} kernel for this element type (nor one that holds it exactly)",
                       et)


def via(b: Builder, op_type: str, inputs: list, out_et: str, *, types=None, widen_floats=True, outputs=1,
        constraint: str | None = None, result_et: str | None = None, **attrs):
    """Emit `op_type` on `inputs` (the Values of the first input's element type are cast alike; other
    inputs pass as they are) in a type onnxruntime's kernel takes: the first input's own, else one that
    holds it exactly, else (floats, when `widen_floats`) f32 or f64 — computed wider and rounded back
    once, as OpenVINO's CPU plugin does for f16/bf16. ONNX's outputs (of the compute type, or of
    `result_et`, e.g. "boolean" for comparisons) are cast to `out_et`. Returns output name(s) or
    Unsupported."""
    x = inputs[0]
    available = types if types is not None else b.kernel_types(op_type, constraint)
    ct = carrier(x.element_type, available)
    if ct is None and widen_floats and x.et.is_float:
        ct = next((t for t in ("f32", "f64") if t in available), None)
    if ct is None:
        return unsupported_type(op_type, x.element_type)
    names = [b.cast(v, ct, v.element_type) if isinstance(v, Value) and v.element_type == x.element_type
             else v for v in inputs]
    out = b.node(op_type, names, outputs, **attrs)
    outs = [out] if outputs == 1 else out
    result = [b.cast(o, out_et, result_et or ct) for o in outs]
    return result[0] if outputs == 1 else result


def axis(a: int, rank: int) -> int:
    return a + rank if a < 0 else a
