"""Per-key sliding-window rate limit for creating design jobs (docs/api.md, "Rate limit").

Every ``POST /v1/design`` by an authenticated key that gets past the limiter
counts, whatever happens to it next (accepted, or refused as invalid): that is
the simplest rule and cannot be gamed with invalid bodies. Requests refused
with 429 do not count, so a client that waits ``Retry-After`` seconds always
gets through. Reads (polling, files) are not limited. The window lives in
memory: one server process owns a data directory, and a restart resets it.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque

from ..errors import InvalidOptionError

DEFAULT_LIMIT = 10
DEFAULT_WINDOW = 60.0
#: Wrong API keys one client address may send per window before it is refused for a while.
AUTH_FAILURE_LIMIT = 20


class RateLimiter:
    def __init__(
        self, limit: int = DEFAULT_LIMIT, window: float = DEFAULT_WINDOW, clock=time.monotonic
    ):
        if limit < 1 or window <= 0:
            raise InvalidOptionError("rate limit: limit must be >= 1 and window > 0")
        self.limit = limit
        self.window = window
        self._clock = clock
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def blocked(self, key: str) -> int:
        """Seconds ``key`` must wait (0: none), without counting an attempt."""
        now = self._clock()
        with self._lock:
            hits = self._hits.get(key)
            while hits and hits[0] <= now - self.window:
                hits.popleft()
            if hits is None or len(hits) < self.limit:
                return 0
            return max(1, math.ceil(hits[0] + self.window - now))

    def hit(self, key: str) -> int:
        """Count one attempt for ``key``; 0 if allowed, else seconds to wait (>= 1)."""
        now = self._clock()
        with self._lock:
            hits = self._hits.setdefault(key, deque())
            while hits and hits[0] <= now - self.window:
                hits.popleft()
            if len(hits) >= self.limit:
                return max(1, math.ceil(hits[0] + self.window - now))
            hits.append(now)
            if len(self._hits) > 10_000:  # forget idle keys now and then
                self._hits = {
                    k: v for k, v in self._hits.items() if v and v[-1] > now - self.window
                }
            return 0
