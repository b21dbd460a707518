"""The registry keeps everyone honest: every schema has a kernel (or a composite body), every kernel
a schema, every schema conformance cases; signatures match the schemas; opset membership comes from
the opset table; validation errors name the op and the attribute or port."""
from __future__ import annotations

import inspect
import types
import re

import numpy as np
import pytest

import opref
from opref.conformance.cases import all_cases, all_shape_cases
from opref.opset import opset_table
from opref.opset.registry import category_of
from opref.runtime.kernels import INTO, KERNELS

SCHEMAS = opref.list_schemas()
# The op versions issue 2 delivers; later issues grow this set towards all of opsets.csv.
FOUNDATION = {"SpaceToBatch-2", "BatchToSpace-2", "DepthToSpace-1", "SpaceToDepth-1", "Col2Im-15",
              "Convolution-1", "GroupConvolution-1", "Transpose-1", "Reshape-1"}


def test_foundation_ops_are_registered():
    assert FOUNDATION <= {s.versioned_name for s in SCHEMAS}


# Sources are fed by the executor (a model input, the weights file); sub-graph ops run their bodies
# (runtime/subgraph.py). Both are exercised through models (tests/test_models.py, tests/test_reader.py).
NO_KERNEL = {"Parameter-1", "Constant-1", "TensorIterator-1", "Loop-5", "If-8"}
MODEL_LEVEL = NO_KERNEL | {"Result-1"}


def test_every_schema_has_a_kernel_or_body_and_every_kernel_a_schema():
    names = {s.versioned_name for s in SCHEMAS}
    assert {s.versioned_name for s in SCHEMAS if s.body is None} - NO_KERNEL == set(KERNELS)
    assert set(KERNELS) <= names


def test_every_schema_has_value_and_shape_cases():
    with_cases = {c.op for c in all_cases() if c.error is None}
    with_shapes = {c.op for c in all_shape_cases()}
    for s in SCHEMAS:
        if s.versioned_name in MODEL_LEVEL:
            continue
        assert s.versioned_name in with_cases, f"{s.versioned_name} has no value cases"
        assert s.versioned_name in with_shapes, f"{s.versioned_name} has no shape cases"
        assert sum(c.op == s.versioned_name for c in all_cases()) >= 100, s.versioned_name


def test_case_ids_are_unique():
    names = [c.name for c in all_cases()] + [c.name for c in all_shape_cases()]
    assert len(names) == len(set(names))


def _code_signature(fn):
    """The signature the function's code declares, not a `__signature__` built from the schema it is
    checked against (families.with_signature): a copy of the function without that attribute."""
    fn = inspect.unwrap(fn)
    if "__signature__" not in getattr(fn, "__dict__", {}):
        return inspect.signature(fn)
    bare = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    bare.__kwdefaults__ = fn.__kwdefaults__
    return inspect.signature(bare)


@pytest.mark.parametrize("schema", [s for s in SCHEMAS if s.versioned_name not in NO_KERNEL],
                         ids=lambda s: s.versioned_name)
def test_signatures_are_the_schema(schema):
    """Shape rules, kernels and bodies take the port names positionally and the attributes by keyword (a kernel
    of kernels.INTO also `out`)."""
    ports = [p.name for p in schema.inputs]
    attrs = sorted(a.python_name for a in schema.attributes)
    fns = [schema.shape] + ([KERNELS[schema.versioned_name]] if schema.body is None else [schema.body])
    for fn in fns:
        params = list(_code_signature(fn).parameters.values())
        if any(p.kind is p.VAR_KEYWORD for p in params):  # a family's generic rule: `(a, b, *, auto_broadcast, **_)`
            named = {p.name for p in params if p.kind is p.KEYWORD_ONLY}
            assert named <= set(attrs), f"{fn.__qualname__}: keywords {sorted(named - set(attrs))} not in the schema"
            params = [p for p in params if p.kind is p.POSITIONAL_OR_KEYWORD] + \
                [inspect.Parameter(a, inspect.Parameter.KEYWORD_ONLY) for a in attrs]
        if fn is schema.body:
            params = params[1:]                                   # the builder
        positional = [p.name for p in params if p.kind is p.POSITIONAL_OR_KEYWORD]
        keyword = sorted(p.name for p in params if p.kind is p.KEYWORD_ONLY and
                         not (p.name == "out" and fn is not schema.shape and schema.versioned_name in INTO))
        assert positional == ports, f"{fn.__qualname__}: inputs {positional}, schema {ports}"
        assert keyword == attrs, f"{fn.__qualname__}: attributes {keyword}, schema {attrs}"


@pytest.mark.parametrize("schema", [s for s in SCHEMAS if not s.domain], ids=lambda s: s.versioned_name)
def test_opsets_come_from_the_table(schema):
    entry = opset_table()[schema.versioned_name]
    assert schema.opsets == entry.opsets
    assert schema.category == category_of(entry)


