"""Running and inferring one op: `run_op` and `infer_op` of the public API.

A call is validated against the schema (attributes, input count and types), its output shapes are
inferred from the concrete inputs (so every rejection of the shape rule also guards the kernel),
and then the kernel runs. Composite ops (the `tf` domain) run their body, op by op, through the
same path.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from ..errors import InputError, OprefError
from ..opset import get_schema
from ..opset.schema import OpSchema, as_keywords
from ..shapes import PartialShape, TensorInfo
from ..types import ELEMENT_TYPES, element_type
from .kernels import KERNELS


def _as_array(x, schema: OpSchema, port_name: str) -> np.ndarray:
    try:
        a = np.asarray(x)
        element_type(a)
    except (OprefError, TypeError, ValueError) as e:
        raise InputError(f"{schema.versioned_name}: input {port_name!r} is not a tensor of a supported "
                         f"element type ({e})") from None
    return a


def _as_info(x, schema: OpSchema, port) -> TensorInfo | None:
    if x is None:
        return None
    if isinstance(x, TensorInfo):
        return x
    if isinstance(x, PartialShape):
        raise InputError(f"{schema.versioned_name}: input {port.name!r} is a shape; pass "
                         f"opref.TensorInfo(element_type, shape)")
    return TensorInfo.of_array(_as_array(x, schema, port.name))


def infer_op(op, inputs: Sequence, attrs: Mapping[str, Any] | None = None) -> list[TensorInfo]:
    """Output TensorInfos of one op. Inputs are TensorInfos (shape and type only) or arrays
    (type, shape and value known: used by shape-giving inputs)."""
    schema = get_schema(op)
    ports = schema.ports_for(len(inputs))
    return schema.infer([_as_info(x, schema, p) for x, p in zip(inputs, ports)], attrs)


MAX_OUTPUT_BYTES = 8 << 30     # no kernel allocates an output larger than this (bad input, not a crash)


def input_infos(schema: OpSchema, arrays: list) -> list[TensorInfo | None]:
    """What the shape rule sees of concrete inputs: type and shape, and the value only on the ports
    whose value it needs (`const`: axes, target shapes, ...), as OpenVINO's shape inference does.
    (Values elsewhere would only make the rule fold results the kernel is about to compute.)"""
    ports = schema.ports_for(len(arrays))
    return [None if a is None else TensorInfo(element_type(a).name, a.shape, a if p.const else None)
            for a, p in zip(arrays, ports)]


def infer_outputs(schema: OpSchema, arrays: list, attrs: Mapping[str, Any]) -> list[TensorInfo]:
    """The output infos of one call on concrete inputs: the shape rule (every rejection guards the
    kernel), and no static output beyond MAX_OUTPUT_BYTES."""
    infos = schema.infer(input_infos(schema, arrays), attrs)
    for port, info in zip(schema.output_ports(len(infos)), infos):
        if info.shape.is_static:
            n = 1
            for d in info.shape.to_shape():
                n *= d
            size = n * max(element_type(info.element_type).dtype.itemsize, 1)
            if size > MAX_OUTPUT_BYTES:
                raise InputError(f"{schema.versioned_name}: output {port.name!r} of shape {info.shape} would need "
                                 f"{size} bytes, more than the {MAX_OUTPUT_BYTES}-byte limit")
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
        outs = schema.body(Eager(), *arrays, **keywords)
    else:
        kernel = KERNELS.get(schema.versioned_name)
        if kernel is None:
            raise OprefError(f"{schema.versioned_name}: no kernel is registered")
        outs = kernel(*arrays, **keywords)
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    result = []
    for port, info, out in zip(ports, infos, outs):
        out = np.asarray(out)
        want = ELEMENT_TYPES[info.element_type].dtype
        if out.dtype != want and not (want.kind == "U" and out.dtype.kind in "UT"):
            out = out.astype(want)
        # The kernel and the shape rule are two readings of one spec: they must agree.
        if not info.shape.compatible(out.shape):
            raise AssertionError(f"{schema.versioned_name}: kernel output {port.name!r} has shape "
                                 f"{list(out.shape)}, shape rule says {info.shape}")
        result.append(out)
    return result


def run_op(op, inputs: Sequence, attrs: Mapping[str, Any] | None = None) -> list[np.ndarray]:
    """Computes one op on NumPy arrays; returns one array per output."""
    schema = get_schema(op)
    ports = schema.ports_for(len(inputs))
    arrays = [None if x is None else _as_array(x, schema, p.name) for x, p in zip(inputs, ports)]
    return execute(schema, arrays, schema.bind_attrs(attrs))


class Eager:
    """Runs a composite op's body op by op on NumPy arrays."""

    @staticmethod
    def op(name: str, *inputs, **attrs) -> np.ndarray:
        return run_op(name, inputs, attrs)[0]

    @staticmethod
    def const(value, dtype=np.int64) -> np.ndarray:
        return np.asarray(value, dtype=dtype)
