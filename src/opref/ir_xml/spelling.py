"""IR spelling, in one place: the `type`/`version` attributes OpenVINO writes for each op version
(from the opset table), how the reader maps them back (case-insensitive type, `version="opsetN"`
selecting the op version that opset contains, OpenVINO's redirects), and precision names."""
from __future__ import annotations

import functools
import re

from ..errors import UnknownOpError
from ..opset.registry import get_schema, opset_table
from ..opset.schema import OpSchema
from ..types import ELEMENT_TYPES

# OpenVINO's reader redirects these (type, version) pairs to another opset (ir_deserializer.cpp).
_REDIRECTS = {("mvn", "opset1"): "opset2", ("roipooling", "opset1"): "opset2", ("reorgyolo", "opset1"): "opset2"}
_EXPERIMENTAL = ("experimental", "extension")
_MAX_OPSET = 17


def ir_type_version(schema: OpSchema) -> tuple[str, str]:
    entry = opset_table().get(schema.versioned_name)
    if entry is None or schema.domain:
        raise UnknownOpError(f"{schema.versioned_name}: has no OpenVINO IR spelling (not an OpenVINO op)")
    return entry.ir_type, entry.ir_version


@functools.cache
def _by_type_and_opset() -> dict[tuple[str, str], str]:
    """(lower-case IR type or op name, "opsetN") -> versioned name of the op version in that opset."""
    index = {}
    for e in opset_table().values():
        for opset in e.opsets:
            index[(e.ir_type.lower(), opset)] = e.versioned_name
            index[(e.name.lower(), opset)] = e.versioned_name
    return index


def resolve_op(ir_type: str | None, version: str | None) -> OpSchema:
    """The schema a layer's `type` and `version` name, as OpenVINO's reader resolves them."""
    if not ir_type:
        raise UnknownOpError("a layer has no 'type'")
    t, v = ir_type.lower(), (version or "").strip().lower()
    v = _REDIRECTS.get((t, v), v)
    if v in _EXPERIMENTAL and (t.startswith("experimentaldetectron") or t in ("grucell", "rnncell", "proposal")):
        v = "opset6"
    m = re.fullmatch(r"opset(\d+)", v)
    if not m or not 1 <= int(m.group(1)) <= _MAX_OPSET:
        raise UnknownOpError(f"{ir_type} from unsupported opset {version!r}")
    name = _by_type_and_opset().get((t, v))
    if name is None:
        raise UnknownOpError(f"opset {v} has no operation of type {ir_type}")
    try:
        return get_schema(name)
    except UnknownOpError:
        raise UnknownOpError(f"{name} ({ir_type}/{v}) is not implemented by opref") from None


# Enum values OpenVINO's IR spells differently from the spec, which opref's schemas follow:
# (versioned name, attribute) -> {spec value: IR value}. The writer writes the IR's spelling (the only
# one OpenVINO reads); the reader takes either, without regard to case.
_VALUE_SPELLINGS = {("OneHot-16", "negative_indices_mode"): {"ignore-negative": "ignore_negative"}}


def ir_attr_text(schema: OpSchema, attr, value) -> str:
    """An attribute's value as IR text, in OpenVINO's spelling."""
    text = attr.type.format(value)
    return _VALUE_SPELLINGS.get((schema.versioned_name, attr.name), {}).get(text, text)


def schema_attr_text(schema: OpSchema, name: str, text: str) -> str:
    """IR text of an attribute with OpenVINO's spelling of an enum value replaced by the spec's."""
    for spec, ir in _VALUE_SPELLINGS.get((schema.versioned_name, name), {}).items():
        if text.strip().lower() == ir.lower():
            return spec
    return text


@functools.cache
def _precisions() -> dict[str, str]:
    out = {}
    for name, t in ELEMENT_TYPES.items():
        out[t.precision.upper()] = name
        out[name.upper()] = name
    out["U1"] = "u1"
    return out


UNDECLARED = ("UNSPECIFIED", "UNDEFINED", "DYNAMIC")


def element_type_of_precision(precision: str) -> str | None:
    """"FP32" -> "f32", "BIN" -> "u1", "BOOL" -> "boolean"; also accepts element type names."""
    return _precisions().get(precision.strip().upper())
