"""Sub-graph ops: TensorIterator, Loop and If carry bodies (graphs) and port maps that say how the
outer inputs and outputs connect to the body's Parameters and Results. They are the one place where
the reader, writer, inference and executor know an op: see runtime/subgraph.py. Their IR layers have
no <data>; what they need lives in the port maps."""
from __future__ import annotations

from ..types import ALL
from .schema import OpSchema, Port

TENSOR_ITERATOR_1 = OpSchema(
    "TensorIterator", 1, category="subgraph",
    inputs=(Port("inputs", "T", variadic=True,
                 doc="outer values fed to body Parameters as the port map says: sliced along an axis, merged "
                     "(later iterations get a back edge's Result) or invariant"),),
    outputs=(Port("outputs", "T", variadic=True,
                  doc="body Results: the last iteration's value, or every iteration's concatenated along an axis"),),
    type_constraints={"T": ALL},
    doc="Runs its body once per slice of the sliced inputs, carrying merged inputs over back edges.")

LOOP_5 = OpSchema(
    "Loop", 5, category="subgraph",
    inputs=(Port("trip_count", "T_INT", optional=True,
                 doc="scalar maximum number of iterations; negative (-1) or absent means no limit"),
            Port("execution_condition", "boolean", optional=True,
                 doc="scalar: whether the first iteration runs at all (absent: true)"),
            Port("inputs", "T", variadic=True,
                 doc="outer values fed to body Parameters as the port map says: sliced, merged over back "
                     "edges or invariant")),
    outputs=(Port("outputs", "T", variadic=True,
                  doc="body Results: the last iteration's value, or every iteration's concatenated along an axis"),),
    type_constraints={"T": ALL, "T_INT": ("i32", "i64")},
    doc="Runs its body while the execution condition holds and fewer than trip_count iterations ran.")

IF_8 = OpSchema(
    "If", 8, category="subgraph",
    inputs=(Port("cond", "boolean", doc="one-element boolean choosing the body"),
            Port("inputs", "T", optional=True, variadic=True,   # cond alone is valid
                 doc="outer values fed to the chosen body's Parameters as its port map says")),
    outputs=(Port("outputs", "T", variadic=True, doc="the chosen body's Results, as its port map says"),),
    type_constraints={"T": ALL},
    doc="Runs then_body when cond is true, else_body otherwise.")

OPS = (TENSOR_ITERATOR_1, LOOP_5, IF_8)
