"""Attention ops: ScaledDotProductAttention-13.

The shape rule follows OpenVINO's (src/core/shape_inference/include/scaled_dot_product_attention_shape_inference.hpp)
on partial shapes: the batch dims of query, key, value and a mask of rank >= 3 broadcast (NumPy),
E of query and key merge, S of key and value merge, and a mask's L broadcasts with query's L (a
mask may widen an L of 1, as OpenVINO's inference does).
"""
from __future__ import annotations

from ..shapes import Dimension, PartialShape
from .families import broadcast_dim
from .helpers import check, fail
from .schema import BOOL, Attr, OpSchema, Port

# "any supported floating-point type": OpenVINO's CPU plugin has no f8 attention
T_SDPA = ("f64", "f32", "f16", "bf16")


def _batch_merge(op: str, name: str, dims: list | None, other: PartialShape):
    """NumPy broadcast of batch dims, as ov::PartialShape::broadcast_merge_into (None: dynamic rank)."""
    if dims is None or not other.rank_is_static:
        return None
    n = max(len(dims), len(other))
    one = Dimension(1, 1)
    a = [one] * (n - len(dims)) + list(dims)
    b = [one] * (n - len(other)) + list(other)
    out = []
    for x, y in zip(a, b):
        m = broadcast_dim(x, y)
        if m is None:
            fail(op, f"{name} batch dimensions {other} do not broadcast with {PartialShape(dims)}")
        out.append(m)
    return out


def scaled_dot_product_attention_shape(query, key, value, attention_mask=None, scale=None, *, causal):
    """The output is [*batch, L, Ev]: L from query's dimension -2, Ev from value's last dimension, and the
    batch dims of query, key, value (and of a non-causal mask of rank >= 3) broadcast numpy-style. query,
    key and value need rank >= 3; key's last dim must equal query's (E), value's dim -2 key's (S); a
    non-causal mask must be a scalar or of rank >= 2 broadcasting to [L, S] (its L may widen an L of 1);
    scale holds one element. key, value and scale must have query's element type, the mask boolean or
    query's. A query of dynamic rank gives a dynamic rank."""
    op = "ScaledDotProductAttention-13"
    q, k, v = query.shape, key.shape, value.shape
    for info, name in ((key, "key"), (value, "value")):
        check(info.element_type == query.element_type, op,
              lambda: f"input {name!r} has element type "
                      f"{info.element_type}, query has {query.element_type}; they must match")
    if scale is not None:
        check(scale.element_type == query.element_type, op,
              lambda: f"input 'scale' has element type {scale.element_type}, "
                      f"query has {query.element_type}; they must match")
    if attention_mask is not None:
        check(attention_mask.element_type in (query.element_type, "boolean"), op,
              lambda: f"input 'attention_mask' has element type {attention_mask.element_type}, expected boolean or the "
                      f"query's {query.element_type}")
    dims = l_dim = e_dim = None
    if q.rank_is_static:
        check(len(q) >= 3, op, lambda: f"query must have rank >= 3, got {q}")
        dims, l_dim, e_dim = list(q)[:-2], q[-2], q[-1]
    l_dim, e_dim, s_dim, ev_dim = l_dim or Dimension(), e_dim or Dimension(), Dimension(), Dimension()
    if k.rank_is_static:
        check(len(k) >= 3, op, lambda: f"key must have rank >= 3, got {k}")
        dims = _batch_merge(op, "key", dims, k[:-2])
        merged = e_dim.merge(k[-1])
        check(merged is not None, op, lambda: f"key's last dimension {k[-1]} must equal query's (E) {e_dim}")
        s_dim = k[-2]
    if v.rank_is_static:
        check(len(v) >= 3, op, lambda: f"value must have rank >= 3, got {v}")
        dims = _batch_merge(op, "value", dims, v[:-2])
        merged = s_dim.merge(v[-2])
        check(merged is not None, op, lambda: f"value's dimension -2 {v[-2]} must equal key's (S) {s_dim}")
        s_dim, ev_dim = merged, v[-1]
    if attention_mask is not None and not causal:
        m = attention_mask.shape
        if m.rank_is_static and len(m) != 0:
            check(len(m) >= 2, op, lambda: f"attention_mask must be a scalar or have rank >= 2, got {m}")
            new_l, new_s = broadcast_dim(l_dim, m[-2]), broadcast_dim(s_dim, m[-1])
            check(new_l is not None and new_s is not None, op, lambda: f"attention_mask {m} does not broadcast to "
                                                                       f"[..., L, S] = [..., {l_dim}, {s_dim}]")
            l_dim = new_l
            if len(m) >= 3:
                dims = _batch_merge(op, "attention_mask", dims, m[:-2])
    if scale is not None:
        s = scale.shape
        check(not s.rank_is_static or len(s) == 0 or (len(s) == 1 and s[0].contains(1)), op,
              lambda: f"scale must be a scalar or have 1 element, got {s}")
    if dims is None:
        return PartialShape.dynamic()
    return PartialShape(dims + [l_dim, ev_dim])


SCALED_DOT_PRODUCT_ATTENTION_13 = OpSchema(
    "ScaledDotProductAttention", 13, category="attention",
    inputs=(Port("query", "T", doc="queries, [..., L, E] (rank >= 3)"),
            Port("key", "T", doc="keys, [..., S, E] (rank >= 3; batch dims broadcast with query's)"),
            Port("value", "T", doc="values, [..., S, Ev] (rank >= 3)"),
            Port("attention_mask", "T_MASK", optional=True, doc="boolean (true: attend) or additive, [..., L|1, S]"),
            Port("scale", "T", optional=True, doc="scalar; default 1/sqrt(E)")),
    outputs=(Port("output", "T", doc="the attention result, [..., L, Ev]"),),
    attributes=(Attr("causal", BOOL, doc="mask out keys after each query position (upper triangle of [L, S], "
                     "aligned at the top left); the attention_mask is then ignored"),),
    type_constraints={"T": T_SDPA, "T_MASK": T_SDPA + ("boolean",)},
    shape=scaled_dot_product_attention_shape,
    doc="softmax(query @ key^T * scale + bias) @ value, with bias from a causal mask or attention_mask.",
)

OPS = (SCALED_DOT_PRODUCT_ATTENTION_13,)
