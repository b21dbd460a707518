"""WHAT an op is: schemas as data and shape rules. Imports nothing from runtime, ir_xml or conformance."""
from .registry import get_schema, list_schemas, opset_table
from .schema import Attr, OpSchema, Port

__all__ = ["get_schema", "list_schemas", "opset_table", "Attr", "OpSchema", "Port"]
