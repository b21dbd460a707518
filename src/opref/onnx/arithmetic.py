"""Arithmetic ops. Binary ops broadcast as ONNX does (auto_broadcast numpy is ONNX's multidirectional
broadcasting, none the same on equal shapes), pdpd by unsqueezing the second input's trailing dims
(OpenVINO aligns it at the first input's axis 0). Floats compute as opref does: f32/f64 in their own
type, f16/bf16/f8 in f32 rounded back once. Integers stay exact and wrap as opref's kernels do:
- Add/Subtract/Multiply/SquaredDifference/Negative/Abs are ONNX's integer ops (which wrap);
- Divide guards the divisor (x / 0 is 0, INT_MIN / -1 wraps to INT_MIN, as opref; ONNX leaves both
  undefined and onnxruntime traps) and m_pythondiv floors the truncated quotient of signed types;
- integer Mod/FloorMod are ONNX Mod fmod=0 (exact; onnxruntime's integer fmod=1 goes through double)
  with a divisor of 0 or -1 made 1 (the remainder is 0 there, as opref), Mod's truncated remainder
  from the floored one; float Mod is fmod=1, FloorMod of floats fmod=1 plus NumPy's sign fix-up;
- Power of integers is square-and-multiply in the type (onnxruntime's integer Pow goes through double
  and saturates), a negative exponent giving the integer part of 1 / a^|b| (1, +-1 or 0);
- Maximum/Minimum are Where(Less): the first operand wins unless the second is strictly greater, so
  NaN does what OpenVINO's reference does (ONNX Max/Min propagate it);
- Sign of integers is (x > 0) - (x < 0) (onnxruntime's i64 Sign looks at the low 32 bits only);
- Round half_away_from_zero is spelled out (ONNX Round is half_to_even);
- transcendental functions of integers compute in f64, round half away from zero and saturate, as
  opref does: only where onnxruntime has an f64 kernel (Sqrt, Log, Tanh, Sin, Cos). Where it has f32
  only, f64 data and integer data have no exact form.
ErfInv has no ONNX op; SegmentMax is ScatterElements(reduction=max) over its constant segment ids.
"""
from __future__ import annotations

import ml_dtypes
import numpy as np

from ..types import element_type
from .builder import Unsupported
from .glue import carrier, unsupported_type

FLOAT_WORK = ("f32", "f64")


# --- shared glue (the bitwise, comparison, logical and condition lowerings use it too) -------------------
def compute_type(b, et: str, *op_types: str, constraint: str | None = None) -> str | None:
    """The element type to compute `et` in with all of `op_types`: floats as opref (f64 itself, the
    others f32), integers in a type the kernels have that holds them exactly."""
    available = frozenset.intersection(*(b.kernel_types(op, constraint) for op in op_types))
    t = element_type(et)
    if t.is_float:
        ct = "f64" if et == "f64" else "f32"
        return ct if ct in available else None
    return carrier(et, available)


def pdpd(b, name: str, rank: int | None, target: str, target_rank: int | None) -> str:
    """`name` laid out for ONNX broadcasting against the tensor `target`, as pdpd broadcasting places
    it (opref's and OpenVINO's axis 0: trailing 1s); with a dynamic rank, the 1s are counted at run time."""
    if rank is not None and target_rank is not None:
        if rank < target_rank:
            return b.node("Unsqueeze", [name, b.i64(list(range(rank, target_rank)))])
        return name
    own = b.node("Shape", [name])
    missing = b.node("Sub", [b.node("Size", [b.node("Shape", [target])]), b.node("Size", [own])])
    ones = b.node("Expand", [b.i64([1]), b.node("Reshape", [missing, b.i64([1])])])
    return b.node("Reshape", [name, b.node("Concat", [own, ones], axis=0)], allowzero=1)


def operands(b, call, ct: str, *, ref: int = 0, others=(1,)):
    """The inputs cast to `ct` (those of input `ref`'s element type), those in `others` aligned to
    input `ref` when auto_broadcast is pdpd: a list of names by input index."""
    names = [None if v is None else b.cast(v, ct, v.element_type) if v.element_type == call.inputs[ref].element_type
             else v.name for v in call.inputs]
    if call.attrs.get("auto_broadcast") == "pdpd":
        for k in others:
            names[k] = pdpd(b, names[k], call.inputs[k].rank, names[ref], call.inputs[ref].rank)
    return names


