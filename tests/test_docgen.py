"""The checked-in op reference (docs/ops/, written by `python -m opref.docgen`) equals what the schemas,
lowerings and kernels generate now. The example outputs are compared as numbers at the precision they
are printed with (a kernel's last bits may differ between CPUs); everything else as text."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import opref
from opref.docgen import PRECISION, generate

DOCS = Path(__file__).resolve().parents[1] / "docs" / "ops"
NUMBER = re.compile(r"-?(?:\d+\.?\d*(?:e[-+]?\d+)?|inf|nan)")
PAGES = generate()


def _split(text: str):
    """(the page with example outputs' numbers blanked, those numbers)"""
    head, sep, tail = text.partition("\n->\n")
    if not sep:
        return text, []
    body, fence, rest = tail.partition("```")
    return head + sep + NUMBER.sub("#", body) + fence + rest, [float(x) for x in NUMBER.findall(body)]


def test_every_op_version_has_a_page_and_the_index_lists_it():
    assert set(PAGES) == {f"{s.versioned_name}.md" for s in opref.list_schemas()} | {"README.md"}
    assert sorted(p.name for p in DOCS.glob("*.md")) == sorted(PAGES), "regenerate: python -m opref.docgen"
    for s in opref.list_schemas():
        assert f"]({s.versioned_name}.md)" in PAGES["README.md"]


@pytest.mark.parametrize("name", sorted(PAGES))
def test_page_is_current(name):
    have = (DOCS / name).read_text(encoding="utf-8")
    want = PAGES[name]
    a, na = _split(have)
    b, nb = _split(want)
    assert a == b, f"docs/ops/{name} drifted from the schemas: regenerate with python -m opref.docgen"
    assert len(na) == len(nb)
    np.testing.assert_allclose(na, nb, rtol=2 * 10.0 ** (1 - PRECISION), atol=10.0 ** -PRECISION,
                               err_msg=f"docs/ops/{name}: the example's outputs changed")
