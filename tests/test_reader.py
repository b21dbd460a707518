"""The IR reader on hand-written XML: what OpenVINO's files contain (spelling, dims, names, rt_info,
packing), and hostile input. Every bad file gets a clean OprefError that names the layer and the
attribute or port at fault, in bounded time and memory, and nothing outside the model's own files is
read."""
from __future__ import annotations

import re
import time

import numpy as np
import pytest

import opref
from opref.errors import ModelError, UnknownOpError
from opref.ir_xml.reader import read_graph, split_names
from opref.conformance.backends import OpenVINOBackend   # (oracles.py imports openvino: these run without it)


def port(pid, dims, precision="FP32", names=None):
    d = "".join(f"<dim>{x}</dim>" for x in dims)
    n = f' names="{names}"' if names else ""
    return f'<port id="{pid}" precision="{precision}"{n}>{d}</port>'


def net(layers: str, edges: str, version=11, extra="") -> bytes:
    return (f'<?xml version="1.0"?>\n<net name="t" version="{version}"><layers>{layers}</layers>'
            f"<edges>{edges}</edges>{extra}</net>").encode()


def param(lid, shape="1,4", et="f32", dims=(1, 4), name="x", prec="FP32"):
    return (f'<layer id="{lid}" name="{name}" type="Parameter" version="opset1"><data shape="{shape}" '
            f'element_type="{et}"/><output>{port(0, dims, prec, names=name)}</output></layer>')


def result(lid, dims=(1, 4), name="out"):
    return f'<layer id="{lid}" name="{name}" type="Result" version="opset1"><input>{port(0, dims)}</input></layer>'


def edge(f, fp, t, tp):
    return f'<edge from-layer="{f}" from-port="{fp}" to-layer="{t}" to-port="{tp}"/>'


def d2s(lid, data='block_size="2" mode="blocks_first"', ins=(1, 8, 2, 2), outs=(1, 2, 4, 4), in_id=0, out_id=1):
    return (f'<layer id="{lid}" name="d2s" type="DepthToSpace" version="opset1"><data {data}/>'
            f"<input>{port(in_id, ins)}</input><output>{port(out_id, outs, names='y')}</output></layer>")


GOOD = net(param(0, "1,8,2,2", dims=(1, 8, 2, 2)) + d2s(1) + result(2, (1, 2, 4, 4)),
           edge(0, 0, 1, 0) + edge(1, 1, 2, 0))


def load(xml: bytes, weights: bytes | None = b""):
    return opref.Model(read_graph(None, xml=xml, weights=weights))


def rejects(xml: bytes, match: str, weights: bytes | None = b"", error=opref.OprefError):
    t = time.perf_counter()
    with pytest.raises(error, match=match) as e:
        load(xml, weights)
    assert time.perf_counter() - t < 10, "rejection took too long"
    return e.value


def test_good_model_runs():
    m = load(GOOD)
    x = np.arange(32, dtype=np.float32).reshape(1, 8, 2, 2)
    (y,) = m.run([x]).values()
    assert y.shape == (1, 2, 4, 4)
    # blocks_first: output[0, c, 2h+i, 2w+j] = x[0, (i*2+j)*2 + c, h, w]
    assert y[0, 1, 2 * 1 + 1, 2 * 0 + 0] == x[0, (1 * 2 + 0) * 2 + 1, 1, 0]
    assert [p.name for p in m.outputs] == ["y"]


def test_spelling_case_and_opset_selection():
    xml = GOOD.replace(b'type="DepthToSpace" version="opset1"', b'type="depthtospace" version="opset7"')
    assert load(xml).graph.nodes[1].op == "DepthToSpace-1"
    rejects(GOOD.replace(b'version="opset1"><data block', b'version="opset99"><data block'),
            "unsupported opset 'opset99'", error=UnknownOpError)


def test_unknown_ops_are_listed_all_at_once():
    xml = GOOD.replace(b'type="DepthToSpace"', b'type="Frobnicate"').replace(
        b'type="Result"', b'type="Wobble"')
    e = rejects(xml, "2 unknown op type-version", error=UnknownOpError)
    assert "Frobnicate" in str(e) and "Wobble" in str(e)


