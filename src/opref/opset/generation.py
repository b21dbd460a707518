"""Generation ops: Range-1/4, Eye-9, OneHot-1/16, RandomUniform-8, Multinomial-13 (schemas and shape rules). A
Range's length is computed here (`range_count`, as OpenVINO counts it); its values are the kernel's."""
from __future__ import annotations

import math

import numpy as np

from ..shapes import Dimension, PartialShape, TensorInfo
from ..types import ALL, FLOAT, NUMERIC_BYTES, element_type
from .helpers import check, ints_of
from .schema import BOOL, ELEMENT_TYPE, INT, STRING, Attr, OpSchema, Port

# OpenVINO cannot read f8 start/stop/step values ("Element not supported" in shape inference) and
# misreads sub-byte ones (i4 -1 as 15): those types are left out of the inputs' constraints.
_WIDE_FLOAT = ("f64", "f32", "f16", "bf16")
_BYTE_INT = ("i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8")
RANGE_1_TYPES = _WIDE_FLOAT + _BYTE_INT
RANGE_4_INPUTS = RANGE_1_TYPES


# --- Range-1 / Range-4 -----------------------------------------------------------------------------------
def range_count(start: float, stop: float, step: float) -> int:
    """max(ceil((stop - start) / step), 0), computed in double as OpenVINO does."""
    if (step > 0 and start >= stop) or (step < 0 and start <= stop):
        return 0
    return int(math.ceil(abs(stop - start) / abs(step)))


def _scalar(op, name, info):
    check(not info.shape.rank_is_static or len(info.shape) == 0, op, lambda: f"input {name!r} must be a scalar, "
                                                                             f"got shape {info.shape}")
    if info.value is None:
        return None
    v = float(np.asarray(info.value).astype(np.float64).reshape(-1)[0])
    return v


def _range(op, start, stop, step, output_type):
    integral = element_type(output_type).is_integral
    vals = {}
    for name, info in (("start", start), ("stop", stop), ("step", step)):
        v = _scalar(op, name, info)
        if v is not None:
            check(math.isfinite(v), op, lambda: f"input {name!r} must be finite, got {v}")
            vals[name] = math.trunc(v) if integral else v
    if "step" in vals:
        check(vals["step"] != 0, op,
              lambda: f"input 'step' must not be zero{' after truncation to ' + output_type if integral else ''}, "
                      f"got {np.asarray(step.value).item()}")
    if len(vals) < 3:
        return TensorInfo(output_type, PartialShape.dynamic(1))
    return TensorInfo(output_type, PartialShape([range_count(vals["start"], vals["stop"], vals["step"])]))


def range_1_shape(start, stop, step):
    """1-D of start's element type: [max(ceil((stop - start) / step), 0)] when the three values are known
    (integral types truncate them first; the values themselves are given up to 65536 elements), else
    [?]. start, stop and step must be scalars, finite, and step non-zero."""
    return _range("Range-1", start, stop, step, start.element_type)


def range_4_shape(start, stop, step, *, output_type):
    """Range-1's rule with element type output_type: [max(ceil((stop - start) / step), 0)] when the three
    values are known (truncated first for an integral output_type), else [?]. start, stop and step must
    be scalars, finite, and step non-zero (after truncation)."""
    # OpenVINO's shape inference lets a zero step (after truncation) through to a count of
    # (uint32)inf; the spec leaves it undefined: opref rejects it.
    return _range("Range-4", start, stop, step, output_type)


RANGE_1 = OpSchema(
    "Range", 1, category="generation",
    inputs=(Port("start", "T", const=True, bounds=False, doc="scalar: the first value"),
            Port("stop", "T", const=True, bounds=False, doc="scalar: the end, not included"),
            Port("step", "T", const=True, bounds=False, doc="scalar: the non-zero difference between neighbours")),
    outputs=(Port("output", "T", doc="1-D: start, start + step, ... up to stop"),),
    type_constraints={"T": RANGE_1_TYPES},
    shape=range_1_shape,
    doc="The sequence [start, stop) with a step, of the inputs' element type.",
)

