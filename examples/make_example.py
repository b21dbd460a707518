"""Writes examples/tiny_cnn.xml + .bin, the model the README's first command runs.

A small image classifier defined here as an ONNX graph (Conv, Relu, MaxPool, DepthToSpace,
GlobalAveragePool, Gemm, Softmax) and converted by OpenVINO's own converter, so the IR is exactly what
OpenVINO writes. Needs the test extra (onnx, openvino): `pip install -e '.[test]'`.
"""
from pathlib import Path

import numpy as np
import openvino as ov
from onnx import TensorProto, helper, numpy_helper

HERE = Path(__file__).parent


def tiny_cnn() -> "onnx.ModelProto":
    rng = np.random.default_rng(2026)
    init = lambda name, *shape: numpy_helper.from_array(
        (rng.standard_normal(shape) / np.sqrt(np.prod(shape[1:]) or 1)).astype(np.float32), name)
    n = helper.make_node
    nodes = [
        n("Conv", ["image", "w1", "b1"], ["c1"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        n("Relu", ["c1"], ["r1"]),
        n("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
        n("Conv", ["p1", "w2", "b2"], ["c2"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        n("Relu", ["c2"], ["r2"]),
        n("DepthToSpace", ["r2"], ["d"], blocksize=2, mode="DCR"),
        n("GlobalAveragePool", ["d"], ["g"]),
        n("Flatten", ["g"], ["f"]),
        n("Gemm", ["f", "w3", "b3"], ["logits"], transB=1),
        n("Softmax", ["logits"], ["probabilities"], axis=-1),
    ]
    inits = [init("w1", 8, 3, 3, 3), init("b1", 8), init("w2", 16, 8, 3, 3), init("b2", 16),
             init("w3", 10, 4), init("b3", 10)]
    graph = helper.make_graph(nodes, "tiny_cnn",
                              [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, 32, 32])],
                              [helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, [1, 10])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


if __name__ == "__main__":
    import tempfile
    import onnx
    with tempfile.TemporaryDirectory() as tmp:
        onnx.save(tiny_cnn(), f"{tmp}/tiny_cnn.onnx")
        ov.save_model(ov.convert_model(f"{tmp}/tiny_cnn.onnx"), str(HERE / "tiny_cnn.xml"), compress_to_fp16=False)
    print(f"wrote {HERE / 'tiny_cnn.xml'}")
