"""Matrix ops: MatMul-1, Einsum-7, Inverse-14, GroupedMatMul-17.

Shape rules follow OpenVINO's (src/core/shape_inference/include/{matmul,einsum,inverse}_shape_inference.hpp)
on partial shapes. MatMul, like OpenVINO, tolerates contradicting dimensions while one of them is
dynamic (the batch dimension then becomes fully dynamic), for backward compatibility of models.
"""
from __future__ import annotations

import re

from ..errors import OprefError
from ..shapes import Dimension, PartialShape
from ..types import FLOAT, NUMERIC_BYTES
from .families import broadcast_dim, broadcast_shapes
from .helpers import check, fail
from .schema import BOOL, STRING, Attr, OpSchema, Port


# --- MatMul-1 ----------------------------------------------------------------------------------------
def matmul_shape(a, b, *, transpose_a, transpose_b):
    """After the optional swap of each input's last two axes, a 1-D a is read as [1, K] and a 1-D b as [K, 1]
    (the added axis dropped from the output again); the output is the broadcast batch dimensions + [M, N].
    Scalars are rejected; K of a and b must match unless one of them is dynamic, and batch dimensions that
    contradict each other while one is dynamic give a dynamic dimension (as OpenVINO tolerates). Either rank
    unknown gives dynamic rank."""
    op = "MatMul-1"
    if not a.shape.rank_is_static or not b.shape.rank_is_static:
        return PartialShape.dynamic()
    da, db = list(a.shape), list(b.shape)
    check(len(da) > 0 and len(db) > 0, op,
          lambda: f"scalars are not supported as inputs, got a {a.shape} and b {b.shape}")
    if transpose_a and len(da) > 1:
        da[-2], da[-1] = da[-1], da[-2]
    if transpose_b and len(db) > 1:
        db[-2], db[-1] = db[-1], db[-2]
    one = Dimension(1, 1)
    if len(da) == 1:                # a row vector [1, S]
        da = [one] + da
    if len(db) == 1:                # a column vector [S, 1]
        db = db + [one]
    k_a, k_b = da[-1], db[-2]
    check(k_a.merge(k_b) is not None or k_a.is_dynamic or k_b.is_dynamic, op,
          lambda: f"incompatible matrix dimensions: a{' (transposed)' if transpose_a else ''} has {k_a} columns, "
                  f"b{' (transposed)' if transpose_b else ''} has {k_b} rows (a {a.shape}, b {b.shape})")
    n = max(len(da), len(db))
    da, db = [one] * (n - len(da)) + da, [one] * (n - len(db)) + db
    out = []
    for i, (x, y) in enumerate(zip(da[:-2], db[:-2])):
        m = broadcast_dim(x, y)
        if m is None:
            check(x.is_dynamic or y.is_dynamic, op,
                  lambda: f"batch dimensions do not broadcast: {x} vs {y} at axis {i} "
                          f"(a {a.shape}, b {b.shape})")
            m = Dimension()
        out.append(m)
    out += [da[-2], db[-1]]
    if len(a.shape) == 1:
        del out[-2]
    if len(b.shape) == 1:
        del out[-1]
    return PartialShape(out)


MATMUL_1 = OpSchema(
    "MatMul", 1, category="matrix",
    inputs=(Port("a", "T", doc="[..., M, K] matrices (or a 1-D vector of K), batch axes broadcast with b's"),
            Port("b", "T", doc="[..., K, N] matrices (or a 1-D vector of K), batch axes broadcast with a's")),
    outputs=(Port("output", "T", doc="[broadcast batch..., M, N], without M or N where a or b was 1-D"),),
    attributes=(Attr("transpose_a", BOOL, False, doc="swap the last two axes of a (ignored for 1-D a)"),
                Attr("transpose_b", BOOL, False, doc="swap the last two axes of b (ignored for 1-D b)")),
    # "any floating-point or integer type": sub-byte integers are left out (a kernel cannot tell
    # u1/nf4 from u8/u4, and OpenVINO only meets i4/u4 weights through a Convert)
    type_constraints={"T": NUMERIC_BYTES},
    shape=matmul_shape,
    doc="Batched matrix product with NumPy's 1-D promotion rules and optional transposition of the "
        "two innermost axes; batch axes broadcast.",
)

