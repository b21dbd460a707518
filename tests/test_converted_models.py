"""Real converter-written IR (issue 11): small PyTorch modules of the kinds users convert — a
segmentation/super-resolution decoder with transposed convolutions, einsum, grid_sample, an
embedding bag, one-hot/eye — written as IR at test time by OpenVINO's own converter
(`openvino.convert_model`), then loaded, validated, run by opref and compared with OpenVINO's CPU
runtime (f32 inference precision); then written by opref and read back by opref and by OpenVINO."""
from __future__ import annotations

import numpy as np
import openvino as ov
import pytest
import torch
import torch.nn.functional as F

import opref
from oracles import CPU_CONFIG

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::torch.jit.TracerWarning")
CORE = ov.Core()
RTOL, ATOL = 1e-4, 1e-5


def _ov_outputs(xml, feeds: list) -> list[np.ndarray]:
    compiled = CORE.compile_model(str(xml), "CPU", CPU_CONFIG)
    result = compiled.create_infer_request().infer(feeds)
    return [np.asarray(result[o]) for o in compiled.outputs]


def _check(module, example: tuple, tmp_path, *, types_seen=(), feeds=None, static=False):
    """Converts `module` with OpenVINO, runs the IR in opref and OpenVINO, round-trips it through
    opref.save; `types_seen` are op types the converted IR must contain (the test is about them)."""
    torch.manual_seed(0)
    module.eval()
    xml = tmp_path / "model.xml"
    shapes = {"input": [ov.PartialShape(list(x.shape)) for x in example]} if static else {}
    ov.save_model(ov.convert_model(module, example_input=example, **shapes), xml, compress_to_fp16=False)
    model = opref.load(xml)
    ov_types = {n.get_type_name() for n in CORE.read_model(str(xml)).get_ordered_ops()}
    missing = set(types_seen) - ov_types
    assert not missing, f"the converter wrote no {missing} (ops: {sorted(ov_types)}); the test needs them"
    _assert_shapes_as_openvino(model, xml)
    feeds = feeds or [np.asarray(x.numpy()) for x in example]
    ours = list(model.run(feeds).values())
    theirs = _ov_outputs(xml, feeds)
    assert len(ours) == len(theirs)
    for k, (a, b) in enumerate(zip(ours, theirs)):
        assert a.shape == b.shape and a.dtype == b.dtype, f"output {k}: {a.shape} {a.dtype} vs {b.shape} {b.dtype}"
        np.testing.assert_allclose(a, b, rtol=RTOL, atol=ATOL, err_msg=f"output {k}: opref vs OpenVINO")
    with torch.no_grad():   # and both agree with PyTorch itself
        want = module(*example)
    want = [want] if isinstance(want, torch.Tensor) else list(want)
    for k, (a, w) in enumerate(zip(ours, want)):
        np.testing.assert_allclose(a, w.numpy(), rtol=1e-4, atol=1e-4, err_msg=f"output {k}: opref vs PyTorch")
    out = tmp_path / "rt.xml"
    opref.save(model, out)
    again = opref.load(out)
    for a, b in zip(again.run(feeds).values(), ours):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(_ov_outputs(out, feeds), theirs):
        np.testing.assert_allclose(a, b, rtol=RTOL, atol=ATOL, err_msg="OpenVINO on opref's IR")
    return model


def _assert_shapes_as_openvino(model, xml):
    """Every layer's output shapes and types (the converter leaves the inputs dynamic) as OpenVINO's own
    validation gives them on reading the IR."""
    ours = model.infer_shapes()
    for node in CORE.read_model(str(xml)).get_ordered_ops():
        if node.get_type_name() in ("Result", "Assign"):
            continue
        theirs = [(str(node.get_output_partial_shape(i)), node.get_output_element_type(i).get_type_name())
                  for i in range(node.get_output_size())]
        mine = [(str(i.shape), i.element_type) for i in ours[node.get_friendly_name()]]
        assert mine == theirs, f"{node.get_friendly_name()} ({node.get_type_name()}): {mine} vs OpenVINO {theirs}"


class Spectra(torch.nn.Module):
    def forward(self, x):
        return torch.fft.rfft(x, dim=-1).abs(), torch.fft.fft(x, dim=1).real, torch.fft.irfft(torch.fft.rfft(x))


def test_fft_shapes_on_dynamic_inputs(tmp_path):
    """signal_size from ShapeOf -> Gather of a dynamic dim: [?,?,?,2] as OpenVINO (was ..1073741824)."""
    _check(Spectra(), (torch.randn(2, 8, 16),), tmp_path, types_seen={"RDFT", "DFT", "IRDFT"})


class Decoder(torch.nn.Module):
    """A U-Net style decoder and a super-resolution tail: ConvTranspose2d with stride, padding,
    output_padding, groups and dilation, then PixelShuffle."""
    def __init__(self):
        super().__init__()
        self.enc = torch.nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.up1 = torch.nn.ConvTranspose2d(8, 8, 3, stride=2, padding=1, output_padding=1)
        self.up2 = torch.nn.ConvTranspose2d(8, 8, 4, stride=2, padding=1, groups=2)
        self.up3 = torch.nn.ConvTranspose2d(8, 4, 3, stride=1, padding=2, dilation=2, bias=False)
        self.sr = torch.nn.Conv2d(4, 12, 3, padding=1)
        self.shuffle = torch.nn.PixelShuffle(2)

    def forward(self, x):
        y = torch.relu(self.enc(x))
        y = torch.relu(self.up1(y))
        y = self.up2(y)
        y = self.up3(y)
        return self.shuffle(self.sr(y)), F.conv_transpose1d(x.mean(2), torch.ones(3, 2, 4) * 0.1, stride=3)


