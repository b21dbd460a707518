"""The worker process of `opref conformance run`: runs (case, backend) tasks and reports one JSON line
per finished task. Started as `python -m opref.conformance.worker`; it reads batches of tasks as JSON
lines on stdin and answers on its original stdout (fd 1 is pointed at stderr first, so that a
backend printing to stdout cannot corrupt the protocol). Backends are built once per worker.

`WorkerProcess` is the parent's side: it runs a batch with a per-task timeout; a task that kills the
process is `crashed`, one that outlives the timeout is `timeout` (the process is killed), and the
process is restarted for the rest of the batch.
"""
from __future__ import annotations

import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from .casefiles import SuiteCase, dumps, encode, write_npz


# --- comparing -------------------------------------------------------------------------------------
def min_tolerance(expected, actual, rtol: float, scale: float) -> float:
    """The smallest atol (at this rtol, before scaling) with which `actual` would pass; inf when
    none would (one-sided NaN, inf against a finite value)."""
    e, a = np.asarray(expected, np.float64), np.asarray(actual, np.float64)
    same = (e == a) | (np.isnan(e) & np.isnan(a))
    with np.errstate(invalid="ignore"):
        err = np.where(same, 0.0, np.abs(e - a))
    if not np.isfinite(err).all():
        return float("inf")
    need = (err - rtol * np.abs(np.where(np.isfinite(e), e, 0.0))) / max(scale, 1e-300)
    return float(max(need.max(initial=0.0), 0.0))


def compare(case: SuiteCase, outputs, onnx: bool):
    """(status, message, min_tolerance) of a backend's outputs against the expected ones."""
    from .compare import mismatch
    from ..types import element_type
    entry = case.entry
    expected = case.expected
    if onnx:
        expected = expected[:len(entry.get("onnx_outputs") or [])]
    if len(outputs) != len(expected):
        return "failed", f"{len(outputs)} outputs, expected {len(expected)}", None
    tol = entry.get("onnx_tolerance", entry["tolerance"]) if onnx else entry["tolerance"]
    problems, need, comparable = [], 0.0, True
    for k, (e, a) in enumerate(zip(expected, outputs)):
        a = np.asarray(a)
        problem = mismatch(e, a, exact=tol["exact"], scale=tol["scale"], tolerance=tol.get("type"))
        if problem is None:
            continue
        problems.append(f"output {k} ({entry['outputs'][k]}): {problem}")
        try:
            same_kind = e.shape == a.shape and element_type(e).name == element_type(a).name \
                and element_type(e).name not in ("string",)
        except Exception:  # noqa: BLE001 -- a backend returning an array of no element type
            same_kind = False
        if same_kind:
            need = max(need, min_tolerance(e, a, tol["rtol"], tol["scale"]))
        else:
            comparable = False
    if not problems:
        return "passed", None, None
    return "failed", "; ".join(problems), ({"rtol": tol["rtol"], "atol": need} if comparable else None)


# --- repro folders ----------------------------------------------------------------------------------
def repro_command(suite: str, spec: str, case_id: str, device: str | None = None) -> str:
    dev = f" --device {device}" if device else ""
    return f"opref conformance run {suite} --backends {spec}{dev} --case '{case_id}'"


def write_repro(repro_root: Path, backend: str, case: SuiteCase, command: str, actual=None) -> str:
    """Copies the case's files to repro/<backend>/<case id>/ (+ actual.npz, command.txt); returns the path."""
    d = repro_root / backend / case.id
    d.mkdir(parents=True, exist_ok=True)
    for f in case.dir.iterdir():
        if f.is_file():
            shutil.copyfile(f, d / f.name)
    if actual is not None:
        from ..types import element_type
        arrays = {}
        for k, a in enumerate(actual):
            a = np.asarray(a)
            name = case.entry["outputs"][k] if k < len(case.entry["outputs"]) else f"output_{k}"
            try:
                arrays[name] = encode(a, element_type(a).name)
            except Exception:  # noqa: BLE001 -- an array of no element type: kept as NumPy has it
                arrays[name] = a
        write_npz(d / "actual.npz", arrays)
    (d / "command.txt").write_text(command + "\n", encoding="utf-8")
    return str(d)


