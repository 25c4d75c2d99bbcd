"""Best-effort webhooks (spec section 6): one POST per finished job, no retry.

Deliveries run on a small thread pool of their own, so a slow or dead endpoint
never delays a job, the queue or other deliveries. Each outcome is recorded on
the job row (``webhook_status``: delivered / failed, ``webhook_error``) and logged.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import httpx

from .store import Job, Store

log = logging.getLogger("shotsmith.server")

DEFAULT_TIMEOUT = 5.0
USER_AGENT = "shotsmith-webhook/1"


def webhook_body(job: Job, output_urls: list[str]) -> dict[str, Any]:
    """Exactly the spec's event bodies."""
    if job.status == "completed":
        return {"job_id": job.job_id, "status": "completed", "output_urls": output_urls}
    return {"job_id": job.job_id, "status": "failed", "error": job.error or ""}


def deliver(
    url: str, body: dict[str, Any], timeout: float = DEFAULT_TIMEOUT
) -> tuple[bool, str | None]:
    """POST ``body`` once; (delivered, error). Redirects are not followed."""
    try:
        response = httpx.post(
            url,
            json=body,
            timeout=timeout,
            follow_redirects=False,
            headers={"User-Agent": USER_AGENT},
        )
    except httpx.HTTPError as exc:
        return False, f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    if 200 <= response.status_code < 300:
        return True, None
    return False, f"HTTP {response.status_code} from the webhook endpoint"


class Notifier:
    def __init__(self, store: Store, timeout: float = DEFAULT_TIMEOUT, threads: int = 4):
        self.store = store
        self.timeout = timeout
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="webhook")
        self._closed = False

    def send(self, job: Job, output_urls: list[str]) -> Future | None:
        if not job.webhook_url or self._closed:
            return None
        self.store.set_webhook(job.job_id, "sending")
        return self._pool.submit(
            self._deliver, job.job_id, job.webhook_url, webhook_body(job, output_urls)
        )

    def _deliver(self, job_id: str, url: str, body: dict[str, Any]) -> None:
        try:
            ok, error = deliver(url, body, self.timeout)
            self.store.set_webhook(job_id, "delivered" if ok else "failed", error)
            if ok:
                log.info("webhook for %s delivered to %s", job_id, url)
            else:
                log.warning("webhook for %s to %s failed: %s (not retried)", job_id, url, error)
        except Exception:  # pragma: no cover - never let a delivery thread die silently
            log.exception("webhook for %s to %s: unexpected error", job_id, url)

    def close(self, wait: bool = True) -> None:
        """Stop taking deliveries; with ``wait``, let those under way finish (<= timeout)."""
        self._closed = True
        self._pool.shutdown(wait=wait, cancel_futures=False)
