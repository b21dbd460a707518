"""Whole-graph shape inference on real converter-written IRs whose inputs are made dynamic (issue 15):
every model of the catalogue (tests/models.py, written by OpenVINO at test time) and PyTorch modules
converted by `openvino.convert_model` (a CRNN, an upscaler, an attention block with a causal mask, a
NonZero/TopK head, dynamic slicing, FFTs), each with its inputs set to all-`?` dims, a `?` batch, `?`
spatial/sequence dims, intervals and half-open intervals. OpenVINO's answer is its pure
`Parameter.set_partial_shape` + `Model.validate_nodes_and_infer_types()` (not `Model.reshape`, which
rewrites the graph); opref's is `Model.infer_shapes({...})`; every layer's every output port is compared
(partial shape and element type). Where OpenVINO rejects the shapes, opref must reject them too.
Differences opref keeps on purpose are in KNOWN, each asserted to still differ."""
from __future__ import annotations

import numpy as np
import openvino as ov
import pytest
import torch
import torch.nn.functional as F

import opref
from models import MODELS, model_path
from opref.errors import OprefError

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::torch.jit.TracerWarning")
CORE = ov.Core()


# --- PyTorch modules of the kinds users convert, with shape sub-graphs ----------------------------
class CRNN(torch.nn.Module):
    """An OCR recogniser: convolutions, then the width as the sequence of a bidirectional LSTM."""
    def __init__(self):
        super().__init__()
        self.c1, self.c2 = torch.nn.Conv2d(1, 8, 3, padding=1), torch.nn.Conv2d(8, 16, 3, padding=1)
        self.rnn = torch.nn.LSTM(16 * 8, 16, bidirectional=True, batch_first=True)
        self.fc = torch.nn.Linear(32, 11)

    def forward(self, x):
        y = F.max_pool2d(F.relu(self.c2(F.max_pool2d(F.relu(self.c1(x)), 2))), 2)
        b, c, h, w = y.shape
        y, _ = self.rnn(y.permute(0, 3, 1, 2).reshape(b, w, c * h))
        return self.fc(y).log_softmax(-1)


class Upscaler(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv, self.shuffle = torch.nn.Conv2d(3, 27, 3, padding=1), torch.nn.PixelShuffle(3)

    def forward(self, x):
        return (self.shuffle(self.conv(x)), F.interpolate(x, scale_factor=2, mode="nearest"),
                F.interpolate(x, size=(x.shape[2] * 2, 7), mode="bilinear"))


class Attention(torch.nn.Module):
    """Token and position embeddings (arange of the sequence length), a causal mask (triu), SDPA."""
    def __init__(self):
        super().__init__()
        self.qkv, self.out, self.emb = torch.nn.Linear(32, 96), torch.nn.Linear(32, 32), torch.nn.Embedding(100, 32)

    def forward(self, ids):
        b, t = ids.shape
        x = self.emb(ids) + self.emb(torch.arange(t).unsqueeze(0))
        q, k, v = self.qkv(x).view(b, t, 3, 4, 8).permute(2, 0, 3, 1, 4)
        mask = torch.triu(torch.ones(t, t), 1).bool()
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=~mask)
        return self.out(a.transpose(1, 2).reshape(b, t, 32)) + x


