"""Sub-graph ops (category subgraph): If-8 -> ONNX If, Loop-5 and TensorIterator-1 -> ONNX Loop.

Bodies are exported by the model exporter (`b.export_body`); a body Parameter that the port map feeds
from an outer value is read from the outer scope by name, as ONNX sub-graphs may.

If-8: the then/else bodies become the two branches; the outputs in outer-port order.

Loop-5 / TensorIterator-1 -> one ONNX Loop (inputs M, cond, carried...; body inputs iteration number,
condition, carried...; body outputs condition, carried..., scan outputs), plus glue:
- merged inputs (back edges) are the carried values: initial value the outer input, next value the
  back edge's body Result; a last-iteration output of a back edge's Result is the carried final value
  (with no iteration, the initial value, as opref).
- invariant inputs are read from the outer scope.
- sliced inputs: inside the body, Slice of the outer value at start + i*stride (minus part_size when
  stride < 0) for part_size elements; the slice start is computed outside the loop when it needs the
  axis length at run time (negative start, dynamic dim).
- the iteration count: TensorIterator's from its sliced inputs ((|end - start| - part_size) // |stride|
  + 1, at export time when the axis is static, else with Shape arithmetic); Loop's trip count (input 0;
  -1 or absent: unbounded, INT64_MAX) and the sliced inputs' counts, the smaller; the execution
  condition is input 1 (absent: true), and the body's condition Result (`execution_condition`) the next
  one — without it the body passes its condition input on. An ONNX Loop with no cond input would ignore
  the body's condition, so the cond input is always given.
- the `current_iteration` Parameter: ONNX's iteration number cast to its element type and shape.
- concatenated outputs: a scan output (parts stacked on a new axis 0), reversed along it when stride < 0,
  then Transpose + Reshape (allowzero) so the parts join along `axis` (a part may be longer than 1).
- a last-iteration output of a Result no back edge reads: a scan output, then Gather(-1) on axis 0.

Where ONNX departs from opref (all on models or inputs opref rejects): with no iteration, opref rejects
a concatenated output or a last-iteration output without a back edge; ONNX gives an empty tensor
(concatenated) or fails in Gather (last value). A Loop whose condition never turns false: opref stops
after OPREF_MAX_LOOP_ITERATIONS (runtime/limits.py) iterations with an error, ONNX runs on. Slice bounds outside the
axis (opref: an error) are clamped by ONNX when the axis is dynamic. Scan outputs must have one shape in
every iteration in ONNX; opref concatenates parts whose shape changes from iteration to iteration.
"""
from __future__ import annotations

import numpy as np

from ..errors import ModelError
from ..runtime.infer import infer_graph
from ..runtime.subgraph import _bounds, _loosen, iteration_count
from ..shapes import Dimension, PartialShape, TensorInfo
from .builder import Builder, Unsupported, Value
from .single import value_info

INT64_MAX = np.iinfo(np.int64).max
_NO_NODE = "a sub-graph op needs its bodies: it lowers inside a model (opref.onnx.export), not as one case"


def _if(b: Builder, call):
    node = call.node
    if node is None:
        return Unsupported(_NO_NODE)
    branches = {}
    for tag, attr in (("then_body", "then_branch"), ("else_body", "else_branch")):
        body, pm = node.bodies[tag], node.port_maps[tag]
        bound = {m.parameter: call.inputs[m.external] for m in pm.inputs}
        by_port = {m.external: m.result for m in pm.outputs}
        if sorted(by_port) != list(range(len(call.outputs))) or any(v is None for v in bound.values()):
            return Unsupported("a body port map that leaves an outer port unmapped", tag)
        g = b.export_body(body, bound, [by_port[k] for k in range(len(call.outputs))], b.fresh(tag))
        if isinstance(g, Unsupported):
            return g
        branches[attr] = g
    return b.node("If", [call.inputs[0]], len(call.outputs), **branches)


# --- Loop / TensorIterator -------------------------------------------------------------------------
def _count_and_start(b: Builder, x: Value, m, where: str):
    """(iterations, slice start) of a sliced input: Python ints when the axis is static, else ONNX
    names of i64[1] tensors (the start only when it depends on the length)."""
    ax = m.axis % x.rank
    d = x.shape[ax]
    if d.is_static:
        try:
            n = iteration_count(m, d.lo, where)
        except ModelError as e:
            return Unsupported("a sliced input's start/end lie outside its axis", str(e))
        return n, _bounds(m.start, m.end, d.lo)[0]
    length = b.node("Shape", [x], start=ax, end=ax + 1)
    s = m.start if m.start >= 0 else b.node("Add", [length, b.i64([m.start + 1])])
    e = m.end if m.end >= 0 else b.node("Add", [length, b.i64([m.end + 1])])
    if isinstance(s, int) and isinstance(e, int):
        span = b.i64([abs(e - s)])
    else:
        span = b.node("Abs", [b.node("Sub", [b.i64([e]) if isinstance(e, int) else e,
                                             b.i64([s]) if isinstance(s, int) else s])])
    st = abs(m.stride)
    n = b.node("Div", [b.node("Max", [b.node("Add", [span, b.i64([st - m.part_size])]), b.i64([0])]), b.i64([st])])
    return n, s


