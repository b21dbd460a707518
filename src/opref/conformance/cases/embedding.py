"""Cases for the embedding ops: seeded tables of every element type and rank, bags of every size
(empty ones too, filled with zeros or a default row), per-sample weights, sum and mean; offsets that
skip leading indices; error cases (bad ranks, out-of-range indices, unsorted offsets/segments) and
partial-shape cases with Const and Parameter counts."""
from __future__ import annotations

import itertools

import numpy as np

from ...opset.embedding import T_EMB
from ...types import NUMERIC
from ...shapes import PartialShape
from ...types import element_type, element_type_of
from . import Case, ShapeCase, info
from ._gen import array, loosen, rng_for

N = 100
OFFSETS_3, OFFSETS_15 = "EmbeddingBagOffsetsSum-3", "EmbeddingBagOffsets-15"
PACKED_3, PACKED_15 = "EmbeddingBagPackedSum-3", "EmbeddingBagPacked-15"
SEGMENTS_3 = "EmbeddingSegmentsSum-3"
EMPTY_LAST_BAG = ("the CPU plugin fails on (or returns uninitialised memory for) an empty last bag, and there is "
                  "no reference evaluate: checked against a NumPy transcription of the spec's snippet")
SEGMENT_RANGE = ("the spec's segment_ids index the output's num_segments rows; the CPU plugin drops ids past "
                 "them")
SEGMENT_ORDER = "the spec's segment_ids are sorted; the CPU plugin sums unsorted ones into the wrong segments"
NO_INDICES = ("the CPU plugin fails on bags of no indices (indices of shape [batch, 0]), and there is no reference "
              "evaluate: checked against a NumPy transcription of the spec (Gather, then ReduceSum)")
F64 = "the CPU plugin computes f64 in f32: compared at f32 tolerance"
NEGATIVE_SEGMENTS = "the spec's num_segments is a count; OpenVINO's shape inference clamps a negative one to 0"


def _table(rng, et, num_emb):
    rest = [int(rng.integers(1, 4)) for _ in range(int(rng.integers(0, 3)))]
    return array(rng, et, [num_emb] + rest, low=-9, high=9)


def _weights(rng, et, shape):
    t = element_type(et)
    if t.is_float:
        return array(rng, et, shape) / np.asarray(4, t.dtype)
    lo = 0 if not t.is_signed else -3
    return rng.integers(lo, 4, shape).astype(t.dtype)


def _f64(et) -> dict:
    return dict(openvino=F64, tolerance="f32") if et == "f64" else {}


def _tag(shape) -> str:
    return "x".join(map(str, shape)) or "scalar"


def _sorted_starts(rng, n, batch, empty_last):
    """Bag starts; the last bag is empty only when asked (or when there are no indices)."""
    starts = np.sort(rng.integers(0, max(n, 1), batch)) if n else np.zeros(batch, np.int64)
    if batch and rng.random() < 0.7:
        starts[0] = 0
    if empty_last:
        starts[-1] = n
    return starts


def _offsets_cases(op):
    rng = rng_for(op)
    out = []
    types = itertools.cycle(T_EMB)
    for i in range(N):
        et = next(types)
        ti = ("i32", "i64")[i % 2]
        dt = element_type(ti).dtype
        num_emb, n, batch = int(rng.integers(1, 7)), int(rng.integers(0, 9)), int(rng.integers(1, 6))
        table = _table(rng, et, num_emb)
        indices = rng.integers(0, num_emb, n).astype(dt)
        starts = _sorted_starts(rng, n, batch, i % 6 == 5).astype(dt)
        mean = op == OFFSETS_15 and i % 3 == 1
        inputs = [table, indices, starts]
        r = rng.random()
        default = None if r < 0.3 else -1 if r < 0.45 else int(rng.integers(0, num_emb))
        weights = not mean and rng.random() < 0.5
        if default is not None or weights:
            inputs.append(np.asarray(-1 if default is None else default, dt))
        if weights:
            inputs.append(_weights(rng, et, [n]))
        attrs = {"reduction": "mean"} if mean else {} if op == OFFSETS_3 else {"reduction": "sum"}
        marks = dict(openvino=EMPTY_LAST_BAG, oracle="spec") if starts[-1] == n else _f64(et)
        out.append(Case(op, f"{i}_{et}_{ti}_{_tag(table.shape)}_n{n}_o{'-'.join(map(str, starts))}_d{default}"
                            f"{'_w' if weights else ''}{'_mean' if mean else ''}", tuple(inputs), attrs, **marks))
    return out + _offsets_errors(op)


