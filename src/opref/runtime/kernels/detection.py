"""NumPy reference kernels: the detection ops."""
from __future__ import annotations

from .detection_nms import KERNELS as _NMS
from .detection_roi import KERNELS as _ROI

from .detection_multiclass import KERNELS as _MULTICLASS
KERNELS = {**_NMS, **_ROI, **_MULTICLASS}