# v4: inputs of any numeric types, the output type an attribute (integral: inputs truncated).
RANGE_4 = OpSchema(
    "Range", 4, category="generation",
    inputs=(Port("start", "T1", const=True, bounds=False, doc="scalar: the first value"),
            Port("stop", "T2", const=True, bounds=False, doc="scalar: the end, not included"),
            Port("step", "T3", const=True, bounds=False,
                 doc="scalar: the non-zero difference between neighbours (integral output: truncated)")),
    outputs=(Port("output", "T_OUT", doc="1-D: start, start + step, ... up to stop, in output_type"),),
    attributes=(Attr("output_type", ELEMENT_TYPE, allowed=NUMERIC_BYTES, doc="the output element type"),),
    type_constraints={"T1": RANGE_4_INPUTS, "T2": RANGE_4_INPUTS, "T3": RANGE_4_INPUTS, "T_OUT": NUMERIC_BYTES},
    shape=range_4_shape,
    doc="The sequence [start, stop) with a step, of element type output_type.",
)

# --- Eye-9 ---------------------------------------------------------------------------------------------
# "any numeric type" as far as OpenVINO computes it: neither its CPU plugin nor its reference has an
# f8, sub-byte or u1 Eye; the CPU plugin has a boolean one
EYE_TYPES = tuple(t for t in NUMERIC_BYTES if not t.startswith("f8")) + ("boolean",)


def _eye_length(op, name, info):
    """num_rows / num_columns: a scalar or one-element 1-D input; its value (>= 0) is the dim."""
    _one_element(op, name, info)
    v = ints_of(info)
    if v is None:
        return Dimension()
    check(v[0] >= 0, op, lambda: f"input {name!r} must be non-negative, got {v[0]}")
    return Dimension(v[0], v[0])


def _one_element(op, name, info):
    shape = info.shape
    if shape.rank_is_static:
        check(len(shape) <= 1, op, lambda: f"input {name!r} must be a scalar or 1-D, got shape {shape}")
        check(len(shape) == 0 or shape[0].compatible(1), op,
              lambda: f"input {name!r} must have one element, got shape {shape}")


def eye_9_shape(num_rows, num_columns, diagonal_index, batch_shape=None, *, output_type):
    """[*batch_shape, num_rows, num_columns] of output_type: each of num_rows, num_columns (one element,
    >= 0) is static when its value is known, else dynamic; batch_shape (1-D, values >= 0) gives its
    values, else as many dynamic dims as its static length, else a dynamic rank. diagonal_index must
    hold one element."""
    op = "Eye-9"
    rows, cols = _eye_length(op, "num_rows", num_rows), _eye_length(op, "num_columns", num_columns)
    _one_element(op, "diagonal_index", diagonal_index)
    if batch_shape is None:
        return TensorInfo(output_type, PartialShape([rows, cols]))
    shape = batch_shape.shape
    check(not shape.rank_is_static or len(shape) == 1, op,
          lambda: f"input 'batch_shape' must be 1-D, got shape {shape}")
    batch = ints_of(batch_shape)
    if batch is not None:
        bad = [b for b in batch if b < 0]
        check(not bad, op, lambda: f"input 'batch_shape' must be non-negative, got {list(batch)}")
        return TensorInfo(output_type, PartialShape([*batch, rows, cols]))
    if not shape.rank_is_static or not shape[0].is_static:
        return TensorInfo(output_type, PartialShape.dynamic())
    return TensorInfo(output_type, PartialShape([Dimension()] * shape[0].lo + [rows, cols]))


