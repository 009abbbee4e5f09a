"""What a service agent reads out of the user's account, and the plan the user asks to move to.

"A: I can see you're on the Superfast 80 plan with us, what seems to be the problem?" tells the user's plan as the
account has it, and "I see he/him on your profile" their pronouns: the user's reply need not confirm them, only
not deny them ("no, that was cancelled last year"). "Upgrade me to Gigafast 900" is the user's decision to move to
another plan, a change of the same attribute. A plan is named by capitals or figures ("Fibre 67", "Unlimited 5G",
"the Premium tier"); "the usual" or "a cheaper one" names none.
"""

from __future__ import annotations

import re

from ..models import MemoryKind
from ._engine import Clause, Example, Rule
from ._rule_self_doc import PRONOUN_PAIR
from ._sentence_patterns import CORRECTION_LEAD, DENIALS

__all__ = ["ACCOUNT_RULE", "PLAN_RULE", "read_out"]

Match = re.Match[str]

_PLAN_NOUN = r"(?:plan|tariff|package|bundle|tier|contract|membership|deal|subscription)"
# a plan's name: capitalised words and figures, up to four, and its noun ("the Superfast 80 plan", "Fibre 67")
_PLAN = (r"(?:the |our |your )?(?P<v>(?-i:[A-Z0-9][\w+\-]*)(?:\s+(?-i:[A-Z0-9][\w+\-]*)){0,3})"
         rf"(?:\s+{_PLAN_NOUN})?")
_READS = re.compile(r"\b(?:i can see|i see|i've got|i have|it looks like|looks like|our records show|we have|"
                    r"the account shows|your account shows)\s+(?:that\s+)?you(?:'re| are)\s+(?:currently\s+|still\s+)?"
                    rf"on\s+{_PLAN}(?=\s+(?:with us|at the moment|currently|right now)\b|\s*[,.;!?]|\s*$)", re.I)
_PROFILE = re.compile(rf"\bi (?:can )?see (?P<v>{PRONOUN_PAIR})\s+(?:on|in) your (?:profile|account|record|file)\b", re.I)
_ME_TO = re.compile(r"\b(?:upgrade|downgrade|bump|move|switch|put|change|swap|transfer)\s+(?:me|us)\s+"
                    rf"(?:up\s+|down\s+|over\s+|across\s+|back\s+)?(?:to|onto|on)\s+{_PLAN}", re.I)


def _named(v: str) -> bool:
    """A plan's name has a capitalised word ("Fibre 67", "Premium"); figures alone are a dose or an amount ("40mg")."""
    return any(w[:1].isupper() and any(ch.isalpha() for ch in w) for w in v.split()) \
        and v.lower() not in ("the", "one", "it", "that")


def account_state(said: str, reply: str | None) -> list[tuple[str, str, str]]:
    """(key, value, text) of what the assistant's turn ``said`` reads out of the user's account, unless the user's
    ``reply`` denies it; a question about it counts as read out too ("I can see you're on X, is that right?")."""
    if reply is not None and (DENIALS.match(reply) or CORRECTION_LEAD.match(reply.strip())):  # "no", "actually, ..."
        return []
    out = [("fact.subscription.plan", m.group("v"), f"User is on the {m.group('v')} plan.")
           for m in _READS.finditer(said) if _named(m.group("v"))]
    out += [("profile.pronouns", m.group("v").lower(), f"User goes by {m.group('v').lower()} pronouns.")
            for m in _PROFILE.finditer(said)]
    return out


def read_out(c: Clause, said: str, reply: str | None) -> None:
    """Emit what the assistant's turn ``said`` reads out of the user's account (``c`` carries its source)."""
    for key, value, text in account_state(said, reply):
        # the agent reads it out of its records, as it issues a reference: no speculation, no "yes" needed
        c.emit(key, value, text, kind=MemoryKind.PROFILE if key.startswith("profile.") else MemoryKind.FACT,
               keywords="plan tariff package account" if key.startswith("fact.") else "pronouns",
               metadata={"issued_by_assistant": True})


def _plan(c: Clause, m: Match | None) -> bool:
    assert m
    v = m.group("v")
    if c.asks or not _named(v) or not (any(ch.isdigit() for ch in v) or re.search(_PLAN_NOUN, m.group(0), re.I)
                                       or re.search(_PLAN_NOUN, c.run.before + " " + c.run.turn, re.I)):
        return False
    c.emit("fact.subscription.plan", v, c.say(v=v), keywords="plan tariff package subscription", correction=True)
    return True


PLAN_RULE = Rule("plan_request", MemoryKind.FACT, ("subscription",), "User is on the {v} plan.", _plan, pattern=_ME_TO,
                 examples=(Example("ok go on then, upgrade me to Gigafast 900", "fact.subscription.plan", "Gigafast 900"),
                           Example("can you move me to the 3pm slot?")))
ACCOUNT_RULE = Rule("account_state", MemoryKind.FACT, ("subscription", "pronouns"), "{v}", lambda c, m: None,
                    confidence=0.8)
