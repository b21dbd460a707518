"""What a lowering works with: the `Value`s of an op's inputs (ONNX tensor name, opref element type,
partial shape, constant value when known), the `Call` it lowers, the `Builder` it emits ONNX nodes
into, and `Unsupported` — why an op, or this use of it, has no exact ONNX form.

A lowering is symbolic: it sees element types, partial shapes and the values of constant inputs,
never the data of a run, so the ONNX it emits is right for every input the IR accepts. Where ONNX
or onnxruntime's CPU kernels lack what the op needs, the lowering emits glue (Cast to a type the
kernel has when that computes the same values, Unsqueeze/Reshape for layouts, Where for the cases
ONNX treats differently) or says `Unsupported(reason)`.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ..shapes import PartialShape, TensorInfo
from ..types import element_type

DEFAULT_OPSET = 21           # ONNX opset the exporter targets unless told; int4/uint4 since 21
MIN_OPSET, MAX_OPSET = 18, 25
IR_VERSIONS = {18: 8, 19: 9, 20: 9, 21: 10, 22: 10, 23: 11, 24: 11, 25: 12}


@dataclass(frozen=True)
class Unsupported:
    """Why an op version, or one use of it, has no exact ONNX form. `reason` is the kind (cases and
    layers are counted by it, so keep per-case values out of it); `detail` names what decided it here
    (element type, attribute value, rank)."""
    reason: str
    detail: str = ""

    def __str__(self) -> str:
        return f"no ONNX form: {self.reason}" + (f" [{self.detail}]" if self.detail else "")


# --- element types -----------------------------------------------------------------------------------
def _onnx_types() -> dict[str, int]:
    from onnx import TensorProto as T
    return {"boolean": T.BOOL, "f64": T.DOUBLE, "f32": T.FLOAT, "f16": T.FLOAT16, "bf16": T.BFLOAT16,
            "f8e4m3": T.FLOAT8E4M3FN, "f8e5m2": T.FLOAT8E5M2, "i64": T.INT64, "i32": T.INT32, "i16": T.INT16,
            "i8": T.INT8, "i4": T.INT4, "u64": T.UINT64, "u32": T.UINT32, "u16": T.UINT16, "u8": T.UINT8,
            "u4": T.UINT4, "string": T.STRING}


ONNX_TYPES_SINCE = {"i4": 21, "u4": 21}       # element types ONNX gained after opset 18


ONNX_TYPES_SINCE.update({"f8e4m3": 19, "f8e5m2": 19})


def onnx_type(et: str) -> int | None:
    """The ONNX TensorProto data type of an opref element type, or None (u1, nf4)."""
    return _onnx_types().get(str(et))


def type_missing(et: str, opset: int) -> str | None:
    """Why ONNX at `opset` has no element type `et` (None when it has one)."""
    if onnx_type(et) is None:
        return f"ONNX has no element type {et}"
    since = ONNX_TYPES_SINCE.get(str(et))
    if since is not None and opset < since:
        return f"ONNX has element type {et} from opset {since}"
    return None


def opref_type(onnx_code: int) -> str:
    for name, code in _onnx_types().items():
        if code == onnx_code:
            return name
    raise KeyError(onnx_code)


_TENSOR_NAMES = {"tensor(float)": "f32", "tensor(double)": "f64", "tensor(float16)": "f16",
                 "tensor(bfloat16)": "bf16", "tensor(float8e4m3fn)": "f8e4m3", "tensor(float8e5m2)": "f8e5m2",
                 "tensor(int64)": "i64", "tensor(int32)": "i32", "tensor(int16)": "i16", "tensor(int8)": "i8",
                 "tensor(int4)": "i4", "tensor(uint64)": "u64", "tensor(uint32)": "u32", "tensor(uint16)": "u16",
                 "tensor(uint8)": "u8", "tensor(uint4)": "u4", "tensor(bool)": "boolean", "tensor(string)": "string"}


@functools.lru_cache(maxsize=None)
def _kernels():
    from onnxruntime.capi import _pybind_state
    table: dict[str, list] = {}
    for k in _pybind_state.get_all_opkernel_def():
        if k.provider == "CPUExecutionProvider" and k.domain in ("", "ai.onnx"):
            table.setdefault(k.op_name, []).append((k.version_range, dict(k.type_constraints)))
    return table


@functools.lru_cache(maxsize=None)
def kernel_types(op_type: str, opset: int, constraint: str | None = None) -> frozenset[str]:
    """The opref element types onnxruntime's CPU kernels of `op_type` take at `opset` for one type
    constraint (its first, e.g. "T", unless named). Read from onnxruntime's kernel registry."""
    found: set[str] = set()
    for (lo, hi), constraints in _kernels().get(op_type, ()):
        if lo <= opset <= hi and constraints:
            types = constraints.get(constraint) if constraint else next(iter(constraints.values()))
            found.update(_TENSOR_NAMES[t] for t in types or () if t in _TENSOR_NAMES)
    return frozenset(found)


