"""Image ops. Interpolate-1/4/11 is ONNX Resize (opset 18: `axes` attribute, sizes or scales for the
resized axes only), after a zero Pad for pads_begin/pads_end:
- nearest -> Resize nearest with the same coordinate transformation and rounding; OpenVINO's `simple`
  rounding (ceil when the axis shrinks, trunc — after clamping, floor — when it grows) becomes one
  Resize per direction (nearest is separable). Nearest moves values without arithmetic, so it runs in
  the image's own type, or one that holds it; f64/i64 images (no onnxruntime kernel) resize an index
  ramp instead and Gather the source rows along each axis — exact for every element type.
- linear_onnx -> Resize linear; cubic -> Resize cubic (cubic_coeff_a = cube_coeff, edge-clamped taps);
  OpenVINO's triangle-filter `linear` -> Resize linear, with antialias when it shrinks every resized
  axis (ONNX's antialias stretches the triangle by 1/scale as OpenVINO's does; it keeps growing axes
  unstretched where OpenVINO narrows them, so such a mix is Unsupported). These interpolate in f32, as
  opref (and OpenVINO's reference) do for every element type: the image goes through f32, integral
  results are truncated (linear_onnx) or rounded half away from zero (linear) back.
- axes whose size does not change are left out of the Resize: OpenVINO copies them (ONNX would add
  zero-weighted neighbours, NaN next to inf, or shift them by half a pixel in tf_half_pixel_for_nn).
- shape_calculation_mode scales: OpenVINO sizes the output as floor(d * (scale + 1e-6)), ONNX as
  floor(d * scale), with the same scale for the coordinates: lowered where the two sizes agree (known
  statically), Unsupported where not.
Interpolate-1 is Interpolate-4 with the settings OpenVINO runs it with (nearest rounds `simple`, linear is
linear_onnx below rank 5, asymmetric/half_pixel/align_corners coordinates as its kernel picks them).
GridSample-9 is ONNX GridSample (opset 20: linear/cubic/nearest; opset 16's bilinear/bicubic names
before 20), computed in f32 (f64 when data or grid is f64, opset 20 up) as opref does; integral data
converts back truncated and saturated, NaN as 0.
The YUV colour conversions (NV12/I420 to RGB/BGR, RGB/BGR to NV12) have no ONNX op; they decompose:
planes cut out of a single-plane image by Slice/Reshape on sizes read at run time (Shape), chroma
upsampled by Unsqueeze/Expand/Reshape (or averaged over 2x2 blocks by Reshape/Gather), the colour
formulas as Mul/Add/Sub in f32 (f64 for f64 images) in opref's order (no MatMul: its sums may fuse or
reorder), Max/Min for the [0, 255] clip, and u8 results rounded half up (Floor, then +1 where the
fraction is >= 0.5: std::round of a non-negative value) before the Cast."""
from __future__ import annotations

import numpy as np

from ..opset.image import scale_dim
from ..shapes import Dimension
from ..types import element_type
from .builder import Unsupported
from .glue import carrier, unsupported_type

F32 = np.float32
_ONNX_NEAREST = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")


