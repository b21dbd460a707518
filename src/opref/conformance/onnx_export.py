"""Op version -> equivalent ONNX node, declared as a table.

An exporter takes a case's input arrays and attributes and returns an `OnnxOp` — the ONNX op
type, its attributes and the arrays it consumes (adapted where ONNX differs: batched-only Col2Im,
int64-only sizes) — or None when ONNX has no equivalent for that case. `onnx_model` turns it into
a one-node model that onnxruntime accepts.
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


def export(op: str, inputs, attrs) -> OnnxOp | None:
    """The ONNX equivalent of one case (attributes bound with their defaults here), or None when ONNX
    or onnxruntime's CPU kernels have none for it."""
    from ..opset import get_schema
    fn = _exports().get(op)
    return None if fn is None else fn(list(inputs), get_schema(op).bind_attrs(attrs))


def has_export(op: str) -> bool:
    return op in _exports()
