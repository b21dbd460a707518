"""Reading OpenVINO IR XML (versions 10 and 11) into a `Graph`.

The XML is untrusted: it is parsed by a hardened lxml parser (no DTD, no entities, no network,
bounded size and depth), and every number in it is read into a Python int before it sizes anything.
Attributes are parsed by the schema of the layer's op version (the reader has no per-op code);
`Constant` (weights), `Parameter` and the sub-graph ops (bodies and port maps) are the only layers it
knows by name. Weights are views of the .bin file (memory-mapped, read-only), bounds-checked against it.

Errors are `ModelError`s (or the schema's own OprefErrors) that name the layer: id, name, type-version.
"""
from __future__ import annotations

import functools
import math
import mmap
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from lxml import etree

from ..errors import ModelError, OprefError, UnknownOpError
from ..opset.schema import OpSchema
from ..runtime.graph import Graph, InputMap, Node, OutputMap, OutputPort, PortMap, Source, topological_order
from ..shapes import Dimension
from ..types import element_type, packed_size, unpack
from .spelling import UNDECLARED, element_type_of_precision, resolve_op, schema_attr_text

MAX_XML_BYTES = 1 << 30           # a larger model.xml is refused before parsing
SUBGRAPH_OPS = ("TensorIterator", "Loop", "If")
MEMO_ENTRIES = 4096               # distinct spellings a reader remembers (of dims, precisions)
BODIES = {"TensorIterator": ("body",), "Loop": ("body",), "If": ("then_body", "else_body")}
PORT_MAPS = {"TensorIterator": ("port_map",), "Loop": ("port_map",), "If": ("then_port_map", "else_port_map")}


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                           huge_tree=False, remove_comments=True, remove_pis=True)


def parse_xml(data: bytes, where: str = "model.xml") -> etree._Element:
    """The root element of untrusted XML bytes. DTDs (and with them every entity trick) are refused."""
    if len(data) > MAX_XML_BYTES:
        raise ModelError(f"{where}: {len(data)} bytes is more than the {MAX_XML_BYTES}-byte limit")
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as e:
        raise ModelError(f"{where}: malformed XML: {e}") from None
    tree = root.getroottree()
    if tree.docinfo.doctype or tree.docinfo.internalDTD is not None or tree.docinfo.externalDTD is not None:
        raise ModelError(f"{where}: a DOCTYPE/DTD is not allowed in IR XML (entities are never resolved)")
    el = next(root.iter(etree.Entity), None)     # an entity reference left unresolved
    if el is not None:
        raise ModelError(f"{where}: line {el.sourceline}: entity references are not allowed in IR XML")
    return root


# --- weights -----------------------------------------------------------------------------------------
class Weights:
    """The .bin file as one read-only byte array (memory-mapped: no copy); slices are bounds-checked."""

    def __init__(self, path: Path | None = None, data: bytes | np.ndarray | None = None):
        self.path = path
        if data is not None:
            self.bytes = np.frombuffer(data, np.uint8) if not isinstance(data, np.ndarray) else data.view(np.uint8)
        elif path is None or not path.exists():
            self.bytes = None
        elif path.stat().st_size == 0:
            self.bytes = np.zeros(0, np.uint8)
        else:
            with open(path, "rb") as f:
                self.bytes = np.frombuffer(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ), np.uint8)

    def slice(self, offset: int, size: int, where) -> np.ndarray:
        """`where` names the Constant in errors: a string or a function giving it."""
        if self.bytes is None:
            raise ModelError(f"{_named(where)}: needs weights, but there is no weights file "
                             f"{'(' + str(self.path) + ')' if self.path else ''}")
        n = self.bytes.shape[0]
        if offset < 0 or size < 0 or offset + size > n:
            raise ModelError(f"{_named(where)}: bytes {offset}..{offset + size} are outside the weights file "
                             f"({n} bytes)")
        return self.bytes[offset:offset + size]


