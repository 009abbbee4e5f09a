"""Rules of how the user wants answers given: the language replies are in and the units of measure (a new one of
a measure replaces the old one of that measure only)."""

from __future__ import annotations

import re

from ..models import MemoryKind
from . import _patterns as P
from ._engine import Clause, Example, Rule

__all__ = ["ANSWER_RULES"]

K = MemoryKind
I = re.IGNORECASE  # noqa: E741
Match = re.Match[str]

# the language replies are to be in: "reply in X", "the answers in X", "switch to X", "just use X", "X again please"
# (the name is checked against LANGUAGES by the rule); a language only named ("my X is rusty") is none
R_REPLY_LANG = re.compile(
    r"\b(?:(?i:reply|replies|respond|responses|answer|answers|write|write back|talk|speak|messages)"
    r"(?i: to me| me| back)?(?: to me)? in (?P<v>[A-Z][a-z]+(?: [A-Z][a-z]+)?)\b"
    r"|(?i:switch|change|go back|swap)(?: back| over)? to (?P<v2>[A-Z][a-z]+)\b"
    r"|\b(?i:use) (?P<v3>[A-Z][a-z]+)(?= with me| please| from now on| again|\s*[,.!?]|$)"
    r"|(?:^|,\s*|\b(?i:no),?\s+)(?P<v4>[A-Z][a-z]+) (?=again\b|please\b|from now on\b))")

# units a user asks answers in, by what they measure (the rule names the measure); a number before the unit is a
# measurement ("I cycled 40 kilometres"), not a request
UNIT_MEASURES: dict[str, str] = {
    **dict.fromkeys(["miles", "kilometres", "kilometers", "km", "metres", "meters", "feet", "inches", "yards",
                     "centimetres", "centimeters", "feet and inches", "miles and yards"], "distance"),
    **dict.fromkeys(["pounds", "ounces", "grams", "kilos", "kilograms", "kg", "stone", "stones", "ounces and pounds",
                     "pounds and ounces", "stone and pounds", "grams and kilos", "kilos and grams"], "weight"),
    **dict.fromkeys(["celsius", "fahrenheit", "centigrade"], "temperature"),
    **dict.fromkeys(["dollars", "us dollars", "euros", "pounds sterling", "sterling", "yen", "francs", "swiss francs",
                     "rupees", "kroner", "krona", "pesos", "gbp", "usd", "eur"], "currency"),
}
_UNIT = "|".join(sorted((re.escape(u) for u in UNIT_MEASURES), key=len, reverse=True))
R_UNITS = re.compile(
    r"(?<![\d.,])(?<!\d )(?<!\b(?:one|two|few|six|ten) )(?<!\b(?:three|seven|eight|dozen) )(?<!\b(?:four|five|nine) )"
    r"\b(?:(?:in|into|use|using|to|prefer) (?:the )?(?P<v>" + _UNIT + r")\b"
    r"|(?P<v2>" + _UNIT + r")(?= please\b| from now on\b| for\b| thanks\b| when\b|,? (?:thanks|please)\b))", I)
R_UNIT_SYSTEM = re.compile(r"\b(?:(?:use|using|in|to|gone|go|prefer|switch to) (?P<v>metric|imperial)\b(?! \w+ing\b)|"
                           r"(?P<v2>metric|imperial) (?:please|from now on)\b)", I)


def _reply_language(c: Clause, m: Match | None) -> None:
    for hit in R_REPLY_LANG.finditer(c.s):
        v = next(g for g in hit.groups() if g)
        if v.lower() in P.LANGUAGES or v.split()[-1].lower() in P.LANGUAGES:  # "Brazilian Portuguese"
            c.emit("preference.communication.language", v, keywords="language reply respond")
            return


# a unit is asked of answers by a request ("give", "show", "quote", "please", "I think in"), not named in what the
# user does ("I save in dollars", "we measured it in feet")
_UNIT_ASK = re.compile(r"\b(?:please|from now on|give|show|quote|use|using|switch|prefer|i think in|convert|thanks|"
                       r"(?:^|,\s*)(?:distances|weights|temperatures|prices|measurements|heights|everything) in)\b", re.I)
_WHAT = {"distance": "distances", "weight": "weights", "temperature": "temperatures", "currency": "prices"}


def _units(c: Clause, m: Match | None) -> bool:
    """Units asked for, one key per measure (a distance, a weight, a temperature, a currency) and one for a
    whole system ("go metric"): a new unit of one measure replaces the old one of that measure only."""
    hit = False
    asked = bool(_UNIT_ASK.search(c.s)) or bool(R_UNITS.match(c.s))  # "Temperatures in X", "Grams from now on"
    for u in R_UNITS.finditer(c.s) if asked else ():
        v = next(g for g in u.groups() if g)
        measure = UNIT_MEASURES[v.lower()]
        v = v.capitalize() if measure == "temperature" else v.lower()
        c.emit(f"preference.communication.units.{measure}", v, f"User wants {_WHAT[measure]} given in {v}.",
               keywords=f"units {measure} measurement {v}")
        hit = True
    for u in R_UNIT_SYSTEM.finditer(c.s):
        system = (u.group("v") or u.group("v2")).lower()
        v = f"{system} units"
        c.emit("preference.communication.units", v, f"User prefers {v}.", keywords="units measurement")
        hit = True
        # a whole system also changes the unit the user gave for one measure of the other system ("distances in
        # miles", then "switch to metric": kilometres now)
        for key, old in c.run.ctx.existing.items():
            measure = key.removeprefix("preference.communication.units.")
            if measure in _SYSTEM_UNIT[system] and (old.lower() in _METRIC) != (system == "metric") \
                    and UNIT_MEASURES.get(old.lower()) == measure:
                new = _SYSTEM_UNIT[system][measure]
                c.emit(key, new, f"User wants {_WHAT[measure]} given in {new}.", correction=True,
                       keywords=f"units {measure} measurement {new} {system}")
    return hit


_METRIC = frozenset(["kilometres", "kilometers", "km", "metres", "meters", "centimetres", "centimeters", "grams", "kilos",
                     "kilograms", "kg", "grams and kilos", "kilos and grams", "celsius", "centigrade"])
_SYSTEM_UNIT = {"metric": {"distance": "kilometres", "weight": "kilograms", "temperature": "Celsius"},
                "imperial": {"distance": "miles", "weight": "pounds", "temperature": "Fahrenheit"}}


ANSWER_RULES: tuple[Rule, ...] = (
    Rule("reply_language", K.PREFERENCE, ("communication",), "User prefers replies in {v}.", _reply_language,
         pattern=R_REPLY_LANG, importance=0.8, examples=(
             Example("Please reply in Portuguese from now on.", "preference.communication.language", "Portuguese"),
             Example("Please answer in Bullets."))),
    Rule("units", K.PREFERENCE, ("communication",), "User wants {v}.", _units, importance=0.7, examples=(
        Example("Give me distances in kilometres please.", "preference.communication.units.distance", "kilometres"),
        Example("Can we switch to imperial?", "preference.communication.units", "imperial units"),
        Example("Can we switch to metric?", "preference.communication.units.distance", "kilometres",
                existing={"preference.communication.units.distance": "miles"}),
        Example("I cycled 40 kilometres on Sunday."))),
)
