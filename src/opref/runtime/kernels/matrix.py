"""Matrix kernels: MatMul-1, Einsum-7, Inverse-14, GroupedMatMul-17.

Products are computed by np.matmul / np.einsum in the type's accumulator dtype: f32 for the floats
narrower than 32 bits (rounded back once at the end, as OpenVINO's CPU plugin does), the type
itself for f32/f64 and for integers (NumPy's integer matmul wraps modulo 2^bits, which is what
accumulating in the type gives, since wrapping commutes with sums and products).
"""
from __future__ import annotations

import string

import numpy as np

from ...opset.matrix import ELLIPSIS, parse_einsum
from ...errors import InputError
from ...types import accumulator_dtype
from ._elementwise import quiet


# --- MatMul-1 ----------------------------------------------------------------------------------------
def _matmul(a, b, *, transpose_a, transpose_b, out=None):
    dtype = a.dtype
    acc = accumulator_dtype(dtype)
    x, y = a.astype(acc, copy=False), b.astype(acc, copy=False)
    if transpose_a and x.ndim > 1:
        x = np.swapaxes(x, -1, -2)
    if transpose_b and y.ndim > 1:
        y = np.swapaxes(y, -1, -2)
    # np.matmul has MatMul's rules: 1-D a is a row vector, 1-D b a column vector, and the inserted
    # axes are dropped; batch axes broadcast. (Into `out` where it computes in the type itself: see INTO.)
    res = np.matmul(x, y, out=out if acc == dtype else None)
    return res if type(res) is np.ndarray and res.dtype == dtype else np.asarray(res).astype(dtype, copy=False)


matmul = quiet(_matmul, over="ignore", invalid="ignore")


# --- Einsum-7 ----------------------------------------------------------------------------------------
def einsum(inputs, *more_inputs, equation):
    operands = (inputs,) + more_inputs
    subs, out = parse_einsum(equation)
    dtype = operands[0].dtype
    acc = accumulator_dtype(dtype)
    # '...' becomes letters of its own, right-aligned over the operands (NumPy broadcasting), so an
    # explicit output without '...' sums those dimensions as the spec says (np.einsum would refuse)
    used = {lab for sub in subs for lab in sub}
    covers = [x.ndim - (len(sub) - 1) for x, sub in zip(operands, subs) if ELLIPSIS in sub]
    ell = [c for c in string.ascii_letters if c not in used][:max(covers, default=0)]
    def letters(sub, cover):
        return "".join("".join(ell[len(ell) - cover:]) if lab == ELLIPSIS else lab for lab in sub)
    in_letters = [letters(sub, x.ndim - (len(sub) - 1)) for x, sub in zip(operands, subs)]
    out_letters = letters(out, len(ell))
    # labelled dimensions broadcast (a 1 yields to the others' length), as the shape rule checked
    size = {}
    for x, lets in zip(operands, in_letters):
        for lab, n in zip(lets, x.shape):
            size[lab] = n if size.get(lab, 1) == 1 else size[lab]
    arrays = [np.broadcast_to(x.astype(acc, copy=False), [size[lab] for lab in lets])
              for x, lets in zip(operands, in_letters)]
    with np.errstate(over="ignore", invalid="ignore"):
        y = np.einsum(",".join(in_letters) + "->" + out_letters, *arrays)
    return np.asarray(y).astype(dtype, copy=False)


# --- Inverse-14 --------------------------------------------------------------------------------------
def inverse(input, *, adjoint):
    """LAPACK's LU with partial pivoting (np.linalg), as the spec's algorithm. The spec leaves a
    singular matrix's result undefined: it is NaN here (exactly singular: a zero pivot, det == 0)."""
    x = input.astype(accumulator_dtype(input.dtype), copy=False)
    if x.size == 0:
        return np.empty(input.shape, input.dtype)
    with np.errstate(all="ignore"):
        det = np.linalg.det(x)
        singular = ~(det != 0)                      # NaN input: NaN det counts as singular too
        eye = np.eye(x.shape[-1], dtype=x.dtype)
        inv = np.linalg.inv(np.where(singular[..., None, None], eye, x))
        if adjoint:
            inv = inv * det[..., None, None]
        out = np.where(singular[..., None, None], np.asarray(np.nan, x.dtype), inv)
    return out.astype(input.dtype)


# --- GroupedMatMul-17 ----------------------------------------------------------------------------------
def _group_bounds(offsets, total, what):
    """[(start, end)] per group from cumulative counts that must rise from 0 to `total` (the spec's format)."""
    ends = np.asarray(offsets).astype(np.int64).reshape(-1)
    starts = np.concatenate([[0], ends[:-1]])
    if ends.size and (np.any(ends < starts) or ends[-1] != total):
        raise InputError(f"GroupedMatMul-17: 'offsets' must be cumulative counts, non-decreasing from 0 to the "
                         f"{total} {what}, got {ends.tolist()}")
    return zip(starts.tolist(), ends.tolist())


def grouped_matmul(mat_a, mat_b, offsets=None):
    dtype = mat_a.dtype
    acc = accumulator_dtype(dtype)
    a, b = mat_a.astype(acc, copy=False), mat_b.astype(acc, copy=False)
    with np.errstate(over="ignore", invalid="ignore"):
        if a.ndim == 3:                                   # [G, M, K] x [G, K, N]
            return np.matmul(a, b).astype(dtype, copy=False)
        if b.ndim == 3:                                   # [T, K] x [G, K, N]: rows of group g times expert g
            out = np.zeros((a.shape[0], b.shape[2]), acc)
            for g, (s, e) in enumerate(_group_bounds(offsets, a.shape[0], "rows of mat_a")):
                out[s:e] = a[s:e] @ b[g]
            return out.astype(dtype, copy=False)
        out = np.zeros((np.asarray(offsets).size, a.shape[0], b.shape[1]), acc)   # [K, T] x [T, N]
        for g, (s, e) in enumerate(_group_bounds(offsets, a.shape[1], "columns of mat_a")):
            out[g] = a[:, s:e] @ b[s:e]                   # an empty group: zeros
        return out.astype(dtype, copy=False)


KERNELS = {
    "GroupedMatMul-17": grouped_matmul,
    "MatMul-1": matmul,
    "Einsum-7": einsum,
    "Inverse-14": inverse,
}


# --- temporaries (runtime/limits.py's max_kernel_bytes) -------------------------------------------------
def _accumulated(ins, outs) -> int:
    """Bytes of the operands and the product in the accumulator type, when it is not the type itself
    (f16/bf16/f8 compute in f32; batch broadcasting makes no copies)."""
    dtype = ins[0].dtype
    acc = accumulator_dtype(dtype)
    if acc == dtype:
        return 0
    out = outs[0]
    return acc.itemsize * (sum(x.size for x in ins if x is not None) + (0 if out is None else int(np.prod(out))))


INTO = {"MatMul-1": ()}                # (see kernels/__init__.py)
WORKSPACE = {"MatMul-1": lambda ins, outs, kw: _accumulated(ins, outs), "Einsum-7": lambda ins, outs, kw: _accumulated(ins, outs)}
