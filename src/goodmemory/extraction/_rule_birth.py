"""News of the user's life: a new baby, a new partner, a new job, how long they have lived where they live.

A baby's arrival: a new member of the user's family, named ("Baby Maya arrived on Tuesday!", "Our little boy Finn
was born last night", "We had a baby girl on Sunday, Rosa"), said with or without "I". Someone else's baby ("my
sister's baby Leo") and a baby without a name are none.

A partner the user is dating: "Sam (the guy I've been seeing since August)", "I've been dating Noor for a few
months". Someone else's ("my sister's been seeing Tom"), a clinician ("I've been seeing Dr Shah") and a meeting
("I'm seeing Anna on Friday") are none.

A job's first days, told without "I": "First week at Northwind done!!", "Started at Brightwater on Monday". A place
whose name says it is a school, a gym or a clinic is no employer ("First week at Hillcrest Academy").

How long the user has lived somewhere says where they live: "I've lived in Porto for six years", "we've been living
in Cardiff for two months now", "we've been in Leeds three weeks now". Being somewhere for days is a trip ("I've
been in Rome for three days"), and so is "been in X" without "now" or "since"; someone else's is none."""

from __future__ import annotations

import re

from ..models import MemoryKind
from ..taxonomy import slot_key
from ._engine import Clause, Example, Rule
from ._patterns import NOT_PLACES, ORG, PLACE

__all__ = ["BIRTH_RULE", "DATING_RULE", "FIRST_DAYS_RULE", "LIVED_RULE"]

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


_WHO = {"guy": "boyfriend", "man": "boyfriend", "bloke": "boyfriend", "girl": "girlfriend", "woman": "girlfriend",
        "lady": "girlfriend"}
_R_DATING = re.compile(
    r"(?P<name>" + _NAME + r")\s*[,(\u2014\-]\s*(?:the|this) (?P<who>guy|man|bloke|girl|woman|lady|person) (?:i'?ve been|"
    r"i have been|i'?m|i am) (?:seeing|dating)\b"
    r"|\b(?:i'?ve been|i have been|i'?m|i am|i'?ve started|i started) (?:dating|seeing) (?:a (?:guy|girl|man|woman) "
    r"(?:called|named) |someone (?:called|named) )?(?P<name2>" + _NAME + r")\b(?!\.)(?! (?:on|at|tomorrow|tonight|"
    r"later|next|this|about|for (?:coffee|lunch|dinner|drinks?|a drink|a chat|a catch-up))\b)"
    # "seeing someone new, his name is Luca", "met someone lovely, her name's Ines"
    r"|(?:^\W*|\bi\s+(?:just\s+|finally\s+)?|\bi'?ve\s+(?:been\s+)?|\bi'?m\s+|\bi am\s+)(?:met|seeing|dating) someone"
    r"(?: new| lovely| great| special| nice)?,?\s*(?:and\s+)?(?:his|her|their) name(?:'s| is) (?P<name3>" + _NAME + r")\b"
    # "a gift idea for Iker, we are together since september", "Dana and I have been together for two years"
    r"|(?P<name4>" + _NAME + r")\b[^.!?]{0,25}?,\s*(?:we|we'?re|we are|we'?ve|we have)\s+(?:been\s+)?together\s+"
    r"(?:since|for)\b"
    r"|\b(?:me|i) and (?P<name5>" + _NAME + r") (?:are|have been|'ve been) together (?:since|for)\b", re.I)


def _dating(c: Clause, m: Match | None) -> bool:
    assert m
    name = m.group("name") or m.group("name2") or m.group("name3") or m.group("name4") or m.group("name5")
    if name.lower() in ("dr", "mr", "mrs", "ms", "prof", "someone", "a", "the", "hi", "hey", "so", "and", "but") or (
            m.group("name2") and "seeing" in m.group(0).lower() and not re.search(r"\bbeen seeing\b", m.group(0), re.I)):
        return False  # "I'm seeing Anna": a meeting as often as a partner
    role = _WHO.get((m.group("who") or "").lower(), "partner")
    c.emit(f"relation.{role}", name, f"User is dating {name}.", importance=0.7,
           keywords=f"partner dating relationship {role} {name}")
    return True


