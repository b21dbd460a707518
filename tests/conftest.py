"""Run-wide reports. The onnxruntime coverage table: every case tests/test_oracle_onnxruntime.py
collects is either run against onnxruntime or skipped with the reason it has no ONNX form; the
counts per outcome, per reason and per op are printed at the end of the run (also under xdist: the
counts come from the test reports' user_properties, which the workers send to the controller)."""
from __future__ import annotations

from collections import Counter, defaultdict

_ONNX_TEST = "test_oracle_onnxruntime.py::test_values_match_onnxruntime"


def pytest_terminal_summary(terminalreporter):
    run, no_form, per_op = Counter(), Counter(), defaultdict(Counter)
    for reports in terminalreporter.stats.values():
        for rep in reports:
            if _ONNX_TEST not in getattr(rep, "nodeid", ""):
                continue
            props = dict(getattr(rep, "user_properties", ()) or ())
            op = props.get("onnx_op")
            if op is None or (rep.when != "call" and rep.outcome != "failed"):
                continue
            reason = props.get("onnx_reason")
            if reason is not None:
                no_form[reason] += 1
                per_op[op][f"no ONNX form: {reason}"] += 1
            else:
                run[rep.outcome] += 1
                per_op[op][f"run: {rep.outcome}"] += 1
    if not run and not no_form:
        return
    tr = terminalreporter
    tr.write_sep("=", "onnxruntime coverage (tests/test_oracle_onnxruntime.py)")
    tr.write_line(f"{sum(run.values())} cases run by onnxruntime ("
                  + ", ".join(f"{n} {k}" for k, n in sorted(run.items())) + f"); "
                  f"{sum(no_form.values())} cases with no ONNX form")
    tr.write_line("no ONNX form, per reason:")
    for reason, n in no_form.most_common():
        tr.write_line(f"  {n:6d}  {reason}")
    tr.write_line("per op (ops with cases that have no ONNX form):")
    for op in sorted(per_op, key=lambda o: -sum(n for k, n in per_op[o].items() if k.startswith("no ONNX"))):
        outcomes = per_op[op]
        if not any(k.startswith("no ONNX") for k in outcomes):
            continue
        tr.write_line(f"  {op}: " + "; ".join(f"{k} x{n}" for k, n in outcomes.most_common()))
