"""The typed form of the metadata keys the library itself reads and writes on a memory.

``MemoryRecord.metadata`` stays a JSON object (it is exported and imported as one, and callers may keep their
own keys in it); :class:`MemoryMeta` is its typed reading. Two rules make the reading safe to apply to any
stored record:

- **strict**: a value of the wrong type is not coerced. Dates and moments are read with
  ``date.fromisoformat`` / ``datetime.fromisoformat`` only (never a number as a Unix time, never a guess),
  so ``"soon"`` or ``1700000000`` as ``expires_at`` stays unread: an unreadable end is no end. Such a
  value is kept, raw, in :attr:`MemoryMeta.unreadable`, and ``dump()`` writes it back untouched.
- **lossless**: keys that are not typed here (a caller's, an import's, an extractor's private ones) pass
  through ``dump()`` as they were.

``dump()`` is the canonical stored form (schema v10 rewrites older records into it): a moment as an aware
ISO 8601 string (a naive one is UTC, as everywhere in the library), a day as ``YYYY-MM-DD``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from datetime import UTC, datetime, time
from typing import Any

from pydantic import BaseModel, ConfigDict, PrivateAttr, ValidationError, field_serializer, field_validator

__all__ = ["MemoryMeta", "read_meta"]


def _moment(v: Any) -> datetime | None:
    if v is None:
        return None
    if isinstance(v, datetime):
        moment = v
    elif isinstance(v, dt.date):
        moment = datetime.combine(v, time(0))
    elif isinstance(v, str):
        moment = datetime.fromisoformat(v)  # ValueError on anything else: reported, not guessed
    else:
        raise ValueError(f"not an ISO 8601 moment: {v!r}")
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _day(v: Any) -> dt.date | None:
    if v is None:
        return None
    if isinstance(v, dt.date) and not isinstance(v, datetime):  # a moment is not a day (str() of it is unreadable)
        return v
    if isinstance(v, str):
        return dt.date.fromisoformat(v)
    raise ValueError(f"not an ISO 8601 day: {v!r}")


class MemoryMeta(BaseModel):
    """The shared metadata keys, typed. ``None`` = absent (or unreadable: see :attr:`unreadable`)."""

    model_config = ConfigDict(extra="allow", strict=True)

    # lifecycle: an explicit end; the day of a dated event; the registry family of the key
    expires_at: datetime | None = None
    date: dt.date | None = None
    time: str | None = None
    family: str | None = None
    family_score: float | None = None
    # maintenance: marked for verification because it may be out of date
    stale: bool | None = None
    # raw turns: who said it, conversation order, content hash, information density, digest lines, outdated marks
    role: str | None = None
    seq: int | None = None
    turn_hash: str | None = None
    density: float | None = None
    digest: bool | None = None
    line_ids: list[str] | None = None
    outdated: list[dict[str, Any]] | None = None
    denies: list[str] | None = None
    # extraction: which rule fired, the clause it read, what the statement is about
    rule: str | None = None
    said: str | None = None
    about: str | None = None
    statement: bool | None = None
    reported: bool | None = None
    other_subject: bool | None = None
    subjectless: bool | None = None
    reason: bool | None = None
    issued_by_assistant: bool | None = None
    answers_no: bool | None = None  # "A: Are you still with X?" "nope, Y": the answer says no
    secret_kinds: list[str] | None = None
    # open loops: open/closed, the task a closing names
    state: str | None = None
    task: str | None = None
    # the write path: the record this one replaces, the key of an earlier value this one ends
    replaces: str | None = None
    ends: str | None = None

    _unreadable: dict[str, Any] = PrivateAttr(default_factory=dict)
    _order: list[str] = PrivateAttr(default_factory=list)

    @field_validator("expires_at", mode="plain")
    @classmethod
    def _read_moment(cls, v: Any) -> datetime | None:
        return _moment(v)

    @field_validator("date", mode="plain")
    @classmethod
    def _read_day(cls, v: Any) -> dt.date | None:
        return _day(v)

    @field_serializer("expires_at", "date")
    def _iso(self, v: datetime | dt.date | None) -> str | None:
        return None if v is None else v.isoformat()

    @property
    def unreadable(self) -> dict[str, Any]:
        """Typed keys whose stored value could not be read, with that value as stored."""
        return dict(self._unreadable)

    def dump(self) -> dict[str, Any]:
        """The metadata as stored: typed keys in canonical JSON form, unreadable and unknown keys untouched."""
        out = self.model_dump(mode="json", exclude_unset=True)
        out.update(self._unreadable)
        return {k: out[k] for k in [*self._order, *out] if k in out}


_TYPED = frozenset(MemoryMeta.model_fields)


def read_meta(metadata: Mapping[str, Any]) -> MemoryMeta:
    """The typed reading of ``metadata``; a typed key whose value does not validate is kept raw in ``unreadable``."""
    given = dict(metadata)
    try:
        meta = MemoryMeta.model_validate(given)
    except ValidationError as e:
        bad = {str(err["loc"][0]) for err in e.errors() if err["loc"] and str(err["loc"][0]) in _TYPED}
        meta = MemoryMeta.model_validate({k: v for k, v in given.items() if k not in bad})
        meta._unreadable = {k: given[k] for k in given if k in bad}
    meta._order = list(given)  # dump() writes the keys back in the order they were stored
    return meta
