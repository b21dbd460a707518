"""Data-movement ops that gather or scatter by index: Gather-1/7/8, GatherElements-6, GatherND-5/8,
GatherTree-1, ScatterUpdate-3, ScatterNDUpdate-3/15, ScatterElementsUpdate-3/12 (schemas and shape
rules; re-exported by movement.py)."""
from __future__ import annotations


from ..shapes import Dimension, PartialShape
from ..types import ALL, IDX, NUMERIC_BYTES
from .helpers import check, ints_of
from .movement_common import T_INT, _scalar_like, normalize_axis
from .schema import BOOL, INT, STRING, Attr, OpSchema, Port


# --- Gather-1 / Gather-7 / Gather-8 ------------------------------------------------------------------------
def _gather(op, data, indices, axis, batch_dims, negative):
    _scalar_like(op, "axis", axis)
    ds, is_ = data.shape, indices.shape
    b = batch_dims
    if b < 0 and is_.rank_is_static:
        b += len(is_)
        check(b >= 0, op, lambda: f"batch_dims ({batch_dims}) must be >= {-len(is_)} (minus the rank of indices)")
    a = ints_of(axis)
    ax = None
    if a is not None:
        ax = normalize_axis(op, "axis", a[0], len(ds)) if ds.rank_is_static else a[0]
        check(b <= ax or b < 0 or ax < 0, op, lambda: f"batch_dims ({batch_dims}) must be <= axis ({a[0]}) after "
                                                      "normalization")
    if is_.rank_is_static and b >= 0:
        check(b <= len(is_), op, lambda: f"batch_dims ({batch_dims}) must be <= the rank of indices ({len(is_)})")
    if ds.rank_is_static and is_.rank_is_static:
        check(b <= len(ds), op, lambda: f"batch_dims ({batch_dims}) must be <= the rank of data ({len(ds)})")
        rank = len(ds) + len(is_) - 1 - b
        out = [Dimension()] * rank
        for i in range(b):
            m = ds[i].merge(is_[i])
            check(m is not None, op, lambda: f"data {ds} and indices {is_} must be equal on the {b} batch dimensions")
            out[i] = m
        if ax is not None:
            out = out[:b] + list(ds[b:ax]) + list(is_[b:]) + list(ds[ax + 1:])
        shape = PartialShape(out)
    else:
        shape = PartialShape.dynamic()
    return shape


def gather_1_shape(data, indices, axis):
    """data.shape[:axis] + indices.shape + data.shape[axis+1:]. axis is a scalar or 1-element constant in
    [-rank, rank-1]; with it unknown the output has rank rank(data) + rank(indices) - 1 with dynamic
    dimensions, and either rank unknown gives dynamic rank. Known small values with in-range indices fold."""
    return _gather("Gather-1", data, indices, axis, 0, False)


def gather_7_shape(data, indices, axis, *, batch_dims):
    """data.shape[:axis] + indices.shape[batch_dims:] + data.shape[axis+1:], the first batch_dims dimensions
    merged between data and indices (they must be compatible). batch_dims < 0 counts from the rank of indices;
    it must be <= axis (normalized, in [-rank, rank-1]) and <= both ranks. With axis unknown the output has
    rank rank(data) + rank(indices) - 1 - batch_dims; either rank unknown gives dynamic rank."""
    return _gather("Gather-7", data, indices, axis, batch_dims, False)


def gather_8_shape(data, indices, axis, *, batch_dims):
    """As Gather-7: data.shape[:axis] + indices.shape[batch_dims:] + data.shape[axis+1:], the first batch_dims
    dimensions merged between data and indices. batch_dims < 0 counts from the rank of indices; it must be
    <= axis (normalized, in [-rank, rank-1]) and <= both ranks. With axis unknown the output has rank
    rank(data) + rank(indices) - 1 - batch_dims; either rank unknown gives dynamic rank. Known small values
    fold (negative indices counted from the end)."""
    return _gather("Gather-8", data, indices, axis, batch_dims, True)


