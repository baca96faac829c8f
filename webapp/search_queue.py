"""The search pool's waiting line (:class:`FairQueue`): clients in turn, and each client's
keys (its games, its teaching tools, its arena runs) in turn within its share.

A task names its client by ``task.user`` (the client, else its own key) and what it is for by
``task.key``. One client with thirty games asking a hint in each has one place in the line,
as one with a single game has: it is served once per round, whatever it queued.

>>> from types import SimpleNamespace as T
>>> q = FairQueue()
>>> for user, key in [("A", "g1"), ("A", "g2"), ("A", "g1"), ("B", "h")]:
...     q.put(T(user=user, key=key, table=None))
>>> [(t.user, t.key) for t in iter(q.pop, None)]
[('A', 'g1'), ('B', 'h'), ('A', 'g2'), ('A', 'g1')]
"""

from __future__ import annotations

import itertools
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

AFFINITY_LOOK = 4  # a worker looks at this many of the next client's keys for a task its table knows
AFFINITY_SKIPS = 2  # ... and passes over that client's first key at most this many times in a row



class Queued(Protocol):
    """What the line reads of a task (a :class:`webapp.search_pool.Task`)."""

    @property
    def user(self) -> str: ...

    @property
    def key(self) -> str: ...


Task = TypeVar("Task", bound=Queued)


class FairQueue(Generic[Task]):
    """Tasks waiting for a worker: FIFO within a key, a client's keys in turn, clients in turn.

    Clients are served strictly in turn. Within the client whose turn it is, a worker may take
    a task its own table is warm for (``mine``) from one of its first few keys before its first
    key, passing over that key at most AFFINITY_SKIPS times: a game configuration's searches
    then mostly stay on one worker, whose table has proved most of its positions already,
    and never at another client's expense."""

    def __init__(self) -> None:
        self._users: OrderedDict[str, OrderedDict[str, deque[Task]]] = OrderedDict()
        self._skips: dict[str, int] = {}  # client -> times its first key was passed over in a row

    def __len__(self) -> int:
        return sum(len(tasks) for keys in self._users.values() for tasks in keys.values())

    def put(self, task: Task) -> None:
        self._users.setdefault(task.user, OrderedDict()).setdefault(task.key, deque()).append(task)

    def _candidate(self, keys: OrderedDict[str, deque[Task]], allowed: Callable[[Task], bool] | None) -> str | None:
        """The client's first key whose head may go now."""
        return next((k for k, tasks in keys.items() if allowed is None or allowed(tasks[0])), None)

    def pop(self, allowed: Callable[[Task], bool] | None = None,
            mine: Callable[[Task], bool] | None = None) -> Task | None:
        """The head of the first client's first key whose head is ``allowed`` (or, see the
        class, a later client's that is ``mine``); that key and that client go to the back."""
        lines = ((user, key) for user, keys in self._users.items()
                 if (key := self._candidate(keys, allowed)) is not None)
        first = next(lines, None)
        if first is None:
            return None
        user, key = first
        keys = self._users[user]
        skips = self._skips.pop(user, 0)
        if mine is not None and skips < AFFINITY_SKIPS and not mine(keys[key][0]):
            ready = (k for k, tasks in itertools.islice(keys.items(), AFFINITY_LOOK)
                     if (allowed is None or allowed(tasks[0])) and mine(tasks[0]))
            key = next(ready, key)
        if key != first[1]:
            self._skips[user] = skips + 1
        tasks = keys[key]
        task = tasks.popleft()
        if tasks:
            keys.move_to_end(key)
        else:
            del keys[key]
        if keys:
            self._users.move_to_end(user)
        else:
            del self._users[user]
            self._skips.pop(user, None)
        return task

    def heads(self) -> list[Task]:
        """The first task of every key, in line."""
        return [tasks[0] for keys in self._users.values() for tasks in keys.values()]

    def promote(self, key: str) -> None:
        """Put ``key`` (and its client) first in line, to be taken next (no worker passes over
        it for its table)."""
        for user, keys in self._users.items():
            if key in keys:
                keys.move_to_end(key, last=False)
                self._users.move_to_end(user, last=False)
                self._skips[user] = AFFINITY_SKIPS
                return

    def remove(self, keep: Callable[[Task], bool]) -> list[Task]:
        """Take out (and return) every task for which ``keep`` is false."""
        removed: list[Task] = []
        for user in list(self._users):
            keys = self._users[user]
            for key in list(keys):
                gone = [t for t in keys[key] if not keep(t)]
                if gone:
                    removed += gone
                    left = deque(t for t in keys[key] if keep(t))
                    if left:
                        keys[key] = left
                    else:
                        del keys[key]
            if not keys:
                del self._users[user]
                self._skips.pop(user, None)
        return removed

    def count(self, which: Callable[[Task], bool]) -> int:
        """How many waiting tasks ``which`` picks (a client's, an address's)."""
        return sum(1 for keys in self._users.values() for tasks in keys.values() for t in tasks if which(t))

    def keys(self) -> dict[str, int]:
        """Waiting tasks per key."""
        out: dict[str, int] = {}
        for keys in self._users.values():
            for key, tasks in keys.items():
                out[key] = out.get(key, 0) + len(tasks)
        return out