def where(b, cond: str, x: str, y: str, et: str):
    """Where(cond, x, y) of element type `et`, in a type onnxruntime's Where takes (u64 travels as i64:
    Cast between them is two's complement both ways, and Where only moves values)."""
    ct = carrier(et, b.kernel_types("Where", "T")) or ("i64" if et == "u64" else None)
    if ct is None:
        return unsupported_type("Where", et)
    return b.cast(b.node("Where", [cond, b.cast(x, ct, et), b.cast(y, ct, et)]), et, ct)


def flag(b, cond: str, et: str) -> str:
    """A boolean as 0/1 of element type `et`."""
    return b.cast(cond, et, "boolean")


def _out(call) -> str:
    return call.outputs[0].element_type


# --- binary ---------------------------------------------------------------------------------------------
def _plain(op_type, square=False):
    """Add, Sub, Mul (and SquaredDifference = (a - b)^2): ONNX's own op; integers wrap in their type."""
    def lower(b, call):
        et = call.inputs[0].element_type
        ct = compute_type(b, et, op_type, *(["Mul"] if square else []))
        if ct is None:
            return unsupported_type(op_type, et)
        xs = operands(b, call, ct)
        y = b.node(op_type, xs[:2])
        if square:
            y = b.node("Mul", [y, y])
        return b.cast(y, _out(call), ct)
    return lower


def _divisor(b, y: str, ct: str, signed: bool):
    """(the divisor with 0 and -1 replaced by 1, y == 0, y == -1): x / 1 and x % 1 compute safely, the
    caller puts opref's answer there."""
    zero = b.node("Equal", [y, b.scalar(0, ct)])
    safe = b.node("Add", [y, flag(b, zero, ct)])
    if not signed:
        return safe, zero, None
    minus = b.node("Equal", [y, b.scalar(-1, ct)])
    safe = b.node("Add", [safe, b.node("Mul", [flag(b, minus, ct), b.scalar(2, ct)])])
    return safe, zero, minus


def _divide(b, call):
    et = call.inputs[0].element_type
    t = element_type(et)
    ct = compute_type(b, et, "Div", "Mul", "Sub", "Add", "Equal", "Less")
    if ct is None:
        return unsupported_type("Div", et)
    xs = operands(b, call, ct)
    x, y = xs[:2]
    if t.is_float:
        return b.cast(b.node("Div", [x, y]), _out(call), ct)
    signed = t.is_signed
    safe, zero, minus = _divisor(b, y, ct, signed)
    q = b.node("Div", [x, safe])                                      # truncates
    if signed and call.attrs["m_pythondiv"]:                          # floor: one less where the
        r = b.node("Sub", [x, b.node("Mul", [q, safe])])              # remainder's sign is the divisor's opposite
        zero_s = b.scalar(0, ct)
        off = b.node("And", [b.node("Not", [b.node("Equal", [r, zero_s])]),
                             b.node("Xor", [b.node("Less", [r, zero_s]), b.node("Less", [safe, zero_s])])])
        q = b.node("Sub", [q, flag(b, off, ct)])
    if signed:                                                        # x / -1 = -x, wrapping
        q = b.node("Add", [q, b.node("Mul", [flag(b, minus, ct),
                                             b.node("Sub", [b.node("Sub", [b.scalar(0, ct), x]), q])])])
    q = b.node("Mul", [q, flag(b, b.node("Not", [zero]), ct)])       # x / 0 = 0
    return b.cast(q, _out(call), ct)


def _mod(floor):
    def lower(b, call):
        et = call.inputs[0].element_type
        t = element_type(et)
        ct = compute_type(b, et, "Mod", "Add", "Mul", "Equal", "Less")
        if ct is None:
            return unsupported_type("Mod", et)
        xs = operands(b, call, ct)
        x, y = xs[:2]
        if not t.is_float:     # x % 0 and x % -1 are 0 (opref); x % 1 is 0 too, and safe
            safe = _divisor(b, y, ct, t.is_signed)[0]
            r = b.node("Mod", [x, safe], fmod=0)      # (onnxruntime's integer fmod=1 goes through double)
            if not floor and t.is_signed:             # the truncated remainder: less the divisor where
                zero = b.scalar(0, ct)                # the floor one is nonzero and the signs differ
                off = b.node("And", [b.node("Not", [b.node("Equal", [r, zero])]),
                                     b.node("Xor", [b.node("Less", [x, zero]), b.node("Less", [safe, zero])])])
                r = b.node("Sub", [r, b.node("Mul", [flag(b, off, ct), safe])])
            return b.cast(r, _out(call), ct)
        r = b.node("Mod", [x, y], fmod=1)
        if floor:              # NumPy's floor remainder from fmod: + b where the signs differ, 0 signed as b
            zero = b.scalar(0, ct)
            is_zero = b.node("Equal", [r, zero])
            b_neg = b.node("Less", [y, zero])
            off = b.node("And", [b.node("Not", [is_zero]), b.node("Xor", [b.node("Less", [r, zero]), b_neg])])
            r = where(b, off, b.node("Add", [r, y]), r, ct)
            signed_zero = where(b, b_neg, b.scalar(-0.0, ct), zero, ct)
            r = where(b, is_zero, signed_zero, r, ct)
        return b.cast(r, _out(call), ct)
    return lower


