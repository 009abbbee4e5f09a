"""Identity and background rules: name, age, job, employer, home, origin, languages, family, expertise."""

from __future__ import annotations

import re

from ..models import MemoryKind
from ..taxonomy import content_words, slot_key, slug
from . import _patterns as P
from ._engine import Clause, Example, Rule
from ._english import article

__all__ = ["PROFILE_RULES", "R_EMERGENCY_ANSWER", "emergency_contact"]

K = MemoryKind
Match = re.Match[str]


# a religion or belief said of oneself ("I'm Jewish", "I'm a practising Catholic"): capitalized like a name
_RELIGIONS = frozenset([
    "jewish", "catholic", "christian", "muslim", "hindu", "buddhist", "sikh", "jain", "mormon",
    "protestant", "anglican", "methodist", "baptist", "lutheran", "presbyterian", "quaker", "orthodox",
    "evangelical", "pentecostal", "atheist", "agnostic", "pagan", "rastafarian", "zoroastrian", "bahai",
    "shinto", "taoist", "unitarian", "adventist"])
R_RELIGION = re.compile(
    r"\b(?:i'm|i am|im|we're|we are)\s+(?:an?\s+)?(?:(?:practi[sc]ing|devout|observant|lapsed|non-practi[sc]ing)\s+)?"
    r"(?P<v>[A-Za-z]+)(?![\w-])(?!\s+(?:food|restaurant|bakery|deli|friends?|neighbou?rs?|school|family|wedding)\b)", re.I)


def _belief(value: str) -> bool:
    """Whether a value read as a name is a religion or belief ("Jewish", "Catholic-school")."""
    return re.split(r"[-\s]", value.strip(), maxsplit=1)[0].lower() in _RELIGIONS


def _religion(c: Clause, m: Match | None) -> None:
    assert m
    if m.group("v").lower() in _RELIGIONS:
        c.emit("profile.religion", m.group("v").capitalize(), keywords="religion faith belief")


def _name(c: Clause, m: Match | None) -> None:
    m = P.R_NAME.search(c.s) or P.R_IM_NAME.match(c.s)
    if m and _belief(m.group("v")):
        return  # "I'm Jewish and observe Shabbat": a belief, not a name
    if m and m.group("v").split()[0].lower() not in P.NOT_NAMES and m.group("v").split()[-1].lower() not in P.OCCUPATIONS:
        c.emit("profile.name", m.group("v"), keywords=f"name called {m.group(0)}")


def _first_word_not_a_name(c: Clause, m: Match | None) -> bool:
    return m is not None and m.group("v").split()[0].lower() not in P.NOT_NAMES


def _preferred_name(c: Clause, m: Match | None) -> None:
    assert m
    if re.search(r"\b(?:didn'?t|did not|don'?t|do not|never|not|stop|rather you)\b", c.s[:m.start("v")], re.I):
        return  # "I'd rather you didn't call me Bob", "Don't call me Rob": the name they do not want
    c.emit("profile.preferred_name", m.group("v"), keywords="name nickname call me")


def _age(c: Clause, m: Match | None) -> None:
    assert m
    soon = re.match(r"\s+(next \w+|in \w+)", c.s[m.end():]) if re.search(r"turning|'ll be", m.group(0), re.I) else None
    # "I'm turning 50 next month": the age they reach, and when
    c.emit("profile.age", m.group("v"), f"User turns {m.group('v')} {soon[1]}." if soon else None, keywords="age years old")


def _retired(c: Clause, m: Match | None) -> None:
    assert m
    c.note["occupation"] = m.group("v").lower()
    c.emit("profile.occupation", c.note["occupation"], keywords="job occupation work")


_OCC_ADVERB = re.compile(r"^(?:(?:now|also|still|currently|just|actually|finally)\s+)+", re.I)


def _the_users(c: Clause, m: Match | None) -> bool:
    """Whether the clause is about the user: "My wife works as a dentist at X" is not, "my boss made me X" is."""
    who = P.OTHER_SUBJECT.match(c.s)
    return who is None or bool(re.search(r"\b(?:i|i'm|me|my)\b", re.split(r"[,;]", c.s[who.end():])[0], re.I))


