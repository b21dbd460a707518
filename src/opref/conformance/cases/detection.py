"""Cases for the detection ops."""
from __future__ import annotations

from . import detection_nms as _nms
from . import detection_roi as _roi


def cases():
    return [*_nms.cases(), *_roi.cases()]


def shape_cases():
    return [*_nms.shape_cases(), *_roi.shape_cases()]
