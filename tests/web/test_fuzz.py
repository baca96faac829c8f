"""Fuzz every HTTP route and every Socket.IO event with hypothesis.

Random JSON values, wrong types, huge strings, deep nesting, wrong content types, plausible
bodies with one field gone wrong. Whatever comes in: nothing crashes (no 5xx, no
``internal`` error), a refusal is a clear 4xx JSON (or an ``error`` event) with a code and a
message, and a refused input changes nothing (the game's version and history, the number of
games and arena runs). Routes and events are read from the app, so new ones are fuzzed too.
"""

from __future__ import annotations

import json
import time
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import experiments
from webapp import create_app, get_socketio

CONFIG = {"TESTING": True, "AI_PROCESSES": 0, "AI_PAUSE": 0.05, "AI_TIME_CAP": 2.0, "HINT_TIME": 0.5,
          "COMPARE_TIME_CAP": 0.5, "CREATE_LIMIT": 1_000_000, "TRACE_MAX_NODES": 200,
          "STORE": ":memory:",  # apps made at collection too: never the project's instance store
          "SOCKET_EVENT_LIMIT": ""}  # thousands of events from one client: bad input, not a flood, is tested here
FUZZ = settings(max_examples=25, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])

CATALOG = experiments.catalog()
PRESETS = [p["name"] for p in CATALOG["presets"]]
EXAMPLES = [e["name"] for e in CATALOG["examples"]]
GAMES = ["nim", "sim", "shannon", "blacksin", "cantris"]
SPECS = ["human", "random", "alphabeta:depth=1", "minimax:depth=1", "model:opponent=rules", "rules",
         "expecti:depth=1", "alphabeta:time=0.01", "alphabeta:depth=-1", "nobody"]

# ----- values ----------------------------------------------------------------------------------------
huge_text = st.integers(400, 3000).map(lambda n: "x" * n)
texts = st.one_of(st.text(max_size=30), huge_text, st.sampled_from(["", " ", "0", "-1", "1:1", "2:2", "null",
                                                                     "../..", "%00", "🙂", "a" * 101]))
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30), st.floats(allow_nan=False), texts)


def json_trees(max_leaves: int, max_size: int) -> st.SearchStrategy:
    """JSON values: scalars, and lists and objects of up to ``max_size`` items, ``max_leaves`` in all."""
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=max_size), st.dictionaries(st.text(max_size=12), inner, max_size=max_size)),
        max_leaves=max_leaves)


json_values = json_trees(max_leaves=25, max_size=6)
deep = st.integers(15, 3000).map(lambda n: "[" * n + "]" * n)


# a field's wrong value: any JSON, kept small (big and deep bodies are the "json" and "deep" kinds';
# a body of sixteen fields each up to 25 values deep spent the class fuzz tests' time in hypothesis)
wrong_values = json_trees(max_leaves=6, max_size=3)


def plausible(valid: dict) -> st.SearchStrategy:
    """A body with the right keys, each value valid or wrong (and maybe an extra key)."""
    fields = {key: st.one_of(st.sampled_from(choices), wrong_values) for key, choices in valid.items()}
    return st.fixed_dictionaries({}, optional=fields).flatmap(
        lambda body: st.one_of(st.just(body), json_values.map(lambda extra: {**body, "extra": extra})))


BODIES = plausible({
    "game": GAMES, "options": [{}, {"piles": [1, 2]}, {"hidden": True}, {"board": "6x3"}, {"piles": "1,2"}],
    "players": [["human", "human"], ["human", "random"], ["human", "model:opponent=rules"], ["human"]],
    "agents": [["random", "random"], ["human", "random"], ["random"]],
    "games": [1, 0, 2, -1, 10**9], "seed": [1, None, "x"],
    # classes
    "name": ["Swift Otter", "", "<b>x</b>", "x" * 30], "code": ["ZZZZZZ", "", "k7m-4ap"],
    "opponent": ["alphabeta:strength=3", "human", "nobody"], "token": ["wrong-token", "", None],
    "moves": [[], ["1:1"], ["9:9"], "1:1"], "seconds": [30, 0, "soon", 10**9], "move": ["1:1", "9:9", ["1:1"]],
})