def _gather_schema(version, shape, attrs, doc):
    return OpSchema(
        "Gather", version, category="movement", value_bounds="moves",
        inputs=(Port("data", "T", doc="the tensor to take slices from, of rank >= 1"),
                Port("indices", "T_IND", doc="indices into data's axis dimension, of any shape" +
                     ("; negative counts from the end" if version >= 8 else "")),
                Port("axis", "T_AXIS", const=True,
                     doc="scalar or 1-element axis of data to gather along; negative counts from the end")),
        outputs=(Port("output", "T", doc="the gathered slices: " + ("data.shape[:axis] + indices.shape + "
                                          "data.shape[axis+1:]" if version == 1 else
                                          "data.shape[:axis] + indices.shape[batch_dims:] + data.shape[axis+1:]")),),
        attributes=attrs,
        type_constraints={"T": ALL, "T_IND": T_INT, "T_AXIS": T_INT}, shape=shape, doc=doc)


_BATCH_DIMS = (Attr("batch_dims", INT, 0, doc="leading dimensions of data and indices that are batches; "
                    "negative counts from the rank of indices"),)
GATHER_1 = _gather_schema(1, gather_1_shape, (), "Takes slices of data along axis at the given indices.")
GATHER_7 = _gather_schema(7, gather_7_shape, _BATCH_DIMS, "Gather with batch_dims: each batch has its own indices.")
GATHER_8 = _gather_schema(8, gather_8_shape, _BATCH_DIMS,   # v8: negative indices; out of range gives 0
                          "Gather with batch_dims and negative indices; out-of-range indices give zeros.")


# --- GatherElements-6 --------------------------------------------------------------------------------------
def gather_elements_shape(data, indices, *, axis):
    """The output has the indices' shape, merged with the data's on every axis but `axis`. data and indices
    must have one rank >= 1 and axis must lie in [-rank, rank-1]. With the indices' rank unknown the output is
    the data's shape with a dynamic `axis` dimension; with the data's unknown, the indices' shape."""
    op = "GatherElements-6"
    ds, is_ = data.shape, indices.shape
    if ds.rank_is_static:
        check(len(ds) >= 1, op, lambda: f"data must have rank >= 1, got {ds}")
        ax = normalize_axis(op, "axis", axis, len(ds))
    check(not is_.rank_is_static or len(is_) >= 1, op, lambda: f"indices must have rank >= 1, got {is_}")
    if not ds.rank_is_static:
        return PartialShape.dynamic() if not is_.rank_is_static else is_
    if not is_.rank_is_static:
        return PartialShape([Dimension() if i == ax else d for i, d in enumerate(ds)])
    check(len(ds) == len(is_), op, lambda: f"data {ds} and indices {is_} must have the same rank")
    out = []
    for i, (d, k) in enumerate(zip(ds, is_)):
        m = k if i == ax else d.merge(k)
        check(m is not None, op,
              lambda: f"data {ds} and indices {is_} must be equal except on axis {axis} (dimension {i})")
        out.append(m)
    return PartialShape(out)


GATHER_ELEMENTS_6 = OpSchema(
    "GatherElements", 6, category="movement", value_bounds="moves",
    inputs=(Port("data", "T", doc="the tensor to take elements from, of rank >= 1"),
            Port("indices", "T_IND", doc="indices along axis, of data's rank and equal to it on every other axis")),
    outputs=(Port("output", "T", doc="one data element per index, of the indices' shape"),),
    attributes=(Attr("axis", INT, doc="the axis indices address; negative counts from the end"),),
    type_constraints={"T": ALL, "T_IND": IDX},
    shape=gather_elements_shape,
    doc="output[i, j, k] = data[i, indices[i, j, k], k] (for axis 1): one element per index.",
)


