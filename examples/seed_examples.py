"""Runs the worked examples of the five seed specifications with opref and prints them.

    python examples/seed_examples.py
"""
import numpy as np

import opref


def show(title, op, inputs, attrs=None):
    (y,) = opref.run_op(op, inputs, attrs or {})
    (info,) = opref.infer_op(op, inputs, attrs or {})
    print(f"== {title}: {op} {attrs or ''}")
    print(f"   input  {list(np.shape(inputs[0]))} -> output {info.element_type}{info.shape}")
    print("   " + np.array2string(y.reshape(y.shape[0], -1) if y.ndim > 1 else y, threshold=40).replace("\n", "\n   "))


def main():
    x = np.arange(1, 17, dtype=np.int32).reshape(2, 2, 4, 1)
    show("SpaceToBatchND example 4", "tf.SpaceToBatchND", [x, np.array([2, 2]), np.array([[0, 0], [2, 0]])])
    y = opref.run_op("tf.SpaceToBatchND", [x, np.array([2, 2]), np.array([[0, 0], [2, 0]])])[0]
    show("BatchToSpaceND example 4", "tf.BatchToSpaceND", [y, np.array([2, 2]), np.array([[0, 0], [2, 0]])])
    show("the same through OpenVINO's SpaceToBatch-2", "SpaceToBatch-2",
         [x, np.array([1, 2, 2, 1]), np.array([0, 0, 2, 0]), np.array([0, 0, 0, 0])])
    show("DepthToSpace example 3", "tf.DepthToSpace", [np.arange(1, 17).reshape(1, 2, 2, 4)], {"block_size": 2})
    show("DepthToSpace-1 blocks_first (NCHW)", "DepthToSpace-1", [np.arange(1, 17).reshape(1, 4, 2, 2)],
         {"block_size": 2, "mode": "blocks_first"})
    show("Col2Im-15 example 1 on ones (counts of covering blocks)", "Col2Im-15",
         [np.ones((3, 12, 225), np.float32), np.array([16, 16]), np.array([2, 2])])
    image = np.arange(1, 17, dtype=np.float32).reshape(1, 4, 4, 1)
    show("DepthwiseConv2dNative, SAME, stride 2", "tf.DepthwiseConv2dNative",
         [image, np.ones((3, 3, 1, 2), np.float32)], {"strides": [1, 2, 2, 1], "padding": "SAME"})
    try:
        opref.run_op("Col2Im-15", [np.ones((1, 27, 25), np.float32), np.array([16, 16]), np.array([3, 3])],
                     {"dilations": [2, 2], "pads_begin": [1, 1], "pads_end": [1, 1], "strides": [2, 2]})
    except opref.OprefError as e:
        print(f"== Col2Im-15 example 2 as the seed writes it is rejected:\n   {e}")
    print("== shape inference on partial shapes")
    print("  ", opref.infer_op("DepthToSpace-1", [opref.TensorInfo("f32", [(1, 8), 24, (3, 7), -1])],
                               {"block_size": 2, "mode": "blocks_first"})[0])


if __name__ == "__main__":
    main()
