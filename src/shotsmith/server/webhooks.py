"""Best-effort webhooks (docs/api.md, "Webhooks"): one POST per finished job, no retry, never to
the server's own network, each within one deadline, fairly shared between API keys.

Where a webhook may go. A webhook URL is a request the server makes on a client's
behalf, so by default it may only reach public addresses: loopback, private,
link-local (169.254.169.254 is the cloud metadata service), multicast, unspecified and
reserved addresses are refused, in every spelling (``2130706433``, ``0x7f.1``,
``0177.0.0.1``, ``[::ffff:127.0.0.1]``, ``localhost``...), and so is the server's own
address. :func:`url_refusal` checks the URL when the job is created (a 422 the client
sees at once); at delivery the host name is resolved once, every address it resolves to
is checked, and the connection goes to that checked address (TLS still verifies the
name), so a name that resolves to a public address at creation and to 127.0.0.1 at
delivery (DNS rebinding) is refused too. ``allow_private`` (``serve
--webhook-allow-private`` or ``SHOTSMITH_WEBHOOK_ALLOW_PRIVATE=1``) lifts the address
rule for local development and tests; the server's own address stays refused.

Deadlines and fairness. A delivery has one deadline in total (resolving, connecting,
TLS, sending, reading the status line): a receiver that answers one byte every few
seconds is cut off at the deadline, not at a per-read timeout. Deliveries wait in one
queue per API key and worker threads take the keys in turn, with at most
``per_owner`` deliveries of a key in flight, so one key's slow receivers cannot hold up
other keys' webhooks. On shutdown, deliveries still in flight after the grace period are
abandoned and recorded as failed; queued ones stay ``pending`` and go out at the next
start.

Each outcome is recorded on the job row (``webhook_status``: delivered / failed,
``webhook_error``) and logged with the target as scheme and host only: URLs may carry
credentials (``https://user:token@...``, ``?token=...``).
"""

from __future__ import annotations

import collections
import ipaddress
import json
import logging
import socket
import ssl
import threading
import time
from base64 import b64encode
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import SplitResult, quote, unquote, urlsplit

from ..addresses import (
    IPAddress,
    address_refusal,
    addresses_without_dns,
    bare_host,
    embedded_ipv4,
    host_refusal,
    literal_address,
)
from .store import Job, Store

__all__ = ["Notifier", "WebhookPolicy", "address_refusal", "deliver", "literal_address"]

log = logging.getLogger("shotsmith.server")

DEFAULT_TIMEOUT = 10.0  # seconds for one delivery, all included
MAX_TIMEOUT = 10.0
USER_AGENT = "shotsmith-webhook/1"
Resolver = Callable[..., list[tuple[Any, ...]]]


def webhook_body(job: Job, output_urls: list[str]) -> dict[str, Any]:
    """Exactly the documented event bodies (docs/api.md, "Webhooks")."""
    if job.status == "completed":
        return {"job_id": job.job_id, "status": "completed", "output_urls": output_urls}
    return {"job_id": job.job_id, "status": "failed", "error": job.error or ""}


