"""Running a Graph: Parameters fed, Constants from the weights, every other node through its kernel
(after its shape rule has checked the concrete inputs), each intermediate dropped after its last use.
"""
from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Callable, NamedTuple, Sequence

import numpy as np

from ..errors import InputError, InternalError, ModelError, OprefError
from ..types import UNTOLD, element_type, tagged, typed
from . import arena as arenas, limits, subgraph
from .graph import Graph, Node
from .kernels import FIRST_OUTPUT, INTO, PREPARED
from .kernels._elementwise import quiet
from .ops import BoundCall, execute, infer_outputs
from ..opset.schema import as_keywords
from ..shapes import PartialShape

# Stateful models: the executor's part of ReadValue (read the variable) and Assign (write it), by role
STATE_KINDS = {"read_variable": "read", "assign_variable": "write"}


def frozen(value: np.ndarray) -> np.ndarray:
    """A variable's value as the model keeps it: its own read-only copy (no caller's array aliases it)."""
    a = np.array(value, copy=True)
    a.flags.writeable = False
    return a


@dataclass(frozen=True, eq=False)
class Variable:
    """A model's variable: its id, element type and shape (what its ReadValue gives), and its layers."""
    id: str
    element_type: str
    shape: PartialShape
    read: Node
    assign: Node | None


def _ancestors(node: Node) -> set[int]:
    seen, stack = set(), [s.node for s in node.inputs if s is not None]
    while stack:
        n = stack.pop()
        if id(n) not in seen:
            seen.add(id(n))
            stack.extend(s.node for s in n.inputs if s is not None)
    return seen


def model_variables(graph: Graph, infos) -> dict[str, Variable]:
    """The variables of a model, by id, in the order of their ReadValue layers; checks that ReadValues and
    Assigns pair up (one each per variable_id; an Assign needs its ReadValue, an Assign-3 one upstream
    of it) and that what an Assign writes fits the variable (as OpenVINO checks: Assign-3 the same type,
    and shape where both are static; Assign-6 a compatible type and shape)."""
    for node in graph.nodes:
        for body in node.bodies.values():
            inner = next((n for n in body.nodes if n.schema.stateful), None)
            if inner is not None:
                raise ModelError(f"{node.where()}: its body has {inner.where()}: variables inside sub-graph "
                                 f"bodies are not supported")
    reads: dict[str, Node] = {}
    assigns: dict[str, Node] = {}
    for node in graph.nodes:
        kind = STATE_KINDS.get(node.schema.role)
        if kind is None:
            continue
        vid = node.attrs["variable_id"]
        seen = (reads if kind == "read" else assigns)
        if vid in seen:
            raise ModelError(f"{node.where()}: variable {vid!r} has two {node.schema.name}s, this one and "
                             f"{seen[vid].where()} (one ReadValue and one Assign per variable)")
        seen[vid] = node
    variables = {}
    for vid, read in sorted(reads.items(), key=lambda kv: kv[1].id):     # in the file's order
        out = infos[(id(read), 0)]
        variables[vid] = Variable(vid, out.element_type, out.shape, read, assigns.get(vid))
    for vid, node in assigns.items():
        read = reads.get(vid)
        if read is None:
            raise ModelError(f"{node.where()}: variable {vid!r} has no ReadValue (an Assign writes the variable "
                             f"that a ReadValue with the same variable_id reads)")
        new = infos[node.inputs[0].info_key]
        if node.schema.version == 3:
            if read.schema.version != 3 or id(read) not in _ancestors(node):
                raise ModelError(f"{node.where()}: variable {vid!r} has no ReadValue-3 upstream of it "
                                 f"({read.where()} is {'not upstream' if read.schema.version == 3 else 'not ReadValue-3'})")
            var = infos[(id(read), 0)]
            if new.element_type != var.element_type or (new.shape.is_static and var.shape.is_static and
                                                          new.shape != var.shape):
                raise ModelError(f"{node.where()}: writes {new.element_type}{new.shape} to variable {vid!r} of "
                                 f"{var.element_type}{var.shape} ({read.where()}): they must be the same")
        else:
            if read.schema.version == 3:
                var_type, var_shape = infos[(id(read), 0)].element_type, infos[(id(read), 0)].shape
            else:
                var_type, var_shape = read.attrs["variable_type"], read.attrs["variable_shape"]
            if var_type not in ("dynamic", new.element_type) or not var_shape.compatible(new.shape):
                raise ModelError(f"{node.where()}: writes {new.element_type}{new.shape} to variable {vid!r} of "
                                 f"{var_type}{var_shape} ({read.where()}): type and shape must be compatible")
    return variables