# --- Einsum-7 ----------------------------------------------------------------------------------------
_SUBSCRIPT = re.compile(r"(?:[A-Za-z]|\.\.\.)*")
ELLIPSIS = "..."


def _labels(op, sub: str, what: str) -> list[str]:
    check(_SUBSCRIPT.fullmatch(sub) is not None, op,
          lambda: f"{what} subscript {sub!r} may hold only letters and one '...' (equation attribute)")
    labels = re.findall(r"\.\.\.|[A-Za-z]", sub)
    check(labels.count(ELLIPSIS) <= 1, op, lambda: f"{what} subscript {sub!r} holds more than one '...'")
    return labels


def parse_einsum(equation: str, op: str = "Einsum-7") -> tuple[list[list[str]], list[str]]:
    """Input subscripts and the output subscript of an equation, as label lists ('...' one label).

    Spaces may stand anywhere (the spec: they can be removed without loss). In implicit mode the
    output is '...' (when an input has it), then the labels met exactly once on the left-hand side,
    sorted (capitals first). The output names each dimension once, with labels of the inputs."""
    eq = equation.replace(" ", "")
    check(eq.count("->") <= 1, op, lambda: f"equation {equation!r} holds more than one '->'")
    lhs, arrow, rhs = eq.partition("->")
    inputs = [_labels(op, sub, f"input {i}") for i, sub in enumerate(lhs.split(","))]
    seen = [lab for sub in inputs for lab in sub]
    if not arrow:
        once = sorted(lab for lab in set(seen) if lab != ELLIPSIS and seen.count(lab) == 1)
        return inputs, ([ELLIPSIS] if ELLIPSIS in seen else []) + once
    out = _labels(op, rhs, "output")
    for lab in out:
        check(lab == ELLIPSIS or lab in seen, op,
              lambda: f"output label {lab!r} of equation {equation!r} is in no input subscript")
    check(len(set(out)) == len(out), op, lambda: f"output subscript {rhs!r} of equation {equation!r} repeats a label")
    return inputs, out


def einsum_shape(inputs, *more_inputs, equation):
    """The output has one dimension per output label (explicit after '->', or implicit: '...' then the labels
    met once, sorted), each the broadcast (a 1 yields) of that label's dimensions over the inputs, and the
    numpy-broadcast dimensions that '...' covers in the inputs where '...' stands. There must be one
    subscript per input, an input's rank must equal its labels' count (or exceed it with '...'), and a label
    repeated within one input must name equal dimensions. An input of unknown rank makes its labels dynamic
    and, when it has '...', the output's rank unknown if the output has '...'."""
    op = "Einsum-7"
    infos = (inputs,) + more_inputs
    subs, out = parse_einsum(equation, op)
    check(len(subs) == len(infos), op,
          lambda: f"equation {equation!r} has {len(subs)} input subscript(s), got {len(infos)} "
                  f"input(s)")
    dims: dict[str, Dimension] = {}
    ellipsis = None                     # the broadcast shape the ellipses cover (None: no input has one)
    for k, (x, sub) in enumerate(zip(infos, subs)):
        n = sum(lab != ELLIPSIS for lab in sub)
        if not x.shape.rank_is_static:
            for lab in sub:
                if lab == ELLIPSIS:
                    ellipsis = PartialShape.dynamic()
                else:
                    dims.setdefault(lab, Dimension())
            continue
        rank = len(x.shape)
        check(rank == n or (ELLIPSIS in sub and rank >= n), op,
              lambda: f"input {k} of shape {x.shape} does not have the {n} dimension(s) its subscript "
                      f"{''.join(sub)!r} names" + (" (or more, for '...')" if ELLIPSIS in sub else ""))
        local: dict[str, Dimension] = {}
        pos = 0
        for lab in sub:
            if lab == ELLIPSIS:
                covered = PartialShape(x.shape[pos:pos + rank - n])
                if ellipsis is None:
                    ellipsis = covered
                else:
                    try:
                        ellipsis = broadcast_shapes(op, ellipsis, covered, "numpy")
                    except OprefError:
                        fail(op, f"the dimensions '...' covers do not broadcast: {ellipsis} vs {covered} (input {k})")
                pos += rank - n
                continue
            d = x.shape[pos]
            m = local[lab].merge(d) if lab in local else d
            check(m is not None, op, lambda: f"label {lab!r} repeats in input {k} ({''.join(sub)!r}) over dimensions "
                                             f"{local.get(lab)} and {d}, which must be equal")
            local[lab] = m
            pos += 1
        for lab, d in local.items():
            m = broadcast_dim(dims[lab], d) if lab in dims else d
            check(m is not None, op,
                  lambda: f"label {lab!r} has dimensions {dims.get(lab)} and {d} (input {k}) that do "
                          f"not broadcast")
            dims[lab] = m
    result = []
    for lab in out:
        if lab == ELLIPSIS:
            if ellipsis is not None:
                if not ellipsis.rank_is_static:
                    return PartialShape.dynamic()
                result += list(ellipsis)
        else:
            result.append(dims[lab])
    return PartialShape(result)


