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
    output: Callable = lambda y: y            # maps onnxruntime's output back to opref's layout


def onnx_model(op: OnnxOp):
    from onnx.helper import make_graph, make_model, make_node, make_opsetid, make_tensor_value_info
    from onnx.helper import np_dtype_to_tensor_dtype

    names = [f"x{i}" for i in range(len(op.inputs))]
    node = make_node(op.op_type, names, ["y"], **op.attrs)
    graph = make_graph([node], "opref", [make_tensor_value_info(n, np_dtype_to_tensor_dtype(a.dtype), a.shape)
                                         for n, a in zip(names, op.inputs)],
                       [make_tensor_value_info("y", np_dtype_to_tensor_dtype(op.inputs[0].dtype), None)])
    return make_model(graph, opset_imports=[make_opsetid("", op.opset)], ir_version=ONNX_IR_VERSION)


# --- movement -------------------------------------------------------------------------------------
def _depth_to_space(inputs, attrs):
    (x,) = inputs
    if x.ndim != 4:
        return None
    return OnnxOp("DepthToSpace", [x], {"blocksize": attrs["block_size"],
                                         "mode": "DCR" if attrs["mode"] == "blocks_first" else "CRD"})


def _space_to_depth(inputs, attrs):
    (x,) = inputs
    if x.ndim != 4 or attrs["mode"] != "blocks_first":   # ONNX SpaceToDepth is blocks_first only
        return None
    return OnnxOp("SpaceToDepth", [x], {"blocksize": attrs["block_size"]})


def _col2im(inputs, attrs):
    data, size, kernel = inputs
    unbatched = data.ndim == 2                            # ONNX Col2Im is batched-only, int64 sizes
    return OnnxOp("Col2Im", [data[None] if unbatched else data, size.astype(np.int64), kernel.astype(np.int64)],
                  {"strides": list(attrs["strides"]), "dilations": list(attrs["dilations"]),
                   "pads": list(attrs["pads_begin"]) + list(attrs["pads_end"])},
                  output=(lambda y: y[0]) if unbatched else (lambda y: y))


def _exports():
    from .onnx_convolution import EXPORTS as convolution
    return {"DepthToSpace-1": _depth_to_space, "SpaceToDepth-1": _space_to_depth, "Col2Im-15": _col2im,
            **convolution}


def export(op: str, inputs, attrs) -> OnnxOp | None:
    fn = _exports().get(op)
    return None if fn is None else fn(list(inputs), attrs)


def has_export(op: str) -> bool:
    return op in _exports()