# --- Interpolate ---------------------------------------------------------------------------------------
def _plan(image_shape, axes, sizes, scales, calc, pads_b, pads_e):
    """[(axis, in Dimension, out size, f32 scale or None)] of the axes whose size changes, or Unsupported."""
    rank = len(image_shape)
    pb = list(pads_b[:rank]) + [0] * max(rank - len(pads_b), 0)
    pe = list(pads_e[:rank]) + [0] * max(rank - len(pads_e), 0)
    padded = [Dimension(d.lo + b + e, None if d.hi is None else d.hi + b + e) for d, b, e in zip(image_shape, pb, pe)]
    plan = []
    for i, a in enumerate(axes):
        d = padded[a]
        if calc == "scales":
            s = F32(scales[i])
            if s == F32(1):
                continue
            if not d.is_static:
                return Unsupported("Interpolate scales on a dynamic dim (ONNX sizes the output as floor(d * scale), "
                                   "OpenVINO adds 1e-6 to the scale: needs a static dim to check they agree)",
                                   f"axis {a}: {d}")
            n = d.lo
            out = scale_dim(Dimension(n, n), float(s)).lo
            if int(s * F32(n)) != out:
                return Unsupported("Interpolate scales where ONNX's floor(d * scale) misses OpenVINO's "
                                   "floor(d * (scale + 1e-6))", f"axis {a}: {n} * {s}")
        else:
            out = int(sizes[i])
            n = d.lo if d.is_static else None
            s = None if n is None else (F32(out) / F32(n) if n else F32(1))
        if n == out:
            continue
        if n == 0 or out == 0:
            return Unsupported("Interpolate of or to an empty axis (onnxruntime's Resize rejects it)", f"axis {a}")
        plan.append((a, d, out, s))
    return plan, pb, pe


def _resize_attrs(mode, coord, nearest, cube, antialias):
    attrs = {"coordinate_transformation_mode": coord}
    if mode == "nearest":
        return {**attrs, "mode": "nearest", "nearest_mode": nearest}
    if mode == "cubic":
        return {**attrs, "mode": "cubic", "cubic_coeff_a": float(cube), "exclude_outside": 0}
    # OpenVINO's triangle filter drops taps outside the image and renormalises: exclude_outside
    return {**attrs, "mode": "linear", "antialias": int(antialias), "exclude_outside": int(antialias)}


def _resize(b, x, plan, calc, attrs):
    """One Resize of `x` over the planned axes (sizes, or scales in scales mode)."""
    axes = [a for a, *_ in plan]
    if calc == "scales":
        return b.node("Resize", [x, None, np.asarray([s for *_, s in plan], F32)], axes=axes, **attrs)
    return b.node("Resize", [x, None, None, b.i64([o for _, _, o, _ in plan])], axes=axes, **attrs)


def _ramp_gather(b, x, rank, plan, calc, attrs):
    """Nearest for types onnxruntime's Resize lacks: per axis, resize an f32 index ramp and Gather."""
    for a, d, out, s in plan:
        n = b.node("Gather", [b.node("Shape", [x]), b.i64([a])])
        ramp = b.node("Range", [b.scalar(0, "f32"), b.node("Cast", [b.node("Squeeze", [n])], to=1),
                                b.scalar(1, "f32")])
        ramp = b.node("Reshape", [ramp, b.i64([1] * a + [-1] + [1] * (rank - a - 1))])
        idx = _resize(b, ramp, [(a, d, out, s)], calc, attrs)
        idx = b.node("Cast", [b.node("Reshape", [idx, b.i64([-1])])], to=7)
        x = b.node("Gather", [x, idx], axis=a)
    return x


