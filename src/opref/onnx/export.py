"""A whole opref Graph as an ONNX model: `to_onnx(graph)`.

Parameters become graph inputs (dynamic dims as named dim_params, an interval's bounds recorded in the
model's metadata as `opref.dim.<name>` = "lo..hi"), Constants initializers (u4/i4 as ONNX int4/uint4
from opset 21, else widened to 8 bits with a note; u1/nf4 have no ONNX type), Results graph outputs;
every other layer goes through its op version's lowering (registry.lower), sub-graph ops through
subgraph.py, which exports their bodies with `export_body`. Values that whole-graph inference already
knows (shape sub-graphs of static shapes, folded while small) are written as initializers: they are
what the layer computes for every input. Tensor names are kept: a layer's output is named by its
first tensor name (else "<layer name>" / "<layer name>.<k>").

Nothing is written when a layer has no ONNX form: `ExportError` lists every such layer with its op
version and reason.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import OprefError, internal_errors
from ..runtime.graph import Graph, Node
from ..runtime.infer import infer_graph
from ..shapes import PartialShape, TensorInfo
from .builder import (DEFAULT_OPSET, IR_VERSIONS, MAX_OPSET, MIN_OPSET, Builder, Call, Unsupported, Value,
                      make_tensor, onnx_type, type_missing)
from .registry import lower


class ExportError(OprefError):
    """The model has layers with no ONNX form (`unsupported`: (layer, op version, reason, detail) each),
    or the exported model failed onnx's checker or the comparison with opref."""

    def __init__(self, message: str, unsupported=()):
        super().__init__(message)
        self.unsupported = list(unsupported)


@dataclass
class Exported:
    model: object                                   # onnx.ModelProto
    notes: list[str] = field(default_factory=list)
    tensors: dict = field(default_factory=dict)     # (id(node), output index) -> ONNX tensor name (main graph)
    nodes: list = field(default_factory=list)       # the main graph's opref nodes, topological order


def _value_info(name: str, et: str, shape: PartialShape | None, dim_names=None):
    from onnx import helper
    dims = None
    if shape is not None and shape.rank is not None:
        dims = [d.length if d.is_static else (dim_names[k] if dim_names else None) for k, d in enumerate(shape)]
    return helper.make_tensor_value_info(name, onnx_type(et), dims)