# A request's body: its kind, and a body of that kind only ({"kind": "json", "json": [...]}:
# drawing every kind's body and using one spent most of the fuzz tests' time in hypothesis)
BODY_OF_KIND = {"json": json_values, "plausible": BODIES, "raw": st.binary(max_size=200), "deep": deep,
                "none": st.none()}
bodies = st.sampled_from(list(BODY_OF_KIND)).flatmap(
    lambda kind: BODY_OF_KIND[kind].map(lambda body: {"kind": kind, kind: body}))

requests_ = st.builds(lambda body, rest: {**body, **rest}, bodies, st.fixed_dictionaries({
    "content_type": st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded",
                                     "multipart/form-data; boundary=x", "application/xml", None]),
    "query": st.dictionaries(st.sampled_from(["ply", "depth", "agent", "max_nodes", "eval", "token", "algo",
                                              "nodes", "q", "offset", "limit"]),
                             st.one_of(texts, st.sampled_from(SPECS), st.integers(-5, 40).map(str)), max_size=3),
    "params": st.dictionaries(st.sampled_from(["game_id", "job_id", "name", "filename", "class_id", "challenge_id",
                                               "student_id"]),
                              st.one_of(texts, st.sampled_from(PRESETS + EXAMPLES)), max_size=4),
}))


# ----- the app under fuzz -------------------------------------------------------------------------------
class Target:
    """One app with a reference game (Nim 1,2 between two people, one move played)."""

    def __init__(self):
        self.app = create_app(CONFIG)
        self.client = self.app.test_client()
        body = self.client.post("/api/games", json={"game": "nim", "options": {"piles": [1, 2]}}).get_json()
        self.game_id = body["id"]
        self.tokens = [s["token"] for s in body["seats"]]
        self.sio = get_socketio(self.app).test_client(self.app, flask_test_client=self.client)
        self.sio.emit("move", {"game_id": self.game_id, "token": self.tokens[0], "move": "2:1"})
        self.sio.get_received()
        self.arcade = self.app.extensions["arcade"]
        # a class with a student and a challenge under way (for the class routes and events)
        klass = self.client.post("/api/classes", json={"name": "Fuzz", "game": "nim", "options": {"piles": [1, 2]},
                                                       "opponent": "random"}).get_json()
        self.class_id, self.teacher_token = klass["id"], klass["teacher_token"]
        pupil = self.client.post("/api/classes/join", json={"code": klass["code"], "name": "Fuzz Student"}).get_json()
        self.student_id, self.student_token = pupil["student_id"], pupil["student_token"]
        challenge = {"token": self.teacher_token, "moves": [], "seconds": 600}
        self.challenge_id = self.client.post(f"/api/classes/{self.class_id}/challenges", json=challenge).get_json()["id"]
        # A challenge a fuzzed body starts reveals itself at its deadline, in the background: an
        # actor of its own (test_classes tests it), which here would change the class between a
        # refused request's before and after. Its challenges stay open.
        self.app.extensions["class_push"].reveal_at_deadline = lambda *args: None
        self.formats()

    def formats(self):
        """The lesson formats (issue 43): a predict-the-prune puzzle, a tournament, homework."""
        base, token = f"/api/classes/{self.class_id}", self.teacher_token
        second = self.client.post("/api/classes/join", json={"code": self.client.get(
            f"{base}?token={token}").get_json()["code"], "name": "Fuzz Second"}).get_json()
        tree = [[1, 2], [3, 4]]
        self.prune_id = self.client.post(f"{base}/prunes", json={"token": token, "tree": tree}).get_json()["id"]
        self.tournament_id = self.client.post(f"{base}/tournaments", json={
            "token": token, "players": [self.student_id, second["student_id"]]}).get_json()["id"]
        self.homework_id = self.client.post(f"{base}/homework", json={
            "token": token, "due": time.time() + 86400, "positions": [{"kind": "prune", "tree": tree}]}).get_json()["id"]

    def formats_snapshot(self):
        store = self.app.extensions["class_formats"].store
        return [(item["version"], store.answers(item["id"])) for kind in ("prune", "tournament", "homework")
                for item in store.of_class(self.class_id, kind)]

    def snapshot(self):
        state = self.client.get(f"/api/games/{self.game_id}").get_json()
        classes = self.app.extensions["classes"]
        klass = classes.get(self.class_id)
        answers = {cid: classes.store.answers(self.class_id, cid) for cid in klass.challenges}
        return (state["version"], json.dumps(state["history"]), state["status"],
                len(self.arcade.store.all()), len(self.arcade.arenas), klass.version, answers,
                self.formats_snapshot())

    def stop_arenas(self):
        for job in list(self.arcade.arenas.values()):
            job.cancel.set()


