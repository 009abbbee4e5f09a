"""The streamable HTTP side of ``goodmemory-mcp``: who a request is for, taken from its bearer token.

The SDK does the HTTP work: its bearer middleware asks :class:`KeyVerifier` about the token and answers 401
(before any JSON-RPC is read) when there is none or it is unknown, and its session manager refuses a session
to any credential but the one that opened it. A tool learns its user from the authenticated HTTP request that
carried the call (:func:`request_user`), never from its arguments.
"""

from __future__ import annotations

from collections.abc import Mapping

from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError

from ._keys import KeyRing

__all__ = ["KeyVerifier", "parse_address", "request_user"]


class KeyVerifier:
    """An MCP ``TokenVerifier`` over a fixed key -> user id map (``--keys`` / ``GOODMEMORY_API_KEYS``)."""

    def __init__(self, keys: Mapping[str, str]) -> None:
        self.ring = KeyRing(keys)

    async def verify_token(self, token: str) -> AccessToken | None:
        user = self.ring.user_for(token)
        if user is None:
            return None
        # the user is both client and subject: the SDK ties a session to (client_id, issuer, subject)
        return AccessToken(token=token, client_id=user, subject=user, scopes=[])


def request_user(ctx: Context) -> str:
    """The user of the HTTP request that carried this tool call; fails closed when it is not authenticated."""
    request = ctx.request_context.request
    scope = getattr(request, "scope", None)
    user = scope.get("user") if isinstance(scope, dict) else None
    if not isinstance(user, AuthenticatedUser) or not user.access_token.subject:
        raise ToolError("this request is not authenticated: send Authorization: Bearer <key>")
    return user.access_token.subject


def parse_address(address: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) -> ``(host, port)``; :class:`ValueError` says what is wrong."""
    host, sep, port = address.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--http takes HOST:PORT, e.g. 127.0.0.1:8000, got {address!r}")
    return host, int(port)
