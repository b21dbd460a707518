"""Cases for the data-movement ops that gather or scatter by index: Gather-1/7/8, GatherElements-6,
GatherND-5/8, ScatterUpdate-3, ScatterNDUpdate-3/15, ScatterElementsUpdate-3/12, GatherTree-1 (value
generators; movement.py puts them into its tables)."""
from __future__ import annotations

import dataclasses
import itertools

import numpy as np

from ...opset.movement_gather import ELEMENTS_REDUCTIONS, NOT_REDUCIBLE, SCATTER_REDUCTIONS
from ...types import ALL, NUMERIC_BYTES, element_type
from ._gen import array, ints_array, rng_for
from . import Case
from .movement_common import M, SIGNED_IDX, T_INT, _ids, _idx_type, _mcase, _shared_words


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


# OpenVINO's CPU plugin leaves the data as it is where the index tuples are empty (depth 0: each tuple names the
# whole data); the spec, onnxruntime's ScatterND and OpenVINO's reference `evaluate` apply every update
WHOLE_DATA_TUPLES = "the CPU plugin ignores index tuples of depth 0 (each names the whole data); the spec applies them"


def _scatter_nd_whole_data(op):
    """Index tuples of depth 0: each update is a whole data tensor, applied in order (or reduced)."""
    rng = rng_for(op + "whole")
    out = []
    reductions = ["none"] if op == "ScatterNDUpdate-3" else ["none", "sum", "sub", "prod", "min", "max"]
    for i, reduction in enumerate(reductions):
        shape, batch = [[3], [2, 3], [2, 1, 2]][i % 3], [[2], [1], [3, 1]][i % 3]
        data, upd = array(rng, "f32", shape, -3, 3), array(rng, "f32", batch + shape, -3, 3)
        attrs = {} if op == "ScatterNDUpdate-3" else {"reduction": reduction}
        out.append(Case(op, f"whole_data_{reduction}_{_ids(shape)}_{_ids(batch + [0])}",
                        (data, np.zeros(batch + [0], (np.int32, np.int64)[i % 2]), upd), attrs,
                        openvino=WHOLE_DATA_TUPLES, oracle="reference", exact=False if reduction != "none" else None))
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
