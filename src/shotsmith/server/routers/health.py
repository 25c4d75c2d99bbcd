"""``GET /healthz``: liveness, no API key."""

from __future__ import annotations

from fastapi import APIRouter

from ..models import Health

router = APIRouter(tags=["service"])


@router.get(
    "/healthz",
    response_model=Health,
    summary="Liveness check (no API key needed)",
)
async def healthz() -> dict:
    return {"status": "ok"}
