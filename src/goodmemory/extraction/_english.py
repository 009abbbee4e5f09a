"""Small English helpers of the rule extractor: third person, lemmas, objects, articles (no state)."""

from __future__ import annotations

import re

from ..taxonomy import content_words
from . import _patterns as P

__all__ = ["article", "conj", "lemma", "obj", "third"]

_PRON = re.compile(r"\b(?:i'm|i am|i've|i'll|i'd|i|me|my|mine|myself)\b", re.I)
_PRON_MAP = {"i'm": "they're", "i am": "they are", "i've": "they've", "i'll": "they'll", "i'd": "they'd",
             "i": "they", "me": "them", "my": "their", "mine": "theirs", "myself": "themselves"}
_IRREGULAR = {"paid": "pay", "sent": "send", "done": "do", "did": "do", "made": "make", "bought": "buy", "got": "get",
              "gotten": "get", "written": "write", "wrote": "write", "taken": "take", "took": "take", "found": "find",
              "told": "tell", "heard": "hear", "left": "leave", "given": "give", "gone": "go", "seen": "see",
              "sold": "sell", "chosen": "choose", "set": "set", "put": "put", "read": "read", "applied": "apply"}

# stems that lost a silent e before -ed: -ur (measure), consonant + l (handle), -dg/-rg (judge, charge),
# -ar but not -ear (prepare, not clear), -ns/-rs (license, nurse)
_SILENT_E = re.compile(r"(?:ur|[bcdfgkptz]l|dg|rg|(?<!e)ar|ns|rs)$")


def third(text: str) -> str:
    return _PRON.sub(lambda m: _PRON_MAP[m.group().lower()], text)


def conj(clause: str) -> str:
    """Third-person singular of the clause's first verb: ``check my bags`` -> ``checks their bags``."""
    head, _, rest = third(clause).partition(" ")
    low = head.lower()
    special = {"be": "is", "have": "has", "do": "does", "go": "goes", "don't": "doesn't", "can't": "can't"}
    if low in special:
        head = special[low]
    elif low.endswith(("s", "sh", "ch", "x", "z", "o")):
        head += "es"
    elif len(low) > 2 and low.endswith("y") and low[-2] not in "aeiou":
        head = head[:-1] + "ies"
    elif low.isalpha():
        head += "s"
    return f"{head} {rest}".strip()


def lemma(word: str) -> str:
    w = word.lower()
    if w in _IRREGULAR:
        return _IRREGULAR[w]
    if w.endswith("ied"):
        return w[:-3] + "y"
    if w.endswith("ed") and len(w) > 4:
        stem = w[:-2]
        if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "ls" or len(stem) > 5 and stem.endswith("ell"):
            return stem[:-1]  # "submitted" -> "submit", "cancelled" -> "cancel" ("called" keeps its ll)
        if stem.endswith(("at", "ut", "iz", "ul", "ir", "v", "c", "ag", "as", "us", "ng")) or (len(stem) <= 3 and stem.endswith("il")):
            return stem + ("" if stem.endswith("ng") and not stem.endswith("ang") else "e")
        if _SILENT_E.search(stem):  # "measured" -> "measure", "handled" -> "handle", "charged" -> "charge"
            return stem + "e"
        return stem
    return w


def obj(text: str, max_words: int = 8) -> str | None:
    v = P.OBJ_STOP.sub("", text.strip()).strip()
    v = P.OBJ_TAIL.sub("", v).strip(" .,!")
    words = v.lower().split()
    if not v or P.OBJ_REJECT.search(v) or len(words) > max_words or not content_words(v):
        return None
    if (len(words) == 1 and words[0] in P.LIKE_JUNK) or words[-1] in P.DANGLING:  # "I love live", "I like the"
        return None
    return v


def article(word: str) -> str:
    """"a" or "an" by the sound: an acronym by its first letter's name ("a UX researcher", "an MRI nurse")."""
    head = word.split()[0] if word.split() else word
    if len(head) >= 2 and head.isupper():
        return "an" if head[0] in "AEFHILMNORSX" else "a"
    return "an" if word[:1].lower() in "aeiou" else "a"