class NonZeroTopK(torch.nn.Module):
    def forward(self, x):
        values, indices = torch.topk(x.flatten(1), k=3)
        return (torch.nonzero(x > 0), values, indices, torch.topk(x, k=x.shape[-1] // 2, dim=-1).values,
                x[:, ::2] % 4, torch.floor_divide(x.shape[1] * torch.ones(2), 3))


class Slicer(torch.nn.Module):
    def forward(self, x):
        n = x.shape[-1]
        return (x[..., 1:n - 1], x[:, :, n // 2:], x.reshape(x.shape[0], -1), x.unsqueeze(1).expand(-1, 3, -1, -1),
                torch.arange(0, n, 2).float() + x.sum())


class Spectra(torch.nn.Module):
    def forward(self, x):
        return torch.fft.rfft(x, dim=-1).abs(), torch.fft.fft(x, dim=1).real, torch.fft.irfft(torch.fft.rfft(x))


TORCH = {
    "crnn": (CRNN, (torch.randn(2, 1, 32, 40),)),
    "upscaler": (Upscaler, (torch.randn(1, 3, 10, 12),)),
    "attention": (Attention, (torch.randint(0, 100, (2, 9)),)),
    "nonzero_topk": (NonZeroTopK, (torch.randn(2, 6, 8),)),
    "slicer": (Slicer, (torch.randn(2, 5, 8),)),
    "spectra": (Spectra, (torch.randn(2, 8, 16),)),
}


# --- input-shape settings --------------------------------------------------------------------------
def _is_spatial(k: int, rank: int) -> bool:
    """NCHW: H, W...; rank <= 3 (sequences, [batch, seq, features] or [seq, batch, features]): all but the last."""
    return k >= 2 if rank >= 4 else k < rank - 1


def _setting(kind: str, k: int, rank: int, d) -> str:
    kept = str(d) if d.is_static else "?"
    if kind == "all?":
        return "?"
    if kind == "batch?":
        return "?" if k == 0 else kept
    if kind == "spatial?":
        return "?" if _is_spatial(k, rank) else kept
    if kind == "interval":
        return "1..8" if k == 0 else "16..512" if _is_spatial(k, rank) else kept if d.is_static else "1..8"
    if kind == "intervals":       # every dim, channels and features too
        return "1..8" if k == 0 else "16..512"
    if kind == "open":            # half-open intervals
        return "2.." if k == 0 else "..300" if _is_spatial(k, rank) else kept if d.is_static else "1.."
    raise AssertionError(kind)


SETTINGS = ("all?", "batch?", "spatial?", "interval", "intervals", "open")


def _shapes(ov_model: ov.Model, kind: str) -> dict[str, str]:
    out = {}
    for p in ov_model.get_parameters():
        s = p.get_partial_shape()
        if s.rank.is_dynamic:
            continue
        r = s.rank.get_length()
        out[p.get_friendly_name()] = ",".join(_setting(kind, k, r, s[k]) for k in range(r))
    return out


# --- differences opref keeps, each asserted to still be there ------------------------------------------
# (model, setting, layer type, opref's shape, OpenVINO's shape) -> reason
KNOWN: dict = {}     # none left (the slicer's Slice start n // 2 passes a Floor, where OpenVINO's bounds stop)


def _compare(xml, name: str, kind: str) -> tuple[int, list[tuple]]:
    """(ports compared, [(layer type, opref's (shape, type), OpenVINO's), ...] differences)."""
    ov_model = CORE.read_model(str(xml))
    shapes = _shapes(ov_model, kind)
    for p in ov_model.get_parameters():
        if p.get_friendly_name() in shapes:
            p.set_partial_shape(ov.PartialShape(shapes[p.get_friendly_name()]))
    model = opref.load(xml)
    try:
        ov_model.validate_nodes_and_infer_types()
    except RuntimeError as e:      # inconsistent shapes (a Reshape to a static batch): opref rejects them too
        with pytest.raises(OprefError):
            model.infer_shapes(shapes)
        return 0, [("rejected", str(e).splitlines()[0], "")]
    ours = model.infer_shapes(shapes)
    compared, diffs = 0, []
    for op in ov_model.get_ordered_ops():
        if op.get_type_name() == "Result":
            continue
        theirs = [(str(op.get_output_partial_shape(i)).replace(" ", ""), op.get_output_element_type(i).get_type_name())
                  for i in range(op.get_output_size())]
        mine = [(str(i.shape), i.element_type) for i in ours[op.get_friendly_name()]]
        assert len(mine) == len(theirs), f"{name} {kind}: {op.get_friendly_name()}: {len(mine)} outputs"
        for a, b in zip(mine, theirs):
            compared += 1
            if a != b:
                diffs.append((op.get_type_name(), a, b, op.get_friendly_name()))
    return compared, diffs


def _check(xml, name: str):
    total, seen = 0, set()
    for kind in SETTINGS:
        compared, diffs = _compare(xml, name, kind)
        total += compared
        unexplained = []
        for kind_, mine, theirs, *where in diffs:
            if kind_ == "rejected":
                continue
            key = (name, kind, kind_, mine[0], theirs[0])
            if key in KNOWN and mine[1] == theirs[1]:
                seen.add(key)
            else:
                unexplained.append(f"{where[0]} ({kind_}): opref {mine} vs OpenVINO {theirs}")
        assert not unexplained, f"{name}, inputs {kind}: {len(unexplained)} ports differ: {unexplained[:10]}"
    # a KNOWN difference that is gone is a fix: its entry goes
    gone = [k for k in KNOWN if k[0] == name and k not in seen]
    assert not gone, f"no longer different (remove from KNOWN): {gone}"
    return total


@pytest.mark.parametrize("name", list(MODELS))
def test_every_port_as_openvino_on_the_catalogue(name):
    assert _check(model_path(name), name) > 0


@pytest.mark.parametrize("name", list(TORCH))
def test_every_port_as_openvino_on_converted_pytorch(name, tmp_path):
    module, example = TORCH[name]
    torch.manual_seed(0)
    xml = tmp_path / f"{name}.xml"
    ov.save_model(ov.convert_model(module().eval(), example_input=example), xml, compress_to_fp16=False)
    assert _check(xml, name) > 0


def test_bounds_through_i32_arithmetic_stay_sound(tmp_path):
    """[?,?] -> ShapeOf -> Gather -> Convert(i32) -> Add(1) -> Range: the i32 upper bound 2**31-1 plus 1
    once wrapped to -2**31, giving the Add the bounds [-2**31, 1] and the Range a static [0]; unbounded
    stays unbounded, so the Range is [?] as OpenVINO has it, and running it gives 9 elements."""
    import openvino.opset13 as ops
    x = ops.parameter(ov.PartialShape("?,?"), ov.Type.f32, name="x")
    n = ops.convert(ops.gather(ops.shape_of(x), ops.constant(np.array(1, np.int64)), ops.constant(np.array(0))), "i32")
    stop = ops.add(n, ops.constant(np.array(1, np.int32)))
    r = ops.range(ops.constant(np.array(1, np.int32)), stop, ops.constant(np.array(1, np.int32)), "i32")
    ov.save_model(ov.Model([ops.result(r)], [x]), tmp_path / "m.xml")
    model = opref.load(tmp_path / "m.xml")
    assert str(model.outputs[0].shape) == str(r.get_output_partial_shape(0)).replace(" ", "") == "[?]"
    assert list(model.run({"x": np.zeros((2, 9), np.float32)}).values())[0].tolist() == list(range(1, 10))


# --- symbols (issue 15 part 2) ---------------------------------------------------------------------
def _named(kind: str, k: int, rank: int, d) -> str:
    """Inputs given by names: the batch N, each other dim D<k> (one name per position, so two inputs'
    equal positions share it); "named" keeps static channel/feature dims, "named_all" names every dim."""
    if kind == "named" and d.is_static and not (k == 0 or _is_spatial(k, rank)):
        return str(d)
    return "N" if k == 0 else f"D{k}"


def _compare_symbols(xml, name: str, kind: str) -> tuple[int, list[str]]:
    """Every port's dims and symbols against OpenVINO's, inputs given by names: the shapes must print
    alike, a dim must carry a symbol exactly where OpenVINO's does, and two dims must share a symbol
    (after the merges inference makes) exactly where OpenVINO's do. Returns (dims with symbols, diffs)."""
    ov_model = CORE.read_model(str(xml))
    specs, table = {}, {}
    for p in ov_model.get_parameters():
        s = p.get_partial_shape()
        if s.rank.is_dynamic:
            continue
        r = s.rank.get_length()
        names = [_named(kind, k, r, s[k]) for k in range(r)]
        specs[p.get_friendly_name()] = ",".join(names)
        dims = []
        for n in names:
            d = ov.Dimension(int(n)) if n.isdigit() else ov.Dimension()
            if n[0].isalpha():
                d.set_symbol(table.setdefault(n, ov.Symbol()))
            dims.append(d)
        p.set_partial_shape(ov.PartialShape(dims))
    ov_model.validate_nodes_and_infer_types()
    ours = opref.load(xml).infer_shapes(specs)
    ov_classes: list = []            # representatives of OpenVINO's symbol classes
    pairs: dict = {}                 # OpenVINO class -> opref root symbol, and back
    diffs, counted = [], 0
    for op in ov_model.get_ordered_ops():
        if op.get_type_name() == "Result":
            continue
        for k, mine in enumerate(ours[op.get_friendly_name()]):
            theirs = op.get_output_partial_shape(k)
            where = f"{op.get_friendly_name()} ({op.get_type_name()}):{k}"
            if str(mine.shape) != str(theirs).replace(" ", ""):
                diffs.append(f"{where}: opref {mine.shape} vs OpenVINO {theirs}")
                continue
            if theirs.rank.is_dynamic:
                continue
            for j, (a, b) in enumerate(zip(mine.shape, theirs)):
                ts = b.get_symbol()
                if (a.symbol is None) != (not ts):
                    diffs.append(f"{where} dim {j}: opref symbol {a.symbol_name}, OpenVINO "
                                 f"{'one' if ts else 'none'} ({mine.shape})")
                    continue
                if a.symbol is None:
                    continue
                counted += 1
                c = next((i for i, rep in enumerate(ov_classes) if rep == ts), None)
                if c is None:
                    c = len(ov_classes)
                    ov_classes.append(ts)
                root = a.symbol.root()
                if pairs.setdefault(("ov", c), root) is not root or pairs.setdefault(("opref", id(root)), c) != c:
                    diffs.append(f"{where} dim {j}: symbol {a.symbol_name} is shared otherwise than OpenVINO's")
    return counted, diffs


NAMED_KNOWN: dict = {}     # (model, kind, port) -> reason: none so far


@pytest.mark.parametrize("kind", ["named", "named_all"])
@pytest.mark.parametrize("name", list(MODELS) + list(TORCH))
def test_symbols_as_openvino(name, kind, tmp_path):
    if name in TORCH:
        module, example = TORCH[name]
        torch.manual_seed(0)
        xml = tmp_path / f"{name}.xml"
        ov.save_model(ov.convert_model(module().eval(), example_input=example), xml, compress_to_fp16=False)
    else:
        xml = model_path(name)
    counted, diffs = _compare_symbols(xml, name, kind)
    assert not diffs, f"{name} {kind}: {len(diffs)} ports differ: {diffs[:8]}"
    assert counted > 0
