"""Whole-graph shape and type inference: each node's schema shape rule in topological order, on
partial shapes (dynamic dims, intervals, dynamic rank), with values carried where they are known
(Constants, shape sub-graphs folded while they are small), and the sub-graph ops through their bodies.
`check_declared` compares the result with the dims and precisions the IR file declares. With
`strict=False` a layer whose shape rule fails gets dynamic outputs (`failed_outputs`) and inference goes
on; each such layer is recorded as a `NotInferred`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np

from ..errors import InternalError, ModelError, OprefError
from ..shapes import FOLD_LIMIT, UNBOUNDED, Dimension, PartialShape, TensorInfo, exact
from ..types import ELEMENT_TYPES, element_type, tagged
from .graph import Graph, Node, parameter_info


Infos = dict  # (id(node), output index) -> TensorInfo


@dataclass(frozen=True)
class NotInferred:
    """A layer whose outputs inference could not give (strict=False): `path` names it from the top
    graph down (the sub-graph op's name, then the body layer's: ("loop", "body_add")), `error` is what
    its shape rule raised; its outputs are `failed_outputs`."""
    path: tuple[str, ...]
    layer_id: int
    op: str
    error: OprefError

    @property
    def name(self) -> str:
        return "/".join(self.path)

    def __str__(self) -> str:
        return f"{self.name}: {self.error}"


def _wrap(node: Node, e: OprefError) -> OprefError:
    msg = str(e)
    if msg.startswith("layer "):
        return e
    return type(e)(f"{node.where()}: {msg}")


def failed_outputs(node: Node, inputs: list[TensorInfo | None]) -> list[TensorInfo]:
    """The outputs of a layer inference could not give: dynamic rank; the element type is the one its
    schema fixes for the port, else that of its first input under the same type constraint, else the
    precision the IR declares for the port, else its first input's."""
    s = node.schema
    n = len(node.outputs) or len(s.outputs)
    try:
        ports = s.ports_for(len(inputs)) if inputs else ()
    except OprefError:
        ports = ()
    outs = []
    for k in range(n):
        port = s.outputs[min(k, len(s.outputs) - 1)] if s.outputs else None
        tc = port.type_constraint if port is not None else None
        allowed = s.type_constraints.get(tc) if tc is not None else None
        et = None
        if tc is not None and allowed is None and tc in ELEMENT_TYPES:
            et = tc
        elif allowed is not None and len(allowed) == 1:
            et = allowed[0]
        if et is None:
            et = next((i.element_type for p, i in zip(ports, inputs)
                       if i is not None and p.type_constraint == tc), None)
        if et is None and k < len(node.outputs):
            et = node.outputs[k].element_type
        if et is None:
            et = next((i.element_type for i in inputs if i is not None), None)
        outs.append(TensorInfo(et or "f32", PartialShape.dynamic()))
    return outs


def infer_node(node: Node, inputs: list[TensorInfo | None], *, strict: bool = True,
               failures: dict | None = None, scope: tuple[str, ...] = ()) -> list[TensorInfo]:
    role = node.schema.role
    if role == "constant":
        return [TensorInfo(node.attrs["element_type"], node.attrs["shape"], node.value)]
    if role == "parameter":
        return [parameter_info(node)]
    if node.bodies:
        from . import subgraph
        if strict:
            return subgraph.infer(node, inputs, infer_graph)
        inner = scope + (node.name,)
        return subgraph.infer(node, inputs, lambda body, feed: infer_graph(
            body, feed, strict=False, failures=failures, scope=inner))
    return infer_call(node.schema, node.attrs, inputs)


def infer_call(schema, attrs, inputs: list[TensorInfo | None]) -> list[TensorInfo]:
    """One op's outputs (attributes already bound): its shape rule, run also at the bounds of a
    shape-giving input known only by its bounds; then, when every input's value is known and the
    outputs are small, their values by running the kernel (the one place values are folded: a shape
    rule gives shapes); else the value bounds the schema's `value_bounds` says how to pass."""
    outs = _values(schema, attrs, inputs, _infer_with_bounds(schema, attrs, inputs))
    if any(_tracked(i) for i in inputs) or schema.value_bounds == "shape":
        outs = _symbols(schema, attrs, inputs, outs)
    return outs


