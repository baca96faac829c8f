"""The production server's websockets (``webapp.websocket.ServerWebSocket``), frame by frame as
RFC 6455 has them, on a real ``python -m webapp`` on loopback: a browser's offer to compress is
declined (``webapp.wsgi_guard.DEFLATE_OFFER``); messages in one frame or several, pings, short
and long lengths arrive; a faulty frame closes the socket with the code the RFC names, and the
server goes on serving."""

from __future__ import annotations

import base64
import hashlib
import os
import socket
import struct
import threading
import time
from types import SimpleNamespace

import engineio.socket
import pytest
import requests
from engineio import packet

from tests.helpers import eventually
from webapp import wsgi_guard
from webapp.websocket import OutboundQueue, ServerWebSocket, serve_websockets, unmask

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455's, for Sec-WebSocket-Accept
CHROMIUMS_OFFER = "permessage-deflate; client_max_window_bits"
TEXT, BINARY, CONTINUATION, CLOSE, PING, PONG = 0x1, 0x2, 0x0, 0x8, 0x9, 0xA
JOIN_UNKNOWN = b'42["join",{"game_id":"no-such-game"}]'  # answered with an error event


@pytest.fixture(scope="module")
def server(production_server):
    return production_server


def frame(opcode: int, payload: bytes, *, fin: bool = True, masked: bool = True, rsv1: bool = False) -> bytes:
    """A client's frame (RFC 6455 5.2): masked unless told, its length in 7, 16 or 64 bits."""
    first = (0x80 if fin else 0) | (0x40 if rsv1 else 0) | opcode
    length = len(payload)
    mask_bit = 0x80 if masked else 0
    if length < 126:
        head = bytes((first, mask_bit | length))
    elif length < 1 << 16:
        head = struct.pack("!BBH", first, mask_bit | 126, length)
    else:
        head = struct.pack("!BBQ", first, mask_bit | 127, length)
    if not masked:
        return head + payload
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def split_frame(data: bytes | bytearray) -> tuple[int, bytes, int] | None:
    """The first frame of a server's bytes (unmasked): its first byte (FIN, RSV1-3, opcode), its
    payload and how many bytes it took; None while it has not all arrived."""
    if len(data) < 2:
        return None
    length, start = data[1] & 0x7F, 2
    if length >= 126:
        start = 4 if length == 126 else 10
        if len(data) < start:
            return None
        length = int.from_bytes(data[2:start], "big")
    if len(data) < start + length:
        return None
    return data[0], bytes(data[start:start + length]), start + length


