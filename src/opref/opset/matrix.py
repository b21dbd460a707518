"""Matrix ops: MatMul-1, Einsum-7, Inverse-14.

Shape rules follow OpenVINO's (src/core/shape_inference/include/{matmul,einsum,inverse}_shape_inference.hpp)
on partial shapes. MatMul, like OpenVINO, tolerates contradicting dimensions while one of them is
dynamic (the batch dimension then becomes fully dynamic), for backward compatibility of models.
"""
from __future__ import annotations

import re

from ..shapes import Dimension, PartialShape
from ..types import FLOAT, NUMERIC_BYTES
from .families import broadcast_dim
from .helpers import check, fail
from .schema import BOOL, STRING, Attr, OpSchema, Port


# --- MatMul-1 ----------------------------------------------------------------------------------------
def matmul_shape(a, b, *, transpose_a, transpose_b):
    op = "MatMul-1"
    if not a.shape.rank_is_static or not b.shape.rank_is_static:
        return PartialShape.dynamic()
    da, db = list(a.shape), list(b.shape)
    check(len(da) > 0 and len(db) > 0, op, f"scalars are not supported as inputs, got a {a.shape} and b {b.shape}")
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
          f"incompatible matrix dimensions: a{' (transposed)' if transpose_a else ''} has {k_a} columns, "
          f"b{' (transposed)' if transpose_b else ''} has {k_b} rows (a {a.shape}, b {b.shape})")
    n = max(len(da), len(db))
    da, db = [one] * (n - len(da)) + da, [one] * (n - len(db)) + db
    out = []
    for i, (x, y) in enumerate(zip(da[:-2], db[:-2])):
        m = broadcast_dim(x, y)
        if m is None:
            check(x.is_dynamic or y.is_dynamic, op, f"batch dimensions do not broadcast: {x} vs {y} at axis {i} "
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
    inputs=(Port("a", "T"), Port("b", "T")),
    outputs=(Port("output", "T"),),
    attributes=(Attr("transpose_a", BOOL, False, doc="swap the last two axes of a (ignored for 1-D a)"),
                Attr("transpose_b", BOOL, False, doc="swap the last two axes of b (ignored for 1-D b)")),
    # "any floating-point or integer type": sub-byte integers are left out (a kernel cannot tell
    # u1/nf4 from u8/u4, and OpenVINO only meets i4/u4 weights through a Convert)
    type_constraints={"T": NUMERIC_BYTES},
    shape=matmul_shape,
    doc="Batched matrix product with NumPy's 1-D promotion rules and optional transposition of the "
        "two innermost axes; batch axes broadcast.",
)

OPS = (MATMUL_1,)
