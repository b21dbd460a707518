"""Signal ops: DFT-7, IDFT-7, RDFT-9, IRDFT-9, STFT-15, ISTFT-16.

Complex tensors are real tensors with a last dimension of 2 (real, imaginary). The FFT shape rules
follow OpenVINO's (src/core/shape_inference/include/{fft_common_validation,rdft,irdft,fft_base}_shape_
inference.hpp) on partial shapes, with two departures where the spec is clear and OpenVINO is not:
 - a `signal_size` value below -1 is rejected (the spec defines -1, "the whole axis", and lengths;
   OpenVINO turns such values into 0);
 - RDFT/IRDFT with a `signal_size` of unknown value make every transformed axis dynamic, as DFT does
   (OpenVINO keeps the input's length on all but the last axis, a length the op does not produce).
A zero-length signal has an empty spectrum (RDFT of length 0 gives 0 bins, as OpenVINO's rule does).
"""
from __future__ import annotations

from ..shapes import Dimension, PartialShape
from .helpers import check, ints_of
from .schema import OpSchema, Port

# OpenVINO's FFT ops accept f32/f16/bf16; the spec allows "any floating-point type": f64 is kept
# (computed exactly, as for the other types), the f8 types are left out (no spectrum fits in them).
FFT_TYPES = ("f64", "f32", "f16", "bf16")
IDX = ("i32", "i64")


def _fft_axes(op, axes, rank: int, real_input: bool) -> tuple[int, ...] | None:
    """Known axes normalised: a negative axis counts from the end of the complex shape (rank - 1
    dims) for complex inputs, of the real shape for RDFT."""
    values = ints_of(axes)
    if values is None:
        return None
    r = rank if real_input else rank - 1
    out = []
    for a in values:
        check(-r <= a < r, op, lambda: f"axis {a} of input 'axes' is out of range [{-r}, {r - 1}] for data of "
                                       f"rank {rank}" + ("" if real_input else " (the last dimension holds the "
                                                                               "complex parts)"))
        out.append(a + r if a < 0 else a)
    check(len(set(out)) == len(out), op, lambda: f"input 'axes' must hold unique axes, got {list(values)}")
    return tuple(out)


def _fft_validate(op, data, axes, signal_size, real_input: bool):
    """The checks every FFT op shares; returns (normalised axes or None, signal sizes or None)."""
    check(not axes.shape.rank_is_static or len(axes.shape) == 1, op,
          lambda: f"input 'axes' must be 1-D, got shape {axes.shape}")
    n_axes = axes.shape[0] if axes.shape.rank_is_static else Dimension()
    # (OpenVINO's own shape inference crashes the process on empty axes)
    check(not (n_axes.is_static and n_axes.lo == 0), op, "input 'axes' must hold at least one axis")
    norm = None
    if data.shape.rank_is_static:
        rank = len(data.shape)
        min_rank = 1 if real_input else 2
        check(rank >= min_rank, op, lambda: f"input 'data' must have rank >= {min_rank}, got {data.shape}")
        if not real_input:
            check(data.shape[-1].compatible(2), op,
                  lambda: f"the last dimension of input 'data' must be 2 (real, imaginary), got {data.shape}")
        if n_axes.is_static:
            need = n_axes.lo + (0 if real_input else 1)
            check(rank >= need, op, lambda: f"input 'data' of rank {rank} cannot take {n_axes.lo} axes "
                                            f"(rank must be >= {need})")
        norm = _fft_axes(op, axes, rank, real_input)
    sizes = None
    if signal_size is not None:
        s = signal_size.shape
        check(not s.rank_is_static or len(s) == 1, op, lambda: f"input 'signal_size' must be 1-D, got shape {s}")
        if s.rank_is_static:
            check(n_axes.compatible(s[0]), op,
                  lambda: f"inputs 'axes' ({n_axes}) and 'signal_size' ({s[0]}) must have the same number of elements")
        sizes = ints_of(signal_size)
        if sizes is not None:
            bad = [v for v in sizes if v < -1]
            check(not bad, op,
                  lambda: f"input 'signal_size' must hold -1 (whole axis) or lengths >= 0, got {list(sizes)}")
    return norm, sizes


def _half(d: Dimension) -> Dimension:
    """Bins of a real transform of length d: d // 2 + 1, and none for an empty signal."""
    f = lambda n: n if n is None or n <= 0 else n // 2 + 1  # noqa: E731
    return Dimension(f(d.lo), f(d.hi))


def _full(d: Dimension) -> Dimension:
    """Length of the real signal that d half-spectrum bins come from: 2 * (d - 1), at least 0."""
    return Dimension(max(2 * (d.lo - 1), 0), None if d.hi is None else max(2 * (d.hi - 1), 0))


def _sized(dims, axes, sizes):
    for a, s in zip(axes, sizes):
        if s != -1:
            dims[a] = Dimension(s, s)


def _c2c_shape(op, data, axes, signal_size):
    norm, sizes = _fft_validate(op, data, axes, signal_size, real_input=False)
    if not data.shape.rank_is_static:
        return PartialShape.dynamic()
    dims = list(data.shape)
    if signal_size is None:
        return PartialShape(dims)
    if norm is None:
        return PartialShape([Dimension()] * (len(dims) - 1) + dims[-1:])
    if sizes is None:
        for a in norm:
            dims[a] = Dimension()
    else:
        _sized(dims, norm, sizes)
    return PartialShape(dims)


