"""The search pool's waiting line (:class:`FairQueue`): shares (address buckets) in turn, each
share's clients in turn, and each client's keys (its games, its teaching tools, its arena runs)
in turn within its share.

A task names its share by ``task.share`` (the address bucket it came from, else its client),
its client by ``task.user`` (the client, else its own key) and what it is for by ``task.key``.
One client with thirty games asking a hint in each has one place in its address's line, as one
with a single game has; and one address with twenty-five browsers (minted cookies) has one
place in the line of addresses, as an address with one person has.

>>> from types import SimpleNamespace as T
>>> q = FairQueue()
>>> for share, user, key in [("1", "A", "g1"), ("1", "A", "g2"), ("1", "B", "g3"), ("2", "C", "h")]:
...     q.put(T(share=share, user=user, key=key, table=None))
>>> [(t.user, t.key) for t in iter(q.pop, None)]
[('A', 'g1'), ('C', 'h'), ('B', 'g3'), ('A', 'g2')]
"""

from __future__ import annotations

import itertools
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from typing import Generic, Protocol, TypeVar

AFFINITY_LOOK = 4  # a worker looks at this many of the next client's keys for a task its table knows
AFFINITY_SKIPS = 2  # ... and passes over that client's first key at most this many times in a row



class Queued(Protocol):
    """What the line reads of a task (a :class:`webapp.search_pool.Task`)."""

    @property
    def share(self) -> str: ...

    @property
    def user(self) -> str: ...

    @property
    def key(self) -> str: ...


Task = TypeVar("Task", bound=Queued)



class FairQueue(Generic[Task]):
    """Tasks waiting for a worker: FIFO within a key, a client's keys in turn, a share's clients
    in turn, shares in turn.

    Shares and clients are served strictly in turn. Within the client whose turn it is, a
    worker may take a task its own table is warm for (``mine``) from one of its first few keys
    before its first key, passing over that key at most AFFINITY_SKIPS times: a game
    configuration's searches then mostly stay on one worker, whose table has proved most of its
    positions already, and never at another client's expense."""

    def __init__(self) -> None:
        self._shares: OrderedDict[str, OrderedDict[str, OrderedDict[str, deque[Task]]]] = OrderedDict()
        self._skips: dict[str, int] = {}  # client -> times its first key was passed over in a row

    def __len__(self) -> int:
        return sum(len(tasks) for _, _, _, tasks in self._lines())

    def _lines(self) -> Iterator[tuple[str, str, str, deque[Task]]]:
        """(share, client, key, tasks) of every key, in line."""
        for share, users in self._shares.items():
            for user, keys in users.items():
                for key, tasks in keys.items():
                    yield share, user, key, tasks

    def put(self, task: Task) -> None:
        users = self._shares.setdefault(task.share, OrderedDict())
        users.setdefault(task.user, OrderedDict()).setdefault(task.key, deque()).append(task)

    def pop(self, allowed: Callable[[Task], bool] | None = None,
            mine: Callable[[Task], bool] | None = None) -> Task | None:
        """The head of the first share's first client's first key whose head is ``allowed`` (or,
        see the class, a later key of that client that is ``mine``); that key, that client and
        that share go to the back."""
        first = next(((share, user, key) for share, user, key, tasks in self._lines()
                      if allowed is None or allowed(tasks[0])), None)
        if first is None:
            return None
        share, user, key = first
        users = self._shares[share]
        keys = users[user]
        skips = self._skips.pop(user, 0)
        if mine is not None and skips < AFFINITY_SKIPS and not mine(keys[key][0]):
            ready = (k for k, tasks in itertools.islice(keys.items(), AFFINITY_LOOK)
                     if (allowed is None or allowed(tasks[0])) and mine(tasks[0]))
            key = next(ready, key)
        if key != first[2]:
            self._skips[user] = skips + 1
        tasks = keys[key]
        task = tasks.popleft()
        for parent, name, child in ((keys, key, tasks), (users, user, keys), (self._shares, share, users)):
            if child:
                parent.move_to_end(name)
            else:
                del parent[name]
        if user not in users:
            self._skips.pop(user, None)
        return task

    def heads(self) -> list[Task]:
        """The first task of every key, in line."""
        return [tasks[0] for _, _, _, tasks in self._lines()]

    def promote(self, key: str) -> None:
        """Put ``key`` (and its client, and its share) first in line, to be taken next (no
        worker passes over it for its table)."""
        for share, user, name, _ in self._lines():
            if name == key:
                users = self._shares[share]
                users[user].move_to_end(key, last=False)
                users.move_to_end(user, last=False)
                self._shares.move_to_end(share, last=False)
                self._skips[user] = AFFINITY_SKIPS
                return

    def remove(self, keep: Callable[[Task], bool]) -> list[Task]:
        """Take out (and return) every task for which ``keep`` is false."""
        removed: list[Task] = []
        for share, user, key, tasks in list(self._lines()):
            gone = [t for t in tasks if not keep(t)]
            if not gone:
                continue
            removed += gone
            users = self._shares[share]
            left = deque(t for t in tasks if keep(t))
            if left:
                users[user][key] = left
                continue
            del users[user][key]
            if not users[user]:
                del users[user]
                self._skips.pop(user, None)
                if not users:
                    del self._shares[share]
        return removed

    def count(self, which: Callable[[Task], bool]) -> int:
        """How many waiting tasks ``which`` picks (a client's, an address's)."""
        return sum(1 for _, _, _, tasks in self._lines() for t in tasks if which(t))

    def keys(self) -> dict[str, int]:
        """Waiting tasks per key."""
        out: dict[str, int] = {}
        for _, _, key, tasks in self._lines():
            out[key] = out.get(key, 0) + len(tasks)
        return out