class Peer:
    """A websocket client on a raw socket: the handshake, then frames."""

    def __init__(self, port: int, extra: bytes = b""):
        self.key = base64.b64encode(os.urandom(16))
        self.conn = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.conn.sendall(b"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\n"
                          b"Host: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          b"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n%s\r\n" % (port, self.key, extra))
        received = bytearray()
        while b"\r\n\r\n" not in received:
            chunk = self.conn.recv(4096)
            assert chunk, f"no handshake answer: {bytes(received)!r}"
            received += chunk
        head, _, rest = bytes(received).partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        self.status = lines[0]
        self.headers = {n.strip().lower(): v.strip() for n, v in (line.split(":", 1) for line in lines[1:])}
        self.buffer = bytearray(rest)

    def read(self) -> tuple[int, bytes]:
        """The next frame from the server: its first byte (FIN, RSV1-3, opcode) and payload;
        (-1, b"") when the server closed the connection."""
        while True:
            whole = split_frame(self.buffer)
            if whole is not None:
                head, payload, used = whole
                del self.buffer[:used]
                return head, payload
            chunk = self.conn.recv(65536)
            if not chunk:
                return -1, b""
            self.buffer += chunk

    def connect_socketio(self) -> None:
        first, opened = self.read()
        assert first == 0x81 and opened.startswith(b'0{"sid":'), (first, opened)  # engine.io's open, as sent
        self.conn.sendall(frame(TEXT, b"40"))
        first, connected = self.read()
        assert first == 0x81 and connected.startswith(b'40{"sid":'), (first, connected)

    def answer(self) -> bytes:
        """The next Socket.IO event's payload (engine.io's pings answered on the way)."""
        while True:
            first, payload = self.read()
            assert first != -1, "the server closed the socket"
            if payload == b"2":
                self.conn.sendall(frame(TEXT, b"3"))
            elif payload.startswith(b"42"):
                return payload

    def closed_with(self) -> int:
        """The code of the server's close frame; the connection ends after it."""
        while True:
            first, payload = self.read()
            assert first != -1, "the connection ended without a close frame"
            if first & 0x0F == CLOSE:
                try:
                    ended = self.read()[0] == -1
                except ConnectionResetError:
                    ended = True
                assert ended, "the server went on after its close frame"
                return int.from_bytes(payload[:2], "big")


def test_a_browsers_offer_to_compress_its_websocket_is_declined_and_the_socket_works(server):
    peer = Peer(server.port, b"Sec-WebSocket-Extensions: %s\r\n" % CHROMIUMS_OFFER.encode())
    assert peer.status.startswith("HTTP/1.1 101"), peer.status
    assert peer.headers["sec-websocket-accept"] == base64.b64encode(hashlib.sha1(peer.key + GUID).digest()).decode()
    assert "sec-websocket-extensions" not in peer.headers, peer.headers
    peer.connect_socketio()  # (every frame FIN and text: RSV1, compressed, clear)
    peer.conn.sendall(frame(TEXT, JOIN_UNKNOWN))
    assert b"unknown_game" in peer.answer()


def test_a_message_in_three_frames_with_a_ping_between_arrives_whole_and_the_ping_is_answered(server):
    peer = Peer(server.port)
    peer.connect_socketio()
    message = b'42["join",{"game_id":"' + b"x" * 300 + b'"}]'  # a 16-bit length
    peer.conn.sendall(frame(TEXT, message[:10], fin=False) + frame(PING, b"are you there") +
                      frame(CONTINUATION, message[10:200], fin=False) + frame(CONTINUATION, message[200:]))
    first, pong = peer.read()
    assert (first, pong) == (0x80 | PONG, b"are you there")
    answer = peer.answer()
    assert b"is 300 characters long" in answer, answer  # (so read whole)


@pytest.mark.parametrize(("faulty", "code"), [
    (frame(TEXT, JOIN_UNKNOWN, masked=False), 1002),  # a client's frame must be masked
    (frame(TEXT, JOIN_UNKNOWN, rsv1=True), 1002),  # compressed, though no extension was agreed
    (frame(CONTINUATION, JOIN_UNKNOWN), 1002),  # a continuation of nothing
    (frame(PING, b"p", fin=False), 1002),  # a control frame in pieces
    (frame(TEXT, b'42["join","\xff\xfe"]'), 1007),  # text that is not UTF-8
    (struct.pack("!BBQ", 0x80 | TEXT, 0x80 | 127, 2_000_000) + os.urandom(4), 1009),  # over engine.io's 1 MB
], ids=["unmasked", "reserved-bit", "stray-continuation", "fragmented-ping", "not-utf8", "too-big"])
def test_a_faulty_frame_closes_the_socket_with_its_code_and_the_server_serves_on(server, faulty, code):
    peer = Peer(server.port)
    peer.connect_socketio()
    peer.conn.sendall(faulty)
    assert peer.closed_with() == code
    assert requests.get(f"{server.url}/api/catalog", timeout=10).status_code == 200
    other = Peer(server.port)
    other.connect_socketio()
    other.conn.sendall(frame(TEXT, JOIN_UNKNOWN))
    assert b"unknown_game" in other.answer()


def test_a_close_from_the_client_is_answered_with_its_code(server):
    peer = Peer(server.port)
    peer.connect_socketio()
    peer.conn.sendall(frame(CLOSE, (1001).to_bytes(2, "big")))
    first, payload = peer.read()
    assert first == 0x80 | CLOSE and payload[:2] == (1001).to_bytes(2, "big"), (first, payload)


@pytest.mark.parametrize("header", [b"Sec-WebSocket-Version: 8", b"Sec-WebSocket-Key: short"])
def test_a_handshake_that_is_not_rfc_6455s_gets_400(server, header):
    name = header.split(b":")[0]
    conn = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    lines = [b"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1", b"Host: x", b"Upgrade: websocket",
             b"Connection: Upgrade", b"Sec-WebSocket-Key: " + base64.b64encode(os.urandom(16)),
             b"Sec-WebSocket-Version: 13"]
    conn.sendall(b"\r\n".join([line for line in lines if not line.startswith(name)] + [header, b"", b""]))
    answer = conn.recv(4096)
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]


