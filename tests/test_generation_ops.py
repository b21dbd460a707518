"""Generation ops by hand: the spec's examples (Eye, OneHot) and, for the random ops, the Philox
streams against OpenVINO bit for bit for several seeds, shapes and types."""
from __future__ import annotations

import numpy as np
import pytest

import opref
from oracles import CPU_CONFIG

I32 = np.int32


# --- Eye-9 --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("rows,cols,k,expected", [
    (3, 4, 2, [[0, 0, 1, 0], [0, 0, 0, 1], [0, 0, 0, 0]]),            # spec example 1
    (3, 4, -1, [[0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0]]),           # spec example 2
    (2, 2, 0, [[1, 0], [0, 1]]),
    (2, 3, 3, [[0, 0, 0], [0, 0, 0]]),                                # past the right edge
    (2, 3, -2, [[0, 0, 0], [0, 0, 0]]),                               # past the bottom edge
])
def test_eye_spec_examples(rows, cols, k, expected):
    out = opref.run_op("Eye-9", [I32(rows), I32(cols), I32(k)], {"output_type": "i32"})[0]
    np.testing.assert_array_equal(out, np.array(expected, np.int32), strict=True)


def test_eye_batch_and_one_element_inputs():
    # spec example 3: 2 x 2, diagonal 5 (past the edge), batch [1, 2]: all zeros, f16
    out = opref.run_op("Eye-9", [I32([2]), np.int64(2), I32([5]), np.array([1, 2], np.int64)], {"output_type": "f16"})[0]
    assert out.shape == (1, 2, 2, 2) and out.dtype == np.float16 and not out.any()
    out = opref.run_op("Eye-9", [I32(2), I32(3), I32(1), I32([3])], {"output_type": "boolean"})[0]
    assert out.shape == (3, 2, 3) and (out == np.array([[0, 1, 0], [0, 0, 1]], bool)).all()


def test_eye_shapes():
    infer = lambda *a: str(opref.infer_op("Eye-9", a, {"output_type": "f32"})[0].shape)   # noqa: E731
    P = opref.TensorInfo
    assert infer(I32(3), P("i64", [1]), P("i32", []), P("i64", [2])) == "[?,?,3,?]"
    assert infer(I32(3), I32(4), P("i32", []), P("i64", [-1])) == "[...]"
    assert infer(I32(3), I32(4), P("i32", []), I32([2, 0])) == "[2,0,3,4]"
    with pytest.raises(opref.OprefError, match="'num_rows' must be non-negative"):
        infer(I32(-1), I32(4), P("i32", []))


# --- OneHot-1 / OneHot-16 -----------------------------------------------------------------------------
def test_one_hot_spec_examples():
    out = opref.run_op("OneHot-1", [I32([0, 3, 1, 2]), I32(3), I32(1), I32(2)], {"axis": -1})[0]
    np.testing.assert_array_equal(out, I32([[1, 2, 2], [2, 2, 2], [2, 1, 2], [2, 2, 1]]), strict=True)
    out = opref.run_op("OneHot-1", [I32([[0, 3, 1], [1, 2, 4]]), I32(3), I32(1), I32(0)], {"axis": 1})[0]
    np.testing.assert_array_equal(out, I32([[[1, 0, 0], [0, 0, 1], [0, 0, 0]], [[0, 0, 0], [1, 0, 0], [0, 1, 0]]]),
                                  strict=True)
    out = opref.run_op("OneHot-16", [I32([0, -5, -2, 2]), I32(3), I32(1), I32(2)],
                       {"axis": -1, "negative_indices_mode": "normalize"})[0]
    np.testing.assert_array_equal(out, I32([[1, 2, 2], [2, 2, 2], [2, 1, 2], [2, 2, 1]]), strict=True)


def test_one_hot_16_modes():
    x = I32([-1, -3, -4, 0])
    ignore = opref.run_op("OneHot-16", [x, I32(3), np.float32(1), np.float32(0)], {"axis": 0})[0]
    np.testing.assert_array_equal(ignore, np.float32([[0, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 0]]), strict=True)
    same = opref.run_op("OneHot-1", [x, I32(3), np.float32(1), np.float32(0)], {"axis": 0})[0]
    np.testing.assert_array_equal(same, ignore, strict=True)     # the spec: ignore-negative is OneHot-1
    norm = opref.run_op("OneHot-16", [x, I32(3), np.float32(1), np.float32(0)],
                        {"axis": 0, "negative_indices_mode": "normalize"})[0]
    np.testing.assert_array_equal(norm, np.float32([[0, 1, 0, 1], [0, 0, 0, 0], [1, 0, 0, 0]]), strict=True)


