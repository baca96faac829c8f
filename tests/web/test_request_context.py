"""A socket's events share their connection's environ: its URL is bound and matched once
(webapp.ArcadeFlask), while every HTTP request is still routed on its own."""

from flask import request
from werkzeug.exceptions import NotFound
from werkzeug.routing import MapAdapter
from werkzeug.test import EnvironBuilder


def test_a_connections_url_is_matched_once_and_keeps_no_frames(app, monkeypatch):
    matched = []
    real_match = MapAdapter.match
    monkeypatch.setattr(MapAdapter, "match", lambda self, *a, **k: matched.append(self) or real_match(self, *a, **k))
    environ = EnvironBuilder(path="/socket.io/", query_string="EIO=4&transport=websocket").get_environ()
    for _ in range(3):  # three events of one connection
        with app.request_context(environ):
            assert isinstance(request.routing_exception, NotFound) and request.url_rule is None
            # kept for the connection's life, so without the frames that raised it
            assert request.routing_exception.__traceback__ is None and request.routing_exception.__context__ is None
    assert len(matched) == 1


def test_each_http_request_is_routed_on_its_own(client):
    assert client.get("/api/catalog").status_code == 200
    missing = client.get("/api/no-such-thing")
    assert missing.status_code == 404 and missing.get_json()["code"] == "not_found"
    assert client.get("/api/catalog").status_code == 200
    assert client.post("/api/catalog", json={}).status_code == 405
