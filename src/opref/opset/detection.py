"""Schemas and shape rules: the detection ops."""
from __future__ import annotations

from .detection_nms import OPS as _NMS
from .detection_roi import OPS as _ROI

from .detection_multiclass import OPS as _MULTICLASS
OPS = (*_NMS, *_ROI, *_MULTICLASS)