def _values(schema, attrs, inputs, outs):
    # a variable's value is not its initial value after the first run: ReadValue/Assign are never folded
    known = all(i is None or i.value is not None for i in inputs) and any(i is not None for i in inputs) \
        and not schema.stateful
    if known and all(o.value is None for o in outs) and _small(outs):
        from .ops import execute
        try:
            values = execute(schema, [None if i is None else tagged(np.asarray(i.value), i.element_type)
                                      for i in inputs], attrs)
        except InternalError:
            raise
        except OprefError:
            # the kernel refuses these values (an index out of range, a ratio the spec forbids): the
            # shapes stand, the value stays unknown, and running the layer reports the error
            return outs
        return [TensorInfo(o.element_type, o.shape, v) for o, v in zip(outs, values)]
    if not known and all(o.value is None for o in outs):
        return _propagate_bounds(schema, attrs, inputs, outs)
    return outs


# --- symbols and exact expressions ------------------------------------------------------------------
# Dims keep their symbols (and, in precise mode, their exact expressions) wherever a shape rule passes
# them on (shapes.py: merging unifies symbols; dim arithmetic combines expressions). Values carry them
# too, per element (OpenVINO's value symbols): ShapeOf gives its input dims'; an op that moves values
# (value_bounds "moves") moves them, by running its kernel on one code per distinct symbol or expression
# (0: none) in place of the values of its data inputs (those of its output's type constraint), as
# OpenVINO's default symbol evaluator does; an elementwise op with a `value_expr` computes expressions;
# and a shape rule reading such a value (a Reshape's target) gives each output dim that is an element's
# value that element's symbol and expression (found by running the rule with a distinct marker length
# in place of each such element).
_MARK, _MARK_STEP = 1 << 29, 4099


def _tracked(i) -> bool:
    return i is not None and (i.symbols is not None or i.exprs is not None)


def _symbols(schema, attrs, inputs, outs):
    how = schema.value_bounds
    if how == "shape":
        shape = inputs[0].shape
        if shape.rank_is_static and len(outs) == 1:
            syms = tuple(d.symbol for d in shape)
            syms = syms if any(x is not None for x in syms) else None
            exprs = tuple(exact(d) for d in shape) if any(d.expr is not None for d in shape) else None
            if syms is not None or exprs is not None:
                o = outs[0]
                outs = [TensorInfo(o.element_type, o.shape, o.value, o.bounds, syms, exprs)]
        return outs
    if how == "moves":
        outs = _moved(schema, attrs, inputs, outs)
    elif schema.value_expr is not None and any(i is not None and i.exprs is not None for i in inputs):
        outs = _computed(schema, inputs, outs)
    return _marked_dims(schema, attrs, inputs, outs)


def _elements(i: TensorInfo, what: str):
    """Per element of i's value: its symbol (what="symbols") or exact expression ("exprs"), None where
    not known; an element whose value is known is its own expression."""
    n = int(np.prod(i.shape.to_shape(), dtype=np.int64))
    got = getattr(i, what)
    if got is not None:
        return got
    if what == "exprs" and i.value is not None:
        from ..symbolic import Expr
        return tuple(Expr.const(int(v)) for v in np.asarray(i.value).reshape(-1))
    return (None,) * n


def _moved(schema, attrs, inputs, outs):
    from .ops import execute
    ports = schema.ports_for(len(inputs))
    carrier = schema.outputs[0].type_constraint
    moved = {}
    for what in ("symbols", "exprs"):
        if not any(i is not None and getattr(i, what) is not None for i in inputs):
            continue
        codes: dict = {}
        args = []
        for p, i in zip(ports, inputs):
            if i is None:
                args.append(None)
            elif p.type_constraint == carrier or len(inputs) == 1:
                if not (i.shape.is_static and element_type(i.element_type).is_integral) or \
                        np.prod(i.shape.to_shape(), dtype=np.int64) > FOLD_LIMIT:
                    return outs
                key = (lambda x: id(x.root())) if what == "symbols" else (lambda x: x)
                c = [0 if x is None else codes.setdefault(key(x), (len(codes) + 1, x))[0]
                     for x in _elements(i, what)]
                args.append(tagged(np.array(c, np.int64).reshape(i.shape.to_shape()).astype(
                    element_type(i.element_type).dtype), i.element_type))
            elif i.value is not None:
                args.append(tagged(np.asarray(i.value), i.element_type))
            else:
                return outs
        if not codes or not element_type(outs[0].element_type).is_integral:
            continue
        try:
            got = np.asarray(execute(schema, args, attrs)[0]).reshape(-1)
        except (OprefError, ValueError, TypeError, IndexError, OverflowError):
            continue
        back = {code: x for code, x in codes.values()}
        found = tuple(back.get(int(c)) for c in got)
        if any(x is not None for x in found):
            moved[what] = found
    if not moved:
        return outs
    o = outs[0]
    return [TensorInfo(o.element_type, o.shape, o.value, o.bounds, moved.get("symbols"), moved.get("exprs"))] \
        + list(outs[1:])