def test_one_hot_16_ir_spelling(tmp_path):
    """The spec writes ignore-negative, OpenVINO's IR ignore_negative: opref writes OpenVINO's and reads both."""
    from opref.ir_xml.writer import op_model
    of = opref.TensorInfo.of_array
    inputs = [opref.TensorInfo("i32", [2]), of(I32(3)), of(np.float32(1)), of(np.float32(0))]
    xml, weights = op_model("OneHot-16", inputs, {"axis": 0}, opref.infer_op("OneHot-16", inputs, {"axis": 0}))
    assert b'negative_indices_mode="ignore_negative"' in xml
    (tmp_path / "m.xml").write_bytes(xml.replace(b"ignore_negative", b"IGNORE_NEGATIVE"))
    (tmp_path / "m.bin").write_bytes(weights)
    m = opref.load(tmp_path / "m.xml")
    node = next(n for n in m.graph.nodes if n.schema.name == "OneHot")
    assert node.attrs["negative_indices_mode"] == "ignore-negative"
    np.testing.assert_array_equal(list(m.run([I32([1, -1])]).values())[0], np.float32([[0, 0], [1, 0], [0, 0]]))


# --- RandomUniform-8 ----------------------------------------------------------------------------------
def _uniform(shape, lo, hi, et, seeds, alignment="tensorflow"):
    attrs = {"output_type": et, "global_seed": seeds[0], "op_seed": seeds[1], "alignment": alignment}
    return opref.run_op("RandomUniform-8", [np.asarray(shape, np.int64), lo, hi], attrs)[0]


def test_random_uniform_spec_examples_tensorflow():
    out = _uniform([3, 3], np.float32(0), np.float32(1), "f32", (150, 10))
    np.testing.assert_array_equal(out, np.float32([[0.7011236, 0.30539632, 0.93931055], [0.9456035, 0.11694777,
                                                   0.50770056], [0.5197197, 0.22727466, 0.991374]]), strict=True)
    out = _uniform([2, 3], I32(50), I32(100), "i32", (80, 100))
    np.testing.assert_array_equal(out, I32([[65, 70, 56], [59, 82, 92]]), strict=True)


def test_mt19937_is_the_reference_generator():
    """The pytorch alignment's words are MT19937's (NumPy's legacy RandomState seeds it the same way)."""
    from opref.runtime.kernels.random import mt19937
    for seed in (0, 1, 150, 2**31 - 1):
        ref = np.random.RandomState(seed).randint(0, 2**32, 1500, dtype=np.uint64).astype(np.uint32)
        np.testing.assert_array_equal(mt19937(seed, 1500), ref)


def test_philox_streams_match_tensorflow():
    """Philox4x32-10 with key global_seed and counter op_seed is TensorFlow's stateless stream."""
    tf = pytest.importorskip("tensorflow")
    for seed, op_seed in ((1, 2), (87654, 0), (3, 1 << 20)):
        ours = _uniform([5, 7], np.float32(0), np.float32(1), "f32", (seed, op_seed))
        tf.random.set_seed(seed)
        theirs = tf.raw_ops.RandomUniform(shape=[5, 7], dtype=tf.float32, seed=seed, seed2=op_seed).numpy()
        np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("alignment", ["tensorflow", "pytorch"])
@pytest.mark.parametrize("et,lo,hi", [("f32", -2.5, 4.0), ("f16", -3, 7), ("f64", 2, 10), ("i32", -7, 1000),
                                      ("i64", -5, 2**40), ("bf16", 0, 1)])
def test_random_uniform_long_streams_are_openvinos(alignment, et, lo, hi):
    """Bit for bit OpenVINO's reference on thousands of values (many Philox blocks, several MT19937 twists)."""
    from oracles import ov_evaluate
    t = opref.types.element_type(et).dtype
    for seeds in ((1, 2), (2**31 - 5, 77)):
        ins = [np.asarray([3, 1111], np.int64), np.asarray(lo).astype(t), np.asarray(hi).astype(t)]
        attrs = {"output_type": et, "global_seed": seeds[0], "op_seed": seeds[1], "alignment": alignment}
        ours = opref.run_op("RandomUniform-8", ins, attrs)[0]
        theirs = ov_evaluate("RandomUniform-8", ins, attrs)[0]
        np.testing.assert_array_equal(ours.view(np.uint8), theirs.astype(t).view(np.uint8))


# --- Multinomial-13 -----------------------------------------------------------------------------------
def _multinomial(probs, n, replace, log=False, seeds=(1, 2), convert_type="i32"):
    attrs = {"convert_type": convert_type, "with_replacement": replace, "log_probs": log,
             "global_seed": seeds[0], "op_seed": seeds[1]}
    return opref.run_op("Multinomial-13", [np.asarray(probs, np.float32), I32(n)], attrs)[0]


def test_seed_seq_mt19937_is_libstdcpp():
    """std::mt19937 seeded with std::seed_seq{a, b} (values printed by a C++ program built with g++ 13;
    the seeds are taken mod 2**32): outputs 0, 1, 2 and 1003."""
    from opref.runtime.kernels.random import mt19937_seed_seq
    expected = {(1, 2): [3232623227, 3218984147, 1585538226, 136037005],
                (0, 7): [1207725889, 3884105262, 2119560696, 8042012],
                (4294967301, 9): [3776196275, 1115592845, 2048182082, 1174003685],
                (123456789, 987654321): [788992743, 1160082073, 4212010091, 439489331]}
    for seeds, words in expected.items():
        got = mt19937_seed_seq(seeds, 1004)
        assert [int(w) for w in got[[0, 1, 2, 1003]]] == words, seeds


