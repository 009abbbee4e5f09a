"""The rule engine: rule records, the state of one extraction run, and the one way a rule emits.

A :class:`Rule` is data: its name, the pattern it reads (built from the named fragments of
:mod:`._patterns`), the memory kind and key families it writes, the text template, its
confidence and importance, guards, and examples that :mod:`tests.unit.test_rule_records` runs.
Its ``act`` turns the match into values (a few lines: which group is the value, how the key is
built). :func:`run_group` runs an ordered group of rules over one clause and every candidate it
emits says which rule fired (``metadata["rule"]``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any

from ..models import Candidate, MemoryKind
from ..taxonomy import family_of, normalize_key, slug
from .base import ExtractionContext

__all__ = ["Clause", "Example", "Flags", "Rule", "Run", "Src", "broken", "run_group"]

# a memory's text must read as a whole clause: not end on a function word or a title whose name was cut off
# ("... with Dr."), and not stack two determiners ("works as a now a ...")
_DANGLING_END = re.compile(
    r"\b(?:the|a|an|to|of|with|their|my|his|her|our|and|or|in|on|at|for|from|by|about|some|any|this|that|these|"
    r"those|when|how|if|is|are|was|were)\W*$|\b(?:with|to|see|at|from|by|and) (?:dr|mr|mrs|ms|prof)\W*$", re.I)
_STACKED = re.compile(r"\b(?:a|an|the) (?:(?:now|also|still|just|currently) )?(?:a|an|the)\b", re.I)


def broken(text: str) -> bool:
    """Whether a memory text is a fragment rather than a clause (the engine never emits one)."""
    body = text.strip().rstrip(".!)\"' ")
    return bool(_DANGLING_END.search(body) or _STACKED.search(body))


@dataclass(frozen=True)
class Example:
    """A sentence and what the rule must make of it: ``key``/``value`` (a positive example) or, with
    ``key=None``, nothing from this rule (a negative example). ``before`` are earlier turns of the same
    call ("A: ..." for the assistant); ``existing`` the user's active memories."""

    text: str
    key: str | None = None
    value: str | None = None
    before: tuple[str, ...] = ()
    existing: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


@dataclass
class Flags:
    correction: bool = False
    hedged: bool = False
    negated_change: bool = False


@dataclass
class Src:
    ids: list[str]
    ts: datetime
    role: str = "user"
    confirmed: bool = False
    secrets: dict[str, str] = field(default_factory=dict)


@dataclass
class Run:
    ctx: ExtractionContext
    out: list[Candidate] = field(default_factory=list)
    index: dict[tuple[str, str], Candidate] = field(default_factory=dict)
    vehicles: list[str] = field(default_factory=list)
    tasks: dict[str, str] = field(default_factory=dict)
    opened: list[str] = field(default_factory=list)  # task keys opened in this call, oldest first
    last_key: str | None = None
    issuer: tuple[str, str] | None = None  # the card issuer the conversation last named (short, full)
    silent: list[tuple[str, bool]] = field(default_factory=list)  # (sentence or clause, is clause) no rule matched
    reasons: set[str] = field(default_factory=set)  # passed-over clauses of a sentence the rules read a preference in
    used: set[str] = field(default_factory=set)  # clauses (lowercased) a rule of another clause read as its own
    clause: str = ""  # the clause the rules are reading
    sentence: str = ""  # the sentence it is part of
    before: str = ""  # the sentence of the same message before it
    turn: str = ""  # the whole message the sentence is part of
    known: frozenset[str] = frozenset()  # naming words of the user's current memories
    people: frozenset[str] = frozenset()  # the names of the people the user told of (their relations' values)

    def vehicle_slug(self, name: str) -> str:
        """One slug per vehicle of the conversation: "Civic" and "Honda Civic" are the same car."""
        s = slug(name)
        for known in self.vehicles:
            if known.startswith(s) or s.startswith(known):
                s = known if len(known) >= len(s) else s
                self.vehicles.remove(known)
                break
        self.vehicles.append(s)
        return s