def _minmax(greater):
    """Maximum: b where a < b, else a; Minimum: b where b < a, else a (NaN as OpenVINO's reference)."""
    def lower(b, call):
        et = call.inputs[0].element_type
        ct = compute_type(b, et, "Less")
        if ct is None:
            return unsupported_type("Less", et)
        xs = operands(b, call, ct)
        x, y = xs[:2]
        cond = b.node("Less", [x, y] if greater else [y, x])
        return b.cast(where(b, cond, y, x, ct), _out(call), ct)
    return lower


def _power(b, call):
    et = call.inputs[0].element_type
    t = element_type(et)
    if t.is_float:
        ct = compute_type(b, et, "Pow")
        xs = operands(b, call, ct)
        return b.cast(b.node("Pow", xs[:2]), _out(call), ct)
    xs = operands(b, call, et)
    x, y = xs[:2]
    a_val, e_val = call.inputs[0], call.inputs[1]
    exp = e_val.scalar() if e_val.is_const and a_val.rank is not None and e_val.rank is not None \
        and e_val.rank <= a_val.rank else None
    one = b.scalar(1, et)
    if exp is not None and exp >= 0:       # a known exponent: its bits unrolled
        r, base = b.node("Add", [b.node("Mul", [x, b.scalar(0, et)]), one]), x
        for k in range(int(exp).bit_length()):
            if k:
                base = b.node("Mul", [base, base])
            if (int(exp) >> k) & 1:
                r = b.node("Mul", [r, base])
        return b.cast(r, _out(call), et)
    # square-and-multiply over every bit a non-negative exponent may have; factor = 1 + bit * (base - 1)
    e = y
    if t.is_signed:
        e = b.node("Mul", [y, flag(b, b.node("Greater", [y, b.scalar(0, et)]), et)])
    r, base = one, x
    for k in range(t.bits - (1 if t.is_signed else 0)):
        if k:
            base = b.node("Mul", [base, base])
        weight = b.scalar(np.asarray(1, element_type(et).dtype) << k, et)
        bit = b.node("Div", [b.node("BitwiseAnd", [e, weight]), weight])
        r = b.node("Mul", [r, b.node("Add", [one, b.node("Mul", [bit, b.node("Sub", [base, one])])])])
    if t.is_signed:   # negative exponents: 1 / a^|b| truncated: 1 for a = 1, +-1 for a = -1, else 0
        odd = b.node("BitwiseAnd", [y, one])
        inv = b.node("Add", [flag(b, b.node("Equal", [x, one]), et),
                             b.node("Mul", [flag(b, b.node("Equal", [x, b.scalar(-1, et)]), et),
                                            b.node("Sub", [one, b.node("Mul", [odd, b.scalar(2, et)])])])])
        neg = flag(b, b.node("Less", [y, b.scalar(0, et)]), et)
        r = b.node("Add", [r, b.node("Mul", [neg, b.node("Sub", [inv, r])])])
    return b.cast(r, _out(call), et)


# --- unary ----------------------------------------------------------------------------------------------
def _same_op(op_type, integers=None):
    """An ONNX op of the same meaning; integers pass through `integers` (None: identity)."""
    def lower(b, call):
        x = call.inputs[0]
        et = x.element_type
        if not x.et.is_float:
            if integers is None:
                return b.node("Identity", [x])
            return integers(b, x.name, et)
        ct = compute_type(b, et, op_type)
        if ct is None:
            return unsupported_type(op_type, et)
        return b.cast(b.node(op_type, [b.cast(x, ct, et)]), et, ct)
    return lower


