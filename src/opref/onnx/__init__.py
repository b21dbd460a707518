"""Op version -> ONNX: a symbolic lowering per op version (schema, bound attributes, input Values with
partial shapes and known constant values -> ONNX nodes, or `Unsupported(reason)`), one module per
category, gathered by `registry`; `single.case_model` makes a runnable one-op model of a case (the
conformance suite and the onnxruntime oracle use it)."""
from .builder import DEFAULT_OPSET, Builder, Call, Unsupported, Value, kernel_types
from .registry import has_lowering, lower, status
from .single import OnnxCase, case_model

__all__ = ["DEFAULT_OPSET", "Builder", "Call", "OnnxCase", "Unsupported", "Value", "case_model", "has_lowering",
           "kernel_types", "lower", "status"]