def decode_constant(raw: np.ndarray, et: str, shape: tuple[int, ...], where: str) -> np.ndarray:
    """A Constant's value from its bytes: a view for byte-sized types, unpacked sub-byte types and
    strings (`[i32 count][i32 offsets x (count+1)][utf-8 bytes]`)."""
    t = element_type(et)
    count = 1
    for d in shape:
        count *= d                       # Python ints: no wrap-around
    if count == 0 and math.prod(d for d in shape if d) * max(t.dtype.itemsize, 1) > _INT64_MAX:
        raise ModelError(f"{_named(where)}: shape {list(shape)} holds no element, but its other dims multiply past "
                         f"the largest array size")
    if t.name == "string":
        return _decode_strings(raw, count, where).reshape(shape)
    need = packed_size(t, count)
    if raw.shape[0] < need:
        raise ModelError(f"{_named(where)}: size {raw.shape[0]} is less than the {need} bytes that {count} "
                         f"elements of {et} need (shape {list(shape)})")
    if t.name == "boolean":
        return (raw[:count] != 0).reshape(shape)
    if t.bits < 8:
        return unpack(raw[:need], t, count).reshape(shape)
    return raw[:need].view(_little_endian(t.dtype)).reshape(shape)


@functools.cache
def _little_endian(dtype: np.dtype) -> np.dtype:
    """The little-endian form of dtype: on a little-endian machine, dtype itself (NumPy's own instance, which kernels
    compare by identity first)."""
    little = dtype.newbyteorder("<")
    return dtype if little == dtype else little


def _decode_strings(raw: np.ndarray, count: int, where: str) -> np.ndarray:
    b = raw.tobytes()
    if len(b) < 4 * (count + 2) - 4:
        raise ModelError(f"{_named(where)}: string tensor of {count} elements needs at least {4 * (count + 2) - 4} bytes")
    n = int(np.frombuffer(b, "<i4", 1)[0])
    if n != count:
        raise ModelError(f"{_named(where)}: string tensor header says {n} elements, shape says {count}")
    offsets = np.frombuffer(b, "<i4", count + 1, 4).astype(np.int64)
    start = 4 * (count + 2)
    if (np.diff(offsets) < 0).any() or offsets[0] < 0 or start + offsets[-1] > len(b):
        raise ModelError(f"{_named(where)}: string tensor offsets are out of order or outside its {len(b)} bytes")
    try:
        return np.array([b[start + offsets[i]:start + offsets[i + 1]].decode("utf-8") for i in range(count)],
                        dtype=str)
    except UnicodeDecodeError as e:
        raise ModelError(f"{_named(where)}: string tensor is not UTF-8 ({e})") from None


# --- layers ------------------------------------------------------------------------------------------
def _int(text, what: str, where, lo: int | None = None) -> int:
    """`where` names the place in errors: a string, or a function giving it (built only on error)."""
    try:
        v = int(text)                      # (surrounding whitespace is allowed)
    except (TypeError, ValueError):
        raise ModelError(f"{_named(where)}: {what} {text!r} is not an integer") from None
    if lo is not None and v < lo:
        raise ModelError(f"{_named(where)}: {what} {v} is below {lo}")
    return v


def _named(where) -> str:
    return where() if callable(where) else str(where)


def split_names(text: str) -> list[str]:
    """Tensor names: comma-separated, a comma inside a name escaped as `\\,`."""
    if not text:
        return []
    if "\\" not in text:
        return [n for n in (part.strip() for part in text.split(",")) if n]
    names, cur, i = [], [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text) and text[i + 1] == ",":
            cur.append(",")
            i += 2
            continue
        if c == ",":
            names.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    names.append("".join(cur).strip())
    return [n for n in names if n]


@dataclass
class _Layer:
    el: etree._Element
    id: int
    name: str
    type: str
    schema: OpSchema
    in_ports: dict[int, int] = field(default_factory=dict)     # port id -> input index
    out_ports: dict[int, int] = field(default_factory=dict)    # port id -> output index

    def where(self) -> str:
        return f"layer {self.id} {self.name!r} ({self.schema.versioned_name})"