def _offsets_errors(op):
    t, i32 = np.zeros((5, 2), np.float32), (lambda v: np.asarray(v, np.int32))
    x, o = i32([0, 2, 3, 4]), i32([0, 2, 2])
    out = [Case(op, "err_indices_2d", (t, i32([[0, 1]]), o), error="input 'indices' must be 1-D"),
           Case(op, "err_offsets_2d", (t, x, i32([[0]])), error="input 'offsets' must be 1-D"),
           Case(op, "err_default_1d", (t, x, o, i32([0])), error="input 'default_index' must be a scalar"),
           Case(op, "err_weights_shape", (t, x, o, i32(0), np.ones(5, np.float32)),
                error="input 'per_sample_weights' [5] must have the shape of 'indices' [4]"),
           Case(op, "err_weights_type", (t, x, o, i32(0), np.ones(4, np.float16)), error="must match"),
           Case(op, "err_index_types", (t, x, o.astype(np.int64)), error="must match"),
           Case(op, "err_table_scalar", (np.float32(1), x, o), error="at least 1 dimension"),
           Case(op, "err_index_range", (t, i32([0, 5, 1, 1]), o), error="input 'indices' has 5"),
           Case(op, "err_negative_index", (t, i32([0, -1, 1, 1]), o), error="input 'indices' has -1"),
           Case(op, "err_default_range", (t, x, o, i32(5)), error="input 'default_index' has 5"),
           Case(op, "err_default_negative", (t, x, o, i32(-2)), error="input 'default_index' has -2"),
           Case(op, "err_offsets_order", (t, x, i32([0, 3, 2])), error="input 'offsets' must be non-decreasing"),
           Case(op, "err_offsets_past_end", (t, x, i32([0, 5])), error="input 'offsets' must be non-decreasing")]
    if op == OFFSETS_15:
        out += [Case(op, "err_mean_weights", (t, x, o, i32(0), np.ones(4, np.float32)), {"reduction": "mean"},
                     error="only supported with reduction 'sum'"),
                Case(op, "err_reduction", (t, x, o), {"reduction": "max"}, error="is not one of")]
    return out


def _packed_cases(op):
    rng = rng_for(op)
    out = []
    types = itertools.cycle(T_EMB)
    for i in range(N):
        et = next(types)
        ti = ("i32", "i64")[i % 2]
        num_emb, batch, per_bag = int(rng.integers(1, 7)), int(rng.integers(0, 5)), int(rng.integers(0, 5))
        mean = op == PACKED_15 and i % 3 == 1
        if i % 7 != 3 or mean:                  # (the mean of no indices is not defined: only sums)
            batch, per_bag = max(batch, 1), max(per_bag, 1)
        table = _table(rng, et, num_emb)
        indices = rng.integers(0, num_emb, (batch, per_bag)).astype(element_type(ti).dtype)
        weights = not mean and rng.random() < 0.5
        inputs = (table, indices) + ((_weights(rng, et, indices.shape),) if weights else ())
        attrs = {"reduction": "mean"} if mean else {} if op == PACKED_3 else {"reduction": "sum"}
        marks = dict(openvino=NO_INDICES, oracle="spec") if per_bag == 0 else _f64(et)
        out.append(Case(op, f"{i}_{et}_{ti}_{_tag(table.shape)}_{batch}x{per_bag}{'_w' if weights else ''}"
                            f"{'_mean' if mean else ''}", inputs, attrs, **marks))
    t, x = np.zeros((5, 2), np.float32), np.zeros((3, 2), np.int32)
    out += [Case(op, "err_indices_1d", (t, x[0]), error="input 'indices' must be 2-D"),
            Case(op, "err_weights_shape", (t, x, np.ones((3, 3), np.float32)),
                 error="input 'per_sample_weights' [3,3] must have the shape of 'indices' [3,2]"),
            Case(op, "err_weights_1d", (t, x, np.ones(3, np.float32)), error="input 'per_sample_weights' must be 2-D"),
            Case(op, "err_weights_type", (t, x, np.ones((3, 2), np.float64)), error="must match"),
            Case(op, "err_index_range", (t, x + 5), error="input 'indices' has 5"),
            Case(op, "err_table_type", (t.astype(bool), x), error="expected one of"),
            Case(op, "err_index_type", (t, x.astype(np.int16)), error="expected one of i32, i64")]
    if op == PACKED_15:
        out += [Case(op, "err_mean_weights", (t, x, np.ones((3, 2), np.float32)), {"reduction": "mean"},
                     error="only supported with reduction 'sum'")]
    return out


