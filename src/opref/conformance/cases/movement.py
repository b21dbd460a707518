"""Cases for the data-movement ops: seeded random shapes, every element type, all modes, plus
edge and error cases. Value cases run on arrays; shape cases loosen the same shapes into partial
shapes (dynamic dims, intervals, dynamic rank, unknown shape-giving values)."""
from __future__ import annotations

import itertools

import numpy as np

from ...shapes import PartialShape
from ...types import ALL, NUMERIC_BYTES, element_type_of
from . import Case, ShapeCase, info
from ._gen import array, ints_array, loosen, rng_for

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
            + _pad_blocks() + _col2im() + _transpose() + _errors())


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
    value_cases = [c for c in cases() if c.error is None]
    return [_loosen_case(rng, c, i) for i, c in enumerate(value_cases)] + _shape_errors()
