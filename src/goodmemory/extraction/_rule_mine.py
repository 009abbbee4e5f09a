"""What a question or a request presupposes the user has ("how often should I change the oil on my 2012 Mazda 3?",
"can you draft an email to my manager Priya?"): a thing named as the user's is theirs whatever the sentence asks.

Questions and requests are otherwise no facts (see :mod:`.rules`); only these rules read them: a person named as
the user's relation, a pet named as theirs, a vehicle of a known make named as theirs, and the way they get to work
told in passing ("a good lock for the e-bike I ride to the office every day now?"), and a provider of a sort one has one
of at a time named as theirs ("why is my Octopus bill so high?", "how do I get my Vodafone PAC code?").
"""

from __future__ import annotations

import re

from .._brands import held_once
from .._value_types import CAR_MAKES
from ..merge import _GONE_VERBS
from ..models import MemoryKind
from ..taxonomy import slot_key
from ._engine import Clause, Example, Rule

__all__ = ["COMMUTE_TOLD_RULE", "MY_PROVIDER_RULE", "MY_VEHICLE_RULE"]

K = MemoryKind
Match = re.Match[str]

# "my 2012 Mazda 3", "our old Skoda Octavia", "my new Kia": a make the user calls theirs, with what follows it
# "... in my own car, a 2016 Vauxhall Corsa": the vehicle named after its noun
_R_MY_VEHICLE = re.compile(
    r"\b(?:my|our) (?:own |new |old |used |trusty |little )?(?:(?:car|van|motorbike|motorcycle|truck|pickup|ute)"
    r",? (?:a |an |the )?(?:new |old |used )?)?(?:(?P<year>(?:19|20)\d{2}) )?"
    r"(?P<veh>(?-i:[A-Z][\w\-]*)(?: (?-i:[A-Z0-9][\w\-]*)){0,2})"
    # the upkeep of a car of a given year: "how often should I change the oil on a 2014 Skoda Fabia?" is the user's
    # (a car one might buy has no oil to change: "Is a 2012 Mazda 3 a good first car?" names none)
    r"|\b(?:oil|service|servicing|tyres?|tires?|mot|brakes?|brake pads|battery|clutch|cambelt|timing belt|wipers?|"
    r"bulbs?|exhaust|gearbox|suspension|aircon|air con)\b[^.?!]{0,40}?\b(?:on|for|of|in) (?:a|an|the) "
    r"(?P<year2>(?:19|20)\d{2}) (?P<veh2>(?-i:[A-Z][\w\-]*)(?: (?-i:[A-Z0-9][\w\-]*)){0,2})", re.I)


# a verb by which a car leaves the user, before the car is named in the clause
_WENT = re.compile(rf"\b(?:{_GONE_VERBS}|wrote off|totall?ed)\b", re.I)


def _my_vehicle(c: Clause, m: Match | None) -> None:
    assert m
    name, year = m.group("veh") or m.group("veh2"), m.group("year") or m.group("year2")
    if name.split()[0].lower() not in CAR_MAKES:
        return  # "my Kindle", "my Monzo app": not a vehicle
    if _WENT.search(c.s[: m.start()]):
        return  # "Sold my Honda City to Spinny": a car the user no longer has (the statement path ends it)
    full = f"{year} {name}" if year else name
    c.emit(slot_key("vehicle", c.run.vehicle_slug(name)), full, importance=0.6, keywords=f"car vehicle owns drives {name}")


MY_VEHICLE_RULE = Rule("my_vehicle", K.FACT, ("vehicle",), "User has a {v}.", _my_vehicle, pattern=_R_MY_VEHICLE,
                       importance=0.6, examples=(
                           Example("How often should I change the oil on my 2012 Mazda 3?", "vehicle.mazda_3",
                                   "2012 Mazda 3"),
                           Example("I do parcel routes in my own car, a 2016 Vauxhall Corsa.", "vehicle.vauxhall_corsa",
                                   "2016 Vauxhall Corsa"),
                           Example("Is my Kindle worth fixing?"),
                       ))


# "the e-bike I ride to the office every day", "the 38 bus I get to work": how the user gets there, told in passing
_R_COMMUTE_TOLD = re.compile(
    r"\b(?:the|my|our) (?P<v>(?:[\w\-]+ ){0,2}?(?:e-?bike|bike|bicycle|scooter|e-?scooter|car|van|motorbike|train|"
    r"tram|bus|ferry|tube|coach)(?: \d+)?) (?:i|we) (?:ride|drive|take|catch|get|cycle|use)(?: (?:in|into))? to "
    r"(?:work|the office|school|uni|college|the site|my shift)\b", re.I)


def _commute_told(c: Clause, m: Match | None) -> bool:
    assert m
    v = m.group("v")
    c.emit("profile.commute", v, f"User gets to work by {v}.", importance=0.6,
           keywords="commute travel to work transport")
    return True


COMMUTE_TOLD_RULE = Rule("commute_told", K.PROFILE, ("commute",), "User gets to work by {v}.", _commute_told,
                         pattern=_R_COMMUTE_TOLD, importance=0.6, examples=(
                             Example("What's a good lock for the e-bike I ride to the office every day now?",
                                     "profile.commute", "e-bike"),
                             Example("Is the train to work usually this late?")))


# "my Octopus bill", "our Virgin Media router", "my PureGym membership": the name right after the possessive
_R_MY_PROVIDER = re.compile(r"\b(?:my|our) (?P<v>(?-i:[A-Z0-9][\w&.+\-]*)(?: (?-i:[A-Z][\w&.+\-]*)){0,2})")
_SORT_NOUN = {"energy": "energy supplier", "broadband": "broadband provider", "phone_plan": "mobile network",
              "gym": "gym"}


def _my_provider(c: Clause, m: Match | None) -> bool:
    assert m
    found = held_once(f"with {m.group('v')}")  # read mid-sentence: "my Octopus bill" names the supplier
    if not found or len({s for _, s in found}) > 1:
        return False  # none, or a name of two sorts (Vodafone sells broadband and mobile plans): which is unsaid
    name, sort = next(iter(found))
    v = m.group("v")[: len(name)] if m.group("v").lower().startswith(name) else m.group("v")
    key = "preference.fitness.gym" if sort == "gym" else f"fact.provider.{sort}"
    c.emit(key, v, f"User's {_SORT_NOUN[sort]} is {v}.", importance=0.5, keywords=f"{_SORT_NOUN[sort]} provider {v}")
    return True


MY_PROVIDER_RULE = Rule("my_provider", K.FACT, ("provider", "fitness"), "User's provider is {v}.", _my_provider,
                        pattern=_R_MY_PROVIDER, importance=0.5, examples=(
                            Example("why is my Octopus bill so high this month?", "fact.provider.energy", "Octopus"),
                            Example("Is Octopus cheaper than EDF?")))
