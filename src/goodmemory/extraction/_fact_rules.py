"""Fact rules: accounts and cards, identifiers, vehicles, purchases, money, contact details, dates."""

from __future__ import annotations

import re
from datetime import date

from ..keys import EXPIRATION
from ..models import MemoryKind
from ..taxonomy import content_words, humanize_key, slot_key
from . import _patterns as P
from ._engine import Clause, Example, Rule
from ._english import article
from ._rule_health import CONDITION_RULE, MEDICATION_RULE
from ._rule_pets import PET_RULE

__all__ = ["EXPIRY_RULE", "FACT_RULES", "expiry"]

K = MemoryKind
Match = re.Match[str]
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
_TYPE_NORM = {"ref": "reference", "pnr": "booking", "record locator": "booking", "reservation": "booking",
              "member": "membership", "frequent flier": "frequent_flyer", "licence": "license", "rx": "prescription"}
_DOC_FAMILY = {"driver's license": "license", "drivers license": "license", "driver's licence": "license",
               "licence": "license", "id card": "id", "extended warranty": "warranty"}
_BOUGHT_VERBS = frozenset({"bought", "buy", "buying", "purchased", "purchase", "ordered"})


def _clean_id(v: str) -> str:
    return v.lstrip("#").strip(" .-")


def _account(c: Clause, m: Match | None) -> None:
    assert m
    if _FORMER_QUAL.search(m.group(0)):
        return
    inst, typ, v = (m.group("inst") or "").strip(), (m.group("type") or "").lower(), _clean_id(m.group("v"))
    if inst.lower() in ("my", "the", "our"):
        inst = ""
    label = " ".join(x for x in (inst, typ) if x)
    c.emit(slot_key("account", inst or None, typ or ("number" if not inst else None)), v,
           c.say(label=label + " " if label else "", v=v), keywords=f"account number bank {label}")


def _not_another_number(c: Clause, m: Match | None) -> bool:
    """ "The routing number for my account is ..." names the routing number, not the account's."""
    return m is not None and not _OTHER_NUMBER.search(c.s[: m.start()])


_OTHER_NUMBER = re.compile(r"\b(?:routing|sort code|swift|iban|bic|aba)\b(?: (?:number|no\.?|code|#))?(?: (?:for|of|on))?\s*$", re.I)


# the last digits of a bank account, not a card: "my savings account ends in 6620", "the account ending 0417"
_R_ACCOUNT_LAST4 = re.compile(
    r"\b(?:my |the |our )?(?P<type>checking |savings |current |joint |business )?account(?: number)? "
    r"(?:ending|ends) (?:in |with )?(?P<v>\d{4})\b", re.I)
# "use the one ending 5520" in a clause about an account names that account's last digits
_R_ONE_ENDING = re.compile(r"\b(?:the|my) (?:new |other )?one (?:ending|ends) (?:in |with )?(?P<v>\d{4})\b", re.I)
_ACCOUNT_WORD = re.compile(r"\b(?P<type>checking |savings |current |joint |business )?account\b", re.I)


def _account_last4(c: Clause, m: Match | None) -> None:
    m = _R_ACCOUNT_LAST4.search(c.s)
    if m is None:
        sentence = c.run.sentence or c.s  # "The one ending 1234 - my joint account": the noun is in another clause
        m, word = _R_ONE_ENDING.search(c.s), _ACCOUNT_WORD.search(sentence)
        if m is None or word is None or re.search(r"\bcard\b", sentence, re.I):
            return
        typ = (word.group("type") or "").strip().lower()
    else:
        typ = (m.group("type") or "").strip().lower()
    c.emit(slot_key("account", typ or None, "last4"), m.group("v"), c.say(typ=typ + " " if typ else "", v=m.group("v")),
           keywords=f"account number ending last four bank {typ}")


def _routing(c: Clause, m: Match | None) -> None:
    assert m
    c.emit("account.routing", m.group("v"), keywords="routing number bank aba")


def _card_last4(c: Clause, m: Match | None) -> None:
    assert m
    if not (m.group("card") or m.group("brand")):
        return
    brand = (m.group("brand") or "").strip()
    c.emit(slot_key("card", brand or "card", "last4"), m.group("v"), c.say(brand=brand + " " if brand else "", v=m.group("v")),
           keywords=f"card credit debit ending last four {brand}")


