"""API keys: created, listed, revoked; stored as hashes."""

from __future__ import annotations

from ...errors import InvalidOptionError
from .base import StoreBase
from .records import KeyInfo, hash_key, new_api_key, utc_now
from .schema import KEY_PREFIX


class KeyStore(StoreBase):
    """API keys: created, listed, revoked; stored as hashes."""

    # --- API keys ----------------------------------------------------------------
    def create_key(self, name: str) -> str:
        """Store a new key's hash under ``name``; return the key (shown once, never stored)."""
        name = name.strip()
        if not name:
            raise InvalidOptionError("keys create: give the key a --name, e.g. --name ci.")
        key = new_api_key()
        self._conn().execute(
            "INSERT INTO api_keys (key_hash, name, prefix, created_at) VALUES (?, ?, ?, ?)",
            (hash_key(key), name, key[: len(KEY_PREFIX) + 6], utc_now()),
        )
        return key

    def list_keys(self) -> list[KeyInfo]:
        rows = self._conn().execute(
            "SELECT name, prefix, created_at, revoked_at FROM api_keys ORDER BY created_at"
        )
        return [KeyInfo(r["name"], r["prefix"], r["created_at"], r["revoked_at"]) for r in rows]

    def revoke_keys(self, name: str) -> int:
        cur = self._conn().execute(
            "UPDATE api_keys SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL",
            (utc_now(), name),
        )
        return cur.rowcount

    def active_key_hashes(self) -> list[str]:
        rows = self._conn().execute("SELECT key_hash FROM api_keys WHERE revoked_at IS NULL")
        return [r[0] for r in rows]
