"""Writing OpenVINO IR XML (version 11).

`write_graph` writes a Graph (as the reader builds it) to model.xml + model.bin: layers numbered in
topological order per scope, port ids running from the inputs on to the outputs, attributes
formatted by their schema kinds, port dims and precisions from whole-graph inference, identical
weight blobs stored once, rt_info kept. `op_model` writes a one-op model (Parameters for inputs of
unknown value, Consts for known ones) that conformance suites and the oracle tests hand to OpenVINO.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np
from lxml import etree

from ..opset import get_schema
from ..runtime.graph import Graph, Node
from ..runtime.infer import infer_graph
from ..shapes import PartialShape, TensorInfo
from ..types import element_type, pack
from .spelling import ir_attr_text, ir_type_version


def _dims(port, shape: PartialShape):
    if shape.rank_is_static:
        for d in shape:
            etree.SubElement(port, "dim").text = str(d.lo) if d.is_static else "-1"


def _shape_attr(shape: PartialShape) -> str:
    return str(shape)[1:-1] if shape.rank_is_static else "..."


def op_model(op, inputs: Sequence[TensorInfo], attrs: Mapping[str, Any] | None = None,
             outputs: Sequence[TensorInfo] | None = None, n_outputs: int | None = None) -> tuple[bytes, bytes]:
    """IR XML and weights of a model with one op; `outputs` (inferred infos) only fill port dims.
    A variadic-output op (Split) gets `n_outputs` outputs, else as many as its schema's `output_count`
    says from the attributes and known input values; only where neither does is opref's shape rule asked."""
    schema = get_schema(op)
    attrs = schema.bind_attrs(attrs)
    ports = schema.ports_for(len(inputs))
    count = None
    if outputs is None and schema.outputs and schema.outputs[-1].variadic:
        count = n_outputs if n_outputs is not None else \
            schema.output_count(list(inputs), attrs) if schema.output_count else None
        if count is None:
            outputs = schema.infer(list(inputs), attrs)  # how many outputs comes from opref's inference
    net = etree.Element("net", name=schema.versioned_name, version="11")
    layers = etree.SubElement(net, "layers")
    edges = etree.SubElement(net, "edges")
    weights = bytearray()
    lid = 0
    sources = []
    for port, info in zip(ports, inputs):
        et = element_type(info.element_type)
        if info.value is not None:
            value = np.asarray(info.value)
            blob = pack(value, et)
            layer = etree.SubElement(layers, "layer", id=str(lid), name=port.name, type="Const", version="opset1")
            etree.SubElement(layer, "data", element_type=et.name, shape=", ".join(map(str, value.shape)),
                             offset=str(len(weights)), size=str(len(blob)))
            weights += blob
        else:
            layer = etree.SubElement(layers, "layer", id=str(lid), name=port.name, type="Parameter",
                                     version="opset1")
            etree.SubElement(layer, "data", shape=_shape_attr(info.shape), element_type=et.name)
        out = etree.SubElement(etree.SubElement(layer, "output"), "port", id="0", precision=et.precision,
                               names=port.name)
        _dims(out, info.shape)
        sources.append(lid)
        lid += 1
    ir_type, ir_version = ir_type_version(schema)
    node_id = lid
    layer = etree.SubElement(layers, "layer", id=str(node_id), name=schema.name.lower(), type=ir_type,
                             version=ir_version)
    etree.SubElement(layer, "data", {a.name: ir_attr_text(schema, a, attrs[a.name]) for a in schema.attributes})
    inp = etree.SubElement(layer, "input")
    for i, info in enumerate(inputs):
        p = etree.SubElement(inp, "port", id=str(i), precision=element_type(info.element_type).precision)
        _dims(p, info.shape)
    out_el = etree.SubElement(layer, "output")
    n_in = len(inputs)
    out_ports = schema.output_ports(len(outputs)) if outputs else \
        schema.output_ports(count) if count is not None else list(schema.outputs)
    # a repeated variadic output (Split) gets one tensor name per output: output, output_1, ...
    names = [p.name if out_ports.index(p) == k else f"{p.name}_{k - out_ports.index(p)}" for k, p in enumerate(out_ports)]
    for k, port in enumerate(out_ports):   # port ids run on from the inputs to the outputs
        info = outputs[k] if outputs else None
        p = etree.SubElement(out_el, "port", id=str(n_in + k), names=names[k],
                             precision=element_type(info.element_type).precision if info else "FP32")
        if info is not None:
            _dims(p, info.shape)
    from_ports, result_from = [0] * len(sources), [(node_id, n_in + k) for k in range(len(out_ports))]
    if schema.role == "assign_variable":
        # its ReadValue takes the input on to it, and the Result reads the ReadValue: on a one-op model's
        # first run that is the Assign's output (its input), and an Assign stays a sink as in real models
        # (OpenVINO's CPU plugin cannot compile an Assign that feeds a Result)
        rv = _partner(layers, edges, schema, attrs, inputs[0], node_id + 1 + len(out_ports), sources[0])
        sources, from_ports, result_from = [rv], [1], [(rv, 1)]
    for i, (src, port) in enumerate(zip(sources, from_ports)):
        etree.SubElement(edges, "edge", {"from-layer": str(src), "from-port": str(port),
                                         "to-layer": str(node_id), "to-port": str(i)})
    if schema.role == "read_variable":  # its Assign writes the output back
        # (the port's dims are informative: without inferred outputs, the input's, or none — an IR for
        # a case opref's own rule rejects must still be writable, for OpenVINO to be asked)
        info = outputs[0] if outputs else inputs[0] if inputs else None
        _partner(layers, edges, schema, attrs, info, node_id + 1 + len(out_ports), node_id, n_in)
    for k, port in enumerate(out_ports):
        rid = node_id + 1 + k
        res = etree.SubElement(layers, "layer", id=str(rid), name=f"result_{k}", type="Result", version="opset1")
        p = etree.SubElement(etree.SubElement(res, "input"), "port", id="0")
        if outputs:
            _dims(p, outputs[k].shape)
        etree.SubElement(edges, "edge", {"from-layer": str(result_from[k][0]), "from-port": str(result_from[k][1]),
                                         "to-layer": str(rid), "to-port": "0"})
    # Result layers must follow all producers; edges element last as OpenVINO writes it.
    net.remove(edges)
    net.append(edges)
    return etree.tostring(net, xml_declaration=True, encoding="utf-8", pretty_print=True), bytes(weights)


