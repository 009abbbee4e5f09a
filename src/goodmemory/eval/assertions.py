"""Deterministic assertions: the hard gate beside the judge (pure)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..models import Context
from .schema import Probe
from .signals import check_signals

__all__ = ["AssertionReport", "Check", "run_assertions"]


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


def run_assertions(probe: Probe, ctx: Context, *, known_memory_ids: set[str], known_message_ids: set[str]) -> AssertionReport:
    rep = check_signals(probe, ctx.text)
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
    unexplained = [i.memory_id for i in ctx.items if i.memory_id not in known_memory_ids
                   or not i.source_message_ids or not set(i.source_message_ids) <= known_message_ids]
    checks.append(Check(name="provenance", kind="provenance", passed=not unexplained,
                        detail=f"{len(ctx.items)} items traced" if not unexplained
                        else f"untraceable items: {unexplained}"))
    return AssertionReport(checks=checks)
