"""Query planning (pure): intent, kind weights, domain, time window and k.

The plan is data; ranking reads it. Intent detection is lexical on purpose:
cheap, deterministic, explainable in the hit's ``reasons``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum

from ._key_families import family_by_name
from .dates import MONTH, DateMatch, calendar_date, find_ago, month_number
from .models import MemoryKind
from .text import STOPWORDS

__all__ = ["Intent", "QueryPlan", "TimeWindow", "asks_about_time", "parse_time_window", "plan_query"]


class Intent(StrEnum):
    IDENTITY = "identity"
    PREFERENCE = "preference"
    FACT_LOOKUP = "fact_lookup"
    TASK_CONTINUATION = "task_continuation"
    TEMPORAL = "temporal"
    GENERAL = "general"


@dataclass(frozen=True)
class TimeWindow:
    start: datetime
    end: datetime
    phrase: str

    def contains(self, t: datetime) -> bool:
        return self.start <= t < self.end


@dataclass(frozen=True)
class QueryPlan:
    query: str
    intent: Intent
    kind_weights: dict[MemoryKind, float]
    domain: str | None
    window: TimeWindow | None
    k: int
    kinds: tuple[MemoryKind, ...] | None = None
    signals: list[str] = field(default_factory=list)
    key_hints: tuple[str, ...] = ()
    names: tuple[str, ...] = ()  # people (or places) the question names, lowercased
    meaning_text: str = ""  # what the vector channel embeds (see meaning_text())

    def as_dict(self) -> dict[str, object]:
        return {
            "intent": self.intent.value,
            "kind_weights": {k.value: v for k, v in self.kind_weights.items()},
            "domain": self.domain,
            "window": None if self.window is None else [self.window.start.isoformat(), self.window.end.isoformat(),
                                                        self.window.phrase],
            "k": self.k,
            "signals": self.signals,
            "key_hints": list(self.key_hints),
            "names": list(self.names),
            "meaning_text": self.meaning_text,
        }


_INTENT_PATTERNS: list[tuple[Intent, re.Pattern[str]]] = [
    (Intent.TASK_CONTINUATION, re.compile(
        r"\b(where were we|pick (it |this )?up|continue|left off|status of|progress|next steps?|follow[- ]up|"
        r"still (need|waiting)|open (tasks?|questions?|items?)|to-?do|remind me|unfinished|pending|resume|"
        r"how('s| is) .* going|any update)\b", re.I)),
    (Intent.IDENTITY, re.compile(
        r"\b(who am i|about me|my (name|job|occupation|profession|role|background|family|age|employer|"
        r"hometown|city)|where do i (live|work)|what do i do)\b", re.I)),
    (Intent.PREFERENCE, re.compile(
        r"\b(prefer|preferences?|favou?rite|like|recommend|suggest|plan (my|a|the)|ideas? for|should i|"
        r"what kind|which .* (best|better)|style|format)\b", re.I)),
    (Intent.TEMPORAL, re.compile(
        r"\b(when|what (day|date|time)|how long ago|last (week|month|year|time)|yesterday|ago|"
        r"in (january|february|march|april|may|june|july|august|september|october|november|december))\b", re.I)),
    (Intent.FACT_LOOKUP, re.compile(
        r"\b(what('s| is| was) my|number|code|account|policy|claim|order|booking|confirmation|reference|ticket|"
        r"plate|address|phone|email|id|appointment|deadline|amount|balance)\b", re.I)),
]

_WEIGHTS: dict[Intent, dict[MemoryKind, float]] = {
    Intent.IDENTITY: {MemoryKind.PROFILE: 1.6, MemoryKind.PREFERENCE: 1.0, MemoryKind.FACT: 1.0,
                      MemoryKind.PROCEDURE: 0.8, MemoryKind.OPEN_LOOP: 0.8, MemoryKind.EPISODE: 0.7},
    Intent.PREFERENCE: {MemoryKind.PROFILE: 1.1, MemoryKind.PREFERENCE: 1.6, MemoryKind.FACT: 1.0,
                        MemoryKind.PROCEDURE: 1.3, MemoryKind.OPEN_LOOP: 0.9, MemoryKind.EPISODE: 0.8},
    Intent.FACT_LOOKUP: {MemoryKind.PROFILE: 1.0, MemoryKind.PREFERENCE: 0.8, MemoryKind.FACT: 1.6,
                         MemoryKind.PROCEDURE: 0.8, MemoryKind.OPEN_LOOP: 1.0, MemoryKind.EPISODE: 1.0},
    Intent.TASK_CONTINUATION: {MemoryKind.PROFILE: 0.9, MemoryKind.PREFERENCE: 0.9, MemoryKind.FACT: 1.1,
                               MemoryKind.PROCEDURE: 1.1, MemoryKind.OPEN_LOOP: 1.7, MemoryKind.EPISODE: 1.1},
    Intent.TEMPORAL: {MemoryKind.PROFILE: 0.8, MemoryKind.PREFERENCE: 0.8, MemoryKind.FACT: 1.3,
                      MemoryKind.PROCEDURE: 0.8, MemoryKind.OPEN_LOOP: 1.1, MemoryKind.EPISODE: 1.3},
    Intent.GENERAL: {MemoryKind.PROFILE: 1.1, MemoryKind.PREFERENCE: 1.1, MemoryKind.FACT: 1.1,
                     MemoryKind.PROCEDURE: 1.0, MemoryKind.OPEN_LOOP: 1.1, MemoryKind.EPISODE: 1.0},
}

# Words of a question that point at key families (_key_families.py names them and their key prefixes): a family
# name stands for all of its prefixes, "family:prefix" for one of them (the identifier family holds every kind of
# number). The prefixes come from the registry, so a hint always matches the keys the write path files under
# that family (flights are written as travel.flight.*, which a hand-written "flight." never matched).
_HINT_FAMILIES: list[tuple[re.Pattern[str], tuple[str, ...]]] = [
    (re.compile(r"\b(cars?|vehicles?|autos?|trucks?|motorbikes?|plates?|vin)\b", re.I), ("vehicle",)),
    (re.compile(r"\b(services?|scheduled|schedule|appointments?|booked|bookings?|reservations?|visits?)\b", re.I),
     ("appointment", "identifier:confirmation", "booking", "reservation")),
    (re.compile(r"\b(insurance|insured|policy|policies|coverage|claims?)\b", re.I),
     ("identifier:policy", "identifier:claim", "insurance")),
    (re.compile(r"\b(bank|banking|accounts?|routing|deposit|checking|savings)\b", re.I), ("account:account", "bank")),
    (re.compile(r"\b(cards?|credit|debit)\b", re.I), ("account:card",)),
    (re.compile(r"\b(flights?|trips?|travel|travell?ing|hotels?|passport)\b", re.I),
     ("booking", "identifier:confirmation", "reservation", "expiry:passport")),
    (re.compile(r"\b(doctor|medical|medications?|prescriptions?|allerg\w*)\b", re.I),
     ("appointment", "medication", "allergy")),
    (re.compile(r"\b(orders?|deliver\w*|shipping|tracking|warranty|purchases?)\b", re.I),
     ("identifier:order", "identifier:tracking", "identifier:warranty", "possession:purchase")),
    (re.compile(r"\b(email|phone|contact|address)\b", re.I), ("phone", "email", "address")),
    # what the user cannot or will not eat matters wherever food comes up (an allergy said while cooking
    # must reach a restaurant booking in travel)
    (re.compile(r"\b(restaurants?|dinner|lunch|breakfast|brunch|meals?|food|foods|eat|eating|cook|cooking|recipes?|"
                r"menus?|dish|dishes|takeaway|takeout|snacks?|cater\w*|groceries|bake|baking|cafe|café)\b", re.I),
     ("diet", "diet_avoid", "allergy")),
    (re.compile(r"\b(laptops?|computers?|tablets?|devices?|gadgets?|appliances?|tvs?|televisions?|repair\w*|"
                r"replace\w*|broken|broke|cracked|damaged)\b", re.I),
     ("possession", "identifier:warranty")),
]


# any question that turns on when something happened, whatever intent wins ("When did I last book the dentist?"
# is a fact lookup too): the context keeps its dates for it
_TIME_CUES = re.compile(
    r"\b(when|what (day|date|time|year|month)|which (day|date|week|month|year)|how long|how (often|recently)|"
    r"ago|dates?|yesterday|last (week|month|year|time)|before or after|(first|last) time)\b", re.I)


def asks_about_time(query: str) -> bool:
    """Whether the question asks about time (when, how long ago, which day ...)."""
    return bool(_TIME_CUES.search(query))


def _prefixes(ref: str) -> tuple[str, ...]:
    """The key prefixes a hint names: all of a family's, or the one after the colon. They are the registry's
    prefixes as they are (a key may be the prefix itself: "contact.email", "preference.diet.type")."""
    name, _, one = ref.partition(":")
    fam = family_by_name(name)  # KeyError at import: a hint naming no family is a bug
    if one and one not in fam.prefixes:
        raise ValueError(f"key hint {ref!r}: {one!r} is not a prefix of family {name!r}")
    return (one,) if one else fam.prefixes


_KEY_HINTS: list[tuple[re.Pattern[str], tuple[str, ...]]] = [
    (pattern, tuple(dict.fromkeys(p for ref in refs for p in _prefixes(ref)))) for pattern, refs in _HINT_FAMILIES]


def key_hints(query: str) -> tuple[str, ...]:
    """Slot-key prefixes a question points at ("my car" -> ``vehicle``)."""
    out: dict[str, None] = {}
    for pattern, prefixes in _KEY_HINTS:
        if pattern.search(query):
            out.update(dict.fromkeys(prefixes))
    return tuple(out)


_IN_MONTH = re.compile(r"\b(?:in|during|back in)\s+" + MONTH + r"(?:\s+(\d{4}))?\b", re.I)
_BETWEEN = re.compile(r"\b(?:between|from)\s+(.+?)\s+(?:and|to|until)\s+(.+)", re.I)
_MONTH_YEAR = re.compile(r"\b(?:(early|beginning of|first half of|late|end of|second half of)\s+)?" + MONTH +
                         r",?\s+(\d{4})\b", re.I)
_SEASON_YEAR = re.compile(r"\b(spring|summer|autumn|fall|winter)\s+(?:of\s+)?(\d{4})\b", re.I)
_IN_YEAR = re.compile(r"\b(?:in|during|of|since)\s+(\d{4})\b", re.I)
_SEASONS = {"spring": (3, 6), "summer": (6, 9), "autumn": (9, 12), "fall": (9, 12), "winter": (12, 15)}


def _explicit_date(text: str, at: datetime) -> datetime | None:
    """The first calendar date written in ``text`` (midnight, ``at``'s zone); a missing year is the
    latest one not after ``at``."""
    found = calendar_date(text, at.date(), lean="past")
    if found is None or found.day is None:
        return None
    return _day(at).replace(year=found.day.year, month=found.day.month, day=found.day.day)


# a preposition of time right before an ambiguous date ("on May 2", "before 3/1") makes it one
_DATE_PREPOSITION = re.compile(r"\b(?:on|by|since|before|after|until|from|of|in|and|to)\s*$")


def _ambiguous(found: DateMatch, q: str) -> bool:
    """ "you may 2 ...", "mix 1/2 cup": month names that are words and bare M/D are dates only after a
    preposition of time or with a year."""
    written = q[found.start:found.end]
    word_month = found.kind == "md" and re.match(r"(?:may|march|mar)\s", written) is not None
    return (word_month or found.kind == "slash") and not found.year_given and not _DATE_PREPOSITION.search(
        q[: found.start])


def _month_start(at: datetime, year: int, month: int) -> datetime:
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    return _day(at).replace(year=year, month=month, day=1)


def _calendar_window(q: str, at: datetime) -> TimeWindow | None:
    """Windows for written dates: "on 3 June, 2023", "between August 11 and August 15 2023",
    "two weeks before August 11, 2023", "in the first half of September 2022", "summer 2021", "in 2023".

    What was said "on" a date was said that day (one day of slack each side for time zones);
    "before"/"after" a date reaches two weeks back or forward, the date itself included.
    """
    m = _BETWEEN.search(q)
    if m:
        first = _explicit_date(m.group(1) + (" " + m.group(2)[-4:] if m.group(2)[-4:].isdigit() else ""), at)
        last = _explicit_date(m.group(2), at)
        if first is not None and last is not None and first <= last:
            return TimeWindow(first, last + timedelta(days=1), m.group(0).strip(" ?.!"))
    found = calendar_date(q, at.date(), lean="past")
    if found is not None and not _ambiguous(found, q):
        day = _explicit_date(q[found.start:found.end], at)
        if day is not None:
            before, phrase = q[: found.start], q[found.start:found.end]
            if re.search(r"\bbefore\s*$", before):
                return TimeWindow(day - timedelta(days=16), day + timedelta(days=2), "before " + phrase)
            if re.search(r"\bafter\s*$", before):
                return TimeWindow(day - timedelta(days=1), day + timedelta(days=16), "after " + phrase)
            return TimeWindow(day - timedelta(days=1), day + timedelta(days=2), phrase)
    m = _MONTH_YEAR.search(q)
    if m:
        start = _month_start(at, int(m.group(3)), month_number(m.group(2)))
        end = _month_start(at, start.year, start.month + 1)
        part = (m.group(1) or "").lower()
        if part in ("early", "beginning of", "first half of"):
            end = start + timedelta(days=15)
        elif part in ("late", "end of", "second half of"):
            start = start + timedelta(days=14)
        return TimeWindow(start, end, m.group(0))
    m = _SEASON_YEAR.search(q)
    if m:
        first_month, last_month = _SEASONS[m.group(1).lower()]
        year = int(m.group(2))
        return TimeWindow(_month_start(at, year, first_month), _month_start(at, year, last_month), m.group(0))
    m = _IN_YEAR.search(q)
    if m:
        year = int(m.group(1))
        return TimeWindow(_month_start(at, year, 1), _month_start(at, year + 1, 1), m.group(0))
    return None


def _day(t: datetime) -> datetime:
    return t.replace(hour=0, minute=0, second=0, microsecond=0)


def parse_time_window(query: str, at: datetime) -> TimeWindow | None:
    """A window for phrases like "last week", "in May", "two days ago" (relative to ``at``).

    Phrases whose window falls outside the calendar (``99999 years ago``) give no window.
    """
    try:
        return _parse_time_window(query, at)
    except (OverflowError, ValueError):
        return None


def _parse_time_window(query: str, at: datetime) -> TimeWindow | None:
    q = query.lower()
    today = _day(at)
    written = _calendar_window(q, at)
    if written is not None:
        return written
    if re.search(r"\byesterday\b", q):
        return TimeWindow(today - timedelta(days=1), today, "yesterday")
    if re.search(r"\btoday\b", q):
        return TimeWindow(today, today + timedelta(days=1), "today")
    if re.search(r"\blast week\b", q):
        start = today - timedelta(days=today.weekday() + 7)
        return TimeWindow(start, start + timedelta(days=7), "last week")
    if re.search(r"\bthis week\b", q):
        start = today - timedelta(days=today.weekday())
        return TimeWindow(start, start + timedelta(days=7), "this week")
    if re.search(r"\blast month\b", q):
        first = today.replace(day=1)
        prev_last = first - timedelta(days=1)
        return TimeWindow(prev_last.replace(day=1), first, "last month")
    if re.search(r"\blast year\b", q):
        return TimeWindow(today.replace(year=today.year - 1, month=1, day=1), today.replace(month=1, day=1),
                          "last year")
    ago = find_ago(q)
    if ago:
        n, unit = ago.n, ago.unit
        days = {"day": 1, "week": 7, "month": 30, "year": 365}[unit] * n
        center = today - timedelta(days=days)
        slack = {"day": 1, "week": 4, "month": 15, "year": 120}[unit]
        return TimeWindow(center - timedelta(days=slack), center + timedelta(days=slack + 1), q[ago.start:ago.end])
    m = _IN_MONTH.search(q)
    if m:
        month = month_number(m.group(1))
        year = int(m.group(2)) if m.group(2) else (at.year if month <= at.month else at.year - 1)
        start = today.replace(year=year, month=month, day=1)
        end = start.replace(year=year + 1, month=1) if month == 12 else start.replace(month=month + 1)
        return TimeWindow(start, end, m.group(0))
    return None


_NAME = re.compile(r"\b([A-Z][a-z]+(?:-[A-Z][a-z]+)?)(?:['\u2019]s)?(?=\W|$)")
_NOT_NAMES = frozenset(
    ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december", "today", "tomorrow", "yesterday", "remind", "please"]
)


def query_names(query: str) -> tuple[str, ...]:
    """Capitalized words that name someone or something ("What has John done?" -> ``("john",)``).

    The first word counts only when it is addressed or possessive ("John, ..."; "Maria's ..."),
    since questions capitalize their first word anyway.
    """
    out: list[str] = []
    for m in _NAME.finditer(query):
        word = m.group(1).lower()
        if word in STOPWORDS or word in _NOT_NAMES or word in out:
            continue
        if not query[: m.start()].strip() and not query[m.end():].startswith(",") and m.group(0) == m.group(1):
            continue
        out.append(word)
    return tuple(out)


_MIN_MEANING_WORDS = 4


# a name after a word of place or travel is a place ("in Paris", "a flight to Oslo", "visited Rome"): it
# stays in the meaning text, or "a flight to Oslo" and "a flight to Lima" would embed the same
_PLACE = re.compile(
    r"\b(?:in|at|from|near|around|across|visit|visits|visited|visiting|"
    r"(?:trip|trips|flight|flights|fly|flew|flying|travel\w*|move|moved|moving|go|goes|going|went|drive|drove|"
    r"return|returned|returning|road trip|holiday|vacation) to)\s+([A-Z][a-z]+(?:[- ][A-Z][a-z]+)*)\b"
)


def meaning_text(query: str, names: tuple[str, ...]) -> str:
    """The question without the names it asks about, for the meaning (vector) channel.

    In a conversation store the people talking are named in most turns (speaker prefixes,
    "Thanks, Jon!"), so a sentence embedding of "How do Jon and Gina both like to destress?" lands
    on short turns that are mostly names. The names still work through the lexical channel and the
    speaker rule; the embedding gets the content. Places stay ("in Paris", "a flight to Oslo"). When fewer than four words would remain
    ("Tell me about Anna") the question stays whole. Measured on LoCoMo conv-26/30/41 at 1,000
    tokens: evidence recall 0.790 -> 0.808, evidence among the candidates 0.859 -> 0.888.
    """
    # every word of a place stays: "in New Orleans", "to San Sebastian", "near Lake Como"
    places = {w for m in _PLACE.finditer(query) for w in re.split(r"[- ]", m.group(1).lower())}
    names = tuple(n for n in names if n not in places)
    if not names:
        return query
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(n) for n in names) + r")(?:'s|’s)?\b", re.IGNORECASE)
    stripped = " ".join(pattern.sub(" ", query).split())
    stripped = re.sub(r"^[,;:\s]+|\s*[,;:]+\s*(?=[?.!]|$)", "", stripped)  # commas the names leave behind
    stripped = re.sub(r"\s+([?.!,])", r"\1", stripped)
    return stripped if len(stripped.split()) >= _MIN_MEANING_WORDS else query


def plan_query(
    query: str,
    *,
    at: datetime,
    domain: str | None = None,
    kinds: tuple[MemoryKind, ...] | None = None,
    limit: int = 10,
) -> QueryPlan:
    signals: list[str] = []
    intent = Intent.GENERAL
    for candidate, pattern in _INTENT_PATTERNS:
        m = pattern.search(query)
        if m:
            intent = candidate
            signals.append(f"{candidate.value}:{m.group(0).lower()}")
            break
    window = parse_time_window(query, at)
    if window is not None:
        signals.append(f"window:{window.phrase}")
    weights = dict(_WEIGHTS[intent])
    names = query_names(query)
    if kinds is not None:
        weights = {k: v for k, v in weights.items() if k in kinds}
    return QueryPlan(query=query, intent=intent, kind_weights=weights, domain=domain, window=window,
                     k=limit, kinds=kinds, signals=signals, key_hints=key_hints(query),
                     names=names, meaning_text=meaning_text(query, names))
