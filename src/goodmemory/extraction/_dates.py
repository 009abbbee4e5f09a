"""Dates of the rule extractor: find the first date expression in a text and resolve it against a reference time."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

__all__ = ["When", "resolve_when"]

I = re.IGNORECASE  # noqa: E741

_MONTHS = {
    m: i
    for i, names in enumerate(
        (
            ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
            ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
            ("october", "oct"), ("november", "nov"), ("december", "dec"),
        ),
        start=1,
    )
    for m in names
}
_WEEKDAYS = {d: i for i, d in enumerate(("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"))}
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "ten": 10}
_MON = r"(?P<mon>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_WD = r"(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_DATE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("iso", re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})\b")),
    ("md", re.compile(r"\b" + _MON + r" (?P<d>\d{1,2})(?:st|nd|rd|th)?(?:,? (?P<y>\d{4}))?\b", I)),
    ("dm", re.compile(r"\b(?:the )?(?P<d>\d{1,2})(?:st|nd|rd|th)? (?:of )?" + _MON + r"(?:,? (?P<y>\d{4}))?\b", I)),
    ("slash", re.compile(r"\b(?P<m>\d{1,2})/(?P<d>\d{1,2})(?:/(?P<y>\d{2}|\d{4}))?\b")),
    ("rel", re.compile(r"\b(?P<rel>the day after tomorrow|today|tonight|tomorrow|yesterday)\b", I)),
    ("wd", re.compile(r"\b(?:(?P<mod>next|this|coming|this coming|on)\s+)?" + _WD + r"\b", I)),
    ("in", re.compile(r"\bin (?P<n>\d{1,3}|a|an|one|two|three|four|five|six|seven|ten) (?P<unit>day|week|month)s?\b", I)),
    ("period", re.compile(r"\b(?P<mod>next|this|end of (?:the|this)?|by the end of (?:the|this)?)\s*(?P<unit>week|month|weekend)\b", I)),
    ("nth", re.compile(r"\b(?:on )?the (?P<d>\d{1,2})(?:st|nd|rd|th)\b", I)),
)
_TIME = re.compile(
    r"\b(?:at |@ ?|by )?(?P<h>\d{1,2})(?::(?P<mi>\d{2}))? ?(?P<ap>a\.?m\.?|p\.?m\.?)(?!\w)|\bat (?P<h2>\d{1,2}):(?P<mi2>\d{2})\b|\b(?:at )?(?P<word>noon|midday|midnight)\b",
    I,
)


@dataclass(frozen=True)
class When:
    """A resolved date (and optional ``HH:MM`` time) and the text span it came from."""

    day: date
    time: str | None
    start: int
    end: int

    @property
    def iso(self) -> str:
        return self.day.isoformat() + (f"T{self.time}" if self.time else "")

    @property
    def phrase(self) -> str:
        return self.day.isoformat() + (f" at {self.time}" if self.time else "")


def _safe_date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _add_months(d: date, n: int) -> date:
    m = d.month - 1 + n
    y, m = d.year + m // 12, m % 12 + 1
    for day in (d.day, 30, 29, 28):
        got = _safe_date(y, m, day)
        if got:
            return got
    return d


def _resolve_match(kind: str, m: re.Match[str], today: date, future: bool) -> date | None:
    g = m.groupdict()
    if kind in ("iso", "md", "dm", "slash"):
        month = _MONTHS[g["mon"].lower()] if g.get("mon") else int(g["m"])
        year = int(g["y"]) if g.get("y") else None
        if year is not None and year < 100:
            year += 2000
        got = _safe_date(year or today.year, month, int(g["d"]))
        if got and year is None and future and got < today:
            got = _safe_date(today.year + 1, month, int(g["d"]))
        return got
    if kind == "rel":
        offset = {"today": 0, "tonight": 0, "tomorrow": 1, "yesterday": -1}.get(g["rel"].lower(), 2)
        return today + timedelta(days=offset)
    if kind == "wd":
        target = _WEEKDAYS[g["wd"].lower()]
        ahead = (target - today.weekday()) % 7
        if (g.get("mod") or "").lower() == "next" and ahead == 0:
            ahead = 7
        return today + timedelta(days=ahead)
    if kind == "in":
        raw = g["n"].lower()
        n = int(raw) if raw.isdigit() else _NUMBERS.get(raw, 1)
        unit = g["unit"].lower()
        return _add_months(today, n) if unit == "month" else today + timedelta(days=n * (7 if unit == "week" else 1))
    if kind == "period":
        mod, unit = g["mod"].lower(), g["unit"].lower()
        if unit == "month":
            if mod.startswith(("end", "by")):
                return _add_months(today.replace(day=1), 1) - timedelta(days=1)
            return _add_months(today, 1) if mod == "next" else None
        friday = today + timedelta(days=(4 - today.weekday()) % 7)
        if unit == "weekend":
            friday += timedelta(days=1)
        if mod == "next":
            return friday + timedelta(days=7) if unit == "weekend" else today + timedelta(days=7 - today.weekday())
        return friday if mod.startswith(("end", "by")) or unit == "weekend" else None
    if kind == "nth":
        got = _safe_date(today.year, today.month, int(g["d"]))
        if got and future and got < today:
            nxt = _add_months(today.replace(day=1), 1)
            got = _safe_date(nxt.year, nxt.month, int(g["d"]))
        return got
    return None


def resolve_when(text: str, ref: datetime, *, future: bool = True) -> When | None:
    """Find the first date expression in ``text`` and resolve it against ``ref``."""
    today = ref.date()
    best: tuple[int, str, re.Match[str]] | None = None
    for kind, pattern in _DATE_PATTERNS:
        m = pattern.search(text)
        if m and (best is None or m.start() < best[0]):
            best = (m.start(), kind, m)
    if best is None:
        return None
    _, kind, m = best
    day = _resolve_match(kind, m, today, future)
    if day is None:
        return None
    time: str | None = None
    start, end = m.start(), m.end()
    t = _TIME.search(text)
    if t:
        if t.group("word"):
            time = "00:00" if t.group("word").lower() == "midnight" else "12:00"
        else:
            h = int(t.group("h") or t.group("h2"))
            mi = int(t.group("mi") or t.group("mi2") or 0)
            ap = (t.group("ap") or "").lower()
            if ap.startswith("p") and h < 12:
                h += 12
            elif ap.startswith("a") and h == 12:
                h = 0
            if h < 24 and mi < 60:
                time = f"{h:02d}:{mi:02d}"
        start, end = min(start, t.start()), max(end, t.end())
    return When(day, time, start, end)
