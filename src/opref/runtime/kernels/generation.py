"""Generation kernels: Range-1/4 (its length counted as the shape rule counts it, opset/generation.py),
Eye-9, OneHot-1/16, RandomUniform-8 and Multinomial-13 (their generators in random.py)."""
from __future__ import annotations

import math

import numpy as np

from ...opset.generation import range_count
from .random import mt19937_seed_seq, philox, pytorch_unit, tensorflow_unit
from ...types import element_type, element_type_of
from ..limits import check_holdable


def range_values(start, stop, step, output_type: str) -> np.ndarray:
    """The sequence start, start + step, ... (stop excluded) of element type output_type. Integral
    outputs truncate the inputs towards zero first and accumulate with wrap-around; floating-point
    outputs compute start + i * step in the output type (OpenVINO's reference), each operation
    rounded to it."""
    t = element_type(output_type)
    a, b, c = (float(np.asarray(v).astype(np.float64)) for v in (start, stop, step))
    if t.is_integral:
        a, b, c = math.trunc(a), math.trunc(b), math.trunc(c)
    n = range_count(a, b, c)
    if t.is_integral:
        # the values from the exact integers (a u64 or i64 beyond 2**53 is not rounded as the count is),
        # accumulated modulo 2**64: two's-complement wrap in every integral type
        first, delta = (int(x.reshape(-1)[0]) if x.dtype.kind in "iub" else math.trunc(float(x.reshape(-1)[0]))
                        for x in (np.asarray(start), np.asarray(step)))
        i = np.arange(n, dtype=np.uint64)
        with np.errstate(over="ignore"):
            v = np.uint64(first % 2**64) + i * np.uint64(delta % 2**64)
        return v.view(np.int64).astype(t.dtype)
    first, delta = np.asarray(start).astype(t.dtype), np.asarray(step).astype(t.dtype)
    return (first + np.arange(n).astype(t.dtype) * delta).astype(t.dtype)


def range_1(start, stop, step):
    return range_values(start, stop, step, element_type_of(start))


def range_4(start, stop, step, *, output_type):
    return range_values(start, stop, step, output_type)


def _first(x) -> int:
    return int(np.asarray(x).reshape(-1)[0])


def eye_9(num_rows, num_columns, diagonal_index, batch_shape=None, *, output_type):
    rows, cols, k = _first(num_rows), _first(num_columns), _first(diagonal_index)
    dtype = element_type(output_type).dtype
    batch = () if batch_shape is None else tuple(int(b) for b in np.asarray(batch_shape).reshape(-1))
    shape = batch + (rows, cols)
    if 0 in shape:          # an empty output: no matrix
        check_holdable("Eye-9", "output 'output'", shape, dtype)
        return np.zeros(shape, dtype)
    matrix = np.eye(rows, cols, k, dtype=dtype)   # zeros where |k| is past the edge
    return np.broadcast_to(matrix, batch + matrix.shape).copy()


def _one_hot(op, indices, depth, on_value, off_value, axis, normalize=False):
    n = _first(depth)
    idx = np.asarray(indices).astype(np.int64)
    if normalize:
        idx = np.where(idx < 0, idx + n, idx)
    a = axis % (idx.ndim + 1)
    if idx.size == 0:            # an empty output (its depth may be huge: no positions to compare with)
        dtype = np.result_type(np.asarray(on_value), np.asarray(off_value))
        shape = idx.shape[:a] + (n,) + idx.shape[a:]
        check_holdable(op, "output 'output'", shape, dtype)
        return np.empty(shape, dtype)
    positions = np.arange(n).reshape((n,) + (1,) * (idx.ndim - a))
    hit = np.expand_dims(idx, a) == positions          # out-of-range indices hit nothing: off_value
    return np.where(hit, np.asarray(on_value), np.asarray(off_value))


def one_hot_1(indices, depth, on_value, off_value, *, axis):
    return _one_hot("OneHot-1", indices, depth, on_value, off_value, axis)


def one_hot_16(indices, depth, on_value, off_value, *, axis, negative_indices_mode):
    return _one_hot("OneHot-16", indices, depth, on_value, off_value, axis, negative_indices_mode == "normalize")


def _seeds(global_seed, op_seed):
    """The spec: both seeds 0 gives a non-deterministic sequence."""
    if global_seed == 0 and op_seed == 0:
        global_seed, op_seed = (int(v) for v in np.random.default_rng().integers(1, 1 << 31, 2))
    return global_seed, op_seed


def random_uniform_8(shape, minval, maxval, *, alignment, global_seed, op_seed, output_type):
    dims = tuple(int(d) for d in np.asarray(shape).reshape(-1))
    count = math.prod(dims)
    t = element_type(output_type)
    if count == 0:
        check_holdable("RandomUniform-8", "output 'output'", dims, t.dtype)
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


# --- Multinomial-13 ------------------------------------------------------------------------------------
_BLOCK = 1 << 22     # draws x classes compared at once (bounds the memory of the comparison)