class _Reader:
    def __init__(self, weights: Weights, ir_version: int, source: str):
        self.weights = weights
        self.ir_version = ir_version
        self.source = source
        self.bound_attrs: dict[tuple, dict] = {}
        self.port_counts: set[tuple] = set()       # (schema, input count) already checked
        self.dims_read: dict[tuple, tuple] = {}    # <dim> texts -> dims (`dims`)
        self.precisions: dict[str, str] = {}       # precision spelling -> element type

    # Every op version is resolved before anything else, so that one error lists every unknown one.
    def resolve_all(self, root) -> dict[tuple, OpSchema]:
        schemas, unknown = {}, {}
        for el in root.iter("layer"):
            t, v = el.get("type"), el.get("version")
            if (t, v) in schemas:
                continue
            try:
                schemas[(t, v)] = resolve_op(t, v)
            except UnknownOpError as e:
                unknown.setdefault(str(e), []).append(el.get("id", "?"))
        if unknown:
            lines = [f"{msg} (layer{'s' if len(ids) > 1 else ''} {', '.join(ids)})" for msg, ids in unknown.items()]
            raise UnknownOpError(f"{self.source}: {len(unknown)} unknown op type-version(s): " + "; ".join(lines))
        self.schemas = schemas
        return schemas

    def graph(self, scope, where: str) -> Graph:
        layers_el = scope.find("layers")
        if layers_el is None:
            raise ModelError(f"{where}: no <layers>")
        layers: dict[int, _Layer] = {}
        nodes: dict[int, Node] = {}
        order: list[int] = []
        for el in layers_el.findall("layer"):
            lid = _int(el.get("id"), "layer id", lambda: f"{where}: layer {el.get('name')!r}", lo=0)
            if lid in layers:
                raise ModelError(f"{where}: duplicate layer id {lid} ({layers[lid].name!r} and {el.get('name')!r})")
            layer = _Layer(el, lid, el.get("name", str(lid)), el.get("type", ""), self.schemas[(el.get("type"), el.get("version"))])
            layers[lid] = layer
            nodes[lid] = self.node(layer)
            order.append(lid)
        self.edges(scope, layers, nodes, where)
        params = [nodes[i] for i in order if nodes[i].schema.role == "parameter"]
        results = [nodes[i] for i in order if nodes[i].schema.role == "result"]
        sinks = [nodes[i] for i in order if nodes[i].schema.role == "assign_variable"]
        if not results and not sinks:
            raise ModelError(f"{where}: no Result layer")
        for lid, node in nodes.items():
            for i, src in enumerate(node.inputs):
                if src is None and not node.schema.ports_for(len(node.inputs))[i].optional:
                    raise ModelError(f"{node.where()}: input port {_port_id(layers[lid], i)} has no incoming edge")
        # Like OpenVINO's reader: what no Result/Assign depends on is dropped; Parameters stay.
        reached = topological_order(results + sinks)
        seen = {id(n) for n in reached}
        ordered = [p for p in params if id(p) not in seen] + reached
        return Graph(ordered, params, results, sinks, ir_version=self.ir_version,
                     rt_info=scope.find("rt_info"))

    def node(self, layer: _Layer) -> Node:
        el, schema = layer.el, layer.schema
        data, ins, outs, rt_info = _first_children(el, ("data", "input", "output", "rt_info"))
        raw = dict(data.attrib) if data is not None else {}
        constant = schema.role == "constant"
        storage = {k: raw.pop(k) for k in ("offset", "size") if constant and k in raw}
        # Layers of one op often carry identical attributes: each spelling is parsed and bound once.
        memo_key = (schema.versioned_name, tuple(raw.items()))
        bound = self.bound_attrs.get(memo_key)
        if bound is None:
            bound = self.bound_attrs[memo_key] = self.bind(layer, raw)
        node = Node(layer.id, layer.name, schema, dict(bound), rt_info=rt_info)
        self.ports(layer, node, ins, outs)
        if constant:
            node.value = self.constant(layer, bound, storage)
        if schema.name in SUBGRAPH_OPS:
            self.subgraph(layer, node)
        return node

    def bind(self, layer: _Layer, raw: dict) -> dict:
        """A layer's <data> attributes parsed and bound by its schema (defaults filled in)."""
        schema = layer.schema
        attrs = {}
        for k, text in raw.items():
            try:
                a = schema.attr(k)
            except OprefError:
                raise ModelError(f"{layer.where()}: unknown attribute {k!r} = {text!r}; "
                                 f"{schema.versioned_name} has {', '.join(x.name for x in schema.attributes) or 'none'}") from None
            try:
                attrs[k] = _spelled(a, a.type.parse(schema_attr_text(schema, k, text)))
                if a.type.name == "shape" and attrs[k].rank_is_static:
                    _fits_int64(d for x in attrs[k] for d in (x.lo, x.hi) if d is not None)
                elif a.type.name in ("int", "ints"):           # OpenVINO's integer attributes are int64
                    _fits_int64(attrs[k] if a.type.name == "ints" else (attrs[k],))
            except (OprefError, ValueError, TypeError) as e:
                raise ModelError(f"{layer.where()}: attribute {k!r} = {text!r} is not a valid {a.type} ({e})") from None
        try:
            return schema.bind_attrs(attrs)
        except OprefError as e:
            raise type(e)(f"{layer.where()}: {e}") from None

    def ports(self, layer: _Layer, node: Node, ins, outs):
        """The <port>s of the layer's <input> and <output> elements (None: absent)."""
        ids = set()
        in_ports, input_dims = layer.in_ports, node.input_dims
        for p in () if ins is None else ins:
            if p.tag == "port":
                pid = _port_number(p, "input", layer, ids)
                in_ports[pid] = len(in_ports)
                input_dims.append(self.dims(p, layer, [d.text for d in p if d.tag == "dim"]))
        node.inputs = [None] * len(in_ports)
        if (node.schema, len(node.inputs)) not in self.port_counts:
            try:
                node.schema.ports_for(len(node.inputs))
            except OprefError as e:
                raise ModelError(f"{layer.where()}: {e}") from None
            self.port_counts.add((node.schema, len(node.inputs)))
        out_ports, outputs = layer.out_ports, node.outputs
        for p in () if outs is None else outs:
            if p.tag != "port":
                continue
            pid = _port_number(p, "output", layer, ids)
            texts, rt_info = [], None
            for d in p:
                tag = d.tag
                if tag == "dim":
                    texts.append(d.text)
                elif tag == "rt_info" and rt_info is None:
                    rt_info = d
            out_ports[pid] = len(out_ports)
            get = p.get
            outputs.append(OutputPort(split_names(get("names")), self.precision(get("precision"), pid, layer),
                                      self.dims(p, layer, texts), rt_info))
        declared = node.schema.outputs
        variadic = bool(declared) and declared[-1].variadic
        n = len(node.outputs)
        if node.schema.role in ("result", "assign_variable") and n == 0:   # IR writes a Result (and the spec an Assign)
            return                                               # without its output port
        if (not variadic and n != len(declared)) or (variadic and n < len(declared) - 1):
            raise ModelError(f"{layer.where()}: has {n} output port(s), {node.op} has "
                             f"{len(declared)}{' or more' if variadic else ''}")

    def dims(self, port, layer: _Layer, texts: list) -> tuple[int, ...]:
        """_dims, read once per spelling (ports of one shape repeat throughout a model)."""
        key = tuple(texts)
        got = self.dims_read.get(key)
        if got is None:
            got = _dims(port, layer, texts)
            if len(self.dims_read) < MEMO_ENTRIES:
                self.dims_read[key] = got
        return got

    def precision(self, text: str | None, pid: int, layer: _Layer) -> str | None:
        """An output port's declared element type (None: not declared), read once per spelling."""
        if text is None:
            return None
        et = self.precisions.get(text)
        if et is None:
            if text.strip().upper() in UNDECLARED:
                return None
            et = element_type_of_precision(text)
            if et is None:
                raise ModelError(f"{layer.where()}: output port {pid} has unknown precision {text!r}")
            self.precisions[text] = et
        return et

    def constant(self, layer: _Layer, attrs: dict, storage: dict) -> np.ndarray:
        where = layer.where
        shape = attrs["shape"]
        if not shape.is_static:
            raise ModelError(f"{where()}: attribute 'shape' = {shape} must be static")
        if "offset" not in storage or "size" not in storage:
            raise ModelError(f"{where()}: needs attributes 'offset' and 'size'")
        offset = _int(storage["offset"], "attribute 'offset'", where, lo=0)
        size = _int(storage["size"], "attribute 'size'", where, lo=0)
        raw = self.weights.slice(offset, size, where)
        return decode_constant(raw, attrs["element_type"], shape.to_shape(), where)

    def edges(self, scope, layers: dict[int, _Layer], nodes: dict[int, Node], where: str):
        edges_el = scope.find("edges")
        for e in [] if edges_el is None else edges_el.findall("edge"):
            get = e.get
            try:
                from_layer, from_port = int(get("from-layer")), int(get("from-port"))
                to_layer, to_port = int(get("to-layer")), int(get("to-port"))
            except (TypeError, ValueError):         # (the first attribute that is not an integer, named)
                for k in ("from-layer", "from-port", "to-layer", "to-port"):
                    _int(get(k), f"edge attribute {k!r}", lambda: f"{where}: edge on line {e.sourceline}")
                raise ModelError(f"{where}: edge on line {e.sourceline}: its attributes are not integers") from None
            src, dst = layers.get(from_layer), layers.get(to_layer)
            if src is None or dst is None:
                missing = from_layer if src is None else to_layer
                raise ModelError(f"{where}: edge on line {e.sourceline} refers to missing layer {missing}")
            if from_port not in src.out_ports:
                raise ModelError(f"{src.where()}: has no output port {from_port} (edge on line {e.sourceline})")
            i = dst.in_ports.get(to_port)
            if i is None:
                raise ModelError(f"{dst.where()}: has no input port {to_port} (edge on line {e.sourceline})")
            node = nodes[to_layer]
            if node.inputs[i] is not None:
                raise ModelError(f"{dst.where()}: input port {to_port} has more than one incoming edge")
            node.inputs[i] = Source(nodes[from_layer], src.out_ports[from_port])

    def subgraph(self, layer: _Layer, node: Node):
        kind = node.schema.name
        for body_tag, map_tag in zip(BODIES[kind], PORT_MAPS[kind]):
            body_el = layer.el.find(body_tag)
            if body_el is None:
                raise ModelError(f"{layer.where()}: has no <{body_tag}>")
            body = self.graph(body_el, f"{layer.where()} {body_tag}")
            node.bodies[body_tag] = body
            node.port_maps[body_tag] = self.port_map(layer, node, body_el, body, layer.el.find(map_tag), map_tag)

    def port_map(self, layer: _Layer, node: Node, body_el, body: Graph, pm, tag: str) -> PortMap:
        where = f"{layer.where()} {tag}"
        if pm is None:
            raise ModelError(f"{where}: missing")
        param_index = {p.id: i for i, p in enumerate(body.parameters)}
        result_index = {r.id: i for i, r in enumerate(body.results)}
        ins, outs = [], []

        # (tag, body index, body role, outer ports, outer role, map class, list)
        kinds = (("input", param_index, "Parameter", layer.in_ports, "input", InputMap, ins),
                 ("output", result_index, "Result", layer.out_ports, "output", OutputMap, outs))
        for tag_, index, role, outer, outer_role, cls, dest in kinds:
            for m in pm.findall(tag_):
                ext = _int(m.get("external_port_id"), "external_port_id", where, lo=-1)
                internal = _int(m.get("internal_layer_id"), "internal_layer_id", where, lo=0)
                axis = m.get("axis")
                kw = dict(axis=None if axis is None else _int(axis, "axis", where),
                          start=_int(m.get("start", "0"), "start", where), end=_int(m.get("end", "-1"), "end", where),
                          stride=_int(m.get("stride", "1"), "stride", where),
                          part_size=_int(m.get("part_size", "1"), "part_size", where, lo=1),
                          purpose=m.get("purpose", ""))
                if kw["stride"] == 0:
                    raise ModelError(f"{where}: stride 0")
                if internal not in index:
                    raise ModelError(f"{where}: internal_layer_id {internal} is not a body {role}")
                if ext != -1:
                    if ext not in outer:
                        raise ModelError(f"{where}: external_port_id {ext} is not an {outer_role} port of the layer")
                    ext = outer[ext]
                dest.append(cls(ext, index[internal], **kw))
        back = []
        be = layer.el.find("back_edges")
        for e in [] if be is None or tag == "else_port_map" else be.findall("edge"):
            frm = _int(e.get("from-layer"), "back edge from-layer", where)
            to = _int(e.get("to-layer"), "back edge to-layer", where)
            if frm not in result_index or to not in param_index:
                raise ModelError(f"{where}: back edge {frm} -> {to} must go from a body Result to a body Parameter")
            back.append((result_index[frm], param_index[to]))
        ins.sort(key=lambda m: m.external)
        outs.sort(key=lambda m: m.external)
        return PortMap(tuple(ins), tuple(outs), tuple(back))