@pytest.fixture(scope="module")
def target():
    t = Target()
    yield t
    t.stop_arenas()


def rules(app):
    return sorted((rule.rule, method, rule) for rule in app.url_map.iter_rules()
                  for method in rule.methods - {"HEAD", "OPTIONS"})


ROUTES = [(path, method) for path, method, _ in rules(create_app(CONFIG))]


def assert_clear_refusal(response, what):
    assert response.status_code < 500, (what, response.status_code, response.get_data(as_text=True)[:300])
    if response.status_code >= 400 and response.mimetype == "application/json":
        body = response.get_json()
        assert body.get("code") and body.get("message") and body.get("error"), (what, body)
        assert body["code"] != "internal", (what, body)
        assert len(body["message"]) <= 600
    return response


@pytest.mark.parametrize("path,method", ROUTES)
@FUZZ
@given(req=requests_)
def test_every_route_refuses_bad_input_clearly_and_changes_nothing(target, path, method, req):
    rule = next(r for p, m, r in rules(target.app) if p == path and m == method)
    values = {"game_id": target.game_id, "job_id": next((j.id for j in target.arcade.arenas.values()), "nope"),
              "name": (PRESETS + EXAMPLES)[0] if method == "GET" else "nope", "filename": "js/play.js",
              "class_id": target.class_id, "challenge_id": target.challenge_id, "student_id": target.student_id,
              "prune_id": target.prune_id, "tid": target.tournament_id, "hid": target.homework_id}
    values.update(req["params"])
    url = path
    for arg in rule.arguments:
        url = url.replace(f"<{arg}>", quote(values[arg], safe="")).replace(f"<path:{arg}>", quote(values[arg]))
    kwargs: dict = {"query_string": req["query"]}
    kind = req["kind"]
    if kind in ("json", "plausible"):
        kwargs["data"] = json.dumps(req[kind])
        kwargs["content_type"] = req["content_type"] or "application/json"
    elif kind == "deep":
        kwargs.update(data=req["deep"], content_type="application/json")
    elif kind == "raw":
        kwargs["data"] = req["raw"]
        if req["content_type"]:
            kwargs["content_type"] = req["content_type"]
    before = target.snapshot()
    response = target.client.open(url, method=method, **kwargs)
    what = (method, url, kind, kwargs.get("content_type"), str(kwargs.get("data"))[:120])
    assert_clear_refusal(response, what)
    if response.status_code >= 400:
        if url.startswith("/api/") or method != "GET":
            assert response.mimetype == "application/json", what
        assert target.snapshot() == before, what
    target.stop_arenas()


# ----- Socket.IO ------------------------------------------------------------------------------------------
def events(app) -> list[str]:
    """Every event the server answers: its handlers, and its namespace's ``on_<event>`` methods."""
    server = get_socketio(app).server
    names = set(server.handlers.get("/", {}))
    for namespace in server.namespace_handlers.values():
        names |= {name.removeprefix("on_") for name in dir(namespace) if name.startswith("on_")}
    return sorted(names - {"connect", "disconnect"})


EVENTS = events(create_app(CONFIG))


def test_the_fuzzed_events_are_every_event_a_client_may_send():
    """However the server registers its handlers, the fuzz reaches each of them (CONTRACT.md's and ours)."""
    expected = ["join", "leave", "move", "hint", "takeback", "restart", "pause", "resume", "step", "ai_speed",
                "takeback_decline", "retry_ai", "class_join"]
    assert set(EVENTS) == set(expected)


