"""The network layer of a capture: what the browser may send, and where it may go.

Capture is read-only by construction. Label words on a button are no defence (a harmless
"Show more" may ``fetch()`` a POST), so every request every browser context of a capture
makes goes through one :class:`NetworkPolicy`, which decides by *phase*:

``start``    the first load of the start URL: its top-level redirects (http -> https, apex
             -> www) name the app's origin;
``load``     a page loading (the navigation, its subresources and XHR before and after it
             settles, until the explorer touches it): reads, even a POST (GraphQL queries,
             JSON-RPC calls must still render the page), but not a PUT, PATCH or DELETE
             (they only store: a wiki saving its story list) nor a POST that reports
             (a beacon, a presence ping, analytics: :func:`reporting_write`);
``click``    after the explorer pressed a control or a key: POST, PUT, PATCH and DELETE
             are aborted unless the operator allowed writes (``allow_writes`` for all,
             ``allow_write`` patterns for some URLs); so are WebSocket frames the page
             sends then;
``sign-in``  while the user's credentials are submitted (``login=``): the one write a
             capture makes on its own.

The same policy decides which origins may load at all: the start URL's (and where its
first load lands) plus those the operator allows (``allow_origins``). Everything else, an
iframe, an image, a fetch, a redirect to another origin, is aborted. Every refusal is
recorded as a :class:`BlockedRequest` (method, URL with secret-looking query values
redacted, reason, the control whose press caused it).

A request the policy allows is fetched by the policy itself without following redirects,
and handed to the browser as the server sent it: the browser follows a redirect without
asking the route again, so each hop of a redirect chain is checked here first, for a page,
a frame, an image, a script or a ``fetch()`` alike (a GET's chain to its end; a write's
first hop only, so that nothing is sent twice). A host that is, or resolves to, a
loopback, private, link-local (cloud metadata) or reserved address is refused unless the
start URL is itself on such a network (local development), by the rules
:mod:`shotsmith.addresses` holds for webhooks too.

What cannot be stopped here: a WebSocket frame sent on a connection the page opened with
a Playwright older than 1.48 (no ``route_web_socket``; noted in the report), a GET that
changes state on a badly built server (the explorer does not press what reads as an
action, :mod:`.rules`), the redirects of a stream (an EventSource, audio, video: handed to
the browser as asked, never whole), a name whose DNS answer changes between the policy's
lookup and the browser's, and requests a browser extension or the browser itself makes.
"""

from __future__ import annotations

import fnmatch
import ipaddress
import re
import socket
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

from ...addresses import address_refusal, addresses_without_dns, bare_host
from ...errors import InvalidOptionError
from .urls import origin_of

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

#: path words of a write a loading page sends to report, not to read: presence pings,
#: heartbeats, locks held while a page is open, analytics (never needed to draw the page)
REPORTING_WORDS = frozenset(
    {
        "ping",
        "heartbeat",
        "keepalive",
        "beacon",
        "presence",
        "release",
        "lock",
        "unlock",
        "telemetry",
        "analytics",
        "track",
        "tracking",
        "log",
        "logs",
        "collect",
    }
)


def reporting_write(url: str, resource_type: str = "") -> str:
    """Why a write a loading page sends is no read ('' when it may be one): a beacon
    (``navigator.sendBeacon``, sent as a page goes away) or a path that names a ping, a
    heartbeat, a lock or analytics (an editor's "who else is here" ping stores a row)."""
    if resource_type == "ping":
        return "a beacon"
    words = set(re.findall(r"[a-z]+", urlsplit(url).path.lower()))
    found = sorted(words & REPORTING_WORDS)
    return f"a {found[0]} call" if found else ""


MAX_REDIRECTS = 10  # hops of one redirect chain checked
#: how long the start origin's first GET may take before the policy takes it for a server
#: that serves one connection at a time (see NetworkPolicy._fetch_checked)
ONE_CONNECTION_PROBE_MS = 4000.0
STREAMED = frozenset({"eventsource", "media"})  # resource types the browser fetches itself
PHASES = ("start", "load", "click", "sign-in")

#: query keys whose values are never written to a report (tokens, keys, signatures)
_SECRET_KEY = re.compile(
    r"(token|secret|passw|pwd|auth|session|sess|sid|key|sig|signature|code|credential|"
    r"jwt|bearer|cookie|otp|nonce|state|ticket|hash)",
    re.I,
)


