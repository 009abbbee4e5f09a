"""Dates written in text (pure): one grammar for the write path and the read path.

The vocabulary (month names and their abbreviations, weekdays, number words) and the patterns of
calendar dates ("2024-01-05", "Jan 5, 2024", "the 3rd of June", "3/1"), of dates relative to a
reference day ("tomorrow", "next Tuesday", "in two weeks", "end of the month", "the 3rd") and of
"N units ago" live here once. What a date without a year means depends on what is said:

- ``"future"``: a plan ("my appointment is on March 3") is the next such day, today included;
- ``"past"``: a question about what happened ("what did I say on March 3?") is the latest such day,
  today included;
- ``"as_written"``: this year's (this month's for "the 3rd").

The extractor resolves the first expression of a turn to one day (``find_date``); routing turns
calendar dates and "ago" phrases of a question into windows (``calendar_date``, ``find_ago``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

__all__ = ["MONTH", "MONTHS", "NUMBERS", "WEEKDAYS", "Ago", "DateMatch", "Lean", "TimeOfDay", "add_months",
           "calendar_date", "find_ago", "find_date", "find_time", "month_number", "number"]

Lean = Literal["future", "past", "as_written"]

I = re.IGNORECASE  # noqa: E741

MONTHS: dict[str, int] = {
    name: i
    for i, names in enumerate(
        (
            ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
            ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
            ("october", "oct"), ("november", "nov"), ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
WEEKDAYS: dict[str, int] = {
    d: i for i, d in enumerate(("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"))
}
NUMBERS: dict[str, int] = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                           "seven": 7, "eight": 8, "nine": 9, "ten": 10, "couple of": 2, "few": 3}

# a month name or abbreviation ("Sept." too), as one capturing group
MONTH = "(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_MON = r"(?P<mon>" + MONTH[1:]
_WD = r"(?P<wd>" + "|".join(WEEKDAYS) + ")"
_N = r"(?P<n>\d{1,3}|" + "|".join(sorted(NUMBERS, key=len, reverse=True)) + ")"
_YEAR = r"(?:,?\s+(?P<y>\d{4}))?"

_CALENDAR: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("iso", re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})\b")),
    ("md", re.compile(r"\b" + _MON + r"\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?\b" + _YEAR + r"\b", I)),
    ("dm", re.compile(r"\b(?:the\s+)?(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MON + _YEAR + r"\b", I)),
    ("slash", re.compile(r"\b(?P<m>\d{1,2})/(?P<d>\d{1,2})(?:/(?P<y>\d{2}|\d{4}))?\b")),
)
_RELATIVE: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("rel", re.compile(r"\b(?P<rel>the day after tomorrow|today|tonight|tomorrow|yesterday)\b", I)),
    ("wd", re.compile(r"\b(?:(?P<mod>next|this|coming|this coming|on)\s+)?" + _WD + r"\b", I)),
    ("in", re.compile(r"\bin\s+(?:a\s+(?=couple|few))?" + _N + r"\s+(?P<unit>day|week|month)s?\b", I)),
    ("period", re.compile(
        r"\b(?P<mod>next|this|end of (?:the|this)?|by the end of (?:the|this)?)\s*(?P<unit>week|month|weekend)\b", I)),
    # "the 9th" alone: the next such day ("the 9th of August" is the day-month pattern's)
    ("nth", re.compile(r"\b(?:on )?the (?P<d>\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?" + _MON + r")", I)),
)
_AGO = re.compile(r"\b" + _N.replace(r"\d{1,3}", r"\d+") + r"\s+(?P<unit>day|week|month|year)s?\s+ago\b", I)
_TIME = re.compile(
    r"\b(?:at |@ ?|by )?(?P<h>\d{1,2})(?::(?P<mi>\d{2}))? ?(?P<ap>a\.?m\.?|p\.?m\.?)(?!\w)"
    r"|\bat (?P<h2>\d{1,2}):(?P<mi2>\d{2})\b|\b(?:at )?(?P<word>noon|midday|midnight)\b",
    I,
)


@dataclass(frozen=True)
class DateMatch:
    """A date expression found in a text: the day it means (None when there is no such day, "February
    30"), its span and which pattern read it (``iso``, ``md``, ``dm``, ``slash``, ``rel``, ``wd``, ``in``,
    ``period``, ``nth``)."""

    day: date | None
    start: int
    end: int
    kind: str
    year_given: bool = False


@dataclass(frozen=True)
class Ago:
    """"two weeks ago": how many of which unit (``day``, ``week``, ``month``, ``year``), and the span."""

    n: int
    unit: str
    start: int
    end: int


@dataclass(frozen=True)
class TimeOfDay:
    """A clock time (``HH:MM``, 24 hours; None when out of range, "25pm") and its span."""

    hhmm: str | None
    start: int
    end: int


def month_number(name: str) -> int:
    """1..12 for a month name or abbreviation, any case, with or without a final dot."""
    return MONTHS[name.lower().rstrip(".")]


def number(word: str) -> int:
    """A count written in digits or words ("3", "three", "a couple of")."""
    w = " ".join(word.lower().split())
    return int(w) if w.isdigit() else NUMBERS[w]


def _safe_date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def add_months(d: date, n: int) -> date:
    """The same day ``n`` months on, or the month's last day when it is shorter (Jan 31 + 1 -> Feb 28)."""
    m = d.month - 1 + n
    y, m = d.year + m // 12, m % 12 + 1
    for day in (d.day, 30, 29, 28):
        got = _safe_date(y, m, day)
        if got:
            return got
    return d


