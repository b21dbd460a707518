"""Cases: type conversion and string ops. Convert and ConvertLike run every (source, destination)
pair on random values of the source type plus its edge values (rounding ties, integer limits,
values just outside the destination's range, NaN, +-inf); shape cases loosen the same shapes."""
from __future__ import annotations

import numpy as np

from ...types import element_type
from . import Case, ShapeCase, info
from ._gen import array, loosen, rng_for

SOURCES = ("boolean", "f64", "f32", "f16", "bf16", "f8e4m3", "f8e5m2", "i64", "i32", "i16", "i8", "i4",
           "u64", "u32", "u16", "u8", "u4")        # u1 inputs are held as u8 (and convert as u8 does)
DESTINATIONS = SOURCES + ("u1", "nf4")
FLOATS = ("f64", "f32", "f16", "bf16", "f8e4m3", "f8e5m2")

FLOAT_EDGES = [0.0, -0.0, 0.4, 0.5, -0.5, -0.6, 1.5, 2.5, -2.5, 7.5, 8.0, 15.5, 16.0, 17.0, 127.6, 128.0, 200.0,
               255.5, 256.0, 300.0, -128.5, -129.0, -200.0, 449.0, 464.0, 465.0, 1 + 2**-11, 1 + 2**-11 + 2**-20,
               1 + 3 * 2**-8, 1 + 2**-8 + 2**-20, 1 + 2**-4 + 2**-20, 65504.0, 65519.0, 65520.0, 61439.0, 6e-8,
               2**-10, 2**-17, 1e6, 2147483520.0, 3e9, -3e9, 1e10, -1e10, 1e19, -1e19, 1e30, -1e30,
               np.inf, -np.inf, np.nan]
INT_EDGES = [0, 1, -1, 7, 8, -8, -9, 15, 16, 127, 128, -128, -129, 255, 256, 2049, 32767, 32768, -32769, 65535,
             65536, 70000, -70000, 2**24 + 1, 2**31 - 1, -2**31, 2**31, 2**32 + 5, 2**40 + 3, -2**40, 2**63 - 1,
             -2**63, 2**64 - 1]

CPU_U1 = "the CPU plugin cannot produce u1 tensors; OpenVINO's reference evaluate is asked"
CPU_WIDE = ("the CPU plugin converts i64/u64/u32 through i32 and f64 through f32 (saturating); OpenVINO's "
            "reference evaluate is asked")
CPU_NARROW_INF = ("the CPU plugin saturates f16/bf16/f8 +-inf to the largest finite value before converting to an "
                  "integer; OpenVINO's reference evaluate (the C++ cast) is asked")
CPU_NAN_BOOL = "the CPU plugin converts NaN to false; the C++ cast (OpenVINO's reference evaluate) gives true"
CPU_INT_MIN_BOOL = "the CPU plugin converts -2^31 to false; OpenVINO's reference evaluate gives true"
BF16_ROUNDING = ("OpenVINO rounds integers and f64 to bf16 with its bfloat16 constructor, which truncates when the "
                 "result would be even (not round-to-nearest-even as it does for f32 -> bf16, and as ml_dtypes "
                 "does); asked with the input first narrowed to f32 (opref's own first step, exact for integers "
                 "up to 2^24), which the CPU plugin rounds to nearest even")


def _edges(et: str) -> np.ndarray:
    t = element_type(et)
    if et == "boolean":
        return np.array([True, False])
    if t.is_float:
        with np.errstate(over="ignore"):
            return np.array(FLOAT_EDGES, np.float64).astype(np.float32).astype(t.dtype) if t.bits < 64 else \
                np.array(FLOAT_EDGES, np.float64)
    if t.bits == 4:
        lo, hi = (-8, 7) if t.is_signed else (0, 15)
    else:
        lo, hi = np.iinfo(t.dtype).min, np.iinfo(t.dtype).max
    vals = [v for v in INT_EDGES if lo <= v <= hi]
    return np.array(vals, dtype=object).astype(np.int64 if et != "u64" else np.uint64).astype(t.dtype)