def _abs_int(b, x, et):
    ct = carrier(et, b.kernel_types("Abs"))
    return b.cast(b.node("Abs", [b.cast(x, ct, et)]), et, ct) if ct else unsupported_type("Abs", et)


def _neg_int(b, x, et):
    return b.node("Sub", [b.scalar(0, et), x])               # wraps (INT_MIN stays, unsigned 2^n - x)


def _sign_int(b, x, et):
    zero = b.scalar(0, et)
    pos = flag(b, b.node("Greater", [x, zero]), et)
    if not element_type(et).is_signed:
        return pos
    return b.node("Sub", [pos, flag(b, b.node("Less", [x, zero]), et)])


def _half_away(b, x: str, ct: str) -> str:
    """Round half away from zero in float type `ct`: trunc(x), plus sign(x) where |x - trunc(x)| >= 1/2."""
    zero = b.scalar(0, ct)
    trunc = b.node("Where", [b.node("Less", [x, zero]), b.node("Ceil", [x]), b.node("Floor", [x])])
    far = b.node("GreaterOrEqual", [b.node("Abs", [b.node("Sub", [x, trunc])]), b.scalar(0.5, ct)])
    return b.node("Where", [far, b.node("Add", [trunc, b.node("Sign", [x])]), trunc])


def _round(b, call):
    x = call.inputs[0]
    et = x.element_type
    if not x.et.is_float:
        return b.node("Identity", [x])
    ct = compute_type(b, et, "Round", "Floor", "Ceil", "Sign", "Where")
    if ct is None:
        return unsupported_type("Round", et)
    v = b.cast(x, ct, et)
    y = b.node("Round", [v]) if call.attrs["mode"] == "half_to_even" else _half_away(b, v, ct)
    return b.cast(y, et, ct)


def _to_int(b, y: str, et: str) -> str:
    """Integral f64 values as integer type `et`: NaN 0, saturated at the type's limits (opref's rule)."""
    info = np.iinfo(element_type(et).dtype)
    y = b.node("Where", [b.node("IsNaN", [y]), b.scalar(0.0, "f64"), y])
    top = float(info.max)                        # 2^63 / 2^64 for the 64-bit types: not a value of theirs
    hi_ok = float(np.nextafter(top, 0)) if int(top) > info.max else top
    low = b.cast(b.node("Clip", [y, b.scalar(float(info.min), "f64"), b.scalar(hi_ok, "f64")]), et, "f64")
    return where(b, b.node("GreaterOrEqual", [y, b.scalar(top, "f64")]), b.scalar(info.max, et), low, et)


def _transcendental(op_type):
    def lower(b, call):
        x = call.inputs[0]
        et = x.element_type
        if x.et.is_float:
            ct = compute_type(b, et, op_type)
            if ct is None:
                return Unsupported("f64 data: onnxruntime has this function in f32 only", f"{op_type}, {et}")
            return b.cast(b.node(op_type, [b.cast(x, ct, et)]), et, ct)
        if "f64" not in b.kernel_types(op_type):
            return Unsupported("integer data: opref computes the function in f64 and rounds, onnxruntime has it in "
                               "f32 only", f"{op_type}, {et}")
        y = b.node(op_type, [b.cast(x, "f64", et)])
        return _to_int(b, _half_away(b, y, "f64"), et)
    return lower


# --- CumSum, SegmentMax -------------------------------------------------------------------------------------
def _sum_type(b, et: str) -> str | None:
    """Sums of integers wrap: any 32/64-bit integer type of onnxruntime's CumSum computes them modulo 2^n
    (Cast between integer types is two's complement), floats as opref (narrow ones in f32)."""
    t = element_type(et)
    if t.is_float:
        return compute_type(b, et, "CumSum", "Sub")
    return "i64" if t.bits == 64 else "i32"


def _cumsum(b, call):
    x = call.inputs[0]
    axis = call.inputs[1] if len(call.inputs) > 1 else None
    if x.rank == 0:
        return Unsupported("CumSum of a scalar (opref rejects it)")
    ct = _sum_type(b, x.element_type)
    if ct is None:
        return unsupported_type("CumSum", x.element_type)
    v = b.cast(x, ct, x.element_type)
    ax = b.const(np.asarray(0, np.int64), "i64") if axis is None else axis.name
    y = b.node("CumSum", [v, ax], reverse=int(bool(call.attrs["reverse"])))
    if call.attrs["exclusive"]:          # as opref computes it: the inclusive sum less the element
        y = b.node("Sub", [y, v])
    return b.cast(y, x.element_type, ct)