def dft_shape(data, axes, signal_size=None):
    """The output has the data's shape, except that each transformed axis takes its signal_size value
    (-1 keeps it). data has rank >= 2 with a last dimension of 2 (real, imaginary) and at least len(axes) + 1
    dimensions; axes is 1-D, unique, in [-(rank-1), rank-2] (negative counts from the end of the complex
    shape); signal_size is 1-D of axes' length with values -1 or >= 0. Unknown signal_size values make the
    transformed axes dynamic, unknown axes every axis but the last."""
    return _c2c_shape("DFT-7", data, axes, signal_size)


def idft_shape(data, axes, signal_size=None):
    """The output has the data's shape, except that each transformed axis takes its signal_size value
    (-1 keeps it). data has rank >= 2 with a last dimension of 2 (real, imaginary) and at least len(axes) + 1
    dimensions; axes is 1-D, unique, in [-(rank-1), rank-2] (negative counts from the end of the complex
    shape); signal_size is 1-D of axes' length with values -1 or >= 0. Unknown signal_size values make the
    transformed axes dynamic, unknown axes every axis but the last."""
    return _c2c_shape("IDFT-7", data, axes, signal_size)


def rdft_shape(data, axes, signal_size=None):
    """The data's shape plus a last dimension of 2: each transformed axis takes its signal_size value (-1 keeps
    it), then the last of axes becomes n // 2 + 1 bins (0 for an empty signal). data has rank >= 1 and at
    least len(axes) dimensions; axes is 1-D, unique, in [-rank, rank-1]; signal_size is 1-D of axes' length
    with values -1 or >= 0. Unknown signal_size values make the transformed axes dynamic, unknown axes every
    axis."""
    norm, sizes = _fft_validate("RDFT-9", data, axes, signal_size, real_input=True)
    if not data.shape.rank_is_static:
        return PartialShape.dynamic()
    dims = list(data.shape)
    if norm is None:
        return PartialShape([Dimension()] * len(dims) + [Dimension(2, 2)])
    if signal_size is not None:
        if sizes is None:
            for a in norm:
                dims[a] = Dimension()
        else:
            _sized(dims, norm, sizes)
    dims[norm[-1]] = _half(dims[norm[-1]])
    return PartialShape(dims + [Dimension(2, 2)])


def irdft_shape(data, axes, signal_size=None):
    """The data's shape without its last dimension of 2: the last of axes becomes 2 * (n - 1) samples (at
    least 0) unless signal_size gives it, and each transformed axis with a signal_size value other than -1
    takes that value. data has rank >= 2 with a last dimension of 2 and at least len(axes) + 1 dimensions;
    axes is 1-D, unique, in [-(rank-1), rank-2]; signal_size is 1-D of axes' length with values -1 or >= 0.
    Unknown signal_size values make the transformed axes dynamic, unknown axes every axis."""
    norm, sizes = _fft_validate("IRDFT-9", data, axes, signal_size, real_input=False)
    if not data.shape.rank_is_static:
        return PartialShape.dynamic()
    dims = list(data.shape)[:-1]
    if norm is None:
        return PartialShape([Dimension()] * len(dims))
    last = norm[-1]
    if signal_size is None:
        dims[last] = _full(dims[last])
    elif sizes is None:
        for a in norm:
            dims[a] = Dimension()
    else:
        if sizes[-1] == -1:
            dims[last] = _full(dims[last])
        _sized(dims, norm, sizes)
    return PartialShape(dims)


def _fft(name, version, shape, doc, size_bounds=True):
    # OpenVINO takes a bounded signal_size's bounds for DFT/IDFT, but not for RDFT/IRDFT (dynamic dims)
    return OpSchema(
        name, version, category="signal",
        inputs=(Port("data", "T", doc="real signal of any rank >= 1" if name == "RDFT" else
                     "complex tensor [..., 2] (real, imaginary in the last axis)" +
                     (", a half-spectrum on the last of axes" if name == "IRDFT" else "")),
                Port("axes", "T_IND", const=True,
                     doc="1-D unique axes to transform; negative counts from the end" +
                         ("" if name == "RDFT" else " of the complex shape (without the last 2)")),
                Port("signal_size", "T_SIZE", optional=True, const=True, bounds=size_bounds,
                     doc="1-D length per transformed axis (trimmed or zero-padded to it); -1 keeps the axis" +
                         (", on the last of axes the default 2 * (n - 1)" if name == "IRDFT" else ""))),
        outputs=(Port("output", "T", doc={
            "DFT": "the complex spectrum [..., 2]",
            "IDFT": "the complex signal [..., 2]",
            "RDFT": "the complex half-spectrum [..., 2]: n // 2 + 1 bins on the last of axes",
            "IRDFT": "the real signal, without the last dimension of 2"}[name]),),
        type_constraints={"T": FFT_TYPES, "T_IND": IDX, "T_SIZE": IDX},
        shape=shape, doc=doc)


DFT_7 = _fft("DFT", 7, dft_shape, "Complex-to-complex discrete Fourier transform over `axes` (complex numbers as a "
             "last dimension of 2); `signal_size` trims or zero-pads each transformed axis first.")
IDFT_7 = _fft("IDFT", 7, idft_shape, "Inverse complex-to-complex DFT over `axes`, scaled by 1 / prod(signal sizes); "
              "`signal_size` trims or zero-pads each transformed axis first.")
RDFT_9 = _fft("RDFT", 9, rdft_shape, "Real-to-complex DFT over `axes`: the last of `axes` keeps its "
              "signal_size // 2 + 1 non-negative frequencies; output gains a last dimension of 2.", False)
IRDFT_9 = _fft("IRDFT", 9, irdft_shape, "Complex-to-real inverse DFT over `axes` (a Hermitian half-spectrum on the "
               "last of `axes`, 2 * (n - 1) samples by default); output drops the last dimension of 2.", False)

OPS = (DFT_7, IDFT_7, RDFT_9, IRDFT_9)
