"""Run plans (issue 19): `Model.run` prepares a plan once per input signature (kernels bound to their
attributes, slots resolved, shape rules done), on the signature's second run, and runs later calls
through it; `run_op` reuses the validation and shape inference of a repeated call. Checked here
against the node-by-node path (an Executor whose `step` is overridden runs every node through `step`,
as every run did before plans):
bit-identical results on the catalogue models, a new plan for new input shapes, no step bound where
the signature does not fix its inputs (data-dependent shapes, shape-giving values fed by the user),
errors worded as before, and no stale run_op result when attributes, types or shape-giving values
change."""
from __future__ import annotations

import numpy as np
import openvino as ov
import openvino.opset15 as o15
import pytest

import opref
from opref.errors import InputError, OprefError
from opref.runtime import ops as op_module
from opref.runtime.executor import Executor
from tests.models import model_path, random_inputs

# convolutions (squeezenet), dynamic dims and shape sub-graphs (transformer_block), a recurrent op
# with f16 weights folded once (lstm fp16), sub-graph bodies (loop, if, tensor_iterator), movement ops
CATALOGUE = [("squeezenet", ""), ("transformer_block", ""), ("lstm", "fp16"), ("gru", ""), ("loop", ""),
             ("if", ""), ("tensor_iterator", ""), ("movement_batch", "")]


class NodeByNode(Executor):
    """Runs every node through `step` (overriding it turns plans off): the behaviour before plans."""

    def __init__(self, graph):
        super().__init__(graph)
        self.calls = 0

    def step(self, i, node, args):
        self.calls += 1
        return super().step(i, node, args)


def _same(a: dict, b: dict) -> bool:
    return list(a) == list(b) and all(
        type(a[k]) is type(b[k]) and a[k].dtype == b[k].dtype and a[k].shape == b[k].shape and
        np.array_equal(a[k], b[k], equal_nan=a[k].dtype.kind in "fc") for k in a)


def _node_by_node(model, feeds: dict) -> dict:
    ex = NodeByNode(model.graph)
    values = ex.run([feeds[p.name] for p in model.inputs])
    assert ex.calls > 0 and not ex.plans
    return dict(zip([p.name for p in model.outputs], values))


def _bound_ops(model) -> set[str]:
    """The op types of the top-level steps the model's plans bind."""
    ex = model._executor
    return {ex.graph.nodes[st.index].schema.name for plan in ex.plans.values() for st in plan.steps
            if st.kernel is not None}


def _bound_steps(model) -> int:
    """Bound steps in the plans of the model's Executor and of its bodies' Executors."""
    todo, count = [model._executor], 0
    while todo:
        ex = todo.pop()
        count += sum(1 for plan in ex.plans.values() for st in plan.steps if st.kernel is not None)
        todo.extend(ex._bodies.values())
    return count


@pytest.mark.parametrize("name,variant", CATALOGUE, ids=[n + ("_" + v if v else "") for n, v in CATALOGUE])
def test_plan_is_bit_identical_to_node_by_node(name, variant):
    model = opref.load(model_path(name, variant))
    for seed in (0, 1):
        feeds = random_inputs(model, name, seed)
        want = _node_by_node(model, feeds)
        first = model.run(feeds)                 # seed 0: prepares the plan; seed 1: runs through it
        again = model.run(feeds)                 # through the plan
        assert _same(first, want) and _same(again, want), f"{name}: seed {seed}"
    assert len(model._executor.plans) == 1
    assert _bound_steps(model) > 0, "the plan binds the steps whose inputs the signature fixes"


def test_new_input_shapes_prepare_a_new_plan():
    model = opref.load(model_path("transformer_block"))
    rng = np.random.default_rng(3)
    a, b = (rng.standard_normal(s).astype(np.float32) for s in ((2, 7, 32), (1, 3, 32)))
    ya = model.run({"x": a})["y"]
    yb = model.run({"x": b})["y"]
    assert ya.shape == (2, 7, 32) and yb.shape == (1, 3, 32)
    assert not model._executor.plans, "a signature's first run prepares no plan"
    assert np.array_equal(model.run({"x": a})["y"], ya) and np.array_equal(model.run({"x": b})["y"], yb)
    assert len(model._executor.plans) == 2, "the second run of each signature prepares its plan"
    for x, y in ((a, ya), (b, yb), (a, ya)):   # each through its own plan, again
        got = model.run({"x": x})["y"]
        assert got.shape == y.shape and np.array_equal(got, y)
        assert _same({"y": got}, _node_by_node(model, {"x": x}))


