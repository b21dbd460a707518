"""Backends: what runs a conformance case. opref (the reference), OpenVINO (any device, f32 inference
precision pinned), onnxruntime (the case's ONNX form), or a user's class given as `module:Class`.

A backend is a small class::

    class MyBackend(opref.conformance.backends.Backend):
        name = "mine"                    # shown in results and reports
        formats = ("ir",)                # what it runs: "ir" (model.xml/.bin), "onnx" (model.onnx)

        def __init__(self, device=None):     # `--device` is passed when given; no other arguments
            ...                               # import the runtime here: workers build a backend once

        def version(self) -> str: ...         # recorded in the results
        def config(self) -> dict: ...         # settings that change results (recorded), default {}

        def run(self, case) -> list:          # case: casefiles.SuiteCase
            # case.ir_path + case.inputs (the IR's Parameters, in order), or
            # case.onnx_path + case.onnx_inputs; return one NumPy array per output, in order.
            # raise NotImplementedByBackend("why") for what the backend does not support;
            # any other exception is a failure of the case (its message is recorded).

`run` is called once per case in a worker process; a crash or hang of the backend costs that case
only (status crashed / timeout). Case arrays use opref's dtypes (ml_dtypes for bf16, f8, i4/u4).
"""
from __future__ import annotations

import importlib
import re

import numpy as np

from ..errors import InputError
from ..types import element_type, pack, unpack


NUMPY_LACKS = ("bf16", "f8e4m3", "f8e5m2", "i4", "u4", "nf4")


class NotImplementedByBackend(Exception):
    """The backend does not support this case (op, element type, format): status not-implemented."""


class Backend:
    name = "backend"
    formats: tuple[str, ...] = ("ir",)
    device: str | None = None

    def version(self) -> str | None:
        return None

    def config(self) -> dict:
        return {}

    def run(self, case) -> list:
        raise NotImplementedError



# --- opref ---------------------------------------------------------------------------------------
class OprefBackend(Backend):
    """opref's own executor on the case's IR (opref.load(model.xml).run(inputs))."""
    name = "opref"
    formats = ("ir",)

    def __init__(self, device=None):
        if device not in (None, "CPU", "numpy"):
            raise InputError(f"backend opref: no device {device!r} (it runs on NumPy)")

    def version(self):
        from .suite import versions
        return versions()["opref"]

    def run(self, case):
        from ..model import load
        model = load(case.ir_path)
        with np.errstate(all="ignore"):
            return list(model.run(case.inputs).values())


# --- OpenVINO ------------------------------------------------------------------------------------
def to_ov(x: np.ndarray):
    """A NumPy array as an OpenVINO tensor: raw bytes with an explicit element type, so bf16, f8 and
    packed sub-byte types mean the same thing on both sides."""
    import openvino as ov
    et = element_type(x)
    if et.name == "string":
        return ov.Tensor(np.asarray(x, dtype=str))
    raw = np.frombuffer(pack(x, et), np.uint8).copy()
    return ov.Tensor(raw, list(x.shape), getattr(ov.Type, et.name))


def from_ov(t) -> np.ndarray:
    """An OpenVINO tensor as a NumPy array of opref's dtype for its element type."""
    name = t.get_element_type().get_type_name()
    if name == "string":
        return np.asarray(t.str_data)
    shape = tuple(t.get_shape())
    count = int(np.prod(shape, dtype=np.int64))
    raw = np.ascontiguousarray(t.data).reshape(-1).view(np.uint8)[:t.byte_size].tobytes() if count else b""
    return np.array(unpack(raw, name, count)).reshape(shape)


# Messages of OpenVINO's reader/plugins that mean "this op/type/configuration is not supported".
_OV_UNSUPPORTED = re.compile(r"unsupported|not supported|doesn't support|does not support|"
                             r"Cannot create .* layer|not implemented|isn't supported", re.IGNORECASE)


class OpenVINOBackend(Backend):
    """OpenVINO's runtime on the case's IR: read_model, compile on `device` (default CPU) with
    INFERENCE_PRECISION_HINT=f32 (the CPU plugin otherwise computes in bf16 where the machine has it) and
    DYNAMIC_QUANTIZATION_GROUP_SIZE=0 (otherwise, on AVX-512 machines, a MatMul on compressed u4/i4/u8/i8
    weights quantizes its activations to int8 on the fly: 0.12 off on a 64-wide product)."""
    name = "openvino"
    formats = ("ir",)
    CONFIG = {"INFERENCE_PRECISION_HINT": "f32", "DYNAMIC_QUANTIZATION_GROUP_SIZE": "0"}

    def __init__(self, device=None):
        import openvino as ov
        self._ov = ov
        self.core = ov.Core()
        self.device = device or "CPU"
        if self.device.split(":")[0].split(".")[0] not in {d.split(".")[0] for d in self.core.available_devices} \
                and self.device not in ("AUTO", "HETERO", "MULTI"):
            raise InputError(f"backend openvino: no device {self.device!r}; available: "
                             f"{', '.join(self.core.available_devices)}")

    def version(self):
        return self._ov.get_version().split("-")[0]

    def config(self):
        return dict(self.CONFIG)

    def compile(self, case):
        ov = self._ov
        weights = case.ir_path.with_suffix(".bin").read_bytes()
        try:
            model = self.core.read_model(model=case.ir_path.read_bytes(),
                                         weights=ov.Tensor(np.frombuffer(weights or b"\0", np.uint8)))
            return self.core.compile_model(model, self.device, self.CONFIG)
        except Exception as e:  # noqa: BLE001 -- OpenVINO raises RuntimeError subclasses
            first = str(e).strip().splitlines()
            text = next((line for line in first if _OV_UNSUPPORTED.search(line)), None)
            if text is not None:
                raise NotImplementedByBackend(f"OpenVINO: {text.strip()[:300]}") from None
            raise

    def run(self, case):
        compiled = self.compile(case)
        request = compiled.create_infer_request()
        tensors = [to_ov(x) for x in case.inputs]     # alive until infer(): a Tensor shares its array's memory
        for i, t in enumerate(tensors):
            request.set_input_tensor(i, t)
        request.infer()
        return [from_ov(request.get_output_tensor(i)) for i in range(len(compiled.outputs))]


