"""Running and inferring one op: `run_op` and `infer_op` of the public API.

A call is validated against the schema (attributes, input count and types), its output shapes are
inferred from the concrete inputs (so every rejection of the shape rule also guards the kernel),
and then the kernel runs. Composite ops (the `tf` domain) run their body, op by op, through the
same path.
"""
from __future__ import annotations

import re
from collections import OrderedDict
from typing import Any, Mapping, Sequence

import numpy as np

from ..errors import InputError, InternalError, InvalidAttributeError, OprefError, internal_errors
from ..opset import get_schema
from ..opset.schema import OpSchema, as_keywords
from ..shapes import PartialShape, TensorInfo
from ..types import ELEMENT_TYPES, UNTOLD, TypedArray, element_type, tagged, typed
from . import limits
from .kernels import KERNELS, WORKSPACE
from .limits import check_size, check_kernel_bytes


def _as_array(x, schema: OpSchema, port_name: str, et: str | None = None) -> np.ndarray:
    try:
        a = np.asanyarray(x) if et is None else typed(x, et)   # (a TypedArray keeps its element type)
        element_type(a)
    except (OprefError, TypeError, ValueError) as e:
        raise InputError(f"{schema.versioned_name}: input {port_name!r} is not a tensor of a supported "
                         f"element type ({e})") from None
    return a


def _as_info(x, schema: OpSchema, port, et: str | None = None) -> TensorInfo | None:
    if x is None:
        return None
    if isinstance(x, TensorInfo):
        return x if et is None else TensorInfo(et, x.shape, x.value if x.value is None else typed(x.value, et),
                                               x.bounds)
    if isinstance(x, PartialShape):
        raise InputError(f"{schema.versioned_name}: input {port.name!r} is a shape; pass "
                         f"opref.TensorInfo(element_type, shape)")
    return TensorInfo.of_array(_as_array(x, schema, port.name, et))


def _element_types(schema: OpSchema, ports, element_types) -> list[str | None]:
    """`element_types=` of run_op/infer_op: one name (or None) per input, or {port name or index: name}."""
    if element_types is None:
        return [None] * len(ports)
    if isinstance(element_types, Mapping):
        names = {p.name: i for i, p in enumerate(ports)}
        out: list[str | None] = [None] * len(ports)
        for k, et in element_types.items():
            i = names.get(k, k if isinstance(k, int) and 0 <= k < len(ports) else None)
            if i is None:
                raise InputError(f"{schema.versioned_name}: element_types names {k!r}, which is not one of its "
                                 f"{len(ports)} input(s) ({', '.join(p.name for p in ports)})")
            out[i] = et
        return out
    out = list(element_types)
    if len(out) != len(ports):
        raise InputError(f"{schema.versioned_name}: element_types has {len(out)} entries for {len(ports)} input(s)")
    return out


def check_call(schema: OpSchema, inputs, attrs, *, infos: bool = False) -> None:
    """The argument types of run_op/infer_op: inputs a list/tuple (one entry per input port, None
    only for an absent optional input), attrs a mapping or None."""
    name = schema.versioned_name
    if isinstance(inputs, np.ndarray):
        raise InputError(f"{name}: inputs must be a list of arrays, one per input port; got an ndarray of "
                         f"shape {list(inputs.shape)} (write [x] for one input)")
    if isinstance(inputs, (TensorInfo, PartialShape)) or not isinstance(inputs, (list, tuple)):
        raise InputError(f"{name}: inputs must be a list of {'arrays or TensorInfos' if infos else 'arrays'}, "
                         f"one per input port; got {type(inputs).__name__}")
    if attrs is not None and not isinstance(attrs, Mapping):
        raise InvalidAttributeError(f"{name}: attrs must be a mapping of attribute name to value (a dict); "
                                    f"got {type(attrs).__name__}")
    ports = schema.ports_for(len(inputs))
    for x, p in zip(inputs, ports):
        if x is None and not p.optional:
            raise InputError(f"{name}: input {p.name!r} is None, but only an absent optional input may be")
        if isinstance(x, (Mapping, set)):
            raise InputError(f"{name}: input {p.name!r} is a {type(x).__name__}, not a tensor")