def _save(tmp_path, name, outputs, params):
    path = tmp_path / f"{name}.xml"
    ov.save_model(ov.Model(outputs, params, name), str(path), compress_to_fp16=False)
    return opref.load(path)


def test_data_dependent_shapes_are_not_bound(tmp_path):
    """NonZero's output shape depends on values: what follows it is re-inferred on every run."""
    x = o15.parameter([6], ov.Type.f32, name="x")
    nz = o15.non_zero(x, "i64")
    y = o15.multiply(o15.convert(nz, "f32"), o15.constant(np.float32(2)))
    model = _save(tmp_path, "nonzero", [o15.result(y)], [x])
    for values in ([0, 1, 0, 2, 3, 0], [1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 0, 0], [0, 0, 5, 0, 0, 0]):
        v = np.array(values, np.float32)
        got = list(model.run([v]).values())[0]
        assert np.array_equal(got, 2 * np.nonzero(v)[0][None].astype(np.float32)), values
    assert len(model._executor.plans) == 1
    assert _bound_ops(model) == set(), "NonZero's shape rule gives a dynamic dim: nothing after it is bound"


def test_fed_shape_values_are_not_bound(tmp_path):
    """A Reshape whose target shape is a model input: same signature, new values, new output shape."""
    x = o15.parameter([12], ov.Type.f32, name="x")
    s = o15.parameter([2], ov.Type.i64, name="s")
    y = o15.relu(o15.reshape(x, s, False))
    model = _save(tmp_path, "reshape", [o15.result(y)], [x, s])
    data = np.arange(12, dtype=np.float32) - 6
    for target in ([3, 4], [4, 3], [2, 6], [3, 4]):
        got = list(model.run([data, np.array(target, np.int64)]).values())[0]
        assert got.shape == tuple(target) and np.array_equal(got, np.maximum(data, 0).reshape(target))
    assert len(model._executor.plans) == 1
    assert _bound_ops(model) == set(), "the target shape is fed: Reshape and what follows are not bound"
    with pytest.raises(OprefError, match="Reshape") as planned:
        model.run([data, np.array([5, 2], np.int64)])
    fresh = opref.load(tmp_path / "reshape.xml")
    with pytest.raises(OprefError) as unplanned:
        fresh.run([data, np.array([5, 2], np.int64)])
    assert type(planned.value) is type(unplanned.value) and str(planned.value) == str(unplanned.value)


def test_kernel_error_in_a_bound_step_is_worded_as_before(tmp_path):
    """A GatherElements whose indices (a model input) go out of range once the plan is prepared: the
    bound step fails and is redone node by node, which raises what a run without a plan raises."""
    x = o15.parameter([5], ov.Type.f32, name="x")
    i = o15.parameter([2], ov.Type.i64, name="i")
    y = o15.gather_elements(x, i, 0)
    model = _save(tmp_path, "gather", [o15.result(y)], [x, i])
    data = np.arange(5, dtype=np.float32)
    assert np.array_equal(list(model.run([data, np.array([4, 0])]).values())[0], [4, 0])
    assert model.run([data, np.array([1, 2])]) and len(model._executor.plans) == 1
    assert _bound_ops(model) == {"GatherElements"}          # (a Result is no step: the plan gives its input)
    bad = [data, np.array([1, 9])]
    with pytest.raises(OprefError) as planned:
        model.run(bad)
    fresh = opref.load(tmp_path / "gather.xml")
    with pytest.raises(OprefError) as unplanned:
        NodeByNode(fresh.graph).run(bad)
    assert type(planned.value) is type(unplanned.value) and str(planned.value) == str(unplanned.value)
    assert "layer" in str(planned.value)
    assert np.array_equal(list(model.run([data, np.array([3, 3])]).values())[0], [3, 3])   # still fine