_PAST_JOB = re.compile(r"\bused to\s*$", re.I)


def _names_a_job(v: str) -> bool:
    """Whether ``v`` ends on a job's noun ("structural engineer", "Head of Sales", a noun in -ist, -eer, -ician ...)."""
    head = v.lower().split()[-1]
    return head in P.OCCUPATIONS or bool(re.search(r"(?:ist|eer|ician|ologist|grapher)$", head) or P.R_HEAD_OF.match(v))
# frames that can only name a job: what follows is the occupation whatever its head ("a Claims Handler")
_JOB_FRAME = re.compile(r"(?:i work as|i'?m working as|i am working as|i(?:'m| am) employed (?:full[- ]time |part[- ]time )?as|"
                        r"my (?:job title|title) |"
                        r"i(?:'ve| have)? (?:just |recently )?(?:been |got |was )?promoted to)", re.I)


def _occupation(c: Clause, m: Match | None) -> None:
    for m in (*P.R_OCCUPATION.finditer(c.s), *P.R_AS_OCC.finditer(c.s), *P.R_JOB_NOUN.finditer(c.s)):
        if _PAST_JOB.search(c.s[: m.start()]) or m.group(0).lower().startswith("worked"):
            continue  # "I used to work as a chef": a past job, not the current one
        v = _OCC_ADVERB.sub("", m.group("v").strip())  # "I'm now a product manager": the adverb is no part of the job
        v = re.sub(r"^(?:an?|the) ", "", v, flags=re.I).strip()
        words = v.lower().split()
        if c.note.get("occupation") or not words or len(words) > 5 or words[-1] in P._NOT_OCCUPATION_TAIL:
            continue
        head = words[-1]
        if _names_a_job(v) or (_JOB_FRAME.match(m.group(0)) and words[0] not in ("team", "volunteer", "favour", "favor")):
            if words[0] in ("not", "no", "looking", "trying", "going", "calling", "also"):
                continue
            c.note["occupation"] = v
            c.note["occ_at"] = P.R_OCC_AT.match(c.s, m.end())  # "I'm a software engineer at Spotify"
            c.emit("profile.occupation", v, c.say(a=article(v), v=v), keywords=f"job occupation profession work {head}")


# a title told with its promotion, often without "I": "the promotion finally came through, officially Head of Sales"
_R_PROMOTED = re.compile(r"\b(?:officially|now)\s+(?:an? |the )?(?P<v>(?-i:[A-Z])[\w\-]+"
                         r"(?:(?: of| and| &)? (?-i:[A-Z])[\w\-]+){0,3})", re.I)
_PROMOTION = re.compile(r"\bpromot(?:ion|ed)\b", re.I)


def _promoted(c: Clause, m: Match | None) -> None:
    assert m
    if not (_PROMOTION.search(c.s[: m.start()]) or _PROMOTION.search(c.run.before)):
        return  # the title is told with its promotion, in the sentence or the one just before it
    if re.search(r"\b(?:she|he|they)(?:'s|'re| is| are)?\b|'s promotion\b", c.s, re.I):
        return  # "My sister's promotion came through, she's officially X": hers
    v = m.group("v")
    head = v.lower().split()[-1]
    if _names_a_job(v):
        c.emit("profile.occupation", v, c.say(a=article(v), v=v), keywords=f"job occupation profession work {head}")


# "I work for a small design studio called Brightline"
_R_EMPLOYER_CALLED = re.compile(
    r"\bi (?:now |currently |still )?work (?:at|for) (?:a|an|the) (?:[\w\-]+ ){0,3}(?:firm|company|startup|agency|bank|"
    r"school|hospital|clinic|shop|studio|practice|charity|consultancy|lab|restaurant|bakery|factory|garage|nonprofit)"
    r",? (?:called|named) (?P<v>" + P.ORG + r")", re.I)


