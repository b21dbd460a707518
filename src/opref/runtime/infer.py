"""Whole-graph shape and type inference: each node's schema shape rule in topological order, on
partial shapes (dynamic dims, intervals, dynamic rank), with values carried where they are known
(Constants, shape sub-graphs folded while they are small), and the sub-graph ops through their bodies.
`check_declared` compares the result with the dims and precisions the IR file declares."""
from __future__ import annotations

from typing import Mapping

import numpy as np

from ..errors import ModelError, OprefError
from ..shapes import PartialShape, TensorInfo
from .graph import Graph, Node, parameter_info

FOLD_LIMIT = 1 << 12     # outputs up to this many elements are computed during inference when all
                         # inputs are known (shape sub-graphs: ShapeOf -> Gather -> Concat -> Reshape)

Infos = dict  # (id(node), output index) -> TensorInfo


def _wrap(node: Node, e: OprefError) -> OprefError:
    msg = str(e)
    if msg.startswith("layer "):
        return e
    return type(e)(f"{node.where()}: {msg}")


def infer_node(node: Node, inputs: list[TensorInfo | None]) -> list[TensorInfo]:
    from . import subgraph
    from .ops import execute
    if node.schema.name == "Constant":
        return [TensorInfo(node.attrs["element_type"], node.attrs["shape"], node.value)]
    if node.schema.name == "Parameter":
        return [parameter_info(node)]
    if node.bodies:
        return subgraph.infer(node, inputs, infer_graph)
    outs = node.schema.infer(inputs, node.attrs)
    known = all(i is None or i.value is not None for i in inputs) and any(i is not None for i in inputs)
    if known and all(o.value is None for o in outs) and all(o.shape.is_static for o in outs) and \
            sum(int(np.prod(o.shape.to_shape(), dtype=object)) for o in outs) <= FOLD_LIMIT:
        values = execute(node.schema, [None if i is None else np.asarray(i.value) for i in inputs], node.attrs)
        outs = [TensorInfo(o.element_type, o.shape, v) for o, v in zip(outs, values)]
    return outs


def infer_graph(graph: Graph, parameters: Mapping[int, TensorInfo] | None = None) -> Infos:
    """TensorInfo of every node output. `parameters` maps id(Parameter node) to the info to use instead
    of the Parameter's declared shape (new input shapes, or a body's outer inputs)."""
    parameters = parameters or {}
    infos: Infos = {}
    for node in graph.nodes:
        ins = [None if s is None else infos[s.info_key] for s in node.inputs]
        try:
            if id(node) in parameters:
                outs = [parameters[id(node)]]
            else:
                outs = infer_node(node, ins)
        except OprefError as e:
            raise _wrap(node, e) from None
        for k, o in enumerate(outs):
            infos[(id(node), k)] = o
    return infos


def _declared(dims: tuple[int, ...]) -> str:
    return "[" + ",".join("?" if d == -1 else str(d) for d in dims) + "]"


def _agrees(dims: tuple[int, ...], shape: PartialShape) -> bool:
    """Declared <dim>s (-1 for every non-static dim; none for a scalar or a dynamic rank) against an
    inferred shape."""
    if not shape.rank_is_static:
        return True
    return len(dims) == len(shape) and all(d == -1 or shape[i].contains(d) for i, d in enumerate(dims))


def check_declared(graph: Graph, infos: Infos) -> None:
    """Every port's declared dims and precision agree with inference (in this graph scope)."""
    for node in graph.nodes:
        for k, port in enumerate(node.outputs):
            info = infos.get((id(node), k))
            if info is None:
                continue
            if port.dims is not None and not _agrees(port.dims, info.shape):
                raise ModelError(f"{node.where()}: output port {k} declares shape {_declared(port.dims)}, "
                                 f"inference gives {info.shape}")
            if port.element_type is not None and port.element_type != info.element_type:
                raise ModelError(f"{node.where()}: output port {k} declares element type {port.element_type}, "
                                 f"inference gives {info.element_type}")
        for i, (src, dims) in enumerate(zip(node.inputs, node.input_dims)):
            if src is None or dims is None:
                continue
            info = infos[src.info_key]
            if not _agrees(dims, info.shape):
                raise ModelError(f"{node.where()}: input port {i} declares shape {_declared(dims)}, but its "
                                 f"producer {src.node.where()} gives {info.shape}")