def _segments_cases():
    op = SEGMENTS_3
    rng = rng_for(op)
    out = []
    types = itertools.cycle(T_EMB)
    for i in range(N):
        et = next(types)
        ti = ("i32", "i64")[i % 2]
        dt = element_type(ti).dtype
        num_emb, n, segments = int(rng.integers(1, 7)), int(rng.integers(0, 9)), int(rng.integers(1, 6))
        if i % 11 == 5:
            segments, n = 0, 0
        table = _table(rng, et, num_emb)
        indices = rng.integers(0, num_emb, n).astype(dt)
        ids = np.sort(rng.integers(0, max(segments, 1), n)).astype(dt)
        inputs = [table, indices, ids, np.asarray(segments, dt)]
        default = None if rng.random() < 0.4 else int(rng.integers(0, num_emb))
        weights = rng.random() < 0.5
        if default is not None or weights:
            inputs.append(np.asarray(default if default is not None else 0, dt))
        if weights:
            inputs.append(_weights(rng, et, [n]))
        out.append(Case(op, f"{i}_{et}_{ti}_{_tag(table.shape)}_n{n}_s{segments}_d{default}{'_w' if weights else ''}",
                        tuple(inputs), **_f64(et)))
    t, i32 = np.zeros((5, 2), np.float32), (lambda v: np.asarray(v, np.int32))
    x, s, k = i32([0, 2, 3, 4]), i32([0, 0, 2, 2]), i32(3)
    out += [Case(op, "err_ids_shape", (t, x, i32([0, 0, 1]), k), error="must have the shape of 'indices'"),
            Case(op, "err_ids_2d", (t, x, i32([[0, 0, 1, 1]]), k), error="input 'segment_ids' must be 1-D"),
            Case(op, "err_num_1d", (t, x, s, i32([3])), error="input 'num_segments' must be a scalar"),
            Case(op, "err_num_negative", (t, x, s, i32(-1)), error="input 'num_segments' must be non-negative",
                 openvino=NEGATIVE_SEGMENTS),
            Case(op, "err_default_1d", (t, x, s, k, i32([0])), error="input 'default_index' must be a scalar"),
            Case(op, "err_default_minus_1", (t, x, s, k, i32(-1)), error="input 'default_index' has -1"),
            Case(op, "err_index_range", (t, i32([0, 9, 1, 1]), s, k), error="input 'indices' has 9"),
            Case(op, "err_segment_range", (t, x, i32([0, 0, 2, 3]), k), error="input 'segment_ids' has 3",
                 openvino=SEGMENT_RANGE),
            Case(op, "err_unsorted", (t, x, i32([2, 0, 2, 0]), k), error="input 'segment_ids' must be sorted",
                 openvino=SEGMENT_ORDER),
            Case(op, "err_weights_shape", (t, x, s, k, i32(0), np.ones(3, np.float32)),
                 error="must have the shape of 'indices'"),
            Case(op, "err_types", (t, x, s, np.int64(3)), error="must match")]
    return out


def _shape_cases(op, value_cases, const_ports=()):
    rng = rng_for(op, 1)
    out = []
    for c in value_cases:
        if c.error:
            continue
        infos = []
        for k, x in enumerate(c.inputs):
            if k in const_ports and rng.random() < 0.7:
                infos.append(info(element_type_of(x), x.shape, x))
                continue
            r = rng.random()
            shape = loosen(rng, x.shape) if r < 0.8 else PartialShape.dynamic() if r < 0.9 else x.shape
            infos.append(info(element_type_of(x), shape))
        out.append(ShapeCase(op, f"{'_'.join(str(i.shape) for i in infos)}_{c.id}", tuple(infos), c.attrs))
    return out


