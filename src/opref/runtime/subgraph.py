"""The sub-graph ops: TensorIterator-1, Loop-5 and If-8 run their bodies through the port maps.

Inputs are *sliced* (the body sees one part per iteration), *merged* (the first iteration sees the
outer value, later ones the body Result that a back edge names) or *invariant*. Outputs are the
*last iteration's* value or the *concatenation* of every iteration's value along an axis. A Loop
also has a trip count and an execution condition (outer inputs 0 and 1), and may feed the iteration
number to a body Parameter and read the next condition from a body Result (`purpose`).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..errors import InputError, ModelError
from ..shapes import Dimension, PartialShape, TensorInfo
from .graph import Graph, Node, OutputMap, PortMap
from . import limits


# --- slicing ---------------------------------------------------------------------------------------
def _bounds(start: int, end: int, length: int) -> tuple[int, int]:
    """Slice boundaries: negative values count from the end, -1 being the end itself."""
    s = start if start >= 0 else length + start + 1
    e = end if end >= 0 else length + end + 1
    return s, e


def iteration_count(m, length: int, where: str) -> int:
    s, e = _bounds(m.start, m.end, length)
    if not (0 <= s <= length and 0 <= e <= length):
        raise ModelError(f"{where}: slice start {m.start}, end {m.end} outside axis of length {length}")
    span = abs(e - s)
    if span < m.part_size:
        return 0
    return (span - m.part_size) // abs(m.stride) + 1


def _part(x: np.ndarray, m, i: int) -> np.ndarray:
    axis = m.axis % x.ndim
    s, _ = _bounds(m.start, m.end, x.shape[axis])
    lo = s + i * m.stride if m.stride > 0 else s + i * m.stride - m.part_size
    index = [slice(None)] * x.ndim
    index[axis] = slice(lo, lo + m.part_size)
    return x[tuple(index)]


def _concat(parts: list[np.ndarray], m: OutputMap) -> np.ndarray:
    if m.stride < 0:
        parts = parts[::-1]
    return np.concatenate(parts, axis=m.axis % parts[0].ndim)


# --- running -------------------------------------------------------------------------------------
def run(node: Node, inputs: list, run_graph: Callable[[Graph, list], list]) -> list[np.ndarray]:
    """The outer outputs of a sub-graph op; run_graph(body, parameter values) -> result values."""
    kind = node.schema.name
    if kind == "If":
        cond = np.asarray(inputs[0])
        if cond.size != 1:
            raise InputError(f"{node.where()}: cond must have one element, got shape {list(cond.shape)}")
        tag = "then_body" if bool(cond.reshape(-1)[0]) else "else_body"
        body, pm = node.bodies[tag], node.port_maps[tag]
        params = [None] * len(body.parameters)
        for m in pm.inputs:
            params[m.parameter] = inputs[m.external]
        _check_fed(node, body, params)
        results = run_graph(body, params)
        return _outer(node, pm, {m.external: results[m.result] for m in pm.outputs})
    body, pm = node.bodies["body"], node.port_maps["body"]
    where = node.where()
    sliced = [m for m in pm.inputs if m.axis is not None and m.external >= 0]
    counts = [iteration_count(m, np.asarray(inputs[m.external]).shape[m.axis % np.ndim(inputs[m.external])], where)
              for m in sliced]
    if kind == "TensorIterator":
        if not counts:
            raise ModelError(f"{where}: has no sliced input, so its number of iterations is unknown")
        limit, cond = min(counts), True
        if len(set(counts)) > 1:
            raise ModelError(f"{where}: sliced inputs give different iteration counts {counts}")
    else:
        trip = inputs[0] if len(inputs) > 0 else None
        limit = -1 if trip is None else int(np.asarray(trip).reshape(-1)[0])
        if limit < 0:
            limit = 1 << 62                # no trip count: the condition decides, up to the iteration limit
        if counts:
            limit = min([limit] + counts)
        cond = True if len(inputs) < 2 or inputs[1] is None else bool(np.asarray(inputs[1]).reshape(-1)[0])
    merged_from = {p: r for r, p in pm.back_edges}
    current = [None] * len(body.parameters)
    for m in pm.inputs:
        if m.external >= 0 and m.axis is None:
            current[m.parameter] = inputs[m.external]
    iter_param = next((m.parameter for m in pm.inputs if m.purpose == "current_iteration"), None)
    cond_result = next((m.result for m in pm.outputs if m.purpose == "execution_condition"), None)
    last: dict[int, np.ndarray] = {}
    parts: dict[int, list] = {m.external: [] for m in pm.outputs if m.axis is not None and m.external >= 0}
    i = 0
    cap = limits.max_loop_iterations()
    deadline, clock = limits.deadline(), limits.clock
    while cond and i < limit:
        if i == cap:
            raise ModelError(f"{where}: more than {cap} iterations (the limit, OPREF_MAX_LOOP_ITERATIONS or "
                             f"opref.limits(max_loop_iterations=...))"
                             + ("; its condition never turned false" if limit == 1 << 62 else
                                f"; its trip count is {limit}"))
        if deadline is not None and clock() > deadline:
            raise limits.over_time(f"{where}: iteration {i}")
        params = list(current)
        for m in sliced:
            params[m.parameter] = _part(np.asarray(inputs[m.external]), m, i)
        if iter_param is not None:
            p = body.parameters[iter_param]
            params[iter_param] = np.full(p.attrs["shape"].to_shape() if p.attrs["shape"].is_static else (),
                                         i, dtype=_dtype(p.attrs["element_type"]))
        _check_fed(node, body, params)
        results = run_graph(body, params)
        for m in pm.outputs:
            if m.external < 0:
                continue
            if m.axis is not None:
                parts[m.external].append(results[m.result])
            else:
                last[m.external] = results[m.result]
        for p, r in merged_from.items():
            current[p] = results[r]
        if cond_result is not None:
            cond = bool(np.asarray(results[cond_result]).reshape(-1)[0])
        i += 1
    outs = {}
    for m in pm.outputs:
        if m.external < 0:
            continue
        if m.axis is not None:
            if not parts[m.external]:
                raise ModelError(f"{where}: ran no iteration, so concatenated output {m.external} is empty "
                                 f"and has no known shape")
            outs[m.external] = _concat(parts[m.external], m)
        elif m.external in last:
            outs[m.external] = last[m.external]
        else:   # no iteration ran: a last-value output is its merged input's initial value
            p = next((p for p, r in merged_from.items() if r == m.result), None)
            if p is None or current[p] is None:
                raise ModelError(f"{where}: ran no iteration, so output {m.external} has no value")
            outs[m.external] = current[p]
    return _outer(node, pm, outs)


def _dtype(et: str):
    from ..types import element_type
    return element_type(et).dtype


def _check_fed(node: Node, body: Graph, params: list):
    for k, v in enumerate(params):
        if v is None:
            raise ModelError(f"{node.where()}: body Parameter {body.parameters[k].where()} is not fed by the "
                             f"port map")


def _outer(node: Node, pm: PortMap, outs: dict) -> list:
    result = []
    for k in range(len(node.outputs)):
        if k not in outs:
            raise ModelError(f"{node.where()}: output {k} is not mapped to a body Result")
        result.append(outs[k])
    return result


# --- inference ---------------------------------------------------------------------------------------
def _loosen(a: PartialShape, b: PartialShape, static_only: bool = False) -> PartialShape:
    """What two shapes have in common: equal dims stay (with static_only, equal static dims only),
    others become dynamic (ranks must agree)."""
    if not a.rank_is_static or not b.rank_is_static or len(a) != len(b):
        return PartialShape.dynamic()
    return PartialShape([x if x == y and (x.is_static or not static_only) else Dimension() for x, y in zip(a, b)])


def _sliced_axis(axis: int, rank: int, node: Node, what: str) -> int:
    """A port map's slicing/concatenation axis on a shape of this rank (new input shapes may differ from
    the declared ones): in [-rank, rank), else a ShapeInferenceError naming the port."""
    if not -rank <= axis < rank:
        from ..errors import ShapeInferenceError
        raise ShapeInferenceError(f"{node.where()}: {what} is sliced/concatenated on axis {axis}, outside "
                                  f"its rank-{rank} shape")
    return axis % rank


def infer(node: Node, inputs: list[TensorInfo | None], infer_graph) -> list[TensorInfo]:
    """Shapes come from the bodies. If infers the body a known condition picks, else both, whose outputs
    must agree in element type and keep a dim only where it is static and equal in both. Loop and
    TensorIterator infer the body once with each sliced input cut to one part (the iteration count is
    the number of parts of a static sliced axis, or a Loop's constant trip count, else dynamic), merged
    inputs loosened where the body's result changes their shape; a last-iteration output has its body
    result's shape, a concatenated one that shape with the axis multiplied by the iteration count."""
    kind = node.schema.name
    for tag, body in node.bodies.items():      # a body parameter nothing feeds has no value to run with
        fed = {m.parameter for m in node.port_maps[tag].inputs}
        missing = [p.name for i, p in enumerate(body.parameters) if i not in fed]
        if missing:
            raise ModelError(f"{node.where()}: {tag} parameter(s) {', '.join(map(repr, missing))} are fed by no "
                             "input of its port map")
        for m in node.port_maps[tag].inputs:
            if m.external >= 0 and (m.external >= len(inputs) or inputs[m.external] is None):
                raise ModelError(f"{node.where()}: input {m.external}, which feeds {tag} parameter "
                                 f"{body.parameters[m.parameter].name!r}, is not connected")
    if kind == "If":
        cond = inputs[0]
        tags = ("then_body", "else_body")
        if cond is not None and cond.value is not None and np.asarray(cond.value).size == 1:
            tags = ("then_body",) if bool(np.asarray(cond.value).reshape(-1)[0]) else ("else_body",)
        outs = None
        for tag in tags:
            body, pm = node.bodies[tag], node.port_maps[tag]
            feed = {id(body.parameters[m.parameter]): inputs[m.external] for m in pm.inputs}
            infos = infer_graph(body, feed)
            got = {m.external: infos[body.results[m.result].inputs[0].info_key] for m in pm.outputs}
            got = [TensorInfo(got[k].element_type, got[k].shape) for k in range(len(node.outputs)) if k in got]
            if len(got) != len(node.outputs):
                raise ModelError(f"{node.where()}: {tag} does not map every output")
            if outs is None:
                outs = got
            else:
                for k, (a, b) in enumerate(zip(outs, got)):
                    if a.element_type != b.element_type:
                        raise ModelError(f"{node.where()}: output {k} is {a.element_type} in then_body, "
                                         f"{b.element_type} in else_body")
                # as OpenVINO: a dim both bodies give stays only where it is static ([1..8] and [1..8]: ?)
                outs = [TensorInfo(a.element_type, _loosen(a.shape, b.shape, static_only=True))
                        for a, b in zip(outs, got)]
        return outs
    body, pm = node.bodies["body"], node.port_maps["body"]
    feed: dict[int, TensorInfo] = {}
    iterations: Dimension | None = None
    for m in pm.inputs:
        p = body.parameters[m.parameter]
        if m.external < 0:
            continue
        info = inputs[m.external]
        if m.axis is not None and info.shape.rank_is_static:
            axis = _sliced_axis(m.axis, len(info.shape), node, f"input {m.external}")
            dims = list(info.shape)
            d = dims[axis]
            n = Dimension(iteration_count(m, d.lo, node.where()), iteration_count(m, d.lo, node.where())) \
                if d.is_static else Dimension()
            iterations = n if iterations is None else (iterations.merge(n) or Dimension())
            dims[axis] = Dimension(m.part_size, m.part_size)
            info = TensorInfo(info.element_type, PartialShape(dims))
        elif m.axis is not None:
            info = TensorInfo(info.element_type, PartialShape.dynamic())
        feed[id(p)] = TensorInfo(info.element_type, info.shape, info.value if m.axis is None and
                                 not any(pp == m.parameter for _, pp in pm.back_edges) else None)
    if kind == "Loop":
        trip, cond = inputs[0] if inputs else None, inputs[1] if len(inputs) > 1 else None
        cond_result = next((m.result for m in pm.outputs if m.purpose == "execution_condition"), None)
        n = None
        if trip is not None and trip.value is not None and int(np.asarray(trip.value).reshape(-1)[0]) >= 0:
            n = int(np.asarray(trip.value).reshape(-1)[0])
        if cond is not None and cond.value is not None and not bool(np.asarray(cond.value).reshape(-1)[0]):
            n = 0
        iterations = Dimension(n, n) if n is not None and cond_result is None and iterations is None else \
            (Dimension() if iterations is None else iterations)
        for m in pm.inputs:
            if m.purpose == "current_iteration":
                p = body.parameters[m.parameter]
                feed[id(p)] = TensorInfo(p.attrs["element_type"], p.attrs["shape"])
    infos = infer_graph(body, feed)
    # Merged inputs whose body result differs in shape are loosened and the body inferred again.
    changed = False
    for r, p in pm.back_edges:
        param = body.parameters[p]
        res = infos[body.results[r].inputs[0].info_key]
        before = feed.get(id(param))
        if before is not None and res.shape != before.shape:
            feed[id(param)] = TensorInfo(before.element_type, _loosen(before.shape, res.shape))
            changed = True
    if changed:
        infos = infer_graph(body, feed)
    outs: dict[int, TensorInfo] = {}
    for m in pm.outputs:
        if m.external < 0:
            continue
        res = infos[body.results[m.result].inputs[0].info_key]
        shape = res.shape
        if m.axis is not None and shape.rank_is_static:
            dims = list(shape)
            axis = _sliced_axis(m.axis, len(dims), node, f"output {m.external}")
            dims[axis] = dims[axis] * iterations if iterations is not None else Dimension()
            shape = PartialShape(dims)
        outs[m.external] = TensorInfo(res.element_type, shape)
    return _outer(node, pm, outs)
