"""Which network addresses a request made on someone else's behalf may reach.

Shared by the server's webhooks and the capture browser: both make requests to URLs a
client supplied, so by default neither may reach loopback, private, link-local (the cloud
metadata service at 169.254.169.254), multicast, unspecified or reserved addresses, in any
spelling the C library accepts (``2130706433``, ``0x7f.1``, ``[::ffff:127.0.0.1]``...).
"""

from __future__ import annotations

import ipaddress
import socket

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
_NAT64 = ipaddress.ip_network("64:ff9b::/96")

#: IANA's special-purpose address registries (IPv4 and IPv6), the blocks that are not
#: globally reachable, as data: Python's own tables (``is_global``) differ between
#: versions and miss some (``fec0::/10``, ``64:ff9b:1::/48``, ``3fff::/20``...).
_SPECIAL_PURPOSE: tuple[tuple[str, str], ...] = (
    ("0.0.0.0/8", "'this network'"),
    ("10.0.0.0/8", "private use"),
    ("100.64.0.0/10", "shared address space (carrier-grade NAT)"),
    ("127.0.0.0/8", "loopback"),
    ("169.254.0.0/16", "link-local"),
    ("172.16.0.0/12", "private use"),
    ("192.0.0.0/24", "IETF protocol assignments"),
    ("192.0.2.0/24", "documentation (TEST-NET-1)"),
    ("192.88.99.0/24", "the deprecated 6to4 relay anycast"),
    ("192.168.0.0/16", "private use"),
    ("198.18.0.0/15", "benchmarking"),
    ("198.51.100.0/24", "documentation (TEST-NET-2)"),
    ("203.0.113.0/24", "documentation (TEST-NET-3)"),
    ("224.0.0.0/4", "multicast"),
    ("240.0.0.0/4", "reserved"),
    ("::/128", "unspecified"),
    ("::1/128", "loopback"),
    ("::/96", "deprecated IPv4-compatible IPv6"),
    ("::ffff:0:0/96", "IPv4-mapped"),
    ("::ffff:0:0:0/96", "IPv4-translated"),
    ("64:ff9b:1::/48", "local-use IPv4/IPv6 translation"),
    ("100::/64", "discard-only"),
    ("100:0:0:1::/64", "dummy IPv6 prefix"),
    ("2001::/23", "IETF protocol assignments"),
    ("2001::/32", "Teredo"),
    ("2001:2::/48", "benchmarking"),
    ("2001:db8::/32", "documentation"),
    ("2001:10::/28", "deprecated ORCHID"),
    ("3fff::/20", "documentation"),
    ("5f00::/16", "segment routing (SRv6) SIDs"),
    ("fc00::/7", "unique local"),
    ("fe80::/10", "link-local"),
    ("fec0::/10", "deprecated site-local"),
    ("ff00::/8", "multicast"),
)
#: Blocks inside 2001::/23 that are globally reachable (IANA's registry says so).
_GLOBAL_EXCEPTIONS = tuple(
    ipaddress.ip_network(block)
    for block in (
        "2001:1::1/128",
        "2001:1::2/128",
        "2001:1::3/128",
        "2001:3::/32",
        "2001:4:112::/48",
        "2001:20::/28",
        "2001:30::/28",
    )
)
_SPECIAL = tuple((ipaddress.ip_network(block), name) for block, name in _SPECIAL_PURPOSE)


def embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries, in the forms that reach it: IPv4-mapped
    (``::ffff:a.b.c.d``), IPv4-translated (``::ffff:0:a.b.c.d``), IPv4-compatible
    (``::a.b.c.d``), 6to4 (``2002:AABB:CCDD::``), NAT64 (``64:ff9b::/96`` and the local-use
    ``64:ff9b:1::/48``, last 32 bits) and Teredo (the client's address)."""
    value = int(address)
    low = ipaddress.IPv4Address(value & 0xFFFFFFFF)
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if value >> 32 == 0xFFFF0000:  # ::ffff:0:a.b.c.d
        return low
    if value >> 32 == 0 and value > 1:  # ::a.b.c.d (not :: or ::1)
        return low
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _NAT64 or address in _LOCAL_NAT64:
        return low
    if address.teredo is not None:
        return address.teredo[1]
    return None


_LOCAL_NAT64 = ipaddress.ip_network("64:ff9b:1::/48")


def special_purpose(address: IPAddress) -> str | None:
    """The name of the IANA special-purpose block ``address`` is in, if that block is not
    globally reachable; None otherwise."""
    if any(address in block for block in _GLOBAL_EXCEPTIONS):
        return None
    found = None
    for block, name in _SPECIAL:  # the most specific block names it
        if block.version == address.version and address in block:
            if found is None or block.prefixlen > found[0].prefixlen:
                found = (block, name)
    return found[1] if found else None


def address_refusal(address: IPAddress) -> str | None:
    """Why a request made on someone's behalf (a webhook, a capture browser) may not go
    to ``address`` by default, or None for a public address.

    An IPv6 address that carries an IPv4 address (:func:`embedded_ipv4`) is judged as
    that IPv4 address, and refused anyway unless the form is one the internet routes
    (6to4, NAT64 ``64:ff9b::/96``); then IANA's special-purpose registries
    (:data:`_SPECIAL_PURPOSE`) and Python's own classification decide."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = embedded_ipv4(address)
        if embedded is not None:
            reason = address_refusal(embedded)
            if reason:
                return f"{reason} (it carries {embedded})"
            block = special_purpose(address)
            if block and not (address in _NAT64 or address.sixtofour is not None):
                return f"a non-public address (IANA special-purpose block: {block})"
            return None
    if address.is_unspecified:
        return "an unspecified address"
    if address.is_loopback:
        return "a loopback address"
    if address.is_link_local:
        return "a link-local address (such as the cloud metadata service)"
    if address.is_multicast:
        return "a multicast address"
    if address.is_private:
        return "a private address"
    block = special_purpose(address)
    if block:
        return f"a non-public address (IANA special-purpose block: {block})"
    if not address.is_global:
        return "a reserved, non-public address"
    return None


def literal_address(host: str) -> IPAddress | None:
    """The address a URL host denotes if it is an address literal, in any spelling the
    C library accepts (``2130706433``, ``0x7f.1``, ``0177.0.0.1``, ``127.1``) or IPv6
    (with or without a zone); None for a name."""
    host = host.strip("[]").rstrip(".")
    if ":" in host:
        try:
            return ipaddress.IPv6Address(host.split("%", 1)[0])
        except ValueError:
            return None
    labels = host.split(".")
    if labels and all(label and _numeric_label(label) for label in labels):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None  # e.g. 999.1.1.1: not an address; resolving it will fail
    return None


def _numeric_label(label: str) -> bool:
    text = label.lower()
    if text.startswith("0x"):
        return all(c in "0123456789abcdef" for c in text[2:])
    return text.isdigit()


def bare_host(host: str) -> str:
    return host.lower().strip("[]").rstrip(".")


def host_refusal(host: str) -> str | None:
    """Why a URL's ``host`` may not be reached by default, judged without DNS (a name's
    addresses are checked when it is resolved): ``localhost`` and its subdomains, and
    address literals in any spelling that :func:`address_refusal` refuses. None for a
    name or a public address."""
    name = bare_host(host)
    if name == "localhost" or name.endswith(".localhost"):
        return "localhost is this machine (a loopback address)"
    address = literal_address(name)
    if address is not None:
        reason = address_refusal(address)
        if reason:
            return f"{address.compressed} is {reason}"
    return None


def addresses_without_dns(name: str) -> set[IPAddress]:
    """The addresses a host name stands for without DNS: a literal, or localhost."""
    if name == "localhost" or name.endswith(".localhost"):
        return {ipaddress.IPv4Address("127.0.0.1"), ipaddress.IPv6Address("::1")}
    address = literal_address(name)
    return {address} if address is not None else set()
