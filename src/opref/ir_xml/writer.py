"""Writing OpenVINO IR XML (version 11).

`op_model` writes a one-op model — Parameters for inputs of unknown value, Consts for inputs of
known value — with attributes formatted by their schema kinds; conformance suites and the oracle
tests hand it to OpenVINO's own reader.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np
from lxml import etree

from ..opset import get_schema
from ..shapes import PartialShape, TensorInfo
from ..types import element_type, pack
from .spelling import ir_type_version


def _dims(port, shape: PartialShape):
    if shape.rank_is_static:
        for d in shape:
            etree.SubElement(port, "dim").text = str(d.lo) if d.is_static else "-1"


def _shape_attr(shape: PartialShape) -> str:
    return str(shape)[1:-1] if shape.rank_is_static else "..."


def op_model(op, inputs: Sequence[TensorInfo], attrs: Mapping[str, Any] | None = None,
             outputs: Sequence[TensorInfo] | None = None) -> tuple[bytes, bytes]:
    """IR XML and weights of a model with one op; `outputs` (inferred infos) only fill port dims."""
    schema = get_schema(op)
    attrs = schema.bind_attrs(attrs)
    ports = schema.ports_for(len(inputs))
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
    etree.SubElement(layer, "data", {a.name: a.type.format(attrs[a.name]) for a in schema.attributes})
    inp = etree.SubElement(layer, "input")
    for i, info in enumerate(inputs):
        p = etree.SubElement(inp, "port", id=str(i), precision=element_type(info.element_type).precision)
        _dims(p, info.shape)
    out_el = etree.SubElement(layer, "output")
    n_in = len(inputs)
    for k, port in enumerate(schema.outputs):   # port ids run on from the inputs to the outputs
        info = outputs[k] if outputs else None
        p = etree.SubElement(out_el, "port", id=str(n_in + k), names=port.name,
                             precision=element_type(info.element_type).precision if info else "FP32")
        if info is not None:
            _dims(p, info.shape)
    for i, src in enumerate(sources):
        etree.SubElement(edges, "edge", {"from-layer": str(src), "from-port": "0",
                                         "to-layer": str(node_id), "to-port": str(i)})
    for k, port in enumerate(schema.outputs):
        rid = node_id + 1 + k
        res = etree.SubElement(layers, "layer", id=str(rid), name=f"result_{k}", type="Result", version="opset1")
        p = etree.SubElement(etree.SubElement(res, "input"), "port", id="0")
        if outputs:
            _dims(p, outputs[k].shape)
        etree.SubElement(edges, "edge", {"from-layer": str(node_id), "from-port": str(n_in + k),
                                         "to-layer": str(rid), "to-port": "0"})
    # Result layers must follow all producers; edges element last as OpenVINO writes it.
    net.remove(edges)
    net.append(edges)
    return etree.tostring(net, xml_declaration=True, encoding="utf-8", pretty_print=True), bytes(weights)
