"""Matrix ops. onnxruntime's CPU MatMul takes f32/f64 and 32/64-bit integers, its Einsum f32/f64/i32/i64:
narrow floats are computed in f32 and rounded back once (as opref accumulates them), narrow integers in
a wider integer type (the product, cast back, wraps the same way: wrapping commutes with sums and
products), u64 (Einsum, GroupedMatMul) as i64 bits (the same arithmetic modulo 2^64).
- MatMul-1: ONNX MatMul after a Transpose of the last two axes for transpose_a/b (ignored for 1-D
  operands, as OpenVINO does). A 1-D operand is made a row (a) / column (b) matrix and its axis squeezed
  from the product (NumPy's rule, spelled out: onnxruntime's fusion of Transpose into MatMul gives a
  transposed matrix times a vector wrongly).
- Einsum-7: ONNX Einsum on an equation rewritten explicitly: no blanks, '...' spelled as letters
  right-aligned over the operands, the output always given (implicit mode's as opref parses it).
  OpenVINO broadcasts a label's (and the ellipsis') dims of 1 against the others, onnxruntime does not:
  the operands whose dims for a label are not all known to be equal are Expand'ed to the label's
  largest dim (read at run time).
- GroupedMatMul-17: 3-D x 3-D is MatMul; 2-D x 3-D gathers each row's expert (its group: the number of
  offsets at or below the row) and multiplies row by row; 2-D x 2-D multiplies each group's columns of
  mat_a and rows of mat_b, the others set to 0 on both sides (Where, so inf/NaN outside stay out).
Inverse-14 has no ONNX op (only onnxruntime's com.microsoft contrib Inverse, not LU with opref's NaN
for singular matrices).
"""
from __future__ import annotations

import string

from ..opset.matrix import ELLIPSIS, parse_einsum
from ..types import element_type
from .builder import Unsupported
from .glue import carrier, unsupported_type


def _perm_last_two(rank):
    return list(range(rank - 2)) + [rank - 1, rank - 2]


def _matmul(b, call):
    out = call.outputs[0].element_type
    ct = _compute_type(b, out, "MatMul")
    if ct is None:
        return unsupported_type("MatMul", out)
    xs, drop = [], []
    for k, (x, flag) in enumerate(zip(call.inputs, ("transpose_a", "transpose_b"))):
        v = b.cast(x, ct, x.element_type)
        if x.rank == 1:        # a row / column matrix, its axis dropped after (onnxruntime's fused MatMul
            v = b.node("Unsqueeze", [v, b.i64([k])])     # mistakes a transposed matrix times a vector)
            drop.append(k - 2)
        elif call.attrs[flag]:
            if x.rank is None:
                return Unsupported("MatMul transpose of an operand of dynamic rank", flag)
            v = b.node("Transpose", [v], perm=_perm_last_two(x.rank))
        xs.append(v)
    y = b.node("MatMul", xs)
    if drop:
        y = b.node("Squeeze", [y, b.i64(drop)])
    return b.cast(y, out, ct)


def _compute_type(b, et, op_type):
    """The type an integer-ring / float product of `et` is computed in for onnxruntime's `op_type`."""
    kinds = b.kernel_types(op_type)
    if element_type(et).is_float:
        return carrier(et, kinds) or "f32"
    return carrier(et, kinds) or ("i64" if "i64" in kinds else None)