@dataclass(frozen=True)
class Decision:
    """What the policy says about one request: allowed, or blocked and why."""

    allowed: bool
    reason: str = ""
    kind: str = ""  # "write" | "other-origin" | "websocket" | "private-address"

    def __bool__(self) -> bool:
        return self.allowed


ALLOW = Decision(True)


@dataclass
class BlockedRequest:
    """A request (or WebSocket frame) the capture did not let through."""

    method: str  # GET, POST, ..., or WS for a WebSocket frame / connection
    url: str  # secret-looking query values redacted
    reason: str
    kind: str  # "write" | "other-origin" | "websocket"
    cause: str = ""  # the control (or key) pressed just before, "" while a page loaded
    phase: str = ""
    count: int = 1  # the same request blocked again is counted, not listed again
    navigation: bool = False  # a top-level navigation (the page would have left)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "method": self.method,
            "url": self.url,
            "reason": self.reason,
            "kind": self.kind,
            "phase": self.phase,
        }
        if self.cause:
            out["caused_by"] = self.cause
        if self.count > 1:
            out["count"] = self.count
        return out

    def __str__(self) -> str:
        cause = f" after pressing {self.cause!r}" if self.cause else ""
        times = f" (x{self.count})" if self.count > 1 else ""
        return f"{self.method} {self.url}{cause}: {self.reason}{times}"


