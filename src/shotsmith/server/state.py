"""The server's state: what every request and every runner shares, built once per app."""

from __future__ import annotations

import fcntl
import os
from dataclasses import dataclass, field
from urllib.parse import quote

from fastapi import Request

from ..errors import ConflictError
from .auth import AUTHENTICATED, KeyRing
from .collections import CollectionRunner
from .idempotency import InFlight
from .jobs import JobRunner
from .limits import MAX_BODY_BYTES, MAX_IMAGE_BYTES, MAX_IMAGES
from .ratelimit import RateLimiter
from .retention import RetentionSweeper
from .store import Job, Store
from .uploads import ANONYMOUS_DRAIN, BodyDeadlines, UploadSlots
from .webhooks import Notifier, WebhookPolicy


def file_url(base_url: str, job: Job, relative_path: str) -> str:
    name = relative_path.rsplit("/", 1)[-1]
    return f"{base_url}/v1/files/{job.file_token}/{quote(name)}"


@dataclass
class ServerState:
    """Built once by :func:`.app.create_app`: the store (open before the server starts,
    so the data-dir lock can fail cleanly), keys, limits and policies. What has a life
    cycle (the webhook notifier, the job and collection runners and their processes) is
    made by the lifespan at each start, and is None while the app is not running."""

    store: Store
    keyring: KeyRing
    limiter: RateLimiter
    base_url: str | None
    auth_failures: RateLimiter | None = None  # wrong keys per client address
    notifier: Notifier | None = None
    runner: JobRunner | None = None
    collections: CollectionRunner | None = None
    webhook_policy: WebhookPolicy = field(default_factory=WebhookPolicy)
    uploads: UploadSlots = field(default_factory=lambda: UploadSlots(4))
    body_deadlines: BodyDeadlines = field(default_factory=BodyDeadlines)
    in_flight: InFlight = field(default_factory=InFlight)
    retention: RetentionSweeper | None = None
    max_body_bytes: int = MAX_BODY_BYTES
    max_image_bytes: int = MAX_IMAGE_BYTES
    max_images: int = MAX_IMAGES
    max_active_collections: int = 10
    started: bool = False
    _lock_fd: int | None = field(default=None, repr=False)

    def webhook_policy_for(self, request: Request) -> WebhookPolicy:
        """The policy, with the address this request reached the server at as its own."""
        url = request.url
        if not url.hostname:
            return self.webhook_policy
        port = url.port or (443 if url.scheme == "https" else 80)
        return self.webhook_policy.with_own([(url.hostname, port)])

    def drain_limit(self, request: Request) -> int:
        """How much of an unread body to read before an error answer (see uploads)."""
        return self.max_body_bytes if request.scope.get(AUTHENTICATED) else ANONYMOUS_DRAIN

    def output_urls(self, job: Job) -> list[str]:
        if job.status != "completed":
            return []
        base = self.base_url or job.base_url
        return [file_url(base, job, p) for p in job.outputs]

    def runner_notify(self) -> None:
        if self.started and self.runner is not None:
            self.runner.notify()

    def collections_notify(self) -> None:
        if self.started and self.collections is not None:
            self.collections.notify()

    # --- one server per data directory --------------------------------------------------
    def lock_data_dir(self) -> None:
        if self._lock_fd is not None:
            return
        path = self.store.data_dir / "server.lock"
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise ConflictError(
                f"{self.store.data_dir} is in use by another shotsmith server; "
                "stop it or give this one another --data-dir."
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._lock_fd = fd

    def unlock_data_dir(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing releases the flock
            self._lock_fd = None