def test_step_hook_sees_every_node_on_every_run():
    model = opref.load(model_path("squeezenet"))
    feeds = random_inputs(model, "squeezenet")
    ex = NodeByNode(model.graph)
    ex.run([feeds[p.name] for p in model.inputs])
    first = ex.calls
    ex.run([feeds[p.name] for p in model.inputs])
    computed = sum(1 for k in ex.kind if k == "compute")
    assert ex.calls - first == computed and first >= computed


def test_feeds_are_still_checked_after_a_plan():
    model = opref.load(model_path("squeezenet"))
    feeds = random_inputs(model, "squeezenet")
    name = model.inputs[0].name
    model.run(feeds)
    model.run(feeds)
    with pytest.raises(InputError, match="expected element type"):
        model.run({name: feeds[name].astype(np.float64)})
    with pytest.raises(InputError, match="expected shape"):
        model.run({name: feeds[name][:, :2]})
    with pytest.raises(InputError, match="no input named"):
        model.run({"nope": feeds[name]})


def _step_ops(model) -> list[str]:
    """The op types of the top-level steps of the model's plan (bound or not)."""
    (plan,) = model._executor.plans.values()
    return [model._executor.graph.nodes[st.index].schema.name for st in plan.steps]


def test_values_the_signature_fixes_are_computed_once():
    """The LSTM model's initial states are Broadcasts of zeros to a shape taken from the input (ShapeOf,
    Gather, Concat): the signature fixes their values, so the plan computes them when it is prepared
    and keeps them (read-only), and each run does the LSTM, the Transposes and the Tanh only."""
    model = opref.load(model_path("lstm"))
    feeds = random_inputs(model, "lstm")
    want = _node_by_node(model, feeds)
    model.run(feeds)
    model.run(feeds)
    ops = _step_ops(model)
    assert not {"ShapeOf", "Gather", "Concat", "Broadcast"} & set(ops), ops
    assert "LSTMSequence" in ops
    assert _same(model.run(feeds), want)
    (plan,) = model._executor.plans.values()
    kept = [v for v in plan.initial if v is not None]
    assert kept and not any(v.flags.writeable for v in kept
                            if not isinstance(getattr(v, "base", None), np.memmap))


def test_constant_weights_are_prepared_once(monkeypatch):
    """The LSTM's W, R and B are constants: its plan prepares them (reordered, transposed) when it is made, and
    later runs only run the time loop; the results stay bit-identical to node-by-node."""
    from opref.runtime.kernels import sequence
    model = opref.load(model_path("lstm"))
    feeds = random_inputs(model, "lstm")
    want = _node_by_node(model, feeds)
    calls = []
    prepare = sequence._lstm_weights
    monkeypatch.setattr(sequence, "_lstm_weights", lambda *a, **k: calls.append(1) or prepare(*a, **k))
    model.run(feeds)                                   # no plan yet: the kernel prepares and runs
    model.run(feeds)                                   # makes the plan (the LSTM step prepares once more)
    made = len(calls)
    for _ in range(3):
        assert _same(model.run(feeds), want)
    assert made >= 2 and len(calls) == made, calls


def test_a_fixed_value_a_result_gives_is_fresh_on_every_run(tmp_path):
    """A Result of ShapeOf: fixed by the signature, but each run returns its own (writable) array."""
    x = o15.parameter([-1, 3], ov.Type.f32, name="x")
    y = o15.multiply(o15.convert(o15.shape_of(x), "f32"), o15.constant(np.float32(2)))
    model = _save(tmp_path, "shape", [o15.result(y), o15.result(o15.relu(x))], [x])
    data = np.ones((4, 3), np.float32)
    runs = [list(model.run([data]).values())[0] for _ in range(4)]
    for got in runs:
        assert np.array_equal(got, [8, 6]) and got.flags.writeable
    runs[-1][:] = 0
    assert np.array_equal(list(model.run([data]).values())[0], [8, 6])