_FORMER_QUAL = re.compile(r"\b(?:old|previous|former|expired|cancell?ed|closed)\b", re.I)
_OTHERS = re.compile(r"\b(?:" + "|".join(sorted(P.RELATIONS)) + r")['’]s\b", re.I)
# a choice still open: hedged, or between two options named together
_UNDECIDED = re.compile(r"\b(?:maybe|might|perhaps|possibly|probably|considering|thinking (?:of|about)|not sure|"
                        r"either|deciding|torn)\b|\bor (?:the|a|an)\b", re.I)


def _identifier(c: Clause, m: Match | None) -> None:
    for m in P.R_IDENT.finditer(c.s):
        typ = m.group("type").lower()
        if typ == "account" or (typ in ("license", "licence", "registration") and "plate" in m.group(0).lower()):
            continue
        typ = _TYPE_NORM.get(typ, typ)
        if _OTHERS.search(m.group("qual")) or _FORMER_QUAL.search(m.group("qual")):
            continue  # "my husband's policy number" is his; "my old policy number" is no longer in force
        qual = " ".join(w for w in m.group("qual").split() if w.lower() not in ("new", "current", "a", "an"))
        v = _clean_id(m.group("v"))
        if len(re.sub(r"\W", "", v)) < 4:
            continue
        c.note["ident"] = True
        label = f"{qual} {m.group('type')}".strip()
        c.emit(slot_key(typ, qual or None, "number"), v, c.say(label=label, v=v), keywords=f"{label} number id reference")


def _identifier_short(c: Clause, m: Match | None) -> None:
    m = P.R_PNR.search(c.s) or P.R_IDENT_SHORT.search(c.s)
    if m and len(re.sub(r"\W", "", m.group("v"))) >= 4:
        typ = _TYPE_NORM.get(m.group("type").lower(), m.group("type").lower())
        v = _clean_id(m.group("v"))
        c.emit(slot_key(typ, "number"), v, c.say(label=m.group("type"), v=v), keywords=f"{typ} number code reference")


def _plate(c: Clause, m: Match | None) -> None:
    s, run = c.s, c.run
    m = P.R_PLATE.search(s) or P.R_PLATE_ON.search(s)
    veh = m.group("veh") if m else None
    if m and veh and veh.split()[0].lower() in ("my", "the", "our", "your", "license", "licence"):
        m, veh = None, None
    m = m or P.R_PLATE_BARE.search(s)
    if not m:
        return
    attr = "vin" if m.group("attr").lower() == "vin" else "plate"
    v = re.sub(r"(?:\s+[A-Za-z])+$", "", m.group("v")).strip()
    ok = bool(P.VIN.fullmatch(v)) if attr == "vin" else (re.search(r"\d", v) and 4 <= len(v.replace(" ", "")) <= 10)
    if ok:
        name = veh or (run.vehicles[-1].replace("_", " ").title() if run.vehicles else "")
        vslug = run.vehicle_slug(name) if name else "car"
        label = "plate" if attr == "plate" else "VIN"
        c.emit(slot_key("vehicle", vslug, attr), v, c.say(name=name + " " if name else "", label=label, v=v),
               keywords=f"{'plate license registration tag' if attr == 'plate' else 'vin vehicle identification number'} car vehicle {name}")


def _own_vehicle(c: Clause, m: Match | None) -> None:
    assert m
    name = m.group("veh")
    full = f"{m.group('year')} {name}"
    if name.split()[0].lower() in P.CAR_MAKES:
        c.emit(slot_key("vehicle", c.run.vehicle_slug(name)), full, importance=0.65, keywords=f"car vehicle owns drives {name}")
    else:  # "an old 2018 MacBook Pro" is a thing the user owns, not a car
        c.emit(slot_key("possession", name), full, keywords=f"owns has device item {name}")


def _choice(c: Clause, m: Match | None) -> None:
    """A named product the user chose or bought: "We'll take the Platinum Card", "I bought the Kestrel X2"."""
    m = P.R_CHOICE.search(c.s) or P.R_BOUGHT.search(c.s)
    if not m:
        return
    name, tail = m.group("x"), (m.group("tail") or "").strip()
    if name.split()[0].lower() in P.CAR_MAKES:
        return  # vehicles have their own rules
    bought = m.group("verb").lower() in _BOUGHT_VERBS
    family = "card" if (tail.lower().endswith("card") or name.lower().endswith("card")) else "purchase"
    also, issuer = "", c.run.issuer
    if family == "card" and issuer and not P.R_ISSUER.search(name):
        # "we'll take the Platinum Card" while talking to American Express is the Amex Platinum Card
        name = f"{issuer[0]} {name}"
        also = f" ({issuer[1]})" if issuer[1] != issuer[0] else ""
    what = f"{name} {tail}".strip()
    c.emit(slot_key(family, name), name, f"User {'bought' if bought else 'chose'} the {what}{also}.",
           keywords=f"{'bought purchased owns' if bought else 'chose picked selected has'} {family} {what}")