DATING_RULE = Rule("dating", MemoryKind.PROFILE, ("relation",), "User is dating {v}.", _dating, pattern=_R_DATING,
                   importance=0.7, examples=(Example("I've been dating Noor for a few months", "relation.partner", "Noor"),
                                             Example("I'm seeing Anna on Friday for coffee")))


_R_FIRST_DAYS = re.compile(
    r"^\W*(?:(?:so|ok|and|well|phew|finally|yay)\W+)*(?:my |the )?(?:first|1st) (?:day|week|month|shift|fortnight) "
    r"(?:at|with) (?P<v>" + ORG + r")|^\W*(?:(?:so|and|finally|just|officially)\W+)*started (?:work |my new job |a new job )?"
    r"(?:at|with) (?P<v2>" + ORG + r")", re.I)
_NOT_A_JOB = re.compile(r"\b(?:Gym|Fitness|Academy|School|Primary|High|College|University|Uni|Nursery|Clinic|Surgery|"
                        r"Hospital|Club|Camp)\b")


def _first_days(c: Clause, m: Match | None) -> bool:
    assert m
    v = (m.group("v") or m.group("v2")).rstrip(".!")
    v = re.split(r"\s+(?-i:[a-z])", v)[0]
    if _NOT_A_JOB.search(v) or v.split()[0].lower() in ("the", "a", "my", "uni", "school", "work"):
        return False
    c.emit("profile.employer", v, f"User works at {v}.", importance=0.7, keywords="employer company job works at new job")
    return True


FIRST_DAYS_RULE = Rule("first_days", MemoryKind.PROFILE, ("employer",), "User works at {v}.", _first_days,
                       pattern=_R_FIRST_DAYS, importance=0.7,
                       examples=(Example("First week at Northwind done!!", "profile.employer", "Northwind"),
                                 Example("First week at Hillcrest Academy went well for Ruby")))


_SPAN = (r"(?:for\s+)?(?:(?:about|nearly|almost|over|just over|a few|a couple of|several|\d+|one|two|three|four|five|"
         r"six|seven|eight|nine|ten|eleven|twelve|a|an)\s+)+(?P<unit>days?|weeks?|months?|years?)")
_R_LIVED = re.compile(
    r"(?:\b(?:i'?ve|we'?ve|i have|we have)\s+|^\W*(?:(?:so|ok|and|well)\W+)*)(?P<verb>lived|been living|been based|"
    r"been)\s+in\s+(?P<v>" + PLACE + r")\s+(?:" + _SPAN + r"(?P<now>\s+now)?|since\s+(?P<since>(?:19|20)\d\d|january|february|march|april|may|june|july|august|"
    r"september|october|november|december|last year|the (?:spring|summer|autumn|fall|winter)|i was|we were|we moved|"
    r"i moved|uni|university|school))", re.I)


def _lived(c: Clause, m: Match | None) -> bool:
    assert m
    v = m.group("v").rstrip(".")
    unit = (m.group("unit") or "").lower()
    plain = m.group("verb").lower() == "been"
    if v.split()[0].lower() in NOT_PLACES or unit.startswith("day") or (plain and not (m.group("now") or m.group("since"))):
        return False  # "I've been in Rome for three days": a trip
    c.emit("profile.home_city", v, f"User lives in {v}.", importance=0.7,
           keywords="lives home city location based town")
    return True


LIVED_RULE = Rule("lived", MemoryKind.PROFILE, ("home_city",), "User lives in {v}.", _lived, pattern=_R_LIVED,
                  importance=0.7, examples=(Example("I've lived in Porto for six years", "profile.home_city", "Porto"),
                                            Example("I've been in Rome for three days and it's been amazing")))
