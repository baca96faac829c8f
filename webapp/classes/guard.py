"""Join codes guarded like seat tokens (issue 41): a join code is the only secret between a
stranger and a class's roster, so guessing one must cost.

- **Misses per address**: a join with a code no class has is a *miss*. An address bucket
  (:func:`webapp.clients.address`) may miss ``JOIN_MISS_LIMITS`` times (nested moving windows,
  e.g. 10 a minute, 30 in 10 minutes, 100 a day): the delay grows with the misses, a minute
  after a burst, ten minutes after a longer one, a day after many. While an address is over
  one of them, every join from it is refused (429 with ``Retry-After``), a right code too: a
  guesser learns nothing more.
- **Joins per code**: a class's code may be used ``CODE_JOIN_LIMIT`` times (a class of 60
  joining at once fits): a script flooding one class's roster is refused.
- **The log** notes an address that starts to be refused for its misses, and a class joined
  from an address with misses behind it (a code that may have been guessed).

The counts live in the rate limits' storage (Redis when the store is one: every process
counts the same misses).
"""

from __future__ import annotations

import logging
import math
import time

from limits import RateLimitItem, parse, parse_many
from limits.strategies import RateLimiter

from ..errors import ArcadeError

log = logging.getLogger(__name__)

SUSPICIOUS_MISSES = 5  # a class joined from an address with this many misses in the longest window is logged


class JoinGuard:
    """``check(address, code)`` before a join, ``missed``/``joined`` after it."""

    def __init__(self, limiter: RateLimiter, misses: str, per_code: str):
        self.limiter = limiter
        self.misses: list[RateLimitItem] = sorted(parse_many(misses), key=lambda item: item.get_expiry())
        self.per_code: RateLimitItem | None = parse(per_code) if per_code else None

    def check(self, address: str, code: str) -> None:
        """Refuse (429) a join from an address over a miss limit, or into a code over its limit."""
        for item in self.misses:
            if not self.limiter.test(item, "join-misses", address):
                raise refusal("too many wrong class codes from your address", self._wait(item, "join-misses", address))
        if self.per_code is not None and not self.limiter.hit(self.per_code, "join-code", code):
            raise refusal("this class is being joined too fast", self._wait(self.per_code, "join-code", code))

    def missed(self, address: str, code: str) -> None:
        """Count a join with an unknown code; log once an address starts being refused."""
        for item in self.misses:
            self.limiter.hit(item, "join-misses", address)
            if not self.limiter.test(item, "join-misses", address):
                log.warning("join codes guessed from %s: %d wrong codes (the last %r) within %s: its joins are "
                            "refused for a while", address, item.amount, code, _span(item))

    def joined(self, address: str, class_id: str, code: str) -> None:
        """Log a class joined from an address that has missed several codes lately."""
        if not self.misses:
            return
        longest = self.misses[-1]
        missed = longest.amount - self.limiter.get_window_stats(longest, "join-misses", address).remaining
        if missed >= SUSPICIOUS_MISSES:
            log.warning("class %s (code %s) joined from %s after %d wrong codes within %s: a guessed code?",
                        class_id, code, address, missed, _span(longest))

    def _wait(self, item: RateLimitItem, *keys: str) -> int:
        reset = self.limiter.get_window_stats(item, *keys).reset_time
        return max(1, math.ceil(reset - time.time()))


def refusal(what: str, wait: int) -> ArcadeError:
    return ArcadeError("rate_limited", f"{what}: try again in {wait} s", 429, {"Retry-After": str(wait)})


def _span(item: RateLimitItem) -> str:
    seconds = item.get_expiry()
    return f"{seconds // 60} min" if seconds >= 60 else f"{seconds} s"