# --- GatherND-5 / GatherND-8 -------------------------------------------------------------------------------
def _gather_nd(op, data, indices, batch_dims, fuse):
    ds, is_ = data.shape, indices.shape
    b = batch_dims
    check(b >= 0, op, lambda: f"batch_dims must be >= 0, got {b}")
    if ds.rank_is_static:
        check(len(ds) > 0, op, "data rank must be at least 1")
        check(len(ds) > b, op, lambda: f"batch_dims ({b}) must be below the rank of data ({len(ds)})")
    if is_.rank_is_static:
        check(len(is_) > 0, op, "indices rank must be at least 1")
        check(len(is_) > b, op, lambda: f"batch_dims ({b}) must be below the rank of indices ({len(is_)})")
    if not (ds.rank_is_static and is_.rank_is_static and is_[len(is_) - 1].is_static):
        return PartialShape.dynamic()
    k = is_[len(is_) - 1].lo
    check(k + b <= len(ds), op,
          lambda: f"index tuples of length {k} address more than the {len(ds) - b} non-batch axes of "
                  f"data {ds}")
    batch = []
    for i in range(b):
        m = ds[i].merge(is_[i])
        check(m is not None, op, lambda: f"batch dimensions of data {ds} and indices {is_} must be the same")
        batch.append(m)
    rest = list(is_[b:len(is_) - 1]) + list(ds[b + k:])
    if fuse and b > 1:
        prod = Dimension(1, 1)
        for d in batch:
            prod = prod * d
        batch = [prod]
    return PartialShape(batch + rest)


def gather_nd_5_shape(data, indices, *, batch_dims):
    """With K the (static) last dimension of indices and B = batch_dims: [product of the B batch dimensions] +
    indices.shape[B:-1] + data.shape[B+K:], the batch dimensions merged between data and indices (B <= 1 keeps
    them as they are). Both ranks must be > B and >= 1, B >= 0, B + K <= rank(data). An unknown rank or K
    gives dynamic rank."""
    return _gather_nd("GatherND-5", data, indices, batch_dims, True)


def gather_nd_8_shape(data, indices, *, batch_dims):
    """With K the (static) last dimension of indices and B = batch_dims: data.shape[:B] (merged with the indices'
    batch dimensions) + indices.shape[B:-1] + data.shape[B+K:]. Both ranks must be > B and >= 1, B >= 0,
    B + K <= rank(data). An unknown rank or K gives dynamic rank."""
    return _gather_nd("GatherND-8", data, indices, batch_dims, False)


def _gather_nd_schema(version, shape, doc):
    return OpSchema(
        "GatherND", version, category="movement", value_bounds="moves",
        inputs=(Port("data", "T", doc="the tensor to take elements or slices from, of rank > batch_dims"),
                Port("indices", "T_IND", doc="index tuples in its last axis (of length K <= rank(data) - batch_dims); "
                                              "negative counts from the end")),
        outputs=(Port("output", "T", doc="the element or slice at each index tuple: batch dims + "
                                          "indices.shape[batch_dims:-1] + data.shape[batch_dims+K:]"),),
        attributes=(Attr("batch_dims", INT, 0, doc="leading dimensions of data and indices that are batches"),),
        type_constraints={"T": ALL, "T_IND": IDX}, shape=shape, doc=doc)


GATHER_ND_5 = _gather_nd_schema(5, gather_nd_5_shape, "Gathers slices of data at index tuples (the last axis of "
                                "indices); batch dimensions are fused into one output dimension.")
GATHER_ND_8 = _gather_nd_schema(8, gather_nd_8_shape, "GatherND whose output keeps the batch dimensions apart.")


# --- ScatterUpdate-3 / ScatterNDUpdate-3 / ScatterNDUpdate-15 -----------------------------------------------
def _check_updates(op, expected, updates):
    """updates must have the expected (partial) shape, given as a list of dims (None: unknown rank)."""
    us = updates.shape
    if expected is None or not us.rank_is_static:
        return
    check(len(us) == len(expected), op, lambda: f"updates must have rank {len(expected)} ({PartialShape(expected)}), "
                                                f"got {us}")
    for i, (u, e) in enumerate(zip(us, expected)):
        check(u.compatible(e), op,
              lambda: f"updates dimension {i} is {u}, expected {e} (updates shape {PartialShape(expected)})")


