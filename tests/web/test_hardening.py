"""Request limits, JSON errors, the creation rate limit, security headers, canonical storage."""

from __future__ import annotations

import io
import json
import logging
import re

import pytest

from webapp import get_socketio
from webapp.errors import clip
from webapp.security import MaskTokens

CONFIG = {"TESTING": True, "AI_PROCESSES": 0, "AI_PAUSE": 0.05, "AI_TIME_CAP": 5.0, "HINT_TIME": 1.0,
          "CREATE_LIMIT": 100_000}
NIM = {"game": "nim", "options": {"piles": [1, 2]}, "players": ["human", "human"]}

#: Every route that changes something, with a body that would start work if accepted.
STATE_CHANGING = [
    ("/api/games", NIM),
    ("/api/arena", {"game": "nim", "agents": ["random", "random"], "games": 1}),
    ("/api/arena/presets/nim-quick", {}),
    ("/lessons/nim-4-1", {}),
]


@pytest.fixture
def app(make_app):
    return make_app(**CONFIG)


@pytest.fixture
def client(app):
    return app.test_client()


def games_and_runs(app):
    arcade = app.extensions["arcade"]
    return len(arcade.store.all()), len(arcade.arenas)


def assert_json_error(response, status, code=None):
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert body["error"] and body["message"] and body["code"]
    if code:
        assert body["code"] == code
    return body


# ----- JSON only: cross-site forms start nothing ---------------------------------------------------
@pytest.mark.parametrize("path,body", STATE_CHANGING)
@pytest.mark.parametrize("kind", ["urlencoded", "multipart", "text/plain", "none"])
def test_a_cross_site_form_post_starts_nothing(app, client, path, body, kind):
    before = games_and_runs(app)
    if kind == "urlencoded":
        r = client.post(path, data={"game": "nim"})
    elif kind == "multipart":
        r = client.post(path, data={"game": "nim", "f": (io.BytesIO(b"x"), "f.txt")})
    elif kind == "text/plain":
        r = client.post(path, data=json.dumps(body), content_type="text/plain")
    else:  # a no-cors fetch with no body at all
        r = client.post(path)
    error = assert_json_error(r, 415, "unsupported_media_type")
    assert "application/json" in error["error"]
    assert games_and_runs(app) == before


@pytest.mark.parametrize("path,body", STATE_CHANGING)
def test_the_same_routes_take_json(app, client, path, body):
    r = client.post(path, json=body)
    assert r.status_code in (201, 202, 303), r.get_data(as_text=True)[:300]
    assert games_and_runs(app) != (0, 0)
    for job in app.extensions["arcade"].arenas.values():
        job.cancel.set()


def test_pages_post_json_from_their_scripts(client):
    """The lessons page's forms are posted as JSON by static/js/lessons.js (a plain form
    post would now get 415)."""
    page = client.get("/lessons").get_data(as_text=True)
    assert "data-lesson-form" in page and "js/lessons.js" in page
    script = client.get("/static/js/lessons.js").get_data(as_text=True)
    assert '"Content-Type": "application/json"' in script


# ----- sizes, nesting, lengths ----------------------------------------------------------------------
class Unreadable(io.RawIOBase):
    """A request body of ``size`` bytes that fails the test if anything reads it."""

    def __init__(self, size):
        self.size, self.pos = size, 0

    def readable(self):
        return True

    def seekable(self):
        return True

    def tell(self):
        return self.pos

    def seek(self, offset, whence=0):
        self.pos = self.size if whence == 2 else offset
        return self.pos

    def readinto(self, buffer):
        raise AssertionError("the server read a body it should have refused from its length")


def test_an_oversized_body_gets_413_without_being_read(app, client):
    r = client.post("/api/games", input_stream=Unreadable(100_000_000),
                    content_type="application/json")
    error = assert_json_error(r, 413, "too_large")
    assert "1,000,000" in error["error"]
    assert games_and_runs(app) == (0, 0)


def test_a_body_just_over_the_limit_is_refused_and_not_echoed(client):
    body = json.dumps({"game": "x" * 1_000_001})
    r = client.post("/api/games", data=body, content_type="application/json")
    assert_json_error(r, 413)
    assert len(r.data) < 1000


