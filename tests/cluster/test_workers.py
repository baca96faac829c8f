"""``--workers``: each server process's search pool sized to the cores it has."""

import os
import time
from pathlib import Path

import pytest

from webapp.__main__ import default_workers, main


def search_workers(pgid: int) -> int:
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
    ([], {"ARCADE_WORKERS": "3"}, 3),
])
def test_a_server_starts_the_search_workers_it_is_told(servers, args, env, workers):
    (server,) = servers(1, *args, env=env)
    deadline = time.monotonic() + 30
    while search_workers(server.proc.pid) != workers:
        assert time.monotonic() < deadline, f"{search_workers(server.proc.pid)} search workers, not {workers}"
        time.sleep(0.2)


def test_by_default_one_worker_per_core_the_process_may_use(monkeypatch):
    monkeypatch.delenv("ARCADE_WORKERS", raising=False)
    cores = len(os.sched_getaffinity(0))
    assert default_workers() == min(2, cores)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})  # pinned to one core
    assert default_workers() == 1


@pytest.mark.parametrize("args, env, says", [
    (["--workers", "-1"], {}, "--workers must be 0..64"),
    (["--workers", "1000"], {}, "--workers must be 0..64"),
    ([], {"ARCADE_WORKERS": "many"}, "ARCADE_WORKERS must be a number of search workers, got 'many'"),
])
def test_a_bad_worker_count_is_refused(args, env, says, capsys, monkeypatch):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    assert says in capsys.readouterr().err
