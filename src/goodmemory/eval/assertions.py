"""Deterministic assertions: the hard gate beside the judge (pure).

The checks run on the context a system put in front of the model, so every
system (GoodMemory and the plain baselines) is held to the same checks. The
provenance check applies only to a context that holds items: an empty
context has nothing to explain and does not pass it for free.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel, Field

from ..models import Context
from .schema import Probe
from .signals import check_signals

__all__ = ["AssertionReport", "Check", "ContextView", "Item", "run_assertions", "view_of_context"]

CONTAMINATION_KINDS = ("non_transfer", "wrong_personalization")
UPDATE_KINDS = ("update", "stale")


class Check(BaseModel):
    name: str
    kind: str  # transfer | non_transfer | update | stale | wrong_personalization | provenance
    passed: bool
    detail: str = ""


class AssertionReport(BaseModel):
    checks: list[Check] = Field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    def failed(self) -> list[Check]:
        return [c for c in self.checks if not c.passed]

    def count_failed(self, kinds: Sequence[str]) -> int:
        return sum(not c.passed for c in self.checks if c.kind in kinds)


@dataclass(frozen=True)
class Item:
    """One context item: what it is (a memory id or a message id) and the messages it comes from."""

    ref: str
    sources: tuple[str, ...]
    text: str = ""


@dataclass(frozen=True)
class ContextView:
    """The context one system built for one probe, in the shape every check reads."""

    system: str
    text: str
    tokens: int
    items: tuple[Item, ...] = ()
    known_refs: frozenset[str] = field(default_factory=frozenset)


def view_of_context(ctx: Context, *, system: str = "goodmemory", known_refs: set[str] | frozenset[str] = frozenset()
                    ) -> ContextView:
    items = tuple(Item(i.memory_id, tuple(i.source_message_ids or ()), i.text) for i in ctx.items)
    return ContextView(system, ctx.text, int(ctx.tokens), items, frozenset(known_refs))


def untraced(view: ContextView, known_message_ids: set[str] | frozenset[str]) -> list[str] | None:
    """Items that do not trace to a known memory/turn and known messages; None when there are no items."""
    if not view.items:
        return None
    return [i.ref for i in view.items if i.ref not in view.known_refs or not i.sources
            or not set(i.sources) <= known_message_ids]


def run_assertions(probe: Probe, view: ContextView | Context, *, known_message_ids: set[str] | frozenset[str],
                   known_memory_ids: set[str] | None = None) -> AssertionReport:
    if isinstance(view, Context):
        view = view_of_context(view, known_refs=frozenset(known_memory_ids or ()))
    rep = check_signals(probe, view.text)
    checks: list[Check] = []
    for s in probe.expected_transfer_signals:
        checks.append(Check(name=f"transfer:{s}", kind="transfer", passed=s in rep.found_transfer,
                            detail="present" if s in rep.found_transfer else "missing from context"))
    for s in probe.expected_non_transfer_signals:
        checks.append(Check(name=f"non_transfer:{s}", kind="non_transfer", passed=s not in rep.leaked,
                            detail="leaked into this domain" if s in rep.leaked else "absent"))
    for s in probe.wrong_personalization_signals:
        checks.append(Check(name=f"wrong:{s}", kind="wrong_personalization", passed=s not in rep.wrong,
                            detail="present" if s in rep.wrong else "absent"))
    for u in probe.expected_update_wins:
        ok = u.new in rep.update_won
        checks.append(Check(name=f"update:{u.old}->{u.new}", kind="update", passed=ok,
                            detail="new value wins" if ok else "new value missing or old value stated alone"))
    for s in probe.expected_stale_suppression:
        ok = s not in rep.stale_surfaced
        checks.append(Check(name=f"stale:{s}", kind="stale", passed=ok,
                            detail="suppressed" if ok else "stale value surfaced as current"))
    bad = untraced(view, known_message_ids)
    if bad is not None:
        checks.append(Check(name="provenance", kind="provenance", passed=not bad,
                            detail=f"{len(view.items)} items traced" if not bad else f"untraceable items: {bad}"))
    return AssertionReport(checks=checks)