@pytest.mark.parametrize("depth", [17, 100, 100_000])
def test_deeply_nested_json_is_a_400_not_a_500(client, depth):
    body = "[" * depth + "]" * depth
    r = client.post("/api/games", data=body, content_type="application/json")
    error = assert_json_error(r, 400, "bad_request")
    assert "nested" in error["error"]


def test_json_nested_within_the_limit_reaches_the_view(client):
    r = client.post("/api/games", json={"game": "nim", "options": {"piles": [[[[1]]]]}})
    assert_json_error(r, 400)  # the view's own refusal: piles are integers
    assert "nested" not in r.get_json()["error"]


@pytest.mark.parametrize("body", ['{"game": NaN}', '{"game": Infinity}', "{'game': 1}", "{", "\xff"])
def test_not_json_is_a_400(client, body):
    r = client.post("/api/games", data=body.encode("latin-1"), content_type="application/json")
    assert_json_error(r, 400, "bad_request")


@pytest.mark.parametrize("field,payload", [
    ("players[1]", {"game": "nim", "players": ["human", "alphabeta:depth=2" + ",tt=on" * 100]}),
    ("options.piles", {"game": "nim", "options": {"piles": "1," * 400}}),
    ("game", {"game": "n" * 501}),
])
def test_long_strings_are_refused_naming_the_field(app, client, field, payload):
    r = client.post("/api/games", json=payload)
    error = assert_json_error(r, 400)
    assert repr(field) in error["error"] and "at most" in error["error"]
    assert len(error["error"]) < 200
    assert games_and_runs(app) == (0, 0)


def test_too_many_values_are_refused(client):
    r = client.post("/api/games", json={"game": "nim", "options": {"piles": [1] * 5000}})
    assert "values" in assert_json_error(r, 400)["error"]


def test_long_query_values_and_ids_are_refused(client):
    gid = client.post("/api/games", json=NIM).get_json()["id"]
    r = client.get(f"/api/games/{gid}/trace?agent=" + "alphabeta:depth=1," * 40)
    assert "'agent'" in assert_json_error(r, 400)["error"]
    r = client.get("/api/games/" + "g" * 5000)
    error = assert_json_error(r, 400)
    assert "'game_id'" in error["error"] and "g" * 100 not in error["error"]
    r = client.delete(f"/api/games/{gid}", headers={"X-Seat-Token": "t" * 1000})
    assert "'token'" in assert_json_error(r, 400)["error"]


def test_errors_echo_at_most_a_short_piece_of_the_input(client):
    spec = "alphabeta:" + "x" * 250
    r = client.post("/api/games", json={"game": "nim", "players": ["human", spec]})
    error = assert_json_error(r, 400)["error"]
    assert spec not in error and "x" * 80 not in error and "agent" in error


def test_clip_keeps_the_reason_after_a_long_value():
    message = clip(f"agent {'a' * 300!r}: unknown setting 'zz' (settings: depth)")
    assert message.endswith("unknown setting 'zz' (settings: depth)") and len(message) < 130
    assert len(clip("y" * 10_000)) <= 600


# ----- JSON errors ----------------------------------------------------------------------------------
def test_api_errors_are_json(client):
    assert_json_error(client.get("/api/nothing/here"), 404, "not_found")
    assert_json_error(client.put("/api/games", json={}), 405, "bad_method")
    assert_json_error(client.patch("/api/catalog", json={}), 405)
    assert_json_error(client.post("/lessons/nope", json={}), 404)
    # pages keep HTML errors for people
    r = client.get("/no/such/page")
    assert r.status_code == 404 and r.mimetype == "text/html"


def test_an_unexpected_failure_is_a_json_500_without_details(monkeypatch, make_app):
    app = make_app(**dict(CONFIG, TESTING=False))
    import webapp.routes.games

    def broken():
        raise RuntimeError("secret detail")

    monkeypatch.setattr(webapp.routes.games, "catalog", broken)
    app.logger.disabled = True
    r = app.test_client().get("/api/catalog")
    error = assert_json_error(r, 500, "internal")
    assert "secret" not in r.get_data(as_text=True)
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    del error