def test_dims_written_as_question_marks_or_intervals():
    xml = GOOD.replace(b"<dim>1</dim><dim>8</dim><dim>2</dim><dim>2</dim></port></output>",
                       b"<dim>?</dim><dim>8</dim><dim>1..4</dim><dim>2</dim></port></output>", 1)
    assert load(xml).graph.nodes[0].outputs[0].dims == (-1, 8, -1, 2)
    rejects(GOOD.replace(b"<dim>8</dim>", b"<dim>4..2</dim>", 1), "dim '4..2' is not a dimension")


def test_names_with_escaped_commas():
    assert split_names(r"a\,b,plain") == ["a,b", "plain"]
    assert split_names("") == []


# --- hostile XML ------------------------------------------------------------------------------------
def test_truncated_and_malformed_xml():
    rejects(GOOD[: len(GOOD) // 2], "malformed XML")
    rejects(GOOD.replace(b"<dim>8</dim>", b"<dim>8/dim>", 1), "malformed XML")
    rejects(b"", "malformed XML")
    rejects(b"<notnet/>", "expected <net>")


def test_entities_and_dtds_are_never_resolved(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    laughs = (b'<?xml version="1.0"?><!DOCTYPE net [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
              b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><net name="&c;" version="11"><layers/></net>')
    rejects(laughs, "DOCTYPE|DTD|entity")
    external = (f'<?xml version="1.0"?><!DOCTYPE net [<!ENTITY x SYSTEM "file://{secret}">]>'
                f'<net name="&x;" version="11"><layers/></net>').encode()
    e = rejects(external, "DOCTYPE|DTD|entity")
    assert "TOPSECRET" not in str(e)
    remote = b'<?xml version="1.0"?><!DOCTYPE net SYSTEM "http://127.0.0.1:9/x.dtd"><net version="11"/>'
    rejects(remote, "DOCTYPE|DTD")


def test_deep_nesting_is_bounded():
    deep = b'<net version="11">' + b"<a>" * 100000 + b"</a>" * 100000 + b"</net>"
    rejects(deep, "malformed XML")


def test_ir_version():
    rejects(GOOD.replace(b'version="11"', b'version="9"', 1), "IR version 9 is not supported")
    rejects(GOOD.replace(b'version="11"', b'version="eleven"', 1), "IR version 'eleven' is not an integer")


def test_graph_structure_errors():
    rejects(net(param(0, "1,8,2,2", dims=(1, 8, 2, 2)) + d2s(1) + result(2, (1, 2, 4, 4)),
                edge(0, 0, 1, 0) + edge(1, 1, 2, 0) + edge(2, 0, 1, 0)), r"layer 2 'out' \(Result-1\): has no output port 0")
    rejects(net(param(0, "1,8,2,2", dims=(1, 8, 2, 2)) + d2s(1) + result(1, (1, 2, 4, 4)), ""),
            "duplicate layer id 1")
    rejects(net(param(0, "1,8,2,2", dims=(1, 8, 2, 2)) + d2s(1) + result(2, (1, 2, 4, 4)),
                edge(0, 0, 1, 0) + edge(1, 1, 7, 0)), "refers to missing layer 7")
    rejects(net(param(0, "1,8,2,2", dims=(1, 8, 2, 2)) + d2s(1) + result(2, (1, 2, 4, 4)),
                edge(0, 0, 1, 5) + edge(1, 1, 2, 0)), r"layer 1 'd2s' \(DepthToSpace-1\): has no input port 5")
    rejects(net(param(0, "1,8,2,2", dims=(1, 8, 2, 2)) + d2s(1) + result(2, (1, 2, 4, 4)), edge(1, 1, 2, 0)),
            r"layer 1 'd2s' \(DepthToSpace-1\): input port 0 has no incoming edge")
    rejects(net(param(0, "1,8,2,2", dims=(1, 8, 2, 2)) + param(3, "1,8,2,2", dims=(1, 8, 2, 2), name="z") + d2s(1)
                + result(2, (1, 2, 4, 4)), edge(0, 0, 1, 0) + edge(3, 0, 1, 0) + edge(1, 1, 2, 0)),
            "input port 0 has more than one incoming edge")
    rejects(net(param(0, "1,8,2,2", dims=(1, 8, 2, 2)), ""), "no Result layer")
    rejects(GOOD.replace(b'<layer id="1"', b'<layer id="one"'), "layer id 'one' is not an integer")
    rejects(GOOD.replace(b"<dim>8</dim>", b"<dim>-7</dim>", 1), "dim -7 is below -1")
    rejects(GOOD.replace(b"<dim>8</dim>", b"<dim>8x</dim>", 1), "dim '8x' is not an integer")
    rejects(GOOD.replace(b'to-port="0"', b'to-port="zero"', 1), "edge attribute 'to-port' 'zero' is not an integer")
    rejects(GOOD.replace(b'from-layer="1"', b'from-layer="1.0"', 1),
            "edge attribute 'from-layer' '1.0' is not an integer")
    rejects(GOOD.replace(b'<edge from-layer="1" ', b'<edge ', 1), "edge attribute 'from-layer' None is not an integer")


def test_precisions_and_dims_read_alike_on_every_port():
    """The reader reads each spelling of dims and precision once: a spelling seen before still gives the same
    answer, and one it has not seen is still checked."""
    graph = load(GOOD.replace(b'precision="FP32"', b'precision=" fp32 "')).graph
    assert [n.outputs[0].element_type for n in graph.nodes if n.outputs] == ["f32", "f32"]
    assert [n.outputs[0].dims for n in graph.nodes if n.outputs] == [(1, 8, 2, 2), (1, 2, 4, 4)]
    assert graph.nodes[1].input_dims == [(1, 8, 2, 2)]
    undeclared = load(GOOD.replace(b'precision="FP32"', b'precision="undefined"', 1)).graph
    assert undeclared.nodes[0].outputs[0].element_type is None
    bad = GOOD.replace(b'<port id="1" precision="FP32"', b'<port id="1" precision="FP33"')
    rejects(bad, r"layer 1 'd2s' \(DepthToSpace-1\): output port 1 has unknown precision 'FP33'")
    twice = GOOD.replace(b"<dim>2</dim><dim>4</dim>", b"<dim>2</dim><dim>-4</dim>")
    rejects(twice, "dim -4 is below -1")


def test_cycles_are_found_without_recursion():
    # a chain of 5000 Identity layers (far beyond Python's recursion limit), then the same closed into a cycle
    n = 5000
    layers = param(0, "4", dims=(4,), name="x")
    edges = edge(0, 0, 1, 0)
    for i in range(1, n + 1):
        layers += (f'<layer id="{i}" name="id{i}" type="Identity" version="opset16"><input>{port(0, (4,))}</input>'
                   f"<output>{port(1, (4,))}</output></layer>")
        if i > 1:
            edges += edge(i - 1, 1, i, 0)
    layers += result(n + 1, (4,))
    chain = net(layers, edges + edge(n, 1, n + 1, 0))
    m = load(chain)
    assert np.array_equal(m.run([np.arange(4, dtype=np.float32)])["out"], np.arange(4))
    assert m._executor.peak_live <= 3, "intermediates are dropped after their last use"
    cyclic = net(layers.replace(param(0, "4", dims=(4,), name="x"), ""),
                 edges.replace(edge(0, 0, 1, 0), edge(n, 1, 1, 0)) + edge(n, 1, n + 1, 0))
    rejects(cyclic, "cycle")


def test_attribute_errors_name_layer_and_attribute():
    rejects(GOOD.replace(b'block_size="2"', b'block_size="two"'),
            r"layer 1 'd2s' \(DepthToSpace-1\): attribute 'block_size' = 'two' is not a valid int")
    rejects(GOOD.replace(b'mode="blocks_first"', b'mode="bogus"'), r"layer 1 'd2s' .*'mode' = 'bogus' is not one of")
    rejects(GOOD.replace(b'mode="blocks_first"', b'mode="blocks_first" axis="1"'),
            r"layer 1 'd2s' \(DepthToSpace-1\): unknown attribute 'axis'")
    rejects(GOOD.replace(b' mode="blocks_first"', b""), r"layer 1 'd2s' .*missing required attribute 'mode'")
    rejects(GOOD.replace(b'shape="1,8,2,2"', b'shape="1,3abc,2,2"'),
            r"layer 0 'x' \(Parameter-1\): attribute 'shape' = '1,3abc,2,2' is not a valid shape")
    rejects(GOOD.replace(b'element_type="f32"', b'element_type="f33"'), r"layer 0 'x' .*'element_type' = 'f33'")
    squeeze = (param(0, "1,4", dims=(1, 4)) + '<layer id="1" name="sq" type="Squeeze" version="opset15">'
               '<data allow_axis_skip="maybe"/><input>' + port(0, (1, 4)) + '</input><output>' + port(1, (4,))
               + "</output></layer>" + result(2, (4,)))
    if any(s.versioned_name == "Squeeze-15" for s in opref.list_schemas()):
        rejects(net(squeeze, edge(0, 0, 1, 0) + edge(1, 1, 2, 0)),
                r"layer 1 'sq' \(Squeeze-15\): attribute 'allow_axis_skip' = 'maybe' is not a valid bool")


def test_declared_shapes_must_agree_with_inference():
    e = rejects(GOOD.replace(b"<dim>4</dim><dim>4</dim></port></output>", b"<dim>5</dim><dim>4</dim></port></output>"),
                r"layer 1 'd2s' \(DepthToSpace-1\): output port 0 declares shape \[1,2,5,4\], inference gives \[1,2,4,4\]")
    rejects(GOOD.replace(b'block_size="2"', b'block_size="3"'), r"layer 1 'd2s' \(DepthToSpace-1\): .*multiple of 9")
    rejects(GOOD.replace(b'names="y"', b'names="y"').replace(b'precision="FP32" names="y"', b'precision="I32" names="y"'),
            "declares element type i32, inference gives f32")


def const(lid, et="f32", shape="4", dims=(4,), offset=0, size=16, prec="FP32", name="c"):
    return (f'<layer id="{lid}" name="{name}" type="Const" version="opset1"><data element_type="{et}" shape="{shape}" '
            f'offset="{offset}" size="{size}"/><output>{port(0, dims, prec)}</output></layer>')


def const_model(**kw):
    dims = kw.get("dims", (4,))
    return net(const(0, **kw) + result(1, dims), edge(0, 0, 1, 0))


def test_constants_are_bounds_checked():
    w = np.arange(4, dtype=np.float32).tobytes()
    m = load(const_model(), w)
    assert np.array_equal(m.run([])["out"], np.arange(4))
    assert np.shares_memory(m.graph.nodes[0].value, np.frombuffer(w, np.uint8)), "weights are views, not copies"
    rejects(const_model(offset=8), "bytes 8..24 are outside the weights file", w)
    rejects(const_model(offset=2 ** 70), "outside the weights file", w)
    rejects(const_model(offset=-1), "attribute 'offset' -1 is below 0", w)
    rejects(const_model(size=8), "size 8 is less than the 16 bytes", w)
    rejects(const_model(shape="4294967296, 4294967296", dims=(-1, -1)), "less than the 73786976294838206464 bytes", w)
    rejects(const_model(), "there is no weights file", None)
    rejects(const_model(shape="?"), "must be static", w)


def test_sub_byte_and_string_constants():
    m = load(const_model(et="u4", shape="5", dims=(5,), size=3, prec="U4"), bytes.fromhex("214305"))
    assert m.run([])["out"].tolist() == [1, 2, 3, 4, 5]
    m = load(const_model(et="i4", shape="4", dims=(4,), size=2, prec="I4"), bytes.fromhex("2f78"))
    assert m.run([])["out"].tolist() == [-1, 2, -8, 7]
    m = load(const_model(et="u1", shape="10", dims=(10,), size=2, prec="BIN"), bytes.fromhex("81c0"))
    assert m.run([])["out"].tolist() == [1, 0, 0, 0, 0, 0, 0, 1, 1, 1]
    s = bytes.fromhex("02000000000000000500000" "00c00000068656c6c6f77c3b6726c6421")
    m = load(const_model(et="string", shape="2", dims=(2,), size=28, prec="STRING"), s)
    assert m.run([])["out"].tolist() == ["hello", "wörld!"]
    rejects(const_model(et="string", shape="2", dims=(2,), size=28, prec="STRING"),
            "offsets are out of order or outside", s[:12] + b"\xff\x00\x00\x00" + s[16:])


def test_constants_have_numpys_own_dtypes():
    """A constant read from the .bin has NumPy's own dtype instance (kernels compare dtypes by identity first:
    np.dtype("<f4") equals float32 but is another instance on a little-endian machine), with the values the bytes
    hold in little-endian order."""
    for et, dtype, data in (("f32", np.float32, np.array([1.5, -2], "<f4")), ("i64", np.int64, np.array([3, -4], "<i8")),
                            ("f16", np.float16, np.array([0.5, 8], "<f2"))):
        m = load(const_model(et=et, shape="2", dims=(2,), size=data.nbytes, prec=et.upper()), data.tobytes())
        value = next(n for n in m.graph.nodes if n.schema.role == "constant").value
        assert value.dtype is np.dtype(dtype) and value.tolist() == data.tolist(), (et, value.dtype)


def test_huge_declared_shapes_do_not_allocate():
    big = net(param(0, "1000000,1000000,1000", dims=(1000000, 1000000, 1000)) + result(1, (1000000, 1000000, 1000)),
              edge(0, 0, 1, 0))
    m = load(big)        # loading is fine: nothing is allocated
    assert str(m.inputs[0].shape) == "[1000000,1000000,1000]"
    broadcast = next((s for s in opref.list_schemas() if s.versioned_name == "Broadcast-3"), None)
    if broadcast is not None:
        target = np.array([1 << 20, 1 << 20, 1 << 10], np.int64).tobytes()
        xml = net(param(0, "1", dims=(1,)) + const(1, "i64", "3", (3,), 0, 24, "I64", name="t")
                  + '<layer id="2" name="b" type="Broadcast" version="opset3"><data mode="numpy"/><input>'
                  + port(0, (1,)) + port(1, (3,), "I64") + "</input><output>" + port(2, (1 << 20, 1 << 20, 1 << 10))
                  + "</output></layer>" + result(3, (1 << 20, 1 << 20, 1 << 10)),
                  edge(0, 0, 2, 0) + edge(1, 0, 2, 1) + edge(2, 2, 3, 0))
        m = load(xml, target)
        with pytest.raises(opref.OprefError, match=r"layer 2 'b' \(Broadcast-3\): .*more than the .*-byte limit"):
            m.run([np.ones(1, np.float32)])


def test_wrong_inputs_are_named():
    m = load(GOOD)
    with pytest.raises(opref.OprefError, match=r"input 'x': expected element type f32 \(float32\), got float64"):
        m.run([np.zeros((1, 8, 2, 2))])
    with pytest.raises(opref.OprefError, match=r"input 'x': expected shape \[1,8,2,2\], got \[1, 8, 2\]"):
        m.run({"x": np.zeros((1, 8, 2), np.float32)})
    with pytest.raises(opref.OprefError, match="no input named 'nope'; its inputs are 'x'"):
        m.run({"nope": np.zeros((1, 8, 2, 2), np.float32)})
    with pytest.raises(opref.OprefError, match="has 1 input"):
        m.run([])


# --- sub-graph bodies ---------------------------------------------------------------------------------
def loop_xml(port_map: str, body_layers: str | None = None, trip=3, cond="true") -> tuple[bytes, bytes]:
    body = body_layers or (param(0, "2", dims=(2,), name="bx") + const(1, dims=(2,), shape="2", size=8, offset=9)
                           + '<layer id="2" name="add" type="Add" version="opset1"><data auto_broadcast="numpy"/><input>'
                           + port(0, (2,)) + port(1, (2,)) + "</input><output>" + port(2, (2,)) + "</output></layer>"
                           + const(3, "boolean", "", (), 8, 1, "BOOL", name="cond") + result(4, (), "rc")
                           + result(5, (2,), "rx"))
    body_edges = edge(0, 0, 2, 0) + edge(1, 0, 2, 1) + edge(2, 2, 5, 0) + edge(3, 0, 4, 0)
    xml = net(param(0, "2", dims=(2,)) + const(1, "i64", "", (), 0, 8, "I64", name="trip")
              + const(2, "boolean", "", (), 8, 1, "BOOL", name="c")
              + '<layer id="3" name="loop" type="Loop" version="opset5">' + f"<port_map>{port_map}</port_map>"
              + '<back_edges><edge from-layer="5" to-layer="0"/></back_edges><input>' + port(0, (), "I64")
              + port(1, (), "BOOL") + port(2, (2,)) + "</input><output>" + port(3, (2,), names="last") + "</output>"
              + f"<body><layers>{body}</layers><edges>{body_edges}</edges></body></layer>" + result(4, (2,)),
              edge(0, 0, 3, 2) + edge(1, 0, 3, 0) + edge(2, 0, 3, 1) + edge(3, 3, 4, 0))
    weights = np.array(trip, np.int64).tobytes() + (b"\x01" if cond == "true" else b"\x00") + \
        np.array([1.0, 2.0], np.float32).tobytes()
    return xml, weights


GOOD_MAP = ('<input external_port_id="2" internal_layer_id="0"/><output external_port_id="3" internal_layer_id="5"/>'
            '<output external_port_id="-1" internal_layer_id="4" purpose="execution_condition"/>')


def test_loop_from_hand_written_xml():
    xml, w = loop_xml(GOOD_MAP)
    m = load(xml, w)
    assert m.run([np.zeros(2, np.float32)])["last"].tolist() == [3.0, 6.0]
    xml, w = loop_xml(GOOD_MAP, trip=-1)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("OPREF_MAX_LOOP_ITERATIONS", "1000")
        with pytest.raises(opref.OprefError, match=r"layer 3 'loop' \(Loop-5\): more than 1000 iterations .*"
                                                   r"condition never turned false"):
            load(xml, w).run([np.zeros(2, np.float32)])
    xml, w = loop_xml(GOOD_MAP, trip=2**31 - 1)      # a trip count beyond the limit stops there too
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("OPREF_MAX_LOOP_ITERATIONS", "1000")
        with pytest.raises(opref.OprefError, match=r"more than 1000 iterations .*trip count is 2147483647"):
            load(xml, w).run([np.zeros(2, np.float32)])


def test_broken_bodies():
    xml, w = loop_xml(GOOD_MAP.replace('internal_layer_id="5"', 'internal_layer_id="9"'))
    rejects(xml, r"layer 3 'loop' \(Loop-5\) port_map: internal_layer_id 9 is not a body Result", w)
    xml, w = loop_xml(GOOD_MAP.replace('external_port_id="2"', 'external_port_id="7"'))
    rejects(xml, "external_port_id 7 is not an input port", w)
    xml, w = loop_xml(GOOD_MAP)
    rejects(xml.replace(b"<body>", b"<bodyx>").replace(b"</body>", b"</bodyx>"), "has no <body>", w)
    rejects(xml.replace(b'<edge from-layer="5" to-layer="0"/>', b'<edge from-layer="0" to-layer="5"/>'),
            "back edge 0 -> 5 must go from a body Result to a body Parameter", w)
    rejects(xml.replace(b'type="Add"', b'type="Addd"'), "Addd", w)
    # a body Parameter no input of the port map feeds (fuzz reader: an If's else_body Relu got no input info)
    xml, w = loop_xml(GOOD_MAP.replace('<input external_port_id="2" internal_layer_id="0"/>', ''))
    rejects(xml, r"layer 3 'loop' \(Loop-5\): body parameter\(s\) .* are fed by no input of its port map", w)


def test_one_op_model_of_a_split_keeps_every_output_apart(tmp_path):
    """The one-op writer names each repeated variadic output apart (output, output_1, ...), so `Model.run`'s
    dict holds all of them, equal to OpenVINO's outputs in order."""
    import openvino as ov
    from opref.ir_xml.writer import op_model
    from opref.shapes import TensorInfo
    infos = [TensorInfo("f32", [4, 6]), TensorInfo("i64", [], np.array(1))]
    xml, weights = op_model("Split-1", infos, {"num_splits": 3}, opref.get_schema("Split-1").infer(infos, {"num_splits": 3}))
    (tmp_path / "m.xml").write_bytes(xml)
    (tmp_path / "m.bin").write_bytes(weights or b"")
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    got = opref.load(tmp_path / "m.xml").run([x])
    assert list(got) == ["output", "output_1", "output_2"]
    compiled = ov.Core().compile_model(str(tmp_path / "m.xml"), "CPU", OpenVINOBackend.CONFIG)
    theirs = compiled([x])
    for (name, ours), out in zip(got.items(), compiled.outputs):
        assert name in out.get_names()
        np.testing.assert_array_equal(ours, theirs[out])