def _employer(c: Clause, m: Match | None) -> None:
    m = _R_EMPLOYER_CALLED.search(c.s) or P.R_EMPLOYER.search(c.s) or P.R_AS_AT.search(c.s) or c.note.get("occ_at")
    if m and (m.group("v").split()[0].lower() not in P.NOT_NAMES or P.ORG_LOWER_RE.fullmatch(m.group("v"))):
        c.emit("profile.employer", m.group("v").rstrip("."), keywords="employer company job works at")
        return
    kind = P.R_EMPLOYER_KIND.search(c.s)
    if kind:  # no name given: the kind of place, in the user's words, is the employer until a name comes
        c.emit("profile.employer", kind.group("v"), keywords="employer company job works at workplace")


# the head of a name that says what the place is (a gym, a school, a practice), which no city is
_SORT_HEAD = re.compile(r"\b(?:Gym|Fitness|Leisure|Academy|School|Primary|High|College|University|Nursery|Infants|"
                        r"Bank|Savings|Vets?|Veterinary|Clinic|Surgery|Practice|Dental|Medical|Health|Hospital|Studio|"
                        r"Club|Centre|Center|Office|Branch|Ltd|Limited|Inc|Group|Energy|Power|Mobile|Broadband|Fibre|"
                        r"Insurance|Mutual|Lettings|Pharmacy)$")
_SECOND_HOME = re.compile(r"\b(?:holiday|summer|weekend|second|beach|ski|vacation|rental)\b", re.I)


def _home(c: Clause, m: Match | None) -> None:
    assert m
    if m.group("v").split()[0].lower() in P.NOT_PLACES or m.group("v") == "The":
        return
    v, verb = m.group("v").rstrip("."), m.group("verb").lower()
    if _SORT_HEAD.search(v):
        return  # "I've moved to Brookside Gym": a place named by what it is, no city
    if _SECOND_HOME.search(verb):
        return  # "we rent a holiday cottage in Cornwall": a home besides the one they live in
    moved = "moved" in verb or "relocated" in verb or " new " in f" {verb}" or bool(P.R_NOT_OLD.match(c.s[m.end():]))
    text = f"User moved to {v}; their home city is now {v}." if moved else c.say(v=v)
    c.emit("profile.home_city", v, text, correction=moved, keywords="lives home city location based town")


def _origin(c: Clause, m: Match | None) -> None:
    assert m
    c.emit("profile.origin", m.group("v"), keywords="from origin hometown country")


def _nationality(c: Clause, m: Match | None) -> None:
    m = P.R_NATIONALITY_IS.search(c.s) or P.R_NATIONALITY.search(c.s)
    if m and m.group("v").lower() in P.NATIONALITIES:
        c.emit("profile.nationality", m.group("v").capitalize(), keywords="nationality citizen country")


def _languages(c: Clause, m: Match | None) -> None:
    assert m
    native = m.group("native") or ("native" in m.group(0).lower() or "mother" in m.group(0).lower())
    items = [w for w in re.split(r",? and |, ", m.group("v") or (m.group("native") or "")) if w.lower() in P.LANGUAGES]
    if not items:
        return
    v = ", ".join(w.capitalize() for w in items)
    if native:
        c.emit("profile.native_language", v, f"User's native language is {v}.",
               keywords="language native mother tongue speaks")
    else:
        c.emit("profile.languages", v, keywords="languages speaks fluent")


# the emergency contact: one person at a time, whoever they are to the user ("my emergency contact is my brother X",
# "in an emergency, ring my flatmate X", "put my sister X down as my emergency contact")
def _who(n: int) -> str:
    return rf"(?:(?:my|our) (?P<rel{n}>[a-z\-]+),? )?(?P<v{n}>" + P.NAME + r")"



R_EMERGENCY = re.compile(
    r"\bmy (?:new )?emergency contact(?: person)? is (?:now )?" + _who(1) +
    r"|\b(?:in an emergency|in case of (?:an )?emergency|if anything (?:ever )?happens(?: to me)?|"
    r"if something (?:ever )?happens(?: to me)?),? (?:please )?(?:call|ring|phone|contact|text) " + _who(2) +
    r"|\b(?:put|list|have|add|make|set) " + _who(3) + r" (?:down )?as (?:my|the) (?:new )?emergency contact"
    r"|\b(?:change|swap|switch|update|move) (?:my |the )?emergency contact (?:over )?to " + _who(4), re.I)