def redact_url(url: str) -> str:
    """``scheme://host[:port]`` of a URL, for logs: no credentials, path or query."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or "?"
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "<invalid URL>"
    if ":" in host:
        host = f"[{host}]"
    return f"{parts.scheme}://{host}{port}"


@dataclass(frozen=True)
class WebhookPolicy:
    """Where webhooks may go: ``allow_private`` lifts the public-address rule;
    ``own`` are the server's own (host, port) pairs, never allowed."""

    allow_private: bool = False
    own: frozenset[tuple[str, int]] = field(default_factory=frozenset)

    def with_own(self, pairs: Iterable[tuple[str, int]]) -> WebhookPolicy:
        return WebhookPolicy(self.allow_private, self.own | frozenset(pairs))

    def is_own(self, host: str, port: int) -> bool:
        """Whether ``host:port`` is this server: the same name, the same address, any
        loopback address for a server on loopback, or any non-public address for one
        listening on all addresses (0.0.0.0)."""
        name = bare_host(host)
        mine = {_as_reached(a) for a in addresses_without_dns(name)}
        for own_host, own_port in self.own:
            if own_port != port:
                continue
            if bare_host(own_host) == name:
                return True
            for own in addresses_without_dns(bare_host(own_host)):
                own = _as_reached(own)
                for address in mine:
                    if address == own or (_this_machine(address) and _this_machine(own)):
                        return True
                    if own.is_unspecified and address_refusal(address) is not None:
                        return True
        return False

    def url_refusal(self, url: str) -> str | None:
        """Why ``url`` may not receive webhooks (checked at job creation), or None. The
        URL is known to be an absolute http(s) URL with a host."""
        parts = urlsplit(url)
        try:
            host = (parts.hostname or "").encode("idna").decode("ascii").lower()
        except UnicodeError:
            return "its host name is not a valid internet name"
        port = parts.port or (443 if parts.scheme == "https" else 80)
        if self.is_own(host, port):
            return "it points at this server"
        if self.allow_private:
            return None
        return host_refusal(host)


def _as_reached(address: IPAddress) -> IPAddress:
    """The address a connection really goes to: the IPv4 address inside an IPv6 form
    that carries one (``::ffff:127.0.0.1`` is 127.0.0.1)."""
    if isinstance(address, ipaddress.IPv6Address):
        return embedded_ipv4(address) or address
    return address


def _this_machine(address: IPAddress) -> bool:
    """Loopback, or unspecified (a connection to 0.0.0.0 or ``::`` reaches this host)."""
    return address.is_loopback or address.is_unspecified


# --- one delivery ------------------------------------------------------------------------------


class DeliveryError(Exception):
    pass


#: Runs a DNS lookup (a callable) within a timeout: its result, or TimeoutError.
DnsRunner = Callable[[Callable[[], list[tuple[Any, ...]]], float], list[tuple[Any, ...]]]


def run_lookup(
    lookup: Callable[[], list[tuple[Any, ...]]], timeout: float
) -> list[tuple[Any, ...]]:
    """Run one lookup in a thread of its own, waiting ``timeout`` seconds (a lookup cannot
    be cancelled: one that hangs keeps its thread until the resolver gives up, and holds
    up nothing else)."""
    future: Future[list[tuple[Any, ...]]] = Future()

    def run() -> None:
        try:
            future.set_result(lookup())
        except BaseException as exc:  # handed over to the waiting delivery
            future.set_exception(exc)

    threading.Thread(target=run, name="webhook-dns", daemon=True).start()
    try:
        return future.result(timeout)
    except FutureTimeout:
        raise TimeoutError from None


def deliver(
    url: str,
    body: dict[str, Any],
    *,
    timeout: float = DEFAULT_TIMEOUT,
    policy: WebhookPolicy | None = None,
    resolver: Resolver = socket.getaddrinfo,
    dns: DnsRunner = run_lookup,
) -> tuple[bool, str | None]:
    """POST ``body`` to ``url`` once, within ``timeout`` seconds in all: (delivered, error).

    An address literal is used as it is; a name is resolved with ``resolver``
    (``socket.getaddrinfo``'s signature), run by ``dns`` within what is left of the
    deadline. Every address is checked against ``policy``, and the connection is made to
    a checked address: what was checked is what is used. The path and query are sent
    percent-encoded (an IRI's ``€`` as ``%E2%82%AC``). Redirects are not followed; a 2xx
    status line is success (the response body is not read)."""
    policy = policy or WebhookPolicy()
    deadline = time.monotonic() + timeout
    try:
        return _deliver(url, body, deadline, timeout, policy, resolver, dns)
    except DeliveryError as exc:
        return False, str(exc)
    except TimeoutError:
        return False, f"no complete answer within {timeout:g} s (the deadline of a delivery)"
    except ssl.SSLError as exc:
        return False, f"TLS error: {exc.reason or exc}"
    except OSError as exc:
        return False, f"connection failed: {exc.strerror or exc}"
    except (ValueError, UnicodeError) as exc:  # a URL the checks let through, unusable here
        return False, f"the webhook URL cannot be used ({type(exc).__name__}: {exc})"


