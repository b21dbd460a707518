"""Detection post-processing in real converter-written models (written at test time, never committed):

1. a YOLO-style ONNX graph built with onnx.helper: a conv head decoded into centre-form boxes and class
   scores -> NonMaxSuppression -> the selected boxes and scores gathered;
2. a PyTorch module (no torchvision): a conv backbone, boxes decoded on an anchor grid, NMS, the kept
   boxes pooled by RoiAlign and classified. torch.onnx.export has no NonMaxSuppression/RoiAlign of its
   own without torchvision: they are autograd Functions whose `symbolic` emits the ONNX ops (the
   TorchScript exporter; the dynamo exporter needs onnxscript, which is not installed).

Each ONNX file is converted by openvino.convert_model and saved with ov.save_model; opref loads the IR,
runs it equal to OpenVINO's CPU plugin (and to onnxruntime on the ONNX file), and round-trips it through
opref.save (opref and OpenVINO both read opref's IR back with the same results)."""
from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import openvino as ov
import pytest
from onnx import TensorProto, helper, numpy_helper

import opref
from oracles import CPU_CONFIG

CORE = ov.Core()
RTOL, ATOL = 1e-4, 1e-5


def _ov_run(xml, feeds):
    compiled = CORE.compile_model(str(xml), "CPU", CPU_CONFIG)
    result = compiled.create_infer_request().infer(feeds)
    return [np.asarray(result[o]) for o in compiled.outputs]


def _ort_run(onnx_file, feeds):
    session = ort.InferenceSession(str(onnx_file), providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


def _close(ours, theirs, what):
    assert len(ours) == len(theirs), what
    for k, (a, b) in enumerate(zip(ours, theirs)):
        assert a.shape == b.shape, f"{what} output {k}: shape {a.shape} vs {b.shape}"
        if a.dtype.kind in "iu":
            np.testing.assert_array_equal(a, b, err_msg=f"{what} output {k}")
        else:
            np.testing.assert_allclose(a, b, rtol=RTOL, atol=ATOL, err_msg=f"{what} output {k}")


def _check(onnx_file, tmp_path, feeds_list):
    """Converts, saves, loads in opref; compares with OpenVINO CPU and onnxruntime on every feed; round-trips."""
    xml = tmp_path / "model.xml"
    # full-precision weights: save_model's default f16 compression would make the IR differ from the ONNX file
    ov.save_model(ov.convert_model(str(onnx_file)), str(xml), compress_to_fp16=False)
    model = opref.load(xml)
    out = tmp_path / "rt.xml"
    opref.save(model, out)
    again = opref.load(out)
    selected = []
    for feeds in feeds_list:
        ours = list(model.run(feeds).values())
        _close(ours, _ov_run(xml, feeds), "opref vs OpenVINO")
        _close(ours, [np.asarray(y) for y in _ort_run(onnx_file, feeds)], "opref vs onnxruntime")
        _close(list(again.run(feeds).values()), ours, "load(save(load(x)))")
        _close(_ov_run(out, feeds), ours, "OpenVINO on opref's IR")
        selected.append(len(ours[0]))
    # the feeds exercise the post-processing: different counts selected (none at all for the first feed)
    assert selected[0] == 0 and len(set(selected)) == len(selected), selected
    return model


# --- 1. YOLO-style ONNX graph ------------------------------------------------------------------------------
def _yolo_onnx(path, classes=3, channels=8, grid=6):
    rng = np.random.default_rng(11)
    k = 4 + 1 + classes
    init = [numpy_helper.from_array(rng.standard_normal((k, channels, 1, 1)).astype(np.float32) * 0.5, "head_w"),
            numpy_helper.from_array(rng.standard_normal(k).astype(np.float32) * 0.1, "head_b"),
            numpy_helper.from_array(np.array([1, k, grid * grid], np.int64), "flat_shape"),
            numpy_helper.from_array(np.array([float(grid)], np.float32), "grid_size"),
            numpy_helper.from_array(np.array([4, 1, classes], np.int64), "split"),
            numpy_helper.from_array(np.array([10], np.int64), "max_out"),
            numpy_helper.from_array(np.array([0.45], np.float32), "iou"),
            numpy_helper.from_array(np.array([0.5], np.float32), "score_thr"),
            numpy_helper.from_array(np.array([2], np.int64), "col_box"),
            numpy_helper.from_array(np.array([0, 1], np.int64), "col_bc"),
            numpy_helper.from_array(np.array([1], np.int64), "col_class")]
    nodes = [
        helper.make_node("Conv", ["x", "head_w", "head_b"], ["head"]),
        helper.make_node("Reshape", ["head", "flat_shape"], ["flat"]),                  # [1, k, G*G]
        helper.make_node("Transpose", ["flat"], ["rows"], perm=[0, 2, 1]),              # [1, G*G, k]
        helper.make_node("Split", ["rows", "split"], ["raw_box", "raw_obj", "raw_cls"], axis=2),
        helper.make_node("Sigmoid", ["raw_box"], ["unit_box"]),
        helper.make_node("Mul", ["unit_box", "grid_size"], ["boxes"]),                  # [1, G*G, 4] centre form
        helper.make_node("Sigmoid", ["raw_obj"], ["obj"]),
        helper.make_node("Sigmoid", ["raw_cls"], ["cls"]),
        helper.make_node("Mul", ["obj", "cls"], ["conf"]),                              # [1, G*G, C]
        helper.make_node("Transpose", ["conf"], ["scores"], perm=[0, 2, 1]),            # [1, C, G*G]
        helper.make_node("NonMaxSuppression", ["boxes", "scores", "max_out", "iou", "score_thr"], ["selected"],
                         center_point_box=1),
        helper.make_node("Gather", ["selected", "col_box"], ["box_idx2"], axis=1),      # [K, 1]
        helper.make_node("Squeeze", ["box_idx2", "col_class"], ["box_idx"]),
        helper.make_node("Squeeze", ["boxes", "col_bc_0"], ["boxes0"]),
        helper.make_node("Gather", ["boxes0", "box_idx"], ["det_boxes"], axis=0),       # [K, 4]
        helper.make_node("Gather", ["selected", "col_bc"], ["bc"], axis=1),             # [K, 2] (batch, class)
        helper.make_node("GatherND", ["scores", "bc"], ["cls_scores"]),                 # [K, G*G]
        helper.make_node("Unsqueeze", ["box_idx", "col_class"], ["box_idx_col"]),
        helper.make_node("GatherElements", ["cls_scores", "box_idx_col"], ["det_scores"], axis=1),   # [K, 1]
    ]
    init.append(numpy_helper.from_array(np.array([0], np.int64), "col_bc_0"))
    graph = helper.make_graph(
        nodes, "yolo_post", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, channels, grid, grid])],
        [helper.make_tensor_value_info("selected", TensorProto.INT64, ["K", 3]),
         helper.make_tensor_value_info("det_boxes", TensorProto.FLOAT, ["K", 4]),
         helper.make_tensor_value_info("det_scores", TensorProto.FLOAT, ["K", 1])], init)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    onnx.save(m, str(path))
    return path


