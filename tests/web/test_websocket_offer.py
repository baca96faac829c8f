"""A browser offers to compress its websocket (permessage-deflate); the server declines, so no
socket keeps a compressor for its life (``webapp.wsgi_guard.DEFLATE_OFFER``). A real ``python
-m webapp`` on loopback; the handshake as Chromium sends it, byte for byte where it matters."""

from __future__ import annotations

import base64
import hashlib
import os
import socket

import pytest

from tests.servers import Server

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455's, for Sec-WebSocket-Accept
CHROMIUMS_OFFER = "permessage-deflate; client_max_window_bits"


@pytest.fixture
def server(tmp_path):
    started = Server(tmp_path / "games.sqlite3", tmp_path / "server.log")
    yield started
    started.kill_all()


def masked_text_frame(text: bytes) -> bytes:
    """A client's frame: FIN, text, masked (RFC 6455 5.3); short payloads only."""
    mask = os.urandom(4)
    return bytes([0x81, 0x80 | len(text)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(text))


def read_frame(conn: socket.socket, buffer: bytearray) -> tuple[int, bytes]:
    """The next frame from the server: its first byte (FIN, RSV1-3, opcode) and its payload."""
    while True:
        if len(buffer) >= 2:
            length, start = buffer[1] & 0x7F, 2
            if length == 126 and len(buffer) >= 4:
                length, start = int.from_bytes(buffer[2:4], "big"), 4
            if (length < 126 or start == 4) and len(buffer) >= start + length:
                head, payload = buffer[0], bytes(buffer[start:start + length])
                del buffer[:start + length]
                return head, payload
        chunk = conn.recv(65536)
        assert chunk, "the server closed the websocket"
        buffer += chunk


def test_a_browsers_offer_to_compress_its_websocket_is_declined_and_the_socket_works(server):
    key = base64.b64encode(os.urandom(16))
    conn = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    conn.sendall(b"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\n"
                 b"Host: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 b"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n"
                 b"Sec-WebSocket-Extensions: %s\r\n\r\n" % (server.port, key, CHROMIUMS_OFFER.encode()))
    received = bytearray()
    while b"\r\n\r\n" not in received:
        chunk = conn.recv(4096)
        assert chunk, f"no handshake answer: {bytes(received)!r}"
        received += chunk
    head, _, rest = bytes(received).partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.strip().lower(): value.strip() for name, value in (line.split(":", 1) for line in lines[1:])}
    assert lines[0].startswith("HTTP/1.1 101"), lines[0]
    assert headers["sec-websocket-accept"] == base64.b64encode(hashlib.sha1(key + GUID).digest()).decode()
    assert "sec-websocket-extensions" not in headers, headers
    buffer = bytearray(rest)
    first, opened = read_frame(conn, buffer)
    assert first == 0x81, f"{first:#x}: FIN and text, RSV1 (compressed) clear"
    assert opened.startswith(b'0{"sid":'), opened  # engine.io's open packet, as sent
    conn.sendall(masked_text_frame(b"40"))  # Socket.IO's connect
    first, connected = read_frame(conn, buffer)
    assert first == 0x81 and connected.startswith(b'40{"sid":'), (first, connected)
    conn.close()
