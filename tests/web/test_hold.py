"""No one can hold the server: a request whose headers never finish costs a greenlet, is closed
after the read timeout, and nobody else waits for it meanwhile; an address that holds its cap
of connections waiting for a request loses its oldest waiting one to its newest, and is never
refused (a school behind one address). A real server (``python -m webapp``: gunicorn, one
gevent worker) on loopback; every attack bounded."""

from __future__ import annotations

import selectors
import socket
import time
from pathlib import Path

import pytest
import requests

from tests.servers import Server

ROOT = Path(__file__).resolve().parents[2]
SLOW = 40  # half-sent requests: ten addresses of four


@pytest.fixture
def server(tmp_path):
    """``python -m webapp`` with a 2 s read timeout and 4 waiting connections an address."""
    started = Server(tmp_path / "games.sqlite3", tmp_path / "server.log",
                     env={"ARCADE_READ_TIMEOUT": "2", "ARCADE_CONNECTIONS_PER_ADDRESS": "4"})
    yield started.url, started.port, tmp_path / "server.log"
    started.kill_all()


def half_request(port: int, source: str) -> socket.socket:
    """A connection that sends half its headers and then nothing (slowloris)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    return sock


def closed_by_server(socks: list[socket.socket], wait: float = 10) -> int:
    """How many of ``socks`` the server closes (an end of file or a reset), each of them closed
    here as soon as the server's close arrives, as a client does: gunicorn closes a connection
    gracefully, waiting up to 2 s, one connection after another, for the client to close its end
    too. Gives up once ``wait`` seconds pass with no socket closed."""
    closed = 0
    with selectors.DefaultSelector() as waiting:
        for sock in socks:
            waiting.register(sock, selectors.EVENT_READ)
        while waiting.get_map():
            ready = waiting.select(timeout=wait)
            if not ready:
                break
            for key, _ in ready:
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                try:
                    data = sock.recv(1024)
                except OSError:
                    data = b""
                waiting.unregister(sock)
                closed += data == b""
                sock.close()
    return closed


def test_requests_whose_headers_never_finish_hold_nothing_and_are_closed(server):
    url, port, log = server
    sources = [f"127.0.0.{2 + i // 4}" for i in range(SLOW)]  # 4 an address: within the cap
    slow = [half_request(port, ip) for ip in sources]
    try:
        started = time.monotonic()
        other = requests.get(f"{url}/api/catalog", timeout=30)  # while every slow one is open
        assert other.status_code == 200 and time.monotonic() - started < 1.0
        assert closed_by_server(slow) == len(slow)  # by the read timeout
    finally:
        for sock in slow:
            sock.close()
    text = log.read_text(errors="replace")
    assert "did not come within 2 s" in text and "Traceback" not in text  # one line each, no traceback


def test_an_address_over_its_cap_of_waiting_connections_loses_its_oldest_and_is_never_refused(server):
    url, port, _ = server
    held = [socket.create_connection(("127.0.0.1", port), timeout=10, source_address=("127.0.0.9", 0))
            for _ in range(4)]
    try:
        # a request from another address, answered: the server accepted the four before it
        # (one accept queue, served in order) and each waits for its request
        assert requests.get(f"{url}/api/catalog", timeout=10).status_code == 200
        newest = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=("127.0.0.9", 0))
        assert closed_by_server(held[:1], wait=5) == 1  # the oldest gave way
        newest.sendall(b"GET /api/catalog HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert newest.recv(1024).startswith(b"HTTP/1.1 200")  # the newest is served, not refused
        newest.close()
        for sock in held[1:]:  # the three others still open: a request on each is answered
            sock.sendall(b"GET /api/catalog HTTP/1.1\r\nHost: x\r\n\r\n")
            assert sock.recv(1024).startswith(b"HTTP/1.1 200")
        assert requests.get(f"{url}/api/catalog", timeout=10).status_code == 200  # another address
    finally:
        for sock in held:
            sock.close()


def test_a_burst_of_new_connections_is_taken_in_turns_and_every_one_is_answered(server):
    """The server takes one new connection a turn of its loop (webapp.server.TakingTurnsServer):
    the rest of a burst waits in the kernel's backlog, and none of it is lost or refused."""
    url, port, _ = server
    burst = []
    try:
        for i in range(400):  # 100 addresses, 4 each: within the fixture's cap of 4 waiting an address
            sock = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(f"127.0.1.{1 + i // 4}", 0))
            sock.sendall(b"GET /api/catalog HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            burst.append(sock)
        statuses = []
        for sock in burst:
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
            statuses.append(answer.split(b"\r\n", 1)[0])
        assert statuses == [b"HTTP/1.1 200 OK"] * len(burst)
        assert requests.get(f"{url}/api/catalog", timeout=10).status_code == 200
    finally:
        for sock in burst:
            sock.close()