def test_transposed_convolution_decoder(tmp_path):
    _check(Decoder(), (torch.randn(1, 3, 10, 12),), tmp_path, types_seen={"ConvolutionBackpropData"})


class Einsums(torch.nn.Module):
    def forward(self, a, b, c):
        return (torch.einsum("bij,bjk->bik", a, b), torch.einsum("bii->bi", c), torch.einsum("...ij->...ji", a),
                torch.einsum("bij,bij->b", a, a), torch.einsum("i,j->ij", a[0, 0], b[0, :, 0]))


def test_einsum(tmp_path):
    ex = (torch.randn(2, 3, 4), torch.randn(2, 4, 5), torch.randn(2, 3, 3))
    _check(Einsums(), ex, tmp_path, types_seen={"Einsum"})


class GridSamples(torch.nn.Module):
    def forward(self, x, grid):
        outs = []
        for mode in ("bilinear", "nearest", "bicubic"):
            for padding in ("zeros", "border", "reflection"):
                for align in (False, True):
                    outs.append(F.grid_sample(x, grid, mode=mode, padding_mode=padding, align_corners=align))
        return tuple(outs)


def test_grid_sample(tmp_path):
    g = torch.Generator().manual_seed(3)
    grid = torch.rand(2, 5, 6, 2, generator=g) * 2.6 - 1.3   # some samples outside [-1, 1]
    _check(GridSamples(), (torch.randn(2, 3, 7, 8, generator=g), grid), tmp_path, types_seen={"GridSample"})


class Bags(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.sum = torch.nn.EmbeddingBag(20, 6, mode="sum")
        self.mean = torch.nn.EmbeddingBag(20, 6, mode="mean")
        self.emb = torch.nn.Embedding(20, 6)

    def forward(self, ids, offsets, weights):
        return (self.sum(ids, offsets, per_sample_weights=weights), self.mean(ids, offsets),
                self.emb(ids).sum(0))


def test_embedding_bag(tmp_path):
    ids = torch.tensor([1, 5, 7, 2, 19, 0, 3, 3, 11])
    offsets = torch.tensor([0, 2, 2, 6])   # an empty bag too
    weights = torch.linspace(0.5, 1.5, 9)
    # static input shapes: with dynamic ones OpenVINO's CPU plugin cannot compile the converted model
    # ("to_shape was called on a dynamic shape"); opref runs both
    module = Bags()
    _check(module, (ids, offsets, weights), tmp_path, types_seen={"EmbeddingBagOffsets"}, static=True)
    dynamic = tmp_path / "dynamic.xml"
    ov.save_model(ov.convert_model(module, example_input=(ids, offsets, weights)), dynamic, compress_to_fp16=False)
    with torch.no_grad():
        want = module(ids, offsets, weights)
    for got, w in zip(opref.load(dynamic).run([ids.numpy(), offsets.numpy(), weights.numpy()]).values(), want):
        np.testing.assert_allclose(got, w.numpy(), rtol=1e-5, atol=1e-6)


class OneHotEye(torch.nn.Module):
    def forward(self, labels, x):
        eye = torch.eye(x.shape[-1], dtype=x.dtype)
        return F.one_hot(labels, num_classes=7).to(torch.float32) @ torch.ones(7, 2), x @ eye + torch.eye(4, 5)[:3]


def test_one_hot_and_eye(tmp_path):
    _check(OneHotEye(), (torch.tensor([[0, 6, 3], [2, 2, 5]]), torch.randn(3, 5)), tmp_path, types_seen={"OneHot", "Eye"})


def test_if_with_only_a_condition(tmp_path):
    """If-8 whose bodies take no inputs (only `cond`), built with OpenVINO's opsets: valid IR that must run."""
    import openvino.opset8 as ops
    cond = ops.parameter([], np.bool_, name="cond")
    then_body = ov.Model([ops.result(ops.constant(np.array([1.5, 2.5], np.float32)))], [], "then")
    else_body = ov.Model([ops.result(ops.constant(np.array([-1.0, 0.0], np.float32)))], [], "else")
    node = ops.if_op(cond)
    node.set_then_body(then_body)
    node.set_else_body(else_body)
    out = node.set_output(then_body.get_results()[0], else_body.get_results()[0])
    xml = tmp_path / "if.xml"
    ov.save_model(ov.Model([out], [cond], "if_cond"), xml)
    model = opref.load(xml)
    opref.save(model, tmp_path / "rt.xml")
    again = opref.load(tmp_path / "rt.xml")
    for c in (True, False):
        theirs = _ov_outputs(xml, [np.array(c)])
        for m in (model, again):
            np.testing.assert_array_equal(list(m.run([np.array(c)]).values())[0], theirs[0])
        np.testing.assert_array_equal(_ov_outputs(tmp_path / "rt.xml", [np.array(c)])[0], theirs[0])
