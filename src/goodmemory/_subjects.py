"""The attribute a sentence names as its subject: "my usual is X", "our office is in Y" (pure).

A sentence whose subject is the user's own thing and whose verb is "is" names the attribute it gives a value of:
"My usual is an oat flat white" and, weeks later, "My usual's a black americano these days" are two values of
"my usual", however little the two read alike in meaning (the masked sentences of such pairs sit near 0.3, no
nearer than unrelated ones). The value's sort is the first word after the verb, so "my office is in X" and "my
office is on the third floor" stay two attributes. People and animals are left out: what the user says of their
sister ("is a nurse", "is a big fan of jazz") is many attributes, which the rules and the user's words keep.
"""

from __future__ import annotations

import re

from .extraction._patterns import RELATIONS

__all__ = ["named_subject"]

_SUBJECT = re.compile(
    r"^(?:(?:so|and|well|oh|anyway|btw|also|ok|okay|right)\W+)?(?:(?:my|our)\s+|(?=(?:next|new)\s))"
    r"((?:[a-z][\w\-]*\s+){0,2}?[a-z][\w\-]*)"  # up to three words, the fewest that reach the verb
    # where it is or for when, left out of the attribute ("my usual order at the bakery" is "my usual order", "my goal
    # this year" is "my goal"; "next goal is X" says the user's next one)
    r"(?:\s+(?:at|in|on|for|from)\s+(?:the\s+|my\s+|our\s+)?[a-z][\w\-]*(?:\s+[a-z][\w\-]*)?|"
    r"\s+(?:this|next|for the) (?:year|month|season|term|summer|winter|spring|autumn))?"
    r"(?:'s|’s|\s+is|\s+are|\s+was)\s+"
    r"(?:(?:now|still|currently|actually|just|basically|usually|mostly|always)\s+)*"
    r"([\w£$€]+)", re.I)
# a time is no attribute ("next week is busy", "my day was long")
_WHEN = frozenset({"time", "day", "days", "week", "weekend", "month", "year", "morning", "evening", "night", "summer",
                   "winter", "spring", "autumn", "holiday", "holidays"})
# words that qualify the attribute without naming another one ("my new number" is "my number")
_QUALIFIERS = frozenset({"new", "current", "old", "latest", "present", "previous", "own", "main", "next"})
_PREPOSITIONS = frozenset({"in", "at", "on", "with", "from", "near", "by", "off", "under", "over", "for"})
_ARTICLES = frozenset({"a", "an", "the", "my", "our", "this", "that", "one", "number", "no", "room", "flat", "unit"})
# the verb's object is no value: "my car is being serviced", "my flat was done up", "my back is killing me"
_NO_VALUE = re.compile(r"(?:ing|ed)$|^(?:not|no|going|gone|getting|got|being|been|also|too|there|here|about|like)$",
                       re.I)


def named_subject(text: str) -> tuple[str, str] | None:
    """``(attribute, sort of value)`` of a sentence "my <attribute> is <value>", or None.

    The sort is "thing" (an article, a name, a number), the preposition the value follows ("in", "at", ...), or
    "word" (anything else, an adjective): "My office is in Canary Wharf" -> ("office", "in")."""
    m = _SUBJECT.match(text.strip())
    if m is None:
        return None
    words = [w for w in m.group(1).lower().split() if w not in _QUALIFIERS]
    if not words or words[-1].rstrip("s") in RELATIONS or words[-1] in RELATIONS or words[-1] in _WHEN:
        return None
    first = m.group(2)
    low = first.lower()
    if _NO_VALUE.search(low):
        return None
    if low in _ARTICLES or first[:1].isupper() or first[:1].isdigit() or first[:1] in "£$€":
        sort = "thing"
    elif low in _PREPOSITIONS:
        sort = low
    else:
        sort = "word"
    return " ".join(words), sort
