"""Cases for the detection ops."""
from __future__ import annotations

from . import detection_nms as _nms
from . import detection_roi as _roi
from . import detection_multiclass as _multiclass


def cases():
    return [*_nms.cases(), *_roi.cases(), *_multiclass.cases()]


def shape_cases():
    return [*_nms.shape_cases(), *_roi.shape_cases(), *_multiclass.shape_cases()]