def _keep(x: np.ndarray, src: str, dst: str) -> np.ndarray:
    """Drops the values whose result OpenVINO leaves undefined and computes inconsistently: f32 -> u32
    outside [-2^31, 2^32) (its vector loop and scalar tail disagree), narrow-float -inf -> u32."""
    if dst != "u32" or src not in FLOATS:
        return x
    v = x.astype(np.float64)
    ok = (v >= -2.0**31) & (v < 2.0**32) if src == "f32" else v != -np.inf
    return x[ok]


def _routing(op, x, dst):
    """(why, oracle, oracle_cast) for a conversion of x to dst, where OpenVINO's CPU plugin is not faithful."""
    src = element_type(x).name
    v = x.astype(np.float64) if src != "boolean" else x.astype(np.float64)
    why, oracle, cast = [], "openvino", {}
    if dst == "u1":
        why.append(CPU_U1)
        oracle = "reference"
    wide_int = src in ("i64", "u64", "u32") or dst in ("i64", "u64", "u32")
    if src == "u64" and x.size:
        big = np.any(x > np.uint64(2**31 - 1))
    else:
        big = bool(np.any(np.abs(v[np.isfinite(v)]) >= 2.0**31)) if x.size else False
    if "f64" in (src, dst) and dst != "bf16" and src not in ("i64", "u64") and \
            (np.any(np.isinf(v)) or not np.array_equal(v.astype(np.float32).astype(np.float64), v, equal_nan=True)):
        why.append(CPU_WIDE)
        oracle = "reference"
    if (wide_int and (big or (src in FLOATS and not np.all(np.isfinite(v))))) or \
            (src == "f64" and np.any(np.isfinite(v) & (np.abs(v) > 3.4e38))):
        if CPU_WIDE not in why:
            why.append(CPU_WIDE)
        oracle = "reference"
    if dst == "boolean" and src in ("i64", "i32") and np.any(x == np.iinfo(np.int32).min):
        why.append(CPU_INT_MIN_BOOL)
        oracle = "reference"
    if src in ("f16", "bf16", "f8e4m3", "f8e5m2") and dst not in FLOATS + ("boolean",) and np.any(np.isinf(v)):
        why.append(CPU_NARROW_INF)
        oracle = "reference"
    if dst == "boolean" and src in FLOATS and np.any(np.isnan(v)):
        why.append(CPU_NAN_BOOL)
        oracle = "reference"
    if dst == "bf16" and src != "f32" and src not in ("f16", "bf16", "f8e4m3", "f8e5m2", "boolean"):
        why.append(BF16_ROUNDING)
        cast = {0: "f32"}
        oracle = "openvino"
    return "; ".join(why) or None, oracle, cast


def _case(op, id, x, dst, like=None):
    why, oracle, cast = _routing(op, x, dst)
    inputs = (x,) if like is None else (x, like)
    attrs = {"destination_type": dst} if like is None else {}
    return Case(op, id, inputs, attrs, openvino=why, oracle=oracle, oracle_cast=cast, exact=True)


def _pairs():
    for src in SOURCES:
        for dst in DESTINATIONS:
            if dst == "nf4" and src not in ("f32", "f16"):
                continue
            yield src, dst