# ----- the creation rate limit ------------------------------------------------------------------------
def test_game_creation_is_rate_limited_per_address(make_app):
    app = make_app(**dict(CONFIG, CREATE_LIMIT=3, CREATE_PERIOD=60.0))
    client = app.test_client()
    for _ in range(3):
        assert client.post("/api/games", json=NIM).status_code == 201
    r = client.post("/api/games", json=NIM)
    error = assert_json_error(r, 429, "rate_limited")
    # a moving window: the oldest of the 3 creations leaves it a period (60 s) after it was made
    assert 1 <= int(r.headers["Retry-After"]) <= 61 and "try again" in error["error"]
    assert client.post("/lessons/nim-4-1", json={}).status_code == 429  # the lessons create games too
    assert len(app.extensions["arcade"].store.all()) == 3
    other = client.post("/api/games", json=NIM, environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert other.status_code == 201  # another client is not held back
    assert client.get("/api/catalog").status_code == 200  # reading is not limited


def test_the_window_refills(make_app):
    """A moving window: once the oldest creation is CREATE_PERIOD old, the client may create again."""
    import time

    app = make_app(**dict(CONFIG, CREATE_LIMIT=2, CREATE_PERIOD=1.0))
    client = app.test_client()
    assert [client.post("/api/games", json=NIM).status_code for _ in range(2)] == [201, 201]
    r = client.post("/api/games", json=NIM)
    assert r.status_code == 429 and 1 <= int(r.headers["Retry-After"]) <= 2
    time.sleep(int(r.headers["Retry-After"]) + 0.1)  # what is tested: the window passing (as a client waits)
    assert client.post("/api/games", json=NIM).status_code == 201


# ----- security headers ------------------------------------------------------------------------------
def test_every_answer_carries_the_security_headers(client):
    gid = client.post("/api/games", json=NIM).get_json()["id"]
    for r in (client.get("/"), client.get(f"/play/{gid}"), client.get("/api/catalog"), client.get("/lessons"),
              client.get("/arena"), client.get("/static/js/play.js"), client.get("/api/nope"),
              client.post("/api/games", data="x")):
        csp = r.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
        assert "frame-ancestors 'none'" in csp and "connect-src 'self' ws: wss:" in csp
        assert r.headers["X-Frame-Options"] == "DENY"
        assert r.headers["Referrer-Policy"] == "no-referrer"
        assert r.headers["X-Content-Type-Options"] == "nosniff"


def test_no_page_has_inline_script(client):
    """CSP forbids inline script: only ``<script src>`` and JSON data blocks, no ``on...=`` handlers."""
    gid = client.post("/api/games", json=NIM).get_json()["id"]
    for url in ("/", f"/play/{gid}", f"/play/{gid}/tree", "/lessons", "/arena"):
        page = client.get(url).get_data(as_text=True)
        for tag in re.findall(r"<script\b[^>]*>", page):
            assert "src=" in tag or 'type="application/json"' in tag, (url, tag)
        assert not re.search(r"\son[a-z]+\s*=", page), url
        assert "javascript:" not in page


def test_tokens_are_masked_in_access_logs():
    record = logging.LogRecord("werkzeug", logging.INFO, __file__, 1, '%s - - [%s] "%s" %s %s',
                               ("127.0.0.1", "now", "GET /play/abc?token=SeCrEt123&x=1 HTTP/1.1", "200", "-"), None)
    assert MaskTokens().filter(record)
    line = record.getMessage()
    assert "SeCrEt123" not in line and "token=***&x=1" in line


# ----- what is stored -------------------------------------------------------------------------------
def test_specs_and_moves_are_stored_canonical(client):
    r = client.post("/api/games", json={"game": "nim", "options": {"piles": [2, 3]},
                                        "players": ["human", "  alphabeta: depth = 2, tt=yes , depth=1 "]})
    assert r.status_code == 201
    body = r.get_json()
    assert body["seats"][1]["agent"] == "alphabeta:depth=1,tt=on"
    app_state = client.get(f"/api/games/{body['id']}").get_json()
    assert app_state["seats"][1] == "alphabeta:depth=1,tt=on"


def test_a_move_is_stored_in_the_games_notation(app):
    client = app.test_client()
    body = client.post("/api/games", json=NIM).get_json()
    sio = get_socketio(app).test_client(app, flask_test_client=client)
    sio.emit("move", {"game_id": body["id"], "token": body["seats"][0]["token"], "move": " 2 : 02 "})
    state = client.get(f"/api/games/{body['id']}").get_json()
    assert state["history"][0]["move"] == "2:2"


def test_blacksin_hidden_refuses_a_model_of_the_rules_agent_at_creation(app, client):
    r = client.post("/api/games", json={"game": "blacksin", "options": {"hidden": True},
                                        "players": ["human", "model:opponent=rules"]})
    error = assert_json_error(r, 400)["error"]
    assert "rules" in error and "hidden" in error
    assert games_and_runs(app) == (0, 0)
    ok = client.post("/api/games", json={"game": "blacksin", "options": {"hidden": False},
                                         "players": ["human", "model:opponent=rules"]})
    assert ok.status_code == 201
    help_text = client.get("/api/catalog").get_json()["agents"]["rules"]
    assert "reads the deck" in help_text


# ----- the same limits on the socket ---------------------------------------------------------------------
def test_socket_payloads_meet_the_same_limits(app):
    client = app.test_client()
    body = client.post("/api/games", json=NIM).get_json()
    sio = get_socketio(app).test_client(app, flask_test_client=client)
    token = body["seats"][0]["token"]
    for payload, words in [
        ({"game_id": body["id"], "token": token, "move": "1:1" + " " * 300}, "'move'"),
        ({"game_id": "g" * 10_000, "token": token, "move": "1:1"}, "'game_id'"),
        ({"game_id": body["id"], "token": token, "move": "1:1", "x": [[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]}, "nested"),
        ({"game_id": body["id"], "token": token, "move": "1:1", "x": list(range(3000))}, "values"),
    ]:
        sio.get_received()
        sio.emit("move", payload)
        errors = [e["args"][0] for e in sio.get_received() if e["name"] == "error"]
        assert errors and errors[0]["code"] == "bad_payload" and words in errors[0]["message"], errors
        assert len(errors[0]["message"]) < 200
    assert client.get(f"/api/games/{body['id']}").get_json()["version"] == 1


# ----- the production server ----------------------------------------------------------------------------
def test_python_m_webapp_is_the_production_server_and_stops_on_sigterm(tmp_path):
    """gunicorn (no development-server warning), the headers, tokens masked in its access
    log, and SIGTERM to the main process stops every process of it (search pool included)."""
    import os
    import signal

    import requests

    from tests.helpers import eventually
    from tests.servers import Server

    log = tmp_path / "server.log"
    server = Server(tmp_path / "games.sqlite3", log, "--access-log")  # started: it answers
    proc, port, group = server.proc, server.port, server.proc.pid

    def alive() -> int:
        count = 0
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as f:
                        count += int(f.read().rsplit(")", 1)[1].split()[2]) == group
                except (OSError, IndexError, ValueError):
                    pass
        return count

    try:
        url = server.url
        r = requests.get(f"{url}/api/catalog", timeout=10)
        assert "Server" not in r.headers  # no banner (gunicorn is told by its log below)
        assert r.headers["Referrer-Policy"] == "no-referrer"
        game = requests.post(f"{url}/api/games", json=NIM, timeout=10).json()
        token = game["seats"][0]["token"]
        assert requests.get(f"{url}{game['seats'][0]['join_url']}", timeout=10).status_code == 200
        assert alive() >= 3  # the server, its worker, the search pool
        proc.send_signal(signal.SIGTERM)  # the main process only, as a service manager does
        # (each look reaps the main process: a zombie still has its /proc entry)
        eventually(lambda: (proc.poll(), alive())[1], lambda left: left == 0, timeout=15, every=0.2,
                   what="every process of the server to stop")
        text = log.read_text()
        assert f"lobby at http://127.0.0.1:{port}/" in text
        assert "development server" not in text and "Listening at" in text
        assert f"/play/{game['id']}?token=***" in text and token not in text
    finally:
        server.kill_all()
