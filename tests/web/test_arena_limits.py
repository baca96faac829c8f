"""Finding 4 of issue 33: arena runs are limited like games. Starting one is rate limited per
client; the list comes a page at a time (each run whole: the arena page makes one request a
page, not one a run); a client keeps a bounded number of runs (its own oldest finished go
first); runs are kept as long as finished games."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.conftest import FAST
from webapp import create_app

QUICK = {"game": "nim", "options": {"piles": "2,3"}, "agents": ["random", "random"], "games": 1}
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def make(tmp_path):
    def make(**config):
        return create_app(dict(FAST, STORE=str(tmp_path / "games.sqlite3"), **config))
    return make


def finished(client, run_id):
    deadline = time.monotonic() + 20
    while client.get(f"/api/arena/{run_id}").get_json()["status"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.02)


def start(client, **kwargs):
    r = client.post("/api/arena", json=QUICK, **kwargs)
    if r.status_code == 202:
        finished(client, r.get_json()["id"])
    return r


def test_starting_runs_is_rate_limited_per_client(make):
    app = make(ARENA_LIMIT=3, CREATE_PERIOD=60.0)
    client = app.test_client()
    assert [start(client).status_code for _ in range(3)] == [202, 202, 202]
    r = client.post("/api/arena", json=QUICK)
    assert r.status_code == 429 and r.get_json()["code"] == "rate_limited"
    assert "arena runs" in r.get_json()["error"] and 1 <= int(r.headers["Retry-After"]) <= 61
    assert client.post("/api/arena/presets/nim-quick", json={"games": 1}).status_code == 429  # presets too
    assert client.get("/api/arena").get_json()["total"] == 3  # nothing was started
    other = client.post("/api/arena", json=QUICK, environ_base={"REMOTE_ADDR": "10.0.0.8"})
    assert other.status_code == 202  # another client is not held back


def test_the_run_list_comes_a_page_at_a_time(make):
    app = make(ARENA_LIMIT=1000)
    client = app.test_client()
    ids = [start(client).get_json()["id"] for _ in range(5)]
    first = client.get("/api/arena?limit=2").get_json()
    assert [r["id"] for r in first["runs"]] == ids[3:]  # the most recent, oldest first
    assert first["total"] == 5 and first["next"] == 2 and first["offset"] == 0
    run = first["runs"][0]
    assert {"id", "status", "played", "game", "options", "agents", "games", "seed"} <= set(run)  # the summary
    assert run["results"]["games"] == 1 and run["status"] == "done"  # whole: no request a run
    assert "client" not in run and "address" not in run  # who started it stays on the server
    last = client.get("/api/arena?limit=2&offset=4").get_json()
    assert [r["id"] for r in last["runs"]] == ids[:1] and last["next"] is None
    assert len(client.get("/api/arena").get_json()["runs"]) == 5  # a default page holds them
    for bad in ("limit=0", "limit=101", "offset=-1", "limit=x"):
        r = client.get(f"/api/arena?{bad}")
        assert r.status_code == 400 and r.get_json()["code"] == "bad_request", bad


def test_a_client_keeps_a_bounded_number_of_runs(make):
    app = make(ARENA_LIMIT=1000, MAX_ARENA_RUNS_KEPT=3)
    client = app.test_client()
    theirs = start(client, environ_base={"REMOTE_ADDR": "10.0.0.9"}).get_json()["id"]
    mine = [start(client).get_json()["id"] for _ in range(5)]
    kept = [r["id"] for r in client.get("/api/arena").get_json()["runs"]]
    assert kept == [theirs] + mine[2:]  # my oldest two went; another client's run stays
    assert client.get(f"/api/arena/{mine[0]}").status_code == 404


def test_runs_are_kept_as_long_as_finished_games(make):
    app = make()
    assert app.config["KEEP_ARENA_DAYS"] == app.config["KEEP_FINISHED_DAYS"]
    retention = app.extensions["arcade"].store.backend.retention
    assert retention.arena == retention.finished


def test_the_arena_page_fetches_a_page_not_every_run():
    script = (ROOT / "static/js/arena.js").read_text()
    assert "/api/arena?offset=" in script
    # no request per listed run on load: runs come whole in the page
    assert not re.search(r"list\.runs\.map\([^)]*getJSON", script)