def test_only_small_fixed_values_are_kept(tmp_path, monkeypatch):
    """Values the signature fixes are kept up to FOLD_BYTES per plan: a larger one is computed on every run."""
    from opref.runtime import executor
    x = o15.parameter([-1, 64], ov.Type.f32, name="x")
    big = o15.broadcast(o15.constant(np.float32(1)), o15.shape_of(x))      # [n, 64] ones
    y = o15.add(x, big)
    model = _save(tmp_path, "big", [o15.result(y)], [x])
    monkeypatch.setattr(executor, "FOLD_BYTES", 1024)
    for rows in (2, 8):                                   # 512 bytes: kept; 2048 bytes: a step
        data = np.full((rows, 64), 2, np.float32)
        for _ in range(3):
            assert np.array_equal(list(model.run([data]).values())[0], np.full((rows, 64), 3, np.float32))
    ops = [[model._executor.graph.nodes[st.index].schema.name for st in p.steps]
           for p in model._executor.plans.values()]
    assert sorted(("Broadcast" in o) for o in ops) == [False, True], ops


def test_a_plan_runs_its_kernels_quietly(tmp_path):
    """A plan runs inside one np.errstate(all="ignore") and calls the kernels that `quiet` wraps bare (their
    `.raw`): on infinities and NaNs (inf - inf, 0 * inf, overflow) a planned run warns no more than a run
    without plans, and gives its bits."""
    import warnings
    x = o15.parameter([2, 3, 4], ov.Type.f32, name="x")
    mm = o15.matmul(x, o15.constant(np.full((4, 4), 3e38, np.float32)), False, False)
    s = o15.add(mm, o15.multiply(x, o15.constant(np.float32(0))))
    y = o15.mvn(o15.gelu(s, "erf"), o15.constant(np.array([-1], np.int64)), True, 1e-5, "inside_sqrt")
    model = _save(tmp_path, "quiet", [o15.result(y)], [x])
    data = np.array([np.inf, -np.inf, np.nan, 1, -1, 0] * 4, np.float32).reshape(2, 3, 4)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        want = _node_by_node(model, {"x": data})
        for _ in range(3):
            assert _same(model.run({"x": data}), want)
    assert not caught, [str(w.message) for w in caught]
    (plan,) = model._executor.plans.values()
    from opref.runtime.kernels import KERNELS
    raw = {model._executor.graph.nodes[st.index].schema.name for st in plan.steps
           if st.kernel is getattr(KERNELS[model._executor.graph.nodes[st.index].op], "raw", None)}
    assert {"MatMul", "Gelu", "MVN"} <= raw, raw


# --- writing into inputs and kept buffers (runtime/arena.py) ----------------------------------------------------
def _elementwise_chain(tmp_path, shape=(256, 256)):
    """x -> Multiply -> Add -> Relu -> Tanh (a Result), f32 of 256 KB: Multiply cannot write into the feed, so it
    writes into a kept buffer; Add and Relu into it in place; Tanh, a Result, into a new array."""
    x = o15.parameter(list(shape), ov.Type.f32, name="x")
    y = o15.tanh(o15.relu(o15.add(o15.multiply(x, o15.constant(np.float32(0.5))), o15.constant(np.float32(-0.1)))))
    return _save(tmp_path, "chain", [o15.result(y)], [x])


def _want_chain(x):
    return np.tanh(np.maximum(x * np.float32(0.5) + np.float32(-0.1), np.float32(0)))


def test_planned_runs_write_into_their_buffers(tmp_path):
    """A warm planned run of the chain allocates its result only: the intermediates are written into a buffer the
    plan keeps (allocated by its first planned run) and then in place; a run without plans holds two at once."""
    import tracemalloc
    model = _elementwise_chain(tmp_path)
    rng = np.random.default_rng(0)
    feeds = [rng.standard_normal((256, 256)).astype(np.float32) for _ in range(6)]
    size = feeds[0].nbytes
    peaks = []
    for x in feeds:
        tracemalloc.start()
        y = list(model.run([x]).values())[0]
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert np.array_equal(y, _want_chain(x))
    (plan,) = model._executor.plans.values()
    assert plan.buffers == (256 * 256 * 4,), plan.buffers
    steps = {model._executor.graph.nodes[st.index].schema.name: st.into for st in plan.steps}
    assert steps["Multiply"].buffer == 0 and [b for _, b in steps["Add"].inputs] == [0] and \
        steps["Relu"].inputs and steps["Tanh"] is None, steps
    assert peaks[0] >= 1.9 * size and peaks[1] >= 1.9 * size, peaks           # no plan yet; the plan prepared
    assert peaks[2] >= 1.9 * size, peaks                                        # the first planned: its buffer
    assert all(p < 1.2 * size for p in peaks[3:]), peaks                        # warm: the result alone