def _untold_hint(schema: OpSchema, ports, infos, e: OprefError) -> OprefError:
    """An error on inputs that may be u1/nf4 held in plain uint8/uint4 arrays (which are u8/u4) says so."""
    hints = []
    for p, info in zip(ports, infos):
        if info is None or p.type_constraint not in schema.type_constraints:
            continue
        allowed = schema.type_constraints[p.type_constraint]
        for untold in UNTOLD:
            if untold in allowed and element_type(untold).dtype == element_type(info.element_type).dtype and \
                    info.element_type != untold and re.search(rf"\b{info.element_type}\b", str(e)):
                hints.append(f"input {p.name!r} has element type {info.element_type}, as every plain "
                             f"{element_type(untold).dtype} array has; if it holds {untold}, pass "
                             f"opref.typed(x, {untold!r}) or element_types={{{p.name!r}: {untold!r}}}")
    if not hints:
        return e
    return type(e)(f"{e} ({'; '.join(hints)})")


def infer_op(op, inputs: Sequence, attrs: Mapping[str, Any] | None = None, *,
             element_types=None, mode: str = "openvino") -> list[TensorInfo]:
    """Output TensorInfos of one op. Inputs are TensorInfos (shape and type only) or arrays
    (type, shape and value known: used by shape-giving inputs). `element_types` (one name or None
    per input, or {port name: name}) says the element type of arrays whose dtype cannot (u1, nf4).
    A dim given by a name ("N") carries a symbol, one per name in the call; mode="precise" also gives
    exact expressions of the output dims in those names (as `Model.infer_shapes`)."""
    schema = get_schema(op)
    check_call(schema, inputs, attrs, infos=True)
    ports = schema.ports_for(len(inputs))
    ets = _element_types(schema, ports, element_types)
    infos = [_as_info(x, schema, p, et) for x, p, et in zip(inputs, ports, ets)]
    try:
        # as whole-graph inference infers a layer: with every input an array, small outputs get their
        # values by running the kernel
        from .infer import infer_call
        from ..shapes import share_names
        if mode not in ("openvino", "precise"):
            raise InputError(f"infer_op: mode must be 'openvino' or 'precise'; got {mode!r}")
        shared = iter(share_names([i.shape for i in infos if i is not None], mode == "precise"))
        infos = [i if i is None or (s := next(shared)) is i.shape else
                 TensorInfo(i.element_type, s, i.value, i.bounds, i.symbols, i.exprs) for i in infos]
        return infer_call(schema, schema.bind_attrs(attrs), infos)
    except OprefError as e:
        raise _untold_hint(schema, ports, infos, e) from e.__cause__     # (an InternalError keeps its chain)




def input_infos(schema: OpSchema, arrays: list) -> list[TensorInfo | None]:
    """What the shape rule sees of concrete inputs: type and shape, and the value only on the ports
    whose value it needs (`const`: axes, target shapes, ...), as OpenVINO's shape inference does.
    (Values elsewhere would only make the rule fold results the kernel is about to compute.)"""
    ports = schema.ports_for(len(arrays))
    return [None if a is None else TensorInfo(element_type(a).name, a.shape, a if p.const else None)
            for a, p in zip(arrays, ports)]


