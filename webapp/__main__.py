"""``python -m webapp [--host H] [--port P] [--store URL] [--message-queue URL]``: serve the arcade
and print the lobby's URL."""

import argparse
import logging
import os
import signal
import sys

from . import create_app, get_socketio
from .cluster import RedisUnavailable
from .store import StoreError

log = logging.getLogger("webapp")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m webapp", description="Serve Alpha-Beta Arcade.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--store", default=None,
                        help="where games live: a SQLite file path or sqlite:///PATH, or redis://HOST:PORT/DB "
                             "shared by several server processes (default: $ARCADE_STORE, else "
                             "instance/arcade.sqlite3)")
    parser.add_argument("--debug", action="store_true")
    parser.add_argument("--message-queue", metavar="URL", default=os.environ.get("ARCADE_MESSAGE_QUEUE"),
                        help="redis://HOST:PORT/DB shared by several server processes, so that any of "
                             "them can push to any game's players (default: $ARCADE_MESSAGE_QUEUE, or none)")
    args = parser.parse_args(argv)
    if not 0 < args.port < 65536:
        parser.error(f"--port must be 1..65535, got {args.port}")
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        config = {"MESSAGE_QUEUE": args.message_queue}
        if args.store:
            config["STORE"] = args.store
        app = create_app(config)
    except RedisUnavailable as exc:
        parser.error(str(exc))
    except StoreError as exc:
        parser.error(f"--store: {exc}")
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "") else args.host
    print(f"Alpha-Beta Arcade: lobby at http://{shown}:{args.port}/", flush=True)
    serve(app, args.host, args.port, args.debug)


def _interrupt(signum, frame):
    """SIGTERM as Ctrl-C: unwind the server loop in the main thread (a second signal kills)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    raise KeyboardInterrupt


def serve(app, host: str, port: int, debug: bool = False) -> None:
    """Serve until SIGTERM or Ctrl-C, then stop every search and child process. Games are
    stored as they change, so stopping loses nothing; the next start resumes them."""
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