def _computed(schema, inputs, outs):
    """Elementwise arithmetic on exact expressions (precise mode), broadcast as the values are."""
    o = outs[0]
    if not o.shape.is_static or not all(i is not None and i.shape.is_static for i in inputs):
        return outs
    arrays = []
    for i in inputs:
        a = np.empty(int(np.prod(i.shape.to_shape(), dtype=np.int64)), object)
        a[:] = list(_elements(i, "exprs"))
        arrays.append(a.reshape(i.shape.to_shape()))
    try:
        parts = np.broadcast_arrays(*arrays)
    except ValueError:
        return outs
    f = schema.value_expr
    exprs = tuple(None if any(x is None for x in xs) else f(*xs) for xs in zip(*(p.reshape(-1) for p in parts)))
    if all(x is None for x in exprs) or len(exprs) != int(np.prod(o.shape.to_shape(), dtype=np.int64)):
        return outs
    return [TensorInfo(o.element_type, o.shape, o.value, o.bounds, o.symbols, exprs)] + list(outs[1:])


def _marked_dims(schema, attrs, inputs, outs):
    ports = schema.ports_for(len(inputs))
    marks: dict[int, tuple] = {}
    marked = list(inputs)
    for k, (p, i) in enumerate(zip(ports, inputs)):
        if not (p.const and _tracked(i)) or not i.shape.is_static:
            continue
        syms = _elements(i, "symbols")
        exprs = i.exprs or (None,) * len(syms)
        if all(x is None for x in syms) and all(e is None or e.constant is not None for e in exprs):
            continue
        lo_hi = _bounds_of(i)
        if not element_type(i.element_type).is_integral:
            continue
        if lo_hi is None:
            # no bounds (past a Floor, as OpenVINO's): the expressions alone, every element one
            if any(e is None for e in exprs):
                continue
            base = np.array([e.constant or 0 for e in exprs], np.int64).reshape(i.shape.to_shape())
            lo_hi = (base, np.where(np.array([e.constant is None for e in exprs]), INF, base.reshape(-1)))
        lo, hi = (np.asarray(b, np.int64).reshape(-1) for b in lo_hi)
        v = lo.copy()
        for e, (sym, ex) in enumerate(zip(syms, exprs)):
            if (sym is not None or (ex is not None and ex.constant is None)) and e < v.size:
                m = _MARK + _MARK_STEP * len(marks)
                marks[m] = (sym, ex, int(lo[e]), None if hi[e] >= INF else int(hi[e]))
                v[e] = m
        marked[k] = TensorInfo(i.element_type, i.shape, v.reshape(np.shape(lo_hi[0])).astype(
            element_type(i.element_type).dtype))
    if not marks:
        return outs
    # the rule on the marked values; where the data's own dims contradict a marker (a Reshape's -1),
    # on data of dynamic rank
    loose = [i if i is None or p.const else TensorInfo(i.element_type, PartialShape.dynamic())
             for p, i in zip(ports, marked)]
    for attempt in (marked, loose):
        try:
            got = schema.infer_bound(attempt, attrs)
            break
        except OprefError:
            continue
    else:
        return outs
    result = []
    for o, g in zip(outs, got):
        if not (o.shape.rank_is_static and g.shape.rank_is_static and len(o.shape) == len(g.shape)):
            result.append(o)
            continue
        dims = list(o.shape)
        for j, (d, m) in enumerate(zip(dims, g.shape)):
            mark = marks.get(m.lo) if m.is_static else None
            if mark is not None and ((d.lo == mark[2] and d.hi == mark[3]) or (mark[0] is None and not d.is_static)):
                if mark[0] is not None:
                    d = d.with_symbol(mark[0])
                if mark[1] is not None and d.expr is None:
                    d = d.with_expr(mark[1])
                dims[j] = d
        result.append(TensorInfo(o.element_type, PartialShape(dims), o.value, o.bounds, o.symbols, o.exprs))
    return result


def _small(outs) -> bool:
    return all(o.shape.is_static for o in outs) and \
        sum(int(np.prod(o.shape.to_shape(), dtype=object)) for o in outs) <= FOLD_LIMIT


