"""The server's AI: one search pool, and one object per concern around it.

- :class:`~webapp.turns.AITurns`: the AI's turns (start, search, store, retry);
- :class:`~webapp.hints.Hints`: hints, answered to the socket that asked;
- :class:`~webapp.broadcast.StateBroadcast`: a game's state to its room after every change;
- :class:`~webapp.client_caps.GameCaps`: the live AI-against-AI games and arena runs a client
  may have;
- :class:`~webapp.cluster.TurnLeases`: with several processes on one store, which of them
  searches a game's turn.
"""

from __future__ import annotations

from flask_socketio import SocketIO

from .broadcast import StateBroadcast
from .client_caps import GameCaps
from .cluster import TurnLeases
from .hints import Hints
from .search_pool import SearchPool
from .sessions import SessionStore
from .turns import AITurns


class AIRunner:
    """What a server runs its searches with (``app.extensions["arcade"].ai``)."""

    def __init__(self, socketio: SocketIO, config: dict, store: SessionStore) -> None:
        self.pool = SearchPool(int(config["AI_PROCESSES"]), max_time=float(config["AI_TIME_CAP"]),
                               progress_interval=float(config["AI_PROGRESS_INTERVAL"]),
                               table_entries=config["TT_MAX_ENTRIES"],
                               max_queued=int(config["MAX_QUEUED_PER_CLIENT"]),
                               address_factor=int(config["ADDRESS_FACTOR"]),
                               max_rss_mb=config["WORKER_MAX_RSS_MB"])
        self.caps = GameCaps(config, store)
        # several processes on one store: a game's AI turn is searched by the lease holder only
        self.leases = TurnLeases(store.backend, float(config["AI_LEASE"]), on_lost=self._lost_turn)
        store.turns = self.leases  # a write that makes the AI due takes its turn along (one round trip)
        self.broadcast = StateBroadcast(socketio, store, self.leases)
        self.turns = AITurns(socketio, config, store, self.pool, self.leases, self.broadcast)
        self.hints = Hints(socketio, self.pool, config["HINT_AGENT"], float(config["HINT_TIME"]))

    def _lost_turn(self, game_id: str) -> None:
        self.turns.lost_turn(game_id)

    def shutdown(self) -> None:
        """Stop every search and worker process (within seconds); start no new one."""
        self.turns.stopping = True
        self.pool.shutdown()
