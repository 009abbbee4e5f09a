"""Deterministic signal checks over answer material (pure).

Signals are literal phrases from the fixtures, matched case-insensitively
with whitespace folded. Material is split into lines so that "mentioned as
history next to the new value" can be told apart from "stated as current".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .schema import Probe

__all__ = ["SignalReport", "check_signals", "norm", "ungrounded_details"]

# Bracketed prefixes are citations ([memory id, kind, date] or [message id]), and ISO dates/times are how
# memories render event times: neither is a claim about the user, so neither is checked for grounding.
_BRACKET = re.compile(r"\[[^\]]*\]")
_ISO = re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?\b")
_TOKEN = re.compile(r"[0-9A-Za-z][0-9A-Za-z\-/.:]*")
# A citation's id is a random hex prefix ("[93b276 fact]"): a signal such as "3B" must not be found inside it, or
# a check passes or fails with the ids a run happens to draw.
_CITED_ID = re.compile(r"(?<=\[)[0-9a-f]{6,}(?=[\]\s])")


def norm(text: str) -> str:
    return " ".join(text.lower().split())


@dataclass
class SignalReport:
    found_transfer: list[str] = field(default_factory=list)
    missing_transfer: list[str] = field(default_factory=list)
    leaked: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    stale_surfaced: list[str] = field(default_factory=list)
    update_won: list[str] = field(default_factory=list)
    update_lost: list[str] = field(default_factory=list)
    n_contamination_checks: int = 0
    n_stale_checks: int = 0

    @property
    def transfer_share(self) -> float | None:
        n = len(self.found_transfer) + len(self.missing_transfer)
        return None if n == 0 else len(self.found_transfer) / n

    @property
    def contamination_share(self) -> float:
        if self.n_contamination_checks == 0:
            return 0.0
        return (len(self.leaked) + len(self.wrong)) / self.n_contamination_checks

    @property
    def update_share(self) -> float | None:
        n = len(self.update_won) + len(self.update_lost) + self.n_stale_checks
        if n == 0:
            return None
        return (len(self.update_won) + self.n_stale_checks - len(self.stale_surfaced)) / n

    def describe(self) -> str:
        parts = []
        if self.found_transfer or self.missing_transfer:
            parts.append(f"signals {len(self.found_transfer)}/{len(self.found_transfer) + len(self.missing_transfer)}")
        if self.missing_transfer:
            parts.append("missing " + ", ".join(self.missing_transfer))
        if self.leaked:
            parts.append("leaked " + ", ".join(self.leaked))
        if self.wrong:
            parts.append("wrong personalization " + ", ".join(self.wrong))
        if self.stale_surfaced:
            parts.append("stale surfaced " + ", ".join(self.stale_surfaced))
        if self.update_lost:
            parts.append("update lost " + ", ".join(self.update_lost))
        return "; ".join(parts) or "nothing to check"


def ungrounded_details(material: str, history: str) -> list[str]:
    """Specific details (tokens holding a digit: codes, numbers, times) that the user's history never contains.

    Numbers and identifiers are what a memory layer must not make up; a made-up common word is beyond a
    rule check (the LLM judge sees those). Citations and ISO dates are skipped (see ``_BRACKET``).
    """
    hist = norm(history)
    text = _ISO.sub(" ", _BRACKET.sub(" ", material))
    out: list[str] = []
    for tok in _TOKEN.findall(text):
        tok = tok.rstrip(".:-/").lower()
        if any(ch.isdigit() for ch in tok) and tok not in hist and tok not in out:
            out.append(tok)
    return out


def check_signals(probe: Probe, material: str) -> SignalReport:
    material = _CITED_ID.sub("", material)
    text = norm(material)
    lines = [norm(line) for line in material.splitlines() if line.strip()]
    rep = SignalReport()
    for s in probe.expected_transfer_signals:
        (rep.found_transfer if norm(s) in text else rep.missing_transfer).append(s)
    for s in probe.expected_non_transfer_signals:
        if norm(s) in text:
            rep.leaked.append(s)
    for s in probe.wrong_personalization_signals:
        if norm(s) in text:
            rep.wrong.append(s)
    rep.n_contamination_checks = len(probe.expected_non_transfer_signals) + len(probe.wrong_personalization_signals)
    news = [norm(u.new) for u in probe.expected_update_wins]
    for u in probe.expected_update_wins:
        new, old = norm(u.new), norm(u.old)
        # the old value may be mentioned only next to the new one ("moved to Porto from Lisbon")
        old_alone = any(old in line and new not in line for line in lines)
        if new in text and not old_alone:
            rep.update_won.append(u.new)
        else:
            rep.update_lost.append(u.new)
    rep.n_stale_checks = len(probe.expected_stale_suppression)
    for s in probe.expected_stale_suppression:
        st = norm(s)
        if any(st in line and not any(n in line for n in news) for line in lines):
            rep.stale_surfaced.append(s)
    return rep