def _first_at_or_above(cdf, u):
    """Per row b and draw j, the first class c with u[b, j] <= cdf[b, c]: the number of classes whose
    cumulative probability is below the draw (cdf rows do not decrease). A draw above the whole row
    (only through rounding of a renormalised row) takes the last class."""
    step = max(1, _BLOCK // max(cdf.shape[0] * cdf.shape[1], 1))
    out = np.concatenate([(cdf[:, None, :] < u[:, j:j + step, None]).sum(-1) for j in range(0, u.shape[1], step)],
                         axis=1) if u.shape[1] else np.zeros(u.shape, np.int64)
    return np.minimum(out, cdf.shape[1] - 1)


def multinomial_13(probs, num_samples, *, convert_type, with_replacement, log_probs, global_seed, op_seed):
    """OpenVINO's algorithm and stream, bit for bit: the CDF is accumulated in f32 (f64 for f64 probs; OpenVINO's
    CPU plugin reads every narrower type as f32, except bf16 on AVX-512 machines, whose bf16 path draws other
    classes), exp(probs) first with log_probs, then divided by its last value (at least the smallest normal
    number); draw j of row b is the (b * num_samples + j)-th output w of std::mt19937 seeded with
    std::seed_seq{global_seed, op_seed}, as f32(w) / 2**32. Without replacement the drawn class's probability p
    is taken off the CDF from that class on and the CDF divided by 1 - p, one draw after another (each step
    rounded in the CDF's type)."""
    n = _first(num_samples)
    ct = np.float64 if np.asarray(probs).dtype == np.float64 else np.float32
    x = np.asarray(probs).astype(ct)
    batch, classes = x.shape
    out = np.zeros((batch, n), element_type(convert_type).dtype)
    if out.size == 0:
        return out
    if log_probs:
        x = np.exp(x.astype(np.float64)).astype(ct)            # exp rounded once to the CDF's type
    cdf = np.cumsum(x, axis=1, dtype=ct)                         # a running sum, rounded at each step
    cdf = cdf / np.maximum(cdf[:, -1:], np.finfo(ct).tiny)
    global_seed, op_seed = _seeds(global_seed, op_seed)
    words = mt19937_seed_seq((global_seed, op_seed), batch * n)
    u = (words.astype(np.float32) / np.float32(2.0 ** 32)).astype(ct).reshape(batch, n)
    if with_replacement:
        return _first_at_or_above(cdf, u).astype(out.dtype)
    rows, later = np.arange(batch), np.arange(classes)
    for j in range(n):                                         # each draw changes the CDF of the next
        c = _first_at_or_above(cdf, u[:, j:j + 1])[:, 0]
        out[:, j] = c
        below = np.where(c > 0, cdf[rows, np.maximum(c - 1, 0)], ct(0))
        p = (cdf[rows, c] - below).astype(ct)
        cdf = np.where(later >= c[:, None], cdf - p[:, None], cdf)
        with np.errstate(divide="ignore", invalid="ignore"):  # the last class drawn leaves 0 / 0
            cdf = (cdf / (ct(1) - p)[:, None]).astype(ct)
    return out


KERNELS = {"Range-1": range_1, "Range-4": range_4, "Eye-9": eye_9, "OneHot-1": one_hot_1, "OneHot-16": one_hot_16,
           "RandomUniform-8": random_uniform_8, "Multinomial-13": multinomial_13}


# --- temporaries (runtime/limits.py's max_kernel_bytes) -------------------------------------------------
def _one_hot_workspace(ins, outs, kw) -> int:
    """OneHot: the indices in i64 (and normalised), the positions 0..depth-1 and the [.., depth, ..]
    comparison (a byte per output element); nothing for no index (whatever the depth)."""
    indices = ins[0]
    if indices.size == 0:
        return 0
    n = max(_first(ins[1]), 0)
    return indices.size * (n + 16) + 8 * n


# RandomUniform: bytes per output element of the generator's words, its rounds' temporaries (Philox: u64
# products of a block of four words; MT19937: the twisted states and the tempering) and the conversion
_UNIFORM_BYTES = {"f64": 48, "i64": 32, "i32": 20}


def _uniform_workspace(ins, outs, kw) -> int:
    shape = outs[0] if outs[0] is not None else [max(int(d), 0) for d in np.asarray(ins[0]).reshape(-1)]
    per = _UNIFORM_BYTES.get(kw["output_type"], 20 if kw["alignment"] == "tensorflow" else 14)
    return math.prod(shape) * per


def _multinomial_workspace(ins, outs, kw) -> int:
    """Multinomial: the CDF and its intermediates (exp, cumsum, normalised, each draw's update; per class
    of each row) and the draws (words, their f32 values, the classes found; per output element), with
    one block of comparisons (with replacement: _BLOCK bytes at most, or one set of rows' classes; without
    it, one draw of every row at a time)."""
    probs, n = ins[0], max(_first(ins[1]), 0)
    batch, classes = probs.shape
    if batch * n == 0:
        return 0
    ct = 8 if probs.dtype == np.float64 else 4
    block = 5 * min(_BLOCK, batch * n * classes) // 4 if kw["with_replacement"] else batch * classes
    return batch * classes * (6 * ct + 8) + batch * n * (28 + 3 * ct) + block


WORKSPACE = {"OneHot-1": _one_hot_workspace, "OneHot-16": _one_hot_workspace, "RandomUniform-8": _uniform_workspace,
             "Multinomial-13": _multinomial_workspace}