def _interpolate(b, call, image, axes, sizes, scales, *, mode, calc, coord, nearest, antialias, pads_b, pads_e, cube):
    out_et, et = call.outputs[0].element_type, image.element_type
    if image.rank is None:
        return Unsupported("Interpolate of dynamic rank (Pad and Resize's axes need the rank)")
    rank = image.rank
    if axes is None:
        axes = list(range(rank))
    values = sizes if calc == "sizes" else scales
    if axes is None or values is None:
        return Unsupported("Interpolate needs constant sizes/scales and axes")
    planned = _plan(list(image.shape), axes, sizes, scales, calc, pads_b, pads_e)
    if isinstance(planned, Unsupported):
        return planned
    plan, pb, pe = planned
    needs_static = mode != "nearest" or nearest == "simple" or coord == "tf_half_pixel_for_nn"
    dynamic = [a for a, d, _, s in plan if s is None]
    if dynamic and needs_static:
        return Unsupported("Interpolate needs static dims on the resized axes (to leave out the axes OpenVINO "
                           "copies, and for nearest_mode simple the direction)", f"axes {dynamic}")
    integral = element_type(call.outputs[0].element_type).is_integral
    if mode == "nearest":
        ct = carrier(et, b.kernel_types("Resize"))
    elif integral:
        return Unsupported("integral Interpolate in an interpolating mode (opref rounds or truncates an f32 sum "
                           "whose last bit depends on the order of summation)", f"{et} {mode}")
    else:
        ct = "f32"                       # opref interpolates every type in f32
    x = b.cast(image, ct or et, et)
    if any(pb) or any(pe):
        x = b.node("Pad", [x, b.i64(pb + pe)], mode="constant")
    if mode == "nearest":
        groups = [(nearest, plan)]
        if nearest == "simple":          # ceil where the axis shrinks, floor (trunc after the clamp) where it grows
            groups = [("ceil", [p for p in plan if p[3] < 1]), ("floor", [p for p in plan if p[3] >= 1])]
        for rounding, part in groups:
            if part:
                attrs = _resize_attrs(mode, coord, rounding, cube, False)
                x = _resize(b, x, part, calc, attrs) if ct else _ramp_gather(b, x, rank, part, calc, attrs)
        return b.cast(x, out_et, ct or et)
    if mode == "linear" and antialias and any(s < 1 for *_, s in plan):
        if any(s > 1 for *_, s in plan):
            return Unsupported("antialiased linear Interpolate growing some axes while shrinking others (OpenVINO "
                               "narrows the filter of the growing axes, ONNX keeps it)")
    else:
        antialias = False
    if plan:
        attrs = _resize_attrs("linear" if mode == "linear_onnx" else mode, coord, nearest, cube, antialias)
        x = _interpolating_resize(b, x, rank, plan, calc, attrs)
        if isinstance(x, Unsupported):
            return x
    return b.cast(x, out_et, "f32")


def _interpolating_resize(b, x, rank, plan, calc, attrs):
    """onnxruntime interpolates (bi/tri)linear and bicubic only over the last 2-3 axes of an image whose
    leading scales are 1: the resized axes move to the back, the others fold into one, size-1 axes fill
    a 4-D (5-D for three axes) image, and the result is unfolded."""
    axes = [a for a, *_ in plan]
    k, cubic = len(axes), attrs["mode"] == "cubic"
    direct = (rank == 2 or (rank == 4 and min(axes) >= 2) or (not cubic and (rank == 3 or (rank == 5 and
                                                                                            min(axes) >= 2))))
    if direct:
        return _resize(b, x, plan, calc, attrs)
    if k > (2 if cubic else 3):
        return Unsupported("Interpolate over more axes than onnxruntime's Resize interpolates at once",
                           f"{attrs['mode']} over {k} axes")
    others = [a for a in range(rank) if a not in axes]
    perm = others + axes
    t = b.node("Transpose", [x], perm=perm) if perm != list(range(rank)) else x
    fill = (2 if k <= 2 else 3) - k
    t = b.node("Reshape", [t, b.i64([1, -1] + [d.lo for _, d, _, _ in plan] + [1] * fill)])
    moved = [(2 + i, d, out, s) for i, (_, d, out, s) in enumerate(plan)]
    y = _resize(b, t, moved, calc, attrs)
    lead = b.node("Slice", [b.node("Shape", [x]), b.i64([0]), b.i64([0])]) if not others else \
        b.node("Gather", [b.node("Shape", [x]), b.i64(others)])
    y = b.node("Reshape", [y, b.node("Concat", [lead, b.i64([o for _, _, o, _ in plan])], axis=0)])
    if perm == list(range(rank)):
        return y
    return b.node("Transpose", [y], perm=[int(i) for i in np.argsort(perm)])


