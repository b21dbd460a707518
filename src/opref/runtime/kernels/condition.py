"""Condition and selection kernels: Select, Bucketize, NonZero."""
from __future__ import annotations

import numpy as np

from ._elementwise import broadcast_pair


def select(cond, then, else_, *, auto_broadcast):
    if auto_broadcast == "pdpd":          # else and cond are aligned to then, which gives the shape
        else_ = broadcast_pair(then, else_, "pdpd")[1]
        cond = broadcast_pair(then, cond, "pdpd")[1]
    return np.where(cond, then, else_)


KERNELS = {"Select-1": select}