# Run plans. A plan is prepared by the second run with a signature (the feeds' types and shapes) and
# used by every later run with it: values live in a list of slots (slot 0 is always None, an absent
# input), each compute step is a BoundCall (ops.py: kernel, keyword attributes and the shape rule's
# answer, all bound) with its input and output slots and the slots freed after it. A step is bound
# only where the signature fixes its inputs' types and shapes and the values on its shape-giving
# (`const`) ports, and the shape rule gives static output shapes; every other step (data-dependent
# shapes downstream of NonZero, sub-graph ops, ReadValue/Assign, no kernel) runs through `step` as
# before. A bound step that raises is redone through `step`, which words the error as it always has.
# A step whose outputs the signature fixes (ShapeOf and what computes on shapes only, on constants) is
# run once, when the plan is prepared, and its outputs are kept in the plan as constants are, up to
# FOLD_BYTES per plan; not where a Result gives them (each run returns its own arrays).
# A step whose kernel can write its output into a given array (kernels.INTO) writes into an input it reads last,
# or into a buffer the plan keeps between runs (runtime/arena.py plans them and checks each run).
PLANS_KEPT = 8               # signatures per Executor; a model run with ever new shapes starts again
ARENAS_KEPT = 4              # sets of a plan's buffers kept idle between runs (one per thread running it at once)
FOLD_BYTES = 1 << 22

# a node's kind in a run: "parameter" (fed), "stored" (a Constant), "folded" (computed from constants
# only, once), "read"/"write" (a variable's ReadValue/Assign), "compute"
_KINDS = {"parameter": "parameter", "constant": "stored"}


class _Step(NamedTuple):
    """One step of a plan (a tuple: `_run_plan` unpacks it in one go)."""
    kernel: Callable | None        # the bound kernel (FIRST_OUTPUT's where only output 0 is read); None: `step`
    keywords: dict | None          # its keyword attributes
    dtype: np.dtype | None         # type and shape of a lone output (None: checked by `call`)
    shape: tuple | None
    call: BoundCall | None         # checks other outputs
    get: Callable | None           # itemgetter of the input slots
    one: bool                      # one input: `get` gives it alone
    index: int                     # the node's index in the graph
    ins: tuple                     # input slots
    out0: int                      # the slot of output 0 when it is the only one read (0: see outs)
    outs: tuple                    # (output index, slot) of the outputs read
    free: tuple                    # slots freed after the step
    into: arenas.Into | None       # where the kernel writes its output (kernels.INTO), None: a new array


class _Plan:
    __slots__ = ("steps", "initial", "param_slots", "result_slots", "peak_live", "limits", "bare", "buffers",
                 "arenas")

    def __init__(self, steps, initial, param_slots, result_slots, peak_live, limit, bare, buffers):
        self.steps, self.initial, self.param_slots = steps, initial, param_slots
        self.result_slots, self.peak_live = result_slots, peak_live
        self.limits = limit                   # the limits its steps were checked under (runtime/limits.py)
        self.bare = bare                      # some step calls a kernel without its errstate (`.raw`)
        self.buffers = buffers                # bytes of each buffer its steps write into (arena.py)
        self.arenas: list[list] = []          # idle sets of those buffers (a run takes one: ARENAS_KEPT at most)