def test_a_plan_never_writes_into_feeds_results_or_what_the_caller_keeps(tmp_path):
    """Feeds stay as they were; a result (and a view of an intermediate that a Result gives) stays the caller's
    after later runs; a Relu of the feed itself gets a new array."""
    x = o15.parameter([128, 256], ov.Type.f32, name="x")
    m = o15.multiply(x, o15.constant(np.float32(3)))
    view = o15.reshape(m, o15.constant(np.array([256, 128], np.int64)), False)       # a Result: a view of m's buffer
    a = o15.add(m, o15.constant(np.float32(1)))
    r = o15.relu(x)                                                                   # the feed: never in place
    b = o15.subtract(o15.relu(a), r)
    model = _save(tmp_path, "keep", [o15.result(view), o15.result(b), o15.result(r)], [x])
    rng = np.random.default_rng(1)
    kept = []
    for _ in range(6):
        data = rng.standard_normal((128, 256)).astype(np.float32)
        copy = data.copy()
        got = list(model.run([data]).values())
        assert np.array_equal(data, copy), "a feed was written into"
        kept.append((copy, got))
    assert model._executor.plans and next(iter(model._executor.plans.values())).buffers
    for data, (v, y, r) in kept:                     # every run's arrays as that run gave them
        m = data * np.float32(3)
        assert np.array_equal(v, m.reshape(256, 128))
        assert np.array_equal(r, np.maximum(data, 0))
        assert np.array_equal(y, np.maximum(m + np.float32(1), 0) - np.maximum(data, 0))


def test_threads_running_one_plan_use_their_own_buffers(tmp_path):
    """Runs of one plan at once in several threads each write into their own set of buffers; a few sets are kept
    idle between runs."""
    from concurrent.futures import ThreadPoolExecutor

    from opref.runtime import executor
    model = _elementwise_chain(tmp_path)
    rng = np.random.default_rng(2)
    feeds = [rng.standard_normal((256, 256)).astype(np.float32) for _ in range(32)]
    for x in feeds[:2]:
        model.run([x])                                                          # the plan is prepared

    def run(x):
        return [np.array_equal(list(model.run([x]).values())[0], _want_chain(x)) for _ in range(5)]
    with ThreadPoolExecutor(8) as pool:
        assert all(all(ok) for ok in pool.map(run, feeds))
    (plan,) = model._executor.plans.values()
    assert 1 <= len(plan.arenas) <= executor.ARENAS_KEPT          # (the sets of more threads at once are dropped)


