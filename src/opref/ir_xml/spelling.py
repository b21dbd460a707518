"""IR spelling of op versions: the `type` and `version` attributes OpenVINO writes for each op
version (from the opset table), in one place."""
from __future__ import annotations

from ..errors import UnknownOpError
from ..opset.registry import opset_table
from ..opset.schema import OpSchema


def ir_type_version(schema: OpSchema) -> tuple[str, str]:
    entry = opset_table().get(schema.versioned_name)
    if entry is None or schema.domain:
        raise UnknownOpError(f"{schema.versioned_name}: has no OpenVINO IR spelling (not an OpenVINO op)")
    return entry.ir_type, entry.ir_version
