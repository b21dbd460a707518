"""NumPy reference kernels: the detection ops."""
from __future__ import annotations

from .detection_nms import KERNELS as _NMS
from .detection_roi import KERNELS as _ROI

KERNELS = {**_NMS, **_ROI}