def _random_graph(tmp_path, seed):
    """A random graph of elementwise ops, views (Reshape, Transpose) and Concat/Split over two f32 inputs of
    128 KB, with 1-4 Results taken anywhere (views and inputs of later ops among them)."""
    rng = np.random.default_rng(seed)
    params = [o15.parameter([64, 512], ov.Type.f32, name=n) for n in ("x", "y")]
    nodes = [(p, (64, 512)) for p in params]
    for _ in range(int(rng.integers(6, 16))):
        kind = rng.choice(["add", "multiply", "subtract", "relu", "tanh", "exp", "reshape", "transpose", "split"])
        a, shape = nodes[int(rng.integers(len(nodes)))]
        if kind in ("add", "multiply", "subtract"):
            same = [n for n, s in nodes if s == shape]
            b = same[int(rng.integers(len(same)))] if rng.random() < 0.8 else \
                o15.constant(rng.standard_normal(shape[-1]).astype(np.float32))
            pair = (a, b) if rng.random() < 0.5 else (b, a)
            nodes.append((getattr(o15, kind)(*pair), shape))
        elif kind == "exp":
            nodes.append((o15.exp(o15.multiply(a, o15.constant(np.float32(0.01)))), shape))
        elif kind in ("relu", "tanh"):
            nodes.append((getattr(o15, kind)(a), shape))
        elif kind == "reshape":
            to = (shape[0] * 2, shape[1] // 2) if shape[1] % 2 == 0 and shape[1] > 64 else (64, 512)
            if np.prod(to) == np.prod(shape):
                nodes.append((o15.reshape(a, o15.constant(np.array(to, np.int64)), False), to))
        elif kind == "transpose":
            nodes.append((o15.transpose(a, o15.constant(np.array([1, 0], np.int64))), shape[::-1]))
        elif shape[0] % 2 == 0:                  # split in two, then the halves back together, swapped
            halves = o15.split(a, o15.constant(np.int64(0)), 2)
            nodes.append((o15.concat([halves.output(1), halves.output(0)], 0), shape))
    picks = rng.choice(len(nodes), size=min(len(nodes), int(rng.integers(1, 5))), replace=False)
    outputs = [o15.result(nodes[int(k)][0]) for k in sorted(picks)]
    last = nodes[-1][0]
    if all(nodes[int(k)][0] is not last for k in picks):
        outputs.append(o15.result(last))
    return _save(tmp_path, f"random{seed}", outputs, params)


@pytest.mark.parametrize("seed", range(24))
def test_random_graphs_planned_equal_node_by_node_and_keep_every_runs_arrays(tmp_path, seed):
    """On random graphs of ops that write in place or into kept buffers, mixed with views, every planned run gives
    the bits of a run without plans, leaves its feeds as they were, and never touches what earlier runs returned."""
    model = _random_graph(tmp_path, seed)
    rng = np.random.default_rng(1000 + seed)
    kept = []
    for _ in range(6):
        feeds = {n: rng.standard_normal((64, 512)).astype(np.float32) for n in ("x", "y")}
        copies = {n: v.copy() for n, v in feeds.items()}
        got = model.run(feeds)
        want = _node_by_node(model, copies)
        assert _same(got, want), seed
        assert all(np.array_equal(feeds[n], copies[n]) for n in feeds), "a feed was written into"
        kept.append((got, {k: v.copy() for k, v in got.items()}))
    for got, copy in kept:
        assert _same(got, copy), "a later run wrote into an earlier run's output"
    assert model._executor.plans


def test_feeds_of_an_equal_dtype_are_taken_with_numpys_own(tmp_path):
    """A feed whose dtype equals the input's but is another instance (np.dtype('<f4') on a little-endian machine)
    reaches the kernels with NumPy's own (they compare dtypes by identity first), the caller's array untouched."""
    model = _elementwise_chain(tmp_path)
    little = np.dtype(np.float32).newbyteorder("<")             # (x86: equal to float32, another instance)
    data = (np.arange(256 * 256, dtype=np.float32).reshape(256, 256) / np.float32(65536)).view(little)
    assert data.dtype == np.float32 and data.dtype is not np.dtype(np.float32)
    for _ in range(3):
        (fed,) = model._feeds([data])
        assert fed.dtype is np.dtype(np.float32) and np.shares_memory(fed, data)
        assert np.array_equal(list(model.run([data]).values())[0], _want_chain(data))
    assert data.dtype is little


def test_only_arrays_nothing_else_references_are_written_into():
    """arena.writable takes an input slot only when its array is a writable, contiguous ndarray that nothing but the
    run's list references, whose memory is its own or that of an array nothing else references (the plan's buffer
    aside); arena.buffer gives a new buffer in place of one something still references."""
    from opref.runtime import arena
    assert arena.ONE_HOLDER is not None

    def slot(make):                                              # (the list alone holds what `make` makes)
        return arena.writable([None, make()], [], ((1, -1),))
    assert slot(lambda: np.zeros(4)) == 1
    kept = np.zeros(4)
    assert slot(lambda: kept) == 0                               # the caller holds it
    assert slot(lambda: np.zeros(8)[:4]) == 1                    # a view of an array only it references
    base = np.zeros(8)
    assert slot(lambda: base[:4]) == 0                           # ... that the caller holds
    assert slot(lambda: np.zeros((4, 4))[:, ::2]) == 0           # not contiguous
    ro = np.zeros(4)
    ro.flags.writeable = False
    values = [None, ro]
    del ro
    assert arena.writable(values, [], ((1, -1),)) == 0           # read-only (a constant)
    flat = np.zeros(32, np.uint8)
    buffers = [flat]
    view = flat[:32].view(np.float32)
    del flat
    values = [None, view]
    del view
    assert arena.writable(values, buffers, ((1, 0),)) == 1       # the plan's buffer, viewed by the slot alone
    assert arena.writable(values, buffers, ((1, -1),)) == 0      # (not counted as the plan's: one holder too many)
    into = arena.Into((), 0, (2, 4), np.dtype(np.float32), 32)
    viewed = id(buffers[0])
    out = arena.buffer(buffers, into)                            # values still holds a view of it: replaced
    assert id(out.base) != viewed and out.base is buffers[0] and out.shape == (2, 4)
    values.clear()
    mine = id(buffers[0])
    del out
    again = arena.buffer(buffers, into)                          # nothing else holds it: the same buffer
    assert id(again.base) == mine and again.dtype == np.float32


def test_a_kernel_failing_in_place_is_an_internal_error(tmp_path, monkeypatch):
    """Written in place, a failing kernel may have overwritten its input: the step is not redone from it, the run
    raises an InternalError naming the layer."""
    from opref.errors import InternalError
    model = _elementwise_chain(tmp_path)
    x = np.ones((256, 256), np.float32)
    for _ in range(3):
        model.run([x])
    (plan,) = model._executor.plans.values()

    def failing(*args, out=None, **kw):
        if out is not None:
            out[:] = np.nan
            raise FloatingPointError("failed half-way")
        return np.maximum(args[0], np.float32(0))
    plan.steps = tuple(st._replace(kernel=failing) if st.into is not None and st.into.inputs and
                       model._executor.graph.nodes[st.index].schema.name == "Relu" else st for st in plan.steps)
    with pytest.raises(InternalError, match="Relu.*writing into its input"):
        model.run([x])


# --- run_op ----------------------------------------------------------------------------------------
@pytest.fixture
def cold():
    op_module.clear_call_cache()
    yield
    op_module.clear_call_cache()


def _fresh(op, inputs, attrs=None, **kw):
    """run_op with an empty cache: the full path."""
    op_module.clear_call_cache()
    return opref.run_op(op, inputs, attrs, **kw)


def _outcome(fn):
    try:
        return fn()
    except OprefError as e:
        return type(e), str(e)


def test_run_op_repeat_equals_full_path(cold):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3)).astype(np.float32)
    y = rng.standard_normal((3,)).astype(np.float32)
    for _ in range(3):
        got = opref.run_op("Add-1", [x, y], {"auto_broadcast": "numpy"})
        assert _same({"": got[0]}, {"": _fresh("Add-1", [x, y], {"auto_broadcast": "numpy"})[0]})
        opref.run_op("Add-1", [x, y], {"auto_broadcast": "numpy"})          # (the cache is warm again)


