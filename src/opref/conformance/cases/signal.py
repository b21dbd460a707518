"""Cases for the signal ops: seeded random transforms over 1-4 complex dims, 1-3 axes in any order
(negative too), signal_size absent / whole axis (-1) / trimming / zero-padding / zero, i32 and i64
index inputs and every element type; hand-picked edges (the spec's examples, empty tensors, length-1
signals, NaN/Inf); error cases; and partial-shape cases (dynamic and interval dims, dynamic rank,
axes or signal_size of unknown value).

OpenVINO 2026.4.1's CPU plugin is asked wherever it is faithful. Where it is not (the case says
why), the case asks a NumPy transcription of the spec (tests/spec_oracles.py, oracle="spec"),
which every case is also checked against in tests/test_signal.py."""
from __future__ import annotations

import ml_dtypes
import numpy as np

from ...shapes import PartialShape
from ...types import element_type_of
from . import Case, ShapeCase, info
from ._gen import array, loosen, rng_for

FFT_OPS = ("DFT-7", "IDFT-7", "RDFT-9", "IRDFT-9")
TYPES = ("f32", "f16", "f32", "bf16", "f64", "f32")
N = 84

F64_CPU = ("OpenVINO's FFT ops reject f64 (the spec allows any floating-point type); asked with the data as f32, "
           "compared at f32 tolerance")
EMPTY_CPU = ("OpenVINO's CPU plugin dies (SIGFPE) on a transform of length 0; asked a NumPy transcription of the spec")
RDFT_PAD_CPU = ("OpenVINO's CPU RDFT refuses signal_size above the input length ('not supported yet'); asked a NumPy "
                "transcription of the spec")
IRDFT_PAD_CPU = ("OpenVINO's CPU IRDFT returns wrong values when the last axis is zero-padded (signal_size // 2 + 1 "
                 "above the bins given); asked a NumPy transcription of the spec")
REAL_MINUS1_CPU = ("OpenVINO's CPU RDFT/IRDFT fail to compile with -1 in signal_size ('cannot create std::vector larger "
                   "than max_size()'); asked a NumPy transcription of the spec")
SS_UNKNOWN = ("OpenVINO keeps the input's length on every transformed axis but the last when signal_size is not "
              "known, a length the op does not produce (its CPU plugin then cannot compile the model); the spec's "
              "sizes are unknown on every transformed axis")
SS_NEGATIVE = "the spec defines signal_size -1 (whole axis) and lengths; OpenVINO turns other negative values into 0"

NAN_SPLIT_CPU = ("OpenVINO's CPU plugin keeps real and imaginary parts apart where a twiddle factor is +-1 (length-1/2 "
                 "transforms): a NaN imaginary part leaves real outputs finite; the spec's complex products spread it")
NAN_SPLIT_CASES = {"DFT-7:39_bf16_2x2x1x2x2_ax-1x2x1_ss1x1x2"}


def _complex_in(op):
    return op != "RDFT-9"


def _route(op, data, axes, ss):
    """Why (and how) OpenVINO's CPU plugin is not asked as is: (reason, oracle, cast, tolerance)."""
    cshape = data.shape[:-1] if _complex_in(op) else data.shape
    r = len(cshape)
    ax = [int(a) + r if a < 0 else int(a) for a in axes]
    given = [-1] * len(ax) if ss is None else [int(s) for s in ss]
    sizes = [cshape[a] if s == -1 else s for a, s in zip(ax, given)]
    if op == "IRDFT-9" and given[-1] == -1:
        sizes[-1] = max(2 * (cshape[ax[-1]] - 1), 0)
    if 0 in sizes or 0 in cshape:
        return EMPTY_CPU, "spec", {}, None
    if op in ("RDFT-9", "IRDFT-9") and -1 in given and ss is not None:
        return REAL_MINUS1_CPU, "spec", {}, None
    if op == "RDFT-9" and any(s > cshape[a] for a, s in zip(ax, sizes)):
        return RDFT_PAD_CPU, "spec", {}, None
    if op == "IRDFT-9" and (sizes[-1] // 2 + 1 > cshape[ax[-1]] or
                            any(s > cshape[a] for a, s in zip(ax[:-1], sizes[:-1]))):
        return IRDFT_PAD_CPU, "spec", {}, None
    if data.dtype == np.float64:
        return F64_CPU, "openvino", {0: "f32"}, "f32"
    return None, "openvino", {}, None


