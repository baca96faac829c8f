"""Arena runs live in the game store: readable after they end and after a restart, reported
``interrupted`` when their server stopped mid-run, dropped after the retention."""

import time

from tests.helpers import eventually, wait_for_arena_run
from webapp.arena import ArenaJob
from webapp.stores import DAY

RUN = {"game": "nim", "options": {"piles": "2,3"}, "agents": ["alphabeta", "random"], "games": 6, "seed": 1}


def test_a_finished_run_is_stored_and_survives_a_restart(make_app):
    first = make_app()
    client = first.test_client()
    r = client.post("/api/arena", json=RUN)
    assert r.status_code == 202
    run_id = r.get_json()["id"]
    done = wait_for_arena_run(client, run_id)
    assert done["status"] == "done" and done["played"] == 6 and done["results"]["games"] == 6
    arenas = first.extensions["arcade"].arenas
    eventually(lambda: arenas._running, lambda running: not running, timeout=5)  # its thread stores it last
    assert arenas._running == {}  # a finished run leaves memory: read back from the store
    again = make_app().test_client()  # the same store file: a restarted server
    stored = again.get(f"/api/arena/{run_id}").get_json()
    assert stored["status"] == "done" and stored["results"] == done["results"] and stored["game"] == "nim"
    assert [run["id"] for run in again.get("/api/arena").get_json()["runs"]] == [run_id]
    assert again.get(f"/api/arena/{run_id}.csv").status_code == 200
    assert again.get("/api/arena/nope").status_code == 404


def test_a_run_cut_short_by_a_restart_is_interrupted_and_runs_expire(app):
    arenas = app.extensions["arcade"].arenas
    job = ArenaJob("nim", {}, ["random", "random"], 10, 1)  # stored as running, never run here
    arenas.backend.put_arena(job.to_store(), time.time() - 600)
    data = app.test_client().get(f"/api/arena/{job.id}").get_json()
    assert data["status"] == "interrupted" and "stopped" in data["error"]
    arenas.backend.put_arena(job.to_store(), time.time())  # another process updates it: running
    assert app.test_client().get(f"/api/arena/{job.id}").get_json()["status"] == "running"
    app.extensions["arcade"].store.sweep(time.time() + 29 * DAY)  # kept as long as a finished game
    assert app.test_client().get(f"/api/arena/{job.id}").status_code == 200
    app.extensions["arcade"].store.sweep(time.time() + 31 * DAY)
    assert app.test_client().get(f"/api/arena/{job.id}").status_code == 404