@dataclass
class Clause:
    """One clause under the rules, with where it came from and what the group has emitted so far."""

    s: str
    src: Src
    run: Run
    fl: Flags
    rule: Rule | None = None
    fired: list[str] = field(default_factory=list)  # rules of the current group that emitted
    note: dict[str, Any] = field(default_factory=dict)  # what one rule of the group tells a later one

    @property
    def asks(self) -> bool:
        """Whether the clause is a question: a question asserts nothing of the user's."""
        return self.s.rstrip().endswith("?")

    def say(self, **values: Any) -> str:
        assert self.rule is not None
        return self.rule.template.format(**values)

    def emit(self, key: str, value: str, text: str | None = None, *, kind: MemoryKind | None = None,
             conf: float | None = None, importance: float | None = None, keywords: str = "",
             transferable: bool | None = None, closes: str | None = None, metadata: dict[str, Any] | None = None,
             correction: bool = False) -> None:
        """Add a candidate (or fold this source into the same key and value already emitted)."""
        rule, run, src, fl = self.rule, self.run, self.src, self.fl
        assert rule is not None
        key = normalize_key(key)
        value = value.strip()
        text = text if text is not None else self.say(v=value)
        if not value or broken(text):
            return
        is_corr = fl.correction or correction
        c = rule.confidence if conf is None else conf
        c = min(c, 0.6) if fl.hedged else c
        if is_corr:
            c += 0.05
        if src.role == "assistant":
            c = min(c, 0.8)
        meta = dict(metadata or {})
        meta["rule"] = rule.name
        fam = family_of(key)
        if fam is not None:  # every key belongs to a registry family (tests/unit/test_key_families.py)
            meta["family"] = fam.name
        if run.clause:
            meta.setdefault("said", run.clause)  # the clause the rule read: what "same attribute" compares
        hits = sorted({k for s, k in src.secrets.items() if s in value or (len(value) >= 4 and value in s)})
        if hits:
            meta["secret_kinds"] = hits
        dup = run.index.get((key, value.lower()))
        if dup is not None:
            dup.message_ids.extend(i for i in src.ids if i not in dup.message_ids)
            return
        cand = Candidate(
            kind=kind or rule.kind, key=key, value=value, text=text,
            confidence=round(max(0.5, min(0.95, c)), 3), importance=rule.importance if importance is None else importance,
            transferable=transferable, domain=run.ctx.domain, message_ids=list(src.ids), role=src.role,
            timestamp=src.ts, is_correction=is_corr, confirmed_by_user=src.confirmed, closes=closes, extractor="rules",
            keywords=keywords, metadata=meta,
        )
        run.index[(key, value.lower())] = cand
        run.out.append(cand)
        run.last_key = key


Act = Callable[[Clause, "re.Match[str] | None"], "bool | None"]
Guard = Callable[[Clause, "re.Match[str] | None"], bool]


@dataclass(frozen=True)
class Rule:
    """One extraction rule as data.

    ``pattern`` is searched in the clause (``anchored``: matched at its start); with no pattern the act
    reads the clause itself (a rule over several patterns). Guards must all hold for the act to run.
    ``stop``: when the act reports a hit, later rules of the group are skipped; ``quiet``: the rule only
    runs when no earlier rule of its group emitted.
    """

    name: str
    kind: MemoryKind
    families: tuple[str, ...]
    template: str
    act: Act
    pattern: re.Pattern[str] | None = None
    anchored: bool = False
    confidence: float = 0.85
    importance: float = 0.5
    guards: tuple[Guard, ...] = ()
    examples: tuple[Example, ...] = ()
    stop: bool = False
    quiet: bool = False


def run_group(rules: tuple[Rule, ...], c: Clause) -> None:
    """Run ``rules`` in order over the clause."""
    c.fired, c.note = [], {}
    for rule in rules:
        if rule.quiet and c.fired:
            continue
        m = None
        if rule.pattern is not None:
            m = rule.pattern.match(c.s) if rule.anchored else rule.pattern.search(c.s)
            if m is None:
                continue
        if not all(g(c, m) for g in rule.guards):
            continue
        c.rule, n = rule, len(c.run.out)
        hit = rule.act(c, m)
        if len(c.run.out) > n:
            c.fired.append(rule.name)
        if hit and rule.stop:
            return