@pytest.mark.parametrize("length", [0, 125, 126, 65535, 65536, 300_000])
def test_a_message_of_any_length_goes_out_as_one_frame_with_the_length_rfc_6455_spells(length):
    ours, theirs = socket.socketpair()
    ws = ServerWebSocket(lambda ws: None, SimpleNamespace(max_http_buffer_size=1_000_000), library=None)
    ws.sock = ours
    message = "é" * (length // 2) + "x" * (length % 2)  # (UTF-8: two bytes a letter)
    sender = threading.Thread(target=ws.send, args=(message,))  # (the other end reads meanwhile)
    sender.start()
    received = bytearray()
    expected = 2 + (0 if length < 126 else 2 if length < 65536 else 8) + length
    while len(received) < expected:
        received += theirs.recv(65536)
    sender.join()
    whole = split_frame(received)
    assert whole is not None
    head, payload, used = whole
    assert head == 0x81 and used == len(received) == expected and len(payload) == length
    assert payload.decode("utf-8") == message


def test_unmasking_matches_rfc_6455s_byte_by_byte_rule():
    for length in (0, 1, 3, 4, 5, 127, 1000):
        data, mask = os.urandom(length), os.urandom(4)
        assert unmask(data, mask) == bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def test_engine_io_serves_its_websockets_with_ours_under_gevent_only():
    library = object()
    shared = {"websocket": library, "queue": "its queue"}
    threaded = SimpleNamespace(async_mode="threading", _async=shared)
    serve_websockets(threaded)
    assert threaded._async is shared
    patched = SimpleNamespace(async_mode="gevent", _async=shared)
    serve_websockets(patched)
    made = patched._async["websocket"](print, SimpleNamespace(max_http_buffer_size=100))
    assert isinstance(made, ServerWebSocket) and made.library is library and made.max_message == 100
    assert patched._async["queue"] is OutboundQueue
    assert shared == {"websocket": library, "queue": "its queue"}  # (the driver's dict untouched)


class EngineIOSocket:
    """What a ServerWebSocket reads of engine.io's socket whose handler it runs."""

    def __init__(self, queue: OutboundQueue, *, upgrading: bool):
        self.queue, self.upgrading, self.upgraded = queue, upgrading, not upgrading

    def handle(self, ws) -> None:  # (engine.io's _websocket_handler)
        pass


def frames_in(data: bytes) -> list[str]:
    """The text payloads of a server's whole text frames, in order."""
    found = []
    while data:
        whole = split_frame(data)
        assert whole is not None, "a frame cut short"
        head, payload, used = whole
        assert head == 0x81
        found.append(payload.decode("utf-8"))
        data = data[used:]
    return found


def test_a_packet_is_written_at_once_and_what_a_slow_reader_cannot_take_waits_for_the_writer_in_order():
    """Once the socket is a websocket for good, a packet put in its queue is on the wire before
    ``put`` returns, with no writer involved. A packet too big for the kernel to take now does
    not make the emitter wait: its rest, and every packet after it, wait in the queue for
    engine.io's writer, which sends them in order."""
    ours, theirs = socket.socketpair()
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16384)
    queue = OutboundQueue()
    owner = EngineIOSocket(queue, upgrading=True)
    ws = ServerWebSocket(owner.handle, SimpleNamespace(max_http_buffer_size=10_000_000), library=None)
    ws.sock = ours
    ws._take_outbound()
    assert queue.sink is None  # (while a polling client is being upgraded, its packets are the poll's)
    owner.upgrading, owner.upgraded = False, True
    ws._take_outbound()
    assert queue.sink is ws

    queue.put(packet.Packet(packet.MESSAGE, data="hello"))
    assert queue.empty() and frames_in(theirs.recv(100)) == ["4hello"]

    big = "x" * 2_000_000  # (more than the socket's buffers hold)
    started = time.monotonic()
    queue.put(packet.Packet(packet.MESSAGE, data=big))
    queue.put(packet.Packet(packet.MESSAGE, data="after"))
    assert time.monotonic() - started < 1 and queue.qsize() == 2  # the big one's rest, then the next

    received = bytearray()
    reader = threading.Thread(target=lambda: [received.extend(chunk) for chunk in iter(lambda: theirs.recv(65536), b"")])
    reader.start()
    while not queue.empty():  # what engine.io's writer does
        ws.send(queue.get_nowait().encode())
    ours.close()
    reader.join(10)
    assert frames_in(bytes(received)) == ["4" + big, "4after"]