def _money(c: Clause, m: Match | None) -> None:
    assert m
    what, v = m.group("what").lower(), m.group("v").strip()
    # the rent is the rent family's one value (a statement of it is filed there): "finance.rent" had kept the old rent
    # current beside "the landlord's put the rent up to X"
    key = "fact.rent" if re.search(r"\brent\b", what) else slot_key("finance", what)
    c.emit(key, v, c.say(what=what, v=v), keywords=f"money amount {what}",
           conf=0.8 if re.search(r"\b(?:about|around|roughly|approximately)\b", m.group(0), re.I) else 0.85)


def _earn(c: Clause, m: Match | None) -> None:
    assert m
    c.emit("finance.income", m.group("v").strip(), keywords="income salary earns makes money")


def _email(c: Clause, m: Match | None) -> None:
    assert m
    typ = (m.group("type") or "").strip().lower()
    c.emit(slot_key("contact", "email", typ or None), m.group("v"), c.say(typ=typ + " " if typ else "", v=m.group("v")),
           keywords="email e-mail address contact")


def _phone(c: Clause, m: Match | None) -> None:
    assert m
    if not 7 <= sum(ch.isdigit() for ch in m.group("v")) <= 15:
        return
    typ = (m.group("type") or next((w for w in ("cell", "mobile") if w in m.group(0).lower()), "")).lower()
    v = m.group("v").strip()
    c.emit(slot_key("contact", "phone", typ or None), v, c.say(typ=typ + " " if typ else "", v=v),
           keywords="phone number mobile cell contact call")


def _address(c: Clause, m: Match | None) -> None:
    assert m
    typ = (m.group("type") or "").strip().lower()
    v = m.group("v").strip(" ,.")
    home = typ in ("", "home", "new")
    c.emit("profile.address" if home else slot_key("contact", "address", typ), v, c.say(typ="home" if home else typ, v=v),
           correction="moved" in m.group(0).lower() or typ == "new", keywords="address lives street home")


def _birth(c: Clause, m: Match | None) -> None:
    assert m
    when = P.resolve_when(m.group("rest"), c.src.ts, future=False)
    if when and _YEAR.search(m.group("rest")):
        day = when.day.isoformat()
        c.emit("profile.birth_date", day, f"User was born on {day}.", metadata={"date": day},
               keywords="birthday born date of birth age")
    elif when:
        v = when.day.strftime("%B %d").replace(" 0", " ")
        c.emit("profile.birthday", v, f"User's birthday is {v}.", importance=0.55, keywords="birthday born")
    elif y := re.match(r"in (?:'(\d\d)|((?:19|20)\d\d))\b", m.group("rest")):  # "I was born in '88": a year
        year = int(y[2] or 0) or int(y[1]) + (1900 if int(y[1]) > c.src.ts.year % 100 else 2000)
        c.emit("profile.birth_year", str(year), f"User was born in {year}.", keywords="birthday born year age")


def expiry(c: Clause, what: str, who: str, day: date, said: str) -> None:
    """``<family>[.<issuer>].expiration`` = ISO date; the text spells the date out ("February 18, 2025")."""
    family = _DOC_FAMILY.get(what.lower(), what.lower())
    who = "" if who.lower() in ("my", "the", "our", "your", "new", "current", "old") else who
    label = f"{who} {what.lower()}".strip()
    spelled = f"{day.strftime('%B')} {day.day}, {day.year}"
    c.emit(slot_key(family, who or None, EXPIRATION), day.isoformat(),
           f"User's {label} is valid until {spelled} (expires {day.isoformat()}).", conf=0.85, importance=0.75,
           metadata={"date": day.isoformat()},
           keywords=f"{label} expires expiration expiry valid until renew renewal {said}")


