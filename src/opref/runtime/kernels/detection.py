"""NumPy reference kernels: the detection ops."""
from __future__ import annotations

from .detection_experimental import KERNELS as _EXPERIMENTAL
from .detection_multiclass import KERNELS as _MULTICLASS, WORKSPACE as _MULTICLASS_WORKSPACE
from .detection_nms import KERNELS as _NMS, WORKSPACE as _NMS_WORKSPACE
from .detection_output import KERNELS as _OUTPUT
from .detection_proposal import KERNELS as _PROPOSAL
from .detection_roi import KERNELS as _ROI, WORKSPACE as _ROI_WORKSPACE
from .detection_rotated import KERNELS as _ROTATED, WORKSPACE as _ROTATED_WORKSPACE

KERNELS = {**_NMS, **_ROI, **_MULTICLASS, **_OUTPUT, **_PROPOSAL, **_EXPERIMENTAL, **_ROTATED}
WORKSPACE = {**_NMS_WORKSPACE, **_MULTICLASS_WORKSPACE, **_ROI_WORKSPACE, **_ROTATED_WORKSPACE}
