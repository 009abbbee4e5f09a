"""Short memory ids: the hex prefixes a context shows (``[3fa9c1 profile]``) resolved to full ids.

Pure: the caller passes the ids of one user's memories, so a prefix can only ever name that user's memory.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable

from .context import ID_LEN
from .errors import InvalidInputError, MemoryNotFoundError

__all__ = ["is_prefix", "resolve_id", "resolve_id_async"]

_FULL = re.compile(r"[0-9a-f]{32}")
_HEX = re.compile(r"[0-9a-f]+")


def is_prefix(given: object) -> bool:
    """Whether ``given`` is a short id to look up (hex, shorter than a full id), not an id to use as it is."""
    if not isinstance(given, str):
        return False
    prefix = given.strip().lower()
    return bool(_HEX.fullmatch(prefix)) and not _FULL.fullmatch(prefix)


def resolve_id(given: str, ids_of_user: Callable[[], Iterable[str]]) -> str:
    """The one id of the user's that starts with ``given`` (at least ``ID_LEN`` hex characters).

    A full id, or anything that is not hex, is returned unchanged (the facade says whether it exists).
    ``ids_of_user`` is only called for a prefix.
    """
    if not is_prefix(given):
        return given
    prefix = given.strip().lower()
    if len(prefix) < ID_LEN:
        raise InvalidInputError(f"memory id {given!r} is too short: give at least {ID_LEN} characters of the id "
                                "(as a context shows it) or the full id")
    matches = sorted({i for i in ids_of_user() if i.startswith(prefix)})
    if not matches:
        raise MemoryNotFoundError(f"no memory whose id starts with {given!r} for this user")
    if len(matches) > 1:
        shown = ", ".join(matches[:5]) + (", ..." if len(matches) > 5 else "")
        raise InvalidInputError(f"memory id {given!r} matches {len(matches)} memories ({shown}): "
                                "give more characters")
    return matches[0]


async def resolve_id_async(given: str, ids_of_user: Callable[[], Awaitable[Iterable[str]]]) -> str:
    """:func:`resolve_id` for async callers (the REST and MCP servers): ``ids_of_user`` is awaited for a prefix only."""
    if not is_prefix(given):
        return given
    ids = list(await ids_of_user())
    return resolve_id(given, lambda: ids)
