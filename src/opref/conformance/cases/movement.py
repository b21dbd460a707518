"""Cases for the data-movement ops: seeded random shapes, every element type, all modes, plus
edge and error cases. Value cases run on arrays; shape cases loosen the same shapes into partial
shapes (dynamic dims, intervals, dynamic rank, unknown shape-giving values).

The generators of Transpose, Concat, Split, VariadicSplit, Tile, Pad, Broadcast, Roll, Reverse,
ReverseSequence and Unique are here; the families' are in movement_space.py, movement_slice.py and
movement_gather.py, the oracle routing and loosening they share in movement_common.py. `cases()` and
`shape_cases()` call the generators in one fixed order: the loosening of shape cases draws from one
seeded generator across them, so the order fixes the shape cases. The error cases and the hand-picked
partial shapes of all the ops stay in one table each here."""
from __future__ import annotations

import itertools

import numpy as np

from ...opset.movement import PAD_MODES
from ...types import ALL, NUMERIC, element_type
from . import Case, ShapeCase, info
from ._gen import array, ints_array, rng_for
from .movement_common import (M, N, SPEC_EMPTY_ORDER, T_INT, _case, _ids, _idx_type, _loosen_case, _loosen_generic,
                              _mcase)
from .movement_gather import (_gather, _gather_elements, _gather_nd, _gather_tree, _scatter_elements, _scatter_nd,
                              _scatter_nd_whole_data, _scatter_update)
from .movement_slice import _slice, _slice_scatter, _strided_slice
from .movement_space import (_col2im, _depth_space, _errors, _extract_image_patches, _pad_blocks, _shape_errors,
                             _shuffle_channels, _space_batch)


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


def _transpose_errors():
    return [Case("Transpose-1", "err_perm", (np.zeros((2, 3), np.float32), np.array([0, 0])), error="not a permutation")]


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


# --- the tables ------------------------------------------------------------------------------------
def _first_cases():
    """The value cases of the first six ops, in the order that seeds their shape cases."""
    return (_depth_space("DepthToSpace-1", True) + _depth_space("SpaceToDepth-1", False)
            + _space_batch("SpaceToBatch-2", True) + _space_batch("BatchToSpace-2", False)
            + _pad_blocks() + _col2im() + _transpose())


def cases():
    return _first_cases() + _errors() + _transpose_errors() + _more_cases()


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
        *(Case(op, f"err_batch_dims_{id}", (f, ix, i64(1)), {"batch_dims": bd},
               error=f"{op}: batch_dims ({bd}) must be >= {-np.ndim(ix)} (minus the rank of indices)")
          for op in ("Gather-7", "Gather-8") for id, ix, bd in (
              ("below_minus_rank", i64([[0]]), -3), ("scalar_indices", np.int64(0), -1), ("int_min", i64([[0]]), -2**31))),
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
            + _scatter_nd("ScatterNDUpdate-15") + _scatter_nd_whole_data("ScatterNDUpdate-3")
            + _scatter_nd_whole_data("ScatterNDUpdate-15") + _scatter_elements("ScatterElementsUpdate-3")
            + _scatter_elements("ScatterElementsUpdate-12") + _roll() + _reverse() + _shuffle_channels()
            + _reverse_sequence() + _slice_scatter() + _unique() + _extract_image_patches() + _gather_tree()
            + _movement_errors())


# --- shape cases -----------------------------------------------------------------------------------
def _transpose_shape_errors():
    f32 = "f32"
    i64 = "i64"
    return [
        ShapeCase("Transpose-1", "unknown_order", (info(f32, [2, 3, 4]), info(i64, [3]))),
        ShapeCase("Transpose-1", "empty_order_dynamic_rank", (info(f32, None), info(i64, [0], [])),
                  openvino=SPEC_EMPTY_ORDER, expected="[...]"),
        ShapeCase("Transpose-1", "dynamic_rank_known_order", (info(f32, None), info(i64, [3], [2, 0, 1]))),
    ]


def shape_cases():
    rng = np.random.default_rng(2024)
    out = [_loosen_case(rng, c, i) for i, c in enumerate(_first_cases())] + _shape_errors() + _transpose_shape_errors()
    return out + _more_shape_cases()


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