def test_list_schemas_by_opset_and_domain():
    opset1 = {n for n, e in opset_table().items() if "opset1" in e.opsets}
    assert {s.versioned_name for s in opref.list_schemas(opset="opset1")} <= opset1
    assert {"Convolution-1", "DepthToSpace-1", "Reshape-1", "Parameter-1"} <= \
        {s.versioned_name for s in opref.list_schemas(opset="opset1")}
    assert "Col2Im-15" not in {s.versioned_name for s in opref.list_schemas(opset="opset1")}
    assert "Col2Im-15" in [s.versioned_name for s in opref.list_schemas(opset="opset15")]
    assert "Col2Im-15" not in [s.versioned_name for s in opref.list_schemas(opset="opset14")]
    assert [s.versioned_name for s in opref.list_schemas(domain="tf")] == \
        ["tf.BatchToSpaceND", "tf.DepthToSpace", "tf.DepthwiseConv2dNative", "tf.SpaceToBatchND"]
    names = [s.versioned_name for s in SCHEMAS]
    assert names == sorted(names)


def test_schema_public_fields():
    s = opref.get_schema("Col2Im-15")
    assert (s.name, s.version, s.versioned_name, s.category) == ("Col2Im", 15, "Col2Im-15", "movement")
    assert opref.get_schema("Col2Im", 15) is s
    assert [a.name for a in s.attributes] == ["strides", "dilations", "pads_begin", "pads_end"]
    assert s.attributes[0].default == (1, 1) and not s.attributes[0].required
    assert [p.name for p in s.inputs] == ["data", "output_size", "kernel_size"]
    assert s.type_constraints["T_IDX"] == ("i32", "i64")
    assert s.opsets == ("opset15", "opset16")
    t = opref.get_schema("tf.DepthToSpace")
    assert (t.versioned_name, t.version, t.attr("data_format").default) == ("tf.DepthToSpace", None, "NHWC")


X = np.zeros((1, 8, 2, 2), np.float32)


@pytest.mark.parametrize("call,match", [
    (lambda: opref.get_schema("Col2Im-99"), "unknown op 'Col2Im-99'; known versions: Col2Im-15"),
    (lambda: opref.run_op("DepthToSpace-1", [X], {"block_size": 2, "mode": "blocks_first", "axis": 1}),
     "DepthToSpace-1: unknown attribute(s) axis"),
    (lambda: opref.run_op("DepthToSpace-1", [X], {"block_size": 2}), "DepthToSpace-1: missing required attribute 'mode'"),
    (lambda: opref.run_op("DepthToSpace-1", [X], {"block_size": "2", "mode": "blocks_first"}),
     "DepthToSpace-1: attribute 'block_size' must be of kind int"),
    (lambda: opref.run_op("DepthToSpace-1", [X], {"block_size": True, "mode": "blocks_first"}),
     "attribute 'block_size' must be of kind int"),
    (lambda: opref.run_op("DepthToSpace-1", [X], {"block_size": 2, "mode": "DCR"}), "'mode' = 'DCR' is not one of"),
    (lambda: opref.run_op("DepthToSpace-1", [X, X], {"block_size": 2, "mode": "blocks_first"}),
     "DepthToSpace-1: expected 1 input(s) (data), got 2"),
    (lambda: opref.run_op("Col2Im-15", [X[0], np.array([2.0, 2.0]), np.array([1, 1])]),
     "input 'output_size' has element type f64, expected one of i32, i64 (T_IDX)"),
    (lambda: opref.run_op("Col2Im-15", [X[0], np.array([2, 2], np.int32), np.array([1, 1])]),
     "input 'kernel_size' has element type i64, but another T_IDX input has i32"),
    (lambda: opref.run_op("Col2Im-15", [X[0], np.array([2, 2]), np.array([1, 1])], {"strides": [1, 1, 1]}),
     "attribute 'strides' must have 2 elements"),
    (lambda: opref.run_op("Transpose-1", [np.array([object()]), np.array([0])]), "is not a tensor of a supported"),
])
def test_validation_errors_name_op_and_attribute(call, match):
    with pytest.raises(opref.OprefError, match=re.escape(match)):
        call()


# The ops real models need (issue 3): every version of them in OpenVINO opsets 1-16 is registered.
MODEL_OPS = """Parameter Result Constant Convert Convolution GroupConvolution MatMul Add Subtract Multiply Divide Power
Maximum Minimum SquaredDifference Relu Sigmoid Tanh Clamp Elu Gelu Swish HSwish HSigmoid Mish SoftPlus Exp Log Sqrt
Erf Floor Ceiling MaxPool AvgPool AdaptiveAvgPool AdaptiveMaxPool Concat Split VariadicSplit Reshape Squeeze Unsqueeze
Transpose Gather ShapeOf Broadcast Tile StridedSlice Slice Pad Interpolate Softmax LogSoftmax MVN BatchNormInference
NormalizeL2 ReduceMean ReduceSum ReduceMax ReduceMin ReduceProd ReduceL2 Range Select Equal NotEqual Less LessEqual
Greater GreaterEqual LogicalNot LogicalAnd LogicalOr TopK ScaledDotProductAttention FakeQuantize LSTMSequence
GRUSequence RNNSequence If Loop TensorIterator""".split()
# Categories delivered completely (issue 4 and the foundation): every op version in opsets 1-16.
COMPLETE_CATEGORIES = ("arithmetic", "activation", "comparison", "logical", "bitwise", "reduction", "conversion",
                       "condition")


