"""The fuzz targets of `python -m fuzz` and their seed corpora."""
from __future__ import annotations

import hashlib
import os

import numpy as np

WEIGHTS = np.random.default_rng(0).integers(0, 256, 1 << 16, dtype=np.uint8).tobytes()   # every seed's .bin


def _ok(e: BaseException) -> bool:
    from opref.errors import InternalError, OprefError
    return isinstance(e, OprefError) and not isinstance(e, InternalError)


def _check(e: BaseException) -> None:
    """Re-raises e unless it is a clean OprefError. (Every finding once reported and counted apart, the
    kernels' temporaries of issue 17 among them, is fixed: each recurrence is a finding again.)"""
    if not _ok(e):
        raise e


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
            except (ValueError, TypeError, OverflowError):  # strings that are no numbers (or out of range):
                # the mutation does not apply
                pass
    try:
        with np.errstate(all="ignore"):
            opref.run_op(case.op, inputs, attrs)
    except Exception as e:  # noqa: BLE001 -- a finding unless it is a clean OprefError
        _check(e)


# --- structured inputs from bytes (the atheris targets and their hypothesis twins share one decoder) -----
class Draw:
    """Decisions taken from a byte string, front to back; past its end every decision is the smallest.
    The atheris targets and the property tests in tests/test_reliability.py decode bytes with it, so a
    crash file of a campaign replays as `fuzz_attrs(open(crash).read())` and in the tests."""

    def __init__(self, data: bytes):
        self.data, self.pos = data, 0

    def int(self, lo: int, hi: int) -> int:
        span = hi - lo
        if span <= 0:
            return lo
        n = (span.bit_length() + 7) // 8
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return lo + int.from_bytes(chunk, "little") % (span + 1)

    def bool(self) -> bool:
        return self.int(0, 1) == 1

    def pick(self, seq):
        return seq[self.int(0, len(seq) - 1)]

    def text(self, most: int) -> str:
        n = self.int(0, most)
        raw = self.data[self.pos:self.pos + n]
        self.pos += n
        return raw.decode("utf-8", "replace")


def _xml_safe(text: str) -> str:
    """Characters XML 1.0 can hold (lxml refuses the others before the reader is reached)."""
    return "".join(c for c in text if c in "\t\n\r" or " " <= c <= "\ud7ff" or "\ue000" <= c <= "\ufffd"
                   or c >= "\U00010000")


_BY_OP = None


def _by_op():
    """{op: [cases]} of the case tables' value cases, every schema with one (sorted, for replay)."""
    global _BY_OP
    if _BY_OP is None:
        by: dict = {}
        for c in _cases():
            by.setdefault(c.op, []).append(c)
        _BY_OP = [by[k] for k in sorted(by)]
    return _BY_OP


def _case_model(case, consts: bool = True, loose: bool = False):
    """A one-op IR of a case: a port whose value the shape rule needs (const ports) a Constant when
    `consts`, every other input a Parameter of the case's shape; output ports declared as inferred, or
    when `loose` with every dim dynamic (-1) and no precision, so that a mutated attribute changing an
    output's dims (not its rank) still loads. None where the writer cannot take it."""
    from opref import get_schema, infer_op
    from opref.ir_xml.writer import op_model
    from opref.shapes import PartialShape, TensorInfo
    schema = get_schema(case.op)
    present = [x for x in case.inputs if x is not None]
    if len(present) != len(case.inputs):
        return None                                    # an absent optional input in the middle
    try:
        ports = schema.ports_for(len(present))
        infos = [TensorInfo.of_array(x) for x in present]
        infos = [t if consts and p.const else TensorInfo(t.element_type, t.shape) for p, t in zip(ports, infos)]
        outputs = infer_op(case.op, infos, case.attrs)
        if loose:
            outputs = [TensorInfo(o.element_type, PartialShape([-1] * o.shape.rank) if o.shape.rank_is_static
                                  else o.shape) for o in outputs]
        xml, weights = op_model(case.op, infos, case.attrs, outputs=outputs)
        return xml, weights
    except Exception:  # noqa: BLE001 -- a case the writer cannot take alone: not a seed
        return None


_WITH_ATTRS = None


def _with_attrs():
    global _WITH_ATTRS
    if _WITH_ATTRS is None:
        from opref import get_schema
        _WITH_ATTRS = [g for g in _by_op() if get_schema(g[0].op).attributes]
    return _WITH_ATTRS


# --- attrs: an op layer's <data> attributes as IR text, mutated, through load ------------------------
_FLOATS = ("nan", "-nan", "inf", "-inf", "1e309", "-1e309", "0", "-0", "1e-45", "3.4e38", "1.5", "-2.5", "0x10",
           "1_0", "1e", ".", "")
