"""Shape-manipulating kernels. Squeeze and Unsqueeze take their output shape from the shape
rules' own dimension arithmetic (one reading of OpenVINO's quirks, in opset/shape.py)."""
from __future__ import annotations

import math

import numpy as np

from ...errors import InputError
from ...opset.shape import squeeze_dims, unsqueeze_dims
from ...shapes import Dimension
from ..limits import check_holdable


def _ints(x):
    return [int(v) for v in np.asarray(x).reshape(-1)]


def _dims(shape):
    return [Dimension(n, n) for n in shape]


def reshape(data, target_shape, *, special_zero):
    return _reshape_to(target_shape, special_zero=special_zero)(data)


def _reshape_to(target_shape, *, special_zero):
    """Reshape bound to its target shape (PREPARED): kernel(data, ...) gives data in that shape, its 0s (with
    special_zero) copying data's dims and its -1 taking the rest (worked out once per shape of data)."""
    pattern = np.asarray(target_shape).reshape(-1).tolist()          # Python ints (one call, not one per value)
    copied = {i for i, v in enumerate(pattern) if v == 0} if special_zero and 0 in pattern else ()
    free = pattern.index(-1) if -1 in pattern else None
    shapes = {}                                                      # data's shape -> the output's

    def kernel(data, *_, **__):
        shape = shapes.get(data.shape)
        if shape is not None:
            return data.reshape(shape)
        shape = [data.shape[i] if i in copied else v for i, v in enumerate(pattern)] if copied else list(pattern)
        if free is not None:
            # dims copied by a 0 cancel; when the other dims multiply to 0, -1 is 1 (the shape rule's reading)
            known = math.prod(v for i, v in enumerate(shape) if i != free and i not in copied)
            total = math.prod(d for i, d in enumerate(data.shape) if i not in copied)
            shape[free] = total // known if known else 1
        if math.prod(shape) != data.size:
            # OpenVINO's shape inference does not count the elements when a 0 is copied ([3, 1, 1, 2] with
            # [0, 2, 3] gives [3, 2, 3]); no tensor of that shape holds the data's elements
            raise InputError(f"Reshape-1: cannot reshape data {list(data.shape)} ({data.size} elements) to {shape} "
                             f"({math.prod(shape)} elements)")
        if not data.size:       # (dims this large the shape rule only bounds: no static output to check before)
            check_holdable("Reshape-1", "output 'output'", shape, data.dtype)
        elif len(shapes) < 8:
            shapes[data.shape] = tuple(shape)
        return data.reshape(shape)
    return kernel


def shape_of_1(data):
    return np.asarray(data.shape, dtype=np.int64)


def shape_of_3(data, *, output_type):
    return np.asarray(data.shape, dtype=np.int64).astype(np.int32 if output_type == "i32" else np.int64)


def _squeezed(op, shape, axes):
    return squeeze_dims(op, _dims(shape), axes).to_shape()


def _unsqueezed(op, shape, axes):
    return [d.lo for d in unsqueeze_dims(op, _dims(shape), axes)]


def squeeze_1(data, axes=None):
    return data.reshape(_squeezed("Squeeze-1", data.shape, None if axes is None else _ints(axes)))


def squeeze_15(data, axes=None, *, allow_axis_skip):
    # allow_axis_skip only changes inference on dynamic dims; on concrete shapes it is Squeeze-1
    return data.reshape(_squeezed("Squeeze-15", data.shape, None if axes is None else _ints(axes)))


def unsqueeze(data, axes):
    return data.reshape(_unsqueezed("Unsqueeze-1", data.shape, _ints(axes)))


def _bound_axes(op, out_shape):
    """Squeeze/Unsqueeze bound to their axes (PREPARED): out_shape(op, input shape, axes) is worked out once per
    input shape (the shape rules' dimension arithmetic costs microseconds; the reshape, a fraction of one)."""
    def prepare(axes, **attrs):
        axes, shapes = _ints(axes), {}

        def kernel(data, *_, **__):
            shape = shapes.get(data.shape)
            if shape is None:
                if len(shapes) >= 8:
                    shapes.clear()
                shape = shapes[data.shape] = out_shape(op, data.shape, axes)
            return data.reshape(shape)
        return kernel
    return prepare


# Reshape, Squeeze and Unsqueeze bound to a target shape or axes that the run plan fixes (kernels/__init__.py)
PREPARED = {"Reshape-1": ((1,), _reshape_to), "Squeeze-1": ((1,), _bound_axes("Squeeze-1", _squeezed)),
            "Squeeze-15": ((1,), _bound_axes("Squeeze-15", _squeezed)),
            "Unsqueeze-1": ((1,), _bound_axes("Unsqueeze-1", _unsqueezed))}

KERNELS = {"Reshape-1": reshape, "ShapeOf-1": shape_of_1, "ShapeOf-3": shape_of_3, "Squeeze-1": squeeze_1,
           "Squeeze-15": squeeze_15, "Unsqueeze-1": unsqueeze}
