"""opref: OpenVINO operators as data, with NumPy reference implementations."""
from .errors import OprefError
from .model import Model, load, save
from .opset import get_schema, list_schemas
from .runtime import infer_op, run_op
from .runtime.limits import limits
from .shapes import Dimension, PartialShape, TensorInfo
from .types import TypedArray, typed
from .conformance.model_compare import CompareResult, compare
from .conformance.model_reduce import ReduceResult, reduce_model
from .conformance.onnx_file import ExportResult, export_onnx
from .onnx.export import ExportError

__version__ = "0.1.0"
__all__ = ["OprefError", "get_schema", "list_schemas", "run_op", "infer_op", "load", "save", "Model",
           "PartialShape", "Dimension", "TensorInfo", "typed", "TypedArray", "compare", "CompareResult",
           "reduce_model", "ReduceResult", "export_onnx", "ExportResult", "ExportError", "limits"]