# --- the worker side --------------------------------------------------------------------------------
class _Backends:
    def __init__(self, device):
        self.device, self.made, self.errors = device, {}, {}

    def get(self, spec):
        from .backends import make_backend
        if spec in self.errors:
            raise self.errors[spec]
        if spec not in self.made:
            try:
                self.made[spec] = make_backend(spec, self.device)
            except Exception as e:  # noqa: BLE001 -- reported as a harness error for each of its cases
                self.errors[spec] = e
                raise
        return self.made[spec]


def execute(task: dict, suite: Path, repro_root: Path | None, backends: _Backends, suite_arg: str) -> dict:
    """Runs one (case, backend) task; returns its result fields."""
    from .backends import NotImplementedByBackend, describe
    if "describe" in task:                 # build the backend and say what it is
        try:
            b = backends.get(task["describe"])
            return {"status": "passed", "describe": describe(b, task["describe"])}
        except Exception as e:  # noqa: BLE001
            return {"status": "harness-error", "message": f"cannot be built: {type(e).__name__}: {_line(e)}"}
    entry, spec = task["entry"], task["backend"]
    t0 = time.perf_counter()
    case = SuiteCase(entry, suite / entry["dir"])
    out = {"status": "passed", "message": None, "min_tolerance": None, "repro": None, "actual": None}
    try:
        backend = backends.get(spec)
    except Exception as e:  # noqa: BLE001
        out.update(status="harness-error", message=f"backend {spec!r} could not be built: {type(e).__name__}: "
                                                    f"{_line(e)}")
        out["seconds"] = time.perf_counter() - t0
        return out
    formats = tuple(getattr(backend, "formats", ("ir",)))
    onnx = "ir" not in formats
    try:
        if onnx and case.onnx_path is None:
            raise NotImplementedByBackend(entry.get("onnx_reason") or "the case has no ONNX form")
        with np.errstate(all="ignore"):
            outputs = backend.run(case)
    except NotImplementedByBackend as e:
        out.update(status="not-implemented", message=_line(e))
    except Exception as e:  # noqa: BLE001 -- the backend failed on a valid case
        out.update(status="failed", message=f"the backend raised {type(e).__name__}: {_line(e)}")
    else:
        try:
            outputs = list(outputs)
            status, message, need = compare(case, outputs, onnx)
            out.update(status=status, message=message, min_tolerance=need)
            if status == "failed":
                out["actual"] = outputs
        except Exception as e:  # noqa: BLE001 -- comparing failed: the harness's fault
            out.update(status="harness-error", message=f"comparing outputs: {type(e).__name__}: {_line(e)}")
    out["seconds"] = time.perf_counter() - t0
    actual = out.pop("actual")
    if out["status"] in ("failed", "harness-error") and repro_root is not None:
        cmd = repro_command(suite_arg, spec, entry["id"], backends.device)
        out["repro"] = write_repro(repro_root, backend.name, case, cmd, actual)
    return out


def _line(e) -> str:
    text = str(e).strip()
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    # OpenVINO's messages start with "Exception from src/..." frames; the last line says what happened
    if lines and lines[0].startswith("Exception from "):
        lines = [ln for ln in lines if not ln.startswith("Exception from ")] or lines
    return (" ".join(lines[:2]) if lines else type(e).__name__)[:500]


def main() -> int:
    proto = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    backends = None
    for line in sys.stdin:
        batch = json.loads(line)
        if backends is None:
            backends = _Backends(batch.get("device"))
        suite = Path(batch["suite"])
        repro = Path(batch["repro"]) if batch.get("repro") else None
        for task in batch["tasks"]:
            r = execute(task, suite, repro, backends, batch.get("suite_arg", str(suite)))
            proto.write(dumps(r, indent=None) + "\n")
    return 0


