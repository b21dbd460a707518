"""The fuzz targets of `python -m fuzz` and their seed corpora."""
from __future__ import annotations

import hashlib
import os

import numpy as np

WEIGHTS = np.random.default_rng(0).integers(0, 256, 1 << 16, dtype=np.uint8).tobytes()   # every seed's .bin


def _ok(e: BaseException) -> bool:
    from opref.errors import InternalError, OprefError
    return isinstance(e, OprefError) and not isinstance(e, InternalError)


def fuzz_reader(data: bytes) -> None:
    from opref.ir_xml.reader import read_graph
    from opref.model import Model
    try:
        graph = read_graph("fuzz.xml", xml=data, weights=WEIGHTS)
        model = Model(graph)
        model.infer_shapes()
        feeds = {}
        for p in model.inputs:
            if not p.shape.is_static or np.prod(p.shape.to_shape(), dtype=np.int64) > 4096:
                return
            feeds[p.name] = np.ones(p.shape.to_shape(), dtype=_dtype(p.element_type))
        with np.errstate(all="ignore"):
            model.run(feeds)
    except Exception as e:  # noqa: BLE001 -- a finding unless it is a clean OprefError
        if not _ok(e):
            raise


def _dtype(et):
    from opref.types import element_type
    return element_type(et).dtype


_CASES = None


def _cases():
    global _CASES
    if _CASES is None:
        from opref.conformance.cases import all_cases
        _CASES = [c for c in all_cases() if c.error is None and sum(np.asarray(x).size for x in c.inputs
                                                                     if x is not None) <= 4096]
    return _CASES


_VALUES = (0, 1, -1, 2, 7, -(2**31), 2**31 - 1, 2**63 - 1, 10**6, 3)
_ATTRS = (-1, 0, 1, 3, 2**31 - 1, -(2**31), (), (0,), (-5,), (10**9,), "bogus", 1.5, True, (1, 1), (0, 0))


def fuzz_run_op(data: bytes) -> None:
    import atheris
    import opref
    fdp = atheris.FuzzedDataProvider(data)
    cases = _cases()
    case = cases[fdp.ConsumeIntInRange(0, len(cases) - 1)]
    inputs = [None if x is None else np.array(x, copy=True) for x in case.inputs]
    attrs = dict(case.attrs)
    for _ in range(fdp.ConsumeIntInRange(1, 3)):
        kind = fdp.ConsumeIntInRange(0, 3)
        present = [k for k, x in enumerate(inputs) if x is not None]
        if kind == 0 and present:                                # one value
            k = present[fdp.ConsumeIntInRange(0, len(present) - 1)]
            a = inputs[k]
            if a.size and a.dtype.kind in "iuf":
                v = _VALUES[fdp.ConsumeIntInRange(0, len(_VALUES) - 1)]
                with np.errstate(all="ignore"):
                    a.flat[fdp.ConsumeIntInRange(0, a.size - 1)] = np.array(v).astype(a.dtype) \
                        if a.dtype.kind == "f" else np.clip(v, np.iinfo(a.dtype).min, np.iinfo(a.dtype).max)
        elif kind == 1 and attrs:                                # one attribute
            name = sorted(attrs)[fdp.ConsumeIntInRange(0, len(attrs) - 1)]
            attrs[name] = _ATTRS[fdp.ConsumeIntInRange(0, len(_ATTRS) - 1)]
        elif kind == 2 and present:                              # one input's rank
            k = present[fdp.ConsumeIntInRange(0, len(present) - 1)]
            a = inputs[k]
            inputs[k] = a[None] if fdp.ConsumeBool() or a.ndim == 0 else a.reshape(-1)[: max(a.size - 1, 0)]
        elif kind == 3 and present:                              # one input's dtype
            k = present[fdp.ConsumeIntInRange(0, len(present) - 1)]
            t = (np.int32, np.int64, np.float32, np.uint8, np.bool_, np.float16)[fdp.ConsumeIntInRange(0, 5)]
            try:
                with np.errstate(all="ignore"):
                    inputs[k] = inputs[k].astype(t)
            except (ValueError, TypeError):       # strings that are not numbers: the mutation does not apply
                pass
    try:
        with np.errstate(all="ignore"):
            opref.run_op(case.op, inputs, attrs)
    except Exception as e:  # noqa: BLE001 -- a finding unless it is a clean OprefError
        if not _ok(e):
            raise


def seed_corpus(target: str, folder: str) -> None:
    """Seed inputs: converter-written IRs of the catalogue's small models and one-op IRs (reader); random
    bytes that pick cases and mutations (run_op)."""
    def put(data: bytes):
        with open(os.path.join(folder, hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(data)
    if target == "run_op":
        rng = np.random.default_rng(0)
        for _ in range(64):
            put(rng.integers(0, 256, 32, dtype=np.uint8).tobytes())
        return
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "benchmarks"))
    from models import model_path
    for name in ("if", "loop", "tensor_iterator", "rnn", "gru"):
        put(model_path(name).read_bytes())
    from opref.ir_xml.writer import op_model
    from opref.shapes import TensorInfo
    for case in _cases()[::97]:
        try:
            xml, _ = op_model(case.op, [TensorInfo.of_array(x) for x in case.inputs if x is not None], case.attrs)
        except Exception:  # noqa: BLE001 -- a case the writer cannot take alone: no seed
            continue
        put(xml)
