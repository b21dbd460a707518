"""Activation functions (schemas and shape rules).

Most are unary elementwise ops declared in one line (opref.opset.families.unary). Softmax and
LogSoftmax check their axis, Clamp its bounds; Swish, PRelu, HardSigmoid and Selu take their
parameters as inputs. Element types: floating-point types for the transcendental functions (as the
specs say); Relu and Clamp also take integers of at least a byte (OpenVINO also accepts i4/u4/u1/nf4,
which NumPy cannot compute on as held: u1/nf4 share the u8/u4 dtypes).
"""
from __future__ import annotations

from ..types import FLOAT, NUMERIC_BYTES
from .families import unary
from .helpers import check
from .schema import FLOAT as FLOAT_ATTR
from .schema import INT, STRING, Attr, OpSchema, Port

A = "activation"

RELU_1 = unary("Relu", 1, A, NUMERIC_BYTES, "max(x, 0)")
SIGMOID_1 = unary("Sigmoid", 1, A, FLOAT, "1 / (1 + exp(-x))")
EXP_1 = unary("Exp", 1, A, FLOAT, "e ** x")
ELU_1 = unary("Elu", 1, A, FLOAT, "x if x > 0 else alpha * (exp(x) - 1)",
              attributes=(Attr("alpha", FLOAT_ATTR, doc="scale of the negative part"),))
GELU_2 = unary("Gelu", 2, A, FLOAT, "x * Phi(x) = 0.5 * x * (1 + erf(x / sqrt(2)))")
GELU_7 = unary("Gelu", 7, A, FLOAT, "x * Phi(x), exactly (erf) or by the tanh approximation "
               "0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))",
               attributes=(Attr("approximation_mode", STRING, "erf", allowed=("erf", "tanh"),
                                doc="erf: the exact Gaussian CDF (the default); tanh: the tanh approximation"),))
HSWISH_4 = unary("HSwish", 4, A, FLOAT, "x * min(max(x + 3, 0), 6) / 6")
HSIGMOID_5 = unary("HSigmoid", 5, A, FLOAT, "min(max(x + 3, 0), 6) / 6")
MISH_4 = unary("Mish", 4, A, FLOAT, "x * tanh(softplus(x))")
SOFTPLUS_4 = unary("SoftPlus", 4, A, FLOAT, "log(1 + exp(x)) (x itself where exp(x) overflows)")
SOFTSIGN_9 = unary("SoftSign", 9, A, FLOAT, "x / (1 + |x|)")


# --- Clamp-1 ---------------------------------------------------------------------------------------
def clamp_shape(data, *, min, max):
    """The output has the input's shape (any rank, dynamic dims kept). Rejects min > max."""
    check(min <= max, "Clamp-1", lambda: f"attribute 'min' must be <= 'max', got min={min} and max={max}")
    return data.shape


CLAMP_1 = OpSchema(
    "Clamp", 1, category=A,
    inputs=(Port("data", "T", doc="the values to clamp, any shape"),),
    outputs=(Port("output", "T", doc="data limited to [min, max], same shape"),),
    attributes=(Attr("min", FLOAT_ATTR, doc="lower bound (integers: rounded up)"),
                Attr("max", FLOAT_ATTR, doc="upper bound (integers: rounded down)")),
    type_constraints={"T": NUMERIC_BYTES}, shape=clamp_shape,
    doc="min(max(x, min), max); for integer types min is rounded up and max down.",
)


# --- Softmax-1, Softmax-8, LogSoftmax-5 ------------------------------------------------------------
def _axis_shape(op, data, axis, negative):
    shape = data.shape
    if shape.rank_is_static:
        r = max(len(shape), 1)      # a scalar has one axis here: 0 (or -1), as OpenVINO normalises it
        lo = -r if negative else 0
        check(lo <= axis <= r - 1, op, lambda: f"attribute 'axis' = {axis} is out of range [{lo}, {r - 1}] for input "
                                               f"of rank {len(shape)}")
    return shape


def softmax1_shape(data, *, axis):
    """The output has the input's shape. With a static rank, axis must lie in [0, rank - 1] (a scalar
    counts as rank 1); with a dynamic rank axis is not checked."""
    return _axis_shape("Softmax-1", data, axis, negative=False)


def softmax8_shape(data, *, axis):
    """The output has the input's shape. With a static rank, axis must lie in [-rank, rank - 1] (a
    scalar counts as rank 1); with a dynamic rank axis is not checked."""
    return _axis_shape("Softmax-8", data, axis, negative=True)


def log_softmax5_shape(data, *, axis):
    """The output has the input's shape. With a static rank, axis must lie in [-rank, rank - 1] (a
    scalar counts as rank 1); with a dynamic rank axis is not checked."""
    return _axis_shape("LogSoftmax-5", data, axis, negative=True)


def _axis_op(name, version, rule, doc, axis_doc):
    return OpSchema(name, version, category=A, inputs=(Port("data", "T", doc="the logits, any shape"),),
                    outputs=(Port("output", "T", doc="the normalised values along axis, same shape as data"),),
                    attributes=(Attr("axis", INT, 1, doc=axis_doc),), type_constraints={"T": FLOAT},
                    shape=rule, doc=doc)


SOFTMAX_1 = _axis_op("Softmax", 1, softmax1_shape, "exp(x) / sum(exp(x)) along axis", "in [0, rank - 1]")
# v8: negative axes count from the back
SOFTMAX_8 = _axis_op("Softmax", 8, softmax8_shape, "exp(x) / sum(exp(x)) along axis", "in [-rank, rank - 1]")
LOG_SOFTMAX_5 = _axis_op("LogSoftmax", 5, log_softmax5_shape, "x - log(sum(exp(x))) along axis",
                         "in [-rank, rank - 1]")