def _trip_count(b: Builder, call, counts: list):
    """ONNX Loop's M (i64 scalar name): the smaller of the trip count and the sliced inputs' counts."""
    static = [c for c in counts if isinstance(c, int)]
    names = [c for c in counts if not isinstance(c, int)]
    if call.schema.name == "Loop" and call.inputs and call.inputs[0] is not None:
        trip = call.inputs[0]
        if trip.is_const:
            t = trip.scalar()
            static.append(INT64_MAX if t is None or t < 0 else int(t))
        else:
            t = b.node("Reshape", [b.cast(trip, "i64", trip.element_type), b.i64([1])])
            names.append(b.node("Where", [b.node("Less", [t, b.i64([0])]), b.i64([INT64_MAX]), t]))
    if static:
        names.append(b.i64([min(static)]))
    if not names:
        return b.const(np.array(INT64_MAX, np.int64), "i64")
    m = names[0] if len(names) == 1 else b.node("Min", names)
    return b.node("Reshape", [m, b.i64([])])


def _loop(b: Builder, call):
    node = call.node
    if node is None:
        return Unsupported(_NO_NODE)
    body, pm = node.bodies["body"], node.port_maps["body"]
    where, is_loop = node.where(), call.schema.name == "Loop"
    params = body.parameters
    merged = {}                                 # parameter -> body result (the back edge)
    for r, p in pm.back_edges:
        merged[p] = r
    sliced = [m for m in pm.inputs if m.axis is not None and m.external >= 0]
    iter_param = next((m.parameter for m in pm.inputs if m.purpose == "current_iteration"), None)
    cond_result = next((m.result for m in pm.outputs if m.purpose == "execution_condition"), None) \
        if is_loop else None
    if not is_loop and not sliced:
        return Unsupported("a TensorIterator with no sliced input (its iteration count is unknown; opref rejects it)")
    if any(m.parameter in merged for m in sliced):
        return Unsupported("a merged input that is also sliced")

    # sliced inputs: iteration counts and slice starts (outside the loop)
    counts, starts = [], {}
    for m in sliced:
        x = call.inputs[m.external]
        if x.rank is None:
            return Unsupported("a sliced input of dynamic rank", f"input {m.external}")
        got = _count_and_start(b, x, m, where)
        if isinstance(got, Unsupported):
            return got
        counts.append(got[0])
        starts[m.parameter] = got[1]
    if not is_loop and len(set(c for c in counts if isinstance(c, int))) > 1:
        return Unsupported("sliced inputs give different iteration counts (opref rejects the model)")
    trip = _trip_count(b, call, counts)
    if is_loop and len(call.inputs) > 1 and call.inputs[1] is not None:
        cond = b.node("Reshape", [b.cast(call.inputs[1], "boolean", call.inputs[1].element_type), b.i64([])])
    else:
        cond = b.const(np.array(True), "boolean")

    # the body's glue (before its own nodes): slices and the iteration number
    gb = Builder(b.opset, b.prefix, b.taken)
    i_name, c_name = b.fresh("iter"), b.fresh("cond_in")
    bound = {}
    i1 = None
    for m in sliced:
        x = call.inputs[m.external]
        ax = m.axis % x.rank
        if i1 is None:
            i1 = gb.node("Reshape", [i_name, gb.i64([1])])
        s = starts[m.parameter]
        off = (s + (-m.part_size if m.stride < 0 else 0)) if isinstance(s, int) else s
        lo = gb.node("Mul", [i1, gb.i64([m.stride])])
        lo = gb.node("Add", [lo, gb.i64([off]) if isinstance(off, int) else off])
        if not isinstance(off, int) and m.stride < 0:
            lo = gb.node("Sub", [lo, gb.i64([m.part_size])])
        hi = gb.node("Add", [lo, gb.i64([m.part_size])])
        part = gb.node("Slice", [x, lo, hi, gb.i64([ax])])
        dims = list(x.shape)
        dims[ax] = Dimension(m.part_size, m.part_size)
        bound[m.parameter] = Value(part, x.element_type, PartialShape(dims))
    if iter_param is not None:
        p = params[iter_param]
        et, shape = p.attrs["element_type"], p.attrs["shape"]
        shape = shape if shape.is_static else PartialShape([])
        it = gb.node("Reshape", [gb.cast(i_name, et, "i64"), gb.i64(shape.to_shape())])
        bound[iter_param] = Value(it, et, shape)
    for m in pm.inputs:
        if m.axis is None and m.external >= 0 and m.parameter not in merged:
            if call.inputs[m.external] is None:
                return Unsupported("a body port map that feeds a parameter from an absent input")
            bound[m.parameter] = call.inputs[m.external]
    n_pre = len(gb.nodes)

    # carried values: the merged inputs, their shapes loosened as opref's inference does
    initial = {m.parameter: call.inputs[m.external] for m in pm.inputs
               if m.parameter in merged and m.axis is None and m.external >= 0}
    carried = [p for p in merged if p in initial]
    if len(carried) != len(merged):
        return Unsupported("a merged input with no initial value (opref rejects the model)")
    feed = {id(params[k]): TensorInfo(v.element_type, v.shape) for k, v in bound.items()}
    feed.update({id(params[p]): TensorInfo(initial[p].element_type, initial[p].shape) for p in carried})
    infos = infer_graph(body, feed)
    shapes = {}
    for p in carried:
        res = infos[body.results[merged[p]].inputs[0].info_key]
        shapes[p] = initial[p].shape if res.shape == initial[p].shape else _loosen(initial[p].shape, res.shape)
        feed[id(params[p])] = TensorInfo(initial[p].element_type, shapes[p])
    infos = infer_graph(body, feed)
    carried_names = [b.fresh(f"carried{p}") for p in carried]
    formal = [(None, i_name, "i64", PartialShape([])), (None, c_name, "boolean", PartialShape([]))]
    formal += [(p, nm, initial[p].element_type, shapes[p]) for p, nm in zip(carried, carried_names)]

    # outputs: carried finals, then scan outputs (concatenated, or last value of a non-carried result)
    outer = {m.external: m for m in pm.outputs if m.external >= 0}
    if sorted(outer) != list(range(len(call.outputs))):
        return Unsupported("a body port map that leaves an outer port unmapped")
    scans = [k for k in range(len(call.outputs))
             if outer[k].axis is not None or outer[k].result not in [merged[p] for p in carried]]
    results = ([cond_result] if cond_result is not None else []) + [merged[p] for p in carried] + \
        [outer[k].result for k in scans]
    g = b.export_body(body, bound, results, b.fresh("loop_body"), inputs=formal)
    if isinstance(g, Unsupported):
        return g
    # body outputs declared with their element types and shapes (the exporter leaves shapes out); a
    # converter reading the ONNX Loop back (OpenVINO's) needs at least their ranks
    outs = []
    for r, o in zip(results, g.output):
        info = infos[body.results[r].inputs[0].info_key]
        outs.append(value_info(o.name, info.element_type, info.shape))
    if cond_result is not None:
        res = infos[body.results[cond_result].inputs[0].info_key]
        c = gb.node("Reshape", [gb.cast(outs[0].name, "boolean", res.element_type), gb.i64([])])
        outs = outs[1:]
    else:
        c = gb.node("Identity", [c_name])
    outs = [value_info(c, "boolean", PartialShape([]))] + outs
    nodes = gb.nodes[:n_pre] + list(g.node) + gb.nodes[n_pre:]
    del g.node[:]
    g.node.extend(nodes)
    g.initializer.extend(gb.initializers)
    del g.output[:]
    g.output.extend(outs)

    got = b.node("Loop", [trip, cond] + [initial[p] for p in carried], len(carried) + len(scans), body=g)
    got = [got] if isinstance(got, str) else got
    final = {merged[p]: name for p, name in zip(carried, got)}
    result, used = [], set()
    for k in range(len(call.outputs)):
        m = outer[k]
        if k in scans:
            stacked = got[len(carried) + scans.index(k)]
            if m.axis is None:
                y = b.node("Gather", [stacked, b.const(np.array(-1, np.int64), "i64")], axis=0)
            else:
                rank = infos[body.results[m.result].inputs[0].info_key].shape.rank
                if rank is None:
                    return Unsupported("a concatenated output of dynamic rank", f"output {k}")
                y = _join(b, stacked, m.axis % rank, rank, m.stride < 0)
        else:
            y = final[m.result]
        if y in used:
            y = b.node("Identity", [y])
        used.add(y)
        result.append(y)
    return result


