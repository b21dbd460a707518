"""A user backend for tests/test_conformance.py, plugged in as `toy_backend:ToyBackend` (the tests put
tests/ on PYTHONPATH): opref's executor, misbehaving on the cases named in environment variables
(comma-separated case ids), so that each status of the runner is met on purpose."""
from __future__ import annotations

import os
import signal
import time

import numpy as np

import opref
from opref.conformance.backends import Backend, NotImplementedByBackend


def _ids(name):
    return set(filter(None, os.environ.get(name, "").split(",")))


class ToyBackend(Backend):
    name = "toy"
    formats = ("ir",)

    def __init__(self, device=None):
        self.device = device

    def version(self):
        return "0.0.1"

    def run(self, case):
        if case.id in _ids("TOY_CRASH"):
            os._exit(3)                                # the process dies without a word
        if case.id in _ids("TOY_SEGV"):
            os.kill(os.getpid(), signal.SIGSEGV)       # as a native crash would
        if case.id in _ids("TOY_HANG"):
            time.sleep(3600)
        if case.id in _ids("TOY_NOT_IMPLEMENTED"):
            raise NotImplementedByBackend("toy: not this one")
        if case.id in _ids("TOY_RAISE"):
            raise RuntimeError("toy: a backend error")
        outs = list(opref.load(case.ir_path).run(case.inputs).values())
        if case.id in _ids("TOY_WRONG"):
            outs = [np.asarray(y) + np.asarray(1, y.dtype) for y in outs]
        return outs


class Broken:
    """A backend class that cannot be built (harness error before any case)."""
    def __init__(self):
        raise RuntimeError("no device here")
