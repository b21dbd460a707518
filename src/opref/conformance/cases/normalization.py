"""Cases for the normalization ops: sampled value cases over ranks, axes, attribute values and every
float element type; edges (constant input, zeros, NaN/Inf, empty tensors, eps 0); error cases; and
partial-shape cases (dynamic and interval dims, dynamic rank, unknown axes)."""
from __future__ import annotations

import dataclasses

import numpy as np

from ...types import element_type, element_type_of
from . import Case, ShapeCase, info
from ._gen import loosen, rng_for

FLOATS = ("f32", "f16", "bf16", "f64", "f32", "f8e4m3", "f8e5m2", "f32", "f16")
IDX_TYPES = ("i64", "i32")
ANY_INT = ("i64", "i32", "i8", "u8", "i16", "u16", "u32", "u64")


def _x(rng, et, shape, scale=1.0):
    t = element_type(et)
    v = rng.standard_normal(shape) * (2.0 if t.bits == 8 else 3.0) * scale
    return v.astype(np.float32).astype(t.dtype)


def _shape(rng, lo=1, hi=5, max_elems=240):
    while True:
        shape = [int(rng.integers(1, 4))] + [int(rng.integers(1, 5)) for _ in range(int(rng.integers(lo, hi)))]
        if np.prod(shape) <= max_elems:
            return shape


def _special(rng, et, shape):
    x = _x(rng, et, shape)
    flat = x.reshape(-1)
    flat[rng.integers(0, flat.size)] = np.nan
    if element_type(et).name != "f8e4m3":      # f8e4m3fn has no infinity
        flat[rng.integers(0, flat.size)] = np.inf
    return x


# --- per-op generators ----------------------------------------------------------------------------
def _bn_cases(rng, op):
    out = []
    for i in range(105):
        et = FLOATS[i % len(FLOATS)]
        shape = _shape(rng, 1, 4)
        c = shape[1]
        data = _x(rng, et, shape)
        gamma, beta, mean = _x(rng, et, [c]), _x(rng, et, [c]), _x(rng, et, [c])
        var = np.abs(_x(rng, et, [c])).astype(element_type(et).dtype)
        eps = float((1e-5, 1e-3, 0.5, 0.0)[i % 4]) if i % 4 != 3 else 1e-9
        ins = (gamma, beta, data, mean, var) if op.endswith("-1") else (data, gamma, beta, mean, var)
        out.append(Case(op, f"s{i:03d}_{len(shape)}d_{et}", ins, {"epsilon": eps}))
    order = (lambda d, g, b, m, v: (g, b, d, m, v)) if op.endswith("-1") else (lambda *a: a)
    c3 = lambda et="f32": _x(rng, et, [3])
    edges = [
        ("rank_2", _x(rng, "f32", [4, 3])),
        ("zero_variance_eps_0", _x(rng, "f32", [2, 3, 2])),
        ("nan_inf", _special(rng, "f32", [2, 3, 4])),
        ("empty_batch", np.zeros((0, 3, 2), np.float32)),
        ("rank_6", _x(rng, "f32", [1, 3, 2, 1, 2, 2])),
    ]
    for id, d in edges:
        var = np.zeros(3, np.float32) if id == "zero_variance_eps_0" else np.abs(c3()) + np.float32(0.1)
        eps = 0.0 if id == "zero_variance_eps_0" else 1e-5
        out.append(Case(op, id, order(d, c3(), c3(), c3(), var), {"epsilon": eps}))
    d = _x(rng, "f32", [2, 3, 4])
    out += [Case(op, "err_channels", order(d, _x(rng, "f32", [4]), c3(), c3(), c3()), {"epsilon": 1e-5},
                 error="must have as many elements as data has channels"),
            Case(op, "err_rank_1", order(_x(rng, "f32", [3]), c3(), c3(), c3(), c3()), {"epsilon": 1e-5},
                 error="data must have rank >= 2"),
            Case(op, "err_gamma_2d", order(d, _x(rng, "f32", [3, 1]), c3(), c3(), c3()), {"epsilon": 1e-5},
                 error="input 'gamma' must be 1-D"),
            Case(op, "err_negative_eps", order(d, c3(), c3(), c3(), c3()), {"epsilon": -1.0},
                 error="'epsilon' must be >= 0")]
    return out