# the reply to the assistant's question for it: "Put down my partner X", "My dad, X", "X, my sister"
R_EMERGENCY_ANSWER = re.compile(r"^(?:(?:please )?(?:put down|put|list|make it|it'?s|that'?s|that would be) )?"
                                r"(?:(?:my|our) (?P<rel>[a-z\-]+),? )?(?P<v>" + P.NAME + r")\b", re.I)


_NUMBER = re.compile(r"(?<![\w-])\+?\d[\d ()\-]{6,18}\d(?![\w-])")


def emergency_contact(c: Clause, rel: str | None, v: str) -> bool:
    """Emit the user's emergency contact ``v`` (who is their ``rel``), with a number said in the same sentence."""
    rel = (rel or "").lower()
    if v.split()[0].lower() in P.NOT_NAMES:
        return False
    phone = _NUMBER.search(c.s) or (_NUMBER.search(c.run.sentence) if c.s in c.run.sentence else None)
    who = f"their {rel} {v}" if rel else v
    c.emit("relation.emergency_contact", v, f"User's emergency contact is {who}" + (f", on {phone.group().strip()}."
           if phone else "."), kind=K.PROFILE, keywords=f"emergency contact call {rel} {v}")
    return True


def _emergency(c: Clause, m: Match | None) -> bool:
    assert m
    n = next(i for i in range(1, 5) if m.group(f"v{i}"))
    return emergency_contact(c, m.group(f"rel{n}"), m.group(f"v{n}"))


# the person the user reports to, told by the reporting line ("I report to X", "I'm reporting to X now", "I'll be
# reporting to X from now on", "X has taken over as my line manager", "my new supervisor is X")
_BOSS = r"(?:line manager|manager|boss|supervisor|team lead|team leader)"
R_MANAGER = re.compile(
    r"^(?:i (?:now |still |currently )?report(?: directly)? to|i'?m (?:now |currently )?reporting(?: directly)? to|"
    r"i am (?:now |currently )?reporting to)\s+(?P<v1>" + P.NAME + r")"
    r"|^i'?ll be reporting to (?P<v2>" + P.NAME + r")(?= (?:from now on|now|from today|as of)\b)"
    r"|\b(?P<v3>" + P.NAME + r") (?:has |just )?(?:taken|took|is taking) over (?:from " + P.NAME + r" )?as my " + _BOSS +
    r"\b"
    r"|^my (?:new |current )?" + _BOSS + r" is (?:now )?(?P<v4>" + P.NAME + r")(?=$|[\s,.!;])"
    r"|\bhanded (?:\w+ ){0,2}(?:team|department|group|reports) over to (?P<v5>" + P.NAME + r")"
    r"|\b(?P<v6>" + P.NAME + r") is (?:now )?my (?:new )?" + _BOSS + r"\b"
    r"|^(?:so |and )?i (?:now )?report to (?P<pro>him|her|them)(?: now)?$"
    # "... with Dev Malhotra, he took over Priya's team so he's my boss now": the person named before the pronoun
    r"|\b(?P<pro2>he|she)(?:'s| is) (?:now )?my (?:new )?" + _BOSS + r"\b", re.I)
_MY_BOSS_NOW = re.compile(r"\b(?:my (?:new )?" + _BOSS + r"|(?:i )?report to (?:him|her|them))\b", re.I)


def _manager(c: Clause, m: Match | None) -> bool:
    assert m
    if m.group("pro") or m.group("pro2"):
        # "X handed the team over to Y, so I report to him now": the person named last before the clause (or before
        # the pronoun), not one named as an owner ("Priya's team")
        sent = c.run.sentence or ""
        before = sent[: max(0, sent.find(c.s))] + (c.s[: m.start("pro2")] if m.group("pro2") else "")
        names = [x.group(0) for x in re.finditer(P.NAME, before) if x.group(0).split()[0].lower() not in P.NOT_NAMES
                 and not re.match(r"['’]s\b", before[x.end():]) and not re.search(r"['’]s$", x.group(0))]
        if not names:
            return False
        v = names[-1]
    else:
        v = next(m.group(f"v{i}") for i in range(1, 7) if m.group(f"v{i}"))
    if v.split()[0].lower() in P.NOT_NAMES:
        return False
    if m.group("v5") and not _MY_BOSS_NOW.search(c.run.sentence or c.s):
        return False  # "Priya handed her team over to X": X is the user's manager only when the user says so
    c.emit("relation.manager", v, f"User's manager is {v}; the user reports to them.", kind=K.PROFILE,
           keywords=f"manager boss reports to {v}")
    return True


