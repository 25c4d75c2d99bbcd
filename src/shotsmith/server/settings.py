"""What a /v1 server is built with: one :class:`ServerSettings` value, checked once.

``create_app(ServerSettings(data_dir, ...))`` (or ``create_app(data_dir, **fields)``)
builds the app from it; ``shotsmith serve`` fills it from its options and environment.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..errors import InvalidOptionError
from .limits import MAX_BODY_BYTES, MAX_IMAGE_BYTES
from .ratelimit import AUTH_FAILURE_LIMIT, DEFAULT_LIMIT, DEFAULT_WINDOW
from .retention import DEFAULT_DAYS
from .uploads import BODY_IDLE_TIMEOUT, BODY_TIMEOUT, MIN_BODY_RATE
from .webhooks import DEFAULT_TIMEOUT, MAX_TIMEOUT, Resolver


def normalise_base_url(base_url: str | None) -> str | None:
    """An absolute http(s) URL without its trailing slash; None for none."""
    if not base_url:
        return None
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InvalidOptionError(
            f"base URL {base_url!r} must be absolute, e.g. "
            "http://127.0.0.1:8787 or https://shots.example.com"
        )
    return base_url.rstrip("/")


@dataclass(frozen=True)
class ServerSettings:
    """Everything :func:`.app.create_app` needs; invalid values raise
    :class:`~shotsmith.errors.InvalidOptionError` when the settings are made.

    ``base_url`` prefixes every returned URL (poll_url, output_urls, webhook bodies);
    without it the URL the request came in on is used. ``api_keys`` are accepted in
    addition to those created with ``shotsmith keys create``. ``workers`` is the number of
    rendering processes (default ``min(2, cpus)``). ``design_options`` are extra keyword
    arguments for :func:`shotsmith.design` (e.g. ``{"ocr": False}``).
    ``rate_limit``/``rate_window``: design jobs a key may create per window (10 per 60 s).
    ``shutdown_grace``: seconds running jobs get to finish on shutdown before they are
    put back in the queue. ``job_timeout``: a job running longer fails. Every
    ``watch_interval`` seconds a watchdog re-queues (or fails) design jobs left
    ``processing`` with no worker on them. A client address that sends more than
    ``auth_failure_limit`` unknown API keys in ``auth_failure_window`` seconds gets 429
    with ``Retry-After`` for every request until the window lets it in (0: no limit).

    Screenshot collections run in a pool of their own: ``capture_workers`` processes
    (default 1; started with the first collection), each capture bounded by
    ``capture_timeout`` seconds (the capture stage's ``timeout_s``), the design phase by
    ``job_timeout``. A key may have ``max_active_collections`` capturing or processing.

    Webhooks (:mod:`.webhooks`): each delivery has ``webhook_timeout`` seconds in all (at
    most 10); they may go only to public addresses unless ``webhook_allow_private``
    (never to the server itself: ``server_address``, the (host, port) it listens on, and
    the base URL's); ``webhook_resolver`` replaces ``socket.getaddrinfo`` (tests).

    ``retention_days``: finished jobs and collections are deleted that long after they
    finished (0: kept forever). ``max_uploads``: large request bodies received at once
    (more get 503 with ``Retry-After``), ``max_uploads_per_key`` of them for one API key
    (default half of ``max_uploads``; more get 429). A request body must arrive within
    ``body_timeout`` seconds, without a pause of ``body_idle_timeout`` seconds, at
    ``min_body_rate`` bytes per second on average (0: no minimum) once 5 s have passed
    (:class:`.uploads.BodyDeadlines`).
    """

    data_dir: Path
    base_url: str | None = None
    api_keys: tuple[str, ...] = ()
    workers: int | None = None
    rate_limit: int = DEFAULT_LIMIT
    rate_window: float = DEFAULT_WINDOW
    webhook_timeout: float = DEFAULT_TIMEOUT
    design_options: dict[str, Any] | None = None
    max_body_bytes: int = MAX_BODY_BYTES
    max_image_bytes: int = MAX_IMAGE_BYTES
    shutdown_grace: float = 5.0
    max_attempts: int = 3
    job_timeout: float = 300.0
    capture_workers: int = 1
    capture_timeout: float = 60.0
    max_active_collections: int = 10
    webhook_allow_private: bool = False
    webhook_resolver: Resolver | None = field(default=None, repr=False)
    server_address: tuple[str, int] | None = None
    retention_days: float = DEFAULT_DAYS
    max_uploads: int = 4
    max_uploads_per_key: int | None = None
    body_timeout: float = BODY_TIMEOUT
    min_body_rate: float = MIN_BODY_RATE
    body_idle_timeout: float = BODY_IDLE_TIMEOUT
    watch_interval: float = 30.0
    auth_failure_limit: int = AUTH_FAILURE_LIMIT
    auth_failure_window: float = DEFAULT_WINDOW

    def __post_init__(self) -> None:
        set_field = object.__setattr__  # frozen: the checked, normalised values
        set_field(self, "data_dir", Path(self.data_dir))
        set_field(self, "api_keys", tuple(self.api_keys))
        set_field(self, "base_url", normalise_base_url(self.base_url))
        self._check()

    def _check(self) -> None:
        if self.capture_workers < 1:
            raise InvalidOptionError("capture_workers must be at least 1.")
        if not 0 < self.webhook_timeout <= MAX_TIMEOUT:
            raise InvalidOptionError(
                f"webhook_timeout must be more than 0 and at most {MAX_TIMEOUT:g} s."
            )
        if self.retention_days < 0:
            raise InvalidOptionError("retention_days must be 0 (keep forever) or more.")
        if self.max_uploads < 1:
            raise InvalidOptionError("max_uploads must be at least 1.")
        per_key = self.max_uploads_per_key
        if per_key is not None and not 1 <= per_key <= self.max_uploads:
            raise InvalidOptionError("max_uploads_per_key must be from 1 to max_uploads.")
        if not (self.body_timeout > 0 and self.body_idle_timeout > 0 and self.min_body_rate >= 0):
            raise InvalidOptionError(
                "body_timeout and body_idle_timeout must be more than 0 s, min_body_rate 0 or more."
            )

    @classmethod
    def of(
        cls,
        settings: ServerSettings | str | Path,
        base_url: str | None = None,
        api_keys: Iterable[str] | None = None,
        workers: int | None = None,
        **fields: Any,
    ) -> ServerSettings:
        """``settings`` as they are, or a data directory with the other fields."""
        if isinstance(settings, ServerSettings):
            if base_url is not None or api_keys is not None or workers is not None or fields:
                raise InvalidOptionError(
                    "create_app: pass either ServerSettings or a data directory with "
                    "options, not both."
                )
            return settings
        return cls(Path(settings), base_url, tuple(api_keys or ()), workers, **fields)

    def own_addresses(self) -> list[tuple[str, int]]:
        """The (host, port) pairs the server itself answers on: webhooks never go there."""
        own: list[tuple[str, int]] = []
        if self.server_address is not None:
            own.append((self.server_address[0], int(self.server_address[1])))
        if self.base_url:
            parts = urlsplit(self.base_url)
            port = parts.port or (443 if parts.scheme == "https" else 80)
            own.append((parts.hostname or "", port))
        return own
