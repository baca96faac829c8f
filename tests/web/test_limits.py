"""The limits a client meets: one hint in flight per seat, a cap on AI-against-AI games and
arena runs per address (429 ``too_many`` beyond it, nothing made), and the teaching tools
answering the same through a pool of worker processes as in the server's own thread (the tree
page's true minimax values included)."""


import pytest
import requests

from tests.conftest import FAST
from tests.helpers import eventually, wait_for_arena_run
from webapp import create_app, get_socketio
from webapp.client_caps import ClientCaps
from webapp.errors import ArcadeError

BIG = ",".join(["30"] * 10)


def make_client(**config):
    app = create_app(dict(FAST, **config))
    return app, app.test_client()


def test_client_caps_count_live_things_per_client():
    class Thing:
        live = True

    caps = ClientCaps("things", 2, lambda t: t.live)
    kept = []
    for _ in range(2):
        with caps.slot("a") as hold:
            kept.append(Thing())
            hold(kept[-1])
    with pytest.raises(ArcadeError) as refused, caps.slot("a"):
        pass
    assert refused.value.status == 429 and refused.value.code == "too_many" and "at most 2" in refused.value.message
    with caps.slot("b") as hold:  # another address has its own slots
        hold(Thing())
    kept[0].live = False  # finished: its slot is free again
    with caps.slot("a") as hold:
        kept.append(Thing())
        hold(kept[-1])
    with pytest.raises(RuntimeError), caps.slot("c"):  # a slot whose making failed is given back
        raise RuntimeError("bad request")
    assert caps.count("c") == 0 and caps.count("a") == 2


def test_a_second_hint_for_the_same_seat_is_refused_while_the_first_runs():
    app, client = make_client(HINT_TIME=1.0)
    data = client.post("/api/games", json={"game": "nim", "options": {"piles": BIG},
                                           "players": ["human", "human"]}).get_json()
    gid, token = data["id"], data["seats"][0]["token"]
    sc = get_socketio(app).test_client(app, flask_test_client=client)
    sc.emit("hint", {"game_id": gid, "token": token})
    sc.emit("hint", {"game_id": gid, "token": token})
    errors = [e["args"][0] for e in sc.get_received() if e["name"] == "error"]
    assert [e["code"] for e in errors] == ["too_many"] and "one at a time" in errors[0]["message"]
    hints = eventually(lambda: [e for e in sc.get_received() if e["name"] == "hint"], what="the hint")
    assert len(hints) == 1
    sc.emit("hint", {"game_id": gid, "token": token})  # the first answered: a new one may start
    assert not [e for e in sc.get_received() if e["name"] == "error"]


def test_ai_against_ai_games_are_capped_per_client():
    # AI_PAUSE keeps each game waiting between its moves: they stay in play during the test
    app, client = make_client(MAX_AI_GAMES_PER_CLIENT=2, AI_PAUSE=5)

    def create(players):
        return client.post("/api/games", json={"game": "nim", "options": {"piles": BIG}, "players": players})

    assert create(["random", "random"]).status_code == 201
    assert create(["alphabeta:depth=1", "random"]).status_code == 201
    before = len(app.extensions["arcade"].store.all())
    r = create(["random:seed=1", "random"])
    assert r.status_code == 429 and r.get_json()["code"] == "too_many"
    assert "AI-against-AI games" in r.get_json()["error"]
    assert len(app.extensions["arcade"].store.all()) == before  # nothing was made
    wrong = create(["random", "randm"])  # at the cap, a request that is wrong is told what is wrong
    assert wrong.status_code == 400 and "unknown agent 'randm'" in wrong.get_json()["error"]
    assert create(["human", "random"]).status_code == 201  # a person playing is not capped
    other = client.post("/api/games", environ_base={"REMOTE_ADDR": "10.0.0.7"},
                        json={"game": "nim", "options": {"piles": BIG}, "players": ["random", "random"]})
    assert other.status_code == 201  # another address has its own slots


def test_arena_runs_are_capped_per_client():
    app, client = make_client(MAX_ARENA_RUNS_PER_CLIENT=1)
    r = client.post("/api/arena", json={"game": "nim", "options": {"piles": "3,4,5"},
                                        "agents": ["alphabeta", "random"], "games": 5000})
    assert r.status_code == 202
    first, token = r.get_json()["id"], r.get_json()["manage_token"]
    refused = client.post("/api/arena/presets/nim-quick", json={"games": 2})
    assert refused.status_code == 429 and refused.get_json()["code"] == "too_many"
    assert len(client.get("/api/arena").get_json()["runs"]) == 1
    assert client.delete(f"/api/arena/{first}", headers={"X-Seat-Token": token}).status_code == 200
    wait_for_arena_run(client, first, timeout=10)
    assert client.post("/api/arena/presets/nim-quick", json={"games": 2}).status_code == 202