def _mvn_axes(rng, rank):
    k = int(rng.integers(1, rank + 1))
    axes = sorted(rng.choice(rank, k, replace=False).tolist())
    return [a - rank if rng.random() < 0.3 else a for a in axes]


def _mvn6_cases(rng, op):
    out = []
    for i in range(110):
        et = FLOATS[i % len(FLOATS)]
        shape = _shape(rng, 0, 4)
        axes = _mvn_axes(rng, len(shape))
        it = IDX_TYPES[i % 2]
        attrs = {"normalize_variance": bool(i % 3), "eps": (1e-9, 1e-5, 0.1)[i % 3],
                 "eps_mode": ("inside_sqrt", "outside_sqrt")[(i // 2) % 2]}
        out.append(Case(op, f"s{i:03d}_{len(shape)}d_{et}", (_x(rng, et, shape), np.array(axes, element_type(it).dtype)),
                        attrs))
    a = {"normalize_variance": True, "eps": 1e-5, "eps_mode": "inside_sqrt"}
    edges = [
        ("constant_input", np.full((2, 3, 4), 1.5, np.float32), [2], a),
        ("constant_outside_sqrt", np.full((2, 3, 4), -2.0, np.float32), [1, 2], {**a, "eps_mode": "outside_sqrt"}),
        ("zeros", np.zeros((1, 2, 5), np.float32), [2], a),
        ("nan_inf", _special(rng, "f32", [2, 3, 4]), [2], a),
        ("empty_axes", _x(rng, "f32", [2, 3]), [], a),
        ("all_axes_unsorted", _x(rng, "f32", [2, 3, 4]), [2, 0, 1], a),
        ("negative_axes", _x(rng, "f32", [2, 3, 4, 2]), [-1, -3], a),
        ("empty_tensor", np.zeros((0, 3, 4), np.float32), [2], a),
        ("layer_norm_like", _x(rng, "f32", [2, 5, 8]), [-1], {**a, "eps": 1e-12}),
        ("f16_large", _x(rng, "f16", [2, 3, 16], 100.0), [2], a),
        ("scalar_data", np.array(3.0, np.float32), [], a),
    ]
    out += [Case(op, id, (d, np.array(ax, np.int64)), at) for id, d, ax, at in edges]
    d = _x(rng, "f32", [2, 3, 4])
    out += [Case(op, "err_axis_range", (d, np.array([3])), a, error="out of range"),
            Case(op, "err_axes_2d", (d, np.array([[1, 2]])), a, error="must be 1-D"),
            Case(op, "repeated_axes", (d, np.array([1, -2, 2])), a)]
    return out


def _mvn1_cases(rng, op):
    out = []
    for i in range(110):
        et = FLOATS[i % len(FLOATS)]
        shape = _shape(rng, 1, 4)
        attrs = {"eps": (1e-9, 1e-5, 0.1)[i % 3], "normalize_variance": bool(i % 3),
                 "across_channels": bool((i // 3) % 2)}
        if i % 4 == 3 and len(shape) > 2:
            # OpenVINO's CPU plugin reads reduction_axes as across_channels (whether they hold axis 1) and
            # normalizes over 1.. or 2..: those two forms are checked here, others in test_normalization.py
            attrs["reduction_axes"] = list(range(1 if attrs["across_channels"] else 2, len(shape)))
        out.append(Case(op, f"s{i:03d}_{len(shape)}d_{et}", (_x(rng, et, shape),), attrs))
    a = {"eps": 1e-9, "normalize_variance": True, "across_channels": True}
    edges = [("constant_input", np.full((2, 3, 4), 1.5, np.float32), a),
             ("nan_inf", _special(rng, "f32", [2, 3, 4]), a),
             ("instance_norm", _x(rng, "f32", [2, 3, 4, 5]), {**a, "across_channels": False}),
             ("reduction_axes_wins", _x(rng, "f32", [2, 3, 4]), {**a, "across_channels": False,
                                                                 "reduction_axes": [1, 2]}),
             ("mean_only", _x(rng, "f32", [2, 3, 4]), {**a, "normalize_variance": False})]
    out += [Case(op, id, (d,), at) for id, d, at in edges]
    out += [Case(op, "err_reduction_axes_range", (_x(rng, "f32", [2, 3]),), {**a, "reduction_axes": [2]},
                 error="out of range")]
    return out


def _normalize_l2_cases(rng, op):
    out = []
    for i in range(110):
        et = FLOATS[i % len(FLOATS)]
        shape = _shape(rng, 0, 4)
        # over no axes OpenVINO's CPU plugin follows the spec (1 for non-zero elements) for data of rank
        # >= 2 only; 1-D data over no axes is checked in tests/test_normalization.py
        axes = _mvn_axes(rng, len(shape)) if i % 7 or len(shape) < 2 else []
        it = ANY_INT[i % len(ANY_INT)]
        if it[0] == "u":
            axes = [a % len(shape) for a in axes]
        attrs = {"eps": (1e-10, 1e-4, 0.5)[i % 3], "eps_mode": ("add", "max")[(i // 3) % 2]}
        ax = np.array(axes, element_type(it).dtype)
        if i % 11 == 5 and len(axes) == 1:
            ax = ax.reshape(())                                    # a scalar axis
        out.append(Case(op, f"s{i:03d}_{len(shape)}d_{et}_{it}", (_x(rng, et, shape), ax), attrs))
    a = {"eps": 1e-6, "eps_mode": "add"}
    edges = [("zeros_add", np.zeros((2, 3), np.float32), [1], a),
             ("zeros_max", np.zeros((2, 3), np.float32), [1], {**a, "eps_mode": "max"}),
             ("nan_inf", _special(rng, "f32", [2, 3, 4]), [1], a),
             ("all_axes", _x(rng, "f32", [2, 3, 4]), [0, 1, 2], a),
             ("empty_axes", _x(rng, "f32", [2, 3]), [], {**a, "eps_mode": "max"}),
             ("empty_tensor", np.zeros((0, 4), np.float32), [1], a),
             ("tiny_values_max", _x(rng, "f32", [2, 4], 1e-4), [1], {"eps": 1e-3, "eps_mode": "max"})]
    out += [Case(op, id, (d, np.array(ax, np.int64)), at) for id, d, ax, at in edges]
    out += [Case(op, "err_axis_range", (_x(rng, "f32", [2, 3]), np.array([2])), a, error="out of range"),
            Case(op, "err_axes_2d", (_x(rng, "f32", [2, 3]), np.array([[1]])), a, error="scalar or 1-D")]
    return out


def _grn_cases(rng, op):
    out = []
    for i in range(105):
        et = FLOATS[i % len(FLOATS)]
        shape = _shape(rng, 1, 4)
        out.append(Case(op, f"s{i:03d}_{len(shape)}d_{et}", (_x(rng, et, shape),), {"bias": (1e-4, 1.0, 0.5)[i % 3]}))
    out += [Case(op, "zeros", (np.zeros((2, 3, 2), np.float32),), {"bias": 1e-6}),
            Case(op, "nan_inf", (_special(rng, "f32", [2, 3, 4]),), {"bias": 1.0}),
            Case(op, "err_rank_5", (_x(rng, "f32", [1, 2, 2, 2, 2]),), {"bias": 1.0}, error="rank 2, 3 or 4"),
            Case(op, "err_rank_1", (_x(rng, "f32", [3]),), {"bias": 1.0}, error="rank 2, 3 or 4")]
    return out


def _group_norm_cases(rng, op):
    out = []
    for i in range(110):
        et = FLOATS[i % len(FLOATS)]
        g = int(rng.integers(1, 4))
        shape = [int(rng.integers(1, 3)), g * int(rng.integers(1, 4))] + [int(rng.integers(1, 5))
                                                                        for _ in range(int(rng.integers(0, 3)))]
        c = shape[1]
        out.append(Case(op, f"s{i:03d}_{len(shape)}d_{et}_g{g}",
                        (_x(rng, et, shape), _x(rng, et, [c]), _x(rng, et, [c])),
                        {"num_groups": g, "epsilon": (1e-5, 1e-3, 0.5)[i % 3]}))
    a = {"num_groups": 2, "epsilon": 1e-5}
    c4 = lambda: _x(rng, "f32", [4])
    out += [Case(op, "constant", (np.full((2, 4, 3), 2.0, np.float32), c4(), c4()), a),
            Case(op, "nan_inf", (_special(rng, "f32", [2, 4, 3]), c4(), c4()), a),
            Case(op, "groups_eq_channels", (_x(rng, "f32", [2, 4, 5]), c4(), c4()), {**a, "num_groups": 4}),
            Case(op, "err_groups", (_x(rng, "f32", [2, 4, 3]), c4(), c4()), {**a, "num_groups": 3},
                 error="must be a multiple of num_groups"),
            Case(op, "err_scale_length", (_x(rng, "f32", [2, 4, 3]), _x(rng, "f32", [3]), c4()), a,
                 error="input 'scale' must have as many elements"),
            Case(op, "err_zero_groups", (_x(rng, "f32", [2, 4, 3]), c4(), c4()), {**a, "num_groups": 0},
                 error="'num_groups' must be > 0")]
    return out


def _lrn_cases(rng, op):
    out = []
    for i in range(110):
        et = FLOATS[i % len(FLOATS)]
        shape = _shape(rng, 1, 4)
        # OpenVINO's CPU plugin implements LRN across channels (axes [1]) and within a channel (axes
        # [2, ..., r-1]), with odd sizes (a centered region); other axes and even sizes are checked in
        # tests/test_normalization.py against the definition
        axes = [1] if i % 2 or len(shape) < 3 else list(range(2, len(shape)))
        attrs = {"alpha": (1e-4, 0.5, 2.0)[i % 3], "beta": (0.75, 0.5, 1.0)[(i // 3) % 3],
                 "bias": (1.0, 2.0, 3.0)[i % 3], "size": int(rng.choice([1, 3, 5]))}
        # (OpenVINO's CPU plugin is wrong for a bias that is not a whole number: tests/test_normalization.py
        # checks such biases by hand)
        it = ANY_INT[i % len(ANY_INT)]
        if it[0] == "u":
            axes = [a % len(shape) for a in axes]
        out.append(Case(op, f"s{i:03d}_{len(shape)}d_{et}_{it}",
                        (_x(rng, et, shape), np.array(axes, element_type(it).dtype)), attrs))
    a = {"alpha": 1e-4, "beta": 0.75, "bias": 1.0, "size": 5}
    out += [Case(op, "alexnet", (_x(rng, "f32", [1, 8, 3, 3]), np.array([1])), a),
            Case(op, "spatial", (_x(rng, "f32", [1, 2, 5, 5]), np.array([2, 3])), {**a, "size": 3}),
            Case(op, "size_larger_than_dim", (_x(rng, "f32", [1, 3, 2]), np.array([1])), {**a, "size": 9}),
            Case(op, "nan_inf", (_special(rng, "f32", [1, 4, 3]), np.array([1])), a),
            Case(op, "err_axis_range", (_x(rng, "f32", [1, 4, 3]), np.array([3])), a, error="out of range")]
    return out


GENERATORS = {"BatchNormInference-1": _bn_cases, "BatchNormInference-5": _bn_cases, "MVN-1": _mvn1_cases,
              "MVN-6": _mvn6_cases, "NormalizeL2-1": _normalize_l2_cases, "GRN-1": _grn_cases,
              "GroupNormalization-12": _group_norm_cases, "LRN-1": _lrn_cases}


T_PORTS = {"BatchNormInference-1": (0, 1, 2, 3, 4), "BatchNormInference-5": (0, 1, 2, 3, 4), "MVN-1": (0,),
           "MVN-6": (0,), "NormalizeL2-1": (0,), "GRN-1": (0,), "GroupNormalization-12": (0, 1, 2), "LRN-1": (0,)}
NO_KERNEL = ("OpenVINO's CPU plugin has no {op} kernel for {et}; the inputs are widened to f32 (opref also "
             "computes {et} in f32 and rounds once)")
F64_AS_F32 = "OpenVINO's CPU plugin computes f64 in f32: compared at f32 tolerance"
BF16_LOSSY = ("OpenVINO's CPU plugin computes bf16 GroupNormalization in bf16 (errors beyond bf16 rounding of "
              "the result); the inputs are widened to f32, as opref computes")
CPU_EMPTY_AXES = ("OpenVINO's CPU plugin returns the input unchanged for MVN-6 over no axes; the mean over no "
                  "axes is each element itself, so the spec gives 0 (as OpenVINO's reference does)")


def _route(case):
    if case.error is not None:
        return case
    data = case.inputs[2 if case.op == "BatchNormInference-1" else 0]
    et = element_type_of(data)
    ports = T_PORTS[case.op]
    if case.op == "MVN-6" and np.asarray(case.inputs[1]).size == 0:
        return dataclasses.replace(case, openvino=CPU_EMPTY_AXES, oracle="reference")
    if et in ("f8e4m3", "f8e5m2") or (case.op == "NormalizeL2-1" and et == "f64"):
        return dataclasses.replace(case, openvino=NO_KERNEL.format(op=case.op, et=et),
                                   oracle_cast={p: "f32" for p in ports},
                                   tolerance="f32" if et == "f64" else None)
    if et == "f64":
        return dataclasses.replace(case, openvino=F64_AS_F32, tolerance="f32")
    if case.op == "GroupNormalization-12" and et == "bf16":
        return dataclasses.replace(case, openvino=BF16_LOSSY, oracle_cast={p: "f32" for p in ports})
    return case


def cases():
    out = []
    for op, gen in GENERATORS.items():
        out += gen(rng_for(op), op)
    return [_route(c) for c in out]


# --- shape cases ----------------------------------------------------------------------------------
def _data_info(rng, shape, et="f32"):
    return info(et, None if rng.random() < 0.08 else loosen(rng, shape))


def _shape_cases_for(rng, op):
    out = []
    for i in range(110):
        shape = _shape(rng, 1, 5, 10**6)
        rank = len(shape)
        c = shape[1]
        tag = ""
        if op.startswith("BatchNormInference"):
            cs = [c] * 4
            if rng.random() < 0.1:
                cs[int(rng.integers(0, 4))] = c + 1
                tag = "_bad_c"
            ins = [info("f32", [_dim_near(rng, v)]) for v in cs]
            d = _data_info(rng, shape)
            ins = [ins[0], ins[1], d, ins[2], ins[3]] if op.endswith("-1") else [d] + ins
            out.append(ShapeCase(op, f"p{i:03d}_{rank}d{tag}", tuple(ins), {"epsilon": 1e-5}))
        elif op in ("MVN-6", "NormalizeL2-1", "LRN-1"):
            axes = _mvn_axes(rng, rank)
            if rng.random() < 0.1:
                axes = axes + [rank]
                tag = "_range"
            known = rng.random() < 0.7
            it = IDX_TYPES[i % 2]
            ax = info(it, [len(axes)], np.array(axes, element_type(it).dtype)) if known else \
                info(it, [_dim_near(rng, len(axes))])
            attrs = {"MVN-6": {"normalize_variance": True, "eps": 1e-5, "eps_mode": "inside_sqrt"},
                     "NormalizeL2-1": {"eps": 1e-5, "eps_mode": "add"},
                     "LRN-1": {"alpha": 1e-4, "beta": 0.75, "bias": 1.0, "size": 3}}[op]
            out.append(ShapeCase(op, f"p{i:03d}_{rank}d{tag}{'_known' if known else ''}",
                                 (_data_info(rng, shape), ax), attrs))
        elif op == "MVN-1":
            attrs = {"eps": 1e-9, "across_channels": bool(i % 2), "normalize_variance": True}
            if i % 3 == 0:
                attrs["reduction_axes"] = sorted(a % rank for a in _mvn_axes(rng, rank))
            out.append(ShapeCase(op, f"p{i:03d}_{rank}d", (_data_info(rng, shape),), attrs))
        elif op == "GRN-1":
            shape = shape[:4] if rng.random() < 0.9 else shape + [1] * (5 - rank)
            out.append(ShapeCase(op, f"p{i:03d}_{len(shape)}d", (_data_info(rng, shape),), {"bias": 1.0}))
        elif op == "GroupNormalization-12":
            g = int(rng.integers(1, 4))
            shape[1] = g * int(rng.integers(1, 4))
            if rng.random() < 0.1:
                shape[1] += 1
                tag = "_bad_groups"
            c = shape[1]
            out.append(ShapeCase(op, f"p{i:03d}_{rank}d{tag}",
                                 (_data_info(rng, shape), info("f32", [_dim_near(rng, c)]),
                                  info("f32", [_dim_near(rng, c)])), {"num_groups": g, "epsilon": 1e-5}))
    return out


def _dim_near(rng, n):
    """n, or a dynamic dim, or an interval around n."""
    r = rng.random()
    return n if r < 0.5 else -1 if r < 0.75 else (max(n - 1, 0), n + 2)


def _shape_edges(op):
    f = lambda s, v=None, et="f32": info(et, s, v)
    out = []
    if op.startswith("BatchNormInference"):
        order = (lambda d, g, b, m, v: (g, b, d, m, v)) if op.endswith("-1") else (lambda *a: a)
        edges = [("channels_from_inputs", [2, -1, 4], [3], [-1], [(2, 5)], [-1]),
                 ("dynamic_rank_data", None, [3], [3], [3], [3]),
                 ("dynamic_rank_all", None, None, None, None, None),
                 ("interval_merge", [2, (1, 4), 4], [(3, 8)], [-1], [-1], [-1]),
                 ("interval_disjoint", [2, (1, 2), 4], [(3, 8)], [-1], [-1], [-1]),
                 ("data_rank_1", [3], [3], [3], [3], [3]),
                 ("f16", [2, 3], [3], [3], [3], [3])]
        for id, d, g, b, m, v in edges:
            et = "f16" if id == "f16" else "f32"
            out.append(ShapeCase(op, id, order(f(d, et=et), f(g, et=et), f(b, et=et), f(m, et=et), f(v, et=et)),
                                 {"epsilon": 1e-5}))
    elif op in ("MVN-6", "NormalizeL2-1", "LRN-1"):
        attrs = {"MVN-6": {"normalize_variance": True, "eps": 1e-5, "eps_mode": "outside_sqrt"},
                 "NormalizeL2-1": {"eps": 1e-5, "eps_mode": "max"},
                 "LRN-1": {"alpha": 1e-4, "beta": 0.75, "bias": 1.0, "size": 3}}[op]
        edges = [("dynamic_rank_known_axes", None, f([1], np.array([1]), "i64")),
                 ("dynamic_rank_unknown_axes", None, f([-1], et="i64")),
                 ("axes_dynamic_rank", [2, 3, 4], f(None, et="i64")),
                 ("axes_2d", [2, 3, 4], f([1, 1], et="i64")),
                 ("scalar_axis", [2, 3, 4], f([], np.array(1), "i64")),
                 ("axis_out_of_range", [2, 3, 4], f([1], np.array([-4]), "i64")),
                 ("duplicate_axes", [2, 3, 4], f([2], np.array([1, -2]), "i64")),
                 ("interval_data", [(1, 5), -1, (2, None)], f([1], np.array([2], np.int32), "i32"))]
        out += [ShapeCase(op, id, (f(d), a), attrs) for id, d, a in edges]
    elif op == "MVN-1":
        a = {"eps": 1e-9, "across_channels": False, "normalize_variance": True}
        out += [ShapeCase(op, "dynamic_rank", (f(None),), a),
                ShapeCase(op, "dynamic_rank_axes", (f(None),), {**a, "reduction_axes": [1, 2]}),
                ShapeCase(op, "axes_out_of_range", (f([2, 3]),), {**a, "reduction_axes": [2]}),
                ShapeCase(op, "rank_1", (f([5]),), a)]
    elif op == "GRN-1":
        out += [ShapeCase(op, id, (f(s),), {"bias": 1.0}) for id, s in
                (("dynamic_rank", None), ("rank_1", [3]), ("rank_5", [1, 2, 3, 4, 5]), ("interval", [(1, 3), -1]))]
    elif op == "GroupNormalization-12":
        a = {"num_groups": 2, "epsilon": 1e-5}
        edges = [("dynamic_rank", None, [4], [4]), ("channels_from_scale", [2, -1, 3], [4], [-1]),
                 ("channels_interval", [2, (1, 8), 3], [-1], [(4, 10)]), ("channels_odd", [2, 5, 3], [5], [5]),
                 ("scale_mismatch", [2, 4, 3], [3], [4]), ("rank_1", [4], [4], [4]),
                 ("scale_2d", [2, 4], [4, 1], [4])]
        out += [ShapeCase(op, id, (f(d), f(s), f(b)), a) for id, d, s, b in edges]
    return out


AXES_RANGE = ("OpenVINO's shape inference does not check {what} against the data rank; the spec allows "
              "[-r, r-1], so opref rejects it")
UNIQUE = "OpenVINO's shape inference accepts repeated NormalizeL2 axes; the spec asks for unique ones"


def _spec_mark(case: ShapeCase) -> ShapeCase:
    """Shape cases where OpenVINO's shape inference accepts what the spec rejects."""
    data = case.inputs[0].shape
    if not data.rank_is_static:
        return case
    r = len(data)
    if case.op == "MVN-1":
        bad = any(not -r <= a < r for a in case.attrs.get("reduction_axes", ()))
        what = "MVN-1 reduction_axes"
    else:
        axes = case.inputs[1].value if case.op in ("MVN-6", "NormalizeL2-1", "LRN-1") else None
        if axes is None:
            return case
        axes = np.asarray(axes).reshape(-1).tolist()
        if case.op == "NormalizeL2-1" and len({a % r for a in axes if -r <= a < r}) < len(axes) and \
                all(-r <= a < r for a in axes):
            return dataclasses.replace(case, openvino=UNIQUE, expected=None)
        # OpenVINO checks LRN axes against the rank but lets negative ones below -r through
        bad = any(not -r <= a < r for a in axes) if case.op == "MVN-6" else \
            case.op == "LRN-1" and any(a < -r for a in axes)
        what = f"{case.op} axes"
    return dataclasses.replace(case, openvino=AXES_RANGE.format(what=what), expected=None) if bad else case


def shape_cases():
    out = []
    for op in GENERATORS:
        out += _shape_edges(op) + _shape_cases_for(rng_for(op, 1), op)
    return [_spec_mark(c) for c in out]
