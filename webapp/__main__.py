"""``python -m webapp [--host H] [--port P] [--store URL] [--message-queue URL] [--connections N]
[--workers N] [--trusted-proxies N] [--dev]``: serve the arcade and print the lobby's URL.

By default this is the production server (:mod:`webapp.server`: gunicorn in this process, one
gevent worker); ``--dev`` (or ``--debug``) runs werkzeug's development server instead. SIGTERM
or Ctrl-C stops either, with every search and child process.

The production server runs on gevent, whose patch of the standard library must come before
anything else is imported: when this process is not patched yet, it starts itself again (the
same process id, by ``exec``) with :data:`webapp.concurrency.PATCH_ENV` set.
"""

import argparse
import logging
import os
import signal
import sys
from types import FrameType
from typing import NoReturn

from flask import Flask

from . import create_app, get_socketio
from .cluster import RedisUnavailable, connect
from .concurrency import PATCH_ENV, patched
from .config import MAX_DEFAULT_WORKERS, settings
from .stores import StoreError, open_stores

log = logging.getLogger("webapp")
MAX_WORKERS = 64


def main(argv: list[str] | None = None) -> None:
    from .server import CONNECTIONS

    parser = argparse.ArgumentParser(prog="python -m webapp", description="Serve Alpha-Beta Arcade.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--store", default=None,
                        help="where games live: a SQLite file path or sqlite:///PATH, or redis://HOST:PORT/DB "
                             "shared by several server processes (default: $ARCADE_STORE, else "
                             "instance/arcade.sqlite3)")
    parser.add_argument("--message-queue", metavar="URL", default=None,
                        help="redis://HOST:PORT/DB shared by several server processes, so that any of "
                             "them can push to any game's players (default: $ARCADE_MESSAGE_QUEUE, or none)")
    parser.add_argument("--connections", type=int, default=CONNECTIONS,
                        help=f"connections open at once, websockets included (default {CONNECTIONS:,}; each is a "
                             "greenlet of a few kB and a file descriptor: docs/deployment.md)")
    parser.add_argument("--workers", type=int, default=None, metavar="N",
                        help="search worker processes (default: $ARCADE_AI_PROCESSES, else one per core this "
                             f"process may run on, at most {MAX_DEFAULT_WORKERS}; several server processes on one "
                             "machine should share its cores: scripts/cluster.sh gives each its part)")
    parser.add_argument("--trusted-proxies", type=int, default=None, metavar="N",
                        help="believe the client address and scheme that N proxies in front of this server "
                             "forward (X-Forwarded-For, X-Forwarded-Proto): 1 behind deploy/nginx.conf "
                             "(default: $ARCADE_TRUSTED_PROXIES, else 0)")
    parser.add_argument("--access-log", action="store_true", help="log every request (seat tokens masked)")
    parser.add_argument("--dev", action="store_true", help="werkzeug's development server instead of gunicorn")
    parser.add_argument("--debug", action="store_true", help="the development server in debug mode")
    args = parser.parse_args(argv)
    if not 0 < args.port < 65536:
        parser.error(f"--port must be 1..65535, got {args.port}")
    if not 10 <= args.connections <= 1_000_000:
        parser.error(f"--connections must be 10..1000000, got {args.connections}")
    if args.workers is not None and not 0 <= args.workers <= MAX_WORKERS:
        parser.error(f"--workers must be 0..{MAX_WORKERS} (0: search in the server process), got {args.workers}")
    if args.trusted_proxies is not None and not 0 <= args.trusted_proxies <= 10:
        parser.error(f"--trusted-proxies must be 0..10, got {args.trusted_proxies}")
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    config = {"MESSAGE_QUEUE": args.message_queue, "TRUSTED_PROXIES": args.trusted_proxies,
              "AI_PROCESSES": args.workers}
    if args.store:
        config["STORE"] = args.store
    try:
        preflight(config)
        app = create_app(config) if args.dev or args.debug else None
    except RedisUnavailable as exc:
        parser.error(str(exc))
    except StoreError as exc:
        parser.error(f"--store: {exc}")
    if app is None and not patched():
        serve_on_gevent(argv)  # (after the checks: their errors come from this process)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "") else args.host
    print(f"Alpha-Beta Arcade: lobby at http://{shown}:{args.port}/", flush=True)
    if app is not None:
        serve(app, args.host, args.port, args.debug)
        return
    from .server import ArcadeServer

    # The app is made in gunicorn's worker process; the worker stops it (webapp.server).
    ArcadeServer(lambda: create_app(config), args.host, args.port, connections=args.connections,
                 access_log=args.access_log).run()


def serve_on_gevent(argv: list[str] | None) -> NoReturn:
    """This command again, in this process (``exec``), patched by gevent before any import."""
    sys.stdout.flush()
    sys.stderr.flush()
    args = sys.argv[1:] if argv is None else argv
    os.execve(sys.executable, [sys.executable, "-m", "webapp", *args], {**os.environ, PATCH_ENV: "1"})


def preflight(config: dict) -> None:
    """The checks that would make ``create_app`` fail, done before a server starts (the
    production server makes the app in its worker process, where a failure is harder to read).
    Opens and closes: nothing stays open across the worker's fork."""
    resolved = settings(config)  # (the environment's ARCADE_* too)
    if resolved["MESSAGE_QUEUE"]:
        connect(resolved["MESSAGE_QUEUE"], "message queue").close()
    if resolved["STORE"]:
        open_stores(resolved["STORE"]).close()


def _interrupt(signum: int, frame: FrameType | None) -> NoReturn:
    """SIGTERM as Ctrl-C: unwind the server loop in the main thread (a second signal kills)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    raise KeyboardInterrupt


def serve(app: Flask, host: str, port: int, debug: bool = False) -> None:
    """The development server, until SIGTERM or Ctrl-C; then stop every search and child
    process. Games are stored as they change, so stopping loses nothing; the next start
    resumes them."""
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
    try:
        get_socketio(app).run(app, host=host, port=port, debug=debug, allow_unsafe_werkzeug=True, use_reloader=False)
    except KeyboardInterrupt:
        pass
    finally:
        log.info("stopping: searches, search workers, store")
        app.extensions["arcade"].shutdown()


if __name__ == "__main__":
    main()
    # Everything is stopped and stored: leave without waiting for daemon threads or an
    # executor's bookkeeping thread.
    logging.shutdown()
    sys.stdout.flush()
    os._exit(0)