# --- value bounds ------------------------------------------------------------------------------------
# Like OpenVINO's evaluate_lower/evaluate_upper, as each schema's `value_bounds` declares: ShapeOf gives
# the bounds of its input's dims; ops that only move values map lower to lower and upper to upper;
# monotonic elementwise arithmetic takes the extremes over the corners of its inputs' bounds. A shape
# rule that needs a value known only by its bounds is evaluated at both, and the two shapes give each
# dim's interval.
INF = UNBOUNDED               # an upper bound at or beyond this is unbounded


def _bounds_of(info: TensorInfo | None):
    if info is None:
        return None
    if info.value is not None:
        v = np.asarray(info.value)
        return v, v
    return info.bounds


def _propagate_bounds(s, attrs, inputs, outs):
    from .ops import execute
    how = s.value_bounds
    if how is None or any(o.element_type not in _INTEGERS for o in outs) or not _small(outs):
        return outs
    if how == "shape":
        shape = inputs[0].shape
        if not shape.rank_is_static:
            return outs
        lo = np.array([d.lo for d in shape], np.int64)
        hi = np.array([INF if d.hi is None else d.hi for d in shape], np.int64)
        return [_bounded(outs[0], lo, hi)]
    ins = [_bounds_of(i) for i in inputs]
    if any(i is not None and b is None for i, b in zip(inputs, ins)):
        return outs
    try:
        if how == "moves":
            lo = execute(s, [None if b is None else _as(b[0], i) for b, i in zip(ins, inputs)], attrs)
            hi = execute(s, [None if b is None else _as(b[1], i) for b, i in zip(ins, inputs)], attrs)
        elif how == "monotonic" or (how == "quotient" and not np.any((ins[1][0] <= 0) & (ins[1][1] >= 0))):
            lo, hi = _corners(s, attrs, ins, outs[0].element_type)
        else:
            return outs
    except (OprefError, ValueError, TypeError, IndexError, OverflowError, FloatingPointError):
        return outs
    if how == "moves" and outs[0].element_type != inputs[0].element_type:
        # (Convert) a bound the output type cannot hold would wrap (2**40 -> 0 in i32: [?] became [0]): unbounded
        # stays unbounded, any other unrepresentable bound gives no bounds at all
        src_lo, src_hi = (np.asarray(b, np.int64) for b in ins[0])
        lo0, hi0 = np.asarray(lo[0]).astype(np.int64), np.asarray(hi[0]).astype(np.int64)
        if np.any(lo0 != src_lo) or np.any((hi0 != src_hi) & (src_hi < INF)):
            return outs
        lo, hi = [lo0], [np.where(src_hi >= INF, INF, hi0)]
    result = []
    for o, l, h in zip(outs, lo, hi):
        l, h = np.asarray(l, np.int64), np.asarray(h, np.int64)
        # an i32/u32 value at its type's maximum is an unbounded one clamped on the way in (_as)
        top = INF if o.element_type not in ("i32", "u32") else int(np.iinfo(element_type(o.element_type).dtype).max)
        h = np.where((h < l) | (h >= min(INF, top)), INF, h)
        result.append(_bounded(o, l, h))
    return result


def _bounded(o: TensorInfo, lo, hi) -> TensorInfo:
    """o with value bounds lo, hi; bounds that meet are its value (a static shape's ShapeOf)."""
    if np.array_equal(lo, hi):
        return TensorInfo(o.element_type, o.shape, lo.astype(element_type(o.element_type).dtype))
    return TensorInfo(o.element_type, o.shape, bounds=(lo, hi))


