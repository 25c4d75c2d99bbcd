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


def address_refusal(address: IPAddress) -> str | None:
    """Why a request made on someone's behalf (a webhook, a capture browser) may not go
    to ``address`` by default, or None for a public address.
    Addresses embedded in IPv6 (IPv4-mapped, 6to4, NAT64) are judged as the IPv4 address."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = address.ipv4_mapped or address.sixtofour
        if embedded is None and address in _NAT64:
            embedded = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if embedded is not None:
            return address_refusal(embedded)
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