# one person said by two words ("my manager Sabine" ... "my new boss, Marcus"): one slot, so the later replaces her
_RELATION_SLOT = {"boss": "manager", "supervisor": "manager", "mom": "mother", "mum": "mother", "dad": "father",
                  "landlady": "landlord", "gp": "doctor", "grandma": "grandmother", "grandpa": "grandfather",
                  "fiancee": "fiance", "bf": "boyfriend", "gf": "girlfriend", "hubby": "husband"}


def _relation(c: Clause, m: Match | None) -> None:
    for m in P.R_REL_NAME.finditer(c.s):
        # "my nephew Oskar's party", "my wife Priya's Nexon EV": the name ends at its possessive
        rel, v = m.group("rel").lower(), re.split(r"['’]s\b", m.group("v"))[0]
        v = re.split(r"\s+(?-i:I)(?:['’](?:d|m|ll|ve))?\b", v)[0]  # "my boss Dana I'd ...": the name ends before "I"
        if rel not in P.RELATIONS or v.split()[0].lower() in P.NOT_NAMES or _belief(v):
            continue  # "my neighbour is Jewish": what they believe, not who they are
        key = f"relation.{_RELATION_SLOT.get(rel, rel)}" if rel in P.UNIQUE_RELATIONS else f"relation.{rel}.{slug(v)}"
        c.emit(key, v, c.say(rel=rel, v=v), keywords=f"{rel} family relation {m.group(0)}")


def _relation_age(c: Clause, m: Match | None) -> None:
    assert m
    rel = m.group("rel").lower()
    if rel in P.RELATIONS:
        c.emit(f"relation.{rel}.age", m.group("v"), c.say(rel=rel, v=m.group("v")),
               keywords=f"{rel} age years old family")


def _expertise(c: Clause, m: Match | None) -> None:
    assert m
    if m.group("v"):
        lvl, area = m.group("lvl").lower(), m.group("v")
        text = f"User is {article(lvl)} {lvl} in {area}."
    elif m.group("v2"):
        lvl, area = f"{m.group('n')} years of experience", m.group("v2")
        text = f"User has {lvl} in {area}."
    else:
        phrase = m.group(0).lower()
        lvl = "new" if "new to" in phrase else ("proficient" if "proficient" in phrase else "experienced")
        area = m.group("v3")
        text = f"User is new to {area}." if lvl == "new" else f"User is {lvl} in {area}."
    if area.lower() not in P.LANGUAGES and content_words(area):
        c.emit(slot_key("profile", "expertise", area), lvl, text, keywords=f"expertise experience skill {area}")


# "my timezone is CET", "I'm on Pacific time", "I'm in UTC+2"
_TZ_ABBR = (r"(?-i:UTC|GMT|BST|CET|CEST|EET|EEST|WET|WEST|IST|JST|KST|AEST|AEDT|ACST|AWST|NZST|NZDT|PST|PDT|MST|MDT|"
            r"CST|CDT|EST|EDT|AKST|HST|SGT|HKT)")