def infer_outputs(schema: OpSchema, arrays: list, attrs: Mapping[str, Any],
                  limit: "limits.Limits | None" = None) -> list[TensorInfo]:
    """The output infos of one call on concrete inputs: the shape rule (every rejection guards the
    kernel), no static output beyond max_tensor_bytes, and the kernel's allocation (outputs plus the
    temporaries its WORKSPACE entry estimates) within max_kernel_bytes (runtime/limits.py; `limit`:
    the limits in force, read from the context and environment when not given)."""
    infos = schema.infer(input_infos(schema, arrays), attrs)
    limit = limit or limits.current()
    name = schema.versioned_name
    out_bytes, out_shapes = 0, []
    for port, info in zip(schema.output_ports(len(infos)), infos):
        dtype = element_type(info.element_type).dtype
        if info.shape.is_static:
            shape = info.shape.to_shape()
            out_bytes += check_size(name, f"output {port.name!r}", shape, dtype, limit)
            out_shapes.append(tuple(shape))
        else:                                    # a dynamic output: estimated as large as the largest input
            out_shapes.append(None)
            out_bytes += max((a.size for a in arrays if a is not None), default=1) * max(dtype.itemsize, 1)
    # One static output and no temporaries: one tensor, bounded by max_tensor_bytes above.
    estimate = WORKSPACE.get(name)
    if estimate is not None or len(out_shapes) != 1 or out_shapes[0] is None:
        workspace = 0
        if estimate is not None:
            with internal_errors(name, "workspace estimate"):
                workspace = int(estimate(arrays, out_shapes, as_keywords(attrs)))
        check_kernel_bytes(name, out_bytes, workspace, limit)
    return infos


def execute(schema: OpSchema, arrays: list, attrs: Mapping[str, Any], *, infos: list[TensorInfo] | None = None,
            keywords: Mapping[str, Any] | None = None) -> list[np.ndarray]:
    """One op on arrays with attributes already bound: the shape rule first (`infer_outputs`; a caller
    that already has its result for these input types, shapes and const values passes `infos`), then
    the kernel or body; outputs are checked against the inferred types and shapes."""
    if infos is None:
        infos = infer_outputs(schema, arrays, attrs)
    ports = schema.output_ports(len(infos))
    keywords = as_keywords(attrs) if keywords is None else keywords
    if schema.body is not None:
        with internal_errors(schema.versioned_name, "composite body"):
            outs = _timed_body(schema.body, arrays, keywords)
    else:
        kernel = KERNELS.get(schema.versioned_name)
        if kernel is None:
            raise OprefError(f"{schema.versioned_name}: no kernel is registered")
        with internal_errors(schema.versioned_name, "kernel"):
            outs = kernel(*arrays, **keywords)
    return checked_outputs(schema, ports, infos, outs)


def checked_outputs(schema: OpSchema, ports, infos: list[TensorInfo], outs) -> list[np.ndarray]:
    """A kernel's outputs as the op gives them: plain arrays of the inferred element types (u1/nf4
    tagged), each checked against the shape rule's answer."""
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    result = []
    for port, info, out in zip(ports, infos, outs):
        out = np.asarray(out)
        want = ELEMENT_TYPES[info.element_type].dtype
        if out.dtype != want and not (want.kind == "U" and out.dtype.kind in "UT"):
            out = out.astype(want)
        out = tagged(out, info.element_type)      # u1/nf4 outputs say their type
        # The kernel and the shape rule are two readings of one spec: they must agree.
        if not info.shape.compatible(out.shape):
            raise InternalError(f"{schema.versioned_name}: kernel output {port.name!r} has shape "
                                f"{list(out.shape)}, shape rule says {info.shape}; this is a bug in opref")
        result.append(out)
    return result