class Executor:
    """A plan for one graph: the order of nodes, and after which step each value is last used.
    Subclasses may override `step(i, node, args)` (it sees every computed node, in order); such an
    Executor runs every node through it and prepares no plan."""

    def __init__(self, graph: Graph):
        self.graph = graph
        self.position = {id(n): i for i, n in enumerate(graph.nodes)}
        last: dict[tuple[int, int], int] = {}
        for i, node in enumerate(graph.nodes):
            for src in node.inputs:
                if src is not None:
                    last[src.info_key] = i
        keep = {r.inputs[0].info_key for r in graph.results if r.inputs and r.inputs[0] is not None}
        self.result_keys = keep
        self.free_after: list[list[tuple[int, int]]] = [[] for _ in graph.nodes]
        for key, i in last.items():
            if key not in keep:
                self.free_after[i].append(key)
        self._bodies: dict[int, Executor] = {}
        self.peak_live = 0                    # most values held at once in a run (a check that
                                              # intermediates are dropped after their last use)
        # Nodes whose inputs are all constant (weight decompression: Const f16 -> Convert) are computed
        # once, on the first run, and kept. Threads may run one Executor at once: a run keeps its values
        # local; the caches below (constants, shape rule answers, plans, body Executors) hold one
        # complete entry per key, stored in one dict assignment (at worst computed twice, never seen
        # half-made).
        constant: set[int] = set()
        for node in graph.nodes:
            role = node.schema.role
            if role == "constant" or (node.inputs and not node.bodies and role is None and
                                      all(s is not None and id(s.node) in constant for s in node.inputs)):
                constant.add(id(node))
        self.constant = constant
        self.cache: dict[int, list[np.ndarray]] = {}      # id(node) -> its outputs
        # Per node: its keyword attributes, which input ports give the shape rule values, and the
        # shape rule's answers by (input types and shapes, values on those ports): a second run with
        # the same input shapes reuses them instead of re-inferring.
        self.keywords = [as_keywords(n.attrs) for n in graph.nodes]
        self.const_ports = [tuple(i for i, p in enumerate(n.schema.ports_for(len(n.inputs))) if p.const)
                            if n.schema.role not in ("parameter", "constant") else () for n in graph.nodes]
        self.inferred: list[dict] = [{} for _ in graph.nodes]
        self.input_keys = [[None if s is None else s.info_key for s in n.inputs] for n in graph.nodes]
        # ReadValue reads the model's state (when set) and Assign writes it (at the end of the run)
        self.kind = [_KINDS.get(n.schema.role) or STATE_KINDS.get(n.schema.role) or
                     ("folded" if id(n) in constant else "compute") for n in graph.nodes]
        # Slots: one per value some node reads or a Result gives (slot 0: None, an absent input)
        slot: dict[tuple[int, int], int] = {}
        for node in graph.nodes:
            for src in node.inputs:
                if src is not None:
                    slot.setdefault(src.info_key, len(slot) + 1)
        for r in graph.results:
            slot.setdefault((id(r), 0), len(slot) + 1)
        self.n_slots = len(slot) + 1
        self.in_slots = [tuple(0 if s is None else slot[s.info_key] for s in n.inputs) for n in graph.nodes]
        # per node: (output index, slot) of the outputs that are read later or given as results
        by_node: dict[int, list[tuple[int, int]]] = {}
        for (node_id, k), s in slot.items():
            by_node.setdefault(node_id, []).append((k, s))
        self.out_slots = [tuple(sorted(by_node.get(id(n), ()))) for n in graph.nodes]
        self.free_slots = [tuple(slot[k] for k in keys) for keys in self.free_after]
        self.result_slots = tuple(slot[(id(r), 0)] for r in graph.results)
        self.param_index = {id(p): k for k, p in enumerate(graph.parameters)}
        self.plans: dict[tuple, _Plan] = {}
        self.seen: set[tuple] = set()           # signatures run once: their second run prepares a plan
        # a subclass that overrides `step` sees every node: it runs without plans
        self.hooked = type(self).step is not Executor.step

    def run(self, feeds: Sequence[np.ndarray], state: dict[str, np.ndarray] | None = None) -> list[np.ndarray]:
        """Result values in graph.results order; feeds in graph.parameters order (checked by the caller).
        `state` holds the variables by id: a ReadValue gives the value there (else its initial value),
        and what the Assigns write goes there once the whole run has succeeded.
        Limits (runtime/limits.py): a plan is kept per `opref.limits` context (its steps were checked
        under its limits); the time budget starts with the outermost run and is checked before each node."""
        scope = limits._scope.get()
        token = None if scope is None else scope.limits
        sig = None
        if not self.hooked and len(feeds) == len(self.graph.parameters):
            try:
                sig = (token,) + tuple((type(a), a.dtype, a.shape, getattr(a, "element_type", None)) for a in feeds)
            except AttributeError:            # not arrays: no plan
                sig = None
        if sig is not None:
            plan = self.plans.get(sig)
            if plan is not None:
                if not plan.bare:
                    return self._planned(plan, feeds, state, scope)
                return self._planned_quietly(plan, feeds, state, scope)    # (steps call kernels' .raw)
            if sig not in self.seen:              # a signature's first run: no plan yet (a model run
                if len(self.seen) >= 4 * PLANS_KEPT:    # once, as a conformance case is, pays nothing for it)
                    self.seen.clear()
                self.seen.add(sig)
                sig = None
        limit = limits.current()
        started = limits.start_run(limit, pin=True)     # (the nodes' checks read `limit`, not the environment)
        try:
            return self._run_nodes(feeds, state, sig, limit)
        finally:
            limits.end_run(started)

    def _planned(self, plan: _Plan, feeds, state, scope) -> list[np.ndarray]:
        if plan.limits.time_budget is None or (scope is not None and scope.deadline is not None):
            return self._run_plan(plan, feeds, state, None if scope is None else scope.deadline)
        started = limits.start_run(plan.limits, pin=True)
        try:
            return self._run_plan(plan, feeds, state, limits.deadline())
        finally:
            limits.end_run(started)

    # the plans whose steps call kernels without their own errstate (`.raw`) run inside this one
    _planned_quietly = quiet(_planned)

    def _run_plan(self, plan: _Plan, feeds, state, deadline) -> list[np.ndarray]:
        if not plan.buffers:
            return self._run_steps(plan, feeds, state, deadline, None)
        try:                                  # (list.pop and append are atomic: threads take one set each)
            arena = plan.arenas.pop()
        except IndexError:
            arena = arenas.new_arena(plan.buffers)
        try:
            return self._run_steps(plan, feeds, state, deadline, arena)
        finally:
            if len(plan.arenas) < ARENAS_KEPT:       # (more threads at once: their extra sets are dropped)
                plan.arenas.append(arena)

    def _run_steps(self, plan: _Plan, feeds, state, deadline, arena) -> list[np.ndarray]:
        values = plan.initial.copy()
        for k, s in plan.param_slots:
            values[s] = feeds[k]
        written: dict[str, np.ndarray] = {}
        ndarray = np.ndarray
        # kernel, keywords, dtype and shape of a lone output, the BoundCall, the input getter (an
        # itemgetter of the input slots) and whether it gets one input; node index, input slots, the
        # slot of output 0 (0: see outs), (output index, slot)s, slots freed after, where it writes (arena.Into)
        clock = limits.clock
        for kernel, kw, dtype, shape, call, get, one, i, ins, out0, outs, free, into in plan.steps:
            if deadline is not None and clock() > deadline:
                raise limits.over_time(self.graph.nodes[i].where())
            if kernel is not None:
                try:
                    if into is not None:
                        res = self._into(kernel, kw, get, one, values, arena, into, i)
                    else:
                        res = kernel(get(values), **kw) if one else kernel(*get(values), **kw)
                    if type(res) is ndarray and res.shape == shape and (res.dtype is dtype or res.dtype == dtype):
                        if out0:
                            values[out0] = res
                            res = None               # (the slot alone holds it: a later step may write into it)
                            for s in free:
                                values[s] = None
                            continue
                        res = [res]
                    else:
                        res = call.outputs(res)
                except InternalError:
                    raise
                except Exception:                    # the full path words the error (or computes)
                    res = self.step(i, self.graph.nodes[i], [values[k] for k in ins])
            else:
                res = self._special(i, [values[k] for k in ins], state, written)
            for k, s in outs:
                values[s] = res[k]
            res = None
            for s in free:
                values[s] = None
        if plan.peak_live > self.peak_live:
            self.peak_live = plan.peak_live
        if state is not None:
            state.update((k, frozen(v)) for k, v in written.items())
        return [values[s] for s in plan.result_slots]

    def _into(self, kernel, kw, get, one, values, arena, into, i):
        """A step's kernel writing its output into an input nothing else can see, or else into the plan's buffer
        (or a new array). Writing into an input, if it fails it may have written part of it: the step cannot be
        redone (InternalError)."""
        slot = arenas.writable(values, arena, into.inputs) if into.inputs else 0
        args = (get(values),) if one else get(values)        # (after `writable`: it counts the references)
        if slot:
            try:
                return kernel(*args, out=values[slot], **kw)
            except Exception as e:
                raise InternalError(f"{self.graph.nodes[i].where()}: its kernel failed writing into its input "
                                    f"({type(e).__name__}: {e})") from e
        if into.buffer < 0:
            return kernel(*args, **kw)
        return kernel(*args, out=arenas.buffer(arena, into), **kw)

    def _special(self, i: int, args: list, state, written) -> list[np.ndarray]:
        """A node of a plan that runs as it would without one: ReadValue/Assign, sub-graph ops, nodes
        whose inputs the signature does not fix."""
        node = self.graph.nodes[i]
        kind = self.kind[i]
        if kind == "read" and state is not None and node.attrs["variable_id"] in state:
            return [state[node.attrs["variable_id"]]]
        outs = self.step(i, node, args)
        if kind == "write":
            written[node.attrs["variable_id"]] = outs[0]
        return outs

    def _run_nodes(self, feeds, state, sig, limit) -> list[np.ndarray]:
        """Every node in order through `step`; with a signature, also prepares its plan."""
        graph = self.graph
        deadline = limits.deadline()
        clock = limits.clock
        values: list = [None] * self.n_slots
        fed = {id(p): x for p, x in zip(graph.parameters, feeds)}
        written: dict[str, np.ndarray] = {}
        live = peak = 0
        building = sig is not None
        if building:
            steps, initial = [], [None] * self.n_slots
            param_slots = []                         # (feed index, slot) of the Parameters read
            fed_slots = set()                        # ... their slots
            planner = arenas.Planner()               # the buffers steps write into
            fixed_shape = [False] * self.n_slots     # the signature fixes the slot's type and shape
            fixed_value = [False] * self.n_slots     # ... and its value
            folded_bytes = 0                         # of the values the plan keeps (FOLD_BYTES at most)
            bare = False                             # some step calls a kernel's `.raw`
            aliases = {}                             # a Result's slot -> the slot of the value it gives
        for i, node in enumerate(graph.nodes):
            if deadline is not None and clock() > deadline:
                raise limits.over_time(node.where())
            kind = self.kind[i]
            ins = self.in_slots[i]
            args = None
            call = None
            shape_known = value_known = False
            if kind == "read" and state is not None and node.attrs["variable_id"] in state:
                outs = [state[node.attrs["variable_id"]]]
            elif building and kind == "compute" and not node.bodies:     # (building: `step` is not overridden)
                args = [values[k] for k in ins]
                try:
                    infos = self._infos(i, node, args)
                except Exception:                    # `step` words the error
                    infos = None
                outs = self._step(i, node, args, infos)
                call, shape_known, value_known = self._bind(i, node, ins, infos, fixed_shape, fixed_value)
            elif kind in ("compute", "read", "write"):
                args = [values[k] for k in ins]
                outs = self.step(i, node, args)
                if kind == "write":
                    written[node.attrs["variable_id"]] = outs[0]
            elif kind == "parameter":
                if id(node) not in fed:
                    raise InputError(f"{node.where()}: no value was given")
                outs = [fed[id(node)]]
                shape_known = True
            elif kind == "stored":
                outs = [node.value]
                shape_known = value_known = True
            else:                                    # computed from constants only: once, then cached
                outs = self.cache.get(id(node))
                if outs is None:
                    outs = self.cache[id(node)] = list(self.step(i, node, [values[k] for k in ins]))
                shape_known = value_known = True
            for k, s in self.out_slots[i]:
                if values[s] is None:
                    live += 1
                values[s] = outs[k]
            if live > peak:
                peak = live
            for s in self.free_slots[i]:
                if values[s] is not None:
                    live -= 1
                values[s] = None
            if building:
                for k, s in self.out_slots[i]:
                    fixed_shape[s], fixed_value[s] = shape_known, value_known
                if kind in ("stored", "folded"):
                    for k, s in self.out_slots[i]:
                        initial[s] = outs[k]
                elif kind == "parameter":
                    param_slots.extend((self.param_index[id(node)], s) for k, s in self.out_slots[i])
                    fed_slots.update(s for k, s in self.out_slots[i])
                elif value_known and folded_bytes + (size := sum(o.nbytes for o in outs)) <= FOLD_BYTES and \
                        node.schema.role != "result" and \
                        not any((id(node), k) in self.result_keys for k, _ in self.out_slots[i]):
                    folded_bytes += size      # the signature fixes its values: computed now, kept in the plan
                    for k, s in self.out_slots[i]:
                        initial[s] = outs[k].view()
                        initial[s].flags.writeable = False     # shared by every run of the plan
                elif node.schema.role == "result" and kind == "compute" and ins and ins[0]:
                    aliases[self.out_slots[i][0][1]] = ins[0]   # a Result gives its input: no step
                else:
                    outs_i = self.out_slots[i]
                    out0 = outs_i[0][1] if len(outs_i) == 1 and outs_i[0][0] == 0 else 0
                    into = None
                    if call is None or not ins:
                        steps.append(_Step(None, None, None, None, None, None, False, i, ins, 0, outs_i,
                                           self.free_slots[i], None))
                    else:
                        run, (dtype, shape) = call.run, (call.dtype, call.shape)
                        lean = FIRST_OUTPUT.get(node.op)
                        prepared = PREPARED.get(node.op)
                        if out0 and node.op in INTO and call.dtype is not None and \
                                infos[0].element_type not in UNTOLD:        # (the op's own kernel; a plain array)
                            into = planner.into(INTO[node.op], ins, args, out0, shape, dtype, self.free_slots[i],
                                                lambda s: fixed_value[s] or s in fed_slots,
                                                (id(node), 0) in self.result_keys)
                        elif out0 and lean is not None and call.expect:      # nothing reads the later outputs
                            run, (dtype, shape) = lean, call.expect[0]
                        elif prepared is not None and all(k < len(ins) and ins[k] and fixed_value[ins[k]]
                                                          for k in prepared[0]):
                            # bound to the values the signature fixes on its ports (e.g. constant weights)
                            try:
                                with np.errstate(all="ignore"):
                                    bound = prepared[1](*(args[k] for k in prepared[0]), **call.keywords)
                            except Exception:                # (the step computed: it runs unprepared)
                                bound = None
                            if bound is not None:
                                bare = bare or hasattr(run, "raw")
                                run = bound
                        # a plan with such steps runs inside np.errstate(all="ignore"): kernels quieted by
                        # `quiet` run bare
                        bare = bare or hasattr(run, "raw")
                        run = getattr(run, "raw", run)
                        steps.append(_Step(run, call.keywords, dtype, shape, call, itemgetter(*ins),
                                           len(ins) == 1, i, ins, out0, outs_i, self.free_slots[i], into))
                    if into is None:
                        planner.views(outs_i, outs, ins, args)
                planner.release(self.free_slots[i])
        if peak > self.peak_live:
            self.peak_live = peak
        if state is not None:
            state.update((k, frozen(v)) for k, v in written.items())
        result = [values[s] for s in self.result_slots]
        if building:
            if len(self.plans) >= PLANS_KEPT:
                self.plans.clear()
            self.plans[sig] = _Plan(tuple(steps), initial, tuple(param_slots),
                                    tuple(aliases.get(s, s) for s in self.result_slots), peak, limit, bare,
                                    tuple(planner.buffers))
        return result

    def _bind(self, i: int, node: Node, ins, infos, fixed_shape, fixed_value):
        """The bound call of a compute node for the plan being prepared (None: it runs through `step`),
        and whether the signature fixes its outputs' shapes and values."""
        for k in ins:
            if k and not fixed_shape[k]:
                return None, False, False
        for k in self.const_ports[i]:
            if k < len(ins) and ins[k] and not fixed_value[ins[k]]:
                return None, False, False
        call = BoundCall(node.schema, infos, self.keywords[i])
        if not call.static:
            return None, False, False
        s = node.schema
        value_known = s.value_bounds == "shape" or (not s.random and all(k == 0 or fixed_value[k] for k in ins))
        return (call if call.run is not None else None), True, value_known

    def _infos(self, i: int, node: Node, args: list):
        """The shape rule's answer for node i on these inputs (cached by their types, shapes and
        shape-giving values)."""
        key = (limits.token(),) + tuple(None if a is None else (a.shape, a.dtype) for a in args) + \
            tuple(args[k].tobytes() for k in self.const_ports[i] if k < len(args) and args[k] is not None)
        infos = self.inferred[i].get(key)
        if infos is None:
            if len(self.inferred[i]) >= 8:       # a model run with ever new shapes: keep the cache small
                self.inferred[i].clear()
            infos = self.inferred[i][key] = infer_outputs(node.schema, args, node.attrs)   # (checks the limits)
        return infos

    def step(self, i: int, node: Node, args: list) -> list[np.ndarray]:
        return self._step(i, node, args)

    def _step(self, i: int, node: Node, args: list, infos=None) -> list[np.ndarray]:
        try:
            if node.bodies:
                return subgraph.run(node, args, self._run_body)
            if infos is None:
                infos = self._infos(i, node, args)
            return execute(node.schema, args, node.attrs, infos=infos, keywords=self.keywords[i])
        except OprefError as e:
            msg = str(e)
            # (an InternalError keeps its chain to the original exception)
            raise type(e)(msg if msg.startswith("layer ") else f"{node.where()}: {msg}") from e.__cause__
        except (MemoryError, FloatingPointError, ValueError, TypeError, IndexError, KeyError) as e:
            # A kernel rejected its input in NumPy's words: still an error about this layer.
            raise ModelError(f"{node.where()}: cannot compute ({type(e).__name__}: {e})") from None

    def _run_body(self, body: Graph, params: list) -> list:
        ex = self._bodies.get(id(body))
        if ex is None:
            ex = self._bodies.setdefault(id(body), Executor(body))   # two threads: one Executor kept
        return ex.run(params)


