"""Attention ops. ScaledDotProductAttention-13 is spelled out as the spec's formula: ONNX's own
Attention op exists only from opset 23, and its softmax leaves open what a fully masked row gives.
Here softmax(Q K^T * scale + bias) V is MatMul, Mul, Add, then the softmax written out as opref's
kernel computes it — exp(x - max) / sum — so that a row whose keys are all masked out (every logit
-inf) is NaN (0/0), as the spec's pseudo-code and OpenVINO say. The default scale 1/sqrt(E) reads E
from the query's shape at run time; the causal bias is Trilu of a [L, S] block of -inf; a boolean
mask becomes Where(mask, 0, -inf). f16/bf16 compute in f32 and round back once (opref's kernel
does the same); f64 stays f64.
"""
from __future__ import annotations

import numpy as np

from .builder import Unsupported, onnx_type


def _dim(b, x, index):
    """Dimension `index` (negative: from the end) of x as a 1-element i64 tensor, read at run time."""
    return b.node("Gather", [b.node("Shape", [x]), b.i64([index])], axis=0)


def _sdpa(b, call):
    q, k, v, mask, scale = (list(call.inputs) + [None, None])[:5]
    if k.rank is None:
        return Unsupported("ScaledDotProductAttention with a key of dynamic rank (ONNX's Transpose needs it)")
    out = call.outputs[0].element_type
    ct = "f64" if q.element_type == "f64" else "f32"
    qc, kc, vc = (b.cast(x, ct, x.element_type) for x in (q, k, v))
    perm = list(range(k.rank - 2)) + [k.rank - 1, k.rank - 2]
    logits = b.node("MatMul", [qc, b.node("Transpose", [kc], perm=perm)])
    if scale is None:          # 1 / sqrt(E), E = the query's last dimension
        e = b.node("Cast", [_dim(b, q, -1)], to=onnx_type(ct))
        s = b.node("Div", [b.scalar(1, ct), b.node("Sqrt", [b.node("Reshape", [e, b.i64([])])])])
    else:
        s = b.node("Reshape", [b.cast(scale, ct, scale.element_type), b.i64([])])
    logits = b.node("Mul", [logits, s])
    if call.attrs["causal"]:   # -inf above the diagonal of [L, S], aligned at the top left
        ls = b.node("Concat", [_dim(b, q, -2), _dim(b, k, -2)], axis=0)
        neg = b.node("ConstantOfShape", [ls], value=_tensor(-np.inf, ct))
        logits = b.node("Add", [logits, b.node("Trilu", [neg, b.scalar(1, "i64")], upper=1)])
    elif mask is not None:
        if mask.element_type == "boolean":
            bias = b.node("Where", [mask, b.scalar(0, ct), b.scalar(-np.inf, ct)])
        else:
            bias = b.cast(mask, ct, mask.element_type)
        logits = b.node("Add", [logits, bias])
    axes = b.i64([-1])
    top = b.node("ReduceMax", [logits, axes], keepdims=1)
    e = b.node("Exp", [b.node("Sub", [logits, top])])
    weights = b.node("Div", [e, b.node("ReduceSum", [e, axes], keepdims=1)])
    return b.cast(b.node("MatMul", [weights, vc]), out, ct)


def _tensor(value, et):
    from onnx import helper
    from ..types import element_type
    return helper.make_tensor("value", onnx_type(et), [1], [float(np.asarray(value, element_type(et).dtype))])


LOWERINGS = {"ScaledDotProductAttention-13": _sdpa}
NO_ONNX: dict[str, str] = {}
