"""Generation kernels: Range-1/4 (the arithmetic lives with the shape rule, opset/generation.py),
Eye-9, OneHot-1/16, RandomUniform-8 (its generators in random.py)."""
from __future__ import annotations

import numpy as np

from ...opset.generation import range_values
from .random import philox, pytorch_unit, tensorflow_unit
from ...types import element_type, element_type_of


def range_1(start, stop, step):
    return range_values(start, stop, step, element_type_of(start))


def range_4(start, stop, step, *, output_type):
    return range_values(start, stop, step, output_type)


def _first(x) -> int:
    return int(np.asarray(x).reshape(-1)[0])


def eye_9(num_rows, num_columns, diagonal_index, batch_shape=None, *, output_type):
    rows, cols, k = _first(num_rows), _first(num_columns), _first(diagonal_index)
    matrix = np.eye(rows, cols, k, dtype=element_type(output_type).dtype)   # zeros where |k| is past the edge
    batch = () if batch_shape is None else tuple(int(b) for b in np.asarray(batch_shape).reshape(-1))
    return np.broadcast_to(matrix, batch + matrix.shape).copy()


def _one_hot(indices, depth, on_value, off_value, axis, normalize=False):
    n = _first(depth)
    idx = np.asarray(indices).astype(np.int64)
    if normalize:
        idx = np.where(idx < 0, idx + n, idx)
    a = axis % (idx.ndim + 1)
    positions = np.arange(n).reshape((n,) + (1,) * (idx.ndim - a))
    hit = np.expand_dims(idx, a) == positions          # out-of-range indices hit nothing: off_value
    return np.where(hit, np.asarray(on_value), np.asarray(off_value))


def one_hot_1(indices, depth, on_value, off_value, *, axis):
    return _one_hot(indices, depth, on_value, off_value, axis)


def one_hot_16(indices, depth, on_value, off_value, *, axis, negative_indices_mode):
    return _one_hot(indices, depth, on_value, off_value, axis, negative_indices_mode == "normalize")


def _seeds(global_seed, op_seed):
    """The spec: both seeds 0 gives a non-deterministic sequence."""
    if global_seed == 0 and op_seed == 0:
        global_seed, op_seed = (int(v) for v in np.random.default_rng().integers(1, 1 << 31, 2))
    return global_seed, op_seed


def random_uniform_8(shape, minval, maxval, *, alignment, global_seed, op_seed, output_type):
    dims = tuple(int(d) for d in np.asarray(shape).reshape(-1))
    count = int(np.prod(dims, dtype=np.int64))
    t = element_type(output_type)
    lo, hi = (np.asarray(v).reshape(-1)[0] for v in (minval, maxval))
    global_seed, op_seed = _seeds(global_seed, op_seed)
    if alignment == "tensorflow":
        per_block = 2 if output_type in ("f64", "i64") else 4
        u = tensorflow_unit(philox(global_seed, op_seed, -(-count // per_block)), output_type, count)
    else:
        wide = output_type == "i64" and (int(lo) > 0xFFFFFFFF or int(hi) > 0xFFFFFFFF)
        u = pytorch_unit(global_seed, output_type, count, wide)
    if t.is_float and alignment == "pytorch" and t.bits == 16:
        f32 = np.float32                             # x * (max - min) + min in f32, rounded once
        out = u.astype(f32) * (f32(hi) - f32(lo)) + f32(lo)
    elif t.is_float:                                 # x * (max - min) + min, each step in the output type
        out = u.astype(t.dtype) * (hi - lo) + lo
    else:                                            # x mod (max - min) + min, wrapping in the output type
        span = np.uint64((int(hi) - int(lo)) & 0xFFFFFFFFFFFFFFFF)
        out = (u.astype(np.uint64) % span + np.uint64(int(lo) & 0xFFFFFFFFFFFFFFFF)).astype(np.int64)
    return np.asarray(out).astype(t.dtype).reshape(dims)


KERNELS = {"Range-1": range_1, "Range-4": range_4, "Eye-9": eye_9, "OneHot-1": one_hot_1, "OneHot-16": one_hot_16,
           "RandomUniform-8": random_uniform_8}
