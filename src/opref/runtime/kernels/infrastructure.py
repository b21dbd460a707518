"""Infrastructure kernels. Parameter and Constant have none: the executor feeds them."""
from __future__ import annotations

import numpy as np


def result(data):
    return data


def identity(data):
    return np.array(data, copy=True)


KERNELS = {"Result-1": result, "Identity-16": identity}