def _shape_corners():
    f, i32 = (lambda s: info("f32", s)), (lambda s, v=None: info("i32", s, v))
    out = [ShapeCase(OFFSETS_15, "dyn_table", (f("[...]"), i32([4]), i32([-1])), {"reduction": "sum"}),
           ShapeCase(OFFSETS_15, "interval", (f([(2, 6), -1, 3]), i32([(1, 4)]), i32([(2, 5)]), i32([]), f([-1])),
                     {"reduction": "sum"}),
           ShapeCase(OFFSETS_15, "weights_2d", (f([5, 2]), i32([4]), i32([3]), i32([]), f([-1, 2])),
                     {"reduction": "sum"}),
           ShapeCase(OFFSETS_15, "mean_weights", (f([5, 2]), i32([4]), i32([3]), i32([]), f([4])),
                     {"reduction": "mean"}),
           ShapeCase(OFFSETS_3, "table_scalar", (f([]), i32([4]), i32([3]))),
           ShapeCase(OFFSETS_3, "default_1d", (f([5, 2]), i32([4]), i32([3]), i32([1]))),
           ShapeCase(OFFSETS_3, "default_dyn", (f([5, 2]), i32([4]), i32([3]), i32("[...]"))),
           ShapeCase(PACKED_15, "merge", (f([5, 2]), i32([-1, (1, 3)]), f([(2, 4), -1])), {"reduction": "sum"}),
           ShapeCase(PACKED_15, "no_merge", (f([5, 2]), i32([3, 2]), f([3, 3])), {"reduction": "sum"}),
           ShapeCase(PACKED_3, "indices_1d", (f([5, 2]), i32([3]))),
           ShapeCase(PACKED_3, "indices_dyn", (f([5, (1, 3)]), i32("[...]"), f([2, -1]))),
           ShapeCase(PACKED_3, "empty", (f([5, 2]), i32([0, 2]))),
           ShapeCase(SEGMENTS_3, "num_param", (f([5, 2]), i32([4]), i32([4]), i32([]))),
           ShapeCase(SEGMENTS_3, "num_zero", (f([5, 2]), i32([4]), i32([4]), i32([], np.int32(0)))),
           ShapeCase(SEGMENTS_3, "ids_length", (f([5, 2]), i32([4]), i32([5]), i32([], np.int32(3)))),
           ShapeCase(SEGMENTS_3, "ids_interval", (f([5, 2]), i32([(2, 5)]), i32([(4, 8)]), i32([], np.int32(3)))),
           ShapeCase(SEGMENTS_3, "num_1d", (f([5, 2]), i32([4]), i32([4]), i32([1], np.int32([3])))),
           ShapeCase(SEGMENTS_3, "default_1d", (f([5, 2]), i32([4]), i32([4]), i32([], np.int32(3)), i32([1]))),
           ShapeCase(SEGMENTS_3, "num_negative", (f([5, 2]), i32([4]), i32([4]), i32([], np.int32(-3))),
                     openvino=NEGATIVE_SEGMENTS, expected=None)]
    return out


# --- SparseFillEmptyRows-16 -----------------------------------------------------------------------------
FILL = "SparseFillEmptyRows-16"
FILL_TYPES = ("the spec's default_value has the values' type T; OpenVINO accepts any type")
FILL_NARROW = ("the CPU plugin returns uninitialised memory for f8 values: asked with values and default_value "
               "widened to f32 (exact)")
FILL_NO_ENTRIES = ("the CPU plugin returns uninitialised memory for a sparse tensor of no entries (indices [0, 2]), and "
                   "there is no reference evaluate: checked against a NumPy transcription of the spec")
FILL_NEGATIVE = ("the spec's dense_shape is a shape; OpenVINO's shape inference gives dynamic outputs for a "
                 "negative one")


def _fill_cases():
    rng = rng_for(FILL)
    out = []
    types = itertools.cycle(NUMERIC)
    for i in range(N):
        et = next(types)
        ti = ("i32", "i64")[i % 2]
        dt = element_type(ti).dtype
        rows, cols = int(rng.integers(0, 7)), int(rng.integers(1, 7))
        m = int(rng.integers(0, 10)) if rows else 0
        idx = np.stack([rng.integers(0, max(rows, 1), m), rng.integers(0, cols, m)], 1).astype(dt)
        if i % 3 == 0:
            idx = idx[np.lexsort((idx[:, 1], idx[:, 0]))]           # already in row-major order
        values, default = array(rng, et, [m]), array(rng, et, [])
        marks = {}
        if m == 0:
            marks = dict(openvino=FILL_NO_ENTRIES, oracle="spec")
        elif et.startswith("f8"):
            marks = dict(openvino=FILL_NARROW, oracle_cast={0: "f32", 3: "f32"})
        out.append(Case(FILL, f"{i}_{et}_{ti}_{rows}x{cols}_m{m}", (values, np.asarray([rows, cols], dt), idx, default),
                        **marks))
    v, d, x, f = np.ones(2, np.float32), np.int32([3, 3]), np.int32([[0, 0], [2, 2]]), np.float32(42)
    out += [Case(FILL, "err_row_range", (v, d, np.int32([[0, 0], [3, 2]]), f), error="input 'indices' has row 3"),
            Case(FILL, "err_row_negative", (v, d, np.int32([[0, 0], [-1, 2]]), f), error="input 'indices' has row -1"),
            Case(FILL, "err_dense_3", (v, np.int32([3, 3, 3]), x, f), error="input 'dense_shape' must have 2 elements"),
            Case(FILL, "err_dense_negative", (v, np.int32([-3, 3]), x, f), error="must be non-negative",
                 openvino=FILL_NEGATIVE),
            Case(FILL, "err_indices_3", (v, d, np.int32([[0, 0, 0], [2, 2, 2]]), f), error="must have shape [M, 2]"),
            Case(FILL, "err_indices_1d", (v, d, np.int32([0, 0]), f), error="input 'indices' must be 2-D"),
            Case(FILL, "err_count", (np.ones(3, np.float32), d, x, f), error="must have a row per value"),
            Case(FILL, "err_default_1d", (v, d, x, np.float32([42])), error="input 'default_value' must be a scalar"),
            Case(FILL, "err_default_type", (v, d, x, np.int32(42)), error="must match", openvino=FILL_TYPES),
            Case(FILL, "err_index_types", (v, d.astype(np.int64), x, f), error="must match"),
            Case(FILL, "err_string", (np.array(["a", "b"]), d, x, np.array("c")), error="expected one of")]
    return out