EINSUM_7 = OpSchema(
    "Einsum", 7, category="matrix",
    inputs=(Port("inputs", "T", variadic=True, doc="one operand per input subscript"),),
    outputs=(Port("output", "T", doc="one dimension per output label (and the broadcast '...' dimensions)"),),
    attributes=(Attr("equation", STRING, doc="'<subscripts>,...[-><output subscript>]': letters label dimensions, "
                     "'...' the broadcast rest; implicit output: '...' then the labels met once, sorted"),),
    type_constraints={"T": NUMERIC_BYTES},
    shape=einsum_shape,
    doc="Einstein summation: products of the operands over all label values, summed over the labels not in the "
        "output; repeated labels in a subscript take diagonals; labelled and '...' dimensions broadcast.",
)

# --- Inverse-14 --------------------------------------------------------------------------------------
def inverse_shape(input, *, adjoint):
    """The output has the input's shape. A known rank must be >= 2, and the last two dimensions must be
    equal when both are static (dynamic or interval dimensions are neither checked nor merged)."""
    op = "Inverse-14"
    if input.shape.rank_is_static:
        check(len(input.shape) >= 2, op,
              lambda: f"input 'input' must have rank >= 2 (square matrices), got {input.shape}")
        rows, cols = input.shape[-2], input.shape[-1]
        # as OpenVINO: only two static lengths are compared, and the dims are not merged
        check(not (rows.is_static and cols.is_static) or rows == cols, op,
              lambda: f"input 'input' must hold square matrices, got {rows} rows and {cols} columns ({input.shape})")
    return input.shape


INVERSE_14 = OpSchema(
    "Inverse", 14, category="matrix",
    inputs=(Port("input", "T", doc="[B1, ..., Bn, N, N] square matrices"),),
    outputs=(Port("output", "T", doc="[B1, ..., Bn, N, N]: the inverse (or adjugate) of each matrix"),),
    attributes=(Attr("adjoint", BOOL, False, doc="output the adjugate det(A) * inverse(A) (the spec's algorithm, "
                     "step 5) instead of the inverse"),),
    type_constraints={"T": FLOAT},
    shape=inverse_shape,
    doc="Inverse (or adjugate) of each square matrix in the innermost two axes; singular matrices give NaN.",
)

# --- GroupedMatMul-17 ----------------------------------------------------------------------------------
GROUPED_MATMUL = "GroupedMatMul-17"