def test_yolo_style_onnx_nms_model(tmp_path):
    onnx_file = _yolo_onnx(tmp_path / "yolo.onnx")
    rng = np.random.default_rng(12)
    feeds = [{"x": (rng.standard_normal((1, 8, 6, 6)) * s).astype(np.float32)} for s in (0.5, 1.0, 2.0, 3.0)]
    model = _check(onnx_file, tmp_path, feeds)
    assert any(n.schema.name == "NonMaxSuppression" for n in model.graph.nodes)


# --- 2. PyTorch module through ONNX -------------------------------------------------------------------------
def _torch_onnx(path):
    torch = pytest.importorskip("torch")

    class NMS(torch.autograd.Function):
        """ONNX NonMaxSuppression; forward (used only while tracing) keeps boxes by score, greedily."""

        @staticmethod
        def forward(ctx, boxes, scores):
            order = torch.argsort(scores[0, 0], descending=True)[:4]
            return torch.stack([torch.zeros_like(order), torch.zeros_like(order), order], 1)

        @staticmethod
        def symbolic(g, boxes, scores):
            const = lambda v, dt: g.op("Constant", value_t=torch.tensor(v, dtype=dt))  # noqa: E731
            return g.op("NonMaxSuppression", boxes, scores, const([40], torch.int64), const([0.4], torch.float32),
                        const([0.5], torch.float32), center_point_box_i=0)

    class RoiAlign(torch.autograd.Function):
        @staticmethod
        def forward(ctx, feat, rois, batch):
            return feat.new_zeros((rois.shape[0], feat.shape[1], 3, 3))

        @staticmethod
        def symbolic(g, feat, rois, batch):
            return g.op("RoiAlign", feat, rois, batch, output_height_i=3, output_width_i=3, sampling_ratio_i=2,
                        spatial_scale_f=0.25, mode_s="avg", coordinate_transformation_mode_s="half_pixel")

    class Detector(torch.nn.Module):
        def __init__(self):
            super().__init__()
            torch.manual_seed(0)
            self.backbone = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(),
                                                torch.nn.Conv2d(8, 8, 3, stride=4, padding=1), torch.nn.ReLU())
            self.head = torch.nn.Conv2d(8, 5, 1)
            self.cls = torch.nn.Linear(8 * 9, 3)
            ys, xs = torch.meshgrid(torch.arange(8.0), torch.arange(8.0), indexing="ij")
            self.register_buffer("centres", torch.stack([xs, ys], -1).reshape(1, 64, 2) * 4 + 2)

        def forward(self, image):
            feat = self.backbone(image)                                    # [1, 8, 8, 8], stride 4
            head = self.head(feat).flatten(2).transpose(1, 2)              # [1, 64, 5]
            centre = self.centres + torch.tanh(head[..., :2]) * 4
            half = torch.exp(head[..., 2:4].clamp(-2, 2)) * 4
            boxes = torch.cat([centre - half, centre + half], -1)          # [1, 64, 4] (x1, y1, x2, y2)
            scores = torch.sigmoid(head[..., 4]).unsqueeze(1)              # [1, 1, 64]
            keep = NMS.apply(boxes, scores)                                # [K, 3]
            rois = boxes[0].index_select(0, keep[:, 2])                    # [K, 4]
            pooled = RoiAlign.apply(feat, rois, keep[:, 0])                # [K, 8, 3, 3]
            return rois, self.cls(pooled.flatten(1))

    image = torch.randn(1, 3, 32, 32)
    torch.onnx.export(Detector().eval(), (image,), str(path), dynamo=False, opset_version=16,
                      input_names=["image"], output_names=["rois", "logits"])
    return path


# torch.onnx.export's TorchScript route (the only one that takes `symbolic`) warns that it is deprecated
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_torch_detector_through_onnx(tmp_path):
    onnx_file = _torch_onnx(tmp_path / "detector.onnx")
    types = {n.op_type for n in onnx.load(str(onnx_file)).graph.node}
    assert {"NonMaxSuppression", "RoiAlign"} <= types
    rng = np.random.default_rng(13)
    feeds = [{"image": (rng.standard_normal((1, 3, 32, 32)) * s).astype(np.float32)} for s in (0.5, 1.0, 1.5, 2.0)]
    model = _check(onnx_file, tmp_path, feeds)
    names = {n.schema.name for n in model.graph.nodes}
    assert {"NonMaxSuppression", "ROIAlign"} <= names