def _v4_common(b, call, image, sizes, scales, axes):
    a = call.attrs
    if axes is not None and axes.ints() is None:
        return Unsupported("Interpolate needs constant sizes/scales and axes")
    rank = image.rank
    ax = None if axes is None else [v + rank if v < 0 and rank else v for v in axes.ints()]
    sizes_v = None if sizes is None or a["shape_calculation_mode"] != "sizes" else sizes.ints()
    scales_v = None
    if scales is not None and a["shape_calculation_mode"] == "scales" and scales.value is not None:
        scales_v = [F32(v) for v in np.asarray(scales.value, F32).reshape(-1)]
    return _interpolate(b, call, image, ax, sizes_v, scales_v, mode=a["mode"], calc=a["shape_calculation_mode"],
                        coord=a["coordinate_transformation_mode"], nearest=a["nearest_mode"],
                        antialias=bool(a["antialias"]), pads_b=list(a["pads_begin"]), pads_e=list(a["pads_end"]),
                        cube=a["cube_coeff"])


def _interpolate_4(b, call):
    image, sizes, scales = call.inputs[:3]
    return _v4_common(b, call, image, sizes, scales, call.inputs[3] if len(call.inputs) > 3 else None)


def _interpolate_11(b, call):
    image, both = call.inputs[:2]
    return _v4_common(b, call, image, both, both, call.inputs[2] if len(call.inputs) > 2 else None)


def _interpolate_1(b, call):
    image, target = call.inputs
    a = call.attrs
    if image.rank is None:
        return Unsupported("Interpolate of dynamic rank (Pad and Resize's axes need the rank)")
    rank, axes = image.rank, sorted(set(a["axes"]))
    mode = ("linear_onnx" if rank < 5 else "linear") if a["mode"] == "linear" else a["mode"]
    coord = "asymmetric"
    if a["align_corners"]:
        coord = "align_corners"
    elif mode in ("linear", "linear_onnx") and not any(a["pads_begin"]) and not any(a["pads_end"]) \
            and not (rank == 4 and axes == [2, 3]):
        coord = "half_pixel"
    return _interpolate(b, call, image, axes, target.ints(), None, mode=mode, calc="sizes", coord=coord,
                        nearest="simple", antialias=bool(a["antialias"]), pads_b=list(a["pads_begin"]),
                        pads_e=list(a["pads_end"]), cube=-0.75)


# --- GridSample ----------------------------------------------------------------------------------------
def _to_integral(b, x, ct, out):
    """Interpolated values of type ct as integral type `out`: truncated, saturated, NaN as 0."""
    from ..types import element_type
    info = np.iinfo(element_type(out).dtype)
    x = b.node("Where", [b.node("IsNaN", [x]), b.scalar(0, ct), x])
    high = b.node("GreaterOrEqual", [x, b.scalar(float(info.max), ct)])
    low = b.node("LessOrEqual", [x, b.scalar(float(info.min), ct)])
    inside = b.node("Where", [b.node("Or", [high, low]), b.scalar(0, ct), x])
    wide = "u64" if out == "u64" else "i64"       # the saturated ends added in (Where lacks a u64 kernel)
    y = b.node("Add", [b.cast(inside, wide), b.node("Mul", [b.cast(high, wide, "boolean"), b.scalar(info.max, wide)])])
    if info.min:
        y = b.node("Add", [y, b.node("Mul", [b.cast(low, wide, "boolean"), b.scalar(info.min, wide)])])
    return b.cast(y, out, wide)


def _grid_sample(b, call):
    data, grid = call.inputs
    out = call.outputs[0].element_type
    if data.rank is not None and data.rank != 4:
        return Unsupported("GridSample of other than 4-D data")
    ct = "f64" if "f64" in (data.element_type, grid.element_type) else "f32"
    if ct not in b.kernel_types("GridSample"):
        return unsupported_type("GridSample", ct)
    a = call.attrs
    mode = a["mode"]
    if b.opset >= 20:
        mode = {"bilinear": "linear", "bicubic": "cubic"}.get(mode, mode)
    y = b.node("GridSample", [b.cast(data, ct, data.element_type), b.cast(grid, ct, grid.element_type)], mode=mode,
               padding_mode=a["padding_mode"], align_corners=int(a["align_corners"]))
    if element_type(call.outputs[0].element_type).is_integral:
        return _to_integral(b, y, ct, out)
    return b.cast(y, out, ct)


