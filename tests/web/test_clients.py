"""Who a client is (webapp.clients): a browser by its signed cookie, else its address bucket
(IPv6 by /64); every limit keys on it, and the coarse per-address flood guard stays."""

from __future__ import annotations

import pytest

from tests.conftest import FAST
from webapp import create_app
from webapp.clients import COOKIE

NIM = {"game": "nim", "options": {"piles": [1, 2]}, "players": ["human", "human"]}
CONFIG = dict(FAST, CREATE_LIMIT=3, CREATE_PERIOD=60.0, ADDRESS_FACTOR=3)


@pytest.fixture
def app(tmp_path):
    return create_app(dict(CONFIG, STORE=str(tmp_path / "games.sqlite3")))


def browser(app, address="127.0.0.1"):
    """A test client that has loaded the lobby (so it holds a client cookie) from ``address``."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    assert client.get("/").status_code == 200
    assert client.get_cookie(COOKIE) is not None
    return client


def creations(client, n, **kwargs):
    return [client.post("/api/games", json=NIM, **kwargs).status_code for _ in range(n)]


def test_a_page_load_names_the_browser_with_a_signed_httponly_cookie(app):
    client = app.test_client()
    r = client.get("/")
    header = r.headers["Set-Cookie"]
    assert header.startswith(f"{COOKIE}=") and "HttpOnly" in header and "SameSite=Lax" in header
    assert "Set-Cookie" not in client.get("/").headers  # kept: named once
    scripted = app.test_client()
    assert "Set-Cookie" not in scripted.get("/api/catalog").headers  # an API answer names nobody
    assert "Set-Cookie" not in scripted.post("/api/games", json=NIM).headers


def test_two_browsers_behind_one_address_each_have_their_own_quota(app):
    first, second = browser(app), browser(app)
    assert creations(first, 4) == [201, 201, 201, 429]
    assert creations(second, 3) == [201, 201, 201]  # the first one's limit is not the second's
    assert creations(second, 1) == [429]


def test_without_a_valid_cookie_the_client_is_its_address(app):
    scripted = app.test_client()
    assert creations(scripted, 4) == [201, 201, 201, 429]
    forged = app.test_client()
    forged.set_cookie(COOKIE, "made-up.signature")
    assert creations(forged, 1) == [429]  # a forged cookie is no name: the same address's quota
    elsewhere = app.test_client()
    assert creations(elsewhere, 1, environ_base={"REMOTE_ADDR": "10.0.0.9"}) == [201]


def test_ipv6_clients_are_bucketed_by_their_64(app):
    one, same_64, other_64 = "2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe", "2001:db8:1:3::1"
    scripted = app.test_client()
    assert creations(scripted, 3, environ_base={"REMOTE_ADDR": one}) == [201, 201, 201]
    assert creations(scripted, 1, environ_base={"REMOTE_ADDR": same_64}) == [429]  # rotating in the /64 buys nothing
    assert creations(scripted, 1, environ_base={"REMOTE_ADDR": other_64}) == [201]


def test_fresh_cookies_from_one_address_meet_the_address_flood_guard(app):
    """Minting cookies gives each its own quota, up to ADDRESS_FACTOR quotas per address."""
    made = []
    for _ in range(4):
        made += creations(browser(app, "10.1.1.1"), 3)
    assert made.count(201) == 3 * 3 and made[-3:] == [429, 429, 429]
    r = browser(app, "10.1.1.1").post("/api/games", json=NIM)
    assert r.status_code == 429 and "your address" in r.get_json()["error"] and int(r.headers["Retry-After"]) >= 1
    assert creations(browser(app, "10.1.1.2"), 1) == [201]


def test_a_socket_is_the_client_its_page_was(app):
    """A socket's handlers see the cookie it connected with: an AI reply is that browser's."""
    from webapp import get_socketio

    page = browser(app)
    data = page.post("/api/games", json=dict(NIM, players=["human", "random"])).get_json()
    socket = get_socketio(app).test_client(app, flask_test_client=page)
    socket.emit("join", {"game_id": data["id"], "token": data["seats"][0]["token"]})
    socket.emit("move", {"game_id": data["id"], "token": data["seats"][0]["token"], "move": "1:1"})
    live = app.extensions["arcade"].store.get(data["id"]).live
    assert live.client.startswith("id:") and len(live.client) > 10


def test_a_client_flooding_socket_events_is_cut_off(make_live_server):
    """Past SOCKET_EVENT_LIMIT a client's socket gets one ``rate_limited`` error and is closed;
    another browser behind the same address keeps its own budget."""
    import queue

    import requests
    import socketio

    server = make_live_server(**dict(CONFIG, SOCKET_EVENT_LIMIT="5 per 60 seconds"))
    gid = requests.post(f"{server.url}/api/games", json=NIM, timeout=10).json()["id"]

    def browser_socket():
        cookie = requests.get(f"{server.url}/", timeout=10).cookies[COOKIE]
        events: queue.Queue = queue.Queue()
        sio = socketio.Client(reconnection=False)
        for name in ("error", "state"):
            sio.on(name, lambda data, name=name: events.put((name, data)))
        sio.on("disconnect", lambda *args: events.put(("disconnect", None)))
        sio.connect(server.url, headers={"Cookie": f"{COOKIE}={cookie}"}, transports=["websocket"])
        return sio, events

    def next_event(events, name):
        while True:
            got, data = events.get(timeout=10)
            if got == name:
                return data

    flood, flood_events = browser_socket()
    calm, calm_events = browser_socket()
    try:
        for _ in range(6):
            flood.emit("join", {"game_id": gid})
        error = next_event(flood_events, "error")
        assert error["code"] == "rate_limited" and "too many messages" in error["message"]
        next_event(flood_events, "disconnect")
        calm.emit("join", {"game_id": gid})
        assert next_event(calm_events, "state")["id"] == gid and calm.connected
    finally:
        for sio in (flood, calm):
            sio.disconnect()


@pytest.mark.parametrize("high", [False, True], ids=["low-descriptor", "descriptor-above-1024"])
def test_a_connection_reads_as_closed_only_once_its_peer_closed_it(high):
    """A search an HTTP request waits on is cancelled when its client leaves (WhileConnected):
    a client still there is never taken for gone, whatever the socket's descriptor number (a
    busy server has thousands open; select() fails above 1,023)."""
    import os
    import resource
    import socket

    from webapp.clients import connection_closed

    ours, peer = socket.socketpair()
    ours.settimeout(30)  # (a server's socket waits on reads: the look must not)
    if high:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard != resource.RLIM_INFINITY and hard < 2048:
            pytest.fail(f"this test needs 2,048 descriptors; the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 2048), hard))
        number = os.dup2(ours.fileno(), 2000)
        ours.close()
        ours = socket.socket(fileno=number)
    try:
        assert not connection_closed(ours)  # there, quiet
        peer.sendall(b"GET /next HTTP/1.1\r\n")  # there, and sent more (pipelined)
        assert not connection_closed(ours)
        assert ours.recv(100)
        peer.close()
        assert connection_closed(ours)  # gone
    finally:
        ours.close()
        peer.close()