_INTS = ("0", "1", "-1", "2", "3", "-2", "7", "2147483647", "-2147483648", "2147483648", "9223372036854775807",
         "-9223372036854775808", "18446744073709551616", "1000000000", "99999999999999999999999", "+3", " 4 ",
         "0x1", "1.0", "", "1 2")
_WORDS = ("true", "false", "TRUE", "0", "1", "yes", "f32", "i64", "u1", "boolean", "string", "dynamic", "undefined",
          "?", "...", "-1", "1..4", "4..1", "..3", "2..", "[1,2]", "1,?,3", "", " ", ",", ",,", "numpy", "none",
          "explicit", "same_upper", "bogus", "0..0", "-5..-1", "1..-1")


def _attr_text(d: Draw, kind: str, old: str, allowed) -> str:
    how = d.int(0, 7)
    if how == 0:                                       # raw text
        return _xml_safe(d.text(24))
    if how == 1:                                       # the old text cut, repeated or with a byte changed
        if not old:
            return d.pick(_WORDS)
        k = d.int(0, len(old))
        op = d.int(0, 2)
        return old[:k] if op == 0 else old + "," + old if op == 1 else old[:k] + d.pick(",.-?x 9") + old[k + 1:]
    if how == 2 and allowed:                           # an enum value in another case, or with spaces
        v = str(d.pick(allowed))
        return d.pick((v.upper(), v.title(), f" {v} ", v + "_", v.replace("_", "-")))
    if kind in ("float", "floats") or how == 3:
        items = [d.pick(_FLOATS) for _ in range(d.int(1, 4) if kind.endswith("s") else 1)]
    elif kind in ("int", "ints", "shape") or how == 4:
        items = [d.pick(_INTS) for _ in range(d.int(0, 7) if kind in ("ints", "shape") else 1)]
    else:
        items = [d.pick(_WORDS) for _ in range(d.int(1, 3))]
    return d.pick((",", ", ", " ,", ";")).join(items)


def fuzz_attrs(data: bytes) -> None:
    """One schema (mostly one with attributes, each equally likely), one of its cases as a one-op IR; 1-3 of
    the op layer's attributes (or, one time in 8, of a Parameter's or Constant's: shape, element_type,
    offset, size) replaced by mutated text (or removed, or one unknown added); then load (read_graph +
    Model, i.e. parsing, binding and whole-graph inference), and a run on the case's inputs."""
    from lxml import etree
    from opref import get_schema
    from opref.ir_xml.reader import read_graph
    from opref.model import Model
    d = Draw(data)
    group = d.pick(_by_op() if d.int(0, 7) == 0 else _with_attrs())
    case = d.pick(group)
    written = _case_model(case, loose=True)
    if written is None:
        return
    xml, weights = written
    root = etree.fromstring(xml)
    schema = get_schema(case.op)
    layer = next(el for el in root.iter("layer") if el.get("type") not in ("Parameter", "Const", "Result"))
    for port in layer.iterfind("output/port"):        # a mutated output_type may change it
        port.set("precision", "UNSPECIFIED")
    inputs = [el for el in root.iter("layer") if el.get("type") in ("Parameter", "Const")]
    if inputs and d.int(0, 7) == 0:                    # the Parameter-1 / Constant-1 attributes instead
        layer = d.pick(inputs)
        schema = get_schema("Parameter-1" if layer.get("type") == "Parameter" else "Constant-1")
    data_el = layer.find("data")
    kinds = {a.name: (a.type.name, a.allowed) for a in schema.attributes}
    if schema.name == "Constant":
        kinds.update(offset=("int", None), size=("int", None))
    names = sorted(kinds)
    for _ in range(d.int(1, 3)):
        if not names or d.int(0, 15) == 0:
            data_el.set(d.pick(("bogus", "axis", "Axis", "auto_pad", "element_type", "shape")), d.pick(_WORDS))
            continue
        name = d.pick(names)
        if d.int(0, 9) == 0:
            data_el.attrib.pop(name, None)             # a required attribute missing, or the default used
            continue
        kind, allowed = kinds[name]
        data_el.set(name, _attr_text(d, kind, data_el.get(name, ""), allowed))
    text = etree.tostring(root)
    try:
        model = Model(read_graph("fuzz.xml", xml=text, weights=weights))
        if d.bool():                                   # run on the case's values of the Parameters
            ports = get_schema(case.op).ports_for(len(case.inputs))
            with np.errstate(all="ignore"):
                model.run([x for x, p in zip(case.inputs, ports) if not p.const])
    except Exception as e:  # noqa: BLE001 -- a finding unless it is a clean OprefError
        _check(e)