_R_TIMEZONE = re.compile(
    r"\bmy time ?zone is(?: now)? (?P<v>[\w/+\-]+(?: [\w/+\-]+){0,3}?)(?=$|[,.;!]| (?:so|and|but|which)\b)"
    r"|\bi'?m (?:now )?(?:on|in) (?:the )?(?P<v2>" + _TZ_ABBR + r"(?: ?[+-]\d{1,2})?|(?-i:[A-Z][a-z]+)(?: standard)? time)\b"
    # the zone said beside where the user is: "based in London (GMT)", "I'm in Berlin, so UTC+1"
    r"|\b(?:i'?m|i am|we'?re|we are|based|living|live) (?:now )?(?:in|based in|out of) (?-i:[A-Z][\w\-]+(?: [A-Z][\w\-]+)?)"
    r"(?: \(|,? so )(?P<v3>" + _TZ_ABBR + r"(?: ?[+-]\d{1,2}(?::\d\d)?)?)(?=\)|\b)",
    re.I)
# "I signed on with a new physio, Dr. Okoro": the new holder of a one-person role
# "call me X", "I go by X", "I've started going by X": what the user wants to be called
_R_CALL_ME = re.compile(r"\b(?:(?:please |you can |just |everyone |people |friends )?call me|i go by|(?:i'?m|i am|i'?ve "
                       r"(?:started|begun)|i have (?:started|begun)|started) going by)\s+(?P<v>" + P.NAME + r")", re.I)


_R_NEW_RELATION = re.compile(r"\b(?:a|my|our) new (?P<rel>[a-z\-]+)(?:,| called| named| is)? (?P<v>" + P.NAME + r")(?=$|[\s,.!;])",
                             re.I)


# "Desmond and I got divorced": a marriage that ended leaves the user in a state, and the person their former spouse
_R_DIVORCED = re.compile(
    r"^(?P<v>" + P.NAME + r") and i (?:got |are |have )?(?:now )?(?P<state>divorced|separated)\b"
    r"|^i(?:'ve| have|'m| am)? (?:got |now )?(?P<state2>divorced|separated) (?:from )?(?P<v2>" + P.NAME + r")\b", re.I)


def _divorced(c: Clause, m: Match | None) -> None:
    assert m
    name, state = (m.group("v") or m.group("v2")), (m.group("state") or m.group("state2")).lower()
    for key, val in c.run.ctx.existing.items():
        if key.startswith("relation.") and val.lower() == name.lower() and key.count(".") == 1:
            rel = key.split(".", 1)[1].replace("_", " ")
            c.emit(key, state, f"User and {name} are {state}; {name} is their former {rel}.", correction=True,
                   keywords=f"{rel} {state} former marriage relation")
            return


def _timezone(c: Clause, m: Match | None) -> None:
    assert m
    v = re.sub(r"\s+time$", "", (m.group("v") or m.group("v2") or m.group("v3")).strip(), flags=re.I)
    c.emit("profile.timezone", v, keywords="timezone time zone hours schedule")


def _new_relation(c: Clause, m: Match | None) -> None:
    assert m
    rel = m.group("rel").lower()
    if rel in P.UNIQUE_RELATIONS and m.group("v").split()[0].lower() not in P.NOT_NAMES:
        c.emit(f"relation.{_RELATION_SLOT.get(rel, rel)}", m.group("v"), c.say(rel=rel, v=m.group("v")), correction=True,
               keywords=f"{rel} new relation {m.group(0)}")