EYE_9 = OpSchema(
    "Eye", 9, category="generation",
    inputs=(Port("num_rows", "T_NUM1", const=True, doc="scalar or [1]: the number of rows (>= 0)"),
            Port("num_columns", "T_NUM2", const=True, doc="scalar or [1]: the number of columns (>= 0)"),
            Port("diagonal_index", "T_NUM3", doc="scalar or [1]: the diagonal of ones; 0 main, > 0 above, < 0 below"),
            Port("batch_shape", "T_NUM4", optional=True, const=True,
                 doc="1-D: leading batch dims, the matrix repeated over them (absent: none)")),
    outputs=(Port("output", "T_OUT", doc="[*batch_shape, num_rows, num_columns] zeros with ones on the diagonal"),),
    attributes=(Attr("output_type", ELEMENT_TYPE, allowed=EYE_TYPES, doc="the output element type"),),
    # each input is i32 or i64 on its own (OpenVINO checks them one by one)
    type_constraints={"T_NUM1": ("i32", "i64"), "T_NUM2": ("i32", "i64"), "T_NUM3": ("i32", "i64"),
                      "T_NUM4": ("i32", "i64"), "T_OUT": EYE_TYPES},
    shape=eye_9_shape,
    doc="A batch_shape + [num_rows, num_columns] tensor of zeros with ones on the diagonal "
        "output[..., i, i + diagonal_index].",
)

# --- OneHot-1 / OneHot-16 ------------------------------------------------------------------------------
ONE_HOT_VALUES = tuple(t for t in ALL if t != "string")


def _one_hot(op, indices, depth, on_value, off_value, axis):
    for name, i in (("depth", depth), ("on_value", on_value), ("off_value", off_value)):
        check(not i.shape.is_static or len(i.shape) == 0, op,
              lambda: f"input {name!r} must be a scalar, got shape {i.shape}")
    d = Dimension()
    v = ints_of(depth)
    if v is not None:
        check(v[0] >= 0, op, lambda: f"input 'depth' must be non-negative, got {v[0]}")
        d = Dimension(v[0], v[0])
    shape = indices.shape
    if not shape.rank_is_static:
        return TensorInfo(on_value.element_type, PartialShape.dynamic())
    r = len(shape) + 1
    check(-r <= axis < r, op, lambda: f"attribute 'axis' = {axis} is out of range [{-r}, {r - 1}] for output rank {r}")
    a = axis % r
    dims = list(shape)
    return TensorInfo(on_value.element_type, PartialShape(dims[:a] + [d] + dims[a:]))


def one_hot_1_shape(indices, depth, on_value, off_value, *, axis):
    """indices' shape with a new axis of length depth inserted at axis (in [-r, r - 1], r = indices'
    rank + 1), of on_value's element type; depth's dim is dynamic while its value is unknown, and a
    dynamic-rank indices gives a dynamic rank. depth, on_value, off_value must be scalars (a shape with
    a dynamic dim passes, as in OpenVINO); depth >= 0."""
    return _one_hot("OneHot-1", indices, depth, on_value, off_value, axis)


def one_hot_16_shape(indices, depth, on_value, off_value, *, axis, negative_indices_mode):
    """OneHot-1's rule: indices' shape with a new axis of length depth at axis, of on_value's element
    type (negative_indices_mode does not change the shape)."""
    return _one_hot("OneHot-16", indices, depth, on_value, off_value, axis)


def _one_hot_schema(version, extra=()):
    return OpSchema(
        "OneHot", version, category="generation",
        inputs=(Port("indices", "T1", doc="the positions of on_value along the new axis, any shape"),
                Port("depth", "T_DEPTH", const=True, doc="scalar: the length of the new axis (>= 0)"),
                Port("on_value", "T2", doc="scalar: the value at the indexed positions"),
                Port("off_value", "T2", doc="scalar: the value everywhere else")),
        outputs=(Port("output", "T2", doc="indices' shape with a new axis of length depth at axis"),),
        attributes=(Attr("axis", INT, doc="where the new axis of length depth goes (negative: from the end)"),) + extra,
        # indices and depth are each i32 or i64 (OpenVINO does not require them to match)
        type_constraints={"T1": ("i32", "i64"), "T_DEPTH": ("i32", "i64"), "T2": ONE_HOT_VALUES},
        shape=one_hot_1_shape if version == 1 else one_hot_16_shape,
        doc="on_value where an index equals the position along the new axis, off_value elsewhere"
            + ("; negative indices are ignored (off_value) or normalized by depth." if extra else
               " (indices outside [0, depth) give off_value)."),
    )