# --- infer: whole-graph shape inference with the inputs re-declared as random partial shapes ---------
INFER_MODELS = ("transformer_block", "lstm", "gru", "rnn", "loop", "if", "tensor_iterator", "tensor_iterator_reverse",
                "movement", "movement_batch", "squeezenet", "shufflenet")
_LOADED: dict = {}
_DIMS = (0, 1, 2, 3, 4, 7, 16, 2**31 - 1, 2**40, 2**62)


def _model(key):
    """A loaded model of the catalogue (name) or of a case ((op index, case index, consts)); cached."""
    if key not in _LOADED:
        import opref
        from opref.ir_xml.reader import read_graph
        from opref.model import Model
        if isinstance(key, str):
            import sys
            sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "benchmarks"))
            from models import model_path
            _LOADED[key] = opref.load(model_path(key))
        else:
            written = _case_model(_by_op()[key[0]][key[1]], key[2])
            try:
                _LOADED[key] = None if written is None else Model(read_graph("case.xml", xml=written[0],
                                                                               weights=written[1]))
            except Exception as e:  # noqa: BLE001 -- a case model opref rejects is no seed; any other error is
                _check(e)          # a finding of its own
                _LOADED[key] = None
        if len(_LOADED) > 4096:                        # bounded: forget the oldest case model
            _LOADED.pop(next(k for k in _LOADED if not isinstance(k, str)))
    return _LOADED[key]


# A 1-D integer input (a shape, begin/end, repeats, axes) of huge length once gave shape rules a rank or a
# list of that length to build (MemoryError in PartialShape.dynamic, a StridedSlice mask list growing for
# minutes); ranks are now bounded (shapes.MAX_RANK, regression tests in tests/test_reliability.py). True
# keeps such inputs below 2^31 - 1 again.
AVOID_REPORTED_LENGTHS = False


def random_shape(d: Draw, shape, huge: bool = True):
    """A random re-declaration of an input's partial shape: dynamic rank, or a rank (mostly the declared
    one) of dims kept, dynamic, intervals (bounded or not) or static values from 0 to 2^62 (below 2^31 - 1
    when not `huge`)."""
    if d.int(0, 11) == 0:
        return "..."
    rank = shape.rank if shape.rank_is_static and d.int(0, 3) else d.int(0, 6)
    dims = []
    for k in range(rank):
        old = shape[k] if shape.rank_is_static and k < shape.rank else None
        how = d.int(0, 9)
        if how <= 2 and old is not None:
            dims.append(old)
        elif how == 3:
            dims.append(-1)
        elif how == 4:
            lo = d.pick(_DIMS[:7])
            dims.append((lo, lo + d.pick(_DIMS[:7])))
        elif how == 5:
            dims.append((d.pick(_DIMS[:7]), None))
        elif how == 6 and old is not None and old.is_static:
            dims.append((max(old.lo - 1, 0), old.lo + d.int(0, 2)))
        else:
            dims.append(d.pick(_DIMS if huge else _DIMS[:7]))
    return dims


def fuzz_infer(data: bytes) -> None:
    """A converter-written model of the catalogue or a case's one-op model, its inputs re-declared by
    `random_shape`, through Model.infer_shapes(strict=True) or (strict=False)."""
    d = Draw(data)
    if d.int(0, 7) == 0:
        model = _model(d.pick(INFER_MODELS))
    else:
        op = d.int(0, len(_by_op()) - 1)
        model = _model((op, d.int(0, len(_by_op()[op]) - 1), d.int(0, 3) != 0))
    if model is None:
        return
    shapes = {p.name: random_shape(d, p.shape, huge=not (AVOID_REPORTED_LENGTHS and p.shape.rank == 1 and
                                                      p.element_type[0] in "iu"))
              for p in model.inputs if d.int(0, 4)}
    strict = d.bool()
    try:
        model.infer_shapes(shapes, strict=strict)
    except Exception as e:  # noqa: BLE001 -- a finding unless it is a clean OprefError
        _check(e)


def warm(target: str) -> None:
    """Loads what every input of a target shares (the case tables, the catalogue models) before the
    campaign starts, so that the first inputs are not timed with it."""
    if target in ("run_op", "attrs", "infer"):
        _by_op()
    if target == "infer":
        for name in INFER_MODELS:
            _model(name)


def seed_corpus(target: str, folder: str) -> None:
    """Seed inputs: converter-written IRs of the catalogue's small models and one-op IRs (reader); random
    bytes that pick cases and mutations (run_op, attrs, infer)."""
    def put(data: bytes):
        with open(os.path.join(folder, hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(data)
    if target in ("run_op", "attrs", "infer"):
        rng = np.random.default_rng(0)
        for _ in range(64 if target == "run_op" else 256):
            put(rng.integers(0, 256, 32 if target == "run_op" else 64, dtype=np.uint8).tobytes())
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