class _Exporter:
    def __init__(self, opset: int):
        if not MIN_OPSET <= opset <= MAX_OPSET:
            raise ExportError(f"opset {opset}: opref exports ONNX opsets {MIN_OPSET} to {MAX_OPSET}")
        self.opset = opset
        self.taken: set[str] = set()
        self.problems: list[tuple] = []
        self.notes: list[str] = []
        self.metadata: dict[str, str] = {}

    def builder(self, prefix: str = "") -> Builder:
        b = Builder(self.opset, prefix, self.taken)
        b.export_body = self.export_body
        return b

    def claim(self, name: str) -> str | None:
        if name and name not in self.taken:
            self.taken.add(name)
            return name
        return None

    def tensor_name(self, node: Node, k: int) -> str:
        names = node.outputs[k].names if k < len(node.outputs) else []
        for n in names:
            if self.claim(n):
                return n
        base = node.name if len(node.outputs) <= 1 else f"{node.name}.{k}"
        if self.claim(base):
            return base
        i = 1
        while not self.claim(f"{base}_{i}"):
            i += 1
        return f"{base}_{i}"

    # --- one graph scope ------------------------------------------------------------------------
    def scope(self, graph: Graph, b: Builder, infos, bound: dict | None = None):
        """Lower every node of `graph` into `b`. `bound`: {id(parameter node): Value} for a body whose
        parameters are outer values; None for the main graph (parameters become graph inputs).
        Returns ({info key: Value}, graph inputs)."""
        values: dict = {}
        inputs = []
        for node in graph.nodes:
            role = node.schema.role
            if role == "result":
                continue
            outs = [infos[(id(node), k)] for k in range(len(node.outputs))]
            if role == "parameter":
                if bound is not None:
                    values[(id(node), 0)] = bound[id(node)]
                    continue
                info = infos[(id(node), 0)]      # (as the model declares it: Model.reshape re-declares it)
                why = type_missing(info.element_type, self.opset)
                if why is not None:
                    self.problem(node, Unsupported(why, "a model input"))
                    continue
                name = self.tensor_name(node, 0)
                dim_names = []
                for k, d in enumerate(info.shape if info.shape.rank is not None else ()):
                    dn = f"{name}_dim{k}"
                    dim_names.append(dn)
                    if not d.is_static and (d.lo > 0 or d.hi is not None):
                        self.metadata[f"opref.dim.{dn}"] = f"{d.lo}..{'' if d.hi is None else d.hi}"
                inputs.append(_value_info(name, info.element_type, info.shape, dim_names))
                values[(id(node), 0)] = Value(name, info.element_type, info.shape)
                continue
            if role == "constant" or (all(o.value is not None for o in outs) and outs
                                      and not node.schema.stateful):
                ok = True
                for k, o in enumerate(outs):
                    v = self.initializer(b, node, k, o)
                    if v is None:
                        ok = False
                        break
                    values[(id(node), k)] = v
                if ok or role == "constant":
                    continue
            ins = []
            missing = False
            for src in node.inputs:
                if src is None:
                    ins.append(None)
                elif src.info_key in values:
                    ins.append(values[src.info_key])
                else:
                    missing = True          # its producer has no ONNX form (already reported)
            if missing:
                continue
            call = Call(node.schema, dict(node.attrs), ins, outs, bodies=node.bodies, node=node)
            with internal_errors(node.op, "ONNX lowering"):      # a lowering's bug is an InternalError
                got = lower(b, call)
            if isinstance(got, Unsupported):
                self.problem(node, got)
                continue
            for k, (name, o) in enumerate(zip(got, outs)):
                values[(id(node), k)] = Value(self.rename(b, name, node, k), o.element_type, o.shape)
        return values, inputs

    def rename(self, b: Builder, name: str, node: Node, k: int) -> str:
        """Give a lowering's output the layer's tensor name, when the lowering made it (not an input)."""
        producer = next((n for n in reversed(b.nodes) if name in n.output), None)
        if producer is None:
            return name
        new = self.tensor_name(node, k)
        producer.output[list(producer.output).index(name)] = new
        return new

    def initializer(self, b: Builder, node: Node, k: int, info: TensorInfo) -> Value | None:
        et = info.element_type
        value = np.asarray(info.value)
        if onnx_type(et) is None or (type_missing(et, self.opset) and et not in ("i4", "u4")):
            self.problem(node, Unsupported(type_missing(et, self.opset), "a constant"))
            return None
        if et in ("i4", "u4") and self.opset < 21:
            wide = "i8" if et == "i4" else "u8"
            self.note(f"{et} constants are widened to {wide} (ONNX has int4/uint4 from opset 21)")
            name = self.tensor_name(node, k)
            b.initializers.append(make_tensor(value, wide, name))
            return Value(name, wide, info.shape, value)
        name = self.tensor_name(node, k)
        b.initializers.append(make_tensor(value, et, name))
        return Value(name, et, info.shape, value)

    def problem(self, node: Node, why: Unsupported) -> None:
        self.problems.append((node.where(), node.op, why.reason, why.detail))

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    # --- bodies of sub-graph ops ----------------------------------------------------------------------
    def export_body(self, graph: Graph, bound: dict, results: list[int], name: str, parameter_infos=None,
                    inputs: list | None = None):
        """An ONNX GraphProto of a body: `bound` {parameter index: outer Value} (the body reads them from
        the outer scope), `inputs` [(parameter index or None, onnx name, element type, PartialShape)] its
        formal inputs (Loop's iteration number, condition and carried values), `results` the body Result
        indices that become its outputs, in order. Returns the GraphProto or Unsupported."""
        from onnx import helper
        b = self.builder(prefix=f"{name}/")
        feed = {}
        bound_values = {}
        formal = []
        for idx, value in bound.items():
            p = graph.parameters[idx]
            feed[id(p)] = TensorInfo(value.element_type, value.shape, value.value)
            bound_values[id(p)] = value
        for idx, iname, et, shape in inputs or ():
            self.taken.add(iname)
            formal.append(_value_info(iname, et, shape))
            if idx is not None:
                p = graph.parameters[idx]
                feed[id(p)] = TensorInfo(et, shape)
                bound_values[id(p)] = Value(iname, et, shape)
        for p in graph.parameters:
            if id(p) not in bound_values:    # a body parameter nothing feeds: its declared info, no value
                return Unsupported("a body parameter no port map feeds")
        body_infos = infer_graph(graph, feed)
        before = len(self.problems)
        values, _ = self.scope(graph, b, body_infos, bound_values)
        if len(self.problems) > before:
            return Unsupported("a layer of the body has no ONNX form (listed separately)")
        outputs = []
        for r in results:
            res = graph.results[r]
            src = res.inputs[0]
            v = values[src.info_key]
            out = b.node("Identity", [v.name], hint="out")
            outputs.append(_value_info(out, v.element_type, None))
        return helper.make_graph(b.nodes, name, formal, outputs, initializer=b.initializers)