def _expiry(c: Clause, m: Match | None) -> None:
    assert m
    when = P.resolve_when(m.group("rest"), c.src.ts)
    if when and when.start <= 3:
        expiry(c, m.group("what"), (m.group("who") or "").strip(), when.day, m.group("rest")[when.start:when.end])


# a visit that already happened is no appointment ("my checkup was on Monday", "I had my scan last Tuesday");
# a past participle of a change ("was moved to Friday") still names a date ahead
_PAST_EVENT = re.compile(r"\b(?:was|were|went|had|did|attended|happened|took place|yesterday|ago|last (?:week|month|year|"
                         r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|night))\b", re.I)
_CHANGED = re.compile(r"\b(?:was|were|has been|had been|got) (?:moved|rescheduled|changed|pushed|postponed|brought forward|"
                      r"booked|confirmed|set)\b", re.I)


def _ahead(c: Clause, m: Match | None) -> bool:
    return not _PAST_EVENT.search(_CHANGED.sub(" ", c.s))


# "moved from the 3rd to the 10th": the date it was moved to is the one in force
_FROM_TO = re.compile(r"\bfrom\b.+?\bto\b\s+(?P<new>.+)$", re.I)


def _event(c: Clause, m: Match | None) -> None:
    assert m
    moved_to = _FROM_TO.search(m.group("rest")) if _CHANGED.search(c.s) else None
    when = (moved_to and P.resolve_when(moved_to.group("new"), c.src.ts)) or P.resolve_when(m.group("rest"), c.src.ts)
    if not when:
        return
    what = " ".join(w for w in m.group("what").split() if w.lower() not in ("next", "upcoming", "new", "big", "the"))
    noun = {"appt": "appointment", "check-up": "checkup"}.get(m.group("noun").lower(), m.group("noun").lower())
    if noun in ("flight", "trip", "vacation", "holiday") and re.search(r"\w(?:'s|s')\s", m.group("what")):
        return  # "my brother's flight": another person's journey, no flight of the user's
    dest = re.search(r"\bto (?-i:([A-Z][\w\-]+(?: [A-Z][\w\-]+)?))", m.group("rest"))
    if noun in ("flight", "trip", "vacation", "holiday"):
        key = slot_key("travel", noun, dest.group(1) if dest else what or None)
    else:
        key = slot_key("appointment", what or noun) if noun == "appointment" else slot_key("appointment", f"{what} {noun}")
    label = f"{what} {noun}".strip() + (f" to {dest.group(1)}" if dest else "")
    moved = bool(re.search(r"\b(?:moved|rescheduled|changed|pushed|postponed)\b", m.group("rest"), re.I))
    c.emit(key, when.day.isoformat(), c.say(a=article(label), label=label, when=when.phrase), correction=moved,
           metadata={"date": when.day.isoformat(), "time": when.time},
           keywords=f"{label} appointment schedule date when {c.s[when.start:when.end]}")


def _deadline(c: Clause, m: Match | None) -> None:
    assert m
    what = re.sub(r"^(?:the|my|our)\s+", "", (m.group("what") or m.group("what2")).strip(), flags=re.I)
    what = " ".join(what.split()[-4:])
    when = P.resolve_when(m.group("rest") or m.group("rest2") or "", c.src.ts)
    if when and content_words(what):
        c.emit(slot_key("deadline", what), when.day.isoformat(), c.say(what=what, when=when.phrase),
               metadata={"date": when.day.isoformat(), "time": when.time},
               keywords=f"deadline due {what} {c.s[when.start:when.end]}")


def _switched(c: Clause, m: Match | None) -> None:
    assert m
    if not m.group("old"):
        return
    old = m.group("old").strip().lower()
    for key, val in c.run.ctx.existing.items():
        if val.lower() == old:
            v = m.group("v")
            c.emit(key, v, f"User's {humanize_key(key)} is now {v} (switched from {m.group('old').strip()}).",
                   correction=True, keywords=f"switched changed {old}")
            break


_R_BANK = re.compile(
    r"\b(?:i bank with|my bank is(?: now)?|i(?:'ve| have)? (?:switched|moved) (?:my )?(?:\w+ )?(?:account|accounts|banking) "
    r"(?:over )?to)\s+(?P<v>" + P.ORG + r")", re.I)
