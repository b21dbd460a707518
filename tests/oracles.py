"""The oracles: OpenVINO's runtime and shape inference, onnxruntime, TensorFlow.

Every op is handed to OpenVINO through the IR that opref writes for it (no per-op builder code),
compiled on CPU with f32 inference precision (the CPU plugin otherwise computes in bf16 where the
machine supports it)."""
from __future__ import annotations

import numpy as np
import openvino as ov

import opref
from opref.ir_xml.writer import op_model
from opref.shapes import TensorInfo

_CORE = ov.Core()
CPU_CONFIG = {"INFERENCE_PRECISION_HINT": "f32"}


def _read(op, infos, attrs):
    xml, weights = op_model(op, infos, attrs)
    return _CORE.read_model(model=xml, weights=ov.Tensor(np.frombuffer(weights or b"\0", np.uint8)))


def ov_infer(op, inputs, attrs=None) -> list[str]:
    """OpenVINO's inferred output shapes (as strings) and element types, or raises RuntimeError."""
    infos = [x if isinstance(x, TensorInfo) else TensorInfo.of_array(x) for x in inputs]
    model = _read(op, infos, attrs)
    return [(str(o.get_partial_shape()).replace(" ", ""), o.get_element_type().get_type_name())
            for o in model.outputs]


def ov_run(op, inputs, attrs=None, const_ports=()):
    """OpenVINO CPU's outputs: inputs on `const_ports` (indices) become Consts, the rest Parameters."""
    schema = opref.get_schema(op)
    infos = []
    feeds = []
    for i, (port, x) in enumerate(zip(schema.ports_for(len(inputs)), inputs)):
        x = np.asarray(x)
        if port.const or i in const_ports:
            infos.append(TensorInfo.of_array(x))
        else:
            infos.append(TensorInfo(opref.types.element_type_of(x), list(x.shape)))
            feeds.append(x)
    model = _read(op, infos, attrs)
    compiled = _CORE.compile_model(model, "CPU", CPU_CONFIG)
    res = compiled(feeds)
    return [np.asarray(res[o]) for o in compiled.outputs]
