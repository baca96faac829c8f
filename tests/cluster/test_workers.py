"""``--workers``: each server process's search pool sized to the cores it has."""

import os
from pathlib import Path

import pytest

from tests.helpers import eventually
from webapp.__main__ import main
from webapp.config import search_workers


def workers_running(pgid: int) -> int:
    """Search workers (spawned ``multiprocessing`` children, not their resource tracker) in a
    process group."""
    count = 0
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and int((entry / "stat").read_text().rsplit(")", 1)[1].split()[2]) == pgid:
                cmdline = (entry / "cmdline").read_bytes()
                count += b"multiprocessing" in cmdline and b"resource_tracker" not in cmdline
        except (OSError, IndexError, ValueError):
            continue
    return count


@pytest.mark.parametrize("args, env, workers", [
    (["--workers", "1"], {}, 1),
    ([], {"ARCADE_AI_PROCESSES": "3"}, 3),
])
def test_a_server_starts_the_search_workers_it_is_told(servers, args, env, workers):
    (server,) = servers(1, *args, env=env)
    eventually(lambda: workers_running(server.proc.pid), lambda n: n == workers, timeout=30, every=0.2,
               what=f"{workers} search workers")


def test_by_default_one_worker_per_core_the_process_may_use(monkeypatch):
    cores = len(os.sched_getaffinity(0))
    assert search_workers() == min(2, cores)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})  # pinned to one core
    assert search_workers() == 1


@pytest.mark.parametrize("value", ["-1", "1000"])
def test_a_bad_worker_count_is_refused(value, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--workers", value])
    assert exit_.value.code == 2
    assert f"--workers must be 0..64 (0: search in the server process), got {value}" in capsys.readouterr().err