_R_INSURER = re.compile(
    r"\bmy (?P<t>car|auto|home|house|health|travel|pet|life|renters|contents|dental|phone) insurance is (?:now )?"
    r"(?:with|from|through) (?P<v>" + P.ORG + r")|\bi(?:'m| am) (?:now )?insured (?:with|by|through) (?P<v2>" + P.ORG + r")"
    r"|\bi(?:'ve| have)? (?:moved|switched|changed) (?:my |the |our )?(?P<t2>car|auto|home|house|health|travel|pet|life|"
    r"renters|contents|dental|phone) insurance (?:over )?to (?P<v3>" + P.ORG + r")"
    # passive, the user's possession as subject: "the cottage is insured with X", "my van's insured by X"
    r"|(?:^|\b(?:my|our|the) )(?P<t4>(?-i:[a-z]+))(?:'s| is| are) (?:now |also )?insured (?:with|by|through) "
    r"(?P<v4>" + P.ORG + r")|\bwe(?:'re| are) (?:now )?insured (?:with|by|through) (?P<v5>" + P.ORG + r")"
    # the thing insured, possessive: "the cat's insurance is with X", "our van's insurance is through X"
    r"|(?:^|\b(?:my|our|the) )(?P<t6>(?-i:[a-z]+))['’]s insurance is (?:now )?(?:with|from|through) (?P<v6>" + P.ORG + r")", re.I)
# a dwelling's insurance is the home insurance whatever the user calls the dwelling
_DWELLINGS = frozenset(["house", "home", "flat", "apartment", "cottage", "bungalow", "condo", "place"])
# a code-like reference right after its noun, with no "number": "policy RL-4410", "order #A7731"
_R_BARE_CODE = re.compile(r"\b(?P<type>policy|claim|order|ticket|case|invoice|booking|reservation)\s+#?"
                          r"(?P<v>(?-i:[A-Z]{1,4}-?\d{3,}[A-Z0-9\-]*))\b", re.I)
_R_DEADLINE_NAMED = re.compile(r"^(?:the |my |our )?(?P<what>[\w'\- ]{2,40}?) deadline is (?:now )?(?P<rest>.+)$", re.I)


def _bank(c: Clause, m: Match | None) -> None:
    assert m
    c.emit("fact.bank", m.group("v").rstrip("."), correction="switched" in m.group(0).lower() or "moved" in m.group(0).lower(),
           keywords="bank banking account with")


def _insurer(c: Clause, m: Match | None) -> None:
    assert m
    typ = (m.group("t") or m.group("t2") or "").lower()
    thing = m.group("t4") or m.group("t6")
    if thing:
        if P.OTHER_SUBJECT.match(f"my {thing}"):
            return  # "my sister is insured with X": her insurer, not the user's
        typ = "home" if thing.lower() in _DWELLINGS else thing.lower()
    v = (m.group("v") or m.group("v2") or m.group("v3") or m.group("v4") or m.group("v5") or m.group("v6")).rstrip(".")
    c.emit(slot_key("fact", "insurance", typ or None), v, c.say(t=typ + " " if typ else "", v=v), correction=bool(m.group("v3")),
           keywords=f"insurance insurer policy provider {typ}")


def _bare_code(c: Clause, m: Match | None) -> None:
    assert m
    typ = _TYPE_NORM.get(m.group("type").lower(), m.group("type").lower())
    c.emit(slot_key(typ, "number"), m.group("v"), c.say(label=m.group("type").lower(), v=m.group("v")),
           keywords=f"{typ} number code reference")


def _deadline_named(c: Clause, m: Match | None) -> None:
    assert m
    what = " ".join(m.group("what").split()[-4:])
    when = P.resolve_when(m.group("rest"), c.src.ts)
    if when and when.start <= 4 and content_words(what):
        c.emit(slot_key("deadline", what), when.day.isoformat(), c.say(what=what, when=when.phrase),
               metadata={"date": when.day.isoformat(), "time": when.time}, keywords=f"deadline due {what}")


EXPIRY_RULE = Rule(
    "expiry", K.FACT, ("expiry", "identifier"), "User's {v} is valid until {when}.", _expiry, pattern=P.R_EXPIRY,
    importance=0.75, examples=(
        Example("My passport expires on 14 May 2031.", "passport.expiration", "2031-05-14"),
        Example("Dyson warranty until June 3rd, 2027.", "warranty.dyson.expiration", "2027-06-03"),
        Example("My passport is in the drawer.")))

