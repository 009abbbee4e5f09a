"""Health rules: the medicines a user takes, with their dose, and the conditions a user has."""

from __future__ import annotations

import re

from ..models import MemoryKind
from ..taxonomy import slot_key
from . import _patterns as P
from ._engine import Clause, Example, Rule

__all__ = ["CONDITION_RULE", "MEDICATION_RULE"]

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
    key = slot_key("fact", "medication", name)
    off = _OFF.search(c.run.sentence or c.s)
    if off and key not in c.run.ctx.existing:
        # "took me off it, I'm on losartan now": the new medicine takes the place of the one it names, or of the
        # one medicine the user takes
        what = next(g for g in off.groups() if g).lower()
        held = [k for k in c.run.ctx.existing if k.startswith("fact.medication.") and k != key
                and (what in ("it", "them", "that") or slot_key("x", what).split(".")[-1] in k)]
        if len(held) == 1:
            c.emit(held[0], v, f"User takes {v} now.", correction=True,
                   keywords=f"medication medicine takes dose {name}")
            return
    c.emit(key, v, keywords=f"medication medicine takes dose {name}")


# a medicine the user came off: "took me off it", "came off the amlodipine", "switched me from X"
_OFF = re.compile(r"\b(?:took|taken|take|came|come|coming|got) (?:me )?off (?:the )?(it|them|that|[a-z][a-z\-]{3,24})\b|"
                  r"\bstopped (?:taking )?(?:the )?(it|[a-z][a-z\-]{3,24})\b|\bswitched (?:me )?from (?:the )?([a-z][a-z\-]{3,24})\b",
                  re.I)


MEDICATION_RULE = Rule(
    "medication", K.FACT, ("medication",), "User takes {v}.", _medication, pattern=_R_MEDICATION, importance=0.8,
    examples=(
        Example("I take 25 mg of sertraline in the evening.", "fact.medication.sertraline", "sertraline 25 mg"),
        Example("I'm on lisinopril for my blood pressure.", "fact.medication.lisinopril", "lisinopril"),
        Example("I've just started taking metformin, 500mg twice a day.", "fact.medication.metformin",
                "metformin 500mg"),
        Example("I take the tram to work."),
        Example("I'm on holiday next week.")))


# a condition the user has now, by its common names (world knowledge, not a pattern of words): the adjective ("I'm
# diabetic") or the noun ("I have gastritis"); the value is the condition's noun
_CONDITIONS = {
    "diabetic": "diabetes", "type 1 diabetic": "type 1 diabetes", "type 2 diabetic": "type 2 diabetes",
    "pre-diabetic": "pre-diabetes", "prediabetic": "pre-diabetes", "anaemic": "anaemia", "anemic": "anemia",
    "epileptic": "epilepsy", "pregnant": "pregnancy", "hypertensive": "high blood pressure",
    "immunocompromised": "a weakened immune system",
}
_NOUNS = ("type 1 diabetes|type 2 diabetes|diabetes|pre-diabetes|prediabetes|gastritis|a stomach ulcer|an ulcer|ibs|"
          "crohn'?s(?: disease)?|colitis|ulcerative colitis|gout|high blood pressure|high cholesterol|kidney disease|"
          "heart disease|a heart condition|fibromyalgia|psoriasis|eczema|sleep apno?ea|hypothyroidism|"
          "an underactive thyroid|an overactive thyroid|long covid|chronic fatigue(?: syndrome)?|endometriosis|pcos|"
          "osteoporosis|a pacemaker|acid reflux|gerd|anaemia|anemia|epilepsy|multiple sclerosis|\\bms\\b|lupus|"
          "parkinson'?s|copd")
_R_CONDITION = re.compile(
    r"(?<!\bnot )\b(?:i'?m|i am)(?: now| still| also)? (?P<adj>type [12] diabetic|pre-?diabetic|diabetic|anaemic|anemic|"
    r"epileptic|pregnant|hypertensive|immunocompromised)\b"
    r"|\bi(?:'ve| have)(?: got| had| been living with| lived with)? (?P<noun>" + _NOUNS + r")\b", re.I)
_OVER = re.compile(r"\b(?:last year|cleared up|went away|used to|no longer|gone now|but not anymore|as a (?:kid|child))\b",
                   re.I)


def _condition(c: Clause, m: Match | None) -> bool:
    assert m
    if c.asks or _OVER.search(c.s):
        return False
    if m.group("noun") and re.match(r"i(?:'ve| have) had\b", m.group(0), re.I) and not re.search(
            r"\bfor (?:years|ages|a while|\w+ (?:years|months))\b|\bsince\b", c.s, re.I):
        return False  # "I had gastritis": over, unless for years
    said = (m.group("adj") or m.group("noun")).lower()
    v = _CONDITIONS.get(said.replace("-", "-"), said) if m.group("adj") else re.sub(r"^(?:a|an) ", "", said)
    v = v.upper() if v in ("ibs", "gerd", "pcos", "copd", "ms") else v
    c.emit(slot_key("fact", "health", v), v, f"User has {v}." if v != "pregnancy" else "User is pregnant.",
           importance=0.8, keywords=f"health condition diagnosis {v}")
    return True


CONDITION_RULE = Rule(
    "condition", K.FACT, ("health",), "User has {v}.", _condition, pattern=_R_CONDITION, importance=0.8, examples=(
        Example("I'm diabetic.", "fact.health.diabetes", "diabetes"),
        Example("I have coeliac disease."),  # the allergy rule's
        Example("My mum is diabetic.")))
