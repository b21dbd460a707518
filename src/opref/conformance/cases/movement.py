"""Cases for the data-movement ops: seeded random shapes, every element type, all modes, plus
edge and error cases. Value cases run on arrays; shape cases loosen the same shapes into partial
shapes (dynamic dims, intervals, dynamic rank, unknown shape-giving values)."""
from __future__ import annotations

import dataclasses
import itertools

import numpy as np

from ...shapes import PartialShape
from ...opset.movement import ELEMENTS_REDUCTIONS, NOT_REDUCIBLE, PAD_MODES, SCATTER_REDUCTIONS
from ...types import ALL, NUMERIC, NUMERIC_BYTES, element_type, element_type_of
from . import Case, ShapeCase, info
from ._gen import WORDS, array, ints_array, loosen, rng_for

T_INT = ("i32", "i64", "i8", "i16", "u8", "u16", "u32", "u64")
N = 220  # sampled value cases per op
STRING_CPU = ("the CPU plugin returns empty strings for string tensors (and the reference evaluate aborts); asked "
              "with the strings replaced by i64 codes")
SMALL_TRANSPOSE_CPU = ("the CPU plugin fails to compile a Transpose of rank <= 1; OpenVINO's reference evaluate is "
                       "asked (the data as i32 codes)")


SMALL_INDEX_CPU = ("the CPU plugin's ConvertSpaceToBatch/ConvertBatchToSpace passes fail to compile index inputs "
                   "other than i32/i64, and the reference evaluate overflows on them; asked with i64 indices")
F8_PAD_CPU = "the CPU plugin pads f8 SpaceToBatch with stale bytes; asked with the data widened to f32"
F64_CPU = "the CPU plugin computes f64 as f32 and OpenVINO has no f64 Col2Im reference; compared at f32 tolerance"
PAD_CPU = ("the CPU plugin leaves stale values in padded output blocks, and OpenVINO's reference evaluate rejects "
           "most shapes; checked against TensorFlow's space_to_batch_nd (the data as i64 codes)")
F8_SUM_CPU = ("the CPU plugin overflows summing f8e5m2 (57344 for 0) and OpenVINO has no f8 reference; asked with "
              "the data widened to f32, compared at f8 tolerance")
IS_F8 = ("f8e4m3", "f8e5m2")


def _case(op, id, inputs, attrs=None, exact=None):
    """A value case, marked where OpenVINO's CPU plugin is not a faithful oracle for it."""
    why, cast, oracle, tolerance = [], {}, "openvino", None
    et = element_type_of(inputs[0])
    if et == "string":
        why, cast = [STRING_CPU], {0: "codes"}
    if op == "Transpose-1" and inputs[0].ndim <= 1:
        why, cast, oracle = why + [SMALL_TRANSPOSE_CPU], {0: "codes"}, "reference"
    if op in ("SpaceToBatch-2", "BatchToSpace-2") and inputs[1].dtype not in (np.int32, np.int64):
        why, cast = why + [SMALL_INDEX_CPU], {**cast, 1: "i64", 2: "i64", 3: "i64"}
    if op == "SpaceToBatch-2" and (np.any(inputs[2]) or np.any(inputs[3])):
        why, cast, oracle = why + [PAD_CPU], {**cast, 0: "codes"}, "tensorflow"
    elif op == "SpaceToBatch-2" and et in IS_F8:
        why, cast = why + [F8_PAD_CPU], {**cast, 0: "f32"}
    if exact is False and et == "f64":
        why, tolerance = why + [F64_CPU], "f32"
    elif exact is False and et in IS_F8:
        why, cast = why + [F8_SUM_CPU], {0: "f32"}
    return Case(op, id, tuple(inputs), attrs or {}, openvino="; ".join(why) or None, exact=exact,
                oracle_cast=cast, oracle=oracle, tolerance=tolerance)



# --- value cases ------------------------------------------------------------------------------------
def _depth_space(op, forward):
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    out = []
    for i in range(N):
        k = int(rng.integers(1, 4))
        bs = int(rng.choice([1, 2, 3] if k < 3 else [1, 2]))
        mode = ("blocks_first", "depth_first")[i % 2]
        c = int(rng.integers(1, 3))
        spatial = [int(rng.integers(1, 4)) for _ in range(k)]
        n = int(rng.integers(1, 3))
        if forward:   # DepthToSpace: depth divisible by bs^k
            shape = [n, c * bs ** k] + spatial
        else:
            shape = [n, c] + [s * bs for s in spatial]
        et = next(types)
        out.append(_case(op, f"{i}_{et}_{mode}_bs{bs}_{'x'.join(map(str, shape))}",
                         (array(rng, et, shape),), {"block_size": bs, "mode": mode}))
    return out


def _space_batch(op, forward):
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    out = []
    for i in range(N):
        rank = int(rng.integers(2, 6))
        blocks = [1] + [int(rng.integers(1, 4)) for _ in range(rank - 1)]
        idx = T_INT[i % len(T_INT)]
        et = next(types)
        if forward:
            dims = [int(rng.integers(1, 3))] + [int(rng.integers(1, 4)) for _ in range(rank - 1)]
            pb, pe = [0], [0]
            for d, b in zip(dims[1:], blocks[1:]):
                total = (-d) % b
                if total + b <= 2 * b - 2 and rng.random() < 0.5:   # pads < block: total <= 2b - 2
                    total += b
                lo = int(rng.integers(max(total - b + 1, 0), min(total, b - 1) + 1))  # each pad < block
                pb.append(lo)
                pe.append(total - lo)
            shape, extra = dims, (pb, pe)
        else:
            inner = [int(rng.integers(1, 3))] + [int(rng.integers(1, 4)) for _ in range(rank - 1)]
            shape = [inner[0] * int(np.prod(blocks))] + inner[1:]
            cb, ce = [0], [0]
            for d, b in zip(inner[1:], blocks[1:]):
                lo = int(rng.integers(0, d * b))
                cb.append(lo)
                ce.append(int(rng.integers(0, d * b - lo + 1)))
            extra = (cb, ce)
        ints = [ints_array(v, idx) for v in (blocks,) + extra]
        out.append(_case(op, f"{i}_{et}_{idx}_{'x'.join(map(str, shape))}", (array(rng, et, shape), *ints)))
    return out


