"""A change told of "it" or "that" right after the assistant named one of the user's values.

"A: Does the Mazda have a roof rack?" / "Traded that in a month ago, it's a Kia Sportage now": the answer names
no earlier value, the assistant's turn does, and the answer's "that" points back at it. When the assistant's turn
just before names exactly one of the user's memories, and the answer says a change, points back with a pronoun and
gives a value of its own, the answer is that memory's new value. Without a value of its own ("Not any more, it's
too noisy") or without a pronoun ("No, Minecraft now" after "Is Oscar still into football?", where the name the
turn repeats is the subject as often as the value) it is left to the other decisions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from ._change_words import adds, changes
from .extraction._statements import masks_a_value
from .merge import Earlier, names_in, without_possessives
from .models import Candidate, MemoryRecord
from .taxonomy import KeyFamily, family_by_name

__all__ = ["denied_still", "named_back"]

# the answer's pronoun for the thing the assistant named: "traded that in", "they moved it", "sold them"
_BACK = re.compile(r"\b(?:it|that|that one|this one|them|those)\b(?!\s+(?:is|was|'s)\s+(?:fine|ok|okay|great|true))",
                   re.I)


def _named(e: Earlier, fam: KeyFamily, text: str) -> set[str]:
    """The words of ``text`` that name ``e``; a model's name without its number names it too ("the Mazda" for a
    Mazda3, "the Golf" for a Golf GTI is already a word of it)."""
    text = without_possessives(text)  # the assistant names it in the possessive: "Dr. Ortega's clinic?"
    words = {w.lower() for w in re.findall(r"[A-Za-z][\w\-]+", text)}
    stripped = {n.rstrip("0123456789") for n in e.names() if n[-1:].isdigit()}
    return names_in(e, fam, text) | {n for n in stripped if len(n) >= 3 and n in words}


def _is_name(word: str, text: str) -> bool:
    """Whether ``word`` (lower-cased) is a name or a figure where ``text`` says it: capitalised past the first word, or
    with a digit."""
    if any(ch.isdigit() for ch in word):
        return True
    return any(m.start() > 0 for m in re.finditer(rf"\b(?-i:[A-Z]){re.escape(word[1:])}\b", text)
               if m.group(0).lower() == word)


def _named_in(c: Candidate, records: Iterable[MemoryRecord], family: Callable[[str], str | None], text: str
              ) -> list[tuple[int, MemoryRecord]] | None:
    """The memories ``text`` names (with how many of their words), or None when ``c`` names one itself (then the
    other decisions read it)."""
    named: list[tuple[int, MemoryRecord]] = []
    for r in records:
        fam = family_by_name(name) if (name := family(r.key)) is not None else None
        if fam is None or r.metadata.get("other_subject"):
            continue
        e = Earlier(key=r.key, value=r.value, similarity=0.0, at=r.event_time, family_key=fam.key)
        if any(_is_name(w, c.value) for w in _named(e, fam, c.value)):
            return None  # a name or a figure, not a word it shares ("the spikes came back" names no provider)
        hit = _named(e, fam, text)
        if hit:
            named.append((len(hit), r))
    return named


def named_back(c: Candidate, records: Iterable[MemoryRecord], family: Callable[[str], str | None]
               ) -> MemoryRecord | None:
    """The one memory of ``records`` the assistant's turn before ``c`` named and ``c`` changes by pointing back at
    it, or None (``family``: a record's key family, None for one no statement may change)."""
    prior = str(c.metadata.get("prior") or "")
    if not prior or c.metadata.get("reported") or c.metadata.get("other_subject") or not changes(c.value) \
            or adds(c.value) or not _BACK.search(c.value) or not masks_a_value(c.value):
        return None
    named = _named_in(c, records, family, prior)
    if not named:
        return None
    most = max(n for n, _ in named)
    best = [r for n, r in named if n == most]
    return best[0] if len(best) == 1 else None


# "Are you still at X?", "Is it still the X plan?", "Still with X?": the assistant asks whether a value holds
_STILL_ASKED = re.compile(r"\b(?:(?:are|is|do) (?:you|it|that|your \w+) )?still (?:at|with|on|in|using|banking with|"
                          r"going to|the|a|an)\b[^?]*\?", re.I)


_YES_NO = re.compile(r"(?:^|(?<=[.!?]\s))(?:is|are|was|were|do|does|did|have|has)\s+(?:that|it|this|you|your)\b[^?.!]*\?",
                     re.I)


def denied_still(c: Candidate, records: Iterable[MemoryRecord], family: Callable[[str], str | None]
                 ) -> MemoryRecord | None:
    """The one memory the assistant asked still held ("Are you still at Wells Fargo?") when ``c`` answers no with a
    value of its own ("nope, Chase since March"), or None."""
    prior = str(c.metadata.get("prior") or "")
    # any yes/no question naming the value ("Is that your Lloyds card?") when the answer tells a change ("no, we moved
    # everything to Starling in the summer")
    found = list(_STILL_ASKED.finditer(prior)) or (list(_YES_NO.finditer(prior)) if changes(c.value) else [])
    if not c.metadata.get("answers_no") or not found or not masks_a_value(c.value) or adds(c.value) \
            or (c.metadata.get("reported") and not c.metadata.get("subjectless")) or c.metadata.get("other_subject"):
        return None
    asked = " ".join(m.group(0) for m in found)
    named = _named_in(c, records, family, asked)
    return named[0][1] if named is not None and len(named) == 1 else None