def _fill_shape_cases():
    rng = rng_for(FILL, 1)
    out = []
    for c in _fill_cases():
        if c.error:
            continue
        values, dense, idx, default = c.inputs
        known = [rng.random() < 0.6, rng.random() < 0.6]
        shapes = [loosen(rng, a.shape) if rng.random() < 0.7 else a.shape for a in c.inputs]
        infos = (info(element_type_of(values), shapes[0]),
                 info(element_type_of(dense), dense.shape if known[0] else shapes[1], dense if known[0] else None),
                 info(element_type_of(idx), idx.shape if known[1] else shapes[2], idx if known[1] else None),
                 info(element_type_of(default), shapes[3]))
        out.append(ShapeCase(FILL, f"{''.join('k' if k else 'u' for k in known)}_{c.id}", infos))
    f, i32 = (lambda s: info("f32", s)), (lambda s, v=None: info("i32", s, v))
    corners = {"dyn": (info("f32", "[...]"), i32("[...]"), i32("[...]"), f("[...]")),
               "intervals": (f([(2, 4)]), i32([2]), i32([-1, 2]), f([])),
               "values_vs_indices": (f([4]), i32([2]), i32([5, 2]), f([])),
               "default_dyn": (f([4]), i32([2]), i32([4, 2]), f([-1])),
               "rows_only": (f([4]), i32([2], np.int32([5, 6])), i32([4, 2]), f([])),
               "indices_only": (f([4]), i32([2]), i32([4, 2], np.int32([[0, 1], [0, 3], [2, 0], [3, 1]])), f([])),
               "both": (f([4]), i32([2], np.int32([5, 6])), i32([4, 2], np.int32([[0, 1], [0, 3], [2, 0], [3, 1]])),
                        f([])),
               "row_range": (f([4]), i32([2], np.int32([3, 6])), i32([4, 2], np.int32([[0, 1], [0, 3], [2, 0], [3, 1]])),
                             f([])),
               "dense_1": (f([4]), i32([1]), i32([4, 2]), f([])),
               "f8": (info("f8e4m3", [4]), i32([2]), i32([4, 2]), info("f8e4m3", []))}
    out += [ShapeCase(FILL, f"corner_{k}", v) for k, v in corners.items()]
    out += [ShapeCase(FILL, "default_type", (f([4]), i32([2]), i32([4, 2]), info("i32", [])), openvino=FILL_TYPES,
                      expected=None),
            ShapeCase(FILL, "dense_negative", (f([4]), i32([2], np.int32([-1, 6])), i32([4, 2]), f([])),
                      openvino=FILL_NEGATIVE, expected=None)]
    return out


def cases():
    return (_offsets_cases(OFFSETS_3) + _offsets_cases(OFFSETS_15) + _packed_cases(PACKED_3)
            + _packed_cases(PACKED_15) + _segments_cases() + _fill_cases())


def shape_cases():
    return (_shape_cases(OFFSETS_3, _offsets_cases(OFFSETS_3)) + _shape_cases(OFFSETS_15, _offsets_cases(OFFSETS_15))
            + _shape_cases(PACKED_3, _packed_cases(PACKED_3)) + _shape_cases(PACKED_15, _packed_cases(PACKED_15))
            + _shape_cases(SEGMENTS_3, _segments_cases(), const_ports=(3,)) + _shape_corners() + _fill_shape_cases())
