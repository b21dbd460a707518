"""Cases for the `tf` domain ops, checked against TensorFlow itself: every data_format, SAME and
VALID, dilations, M spatial dims with remaining dims, int32/int64 index inputs."""
from __future__ import annotations

import itertools

import numpy as np

from ...types import element_type_of
from . import Case, ShapeCase, info
from ._gen import array, ints_array, loosen, rng_for

N = 120
F16_TF = "TensorFlow accumulates f16 depthwise convolutions in f16 (opref in f32): compared at bf16 tolerance"
BF16_TF = ("TensorFlow picks its bf16 depthwise kernel by instruction set: with AVX-512 it accumulates in f32, without "
           "it (an AVX2-only AMD EPYC) in bf16 (282 comes out 276); asked with both inputs widened to f32 "
           "(lossless) and its result rounded to bf16 once, as opref computes")
TYPES = ("f32", "f64", "f16", "bf16", "i32", "i64", "i8", "u8", "i16", "u16")



def _space_batch(op, forward):
    rng = rng_for(op, 7)
    types = itertools.cycle(TYPES)
    out = []
    for i in range(N):
        m = int(rng.integers(1, 4))
        rest = int(rng.integers(0, 3))
        blocks = [int(rng.integers(1, 4)) for _ in range(m)]
        idx = ("i32", "i64")[i % 2]
        et = next(types)
        if forward:
            dims = [int(rng.integers(1, 3))] + [int(rng.integers(1, 5)) for _ in range(m)]
            pairs = []
            for d, b in zip(dims[1:], blocks):
                total = (-d) % b + b * int(rng.integers(0, 2))
                lo = int(rng.integers(0, total + 1))
                pairs.append([lo, total - lo])
            shape = dims
        else:
            inner = [int(rng.integers(1, 3))] + [int(rng.integers(1, 4)) for _ in range(m)]
            shape = [inner[0] * int(np.prod(blocks))] + inner[1:]
            pairs = []
            for d, b in zip(inner[1:], blocks):
                lo = int(rng.integers(0, d * b))
                pairs.append([lo, int(rng.integers(0, d * b - lo + 1))])
        shape += [int(rng.integers(1, 3)) for _ in range(rest)]
        out.append(Case(op, f"{i}_{et}_{idx}_{'x'.join(map(str, shape))}",
                        (array(rng, et, shape), ints_array(blocks, idx), ints_array(pairs, idx).reshape(m, 2))))
    return out


def _depth_to_space():
    op = "tf.DepthToSpace"
    rng = rng_for(op, 7)
    types = itertools.cycle(TYPES)
    out = []
    for i in range(N):
        bs = int(rng.integers(2, 4))
        fmt = ("NHWC", "NCHW", "NCHW_VECT_C")[i % 3]
        n, h, w = (int(rng.integers(1, 3)) for _ in range(3))
        c = int(rng.integers(1, 3)) * bs * bs
        if fmt == "NCHW_VECT_C":
            et, shape = "i8", [n, c, h, w, 4]          # c * 4 channels, c/bs^2 * 4 after
        else:
            et = next(types)
            shape = [n, h, w, c] if fmt == "NHWC" else [n, c, h, w]
        out.append(Case(op, f"{i}_{et}_{fmt}_bs{bs}_{'x'.join(map(str, shape))}", (array(rng, et, shape),),
                        {"block_size": bs, "data_format": fmt}))
    return out


def _depthwise():
    op = "tf.DepthwiseConv2dNative"
    rng = rng_for(op, 7)
    types = itertools.cycle(("f32", "f64", "f16", "bf16"))
    out = []
    for i in range(N):
        fmt, padding = ("NHWC", "NCHW")[i % 2], ("SAME", "VALID")[(i // 2) % 2]
        kh, kw, c, mult = (int(rng.integers(1, 4)) for _ in range(4))
        s = [int(rng.integers(1, 3))] * 2                       # TF's CPU kernel: equal strides
        d = [int(rng.integers(1, 3)) if max(s) == 1 else 1 for _ in range(2)]   # TF: no strides with dilations
        n = int(rng.integers(1, 3))
        h, w = (int(rng.integers(dl * (k - 1) + 1, dl * (k - 1) + 6)) for k, dl in zip((kh, kw), d))
        shape = [n, h, w, c] if fmt == "NHWC" else [n, c, h, w]
        four = (lambda a: [1, a[0], a[1], 1]) if fmt == "NHWC" else (lambda a: [1, 1, a[0], a[1]])
        et = next(types)
        out.append(Case(op, f"{i}_{et}_{fmt}_{padding}_{'x'.join(map(str, shape))}_k{kh}x{kw}x{c}x{mult}",
                        (array(rng, et, shape), array(rng, et, [kh, kw, c, mult])),
                        {"strides": four(s), "padding": padding, "data_format": fmt, "dilations": four(d)},
                        exact=False, tolerance="bf16" if et == "f16" else None,
                        openvino={"f16": F16_TF, "bf16": BF16_TF}.get(et),
                        oracle_cast={0: "f32", 1: "f32"} if et == "bf16" else {}))
    return out


def cases():
    return (_space_batch("tf.SpaceToBatchND", True) + _space_batch("tf.BatchToSpaceND", False)
            + _depth_to_space() + _depthwise())


def shape_cases():
    """Loosened shapes of the value cases: the shape rule must contain the shape the body computes."""
    rng = np.random.default_rng(99)
    out = []
    for i, c in enumerate(cases()):
        x = c.inputs[0]
        shape = loosen(rng, x.shape)
        rest = tuple(info(element_type_of(v), v.shape, v if rng.random() < 0.8 else None) for v in c.inputs[1:])
        if c.op == "tf.DepthwiseConv2dNative":
            rest = (info(element_type_of(c.inputs[1]), loosen(rng, c.inputs[1].shape)),)
        out.append(ShapeCase(c.op, f"{i}_{shape}_{c.id}", (info(element_type_of(x), shape),) + rest, c.attrs))
    return out

