"""Models: `opref.load` reads and validates an IR model, `Model.run` executes it, `Model.infer_shapes`
re-infers it for new input shapes, `opref.save` writes it back as IR that OpenVINO reads."""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Mapping, MutableMapping, Sequence

import numpy as np

from .errors import InputError
from .types import ELEMENT_TYPES, UNTOLD
from .ir_xml.reader import read_graph
from .ir_xml.writer import write_graph
from .runtime.executor import Executor, Variable, check_feed, frozen, model_variables
from .runtime.kernels.state import zeros
from .runtime.graph import Graph, Node
from .runtime.infer import check_declared, infer_graph
from .shapes import PartialShape, TensorInfo, as_shape, share_names


@dataclass(frozen=True)
class ModelPort:
    """A model input or output: its first tensor name, all its names, element type and shape."""
    name: str
    names: tuple[str, ...]
    element_type: str
    shape: PartialShape

    def __str__(self) -> str:
        return f"{self.name}: {self.element_type}{self.shape}"


class InferredShapes(dict):
    """`Model.infer_shapes`'s answer: {layer name: [TensorInfo per output]}, and `not_inferred`, the
    layers strict=False could not infer (`opref.runtime.infer.NotInferred`, in graph order)."""
    not_inferred: list | tuple = ()


SMALL_VALUE = 64     # infer_shapes keeps a known integer value of up to this many elements


def _reported(info: TensorInfo) -> TensorInfo:
    value = info.value
    if value is not None and (np.asarray(value).dtype.kind not in "iu" or np.asarray(value).size > SMALL_VALUE):
        value = None
    return TensorInfo(info.element_type, info.shape, value, info.bounds, info.symbols, info.exprs)


