"""The /v1 routes, one router per resource, and /healthz.

Handlers translate HTTP to the store and the runners and back; capture and design happen
in worker processes (:mod:`..jobs`, :mod:`..collections`).
"""

from __future__ import annotations

from . import collections, design, files, health

ROUTERS = (health.router, design.router, files.router, collections.router)

__all__ = ["ROUTERS"]
