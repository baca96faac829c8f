"""Finding 2 of issue 33: one client cannot hold the server's threads. A request whose headers
never finish is closed after the read timeout; an address holding its cap of open connections
gets a 429 for the next one while others are served. A real server (``python -m webapp``,
gunicorn) on loopback with a small thread pool; every attack bounded."""

from __future__ import annotations

import selectors
import socket
import time
from pathlib import Path

import pytest
import requests

from tests.servers import Server

ROOT = Path(__file__).resolve().parents[2]
THREADS = 6


@pytest.fixture
def server(tmp_path):
    """``python -m webapp --threads 6`` with a 2 s read timeout and 4 connections an address."""
    started = Server(tmp_path / "games.sqlite3", tmp_path / "server.log", "--threads", str(THREADS),
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


def test_requests_whose_headers_never_finish_are_closed_and_others_served(server):
    url, port, log = server
    sources = [f"127.0.0.{2 + i // 4}" for i in range(THREADS * 2)]  # 4 an address: under the cap
    slow = [half_request(port, ip) for ip in sources]  # every thread, twice over
    try:
        # served once the read timeout has closed the slow ones (on main: never)
        assert requests.get(f"{url}/api/catalog", timeout=30).status_code == 200
        assert closed_by_server(slow) == len(slow)
    finally:
        for sock in slow:
            sock.close()
    text = log.read_text(errors="replace")
    assert "did not come within 2 s" in text and "Traceback" not in text  # one line each, no traceback


def test_an_address_holding_its_cap_of_connections_gets_429_and_others_are_served(server):
    url, port, _ = server
    held = [socket.create_connection(("127.0.0.1", port), timeout=10, source_address=("127.0.0.9", 0))
            for _ in range(4)]
    try:
        time.sleep(0.5)  # accepted
        extra = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=("127.0.0.9", 0))
        assert extra.recv(1024).startswith(b"HTTP/1.1 429")
        extra.close()
        other = requests.Session()
        assert other.get(f"{url}/api/catalog", timeout=10).status_code == 200  # another address
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.5)
    again = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=("127.0.0.9", 0))
    again.sendall(b"GET /api/catalog HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert again.recv(1024).startswith(b"HTTP/1.1 200")  # its connections closed: it may again
    again.close()
