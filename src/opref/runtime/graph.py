"""Graphs: nodes with their schema and typed attributes, edges as (producer node, output index),
topological order, and the bodies and port maps of sub-graph ops.

A `Graph` is what the IR reader builds and the writer writes; the executor runs it and
`runtime.infer` infers its shapes. Nodes are kept in a topological order (computed iteratively:
no recursion limits, a cycle is an error that names a layer on it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ModelError
from ..opset.schema import OpSchema
from ..shapes import TensorInfo


@dataclass
class OutputPort:
    """One output of a node: its tensor names, and what the file declared about it (hints)."""
    names: list[str] = field(default_factory=list)
    element_type: str | None = None            # declared precision (None: not declared)
    dims: tuple[int, ...] | None = None        # declared <dim>s, -1 for non-static (None: not declared)
    rt_info: Any = None                        # kept for the round trip (an lxml element)


@dataclass(eq=False)
class Node:
    id: int                                    # the layer id in its graph scope
    name: str                                  # friendly name
    schema: OpSchema
    attrs: dict[str, Any]                      # bound by the schema: typed, defaults filled in
    inputs: list["Source | None"] = field(default_factory=list)
    outputs: list[OutputPort] = field(default_factory=list)
    value: np.ndarray | None = None            # a Constant's value (a view of the weights file)
    bodies: dict[str, "Graph"] = field(default_factory=dict)    # sub-graph ops: "body" / "then_body" ...
    port_maps: dict[str, "PortMap"] = field(default_factory=dict)
    rt_info: Any = None
    input_dims: list[tuple[int, ...] | None] = field(default_factory=list)   # declared input <dim>s

    @property
    def op(self) -> str:
        return self.schema.versioned_name

    def where(self) -> str:
        """How error messages name this node: layer id, name and type-version."""
        return f"layer {self.id} {self.name!r} ({self.op})"

    def __repr__(self) -> str:
        return f"<Node {self.where()}>"


@dataclass(frozen=True, eq=False)
class Source:
    node: Node
    port: int                                  # index among the producer's outputs

    @property
    def info_key(self) -> tuple[int, int]:
        return id(self.node), self.port


# --- sub-graph port maps (TensorIterator, Loop, If) ----------------------------------------------
@dataclass(frozen=True)
class InputMap:
    external: int                              # index among the outer node's inputs (-1: not connected)
    parameter: int                             # index among the body's parameters
    axis: int | None = None                    # sliced input
    start: int = 0
    end: int = -1
    stride: int = 1
    part_size: int = 1
    purpose: str = ""                          # Loop: "current_iteration"


@dataclass(frozen=True)
class OutputMap:
    external: int                              # index among the outer node's outputs (-1: internal)
    result: int                                # index among the body's results
    axis: int | None = None                    # concatenated over iterations
    start: int = 0
    end: int = -1
    stride: int = 1
    part_size: int = 1
    purpose: str = ""                          # Loop: "execution_condition"


@dataclass(frozen=True)
class PortMap:
    inputs: tuple[InputMap, ...] = ()
    outputs: tuple[OutputMap, ...] = ()
    back_edges: tuple[tuple[int, int], ...] = ()    # (body result index, body parameter index)


@dataclass(eq=False)
class Graph:
    nodes: list[Node]                          # topological order
    parameters: list[Node]                     # model inputs, in order
    results: list[Node]                        # model outputs, in order
    sinks: list[Node] = field(default_factory=list)   # other sinks (Assign)
    name: str = ""
    ir_version: int = 11
    rt_info: Any = None

    def node_by_name(self, name: str) -> Node:
        for n in self.nodes:
            if n.name == name:
                return n
        raise ModelError(f"no layer named {name!r}")


def topological_order(roots: list[Node]) -> list[Node]:
    """Every node that the roots depend on, producers first. Iterative depth-first search; a cycle
    raises ModelError naming a layer on it."""
    order: list[Node] = []
    state: dict[int, int] = {}                 # id(node) -> 1 visiting, 2 done
    for root in roots:
        if state.get(id(root)) == 2:
            continue
        stack = [(root, 0)]
        state[id(root)] = 1
        while stack:
            node, i = stack[-1]
            if i < len(node.inputs):
                stack[-1] = (node, i + 1)
                src = node.inputs[i]
                if src is None:
                    continue
                s = state.get(id(src.node))
                if s == 1:
                    raise ModelError(f"the graph has a cycle through {src.node.where()}")
                if s is None:
                    state[id(src.node)] = 1
                    stack.append((src.node, 0))
            else:
                stack.pop()
                state[id(node)] = 2
                order.append(node)
    return order


def parameter_info(node: Node) -> TensorInfo:
    return TensorInfo(node.attrs["element_type"], node.attrs["shape"])
