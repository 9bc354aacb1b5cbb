"""A real SIGINT / SIGTERM to a running ``symcot verify``: reports keep the finished rows, workers die."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table from /proc")


def _children(pid: int) -> set[int]:
    """Processes whose parent is ``pid`` (the verify run's worker pool)."""
    out = set()
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.add(int(d.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupt(tmp_path: Path, sig: int, engine: str, group: bool) -> tuple[int, str, str, dict, str, set[int]]:
    out, md = tmp_path / "r.json", tmp_path / "r.md"
    # eq:depth-height finishes at once; thm:cotdfs at size 5 (5,259,561 inputs) runs in a worker pool
    argv = [sys.executable, "-m", "symcot.cli", "verify", "eq:depth-height", "thm:cotdfs", "--max-size", "5",
            "--jobs", "2", "--engine", engine, "--no-progress", "--json", str(out), "--markdown", str(md)]
    # SIGINT back to its default action in the run, as under a terminal: a test run started in the background
    # of a non-interactive shell inherits SIGINT ignored, and verify keeps an ignored signal ignored
    p = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=group, preexec_fn=_default_sigint)
    workers: set[int] = set()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and p.poll() is None:
        workers = _children(p.pid)
        if len(workers) >= 2:  # the pool of thm:cotdfs at size 5 is running
            break
        time.sleep(0.1)
    assert p.poll() is None and workers, "the run ended before its worker pool started"
    time.sleep(0.5)
    if group:  # Ctrl-C on a terminal: the signal reaches the whole process group, workers included
        os.killpg(p.pid, sig)
    else:
        os.kill(p.pid, sig)
    try:
        stdout, stderr = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:  # leave no run behind: end it, its workers and their children
        for pid in [p.pid, *workers, *(c for w in workers for c in _children(w))]:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        p.communicate()
        pytest.fail(f"the run did not end within 60 s of the signal (workers {sorted(workers)} killed)")
    return p.returncode, stdout, stderr, json.loads(out.read_text()), md.read_text(), workers


@pytest.mark.parametrize(("sig", "status", "engine", "group"), [
    (signal.SIGINT, 130, "batched", False),  # the shard pool (check/shard.py)
    (signal.SIGINT, 130, "exact", True),  # the pool of check/parallel.py, Ctrl-C to the process group
    (signal.SIGTERM, 143, "batched", False),
])
def test_a_signal_keeps_the_finished_rows_and_ends_the_workers(tmp_path, sig, status, engine, group):
    rc, stdout, stderr, report, md, workers = _interrupt(tmp_path, sig, engine, group)
    assert rc == status, stderr
    rows = {(r["id"], r["variant"]): r for r in report["claims"]}
    assert rows[("eq:depth-height", "as-written")]["verdict"] == "refuted"  # finished before the signal
    assert rows[("eq:depth-height", "repaired")]["verdict"] == "verified"
    cut = rows[("thm:cotdfs", "as-written")]
    assert cut["verdict"] == "unknown" and cut["notes"] == ["interrupted"]
    assert report["meta"]["interrupted"] == "interrupted"
    assert "| `thm:cotdfs` | as-written | **unknown** |" in md and "- interrupted" in md
    assert "\nthm:cotdfs       unknown: interrupted\n" in stdout
    assert "Traceback" not in stderr
    assert "symcot: interrupted: 2 of 3 rows finished (in the reports)" in stderr
    deadline = time.monotonic() + 10
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(w) for w in workers), "a worker outlived the interrupted run"