def to_onnx(graph: Graph, *, opset: int = DEFAULT_OPSET, name: str | None = None, infos=None) -> Exported:
    """The ONNX model of `graph`, or ExportError listing every layer with no ONNX form."""
    from onnx import helper
    ex = _Exporter(opset)
    infos = infos if infos is not None else infer_graph(graph)
    b = ex.builder()
    values, inputs = ex.scope(graph, b, infos)
    from .registry import status
    listed = {where for where, *_ in ex.problems}
    for s in graph.sinks:          # sinks no Result depends on (Assign): not among the lowered nodes
        if s.where() not in listed:
            ex.problem(s, Unsupported(status(s.op) or f"{s.op} is a sink ONNX cannot express"))
    if ex.problems:
        lines = [f"  {where}: {reason}" + (f" [{detail}]" if detail else "") for where, _, reason, detail in ex.problems]
        ops = sorted({op for _, op, _, _ in ex.problems})
        raise ExportError(f"{len(ex.problems)} layer(s) have no ONNX form ({', '.join(ops)}):\n" + "\n".join(lines),
                          ex.problems)
    outputs = []
    produced = {o for n in b.nodes for o in n.output}
    used = set()
    for res in graph.results:
        src = res.inputs[0]
        v = values[src.info_key]
        name_ = v.name
        if name_ not in produced or name_ in used:     # a graph input or initializer, or a repeated output
            name_ = b.node("Identity", [v.name], hint=res.name)
            new = ex.claim(res.name)
            if new:
                b.nodes[-1].output[0] = new
                name_ = new
        used.add(name_)
        info = infos[src.info_key]
        outputs.append(_value_info(name_, info.element_type, info.shape))
    gname = name or graph.name or "opref"
    onnx_graph = helper.make_graph(b.nodes, gname, inputs, outputs, initializer=b.initializers)
    model = helper.make_model(onnx_graph, opset_imports=[helper.make_opsetid("", opset)],
                              ir_version=IR_VERSIONS[opset], producer_name="opref")
    notes = ex.notes + b.notes
    for k, v in sorted(ex.metadata.items()):
        helper.set_model_props(model, {**{p.key: p.value for p in model.metadata_props}, k: v})
    if notes:
        helper.set_model_props(model, {**{p.key: p.value for p in model.metadata_props},
                                       "opref.notes": "\n".join(notes)})
    tensors = {key: v.name for key, v in values.items()}
    return Exported(model, notes, tensors, list(graph.nodes))