class BoundCall:
    """One op bound to its keyword attributes and to the shape rule's answer for one input signature
    (element types, shapes, values on `const` ports), prepared once: a call runs the kernel (or the
    composite body) and checks its outputs against that answer, the usual case (a plain array of the
    inferred dtype and static shape) in a few comparisons, anything else through `checked_outputs`.
    A call may raise anything the kernel raises, unwrapped: callers that bind calls redo a failed
    call on their full path (`execute`), which words the error as it always has."""

    __slots__ = ("schema", "run", "keywords", "ports", "infos", "expect", "dtype", "shape", "static")

    def __init__(self, schema: OpSchema, infos: list[TensorInfo], keywords: Mapping[str, Any]):
        self.schema, self.infos, self.keywords = schema, infos, keywords
        self.ports = schema.output_ports(len(infos))
        if schema.body is not None:
            body = schema.body
            self.run = lambda *arrays, **kw: _timed_body(body, arrays, kw)
        else:
            self.run = KERNELS.get(schema.versioned_name)     # None: no kernel (the full path says so)
        # (dtype, static shape) per output where an output can be taken as the kernel gives it
        expect = []
        self.static = True                    # every output shape static
        for info in infos:
            if not info.shape.is_static:
                self.static = False
                expect = None
            elif expect is not None:
                et = ELEMENT_TYPES[info.element_type]
                if info.element_type in UNTOLD or et.dtype.kind == "U":
                    expect = None
                else:
                    expect.append((et.dtype, tuple(info.shape.to_shape())))
        self.expect = expect
        # one output: its dtype and shape (shape None never matches: the output is checked in full)
        self.dtype, self.shape = expect[0] if expect is not None and len(expect) == 1 else (None, None)

    def __call__(self, arrays) -> list[np.ndarray]:
        outs = self.run(*arrays, **self.keywords)
        if type(outs) is np.ndarray and outs.shape == self.shape and outs.dtype == self.dtype:
            return [outs]
        return self.outputs(outs)

    def outputs(self, outs) -> list[np.ndarray]:
        expect = self.expect
        if expect is not None and type(outs) in (list, tuple) and len(outs) == len(expect):
            for o, (dtype, shape) in zip(outs, expect):
                if type(o) is not np.ndarray or o.shape != shape or o.dtype != dtype:
                    break
            else:
                return list(outs)
        return checked_outputs(self.schema, self.ports, self.infos, outs)


# --- run_op's prepared calls ---------------------------------------------------------------------------
# A repeated run_op call (same op, attributes, input element types and shapes, and values on the ports
# whose value the shape rule reads) reuses its validation and shape inference: the key is built from the
# call's arguments in a few microseconds, and a call whose arguments cannot be keyed cheaply (lists as
# tensors, element_types=, unusual attribute values) takes the full path. An entry is made only by a
# full call that succeeded, so a key that hits had passed every check for exactly that signature.
CALL_CACHE_SIZE = 512
_limits_scope = limits._scope.get           # the opref.limits context and run deadline in force (or None)
_CALLS: "OrderedDict[tuple, tuple]" = OrderedDict()
_SIMPLE = (int, float, bool, str, bytes, type(None))


class _Unkeyable(Exception):
    pass


def _frozen(v):
    """An attribute value as a hashable key that keeps its type (1, 1.0 and True bind differently)."""
    t = type(v)
    if t in _SIMPLE:
        return t, v
    if t is list or t is tuple:
        return t, tuple(_frozen(e) for e in v)
    if t is np.ndarray or isinstance(v, np.generic):
        return t, v.dtype.str, v.shape, v.tobytes()
    raise _Unkeyable


def _call_key(op, inputs, attrs, token):
    if type(op) is not str or type(inputs) not in (list, tuple) or (attrs is not None and type(attrs) is not dict):
        return None
    key = [op, token]            # (prepared calls are checked under the limits of one opref.limits context)
    for x in inputs:
        t = type(x)
        if t is np.ndarray:
            key.append((x.dtype, x.shape))
        elif x is None:
            key.append(None)
        elif t is TypedArray:
            key.append((x.dtype, x.shape, x.element_type))
        else:
            return None
    if attrs:
        try:
            key.append(tuple(sorted((k, _frozen(v)) for k, v in attrs.items())))
        except (_Unkeyable, TypeError):
            return None
    return tuple(key)


