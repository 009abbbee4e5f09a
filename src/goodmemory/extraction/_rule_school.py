"""A child's school: the child's attribute, one school at a time ("our daughter X attends Y Primary", "X changed
schools, she's at Z High now", "since X started at Z Academy ...").

The child is told by relation ("my youngest son"), by a name the user's memories hold as their child's, or as the
sibling of such a child ("her brother X"); a pronoun stands for the child when the user has exactly one child with a
school. Someone else's child ("my friend's daughter") is no child of the user's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..models import MemoryKind
from ..taxonomy import slug
from . import _patterns as P
from ._engine import Clause, Example, Rule

__all__ = ["SCHOOL_RULE"]

Match = re.Match[str]

_CHILD = r"son|daughter|boy|girl|kid|child|stepson|stepdaughter"
# the name is capitalised, the word for the school may not be ("Little Acorns nursery"); "Sunday school" is none
_SCHOOL = (r"(?-i:(?!Sunday )(?:St\.? )?[A-Z][\w'’\-]*(?: [A-Z][\w'’\-]*){0,3}) (?i:Primary|Academy|High|School|College|"
           r"Nursery|Infants|Juniors|Grammar|Secondary|Prep|Montessori|Kindergarten|Preschool)(?i: School)?\b")
# a school only children go to: a first name said with it is a child's ("Maisie goes to Little Acorns nursery")
_PRONOUNS = frozenset(["he", "she", "they", "it", "we", "i", "you", "he's", "she's", "they're"])
_CHILDS_ONLY = re.compile(r"\b(?:nursery|primary|infants|juniors|kindergarten|preschool|montessori)\b", re.I)
_AT = (r"(?:goes to|go to|attends|is at|'s at|are at|started at|has started at|is starting at|has been at|is now at|"
       r"(?:has )?started (?:[\w]+ ){1,3}?at|"  # "started Year 1 at X", "started reception at X"
       r"moved to|(?:is|'s|’s) in [\w ]{1,20}? at|(?:changed|moved|switched) schools?[^,.;]*?[,;] (?:she|he|they)(?:'s| is| are)"
       r" (?:now )?at)")
_R_BY_RELATION = re.compile(
    r"\b(?P<own>my|our) (?:(?:eldest|youngest|older|younger|little|oldest|middle) )?(?P<rel>" + _CHILD + r")"
    r"(?:,? (?P<name>" + P.NAME + r"),?)?(?: |(?=['’]s ))(?:now |also |still |just )?" + _AT + r" (?P<v>" + _SCHOOL + r")",
    re.I)
_R_BY_NAME = re.compile(r"(?P<name>" + P.NAME + r")(?: |(?=['’]s ))(?:now |also |still |just )?" + _AT + r" (?P<v>" + _SCHOOL +
                        r")")
_R_SIBLING = re.compile(r"\b(?:his|her|their) (?P<rel>brother|sister) (?P<name>" + P.NAME + r") (?:now |also )?" + _AT +
                        r" (?P<v>" + _SCHOOL + r")", re.I)
_R_PRONOUN = re.compile(r"\b(?:(?:she|he|they)(?:'s| is| are)? (?:now |just )?" + _AT + r"|we (?:moved|put|enrolled) "
                        r"(?:him|her|them) (?:to|at|in)) (?P<v>" + _SCHOOL + r")", re.I)
_KNOWN = re.compile(r"^relation\.(?P<rel>" + _CHILD + r")\.(?P<name>[a-z0-9_]+?)(?:\.school)?$")
_SINCE = re.compile(r"\b(?i:since) (?P<name>" + P.NAME + r") (?:started|joined|moved|went) (?:at |to )?(?P<v>" + _SCHOOL + r")")


def _children(existing: Mapping[str, str]) -> dict[str, str]:
    """The user's children the memories name, by slug of name -> their relation key ("relation.daughter.ines")."""
    out: dict[str, str] = {}
    for key in existing:
        m = _KNOWN.match(key)
        if m and m.group("name") != "school":
            out.setdefault(m.group("name"), f"relation.{m.group('rel')}.{m.group('name')}")
    return out


_YEAR = re.compile(r"(?:\bis|'s|’s) in (?P<y>[\w ]{1,20}?) at\b", re.I)


def _emit(c: Clause, base: str, who: str, school: str) -> None:
    year = _YEAR.search(c.s)  # "is in Year 3 at X": the year group is told with the school
    said = f"is in {year.group('y')} at" if year else "goes to"
    c.emit(f"{base}.school", school, f"User's {who} {said} {school}.", kind=MemoryKind.PROFILE,
           keywords=f"school {who} child attends", metadata={"other_subject": True})  # the child's, changed only by theirs


def _school(c: Clause, m: Match | None) -> bool:
    s, kids = c.s, _children(c.run.ctx.existing)
    rel_m = _R_BY_RELATION.search(s)
    if rel_m and not re.search(r"['’]s\s*$", s[: rel_m.start("own")] + rel_m.group("own")):
        if re.search(r"\b\w+['’]s (?:(?:eldest|youngest|older|younger|little|oldest|middle) )?(?:" + _CHILD + r")\b",
                     s[: rel_m.end("rel")], re.I):
            return False  # "my friend's daughter X": their child
        rel, name = rel_m.group("rel").lower(), rel_m.group("name")
        base = f"relation.{rel}.{slug(name)}" if name else kids.get("", f"relation.{rel}")
        _emit(c, base, f"{rel} {name}" if name else rel, rel_m.group("v"))
        return True
    sib = _R_SIBLING.search(s)
    if sib and kids:
        rel = "son" if sib.group("rel").lower() == "brother" else "daughter"
        sib_name = str(sib.group("name"))
        _emit(c, f"relation.{rel}.{slug(sib_name)}", f"{rel} {sib_name}", sib.group("v"))
        return True
    for pat in (_SINCE, _R_BY_NAME):
        for nm in pat.finditer(s):
            kid = kids.get(slug(nm.group("name")))
            if kid is None and pat is _R_BY_NAME and _CHILDS_ONLY.search(nm.group("v")) and nm.start() == 0 \
                    and nm.group("name").split()[0].lower() not in P.NOT_NAMES | _PRONOUNS:
                kid = f"relation.child.{slug(nm.group('name'))}"  # a child the user has not named before
            if kid:
                _emit(c, kid, f"{kid.split('.')[1]} {nm.group('name')}", nm.group("v"))
                return True
    pro = _R_PRONOUN.search(s)
    with_school = {k.removesuffix(".school") for k in c.run.ctx.existing if k.endswith(".school") and _KNOWN.match(k)}
    if pro and len(with_school) == 1:
        base = next(iter(with_school))
        _emit(c, base, base.split(".", 1)[1].replace(".", " ").replace("_", " "), pro.group("v"))
        return True
    return False


SCHOOL_RULE = Rule(
    "child_school", MemoryKind.PROFILE, ("relation",), "User's {who} goes to {v}.", _school, importance=0.6,
    examples=(
        Example("Our daughter Ines attends Quarry Bank Primary.", "relation.daughter.ines.school", "Quarry Bank Primary"),
        Example("My friend's son goes to Elmwood Juniors."),
    ))
