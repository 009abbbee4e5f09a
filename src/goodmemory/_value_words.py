"""The words of a value that say which it is: names and numbers, and the words that only say when (pure).

Shared by the write policy (``merge``) and the marks of outdated turns: whether a word names a value ("Skoda",
"07700 900456") or only says when ("Tuesday", "March", "10:30"), which a change of an attribute reads.
"""

from __future__ import annotations

import re

__all__: list[str] = []

_NAME_WORD = re.compile(r"[A-Za-z][\w'\-]*|\d[\w.,:\-]*")


# capitals that are common nouns, not names ("failed its MOT", "on TV", "my GP", "the ATM"): no value of their own
_COMMON_CAPS = frozenset(["mot", "nct", "dmv", "tv", "pc", "id", "gp", "atm", "pin", "sim", "pdf", "usb", "wifi", "ok",
                          "cv", "hr", "mri", "ct", "er", "icu", "eta", "faq", "diy", "bbq", "asap", "fyi", "btw", "dm",
                          "gps"])


def _values_in(text: str) -> set[str]:
    """The names and numbers of ``text`` (capitalised words after its first, words with a digit)."""
    return {w.lower().strip(".,") for i, w in enumerate(_NAME_WORD.findall(text))
            if any(ch.isdigit() for ch in w) or (i > 0 and w[0].isupper() and w != "I" and not w.startswith("I'")
                                                 and w.lower().strip(".,") not in _COMMON_CAPS)}


_MONTH_NAMES = frozenset(["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"])
_SEASONS = frozenset(["easter", "christmas", "xmas", "halloween", "thanksgiving", "spring", "summer", "autumn", "winter"])
_DAY_NAMES = frozenset(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mondays", "tuesdays", "wednesdays", "thursdays", "fridays", "saturdays", "sundays"])


def _sort(value: str) -> str | None:
    """What sort of value a word is: a time, a month, a weekday, a number or a name."""
    if re.fullmatch(r"\d{1,2}[:.]\d{2}", value):
        return "time"
    if value in _MONTH_NAMES:
        return "month"
    if value in _DAY_NAMES:
        return "day"
    if value in _SEASONS:  # "at Easter", "over Christmas": when, like a month
        return "month"
    if any(ch.isdigit() for ch in value):
        return "number"
    return "name" if len(value) >= 3 else None


_WHEN_SORTS = frozenset(["time", "month", "day"])


def _named_by_name(named: set[str], old: str, said: str) -> bool:
    """Whether a word of ``named`` is a name or a number: capitalised where either text says it, or with a digit."""
    caps = {w.lower().removesuffix("'s") for w in _NAME_WORD.findall(f"{old} {said}") if w[0].isupper() and w != "I"
            and not w.startswith("I'")}
    # a weekday or a month says when, not which ("the Tuesday market" names no "choir on Tuesday nights")
    return any((w in caps and _sort(w) not in _WHEN_SORTS) or any(ch.isdigit() for ch in w) for w in named)