def _spelled(attr, value):
    """Enum values are matched without regard to case, as OpenVINO's reader does (MVN-6 is written with
    eps_mode="INSIDE_SQRT"); the schema's own spelling is kept."""
    if attr.allowed and isinstance(value, str) and value not in attr.allowed:
        for v in attr.allowed:
            if isinstance(v, str) and v.lower() == value.lower():
                return v
    return value


_INT64_MAX = 2**63 - 1


def _fits_int64(values) -> None:
    """Dimensions and integer attributes are int64 in OpenVINO (and NumPy): a value beyond is invalid."""
    big = next((d for d in values if not -_INT64_MAX - 1 <= d <= _INT64_MAX), None)
    if big is not None:
        raise ValueError(f"{big} is beyond int64")


def _port_number(p, what: str, layer: _Layer, ids: set) -> int:
    """A <port>'s id, distinct among the layer's ports (`ids`: those seen)."""
    text = p.get("id")
    try:
        pid = int(text)
    except (TypeError, ValueError):
        pid = -1
    if pid < 0:
        pid = _int(text, f"{what} port id", layer.where, lo=0)
    if pid in ids:
        raise ModelError(f"{layer.where()}: duplicate port id {pid}")
    ids.add(pid)
    return pid


def _port_id(layer: _Layer, index: int) -> int:
    return next((pid for pid, i in layer.in_ports.items() if i == index), index)