def socket_payloads(target_ids):
    game_ids = st.one_of(st.sampled_from(target_ids), texts, json_values)
    tokens = st.one_of(st.none(), texts, json_values, st.just("wrong-token"))
    class_ids = st.one_of(st.sampled_from(target_ids), texts, json_values)
    moves = st.one_of(st.sampled_from(["1:1", "2:1", "1:2", " 1:1 ", "1:01", "9:9"]), texts, json_values)
    return st.one_of(json_values, st.fixed_dictionaries(
        {}, optional={"game_id": game_ids, "class_id": class_ids, "token": tokens, "move": moves,
                      "extra": json_values}))


@pytest.mark.parametrize("event", EVENTS)
@FUZZ
@given(data=st.data())
def test_every_event_refuses_bad_input_clearly_and_changes_nothing(target, event, data):
    """Without a seat's token nothing may change; every refusal is an ``error`` with a code."""
    payload = data.draw(socket_payloads([target.game_id, target.class_id]))
    before = target.snapshot()
    target.sio.get_received()
    target.sio.emit(event, payload)
    received = target.sio.get_received()
    errors = [e["args"][0] for e in received if e["name"] == "error"]
    for error in errors:
        assert error.get("code") and error.get("message"), (event, payload, error)
        assert error["code"] != "internal", (event, str(payload)[:200], error)
        assert len(error["message"]) <= 600
    assert target.snapshot() == before, (event, str(payload)[:200])


@pytest.mark.parametrize("event", EVENTS)
@FUZZ
@given(data=st.data())
def test_a_seat_holder_with_bad_input_changes_nothing(target, event, data):
    """With a real seat's token: a refused event changes nothing; an accepted one (a legal
    move, a restart) moves the version on by exactly one change."""
    payload = data.draw(st.fixed_dictionaries(
        {"game_id": st.just(target.game_id), "token": st.sampled_from(target.tokens)},
        optional={"move": st.one_of(st.sampled_from(["1:1", "2:1", " 1:1 ", "1:01", "2:2", "3:1"]), texts,
                                    json_values),
                  "extra": json_values}))
    before = target.snapshot()
    target.sio.get_received()
    target.sio.emit(event, payload)
    errors = [e["args"][0] for e in target.sio.get_received() if e["name"] == "error"]
    after = target.snapshot()
    for error in errors:
        assert error.get("code") and error.get("message") and error["code"] != "internal", (event, payload, error)
    if errors:
        assert after == before, (event, str(payload)[:200], errors)
    else:
        assert after[0] in (before[0], before[0] + 1), (event, payload)
    state = target.client.get(f"/api/games/{target.game_id}").get_json()
    for entry in state["history"]:
        assert entry["move"] == entry["move"].strip() and len(entry["move"]) <= 10  # canonical notation
    if state["status"] == "over" or event == "restart":
        target.sio.emit("restart", {"game_id": target.game_id, "token": target.tokens[0]})
        target.sio.get_received()


# ----- classes, with real tokens ------------------------------------------------------------------------
# (but the class's deletion, tested in test_classes: here it would end the fuzz's class)
CLASS_ROUTES = [(path, method) for path, method in ROUTES if path.startswith("/api/classes/<class_id>")
                and (path, method) != ("/api/classes/<class_id>", "DELETE")]


@pytest.mark.parametrize("path,method", CLASS_ROUTES)
@FUZZ
@given(body=BODIES, who=st.sampled_from(["teacher", "student"]))
def test_a_class_route_with_a_real_token_and_a_bad_body_changes_nothing(target, path, method, body, who):
    """The teacher's or a student's own token, a body with fields valid or wrong: an accepted
    request is a 2xx; a refused one a clear 4xx that leaves the class as it was."""
    token = target.teacher_token if who == "teacher" else target.student_token
    url = (path.replace("<class_id>", target.class_id).replace("<challenge_id>", target.challenge_id)
           .replace("<student_id>", target.student_id + "x"))  # never removes the fuzz's own student
    before = target.snapshot()
    if method == "POST":
        response = target.client.post(url, json={**body, "token": token})
    else:
        response = target.client.open(url, method=method, query_string={"token": token})
    assert_clear_refusal(response, (method, url, str(body)[:120]))
    if response.status_code >= 400:
        assert target.snapshot() == before, (method, url, body)