def _segment_max(b, call):
    data, ids = call.inputs[:2]
    n_in = call.inputs[2] if len(call.inputs) > 2 else None
    if ids.value is None or (n_in is not None and n_in.value is None):
        return Unsupported("SegmentMax needs constant segment ids and num_segments")
    if data.rank is None:
        return Unsupported("SegmentMax of dynamic rank")
    et = data.element_type
    t = element_type(et)
    ct = compute_type(b, et, "ScatterElements", "Less", "Where") if t.is_float else \
        carrier(et, b.kernel_types("ScatterElements"))
    if ct is None:
        return unsupported_type("ScatterElements", et)
    idv = np.asarray(ids.value).astype(np.int64).reshape(-1)
    n = int(np.asarray(n_in.value).reshape(-1)[0]) if n_in is not None else (int(idv.max()) + 1 if idv.size else 0)
    keep = np.flatnonzero(idv < n)
    fill = 0 if call.attrs["fill_mode"] == "zero" else \
        float(ml_dtypes.finfo(t.dtype).min) if t.is_float else int(np.iinfo(t.dtype).min)
    shape_rest = b.node("Slice", [b.node("Shape", [data]), b.i64([1]), b.i64([data.rank])])
    out_shape = b.node("Concat", [b.i64([n]), shape_rest], axis=0)
    if keep.size == 0:             # every segment empty (or none at all)
        return b.cast(b.node("Expand", [b.scalar(fill, ct), out_shape]), et, ct)
    rows = b.node("Gather", [b.cast(data, ct, et), b.i64(keep)], axis=0) if keep.size < idv.size \
        else b.cast(data, ct, et)
    idx = b.node("Expand", [b.const(idv[keep].reshape((-1,) + (1,) * (data.rank - 1)), "i64"),
                            b.node("Shape", [rows])])
    start = b.scalar(-np.inf if t.is_float else np.iinfo(t.dtype).min, ct)
    init = b.node("Expand", [start, out_shape])
    y = b.node("ScatterElements", [init, idx, rows], axis=0, reduction="max")
    if t.is_float:   # NumPy's maximum propagates NaN; onnxruntime's std::max keeps the first
        nan = b.node("ScatterElements", [b.node("Expand", [b.scalar(0, "f32"), out_shape]), idx,
                                         b.cast(b.node("IsNaN", [rows]), "f32", "boolean")], axis=0, reduction="max")
        y = where(b, b.node("Greater", [nan, b.scalar(0, "f32")]), b.scalar(np.nan, ct), y, ct)
    empty = np.bincount(idv[keep], minlength=n)[:n] == 0
    if empty.any():
        mask = b.const(empty.reshape((n,) + (1,) * (data.rank - 1)), "boolean")
        y = where(b, mask, b.scalar(fill, ct), y, ct)
    return b.cast(y, et, ct)


_TRANSCENDENTAL = {"Sqrt-1": "Sqrt", "Log-1": "Log", "Erf-1": "Erf", "Tanh-1": "Tanh", "Sin-1": "Sin",
                   "Cos-1": "Cos", "Tan-1": "Tan", "Asin-1": "Asin", "Acos-1": "Acos", "Atan-1": "Atan",
                   "Sinh-1": "Sinh", "Cosh-1": "Cosh", "Asinh-3": "Asinh", "Acosh-3": "Acosh", "Atanh-3": "Atanh"}

LOWERINGS = {
    "Add-1": _plain("Add"),
    "Subtract-1": _plain("Sub"),
    "Multiply-1": _plain("Mul"),
    "SquaredDifference-1": _plain("Sub", square=True),
    "Divide-1": _divide,
    "Mod-1": _mod(floor=False),
    "FloorMod-1": _mod(floor=True),
    "Maximum-1": _minmax(greater=True),
    "Minimum-1": _minmax(greater=False),
    "Power-1": _power,
    "Abs-1": _same_op("Abs", _abs_int),
    "Negative-1": _same_op("Neg", _neg_int),
    "Sign-1": _same_op("Sign", _sign_int),
    "Floor-1": _same_op("Floor"),
    "Ceiling-1": _same_op("Ceil"),
    "Round-5": _round,
    "CumSum-3": _cumsum,
    "SegmentMax-16": _segment_max,
    **{op: _transcendental(onnx) for op, onnx in _TRANSCENDENTAL.items()},
}
NO_ONNX = {"ErfInv-17": "ONNX has no inverse error function"}
