"""ONNX equivalents: image ops. GridSample is ONNX GridSample-20. Interpolate is ONNX Resize (opset 13, full-rank sizes) for the modes both
define the same way: nearest (not OpenVINO's `simple` rounding), linear_onnx as ONNX linear, cubic
with edge clamping (exclude_outside=0); OpenVINO's triangle-filter `linear`, the tf_half_pixel_for_nn
transform and padding have no equivalent. Only sizes mode is exported: ONNX computes the output
size of scales without OpenVINO's epsilon. onnxruntime interpolates float32: the image is widened
(losslessly, for the case tables' values) and the result narrowed back by the comparison."""
from __future__ import annotations

import numpy as np

from .onnx_export import OnnxOp, Unsupported

_COORD = ("half_pixel", "pytorch_half_pixel", "asymmetric", "align_corners")
_NEAREST = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")


def _resize(image, axes, sizes, mode, coord, nearest_mode, cube_coeff):
    x = np.asarray(image)
    if mode not in ("nearest", "linear_onnx", "cubic"):
        return Unsupported("mode ONNX Resize lacks (OpenVINO's triangle-filter linear, bilinear_pillow, "
                           "bicubic_pillow)", f"mode={mode}")
    if coord not in _COORD:
        return Unsupported("coordinate_transformation_mode ONNX Resize defines differently "
                           "(tf_half_pixel_for_nn)", f"coordinate_transformation_mode={coord}")
    if mode == "nearest" and nearest_mode not in _NEAREST:
        return Unsupported("nearest_mode ONNX lacks (simple)", f"nearest_mode={nearest_mode}")
    if x.size == 0:
        return Unsupported("empty image (onnxruntime's Resize rejects it)", f"shape={x.shape}")
    if mode != "nearest" and x.dtype.kind in "iu":
        return Unsupported("integer image in an interpolating mode (onnxruntime interpolates f32, "
                           "OpenVINO rounds to the integer type)", f"mode={mode} {x.dtype}")
    attrs = {"mode": {"linear_onnx": "linear"}.get(mode, mode), "coordinate_transformation_mode": coord}
    if mode == "nearest":
        attrs["nearest_mode"] = nearest_mode
    if mode == "cubic":
        attrs["cubic_coeff_a"] = float(cube_coeff)
    # Resize-13 with full-rank scales: the graph feeds every input, and ONNX refuses a fed (even empty)
    # scales next to sizes. Each scale is out/in in float32, nudged up where onnxruntime's
    # int(scale * in) would fall short of the size.
    scales = np.ones(x.ndim, np.float32)
    for a, n in zip(axes, np.asarray(sizes).reshape(-1)):
        n, d = int(n), x.shape[int(a)]
        s = np.float32(n) / np.float32(d)
        while int(s * np.float32(d)) < n:
            s = np.nextafter(s, np.float32(np.inf))
        scales[int(a)] = s
    return OnnxOp("Resize", [x.astype(np.float32), np.zeros(0, np.float32), scales], attrs, opset=13,
                  output_types=[np.float32])


def _v4_common(image, sizes, axes, attrs):
    if attrs["shape_calculation_mode"] != "sizes":
        return Unsupported("shape_calculation_mode scales (ONNX sizes the output without OpenVINO's epsilon)",
                           "shape_calculation_mode=scales")
    if any(attrs["pads_begin"]) or any(attrs["pads_end"]):
        return Unsupported("padding (ONNX Resize has none)",
                           f"pads_begin={list(attrs['pads_begin'])} pads_end={list(attrs['pads_end'])}")
    axes = list(range(np.asarray(image).ndim)) if axes is None else np.asarray(axes).reshape(-1).tolist()
    return _resize(image, axes, sizes, attrs["mode"], attrs["coordinate_transformation_mode"],
                   attrs["nearest_mode"], attrs["cube_coeff"])


def _interpolate_4(inputs, attrs):
    return _v4_common(inputs[0], inputs[1], inputs[3] if len(inputs) > 3 else None, attrs)


def _interpolate_11(inputs, attrs):
    return _v4_common(inputs[0], inputs[1], inputs[2] if len(inputs) > 2 else None, attrs)


def _interpolate_1(inputs, attrs):
    image, sizes = inputs
    x = np.asarray(image)
    axes = sorted(set(attrs["axes"]))
    # v1 nearest rounds `simple` (no ONNX nearest_mode); v1 cubic disagrees with onnxruntime's asymmetric
    # cubic (not yet understood; OpenVINO agrees with opref): neither is exported
    if any(attrs["pads_begin"]) or any(attrs["pads_end"]):
        return Unsupported("padding (ONNX Resize has none)",
                           f"pads_begin={list(attrs['pads_begin'])} pads_end={list(attrs['pads_end'])}")
    if attrs["mode"] == "nearest":
        return Unsupported("Interpolate-1 nearest rounds `simple` (ONNX has no such nearest_mode)", "mode=nearest")
    if attrs["mode"] == "cubic":
        return Unsupported("Interpolate-1 cubic departs from onnxruntime's asymmetric cubic "
                           "(not yet understood; OpenVINO agrees with opref)", "mode=cubic")
    mode = "linear_onnx" if attrs["mode"] == "linear" and x.ndim < 5 else attrs["mode"]
    coord = "align_corners" if attrs["align_corners"] else "half_pixel" if mode == "linear_onnx" and not (
        x.ndim == 4 and axes == [2, 3]) else "asymmetric"
    return _resize(x, axes, sizes, mode, coord, "simple", -0.75)


def _grid_sample(inputs, attrs):
    """ONNX GridSample-20 (modes linear/cubic/nearest; the same cubic A = -0.75 and half-to-even nearest
    rounding). onnxruntime runs float32 and float64 with one type for data and grid: narrower floats are
    widened; integral data only for nearest, where no arithmetic touches the values."""
    data, grid = (np.asarray(a) for a in inputs)
    if data.dtype.kind in "iu" and attrs["mode"] != "nearest":
        return None
    ft = np.float64 if np.float64 in (data.dtype, grid.dtype) else np.float32
    mode = {"bilinear": "linear", "bicubic": "cubic"}.get(attrs["mode"], attrs["mode"])
    return OnnxOp("GridSample", [data.astype(ft), grid.astype(ft)],
                  {"mode": mode, "padding_mode": attrs["padding_mode"], "align_corners": int(attrs["align_corners"])},
                  opset=20, output_types=[ft])


EXPORTS = {"Interpolate-1": _interpolate_1, "Interpolate-4": _interpolate_4, "Interpolate-11": _interpolate_11,
           "GridSample-9": _grid_sample}
