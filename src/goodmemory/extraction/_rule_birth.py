"""A baby's arrival: a new member of the user's family, named ("Baby Maya arrived on Tuesday!", "Our little boy Finn
was born last night", "We had a baby girl on Sunday, Rosa"), said with or without "I". Someone else's baby ("my
sister's baby Leo") and a baby without a name are none."""

from __future__ import annotations

import re

from ..models import MemoryKind
from ..taxonomy import slot_key
from ._engine import Clause, Example, Rule

__all__ = ["BIRTH_RULE"]

Match = re.Match[str]

_NAME = r"(?-i:[A-Z][a-z]+)"
_KIND = r"(?:(?P<kind>boy|girl|son|daughter) )?"
_R_BIRTH = re.compile(
    r"^(?:(?:so|and|omg|yay|finally)\W+)*(?:(?:our|my) )?(?:(?:new|little|baby) )+" + _KIND + r"(?P<name>" + _NAME + r")"
    r",? (?:has )?(?:arrived|was born|came)\b"
    r"|\b(?:we|i) (?:had|welcomed) (?:a |our )?(?:(?:baby|little) )+" + _KIND.replace("kind", "kind2") +
    r"[^,.!?]{0,30}?,\s*(?P<name2>" + _NAME + r")\b", re.I)
_ROLE = {"boy": "son", "son": "son", "girl": "daughter", "daughter": "daughter"}


def _birth(c: Clause, m: Match | None) -> bool:
    assert m
    if re.search(r"\b(?:\w+'s|his|her|their|your) (?:new |little )?baby\b", c.s, re.I):
        return False  # "my sister's baby Leo": theirs
    name = m.group("name") or m.group("name2")
    kind = (m.group("kind") or m.group("kind2") or "").lower()
    role = _ROLE.get(kind, "baby")
    c.emit(slot_key("relation", role, name), name, f"User's new {role} is {name}.", importance=0.8,
           keywords=f"family baby child born {role} {name}")
    return True


BIRTH_RULE = Rule("birth", MemoryKind.PROFILE, ("relation",), "User's baby is {v}.", _birth, pattern=_R_BIRTH,
                  importance=0.8, examples=(Example("Baby Maya arrived on Tuesday!", "relation.baby.maya", "Maya"),
                                            Example("Baby Shark is on repeat again.")))