PROFILE_RULES: tuple[Rule, ...] = (
    Rule("name", K.PROFILE, ("name",), "User's name is {v}.", _name, confidence=0.9, importance=0.8, examples=(
        Example("My name is Tobias Renner.", "profile.name", "Tobias Renner"),
        Example("I'm Halima, nice to meet you.", "profile.name", "Halima"),
        Example("I'm tired of waiting."))),
    Rule("preferred_name", K.PROFILE, ("preferred_name",), "User prefers to be called {v}.", _preferred_name,
         pattern=_R_CALL_ME, guards=(_first_word_not_a_name,), confidence=0.9, importance=0.8, examples=(
             Example("Please call me Bex.", "profile.preferred_name", "Bex"),
             Example("I've started going by Tam, it's shorter.", "profile.preferred_name", "Tam"),
             Example("I go by train on Fridays."),
             Example("Please don't call me Rob."),
             Example("Call me back tomorrow."))),
    Rule("age", K.PROFILE, ("age",), "User is {v} years old.", _age, pattern=P.R_AGE,
         guards=(lambda c, m: m is not None and 0 < int(m.group("v")) <= 120,), examples=(
             Example("I just turned 41.", "profile.age", "41"),
             Example("I'm 29 years old and tired.", "profile.age", "29"),
             Example("I'm 250 years old."))),
    Rule("retired", K.PROFILE, ("occupation",), "User is {v}.", _retired, pattern=P.R_RETIRED, anchored=True,
         importance=0.7, examples=(
             Example("I'm retired since last spring.", "profile.occupation", "retired"),
             Example("My father is retired."))),
    Rule("promoted", K.PROFILE, ("occupation",), "User works as {a} {v}.", _promoted, pattern=_R_PROMOTED,
         importance=0.7, examples=(Example("Promotion came through, officially Head of Sales now.", "profile.occupation",
                                           "Head of Sales"),
                                   Example("My sister's promotion came through, she's officially Head of Design."))),
    Rule("occupation", K.PROFILE, ("occupation",), "User works as {a} {v}.", _occupation, importance=0.7,
         guards=(_the_users,), examples=(
        Example("My flatmate just got a job as a paramedic."),
        Example("I used to work as a sommelier."),
        Example("I work as a structural engineer.", "profile.occupation", "structural engineer"),
        Example("I'm now a landscape architect.", "profile.occupation", "landscape architect"),
        Example("My job title changed to operations director last month.", "profile.occupation", "operations director"),
        Example("I got promoted to senior analyst.", "profile.occupation", "senior analyst"),
        Example("The board named me finance director in March.", "profile.occupation", "finance director"),
        Example("I landed a junior copywriter position.", "profile.occupation", "junior copywriter"),
        Example("They made me a cup of tea."),
        Example("I'm a big coffee person."))),
    Rule("employer", K.PROFILE, ("employer",), "User works at {v}.", _employer, importance=0.7,
         guards=(_the_users,), examples=(
        Example("My husband works as a welder at Tidewater Marine."),
        Example("My boss and I work at Fernhill Labs.", "profile.employer", "Fernhill Labs"),
        Example("I work for Brightwater Logistics.", "profile.employer", "Brightwater Logistics"),
        Example("I'm a pharmacist at Kestrel Health.", "profile.employer", "Kestrel Health"),
        Example("I work for a tiny bakery called Crumb & Co.", "profile.employer", "Crumb & Co"),
        Example("I took a sous-chef job at Fennel House.", "profile.employer", "Fennel House"),
        Example("I'm working at a plant nursery in Exeter.", "profile.employer", "a plant nursery in Exeter"),
        Example("I work at a steady pace."),
        Example("I work from home on Fridays."))),
    Rule("home_city", K.PROFILE, ("home_city",), "User's home city is {v}.", _home, pattern=P.R_HOME,
         importance=0.75, examples=(
             Example("I live in Valparaíso.", "profile.home_city", "Valparaíso"),
             Example("I just moved to Ghent.", "profile.home_city", "Ghent"),
             Example("We rent a tiny flat in Aarhus.", "profile.home_city", "Aarhus"),
             Example("Our new house is in Tarragona, near the beach.", "profile.home_city", "Tarragona"),
             Example("We rent a holiday cottage in Cornwall every August."),
             Example("I live in fear of spiders."))),
    Rule("origin", K.PROFILE, ("origin",), "User is originally from {v}.", _origin, pattern=P.R_FROM, anchored=True,
         importance=0.6, examples=(
             Example("I'm originally from Tromsø.", "profile.origin", "Tromsø"),
             Example("My mother is from Leeds."))),
    Rule("religion", K.PROFILE, ("religion",), "User is {v}.", _religion, pattern=R_RELIGION, importance=0.6,
         examples=(
             Example("I'm Jewish and observe Shabbat strictly.", "profile.religion", "Jewish"),
             Example("I'm a practising Catholic, mass every Sunday.", "profile.religion", "Catholic"),
             Example("I'm Catholic-school educated but that was long ago."),
             Example("I'm going to a Hindu wedding on Saturday."))),
    Rule("nationality", K.PROFILE, ("nationality",), "User is {v}.", _nationality, importance=0.6, examples=(
        Example("I'm Icelandic.", "profile.nationality", "Icelandic"),
        Example("I'm hungry."))),
    Rule("languages", K.PROFILE, ("languages",), "User speaks {v}.", _languages, pattern=P.R_LANG, importance=0.6,
         examples=(
             Example("I speak Catalan and Basque.", "profile.languages", "Catalan, Basque"),
             Example("My mother tongue is Hungarian.", "profile.native_language", "Hungarian"),
             Example("I speak my mind."))),
    Rule("manager", K.PROFILE, ("manager",), "User's manager is {v}.", _manager, pattern=R_MANAGER,
         importance=0.7, stop=True, examples=(
             Example("I report to Ilse Varga.", "relation.manager", "Ilse Varga"),
             Example("Nadim has taken over as my manager.", "relation.manager", "Nadim"),
             Example("I report to the board twice a year."))),
    Rule("emergency_contact", K.PROFILE, ("relation",), "User's emergency contact is {v}.", _emergency,
         pattern=R_EMERGENCY, importance=0.75, stop=True, examples=(
             Example("My emergency contact is my cousin Ilka.", "relation.emergency_contact", "Ilka"),
             Example("In an emergency, ring my partner Oren.", "relation.emergency_contact", "Oren"),
             Example("Put my son Luca down as my emergency contact.", "relation.emergency_contact", "Luca"),
             Example("I have no emergency contact yet."))),
    Rule("relation", K.PROFILE, ("relation",), "User's {rel} is {v}.", _relation, importance=0.65, examples=(
        Example("My husband Anders cooks on Sundays.", "relation.husband", "Anders"),
        Example("My niece is called Pilar.", "relation.niece.pilar", "Pilar"),
        Example("My GP is Dr. Mensah.", "relation.doctor", "Dr. Mensah"),
        Example("I told my sister Ines I'd visit.", "relation.sister.ines", "Ines"),
        Example("I promised my neighbour I'd help."),
        Example("My phone is broken."))),
    Rule("new_relation", K.PROFILE, ("relation",), "User's {rel} is now {v}.", _new_relation, pattern=_R_NEW_RELATION,
         guards=(_the_users,), importance=0.65, examples=(
             Example("I signed up with a new dentist, Dr. Varga.", "relation.dentist", "Dr. Varga"),
             Example("My sister moved to a new dentist, Dr. Hale, after hers retired."),
             Example("I bought a new phone, Pixel 8."))),
    Rule("divorced", K.PROFILE, ("relation",), "User and {v} are divorced.", _divorced, pattern=_R_DIVORCED,
         importance=0.65, examples=(
             Example("Rosalind and I got divorced in the spring.", "relation.wife", "divorced",
                     existing={"relation.wife": "Rosalind"}),
             Example("I'm separated from Tobias now.", "relation.husband", "separated",
                     existing={"relation.husband": "Tobias"}),
             Example("Rosalind and I got divorced in the spring.", existing={"relation.sister.rosalind": "Rosalind"}))),
    Rule("timezone", K.PROFILE, ("timezone",), "User's time zone is {v}.", _timezone, pattern=_R_TIMEZONE,
         importance=0.6, examples=(
             Example("My timezone is AEST.", "profile.timezone", "AEST"),
             Example("I'm on Mountain time this month.", "profile.timezone", "Mountain"),
             Example("I'm in Lisbon this week."),
             Example("I'm in NYC until Friday."))),
    Rule("relation_age", K.PROFILE, ("relation",), "User's {rel} is {v} years old.", _relation_age,
         pattern=P.R_REL_AGE, importance=0.55, examples=(
             Example("My son is 7.", "relation.son.age", "7"),
             Example("My order is 12 days late."))),
    Rule("expertise", K.PROFILE, ("expertise",), "User is {v}.", _expertise, pattern=P.R_EXPERT, importance=0.7,
         examples=(
             Example("I'm a beginner at woodturning.", "profile.expertise.woodturning", "beginner"),
             Example("I have 6 years of experience with Kubernetes.", "profile.expertise.kubernetes",
                     "6 years of experience"),
             Example("I'm new to this."))),
)