# --- values and calls --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Value:
    """One ONNX tensor as a lowering sees it."""
    name: str
    element_type: str
    shape: PartialShape
    value: np.ndarray | None = field(default=None, compare=False, repr=False)

    @property
    def rank(self) -> int | None:
        return self.shape.rank

    @property
    def et(self):
        return element_type(self.element_type)

    @property
    def is_const(self) -> bool:
        return self.value is not None

    @property
    def static_shape(self) -> tuple[int, ...] | None:
        return self.shape.to_shape() if self.shape.is_static else None

    def scalar(self):
        """A known one-element value as a Python number (None when not known)."""
        if self.value is None or np.asarray(self.value).size != 1:
            return None
        return np.asarray(self.value).reshape(-1)[0].item()

    def ints(self) -> list[int] | None:
        """A known integer value as a flat list of ints (None when not known)."""
        if self.value is None:
            return None
        return [int(v) for v in np.asarray(self.value).reshape(-1)]


@dataclass
class Call:
    """One op application to lower: the schema and bound attributes, the input Values (None for an
    absent optional input), and opref's inferred output infos (element type and partial shape), which
    the lowering's outputs must match."""
    schema: Any
    attrs: dict
    inputs: list[Value | None]
    outputs: list[TensorInfo]
    bodies: dict = field(default_factory=dict)     # sub-graph ops: opref Graphs by body name
    node: Any = None                               # the opref graph Node (None for a single case)

    @property
    def op(self) -> str:
        return self.schema.versioned_name


class Builder:
    """Collects the ONNX nodes and initializers of a graph under construction. Tensor names come from
    `fresh`, unique in the graph; `node` returns its output name (a list when `outputs` > 1)."""

    def __init__(self, opset: int = DEFAULT_OPSET, prefix: str = "", taken: set | None = None):
        self.opset = opset
        self.prefix = prefix
        self.nodes: list = []
        self.initializers: list = []
        self.notes: list[str] = []
        self.taken: set[str] = taken if taken is not None else set()
        self._consts: dict = {}
        self._count = 0

    def fresh(self, hint: str = "t") -> str:
        while True:
            self._count += 1
            name = f"{self.prefix}{hint}__{self._count}"
            if name not in self.taken:
                self.taken.add(name)
                return name

    def _name(self, x) -> str:
        if x is None:
            return ""
        if isinstance(x, Value):
            return x.name
        if isinstance(x, str):
            return x
        return self.const(x)

    def node(self, op_type: str, inputs: Sequence, outputs: int = 1, *, domain: str = "", hint: str | None = None,
             **attrs):
        """Emit one ONNX node. Inputs are tensor names, Values, NumPy arrays (made initializers) or None
        (an absent optional input); attributes with value None are left out."""
        from onnx import helper
        names = [self._name(x) for x in inputs]
        while names and names[-1] == "":
            names.pop()
        outs = [self.fresh(hint or op_type.lower()) for _ in range(outputs)]
        self.nodes.append(helper.make_node(op_type, names, outs, name=self.fresh("n_" + op_type),
                                           domain=domain or None,
                                           **{k: v for k, v in attrs.items() if v is not None}))
        return outs[0] if outputs == 1 else outs

    def const(self, value, et: str | None = None, hint: str = "const") -> str:
        """An initializer holding `value` (element type `et`, else the array's own)."""
        a = np.asarray(value)
        et = et or element_type(a).name
        key = (et, a.shape, a.tobytes()) if a.size <= 64 else None
        if key is not None and key in self._consts:
            return self._consts[key]
        name = self.fresh(hint)
        self.initializers.append(make_tensor(a, et, name))
        if key is not None:
            self._consts[key] = name
        return name

    def i64(self, values) -> str:
        """A 1-D int64 initializer (axes, shapes, pads)."""
        return self.const(np.asarray(values, np.int64).reshape(-1), "i64")

    def scalar(self, value, et: str) -> str:
        return self.const(np.asarray(value).astype(element_type(et).dtype).reshape(()), et)

    def cast(self, x, to: str, frm: str | None = None) -> str:
        """x as element type `to` (no node when `frm` says it already is)."""
        if frm is not None and str(frm) == str(to):
            return self._name(x)
        code = onnx_type(to)
        if code is None:
            raise ValueError(f"ONNX has no element type {to}")
        # ONNX saturates out-of-range values (and inf) by default when casting to float8: OpenVINO keeps inf
        return self.node("Cast", [x], to=code, saturate=0 if str(to).startswith("f8") else None)

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def kernel_types(self, op_type: str, constraint: str | None = None) -> frozenset[str]:
        return kernel_types(op_type, self.opset, constraint)


def make_tensor(array, et: str, name: str):
    """An ONNX TensorProto of `array` as opref element type `et` (int4/uint4 packed by onnx)."""
    from onnx import helper, numpy_helper  # noqa: F401
    a = np.asarray(array)
    if et in ("i4", "u4"):
        return helper.make_tensor(name, onnx_type(et), a.shape, a.astype(np.int8 if et == "i4" else np.uint8)
                                  .reshape(-1).tolist())
    if et == "bf16" or et.startswith("f8"):
        return helper.make_tensor(name, onnx_type(et), a.shape, a.astype(np.float32).reshape(-1).tolist())
    t = numpy_helper.from_array(a.astype(element_type(et).dtype) if et != "string" else a.astype(object), name)
    return t
