"""Argument checks for the public API: bad input becomes InvalidInputError, never a raw pydantic error."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from .errors import InvalidInputError
from .models import FeedbackSignal, MemoryKind, Message

__all__ = ["check_at", "check_kinds", "check_messages", "check_positive", "check_signal", "check_user", "check_opt_str", "check_tags"]

_ROLES = ("user", "assistant", "system", "tool")


def check_user(user_id: Any) -> str:
    if not isinstance(user_id, str) or not user_id.strip():
        raise InvalidInputError("user_id must be a non-empty string, e.g. user_id='u42'")
    if "\x00" in user_id or len(user_id) > 255 or _has_surrogate(user_id):
        raise InvalidInputError("user_id must be at most 255 characters of valid text (no NUL bytes or lone surrogates)")
    return user_id


def check_opt_str(value: Any, name: str) -> str | None:
    if value is None:
        return None
    if (not isinstance(value, str) or not value.strip() or "\x00" in value or len(value) > 255
            or _has_surrogate(value)):
        raise InvalidInputError(f"{name} must be a non-empty string of at most 255 characters of valid text, or None")
    return value


def check_at(at: Any) -> datetime | None:
    if at is None:
        return None
    if not isinstance(at, datetime):
        raise InvalidInputError(f"at must be a datetime, got {type(at).__name__}")
    return at if at.tzinfo else at.replace(tzinfo=UTC)


_MAX_INT = 2**31 - 1  # what every store binds as an integer; more is no limit at all


def check_positive(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= _MAX_INT:
        raise InvalidInputError(f"{name} must be a positive integer up to {_MAX_INT}, got {value!r}")
    return value


def check_signal(signal: Any) -> FeedbackSignal:
    try:
        return FeedbackSignal(signal)
    except ValueError:
        raise InvalidInputError(
            f"unknown feedback signal {signal!r}; use one of {[s.value for s in FeedbackSignal]}"
        ) from None


def check_kinds(kinds: Any) -> tuple[MemoryKind, ...] | None:
    if kinds is None:
        return None
    if isinstance(kinds, (str, MemoryKind)):
        kinds = [kinds]
    try:
        return tuple(MemoryKind(k) for k in kinds)
    except (ValueError, TypeError):
        raise InvalidInputError(f"unknown kinds {kinds!r}; use some of {[k.value for k in MemoryKind]}") from None


MAX_TAGS = 20  # per remember() call, per memory and per filter
MAX_TAG_CHARS = 64


def check_tags(tags: Any, *, selects: bool = False) -> tuple[str, ...] | None:
    """Tags as given (surrounding whitespace stripped, case kept, duplicates dropped), or None for no tags.

    A bare string is refused rather than read as one tag or as its characters: both readings happen."""
    if tags is None:
        return None
    if isinstance(tags, str) or not isinstance(tags, (list, tuple, set, frozenset)):
        raise InvalidInputError(f"tags must be a list of strings, e.g. tags=['project-x'], got {type(tags).__name__}")
    out: dict[str, None] = {}
    for t in tags:
        if not isinstance(t, str) or not t.strip():
            raise InvalidInputError(f"each tag must be a non-empty string, got {t!r}")
        t = t.strip()
        if len(t) > MAX_TAG_CHARS or any(ord(ch) < 32 for ch in t) or _has_surrogate(t):
            raise InvalidInputError(f"tag {t[:80]!r} must be at most {MAX_TAG_CHARS} characters of printable text")
        out[t] = None
    if not out and not selects:
        return None
    if not out:
        raise InvalidInputError("tags=[] selects nothing: pass at least one tag, or tags=None for no tag filter")
    if len(out) > MAX_TAGS:
        raise InvalidInputError(f"at most {MAX_TAGS} tags, got {len(out)}")
    return tuple(out)


def clean_text(text: str) -> str:
    return _clean(text)


def check_limit(value: Any, name: str = "limit") -> int | None:
    return None if value is None else check_positive(value, name)


def check_memory_id(memory_id: Any) -> str:
    if not isinstance(memory_id, str) or not memory_id or len(memory_id) > 255 or _has_surrogate(memory_id):
        raise InvalidInputError("memory_id must be a non-empty string (an id from a result of this library)")
    return memory_id


def _clean(text: str) -> str:
    """Drop NUL bytes and lone surrogates, which no store can hold faithfully."""
    text = text.replace("\x00", "")
    return text.encode("utf-8", "replace").decode("utf-8") if _has_surrogate(text) else text


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def check_messages(messages: Any, *, max_count: int, hard_max_chars: int) -> list[Message]:
    if isinstance(messages, (str, bytes, dict, Message)) or not isinstance(messages, Sequence):
        raise InvalidInputError(
            "messages must be a list of {'role': ..., 'content': ...} dicts or Message objects"
        )
    if len(messages) > max_count:
        raise InvalidInputError(f"{len(messages)} messages in one call; the limit is {max_count}: split the batch")
    out: list[Message] = []
    for i, m in enumerate(messages):
        if isinstance(m, Message):
            msg = m
        elif isinstance(m, dict):
            role = m.get("role")
            if role not in _ROLES:
                raise InvalidInputError(f"messages[{i}].role must be one of {list(_ROLES)}, got {role!r}")
            if not isinstance(m.get("content"), str):
                raise InvalidInputError(
                    f"messages[{i}].content must be a string, got {type(m.get('content')).__name__}"
                )
            try:
                msg = Message.model_validate(m)
            except ValidationError as exc:
                raise InvalidInputError(f"messages[{i}] is invalid: {exc.errors()[0]['msg']}") from None
        else:
            raise InvalidInputError(f"messages[{i}] must be a dict or Message, got {type(m).__name__}")
        if len(msg.content) > hard_max_chars:
            raise InvalidInputError(
                f"messages[{i}] has {len(msg.content)} characters; the hard limit is {hard_max_chars}"
            )
        if msg.id is not None and (not msg.id.strip() or len(msg.id) > 255 or _has_surrogate(msg.id)
                                   or "\x00" in msg.id):
            raise InvalidInputError(f"messages[{i}].id must be a non-empty string of at most 255 characters")
        out.append(msg.model_copy(update={"content": _clean(msg.content)}))
    return out


MAX_ID_CHARS = 64  # the width of the id columns


def check_export(data: Any, *, max_chars: int) -> None:
    """An export fit to store: ids the store can key by, texts within the hard limit, valid text throughout."""
    try:
        data.model_dump_json().encode("utf-8")
    except ValueError:  # lone surrogates (pydantic's serialization error is a ValueError)
        raise InvalidInputError("the export holds invalid text (lone surrogates); export it again") from None
    for r in data.memories:
        for mid in (r.id, r.supersedes, r.superseded_by, *r.conflicts_with):
            if mid is not None and (not mid or len(mid) > MAX_ID_CHARS):
                raise InvalidInputError(f"the export holds a memory id of {len(mid)} characters "
                                        f"(1 to {MAX_ID_CHARS}); it was not written by GoodMemory")
        if r.tags:
            check_tags(r.tags)
        if max(len(r.text), len(r.value), len(r.keywords), len(r.key)) > max_chars:
            raise InvalidInputError(f"memory {r.id} is longer than hard_max_message_chars ({max_chars})")
