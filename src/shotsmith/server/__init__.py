"""The /v1 HTTP server: a thin FastAPI adapter around :func:`shotsmith.design`.

It validates requests, persists inputs and job state (SQLite under a data
directory), queues jobs for worker processes that call the same ``design()``
the library exposes, and serves the results. No design logic lives here.

``create_app`` is imported lazily so that ``shotsmith.server.projects`` and the
``shotsmith`` command load without the optional server dependencies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(name)