def _first_children(el, tags: tuple[str, ...]) -> list:
    """The first child element of el with each tag (None where there is none), in one pass: what
    el.find(tag) gives for each."""
    found = dict.fromkeys(tags)
    for child in el:
        tag = child.tag
        if tag in found and found[tag] is None:
            found[tag] = child
    return list(found.values())


def _dims(port, layer: _Layer, texts: list) -> tuple[int, ...]:
    """Declared dims (texts: those of the port's <dim> children): an int, or -1 for any non-static dim
    (written -1, "?" or an interval "1..10")."""
    try:                                   # the common case: every dim a plain integer >= -1
        dims = tuple(map(int, texts))
        if not dims or (min(dims) >= -1 and max(dims) <= _INT64_MAX):
            return dims
    except (TypeError, ValueError):
        pass
    out = []
    for text in texts:
        text = text or ""
        try:
            v = int(text)
        except ValueError:
            if "?" not in text and ".." not in text:
                raise ModelError(f"{layer.where()} port {port.get('id')}: dim {text!r} is not an integer") from None
            try:
                Dimension.of(text.strip())
            except OprefError:
                raise ModelError(f"{layer.where()} port {port.get('id')}: dim {text!r} is not a dimension") from None
            v = -1
        if v < -1:
            raise ModelError(f"{layer.where()} port {port.get('id')}: dim {v} is below -1")
        if v > _INT64_MAX:
            raise ModelError(f"{layer.where()} port {port.get('id')}: dim {v} is beyond int64")
        out.append(v)
    return tuple(out)


