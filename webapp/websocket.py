"""The server's side of a websocket (RFC 6455), read and written on gunicorn's own socket by the
greenlet that serves the connection: engine.io's websocket class for the production server.

engine.io's default (simple-websocket over wsproto) runs a reader greenlet per socket besides
engine.io's own two, hands each message to the handler through an event, and keeps wsproto's
connection and handshake state for the socket's life. Here the handler's greenlet reads the
frames itself: one greenlet fewer a socket, no event, a frame's header read with ``struct``.
What engine.io needs of it: ``ws(environ, start_response)`` runs ``handler(ws)``; ``wait()``
(the next message, or None once closed), ``send(message)`` (a ``str`` as text, ``bytes`` as
binary) and ``close()``.

engine.io hands every packet to a writer greenlet of the socket's, through a queue: a wake-up of
that greenlet for every emit. Once the socket is a websocket with nothing waiting to be written,
its queue (:class:`OutboundQueue`) writes a packet at once, in the greenlet that emits it, if the
kernel takes the frame without waiting; what it does not take (a client that reads slowly) goes
through the writer, in order, so no emitter ever waits on someone else's connection.

Declined: extensions (compression: see ``webapp.wsgi_guard.DEFLATE_OFFER``) and subprotocols.
Refused, with the close code RFC 6455 names: an unmasked or reserved-bit frame (1002), a message
larger than engine.io's ``max_http_buffer_size`` (1009), text that is not UTF-8 (1007).
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import socket
import struct
import threading
from collections.abc import Callable, Iterable
from typing import Any

from gevent.queue import JoinableQueue

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455 1.3
CONTINUATION, TEXT, BINARY, CLOSE, PING, PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA
PROTOCOL_ERROR, TOO_BIG, NOT_UTF8, NORMAL = 1002, 1009, 1007, 1000
READ_BYTES = 65536


class Fault(Exception):
    """A frame RFC 6455 does not allow here: the socket closes with ``code``."""

    def __init__(self, code: int):
        super().__init__(code)
        self.code = code


class ServerWebSocket:
    """One websocket, for engine.io (``server.eio._async["websocket"]``): see the module."""

    def __init__(self, handler: Callable[[ServerWebSocket], Any], server: Any, library: Callable[..., Any]):
        self.handler, self.server, self.library = handler, server, library
        self.max_message = int(server.max_http_buffer_size)
        self.sock: socket.socket | None = None
        self.received = bytearray()
        self.send_lock = threading.Lock()  # (gevent's, under its patch): whole frames, never interleaved
        self.closed = False
        self.owner: Any = getattr(handler, "__self__", None)  # engine.io's socket (the handler is its method)
        self.outbound: OutboundQueue | None = None

    def __call__(self, environ: dict, start_response: Callable[..., Any]) -> Iterable[bytes]:
        sock = environ.get("gunicorn.socket")
        if sock is None:  # (not gunicorn's connection: engine.io's own class knows the others)
            result: Iterable[bytes] = self.library(self.handler, self.server)(environ, start_response)
            return result
        key = handshake_key(environ)
        if key is None:
            start_response("400 Bad Request", [("Content-Type", "text/plain; charset=utf-8")])
            return [b"not a websocket handshake"]
        accept = base64.b64encode(hashlib.sha1(key + GUID).digest())
        sock.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n")
        self.sock = sock
        try:
            self.handler(self)
        finally:
            self.close()
        raise StopIteration  # gunicorn: the connection is done, and no answer is to be written

    # ----- what engine.io calls ------------------------------------------------------------
    def wait(self) -> str | bytes | None:
        """The next message (text as ``str``, binary as ``bytes``), answering pings on the way;
        None when the socket is closed (by the peer, by us, or for a fault in its frames)."""
        if self.outbound is None:
            self._take_outbound()
        try:
            return self._next_message()
        except Fault as fault:
            self._close(fault.code)
        except EOFError:
            self.closed = True
        return None

    def _next_message(self) -> str | bytes | None:
        parts: list[bytes] = []
        kind = None
        size = 0
        while not self.closed:
            first, second = self._read(2)
            fin, opcode, length = first & 0x80, first & 0x0F, second & 0x7F
            if first & 0x70 or not second & 0x80:  # a reserved bit (no extension agreed), or unmasked
                raise Fault(PROTOCOL_ERROR)
            if length >= 126:
                length = int.from_bytes(self._read(2 if length == 126 else 8), "big")
            if opcode >= CLOSE and (not fin or length > 125):  # control frames: whole and short
                raise Fault(PROTOCOL_ERROR)
            if opcode < CLOSE and size + length > self.max_message:
                raise Fault(TOO_BIG)
            masked = self._read(4 + length)
            payload = unmask(masked[4:], masked[:4])
            if opcode == CLOSE:
                self._close(int.from_bytes(payload[:2], "big") if len(payload) >= 2 else NORMAL)
                return None
            if opcode == PING:
                self._write(frame(PONG, payload))
                continue
            if opcode == PONG:
                continue
            if opcode in (TEXT, BINARY) and kind is None:
                kind = opcode
            elif opcode != CONTINUATION or kind is None:
                raise Fault(PROTOCOL_ERROR)
            parts.append(payload)
            size += length
            if fin:
                data = parts[0] if len(parts) == 1 else b"".join(parts)
                if kind == BINARY:
                    return data
                try:
                    return data.decode("utf-8")
                except UnicodeDecodeError:
                    raise Fault(NOT_UTF8) from None
        return None

    def send(self, message: str | bytes | FrameRest) -> None:
        """One message, as one frame. OSError once the socket is closed (engine.io's writer
        stops on it)."""
        if self.closed or self.sock is None:
            raise OSError("the websocket is closed")
        self._write(message.data if isinstance(message, FrameRest) else message_frame(message))

    def close(self) -> None:
        self._close(NORMAL)

    # ----- packets written at once (see OutboundQueue) -------------------------------------
    def _take_outbound(self) -> None:
        """Once engine.io's socket is a websocket for good (not while a polling client is being
        upgraded: its packets still go to the polling request), its queue writes at once."""
        owner = self.owner
        queue = getattr(owner, "queue", None)
        if isinstance(queue, OutboundQueue) and owner.upgraded and not owner.upgrading:
            queue.sink, self.outbound = self, queue

    def send_now(self, message: str | bytes) -> FrameRest | None:
        """Write ``message`` as one frame if the kernel takes it without waiting, and never wait:
        None once written whole; otherwise what is left of the frame (all of it when nothing
        was written), which must go out before anything else."""
        data = message_frame(message)
        if self.closed or self.sock is None or self.send_lock.locked():
            return FrameRest(data)
        with self.send_lock:
            try:  # (gevent's socket would wait for room: its own, never-waiting one does not)
                sent = getattr(self.sock, "_sock", self.sock).send(data, socket.MSG_DONTWAIT)
            except OSError:  # full, or broken: the writer waits, or meets the error and closes
                sent = 0
        return None if sent == len(data) else FrameRest(data[sent:])

    # ----- frames ------------------------------------------------------------------------
    def _write(self, data: bytes) -> None:
        assert self.sock is not None
        with self.send_lock:
            # One send takes a frame whole unless the socket's buffer is full (gevent's sendall
            # first asks the kernel the buffer's size, a system call per frame).
            sent = self.sock.send(data)
            if sent < len(data):
                self.sock.sendall(memoryview(data)[sent:])

    def _close(self, code: int) -> None:
        """Our close frame (once), then the connection ends: RFC 6455 7.1.1 has the server
        close TCP first. Reading stops at once (the kernel's shutdown: a read waiting on a peer
        that never answers wakes with the end of the stream)."""
        if self.closed or self.sock is None:
            self.closed = True
            return
        self.closed = True
        if self.outbound is not None:
            self.outbound.sink = None
        with contextlib.suppress(OSError):
            self._write(frame(CLOSE, code.to_bytes(2, "big")))
        with contextlib.suppress(OSError):
            getattr(self.sock, "_sock", self.sock).shutdown(socket.SHUT_RD)

    def _read(self, count: int) -> bytes:
        """Exactly ``count`` bytes; EOFError when the connection ends first."""
        received = self.received
        while len(received) < count:
            try:
                chunk = self.sock.recv(READ_BYTES) if self.sock is not None else b""
            except OSError:
                chunk = b""
            if not chunk:
                raise EOFError
            received += chunk
        data = bytes(received[:count])
        del received[:count]
        return data


class FrameRest:
    """What the kernel did not take of a frame written at once: engine.io's writer sends it on
    (``encode()`` is what it calls on a packet), before anything queued after it."""

    __slots__ = ("data",)

    def __init__(self, data: bytes):
        self.data = data

    def encode(self) -> FrameRest:
        return self


class OutboundQueue(JoinableQueue):
    """engine.io's queue of a socket's packets (``eio._async["queue"]``), which its writer
    greenlet empties. While ``sink`` (the socket's :class:`ServerWebSocket`) is set and nothing
    waits in the queue, a packet put is written at once (:meth:`ServerWebSocket.send_now`); what
    the kernel does not take waits here for the writer, and so does every packet after it until
    the writer has sent it."""

    __slots__ = ("sink",)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.sink: ServerWebSocket | None = None

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        sink = self.sink
        if sink is not None and item is not None and not self.qsize():
            item = sink.send_now(item.encode())
            if item is None:
                return
        super().put(item, block, timeout)

    def get(self, block: bool = True, timeout: float | None = None) -> Any:
        # engine.io's writer gives up on a socket that sent it nothing for ping_interval +
        # ping_timeout; written at once, packets no longer pass it (a silent client is still
        # closed by its ping check)
        return super().get(block, None if self.sink is not None else timeout)


def handshake_key(environ: dict) -> bytes | None:
    """The client's ``Sec-WebSocket-Key`` when the request is a valid version-13 websocket
    upgrade (RFC 6455 4.2.1), else None."""
    if environ.get("REQUEST_METHOD") != "GET" or environ.get("HTTP_UPGRADE", "").lower() != "websocket":
        return None
    if "upgrade" not in environ.get("HTTP_CONNECTION", "").lower() or environ.get("HTTP_SEC_WEBSOCKET_VERSION") != "13":
        return None
    key = environ.get("HTTP_SEC_WEBSOCKET_KEY", "").strip().encode("latin-1", "replace")
    try:
        if len(base64.b64decode(key, validate=True)) != 16:
            return None
    except binascii.Error:
        return None
    return key


def frame(opcode: int, payload: bytes) -> bytes:
    """A server's frame (RFC 6455 5.2): whole (FIN), unmasked, its length in 7, 16 or 64 bits."""
    length = len(payload)
    if length < 126:
        return bytes((0x80 | opcode, length)) + payload
    if length < 1 << 16:
        return struct.pack("!BBH", 0x80 | opcode, 126, length) + payload
    return struct.pack("!BBQ", 0x80 | opcode, 127, length) + payload


def message_frame(message: str | bytes) -> bytes:
    """A message as one frame: a ``str`` as text (UTF-8), ``bytes`` as binary."""
    return frame(TEXT, message.encode("utf-8")) if isinstance(message, str) else frame(BINARY, bytes(message))


def unmask(data: bytes, mask: bytes) -> bytes:
    """A client frame's payload, its 4-byte mask undone (RFC 6455 5.3), in one XOR of two
    integers rather than a loop over bytes."""
    length = len(data)
    if not length:
        return b""
    key = (mask * (length // 4 + 1))[:length]
    return (int.from_bytes(data, "little") ^ int.from_bytes(key, "little")).to_bytes(length, "little")


def serve_websockets(eio: Any) -> None:
    """Under gevent (the production server), ``eio``'s websockets on gunicorn's sockets are
    :class:`ServerWebSocket` and its sockets' queues :class:`OutboundQueue`; any other (none is
    served so today) keeps engine.io's own."""
    if eio.async_mode != "gevent":
        return
    library = eio._async["websocket"]

    def websocket(handler: Callable[..., Any], server: Any) -> Any:
        return ServerWebSocket(handler, server, library)

    eio._async = {**eio._async, "websocket": websocket, "queue": OutboundQueue}  # (a copy: the driver's dict is shared)
