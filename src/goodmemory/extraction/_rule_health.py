"""Health rules: the medicines a user takes, with their dose."""

from __future__ import annotations

import re

from ..models import MemoryKind
from ..taxonomy import slot_key
from . import _patterns as P
from ._engine import Clause, Example, Rule

__all__ = ["MEDICATION_RULE"]

K = MemoryKind
Match = re.Match[str]

# a medicine is named beside a dose, or has a drug-like ending: "I take 20 mg of citalopram", "I'm on lisinopril"
_DOSE = r"\d+(?:\.\d+)? ?(?:mg|mcg|µg|g|ml|iu|units?)\b"
_R_MEDICATION = re.compile(
    r"\bi(?:'m| am|'ve| have)? (?:now |still |also |just |recently )?(?:take|taking|started taking|been taking|am on|on|"
    r"was prescribed|got prescribed|been prescribed|use|inject)\s+(?:(?P<dose1>" + _DOSE + r")(?: of)? )?(?P<v>[a-z][a-z\-]{3,24})"
    r"(?:,? (?P<dose2>" + _DOSE + r"))?(?P<tail>[^.;!?]*)", re.I)
_DRUG_END = re.compile(r"(?:pril|statin|sartan|olol|dipine|prazole|tidine|oxetine|aline|azepam|zolam|cillin|mycin|cycline|"
                       r"formin|thyroxine|gliptin|parin|xaban|mab|nib|vir|sone|lone|olone|amide|azole|profen|fenac|"
                       r"triptan|ium|pine|done|phen)$", re.I)


def _medication(c: Clause, m: Match | None) -> None:
    assert m
    name, dose = m.group("v").lower(), m.group("dose1") or m.group("dose2") or ""
    if not dose:
        d = re.search(_DOSE, m.group("tail") or "", re.I)
        dose = d.group(0) if d and d.start() <= 12 else ""
    if not (dose or _DRUG_END.search(name)) or name in P.LIKE_JUNK:
        return
    v = f"{name} {dose}".strip()
    c.emit(slot_key("fact", "medication", name), v, keywords=f"medication medicine takes dose {name}")


MEDICATION_RULE = Rule(
    "medication", K.FACT, ("medication",), "User takes {v}.", _medication, pattern=_R_MEDICATION, importance=0.8,
    examples=(
        Example("I take 25 mg of sertraline in the evening.", "fact.medication.sertraline", "sertraline 25 mg"),
        Example("I'm on lisinopril for my blood pressure.", "fact.medication.lisinopril", "lisinopril"),
        Example("I've just started taking metformin, 500mg twice a day.", "fact.medication.metformin",
                "metformin 500mg"),
        Example("I take the tram to work."),
        Example("I'm on holiday next week.")))