def test_multinomial_certain_classes():
    """A class holding all the probability is always drawn; zero-probability classes never are."""
    out = _multinomial([[0, 1, 0, 0], [0, 0, 0, 3], [2, 0, 0, 0]], 50, True)
    np.testing.assert_array_equal(out, np.repeat(I32([[1], [3], [0]]), 50, 1), strict=True)
    out = _multinomial([[0, 0.5, 0, 0.5, 0]], 2, False, seeds=(7, 8))
    assert sorted(out[0].tolist()) == [1, 3]


def test_multinomial_without_replacement_is_a_permutation():
    rng = np.random.default_rng(0)
    probs = rng.uniform(0.1, 1, (6, 9))
    out = _multinomial(probs, 9, False, seeds=(11, 12), convert_type="i64")
    assert out.dtype == np.int64
    np.testing.assert_array_equal(np.sort(out, 1), np.broadcast_to(np.arange(9), (6, 9)))


def test_multinomial_frequencies_follow_probs():
    """20000 draws per row: the frequencies are within 5 standard errors of the probabilities, for
    probabilities, unnormalised weights and log probabilities alike."""
    p = np.array([[0.1, 0.5, 0.4], [0.7, 0.05, 0.25]])
    for probs, log in ((p, False), (p * 37, False), (np.log(p) + 3, True)):
        out = _multinomial(probs, 20000, True, log=log, seeds=(5, 6))
        freq = np.stack([np.bincount(r, minlength=3) for r in out]) / 20000
        assert np.all(np.abs(freq - p) < 5 * np.sqrt(p * (1 - p) / 20000)), freq


def test_multinomial_seeds():
    probs = np.full((2, 10), 0.1)
    a, b = _multinomial(probs, 30, True, seeds=(3, 4)), _multinomial(probs, 30, True, seeds=(3, 4))
    np.testing.assert_array_equal(a, b)
    assert (a != _multinomial(probs, 30, True, seeds=(4, 3))).any()
    # seed_seq takes each seed mod 2**32
    np.testing.assert_array_equal(a, _multinomial(probs, 30, True, seeds=(3 + (5 << 32), 4 + (1 << 40))))


def test_multinomial_shapes():
    P = opref.TensorInfo
    infer = lambda p, n, replace=True: str(opref.infer_op("Multinomial-13", [p, n], {   # noqa: E731
        "convert_type": "i64", "with_replacement": replace, "log_probs": False})[0].shape)
    assert infer(P("f32", [(1, 4), 5]), I32(7)) == "[1..4,7]"
    assert infer(P("f16", [3, 5]), P("i64", [1])) == "[3,?]"
    assert infer(P("f32", "[...]"), I32(2)) == "[...]"
    assert infer(P("f32", [2, 3]), I32(5)) == "[2,5]"             # with replacement: more draws than classes
    with pytest.raises(opref.OprefError, match="must not exceed class_size"):
        infer(P("f32", [2, 3]), I32(5), replace=False)
    with pytest.raises(opref.OprefError, match="input 'probs' must be 2-D"):
        infer(P("f32", [3]), I32(1))
    with pytest.raises(opref.OprefError, match="'num_samples' must be non-negative"):
        infer(P("f32", [2, 3]), I32(-1))


def test_multinomial_in_a_model_is_openvinos(tmp_path):
    """A Multinomial fed by a Softmax, written by OpenVINO: opref reads, runs and re-saves it, equal to
    OpenVINO's CPU plugin bit for bit."""
    ov = pytest.importorskip("openvino")
    import openvino.opset13 as ops
    x = ops.parameter([4, 12], ov.Type.f32, name="x")
    m = ops.multinomial(ops.softmax(x, 1), ops.constant(np.int64(10)), "i64", False, False, 77, 78)
    r = ops.multinomial(ops.softmax(x, 1), ops.constant(np.int32(40)), "i32", True, False, 9, 0)
    ov.save_model(ov.Model([m, r], [x]), tmp_path / "m.xml")
    data = np.random.default_rng(3).standard_normal((4, 12)).astype(np.float32)
    compiled = ov.Core().compile_model(tmp_path / "m.xml", "CPU", CPU_CONFIG)
    theirs = [compiled([data])[o] for o in compiled.outputs]
    model = opref.load(tmp_path / "m.xml")
    ours = list(model.run([data]).values())
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a, b, strict=True)
    opref.save(model, tmp_path / "again.xml")
    again = list(opref.load(tmp_path / "again.xml").run([data]).values())
    for a, b in zip(again, theirs):
        np.testing.assert_array_equal(a, b, strict=True)