def _join(b: Builder, stacked: str, ax: int, rank: int, reverse: bool) -> str:
    """Parts stacked on axis 0 ([n, d0, .., d_ax, ..]) joined along `ax` ([d0, .., n * d_ax, ..])."""
    if reverse:
        stacked = b.node("Slice", [stacked, b.i64([-1]), b.i64([np.iinfo(np.int64).min]), b.i64([0]), b.i64([-1])])
    if ax > 0:
        stacked = b.node("Transpose", [stacked], perm=list(range(1, ax + 1)) + [0] + list(range(ax + 1, rank + 1)))
    pieces = []
    if ax > 0:
        pieces.append(b.node("Shape", [stacked], start=0, end=ax))
    pieces.append(b.node("Mul", [b.node("Shape", [stacked], start=ax, end=ax + 1),
                                 b.node("Shape", [stacked], start=ax + 1, end=ax + 2)]))
    if ax + 2 <= rank:
        pieces.append(b.node("Shape", [stacked], start=ax + 2))
    shape = pieces[0] if len(pieces) == 1 else b.node("Concat", pieces, axis=0)
    return b.node("Reshape", [stacked, shape], allowzero=1)


LOWERINGS = {"If-8": _if, "Loop-5": _loop, "TensorIterator-1": _loop}
NO_ONNX: dict = {}