def redact_url(url: str) -> str:
    """``url`` without credentials, fragment or secret-looking query values."""
    try:
        parts = urlsplit(str(url))
    except ValueError:
        return str(url)[:200]
    if parts.scheme not in ("http", "https", "ws", "wss"):
        return f"{parts.scheme}:…" if parts.scheme else str(url)[:200]
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    pairs = [
        (k, "***" if _SECRET_KEY.search(k) or len(v) > 64 else v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
    ]
    return urlunsplit((parts.scheme, netloc, parts.path, urlencode(pairs, safe="*/:,"), ""))


def _pattern(text: str) -> tuple[re.Pattern[str], bool]:
    """An ``allow_write`` pattern: ``re:...`` or ``/.../`` is a regex (searched in the URL);
    anything else a glob matched against the whole URL or its path (``*/api/search``,
    ``/graphql``). Returns (compiled, is_glob)."""
    raw = str(text).strip()
    if not raw:
        raise InvalidOptionError("an allow_write pattern is empty")
    try:
        if raw.startswith("re:"):
            return re.compile(raw[3:]), False
        if len(raw) > 2 and raw.startswith("/") and raw.endswith("/"):
            return re.compile(raw[1:-1]), False
    except re.error as exc:
        raise InvalidOptionError(
            f"allow_write {raw!r}: not a valid regular expression ({exc})"
        ) from exc
    return re.compile(fnmatch.translate(raw)), True


def _origin(text: str) -> str:
    value = str(text).strip().rstrip("/")
    if not re.match(r"^(https?|wss?)://[^/]+$", value, re.I):
        raise InvalidOptionError(
            f"allow_origins: {text!r} is not an origin (scheme://host[:port], e.g. "
            "https://cdn.example.com)."
        )
    return origin_of(_http(value))


def _http(url: str) -> str:
    """ws(s):// as the http(s):// origin it belongs to."""
    if url[:4].lower() == "wss:":
        return "https:" + url[4:]
    if url[:3].lower() == "ws:":
        return "http:" + url[3:]
    return url


@dataclass
class NetworkPolicy:
    """One capture's rules for the network (see the module docstring), and its record.

    ``allows(request, phase)`` decides one request; the browser contexts call it from their
    route handler (:meth:`route`) and record what was blocked in :attr:`blocked`.
    """

    start_url: str
    allow_writes: bool = False
    allow_write: Sequence[str] = ()
    allow_origins: Sequence[str] = ()
    origins: set[str] = field(default_factory=set)
    blocked: list[BlockedRequest] = field(default_factory=list)
    allowed_writes: int = 0  # writes let through after a press (allow_writes / allow_write)
    load_writes: int = 0  # POSTs etc. a loading page made (reads: GraphQL, RPC)
    websocket_gap: bool = False  # frames could not be inspected (old Playwright)
    resolve: bool = True  # look host names up to judge their addresses (False: literals only)
    local: bool = False  # the start URL is on a loopback/private network (local development)
    _patterns: list[tuple[re.Pattern[str], bool]] = field(default_factory=list)
    _seen: dict[tuple[str, str, str, str], BlockedRequest] = field(default_factory=dict)
    _refusals: dict[str, str | None] = field(default_factory=dict)
    #: origins that answer only the browser's own connection (a server that serves one
    #: connection at a time, held by the browser's idle pre-opened socket): their GETs are
    #: handed to the browser (see _fetch_checked)
    one_connection: set[str] = field(default_factory=set)

    _answered: bool = False  # the start origin answered this process's own fetch

    def __post_init__(self) -> None:
        if isinstance(self.allow_write, str):
            self.allow_write = [self.allow_write]
        if isinstance(self.allow_origins, str):
            self.allow_origins = [self.allow_origins]
        self._patterns = [_pattern(p) for p in self.allow_write]
        self.origins = {origin_of(self.start_url)} | {_origin(o) for o in self.allow_origins}
        self.local = self.host_refusal(urlsplit(self.start_url).hostname or "") is not None

    def host_refusal(self, host: str) -> str | None:
        """Why ``host`` is no public address (loopback, private, link-local, metadata...),
        or None: an address literal in any spelling, localhost, or what the name resolves
        to (any address of it refused refuses it). Asked once per host."""
        host = bare_host(host)
        if host in self._refusals:
            return self._refusals[host]
        addresses = addresses_without_dns(host)
        if not addresses and self.resolve and host:
            try:
                found = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
                addresses = {ipaddress.ip_address(str(f[4][0]).split("%", 1)[0]) for f in found}
            except (OSError, UnicodeError, ValueError):
                addresses = set()  # unknown: the browser's own lookup fails the same way
        reasons = sorted({r for r in map(address_refusal, addresses) if r})
        self._refusals[host] = reasons[0] if reasons else None
        return self._refusals[host]

    # --- decisions ---------------------------------------------------------------------

    def origin_allowed(self, url: str) -> bool:
        if not url.startswith(("http:", "https:", "ws:", "wss:")):
            return True  # data:, blob:, about: never leave the browser
        return origin_of(_http(url)) in self.origins

    def write_allowed(self, url: str) -> bool:
        if self.allow_writes:
            return True
        bare = url.split("#", 1)[0]
        path = urlsplit(bare).path
        for pattern, glob in self._patterns:
            if glob and (pattern.fullmatch(bare) or pattern.fullmatch(path)):
                return True
            if not glob and pattern.search(bare):
                return True
        return False

    def decide(
        self, method: str, url: str, *, phase: str, main_navigation: bool, resource_type: str = ""
    ) -> Decision:
        """The verdict on one request, from its method, URL and the phase it was made in."""
        method = method.upper()
        if not self.origin_allowed(url):
            if phase == "start" and main_navigation and same_site(self.start_url, url):
                self.origins.add(origin_of(_http(url)))  # http -> https, apex -> www
            elif phase == "start" and main_navigation:
                return Decision(
                    False,
                    f"the start URL leads to another site ({origin_of(_http(url))}): not "
                    "followed (capture that URL itself, or allow it with --allow-origin)",
                    "other-origin",
                )
            else:
                what = "navigation" if main_navigation else "request"
                return Decision(
                    False,
                    f"another origin ({origin_of(_http(url))}): {what} not allowed "
                    "(allow_origins / --allow-origin to permit it)",
                    "other-origin",
                )
        host = (urlsplit(url).hostname or "") if url.startswith(("http:", "https:")) else ""
        refusal = self.host_refusal(host) if host and not self.local else None
        if refusal:
            return Decision(
                False,
                f"{host} is {refusal}: a capture of an app on the internet never reaches "
                "the network it runs on",
                "private-address",
            )
        if method in WRITE_METHODS:
            if phase == "click":
                if self.write_allowed(url):
                    self.allowed_writes += 1
                    return ALLOW
                return Decision(
                    False,
                    f"a {method} after a press: a write, not allowed "
                    "(--allow-writes, or --allow-write PATTERN for this URL)",
                    "write",
                )
            if phase in ("start", "load"):
                if method != "POST" and not self.write_allowed(url):
                    return Decision(
                        False,
                        f"a {method} while a page loads: a POST may read (a query), a "
                        f"{method} only stores; a write, not allowed (--allow-writes, or "
                        "--allow-write PATTERN for this URL)",
                        "write",
                    )
                why = reporting_write(url, resource_type)
                if why and not self.write_allowed(url):
                    return Decision(
                        False,
                        f"a {method} while a page loads that reports rather than reads "
                        f"({why}): a write, not allowed (--allow-writes, or --allow-write "
                        "PATTERN for this URL)",
                        "write",
                    )
                self.load_writes += 1
        return ALLOW

    def allows(self, request: Any, phase: str) -> Decision:
        """:meth:`decide` for a Playwright request."""
        try:
            main = request.is_navigation_request() and request.frame.parent_frame is None
        except Exception:
            main = False
        return self.decide(
            request.method,
            request.url,
            phase=phase,
            main_navigation=main,
            resource_type=_resource_type(request),
        )

    def record(
        self,
        method: str,
        url: str,
        decision: Decision,
        *,
        phase: str,
        cause: str = "",
        navigation: bool = False,
    ) -> BlockedRequest:
        shown = redact_url(url)
        key = (method.upper(), shown, decision.kind, cause)
        seen = self._seen.get(key)
        if seen is not None:
            seen.count += 1
            return seen
        item = BlockedRequest(
            method.upper(), shown, decision.reason, decision.kind, cause, phase, 1, navigation
        )
        self._seen[key] = item
        self.blocked.append(item)
        return item

    # --- in a browser context --------------------------------------------------------

    def attach(self, context: Any, session: Any) -> None:
        """Route every request and WebSocket of ``context`` through this policy.

        ``session`` tells the phase (``session.phase``) and the press that caused it
        (``session.cause``), and is told of each block (``session.on_blocked(item)``).
        """

        def route(route: Any, request: Any) -> None:
            phase, cause = session.phase, session.cause
            try:
                main = request.is_navigation_request() and request.frame.parent_frame is None
            except Exception:
                main = False
            decision = self.decide(
                request.method,
                request.url,
                phase=phase,
                main_navigation=main,
                resource_type=_resource_type(request),
            )
            if decision:
                if main and phase == "click" and request.method.upper() == "GET":
                    _quiet(session.on_navigation)  # a press that loads a page: it loads
                if _http_request(request):
                    self._fetch_checked(route, request, phase, cause, main, session)
                else:
                    _quiet(route.continue_)
                return
            item = self.record(
                request.method, request.url, decision, phase=phase, cause=cause, navigation=main
            )
            _quiet(lambda: route.abort("blockedbyclient"))
            _quiet(lambda: session.on_blocked(item))

        context.route("**/*", route)
        route_ws = getattr(context, "route_web_socket", None)
        if route_ws is None:  # Playwright < 1.48: frames a page sends cannot be inspected
            self.websocket_gap = True
            return

        def websocket(ws: Any) -> None:
            url = str(ws.url)
            phase, cause = session.phase, session.cause
            host = urlsplit(url).hostname or ""
            refusal = None if self.local else self.host_refusal(host)
            if not self.origin_allowed(url) or refusal:
                decision = Decision(
                    False,
                    f"{host} is {refusal}: WebSocket not allowed"
                    if refusal
                    else f"another origin ({origin_of(_http(url))}): WebSocket not allowed",
                    "private-address" if refusal else "other-origin",
                )
                self.record("WS", url, decision, phase=phase, cause=cause)
                _quiet(lambda: ws.close(code=1008, reason="blocked by capture"))
                return
            server = ws.connect_to_server()

            def from_page(message: Any) -> None:
                phase, cause = session.phase, session.cause
                if phase == "click" and not self.write_allowed(url):
                    decision = Decision(
                        False,
                        "a WebSocket message sent after a press: may be a write, not sent "
                        "(--allow-writes, or --allow-write PATTERN for this URL)",
                        "websocket",
                    )
                    item = self.record("WS", url, decision, phase=phase, cause=cause)
                    _quiet(lambda: session.on_blocked(item))
                    return
                _quiet(lambda: server.send(message))

            ws.on_message(from_page)

        try:
            route_ws(re.compile(r".*"), websocket)
        except Exception:
            self.websocket_gap = True

    def _fetch_checked(
        self, route: Any, request: Any, phase: str, cause: str, main: bool, session: Any
    ) -> None:
        """Fetch a request here without following redirects, and hand the browser the
        response as the server sent it. The browser follows a redirect without asking the
        route again, so each hop of a redirect chain is checked here first (a GET's chain
        is walked to its end; a write's first hop only, so nothing is sent twice)."""
        origin = origin_of(request.url)
        get = request.method.upper() in ("GET", "HEAD")
        if get and origin in self.one_connection:
            _quiet(route.continue_)
            return
        timeout = float(getattr(session, "fetch_timeout_ms", 30000))
        # the start origin's GETs are asked briefly first: a server that serves one
        # connection at a time never answers this fetch while the browser holds a socket
        # to it open (Chromium opens one ahead of the request)
        probe = get and origin == origin_of(self.start_url) and not self._answered
        begun = time.monotonic()
        try:
            response = route.fetch(
                max_redirects=0, timeout=min(timeout, ONE_CONNECTION_PROBE_MS) if probe else timeout
            )
        except Exception:
            waited = (time.monotonic() - begun) * 1000
            if probe and waited >= ONE_CONNECTION_PROBE_MS * 0.9:
                self.one_connection.add(origin)
                _quiet(route.continue_)  # the browser's own connection: its socket is served
                return
            _quiet(lambda: route.abort("failed"))
            return
        if probe:
            self._answered = True
        refused = self._redirect_refused(route, request.url, request.method, response, phase, main)
        if refused is not None:
            target, decision = refused
            item = self.record(
                request.method if target == request.url else "GET",
                target,
                Decision(
                    False,
                    f"{redact_url(request.url)} redirects there: {decision.reason}",
                    decision.kind,
                ),
                phase=phase,
                cause=cause,
                navigation=main,
            )
            _quiet(lambda: route.abort("blockedbyclient"))
            _quiet(lambda: session.on_blocked(item))
            return
        try:
            route.fulfill(response=response)
        except Exception:
            _quiet(lambda: route.abort("failed"))

    def _redirect_refused(
        self, route: Any, url: str, method: str, response: Any, phase: str, main: bool
    ) -> tuple[str, Decision] | None:
        """The first hop of ``response``'s redirect chain the policy refuses, or None."""
        for _ in range(MAX_REDIRECTS):
            status = getattr(response, "status", 200)
            try:
                location = response.headers.get("location", "")
            except Exception:
                location = ""
            if not (300 <= status < 400 and location):
                return None
            target = urljoin(url, location)
            decision = self.decide("GET", target, phase=phase, main_navigation=main)
            if not decision:
                return target, decision
            if method.upper() not in ("GET", "HEAD") and status in (307, 308):
                return None  # a write's next hop is not sent twice to look
            url = target
            try:
                response = route.fetch(url=url, method="GET", max_redirects=0, post_data=None)
            except Exception:
                return None  # the browser's own request will fail the same way
        return url, Decision(False, f"more than {MAX_REDIRECTS} redirects", "other-origin")

    # --- the record ------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """The record for the report and the manifest."""
        out: dict[str, Any] = {
            "origins": sorted(self.origins),
            "allow_writes": bool(self.allow_writes),
            "allow_write": list(self.allow_write),
            "blocked": [b.as_dict() for b in self.blocked],
            "writes_allowed_after_press": self.allowed_writes,
            "writes_while_loading": self.load_writes,
        }
        if self.one_connection:
            out["one_connection"] = (
                f"{', '.join(sorted(self.one_connection))} answered only the browser's own "
                "connection (a server that serves one connection at a time): its GETs went "
                "through the browser, so their redirects were checked by where the page "
                "landed, not hop by hop"
            )
        if self.websocket_gap:
            out["websocket_gap"] = (
                "this Playwright cannot inspect WebSocket frames (needs 1.48+): frames a page "
                "sends after a press were not checked"
            )
        return out


def same_site(start: str, url: str) -> bool:
    """``url`` is where the start URL's own site goes: the same host with or without
    ``www.``, on the same port or from http to https on their default ports. Another port
    is another service."""
    a, b = urlsplit(start), urlsplit(_http(url))
    host_a, host_b = bare_host(a.hostname or ""), bare_host(b.hostname or "")
    if not host_a or host_a.removeprefix("www.") != host_b.removeprefix("www."):
        return False
    defaults = {"http": 80, "https": 443}
    port_a = a.port or defaults.get(a.scheme, 0)
    port_b = b.port or defaults.get(b.scheme, 0)
    return port_a == port_b or (a.port is None and b.port is None)


def blocked_lines(blocked: Iterable[BlockedRequest], limit: int = 20) -> list[str]:
    items = list(blocked)
    lines = [str(b) for b in items[:limit]]
    if len(items) > limit:
        lines.append(f"... and {len(items) - limit} more")
    return lines


def _http_request(request: Any) -> bool:
    """A request the policy fetches itself: http(s), and not a stream (an EventSource, audio
    or video), which is never whole and is handed to the browser as it asked for it."""
    try:
        if request.resource_type in STREAMED:
            return False
        return str(request.url).startswith(("http:", "https:"))
    except Exception:
        return False


def _quiet(fn: Any) -> None:
    try:
        fn()
    except Exception:
        pass


def _resource_type(request: Any) -> str:
    try:
        return str(request.resource_type or "")
    except Exception:
        return ""
