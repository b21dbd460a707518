"""How two backends' outputs are compared: exactly for data movement and integer/boolean/string
results, within a per-element-type tolerance for computed floating-point results."""
from __future__ import annotations

import numpy as np

from ..types import element_type, pack

# (rtol, atol) for computed floating-point outputs, per element type; atol scales with the
# magnitude of the reduction (see `allclose`), rtol is per-element.
TOLERANCE = {
    "f64": (1e-7, 1e-9),
    "f32": (1e-5, 1e-5),
    "f16": (2e-3, 2e-3),
    "bf16": (1.6e-2, 1.6e-2),
    "f8e4m3": (1.3e-1, 1.3e-1),
    "f8e5m2": (2.6e-1, 2.6e-1),
}

EXACT_CATEGORIES = ("movement", "shape")


def mismatch(expected: np.ndarray, actual: np.ndarray, *, exact: bool, scale: float = 1.0,
             tolerance: str | None = None) -> str | None:
    """None when `actual` matches `expected`; otherwise a one-line summary: where, by how much, and
    the smallest tolerance that would pass."""
    if expected.shape != actual.shape:
        return f"shape {list(actual.shape)}, expected {list(expected.shape)}"
    et, got = element_type(expected), element_type(actual)
    if et.name != got.name and not (et.dtype == got.dtype):
        return f"element type {got.name}, expected {et.name}"
    if et.name == "string":
        bad = np.argwhere(expected.astype(str) != actual.astype(str))
        return None if bad.size == 0 else f"{len(bad)} strings differ, first at {tuple(bad[0])}"
    if exact or not et.is_float:
        if pack(expected, et) == pack(actual, et):
            return None
        e, a = expected.astype(np.float64), actual.astype(np.float64)
        diff = ~((e == a) | (np.isnan(e) & np.isnan(a)))
        where = tuple(np.argwhere(diff)[0]) if diff.any() else "(bit pattern)"
        return f"{int(diff.sum())} of {diff.size} elements differ (exact comparison), first at {where}"
    rtol, atol = TOLERANCE[tolerance or et.name]
    e, a = expected.astype(np.float64), actual.astype(np.float64)
    same = (e == a) | (np.isnan(e) & np.isnan(a))
    with np.errstate(invalid="ignore"):
        err = np.where(same, 0.0, np.abs(e - a))          # NaN where one side only is NaN, inf on inf vs finite
    limit = atol * scale + rtol * np.abs(np.where(np.isfinite(e), e, 0.0))
    bad = ~(err <= limit)                                 # a NaN error (one-sided NaN) is a mismatch
    if not bad.any():
        return None
    i = np.unravel_index(np.argmax(np.where(bad, err, -1)), err.shape)
    return (f"{int(bad.sum())} of {bad.size} elements outside rtol={rtol}, atol={atol * scale:g}: max abs error "
            f"{err[i]:g} at {tuple(map(int, i))} (expected {e[i]!r}, got {a[i]!r})")


def without_one_sided_nan(expected: np.ndarray, actual: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """For a case marked `nan_differs`: both arrays with NaN put on both sides wherever exactly one side
    is NaN (the marked disagreement), and how many such places there were. Everything else is still
    compared as usual."""
    if not element_type(expected).is_float or expected.shape != actual.shape:
        return expected, actual, 0
    one = np.isnan(expected.astype(np.float64)) != np.isnan(actual.astype(np.float64))
    e, a = expected.copy(), actual.copy()
    e[one], a[one] = np.nan, np.nan
    return e, a, int(one.sum())