def scatter_update_shape(data, indices, updates, axis):
    """The output has the data's shape. axis is a scalar or 1-element value in [-rank, rank-1]; updates must
    have shape data.shape[:axis] + indices.shape + data.shape[axis+1:] (with axis unknown: rank
    rank(data) + rank(indices) - 1). Known small values fold."""
    op = "ScatterUpdate-3"
    _scalar_like(op, "axis", axis)
    ds, is_ = data.shape, indices.shape
    a = ints_of(axis)
    if ds.rank_is_static and a is not None:
        ax = normalize_axis(op, "axis", a[0], len(ds))
        if is_.rank_is_static:
            _check_updates(op, list(ds[:ax]) + list(is_) + list(ds[ax + 1:]), updates)
    elif ds.rank_is_static and is_.rank_is_static and updates.shape.rank_is_static:
        check(len(updates.shape) == len(ds) + len(is_) - 1, op,
              lambda: f"updates must have rank {len(ds) + len(is_) - 1} "
                      f"(data rank + indices rank - 1), got {updates.shape}")
    return ds


SCATTER_UPDATE_3 = OpSchema(
    "ScatterUpdate", 3, category="movement", value_bounds="moves",
    inputs=(Port("data", "T", doc="the tensor to update, of rank >= 1"),
            Port("indices", "T_IND", doc="indices along axis of the slices to replace, of any shape; "
                                         "negative counts from the end"),
            Port("updates", "T", doc="new slices: data.shape[:axis] + indices.shape + data.shape[axis+1:]"),
            Port("axis", "T_AXIS", const=True, doc="scalar or 1-element axis of data; negative counts from the end")),
    outputs=(Port("output", "T", doc="a copy of data with the indexed slices replaced"),),
    type_constraints={"T": ALL, "T_IND": T_INT, "T_AXIS": T_INT},
    shape=scatter_update_shape,
    doc="A copy of data whose slices along axis at indices are replaced by updates.",
)

SCATTER_REDUCTIONS = ("none", "sum", "sub", "prod", "min", "max")
NOT_REDUCIBLE = ("string", "u1", "nf4", "u4", "i4")


def _scatter_nd(op, data, indices, updates, reduction):
    ds, is_ = data.shape, indices.shape
    if reduction != "none":
        check(data.element_type not in NOT_REDUCIBLE, op,
              lambda: f"reduction {reduction!r} needs numeric data of at least "
                      f"a byte, got {data.element_type}")
    if ds.rank_is_static:
        check(len(ds) >= 1, op, lambda: f"data must have rank >= 1, got {ds}")
    if is_.rank_is_static:
        check(len(is_) >= 1, op, lambda: f"indices must have rank >= 1, got {is_}")
    if ds.rank_is_static and is_.rank_is_static and is_[len(is_) - 1].is_static:
        k = is_[len(is_) - 1].lo
        check(k <= len(ds), op, lambda: f"index tuples of length {k} address more than the {len(ds)} axes of data {ds}")
        _check_updates(op, list(is_[:len(is_) - 1]) + list(ds[k:]), updates)
    return ds


def scatter_nd_update_3_shape(data, indices, updates):
    """The output has the data's shape. data and indices have rank >= 1; with K the (static) last dimension
    of indices, K <= rank(data) and updates must have shape indices.shape[:-1] + data.shape[K:]. Known small
    values fold."""
    return _scatter_nd("ScatterNDUpdate-3", data, indices, updates, "none")


