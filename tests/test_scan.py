"""`python -m benchmarks scan` (the sweep for slow kernels) on a few op versions: every one is either timed
or counted with its reason."""
from __future__ import annotations

import opref
from benchmarks import scan

PARTS = ["Relu-1", "Erf-1", "Add-1", "ReduceSum-1", "Convolution-1", "Select-1"]


def test_scan_times_or_counts_every_op_version_it_selects():
    result = scan.run(1, PARTS)
    timed = {r["op"]: r for r in result["ops"]}
    skipped = {s["op"]: s["reason"] for s in result["skipped"]}
    selected = {s.versioned_name for s in opref.list_schemas() if any(p.lower() in s.versioned_name.lower()
                                                                      for p in PARTS)}
    assert set(timed) | set(skipped) == selected and not set(timed) & set(skipped)
    assert {"Relu-1", "PRelu-1", "Erf-1", "Add-1", "ReduceSum-1"} <= set(timed)
    assert skipped["Convolution-1"] == "needs attributes" and skipped["Select-1"] == "takes 3 inputs"
    assert timed["ReduceSum-1"]["inputs"] == "float32[4, 128, 768], int64[1]"
    assert all(r["ns_per_element"] > 0 and r["copies"] > 0 for r in result["ops"])
    assert f"{len(timed)} op versions timed" in scan.render(result)
