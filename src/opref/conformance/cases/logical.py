"""Cases for the logical ops: seeded boolean tensors under every `auto_broadcast` mode (shared
generators of the comparison table), the full truth table, and type errors."""
from __future__ import annotations

import numpy as np

from . import Case, ShapeCase, info
from .comparison import binary_cases, binary_errors, binary_shape_errors, loosen_cases, make_case, unary_cases

BINARY = ("LogicalAnd-1", "LogicalOr-1", "LogicalXor-1", "Xor-1")
TRUTH = (np.array([False, False, True, True]), np.array([False, True, False, True]))


def cases():
    out = []
    for op in BINARY:
        out += binary_cases(op, ("boolean",))
        out.append(make_case(op, "truth_table", TRUTH))
        out.append(make_case(op, "truth_table_2d", (TRUTH[0][:, None], TRUTH[1][None, :])))
        out += binary_errors(op, "boolean", "u8")
        out.append(Case(op, "err_numeric", (np.zeros(2, np.float32), np.zeros(2, np.float32)), error="expected one of"))
    out += unary_cases("LogicalNot-1", ("boolean",))
    out.append(make_case("LogicalNot-1", "truth_table", (np.array([False, True]),)))
    out.append(Case("LogicalNot-1", "err_numeric", (np.zeros(2, np.int32),), error="expected one of"))
    return out


def shape_cases():
    rng = np.random.default_rng(11)
    out = loosen_cases(rng, [c for c in cases() if c.error is None])
    for op in BINARY:
        out += binary_shape_errors(op, "boolean")
    out.append(ShapeCase("LogicalNot-1", "dyn_rank", (info("boolean", None),)))
    return out