def _convert_cases(op):
    rng = rng_for(op)
    out = []
    for i, (src, dst) in enumerate(_pairs()):
        if op == "ConvertLike-1" and (dst in ("u1", "nf4") or i % 3):
            continue     # a u1/nf4 `like` array is held as u8/u4; ConvertLike samples a third of the pairs
        shape = [int(rng.integers(1, 4)) for _ in range(int(rng.integers(1, 3)))]
        x = array(rng, src, shape, low=-300, high=300).reshape(-1)
        e = _edges(src)
        if dst == "nf4":   # NF4 edges: the table's neighbourhood, not the integer limits
            e = (np.concatenate([np.linspace(-1.3, 1.3, 27), [np.nan, np.inf, -np.inf]])
                 .astype(np.float32).astype(element_type(src).dtype))
        if op == "Convert-1":   # ConvertLike has no reference evaluate: random values only, on the CPU
            x = _keep(np.concatenate([x, e]), src, dst)
        like = array(rng, dst, [1]) if op == "ConvertLike-1" else None
        out.append(_case(op, f"{src}_to_{dst}_{x.size}", x, dst, like))
    # scalars and empty tensors, and weight-decompression shapes (Const u4/i4/u8/f16 -> f32/f16)
    for src, dst in (("f16", "f32"), ("u4", "f32"), ("i4", "f16"), ("u8", "f32"), ("f32", "i32"), ("bf16", "f32")):
        ml = array(rng, dst, [1]) if op == "ConvertLike-1" else None
        out.append(_case(op, f"scalar_{src}_to_{dst}", array(rng, src, []), dst, ml))
        out.append(_case(op, f"empty_{src}_to_{dst}", array(rng, src, [0, 3]), dst, ml))
        out.append(_case(op, f"weights_{src}_to_{dst}", array(rng, src, [4, 3, 2, 2]), dst, ml))
    return out


def _error_cases():
    x = np.zeros((2, 2), np.float32)
    return [
        Case("Convert-1", "error_to_string", (x,), {"destination_type": "string"}, error="destination_type string"),
        Case("Convert-1", "error_int_to_nf4", (np.zeros(3, np.int32),), {"destination_type": "nf4"},
             error="destination_type nf4 needs an f32 or f16 input"),
        Case("Convert-1", "error_f64_to_nf4", (np.zeros(3),), {"destination_type": "nf4"},
             error="destination_type nf4 needs an f32 or f16 input"),
        Case("Convert-1", "error_from_string", (np.array(["a"]),), {"destination_type": "f32"},
             error="input 'data' has element type string"),
        Case("Convert-1", "error_no_destination", (x,), {}, error="missing required attribute 'destination_type'"),
        Case("Convert-1", "error_bad_destination", (x,), {"destination_type": "fp32"},
             error="attribute 'destination_type' must be of kind element_type"),
        Case("ConvertLike-1", "error_like_string", (x, np.array(["a"])), error="input 'like' has element type string"),
    ]


def cases():
    return _convert_cases("Convert-1") + _convert_cases("ConvertLike-1") + _error_cases()


# --- shape cases -----------------------------------------------------------------------------------
def _shape_cases(op):
    rng = rng_for(op, 1)
    out = []
    for i, (src, dst) in enumerate(_pairs()):
        if i % 3:
            continue
        rank = int(rng.integers(0, 5))
        shape = [int(rng.integers(0, 5)) for _ in range(rank)]
        ps = loosen(rng, shape) if i % 4 else "..."
        ins = (info(src, ps),) if op == "Convert-1" else (info(src, ps), info(dst, loosen(rng, [2, 3])))
        if op == "ConvertLike-1" and dst in ("u1", "nf4"):
            continue
        out.append(ShapeCase(op, f"{i}_{src}_to_{dst}_{ps}", ins, {"destination_type": dst} if op == "Convert-1" else {}))
    for j, ps in enumerate(["[?,3]", "[1..4,?,2..]", "[...]", "[]", "[0]", "[..5]", "[2,3,4,5,6,7]"]):
        for dst in ("f32", "f16", "i8"):
            ins = (info("u4", ps),) if op == "Convert-1" else (info("u4", ps), info(dst, "[...]"))
            out.append(ShapeCase(op, f"fixed{j}_{dst}_{ps}", ins, {"destination_type": dst} if op == "Convert-1" else {}))
    return out


def shape_cases():
    return _shape_cases("Convert-1") + _shape_cases("ConvertLike-1")
