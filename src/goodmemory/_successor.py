"""A person in a role of the user's life replaced by another (pure): "X's gone over to the other site, and the new one
is Y", "Y took over from X", "X retired, Y is the new one". The successor is the role's value now.

The sentence is about another person ("X's gone ..."), so it is no value of the user's own by itself; but it names
an earlier value of the user's (their manager X) as gone and names who has the role now.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from .dates import MONTHS, WEEKDAYS
from .keys import slot_of
from .merge import Earlier, names_in, without_possessives
from .models import MemoryRecord
from .taxonomy import KeyFamily

__all__ = ["role_of", "successor", "went_away"]

_NAME = r"[A-Z][\w\-]+"
_NEW = re.compile(r"\bthe new (?:one|\w+) is (?P<a>" + _NAME + r")"
                  r"|\b(?P<b>" + _NAME + r") (?:is|'s) (?:the|our|my) new (?:one|\w+)\b"
                  r"|\b(?P<c>" + _NAME + r") (?:has )?(?:took|taken) over\b"
                  r"|\breplaced by (?P<d>" + _NAME + r")"
                  r"|\bi (?:now |actually )?report to (?P<e>" + _NAME + r")")
# who took over the user's team, department or unit is the one they report to now: "Fatima took over the department",
# "first 1:1 with Fatima on Monday, she's taken over our team"
_TEAM = r"(?:our|my|the) (?:whole )?(?:team|department|dept|unit|squad|division|group)\b"
_TOOK_TEAM = re.compile(r"\b(?P<a>" + _NAME + r") (?:has )?(?:just )?(?:took|taken) over " + _TEAM +
                        r"|,?\s*(?P<b>he|she|they)(?:'s| has| have|'ve)? (?:just )?(?:took|taken) over " + _TEAM)
# "New boss is Tobias Lindgren", "my new manager's Ada": who has the role now, whoever had it before
_NEW_BOSS = re.compile(r"\b(?i:new (?:boss|manager|line manager|supervisor|team lead)(?: is|'s|:))\s+(?P<a>" + _NAME + r")")
_NOT_NAMES = frozenset([*WEEKDAYS, *MONTHS, "today", "tomorrow", "yesterday", "christmas", "easter"])
_BOSS = re.compile(r"\b(?:manager|boss|supervisor|team lead|lead|head|line manager)\b", re.I)
_GONE = re.compile(r"\b(?:gone|left|moved on|retired|quit|went over|transferred|moved to|was let go|got fired|"
                   r"stepped down|took over from|taken over from)\b", re.I)


def _person(r: MemoryRecord, family_of: Callable[[str], KeyFamily | None]) -> tuple[KeyFamily, Earlier] | None:
    """``r`` as an earlier value of a person in the user's life, with its family; None for any other record."""
    fam = family_of(r.key)
    if fam is None or fam.name not in ("relation", "manager") or not r.key.startswith("relation."):
        return None
    return fam, Earlier(key=r.key, value=r.value, at=r.event_time, family_key=fam.key, similarity=0.0)


def successor(said: str, records: Iterable[MemoryRecord], family_of: Callable[[str], KeyFamily | None]
              ) -> tuple[MemoryRecord, str] | None:
    """The one person record ``said`` tells has left its role, and the name of who has it now; or None."""
    took = _TOOK_TEAM.search(said) or _NEW_BOSS.search(said)
    if took is not None:
        # "he's taken over our team": the person the clause before names (not the sentence's first word)
        named = [n for n in re.findall(r"(?<=\s)" + _NAME, said[: took.start()]) if n.lower() not in _NOT_NAMES] \
            if took.groupdict().get("b") else [took.group("a")]
        boss = named[-1] if named else ""
        bosses = [] if not boss else [r for r in records if boss.lower() not in r.value.lower() and _person(r, family_of) is not None
                  and _BOSS.search(role_of(r))]
        if len(bosses) == 1:
            return bosses[0], boss
    m = _NEW.search(said)
    if m is None or not _GONE.search(said):
        return None
    new = next(g for g in m.groups() if g)
    plain = without_possessives(said)  # "so Darnell's gone over to the Brampton site"
    hits = [r for r in records if new.lower() not in r.value.lower()
            and (p := _person(r, family_of)) is not None and names_in(p[1], p[0], plain)]
    return (hits[0], new) if len(hits) == 1 else None


def role_of(r: MemoryRecord) -> str:
    """The role a relation record's slot names ("relation.manager" -> "manager")."""
    return slot_of(r.key).split(".")[-1].replace("_", " ")


def went_away(said: str, r: MemoryRecord, family_of: Callable[[str], KeyFamily | None]) -> bool:
    """Whether ``said`` tells where the person of ``r`` went, starting with their name ("Priya's gone over to the
    Dublin team"): beside the change that replaced them in the same turn, that is how their role ended."""
    p = _person(r, family_of)
    head = without_possessives(said).split(" ", 1)[0].lower()
    return p is not None and head in p[1].names() and bool(_GONE.search(said))