def _inner(op, case, k_a, k_b, a, b):
    check(k_a.compatible(k_b), op,
          lambda: f"{case}: the inner dimensions differ: {k_a} in mat_a {a}, {k_b} in mat_b {b}")


def grouped_matmul_17_shape(mat_a, mat_b, offsets=None):
    """The spec's three forms, mat_b laid out [G, K, N] (OpenVINO 2026.4.1's shape inference reads it as
    [G, N, K] and knows only the first two forms): 2-D x 3-D [T, K] x [G, K, N] -> [T, N] and 3-D x 3-D
    [G, M, K] x [G, K, N] -> [G, M, N] as OpenVINO infers them; 2-D x 2-D [K, T] x [T, N] -> [G, K, N].
    The spec's checks OpenVINO leaves out are made too: offsets [G] has G groups, and 3-D x 3-D takes none."""
    op = GROUPED_MATMUL
    a, b = mat_a.shape, mat_b.shape
    groups = Dimension()
    if offsets is not None:
        o = offsets.shape
        check(not o.rank_is_static or len(o) == 1, op, lambda: f"input 'offsets' must be 1-D [G], got shape {o}")
        groups = o[0] if o.rank_is_static else Dimension()
    if not a.rank_is_static or not b.rank_is_static:
        return PartialShape.dynamic()
    form = (len(a), len(b))
    check(form in ((2, 3), (3, 3), (2, 2)), op, lambda: f"mat_a and mat_b must be 2-D x 3-D, 3-D x 3-D or 2-D x 2-D, "
                                                        f"got mat_a {a} and mat_b {b}")
    if form == (3, 3):
        check(offsets is None, op, "3-D x 3-D takes no 'offsets' (every group has mat_a's M rows)")
        g = a[0].merge(b[0])
        check(g is not None, op, lambda: f"3-D x 3-D: mat_a {a} and mat_b {b} must have the same number of groups")
        _inner(op, "3-D x 3-D", a[2], b[1], a, b)
        return PartialShape([g, a[1], b[2]])
    check(offsets is not None, op,
          lambda: f"{form[0]}-D x {form[1]}-D needs 'offsets' (the groups' cumulative row counts)")
    if form == (2, 3):
        check(groups.compatible(b[0]), op, lambda: f"2-D x 3-D: 'offsets' gives {groups} groups, mat_b {b} has {b[0]}")
        _inner(op, "2-D x 3-D", a[1], b[1], a, b)
        return PartialShape([a[0], b[2]])
    _inner(op, "2-D x 2-D", a[1], b[0], a, b)
    return PartialShape([groups, a[0], b[1]])


GROUPED_MATMUL_17 = OpSchema(
    "GroupedMatMul", 17, category="matrix",
    inputs=(Port("mat_a", "T", doc="[T, K] (2-D x 3-D), [G, M, K] (3-D x 3-D) or [K, T] (2-D x 2-D)"),
            Port("mat_b", "T", doc="[G, K, N] (2-D x 3-D, 3-D x 3-D) or [T, N] (2-D x 2-D)"),
            Port("offsets", "T_IDX", optional=True,
                 doc="[G]: the groups' cumulative row counts, the last one T (not with 3-D x 3-D)")),
    outputs=(Port("output", "T", doc="[T, N], [G, M, N] or [G, K, N]"),),
    # "any floating-point or integer type": sub-byte integers are left out, as for MatMul
    type_constraints={"T": NUMERIC_BYTES, "T_IDX": ("i32", "i64")},
    shape=grouped_matmul_17_shape,
    doc="One matrix product per group (Mixture of Experts): rows offsets[g-1]:offsets[g] of mat_a times expert "
        "g's mat_b; or G batched products; or, for weight gradients, the columns of group g of mat_a times its "
        "rows of mat_b.",
)

OPS = (MATMUL_1, EINSUM_7, INVERSE_14, GROUPED_MATMUL_17)