def _partner(layers, edges, schema, attrs, info: TensorInfo | None, lid: int, src: int, src_port: int = 0) -> int:
    """The state op's partner layer (schema.partner) on the same variable, fed by layer `src`; its id.
    `info` (None: unknown) gives its port's precision and dims, and an Assign's ReadValue its variable."""
    partner = get_schema(schema.partner)
    values = {"variable_id": attrs["variable_id"]}
    if "variable_type" in {a.name for a in partner.attributes}:
        values.update(variable_type=info.element_type, variable_shape=info.shape)
    values = partner.bind_attrs(values)
    ir_type, ir_version = ir_type_version(partner)
    layer = etree.SubElement(layers, "layer", id=str(lid), name=partner.name.lower(), type=ir_type, version=ir_version)
    etree.SubElement(layer, "data", {a.name: ir_attr_text(partner, a, values[a.name]) for a in partner.attributes})
    port = etree.SubElement(etree.SubElement(layer, "input"), "port", id="0")
    if info is not None:
        port.set("precision", element_type(info.element_type).precision)
        _dims(port, info.shape)
    if partner.name == "ReadValue":     # (an Assign's ReadValue: info is the Assign's input, always known)
        _dims(etree.SubElement(etree.SubElement(layer, "output"), "port", id="1",
                               precision=element_type(info.element_type).precision), info.shape)
    etree.SubElement(edges, "edge", {"from-layer": str(src), "from-port": str(src_port), "to-layer": str(lid),
                                     "to-port": "0"})
    return lid


# --- graphs ----------------------------------------------------------------------------------------
def join_names(names) -> str:
    return ",".join(n.replace(",", "\\,") for n in names)


class _Blobs:
    """The .bin being written: identical blobs are stored once."""

    def __init__(self):
        self.parts: list[bytes] = []
        self.size = 0
        self.seen: dict[bytes, int] = {}

    def add(self, blob: bytes) -> int:
        offset = self.seen.get(blob)
        if offset is None:
            offset = self.seen[blob] = self.size
            self.parts.append(blob)
            self.size += len(blob)
        return offset


def _constant_blob(value: np.ndarray, et: str) -> bytes:
    t = element_type(et)
    if t.name != "string":
        return pack(value, t)
    items = [str(v).encode("utf-8") for v in np.asarray(value).reshape(-1)]
    offsets = np.concatenate([[0], np.cumsum([len(b) for b in items])]).astype("<i4")
    return np.array([len(items)], "<i4").tobytes() + offsets.tobytes() + b"".join(items)