def _corners(s, attrs, ins, out_type):
    """Bounds of a monotonic op from its values at every corner of its inputs' bounds, computed in i64
    whatever the element type (an i32 corner such as 2**31-1 + 1 would wrap: [?] + 1 gave [-2**31, 1]
    and a Range after it [0]). A corner at or beyond INF in size (an unbounded input; f64 says where i64
    would overflow, and INF - 1 is unbounded too) is +-INF; bounds the output type cannot hold (its run
    would wrap) become unbounded."""
    from .ops import execute
    n = len(ins)
    exact, approx = [], []
    with np.errstate(invalid="ignore"):      # inf * 0 is nan: that corner's exact value stands
        for j in range(1 << n):
            at = [np.clip(np.asarray(b[j >> k & 1], np.int64), -INF, INF) for k, b in enumerate(ins)]
            exact.append(np.asarray(execute(s, [tagged(a, "i64") for a in at], attrs)[0], np.int64))
            approx.append(np.asarray(execute(s, [tagged(np.where(np.abs(a) >= INF, np.sign(a) * np.inf, a), "f64")
                                                 for a in at], attrs)[0]))
    exact, approx = np.array(exact), np.array(approx)
    # with +-inf for the unbounded ends, f64 says which corners are unbounded (INF - 1 is, and INF // 4)
    exact = np.where(np.abs(approx) >= INF, np.sign(approx).astype(np.int64) * INF, np.clip(exact, -INF, INF))
    lo, hi = exact.min(axis=0), exact.max(axis=0)
    info = np.iinfo(element_type(out_type).dtype)
    wraps = (lo < info.min) | ((hi > info.max) & (hi < INF))
    # an unbounded upper bound through arithmetic takes the lower one down to 0 (if above): OpenVINO's
    # upper bound overflows there, and a dim read from it is [?] ([1..] + 3 gives [?], not [4..])
    lo = np.where(hi >= INF, np.minimum(lo, 0), lo)
    return [np.where(wraps, info.min, lo)], [np.where(wraps, INF, hi)]


def _as(a, info: TensorInfo):
    from ..types import element_type
    dtype = element_type(info.element_type).dtype
    a = np.asarray(a)
    if a.dtype != dtype:
        info_max = np.iinfo(dtype).max if dtype.kind in "iu" else None
        a = np.minimum(a, info_max).astype(dtype) if info_max is not None else a.astype(dtype)
    return a


def _infer_with_bounds(s, attrs, inputs):
    """The shape rule; where a shape-giving input is known only by its bounds, the rule is also run at
    the lower and the upper bound and each output dim becomes the interval between the two."""
    outs = s.infer_bound(inputs, attrs)
    ports = s.ports_for(len(inputs))
    bounded = [k for k, (p, i) in enumerate(zip(ports, inputs))
               if p.const and p.bounds and i is not None and i.value is None and i.bounds is not None]
    if not bounded:
        return outs
    try:
        at = []
        for side in (0, 1):
            # data values are dropped: folding at a bound (a 2**40-element Broadcast) is not inference
            ins = [i if i is None or p.const or i.value is None else TensorInfo(i.element_type, i.shape)
                   for p, i in zip(ports, inputs)]
            for k in bounded:
                i = inputs[k]
                # an unbounded upper bound stays INF (an i32 value would clamp it to a finite 2**31-1)
                b = i.bounds[side]
                ins[k] = TensorInfo(i.element_type, i.shape, np.asarray(b, np.int64) if side and np.any(
                    np.asarray(b) >= INF) else _as(b, i))
            at.append(s.infer_bound(ins, attrs))
    except (OprefError, ValueError, TypeError, OverflowError):
        return outs
    # a dim computed from an unbounded value (INF // 2 + 1 for RDFT) is unbounded too
    huge = INF >> 10 if any(np.any(np.asarray(inputs[k].bounds[1]) >= INF) for k in bounded) else INF
    result = []
    for o, a, b in zip(outs, *at):
        if not (a.shape.rank_is_static and b.shape.rank_is_static and len(a.shape) == len(b.shape)) or \
                (o.shape.rank_is_static and len(o.shape) != len(a.shape)):
            result.append(o)
            continue
        dims = []
        for k, (x, y) in enumerate(zip(a.shape, b.shape)):
            lo = min(x.lo, y.lo)
            hi = None if x.hi is None or y.hi is None or max(x.hi, y.hi) >= huge else max(x.hi, y.hi)
            d = Dimension(lo, hi)
            if o.shape.rank_is_static:
                d = o.shape[k].merge(d) or o.shape[k]
            dims.append(d)
        result.append(TensorInfo(o.element_type, PartialShape(dims)))
    return result


