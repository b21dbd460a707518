"""`python -m benchmarks scan` (the sweep for slow kernels) on a few op versions: every one is either timed
or counted with its reason."""
from __future__ import annotations

from benchmarks import scan


def test_scan_times_or_counts_every_op_version_it_selects():
    result = scan.run(1, ["Relu-1", "Erf-1", "Add-1", "ReduceSum-1", "Convolution-1", "Select-1"])
    timed = {r["op"]: r for r in result["ops"]}
    skipped = {s["op"]: s["reason"] for s in result["skipped"]}
    assert set(timed) == {"Relu-1", "PRelu-1", "Erf-1", "Add-1", "ReduceSum-1"}     # (parts of names: PRelu too)
    assert skipped == {"Convolution-1": "needs attributes", "Select-1": "takes 3 inputs"}
    assert timed["ReduceSum-1"]["inputs"] == "float32[4, 128, 768], int64[1]"
    assert all(r["ns_per_element"] > 0 and r["copies"] > 0 for r in result["ops"])
    text = scan.render(result)
    assert "5 op versions timed" in text and "1 needs attributes; 1 takes 3 inputs" in text
