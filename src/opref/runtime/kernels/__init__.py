"""NumPy reference kernels, one module per category (same names as opref.opset's)."""
from . import (activation, infrastructure, arithmetic, attention, bitwise, comparison, condition, conversion, convolution, convolution_backprop, convolution_deformable, generation,
               image, logical, matrix, movement, normalization, pooling, quantization, reduction, sequence, shape, sort,
               signal, embedding, detection)

_MODULES = (infrastructure, movement, convolution, convolution_backprop, convolution_deformable, shape, arithmetic, activation, conversion, comparison, logical, bitwise, condition,
            reduction, generation, pooling, normalization, image, matrix, attention, quantization, sort, sequence,
            signal, embedding, detection)

KERNELS = {name: fn for m in _MODULES for name, fn in m.KERNELS.items()}
