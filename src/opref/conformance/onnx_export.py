"""Op version -> equivalent ONNX node, declared as a table.

An exporter takes a case's input arrays and attributes and returns an `OnnxOp` — the ONNX op
type, its attributes and the arrays it consumes (adapted where ONNX differs: batched-only Col2Im,
int64-only sizes) — or, when ONNX or onnxruntime has no equivalent for that case, an `Unsupported`
saying why (a bare None is still accepted and given a generic reason naming the op, the element
types and the case's attributes). `explain` gives either; `export` gives the OnnxOp or None.
`onnx_model` turns an OnnxOp into a one-node model that onnxruntime accepts.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

ONNX_IR_VERSION = 10          # onnx 1.23 writes IR 14 by default, which onnxruntime 1.31 rejects


@dataclass
class OnnxOp:
    op_type: str
    inputs: list                              # numpy arrays, fed as graph inputs in this order
    attrs: dict = field(default_factory=dict)
    opset: int = 18
    output: Callable = lambda y: y            # maps each onnxruntime output back to opref's layout
    output_types: list | None = None          # NumPy dtypes of the outputs; default: one, the first input's


@dataclass(frozen=True)
class Unsupported:
    """Why one case has no ONNX form. `reason` is the kind (cases are counted by it, so keep it free of
    per-case values); `detail` names what decided it for this case (element type, attribute value)."""
    reason: str
    detail: str = ""

    def __str__(self) -> str:
        return f"no ONNX form: {self.reason}" + (f" [{self.detail}]" if self.detail else "")


def _type_names(inputs) -> str:
    from ..types import element_type
    names = []
    for a in inputs:
        try:
            names.append(element_type(np.asarray(a)).name)
        except Exception:                    # noqa: BLE001 - only a label for the reason
            names.append(str(np.asarray(a).dtype))
    return ",".join(names)


def onnx_model(op: OnnxOp):
    from onnx.helper import make_graph, make_model, make_node, make_opsetid, make_tensor_value_info
    from onnx.helper import np_dtype_to_tensor_dtype

    names = [f"x{i}" for i in range(len(op.inputs))]
    types = op.output_types or [op.inputs[0].dtype]
    outs = [f"y{i}" for i in range(len(types))]
    node = make_node(op.op_type, names, outs, **op.attrs)
    graph = make_graph([node], "opref", [make_tensor_value_info(n, np_dtype_to_tensor_dtype(a.dtype), a.shape)
                                         for n, a in zip(names, op.inputs)],
                       [make_tensor_value_info(o, np_dtype_to_tensor_dtype(np.dtype(t)), None)
                        for o, t in zip(outs, types)])
    return make_model(graph, opset_imports=[make_opsetid("", op.opset)], ir_version=ONNX_IR_VERSION)


def _exports():
    from . import (onnx_activation, onnx_arithmetic, onnx_attention, onnx_bitwise, onnx_comparison, onnx_condition,
                   onnx_conversion, onnx_convolution, onnx_convolution_backprop, onnx_convolution_deformable, onnx_generation, onnx_image, onnx_logical, onnx_matrix,
                   onnx_movement, onnx_normalization, onnx_pooling, onnx_quantization, onnx_reduction,
                   onnx_sequence, onnx_shape, onnx_sort, onnx_signal, onnx_embedding, onnx_detection)
    modules = (onnx_movement, onnx_convolution, onnx_convolution_backprop, onnx_convolution_deformable, onnx_shape, onnx_arithmetic, onnx_activation, onnx_conversion,
               onnx_comparison, onnx_logical, onnx_bitwise, onnx_condition, onnx_reduction, onnx_generation,
               onnx_pooling, onnx_normalization, onnx_image, onnx_matrix, onnx_attention, onnx_quantization,
               onnx_sort, onnx_sequence, onnx_signal, onnx_embedding, onnx_detection)
    return {name: fn for m in modules for name, fn in m.EXPORTS.items()}


def explain(op: str, inputs, attrs) -> OnnxOp | Unsupported:
    """The ONNX equivalent of one case (attributes bound with their defaults here), or an `Unsupported`
    saying why ONNX or onnxruntime's CPU kernels have none for it (one exporter call)."""
    from ..opset import get_schema
    fn = _exports().get(op)
    if fn is None:
        return Unsupported(f"no exporter for {op}")
    out = fn(list(inputs), get_schema(op).bind_attrs(attrs))
    if out is None:
        shown = ", ".join(f"{k}={v!r}" for k, v in sorted(dict(attrs).items()))
        return Unsupported(f"exporter gives none for {op}", f"{op} {_type_names(inputs)} {{{shown}}}")
    return out


def export(op: str, inputs, attrs) -> OnnxOp | None:
    """The ONNX equivalent of one case, or None when ONNX or onnxruntime's CPU kernels have none for it
    (`explain` says why)."""
    out = explain(op, inputs, attrs)
    return None if isinstance(out, Unsupported) else out


def has_export(op: str) -> bool:
    return op in _exports()
