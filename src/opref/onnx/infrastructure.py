"""Graph infrastructure and state. Parameters, Constants and Results are the exporter's own
(export.py: graph inputs, initializers, graph outputs); here they lower for one-op use. ReadValue and
Assign keep a variable across runs, which an ONNX graph cannot."""
from __future__ import annotations

import numpy as np

from .builder import Unsupported

_STATE = "ONNX graphs keep no state between runs (no variables for ReadValue/Assign)"


def _identity(b, call):
    x = call.inputs[0]
    return b.node("Identity", [x])


def _constant(b, call):
    if call.node is None or call.node.value is None:
        return Unsupported("a Constant without its value")
    return b.const(np.asarray(call.node.value), call.outputs[0].element_type)


def _parameter(b, call):
    return Unsupported("a Parameter is a graph input: the model exporter makes it one")


LOWERINGS = {"Identity-16": _identity, "Result-1": _identity, "Constant-1": _constant, "Parameter-1": _parameter}
NO_ONNX = {"ReadValue-3": _STATE, "ReadValue-6": _STATE, "Assign-3": _STATE, "Assign-6": _STATE}