class Model:
    def __init__(self, graph: Graph, path: str | None = None, _shapes: Mapping[int, TensorInfo] | None = None):
        self.graph = graph
        self.path = path
        # _shapes (Model.reshape): Parameters re-declared, {id(Parameter): TensorInfo}; the dims the IR
        # declares on ports are then those of the old shapes and are not checked
        self._shapes = dict(_shapes or {})
        self.infos = infer_graph(graph, self._shapes)
        if not self._shapes:
            check_declared(graph, self.infos)
        self.variables: dict[str, Variable] = model_variables(graph, self.infos)
        self._state: dict[str, np.ndarray] = {}   # variable id -> value (read-only); absent: reset
        self._executor: Executor | None = None
        self._feed_checks = None                  # per Parameter: what `_feeds` checks, prepared once
        self._output_names = None                 # `run`'s keys, in order, prepared once
        self._by_name = None                      # input name -> Parameter, prepared once
        self._first_names = None                  # `run`'s input names for a dict in order (_input_names)
        # Threads: the Executor is built once under _build_lock; a stateful model's runs and state
        # changes hold _state_lock (one state per Model, so its runs are serialised); others run in parallel.
        self._build_lock = threading.Lock()
        self._state_lock = threading.RLock()

    # --- ports -------------------------------------------------------------------------------------
    @property
    def inputs(self) -> list[ModelPort]:
        out = []
        for p in self.graph.parameters:
            names = tuple(p.outputs[0].names) if p.outputs else ()
            info = self.infos[(id(p), 0)]
            out.append(ModelPort(names[0] if names else p.name, names or (p.name,), info.element_type, info.shape))
        return out

    @property
    def outputs(self) -> list[ModelPort]:
        out, used = [], set()
        for r in self.graph.results:
            src = r.inputs[0]
            names = tuple(src.node.outputs[src.port].names)
            info = self.infos[src.info_key]
            # two Results of one tensor (or tensors sharing a name) keep apart in `run`'s dict by Result name
            name = names[0] if names and names[0] not in used else r.name
            used.add(name)
            out.append(ModelPort(name, names or (r.name,), info.element_type, info.shape))
        return out

    def _parameter(self, name: str) -> Node:
        by_name = self._by_name
        if by_name is None:                       # each name to the first Parameter it names
            by_name = {}
            for p, port in zip(self.graph.parameters, self.inputs):
                for n in (*port.names, p.name):
                    by_name.setdefault(n, p)
            self._by_name = by_name
        p = by_name.get(name) if isinstance(name, str) else None
        if p is not None:
            return p
        for p, port in zip(self.graph.parameters, self.inputs):
            if name in port.names or name == p.name:
                return p
        known = ", ".join(repr(p.name) for p in self.inputs)
        raise InputError(f"the model has no input named {name!r}; its inputs are {known}")

    # --- running -----------------------------------------------------------------------------------
    def run(self, inputs: Mapping[str, np.ndarray] | Sequence[np.ndarray]) -> dict[str, np.ndarray]:
        """Output arrays by output name, in OpenVINO's output order. Inputs by name or in order.
        Thread-safe: runs of a stateless model proceed in parallel; a stateful model's are serialised."""
        params = self.graph.parameters
        if type(inputs) in (list, tuple) and len(inputs) == len(params):       # the common cases, in short
            feeds = self._feeds(inputs)
        elif type(inputs) is dict and len(inputs) == len(params) and (order := self._input_names()):
            try:                                  # every input by its first name: in order, without a search
                given = [inputs[n] for n in order]
            except KeyError:
                given = self._given(inputs)
            feeds = self._feeds(given)
        else:
            feeds = self._feeds(self._given(inputs))
        executor = self._executor
        if executor is None:
            with self._build_lock:
                if self._executor is None:
                    self._executor = Executor(self.graph)
                executor = self._executor
        if self.variables:
            with self._state_lock:
                values = executor.run(feeds, self._state)
        else:
            values = executor.run(feeds, None)
        names = self._output_names
        if names is None:
            names = self._output_names = tuple(port.name for port in self.outputs)
        return dict(zip(names, values))

    def _input_names(self) -> tuple:
        """Each Parameter's first name, in order, where each names its own Parameter (else (): `_by_names`)."""
        names = self._first_names
        if names is None:
            names = tuple(port.name for port in self.inputs)
            if not all(self._parameter(n) is p for n, p in zip(names, self.graph.parameters)):
                names = ()
            self._first_names = names
        return names

    def _given(self, inputs) -> list:
        """The inputs of `run` as a list in the Parameters' order (a dict by name, or a list)."""
        params = self.graph.parameters
        if type(inputs) is dict:
            return self._by_names(inputs)
        if isinstance(inputs, np.ndarray):
            raise InputError(f"inputs must be a list of arrays, one per model input, or a dict by input name; "
                             f"got an ndarray of shape {list(inputs.shape)} (write [x] for one input)")
        if not isinstance(inputs, (Mapping, list, tuple)):
            raise InputError(f"inputs must be a list of arrays, one per model input, or a dict by input name; "
                             f"got {type(inputs).__name__}")
        if isinstance(inputs, Mapping):
            return self._by_names(inputs)
        else:
            feeds = list(inputs)
            if len(feeds) != len(params):
                raise InputError(f"the model has {len(params)} input(s), got {len(feeds)}")
        return feeds

    def _by_names(self, inputs: Mapping) -> list:
        params = self.graph.parameters
        given = {}
        for name, x in inputs.items():
            p = self._parameter(name)
            given[id(p)] = x
        missing = [p.name for p in params if id(p) not in given]
        if missing:
            raise InputError(f"no value for model input(s) {', '.join(map(repr, missing))}")
        return [given[id(p)] for p in params]

    def _feeds(self, given) -> list:
        """Each input checked against its Parameter (`check_feed`). A plain array of the Parameter's
        dtype whose shape an earlier feed already showed to fit is taken as it is, which is what
        `check_feed` gives for it."""
        checks = self._feed_checks
        if checks is None:
            checks = self._feed_checks = [
                (p, self.infos[(id(p), 0)].shape, ELEMENT_TYPES[p.attrs["element_type"]].dtype,
                 p.attrs["element_type"] not in UNTOLD and ELEMENT_TYPES[p.attrs["element_type"]].dtype.kind != "U",
                 set()) for p in self.graph.parameters]
        feeds = []
        for (p, shape, dtype, plain, fits), x in zip(checks, given):
            if plain and type(x) is np.ndarray and x.dtype == dtype and x.shape in fits:
                feeds.append(x if x.dtype is dtype else x.view(dtype))
                continue
            a = check_feed(p, x, shape)
            if plain and type(a) is np.ndarray and a.dtype == dtype:
                if len(fits) < 64:
                    fits.add(a.shape)         # (a shape that fits once always fits: one set add per shape)
                if a.dtype is not dtype:      # (an equal dtype, such as '<f4': NumPy's own instance, which kernels
                    a = a.view(dtype)         # compare by identity first)
            feeds.append(a)
        return feeds

    # --- state (ReadValue / Assign) ----------------------------------------------------------------
    @property
    def state(self) -> "ModelState":
        """The model's variables by variable_id: read, set (`m.state["id"] = array`) or reset one
        (`del m.state["id"]`). Each Model object has its own."""
        return ModelState(self)

    def reset_state(self, variable_id: str | None = None) -> None:
        """Resets every variable (or one): the next run's ReadValue gives its initial value again."""
        with self._state_lock:
            if variable_id is None:
                self._state.clear()
            else:
                self.state._variable(variable_id)
                self._state.pop(variable_id, None)

    def infer_shapes(self, shapes: Mapping[str, object] | None = None, *, mode: str = "openvino",
                     strict: bool = True) -> "InferredShapes":
        """Every layer's output TensorInfos for new input shapes ({input name: shape}; a shape is a
        PartialShape, a string like "?,3,224..512" or a list of ints / -1 / None / (lo, hi)), as a dict
        {layer name: [TensorInfo per output]}. Where inference knows an integer output's value bounds
        they are on the TensorInfo (`.bounds`, `.value` for values of up to 64 elements).

        strict=True (the default): a layer whose shape rule fails raises its OprefError, naming it.
        strict=False: that layer's outputs become dynamic (dynamic rank; the element type its schema
        fixes, else its input's of the same type constraint, else the IR's declared one) and inference
        goes on, bodies of sub-graph ops included; the returned dict's `not_inferred` lists them
        ([NotInferred(path, layer_id, op, error)]: `.name` is "outer/inner" for a body layer; empty
        with strict=True or when every layer was inferred).

        A dim given by a name ("N", as in {"x": ["N", 3, "H", "W"]} or "N,3,H,W") is dynamic and carries
        a symbol: one per name, shared by the inputs; each output dim known to equal it carries it too
        (`Dimension.symbol`), as OpenVINO's symbol propagation finds them. mode="openvino" (the default)
        gives OpenVINO's answer; mode="precise" also gives, where it is exact, each dim's length as an
        expression in the names (`Dimension.expr`, e.g. ⌈W/8⌉ or 3*N), only ever a refinement of the
        OpenVINO answer (the intervals are the same)."""
        override = self._override(shapes, precise=_precise(mode))
        failures: dict = {}
        infos = infer_graph(self.graph, override, strict=strict, failures=failures)
        out = InferredShapes({n.name: [_reported(infos[(id(n), k)])
                                       for k in range(len(n.outputs) if n.schema.role != "result" else 1)]
                              for n in self.graph.nodes})
        out.not_inferred = list(failures.values())
        return out

    def _override(self, shapes, precise: bool = False) -> dict[int, TensorInfo]:
        """{id(Parameter): TensorInfo} for {input name: shape}, on top of this model's own re-declarations."""
        if shapes is not None and not isinstance(shapes, Mapping):
            raise InputError(f"shapes must be a mapping of input name to shape; got {type(shapes).__name__}")
        given = {key: (info.element_type, info.shape) for key, info in self._shapes.items()}
        for name, shape in (shapes or {}).items():
            p = self._parameter(name)
            given[id(p)] = (p.attrs["element_type"], PartialShape(shape) if isinstance(shape, str) else as_shape(shape))
        # a dim given by a name ("N") carries a symbol: fresh ones for each call (one per name, shared by the
        # inputs), so no call's merges reach another's, in this thread or any other
        shared = share_names([ps for _, ps in given.values()], precise)
        return {key: TensorInfo(et, ps) for (key, (et, _)), ps in zip(given.items(), shared)}

    def reshape(self, shapes: Mapping[str, object]) -> "Model":
        """A model over the same layers whose inputs declare new shapes ({input name: shape}, as
        `infer_shapes` takes them; static dims may change, dims may become dynamic or intervals), as
        OpenVINO's `Model.reshape` re-declares its Parameters (opref rewrites no other layer). Inference
        of the whole graph is strict: a layer the new shapes contradict (a Reshape to a constant shape)
        raises its error. This model is unchanged; `save` of the new one writes the new shapes."""
        return Model(self.graph, self.path, self._override(shapes))

    def __repr__(self) -> str:
        return (f"<opref.Model {self.graph.name!r}: {len(self.graph.nodes)} layers, "
                f"inputs {[str(p) for p in self.inputs]}, outputs {[str(p) for p in self.outputs]}>")