# --- onnxruntime ---------------------------------------------------------------------------------
class OnnxRuntimeBackend(Backend):
    """onnxruntime (CPUExecutionProvider unless `device` names another provider) on the case's ONNX form;
    not-implemented where the case has none."""
    name = "onnxruntime"
    formats = ("onnx",)

    def __init__(self, device=None):
        import onnxruntime as ort
        self._ort = ort
        self.device = device or "CPU"
        provider = self.device if self.device.endswith("ExecutionProvider") else f"{self.device}ExecutionProvider"
        if provider not in ort.get_available_providers():
            raise InputError(f"backend onnxruntime: no provider {provider!r}; available: "
                             f"{', '.join(ort.get_available_providers())}")
        self.providers = [provider]

    def version(self):
        return self._ort.__version__

    def config(self):
        return {"providers": list(self.providers), "intra_op_num_threads": 1}

    def run(self, case):
        if case.onnx_path is None:
            raise NotImplementedByBackend(case.entry.get("onnx_reason") or "the case has no ONNX form")
        options = self._ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.log_severity_level = 3
        try:
            session = self._ort.InferenceSession(str(case.onnx_path), options, providers=self.providers)
        except Exception as e:  # noqa: BLE001 -- onnxruntime raises its own exception types
            if re.search(r"NOT_IMPLEMENTED|Could not find an implementation", str(e)):
                raise NotImplementedByBackend(f"onnxruntime: {str(e).splitlines()[0][:300]}") from None
            raise
        names = [i.name for i in session.get_inputs()]
        outs = [np.asarray(y) for y in session.run(None, dict(zip(names, case.onnx_inputs)))]
        # onnxruntime's Python API has no NumPy type for bf16/f8 outputs: the ONNX form leaves them in f32,
        # and they are rounded here like ONNX's Cast (round to nearest even).
        for k, et in enumerate(case.entry["output_types"][:len(outs)]):
            if et in NUMPY_LACKS and element_type(outs[k]).name != et:
                outs[k] = outs[k].astype(element_type(et).dtype)
        return outs


BUILTIN = {"opref": OprefBackend, "openvino": OpenVINOBackend, "onnxruntime": OnnxRuntimeBackend}


def backend_class(spec: str):
    """The class named by a backend spec: a built-in name, or `package.module:Class`."""
    if spec in BUILTIN:
        return BUILTIN[spec]
    module, sep, cls = spec.partition(":")
    if not sep or not module or not cls:
        raise InputError(f"backend {spec!r}: expected one of {', '.join(BUILTIN)} or package.module:Class")
    try:
        mod = importlib.import_module(module)
    except ImportError as e:
        raise InputError(f"backend {spec!r}: cannot import {module!r} ({e}); is it on PYTHONPATH?") from None
    try:
        return getattr(mod, cls)
    except AttributeError:
        raise InputError(f"backend {spec!r}: module {module!r} has no {cls!r}") from None


def make_backend(spec: str, device: str | None = None) -> Backend:
    cls = backend_class(spec)
    backend = cls(device) if device is not None else cls()
    if getattr(backend, "name", "backend") == "backend":
        backend.name = spec.rpartition(":")[2] if ":" in spec else spec
    return backend


def describe(backend, spec: str) -> dict:
    """The results' record of a backend (works for duck-typed classes that only define `run`)."""
    version = getattr(backend, "version", None)
    config = getattr(backend, "config", None)
    return {"name": backend.name, "spec": spec, "version": version() if callable(version) else version,
            "device": getattr(backend, "device", None), "config": config() if callable(config) else (config or {}),
            "formats": list(getattr(backend, "formats", ("ir",)))}


def backend_names(spec_list: str) -> list[str]:
    specs = [s.strip() for s in spec_list.split(",") if s.strip()]
    if not specs:
        raise InputError("--backends: give at least one backend")
    if len(set(specs)) != len(specs):
        raise InputError(f"--backends {spec_list!r}: a backend is named twice")
    return specs