FACT_RULES: tuple[Rule, ...] = (
    Rule("account", K.FACT, ("account",), "User's {label}account number is {v}.", _account, pattern=P.R_ACCOUNT,
         guards=(_not_another_number,), confidence=0.9, importance=0.8, examples=(
             Example("My checking account number is 55012877.", "account.checking", "55012877"),
             Example("The routing number for my account is 026009593."),
             Example("My account was closed last year."))),
    Rule("routing_number", K.FACT, ("account",), "User's bank routing number is {v}.", _routing, pattern=P.R_ROUTING,
         confidence=0.9, importance=0.7, examples=(
             Example("The routing number is 021000089.", "account.routing", "021000089"),
             Example("The routing number for my account is 026009593.", "account.routing", "026009593"),
             Example("The routing number is on the cheque."))),
    Rule("card_last4", K.FACT, ("account",), "User's {brand}card ends in {v}.", _card_last4, pattern=P.R_CARD_LAST4,
         confidence=0.9, importance=0.7, examples=(
             Example("Charge my Mastercard ending in 8832.", "card.mastercard.last4", "8832"),
             Example("The meeting ends in 10 minutes."))),
    Rule("account_last4", K.FACT, ("account",), "User's {typ}account ends in {v}.", _account_last4,
         confidence=0.85, importance=0.7, examples=(
             Example("My old account is closed, pay into the one ending 3391.", "account.last4", "3391"),
             Example("Charge the one ending 3391, my debit card."),
             Example("The one ending 3391, my joint account.", "account.joint.last4", "3391"),
             Example("My savings account ends in 6620.", "account.savings.last4", "6620"),
             Example("Routing is 026009593 for me, plus my account number ending 7781.", "account.last4", "7781"),
             Example("My account ended up overdrawn."))),
    Rule("identifier_number", K.FACT, ("identifier", "booking"), "User's {label} number is {v}.", _identifier,
         confidence=0.9, importance=0.75, examples=(
             Example("My claim number is CLM-40921.", "claim.number", "CLM-40921"),
             Example("My husband's policy number is HP-55012."),
             Example("My old policy number was HP-55012."),
             Example("My order is late again."))),
    Rule("booking_code", K.FACT, ("identifier", "booking"), "User's {label} number is {v}.", _identifier_short,
         importance=0.7, guards=(lambda c, m: not c.note.get("ident"),), examples=(
             Example("I'm calling about booking #A77812.", "booking.number", "A77812"),
             Example("The booking was easy."))),
    Rule("bare_code", K.FACT, ("identifier", "booking"), "User's {label} number is {v}.", _bare_code,
         pattern=_R_BARE_CODE, importance=0.7, guards=(lambda c, m: not c.fired,), examples=(
             Example("My home cover is with Ashgrove, policy HX-20417.", "policy.number", "HX-20417"),
             Example("My order 12 went missing."))),
    Rule("plate_vin", K.FACT, ("vehicle",), "User's {name}{label} is {v}.", _plate, confidence=0.9, importance=0.75,
         examples=(
             Example("My plate number is KX 4471.", "vehicle.car.plate", "KX 4471"),
             Example("My plate is chipped."))),
    Rule("vehicle", K.FACT, ("vehicle", "possession"), "User owns a {v}.", _own_vehicle, pattern=P.R_OWN_VEHICLE,
         importance=0.55, examples=(
             Example("I drive a 2017 Subaru Outback.", "vehicle.subaru_outback", "2017 Subaru Outback"),
             Example("I drive a lot on weekends."))),
    Rule("choice", K.FACT, ("possession", "account"), "User chose the {v}.", _choice, confidence=0.8, importance=0.6,
         guards=(lambda c, m: not _UNDECIDED.search(c.s),), examples=(
             Example("Maybe I'll take the Orbit Pro, or the Orbit Lite."),
             Example("I'll take the Orbit Pro then.", "purchase.orbit_pro", "Orbit Pro"),
             Example("I bought the Kestrel X2 yesterday.", "purchase.kestrel_x2", "Kestrel X2"),
             Example("I bought the cheaper one."))),
    Rule("money", K.FACT, ("finance", "rent"), "User's {what} is {v}.", _money, pattern=P.R_MONEY, importance=0.6,
         examples=(
        Example("My monthly rent is €1,150.", "fact.rent", "€1,150"),
        Example("My phone bill went up to £42.", "finance.phone_bill", "£42"),
        Example("My rent is due soon."))),
    Rule("income", K.FACT, ("finance",), "User earns {v}.", _earn, pattern=P.R_EARN, confidence=0.8, importance=0.55,
         examples=(
             Example("I earn about $64,000 a year.", "finance.income", "$64,000 a year"),
             Example("I earn my keep."))),
    Rule("email", K.FACT, ("email",), "User's {typ}email address is {v}.", _email, pattern=P.R_EMAIL, confidence=0.9,
         importance=0.7, examples=(
             Example("My work email is r.okafor@lumen-tools.io.", "contact.email.work", "r.okafor@lumen-tools.io"),
             Example("My email is down today."))),
    Rule("phone", K.FACT, ("phone",), "User's {typ}phone number is {v}.", _phone, pattern=P.R_PHONE, confidence=0.9,
         importance=0.7, examples=(
             Example("My mobile number is 0612 345 987.", "contact.phone.mobile", "0612 345 987"),
             Example("Ring me on 0161 496 0732 after six.", "contact.phone", "0161 496 0732"),
             Example("My phone is 3 years old."), Example("Call me on Monday at 10."))),
    Rule("address", K.FACT, ("address",), "User's {typ} address is {v}.", _address, pattern=P.R_ADDRESS, confidence=0.9,
         importance=0.7, examples=(
             Example("My address is 42 Larch Street, Dunedin.", "profile.address", "42 Larch Street, Dunedin"),
             Example("I live at the end of the road."))),
    Rule("birth_date", K.PROFILE, ("birth_date",), "User was born on {v}.", _birth, pattern=P.R_BIRTH, importance=0.6,
         examples=(
             Example("I was born on 9 October 1987.", "profile.birth_date", "1987-10-09"),
             Example("I was born in a small village."))),
    EXPIRY_RULE,
    Rule("appointment", K.FACT, ("appointment", "booking"), "User has {a} {label} on {when}.", _event,
         pattern=P.R_EVENT, guards=(_ahead,), importance=0.75, examples=(
             Example("My physio appointment is on March 20th at 9am.", "appointment.physio", "2025-03-20"),
             Example("My physio appointment was moved to Friday.", "appointment.physio", "2025-03-07"),
             Example("My physio appointment was moved from the 4th to the 11th.", "appointment.physio", "2025-03-11"),
             Example("My eye exam was on Monday and it went fine."),
             Example("I had my flu shot appointment last Tuesday."),
             Example("My appointment went fine."))),
    Rule("deadline", K.FACT, ("deadline",), "User's {what} is due on {when}.", _deadline, pattern=P.R_DEADLINE,
         importance=0.8, examples=(
             Example("The grant report is due on April 2nd.", "deadline.grant_report", "2025-04-02"),
             Example("The report is due soon."))),
    Rule("deadline_named", K.FACT, ("deadline",), "User's {what} deadline is {when}.", _deadline_named,
         pattern=_R_DEADLINE_NAMED, importance=0.8, guards=(lambda c, m: "deadline" not in c.fired,), examples=(
             Example("The scholarship essay deadline is May 9.", "deadline.scholarship_essay", "2025-05-09"),
             Example("The deadline is tight."))),
    Rule("bank", K.FACT, ("bank",), "User banks with {v}.", _bank, pattern=_R_BANK, importance=0.65, examples=(
        Example("I bank with Northfield Mutual.", "fact.bank", "Northfield Mutual"),
        Example("I moved my savings account to Corra Bank.", "fact.bank", "Corra Bank"),
        Example("I bank on good weather."))),
    Rule("insurer", K.FACT, ("insurance",), "User's {t}insurance is with {v}.", _insurer, pattern=_R_INSURER,
         importance=0.65, examples=(
             Example("My pet insurance is with Pawsure.", "fact.insurance.pet", "Pawsure"),
             Example("I switched my home insurance to Calder Mutual.", "fact.insurance.home", "Calder Mutual"),
             Example("The bungalow is insured with Ferncliff.", "fact.insurance.home", "Ferncliff"),
             Example("My insurance is expensive."))),
    PET_RULE,
    MEDICATION_RULE,
    CONDITION_RULE,
    Rule("switched_to", K.FACT, ("*",), "User switched to {v}.", _switched, pattern=P.R_SWITCHED, importance=0.7,
         examples=(
             Example("I switched from Telia to Vodafone.", "preference.tool.carrier", "Vodafone",
                     existing={"preference.tool.carrier": "Telia"}),
             Example("I switched to decaf."))),
)