class ModelState(MutableMapping):
    """A view of a model's variables by variable_id. A variable that is reset (or was never written)
    reads as zeros of its shape, each dim that is not static taken as 0 (as OpenVINO shows it); its
    ReadValue gives its initial value on the next run. A value set must have the variable's element
    type and a shape its shape allows."""

    def __init__(self, model: Model):
        self._model = model

    def _variable(self, variable_id) -> Variable:
        v = self._model.variables.get(variable_id)
        if v is None:
            known = ", ".join(map(repr, self._model.variables)) or "none (the model is not stateful)"
            raise KeyError(f"the model has no variable {variable_id!r}; its variables are {known}")
        return v

    def __getitem__(self, variable_id) -> np.ndarray:
        v = self._variable(variable_id)
        value = self._model._state.get(variable_id)
        if value is None:
            value = frozen(zeros(v.element_type, v.shape, f"variable {variable_id!r}: "))
        return value

    def __setitem__(self, variable_id, value) -> None:
        v = self._variable(variable_id)
        a = np.asarray(value)
        want = ELEMENT_TYPES[v.element_type].dtype
        if a.dtype != want and not (want.kind == "U" and a.dtype.kind in "UT"):
            raise InputError(f"variable {variable_id!r}: expected element type {v.element_type} ({want}), got {a.dtype}")
        if not v.shape.compatible(a.shape):
            raise InputError(f"variable {variable_id!r}: expected shape {v.shape}, got {list(a.shape)}")
        a = frozen(a)
        with self._model._state_lock:
            self._model._state[variable_id] = a

    def __delitem__(self, variable_id) -> None:
        self._variable(variable_id)
        with self._model._state_lock:
            self._model._state.pop(variable_id, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._model.variables)

    def __len__(self) -> int:
        return len(self._model.variables)

    def __contains__(self, variable_id) -> bool:
        return variable_id in self._model.variables

    def __repr__(self) -> str:
        return f"<opref.ModelState {', '.join(f'{k}: {v.element_type}{v.shape}' for k, v in self._model.variables.items())}>"


def _precise(mode) -> bool:
    if mode not in ("openvino", "precise"):
        raise InputError(f"mode must be 'openvino' or 'precise'; got {mode!r}")
    return mode == "precise"


def _check_path(path, what: str) -> None:
    if not isinstance(path, (str, os.PathLike)):
        raise InputError(f"{what} must be a file path (str or os.PathLike); got {type(path).__name__}")


def load(path, weights=None) -> Model:
    """Reads model.xml (and model.bin beside it, or `weights`) and validates it."""
    _check_path(path, "path")
    if weights is not None:
        _check_path(weights, "weights")
    return Model(read_graph(path, weights), str(path))


def save(model: Model, path) -> None:
    """Writes path (.xml) and the .bin beside it."""
    if not isinstance(model, Model):
        raise InputError(f"save: model must be an opref.Model; got {type(model).__name__}")
    _check_path(path, "path")
    xml, weights = write_graph(model.graph, model.infos)
    path = Path(path)
    path.write_bytes(xml)
    path.with_suffix(".bin").write_bytes(weights)
