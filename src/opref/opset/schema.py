"""Operator schemas as data: frozen dataclasses, and the validation of a call against them.

An `OpSchema` says everything opref knows about one op version except how to compute it: its
attributes (kind, default, allowed values), its ports (type constraint, optional, variadic, whether
the shape rule needs the port's value), its type constraints, and its shape rule. The IR reader,
writer, CLI, docs and conformance generator read these facts from here and nowhere else.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from ..errors import AttributeError_, InputError, ShapeInferenceError, internal_errors
from ..shapes import PartialShape, TensorInfo
from ..types import ELEMENT_TYPES


# --- attribute kinds ----------------------------------------------------------------------------
@dataclass(frozen=True)
class AttrKind:
    """How an attribute's value looks in Python and in IR XML text ("1,2", "true", "f32")."""
    name: str
    coerce: Callable[[Any], Any] = field(repr=False)   # Python value -> canonical value
    parse: Callable[[str], Any] = field(repr=False)    # IR text -> canonical value
    format: Callable[[Any], str] = field(repr=False)   # canonical value -> IR text

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        # reads as the kind's name (`int`, `ints`), so an Attr's repr reads `Attr(name='axis', type=int, ...)`
        return self.name


def _bool(v):
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    raise TypeError("expected a bool")


def _int(v):
    if isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)):
        return int(v)
    raise TypeError("expected an int")


def _float(v):
    if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_)):
        return float(v)
    raise TypeError("expected a number")


def _str(v):
    if isinstance(v, str):
        return v
    raise TypeError("expected a string")


def _list_of(item):
    def coerce(v):
        if isinstance(v, (str, bytes)) or not hasattr(v, "__iter__"):
            raise TypeError("expected a list")
        return tuple(item(x) for x in (v.tolist() if isinstance(v, np.ndarray) else v))
    return coerce


def _parse_bool(s):
    t = s.strip().lower()
    if t in ("true", "1"):
        return True
    if t in ("false", "0"):
        return False
    raise ValueError(f"{s!r} is not a bool (true/false)")


def _parse_int(s):
    return int(s.strip())


def _parse_list(item):
    def parse(s):
        s = s.strip()
        return () if s == "" else tuple(item(p) for p in s.split(","))
    return parse


def _element_type(v):
    if isinstance(v, str) and v in ELEMENT_TYPES:
        return v
    raise TypeError(f"expected an element type name ({', '.join(ELEMENT_TYPES)})")


def _fmt_float(x):
    return repr(float(x))


BOOL = AttrKind("bool", _bool, _parse_bool, lambda v: "true" if v else "false")
INT = AttrKind("int", _int, _parse_int, str)
FLOAT = AttrKind("float", _float, lambda s: float(s.strip()), _fmt_float)
STRING = AttrKind("string", _str, lambda s: s, lambda v: v)
INTS = AttrKind("ints", _list_of(_int), _parse_list(_parse_int), lambda v: ",".join(map(str, v)))
FLOATS = AttrKind("floats", _list_of(_float), _parse_list(lambda p: float(p.strip())),
                  lambda v: ",".join(map(_fmt_float, v)))
STRINGS = AttrKind("strings", _list_of(_str), _parse_list(lambda p: p.strip()), lambda v: ",".join(v))
ELEMENT_TYPE = AttrKind("element_type", _element_type, lambda s: _element_type(s.strip()), str)
SHAPE = AttrKind("shape", lambda v: v if isinstance(v, PartialShape) else PartialShape(v),
                 lambda s: PartialShape(s), lambda v: str(v)[1:-1] if v.rank_is_static else "...")


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED = _Required()


@dataclass(frozen=True)
class Attr:
    name: str
    type: AttrKind
    default: Any = REQUIRED
    allowed: tuple | None = None      # allowed values (enums), or None for any value of the kind
    doc: str = ""

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    @property
    def python_name(self) -> str:
        """The keyword a shape rule or kernel takes it by (IR's `exclude-pad` -> `exclude_pad`)."""
        return python_name(self.name)


def python_name(name: str) -> str:
    return name.replace("-", "_").replace(".", "_")


def as_keywords(attrs: Mapping[str, Any]) -> dict[str, Any]:
    """Bound attributes as keyword arguments of shape rules, kernels and bodies."""
    return {python_name(k): v for k, v in attrs.items()}


