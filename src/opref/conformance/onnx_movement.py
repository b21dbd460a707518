"""ONNX equivalents: data movement. onnxruntime's CPU kernels take f32/f64 for DepthToSpace and
SpaceToDepth and f32 for Col2Im: other numeric data is widened to f32 (lossless for the small values
of the case tables) so that every sampled shape and attribute choice meets onnxruntime."""
from __future__ import annotations

import numpy as np

from ..types import element_type
from .onnx_export import OnnxOp, Unsupported


def _f32(x):
    return x if x.dtype in (np.float32, np.float64) else x.astype(np.float32)


def _numeric(x) -> bool:
    et = element_type(x)
    return (et.is_float or et.is_integral) and et.bits >= 8


def _block_unsupported(x):
    if x.ndim != 4:
        return Unsupported("ONNX DepthToSpace/SpaceToDepth take rank 4 only", f"rank {x.ndim}")
    if not _numeric(x):
        return Unsupported("element type onnxruntime cannot take losslessly as f32 (boolean, sub-byte)",
                           element_type(x).name)
    return None


def _depth_to_space(inputs, attrs):
    (x,) = inputs
    if (why := _block_unsupported(x)) is not None:
        return why
    return OnnxOp("DepthToSpace", [_f32(x)], {"blocksize": attrs["block_size"],
                                         "mode": "DCR" if attrs["mode"] == "blocks_first" else "CRD"})


def _space_to_depth(inputs, attrs):
    (x,) = inputs
    if (why := _block_unsupported(x)) is not None:
        return why
    if attrs["mode"] != "blocks_first":
        return Unsupported("ONNX SpaceToDepth is blocks_first only", f"mode={attrs['mode']}")
    return OnnxOp("SpaceToDepth", [_f32(x)], {"blocksize": attrs["block_size"]})


def _col2im(inputs, attrs):
    data, size, kernel = inputs
    if not _numeric(data):
        return None
    data = data.astype(np.float32)
    unbatched = data.ndim == 2                            # ONNX Col2Im is batched-only, int64 sizes
    return OnnxOp("Col2Im", [data[None] if unbatched else data, size.astype(np.int64), kernel.astype(np.int64)],
                  {"strides": list(attrs["strides"]), "dilations": list(attrs["dilations"]),
                   "pads": list(attrs["pads_begin"]) + list(attrs["pads_end"])},
                  output=(lambda y: y[0]) if unbatched else (lambda y: y))

EXPORTS = {"DepthToSpace-1": _depth_to_space, "SpaceToDepth-1": _space_to_depth, "Col2Im-15": _col2im}


# --- Concat, Split, Gather, Tile, Pad, Broadcast, StridedSlice, Slice ---------------------------------------
def _ort(x):
    """Data onnxruntime's CPU kernels take: bf16/f8 widened to f32, 4-bit integers to 8-bit (lossless)."""
    x = np.asarray(x)
    et = element_type(x)
    if et.is_float and et.bits < 16 or et.name == "bf16":
        return x.astype(np.float32)
    if et.bits == 4 and et.name != "nf4":
        return x.astype(np.int8 if et.is_signed else np.uint8)
    return x


# onnxruntime's Pad takes 32/64-bit numbers, 8-bit integers and bool: 16-bit values are widened
_PAD_WIDE = {np.dtype(np.float16): np.float32, np.dtype(np.int16): np.int32, np.dtype(np.uint16): np.uint32}


def _i64(values):
    return np.asarray(values, dtype=np.int64).reshape(-1)


def _movable(x) -> bool:
    et = element_type(np.asarray(x))
    return et.name not in ("nf4", "string") and et.bits != 1


def _concat(inputs, attrs):
    if not _movable(inputs[0]):
        return None
    return OnnxOp("Concat", [_ort(x) for x in inputs], {"axis": attrs["axis"]})


