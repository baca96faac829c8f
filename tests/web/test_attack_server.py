"""Attacks on a real ``python -m webapp`` (gunicorn's gevent worker serving few connections
at once), on loopback and bounded: none of them may take the server down for anyone else."""

from __future__ import annotations

import socket
from contextlib import ExitStack

import pytest
import requests

from tests.helpers import eventually
from tests.servers import Server

CONNECTIONS = 10  # served at once: a few requests held open would hold every one


@pytest.fixture
def server(tmp_path):
    started = Server(tmp_path / "games.sqlite3", tmp_path / "server.log", "--connections", str(CONNECTIONS))
    yield started
    started.kill_all()


def polling_sid(server: Server) -> str:
    """Open a Socket.IO long-polling session, as a browser's first request does."""
    r = requests.get(f"{server.url}/socket.io/", params={"EIO": "4", "transport": "polling"}, timeout=5)
    assert r.status_code == 200, r.text[:200]
    return r.text[r.text.index("{"):].split('"sid":"', 1)[1].split('"', 1)[0]


def raw_request(server: Server, head: str) -> socket.socket:
    """Send ``head`` (request line and headers) and leave the connection open, no body sent."""
    conn = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    conn.sendall(head.encode())
    return conn


def answer_of(conn: socket.socket) -> bytes:
    conn.settimeout(5)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


def test_oversize_polling_posts_are_refused_and_the_server_keeps_answering(server):
    """Finding 1 of issue 33: a polling POST whose Content-Length is over the buffer, with no
    body, used to make engine.io wait forever for a GET that never came (one thread each)."""
    with ExitStack() as stack:
        answers = []
        for _ in range(CONNECTIONS * 3):
            sid = polling_sid(server)
            conn = stack.enter_context(raw_request(
                server, f"POST /socket.io/?EIO=4&transport=polling&sid={sid} HTTP/1.1\r\n"
                        f"Host: 127.0.0.1\r\nContent-Type: text/plain;charset=UTF-8\r\n"
                        f"Content-Length: 1000001\r\n\r\n"))
            answers.append(answer_of(conn))
        assert all(a.startswith(b"HTTP/1.1 413") for a in answers), answers[:2]
        # While the attacking connections are still open, everyone else is served.
        assert requests.get(f"{server.url}/", timeout=5).status_code == 200
        assert requests.get(f"{server.url}/api/catalog", timeout=5).status_code == 200
    assert requests.get(f"{server.url}/api/catalog", timeout=5).status_code == 200


def test_packets_engine_io_refuses_do_not_hold_a_thread(server):
    """An unknown packet type makes engine.io disconnect the session: it used to wait, in the
    thread that refused it, for a GET poll that never came."""
    for _ in range(CONNECTIONS * 3):
        sid = polling_sid(server)
        r = requests.post(f"{server.url}/socket.io/", params={"EIO": "4", "transport": "polling", "sid": sid},
                          data="9", headers={"Content-Type": "text/plain"}, timeout=5)
        assert r.status_code == 400
    assert requests.get(f"{server.url}/", timeout=5).status_code == 200


def test_a_chunked_body_over_the_limit_gets_413_everywhere(server):
    """Finding 8: a chunked body over 1 MB gets 413 (not 400), on the API and on /socket.io."""
    sid = polling_sid(server)
    for path, kind in ((f"/socket.io/?EIO=4&transport=polling&sid={sid}", "text/plain"),
                       ("/api/games", "application/json")):
        with raw_request(server, f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {kind}\r\n"
                                 f"Transfer-Encoding: chunked\r\n\r\n") as conn:
            chunk = b"x" * 65536
            try:
                for _ in range(20):  # 1.3 MB: the server may stop reading (and close) at 1 MB
                    conn.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                conn.sendall(b"0\r\n\r\n")
            except OSError:
                pass
            assert answer_of(conn).startswith(b"HTTP/1.1 413"), path
    assert requests.get(f"{server.url}/api/catalog", timeout=5).status_code == 200


def test_a_malformed_content_length_is_refused_before_engine_io_reads_it(server):
    sid = polling_sid(server)
    with raw_request(server, f"POST /socket.io/?EIO=4&transport=polling&sid={sid} HTTP/1.1\r\n"
                             f"Host: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 12abc\r\n\r\n") as conn:
        assert answer_of(conn).split(b" ")[1] == b"400"


def test_socket_io_answers_carry_the_security_headers_and_no_server_banner(server):
    r = requests.get(f"{server.url}/socket.io/", params={"EIO": "4", "transport": "polling"}, timeout=5)
    for name in ("Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy"):
        assert name in r.headers, name
    for path in ("/", "/api/catalog", "/socket.io/?EIO=4&transport=polling"):
        assert "Server" not in requests.get(f"{server.url}{path}", timeout=5).headers, path


def test_a_malformed_frame_is_logged_in_one_line(server, tmp_path):
    sid = polling_sid(server)
    r = requests.post(f"{server.url}/socket.io/", params={"EIO": "4", "transport": "polling", "sid": sid},
                      data="4zzz not a socket.io packet", headers={"Content-Type": "text/plain"}, timeout=5)
    assert r.status_code in (200, 400)
    # the log line, written by the thread that handled the frame: the error named on one line
    log = eventually(lambda: (tmp_path / "server.log").read_text(errors="replace"),
                     lambda text: "message handler error: ValueError" in text, what="the frame's log line")
    assert "Traceback" not in log, log[-2000:]
    assert requests.get(f"{server.url}/api/catalog", timeout=5).status_code == 200
