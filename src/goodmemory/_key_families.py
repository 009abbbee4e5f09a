"""The registry of key families: which attributes a slot key can name, and how each behaves (pure data).

A *family* is one attribute of a user's world ("home city", "medication", "preferred reply
language"). Every key an extractor writes belongs to exactly one family, found by prefix
(:func:`family_of`). The family says the memory kind, whether the user has one value at a time
(``single``: a newer statement supersedes) or several (``multi``: "a second cat" adds), how fast it
goes stale, which query words hint at it, how the LLM prompt describes it, and a few generic
statements about it with the value masked as ``X`` (the prototypes the write path compares a
statement with when no rule gave it a key).

The examples are written for this registry, generically; they are not sentences of any
evaluation set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .keys import slot_of
from .models import MemoryKind

__all__ = ["KEY_FAMILIES", "KeyFamily", "canonical_key", "family_by_name", "family_of"]

K = MemoryKind


@dataclass(frozen=True)
class KeyFamily:
    name: str
    kind: MemoryKind
    prefixes: tuple[str, ...]  # the first one is the family's canonical key
    cardinality: Literal["single", "multi"]
    description: str
    examples: tuple[str, ...] = ()
    volatility: float | None = None  # None: the kind's default
    routing_hints: tuple[str, ...] = ()
    suffixes: tuple[str, ...] = ()  # a key ending so belongs here whatever its start ("warranty.apple.expiration")

    @property
    def key(self) -> str:
        return self.prefixes[0]

    @property
    def multi(self) -> bool:
        return self.cardinality == "multi"


def _f(name: str, kind: MemoryKind, prefixes: str, card: Literal["single", "multi"], description: str,
       examples: tuple[str, ...] = (), volatility: float | None = None, hints: str = "", suffixes: str = "") -> KeyFamily:
    return KeyFamily(name, kind, tuple(prefixes.split()), card, description, examples, volatility,
                     tuple(hints.split()), tuple(suffixes.split()))


# the first word of an issued identifier's key ("policy.number", "frequent_flyer.number")
_ID_TYPES = ("policy claim order confirmation reference ticket case tracking membership loyalty frequent_flyer "
             "rewards customer invoice serial warranty patient prescription subscriber student employee license "
             "registration application incident return rma shipment parcel package enrollment group plan contract "
             "lease loan mortgage meter permit badge insurance_policy medicare medicaid")

KEY_FAMILIES: tuple[KeyFamily, ...] = (
    # -- identity and background
    _f("name", K.PROFILE, "profile.name", "single", "the user's full or legal name",
       ("my name is X", "I am called X", "my surname is now X"), 0.01, "name called"),
    _f("preferred_name", K.PROFILE, "profile.preferred_name", "single", "what the user wants to be called",
       ("call me X", "I go by X", "everyone calls me X"), 0.02, "nickname call"),
    _f("pronouns", K.PROFILE, "profile.pronouns", "single", "the pronouns the user uses",
       ("my pronouns are X", "I use X pronouns now", "I go by X pronouns"), 0.02, "pronouns"),
    _f("age", K.PROFILE, "profile.age", "single", "the user's age in years",
       ("I am X years old", "I just turned X"), 0.4, "age old"),
    _f("birth_date", K.PROFILE, "profile.birth_date profile.birthday profile.birth_year profile.birth", "single",
       "the user's date of birth or birthday", ("I was born on X", "my birthday is X", "date of birth X"), 0.0,
       "birthday born birth"),
    _f("home_city", K.PROFILE, "profile.home_city profile.location", "single", "the city or town the user lives in",
       ("I live in X", "we moved to X", "home is X now", "I am based in X"), 0.3, "live city home where based"),
    _f("address", K.PROFILE, "profile.address contact.address", "single", "the user's street address",
       ("my address is X", "we live at X street", "deliver to my flat at X"), 0.3, "address street deliver"),
    _f("origin", K.PROFILE, "profile.origin", "single", "where the user is originally from",
       ("I am originally from X", "I grew up in X"), 0.01, "from origin grew"),
    _f("nationality", K.PROFILE, "profile.nationality profile.citizenship", "multi",
       "the user's nationality or citizenship", ("I am X by nationality", "I hold an X passport", "I am an X citizen"),
       0.01, "nationality passport citizen"),
    _f("religion", K.PROFILE, "profile.religion", "single", "the user's religion or belief",
       ("my religion is X", "I am a practising X", "my faith is X"), 0.02,
       "religion faith belief observe"),
    _f("timezone", K.PROFILE, "profile.timezone", "single", "the user's time zone",
       ("my time zone is X", "I am on X time", "I am X hours ahead of GMT"), 0.3, "timezone time zone"),
    _f("occupation", K.PROFILE, "profile.occupation", "single", "the user's job or profession",
       ("I work as a X", "I am a X by profession", "I got a job as X", "I retired from my job", "I changed careers"), 0.25, "job work occupation do"),
    _f("employer", K.PROFILE, "profile.employer", "single", "the company or organisation the user works for",
       ("I work at X", "I joined X company", "my employer is X"), 0.3, "employer company works"),
    _f("role", K.PROFILE, "profile.role profile.title", "single", "the user's role or title at work",
       ("my title is X", "my job title changed to X", "I lead the X", "I am head of X", "I am the X on the project"), 0.3, "role title position"),
    _f("manager", K.PROFILE, "profile.manager relation.manager relation.boss relation.line_manager", "single", "the person the user reports to",
       ("my manager is X", "I report to X", "my boss is X"), 0.3, "manager boss report"),
    _f("team", K.PROFILE, "profile.team", "single", "the team or department the user belongs to",
       ("I am on the X team", "I moved to the X department"), 0.3, "team department"),
    _f("project", K.FACT, "fact.project", "multi", "a project the user is working on",
       ("I am working on the X project", "my project this quarter is X"), 0.5, "project working"),
    _f("work_schedule", K.PROFILE, "profile.work_schedule", "single", "when and where the user works",
       ("I work X days a week", "I work night shifts", "I am in the office on X"), 0.4, "hours schedule shift office"),
    _f("commute", K.PROFILE, "profile.commute", "single", "how the user gets to work, school or the office",
       ("I take the train to work", "I cycle to work", "I drive to work every day", "I get the bus into work",
        "I commute by tram", "I go to work by car"), 0.3, "commute train bus tram cycle drive walk"),
    _f("education", K.PROFILE, "profile.education", "single", "what and where the user studies or studied",
       ("I am studying X", "I did my degree in X", "I studied at X university"), 0.3, "study degree university"),
    _f("expertise", K.PROFILE, "profile.expertise", "multi", "a skill and the user's level in it",
       ("I am an expert in X", "I am a beginner at X", "I have years of experience in X"), None, "experience skill expert"),
    _f("languages", K.PROFILE, "profile.languages profile.native_language profile.language", "multi",
       "a language the user speaks, is native in or is learning",
       ("I speak X fluently", "my first language is X", "I am learning X"), None, "language speak learning"),
    _f("programming_language", K.PROFILE, "profile.programming_language", "multi",
       "a programming language the user works in", ("I code in X", "my main language at work is X", "I write X"),
       0.3, "code programming"),
    _f("relation", K.PROFILE, "relation", "multi",
       "a family member, partner, friend or other person in the user's life, with their name",
       ("my wife is X", "my son X is five", "my brother X lives abroad", "my partner is called X"), 0.03,
       "family wife husband son daughter partner mother father brother sister"),
    _f("health", K.FACT, "fact.health profile.health", "multi", "a health condition, injury or diagnosis",
       ("I have X", "I was diagnosed with X", "I injured my X"), 0.3, "health condition"),
    _f("medication", K.FACT, "fact.medication", "multi", "a medicine the user takes, with its dose",
       ("I take X mg of X daily", "I was prescribed X", "I am on X for my blood pressure"), 0.4,
       "medication medicine prescription dose"),
    _f("clinician", K.FACT, "fact.clinician", "multi", "the user's doctor, dentist, therapist or other clinician",
       ("my doctor is Dr X", "my dentist is X", "I see X for physio", "my GP is X", "I registered with a new doctor"), 0.2, "doctor dentist gp"),
    _f("fitness", K.PREFERENCE, "preference.fitness", "multi", "the user's exercise routine",
       ("I go running X times a week", "I do yoga on X", "I train at the gym"), 0.3, "exercise workout gym"),
    _f("sleep", K.PROFILE, "profile.sleep", "single", "when the user sleeps and wakes",
       ("I wake up at X", "I go to bed at X", "I am a night owl"), 0.3, "sleep wake bed"),
    _f("size", K.PROFILE, "profile.size", "multi", "clothing, shoe or ring size",
       ("I wear size X shoes", "my shirt size is X"), 0.2, "size wear"),
    # -- contact and money
    _f("phone", K.FACT, "contact.phone", "single", "the user's phone number",
       ("my phone number is X", "call me on X", "my new number is X"), 0.3, "phone number call"),
    _f("email", K.FACT, "contact.email", "single", "the user's email address",
       ("my email is X", "write to me at X"), 0.3, "email"),
    _f("account", K.FACT, "account card", "multi", "a bank account, routing or card number",
       ("my account number ends in X", "the routing number is X", "my card ends X", "use my other bank account"), 0.2, "account card bank"),
    _f("bank", K.FACT, "fact.bank", "single", "the bank the user banks with",
       ("I bank with X", "my current account is at X bank"), 0.2, "bank"),
    _f("finance", K.FACT, "finance", "multi", "income, salary, savings, debts and other sums of money",
       ("I earn X a year", "my salary is X", "my take-home pay is X", "I owe X on my loan", "I save X a month"), 0.6,
       "money salary income earn owe savings"),
    _f("budget", K.FACT, "fact.budget", "multi", "how much the user can spend on something",
       ("my budget for X is X", "I can spend up to X"), 0.6, "budget spend afford"),
    _f("rent", K.FACT, "fact.rent", "single", "what the user pays in rent",
       ("my rent is X a month", "we pay X in rent"), 0.5, "rent"),
    _f("insurance", K.FACT, "fact.insurance", "multi", "an insurance policy and its provider",
       ("my car insurance is with X", "my policy number is X"), 0.3, "insurance policy"),
    _f("provider", K.FACT, "fact.provider", "multi",
       "a company that supplies the user's household a service: energy, water, broadband, mobile network",
       ("our electricity supplier is X", "my broadband is with X", "we get our gas from X", "my mobile network is X"),
       0.3, "supplier provider broadband energy electricity gas network"),
    _f("subscription", K.FACT, "fact.subscription", "multi", "a paid subscription or membership",
       ("I subscribe to X", "my membership is the X plan", "I cancelled my X subscription"), 0.4,
       "subscription membership plan"),
    # -- things and plans
    _f("vehicle", K.FACT, "vehicle", "multi", "a car, bike or other vehicle the user owns, with its details",
       ("I drive a X", "my car is a X", "the plate of my car is X", "I sold my car"), 0.2, "car vehicle drive plate"),
    _f("pet", K.FACT, "fact.pet", "multi", "a pet the user has, with its name",
       ("I have a cat called X", "our dog X", "we adopted a X"), 0.1, "pet cat dog"),
    _f("possession", K.FACT, "possession purchase", "multi", "something the user owns", ("I own a X", "I bought a X"), 0.3),
    _f("appointment", K.FACT, "appointment fact.appointment", "multi", "a scheduled appointment, with date and time",
       ("my X appointment is on X at X", "I have a X booked for X", "the appointment moved to X"), 0.6,
       "appointment when scheduled"),
    _f("booking", K.FACT, "travel booking fact.booking", "multi",
       "a flight, hotel, train or other booking, with its reference", ("my flight is X on X", "I booked the X hotel",
                                                                      "the booking reference is X"),
       0.6, "flight hotel booking reservation trip"),
    _f("reservation", K.FACT, "fact.reservation", "multi", "a restaurant table or similar reservation",
       ("we have a table at X on X", "dinner is booked at X"), 0.6, "table dinner restaurant"),
    _f("event", K.FACT, "fact.event fact.plan", "multi", "an event or plan on the user's calendar: trip, party, show",
       ("the X is on X", "we are going to X in X", "I have tickets for X", "I signed up for the X race on X"), 0.5,
       "event plan trip"),
    _f("deadline", K.FACT, "deadline", "multi", "a due date for something the user must deliver",
       ("X is due by X", "the deadline for X is X"), 0.6, "deadline due"),
    _f("expiry", K.FACT, "fact.expiry expiry passport visa id_card driving_license", "multi", "when a document or card expires",
       ("my passport expires in X",), 0.5, "expire expires", suffixes="expiration"),
    _f("identifier", K.FACT, "fact.id fact.identifier id booking_code " + _ID_TYPES, "multi",
       "a reference, member or order number the user was given", ("my order number is X",), 0.4, "number reference"),
    # -- preferences
    _f("communication", K.PREFERENCE, "preference.communication", "multi",
       "how the user wants answers written: length, detail, tone, format, channel, reply language",
       ("keep answers X", "I like X replies", "please use X in answers", "text me rather than call",
        "give me answers as X", "I would rather see X in replies", "email is the best way to reach me"), None,
       "answer reply style format tone"),
    _f("diet", K.PREFERENCE, "preference.diet.type preference.diet.drink", "single",
       "the user's diet (vegetarian, vegan, halal, low-carb ...)", ("I am X", "I follow a X diet", "I eat X only",
                                                                    "I eat everything, meat included",
                                                                    "I have started eating meat again"),
       None, "diet eat food"),
    _f("diet_avoid", K.PREFERENCE, "preference.diet.avoid", "multi", "a food or drink the user avoids",
       ("I do not eat X", "I avoid X", "I stopped drinking X"), None, "avoid eat drink"),
    _f("allergy", K.PREFERENCE, "preference.diet.allergy preference.diet.intolerance preference.allergy", "multi",
       "an allergy or intolerance", ("I am allergic to X", "I have an X allergy", "X makes me ill"), None,
       "allergy allergic intolerant"),
    _f("accessibility", K.PREFERENCE, "preference.accessibility", "multi", "an accessibility need",
       ("I use a wheelchair", "I am hard of hearing"), None, "accessibility"),
    _f("like", K.PREFERENCE, "preference.like preference.dislike", "multi", "something the user likes or dislikes",
       ("I love X", "I cannot stand X", "my favourite X is X", "I am really into X"), None, "like favourite enjoy"),
    _f("prefer", K.PREFERENCE, "preference.prefer preference.choice preference.seat preference.schedule "
       "preference.work preference.travel preference.units", "multi",
       "a choice the user prefers: seats, times, hotels, units, ways of travelling",
       ("I prefer X over X", "I would rather X", "book me X seats"), None, "prefer rather"),
    _f("habit", K.PREFERENCE, "preference.habit", "multi", "something the user usually or always does",
       ("I usually X", "I always X on X"), None, "usually always habit"),
    _f("instruction", K.PREFERENCE, "preference.instruction", "multi", "a standing instruction to the assistant",
       ("please always X", "never X when you reply"), None, "always never"),
    _f("hobby", K.PREFERENCE, "preference.hobby", "multi", "a hobby or pastime, music, reading or game the user enjoys",
       ("in my free time I X", "I play X", "I have taken up X", "I am reading X", "I listen to X music", "my favourite band is X", "I quit my hobby"), 0.2, "hobby free time"),
    _f("tool", K.PREFERENCE, "preference.tool", "multi", "software or a tool the user uses",
       ("I use X for X", "we track work in X", "my editor is X"), 0.3, "tool app software"),
    _f("procedure", K.PROCEDURE, "procedure", "multi", "how the user wants a recurring task done",
       ("when you X, always X first",), None, "how steps"),
    # the user's own words about their world that no family above names ("the demo is due X", "rent is X now"):
    # no examples, so no statement is drawn here by resemblance; a statement with a value lands here only when
    # no family claims it, and a later one replaces it only by meaning (see ``_attributes``)
    _f("note", K.FACT, "fact.note", "multi", "something of the user's world, in their own words, that no other "
       "attribute names", (), 0.5, ""),
    _f("task", K.OPEN_LOOP, "task", "multi", "something the user still has to do (closed once done)",
       ("I need to X", "remind me to X", "I still have to X"), 0.1, "todo pending need remind"),
)

_BY_PREFIX: list[tuple[str, KeyFamily]] = sorted(
    ((p, fam) for fam in KEY_FAMILIES for p in fam.prefixes), key=lambda pf: -len(pf[0]))
_WITH_SUFFIX = [fam for fam in KEY_FAMILIES if fam.suffixes]
_BY_NAME = {fam.name: fam for fam in KEY_FAMILIES}


_PREFIX_OWNER: dict[str, KeyFamily] = {}
for _p, _fam in _BY_PREFIX:
    _PREFIX_OWNER.setdefault(_p, _fam)


def family_of(key: str) -> KeyFamily | None:
    """The family a slot key belongs to (longest prefix on dot boundaries), or None.

    Looked up by the key's own dot boundaries (a handful) rather than by trying all 135 prefixes: ``remember``
    asks this for every earlier memory of each candidate (~4,500 times a call at 10k memories)."""
    base = slot_of(key)
    parts = base.split(".")
    if _WITH_SUFFIX and len(parts) > 1:
        tails = {".".join(parts[i:]) for i in range(1, len(parts))}
        for fam in _WITH_SUFFIX:
            if any(sfx in tails for sfx in fam.suffixes):
                return fam
    for n in range(len(parts), 0, -1):
        owner = _PREFIX_OWNER.get(".".join(parts[:n]))
        if owner is not None:
            return owner
    return None


_KIND_LEADS = {"fact.": "", "profile.": "", "preference.": "", "open_loop.": "task.", "openloop.": "task.",
               "task.": "task.", "procedure.": "procedure."}


def canonical_key(key: str) -> str:
    """``key`` itself when it belongs to a family; else the key without a leading kind name when that
    does ("fact.vehicle.civic.plate" -> "vehicle.civic.plate", "open_loop.renew_passport" -> "task.renew_passport");
    else ``key`` unchanged."""
    if family_of(key) is not None:
        return key
    for lead, repl in _KIND_LEADS.items():
        if key.startswith(lead) and len(key) > len(lead):
            alt = repl + key[len(lead):]
            if family_of(alt) is not None:
                return alt
    return key


def family_by_name(name: str) -> KeyFamily:
    return _BY_NAME[name]
