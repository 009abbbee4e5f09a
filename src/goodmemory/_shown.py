"""What the context shows of an outdated turn: the value its change leads to now, and the turn without the
phrases its marks hide (the read side of ``_marks``; ``_read`` renders the flags)."""

from __future__ import annotations

from collections.abc import Iterable

from ._outdated import HIDDEN, RETRACTED, hide_former, hide_in, states_already, without_denials
from .models import MemoryKind, MemoryRecord, MemoryStatus
from .storage.base import MemoryFilter, Storage, borrowed_reads

__all__ = ["Replacements", "outdated_shown"]

_CHAIN = 6  # replacements followed from an outdated turn's mark to the value current now


class Replacements:
    """The value an outdated turn's change leads to now (with the phrases it denies): the mark's new value, or
    what has replaced that since, following the chain of replacements.

    The records of the chains are read level by level for every candidate at once (``prefetch``): one list by
    id per level instead of one ``get`` per mark and link (a context of the bench read ~14 one by one)."""

    def __init__(self, storage: Storage, user_id: str) -> None:
        self._storage, self._user_id = storage, user_id
        self._records: dict[str, MemoryRecord | None] = {}  # id -> the user's record, None when there is none
        self._values: dict[str, tuple[str, list[str]]] = {}

    def _read(self, ids: Iterable[str]) -> list[MemoryRecord]:
        missing = tuple(dict.fromkeys(i for i in ids if i and i not in self._records))
        if not missing:
            return []
        # only read here (status, value, denials, the next link), never handed out: borrowed, not copied
        with borrowed_reads():
            found = self._storage.list(self._user_id, MemoryFilter(statuses=None, memory_ids=missing))
        self._records.update(dict.fromkeys(missing))
        self._records.update((r.id, r) for r in found)
        return found

    def prefetch(self, records: Iterable[MemoryRecord]) -> None:
        level = self._read(str(mark.get("by", "")) for r in records if r.kind == MemoryKind.EPISODE
                           for mark in r.metadata.get("outdated", []))
        for _ in range(_CHAIN - 1):
            level = self._read(r.superseded_by for r in level
                               if r.status == MemoryStatus.SUPERSEDED and r.superseded_by)
            if not level:
                break

    def _get(self, rid: str) -> MemoryRecord | None:
        if rid not in self._records:
            self._read([rid])
        return self._records.get(rid)

    def now(self, mark: dict[str, object]) -> tuple[str, list[str]]:
        first = str(mark.get("by", ""))
        if first not in self._values:
            value, denies, rid = str(mark.get("new", "")), [], first
            for _ in range(_CHAIN):
                rec = self._get(rid) if rid else None
                if rec is None:
                    break
                if rec.status == MemoryStatus.ACTIVE:
                    value, denies = rec.value, list(rec.metadata.get("denies", []))
                    break
                if rec.status != MemoryStatus.SUPERSEDED or not rec.superseded_by:
                    break
                rid = rec.superseded_by
            self._values[first] = (value, denies)
        return self._values[first]


def outdated_shown(r: MemoryRecord) -> MemoryRecord:
    """The record as the context shows it: an outdated turn without the phrases its marks hide (a denied value,
    the figures of a thing that ended), any turn without the former values it names in passing ("…, before that
    it was X"), a memory without the clauses that deny the value it replaced."""
    text = hide_former(r.text) if r.kind == MemoryKind.EPISODE else r.text
    marks = r.metadata.get("outdated", [])
    if r.kind == MemoryKind.EPISODE and marks:
        # a mark on a turn that itself says the value it is "outdated" by is a false mark: neither flag nor hide
        marks = [m for m in marks if m.get("retracted") or not states_already(r.text, str(m.get("new", "")))]
        for mark in marks:
            old = str(mark.get("old", ""))
            text = hide_in(text, mark.get("hide", []), within=mark.get("within") or (old if old in text else None),
                           marker=RETRACTED if mark.get("retracted") else HIDDEN)
        if len(marks) < len(r.metadata["outdated"]):
            return r.model_copy(update={"text": text, "metadata": {**r.metadata, "outdated": marks}})
    elif r.metadata.get("denies"):
        text = without_denials(text, r.metadata["denies"])
    return r if text == r.text else r.model_copy(update={"text": text})
