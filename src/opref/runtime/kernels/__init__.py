"""NumPy reference kernels, one module per category (same names as opref.opset's)."""
from . import (activation, infrastructure, arithmetic, attention, bitwise, comparison, condition, conversion, convolution, convolution_backprop, convolution_deformable, convolution_binary, generation,
               image, logical, matrix, movement, normalization, pooling, pooling_workspace, quantization, reduction, sequence, shape, sort,
               signal, signal_stft, embedding, detection, state)

_MODULES = (infrastructure, movement, convolution, convolution_backprop, convolution_deformable, convolution_binary, shape, arithmetic, activation, conversion, comparison, logical, bitwise, condition,
            reduction, generation, pooling, pooling_workspace, normalization, image, matrix, attention, quantization, sort, sequence,
            signal, signal_stft, embedding, detection, state)

KERNELS = {name: fn for m in _MODULES for name, fn in getattr(m, "KERNELS", {}).items()}

# Temporaries estimates (runtime/limits.py's max_kernel_bytes): for the kernels whose work arrays are larger
# than their inputs and outputs, fn(inputs, output shapes (None: dynamic), keyword attributes) -> bytes
WORKSPACE = {name: fn for m in _MODULES for name, fn in getattr(m, "WORKSPACE", {}).items()}

# Kernels computing only output 0, for the op versions whose later outputs cost more than it does (MaxPool's
# indices): a model's run plan calls it for a node none of whose later outputs is read (runtime/executor.py).
# Same signature as the op's kernel, and the same output 0 (tests/test_kernel_passes.py checks both).
FIRST_OUTPUT = {name: fn for m in _MODULES for name, fn in getattr(m, "FIRST_OUTPUT", {}).items()}

# Kernels bound to constant inputs: op -> (ports, prepare), where prepare(*those inputs, **attributes) gives a
# kernel of the op's signature that ignores the arrays on those ports (the values it was prepared with) and runs
# as the op's kernel's `.raw` does, if it has one (kernels/_elementwise.py's `quiet`). A run plan whose node has
# constant values on those ports prepares once (runtime/executor.py); tests/test_kernel_passes.py checks that
# the prepared kernel gives the kernel's outputs on every case.
PREPARED = {name: entry for m in _MODULES for name, entry in getattr(m, "PREPARED", {}).items()}

# Kernels that can write their lone output into a given array: op -> the input ports that array may be. Called with
# `out=` a C-contiguous array of the output's type and shape (one of the inputs on those ports, or an array no input
# shares memory with), such a kernel computes into it and returns it where it computes in the element type itself,
# and otherwise returns a new array, as without `out`; its bits are the same either way (tests/test_kernel_passes.py).
# A run plan passes it an input whose memory nothing else can see, or a buffer it keeps between runs
# (runtime/executor.py).
INTO = {name: ports for m in _MODULES for name, ports in getattr(m, "INTO", {}).items()}