@dataclass(frozen=True)
class Port:
    name: str
    type_constraint: str              # a key of the schema's type_constraints, or an element type
    optional: bool = False
    variadic: bool = False            # the last input may repeat (Concat); optional and variadic: zero or more (If)
    const: bool = False               # the shape rule needs this port's value (block_shape, ...)
    # a const port whose value is unknown but bounded (ShapeOf -> Gather): whole-graph inference also
    # runs the shape rule at the bounds (runtime/infer.py); False where OpenVINO's shape inference reads
    # only a constant value there (Range, TopK's k, the FFT signal sizes) and gives dynamic dims otherwise
    bounds: bool = True
    doc: str = ""


@dataclass(frozen=True, eq=False)
class OpSchema:
    name: str
    version: int | None
    category: str
    inputs: tuple[Port, ...]
    outputs: tuple[Port, ...]
    attributes: tuple[Attr, ...] = ()
    type_constraints: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    shape: Callable | None = None     # shape rule: (*input TensorInfos, **attrs) -> output shapes/infos
    doc: str = ""
    domain: str = ""                  # "" for OpenVINO ops, "tf" for the TensorFlow-semantics ops
    body: Callable | None = None      # composite ops: (builder, *inputs, **attrs) -> outputs
    # variadic last output: (input TensorInfos, bound attrs) -> how many outputs, from the attributes and
    # known input values alone (no shape rule), or None where they do not say
    output_count: Callable | None = None
    # a state op's partner (ReadValue-6 <-> Assign-6): neither is a valid model alone, so a one-op model
    # writes both, sharing the variable (a ReadValue's Assign takes its output; an Assign's ReadValue its input)
    partner: str | None = None
    # the op's part in a graph, for the reader, writer, executor and inference (which name no op):
    # "parameter" (a graph input), "constant" (its value is in the weights), "result" (a graph output),
    # "read_variable" / "assign_variable" (a stateful model's ReadValue / Assign); None: a computation
    role: str | None = None
    # its output is drawn from a random stream (RandomUniform, Multinomial): never taken as fixed by
    # the inputs' values when a run plan is prepared
    random: bool = False
    # how whole-graph inference passes known bounds of integer values through the op (runtime/infer.py):
    # "shape": the output is its input's shape (ShapeOf): the bounds of its dims;
    # "moves": values are only moved, selected or converted: the op at the lower bounds gives the lower
    #     bound, at the upper the upper (movement and shape ops, Convert);
    # "monotonic": elementwise and monotonic in each input: the extremes lie at the corners of the inputs'
    #     bounds (Add, Multiply, Maximum, ...);
    # "quotient": monotonic as long as the divisor's interval excludes 0 (Divide);
    # None: no bounds (FloorMod/Mod are not monotonic, and most ops never compute shapes)
    value_bounds: str | None = None
    # precise mode: the op on exact expressions of its input values, element by element (Add: a + b), or
    # None (runtime/infer.py; symbolic.Expr)
    value_expr: Callable | None = None
    opsets: tuple[str, ...] = ()      # filled in by the registry from the opset table

    @property
    def stateful(self) -> bool:
        """Reads or writes a model variable: its output is not fixed by its inputs (never folded)."""
        return self.role in ("read_variable", "assign_variable")

    @property
    def versioned_name(self) -> str:
        if self.domain:
            return f"{self.domain}.{self.name}"
        return f"{self.name}-{self.version}"

    def __repr__(self) -> str:
        return f"<OpSchema {self.versioned_name}>"

    def attr(self, name: str) -> Attr:
        for a in self.attributes:
            if a.name == name:
                return a
        raise AttributeError_(f"{self.versioned_name}: unknown attribute {name!r}")

    # --- validation ---------------------------------------------------------------------------
    def bind_attrs(self, attrs: Mapping[str, Any] | None) -> dict[str, Any]:
        """Attributes checked against the schema, defaults filled in, values in canonical form."""
        attrs = dict(attrs or {})
        known = {a.name for a in self.attributes}
        unknown = sorted(set(attrs) - known)
        if unknown:
            raise AttributeError_(f"{self.versioned_name}: unknown attribute(s) {', '.join(unknown)}; "
                                  f"expected {', '.join(sorted(known)) or 'none'}")
        out = {}
        for a in self.attributes:
            if a.name not in attrs:
                if a.required:
                    raise AttributeError_(f"{self.versioned_name}: missing required attribute {a.name!r} ({a.type})")
                out[a.name] = a.default
                continue
            v = attrs[a.name]
            try:
                v = a.type.coerce(v)
            except (TypeError, ValueError) as e:
                raise AttributeError_(f"{self.versioned_name}: attribute {a.name!r} must be of kind "
                                      f"{a.type}, got {v!r} ({e})") from None
            if a.allowed is not None and v not in a.allowed and isinstance(v, str):
                # enum values match without regard to case, as the IR reader reads them ("LOWEST")
                v = next((x for x in a.allowed if isinstance(x, str) and x.casefold() == v.casefold()), v)
            if a.allowed is not None and v not in a.allowed:
                raise AttributeError_(f"{self.versioned_name}: attribute {a.name!r} = {v!r} is not one of "
                                      f"{', '.join(map(repr, a.allowed))}")
            out[a.name] = v
        return out

    def ports_for(self, n: int) -> list[Port]:
        """The input ports that n given inputs fill, checking the count."""
        ports = list(self.inputs)
        lo = sum(1 for p in ports if not p.optional)   # a variadic port takes one or more; optional too: zero or more
        variadic = bool(ports) and ports[-1].variadic
        hi = None if variadic else len(ports)
        if n < lo or (hi is not None and n > hi):
            want = f"{lo}" if lo == hi else f"{lo} to {hi}" if hi is not None else f"at least {lo}"
            raise InputError(f"{self.versioned_name}: expected {want} input(s) "
                             f"({', '.join(p.name for p in ports)}), got {n}")
        return ports[:n] if not variadic or n <= len(ports) else ports + [ports[-1]] * (n - len(ports))

    def bind_types(self, element_types: list[str]) -> dict[str, str]:
        """Checks the inputs' element types against the type constraints; returns T -> type."""
        bound: dict[str, str] = {}
        for port, et in zip(self.ports_for(len(element_types)), element_types):
            if et is None:   # an absent optional input
                continue
            allowed = self.type_constraints.get(port.type_constraint, (port.type_constraint,))
            if et not in allowed:
                raise InputError(f"{self.versioned_name}: input {port.name!r} has element type {et}, "
                                 f"expected one of {', '.join(allowed)} ({port.type_constraint})")
            if port.type_constraint in self.type_constraints:
                first = bound.setdefault(port.type_constraint, et)
                if first != et:
                    raise InputError(f"{self.versioned_name}: input {port.name!r} has element type {et}, but "
                                     f"another {port.type_constraint} input has {first}; they must match")
        return bound

    def output_ports(self, n: int) -> list[Port]:
        """The output ports that n outputs fill: a variadic last output repeats (Split)."""
        ports = list(self.outputs)
        if ports and ports[-1].variadic and n >= len(ports) - 1:
            return ports[:-1] + [ports[-1]] * (n - len(ports) + 1)
        if n != len(ports):
            raise ShapeInferenceError(f"{self.versioned_name}: shape rule gave {n} outputs, schema declares "
                                      f"{len(ports)}")
        return ports

    def infer(self, inputs: list[TensorInfo | None], attrs: Mapping[str, Any] | None = None) -> list[TensorInfo]:
        """Output TensorInfos of this op for the given input infos (bad input raises OprefError)."""
        return self.infer_bound(inputs, self.bind_attrs(attrs))

    def infer_bound(self, inputs: list[TensorInfo | None], attrs: Mapping[str, Any]) -> list[TensorInfo]:
        """`infer` with attributes `bind_attrs` already gave (a graph's layers: bound once, when read)."""
        bound = self.bind_types([None if i is None else i.element_type for i in inputs])
        if self.shape is None:
            raise ShapeInferenceError(f"{self.versioned_name}: has no shape rule")
        with internal_errors(self.versioned_name, "shape rule"):
            result = self.shape(*inputs, **as_keywords(attrs))
        if not isinstance(result, (list, tuple)):
            result = [result]
        ports = self.output_ports(len(result))
        out = []
        for port, r in zip(ports, result):
            if isinstance(r, TensorInfo):
                out.append(r)
                continue
            et = bound.get(port.type_constraint)
            if et is None:
                allowed = self.type_constraints.get(port.type_constraint, (port.type_constraint,))
                et = allowed[0] if len(allowed) == 1 else None
            if et is None:
                raise ShapeInferenceError(f"{self.versioned_name}: cannot tell the element type of output "
                                          f"{port.name!r} ({port.type_constraint})")
            out.append(TensorInfo(et, r))
        return out