ONE_HOT_1 = _one_hot_schema(1)
# v16: negative_indices_mode (the spec writes ignore-negative; OpenVINO's IR spells it ignore_negative)
ONE_HOT_16 = _one_hot_schema(16, (Attr("negative_indices_mode", STRING, "ignore-negative",
                                       allowed=("ignore-negative", "normalize"),
                                       doc="negative indices: ignored (off_value), or normalized by adding depth"),))

# --- RandomUniform-8 -----------------------------------------------------------------------------------
RANDOM_TYPES = ("f64", "f32", "f16", "bf16", "i64", "i32")


def _output_shape(op, shape, name="shape") -> PartialShape:
    """The shape a 1-D shape-giving input describes: static from its value, else as many dynamic
    dims as it has elements (or a dynamic rank)."""
    check(not shape.shape.rank_is_static or len(shape.shape) == 1, op,
          lambda: f"input {name!r} must be 1-D, got shape {shape.shape}")
    dims = ints_of(shape)
    if dims is not None:
        check(min(dims, default=0) >= 0, op, lambda: f"input {name!r} must be non-negative, got {list(dims)}")
        return PartialShape(list(dims))
    if shape.shape.rank_is_static and shape.shape[0].hi is not None:
        # (OpenVINO gives a length bounded by an interval its upper bound's rank)
        return PartialShape.dynamic(shape.shape[0].hi)
    return PartialShape.dynamic()


def random_uniform_8_shape(shape, minval, maxval, *, alignment, global_seed, op_seed, output_type):
    """The shape that `shape`'s value gives (values >= 0), of output_type; while the value is unknown, as
    many dynamic dims as shape's length (its upper bound when that is an interval), or a dynamic rank.
    shape must be 1-D, minval and maxval hold one element each of output_type, minval < maxval when
    both are known, and the seeds >= 0."""
    op = "RandomUniform-8"
    for name, info in (("minval", minval), ("maxval", maxval)):
        _one_element(op, name, info)
        check(info.element_type == output_type, op, lambda: f"input {name!r} has element type {info.element_type}, "
                                                            f"expected output_type {output_type}")
    check(global_seed >= 0 and op_seed >= 0, op,
          lambda: f"attributes 'global_seed' and 'op_seed' must be non-negative, "
                  f"got {global_seed} and {op_seed}")
    if minval.value is not None and maxval.value is not None:
        lo, hi = (np.asarray(v).reshape(-1)[0] for v in (minval.value, maxval.value))
        check(lo < hi, op, lambda: f"minval must be less than maxval, got {lo} and {hi}")
    return TensorInfo(output_type, _output_shape(op, shape))


RANDOM_UNIFORM_8 = OpSchema(
    "RandomUniform", 8, category="generation", random=True,
    inputs=(Port("shape", "T_SHAPE", const=True, doc="1-D: the output shape"),
            Port("minval", "T_OUT", const=True, doc="scalar or [1]: the lowest value, included"),
            Port("maxval", "T_OUT", const=True, doc="scalar or [1]: the upper limit, excluded (> minval)")),
    outputs=(Port("output", "T_OUT", doc="random values in [minval, maxval) of the given shape"),),
    attributes=(Attr("output_type", ELEMENT_TYPE, allowed=RANDOM_TYPES, doc="the output element type"),
                Attr("global_seed", INT, 0, doc="Philox key / MT19937 seed (with op_seed 0 too: not deterministic)"),
                Attr("op_seed", INT, 0, doc="Philox counter (ignored by the pytorch alignment)"),
                Attr("alignment", STRING, "tensorflow", allowed=("tensorflow", "pytorch"),
                     doc="tensorflow: Philox4x32-10 as TensorFlow; pytorch: MT19937 as PyTorch")),
    type_constraints={"T_SHAPE": ("i32", "i64"), "T_OUT": RANDOM_TYPES},
    shape=random_uniform_8_shape,
    doc="Uniform random values in [minval, maxval) from a seeded counter-based (Philox) or Mersenne Twister "
        "generator, bit for bit as OpenVINO, TensorFlow or PyTorch give them.",
)