def _case(op, id, data, axes, ss=None, *, idx="i64", sidx=None, **kw):
    axes_a = np.asarray(axes, dtype=np.dtype(idx.replace("i", "int")))
    inputs = (data, axes_a) if ss is None else (data, axes_a, np.asarray(ss, dtype=np.dtype((sidx or idx).replace("i", "int"))))
    if kw.get("error") is None:
        why, oracle, cast, tol = _route(op, data, axes, ss)
        kw = {"openvino": why, "oracle": oracle, "oracle_cast": cast, "tolerance": tol, **kw}
        if f"{op}:{id}" in NAN_SPLIT_CASES:
            kw["nan_differs"] = {"openvino": NAN_SPLIT_CPU}
    return Case(op, id, inputs, **kw)


def _sample(rng, op):
    """A data shape, axes and signal_size that fit one another."""
    r = int(rng.integers(1, 5))
    cshape = [int(rng.integers(1, 7 if r < 3 else 5)) for _ in range(r)]
    k = int(rng.integers(1, min(r, 3) + 1))
    ax = [int(a) for a in rng.permutation(r)[:k]]
    axes = [a - r if rng.random() < 0.3 else a for a in ax]
    ss = None
    if rng.random() < 0.6:
        ss = []
        for a in ax:
            u = rng.random()
            n = cshape[a]
            ss.append(-1 if u < 0.25 else n if u < 0.4 else int(rng.integers(1, n + 1)) if u < 0.7
                      else int(rng.integers(n + 1, n + 4)))
    shape = cshape + [2] if _complex_in(op) else cshape
    return shape, axes, ss


def _tag(x):
    return "x".join(map(str, x)) if len(x) else "scalar"