# --- the parent side --------------------------------------------------------------------------------
class WorkerProcess:
    """One worker subprocess, restarted after a crash or a timeout."""

    def __init__(self, env=None):
        self.env = env
        self.proc = None
        self.log = None

    def _start(self):
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([sys.executable, "-m", "opref.conformance.worker"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.log, env=self.env, text=True,
                                     bufsize=1, start_new_session=True)
        self.buf = ""

    def _stderr_tail(self) -> str:
        try:
            self.log.seek(0)
            lines = [ln.strip() for ln in self.log.read().decode("utf-8", "replace").splitlines() if ln.strip()]
            return lines[-1][:300] if lines else ""
        except (OSError, ValueError):
            return ""

    def kill(self):
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.proc.wait()
            for f in (self.proc.stdin, self.proc.stdout):
                try:
                    f.close()
                except OSError:
                    pass
            self.log.close()
            self.proc = None

    def close(self):
        if self.proc is not None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
            self.kill()

    # A batch is sent, then results are read one line per task; the running task is the first
    # without a result, started when the previous one finished.
    def send(self, header: dict, tasks: list):
        if self.proc is not None and self.proc.poll() is not None:   # died while idle
            self.kill()
        if self.proc is None:
            self._start()
        self.header, self.tasks, self.results = header, list(tasks), []
        self.started = time.monotonic()
        self.proc.stdin.write(dumps({**header, "tasks": tasks}, indent=None) + "\n")
        self.proc.stdin.flush()

    @property
    def busy(self) -> bool:
        return self.proc is not None and len(self.results) < len(self.tasks)

    def fileno(self) -> int:
        return self.proc.stdout.fileno()

    def deadline(self) -> float:
        return self.started + self.header["timeout"]

    def readable(self, on_result):
        """Reads the worker's answers; on EOF the running task crashed the process. Calls
        on_result(task, result) for each finished task."""
        chunk = os.read(self.fileno(), 1 << 16).decode("utf-8", "replace")
        if chunk:
            self.buf += chunk
            while "\n" in self.buf:
                line, self.buf = self.buf.split("\n", 1)
                task = self.tasks[len(self.results)]
                r = json.loads(line)
                self.results.append(r)
                self.started = time.monotonic()
                on_result(task, r)
            return
        code = self.proc.wait()
        tail = self._stderr_tail()
        self.kill()
        how = f"killed by signal {signal.Signals(-code).name}" if code < 0 else f"exited with status {code}"
        self._fail_running("crashed", f"the worker process {how} while running this case"
                           + (f" (last stderr line: {tail})" if tail else ""), on_result)

    def overdue(self, on_result):
        """Kills the worker if the running task outlived the timeout (status timeout)."""
        if self.busy and time.monotonic() > self.deadline():
            self.kill()
            self._fail_running("timeout", f"no result within {self.header['timeout']:g} s; the worker was killed",
                               on_result)

    def _fail_running(self, status, message, on_result):
        task = self.tasks[len(self.results)]
        r = {"status": status, "message": message, "seconds": round(time.monotonic() - self.started, 6),
             "min_tolerance": None, "repro": None}
        self.results.append(r)
        rest = self.tasks[len(self.results):]
        on_result(task, r)
        if rest:                                  # a fresh process for the rest of the batch
            self.send(self.header, rest)


def pump(workers: list, on_result, wait: float = 0.5) -> None:
    """Waits (at most `wait` s, or until the nearest deadline) for answers of the busy workers."""
    busy = [w for w in workers if w.busy]
    if not busy:
        return
    now = time.monotonic()
    timeout = max(0.0, min(wait, min(w.deadline() for w in busy) - now + 0.01))
    sel = selectors.DefaultSelector()
    for w in busy:
        sel.register(w.fileno(), selectors.EVENT_READ, w)
    ready = sel.select(timeout)
    sel.close()
    for key, _ in ready:
        if key.data.busy:
            key.data.readable(on_result)
    for w in busy:
        w.overdue(on_result)


def run_batch(header: dict, tasks: list, env=None) -> list[dict]:
    """Runs a batch in one (restartable) worker subprocess; results in task order (used by Dask tasks)."""
    results = {}
    w = WorkerProcess(env)
    try:
        w.send(header, tasks)
        ids = {id(t): i for i, t in enumerate(tasks)}
        while len(results) < len(tasks):
            pump([w], lambda t, r: results.__setitem__(ids[id(t)], r), wait=1.0)
    finally:
        w.close()
    return [results[i] for i in range(len(tasks))]


if __name__ == "__main__":
    sys.exit(main())