def _scope(parent, graph: Graph, blobs: _Blobs, infos=None) -> dict[int, int]:
    """Writes <layers> and <edges> of one graph scope; returns id(node) -> new layer id."""
    infos = infer_graph(graph) if infos is None else infos
    layers = etree.SubElement(parent, "layers")
    # Parameters first and Results last, each in the graph's order: OpenVINO orders a model's inputs
    # and outputs by their place in the file.
    special = {id(n) for n in graph.parameters + graph.results}
    nodes = graph.parameters + [n for n in graph.nodes if id(n) not in special] + graph.results
    ids = {id(n): i for i, n in enumerate(nodes)}
    edges = []
    for node in nodes:
        lid = ids[id(node)]
        s = node.schema
        ir_type, ir_version = ir_type_version(s)
        layer = etree.SubElement(layers, "layer", id=str(lid), name=node.name, type=ir_type, version=ir_version)
        if not node.bodies:
            data = {a.name: ir_attr_text(s, a, node.attrs[a.name]) for a in s.attributes}
            if s.role == "parameter":     # as the model declares it (`Model.reshape` re-declares it)
                data["shape"] = ir_attr_text(s, s.attr("shape"), infos[(id(node), 0)].shape)
            if s.role == "constant":
                blob = _constant_blob(node.value, node.attrs["element_type"])
                data = {"element_type": node.attrs["element_type"],
                        "shape": ", ".join(str(d) for d in node.value.shape),
                        "offset": str(blobs.add(blob)), "size": str(len(blob))}
            if data or s.attributes:
                etree.SubElement(layer, "data", data)
        if node.rt_info is not None:
            layer.append(etree.fromstring(etree.tostring(node.rt_info)))
        n_in = len(node.inputs)
        if n_in:
            inp = etree.SubElement(layer, "input")
            for i, src in enumerate(node.inputs):
                p = etree.SubElement(inp, "port", id=str(i))
                if src is not None:
                    info = infos[src.info_key]
                    p.set("precision", element_type(info.element_type).precision)
                    _dims(p, info.shape)
                    edges.append((ids[id(src.node)], _out_port_id(src.node, src.port), lid, i))
        if node.outputs and s.role != "result":
            out = etree.SubElement(layer, "output")
            for k, port in enumerate(node.outputs):
                info = infos[(id(node), k)]
                p = etree.SubElement(out, "port", id=str(n_in + k), precision=element_type(info.element_type).precision)
                if port.names:
                    p.set("names", join_names(port.names))
                if port.rt_info is not None:
                    p.append(etree.fromstring(etree.tostring(port.rt_info)))
                _dims(p, info.shape)
        if node.bodies:
            _subgraph(layer, node, blobs)
    edges_el = etree.SubElement(parent, "edges")
    for f, fp, t, tp in edges:
        etree.SubElement(edges_el, "edge", {"from-layer": str(f), "from-port": str(fp),
                                            "to-layer": str(t), "to-port": str(tp)})
    return ids


def _out_port_id(node: Node, k: int) -> int:
    return len(node.inputs) + k


def _subgraph(layer, node: Node, blobs: _Blobs):
    n_in = len(node.inputs)
    for tag, pm in node.port_maps.items():
        map_tag = "port_map" if tag == "body" else tag.replace("_body", "_port_map")
        body = node.bodies[tag]
        pm_el = etree.SubElement(layer, map_tag)
        body_el = etree.Element(tag)
        ids = _scope(body_el, body, blobs)
        if body.rt_info is not None:
            body_el.append(etree.fromstring(etree.tostring(body.rt_info)))
        for kind, maps in (("input", pm.inputs), ("output", pm.outputs)):
            for m in maps:
                internal = body.parameters[m.parameter] if kind == "input" else body.results[m.result]
                ext = -1 if m.external < 0 else (m.external if kind == "input" else n_in + m.external)
                attrs = {"external_port_id": str(ext), "internal_layer_id": str(ids[id(internal)])}
                if m.axis is not None:
                    attrs.update(axis=str(m.axis), start=str(m.start), end=str(m.end), stride=str(m.stride),
                                 part_size=str(m.part_size))
                if m.purpose:
                    attrs["purpose"] = m.purpose
                etree.SubElement(pm_el, kind, attrs)
        if pm.back_edges:
            be = etree.SubElement(layer, "back_edges")
            for r, p in pm.back_edges:
                etree.SubElement(be, "edge", {"from-layer": str(ids[id(body.results[r])]),
                                              "to-layer": str(ids[id(body.parameters[p])])})
        layer.append(body_el)
    # <port_map>s and <back_edges> come before the bodies, as OpenVINO writes them
    for tag in ("then_body", "else_body", "body"):
        el = layer.find(tag)
        if el is not None:
            layer.remove(el)
            layer.append(el)


def write_graph(graph: Graph, infos=None) -> tuple[bytes, bytes]:
    """IR v11 XML and weights of a graph."""
    net = etree.Element("net", name=graph.name or "model", version="11")
    blobs = _Blobs()
    _scope(net, graph, blobs, infos)
    if graph.rt_info is not None:
        net.append(etree.fromstring(etree.tostring(graph.rt_info)))
    xml = etree.tostring(net, xml_declaration=True, encoding="utf-8", pretty_print=True)
    return xml, b"".join(blobs.parts)