# --- ops with parameter inputs ---------------------------------------------------------------------
# OpenVINO's CPU plugin compiles Swish, HardSigmoid and Selu only when these inputs are constants (as every
# IR that uses them has them); the shape rules do not need their values.
CONST_PARAM = "a constant in practice: OpenVINO's CPU plugin needs its value when compiling"

def _scalar_like(op, name, info, sizes=(1,)):
    """A parameter input must hold one element (scalar, or 1-D of one element where `sizes` allows)."""
    s = info.shape
    if not s.rank_is_static:
        return
    check(len(s) == 0 or (len(s) == 1 and s[0].compatible(1) and 1 in sizes), op,
          lambda: f"input {name!r} must be a scalar{' or a 1-D tensor of one element' if sizes else ''}, got shape {s}")


def swish_shape(data, beta=None):
    """The output has data's shape. beta, when given with a static rank, must be a scalar."""
    if beta is not None:
        _scalar_like("Swish-4", "beta", beta, sizes=())
    return data.shape


SWISH_4 = OpSchema(
    "Swish", 4, category=A,
    inputs=(Port("data", "T", doc="the input values, any shape"),
            Port("beta", "T", optional=True, const=True, doc="scalar multiplier of x inside the sigmoid; "
                 + CONST_PARAM)),
    outputs=(Port("output", "T", doc="x * sigmoid(beta * x), same shape as data"),),
    type_constraints={"T": FLOAT}, shape=swish_shape,
    doc="x * sigmoid(beta * x); beta (a scalar) is 1 when absent.",
)


def hard_sigmoid_shape(data, alpha, beta):
    """The output has data's shape. alpha and beta, when their rank is static, must be scalars."""
    _scalar_like("HardSigmoid-1", "alpha", alpha, sizes=())
    _scalar_like("HardSigmoid-1", "beta", beta, sizes=())
    return data.shape


HARD_SIGMOID_1 = OpSchema(
    "HardSigmoid", 1, category=A,
    inputs=(Port("data", "T", doc="the input values, any shape"),
            Port("alpha", "T", const=True, doc="scalar slope; " + CONST_PARAM),
            Port("beta", "T", const=True, doc="scalar offset; " + CONST_PARAM)),
    outputs=(Port("output", "T", doc="alpha * x + beta clipped to [0, 1], same shape as data"),),
    type_constraints={"T": FLOAT}, shape=hard_sigmoid_shape,
    doc="max(0, min(1, alpha * x + beta)); alpha and beta are scalars.",
)


def selu_shape(data, alpha, lambda_):
    """The output has data's shape. alpha and lambda, when their rank is static, must each be a scalar
    or a 1-D tensor of one element."""
    _scalar_like("Selu-1", "alpha", alpha)
    _scalar_like("Selu-1", "lambda", lambda_)
    return data.shape


SELU_1 = OpSchema(
    "Selu", 1, category=A,
    # the spec's second parameter is `lambda`, a Python keyword: the port is lambda_
    inputs=(Port("data", "T", doc="the input values, any shape"),
            Port("alpha", "T", const=True, doc="one element: scale of the negative part; " + CONST_PARAM),
            Port("lambda_", "T", const=True, doc="one element: overall scale; " + CONST_PARAM)),
    outputs=(Port("output", "T", doc="the scaled ELU of data, same shape"),),
    type_constraints={"T": FLOAT}, shape=selu_shape,
    doc="lambda * (x if x > 0 else alpha * (exp(x) - 1)); alpha and lambda hold one element each.",
)


def prelu_shape(data, slope):
    """The output has data's shape. With both ranks static, slope must either be 1-D and match
    dimension 1 of a data of rank >= 2 (per channel), hold a single element, or broadcast numpy-style
    to data (no more dims than data; each trailing dim 1 or compatible). Dynamic ranks are not checked."""
    op = "PRelu-1"
    d, s = data.shape, slope.shape
    if d.rank_is_static and s.rank_is_static:
        if len(s) == 1 and len(d) >= 2 and s[0].compatible(d[1]) and not (s[0].is_static and s[0].lo == 1):
            return d    # per-channel slope
        if all(x.is_static and x.lo == 1 for x in s):
            return d    # one slope for every element
        check(len(s) <= len(d), op, lambda: f"slope {s} has more dimensions than data {d}")
        for i, (x, y) in enumerate(zip(list(d)[len(d) - len(s):], s)):
            check(y.contains(1) or y.compatible(x), op,
                  lambda: f"slope {s} broadcasts neither along the channel axis nor numpy-style to data {d} "
                          f"(axis {len(d) - len(s) + i}: {y} vs {x})")
    return d


PRELU_1 = OpSchema(
    "PRelu", 1, category=A,
    inputs=(Port("data", "T", doc="the input values, any rank; channels on axis 1"),
            Port("slope", "T", doc="the negative slope: 1-D per channel, or numpy-broadcastable to data"),),
    outputs=(Port("output", "T", doc="data where >= 0, slope * data elsewhere; same shape as data"),),
    type_constraints={"T": FLOAT}, shape=prelu_shape,
    doc="x if x >= 0 else slope * x; a 1-D slope as long as dimension 1 of data applies per channel, "
        "any other slope broadcasts numpy-style.",
)


OPS = (RELU_1, SIGMOID_1, CLAMP_1, ELU_1, EXP_1, GELU_2, GELU_7, HSWISH_4, HSIGMOID_5, MISH_4, SOFTPLUS_4,
       SWISH_4, SOFTMAX_1, SOFTMAX_8, LOG_SOFTMAX_5, PRELU_1, HARD_SIGMOID_1, SELU_1, SOFTSIGN_9)