# --- entry point -------------------------------------------------------------------------------------
def read_graph(xml_path, weights_path=None, *, xml: bytes | None = None, weights: bytes | None = None) -> Graph:
    """The Graph of an IR model: from files (weights default: the .bin beside the .xml) or bytes."""
    source = str(xml_path) if xml_path is not None else "model.xml"
    if xml is None:
        path = Path(xml_path)
        try:
            size = os.path.getsize(path)
            if size > MAX_XML_BYTES:
                raise ModelError(f"{path}: {size} bytes is more than the {MAX_XML_BYTES}-byte limit")
            xml = path.read_bytes()
        except OSError as e:
            raise ModelError(f"cannot read {path}: {e.strerror or e}") from None
        if weights is None:
            weights_path = Path(weights_path) if weights_path is not None else path.with_suffix(".bin")
    root = parse_xml(xml, source)
    if root.tag != "net":
        raise ModelError(f"{source}: root element is <{root.tag}>, expected <net>")
    version = _int(root.get("version"), "IR version", f"{source}: <net>")
    if version not in (10, 11):
        raise ModelError(f"{source}: IR version {version} is not supported (10 and 11 are)")
    w = Weights(data=weights) if weights is not None else Weights(weights_path)
    reader = _Reader(w, version, source)
    reader.resolve_all(root)
    graph = reader.graph(root, source)
    graph.name = root.get("name", "")
    if version == 10:
        # IR v10: a model output's tensor names also include its producer's layer name
        # ("name.index" for a producer with several outputs), as OpenVINO's v10 reader adds it.
        for r in graph.results:
            src = r.inputs[0]
            names = src.node.outputs[src.port].names
            legacy = src.node.name if len(src.node.outputs) == 1 else f"{src.node.name}.{src.port}"
            if legacy not in names:
                names.append(legacy)
    return graph