def test_the_writer_does_not_give_up_on_a_socket_whose_packets_are_written_at_once():
    """engine.io's writer waits ``ping_interval + ping_timeout`` for a packet, then closes the
    socket: with packets written at once it would see none. It waits for the end instead."""
    import gevent
    from gevent.queue import Empty

    alone = OutboundQueue()
    with pytest.raises(Empty):  # (no websocket of ours: engine.io's wait)
        alone.get(timeout=0.01)
    queue = OutboundQueue()
    queue.sink = ServerWebSocket(print, SimpleNamespace(max_http_buffer_size=100), library=None)
    waiting = gevent.spawn(queue.get, timeout=0.05)
    gevent.sleep(0.3)
    assert not waiting.ready()
    queue.put(None)  # (engine.io's end of the socket: always through the queue)
    assert waiting.get(timeout=1) is None


def test_engine_ios_service_task_looks_at_every_socket_together_and_forgets_closed_ones(app, monkeypatch):
    """The service task looks at all the sockets in one wake-up (engine.io's own spaced them
    ``ping_timeout / sockets`` apart: 10 s for two), closes none itself (a socket's own ping
    check decides), forgets a closed socket, and stops with the server."""
    monkeypatch.setattr(wsgi_guard, "SERVICE_EVERY", 0.05)
    eio = app.extensions["socketio"].server.eio
    looked: list[tuple[str, float]] = []

    class Session:  # what the task reads of engine.io's socket
        def __init__(self, sid: str, closed: bool = False):
            self.sid, self.closed, self.closing = sid, closed, False

        def check_ping_timeout(self) -> bool:
            looked.append((self.sid, time.monotonic()))
            return True

    eio.sockets.update({"gone": Session("gone", closed=True), "a": Session("a"), "b": Session("b")})
    task = threading.Thread(target=eio._service_task, daemon=True)
    task.start()
    try:
        eventually(lambda: len(looked) >= 4, timeout=5, what="two looks at both sockets")
        kept = set(eio.sockets)
    finally:
        eio.service_task_event.set()
        task.join(5)
        eio.sockets.clear()
    assert not task.is_alive()
    assert {sid for sid, _ in looked[:2]} == {"a", "b"} and {sid for sid, _ in looked[2:4]} == {"a", "b"}
    assert looked[1][1] - looked[0][1] < 0.05  # one wake-up for both
    assert all(sid != "gone" for sid, _ in looked) and kept == {"a", "b"}


def test_engine_ios_pings_go_out_in_rounds_and_their_task_ends_when_none_is_due(app, monkeypatch):
    """Sockets answered at about the same time are pinged ``ping_interval`` later in one round
    (engine.io's own sends each from a task of its own); a closed socket gets none; a pong
    schedules the next ping; the rounds' task ends once no ping is due."""
    monkeypatch.setattr(wsgi_guard, "PING_ROUND", 0.02)
    eio = app.extensions["socketio"].server.eio
    monkeypatch.setattr(eio, "ping_interval", 0.1)
    a, b, gone = (engineio.socket.Socket(eio, sid) for sid in ("a", "b", "gone"))
    for each in (a, b, gone):
        each.schedule_ping()  # (as engine.io does once a session is open)
    gone.closed = True

    def pings(each) -> list[str]:
        found = []
        while not each.queue.empty():
            found.append(packet.packet_names[each.queue.get_nowait().packet_type])
        return found

    eventually(lambda: a.last_ping and b.last_ping, what="the first round")
    assert pings(a) == ["PING"] and pings(b) == ["PING"] and pings(gone) == []
    assert a.last_ping == b.last_ping  # one round for both (a round stamps its pings with one time)
    eventually(lambda: not eio.ping_rounds._running, what="the rounds' task ended")
    a.receive(packet.Packet(packet.PONG))  # a answers: its next ping is due ping_interval later
    eventually(lambda: a.last_ping, what="a's second ping")
    assert pings(a) == ["PING"] and pings(b) == []  # b never answered: no second ping
