"""The rule extractor over a few turns, for the unit modules that read what it extracts (import it like
``from _extracting import extract``; a module-level ``AT`` of the caller's is passed as ``at``)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

from goodmemory._replaced import drop_replaced
from goodmemory.extraction.base import ExtractionContext
from goodmemory.extraction.rules import RuleExtractor
from goodmemory.merge import Earlier, attribute_slot
from goodmemory.models import Candidate, Message
from goodmemory.taxonomy import family_by_name

AT = datetime(2025, 3, 12, 10, tzinfo=UTC)


def messages(*turns: str, at: datetime = AT) -> list[Message]:
    """The user's turns, ids m0, m1, ...; a turn starting "A: " is the assistant's."""
    return [Message(id=f"m{i}", role="assistant" if t.startswith("A: ") else "user", content=t.removeprefix("A: "),
                    timestamp=at) for i, t in enumerate(turns)]


def extract(*turns: str, at: datetime = AT, statements: bool = True,
            existing: Mapping[str, str] | None = None) -> list[Candidate]:
    """What the rule extractor reads from ``turns`` (``statements=False``: the rules alone, without the user's
    words that no rule read)."""
    ctx = ExtractionContext(user_id="u", at=at, existing=dict(existing or {}))
    return RuleExtractor(statements=statements).extract(messages(*turns, at=at), ctx)


def keyed(*turns: str, prefix: str = "", at: datetime = AT, statements: bool = False) -> dict[str, str]:
    """The values the extractor reads from ``turns`` by key, of the keys starting with ``prefix`` (the rules alone
    unless ``statements``)."""
    return {c.key: c.value for c in extract(*turns, at=at, statements=statements) if c.key.startswith(prefix)}


def statements(*turns: str, at: datetime = AT) -> list[Candidate]:
    """The user's words that no rule read, kept as statements."""
    return [c for c in extract(*turns, at=at) if c.metadata.get("statement")]


def live_values(*sessions: str, day: int = 5) -> dict[str, str]:
    """Each sentence a session of its own (two months apart) through the real facade; the active memories'
    values by key (raw turns aside)."""
    from goodmemory import create_good_memory

    mem = create_good_memory("sqlite://")
    try:
        for i, said in enumerate(sessions):
            mem.remember([{"role": "user", "content": said}], user_id="u", session_id=f"s{i}",
                         at=datetime(2025, 1 + 2 * i, day, tzinfo=UTC))
        return {r.key: r.value for r in mem.list(user_id="u") if r.kind.value != "episode"}
    finally:
        mem.close()


def held(key: str, value: str, sim: float = 0.5, *, family_key: str | None = None, day: int = 1) -> Earlier:
    """An active memory the write path gathered as earlier (its family the key without its last part)."""
    return Earlier(key=key, value=value, similarity=sim, at=datetime(2025, 1, day, tzinfo=UTC),
                   family_key=key.rsplit(".", 1)[0] if family_key is None else family_key)


def dropped(said: str, old_key: str, old_value: str) -> str:
    """What ``said`` keeps as its value once the earlier value it replaces is dropped from it."""
    return drop_replaced(said, held(old_key, old_value, 0.6))


def slot(said: str, family: str, own_key: str, *earlier: Earlier, statement: bool = True,
         has_value: bool = True) -> str | None:
    """The slot ``said`` (of ``family``) goes to, given the family's earlier memories."""
    return attribute_slot(said, family_by_name(family), own_key, list(earlier), statement=statement,
                          has_value=has_value)[0]


def read(*turns: str, at: datetime = AT) -> list[tuple[str, str]]:
    """(key, value) of what the rule extractor keeps from ``turns``, the raw turns (episodes) left out."""
    return [(c.key, c.value) for c in extract(*turns, at=at) if c.kind.value != "episode"]


def values(*turns: str, at: datetime = AT) -> list[str]:
    """The values of what the rule extractor keeps from ``turns``, the raw turns (episodes) left out."""
    return [v for _, v in read(*turns, at=at)]


def assert_kept(text: str, word: str) -> None:
    """That some value the rule extractor keeps from ``text`` holds ``word`` (the test's own sentence kept)."""
    got = values(text)
    assert any(word in v for v in got), f"{word!r} not kept from {text!r}: {got}"