#: What stays as it is in a request target: RFC 3986's unreserved and sub-delims
#: characters, ':', '@', '/', '?' and '%' (escapes the URL has already).
_TARGET_SAFE = "/:@!$&'()*+,;=-._~%?"


def request_target(path: str, query: str) -> str:
    """The request line's target: path and query percent-encoded as UTF-8."""
    target = quote(path or "/", safe=_TARGET_SAFE)
    return target + (f"?{quote(query, safe=_TARGET_SAFE)}" if query else "")


def _left(deadline: float, timeout: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise DeliveryError(f"no complete answer within {timeout:g} s (the deadline of a delivery)")
    return left


def _deliver(
    url: str,
    body: dict[str, Any],
    deadline: float,
    timeout: float,
    policy: WebhookPolicy,
    resolver: Resolver,
    dns: DnsRunner,
) -> tuple[bool, str | None]:
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        idna_host = (parts.hostname or "").encode("idna").decode("ascii")
    except UnicodeError:
        raise DeliveryError("the host name is not a valid internet name") from None
    infos = _address_infos(idna_host, port, deadline, timeout, resolver, dns)
    addresses = _allowed_addresses(infos, port, policy)
    request = _request_bytes(parts, idna_host, body)
    last: OSError | None = None
    for family, sockaddr, _ in addresses:  # the checked addresses, in the resolver's order
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.settimeout(_left(deadline, timeout))
            try:
                sock.connect(sockaddr)
            except TimeoutError:
                raise
            except OSError as exc:
                last = exc
                sock.close()
                continue
            if parts.scheme == "https":
                context = ssl.create_default_context()
                sock.settimeout(_left(deadline, timeout))
                sock = context.wrap_socket(sock, server_hostname=idna_host)
            return _exchange(sock, request, deadline, timeout)
        finally:
            sock.close()
    raise DeliveryError(f"connection failed: {last.strerror if last else 'no address'}")


def _address_infos(
    idna_host: str, port: int, deadline: float, timeout: float, resolver: Resolver, dns: DnsRunner
) -> list[tuple[Any, ...]]:
    """``getaddrinfo``'s answer for the host; an address literal without DNS."""
    literal = literal_address(idna_host)
    if literal is not None:  # an address: no DNS to wait for
        if literal.version == 6:
            return [(socket.AF_INET6, 0, 0, "", (literal.compressed, port, 0, 0))]
        return [(socket.AF_INET, 0, 0, "", (literal.compressed, port))]
    try:
        return dns(
            lambda: resolver(idna_host, port, type=socket.SOCK_STREAM),
            _left(deadline, timeout),
        )
    except TimeoutError:
        raise DeliveryError(f"resolving the host took longer than {timeout:g} s") from None
    except socket.gaierror as exc:
        raise DeliveryError(f"cannot resolve the host ({exc.strerror or exc})") from None


def _allowed_addresses(
    infos: list[tuple[Any, ...]], port: int, policy: WebhookPolicy
) -> list[tuple[int, tuple[Any, ...], IPAddress]]:
    """The IPv4/IPv6 addresses to connect to; refused outright when any is this server, or
    is private and the policy does not allow that."""
    addresses: list[tuple[int, tuple[Any, ...], IPAddress]] = []
    for family, _, _, _, sockaddr in infos:
        if family not in (socket.AF_INET, socket.AF_INET6):
            continue
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        if policy.is_own(address.compressed, port):
            raise DeliveryError("refused: the host is this server")
        reason = address_refusal(address)
        if reason and not policy.allow_private:
            raise DeliveryError(f"refused: the host resolves to {address.compressed}, {reason}")
        addresses.append((family, sockaddr, address))
    if not addresses:
        raise DeliveryError("the host has no IPv4 or IPv6 address")
    return addresses


def _request_bytes(parts: SplitResult, idna_host: str, body: dict[str, Any]) -> bytes:
    """The whole HTTP/1.1 POST of ``body`` as JSON (Basic auth from the URL's user info)."""
    payload = json.dumps(body, separators=(",", ":")).encode()
    target = request_target(parts.path, parts.query)
    host_header = idna_host if ":" not in idna_host else f"[{idna_host}]"
    if parts.port:
        host_header += f":{parts.port}"
    headers = [
        f"POST {target} HTTP/1.1",
        f"Host: {host_header}",
        f"User-Agent: {USER_AGENT}",
        "Content-Type: application/json",
        f"Content-Length: {len(payload)}",
        "Connection: close",
    ]
    if parts.username is not None:
        credentials = f"{unquote(parts.username)}:{unquote(parts.password or '')}"
        headers.append(f"Authorization: Basic {b64encode(credentials.encode()).decode()}")
    return ("\r\n".join(headers) + "\r\n\r\n").encode("latin-1") + payload


def _exchange(
    sock: socket.socket, request: bytes, deadline: float, timeout: float
) -> tuple[bool, str | None]:
    view = memoryview(request)
    while view:
        sock.settimeout(_left(deadline, timeout))
        sent = sock.send(view)
        view = view[sent:]
    line = b""
    while b"\r\n" not in line:
        sock.settimeout(_left(deadline, timeout))
        piece = sock.recv(1024)
        if not piece:
            break
        line += piece
        if len(line) > 8192:
            break
    status_line = line.split(b"\r\n", 1)[0].decode("latin-1", "replace")
    fields = status_line.split(" ", 2)
    if len(fields) < 2 or not fields[0].startswith("HTTP/") or not fields[1].isdigit():
        raise DeliveryError("the endpoint did not answer with an HTTP status line")
    status = int(fields[1])
    if 200 <= status < 300:
        return True, None
    return False, f"HTTP {status} from the webhook endpoint"


# --- the queue -----------------------------------------------------------------------------------


@dataclass
class _Delivery:
    job_id: str
    owner: str
    url: str
    body: dict[str, Any]


class Notifier:
    """Delivers webhooks on ``threads`` threads, taking API keys in turn (at most
    ``per_owner`` deliveries of one key at a time), each within ``timeout`` seconds."""

    def __init__(
        self,
        store: Store,
        timeout: float = DEFAULT_TIMEOUT,
        threads: int = 8,
        per_owner: int = 2,
        policy: WebhookPolicy | None = None,
        resolver: Resolver = socket.getaddrinfo,
    ):
        self.store = store
        self.timeout = min(timeout, MAX_TIMEOUT)
        self.per_owner = per_owner
        self.policy = policy or WebhookPolicy()
        self.resolver = resolver
        self._queues: collections.OrderedDict[str, collections.deque[_Delivery]] = (
            collections.OrderedDict()
        )
        self._active: collections.Counter[str] = collections.Counter()
        self._lookups: collections.Counter[str] = collections.Counter()  # DNS under way
        self._in_flight: dict[int, _Delivery] = {}  # thread id -> delivery
        self._abandoned: set[str] = set()
        self._lock = threading.Condition()
        self._closed = False
        self._threads: list[threading.Thread] = []
        self._thread_count = threads

    def _start_threads(self) -> None:
        """Called with the lock held, at the first delivery."""
        if not self._threads:
            for i in range(self._thread_count):
                thread = threading.Thread(target=self._work, name=f"webhook-{i}", daemon=True)
                thread.start()
                self._threads.append(thread)

    def send(self, job: Job, output_urls: list[str]) -> None:
        """Queue the job's webhook (the row stays ``pending`` until a thread takes it)."""
        if not job.webhook_url:
            return
        delivery = _Delivery(job.job_id, job.owner, job.webhook_url, webhook_body(job, output_urls))
        with self._lock:
            if self._closed:
                return  # stays pending: sent at the next start
            self._start_threads()
            self._queues.setdefault(job.owner, collections.deque()).append(delivery)
            self._lock.notify()

    def _next(self) -> _Delivery | None:
        """The oldest delivery of the first key (in turn) below its in-flight limit."""
        for owner, queue in self._queues.items():
            if queue and self._active[owner] < self.per_owner:
                delivery = queue.popleft()
                self._queues.move_to_end(owner)  # the next key goes first next time
                if not queue:
                    del self._queues[owner]
                return delivery
        return None

    def _work(self) -> None:
        ident = threading.get_ident()
        while True:
            with self._lock:
                delivery = self._next()
                while delivery is None:
                    if self._closed:
                        return
                    self._lock.wait()
                    delivery = self._next()
                self._active[delivery.owner] += 1
                self._in_flight[ident] = delivery
            try:
                self._deliver(delivery)
            except Exception:  # pragma: no cover - never let a delivery thread die
                log.exception("webhook for %s: unexpected error", delivery.job_id)
            finally:
                with self._lock:
                    self._active[delivery.owner] -= 1
                    self._in_flight.pop(ident, None)
                    self._lock.notify_all()

    def _dns_for(self, owner: str) -> DnsRunner:
        """Lookups of one key's webhook hosts: at most ``per_owner`` under way at once,
        counting those a delivery gave up waiting for, so a key whose names never resolve
        ties up its own lookups only (a literal address needs none)."""

        def run(lookup: Callable[[], list[tuple[Any, ...]]], timeout: float) -> list[Any]:
            with self._lock:
                if self._lookups[owner] >= self.per_owner:
                    raise DeliveryError(
                        "earlier DNS lookups of this API key's webhook hosts have not "
                        "answered yet; not sent"
                    )
                self._lookups[owner] += 1

            def counted() -> list[tuple[Any, ...]]:
                try:
                    return lookup()
                finally:
                    with self._lock:
                        self._lookups[owner] -= 1
                        if self._lookups[owner] <= 0:
                            del self._lookups[owner]

            return run_lookup(counted, timeout)

        return run

    def _deliver(self, delivery: _Delivery) -> None:
        target = redact_url(delivery.url)
        self.store.set_webhook(delivery.job_id, "sending")
        try:
            ok, error = deliver(
                delivery.url,
                delivery.body,
                timeout=self.timeout,
                policy=self.policy,
                resolver=self.resolver,
                dns=self._dns_for(delivery.owner),
            )
        except Exception as exc:  # every delivery ends in a recorded outcome
            log.exception("webhook for %s: unexpected error", delivery.job_id)
            ok, error = False, f"internal error while delivering ({type(exc).__name__})"
        with self._lock:
            if delivery.job_id in self._abandoned:
                return  # shutdown recorded it as failed already
            self.store.set_webhook(delivery.job_id, "delivered" if ok else "failed", error)
        if ok:
            log.info("webhook for %s delivered to %s", delivery.job_id, target)
        else:
            log.warning(
                "webhook for %s to %s failed: %s (not retried)", delivery.job_id, target, error
            )

    @property
    def in_flight(self) -> int:
        with self._lock:
            return len(self._in_flight)

    def close(self, grace: float = 5.0) -> list[str]:
        """Stop taking deliveries; those under way get ``grace`` seconds, then are recorded
        as failed and abandoned (their threads end at their own deadline). Queued ones stay
        ``pending`` for the next start. Returns the abandoned job ids."""
        deadline = time.monotonic() + grace
        with self._lock:
            self._closed = True
            self._queues.clear()
            self._lock.notify_all()
            while self._in_flight and time.monotonic() < deadline:
                self._lock.wait(max(0.0, deadline - time.monotonic()))
            abandoned = [d.job_id for d in self._in_flight.values()]
            self._abandoned.update(abandoned)
        for job_id in abandoned:
            try:
                self.store.set_webhook(
                    job_id,
                    "failed",
                    f"the server stopped while delivering (after {grace:g} s); not retried",
                )
            except Exception:  # pragma: no cover - the database is going away
                pass
            log.warning("webhook for %s abandoned: the server is stopping", job_id)
        return abandoned