def test_run_op_attrs_change_is_never_stale(cold):
    x = np.linspace(-3, 3, 7, dtype=np.float32)
    for lo, hi in ((-1.0, 1.0), (-2.0, 0.5), (-1.0, 1.0), (0.0, 0.0)):
        for _ in range(2):
            got = opref.run_op("Clamp-1", [x], {"min": lo, "max": hi})[0]
            assert np.array_equal(got, np.clip(x, lo, hi)), (lo, hi)
    # same values, other attribute types or spellings: each bound on its own
    a = opref.run_op("Softmax-8", [np.ones((2, 3), np.float32)], {"axis": 1})[0]
    b = opref.run_op("Softmax-8", [np.ones((2, 3), np.float32)], {"axis": 0})[0]
    assert np.allclose(a, 1 / 3) and np.allclose(b, 1 / 2)
    t = opref.run_op("Transpose-1", [np.arange(6, dtype=np.float32).reshape(2, 3), np.array([1, 0])])[0]
    assert t.shape == (3, 2)


def test_run_op_types_change_is_never_stale(cold):
    for dtype in (np.float32, np.float64, np.int32, np.float16, np.int64, np.float32):
        x = np.array([-2, -1, 0, 3], dtype)
        for _ in range(2):
            got = opref.run_op("Relu-1", [x])[0]
            assert got.dtype == dtype and np.array_equal(got, np.maximum(x, 0))
    for shape in ((4,), (2, 2), (1, 4), (4,)):
        x = np.arange(4, dtype=np.float32).reshape(shape) - 2
        assert opref.run_op("Relu-1", [x])[0].shape == shape