def _first(patterns: tuple[tuple[str, re.Pattern[str]], ...], text: str) -> tuple[str, re.Match[str]] | None:
    best: tuple[str, re.Match[str]] | None = None
    for kind, pattern in patterns:
        m = pattern.search(text)
        if m and (best is None or m.start() < best[1].start()):
            best = (kind, m)
    return best


def _calendar_day(m: re.Match[str], today: date, lean: Lean) -> date | None:
    g = m.groupdict()
    month = month_number(g["mon"]) if g.get("mon") else int(g["m"])
    year = int(g["y"]) if g.get("y") else None
    if year is not None:
        return _safe_date(year + 2000 if year < 100 else year, month, int(g["d"]))
    got = _safe_date(today.year, month, int(g["d"]))
    if got and lean == "future" and got < today:
        return _safe_date(today.year + 1, month, int(g["d"]))
    if got and lean == "past" and got > today:
        return _safe_date(today.year - 1, month, int(g["d"]))
    return got


def _relative_day(kind: str, g: dict[str, str | None], today: date, lean: Lean) -> date | None:
    if kind == "rel":
        offset = {"today": 0, "tonight": 0, "tomorrow": 1, "yesterday": -1}.get(str(g["rel"]).lower(), 2)
        return today + timedelta(days=offset)
    if kind == "wd":
        ahead = (WEEKDAYS[str(g["wd"]).lower()] - today.weekday()) % 7
        if (g.get("mod") or "").lower() == "next" and ahead == 0:
            ahead = 7
        return today + timedelta(days=ahead)
    if kind == "in":
        n, unit = number(str(g["n"])), str(g["unit"]).lower()
        return add_months(today, n) if unit == "month" else today + timedelta(days=n * (7 if unit == "week" else 1))
    if kind == "period":
        mod, unit = str(g["mod"]).lower(), str(g["unit"]).lower()
        if unit == "month":
            if mod.startswith(("end", "by")):
                return add_months(today.replace(day=1), 1) - timedelta(days=1)
            return add_months(today, 1) if mod == "next" else None
        friday = today + timedelta(days=(4 - today.weekday()) % 7)
        if unit == "weekend":
            friday += timedelta(days=1)
        if mod == "next":
            return friday + timedelta(days=7) if unit == "weekend" else today + timedelta(days=7 - today.weekday())
        return friday if mod.startswith(("end", "by")) or unit == "weekend" else None
    # "the 3rd": this month's, or next month's when it is past and a plan is meant
    got = _safe_date(today.year, today.month, int(str(g["d"])))
    if got and lean == "future" and got < today:
        nxt = add_months(today.replace(day=1), 1)
        got = _safe_date(nxt.year, nxt.month, int(str(g["d"])))
    return got


def calendar_date(text: str, today: date, *, lean: Lean = "past") -> DateMatch | None:
    """The first calendar date written in ``text`` ("2024-01-05", "Jan 5, 2024", "5th of January", "1/5")."""
    found = _first(_CALENDAR, text)
    if found is None:
        return None
    kind, m = found
    return DateMatch(_calendar_day(m, today, lean), m.start(), m.end(), kind, year_given=bool(m.group("y")))


_WEEKDAY_GAP = re.compile(r",?\s*(?:the\s+)?", re.I)


def find_date(text: str, today: date, *, lean: Lean = "future") -> DateMatch | None:
    """The first date expression in ``text``, calendar or relative to ``today``."""
    found = _first(_CALENDAR + _RELATIVE, text)
    if found is None:
        return None
    kind, m = found
    if kind == "wd":
        # "Tuesday 3 June", "Friday, the 11th of July": the calendar date the weekday names is the day
        dated = _first(_CALENDAR, text[m.end():])
        if dated is not None and _WEEKDAY_GAP.fullmatch(text[m.end():m.end() + dated[1].start()]):
            d = dated[1]
            return DateMatch(_calendar_day(d, today, lean), m.start(), m.end() + d.end(), dated[0],
                             year_given=bool(d.group("y")))
    if kind in dict(_CALENDAR):
        return DateMatch(_calendar_day(m, today, lean), m.start(), m.end(), kind, year_given=bool(m.group("y")))
    return DateMatch(_relative_day(kind, m.groupdict(), today, lean), m.start(), m.end(), kind)


def find_ago(text: str) -> Ago | None:
    """The first "N units ago" in ``text`` ("two weeks ago", "a couple of days ago", "10 years ago")."""
    m = _AGO.search(text)
    if m is None:
        return None
    return Ago(number(m.group("n")), m.group("unit").lower(), m.start(), m.end())


def find_time(text: str) -> TimeOfDay | None:
    """The first clock time in ``text`` ("at 3pm", "9:30 a.m.", "at 14:30", "noon")."""
    t = _TIME.search(text)
    if t is None:
        return None
    if t.group("word"):
        return TimeOfDay("00:00" if t.group("word").lower() == "midnight" else "12:00", t.start(), t.end())
    h = int(t.group("h") or t.group("h2"))
    mi = int(t.group("mi") or t.group("mi2") or 0)
    ap = (t.group("ap") or "").lower()
    if ap.startswith("p") and h < 12:
        h += 12
    elif ap.startswith("a") and h == 12:
        h = 0
    return TimeOfDay(f"{h:02d}:{mi:02d}" if h < 24 and mi < 60 else None, t.start(), t.end())