def _einsum(b, call):
    xs = call.inputs
    out = call.outputs[0].element_type
    if any(x.rank is None for x in xs):
        return Unsupported("Einsum of operands of dynamic rank (the equation needs the ranks)")
    subs, result = parse_einsum(call.attrs["equation"])
    used = {lab for sub in subs for lab in sub}
    spare = [c for c in string.ascii_letters if c not in used]
    covers = [x.rank - (len(sub) - 1) for x, sub in zip(xs, subs) if ELLIPSIS in sub]
    width = max(covers, default=0)
    if width > len(spare):
        return Unsupported("Einsum with more dims than letters")
    ell = spare[:width]

    def letters(sub, cover):
        return [c for lab in sub for c in (ell[width - cover:] if lab == ELLIPSIS else [lab])]

    labels = [letters(sub, x.rank - (len(sub) - 1)) for x, sub in zip(xs, subs)]
    ct = _compute_type(b, out, "Einsum")
    if ct is None:
        return unsupported_type("Einsum", out)
    names = [b.cast(x, ct, x.element_type) for x in xs]
    # where a label's dims may differ (a 1 broadcast against n), expand every operand to the largest
    where = {}
    for k, (x, labs) in enumerate(zip(xs, labels)):
        for pos, lab in enumerate(labs):
            where.setdefault(lab, []).append((k, pos, x.shape[pos]))
    shapes = {}
    for lab, seen in where.items():
        dims = [d for _, _, d in seen]
        if len(seen) == 1 or all(d.is_static for d in dims) and len({d.lo for d in dims}) == 1:
            continue
        sizes = [b.node("Shape", [names[k]], start=pos, end=pos + 1) for k, pos, _ in seen]
        size = sizes[0] if len(sizes) == 1 else b.node("Max", sizes)
        for k, pos, _ in seen:
            shapes.setdefault(k, {})[pos] = size
    for k, dims in shapes.items():
        pieces = [dims.get(pos, b.i64([1])) for pos in range(xs[k].rank)]
        names[k] = b.node("Expand", [names[k], b.node("Concat", pieces, axis=0)])
    equation = ",".join("".join(labs) for labs in labels) + "->" + "".join(letters(result, width))
    return b.cast(b.node("Einsum", names, equation=equation), out, ct)


def _count(b, x) -> str:
    """0, 1, ... up to x's first dim (excluded)."""
    n = b.node("Reshape", [b.node("Shape", [x], start=0, end=1), b.i64([])])
    return b.node("Range", [b.scalar(0, "i64"), n, b.scalar(1, "i64")])


def _grouped_matmul(b, call):
    a, m, offsets = (list(call.inputs) + [None])[:3]
    out = call.outputs[0].element_type
    if a.rank is None or m.rank is None:
        return Unsupported("GroupedMatMul of operands of dynamic rank (the form depends on the ranks)")
    ct = _compute_type(b, out, "MatMul") if a.et.is_float else "i64"       # (Where has no u64)
    x, y = (b.cast(v, ct, v.element_type) for v in (a, m))
    if (a.rank, m.rank) == (3, 3):
        return b.cast(b.node("MatMul", [x, y]), out, ct)
    ends = b.cast(offsets, "i64", offsets.element_type)
    if (a.rank, m.rank) == (2, 3):                   # row t uses expert #{g: ends[g] <= t}
        rows = _count(b, x)
        passed = b.node("LessOrEqual", [b.node("Unsqueeze", [ends, b.i64([0])]),
                                        b.node("Unsqueeze", [rows, b.i64([1])])])                # [T, G]
        group = b.node("ReduceSum", [b.cast(passed, "i64", "boolean"), b.i64([1])], keepdims=0)
        experts = b.node("Gather", [y, group], axis=0)                                  # [T, K, N]
        z = b.node("MatMul", [b.node("Unsqueeze", [x, b.i64([1])]), experts])          # [T, 1, N]
        return b.cast(b.node("Squeeze", [z, b.i64([1])]), out, ct)
    # 2-D x 2-D: group g takes the columns / rows t in [ends[g-1], ends[g]) of mat_a / mat_b
    starts = b.node("Concat", [b.i64([0]), b.node("Slice", [ends, b.i64([0]), b.i64([-1])])], axis=0)
    t = _count(b, y)
    inside = b.node("And", [b.node("GreaterOrEqual", [t, b.node("Unsqueeze", [starts, b.i64([1])])]),
                            b.node("Less", [t, b.node("Unsqueeze", [ends, b.i64([1])])])])      # [G, T]
    zero = b.scalar(0, ct)
    xa = b.node("Where", [b.node("Unsqueeze", [inside, b.i64([1])]), x, zero])                 # [G, K, T]
    yb = b.node("Where", [b.node("Unsqueeze", [inside, b.i64([2])]), y, zero])                 # [G, T, N]
    return b.cast(b.node("MatMul", [xa, yb]), out, ct)


LOWERINGS = {
    "MatMul-1": _matmul,
    "Einsum-7": _einsum,
    "GroupedMatMul-17": _grouped_matmul,
}
NO_ONNX = {
    "Inverse-14": "ONNX has no matrix inverse (onnxruntime's com.microsoft Inverse is a contrib op)",
}
