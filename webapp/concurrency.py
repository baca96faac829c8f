"""Which concurrency model this process runs on, and the one wait that differs between them.

The production server (``python -m webapp``, :mod:`webapp.server`) runs on **gevent**: an open
connection (a kept-alive HTTP connection, an idle websocket, a request still arriving) costs a
greenlet of a few kilobytes, not a thread, so a school's phones behind one address can all stay
connected (docs/deployment.md says why and what was measured). Everything else (the
development server, the test suite's servers, a Python shell) runs on plain threads.

gevent must patch the standard library before anything takes a lock, a socket or a thread from
it, so the production server starts its process with :data:`PATCH_ENV` set and
``webapp/__init__.py`` calls :func:`patch_if_asked` before its first import. The variable is
then removed, so that the search workers this process spawns stay plain processes.

The application code is the same in both models: it uses ``threading``'s primitives, which
gevent's patch turns into greenlet ones, and Flask-SocketIO's background tasks.
:func:`wait_readable` is the one place where a wait has to be told apart: a read from a search
worker's pipe blocks its whole thread, which under gevent is every connection's.

>>> async_mode()  # (this process is not patched)
'threading'
"""

from __future__ import annotations

import os
from typing import Any

PATCH_ENV = "_ARCADE_PATCH_GEVENT"  # (not ARCADE_*: that prefix is read as settings)


def patch_if_asked() -> None:
    """gevent's ``monkey.patch_all()`` when the process was started to serve on gevent."""
    if os.environ.pop(PATCH_ENV, "") == "1":
        from gevent import monkey

        monkey.patch_all()


def patched() -> bool:
    """True in a process that gevent has patched (the production server's)."""
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover (gevent is a dependency)
        return False
    return bool(monkey.is_module_patched("socket"))


def async_mode() -> str:
    """Flask-SocketIO's ``async_mode`` for this process: ``"gevent"`` where patched."""
    return "gevent" if patched() else "threading"


def wait_readable(conn: Any, timeout: float | None = None) -> bool:
    """Wait until ``conn`` (a multiprocessing connection) has something to read, or its peer
    is gone (True), or ``timeout`` seconds pass (False). Under gevent only this greenlet waits;
    ``conn.poll`` there would block the process (multiprocessing took its selector from the
    standard library before gevent patched it). One watcher on the descriptor, not gevent's
    ``select`` (a list and watchers made per call): a search's round trip through the pool
    costs the server about a seventh less CPU that way (a scratch script, 2,000 small searches
    in turns: 444, 454 µs each with ``select``, 379, 391 µs without)."""
    if not patched():
        return bool(conn.poll(timeout))
    from gevent.socket import wait_read

    try:
        wait_read(conn.fileno(), timeout)
    except TimeoutError:
        return False
    return True