def _col2im():
    op = "Col2Im-15"
    rng = rng_for(op)
    types = itertools.cycle(NUMERIC_BYTES)
    out = []
    for i in range(N):
        k = [int(rng.integers(1, 4)) for _ in range(2)]
        s = [int(rng.integers(1, 4)) for _ in range(2)]
        d = [int(rng.integers(1, 3)) for _ in range(2)]
        pb = [int(rng.integers(0, 3)) for _ in range(2)]
        pe = [int(rng.integers(0, 3)) for _ in range(2)]
        size = [max(int(rng.integers(1, 9)), d_ * (k_ - 1) + 1 - p0 - p1) for k_, d_, p0, p1 in zip(k, d, pb, pe)]
        blocks = [(sz + a + b - dl * (kk - 1) - 1) // st + 1 for sz, a, b, dl, kk, st in zip(size, pb, pe, d, k, s)]
        c = int(rng.integers(1, 4))
        batched = i % 3 != 0
        shape = ([int(rng.integers(1, 3))] if batched else []) + [c * k[0] * k[1], blocks[0] * blocks[1]]
        et, idx = next(types), ("i32", "i64")[i % 2]
        out.append(_case(op, f"{i}_{et}_{'b' if batched else 'u'}_{'x'.join(map(str, shape))}",
                         (array(rng, et, shape, -20, 20), ints_array(size, idx), ints_array(k, idx)),
                         {"strides": s, "dilations": d, "pads_begin": pb, "pads_end": pe}, exact=False))
    return out


def _transpose():
    op = "Transpose-1"
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    out = []
    for i in range(N):
        rank = int(rng.integers(0, 6))
        shape = [int(rng.integers(1, 4)) for _ in range(rank)]
        perm = [] if i % 10 == 0 else rng.permutation(rank).tolist()
        et, idx = next(types), T_INT[i % len(T_INT)]
        out.append(_case(op, f"{i}_{et}_{'x'.join(map(str, shape)) or 'scalar'}_{perm}",
                         (array(rng, et, shape), ints_array(perm, idx))))
    return out


def _pad_blocks():
    """SpaceToBatch where a pad is >= its block, so whole output blocks are padding."""
    rng = rng_for("pad_blocks")
    out = []
    for i, (shape, blocks, pb, pe) in enumerate([
            ((1, 3, 1, 3), (1, 1, 3, 3), (0, 0, 0, 0), (0, 0, 5, 0)),
            ((1, 1, 3, 1), (1, 2, 2, 3), (0, 0, 1, 0), (0, 1, 2, 5)),
            ((2, 2, 2, 1), (1, 3, 3, 1), (0, 3, 0, 0), (0, 1, 1, 0))]):
        for et in ("f32", "i32"):
            out.append(_case("SpaceToBatch-2", f"pad_block_{i}_{et}", (array(rng, et, shape),) +
                             tuple(ints_array(v, "i64") for v in (blocks, pb, pe))))
    return out


def _errors():
    f = np.zeros
    return [
        Case("DepthToSpace-1", "err_depth", (f((1, 6, 2, 2), np.float32),), {"block_size": 2, "mode": "blocks_first"},
             error="must be a multiple of 4"),
        Case("DepthToSpace-1", "err_rank", (f((1, 8), np.float32),), {"block_size": 2, "mode": "blocks_first"},
             error="rank >= 3"),
        Case("DepthToSpace-1", "err_mode", (f((1, 8, 1, 1), np.float32),), {"block_size": 2, "mode": "dcr"},
             error="'mode'"),
        Case("SpaceToDepth-1", "err_spatial", (f((1, 1, 3, 2), np.float32),), {"block_size": 2, "mode": "depth_first"},
             error="must be a multiple of 2"),
        Case("SpaceToBatch-2", "err_block0", (f((2, 4), np.float32), np.array([2, 2]), np.array([0, 0]),
                                              np.array([0, 0])), error="block_shape[0] must be 1"),
        Case("SpaceToBatch-2", "err_divisible", (f((1, 5), np.float32), np.array([1, 2]), np.array([0, 0]),
                                                 np.array([0, 0])), error="multiple of 2"),
        Case("SpaceToBatch-2", "err_negative_pad", (f((1, 4), np.float32), np.array([1, 2]), np.array([0, -1]),
                                                    np.array([0, 1])), error="pads_begin values must be >= 0"),
        Case("BatchToSpace-2", "err_crop", (f((4, 2), np.float32), np.array([1, 2]), np.array([0, 3]),
                                            np.array([0, 2])), error="crops_begin[1] + crops_end[1] = 5"),
        Case("BatchToSpace-2", "err_batch", (f((3, 2), np.float32), np.array([1, 2]), np.array([0, 0]),
                                             np.array([0, 0])), error="multiple of 2"),
        Case("BatchToSpace-2", "err_block_zero", (f((4, 2), np.float32), np.array([1, 0]), np.array([0, 0]),
                                                  np.array([0, 0])), error=">= 1"),
        Case("BatchToSpace-2", "err_length", (f((4, 2), np.float32), np.array([1, 2, 1]), np.array([0, 0, 0]),
                                              np.array([0, 0, 0])), error="as many elements as data has dimensions"),
        Case("Col2Im-15", "err_L", (f((1, 27, 25), np.float32), np.array([16, 16]), np.array([3, 3])),
             {"dilations": [2, 2], "pads_begin": [1, 1], "pads_end": [1, 1], "strides": [2, 2]},
             error="expected L=49 blocks"),
        Case("Col2Im-15", "err_channels", (f((1, 10, 225), np.float32), np.array([16, 16]), np.array([2, 2])),
             error="must be a multiple of 4"),
        Case("Col2Im-15", "err_strides", (f((1, 12, 225), np.float32), np.array([16, 16]), np.array([2, 2])),
             {"strides": [0, 1]}, error="strides must be > 0"),
        Case("Col2Im-15", "err_string", (np.array([["a"]]), np.array([1, 1]), np.array([1, 1])),
             error="expected one of"),
        Case("Transpose-1", "err_perm", (f((2, 3), np.float32), np.array([0, 0])), error="not a permutation"),
    ]


def cases():
    return (_depth_space("DepthToSpace-1", True) + _depth_space("SpaceToDepth-1", False)
            + _space_batch("SpaceToBatch-2", True) + _space_batch("BatchToSpace-2", False)
            + _pad_blocks() + _col2im() + _transpose() + _errors() + _more_cases())



# === Concat, Split, Gather, Tile, Pad, Broadcast, StridedSlice, Slice ==================================
M = 120  # sampled value cases per op version (plus edge and error cases)
SIGNED_IDX = ("i32", "i64", "i8", "i16")


def _ids(shape) -> str:
    return "x".join(map(str, shape)) or "scalar"


def _idx_type(i, values, types=T_INT):
    """An index element type cycling through `types` that holds all `values`."""
    values = list(np.asarray(values).reshape(-1))
    for k in range(len(types)):
        t = types[(i + k) % len(types)]
        info = np.iinfo(np.dtype(ints_array([0], t).dtype))
        if all(info.min <= v <= info.max for v in values):
            return t
    return "i64"


STRING_CPU_OPS = ("Split-1", "VariadicSplit-1", "Tile-1", "Broadcast-1", "Broadcast-3", "StridedSlice-1", "Slice-8",
                  "GatherElements-6", "GatherND-5", "GatherND-8", "ScatterUpdate-3", "ScatterNDUpdate-3",
                  "ScatterNDUpdate-15", "ScatterElementsUpdate-3", "ScatterElementsUpdate-12", "Roll-7", "Reverse-1",
                  "ShuffleChannels-1", "ReverseSequence-1", "SliceScatter-15", "ExtractImagePatches-3")
EMPTY_REPEATS_CPU = ("the CPU plugin returns uninitialised memory for a Tile with empty repeats; OpenVINO's "
                     "reference evaluate is asked (the data as i32 codes: it crashes on nf4)")


GATHER_BATCH_CPU = ("the CPU plugin crashes or returns wrong values for a batched Gather whose dimensions before axis "
                    "are all 1; OpenVINO's reference evaluate is asked (the data as i32 codes, i64 indices)")


GATHER_EMPTY_CPU = ("the CPU plugin crashes on a Gather with empty indices; OpenVINO's reference evaluate is asked "
                    "(the data as i32 codes, i64 indices)")


GATHER_RANGE_CPU = ("the CPU plugin reads out of bounds for out-of-range indices (the spec gives zeros); OpenVINO's "
                    "reference evaluate is asked (the data as i32 codes, i64 indices)")


def _gather_out_of_range(inputs):
    data, indices, axis = inputs
    ax = int(np.asarray(axis).reshape(-1)[0])
    n = data.shape[ax]
    i = indices.astype(np.int64)
    return bool(np.any((i < -n) | (i >= n)))


def _gather_degenerate(inputs, attrs):
    data, indices, axis = inputs
    b = attrs.get("batch_dims", 0)
    b += indices.ndim if b < 0 else 0
    ax = int(np.asarray(axis).reshape(-1)[0])
    ax += data.ndim if ax < 0 else 0
    return b >= 1 and int(np.prod(data.shape[:ax])) == 1


PAD_VALUE_CPU = ("the CPU plugin pads with 0 when pad_value is not a Constant (and always for an empty input); "
                 "OpenVINO's reference evaluate is asked")


SUB_BYTE_WIDE = {"u4": "u8", "i4": "i8"}   # (u1 and nf4 arrays hold u8 / u4 dtypes: they read as u8 / u4)
SUB_BYTE_REF = "OpenVINO's reference evaluate mispacks 4-bit types: asked with the values widened to 8 bits"


SMALL_SHAPE_CPU = ("the CPU plugin reads target_shape/axes_mapping as i32/i64 (buffer over-read on narrower "
                   "types); asked with i64 values")
ZERO_BIDIRECTIONAL_CPU = ("the CPU plugin broadcasts a target dimension 0 against a data dimension 1 to 1 (numpy "
                          "rules and OpenVINO's shape inference give 0); OpenVINO's reference evaluate is asked")
SCALAR_BROADCAST_CPU = "the CPU plugin crashes broadcasting to a scalar; OpenVINO's reference evaluate is asked"


MEAN_CPU = ("the CPU plugin rounds integer means toward zero; the spec (and OpenVINO's reference evaluate, which "
            "is asked) rounds down")


REVERSE_4BIT_CPU = "the CPU plugin mispacks 4-bit data in Reverse; asked with the data as i32 codes"

UNIQUE_SMALL_CPU = ("the CPU plugin returns uninitialised indices and counts for Unique on 8- and 4-bit integers; "
                    "asked with the data widened to i32 (same order, same repeats)")


GATHER_TREE_CPU = ("the CPU plugin's GatherTree rejects bf16, f8 and 8-bit integers; asked with the (small "
                   "integer) values widened to f32 / i32")


def _mcase(op, id, inputs, attrs=None):
    """A value case, routed where OpenVINO's CPU plugin is not a faithful oracle for it."""
    why, cast, oracle = [], {}, "openvino"
    if element_type_of(inputs[0]) == "string" and op in STRING_CPU_OPS:
        why, cast = [STRING_CPU], {0: "codes"}
        if op.startswith("Scatter") or op == "SliceScatter-15":     # updates share the data's vocabulary (see _shared_words)
            cast = {0: "codes", 1 if op == "SliceScatter-15" else 2: "codes"}
    if op == "Tile-1" and inputs[1].size == 0:
        why, cast, oracle = why + [EMPTY_REPEATS_CPU], {0: "codes"}, "reference"
    if op.startswith("Broadcast-"):
        small = {k: "i64" for k in (1, 2) if k < len(inputs) and inputs[k].dtype not in (np.int32, np.int64)
                 and inputs[k].ndim == 1}
        if small:
            why, cast = why + [SMALL_SHAPE_CPU], {**cast, **small}
        if inputs[1].size == 0:
            why, oracle = why + [SCALAR_BROADCAST_CPU], "reference"
        elif (attrs or {}).get("mode") == "bidirectional" and 0 in inputs[1]:
            why, oracle = why + [ZERO_BIDIRECTIONAL_CPU], "reference"
    if op == "ScatterElementsUpdate-12" and (attrs or {}).get("reduction") == "mean" \
            and element_type_of(inputs[0]) in SIGNED_IDX:     # (unsigned means never round differently)
        why, oracle = why + [MEAN_CPU], "reference"
    if op == "Reverse-1" and element_type_of(inputs[0]) in ("i4", "u4"):
        why, cast = why + [REVERSE_4BIT_CPU], {0: "codes"}
    if op == "Unique-10" and element_type_of(inputs[0]) in ("i8", "u8", "i4", "u4"):
        why, cast = why + [UNIQUE_SMALL_CPU], {0: "i32"}
    if op == "GatherTree-1" and element_type_of(inputs[0]) in ("bf16", "f8e4m3", "f8e5m2", "i8", "u8"):
        wide = "i32" if element_type_of(inputs[0]) in ("i8", "u8") else "f32"
        why, cast = why + [GATHER_TREE_CPU], {k: wide for k in range(4)}
    if op.startswith("Gather-") and _gather_degenerate(inputs, attrs or {}):
        why, cast, oracle = why + [GATHER_BATCH_CPU], {0: "codes", 1: "i64"}, "reference"
    elif op.startswith("Gather-") and inputs[1].size == 0:
        why, cast, oracle = why + [GATHER_EMPTY_CPU], {0: "codes", 1: "i64"}, "reference"
    elif op.startswith("Pad-") and len(inputs) == 4:
        why, oracle = why + [PAD_VALUE_CPU], "reference"
        wide = SUB_BYTE_WIDE.get(element_type_of(inputs[0]))
        if wide:
            why, cast = why + [SUB_BYTE_REF], {0: wide, 3: wide}
    elif op == "Gather-8" and _gather_out_of_range(inputs):
        why, cast, oracle = why + [GATHER_RANGE_CPU], {0: "codes", 1: "i64"}, "reference"
    return Case(op, id, tuple(inputs), attrs or {}, openvino="; ".join(why) or None, oracle_cast=cast, oracle=oracle)


def _concat():
    op = "Concat-1"
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    out = []
    for i in range(M):
        rank = int(rng.integers(1, 5))
        k = int(rng.integers(1, 5))
        base = [int(rng.integers(1, 4)) for _ in range(rank)]
        ax = int(rng.integers(-rank, rank))
        et = next(types)
        arrays = []
        for _ in range(k):
            s = list(base)
            s[ax] = int(rng.choice([0, 1, 2, 3], p=[0.1, 0.3, 0.3, 0.3]))
            arrays.append(array(rng, et, s))
        out.append(_mcase(op, f"{i}_{et}_{k}x{_ids(base)}_axis{ax}", arrays, {"axis": ax}))
    return out


def _split():
    op = "Split-1"
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    out = []
    for i in range(M):
        rank = int(rng.integers(1, 5))
        n = int(rng.choice([1, 2, 3, 4]))
        shape = [int(rng.integers(1, 4)) for _ in range(rank)]
        ax = int(rng.integers(-rank, rank))
        shape[ax] = n * int(rng.choice([0, 1, 2], p=[0.1, 0.5, 0.4]))
        et = next(types)
        axis = ints_array(ax, _idx_type(i, [ax]))
        out.append(_mcase(op, f"{i}_{et}_{_ids(shape)}_axis{ax}_n{n}", (array(rng, et, shape), axis), {"num_splits": n}))
    return out


def _variadic_split():
    op = "VariadicSplit-1"
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    out = []
    for i in range(M):
        rank = int(rng.integers(1, 5))
        shape = [int(rng.integers(1, 4)) for _ in range(rank)]
        ax = int(rng.integers(-rank, rank))
        shape[ax] = int(rng.integers(0, 7))
        parts = int(rng.integers(1, 5))
        cuts = np.sort(rng.integers(0, shape[ax] + 1, parts - 1))
        lengths = np.diff(np.concatenate([[0], cuts, [shape[ax]]])).astype(int).tolist()
        if rng.random() < 0.4:
            lengths[int(rng.integers(0, parts))] = -1
        et = next(types)
        axis_v = [ax] if i % 3 == 0 else ax
        t = _idx_type(i, lengths + [ax])
        out.append(_mcase(op, f"{i}_{et}_{_ids(shape)}_axis{ax}_{lengths}",
                          (array(rng, et, shape), ints_array(axis_v, t), ints_array(lengths, t))))
    # axis and split_lengths of independent integer types (PyTorch's split converts to i64 axis, i32 lengths)
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    for at, lt in (("i64", "i32"), ("i32", "i64"), ("u8", "i64")):
        out.append(_mcase(op, f"axis_{at}_lengths_{lt}", (x, ints_array(2, at), ints_array([1, -1, 2], lt))))
    return out


def _gather(op):
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    out = []
    v8 = op == "Gather-8"
    for i in range(M):
        rank = int(rng.integers(1, 5))
        ax = int(rng.integers(0, rank))
        b = 0 if op == "Gather-1" else int(rng.integers(0, ax + 1))
        shape = [int(rng.integers(1, 4)) for _ in range(rank)]
        n = shape[ax]
        irank = b + int(rng.integers(0, 3))
        ishape = shape[:b] + [int(rng.integers(0 if rng.random() < 0.05 else 1, 4)) for _ in range(irank - b)]
        lo, hi = (-n, n) if v8 else (0, n)
        if v8 and rng.random() < 0.2:
            lo, hi = -n - 3, n + 3                     # out of range: zeros
        idx = rng.integers(lo, hi, ishape)
        et = next(types)
        it = _idx_type(i, idx, SIGNED_IDX if idx.size and idx.min() < 0 else T_INT)
        at = _idx_type(i + 1, [ax - rank, ax])
        axis = ax - rank if rng.random() < 0.3 else ax
        attrs = {} if op == "Gather-1" else {"batch_dims": b - irank if rng.random() < 0.2 and b else b}
        axis_in = ints_array([axis] if i % 4 == 0 else axis, at)
        out.append(_mcase(op, f"{i}_{et}_{_ids(shape)}_{it}{_ids(ishape)}_axis{axis}_{attrs}",
                          (array(rng, et, shape), ints_array(idx, it), axis_in), attrs))
    return out


def _tile():
    op = "Tile-1"
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    out = []
    for i in range(M):
        shape = [int(rng.integers(1, 4)) for _ in range(int(rng.integers(0, 4)))]
        reps = [int(rng.choice([0, 1, 2, 3], p=[0.1, 0.4, 0.3, 0.2])) for _ in range(int(rng.integers(0, 5)))]
        if not shape and not reps:    # OpenVINO's reference crashes and its CPU plugin returns garbage for
            reps = [2]                # this one: tests/test_movement.py checks it by hand
        et = next(types)
        out.append(_mcase(op, f"{i}_{et}_{_ids(shape)}_rep{reps}",
                          (array(rng, et, shape), ints_array(reps, _idx_type(i, reps)))))
    return out


def _pad(op):
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    out = []
    for i in range(M):
        mode = PAD_MODES[i % 4]
        et = next(types)
        if et == "string":
            mode = "constant"
        rank = int(rng.integers(1, 5))
        shape = [int(rng.integers(1 if mode == "edge" else 2 if mode == "reflect" else 0, 4)) for _ in range(rank)]
        if mode != "constant":
            shape = [max(d, 1) for d in shape]
        pb, pe = [], []
        for n in shape:
            top = {"constant": 3, "edge": 3, "reflect": n - 1, "symmetric": n}[mode]
            low = -n if op == "Pad-12" else 0
            for lst in (pb, pe):
                lst.append(int(rng.integers(low, top + 1)) if rng.random() < 0.8 else 0)
            if pb[-1] + n + pe[-1] < 0:   # cropped below nothing: OpenVINO infers ? and cannot run it;
                pe[-1] = -n - pb[-1]      # tests/test_movement.py checks the spec's max(..., 0) by hand
        t = _idx_type(i, pb + pe)
        inputs = [array(rng, et, shape), ints_array(pb, t), ints_array(pe, t)]
        if mode == "constant" and i % 8 < 5 and et != "string":
            inputs.append(array(rng, et, ()))
        out.append(_mcase(op, f"{i}_{et}_{mode}_{_ids(shape)}_{pb}_{pe}_{len(inputs)}", inputs, {"pad_mode": mode}))
    # OpenVINO's converter writes a pad_value for every mode; the other modes ignore it
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    for mode in ("reflect", "edge", "symmetric"):
        out.append(_mcase(op, f"{mode}_with_pad_value", [x, np.array([1, 2], np.int64), np.array([2, 1], np.int64),
                                                          np.float32(7)], {"pad_mode": mode}))
    return out


def _broadcast(op):
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    modes = ("numpy", "explicit", "pdpd") + (("bidirectional",) if op == "Broadcast-3" else ())
    out = []
    for i in range(M):
        mode = modes[i % len(modes)]
        rank = int(rng.integers(0, 4))
        shape = [int(rng.choice([1, 1, 2, 3])) for _ in range(rank)]
        et = next(types)
        extra = [int(rng.integers(0, 4)) for _ in range(int(rng.integers(0, 3)))]
        axes = None
        if mode == "numpy":
            target = extra + [int(rng.integers(0, 4)) if d == 1 else d for d in shape]
        elif mode == "bidirectional":
            target = extra + [int(rng.integers(0, 4)) if d == 1 else int(rng.choice([1, d])) for d in shape]
            target = target[int(rng.integers(0, len(target) + 1)) if rng.random() < 0.3 else 0:]
        elif mode == "pdpd":
            target = [int(rng.integers(0, 4)) if d == 1 else int(rng.choice([1, d])) for d in shape]
        else:
            trank = rank + len(extra)
            axes = sorted(rng.choice(trank, rank, replace=False).tolist()) if trank else []
            target = [int(rng.integers(0, 4)) for _ in range(trank)]
            for d, a in zip(shape, axes):
                if d != 1:
                    target[a] = d
            mode = ("explicit", "none")[i % 2] if op == "Broadcast-1" else mode
        t = _idx_type(i, target)
        inputs = [array(rng, et, shape), ints_array(target, t)]
        if axes is not None:
            inputs.append(ints_array(axes, _idx_type(i + 1, axes)))
        elif op == "Broadcast-1" and (mode == "pdpd" or i % 2):
            inputs.append(ints_array(0, "u8"))   # as OpenVINO writes Broadcast-1 (it needs it for pdpd)
        out.append(_mcase(op, f"{i}_{et}_{mode}_{_ids(shape)}_to{target}_{axes}", inputs, {"mode": mode}))
    return out


def _strided_slice():
    op = "StridedSlice-1"
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    out = []
    for i in range(M):
        rank = int(rng.integers(1, 5))
        shape = [int(rng.integers(1, 6)) for _ in range(rank)]
        et = next(types)
        ellipsis = rng.random() < 0.2
        n_axes = rank if not ellipsis else int(rng.integers(0, rank + 1))
        # entries: the addressed data axes in order, plus new axes and (maybe) one ellipsis
        kinds = ["axis"] * n_axes + ["new"] * int(rng.integers(0, 3) if rng.random() < 0.3 else 0)
        rng.shuffle(kinds)
        if ellipsis:
            kinds.insert(int(rng.integers(0, len(kinds) + 1)), "ellipsis")
        if not ellipsis and kinds.count("axis") < rank and rng.random() < 0.5:
            pass                                        # fewer entries than axes: the rest kept
        begin, end, stride, bm, em, nm, sm, el = [], [], [], [], [], [], [], []
        # data axes addressed before the ellipsis come first, the rest are at the end
        before = kinds.index("ellipsis") if ellipsis else len(kinds)
        n_before = kinds[:before].count("axis")
        addressed = list(range(n_before)) + list(range(rank - (kinds.count("axis") - n_before), rank))
        it = iter(addressed)
        for kind in kinds:
            b = e = 0
            s = 1
            flags = dict(bm=0, em=0, nm=0, sm=0, el=0)
            if kind == "ellipsis":
                flags["el"] = 1
            elif kind == "new":
                flags["nm"] = 1
            else:
                n = shape[next(it)]
                if rng.random() < 0.15:
                    flags["sm"] = 1
                    b, e = int(rng.integers(-n, n)), 0
                else:
                    s = int(rng.choice([1, 1, 2, 3, -1, -2]))
                    b, e = (int(rng.integers(-n - 2, n + 3)) for _ in range(2))
                    flags["bm"], flags["em"] = int(rng.random() < 0.25), int(rng.random() < 0.25)
            begin.append(b), end.append(e), stride.append(s)
            for k, lst in zip(("bm", "em", "nm", "sm", "el"), (bm, em, nm, sm, el)):
                lst.append(flags[k])
        # masks may be shorter than begin (missing entries are 0) or empty
        attrs = {"begin_mask": bm, "end_mask": em, "new_axis_mask": nm if any(nm) else [],
                 "shrink_axis_mask": sm if any(sm) else [], "ellipsis_mask": el if any(el) else []}
        t = _idx_type(i, begin + end + stride, SIGNED_IDX)
        inputs = [array(rng, et, shape), ints_array(begin, t), ints_array(end, t)]
        if i % 5:
            inputs.append(ints_array(stride, t))
        elif any(v != 1 for v in stride):
            inputs.append(ints_array(stride, t))
        out.append(_mcase(op, f"{i}_{et}_{_ids(shape)}_{begin}_{end}_{stride}_{len(inputs)}", inputs, attrs))
    return out


def _slice():
    op = "Slice-8"
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    out = []
    big = (2**31 - 1, -2**31, 2**63 - 1, -2**63)
    for i in range(M):
        rank = int(rng.integers(1, 5))
        shape = [int(rng.integers(1, 6)) for _ in range(rank)]
        et = next(types)
        k = int(rng.integers(1, rank + 1))
        with_axes = i % 4 != 0
        axes = rng.choice(rank, k, replace=False).tolist() if with_axes else list(range(k))
        start, stop, step = [], [], []
        for a in axes:
            n = shape[a]
            s = int(rng.choice([1, 1, 2, 3, -1, -1, -2, -3]))
            b, e = (int(rng.integers(-n - 2, n + 3)) for _ in range(2))
            if rng.random() < 0.15:
                b = int(rng.choice(big[:2])) if rng.random() < 0.5 else b
                e = int(rng.choice(big)) if rng.random() < 0.7 else e
            start.append(b), stop.append(e), step.append(s)
        t = _idx_type(i, start + stop + step, SIGNED_IDX)
        inputs = [array(rng, et, shape), ints_array(start, t), ints_array(stop, t), ints_array(step, t)]
        if with_axes:
            axes = [a - rank if rng.random() < 0.3 else a for a in axes]
            inputs.append(ints_array(axes, _idx_type(i, axes, SIGNED_IDX)))
        out.append(_mcase(op, f"{i}_{et}_{_ids(shape)}_{start}_{stop}_{step}_{axes if with_axes else 'default'}",
                          inputs))
    return out


def _gather_elements():
    op = "GatherElements-6"
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    out = []
    for i in range(M):
        rank = int(rng.integers(1, 5))
        shape = [int(rng.integers(1, 4)) for _ in range(rank)]
        ax = int(rng.integers(-rank, rank))
        ishape = list(shape)
        ishape[ax] = int(rng.choice([0, 1, 2, 3, 4], p=[0.05, 0.25, 0.3, 0.2, 0.2]))
        n = shape[ax]
        idx = rng.integers(-n if i % 3 == 0 else 0, n, ishape)
        et = next(types)
        out.append(_mcase(op, f"{i}_{et}_{_ids(shape)}_{_ids(ishape)}_axis{ax}",
                          (array(rng, et, shape), ints_array(idx, ("i32", "i64")[i % 2])), {"axis": ax}))
    return out


def _gather_nd(op):
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    out = []
    for i in range(M):
        b = int(rng.choice([0, 0, 1, 2]))
        rank = b + int(rng.integers(1, 4))
        shape = [int(rng.integers(1, 4)) for _ in range(rank)]
        k = int(rng.integers(1, rank - b + 1))
        ishape = shape[:b] + [int(rng.integers(0 if rng.random() < 0.05 else 1, 4)) for _ in
                              range(int(rng.integers(0, 3)))] + [k]
        dims = np.array(shape[b:b + k])
        lo = -dims if i % 3 == 0 else np.zeros_like(dims)
        idx = (rng.integers(0, 1 << 30, ishape) % (dims - lo)) + lo
        et = next(types)
        out.append(_mcase(op, f"{i}_{et}_{_ids(shape)}_{_ids(ishape)}_b{b}",
                          (array(rng, et, shape), ints_array(idx, ("i32", "i64")[i % 2])), {"batch_dims": b}))
    return out


def _shared_words(rng, *shapes):
    """String tensors over one vocabulary that each of them uses in full, so that the CPU oracle's
    per-input codes (1 + index among the input's distinct values) mean the same word in all."""
    k = min([2] + [int(np.prod(s)) for s in shapes])
    words = WORDS[rng.permutation(len(WORDS))[:max(k, 1)]]
    out = []
    for s in shapes:
        n = int(np.prod(s))
        pick = np.concatenate([np.arange(k), rng.integers(0, max(k, 1), max(n - k, 0))]) if n else np.zeros(0, int)
        out.append(words[rng.permutation(pick)].reshape(s))
    return out


def _scatter_update():
    op = "ScatterUpdate-3"
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    out = []
    for i in range(M):
        rank = int(rng.integers(1, 5))
        shape = [int(rng.integers(1, 4)) for _ in range(rank)]
        ax = int(rng.integers(-rank, rank))
        n = shape[ax]
        irank = int(rng.integers(1, 3))         # (scalar indices: neither the CPU plugin nor the reference runs them)
        ishape = [int(rng.integers(1, 3)) for _ in range(irank)]
        while int(np.prod(ishape)) > n:          # distinct indices (duplicates have no defined order)
            ishape = ishape[1:] if len(ishape) > 1 else [n]
        idx = rng.permutation(n)[:int(np.prod(ishape))].reshape(ishape)
        ushape = shape[:ax % rank] + ishape + shape[ax % rank + 1:]
        et = next(types)
        data, upd = _shared_words(rng, shape, ushape) if et == "string" else \
            (array(rng, et, shape), array(rng, et, ushape))
        out.append(_mcase(op, f"{i}_{et}_{_ids(shape)}_{_ids(ishape)}_axis{ax}",
                          (data, ints_array(idx, _idx_type(i, idx)), upd,
                           ints_array(ax, _idx_type(i + 3, [ax], SIGNED_IDX)))))
    return out


def _scatter_nd(op):
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    out = []
    for i in range(M):
        reduction = "none" if op == "ScatterNDUpdate-3" else SCATTER_REDUCTIONS[i % len(SCATTER_REDUCTIONS)]
        et = next(types)
        if reduction != "none" and et in NOT_REDUCIBLE:
            reduction = "none"
        rank = int(rng.integers(1, 5))
        shape = [int(rng.integers(1, 4)) for _ in range(rank)]
        k = int(rng.integers(1, rank + 1))
        batch = [int(rng.integers(1, 3)) for _ in range(int(rng.integers(0, 3)))]
        cells = int(np.prod(shape[:k]))
        count = int(np.prod(batch))
        if reduction == "none":                 # distinct index tuples
            while count > cells:
                batch = batch[1:]
                count = int(np.prod(batch))
            flat = rng.permutation(cells)[:count]
        else:
            flat = rng.integers(0, cells, count)
        idx = np.stack(np.unravel_index(flat, shape[:k]), -1).reshape(batch + [k]) if count else \
            np.zeros(batch + [k], np.int64)
        if i % 3 == 0:
            idx = np.where(rng.random(idx.shape) < 0.5, idx - np.array(shape[:k]), idx)
        lo, hi = (-3, 3) if reduction == "prod" else (-100, 100)
        data, upd = _shared_words(rng, shape, batch + shape[k:]) if et == "string" else \
            (array(rng, et, shape, lo, hi), array(rng, et, batch + shape[k:], lo, hi))
        inputs = (data, ints_array(idx, ("i32", "i64")[i % 2]), upd)
        attrs = {} if op == "ScatterNDUpdate-3" else {"reduction": reduction}
        id = f"{i}_{et}_{reduction}_{_ids(shape)}_{_ids(batch + [k])}"
        out.append(dataclasses.replace(_mcase(op, id, inputs, attrs),
                                       exact=False if reduction != "none" else None))
    return out


def _scatter_elements(op):
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    out = []
    for i in range(M):
        reduction = "none" if op.endswith("-3") else ELEMENTS_REDUCTIONS[i % len(ELEMENTS_REDUCTIONS)]
        et = next(types)
        if reduction != "none" and et in NOT_REDUCIBLE or reduction == "mean" and et == "boolean":
            reduction = "none"
        rank = int(rng.integers(1, 5))
        shape = [int(rng.integers(1, 4)) for _ in range(rank)]
        ax = int(rng.integers(-rank, rank))
        a = ax % rank
        n = shape[a]
        ishape = [int(rng.integers(1, d + 1)) for d in shape]
        if reduction == "none":                 # distinct targets on every line along axis
            ishape[a] = int(rng.integers(1, n + 1))
            order = np.argsort(rng.random(ishape[:a] + [n] + ishape[a + 1:]), axis=a)
            idx = np.take(order, np.arange(ishape[a]), axis=a)
        else:
            ishape[a] = int(rng.integers(1, 5))
            idx = rng.integers(0, n, ishape)
        if i % 3 == 0:
            idx = np.where(rng.random(idx.shape) < 0.5, idx - n, idx)
        lo, hi = (-3, 3) if reduction == "prod" else (-100, 100)
        data, upd = _shared_words(rng, shape, ishape) if et == "string" else \
            (array(rng, et, shape, lo, hi), array(rng, et, ishape, lo, hi))
        attrs = {} if op.endswith("-3") else {"reduction": reduction, "use_init_val": bool(i % 4 != 1)}
        inputs = (data, ints_array(idx, _idx_type(i, idx, SIGNED_IDX if idx.min() < 0 else T_INT)), upd,
                  ints_array([ax] if i % 2 else ax, _idx_type(i + 1, [ax], SIGNED_IDX)))
        case = _mcase(op, f"{i}_{et}_{reduction}_{_ids(shape)}_{_ids(ishape)}_axis{ax}", inputs, attrs)
        out.append(dataclasses.replace(case, exact=False if reduction != "none" else None))
    return out


def _roll():
    op = "Roll-7"
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    out = []
    for i in range(M):
        rank = int(rng.integers(1, 5))
        shape = [int(rng.integers(1, 5)) for _ in range(rank)]
        k = int(rng.integers(1, rank + 2)) if i % 4 else 1
        axes = rng.integers(-rank, rank, k)
        # a scalar shift with several axes: OpenVINO's CPU plugin rejects it and it has no reference
        # Roll; tests/test_movement.py checks it by hand
        shift = rng.integers(-9, 10, k) if i % 4 else np.array(int(rng.integers(-9, 10)))
        et = next(types)
        t = ("i32", "i64")[i % 2]
        out.append(_mcase(op, f"{i}_{et}_{_ids(shape)}_shift{shift.tolist()}_axes{axes.tolist()}",
                          (array(rng, et, shape), ints_array(shift, t), ints_array(axes, ("i64", "i32")[i % 3 % 2]))))
    return out


def _reverse():
    op = "Reverse-1"
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    out = []
    for i in range(M):
        rank = int(rng.integers(1, 5))
        shape = [int(rng.integers(1, 4)) for _ in range(rank)]
        mask = rng.random(rank) < 0.5
        et = next(types)
        if i % 2:
            axes, mode = mask, "mask"
        else:
            axes, mode = ints_array(np.flatnonzero(mask), _idx_type(i, [rank])), "index"
        out.append(_mcase(op, f"{i}_{et}_{mode}_{_ids(shape)}_{np.asarray(axes).astype(int).tolist()}",
                          (array(rng, et, shape), axes), {"mode": mode}))
    return out


def _shuffle_channels():
    op = "ShuffleChannels-1"
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    out = []
    for i in range(M):
        rank = int(rng.integers(1, 5))
        shape = [int(rng.integers(1, 4)) for _ in range(rank)]
        ax = int(rng.integers(-rank, rank))
        group = int(rng.integers(1, 4))
        shape[ax] = group * int(rng.integers(1, 4))
        et = next(types)
        out.append(_mcase(op, f"{i}_{et}_{_ids(shape)}_axis{ax}_g{group}", (array(rng, et, shape),),
                          {"axis": ax, "group": group}))
    return out


def _reverse_sequence():
    op = "ReverseSequence-1"
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    out = []
    for i in range(M):
        rank = int(rng.integers(2, 5))
        shape = [int(rng.integers(1, 5)) for _ in range(rank)]
        b, t = (int(v) for v in rng.choice(rank, 2, replace=False))
        lengths = rng.integers(1, shape[t] + 1, shape[b])
        et = next(types)
        b_attr, t_attr = (b - rank if rng.random() < 0.3 else b), (t - rank if rng.random() < 0.3 else t)
        out.append(_mcase(op, f"{i}_{et}_{_ids(shape)}_b{b_attr}_s{t_attr}_{lengths.tolist()}",
                          (array(rng, et, shape), ints_array(lengths, _idx_type(i, lengths))),
                          {"batch_axis": b_attr, "seq_axis": t_attr}))
    return out


def _slice_scatter():
    """Slice-8's cases with updates of the slice's shape inserted as the second input."""
    op = "SliceScatter-15"
    rng = rng_for(op)
    out = []
    for c in _slice():
        data, *rest = c.inputs
        sliced = run_slice(c.inputs)
        et = element_type_of(data)
        data, upd = _shared_words(rng, data.shape, sliced.shape) if et == "string" else \
            (data, array(rng, et, sliced.shape))
        out.append(_mcase(op, c.id, (data, upd, *rest)))
    return out


def run_slice(inputs):
    from ...opset.movement import clamped_slice
    data, start, stop, step = inputs[:4]
    axes = inputs[4] if len(inputs) > 4 else np.arange(len(start))
    index = [slice(None)] * data.ndim
    for b, e, s, a in zip(start.tolist(), stop.tolist(), step.tolist(), axes.tolist()):
        index[a] = clamped_slice(data.shape[a], b, e, s)
    return np.asarray(data)[tuple(index)]


def _unique():
    op = "Unique-10"
    rng = rng_for(op)
    types = itertools.cycle(NUMERIC)
    out = []
    for i in range(M):
        rank = int(rng.integers(1, 4)) if i % 5 else int(rng.integers(0, 4))
        shape = [int(rng.integers(1, 5)) for _ in range(rank)]
        et = next(types)
        # few distinct values, so that there are repeats (whole repeated slices too)
        x = array(rng, et, shape, -2, 2) if element_type(et).is_integral else \
            (rng.integers(-2, 3, shape) * 0.5).astype(element_type(et).dtype)
        if rank and rng.random() < 0.4:
            ax0 = int(rng.integers(0, rank))
            x = np.take(x, rng.integers(0, x.shape[ax0], x.shape[ax0]), axis=ax0)
        inputs = [x]
        axis = None
        if rank and i % 3:
            axis = int(rng.integers(-rank, rank))
            inputs.append(ints_array(axis, ("i32", "i64")[i % 2]))
        attrs = {"sorted": bool(i % 2), "index_element_type": ("i64", "i32")[i % 4 // 2],
                 "count_element_type": ("i32", "i64")[i % 3 % 2]}
        out.append(_mcase(op, f"{i}_{et}_{_ids(shape)}_axis{axis}_{attrs['sorted']}", inputs, attrs))
    return out


def _extract_image_patches():
    op = "ExtractImagePatches-3"
    rng = rng_for(op)
    types = itertools.cycle(ALL)
    out = []
    for i in range(M):
        pad = ("valid", "same_upper", "same_lower")[i % 3]
        sizes = [int(rng.integers(1, 4)) for _ in range(2)]
        strides = [int(rng.integers(1, 4)) for _ in range(2)]
        rates = [int(rng.integers(1, 3)) for _ in range(2)]
        eff = [r * (k - 1) + 1 for r, k in zip(rates, sizes)]
        hw = [int(rng.integers(max(e - 2, 1) if i % 7 else 0, e + 5)) for e in eff]   # (a few too small or empty)
        shape = [int(rng.integers(1, 3)), int(rng.integers(1, 4))] + hw
        et = next(types)
        out.append(_mcase(op, f"{i}_{et}_{pad}_{_ids(shape)}_k{sizes}_s{strides}_r{rates}", (array(rng, et, shape),),
                          {"sizes": sizes, "strides": strides, "rates": rates, "auto_pad": pad}))
    return out


def _gather_tree():
    op = "GatherTree-1"
    rng = rng_for(op)
    types = itertools.cycle(NUMERIC_BYTES)
    out = []
    for i in range(M):
        t, b, k = (int(rng.integers(1, 6)), int(rng.integers(1, 4)), int(rng.integers(1, 5)))
        et = next(types)
        dtype = element_type(et).dtype
        step = rng.integers(0, 6, (t, b, k))
        parent = rng.integers(0, k, (t, b, k))
        lengths = rng.integers(1, t + 3, b)                      # past MAX_TIME too
        end = int(rng.integers(0, 6))
        out.append(_mcase(op, f"{i}_{et}_{t}x{b}x{k}_end{end}_{lengths.tolist()}",
                          tuple(np.asarray(v).astype(np.float32).astype(dtype)
                                for v in (step, parent, lengths, end))))
    return out


def _movement_errors():
    f = np.zeros((2, 3), np.float32)
    i64 = lambda v: np.array(v, np.int64)   # noqa: E731
    return [
        Case("Concat-1", "err_axis", (f, f), {"axis": 2}, error="axis 2 is out of range"),
        Case("Concat-1", "err_dims", (f, np.zeros((3, 3), np.float32)), {"axis": 1}, error="on axis 0"),
        Case("Concat-1", "err_rank", (f, np.zeros((2, 3, 1), np.float32)), {"axis": 0}, error="same rank"),
        Case("Concat-1", "err_scalar", (np.float32(1), np.float32(2)), {"axis": 0}, error="out of range"),
        Case("Concat-1", "err_types", (f, f.astype(np.int32)), {"axis": 0}, error="must match"),
        Case("Split-1", "err_divisible", (f, i64(1)), {"num_splits": 2}, error="multiple of num_splits"),
        Case("Split-1", "err_axis", (f, i64(2)), {"num_splits": 1}, error="out of range"),
        Case("Split-1", "err_axis_shape", (f, i64([1])), {"num_splits": 3}, error="must be a scalar"),
        Case("Split-1", "err_zero", (f, i64(1)), {"num_splits": 0}, error="num_splits must be > 0"),
        Case("VariadicSplit-1", "err_sum", (f, i64(1), i64([1, 1])), error="sum to 2"),
        Case("VariadicSplit-1", "err_two_minus_one", (f, i64(1), i64([-1, -1])), error="more than one -1"),
        Case("VariadicSplit-1", "err_below", (f, i64(1), i64([4, -2])), error="below -1"),
        Case("VariadicSplit-1", "err_minus_one_over", (f, i64(1), i64([4, -1])), error="more than data dimension"),
        Case("Gather-1", "err_axis", (f, i64([0]), i64(2)), error="out of range"),
        Case("Gather-8", "err_batch_dims", (f, i64([[0]]), i64(0)), {"batch_dims": 1}, error="batch_dims (1) must be <= axis"),
        Case("Gather-7", "err_batch_mismatch", (f, i64([[0], [0], [0]]), i64(1)), {"batch_dims": 1},
             error="equal on the 1 batch dimensions"),
        Case("Gather-8", "err_axis_shape", (f, i64([0]), i64([0, 1])), error="must be a scalar or have 1 element"),
        Case("Tile-1", "err_negative", (f, i64([1, -1])), error="repeats must be >= 0"),
        Case("Tile-1", "err_repeats_rank", (f, i64([[1, 1]])), error="must be 1-D"),
        Case("Pad-1", "err_negative", (f, i64([0, -1]), i64([0, 0])), {"pad_mode": "constant"}, error="negative pads need Pad-12"),
        Case("Pad-12", "err_reflect", (f, i64([0, 3]), i64([0, 0])), {"pad_mode": "reflect"}, error="pad_mode 'reflect'"),
        Case("Pad-12", "err_symmetric", (f, i64([0, 0]), i64([3, 4])), {"pad_mode": "symmetric"}, error="pad_mode 'symmetric'"),
        Case("Pad-12", "err_length", (f, i64([0]), i64([0, 0])), {"pad_mode": "constant"}, error="must have 2 elements"),
        Case("Pad-12", "err_mode", (f, i64([0, 0]), i64([0, 0])), {"pad_mode": "wrap"}, error="'pad_mode'"),
        Case("Pad-12", "err_value_shape", (f, i64([0, 0]), i64([0, 0]), np.zeros(2, np.float32)), {"pad_mode": "constant"},
             error="pad_value must be a scalar"),
        Case("Broadcast-3", "err_numpy", (f, i64([2, 4])), {"mode": "numpy"}, error="cannot be broadcast"),
        Case("Broadcast-3", "err_numpy_rank", (f, i64([3])), {"mode": "numpy"}, error="smaller rank"),
        Case("Broadcast-3", "err_bidirectional", (f, i64([4, 1])), {"mode": "bidirectional"}, error="do not broadcast"),
        Case("Broadcast-3", "err_explicit_order", (f, i64([3, 2]), i64([1, 0])), {"mode": "explicit"}, error="sorted"),
        Case("Broadcast-1", "err_explicit_missing", (f, i64([2, 3])), {"mode": "explicit"}, error="needs the axes_mapping"),
        Case("Broadcast-1", "err_explicit_dims", (f, i64([2, 4]), i64([0, 1])), {"mode": "none"}, error="cannot be broadcast"),
        Case("Broadcast-1", "err_mode", (f, i64([2, 3])), {"mode": "bidirectional"}, error="'mode'"),
        Case("StridedSlice-1", "err_stride", (f, i64([0]), i64([1]), i64([0])), {"begin_mask": [], "end_mask": []},
             error="stride must be non-zero"),
        Case("StridedSlice-1", "err_length", (f, i64([0, 0]), i64([1]), i64([1])), {"begin_mask": [], "end_mask": []},
             error="same length"),
        Case("StridedSlice-1", "err_too_many", (f, i64([0, 0, 0]), i64([1, 1, 1])), {"begin_mask": [], "end_mask": []},
             error="more than the rank"),
        Case("StridedSlice-1", "err_ellipsis", (f, i64([0, 0]), i64([1, 1])),
             {"begin_mask": [], "end_mask": [], "ellipsis_mask": [1, 1]}, error="more than one axis"),
        Case("StridedSlice-1", "err_shrink", (f, i64([0, 5]), i64([1, 6])),
             {"begin_mask": [], "end_mask": [], "shrink_axis_mask": [0, 1]}, error="out of range"),
        Case("StridedSlice-1", "err_missing_mask", (f, i64([0]), i64([1])), {"end_mask": []},
             error="missing required attribute 'begin_mask'"),
        Case("Slice-8", "err_step", (f, i64([0]), i64([1]), i64([0])), error="step must be non-zero"),
        Case("Slice-8", "err_axes_unique", (f, i64([0, 0]), i64([1, 1]), i64([1, 1]), i64([1, -1])), error="unique"),
        Case("Slice-8", "err_axes_range", (f, i64([0]), i64([1]), i64([1]), i64([2])), error="out of range"),
        Case("Slice-8", "err_lengths", (f, i64([0, 0]), i64([1]), i64([1])), error="same length"),
        Case("GatherElements-6", "err_rank", (f, i64([0, 1])), {"axis": 0}, error="same rank"),
        Case("GatherElements-6", "err_dims", (f, i64([[0], [1], [0]])), {"axis": 1}, error="equal except on axis"),
        Case("GatherElements-6", "err_axis", (f, i64([[0]])), {"axis": -3}, error="out of range"),
        Case("GatherElements-6", "err_scalar", (np.float32(1), i64(0)), {"axis": 0}, error="data must have rank >= 1"),
        Case("GatherND-8", "err_tuple", (f, i64([[0, 0, 0]])), error="index tuples of length 3"),
        Case("GatherND-8", "err_batch", (f, i64([[0], [0], [0]])), {"batch_dims": 1}, error="batch dimensions"),
        Case("GatherND-5", "err_batch_rank", (f, i64([[0], [0]])), {"batch_dims": 2}, error="below the rank"),
        Case("GatherND-5", "err_scalar_indices", (f, i64(0)), error="indices rank must be at least 1"),
        Case("ScatterUpdate-3", "err_updates", (f, i64([0]), np.zeros((2, 3), np.float32), i64(0)),
             error="updates dimension 0 is 2, expected 1"),
        Case("ScatterUpdate-3", "err_axis", (f, i64([0]), np.zeros((1, 3), np.float32), i64(2)), error="out of range"),
        Case("ScatterNDUpdate-3", "err_tuple", (f, i64([[0, 0, 0]]), np.zeros(1, np.float32)), error="index tuples"),
        Case("ScatterNDUpdate-3", "err_updates", (f, i64([[0]]), np.zeros((1, 2), np.float32)),
             error="updates dimension 1 is 2, expected 3"),
        Case("ScatterNDUpdate-15", "err_reduction", (f, i64([[0]]), np.zeros((1, 3), np.float32)), {"reduction": "mean"},
             error="'reduction'"),
        Case("ScatterNDUpdate-15", "err_string_sum", (np.array(["a"]), i64([[0]]), np.array(["b"])), {"reduction": "sum"},
             error="needs numeric data"),
        Case("ScatterElementsUpdate-3", "err_rank", (f, i64([0]), np.zeros(1, np.float32), i64(0)), error="rank of data"),
        Case("ScatterElementsUpdate-3", "err_updates", (f, i64([[0]]), np.zeros((1, 2), np.float32), i64(0)),
             error="must have the shape of indices"),
        Case("ScatterElementsUpdate-12", "err_mean_bool", (np.zeros(2, bool), i64([0]), np.zeros(1, bool), i64(0)),
             {"reduction": "mean"}, error="no boolean version"),
        Case("ScatterElementsUpdate-12", "err_axis", (f, i64([[0]]), np.zeros((1, 1), np.float32), i64(-3)),
             error="out of range"),
        Case("Roll-7", "err_lengths", (f, i64([1, 2]), i64([0, 1, 1])), error="same number of elements"),
        Case("Roll-7", "err_axes", (f, i64(1), i64([2])), error="out of range"),
        Case("Reverse-1", "err_mask_length", (f, np.array([True])), {"mode": "mask"}, error="2 mask values"),
        Case("Reverse-1", "err_mask_type", (f, i64([1])), {"mode": "mask"}, error="boolean"),
        Case("Reverse-1", "err_axes", (f, i64([2])), {"mode": "index"}, error="must be in [0, 1]"),
        Case("ShuffleChannels-1", "err_group", (f,), {"axis": 1, "group": 2}, error="multiple of group"),
        Case("ShuffleChannels-1", "err_axis", (f,), {"axis": 2, "group": 1}, error="out of range"),
        Case("ReverseSequence-1", "err_lengths", (f, i64([1, 1, 1])), error="seq_lengths has 3 elements"),
        Case("ReverseSequence-1", "err_rank", (np.zeros(3, np.float32), i64([1, 1, 1])), error="rank >= 2"),
        Case("SliceScatter-15", "err_updates", (f, np.zeros((2, 2), np.float32), i64([0]), i64([1]), i64([1])),
             error="must have the shape of the slice [1,3]"),
        Case("SliceScatter-15", "err_step", (f, np.zeros((2, 3), np.float32), i64([0]), i64([1]), i64([0])),
             error="step must be non-zero"),
        Case("Unique-10", "err_axis", (f, i64(2)), error="out of range"),
        Case("Unique-10", "err_index_type", (f,), {"index_element_type": "f32"}, error="must be i32 or i64"),
        Case("Unique-10", "err_string", (np.array(["a"]),), error="expected one of"),
        Case("ExtractImagePatches-3", "err_rank", (f,), {"sizes": [1, 1], "strides": [1, 1], "rates": [1, 1],
                                                          "auto_pad": "valid"}, error="must be 4-D"),
        Case("ExtractImagePatches-3", "err_strides", (np.zeros((1, 1, 3, 3), np.float32),),
             {"sizes": [1, 1], "strides": [0, 1], "rates": [1, 1], "auto_pad": "valid"}, error="strides must be > 0"),
        Case("ExtractImagePatches-3", "err_sizes", (np.zeros((1, 1, 3, 3), np.float32),),
             {"sizes": [1, 1, 1], "strides": [1, 1], "rates": [1, 1], "auto_pad": "valid"}, error="2 elements"),
        Case("ExtractImagePatches-3", "err_pad", (np.zeros((1, 1, 3, 3), np.float32),),
             {"sizes": [1, 1], "strides": [1, 1], "rates": [1, 1], "auto_pad": "explicit"}, error="'auto_pad'"),
        Case("GatherTree-1", "err_shapes", (np.zeros((2, 1, 3), np.float32), np.zeros((2, 1, 2), np.float32),
                                            np.ones(1, np.float32), np.float32(0)), error="same shape of rank 3"),
        Case("GatherTree-1", "err_batch", (np.zeros((2, 1, 3), np.float32), np.zeros((2, 1, 3), np.float32),
                                           np.ones(2, np.float32), np.float32(0)), error="BATCH_SIZE"),
        Case("GatherTree-1", "err_end", (np.zeros((2, 1, 3), np.float32), np.zeros((2, 1, 3), np.float32),
                                         np.ones(1, np.float32), np.zeros(1, np.float32)), error="must be a scalar"),
        Case("Slice-8", "err_too_many", (f, i64([0, 0, 0]), i64([1, 1, 1]), i64([1, 1, 1])), error="more than the rank"),
    ]


def _more_cases():
    return (_concat() + _split() + _variadic_split() + _gather("Gather-1") + _gather("Gather-7")
            + _gather("Gather-8") + _tile() + _pad("Pad-1") + _pad("Pad-12") + _broadcast("Broadcast-1")
            + _broadcast("Broadcast-3") + _strided_slice() + _slice() + _gather_elements() + _gather_nd("GatherND-5")
            + _gather_nd("GatherND-8") + _scatter_update() + _scatter_nd("ScatterNDUpdate-3")
            + _scatter_nd("ScatterNDUpdate-15") + _scatter_elements("ScatterElementsUpdate-3")
            + _scatter_elements("ScatterElementsUpdate-12") + _roll() + _reverse() + _shuffle_channels()
            + _reverse_sequence() + _slice_scatter() + _unique() + _extract_image_patches() + _gather_tree()
            + _movement_errors())


# --- shape cases ------------------------------------------------------------------------------------
SPEC_EMPTY_ORDER = ("the spec: an empty input_order reverses the axes, so the rank stays unknown; OpenVINO "
                    "infers rank 0")
SPEC_BATCH = "the spec requires block_shape[0] == 1 and no pads/crops on the batch axis; OpenVINO accepts"


def _loosen_case(rng, case: Case, i: int) -> ShapeCase:
    """A partial-shape variant of a value case: the data shape loosened (or of dynamic rank), each
    shape-giving input known, or unknown with a static or dynamic shape."""
    data = case.inputs[0]
    r = rng.random()
    shape = PartialShape.dynamic() if r < 0.08 else loosen(rng, data.shape)
    infos = [info(element_type_of(data), shape)]
    from ...opset import get_schema
    ports = get_schema(case.op).inputs
    for port, x in zip(ports[1:], case.inputs[1:]):
        u = rng.random()
        if u < 0.15:
            infos.append(info(element_type_of(x), PartialShape.dynamic() if u < 0.04 else x.shape))
        else:
            infos.append(info(element_type_of(x), x.shape, x))
    order = infos[1].value if case.op == "Transpose-1" else None
    if order is not None and not shape.rank_is_static:
        if order.size == 0:
            return ShapeCase(case.op, f"{i}_{shape}_{case.id}", tuple(infos), case.attrs, SPEC_EMPTY_ORDER, "[...]")
    return ShapeCase(case.op, f"{i}_{shape}_{case.id}", tuple(infos), case.attrs)



def _shape_errors():
    f32 = "f32"
    i64 = "i64"
    return [
        ShapeCase("SpaceToBatch-2", "spec_block0", (info(f32, [2, 4]), info(i64, [2], [2, 2]), info(i64, [2], [0, 0]),
                                                    info(i64, [2], [0, 0])), openvino=SPEC_BATCH),
        ShapeCase("SpaceToBatch-2", "spec_pad0", (info(f32, [2, 4]), info(i64, [2], [1, 2]), info(i64, [2], [1, 0]),
                                                  info(i64, [2], [0, 0])), openvino=SPEC_BATCH),
        ShapeCase("BatchToSpace-2", "spec_block0", (info(f32, [8, 4]), info(i64, [2], [2, 2]), info(i64, [2], [0, 0]),
                                                    info(i64, [2], [0, 0])), openvino=SPEC_BATCH),
        ShapeCase("BatchToSpace-2", "spec_crop0", (info(f32, [8, 4]), info(i64, [2], [1, 2]), info(i64, [2], [1, 0]),
                                                   info(i64, [2], [0, 0])), openvino=SPEC_BATCH),
        ShapeCase("BatchToSpace-2", "crop_too_big", (info(f32, [8, 4]), info(i64, [2], [1, 2]),
                                                     info(i64, [2], [0, 5]), info(i64, [2], [0, 4]))),
        ShapeCase("BatchToSpace-2", "batch_interval_not_divisible",
                  (info(f32, [(5, 7), 4]), info(i64, [2], [1, 8]), info(i64, [2], [0, 0]), info(i64, [2], [0, 0]))),
        ShapeCase("DepthToSpace-1", "interval_not_divisible", (info(f32, [1, (5, 7), 2, 2]),),
                  {"block_size": 2, "mode": "blocks_first"}),
        ShapeCase("DepthToSpace-1", "interval_unbounded", (info(f32, [1, (4, None), 2, 2]),),
                  {"block_size": 2, "mode": "depth_first"}),
        ShapeCase("DepthToSpace-1", "seed_design_doc", (info(f32, [(1, 8), 24, (3, 7), -1]),),
                  {"block_size": 2, "mode": "blocks_first"}),
        ShapeCase("SpaceToDepth-1", "rank2", (info(f32, [1, 4]),), {"block_size": 2, "mode": "blocks_first"}),
        ShapeCase("Col2Im-15", "seed_example_2", (info("i32", [1, 27, 25]), info("i32", [2], [16, 16]),
                                                  info("i32", [2], [3, 3])),
                  {"dilations": [2, 2], "pads_begin": [1, 1], "pads_end": [1, 1], "strides": [2, 2]}),
        ShapeCase("Col2Im-15", "seed_example_3", (info("i32", [12, 12, 324]), info("i32", [2], [32, 32]),
                                                  info("i32", [2], [2, 2])),
                  {"dilations": [2, 2], "pads_begin": [3, 3], "pads_end": [3, 3]}),
        ShapeCase("Col2Im-15", "rank4", (info(f32, [1, 2, 12, 9]), info(i64, [2], [4, 4]), info(i64, [2], [2, 2]))),
        ShapeCase("Col2Im-15", "unknown_sizes", (info(f32, [2, 12, -1]), info(i64, [2]), info(i64, [2]))),
        ShapeCase("Col2Im-15", "unknown_kernel", (info(f32, [2, 12, 9]), info(i64, [2], [4, 4]), info(i64, [2]))),
        ShapeCase("Transpose-1", "unknown_order", (info(f32, [2, 3, 4]), info(i64, [3]))),
        ShapeCase("Transpose-1", "empty_order_dynamic_rank", (info(f32, None), info(i64, [0], [])),
                  openvino=SPEC_EMPTY_ORDER, expected="[...]"),
        ShapeCase("Transpose-1", "dynamic_rank_known_order", (info(f32, None), info(i64, [3], [2, 0, 1]))),
    ]


def shape_cases():
    rng = np.random.default_rng(2024)
    first = _depth_space("DepthToSpace-1", True) + _depth_space("SpaceToDepth-1", False) \
        + _space_batch("SpaceToBatch-2", True) + _space_batch("BatchToSpace-2", False) + _pad_blocks() + _col2im() \
        + _transpose()
    out = [_loosen_case(rng, c, i) for i, c in enumerate(first)] + _shape_errors()
    return out + _more_shape_cases()


# --- shape cases of Concat, Split, Gather, Tile, Pad, Broadcast, StridedSlice, Slice ---------------------
def _loosen_generic(rng, case: Case, i: int) -> ShapeCase:
    """Data-like inputs loosened (dims dynamic or intervals, sometimes dynamic rank); shape-giving
    inputs known, or unknown with a static or dynamic shape."""
    from ...opset import get_schema
    ports = get_schema(case.op).ports_for(len(case.inputs))
    infos = []
    for port, x in zip(ports, case.inputs):
        et = element_type_of(x)
        if port.const:
            u = rng.random()
            keep_shape = case.op == "VariadicSplit-1" and port.name == "split_lengths"
            if u < 0.15:
                infos.append(info(et, x.shape if u >= 0.04 or keep_shape else PartialShape.dynamic()))
            else:
                infos.append(info(et, x.shape, x))
        else:
            r = rng.random()
            infos.append(info(et, PartialShape.dynamic() if r < 0.08 else loosen(rng, x.shape)))
    return ShapeCase(case.op, f"s{i}_{'_'.join(str(x.shape) for x in infos[:2])}_{case.id}", tuple(infos), case.attrs)


def _interval_shape_cases():
    """Hand-picked partial shapes: intervals through every rule, unbounded dims, dynamic ranks."""
    f, i64, i32 = "f32", "i64", "i32"
    I = info   # noqa: E741
    big = 2**63 - 1
    specs = [
        ("Concat-1", "intervals", (I(f, [(1, 4), 3]), I(f, [(2, 6), (2, 5)]), I(f, [-1, -1])), {"axis": 0}),
        ("Concat-1", "unbounded", (I(f, [(2, None), 3]), I(f, [4, 3])), {"axis": -2}),
        ("Concat-1", "dynamic_rank_first", (I(f, None), I(f, [2, 3])), {"axis": 1}),
        ("Concat-1", "all_dynamic_rank", (I(f, None), I(f, None)), {"axis": 1}),
        ("Concat-1", "merge_intervals", (I(f, [2, (1, 5)]), I(f, [2, (3, 8)])), {"axis": 0}),
        ("Concat-1", "merge_fails", (I(f, [2, (1, 2)]), I(f, [2, (3, 8)])), {"axis": 0}),
        ("Split-1", "interval", (I(f, [(2, 9), 4]), I(i64, [], 0)), {"num_splits": 2}),
        ("Split-1", "interval_odd", (I(f, [(3, 10), 4]), I(i64, [], 0)), {"num_splits": 3}),
        ("Split-1", "unbounded", (I(f, [(4, None), 4]), I(i64, [], -2)), {"num_splits": 4}),
        ("Split-1", "interval_too_small", (I(f, [(1, 2), 4]), I(i64, [], 0)), {"num_splits": 3}),
        ("Split-1", "unknown_axis", (I(f, [6, 4]), I(i64, [])), {"num_splits": 2}),
        ("VariadicSplit-1", "interval", (I(f, [(2, 9), 4]), I(i64, [], 0), I(i64, [2], [1, -1])), {}),
        ("VariadicSplit-1", "interval_known", (I(f, [(2, 9), 4]), I(i64, [], 0), I(i64, [2], [1, 1])), {}),
        ("VariadicSplit-1", "unknown_lengths", (I(f, [(2, 9), 4]), I(i64, [], 1), I(i64, [3])), {}),
        ("Gather-8", "interval_batch", (I(f, [(2, 5), 7, 3]), I(i64, [(3, 8), 4]), I(i64, [], 1)), {"batch_dims": 1}),
        ("Gather-8", "unknown_axis", (I(f, [2, 7, 3]), I(i64, [2, 4]), I(i64, [])), {"batch_dims": 1}),
        ("Gather-8", "dynamic_indices_rank", (I(f, [2, 7, 3]), I(i64, None), I(i64, [], 1)), {"batch_dims": 0}),
        ("Gather-8", "negative_batch_dims_dynamic", (I(f, [2, 7, 3]), I(i64, None), I(i64, [], 1)), {"batch_dims": -1}),
        ("Gather-8", "dynamic_data_rank", (I(f, None), I(i64, [2, 4]), I(i64, [], 1)), {"batch_dims": 1}),
        ("Gather-1", "scalar_index", (I(f, [(1, 5), 7]), I(i32, []), I(i32, [], -1)), {}),
        ("Tile-1", "interval", (I(f, [(1, 5), (2, None)]), I(i64, [3], [2, 0, 3])), {}),
        ("Tile-1", "unknown_repeats", (I(f, [2, 3]), I(i64, [4])), {}),
        ("Tile-1", "unknown_repeats_shape", (I(f, [2, 3]), I(i64, None)), {}),
        ("Pad-12", "interval_crop", (I(f, [(2, 6), (1, None)]), I(i64, [2], [-1, 2]), I(i64, [2], [-2, -3])),
         {"pad_mode": "constant"}),
        ("Pad-12", "dynamic_rank", (I(f, None), I(i64, [3], [1, 1, 1]), I(i64, [3], [0, 0, 0])), {"pad_mode": "edge"}),
        ("Pad-12", "crop_below_zero", (I(f, [2, (1, 3), (3, 6), 4]), I(i64, [4], [-1, -1, -4, 0]), I(i64, [4], [-2, -3, 0, 0])),
         {"pad_mode": "constant"}),
        ("Pad-1", "unknown_pads", (I(f, [2, 3]), I(i64, [2]), I(i64, [2], [1, 1])), {"pad_mode": "reflect"}),
        ("Pad-1", "reflect_interval", (I(f, [(1, 3), 3]), I(i64, [2], [2, 0]), I(i64, [2], [2, 0])), {"pad_mode": "reflect"}),
        ("Broadcast-3", "bidirectional_unknown_target", (I(f, [3, 1, (2, 5)]), I(i64, [4])), {"mode": "bidirectional"}),
        ("Broadcast-3", "bidirectional_intervals", (I(f, [(1, 3), 1, (2, 5)]), I(i64, [3], [4, 6, 1])), {"mode": "bidirectional"}),
        ("Broadcast-3", "numpy_unknown_target", (I(f, [3, 1]), I(i64, [4])), {"mode": "numpy"}),
        ("Broadcast-3", "explicit_unknown_axes", (I(f, [3, 1]), I(i64, [3], [3, 2, 4]), I(i64, [2])), {"mode": "explicit"}),
        ("Broadcast-1", "pdpd_interval", (I(f, [(1, 3), 1]), I(i64, [2], [1, 5]), I("u8", [], 0)), {"mode": "pdpd"}),
        ("Broadcast-1", "numpy_ignored_axes", (I(f, [(1, 3), 1]), I(i64, [3], [2, 1, 5]), I("u8", [], 0)), {"mode": "numpy"}),
        ("StridedSlice-1", "interval_reverse", (I(f, [(2, 9), (3, None)]), I(i64, [2], [0, -1]), I(i64, [2], [0, 0]),
                                                I(i64, [2], [-1, -2])), {"begin_mask": [1, 0], "end_mask": [1, 1]}),
        ("StridedSlice-1", "unbounded_int_max", (I(f, [-1, (3, None)]), I(i64, [2], [1, -3]), I(i64, [2], [big, big])),
         {"begin_mask": [0, 0], "end_mask": [0, 0]}),
        ("StridedSlice-1", "unknown_begin", (I(f, [(2, 9), 4]), I(i64, [2]), I(i64, [2], [1, 1])),
         {"begin_mask": [0, 0], "end_mask": [0, 0]}),
        ("StridedSlice-1", "unknown_lengths", (I(f, [(2, 9), 4]), I(i64, None), I(i64, None)),
         {"begin_mask": [], "end_mask": []}),
        ("Slice-8", "interval_negative_start", (I(f, [(2, 9), (3, None)]), I(i64, [2], [-3, 1]), I(i64, [2], [big, -1]),
                                                I(i64, [2], [1, 2])), {}),
        ("Slice-8", "unknown_axes", (I(f, [(2, 9), 4]), I(i64, [1], [1]), I(i64, [1], [3]), I(i64, [1], [1]),
                                     I(i64, [1])), {}),
        ("Slice-8", "unknown_stop", (I(f, [(2, 9), 4]), I(i64, [1], [1]), I(i64, [1]), I(i64, [1], [1]),
                                     I(i64, [1], [1])), {}),
        ("GatherElements-6", "dynamic_indices_rank", (I(f, [2, (1, 4), 3]), I(i64, None)), {"axis": 1}),
        ("GatherElements-6", "dynamic_data_rank", (I(f, None), I(i64, [2, (1, 4)])), {"axis": 1}),
        ("GatherElements-6", "merge", (I(f, [(1, 4), -1, 3]), I(i32, [2, 7, (2, 9)])), {"axis": 1}),
        ("GatherND-5", "fused_intervals", (I(f, [(2, 4), 3, 5, 6]), I(i64, [-1, (1, 3), 7, 1])), {"batch_dims": 2}),
        ("GatherND-8", "unknown_tuple", (I(f, [2, 3, 5]), I(i64, [2, 4, -1])), {"batch_dims": 1}),
        ("GatherND-8", "dynamic_rank", (I(f, None), I(i64, [2, 4, 1])), {"batch_dims": 1}),
        ("ScatterUpdate-3", "unknown_axis", (I(f, [2, (1, 4)]), I(i64, [3]), I(f, [3, 4]), I(i64, [])), {}),
        ("ScatterUpdate-3", "dynamic_ranks", (I(f, None), I(i64, [3]), I(f, None), I(i64, [], 0)), {}),
        ("ScatterNDUpdate-15", "unknown_tuple", (I(f, [2, (1, 4)]), I(i64, [3, -1]), I(f, [3, 4])), {"reduction": "max"}),
        ("ScatterNDUpdate-3", "intervals", (I(f, [(2, 5), (1, 4), 3]), I(i32, [-1, 2]), I(f, [(1, 3), 3])), {}),
        ("ScatterElementsUpdate-12", "unknown_axis", (I(f, [2, (1, 4)]), I(i64, [3, 4]), I(f, [3, -1]), I(i64, [])),
         {"reduction": "mean"}),
        ("ScatterElementsUpdate-3", "dynamic_rank", (I(f, None), I(i64, [3, 4]), I(f, [3, 4]), I(i64, [], 1)), {}),
        ("ReverseSequence-1", "merge_batch", (I(f, [-1, (2, 5)]), I(i64, [4])), {"batch_axis": 0, "seq_axis": 1}),
        ("ReverseSequence-1", "merge_interval", (I(f, [3, (2, 5)]), I(i64, [(1, 4)])), {"batch_axis": 1, "seq_axis": 0}),
        ("ShuffleChannels-1", "interval", (I(f, [2, (3, 7)]),), {"axis": -1, "group": 2}),
        ("Roll-7", "dynamic", (I(f, None), I(i64, [2]), I(i64, [2], [0, 5])), {}),
        ("Reverse-1", "dynamic_mask", (I(f, [2, -1]), I("boolean", [-1])), {"mode": "mask"}),
        ("SliceScatter-15", "intervals", (I(f, [(2, 9), 4]), I(f, [-1, 2]), I(i64, [1], [1]), I(i64, [1], [3]),
                                          I(i64, [1], [1]), I(i64, [1], [1])), {}),
        ("Unique-10", "empty_axis", (I(f, [0, 3]), I(i64, [], 0)), {}),
        ("Unique-10", "interval_axis", (I(f, [(2, 5), 4]), I(i32, [], -2)), {"index_element_type": "i32"}),
        ("Unique-10", "unknown_axis", (I(f, [3, 4]), I(i64, [])), {"count_element_type": "i32"}),
        ("ExtractImagePatches-3", "dynamic_rank", (I(f, None),), {"sizes": [2, 2], "strides": [1, 1], "rates": [1, 1],
                                                                   "auto_pad": "valid"}),
        ("ExtractImagePatches-3", "one_dynamic", (I(f, [2, (1, 3), 9, -1]),),
         {"sizes": [2, 3], "strides": [2, 1], "rates": [1, 1], "auto_pad": "same_lower"}),
        ("ExtractImagePatches-3", "too_small", (I(f, [1, 2, 2, 9]),),
         {"sizes": [4, 2], "strides": [3, 1], "rates": [1, 1], "auto_pad": "valid"}),
        ("GatherTree-1", "merge", (I(f, [(2, 9), -1, 4]), I(f, [5, (1, 3), -1]), I(f, [2]), I(f, [])), {}),
        ("GatherTree-1", "dynamic_rank", (I(f, None), I(f, [5, (1, 3), -1]), I(f, [-1]), I(f, [])), {}),
        ("Slice-8", "reverse_unbounded", (I(f, [(2, None), -1]), I(i64, [2], [-1, 5]), I(i64, [2], [-big - 1, 1]),
                                          I(i64, [2], [-1, -2])), {}),
    ]
    out = [ShapeCase(op, f"hand_{name}", ins, attrs) for op, name, ins, attrs in specs]
    return out + [ShapeCase("Broadcast-1", "hand_pdpd_two_inputs", (I(f, [(1, 3), 1]), I(i64, [2], [1, 5])),
                            {"mode": "pdpd"}, openvino=SPEC_PDPD_TWO_INPUTS, expected="[1..3,5]")]


SPEC_PDPD_TWO_INPUTS = ("the spec gives axes_mapping to mode 'explicit' only; OpenVINO's Broadcast-1 reads input 2 "
                        "in mode 'pdpd' and rejects the model without it (it writes a u8 0 there itself)")


def _more_shape_cases():
    rng = np.random.default_rng(2025)
    value_cases = [c for c in _more_cases() if c.error is None]
    return [_loosen_generic(rng, c, i) for i, c in enumerate(value_cases)] + _interval_shape_cases()
