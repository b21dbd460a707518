"""Running a Graph: Parameters fed, Constants from the weights, every other node through its kernel
(after its shape rule has checked the concrete inputs), each intermediate dropped after its last use.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..errors import InputError, ModelError, OprefError
from ..types import element_type
from . import subgraph
from .graph import Graph, Node
from .ops import execute, infer_outputs
from ..opset.schema import as_keywords


class Executor:
    """A plan for one graph: the order of nodes, and after which step each value is last used."""

    def __init__(self, graph: Graph):
        self.graph = graph
        self.position = {id(n): i for i, n in enumerate(graph.nodes)}
        last: dict[tuple[int, int], int] = {}
        for i, node in enumerate(graph.nodes):
            for src in node.inputs:
                if src is not None:
                    last[src.info_key] = i
        keep = {r.inputs[0].info_key for r in graph.results if r.inputs and r.inputs[0] is not None}
        self.free_after: list[list[tuple[int, int]]] = [[] for _ in graph.nodes]
        for key, i in last.items():
            if key not in keep:
                self.free_after[i].append(key)
        self._bodies: dict[int, Executor] = {}
        self.peak_live = 0                    # most values held at once in the last run (a check that
                                              # intermediates are dropped after their last use)
        # Nodes whose inputs are all constant (weight decompression: Const f16 -> Convert) are computed
        # once, on the first run, and kept.
        constant: set[int] = set()
        for node in graph.nodes:
            if node.schema.name == "Constant" or (node.inputs and not node.bodies and node.schema.name not in
                                                  ("Parameter", "Result") and
                                                  all(s is not None and id(s.node) in constant for s in node.inputs)):
                constant.add(id(node))
        self.constant = constant
        self.cache: dict[tuple[int, int], np.ndarray] = {}
        # Per node: its keyword attributes, which input ports give the shape rule values, and the
        # shape rule's answers by (input types and shapes, values on those ports): a second run with
        # the same input shapes reuses them instead of re-inferring.
        self.keywords = [as_keywords(n.attrs) for n in graph.nodes]
        self.const_ports = [tuple(i for i, p in enumerate(n.schema.ports_for(len(n.inputs))) if p.const)
                            if n.schema.name not in ("Parameter", "Constant") else () for n in graph.nodes]
        self.inferred: list[dict] = [{} for _ in graph.nodes]
        self.input_keys = [[None if s is None else s.info_key for s in n.inputs] for n in graph.nodes]
        self.kind = [n.schema.name if n.schema.name in ("Parameter", "Constant") else
                     "constant" if id(n) in constant else "compute" for n in graph.nodes]

    def run(self, feeds: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Result values in graph.results order; feeds in graph.parameters order (checked by the caller)."""
        graph = self.graph
        values: dict[tuple[int, int], np.ndarray] = {}
        fed = {id(p): x for p, x in zip(graph.parameters, feeds)}
        for i, node in enumerate(graph.nodes):
            kind = self.kind[i]
            if kind == "compute":
                outs = self.step(i, node, [None if k is None else values[k] for k in self.input_keys[i]])
            elif kind == "Parameter":
                if id(node) not in fed:
                    raise InputError(f"{node.where()}: no value was given")
                outs = [fed[id(node)]]
            elif kind == "Constant":
                outs = [node.value]
            else:                                    # computed from constants only: once, then cached
                if (id(node), 0) not in self.cache:
                    args = [values[k] for k in self.input_keys[i]]
                    for k, v in enumerate(self.step(i, node, args)):
                        self.cache[(id(node), k)] = v
                outs = [self.cache[(id(node), k)] for k in range(max(len(node.outputs), 1))]
            for k, v in enumerate(outs):
                values[(id(node), k)] = v
            if len(values) > self.peak_live:
                self.peak_live = len(values)
            for key in self.free_after[i]:
                values.pop(key, None)
        return [values[(id(r), 0)] for r in graph.results]

    def step(self, i: int, node: Node, args: list) -> list[np.ndarray]:
        try:
            if node.bodies:
                return subgraph.run(node, args, self._run_body)
            key = tuple(None if a is None else (a.shape, a.dtype) for a in args) + \
                tuple(args[k].tobytes() for k in self.const_ports[i] if k < len(args) and args[k] is not None)
            infos = self.inferred[i].get(key)
            if infos is None:
                if len(self.inferred[i]) >= 8:       # a model run with ever new shapes: keep the cache small
                    self.inferred[i].clear()
                infos = self.inferred[i][key] = infer_outputs(node.schema, args, node.attrs)
            return execute(node.schema, args, node.attrs, infos=infos, keywords=self.keywords[i])
        except OprefError as e:
            msg = str(e)
            raise type(e)(msg if msg.startswith("layer ") else f"{node.where()}: {msg}") from None
        except (MemoryError, FloatingPointError, ValueError, TypeError, IndexError, KeyError) as e:
            # A kernel rejected its input in NumPy's words: still an error about this layer.
            raise ModelError(f"{node.where()}: cannot compute ({type(e).__name__}: {e})") from None

    def _run_body(self, body: Graph, params: list) -> list:
        ex = self._bodies.get(id(body))
        if ex is None:
            ex = self._bodies[id(body)] = Executor(body)
        return ex.run(params)


def check_feed(node: Node, x, info_shape=None) -> np.ndarray:
    """A model input as the Parameter declares it, or an InputError saying what was expected."""
    et = element_type(node.attrs["element_type"])
    try:
        a = np.asarray(x)
    except Exception as e:   # objects NumPy cannot hold
        raise InputError(f"input {node.name!r}: not an array ({e})") from None
    want = et.dtype
    if a.dtype != want and not (want.kind == "U" and a.dtype.kind in "UT"):
        raise InputError(f"input {node.name!r}: expected element type {et.name} ({want}), got {a.dtype}")
    shape = node.attrs["shape"] if info_shape is None else info_shape
    if not shape.compatible(a.shape):
        raise InputError(f"input {node.name!r}: expected shape {shape}, got {list(a.shape)}")
    return a