def _fft(op):
    rng = rng_for(op)
    out = []
    for i in range(N):
        et = TYPES[i % len(TYPES)]
        shape, axes, ss = _sample(rng, op)
        data = array(rng, et, shape)
        if i % 17 == 5:      # NaN spreads over its transformed lines (inf has no one answer: inf - inf in the sums)
            data = data.copy()
            data.reshape(-1)[int(rng.integers(0, data.size))] = np.nan
        idx = ("i64", "i32")[i % 2]
        sidx = ("i64", "i32")[(i // 2) % 2]
        out.append(_case(op, f"{i}_{et}_{_tag(shape)}_ax{_tag(axes)}" + ("" if ss is None else f"_ss{_tag(ss)}"),
                         data, axes, ss, idx=idx, sidx=sidx))
    return out + _fft_edges(op) + _fft_errors(op)


def _fft_edges(op):
    rng = rng_for(op, 1)
    c = _complex_in(op)
    z = [2] if c else []
    f = lambda *s: array(rng, "f32", list(s) + z)  # noqa: E731
    out = [
        _case(op, "one_sample", f(1), [0]),
        _case(op, "one_sample_padded", f(1), [0], [4]),
        _case(op, "impulse", np.stack([np.eye(1, 8, dtype=np.float32)[0], np.zeros(8, np.float32)], -1) if c
              else np.eye(1, 8, dtype=np.float32)[0], [0]),
        _case(op, "constant", np.ones([6] + z, np.float32), [0]),
        _case(op, "all_axes_4d", f(2, 3, 4, 2), [0, 1, 2, 3]),
        _case(op, "reversed_axes", f(3, 4, 5), [2, 1, 0], [-1, 6, 2]),
        _case(op, "negative_axes", f(3, 4, 5), [-1, -3]),
        _case(op, "batch_only_axis", f(4, 1, 6), [1]),
        _case(op, "ss_equal", f(3, 5), [1, 0], [5, 3], idx="i32"),
        _case(op, "ss_trim_to_1", f(3, 5), [0, 1], [1, 1]),
        _case(op, "ss_zero", f(3, 5), [1], [0]),
        _case(op, "empty_batch", f(0, 4), [1]),
        _case(op, "empty_axis_padded", f(3, 0), [1], [4]),
        _case(op, "long_axis", f(2, 64), [1]),
        _case(op, "prime_axis", f(2, 13), [-1]),
        _case(op, "large_values", f(4, 8) * np.float32(1e4), [1, 0]),
    ]
    for et in ("f16", "bf16", "f64"):
        out.append(_case(op, f"types_{et}", array(rng, et, [3, 6] + z), [1, 0], [-1, 4]))
    if op == "IRDFT-9":
        out += [_case(op, "odd_length", f(3, 4), [1], [7]), _case(op, "bins_trimmed", f(3, 6), [1], [5]),
                _case(op, "nyquist_imag", f(2, 5), [1])]
    return out


def _fft_errors(op):
    c = _complex_in(op)
    z = [2] if c else []
    x = lambda *s: np.zeros(list(s) + z, np.float32)  # noqa: E731
    errs = [
        _case(op, "err_axis_range", x(4, 5), [2], error="out of range"),
        _case(op, "err_axis_negative", x(4, 5), [-3], error="out of range"),
        _case(op, "err_axes_repeat", x(4, 5), [0, -2], error="unique"),
        _case(op, "err_ss_length", x(4, 5), [0], [3, 3], error="same number of elements"),
        _case(op, "err_ss_negative", x(4, 5), [0], [-2], error="signal_size"),
        _case(op, "err_axes_2d", x(4, 5), [[0]], error="must be 1-D"),
        _case(op, "err_axes_scalar", x(4, 5), 0, error="must be 1-D"),
        _case(op, "err_ss_2d", x(4, 5), [0], [[3]], error="must be 1-D"),
        _case(op, "err_too_many_axes", x(4, 5), [0, 1, 2], error="rank"),
        _case(op, "err_int_data", x(4, 5).astype(np.int32), [0], error="expected one of"),
        _case(op, "err_f8_data", x(4, 5).astype(ml_dtypes.float8_e4m3fn), [0], error="expected one of"),
        Case(op, "err_axes_float", (x(4, 5), np.array([0.0], np.float32)), error="expected one of"),
    ]
    if c:
        errs += [
            _case(op, "err_last_not_2", np.zeros((4, 5, 3), np.float32), [0], error="must be 2"),
            _case(op, "err_rank_1", np.zeros((2,), np.float32), [0], error="rank >= 2"),
        ]
    else:
        errs.append(_case(op, "err_scalar", np.zeros((), np.float32), [0], error="rank >= 1"))
    return errs


# --- shape cases --------------------------------------------------------------------------------------
def _fft_shape_cases(op):
    rng = rng_for(op, 2)
    c = _complex_in(op)
    out = []
    for i, case in enumerate(k for k in _fft(op) if k.error is None and k.id[0].isdigit()):
        data, axes = case.inputs[:2]
        ss = case.inputs[2] if len(case.inputs) > 2 else None
        shape = loosen(rng, data.shape) if rng.random() < 0.9 else PartialShape.dynamic()
        if c and shape.rank_is_static and rng.random() < 0.7:      # keep the complex pair static mostly
            shape = PartialShape(list(shape)[:-1] + [2])
        u = rng.random()
        ax = info(element_type_of(axes), list(axes.shape), axes if u < 0.85 else None)
        et = element_type_of(data)
        ins = [info("f32" if et == "f64" else et, shape), ax]     # f64: see the type_f64 case
        why, expected = None, None
        if ss is not None:
            known = rng.random() < 0.75
            ins.append(info(element_type_of(ss), list(ss.shape), ss if known else None))
            if not known and op in ("RDFT-9", "IRDFT-9") and ax.value is not None and shape.rank_is_static \
                    and len(axes) > 1:
                why = SS_UNKNOWN
        if why:
            expected = str(_spec_unknown_ss(op, shape, axes))
        out.append(ShapeCase(op, f"{i}_{shape}_{case.id}", tuple(ins), openvino=why, expected=expected))
    return out + _fft_shape_corners(op)


def _spec_unknown_ss(op, shape, axes):
    """The spec's output shape when signal_size is unknown: every transformed axis dynamic."""
    dims = list(shape)[:-1] if op == "IRDFT-9" else list(shape)
    r = len(dims)
    for a in axes:
        dims[int(a) + r if a < 0 else int(a)] = -1
    return PartialShape(dims + ([2] if op == "RDFT-9" else []))


def _fft_shape_corners(op):
    c = _complex_in(op)
    z = ",2" if c else ""
    i64 = lambda v: info("i64", [len(v)], np.array(v, np.int64))  # noqa: E731
    p = lambda n: info("i64", [n])                                # noqa: E731
    corners = [
        ("interval_axis", f"[2..5,3..9{z}]", i64([1]), None),
        ("interval_unbounded", f"[2..,3..{z}]", i64([0, 1]), None),
        ("interval_from_0", f"[0..9,4{z}]", i64([0]), None),
        ("interval_from_1", f"[1..9,4{z}]", i64([0]), None),
        ("dynamic_dims", f"[?,?{z}]", i64([1, 0]), None),
        ("dynamic_rank", "[...]", i64([0]), None),
        ("dynamic_rank_ss", "[...]", i64([0]), i64([7])),
        ("axes_unknown", f"[4,6{z}]", p(1), None),
        ("axes_unknown_2", f"[4,6{z}]", p(2), None),
        ("axes_unknown_ss", f"[4,6{z}]", p(1), i64([3])),
        ("axes_unknown_len", f"[4,6{z}]", info("i64", [-1]), info("i64", [-1])),
        ("axes_dynamic_rank", f"[4,6{z}]", info("i64", "[...]"), None),
        ("ss_unknown_1", f"[4,6{z}]", i64([1]), p(1)),
        ("ss_interval_axis", f"[4,2..8{z}]", i64([1]), i64([-1])),
        ("ss_values", f"[4,2..8{z}]", i64([1, 0]), i64([5, -1])),
        ("ss_zero", f"[4,6{z}]", i64([1]), i64([0])),
        ("ss_one", f"[4,6{z}]", i64([1]), i64([1])),
        ("ss_dynamic_len", f"[4,6{z}]", i64([1]), info("i64", [-1])),
        ("spec_example_1", "[1,320,320,2]" if c else "[1,320,320]", i64([1, 2]), None),
        ("spec_example_2", "[320,320,2]" if c else "[320,320]", i64([0, 1]), i64([512, 100])),
        ("spec_example_3", "[16,768,580,320,2]" if c else "[16,768,580,320]", i64([3, 1, 2]), i64([170, -1, 1024])),
        ("spec_example_4", "[16,768,580,320,2]" if c else "[16,768,580,320]", i64([3, 0, 2]), i64([258, -1, 2056])),
        ("err_axes_len_mismatch", f"[4,6{z}]", p(2), p(1)),
        ("err_axes_2d", f"[4,6{z}]", info("i64", [1, 1]), None),
        ("err_axis_range", f"[4,6{z}]", i64([2]), None),
        ("err_repeat", f"[4,6{z}]", i64([0, -2]), None),
        ("err_too_many_axes", f"[4,6{z}]", p(3), None),
        ("err_ss_2d", f"[4,6{z}]", i64([0]), info("i64", [1, 1])),
    ]
    if c:
        corners += [("err_last_3", "[4,6,3]", i64([0]), None), ("last_interval", "[4,6,1..3]", i64([0]), None),
                    ("last_dynamic", "[4,6,?]", i64([0]), i64([5])), ("err_rank_1", "[2]", i64([0]), None),
                    ("err_last_interval", "[4,3..5]", i64([0]), None)]
    else:
        corners += [("err_scalar", "[]", i64([0]), None), ("rank_1", "[7]", i64([0]), None),
                    ("rank_1_neg", "[7]", i64([-1]), i64([9]))]
    out = []
    for name, shape, axes, ss in corners:
        ins = (info("f32", shape), axes) + (() if ss is None else (ss,))
        out.append(ShapeCase(op, f"corner_{name}", ins))
    for t in ("f16", "bf16"):
        out.append(ShapeCase(op, f"type_{t}", (info(t, f"[3,4{z}]"), i64([0]))))
    out.append(ShapeCase(op, "type_f64", (info("f64", f"[3,4{z}]"), i64([0])), openvino=F64_CPU.split(";")[0],
                         expected={"RDFT-9": "[2,4,2]", "IRDFT-9": "[4,4]"}.get(op, "[3,4,2]")))
    out.append(ShapeCase(op, "signal_size_negative", (info("f32", f"[4,6{z}]"), i64([1]), i64([-3])),
                         openvino=SS_NEGATIVE, expected=None))
    out.append(ShapeCase(op, "i32_indices", (info("f32", f"[4,6{z}]"), info("i32", [1], np.array([0], np.int32)),
                                             info("i32", [1], np.array([3], np.int32)))))
    return out


def cases():
    return [c for op in FFT_OPS for c in _fft(op)]


def shape_cases():
    return [c for op in FFT_OPS for c in _fft_shape_cases(op)]
