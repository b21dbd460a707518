"""Resource limits (issue 17 part 3, runtime/limits.py): opref.limits(...) and the OPREF_* variables for
the largest tensor, the bytes one kernel may allocate (outputs + declared temporaries), Loop iterations
and a per-run time budget; each trips with a message naming the op/layer, the size and the limit, the
context manager nests and restores, threads see their own limits, runs under the limits are unchanged."""
from __future__ import annotations

import threading

import numpy as np
import pytest

import opref
from opref import limits, run_op
from opref.errors import InputError, ModelError, OprefError
from opref.ir_xml.writer import op_model
from opref.runtime import limits as limits_module
from opref.runtime.kernels import WORKSPACE
from opref.runtime.limits import TimeBudgetError
from test_reader import GOOD_MAP, load, loop_xml

CONV = {"strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1], "dilations": [1, 1], "auto_pad": "explicit"}


def conv_inputs(c=4, size=16, m=8):
    rng = np.random.default_rng(0)
    return [rng.random((1, c, size, size), np.float32), rng.random((m, c, 3, 3), np.float32)]


def im2col_bytes(c=4, size=16, m=8):
    """By hand: padded data 1*c*(size+2)^2, columns c*9*size^2, product m*size^2 (f32), output m*size^2."""
    return 4 * (c * (size + 2) ** 2 + c * 9 * size * size + m * size * size), 4 * m * size * size


def one_op(op, inputs, attrs=None):
    infos = [opref.TensorInfo(opref.types.element_type(x).name, opref.PartialShape(list(x.shape))) for x in inputs]
    xml, weights = op_model(op, infos, attrs, outputs=opref.infer_op(op, infos, attrs))
    return load(xml, weights)


def test_defaults_and_environment(monkeypatch):
    for var in limits_module.VARIABLES.values():
        monkeypatch.delenv(var, raising=False)
    lim = limits_module.current()
    assert (lim.max_tensor_bytes, lim.max_kernel_bytes, lim.max_loop_iterations, lim.time_budget) == \
        (2 << 30, 8 << 30, 1 << 20, None)
    monkeypatch.setenv("OPREF_MAX_TENSOR_BYTES", "1000")
    assert limits_module.current().max_kernel_bytes == 4000          # follows the tensor limit
    monkeypatch.setenv("OPREF_MAX_KERNEL_BYTES", "1500")
    monkeypatch.setenv("OPREF_TIME_BUDGET", "2.5")
    lim = limits_module.current()
    assert (lim.max_kernel_bytes, lim.time_budget) == (1500, 2.5)
    for var, bad in (("OPREF_MAX_KERNEL_BYTES", "-3"), ("OPREF_TIME_BUDGET", "soon"), ("OPREF_TIME_BUDGET", "nan")):
        monkeypatch.setenv(var, bad)
        with pytest.raises(InputError, match=f"{var} must be a positive number of (bytes|seconds), got '{bad}'"):
            getattr(limits_module.current(), limits_module.FIELD_OF[var])
        monkeypatch.delenv(var)


@pytest.mark.parametrize("kw", [{"max_tensor_bytes": 0}, {"max_kernel_bytes": -1}, {"max_loop_iterations": 2.5},
                                {"time_budget": "1"}, {"max_tensor_bytes": True}])
def test_bad_arguments(kw):
    with pytest.raises(InputError, match=f"opref.limits: {next(iter(kw))} must be a positive"):
        limits(**kw)


def test_context_nests_and_restores():
    outer = limits_module.current()
    with limits(max_tensor_bytes=1000, time_budget=5) as a:
        assert (a.max_tensor_bytes, a.time_budget) == (1000, 5.0)
        with limits(max_loop_iterations=7) as b:
            # unset fields keep the enclosing context's values
            assert (b.max_tensor_bytes, b.max_loop_iterations, b.time_budget) == (1000, 7, 5.0)
            with limits(time_budget=float("inf")) as c:
                assert c.time_budget is None
            assert limits_module.current().time_budget == 5.0
        assert limits_module.current().max_loop_iterations == outer.max_loop_iterations
    assert limits_module.current().as_dict() == outer.as_dict()
    with pytest.raises(RuntimeError):                   # restored on an exception too
        with limits(max_tensor_bytes=8):
            raise RuntimeError
    assert limits_module.current().max_tensor_bytes == outer.max_tensor_bytes


def test_tensor_limit_trips_and_restores():
    x = np.ones((4, 4), np.float32)
    with limits(max_tensor_bytes=63):
        with pytest.raises(InputError, match=r"^Relu-1: output 'output' of shape \[4, 4\] would need 64 bytes, "
                                             r"more than the 63-byte limit \(OPREF_MAX_TENSOR_BYTES\)"):
            run_op("Relu-1", [x])
    assert run_op("Relu-1", [x])[0].shape == (4, 4)


def test_kernel_limit_counts_the_im2col_columns():
    ins = conv_inputs()
    temporaries, output = im2col_bytes()
    assert WORKSPACE["Convolution-1"](ins, [(1, 8, 16, 16)], CONV) == temporaries
    total = temporaries + output
    with limits(max_kernel_bytes=total):                 # exactly at the limit: runs
        y = run_op("Convolution-1", ins, CONV)[0]
    assert y.shape == (1, 8, 16, 16)
    with limits(max_kernel_bytes=total - 1):             # the output alone would fit: the temporaries do not
        with pytest.raises(InputError, match=rf"^Convolution-1: the kernel would allocate about {total} bytes "
                                             rf"\({output} for its outputs, {temporaries} for its temporaries\), more "
                                             rf"than the {total - 1}-byte limit \(OPREF_MAX_KERNEL_BYTES or "
                                             rf"opref.limits\(max_kernel_bytes=...\)\)"):
            run_op("Convolution-1", ins, CONV)
    assert np.array_equal(run_op("Convolution-1", ins, CONV)[0], y)


def test_kernel_limit_from_environment_and_in_a_model(monkeypatch):
    ins = conv_inputs()
    m = one_op("Convolution-1", ins, CONV)
    y = m.run(ins)
    monkeypatch.setenv("OPREF_MAX_KERNEL_BYTES", "10000")
    with pytest.raises(InputError, match=r"^layer \d+ '.*' \(Convolution-1\): Convolution-1: the kernel would allocate "
                                         r"about "
                                         r"\d+ bytes .* more than the 10000-byte limit \(OPREF_MAX_KERNEL_BYTES"):
        one_op("Convolution-1", ins, CONV).run(ins)
    monkeypatch.delenv("OPREF_MAX_KERNEL_BYTES")
    assert np.array_equal(list(one_op("Convolution-1", ins, CONV).run(ins).values())[0], list(y.values())[0])


def test_prepared_runs_are_checked_again_under_a_new_context():
    # a model's run plan and run_op's prepared call were checked under the default limits: a tighter
    # context prepares them again, so they trip; leaving it gives the plans back
    ins = conv_inputs()
    m = one_op("Convolution-1", ins, CONV)
    for _ in range(3):                                    # the third run uses the run plan
        y = list(m.run(ins).values())[0]
        run_op("Convolution-1", ins, CONV)
    for _ in range(3):
        with limits(max_kernel_bytes=1 << 14):
            with pytest.raises(InputError, match="the kernel would allocate"):
                m.run(ins)
            with pytest.raises(InputError, match="the kernel would allocate"):
                run_op("Convolution-1", ins, CONV)
    assert np.array_equal(list(m.run(ins).values())[0], y)


def test_workspace_of_dynamic_outputs_and_pairs():
    # NMS: ten [B, N, N] f32 pair arrays; its outputs are dynamic (estimated as the largest input)
    boxes = np.zeros((1, 100, 4), np.float32)
    scores = np.zeros((1, 2, 100), np.float32)
    assert WORKSPACE["NonMaxSuppression-5"]([boxes, scores], [None, None, None], {}) == 10 * 4 * 100 * 100
    with limits(max_kernel_bytes=400_000):
        with pytest.raises(InputError, match=r"^NonMaxSuppression-5: the kernel would allocate about \d+ bytes "
                                             r"\(\d+ for its outputs, 400000 for its temporaries\)"):
            run_op("NonMaxSuppression-5", [boxes, scores, np.array(5, np.int64)],
                   {"box_encoding": "corner", "sort_result_descending": True, "output_type": "i64"})


def test_loop_iterations_from_the_context():
    xml, w = loop_xml(GOOD_MAP, trip=-1)
    with limits(max_loop_iterations=50):
        with pytest.raises(ModelError, match=r"layer 3 'loop' \(Loop-5\): more than 50 iterations \(the limit, "
                                             r"OPREF_MAX_LOOP_ITERATIONS or opref.limits\(max_loop_iterations=...\)\); "
                                             r"its condition never turned false"):
            load(xml, w).run([np.zeros(2, np.float32)])


def test_time_budget_stops_a_long_loop():
    # runs until the iteration limit (2^20: minutes); the check before a body's node or an iteration stops it
    xml, w = loop_xml(GOOD_MAP, trip=-1)
    m = load(xml, w)
    with limits(time_budget=0.3):
        start = limits_module.clock()
        with pytest.raises(TimeBudgetError, match=r"^layer \d+ '.*' \(.*\)(: iteration \d+)?: the run has taken "
                                                  r"longer than its time budget of 0.3 s \(OPREF_TIME_BUDGET or "
                                                  r"opref.limits\(time_budget=...\)\)"):
            m.run([np.zeros(2, np.float32)])
        assert limits_module.clock() - start < 5
    assert issubclass(TimeBudgetError, InputError) and issubclass(TimeBudgetError, OprefError)
    xml, w = loop_xml(GOOD_MAP)                     # a model under its budget: unaffected, plans included
    m = load(xml, w)
    with limits(time_budget=60):
        for _ in range(3):
            assert m.run([np.zeros(2, np.float32)])["last"].tolist() == [3.0, 6.0]
    assert limits_module.deadline() is None         # no run in progress once it is over


def test_time_budget_between_nodes(monkeypatch):
    ins = conv_inputs()
    m = one_op("Convolution-1", ins, CONV)
    clock = iter([0.0] + [100.0] * 1000)             # the run starts at 0, every later check sees 100 s
    monkeypatch.setattr(limits_module, "clock", lambda: next(clock))
    with limits(time_budget=10):
        with pytest.raises(TimeBudgetError, match=r"^layer \d+ '.*' \(.*\): the run has taken longer than its "
                                                  r"time budget of 10 s"):
            m.run(ins)
    monkeypatch.undo()
    monkeypatch.setenv("OPREF_TIME_BUDGET", "1e-9")   # from the environment: a new model's first run
    with pytest.raises(TimeBudgetError, match="time budget of 1e-09 s"):
        one_op("Relu-1", [ins[0]]).run([ins[0]])


def test_threads_see_their_own_limits():
    ins = conv_inputs()
    start = threading.Barrier(2)
    results = {}

    def tight():
        with limits(max_kernel_bytes=1 << 12):
            start.wait()
            try:
                run_op("Convolution-1", ins, CONV)
                results["tight"] = "ran"
            except InputError as e:
                results["tight"] = str(e)

    def free():
        start.wait()
        results["free"] = run_op("Convolution-1", ins, CONV)[0].shape

    threads = [threading.Thread(target=tight), threading.Thread(target=free)]
    with limits(max_tensor_bytes=1 << 40):               # the main thread's context is not the threads'
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert "the kernel would allocate" in results["tight"]
    assert results["free"] == (1, 8, 16, 16)


def test_model_under_the_limits_is_unaffected():
    ins = conv_inputs()
    m = one_op("Convolution-1", ins, CONV)
    want = list(m.run(ins).values())[0]
    temporaries, output = im2col_bytes()
    with limits(max_tensor_bytes=output, max_kernel_bytes=temporaries + output, max_loop_iterations=1,
                time_budget=3600):
        for _ in range(3):
            assert np.array_equal(list(m.run(ins).values())[0], want)