def _in_opsets_1_to_16(entry) -> bool:
    return any(int(o[5:]) <= 16 for o in entry.opsets)


def test_coverage_from_the_opset_table():
    registered = {s.versioned_name for s in SCHEMAS}
    table = opset_table()
    want = {n for n, e in table.items() if _in_opsets_1_to_16(e) and
            (e.name in MODEL_OPS or category_of(e) in COMPLETE_CATEGORIES)}
    assert not sorted(want - registered), f"missing op versions: {sorted(want - registered)}"
    assert len(want) > 100
    # issue 4's categories, as the issue counts them (opsets 1-17: ErfInv-17 too, also registered)
    counts = {c: sum(1 for e in table.values() if category_of(e) == c) for c in COMPLETE_CATEGORIES}
    assert not sorted(n for n, e in table.items() if category_of(e) in COMPLETE_CATEGORIES and n not in registered)
    assert counts == {"arithmetic": 34, "activation": 19, "comparison": 9, "logical": 5, "bitwise": 6,
                      "reduction": 9, "conversion": 5, "condition": 3}


@pytest.mark.parametrize("n", range(1, 18))
def test_every_opset_is_registered_exactly(n):
    """Issues 11 and 12: list_schemas(opset="opsetN") is exactly the opset table's opsetN, all 245 op
    versions of opsets 1-17 (../shared/opsets.csv)."""
    want = {name for name, e in opset_table().items() if f"opset{n}" in e.opsets}
    got = {s.versioned_name for s in opref.list_schemas(opset=f"opset{n}")}
    assert got == want, f"opset{n}: missing {sorted(want - got)}, extra {sorted(got - want)}"


def test_all_op_versions_of_the_opset_table_are_registered():
    table = opset_table()
    assert len(table) == 245
    assert not sorted(set(table) - {s.versioned_name for s in SCHEMAS})


def test_enum_values_match_without_regard_to_case():
    """run_op/infer_op take an enum value in any case, as the IR reader does (the spec writes LOWEST)."""
    x, ids = np.array([1.0, 5.0], np.float32), np.array([0, 2])
    lower = opref.run_op("SegmentMax-16", [x, ids], {"fill_mode": "lowest"})[0]
    upper = opref.run_op("SegmentMax-16", [x, ids], {"fill_mode": "LOWEST"})[0]
    np.testing.assert_array_equal(lower, upper)
    assert opref.get_schema("DepthToSpace-1").bind_attrs({"block_size": 2, "mode": "Blocks_First"})["mode"] == \
        "blocks_first"
    with pytest.raises(opref.OprefError, match="is not one of"):
        opref.get_schema("SegmentMax-16").bind_attrs({"fill_mode": "lowest_"})


def test_bucketize_output_type_defaults_to_openvinos():
    import openvino.opset3 as ops3
    node = ops3.bucketize(ops3.parameter([3], np.float32), ops3.parameter([2], np.float32))
    default = node.get_output_element_type(0).get_type_name()
    assert opref.get_schema("Bucketize-3").attr("output_type").default == default == "i64"
    assert opref.run_op("Bucketize-3", [np.array([1.0, 5.0]), np.array([2.0, 4.0])])[0].dtype == np.int64


def test_check_builds_its_message_only_when_it_fails():
    from opref.errors import ShapeInferenceError
    from opref.opset.helpers import check
    built = []

    def message():
        built.append(1)
        return "input 'x' must be 1-D, got [2,3]"
    check(True, "Op-1", message)
    assert built == []
    with pytest.raises(ShapeInferenceError, match=r"^Op-1: input 'x' must be 1-D, got \[2,3\]$"):
        check(False, "Op-1", message)
    assert built == [1]
    with pytest.raises(ShapeInferenceError, match="^Op-1: plain$"):
        check(False, "Op-1", "plain")


def test_shape_rules_format_check_messages_lazily():
    """A check's message that interpolates (an f-string) is given as a lambda: shape rules that pass
    format nothing (whole-graph inference runs hundreds of checks per model)."""
    import ast
    import pathlib
    eager = []
    for path in sorted(pathlib.Path(opref.__file__).parent.joinpath("opset").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "check" and len(node.args) == 3 \
                    and not isinstance(node.args[2], (ast.Lambda, ast.Constant, ast.Name)):
                eager.append(f"{path.name}:{node.lineno}")
    assert not eager, f"{len(eager)} check(...) messages formatted eagerly: {eager[:10]}"
