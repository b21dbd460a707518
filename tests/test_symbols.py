"""Symbols (issue 15 part 2): dims given by name carry a symbol; dims known equal share it, as OpenVINO's
ov::Symbol propagation finds them. The whole-model comparison with OpenVINO is in test_shapes_models.py
(test_symbols_as_openvino); here: the rules one op at a time, against OpenVINO's own answer, and the API."""
from __future__ import annotations

import json

import numpy as np
import openvino as ov
import openvino.opset13 as ops
import pytest

import opref
from opref import cli
from opref.shapes import Dimension, PartialShape, Symbol, TensorInfo


def _ov_param(spec: str, table: dict):
    dims = []
    for n in spec.split(","):
        if n.isdigit():
            dims.append(ov.Dimension(int(n)))
        elif n == "?":
            dims.append(ov.Dimension())
        else:
            d = ov.Dimension()
            d.set_symbol(table.setdefault(n, ov.Symbol()))
            dims.append(d)
    return ops.parameter(ov.PartialShape(dims), ov.Type.f32)


def _ov_names(shape, table: dict) -> list:
    out = []
    for d in shape:
        s = d.get_symbol()
        out.append(next((k for k, v in table.items() if s and v == s), None))
    return out


BINARY = [("N,3,H,W", "N,3,H,W"), ("N,3,H,W", "M,3,H,W"), ("N,3,H,W", "1,3,1,1"), ("N,3,H,W", "?,3,?,?"),
          ("N,3", "3"), ("1,3,H,W", "N,1,1,W"), ("N,H", "M,K")]


@pytest.mark.parametrize("a,b", BINARY)
@pytest.mark.parametrize("auto_broadcast", ["numpy", "none"])
def test_elementwise_symbols_as_openvino(a, b, auto_broadcast):
    table: dict = {}
    x, y = _ov_param(a, table), _ov_param(b, table)
    try:
        node = ops.add(x, y, auto_broadcast)
        # after a merge of two symbols OpenVINO takes them as one: ask about the inputs again afterwards
        want = (_ov_names(node.get_output_partial_shape(0), table), str(node.get_output_partial_shape(0)))
    except RuntimeError:
        with pytest.raises(opref.OprefError):
            opref.infer_op("Add-1", [TensorInfo("f32", a), TensorInfo("f32", b)], {"auto_broadcast": auto_broadcast})
        return
    (out,) = opref.infer_op("Add-1", [TensorInfo("f32", a), TensorInfo("f32", b)], {"auto_broadcast": auto_broadcast})
    assert str(out.shape) == want[1].replace(" ", "")
    got = [d.symbol_name for d in out.shape]
    theirs = want[0]
    # a merge unifies: OpenVINO's class of N and M is one symbol, named by either
    for g, t in zip(got, theirs):
        assert (g is None) == (t is None)
        if g is not None and t is not None and g != t:
            assert ov.Symbol.__eq__(table[g], table[t]), (a, b, got, theirs)


def test_names_are_shared_within_a_call_and_not_across_calls():
    x = TensorInfo("f32", "N,3")
    (out,) = opref.infer_op("Add-1", [x, TensorInfo("f32", "N,3")], {"auto_broadcast": "none"})
    assert out.shape[0].symbol_name == "N"
    # auto_broadcast none merges N and M into one symbol in this call only
    (out,) = opref.infer_op("Add-1", [TensorInfo("f32", "N,3"), TensorInfo("f32", "M,3")], {"auto_broadcast": "none"})
    assert out.shape[0].symbol_name in ("N", "M")
    (out,) = opref.infer_op("Add-1", [TensorInfo("f32", "N,3"), TensorInfo("f32", "M,3")])
    assert out.shape[0].symbol is None          # numpy broadcasting: either may be 1, so no symbol
    n, m = Symbol("N"), Symbol("M")
    assert not n.same(m) and n.unify(m) is n and n.same(m) and str(m) == "N"