def scatter_nd_update_15_shape(data, indices, updates, *, reduction):
    """The output has the data's shape. data and indices have rank >= 1; with K the (static) last dimension
    of indices, K <= rank(data) and updates must have shape indices.shape[:-1] + data.shape[K:]. A reduction
    other than 'none' rejects string and sub-byte data. Known small values fold when reduction is 'none'."""
    return _scatter_nd("ScatterNDUpdate-15", data, indices, updates, reduction)


def _scatter_nd_schema(version, shape, attrs, doc):
    return OpSchema(
        "ScatterNDUpdate", version, category="movement", value_bounds="moves",
        inputs=(Port("data", "T", doc="the tensor to update, of rank >= 1"),
                Port("indices", "T_IND", doc="index tuples of length K <= rank(data) in the last axis; negative "
                                              "counts from the end"),
                Port("updates", "T", doc="the element or slice for each index tuple: indices.shape[:-1] + "
                                         "data.shape[K:]")),
        outputs=(Port("output", "T", doc="a copy of data with the addressed elements or slices updated"),),
        attributes=attrs,
        type_constraints={"T": ALL, "T_IND": IDX}, shape=shape, doc=doc)


SCATTER_ND_UPDATE_3 = _scatter_nd_schema(3, scatter_nd_update_3_shape, (),
                                         "A copy of data with the elements or slices at index tuples replaced.")
SCATTER_ND_UPDATE_15 = _scatter_nd_schema(
    15, scatter_nd_update_15_shape,
    (Attr("reduction", STRING, "none", allowed=SCATTER_REDUCTIONS,
          doc="how an update combines with the value it lands on (boolean: sum is or, sub xor, prod and)"),),
    "ScatterNDUpdate whose updates may combine with the data (sum, sub, prod, min, max).")


# --- ScatterElementsUpdate-3 / ScatterElementsUpdate-12 ------------------------------------------------------
ELEMENTS_REDUCTIONS = ("none", "sum", "prod", "min", "max", "mean")


def _scatter_elements(op, data, indices, updates, axis, reduction):
    _scalar_like(op, "axis", axis)
    if reduction != "none":
        check(data.element_type not in NOT_REDUCIBLE, op,
              lambda: f"reduction {reduction!r} needs numeric data of at least "
                      f"a byte, got {data.element_type}")
    check(not (reduction == "mean" and data.element_type == "boolean"), op, "reduction 'mean' has no boolean version")
    ds, is_, us = data.shape, indices.shape, updates.shape
    if ds.rank_is_static and is_.rank_is_static:
        check(len(ds) == len(is_), op, lambda: f"indices {is_} must have the rank of data {ds}")
    check(is_.compatible(us), op, lambda: f"updates {us} must have the shape of indices {is_}")
    a = ints_of(axis)
    if a is not None and ds.rank_is_static:
        normalize_axis(op, "axis", a[0], len(ds))
    return ds


def scatter_elements_update_3_shape(data, indices, updates, axis):
    """The output has the data's shape. indices must have the data's rank and updates the indices' shape;
    axis is a scalar or 1-element value in [-rank, rank-1]."""
    return _scatter_elements("ScatterElementsUpdate-3", data, indices, updates, axis, "none")


def scatter_elements_update_12_shape(data, indices, updates, axis, *, reduction, use_init_val):
    """The output has the data's shape. indices must have the data's rank and updates the indices' shape;
    axis is a scalar or 1-element value in [-rank, rank-1]. A reduction other than 'none' rejects string and
    sub-byte data, and 'mean' rejects boolean data."""
    return _scatter_elements("ScatterElementsUpdate-12", data, indices, updates, axis, reduction)


def _scatter_elements_schema(version, shape, attrs, doc):
    return OpSchema(
        "ScatterElementsUpdate", version, category="movement", value_bounds="moves",
        inputs=(Port("data", "T", doc="the tensor to update, of any rank"),
                Port("indices", "T_IND", doc="positions along axis, of data's rank; negative counts from the end"),
                Port("updates", "T", doc="one value per index, of the indices' shape"),
                Port("axis", "T_AXIS", const=True,
                    doc="scalar or 1-element axis of data; negative counts from the end")),
        outputs=(Port("output", "T", doc="a copy of data with the addressed elements updated"),), attributes=attrs,
        type_constraints={"T": ALL, "T_IND": T_INT, "T_AXIS": T_INT}, shape=shape, doc=doc)