# --- YUV colour conversions ---------------------------------------------------------------------------
def _dims(b, x, *parts):
    """A 1-D i64 shape from `x`'s run-time dims: ints are constants, (axis, div, mul) read dim `axis`."""
    s = b.node("Shape", [x])
    out = []
    for p in parts:
        if isinstance(p, int):
            out.append(b.i64([p]))
            continue
        a, div, mul = p
        d = b.node("Slice", [s, b.i64([a]), b.i64([a + 1])])
        d = b.node("Mul", [d, b.i64([mul])]) if mul != 1 else d
        out.append(b.node("Div", [d, b.i64([div])]) if div != 1 else d)
    return b.node("Concat", out, axis=0)


def _typed(b, x, et, ct):
    """An f32/f64 value clipped to [0, 255] taken to element type et (u8 rounded half up) and back to ct."""
    x = b.node("Min", [b.node("Max", [x, b.scalar(0, ct)]), b.scalar(255, ct)])
    if et == "u8":
        low = b.node("Floor", [x])
        up = b.node("GreaterOrEqual", [b.node("Sub", [x, low]), b.scalar(0.5, ct)])
        return b.node("Where", [up, b.node("Add", [low, b.scalar(1, ct)]), low])
    return b.cast(b.cast(x, et, ct), ct, et)


def _yuv_planes(b, y, rest, i420):
    """(Y [N, H, W, 1], U, V [N, H/2, W/2, 1]) of the op's inputs `y` and `rest` (tensor names)."""
    if rest:
        if i420:
            return y, rest[0], rest[1]
        uv = rest[0]
        return (y, b.node("Slice", [uv, b.i64([0]), b.i64([1]), b.i64([3])]),
                b.node("Slice", [uv, b.i64([1]), b.i64([2]), b.i64([3])]))
    rows = b.node("Slice", [b.node("Shape", [y]), b.i64([1]), b.i64([2])])
    h = b.node("Div", [b.node("Mul", [rows, b.i64([2])]), b.i64([3])])
    big = b.i64([np.iinfo(np.int64).max])
    luma = b.node("Slice", [y, b.i64([0]), h, b.i64([1])])
    chroma = b.node("Slice", [y, h, big, b.i64([1])])                     # [N, H/2, W, 1]
    n, half_h = _dims(b, y, (0, 1, 1)), b.node("Div", [h, b.i64([2])])
    half_w = _dims(b, y, (2, 2, 1))
    if i420:                                                             # the U plane, then the V plane
        cut = b.node("Concat", [n, b.i64([2]), half_h, half_w, b.i64([1])], axis=0)
        u, v = b.node("Split", [b.node("Reshape", [chroma, cut], allowzero=1), b.i64([1, 1])], 2, axis=1)
        return luma, b.node("Squeeze", [u, b.i64([1])]), b.node("Squeeze", [v, b.i64([1])])
    cut = b.node("Concat", [n, half_h, half_w, b.i64([2])], axis=0)
    uv = b.node("Reshape", [chroma, cut], allowzero=1)
    return (luma, b.node("Slice", [uv, b.i64([0]), b.i64([1]), b.i64([3])]),
            b.node("Slice", [uv, b.i64([1]), b.i64([2]), b.i64([3])]))