def test_dimension_arithmetic_keeps_a_symbol_only_where_openvino_does():
    n = Dimension.of("N")
    assert (n + 0).symbol is n.symbol and (n * 1).symbol is n.symbol and n.divide(1).symbol is n.symbol
    assert (n + 1).symbol is None and (n * 2).symbol is None and (n - 0).symbol is n.symbol
    assert Dimension.of("N") == Dimension()      # symbols are not part of equality, as in OpenVINO
    assert str(PartialShape("N,3,H,W")) == "[?,3,?,?]"


def test_value_symbols_through_a_shape_subgraph_to_reshape(tmp_path):
    """ShapeOf -> Gather -> Concat -> Reshape: the Reshape's dims carry the symbols of the data dims they
    are, through the value (OpenVINO's value symbols), and -1 cancels a dim named on both sides."""
    x = ops.parameter(ov.PartialShape("?,3,?,?"), ov.Type.f32, name="x")
    g = ops.gather(ops.shape_of(x), ops.constant(np.array([0, 2])), ops.constant(0))
    r = ops.reshape(x, ops.concat([g, ops.constant(np.array([-1]))], 0), False)
    t = ops.reshape(x, ops.concat([ops.constant(np.array([-1])), ops.gather(ops.shape_of(x), ops.constant(
        np.array([2, 3])), ops.constant(0))], 0), False)
    ov.save_model(ov.Model([r, t], [x]), tmp_path / "m.xml")
    infos = opref.load(tmp_path / "m.xml").infer_shapes({"x": "N,3,H,W"})
    (out,) = infos[r.get_friendly_name()]
    assert [d.symbol_name for d in out.shape] == ["N", "H", None]
    (out,) = infos[t.get_friendly_name()]
    # -1 is N*3: the H and W on both sides cancel; OpenVINO gives [?,?:H,?:W] too
    assert str(out.shape) == "[?,?,?]" and [d.symbol_name for d in out.shape] == [None, "H", "W"]
    assert cli.main(["shapes", str(tmp_path / "m.xml"), "--shape", "x=N,3,H,W", "--json"]) == 0


def test_cli_json_symbols(tmp_path, capsys):
    x = ops.parameter(ov.PartialShape("?,3,?,?"), ov.Type.f32, name="x")
    sh = ops.shape_of(x)
    sh.set_friendly_name("shape")
    y = ops.relu(x)
    y.set_friendly_name("y")
    ov.save_model(ov.Model([ops.result(y), ops.result(sh)], [x]), tmp_path / "m.xml")
    assert cli.main(["shapes", str(tmp_path / "m.xml"), "--shape", "x=N,3,H,W", "--json"]) == 0
    ports = json.loads(capsys.readouterr().out)["ports"]
    assert ports["y"][0]["symbols"] == ["N", None, "H", "W"]
    assert ports["shape"][0]["value_symbols"] == ["N", None, "H", "W"]


def test_a_reshaped_model_makes_fresh_symbols_per_call(tmp_path):
    """Model.reshape keeps the names; each inference call makes its own symbols from them (a merge in one
    call must not reach the next, nor another thread)."""
    x = ops.parameter(ov.PartialShape("?,3"), ov.Type.f32, name="x")
    y = ops.parameter(ov.PartialShape("?,3"), ov.Type.f32, name="y")
    ov.save_model(ov.Model([ops.add(x, y, "none")], [x, y]), tmp_path / "m.xml")
    m = opref.load(tmp_path / "m.xml").reshape({"x": "N,3", "y": "M,3"})
    first = m.infer_shapes()
    second = m.infer_shapes()
    nx1, nx2 = first["x"][0].shape[0].symbol, second["x"][0].shape[0].symbol
    assert nx1 is not None and nx2 is not None and not nx1.same(nx2)
    assert first["y"][0].shape[0].symbol.same(nx1)           # auto_broadcast none merged N and M in that call
