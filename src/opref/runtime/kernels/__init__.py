"""NumPy reference kernels, one module per category (same names as opref.opset's)."""
from . import convolution, movement, shape

KERNELS = {**movement.KERNELS, **convolution.KERNELS, **shape.KERNELS}