def _to_rgb(i420, bgr):
    def lower(b, call):
        et = call.inputs[0].element_type
        ct = "f64" if et == "f64" else "f32"
        ins = [b.cast(v, ct, et) for v in call.inputs if v is not None]      # f8 and bf16 lack Slice/Expand
        luma, u, v = _yuv_planes(b, ins[0], ins[1:], i420)
        like = _dims(b, luma, (0, 1, 1), (1, 1, 1), (2, 1, 1), 1)

        def up(p):                                                       # each chroma sample to its 2x2 block
            p = b.node("Expand", [b.node("Unsqueeze", [p, b.i64([2, 4])]), b.i64([1, 1, 2, 1, 2, 1])])
            return b.node("Reshape", [p, like], allowzero=1)

        k = lambda x: b.scalar(x, ct)                                    # noqa: E731
        c = b.node("Sub", [b.cast(luma, ct, et), k(16)])
        d, e = b.node("Sub", [up(u), k(128)]), b.node("Sub", [up(v), k(128)])
        yc = b.node("Mul", [k(1.164), c])
        r = b.node("Add", [yc, b.node("Mul", [k(1.596), e])])
        g = b.node("Sub", [b.node("Sub", [yc, b.node("Mul", [k(0.391), d])]), b.node("Mul", [k(0.813), e])])
        bl = b.node("Add", [yc, b.node("Mul", [k(2.018), d])])
        out = b.node("Concat", [bl, g, r] if bgr else [r, g, bl], axis=3)
        out = b.node("Min", [b.node("Max", [out, k(0)]), k(255)])
        if et == "u8":
            out = _typed(b, out, et, ct)
        return b.cast(out, et, ct)
    return lower


def _to_nv12(bgr):
    def lower(b, call):
        image = call.inputs[0]
        et = image.element_type
        ct = "f64" if et == "f64" else "f32"
        x = b.cast(image, ct, et)
        ch = [b.node("Slice", [x, b.i64([i]), b.i64([i + 1]), b.i64([3])]) for i in range(3)]
        r, g, bl = (ch[2], ch[1], ch[0]) if bgr else ch
        k = lambda v: b.scalar(v, ct)                                    # noqa: E731
        mul = lambda a, p: b.node("Mul", [k(a), p])                      # noqa: E731
        y = b.node("Add", [b.node("Add", [b.node("Add", [mul(0.257, r), mul(0.504, g)]), mul(0.098, bl)]), k(16)])
        u = b.node("Add", [b.node("Add", [b.node("Sub", [mul(-0.148, r), mul(0.291, g)]), mul(0.439, bl)]), k(128)])
        v = b.node("Add", [b.node("Sub", [b.node("Sub", [mul(0.439, r), mul(0.368, g)]), mul(0.071, bl)]), k(128)])
        luma = b.cast(_typed(b, y, et, ct), et, ct)
        uv = b.node("Concat", [_typed(b, u, et, ct), _typed(b, v, et, ct)], axis=3)          # [N, H, W, 2]
        blocks = b.node("Reshape", [uv, _dims(b, image, (0, 1, 1), (1, 2, 1), 2, (2, 2, 1), 2, 2)], allowzero=1)
        px = lambda i, j: b.node("Gather", [b.node("Gather", [blocks, b.scalar(i, "i64")], axis=2),  # noqa: E731
                                            b.scalar(j, "i64")], axis=3)
        total = b.node("Add", [b.node("Add", [b.node("Add", [px(0, 0), px(0, 1)]), px(1, 0)]), px(1, 1)])
        mean = b.node("Div", [total, k(4)])
        if et == "u8":
            mean = _typed(b, mean, et, ct)                                # in [0, 255] already: rounds only
        uv = b.cast(mean, et, ct)                                         # [N, H/2, W/2, 2]
        if not call.attrs["single_plane"]:
            return [luma, uv]
        rows = b.node("Reshape", [uv, _dims(b, image, (0, 1, 1), (1, 2, 1), (2, 1, 1), 1)], allowzero=1)
        return b.node("Concat", [luma, rows], axis=1)
    return lower


LOWERINGS = {
    "Interpolate-1": _interpolate_1,
    "Interpolate-4": _interpolate_4,
    "Interpolate-11": _interpolate_11,
    "GridSample-9": _grid_sample,
    "NV12toRGB-8": _to_rgb(False, False), "NV12toBGR-8": _to_rgb(False, True),
    "I420toRGB-8": _to_rgb(True, False), "I420toBGR-8": _to_rgb(True, True),
    "RGBtoNV12-17": _to_nv12(False), "BGRtoNV12-17": _to_nv12(True),
}
NO_ONNX = {}