# --- Multinomial-13 ------------------------------------------------------------------------------------
MULTINOMIAL = "Multinomial-13"


def multinomial_13_shape(probs, num_samples, *, convert_type, with_replacement, log_probs, global_seed, op_seed):
    """[batch_size, num_samples] from a 2-D probs and a scalar or one-element num_samples. The spec's
    requirements that OpenVINO's shape inference does not check are checked where known: num_samples
    is a count (OpenVINO reads a negative one as a dynamic dimension), and draws without replacement
    need num_samples <= class_size (OpenVINO's CPU plugin returns uninitialised indices past it)."""
    op = MULTINOMIAL
    shape = probs.shape
    check(not shape.rank_is_static or len(shape) == 2, op,
          lambda: f"input 'probs' must be 2-D [batch_size, class_size], "
                  f"got shape {shape}")
    _one_element(op, "num_samples", num_samples)
    check(global_seed >= 0 and op_seed >= 0, op,
          lambda: f"attributes 'global_seed' and 'op_seed' must be non-negative, "
                  f"got {global_seed} and {op_seed}")
    n = Dimension()
    value = ints_of(num_samples)
    if value is not None:
        check(value[0] >= 0, op, lambda: f"input 'num_samples' must be non-negative, got {value[0]}")
        n = Dimension(value[0], value[0])
    if not shape.rank_is_static:
        return TensorInfo(convert_type, PartialShape.dynamic())
    classes = shape[1]
    if value is not None and value[0] > 0:
        check(classes.hi is None or classes.hi > 0, op, lambda: f"cannot draw {value[0]} samples from class_size 0")
        check(with_replacement or classes.hi is None or value[0] <= classes.hi, op,
              lambda: f"without replacement, num_samples ({value[0]}) must not exceed class_size ({classes})")
    return TensorInfo(convert_type, PartialShape([shape[0], n]))


MULTINOMIAL_13 = OpSchema(
    "Multinomial", 13, category="generation", random=True,
    inputs=(Port("probs", "T_IN", doc="[batch_size, class_size]: per row, the (unnormalised) probabilities "
                                       "or, with log_probs, log probabilities of the classes"),
            Port("num_samples", "T_SAMPLES", const=True, doc="scalar or [1]: draws per row (>= 0)")),
    outputs=(Port("output", "T_OUT", doc="[batch_size, num_samples]: the drawn class indices"),),
    attributes=(Attr("convert_type", ELEMENT_TYPE, allowed=("i32", "i64"), doc="the output element type"),
                Attr("with_replacement", BOOL, doc="a class may be drawn again (false: each class at most once)"),
                Attr("log_probs", BOOL, doc="probs are unnormalised log probabilities (exponentiated first)"),
                Attr("global_seed", INT, 0, doc="first std::seed_seq word of the MT19937 stream (both seeds 0: "
                                                "not deterministic)"),
                Attr("op_seed", INT, 0, doc="second std::seed_seq word of the MT19937 stream")),
    type_constraints={"T_IN": FLOAT, "T_SAMPLES": ("i32", "i64"), "T_OUT": ("i32", "i64")},
    shape=multinomial_13_shape,
    doc="Class indices drawn per batch row from the distribution probs gives: the row's cumulative sums over "
        "their last value, one uniform draw per sample, the first class whose cumulative probability is not "
        "below the draw (without replacement the drawn class is then removed and the rest renormalised).",
)

OPS = (RANGE_1, RANGE_4, EYE_9, ONE_HOT_1, ONE_HOT_16, RANDOM_UNIFORM_8, MULTINOMIAL_13)