def _cached_call(key, inputs):
    entry = _CALLS.get(key)
    if entry is None:
        return None
    const_ports, by_values = entry
    values = tuple(inputs[k].tobytes() for k in const_ports if inputs[k] is not None) if const_ports else ()
    bound = by_values.get(values)
    if bound is None:
        return None
    if type(bound) is tuple:                  # second call of this signature: bind it now
        bound = by_values[values] = BoundCall(bound[0], bound[1], as_keywords(bound[2]))
    if bound.run is None:
        return None
    try:
        _CALLS.move_to_end(key)
    except KeyError:           # another thread has just evicted it
        pass
    try:
        return bound(inputs)
    except Exception:          # the full path words the error (or, if it passes after all, computes)
        return None


def _remember(key, schema: OpSchema, ports, arrays, infos, attrs) -> None:
    const_ports = tuple(k for k, p in enumerate(ports) if p.const)
    values = tuple(arrays[k].tobytes() for k in const_ports if arrays[k] is not None) if const_ports else ()
    entry = _CALLS.get(key)
    if entry is None:
        entry = _CALLS[key] = (const_ports, {})
        while len(_CALLS) > CALL_CACHE_SIZE:
            try:
                _CALLS.popitem(last=False)
            except KeyError:
                break
    by_values = entry[1]
    if len(by_values) >= 16:                  # one signature with ever new shape-giving values
        by_values.clear()
    by_values[values] = (schema, infos, attrs)     # bound (a BoundCall) when the signature comes again


def clear_call_cache() -> None:
    """Forgets every prepared run_op call (tests; memory)."""
    _CALLS.clear()


def run_op(op, inputs: Sequence, attrs: Mapping[str, Any] | None = None, *,
           element_types=None) -> list[np.ndarray]:
    """Computes one op on NumPy arrays; returns one array per output. `element_types` (one name or
    None per input, or {port name: name}) says the element type of arrays whose dtype cannot: u1
    (uint8 0/1) and nf4 (uint4 codes); an `opref.typed` array says it itself. u1/nf4 outputs are
    TypedArrays. A repeated call with the same signature reuses its validation and shape inference."""
    scope = _limits_scope()
    if scope is None:
        key = _call_key(op, inputs, attrs, None) if element_types is None else None
    else:
        if scope.deadline is not None and limits.clock() > scope.deadline:
            raise limits.over_time(op if type(op) is str else "run_op")    # (a composite op's body in a timed run)
        key = _call_key(op, inputs, attrs, scope.limits) if element_types is None else None
    if key is not None:
        outs = _cached_call(key, inputs)
        if outs is not None:
            return outs
    schema = get_schema(op)
    check_call(schema, inputs, attrs)
    ports = schema.ports_for(len(inputs))
    ets = _element_types(schema, ports, element_types)
    arrays = [None if x is None else _as_array(x, schema, p.name, et) for x, p, et in zip(inputs, ports, ets)]
    attrs = schema.bind_attrs(attrs)
    try:
        infos = infer_outputs(schema, arrays, attrs)
    except OprefError as e:
        raise _untold_hint(schema, ports, input_infos(schema, arrays), e) from e.__cause__
    outs = execute(schema, arrays, attrs, infos=infos)
    if key is not None:
        _remember(key, schema, ports, arrays, infos, attrs)
    return outs


def _timed_body(body, arrays, keywords):
    """A composite op's body, op by op, under the time budget (checked before each op; a body run
    inside a timed run shares its deadline)."""
    started = limits.start_run(limits.current()) if limits.deadline() is None else None
    try:
        return body(Eager(), *arrays, **keywords)
    finally:
        limits.end_run(started)


class Eager:
    """Runs a composite op's body op by op on NumPy arrays."""

    @staticmethod
    def op(name: str, *inputs, **attrs) -> np.ndarray:
        return run_op(name, inputs, attrs)[0]

    @staticmethod
    def const(value, dtype=np.int64) -> np.ndarray:
        return np.asarray(value, dtype=dtype)