@pytest.fixture(scope="module")
def pooled(tmp_path_factory):
    """A live server whose searches all run in one worker process."""
    from tests.conftest import LiveServer

    store = tmp_path_factory.mktemp("pooled") / "games.sqlite3"
    # (a budget no loaded machine runs out of: these tests are about what the worker answers)
    server = LiveServer(create_app(dict(FAST, AI_PROCESSES=1, AI_TIME_CAP=60, COMPARE_TIME_CAP=60,
                                        STORE=str(store)))).start()
    assert server.app.extensions["arcade"].ai.pool.wait_ready()
    yield server
    server.app.extensions["arcade"].ai.shutdown()
    server.stop()


def test_teaching_tools_answer_the_same_through_the_pool(pooled, client):
    """Compare, theory checks, traces and arena runs run in the pool's worker: same answers
    as in the server's own thread (the ``client`` app searches in-process)."""
    here = client.post("/api/games", json={"game": "nim", "options": {"piles": "2,3,4"},
                                           "players": ["human", "human"]}).get_json()
    there = requests.post(f"{pooled.url}/api/games", timeout=10, json={
        "game": "nim", "options": {"piles": "2,3,4"}, "players": ["human", "human"]}).json()
    here_id, there_id = here["id"], there["id"]
    # the creator asks: a game being played is searched for its creator only (issue 41)
    mine_here, mine_there = {"X-Seat-Token": here["manage_token"]}, {"X-Seat-Token": there["manage_token"]}
    for path in ("compare?depth=0", "theory", "trace?agent=alphabeta:depth=3&max_nodes=300"):
        here = client.get(f"/api/games/{here_id}/{path}", headers=mine_here).get_json()
        there = requests.get(f"{pooled.url}/api/games/{there_id}/{path}", headers=mine_there, timeout=30).json()
        if path.startswith("compare"):
            assert [(a["value"], a["nodes"], a["best_move"]) for a in there["algorithms"]] == \
                   [(a["value"], a["nodes"], a["best_move"]) for a in here["algorithms"]]
            assert there["agree"] is True
        elif path == "theory":
            assert there["check"]["agree"] is True
            assert there["check"]["search"]["nodes"] == here["check"]["search"]["nodes"]  # one shared table, as here
            assert there["check"]["search"]["winning_moves"] == here["check"]["search"]["winning_moves"]
        else:
            assert there["nodes"] == here["nodes"] and there["children"] == here["children"]
    r = requests.post(f"{pooled.url}/api/arena", timeout=10, json={
        "game": "nim", "options": {"piles": "2,3"}, "agents": ["alphabeta", "random"], "games": 4, "seed": 1})
    job = r.json()["id"]
    data = eventually(lambda: requests.get(f"{pooled.url}/api/arena/{job}", timeout=10).json(),
                      lambda run: run["status"] != "running", timeout=30, every=0.1, what="the arena run to end")
    assert data["status"] == "done" and data["results"]["wins"] == 4
    assert data["results"]["per_agent"][0]["nodes"] > 0  # agent A searched, in the worker


def test_true_minimax_values_are_searched_in_the_pool(pooled, client, monkeypatch):
    """The tree page's true values: the same as in the server's own thread, and found by the
    worker (the server process's textbook minimax is broken here, the worker's is not)."""
    from engine import textbook

    body = {"ply": 0, "depth": 0, "paths": [[], ["1:4"], ["1:3"], ["1:3", "1:1"], ["9:9"]]}
    made = client.post("/api/games", json={"game": "nim", "options": {"piles": "4,1"},
                                           "players": ["human", "human"]}).get_json()
    # the creator asks: a game being played is searched for its creator only (issue 41)
    here = client.post(f"/api/games/{made['id']}/minimax", json=body,
                       headers={"X-Seat-Token": made["manage_token"]}).get_json()
    made = requests.post(f"{pooled.url}/api/games", timeout=10, json={
        "game": "nim", "options": {"piles": "4,1"}, "players": ["human", "human"]}).json()
    there_id, mine = made["id"], {"X-Seat-Token": made["manage_token"]}

    def not_here(*args, **kwargs):
        raise AssertionError("the textbook minimax ran in the server process")

    monkeypatch.setattr(textbook, "minimax", not_here)
    r = requests.post(f"{pooled.url}/api/games/{there_id}/minimax", json=body, headers=mine, timeout=30)
    assert r.status_code == 200, r.text
    assert r.json() == here and here["values"][0] == 999_999 and here["nodes"] == 44
    big = requests.post(f"{pooled.url}/api/games", timeout=10, json={
        "game": "nim", "options": {"piles": "5,6,7,8"}, "players": ["human", "human"]}).json()
    r = requests.post(f"{pooled.url}/api/games/{big['id']}/minimax", json={"paths": [[]]}, timeout=30,
                      headers={"X-Seat-Token": big["manage_token"]})
    assert r.status_code == 400 and "smaller depth" in r.json()["error"]