def test_run_op_shape_giving_values_change_is_never_stale(cold):
    x = np.arange(12, dtype=np.float32)
    for target in ([3, 4], [4, 3], [2, 6], [3, 4], [12, 1]):
        for _ in range(2):
            got = opref.run_op("Reshape-1", [x, np.array(target, np.int64)], {"special_zero": False})[0]
            assert got.shape == tuple(target)
    with pytest.raises(OprefError) as cached:
        opref.run_op("Reshape-1", [x, np.array([5, 2], np.int64)], {"special_zero": False})
    assert _outcome(lambda: _fresh("Reshape-1", [x, np.array([5, 2], np.int64)], {"special_zero": False})) == \
        (type(cached.value), str(cached.value))


def test_run_op_errors_unchanged_after_a_good_call(cold):
    """A signature that passed once: bad data, bad attributes, bad inputs still raise as before."""
    data = np.arange(5, dtype=np.float32)
    good = lambda i: opref.run_op("Gather-8", [data, np.array(i, np.int64), np.array(0, np.int64)])   # noqa: E731
    assert np.array_equal(good([1, 2])[0], [1, 2])
    assert np.array_equal(good([1, 2])[0], [1, 2])
    elements = lambda i: opref.run_op("GatherElements-6", [data, np.array(i, np.int64)], {"axis": 0})  # noqa: E731
    assert np.array_equal(elements([1, 2])[0], [1, 2]) and np.array_equal(elements([4, 0])[0], [4, 0])
    calls = [
        lambda: elements([1, 9]),                     # bad data: the kernel rejects it
        lambda: opref.run_op("Gather-8", [data, np.array([1, 2], np.int64), np.array(0, np.int64)], {"batch_dims": 3}),
        lambda: opref.run_op("Gather-8", [data, np.array([1, 2], np.int64), np.array(1, np.int64)]),
        lambda: opref.run_op("Gather-8", [data, np.array([1, 2], np.int64)]),
        lambda: opref.run_op("Gather-8", [data, np.array([1, 2], np.float32), np.array(0, np.int64)]),
        lambda: opref.run_op("Gather-8", [data, np.array([1, 2], np.int64), np.array(0, np.int64)], {"nope": 1}),
        lambda: opref.run_op("Relu-1", [data], {"alpha": 1}),
        lambda: opref.run_op("Relu-1", [None]),
        lambda: opref.run_op("Relu-1", (data, data)),
    ]
    for k, call in enumerate(calls):
        warm = _outcome(call)
        assert isinstance(warm, tuple), f"call {k} was accepted"
        op_module.clear_call_cache()
        assert good([0, 0]) and good([0, 0]) and elements([0, 0]) and elements([0, 0])   # warm again
        assert _outcome(call) == warm, f"call {k}"
        op_module.clear_call_cache()
        assert _outcome(call) == warm, f"call {k} (cold)"


def test_run_op_untold_types_and_typed_arrays(cold):
    bits = opref.typed(np.array([1, 0, 1, 1], np.uint8), "u1")
    for _ in range(2):
        out = opref.run_op("Convert-1", [bits], {"destination_type": "f32"})[0]
        assert np.array_equal(out, [1, 0, 1, 1]) and out.dtype == np.float32
    plain = np.array([1, 0, 1, 1], np.uint8)
    for _ in range(2):
        out = opref.run_op("Convert-1", [plain], {"destination_type": "f32"}, element_types=["u1"])[0]
        assert np.array_equal(out, [1, 0, 1, 1])