def infer_graph(graph: Graph, parameters: Mapping[int, TensorInfo] | None = None, *, strict: bool = True,
                failures: dict | None = None, scope: tuple[str, ...] = ()) -> Infos:
    """TensorInfo of every node output. `parameters` maps id(Parameter node) to the info to use instead
    of the Parameter's declared shape (new input shapes, or a body's outer inputs).
    strict=False: a layer whose inference raises an OprefError gets `failed_outputs` and inference goes
    on, sub-graph bodies included; `failures` (a dict the caller gives) receives a `NotInferred` per such
    layer, keyed by its path (`scope` + its name) and id (a body inferred twice records a layer once)."""
    parameters = parameters or {}
    infos: Infos = {}
    seen: dict = {}      # _memo_key -> outputs: layers alike in op, attributes and inputs are inferred once
    for node in graph.nodes:
        ins = [None if s is None else infos[s.info_key] for s in node.inputs]
        try:
            if id(node) in parameters:
                outs = [parameters[id(node)]]
            else:
                memo = _memo_key(node, ins)
                outs = None if memo is None else seen.get(memo[0])
                if outs is None:
                    if strict:
                        outs = infer_node(node, ins)
                    else:
                        outs = infer_node(node, ins, strict=False, failures=failures, scope=scope)
                    if memo is not None and _reusable(outs, memo[1]):
                        seen[memo[0]] = outs
            if len(outs) < len(node.outputs):
                raise ModelError(f"{node.where()}: has {len(node.outputs)} output ports, but its op and attributes "
                                 f"give {len(outs)} outputs")
        except OprefError as e:
            if strict:
                raise _wrap(node, e) from e.__cause__     # (an InternalError keeps its chain)
            outs = failed_outputs(node, ins)
            if failures is not None:
                path = scope + (node.name,)
                failures[(path, node.id)] = NotInferred(path, node.id, node.op, _wrap(node, e))
        for k, o in enumerate(outs):
            infos[(id(node), k)] = o
    return infos


def _memo_key(node: Node, ins: list[TensorInfo | None]):
    """What a layer's inference depends on, when that is only its op version, its bound attributes
    and its inputs' element types and shapes (no input values or bounds, no body, not a Constant or
    Parameter): a hashable key, else None. The attributes' types are part of the key (True == 1)."""
    s = node.schema
    if s.role in ("constant", "parameter") or node.bodies:
        return None
    for i in ins:        # (symbols are not part of a shape's equality: a layer with them is inferred itself)
        if _tracked(i) or (i is not None and i.shape.named):
            return None
    key = [s]
    valued = unvalued = False
    for k, i in enumerate(ins):
        if i is None:
            key.append(None)
        elif i.bounds is not None:
            return None
        elif i.value is None:
            unvalued = True
            key.append((i.element_type, i.shape))
        else:
            # a known value (weights) on a port that is not `const` is, by the schema's own declaration,
            # not read by its shape rule for the output shapes; a rule that folds values gives outputs
            # with values, which _reusable never shares
            if s.shape is None or _const_ports(s, len(ins))[k]:
                return None
            valued = True
            key.append((i.element_type, i.shape, "valued"))
    if valued and not unvalued:           # every input known: inference folds the values
        return None
    for k, v in node.attrs.items():
        t = type(v)
        if t is tuple:
            types = tuple(map(type, v))
            key.append((k, types, repr(v) if float in types else v))     # (repr: -0.0 is not 0.0)
        elif t is float:
            key.append((k, t, repr(v)))
        elif t in _KEYED:
            key.append((k, t, v))
        else:
            return None
    key = tuple(key)
    try:
        hash(key)
    except TypeError:
        return None
    return key, valued


_KEYED = (int, str, bool, PartialShape)
_INTEGERS = frozenset(("i32", "i64", "u32", "u64", "i16", "u16", "i8", "u8"))
_CONST_PORTS: dict = {}


def _const_ports(s, n: int) -> tuple[bool, ...]:
    got = _CONST_PORTS.get((s, n))
    if got is None:
        got = _CONST_PORTS[(s, n)] = tuple(p.const for p in s.ports_for(n))
    return got


def _reusable(outs, valued: bool) -> bool:
    """Outputs inferred with input values left out of the key are reusable when nothing about them
    came from those values: no folded value, no integer output (bounds propagate through those)."""
    return not valued or all(o.value is None and o.bounds is None and o.element_type in _FLOATS for o in outs)


_FLOATS = frozenset(("f16", "bf16", "f32", "f64"))


def _declared(dims: tuple[int, ...]) -> str:
    return "[" + ",".join("?" if d == -1 else str(d) for d in dims) + "]"


def _agrees(dims: tuple[int, ...], shape: PartialShape) -> bool:
    """Declared <dim>s (-1 for every non-static dim; none for a scalar or a dynamic rank) against an
    inferred shape."""
    sd = shape.dims
    if sd is None:
        return True
    if len(dims) != len(sd):
        return False
    for d, x in zip(dims, sd):
        if d != -1 and (d < x.lo or (x.hi is not None and d > x.hi)):
            return False
    return True


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
