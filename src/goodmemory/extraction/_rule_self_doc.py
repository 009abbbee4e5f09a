"""What the user hands over for a document about themselves or their business, and the pronouns they use.

A request is no statement, yet "Can you write me an email signature? Priya Natarajan (she/her), Senior Data Analyst"
hands over the user's pronouns, and "Draft a flyer for my bakery's Easter orders. Call or text 0117 496 0321 to
order." the business's phone number. In a turn that asks for a document about the user (a signature, a bio, a
profile, a CV) or their own business (a flyer, a caption, a listing), a pronoun set, a phone number or an email
address is the user's, unless the document is someone else's ("a bio for my colleague Dan (he/him)"). A pronoun
set the user says of themselves ("I use they/them now", "my pronouns are she/they") is theirs wherever it is said.
"""

from __future__ import annotations

import re

from ..models import MemoryKind
from ._engine import Clause, Example, Rule
from ._patterns import EMAIL, PHONE, RELATIONS

__all__ = ["PRONOUN_PAIR", "SELF_DOC_RULES"]

Match = re.Match[str]

PRONOUN_PAIR = _PAIR = (r"(?:she|he|they|xe|ze|fae|ey)/(?:her|hers|him|his|them|theirs|they|she|he|xem|xyr|zir|hir|faer|em)"
         r"(?:/(?:hers|his|theirs|them|her|him))?")
_PRONOUNS = re.compile(rf"\((?P<v>{_PAIR})\)|\b(?:my pronouns are|pronouns(?: to| are)?|i use|i go by|i'm|i am)\s+"
                       rf"(?:now\s+)?(?P<w>{_PAIR})\b", re.I)
# a document that presents the user or their own business
_DOC = re.compile(r"\b(?:(?:e-?mail )?signature|sig|bio|biography|intro(?:duction)?|profile|about (?:me|us|section)|cv|"
                  r"resume|résumé|cover letter|linkedin|headline|blurb|flyer|caption|poster|leaflet|listing|"
                  r"business card|website|description|menu|sign)\b", re.I)
# ... for someone else: a person of the user's life, or "his"/"her"/"their" (a pronoun set in brackets aside)
_PEOPLE = "|".join(sorted(RELATIONS | {"client", "team mate", "teammate"}, key=len, reverse=True))
_OTHERS = re.compile(rf"\bfor (?:my |our )?(?:\w+ )?(?:{_PEOPLE})\b|\b(?:my|our) (?:\w+ )?(?:{_PEOPLE})'s\b|"
                     r"\b(?:his|her|their|him|them)\b", re.I)
_BUSINESS = re.compile(r"\b(?:shop|cafe|café|bakery|salon|studio|business|office|store|restaurant|bar|practice|"
                       r"work|line)\b", re.I)


def _others(text: str) -> bool:
    return bool(_OTHERS.search(re.sub(_PAIR, " ", text, flags=re.I)))


def _pronouns(c: Clause, m: Match | None) -> bool:
    assert m
    said = bool(m.group("w"))  # "I use they/them now": the user's own words, in any turn
    if c.asks or (not said and not (_DOC.search(c.run.turn) and not _others(c.run.turn))) \
            or (said and _others(c.s[: m.start()])):
        return False
    v = (m.group("v") or m.group("w")).lower()
    c.emit("profile.pronouns", v, c.say(v=v), importance=0.7, keywords="pronouns")
    return True


def _handed_over(c: Clause, m: Match | None) -> bool:
    """A phone number or an email address in a turn asking for a document about the user or their business."""
    if c.asks or not _DOC.search(c.run.turn) or _others(c.run.turn) or re.search(r"\bmy\s+(?:new )?(?:e-?mail|"
                                                                                   r"phone|mobile|number)\s+is\b", c.s, re.I):
        return False  # "my number is X" is the phone rule's
    done = False
    for found in PHONE.finditer(c.s):
        v = found.group(0).strip()
        if 7 <= sum(ch.isdigit() for ch in v) <= 15:
            typ = "business" if _BUSINESS.search(c.run.turn) else None
            key = f"contact.phone.{typ}" if typ else "contact.phone"
            c.emit(key, v, f"User's {typ + ' ' if typ else ''}phone number is {v}.", keywords="phone number contact call")
            done = True
    for found in EMAIL.finditer(c.s):
        c.emit("contact.email", found.group(0), f"User's email address is {found.group(0)}.",
               keywords="email e-mail address contact")
        done = True
    return done


SELF_DOC_RULES: tuple[Rule, ...] = (
    Rule("pronouns", MemoryKind.PROFILE, ("pronouns",), "User goes by {v} pronouns.", _pronouns, pattern=_PRONOUNS,
         importance=0.7, examples=(Example("I use they/them now", "profile.pronouns", "they/them"),
                                   Example("What does he/him mean on a profile?"))),
    Rule("handed_over", MemoryKind.FACT, ("phone", "email"), "User's contact detail is {v}.", _handed_over,
         confidence=0.8, examples=(Example("Write me a LinkedIn headline and put my email at the end: sam.k@posteo.de",
                                           "contact.email", "sam.k@posteo.de"),
                                   Example("Draft an invitation for my sister's party, RSVP to her on 07700 900456"))),
)
