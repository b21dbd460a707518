"""NumPy transcriptions of the colour-conversion specs (NV12/I420 to RGB/BGR-8, RGB/BGR to NV12-17): the
oracle of u8 cases whose float32 results hit exact halves (the CPU plugin rounds them to even; OpenVINO's
reference and the spec's usual reading round half away from zero), the only value oracle of the opset17
ops (OpenVINO 2026.4.1 infers their shapes but cannot run them), and a check of every case in
tests/test_image_ops.py.

Written from the spec, not from opref's kernels: every output pixel (h, w) reads its Y, U and V by
flat offsets into the planes, as the spec lays them out (single plane: H rows of Y, then the chroma
rows; NV12 chroma interleaved U, V per 2x2 block; I420 the whole U plane, then the whole V plane)."""
from __future__ import annotations

import numpy as np


def _formula(y, u, v, dtype):
    """R, G, B of the spec in float32 (as OpenVINO's reference computes them), clipped to [0, 255];
    u8 rounded half away from zero."""
    f = np.float32
    c, d, e = y.astype(f) - f(16), u.astype(f) - f(128), v.astype(f) - f(128)
    rgb = [f(1.164) * c + f(1.596) * e, f(1.164) * c - f(0.391) * d - f(0.813) * e, f(1.164) * c + f(2.018) * d]
    rgb = [np.clip(x, f(0), f(255)) for x in rgb]
    if dtype == np.uint8:
        rgb = [np.floor(x.astype(np.float64) + 0.5) for x in rgb]     # exact in float64: halves go up
    return [x.astype(dtype) for x in rgb]


def _convert(planes, nv12, bgr):
    first = planes[0]
    n, rows, w, _ = first.shape
    h = rows * 2 // 3 if len(planes) == 1 else rows
    hh, ww = np.meshgrid(np.arange(h), np.arange(w), indexing="ij")
    y_at = hh * w + ww
    flat = [p.reshape(n, -1) for p in planes]
    if len(planes) == 1:                        # chroma starts after the h * w values of Y
        y_src = chroma = flat[0]
        base_u = h * w
        base_v = h * w + (0 if nv12 else h * w // 4)
        u_src = v_src = chroma
    else:
        y_src = flat[0]
        base_u = base_v = 0
        u_src, v_src = (flat[1], flat[1]) if nv12 else (flat[1], flat[2])
    if nv12:                                    # U, V pairs: row h//2 of w values, pair w//2
        u_at = base_u + (hh // 2) * w + (ww // 2) * 2
        v_at = u_at + 1
    else:                                       # planes of (h/2) x (w/2)
        u_at = base_u + (hh // 2) * (w // 2) + ww // 2
        v_at = base_v + (hh // 2) * (w // 2) + ww // 2
    r, g, b = _formula(y_src[:, y_at], u_src[:, u_at], v_src[:, v_at], first.dtype)
    return [np.stack([b, g, r] if bgr else [r, g, b], axis=-1)]


def _op(nv12, bgr):
    def run(*planes):
        return _convert(planes, nv12, bgr)
    return run


def _typed(x, dtype):
    """Clipped to [0, 255]; u8 rounded half away from zero (exact in float64)."""
    x = np.clip(x, 0, 255)
    return (np.floor(x.astype(np.float64) + 0.5) if dtype == np.uint8 else x).astype(dtype)


def _to_nv12(image, single_plane, bgr):
    """RGBtoNV12-17: per pixel (n, h, w) the spec's Y, U, V in float32; each 2x2 block's U and V the mean
    of its four pixels' typed U and V, added in the order (0, 0), (0, 1), (1, 0), (1, 1) (the spec leaves
    subsampling open; this is OpenVINO's reference)."""
    f, dtype = np.float32, image.dtype
    n, h, w, _ = image.shape
    px = image.reshape(n, h * w, 3).astype(f)
    r, g, b = px[..., 2 if bgr else 0], px[..., 1], px[..., 0 if bgr else 2]
    y = _typed(f(0.257) * r + f(0.504) * g + f(0.098) * b + f(16), dtype)
    u = _typed(f(-0.148) * r - f(0.291) * g + f(0.439) * b + f(128), dtype)
    v = _typed(f(0.439) * r - f(0.368) * g - f(0.071) * b + f(128), dtype)
    bh, bw = np.meshgrid(np.arange(h // 2), np.arange(w // 2), indexing="ij")
    corners = [(2 * bh + dh) * w + 2 * bw + dw for dh in (0, 1) for dw in (0, 1)]

    def mean(p):
        total = f(0)
        for at in corners:
            total = total + p[:, at].astype(f)
        return _typed(total / f(4), dtype)

    uv = np.stack([mean(u), mean(v)], axis=-1)                 # [n, h/2, w/2, 2]
    y = y.reshape(n, h, w, 1)
    if single_plane:                                           # Y rows, then rows of U, V pairs
        flat = np.concatenate([y.reshape(n, -1), uv.reshape(n, -1)], axis=1)
        return [flat.reshape(n, h * 3 // 2, w, 1)]
    return [y, uv]


SPEC = {"NV12toRGB-8": _op(True, False), "NV12toBGR-8": _op(True, True),
        "I420toRGB-8": _op(False, False), "I420toBGR-8": _op(False, True),
        "RGBtoNV12-17": lambda image, single_plane: _to_nv12(image, single_plane, False),
        "BGRtoNV12-17": lambda image, single_plane: _to_nv12(image, single_plane, True)}
