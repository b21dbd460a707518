"""One op application with concrete inputs as a runnable ONNX model: what the conformance suite writes
and the onnxruntime oracle test runs. Inputs of `const` ports become initializers (their values are
what the lowering may read, as an IR's Constants are); the others become graph inputs. onnxruntime's
Python binding cannot feed or return some element types (bf16, f8, int4): such inputs are declared in
a carrier type it can feed and Cast to their own type in the graph, such outputs Cast to a carrier
(values are exact in both directions), and `OnnxCase.read` turns them back into opref's types.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import internal_errors
from ..shapes import PartialShape, TensorInfo
from ..types import element_type, tagged
from .builder import DEFAULT_OPSET, IR_VERSIONS, Builder, Call, Unsupported, Value, onnx_type, type_missing
from .registry import lower

# element types onnxruntime's Python binding cannot feed or return -> the type they travel as
CARRIERS = {"bf16": "f32", "f8e4m3": "f32", "f8e5m2": "f32", "i4": "i8", "u4": "u8"}


@dataclass
class OnnxCase:
    model: object                                  # onnx.ModelProto
    feeds: dict[str, np.ndarray]
    output_types: list[str]                        # opref element types of the outputs
    notes: list[str] = field(default_factory=list)

    def read(self, outputs) -> list[np.ndarray]:
        """onnxruntime's outputs as opref's element types (carriers converted back)."""
        return [tagged(np.asarray(y).astype(element_type(et).dtype), et) if et in CARRIERS or et == "string"
                else np.asarray(y) for y, et in zip(outputs, self.output_types)]

    def run(self) -> list[np.ndarray]:
        import onnxruntime as ort
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        session = ort.InferenceSession(self.model.SerializeToString(), options, providers=["CPUExecutionProvider"])
        return self.read(session.run(None, self.feeds))


def value_info(name: str, et: str, shape: PartialShape | None, dim_names=None):
    from onnx import helper
    dims = None
    if shape is not None and shape.rank is not None:
        dims = [d.length if d.is_static else (dim_names[k] if dim_names else None) for k, d in enumerate(shape)]
    return helper.make_tensor_value_info(name, onnx_type(et), dims)


def case_model(op: str, inputs, attrs=None, *, opset: int = DEFAULT_OPSET, check: bool = True,
               infos=None) -> OnnxCase | Unsupported:
    """The ONNX model of one case (inputs as arrays, None for an absent optional input), or why it has none.
    `infos`: the TensorInfo each input is declared with (dynamic dims, intervals), when not its array's
    own shape; the lowering then sees those, and dynamic dims become dim_params "x<j>_d<k>"."""
    from onnx import checker, helper
    from ..opset import get_schema
    schema = get_schema(op)
    attrs = schema.bind_attrs(attrs or {})
    ports = schema.ports_for(len(inputs))
    arrays = [None if x is None else np.asanyarray(x) for x in inputs]
    declared = infos
    infos = [None if a is None else TensorInfo(element_type(a).name, PartialShape(a.shape),
                                              a if port.const else None)
             for port, a in zip(ports, arrays)]
    if declared is not None:
        infos = [i if i is None or port.const or d is None else TensorInfo(i.element_type, d.shape)
                 for port, i, d in zip(ports, infos, declared)]
    outputs = schema.infer(infos, attrs)
    for info in list(infos) + list(outputs):
        why = None if info is None else type_missing(info.element_type, opset)
        if why is not None:
            return Unsupported(why)
    b = Builder(opset)
    graph_inputs, feeds, values = [], {}, []
    for port, a, info in zip(ports, arrays, infos):
        if a is None:
            values.append(None)
            continue
        et = info.element_type
        name = b.fresh(port.name)
        if port.const:
            b.initializers.append(_initializer(a, et, name))
            values.append(Value(name, et, info.shape, a))
            continue
        carrier = CARRIERS.get(et)
        graph_inputs.append(value_info(name, carrier or et, info.shape,
                                       [f"x{len(graph_inputs)}_d{k}" for k in range(info.shape.rank or 0)]))
        feeds[name] = np.asarray(a).astype(element_type(carrier).dtype) if carrier else np.asarray(a)
        if carrier:
            name = b.cast(name, et)
        values.append(Value(name, et, info.shape))
    with internal_errors(op, "ONNX lowering"):
        out = lower(b, Call(schema, attrs, values, list(outputs)))
    if isinstance(out, Unsupported):
        return out
    graph_outputs = []
    for k, (name, info) in enumerate(zip(out, outputs)):
        carrier = CARRIERS.get(info.element_type)
        final = b.node("Cast" if carrier else "Identity", [name], hint=f"y{k}",
                       to=onnx_type(carrier) if carrier else None)
        graph_outputs.append(value_info(final, carrier or info.element_type, info.shape))
    graph = helper.make_graph(b.nodes, op, graph_inputs, graph_outputs, initializer=b.initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              ir_version=IR_VERSIONS[opset], producer_name="opref")
    if check:
        checker.check_model(model, full_check=True)
    return OnnxCase(model, feeds, [o.element_type for o in outputs], b.notes)


def _initializer(a, et, name):
    from .builder import make_tensor
    return make_tensor(np.asarray(a), et, name)
