"""Embedding bags. ONNX has no bag op, but each is a Gather of emb_table rows, scaled by
per_sample_weights (Mul), added into its bag by ScatterND with reduction add — which adds the rows in
index order, as opref's running sum does, so even float sums round alike — then divided by the bag's
size for `mean` (Div: integer means truncate as opref's do), and an empty bag takes row default_index
(-1 or absent: zeros). Narrow floats sum in f32 and round once, integers in their own type (wrapping),
as opref does. The bag of each index: EmbeddingBagPacked's row; EmbeddingBagOffsets' last offset at or
before it (indices before the first offset belong to no bag: they go to an extra bag that is cut off);
EmbeddingSegmentsSum's segment_ids.
SparseFillEmptyRows-16 has no ONNX op (its outputs' row count depends on the data)."""
from __future__ import annotations

from ..types import accumulator_dtype, element_type
from .builder import Unsupported


def _acc(et):
    return element_type(accumulator_dtype(element_type(et).dtype)).name


def _bags(b, call, bag, n_bags, *, default_index=None, none=-1, mean=False, extra_bag=False):
    """The shared body: `bag` [n] i64 bag ids of the indices (n_bags as a [1] i64 tensor; with
    `extra_bag`, id n_bags collects the indices of no bag)."""
    table, indices = call.inputs[:2]
    at = {"EmbeddingBagPacked": 2, "EmbeddingBagOffsets": 4}.get(call.op.split("-")[0].removesuffix("Sum"), 5)
    weights = call.inputs[at] if len(call.inputs) > at else None
    if table.rank is None:
        return Unsupported("embedding bag of a table of dynamic rank (the weights' broadcast needs it)")
    acc, out_et = _acc(table.element_type), call.outputs[0].element_type
    tab = b.cast(table, acc, table.element_type)
    flat = b.node("Reshape", [b.cast(indices, "i64", indices.element_type), b.i64([-1])])
    rows = b.node("Gather", [tab, flat], axis=0)                                    # [n, ...]
    trailing = [1] * (table.rank - 1)
    if weights is not None:
        w = b.node("Reshape", [b.cast(weights, acc, weights.element_type), b.i64([-1] + trailing)])
        rows = b.node("Mul", [rows, w])
    row_shape = b.node("Shape", [table], start=1)
    total = b.node("Add", [n_bags, b.i64([1])]) if extra_bag else n_bags
    zeros = b.node("Expand", [b.scalar(0, acc), b.node("Concat", [total, row_shape], axis=0)])
    where = b.node("Unsqueeze", [bag, b.i64([1])])
    out = b.node("ScatterND", [zeros, where, rows], reduction="add")
    ones = b.node("Expand", [b.scalar(1, "i64"), b.node("Shape", [bag])])
    counts = b.node("ScatterND", [b.node("Expand", [b.scalar(0, "i64"), total]), where, ones], reduction="add")
    if extra_bag:
        out = b.node("Slice", [out, b.i64([0]), n_bags, b.i64([0])])
        counts = b.node("Slice", [counts, b.i64([0]), n_bags, b.i64([0])])
    per_bag = b.node("Reshape", [counts, b.node("Concat", [b.i64([-1]), b.i64(trailing)], axis=0)]) \
        if trailing else counts
    empty = b.node("Equal", [per_bag, b.i64([0])])
    if mean:
        out = b.node("Div", [out, b.cast(b.node("Max", [per_bag, b.i64([1])]), acc, "i64")])
    if default_index is not None:
        d = b.node("Reshape", [b.cast(default_index, "i64", default_index.element_type), b.i64([1])])
        row = b.node("Gather", [tab, b.node("Max", [d, b.i64([0])])], axis=0)       # [1, ...]
        if none is not None:                                                         # -1: zeros
            row = b.node("Mul", [row, b.cast(b.node("Not", [b.node("Equal", [d, b.i64([none])])]), acc, "boolean")]) \
                if element_type(acc).is_integral else \
                b.node("Where", [b.node("Equal", [d, b.i64([none])]), b.scalar(0, acc), row])
        if acc in b.kernel_types("Where"):
            out = b.node("Where", [empty, row, out])
        else:                           # integers only: the empty bags' sums are exactly 0
            out = b.node("Add", [out, b.node("Mul", [row, b.cast(empty, acc, "boolean")])])
    return b.cast(out, out_et, acc)


def _offsets(mean_attr):
    def lower(b, call):
        indices, offsets = call.inputs[1], call.inputs[2]
        default = call.inputs[3] if len(call.inputs) > 3 else None
        mean = bool(mean_attr) and call.attrs.get("reduction") == "mean"
        pos = b.node("Range", [b.scalar(0, "i64"), b.node("Squeeze", [b.node("Shape", [indices])]),
                               b.scalar(1, "i64")])
        starts = b.cast(offsets, "i64", offsets.element_type)
        n_bags = b.node("Shape", [starts])
        # bag of index j: (offsets <= j).count - 1; -1 (before the first offset) -> the extra bag n_bags
        before = b.node("LessOrEqual", [b.node("Unsqueeze", [starts, b.i64([0])]),
                                        b.node("Unsqueeze", [pos, b.i64([1])])])
        k = b.node("ReduceSum", [b.node("Cast", [before], to=7), b.i64([1])], keepdims=0)
        bag = b.node("Sub", [k, b.i64([1])])
        bag = b.node("Where", [b.node("Less", [bag, b.i64([0])]), b.node("Squeeze", [n_bags]), bag])
        return _bags(b, call, bag, n_bags, default_index=default, mean=mean, extra_bag=True)
    return lower


def _packed(mean_attr):
    def lower(b, call):
        indices = call.inputs[1]
        shape = b.node("Shape", [indices])
        batch = b.node("Slice", [shape, b.i64([0]), b.i64([1])])
        per_bag = b.node("Slice", [shape, b.i64([1]), b.i64([2])])
        ids = b.node("Range", [b.scalar(0, "i64"), b.node("Squeeze", [batch]), b.scalar(1, "i64")])
        bag = b.node("Reshape", [b.node("Expand", [b.node("Unsqueeze", [ids, b.i64([1])]),
                                                   b.node("Concat", [batch, per_bag], axis=0)]), b.i64([-1])])
        mean = bool(mean_attr) and call.attrs.get("reduction") == "mean"
        return _bags(b, call, bag, batch, mean=mean)
    return lower


def _segments(b, call):
    segment_ids, num_segments = call.inputs[2], call.inputs[3]
    default = call.inputs[4] if len(call.inputs) > 4 else None
    n = b.node("Reshape", [b.cast(num_segments, "i64", num_segments.element_type), b.i64([1])])
    return _bags(b, call, b.cast(segment_ids, "i64", segment_ids.element_type), n, default_index=default, none=None)


LOWERINGS = {
    "EmbeddingBagOffsetsSum-3": _offsets(False),
    "EmbeddingBagOffsets-15": _offsets(True),
    "EmbeddingBagPackedSum-3": _packed(False),
    "EmbeddingBagPacked-15": _packed(True),
    "EmbeddingSegmentsSum-3": _segments,
}
NO_ONNX = {
    "SparseFillEmptyRows-16": "ONNX has no SparseFillEmptyRows (its output row count depends on the data; "
                              "ONNX has no sparse-row filling op)",
}
