"""The lists build_context fuses, read from records alone (pure; split out of ``_read``)."""

from __future__ import annotations

from collections.abc import Iterable

from .keys import episode_key
from .models import MemoryKind, MemoryRecord
from .ranking import speaker_of

__all__ = ["distinct_texts", "is_statement", "raw_turn", "spoken_by", "statement_turns"]


def raw_turn(r: MemoryRecord) -> bool:
    return r.kind == MemoryKind.EPISODE and not r.metadata.get("digest")


def distinct_texts(records: Iterable[MemoryRecord]) -> list[MemoryRecord]:
    """The first record of each text, in order."""
    first: dict[str, MemoryRecord] = {}
    for r in records:
        first.setdefault(r.text, r)
    return list(first.values())


def spoken_by(turns: list[MemoryRecord], names: set[str]) -> list[MemoryRecord]:
    """The turns spoken by someone the question names, when anyone it names speaks in them; else all of them.

    A question about a person in a conversation between people ("What activities has Melanie done with her
    family?") is answered by what that person said: the other speaker's nearest turns ("How have your family been
    supportive?") took places of the dense list and left the evidence further down. Turns of a user and an
    assistant have no named speaker, so this never applies to them.
    """
    named = [r for r in turns if speaker_of(r.text) in names]
    return named or turns


def is_statement(r: MemoryRecord) -> bool:
    """A memory of the user's own words that no rule parsed (filed under a key family by meaning)."""
    return bool(r.metadata.get("statement"))


def statement_turns(records: Iterable[MemoryRecord]) -> dict[str, str]:
    """Statement id -> the id of the raw turn it quotes, for the statements whose turn is among ``records``."""
    recs = list(records)
    turn_of = {r.key: r.id for r in recs if raw_turn(r)}
    out: dict[str, str] = {}
    for r in recs:
        if is_statement(r) and len(r.source.message_ids) == 1:
            turn = turn_of.get(episode_key(r.source.message_ids[0]))
            if turn is not None:
                out[r.id] = turn
    return out