def _split(inputs, attrs):
    data, axis = inputs
    if not _movable(data):
        return None
    n, ax = attrs["num_splits"], int(axis)
    # explicit lengths: onnxruntime's num_outputs rejects an axis of length 0
    return OnnxOp("Split", [_ort(data), _i64([data.shape[ax] // n] * n)], {"axis": ax},
                  output_types=[_ort(data).dtype] * n)


def _variadic_split(inputs, attrs):
    data, axis, lengths = inputs
    if not _movable(data):
        return None
    ax = int(np.asarray(axis).reshape(-1)[0])
    n = [int(v) for v in lengths]
    if -1 in n:
        n[n.index(-1)] = data.shape[ax] - (sum(n) + 1)
    return OnnxOp("Split", [_ort(data), _i64(n)], {"axis": ax}, output_types=[_ort(data).dtype] * len(n))


def _gather(inputs, attrs):
    data, indices, axis = inputs
    ax = int(np.asarray(axis).reshape(-1)[0])
    n = data.shape[ax]
    i = indices.astype(np.int64)
    # ONNX Gather has no batch_dims and rejects out-of-range indices
    if attrs.get("batch_dims", 0) != 0 or not _movable(data) or np.any((i < -n) | (i >= n)):
        return None
    return OnnxOp("Gather", [_ort(data), i], {"axis": ax})


def _tile(inputs, attrs):
    data, repeats = inputs
    reps = [int(v) for v in repeats]
    n = max(data.ndim, len(reps))
    if n == 0 or not _movable(data):
        return None
    # ONNX Tile needs one repeat per axis: pad the shorter of rank and repeats with 1s
    x = _ort(data).reshape((1,) * (n - data.ndim) + data.shape)
    return OnnxOp("Tile", [x, _i64([1] * (n - len(reps)) + reps)])


def _pad(inputs, attrs):
    data, pb, pe = inputs[:3]
    mode = attrs["pad_mode"]
    if mode == "symmetric" or element_type(np.asarray(data)).name == "boolean" or not _movable(data):
        return None
    if mode != "constant" and (min(pb, default=0) < 0 or min(pe, default=0) < 0):
        return None     # onnxruntime pads the cropped data, OpenVINO (and the spec) the original
    x = _ort(data)
    x = x.astype(_PAD_WIDE.get(x.dtype, x.dtype))
    ins = [x, _i64(list(pb) + list(pe))]
    if len(inputs) == 4 and mode == "constant":
        ins.append(np.asarray(inputs[3]).astype(x.dtype))
    return OnnxOp("Pad", ins, {"mode": mode}, opset=19)


def _broadcast(inputs, attrs):
    data, target = inputs[:2]
    if not _movable(data):
        return None
    x, t = _ort(data), [int(v) for v in target]
    mode = attrs["mode"]
    if mode in ("explicit", "none"):
        grid = [1] * len(t)
        for i, a in enumerate(int(v) for v in np.asarray(inputs[2]).reshape(-1)[:data.ndim]):
            grid[a] = data.shape[i]
        x = x.reshape(grid)
    elif mode == "pdpd":
        t = [d if v == 1 else v for d, v in zip(data.shape, t)]
    # ONNX Expand broadcasts both ways, which every mode's valid inputs agree with
    return OnnxOp("Expand", [x, _i64(t)])


def _strided_slice(inputs, attrs):
    data, begin, end = inputs[:3]
    if any(attrs[k] and any(attrs[k]) for k in ("new_axis_mask", "shrink_axis_mask", "ellipsis_mask")):
        return None                     # ONNX Slice neither adds nor removes axes
    if not _movable(data) or len(begin) == 0:
        return None
    n = len(begin)
    stride = [int(v) for v in inputs[3]] if len(inputs) > 3 else [1] * n
    bm = [bool(attrs["begin_mask"][i]) if i < len(attrs["begin_mask"]) else False for i in range(n)]
    em = [bool(attrs["end_mask"][i]) if i < len(attrs["end_mask"]) else False for i in range(n)]
    big = np.iinfo(np.int64)
    starts = [(big.max if s < 0 else 0) if m else int(b) for b, s, m in zip(begin, stride, bm)]
    ends = [(big.min if s < 0 else big.max) if m else int(e) for e, s, m in zip(end, stride, em)]
    if any(s < 0 and e >= 2**31 - 1 for e, s in zip(ends, stride)):
        return None     # onnxruntime reads a huge end of a backward slice as "to the first element"
    return OnnxOp("Slice", [_ort(data), _i64(starts), _i64(ends), _i64(list(range(n))), _i64(stride)])


def _slice(inputs, attrs):
    data, start, stop, step = inputs[:4]
    if not _movable(data):
        return None
    axes = inputs[4] if len(inputs) > 4 else np.arange(len(start))
    if any(s < 0 and e >= 2**31 - 1 for e, s in zip(_i64(stop), _i64(step))):
        return None     # onnxruntime reads a huge stop of a backward slice as "to the first element"
    return OnnxOp("Slice", [_ort(data), _i64(start), _i64(stop), _i64(axes), _i64(step)])


def _gather_elements(inputs, attrs):
    data, indices = inputs
    if not _movable(data):
        return None
    return OnnxOp("GatherElements", [_ort(data), indices.astype(np.int64)], {"axis": attrs["axis"]})


def _gather_nd(inputs, attrs):
    data, indices = inputs
    if not _movable(data):
        return None
    b = attrs["batch_dims"]
    out_shape = (int(np.prod(data.shape[:b])),) + indices.shape[b:-1] + data.shape[b + indices.shape[-1]:]
    fuse = (lambda y: y.reshape(out_shape)) if b > 1 else (lambda y: y)   # GatherND-5 fuses batch dims
    return OnnxOp("GatherND", [_ort(data), indices.astype(np.int64)], {"batch_dims": b}, output=fuse)


def _gather_nd_8(inputs, attrs):
    data, indices = inputs
    if not _movable(data):
        return None
    return OnnxOp("GatherND", [_ort(data), indices.astype(np.int64)], {"batch_dims": attrs["batch_dims"]})


_ONNX_REDUCTION = {"none": "none", "sum": "add", "prod": "mul", "min": "min", "max": "max"}


def _scatter_nd(inputs, attrs):
    data, indices, updates = inputs
    reduction = _ONNX_REDUCTION.get(attrs.get("reduction", "none"))   # ONNX ScatterND has no "sub"
    et = element_type(np.asarray(data))
    if reduction is None or not _movable(data) or (reduction != "none" and (et.name == "boolean" or not et.is_float)):
        return None     # (onnxruntime reduces floats only)
    k = indices.shape[-1]
    idx = indices.astype(np.int64)
    idx = np.where(idx < 0, idx + np.array(data.shape[:k], np.int64), idx)
    x, u = _ort(data), _ort(updates)
    if reduction != "none" and x.dtype == np.float16:    # onnxruntime reduces f16 nowhere: widened
        x, u = x.astype(np.float32), u.astype(np.float32)
    return OnnxOp("ScatterND", [x, idx, u], {"reduction": reduction})


def _scatter_elements(inputs, attrs):
    data, indices, updates, axis = inputs
    reduction = _ONNX_REDUCTION.get(attrs.get("reduction", "none"))   # ONNX has no "mean"
    et = element_type(np.asarray(data))
    if reduction is None or not attrs.get("use_init_val", True) or not _movable(data) \
            or (reduction != "none" and not et.is_float):
        return None
    x, u = _ort(data), _ort(updates)
    if reduction != "none" and x.dtype == np.float16:
        x, u = x.astype(np.float32), u.astype(np.float32)
    return OnnxOp("ScatterElements", [x, indices.astype(np.int64), u],
                  {"axis": int(np.asarray(axis).reshape(-1)[0]), "reduction": reduction})


def _reverse_sequence(inputs, attrs):
    data, lengths = inputs
    b, t = (a + data.ndim if a < 0 else a for a in (attrs["batch_axis"], attrs["seq_axis"]))
    if {b, t} != {0, 1} or not _movable(data):
        return None     # ONNX ReverseSequence has the batch and time axes in the first two places
    return OnnxOp("ReverseSequence", [_ort(data), lengths.astype(np.int64)], {"batch_axis": b, "time_axis": t})


def _unique(inputs, attrs):
    data = np.asarray(inputs[0])
    et = element_type(data)
    if data.size == 0 or et.name in ("u1", "nf4"):
        return None
    # onnxruntime's Unique takes f32/f64/i8/i64: other values widened losslessly
    x = data.astype(np.float64 if et.name == "f64" else np.float32) if et.is_float else data.astype(np.int64)
    onnx_attrs = {"sorted": int(attrs["sorted"])}
    if len(inputs) > 1:
        onnx_attrs["axis"] = int(np.asarray(inputs[1]))
    return OnnxOp("Unique", [x], onnx_attrs, opset=11, output_types=[x.dtype, np.int64, np.int64, np.int64])


EXPORTS.update({
    "Unique-10": _unique,
    "ReverseSequence-1": _reverse_sequence,
    "ScatterElementsUpdate-3": _scatter_elements, "ScatterElementsUpdate-12": _scatter_elements,
    "ScatterNDUpdate-3": _scatter_nd, "ScatterNDUpdate-15": _scatter_nd,
    "GatherElements-6": _gather_elements, "GatherND-5": _gather_nd, "GatherND-8": _gather_nd_8,
    "Concat-1": _concat, "Split-1": _split, "VariadicSplit-1": _variadic_split,
    "Gather-1": _gather, "Gather-7": _gather, "Gather-8": _gather, "Tile-1": _tile,
    "Pad-1": _pad, "Pad-12": _pad, "Broadcast-1": _broadcast, "Broadcast-3": _broadcast,
    "StridedSlice-1": _strided_slice, "Slice-8": _slice,
})
