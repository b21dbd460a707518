"""Attention kernels: ScaledDotProductAttention-13, the spec's pseudo-code in NumPy.

Narrow floats compute in f32 (both products and the softmax) and round back once, as OpenVINO's
CPU plugin does. A row whose keys are all masked out has no finite logit, and its softmax is NaN
(0/0), as in the pseudo-code and OpenVINO.
"""
from __future__ import annotations

import numpy as np

from ...types import accumulator_dtype
from ._elementwise import quiet


def _attention(query, key, value, attention_mask=None, scale=None, *, causal):
    """(Its kernel runs with the invalid/overflow/divide warnings off: a fully masked row is NaN, quietly.)"""
    acc = accumulator_dtype(query.dtype)
    q, k, v = (x.astype(acc, copy=False) for x in (query, key, value))
    L, S = q.shape[-2], k.shape[-2]
    if scale is None:
        s = acc.type(1) / np.sqrt(acc.type(q.shape[-1]))
    else:
        s = np.asarray(scale).astype(acc).reshape(())
    logits = np.matmul(q, np.swapaxes(k, -1, -2)) * s
    if causal:
        logits = logits + np.triu(np.full((L, S), -np.inf, acc), k=1)
    elif attention_mask is not None:
        if attention_mask.dtype == np.bool_:
            logits = logits + np.where(attention_mask, acc.type(0), acc.type(-np.inf))
        else:
            logits = logits + attention_mask.astype(acc, copy=False)
    e = np.exp(logits - np.maximum.reduce(logits, axis=-1, keepdims=True, initial=-np.inf))
    weights = e / np.add.reduce(e, axis=-1, keepdims=True)
    out = np.matmul(weights, v)
    return out.astype(query.dtype, copy=False)


KERNELS = {
    "ScaledDotProductAttention-13": quiet(_attention, invalid="ignore", over="ignore", divide="ignore"),
}


def workspace(ins, outs, kw) -> int:
    """Bytes of the work arrays in the accumulator type: q, k, v converted, four logits-sized arrays
    [batch..., L, S] (the logits, masked, the shifted exponentials, the weights), the
    product [batch..., L, Ev]."""
    query, key = ins[0], ins[1]
    acc = accumulator_dtype(query.dtype)
    out = outs[0] or query.shape
    batch = int(np.prod(out[:-2])) if len(out) > 2 else 1
    logits = batch * query.shape[-2] * key.shape[-2]
    converted = 0 if acc == query.dtype else sum(x.size for x in ins[:3])
    return acc.itemsize * (4 * logits + converted + int(np.prod(out)))


WORKSPACE = {"ScaledDotProductAttention-13": workspace}
