"""Bearer keys mapped to user ids: the one way the HTTP servers (REST and MCP) learn who a request is for.

Shared by ``goodmemory-server`` and ``goodmemory-mcp --http`` so one keys file serves both, and it needs
neither FastAPI nor the MCP SDK.
"""

from __future__ import annotations

import hmac
import json
import os
from collections.abc import Mapping
from pathlib import Path

from .._validate import check_user
from ..errors import ConfigurationError, InvalidInputError

__all__ = ["KEYS_ENV", "KeyRing", "load_api_keys"]

KEYS_ENV = "GOODMEMORY_API_KEYS"


def load_api_keys(path: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None) -> dict[str, str]:
    """API key -> user id, from a JSON file or ``GOODMEMORY_API_KEYS=key=user,...``; at least one is needed."""
    if path is not None:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ConfigurationError(f"cannot read API keys from {path}: {exc}") from exc
        if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
            raise ConfigurationError(f"{path} must hold a JSON object of key -> user id strings")
        keys = dict(data)
    else:
        raw = (env if env is not None else os.environ).get(KEYS_ENV, "")
        keys = {}
        for part in filter(None, (p.strip() for p in raw.split(","))):
            key, sep, user = part.partition("=")
            if not sep or not key.strip() or not user.strip():
                raise ConfigurationError(f"{KEYS_ENV} entries look like key=user_id, got {part!r}")
            keys[key.strip()] = user.strip()
    if not keys:
        raise ConfigurationError(f"no API keys: pass --keys FILE or set {KEYS_ENV}=key=user_id,...")
    short = [k for k in keys if len(k) < 16]
    if short:
        raise ConfigurationError(f"{len(short)} API key(s) shorter than 16 characters: use long random keys")
    return keys


class KeyRing:
    """The user a presented key acts for, or ``None``; every user id is checked once, up front."""

    def __init__(self, keys: Mapping[str, str]) -> None:
        if not keys:
            raise ConfigurationError("at least one API key is needed")
        try:
            self._keys = [(k.encode(), check_user(u)) for k, u in keys.items()]
        except InvalidInputError as exc:
            raise ConfigurationError(f"an API key maps to an invalid user id: {exc}") from None

    def __len__(self) -> int:
        return len(self._keys)

    def user_for(self, presented: str) -> str | None:
        given = presented.encode("utf-8", "surrogateescape")
        # compare against every key, so the time taken says nothing about which key was close
        matches = [user for key, user in self._keys if hmac.compare_digest(key, given)]
        return matches[0] if matches else None