def check_feed(node: Node, x, info_shape=None) -> np.ndarray:
    """A model input as the Parameter declares it, or an InputError saying what was expected."""
    et = element_type(node.attrs["element_type"])
    try:
        a = np.asanyarray(x)
    except Exception as e:   # objects NumPy cannot hold
        raise InputError(f"input {node.name!r}: not an array ({e})") from None
    want = et.dtype
    if a.dtype != want and not (want.kind == "U" and a.dtype.kind in "UT"):
        raise InputError(f"input {node.name!r}: expected element type {et.name} ({want}), got {a.dtype}")
    shape = node.attrs["shape"] if info_shape is None else info_shape
    if not shape.compatible(a.shape):
        raise InputError(f"input {node.name!r}: expected shape {shape}, got {list(a.shape)}")
    return _typed_feed(node, a, et)


def _typed_feed(node: Node, a: np.ndarray, et) -> np.ndarray:
    """A feed of the Parameter's type: an array typed otherwise (nf4 for u4) is refused; a plain
    uint8/uint4 array for a u1/nf4 Parameter is taken as holding that type (its values checked)."""
    have = getattr(a, "element_type", None)
    if have is not None and have != et.name:
        raise InputError(f"input {node.name!r}: expected element type {et.name}, got {have}")
    if et.name in UNTOLD:
        try:
            return typed(a, et.name)
        except OprefError as e:
            raise InputError(f"input {node.name!r}: {e}") from None
    return tagged(a, et)