SCATTER_ELEMENTS_UPDATE_3 = _scatter_elements_schema(
    3, scatter_elements_update_3_shape, (),
    "A copy of data where data[..., indices[i, j, k], ...] (indices on axis) = updates[i, j, k].")
SCATTER_ELEMENTS_UPDATE_12 = _scatter_elements_schema(
    12, scatter_elements_update_12_shape,
    (Attr("reduction", STRING, "none", allowed=ELEMENTS_REDUCTIONS,
          doc="how updates combine with what they land on; mean of integers rounds down"),
     Attr("use_init_val", BOOL, True, doc="whether the data values take part in the reduction")),
    "ScatterElementsUpdate whose updates may combine (sum, prod, min, max, mean), with or without the data.")


# --- GatherTree-1 ---------------------------------------------------------------------------------------------
def gather_tree_shape(step_ids, parent_ids, max_seq_len, end_token):
    """final_ids has the shape of step_ids merged with parent_ids, which must be compatible and of rank 3
    [MAX_TIME, BATCH_SIZE, BEAM_WIDTH]; BATCH_SIZE is further merged with the length of the 1-D max_seq_len.
    end_token must be a scalar. Both ranks unknown give dynamic rank."""
    op = "GatherTree-1"
    a, b = step_ids.shape, parent_ids.shape
    if not a.rank_is_static:
        a, b = b, a
    if a.rank_is_static:
        ok = not b.rank_is_static or len(a) == len(b) and all(x.compatible(y) for x, y in zip(a, b))
        check(ok and len(a) == 3, op,
              lambda: f"step_ids {step_ids.shape} and parent_ids {parent_ids.shape} must have the "
                      "same shape of rank 3 [MAX_TIME, BATCH_SIZE, BEAM_WIDTH]")
        out = [x if not b.rank_is_static else x.merge(y) for x, y in zip(a, b if b.rank_is_static else a)]
    else:
        out = None
    m = max_seq_len.shape
    check(not m.rank_is_static or len(m) == 1, op, lambda: f"max_seq_len must be 1-D, got {m}")
    if out is not None and m.rank_is_static:
        batch = out[1].merge(m[0])
        check(batch is not None, op, lambda: f"max_seq_len has {m[0]} elements, BATCH_SIZE is {out[1]}")
        out[1] = batch
    check(not end_token.shape.rank_is_static or len(end_token.shape) == 0, op,
          lambda: f"end_token must be a scalar, got {end_token.shape}")
    return PartialShape.dynamic() if out is None else PartialShape(out)


GATHER_TREE_1 = OpSchema(
    "GatherTree", 1, category="movement", value_bounds="moves",
    inputs=(Port("step_ids", "T", doc="[MAX_TIME, BATCH_SIZE, BEAM_WIDTH]: the token chosen at each step per beam"),
            Port("parent_ids", "T", doc="[MAX_TIME, BATCH_SIZE, BEAM_WIDTH]: the beam each step's token extends"),
            Port("max_seq_len", "T", doc="[BATCH_SIZE]: the length of each batch entry's sequences"),
            Port("end_token", "T", doc="scalar token that ends a beam and fills the rest of it")),
    outputs=(Port("final_ids", "T",
        doc="[MAX_TIME, BATCH_SIZE, BEAM_WIDTH]: the backtracked token sequence of each beam"),),
    type_constraints={"T": NUMERIC_BYTES},
    shape=gather_tree_shape,
    doc="Backtracks beam-search parents into whole beams [MAX_TIME, BATCH, BEAM]; after the first end_token of a "
        "beam (and past max_seq_len) every id is end_token.",
)
