"""What sort of thing a statement's value is, and whether a statement frames a change of it (pure).

Meaning-space similarity with the values masked cannot tell "Switched gyms, it's X now" from an
unrelated sentence: the two statements of one attribute share little wording once the names are
gone. The second signal is the *sort* of thing the value is: a gym, a school, a tool, a job title,
a home, an employer. It is read from plain English around the value — the category noun the user
says ("gyms", "editor", "the new place"), the head of the name itself ("... Academy", "... Fitness"),
or the frame of the change ("promoted to", "made me", "relocated to") — never from any sentence of
an evaluation set. A rule's memory takes the sort of its key family.

Two statements of one sort, the newer framed as a change, are the same attribute even when they are
not alike in meaning; that is decided in ``_attributes``.
"""

from __future__ import annotations

import re

from ._brands import brand_sorts
from ._change_words import changes, done
from .dates import MONTHS, WEEKDAYS

__all__ = ["ANSWER_STYLE", "CAR_MAKES", "FAMILY_SORTS", "KEY_SORTS", "acts_on_another", "answer_style", "asked_now", "asked_of_another",
           "asked_which",
           "change_frame", "lacks_shape", "shaped_family", "sorts_of"]

# a month named ("Jan", "september"; "May" only capitalised, "may" is a verb): a date's, an appointment's, an onset's
_MONTH = r"(?:\b(?:" + "|".join(sorted({m[:3] for m in MONTHS if m != "may"})) + r")[a-z]*\b|\b(?-i:May)\b)"

# a key family's values are of one sort (families not listed hold sorts this module does not read)
FAMILY_SORTS: dict[str, str] = {
    "home_city": "home", "occupation": "title", "role": "title", "employer": "employer", "education": "school",
    "tool": "tool", "bank": "bank", "vehicle": "vehicle", "fitness": "gym", "commute": "commute", "diet": "diet",
    "work_schedule": "shift",
}
# no clinician sort: a user has several (a dentist, a GP), and "the new doctor wants ..." changes none of them

_TITLE_HEADS = (
    r"manager|engineer|developer|designer|analyst|nurse|teacher|director|lead|head|officer|consultant|accountant|"
    r"architect|scientist|assistant|coordinator|supervisor|specialist|administrator|technician|writer|chef|cook|"
    r"clerk|associate|intern|president|vp|ceo|cto|cfo|coo|founder|paralegal|lawyer|solicitor|pharmacist|therapist|"
    r"midwife|paramedic|electrician|plumber|mechanic|programmer|tester|researcher|lecturer|professor|librarian|"
    r"receptionist|cashier|barista|waiter|waitress|bartender|salesperson|representative|planner|producer|trainer|"
    r"instructor|coach|principal|partner|owner|executive|foreman|surveyor|auditor|editor|reporter|journalist|"
    r"carer|caregiver|technologist|strategist|controller|dispatcher|operator|inspector|adviser|advisor")
# "promoted to senior buyer", "my new role as X": the frame alone says the object is a title; "made me team lead",
# "became a teacher", "I'm now head of sales" say it only with a title's head ("became a grandmother" is no job)
_TITLE_FRAME = re.compile(
    rf"\b(?:promoted (?:me )?(?:to|as)|new (?:job|role|position) as|(?:job )?title (?:is now|changed to)|"
    rf"(?:appointed|named|made) me (?:as )?(?:the |our |their )?(?:new )?(?=(?:[\w\-]+\s+){{0,3}}?(?:{_TITLE_HEADS}))|"
    rf"(?:been|got|was|were|being) (?:appointed|named|made) (?:as )?(?:the |our |their |an? )?(?:new )?"
    rf"(?=(?:[\w\-]+\s+){{0,3}}?(?:{_TITLE_HEADS}))|"
    rf"qualified as (?:an?\s+)?(?=(?:[\w\-]+\s+){{0,3}}?(?:{_TITLE_HEADS}))|"
    rf"(?:made me|became|become|(?:i'?m|i am) now)\s+(?:an?\s+|the\s+)?(?:[\w\-]+\s+){{0,3}}?(?:{_TITLE_HEADS})s?)\b",
    re.I)
_TITLE_SAID = re.compile(
    rf"\b(?:work(?:ing)? as|job (?:is|as)|(?:job )?title|my role|position as|i'?m an?|i am an?|promoted|made me|became|"
    rf"appointed me|qualified as|(?:i'?m|i am)(?=\s+(?:deputy|assistant|acting|interim|senior|junior|chief|head|lead)\b))"
    rf"\s+(?:an?\s+|the\s+|is\s+)?(?:[\w\-]+\s+){{0,3}}?(?:{_TITLE_HEADS})s?\b", re.I)

# vehicle makes (the rules read "I drive a X" by them too)
CAR_MAKES = frozenset(["acura", "alfa", "audi", "bentley", "bmw", "buick", "cadillac", "chevrolet", "chevy", "chrysler", "citroen", "dacia", "dodge", "ferrari", "fiat", "ford", "genesis", "gmc", "honda", "hyundai", "infiniti", "jaguar", "jeep", "kia", "lamborghini", "lexus", "lincoln", "lucid", "maserati", "mazda", "mercedes", "mercedes-benz", "mini", "mitsubishi", "nissan", "opel", "peugeot", "polestar", "porsche", "ram", "renault", "rivian", "saab", "skoda", "subaru", "suzuki", "tesla", "toyota", "vauxhall", "volkswagen", "vw", "volvo", "ducati", "harley", "harley-davidson", "kawasaki", "yamaha", "vespa"])
# models said without their make ("my Corsa", "the Niro"), only names that are no common English word ("Golf",
# "Focus", "Polo", "Civic", "Leaf" are not here)
_MODEL_NAMES = frozenset(["Corsa", "Fiesta", "Astra", "Yaris", "Corolla", "Auris", "Prius", "Camry", "RAV4", "Qashqai", "Micra", "Clio", "Megane", "Octavia", "Fabia", "Passat", "Tiguan", "Touran", "Sportage", "Niro", "Ceed", "Picanto", "Tucson", "Kona", "Ioniq", "CR-V", "HR-V", "Outback", "Forester", "Impreza", "Outlander", "Mustang", "F-150", "Silverado", "Accord", "Altima", "Sentra", "Elantra", "Sonata", "Jetta", "Ibiza", "Leon", "Ateca", "Kuga", "Zafira", "Insignia", "Mokka", "Captur", "Kadjar", "Duster", "Sandero", "Berlingo", "Transit", "Sprinter", "Vivaro", "Vitara", "CX-5", "MX-5", "Wrangler", "Cherokee", "XC40", "XC60", "XC90", "Taycan", "Cayenne", "Macan", "Zoe", "Enyaq", "Kamiq", "Karoq", "Kodiaq", "Evoque", "Freelander", "Panda", "Punto", "Tacoma", "Tundra", "Highlander", "4Runner", "Pathfinder", "Rogue", "Murano", "Octavia", "Scenic", "Twingo", "Aygo", "C-HR", "Swift", "Jimny", "Polestar", "Kuga", "Juke"])
# a make as it is written ("Kia", "BMW"); "Ram" is as often a person's name
_MAKE_NAMES = {f for m in CAR_MAKES if m.isalpha() and m != "ram" for f in (m.capitalize(), m.upper() if len(m) <= 3 else "")
               if f}


def _said_by(*words: str) -> re.Pattern[str]:
    """What is said by any of ``words`` (regex fragments: "flat whites?", "covered (?:by|with)"), each a whole word,
    in any case: the sorts and shapes below that are lists of words."""
    return re.compile(r"\b(?:" + "|".join(words) + r")\b", re.I)


# category nouns a user names the attribute by, and heads of names that say what they name
_SORT_WORDS: dict[str, re.Pattern[str]] = {
    "gym": _said_by("gyms?", "fitness", "crossfit", "leisure cent(?:re|er)s?", "health club", "sports club",
                    "workouts?"),
    "school": _said_by("schools?", "academy", "primary", "nursery", "kindergarten", "preschool", "college",
                       "high school", "secondary", "infants", "juniors", "degree", "undergrad",
                       "postgrad", "masters", "phd", "(?:first|second|third|final) year (?:doing|of|studying|at)",
                       "studying", "majoring in"),
    # "I keep my notes in X", "we track bugs in X", "I use X for invoices": a thing the user does work in
    "tool": re.compile(r"\b(?:editors?|ide|code|coding|app|apps|software|program|browser|notes? app|tool|tools|"
                       r"text editor|password manager|email client)\b|\b(?:keep|write|track|store|draft|edit|plan|"
                       r"manage|log)s? (?:all )?(?:of )?(?:my |our |the )?\w+ (?:in|on|with) (?-i:[A-Z])|"
                       r"\buse[sd]? (?-i:[A-Z])[\w\-]+ (?:for|to)\b", re.I),
    # "home insurance", "work from home", "the City" (a car) and "a town nearby" name no home of the user's; a
    # passive move ("is being moved to another branch") is someone else's
    # a move told by its noun ("after our move to X") or a home by its trailing clause ("where we've lived since")
    "home": re.compile(r"\b(?:live|living|lives|(?:i|we)(?:'ve| have) lived|flat|apartment|house|new place|"
                       r"(?:the|our|my) (?:move|relocation) to|(?<!being )(?<!been )(?<!was )"
                       r"(?<!were )(?<!is )(?<!are )(?:moved|relocated) (?:to|into)|relocated|packed up|"
                       r"packed (?:our|my|the) (?:bags|things|stuff|boxes)|"
                       r"rent(?:ing)? (?:a|an|the)\b|settled in|"
                       # where one is now, said of a change: "now that I'm in Glasgow", "we've been in Porto two months now"
                       r"now that (?:i'?m|i am|we'?re|we are) (?:in|based in)(?= (?-i:[A-Z]))|"
                       r"(?:i|we)(?:'ve| have) been (?:in|based in)(?= (?-i:[A-Z])[\w\-]+(?: (?-i:[A-Z])[\w\-]+)? "
                       r"(?:(?:for )?(?:a |an |\w+ )?(?:weeks?|months?|years?) (?:now|already)\b|"
                       # "we've been in Glasgow since the start of June" (not "since Monday": a stay)
                       r"since (?:the (?:start|beginning|end|middle) of (?:the )?)?(?:the |last |early |late )?(?:spring|"
                       r"summer|autumn|fall|winter|move|may|" + _MONTH + r"))))\b", re.I),
    "employer": re.compile(r"\b(?:work (?:at|for)|working (?:at|for)|"
                           # "I work in procurement at Veridian Logistics": the employer after what one does there
                           r"work(?:s|ing)? (?:in|on|as) (?:[\w\-]+ ){1,3}?(?:at|for)(?= (?-i:[A-Z]))|employer|company|firm|job at|hired|joined|"
                           r"started at|first (?:day|week|month|shift)s? at|(?:day|week) (?:\d+|one|two|three|four|five) at|on the payroll|employed|(?:i|i've|i have|i was|i got|got|been) transferred to)\b",
                           re.I),
    "bank": _said_by("bank", "banks", "banking", "current account", "checking account", "savings",
                     "building society", "salary", "wages"),
    # services a user has one provider of at a time, named by the service or by the head of the provider's name
    "insurer": _said_by("insurance", "insured", "insurer", "policy", "covered (?:by|with)", "cover with"),
    "energy": _said_by("energy", "electricity", "electric", "gas (?:supplier|and electric)", "power", "supplier",
                       "fuels?"),
    "broadband": _said_by("broadband", "internet", "wifi", "wi-fi", "fibre", "fiber"),
    "phone_plan": _said_by("mobile", "sim", "sim-only", "(?:phone|data) (?:plan|contract)", "ported", "network",
                           "prepaid", "postpaid", "pay as you go", "payg"),
    "vet": _said_by("vets?", "veterinary", "animal (?:clinic|hospital)"),
    # a user has a GP and a dentist at once: each is a sort of its own, said by its noun ("Dr. X" alone: either)
    "doctor": _said_by("gp", "doctor", "family doctor", "surgery", "health cent(?:re|er)", "medical cent(?:re|er)",
                       "medical practice"),
    "dentist": _said_by("dentist", "dental", "orthodontist"),
    # a make said as a name ("the new Kia", "a used Skoda"): a vehicle, whatever the sentence's verb
    # a make after a word of place is a place ("the rescue centre in Lincoln", "a flat in Jaguar Road" is no car)
    "vehicle": re.compile(r"(?<!\bin )(?<!\bfrom )(?<!\bnear )(?<!\bto )(?<!\bof )"
                         rf"\b(?-i:{'|'.join(sorted(_MAKE_NAMES | _MODEL_NAMES, key=len, reverse=True))})\b|"
                         r"\b(?-i:Model [3SXY])\b|\b(?:old )?banger\b", re.I),
    # when the user gets up, by a time ("I wake up at 7", "these days I'm up at 5:30"): bedtime is another attribute
    "wake": re.compile(r"\b(?:wake|wakes|woke|waking|get up|gets up|getting up|got up|(?:i'?m|i am) up|alarm)"
                       r"(?: up)?(?: (?:at|around|by|before|for))? (?:\d|half|quarter)", re.I),
    # how one gets to work: the word itself, or a way of travelling said with where one travels to every day
    "commute": re.compile(r"\bcommut(?:e|es|ed|ing|er)\b|\b(?:bus|buses|train|trains|tube|metro|tram|subway|"
                          r"(?:e-?)?bike|cycle|cycling|ride|riding|drive|driving|walk|walking|scooter|ferry|carpool)\b"
                          r"[^.?!;]{0,40}?\b(?:to|into|in to) (?:work|the office|(?:my |the )?office|the city|"
                          r"(?:\w+ ){0,2}cent(?:re|er)|downtown|campus|uni)\b|\b\d+\s?(?:min(?:ute)?s?|hours?|hrs?) "
                          r"each way\b|\b(?:to|into) (?:work|the office)\b"
                          r"[^.?!;]{0,25}?\b(?:by|on (?:the|my|a|an))\s+(?:bus|train|tube|metro|tram|subway|(?:e-?)?bike|"
                          r"car|foot|scooter|ferry)\b", re.I),
    # who lets the user's home: the landlord, or the agent that manages it
    "landlord": re.compile(r"\b(?:landlord|landlady|letting agents?|lettings|estate agents?|property manage(?:r|ment)|"
                           r"manag(?:e|es|ed|ing) (?:it|my (?:flat|place|house)|our (?:flat|place|house|building)|"
                           r"the (?:flat|building|property|house))(?! (?:to|well|fine|ok|okay|alone)\b))", re.I),
    # where the user works from: an office, a site, a branch by its place ("the Shoreditch office")
    "office": _said_by("office", "offices", "head office", "hq", "workplace", "branch", "campus"),
    # the coffee one usually orders, by the drink
    "drink": _said_by("flat whites?", "lattes?", "cortados?", "cappuccinos?", "americanos?", "espressos?", "mochas?",
                      "macchiatos?", "cold brews?", "long blacks?", "piccolos?", "chai lattes?", "matcha lattes?"),
    # a sport one plays, by its name
    "sport": _said_by("squash", "tennis", "badminton", "padel", "pickleball", "table tennis", "golf", "football",
                      "soccer", "rugby", "cricket", "netball", "basketball", "volleyball", "hockey", "swimming",
                      "swim", r"running(?! (?:the|a|an|my|our|his|her|their|this|that|things|it)\b)", "climbing", "bouldering", "rowing", "cycling", "boxing", "karate", "judo",
                      "jiu-jitsu", "taekwondo", "fencing", "triathlons?", "racket sports?", "martial arts",
                      "dance classes", "ballet", "salsa", "skiing", "surfing", "yoga", "pilates", "spin classes?"),
    # what the user eats, by the name of the diet
    "diet": _said_by("vegan", "vegetarian", "veggie", "pescatarian", "pescetarian", "plant-based", "keto", "paleo",
                     "flexitarian", "carnivore diet", "halal", "kosher", "gluten-free", "dairy-free", "low-carb",
                     "whole30"),
    # the hours one works, by the shift ("on nights", "day shifts", "earlies")
    "shift": re.compile(r"\b(?:night|day|early|late|morning|evening|afternoon|weekend|split|rotating|double|graveyard)"
                        r"[\s\-]shifts?\b|\b(?:on|onto|to) (?:nights|days|earlies|lates)\b|\b(?:earlies|lates)\b", re.I),
    # a set of pronouns is its own sort of value ("she/her", "he/they", "xe/xem")
    "pronouns": re.compile(r"\bpronouns?\b|\b(?:she|he|they|xe|ze|fae|ey|it)/(?:her|hers|him|his|them|theirs|they|"
                           r"she|he|xem|xyr|zir|hir|faer|em)\b", re.I),
}
# a sort whose names must be heard as names: an employer or a school is a proper name ("joined Acme")
_NAMED_SORTS = frozenset(["gym", "school", "tool", "employer", "bank", "home", "vehicle", "insurer", "energy", "broadband",
                          "phone_plan", "vet", "doctor", "dentist", "landlord"])

# the frames by which an attribute takes a new value: these are English, not any rule's wording
_CHANGE_FRAME = re.compile(
    r"\b(?:switched|switching|swapped|changed|moved (?:over )?to|moved|went over to|relocated|packed up|ditched|dumped|"
    r"packed (?:our|my|the) (?:bags|things|stuff|boxes)|settled in|"
    r"started at|started (?:a |my )?(?:new )?(?:job|role|position)|first (?:day|week|month|shift)s? at|(?:day|week) (?:\d+|one|two|three|four|five) at|joined|signed up (?:at|with|for)|became|become|"
    r"made me|appointed me|(?:been|got|was|were) (?:made|appointed|named)(?! to\b)|qualified as|promoted|now|new|"
    r"instead|no longer|these days|transferred|enrolled|ported|(?:ended up|went|gone|going) with|"
    r"(?:went|gone|going) (?:fully |full |completely |totally )?(?=vegan|vegetarian|veggie|pescatarian|plant-based|keto|"
    r"paleo|dairy-free|gluten-free)|"
    r"registered with)\b", re.I)
# "moved over to X" / "switched to X": a change of something one uses, not of where one lives
_SWITCH_OVER = re.compile(r"\b(?i:moved over to|went over to|switched (?:over )?to|swapped to|changed to)\s+[A-Z]")
# "we're with X now": the household is a customer of a provider named bare
_WITH_NAME = re.compile(r"\b(?i:we'?re|we are) (?:now |all )?(?i:with) (?!(?i:the|my|our|a|an|his|her|their)\b)[A-Z][\w\-]+")
_PROVIDER_SORTS = frozenset(["insurer", "energy", "broadband", "phone_plan", "bank"])
_CLINICIAN = re.compile(r"\bDr\.?\s+[A-Z]")  # not "Dra.": in Spanish a lawyer is "Dra." too
_CAPITAL_NAME = re.compile(r"(?<!^)(?<![.!?]\s)\b(?!I\b|I'[a-z]+\b)[A-Z][\w'\-]+")  # "I'm" names nothing


_OFFICE_MOVED = re.compile(r"\b(?:relocated|moved|moving|relocating)\s+(?:\w+\s+)?(?:to|into)\s+(?:the|our|a|a new|their)\s+"
                           r"(?:[\w'\-]+\s+){0,3}?(?:office|offices|head office|hq|branch|campus|site)\b", re.I)
# a rule's key that says the sort of its value where its family holds many ("relation" holds a landlord and a son)
KEY_SORTS: dict[str, str] = {"relation.landlord": "landlord", "relation.dentist": "dentist", "relation.doctor": "doctor"}


def sorts_of(text: str, family: str | None = None) -> frozenset[str]:
    """The sorts of value ``text`` is about (empty when it names none this module reads); ``family`` is the
    key family a rule gave it, whose sort it has whatever its words."""
    if family in FAMILY_SORTS:
        return frozenset([FAMILY_SORTS[family]])
    found = {sort for sort, pat in _SORT_WORDS.items() if pat.search(text)}
    if _TITLE_FRAME.search(text) or _TITLE_SAID.search(text):
        found.add("title")
    if not _CAPITAL_NAME.search(text):
        # "I live with my sister" / "the app keeps crashing" name no value of a named sort
        found -= _NAMED_SORTS
    found |= brand_sorts(text)  # "Barclays", "giffgaff": the name alone says its sort, in any sentence
    if "office" in found and _OFFICE_MOVED.search(text):
        found.discard("home")  # "the team relocated to the Shoreditch office" moved no home
    if "dentist" in found:
        found.discard("doctor")  # "my dentist is Dr. X" names no GP
    elif "doctor" not in found and _CLINICIAN.search(text):
        found |= {"doctor", "dentist"}  # "got moved to Dr. X" says a clinician, not which
    if "home" in found and len(found) > 1 and not re.search(r"\b(?:live|living|lives|lived|moved|move to|relocated|packed up|"
                                                            r"new place|settled in|flat|house|apartment|now that (?:i'?m|we'?re) in|been in)\b",
                                                            text, re.I):
        found.discard("home")  # "the app I use at home" is about a tool
    return frozenset(found)


def change_frame(text: str) -> frozenset[str]:
    """The sorts of value ``text`` gives a new value of, when it is framed as a change ("Switched gyms, it's
    X now", "They made me team lead", "We packed up and we're in X now"); empty when it frames no change."""
    if not done(text, _CHANGE_FRAME) and not changes(text):
        return frozenset()  # no change, or one only planned or denied ("I haven't switched")
    found = set(sorts_of(text))
    if _TITLE_FRAME.search(text):
        found.add("title")
    if not found and _WITH_NAME.search(text):
        found |= _PROVIDER_SORTS  # "We're with X now": the household's provider, of the sort the user had one of
    if _SWITCH_OVER.search(text):
        # something one switches over to without naming its sort is a thing one uses or goes to
        found.discard("home")
        found |= {"tool", "gym", "bank"} if not found else set()
    return frozenset(found)


_ACTS_ON = re.compile(r"\b(?:moved|switched|took|sent|enrolled|put|transferred|signed)\s+(?:him|her|them)\b", re.I)


# a statement of another person's that does not say "I" or "we": told of a relative or by their possessive
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|we|we're|we've|us|our)\b", re.I)
_THIRD_PERSON = re.compile(r"^\s*(?:(?:my|our)\s+)?(?:mum|mom|mother|dad|father|sister|brother|wife|husband|partner|"
                           r"son|daughter|friend|boss|neighbour|neighbor|aunt|uncle|cousin|gran|grandma|grandad|"
                           r"grandpa)\b|\b(?:his|her|their)\b", re.I)


def acts_on_another(text: str) -> bool:
    """Whether the change is done to another person ("we moved him to X Academy") or told of one without the user
    in it ("Mum has been put under Dr. X at her surgery"): the value is theirs."""
    return bool(_ACTS_ON.search(text)) or (not _FIRST_PERSON.search(text) and bool(_THIRD_PERSON.search(text)))


# a weekday named, or days of it ("Tuesday", "Fridays"): a time an appointment is at, and a schedule's days
_WEEKDAY = r"(?:" + "|".join(WEEKDAYS) + r")s?"

# families whose every value has a shape of its own: a sentence without one is no value of theirs ("I take the number
# 14 bus" is no phone number, "ported my number over to X" names none)
_SHAPES: dict[str, re.Pattern[str]] = {
    "phone": re.compile(r"\+?\d(?:[\s().\-]*\d){6,}"),
    "email": re.compile(r"[\w.+\-]+@[\w\-]+\.[\w.\-]+"),
    # how the user wants answers speaks to the one who answers, or of the answers: "I'm finally on top of my emails"
    # read 0.48 alike the family's examples, and as an answer style it was shown in every context
    "communication": re.compile(r"\b(?:me|you|your|answers?|repl(?:y|ies)|responses?|explain\w*)\b", re.I),
    # an appointment is at a time: "First week at Monzo done" and "Ported my number to giffgaff, £15 for 35GB" read
    # alike its examples, masked, and were filed as appointments
    "appointment": re.compile(r"\d{1,2}(?::\d\d|\.\d\d|\s?[ap]\.?m\b)|\b\d{1,2}(?:st|nd|rd|th)\b|\b\d{1,2}/\d{1,2}\b|"
                              r"\b\d{4}-\d\d-\d\d\b|\b" + _WEEKDAY + r"\b|"
                              + _MONTH + r"|"
                              r"\b(?:tomorrow|tonight|today|noon|midday|mornings?|afternoons?|evenings?|weekend|"
                              r"next (?:week|month)|appointments?|booked|rescheduled|cancell?ed|moved)\b", re.I),
    # a time zone is named as one ("GMT+1", "Pacific time", "three hours behind"): "I'm at 56 mins right now" read alike
    "timezone": re.compile(r"\b(?:UTC|GMT|BST|CET|CEST|EST|EDT|CST|PST|PDT|IST|JST|AEST|AEDT|time ?zones?|"
                           r"(?:eastern|central|pacific|mountain|london|local) time|hours? (?:ahead|behind)|"
                           r"(?:UTC|GMT)\s?[+\-]\d)", re.I),
    # a manager is someone the user reports to: "a cleaning at Bright Dental with Dr. Alvarez" read alike
    "manager": re.compile(r"\b(?:manager|boss|reports? to|reporting to|line manager|supervisor|team lead|"
                          r"head of|my lead|managed by|works? under)\b", re.I),
    # a programming language is named as one ("it's all Japanese now" read nearest "I code in X")
    "programming_language": _said_by("python", "java", "javascript", "typescript", "golang", "go", "rust", r"c\+\+",
                                     "c#", "ruby", "php", "swift", "kotlin", "scala", "haskell", "elixir", "erlang",
                                     "clojure", "perl", "matlab", "julia", "dart", "lua", "bash", "fortran", "cobol",
                                     "sql", "r", "ocaml", "f#", "zig", "nim", "programming", "coding", "code",
                                     "language"),
    # a medicine is said as one: by a dose, a form, a word for medicine or a drug's name ("I take the Tokyu Toyoko line
    # every morning" read nearest "I take X daily")
    "medication": re.compile(r"\d\s?(?:mg|mcg|µg|ml|iu|units?)\b|\b(?:tablets?|pills?|capsules?|dose|doses|dosage|"
                             r"inhalers?|injections?|jabs?|medication|medicines?|meds|prescri\w+|drops|patch(?:es)?|"
                             r"creams?|syrup|antidepressants?|antibiotics?|antihistamines?|statins?|insulin|hrt|"
                             r"contracepti\w+|birth control|the pill|vitamins?|supplements?|painkillers?|aspirin|"
                             r"ibuprofen|paracetamol|acetaminophen|tylenol|advil|adderall|ritalin|concerta|elvanse|vyvanse|xanax|"
                             r"zoloft|prozac|lexapro|wellbutrin|lyrica|bupropion|\w+(?:pril|sartan|statin|olol|azole|"
                             r"cillin|mycin|cycline|oxetine|aline|azepam|zolam|triptan|tidine|prazole|formin|thyroxine|"
                             r"profen|fenac|dipine|semide|thiazide|lukast|terol|olone|opram|faxine|zapine|tiapine|"
                             r"pentin|gabalin|farin|trigine|phenidate|done))\b", re.I),
    # where one is from is said as where one comes from ("living in a flat in Glasgow" read nearest "I'm from X")
    "origin": _said_by("from", "originally", "grew up", "growing up", "born", "raised", "native", "hometown",
                       "home town", "roots", "heritage", "descent", "background", "childhood",
                       r"moved (?:here|over|to \w+) (?:from|when|as|at)"),
    # a sum of money is said with a figure or a word for money ("First month in Dundee done" read nearest it)
    "finance": re.compile(r"[£$€¥₹]|\d|\b(?:salary|income|savings|saving|debts?|loans?|mortgage|pension|money|pay|paid|"
                          r"earn\w*|wages?|invest\w*|isa|401k|stocks?|shares?|crypto|credit|owe|bills?|rent|broke|"
                          r"afford|budget|overdraft|raise|bonus|tax|spend\w*|cost\w*|cheap|expensive)\b", re.I),
    # a work schedule says when: days, hours, shifts ("We've relocated to the King's Cross office as of today" is none)
    "work_schedule": re.compile(r"\d|\b(?:" + _WEEKDAY + r"|weekdays?|weekends?|shifts?|rota|"
                                r"nights|earlies|lates|hours|part[- ]time|full[- ]time|days? a week|remote(?:ly)?|hybrid|"
                                r"from home|wfh|in the office|office days?|overtime|on call|nine to five|mornings|"
                                r"afternoons|evenings)\b", re.I),
    # a rent is said as one: "my EE contract ends in june, I'm paying £38 a month for 100GB" read alike "my rent is X"
    "rent": _said_by("rent", "rents", "rented", "renting", "landlord", "landlady", "letting agents?", "tenancy",
                     "lease", "mortgage"),
    # a birth date is a date: "My niece just got into X Grammar" read alike "I was born on X"
    "birth_date": re.compile(r"\d|" + _MONTH + r"|"
                             r"\b(?:born|birthday|bday|b-day)\b", re.I),
    # what the user is called is said of the user: "I run a little cafe in Marrickville called Bean There" read alike
    # "everyone calls me X" (the cafe is called that)
    "preferred_name": re.compile(r"\b(?:call(?:s|ed|ing)? me|go(?:es|ing)? by|(?:my|our) (?:\w+ )?name|nickname|"
                                 r"known as|refer to me|address me|i'?m [A-Z]\w+|i am [A-Z]\w+)\b", re.I),
    # when the user sleeps or wakes is said of sleep: "I go to Planet Fitness on Atlantic Ave, 5:30am before work" read
    # alike "I wake up at X"
    "sleep": re.compile(r"\b(?:sleep\w*|slept|bed|bedtime|wake|waking|woke|up at|get up|getting up|night owl|"
                        r"early (?:bird|riser)|insomnia|nap\w*|lie[- ]in|alarm)\b", re.I),
    # a pet is said as an animal or by what only a pet has ("My son in London sent me an iPhone 13" read nearest "our
    # dog X"): a species or breed, a vet, a walk, a litter tray, a rescue
    "pet": _said_by("pets?", "cats?", "kitt(?:y|ies|ens?)", "dogs?", "pupp(?:y|ies)", "pups?", "doggo", "hounds?",
                    "rabbits?", "bunn(?:y|ies)", "hamsters?", "guinea pigs?", "gerbils?", "ferrets?", "rats?", "mice",
                    "mouse", "parrots?", "budgies?", "birds?", "cockatiels?", "canar(?:y|ies)", "chickens?", "hens?",
                    "ducks?", "fish", "goldfish", "bettas?", "tortoises?", "turtles?", "snakes?", "lizards?", "geckos?",
                    "iguanas?", "horses?", "pon(?:y|ies)", "goats?", "tabby", "labs?", "labradors?", "retrievers?",
                    "collies?", "spaniels?", "terriers?", "poodles?", "beagles?", "husk(?:y|ies)", "shepherds?",
                    "dachshunds?", "pugs?", "bulldogs?", "greyhounds?", "whippets?", "lurchers?", "corgis?", "schnauzers?",
                    "chihuahuas?", "cavapoos?", "cockapoos?", "labradoodles?", "shih tzus?", "siamese", "persian",
                    "maine coon", "ragdolls?", "vets?", "veterinar\\w+", "walkies", "litter", "kibble",
                    "leash", "collar", "neutered", "spayed", "adopted", "adopt", "rescue", "fostering", "paws?",
                    "fur", "purr\\w*", "bark\\w*", "meow\\w*", "flea\\w*", "worming", "groom\\w*", "kennels?",
                    "cattery", "hutch", "pouches", "wet food", "dry food", "cat food", "dog food"),
    # a team or department is said as one ("My company moved offices to X, right by a MARTA station" read nearest "I am
    # on the X team")
    "team": _said_by("teams?", "departments?", "dept", "squads?", "units?", "divisions?", "groups?", "crews?", "desks?",
                     "pods?", "tribes?", "functions?", "org", "reorg", "re-org", "business unit", "practice", "wards?"),
    # an age is a number of years: "I'm halfway through The Midnight Library" read 0.5 alike "I am X years old"
    "age": re.compile(r"\d|\b(?:teens|twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties|twenty|"
                      r"thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|years? old|birthday)\b", re.I),
}


# how the user wants to be answered, told to the one who answers: an imperative of manner ("Keep it polite and formal",
# "Structure your answers with headings", "Don't sugarcoat anything", "Be gentle and patient with me"). A wish ("I'd
# rather you used that too") is not enough: "Everyone at work calls me Robert and I'd rather you used that too" is a name
_MANNER = (r"keep|use|write|talk|speak|be|skip|avoid|don'?t|do not|never|stop \w+ing|lay out|start|end|finish|throw in|"
           r"include|stick to|go (?:easy|light)|cut|spare me|hold off|limit|lead with")
ANSWER_STYLE = re.compile(
    r"^(?:(?:please|just|always|and|also|oh|so|but)\s*,?\s+)*"
    # cheering on ("Keep it up, you're almost there!", "Don't worry, ...") tells nobody how to answer: 169 sentences of
    # LoCoMo's talk between friends matched before these were left out
    r"(?!(?:keep (?:it up|going|on|at it|pushing|learning|trying|growing|moving|me (?:posted|updated|informed|in the loop))|"
    r"don'?t (?:worry|forget|give up|quit|stress|panic|let|feel)|never (?:had|been|mind)|"
    # a thing asked for ("Write me a cover letter for the X job") is one answer, not a way of answering
    r"(?:write|start|end|finish|use|include)\s+(?:me|us)\s+(?:a|an|the|some|my|our|up|out)\b)\b)"
    # verbs that are about an answer's form whatever follows, and the rest when the sentence names the answers, the
    # user, or a manner of speaking
    rf"(?:(?:cite|structure|format|spell out)\b|"
    # a limit on the answers' length, said alone: "no more than two or three lines", "under 100 words"
    r"(?:no more than|not more than|at most|max(?:imum)?|under|less than|fewer than)\s+(?:[\w\-]+\s+){1,3}"
    r"(?:lines|sentences|paragraphs|words|bullets|bullet points)\b|"
    # the answers wanted, named as a noun: "new rule: detailed answers w/ the full reasoning", "short replies please"
    r"(?:new rule:?\s+|from now on:?\s+)?(?:(?:much|more|less|really|very|nice|and)\s+)?(?:short|shorter|brief|"
    r"briefer|detailed|long|longer|concise|simple|simpler|plain|technical|step-by-step|bullet(?:ed|-point)?|numbered|"
    r"casual|formal|friendly|direct|blunt|full|fuller|thorough|quick|quicker|one-line|one-word)\s+"
    r"(?:answers|replies|responses|explanations)\s+(?=(?:please|pls|from now on|going forward|only|always|with|in "
    r"(?:future|bullet|plain|simple|\w+ language))\b|w/)|"
    rf"(?:{_MANNER})\b"
    r"(?=[^.?!]*\b(?:me|answers?|repl(?:y|ies)|responses?|explanations?|explain\w*|jargon|bullets?|headings?|"
    r"summary|summaries|examples?|emojis?|sources|steps|tone|words|language|sentences?|paragraphs?|lines|short|"
    r"brief|simple|formal|casual|polite|plain|concise|detailed|technical|pleasantries|waffle|fluff|preamble|padding|"
    r"disclaimers?|warnings?|caveats?|options|lists?)\b))", re.I)


def answer_style(text: str) -> bool:
    """Whether ``text`` tells the assistant how to answer: an imperative of manner about the replies or the user."""
    return bool(ANSWER_STYLE.search(text.strip()))


# a street address: a number, a capitalised name, a word for a street (and a UK postcode or a US ZIP after it)
_STREET = (r"\b\d{1,4}[a-z]?,? (?-i:(?:[A-Z][\w'\-]+ ){1,3})(?:street|st|road|rd|lane|ln|avenue|ave|close|drive|dr|way|"
           r"place|court|crescent|terrace|grove|gardens|square|row|mews|walk|rise|boulevard|blvd|parkway)\b")
_POSTCODE = r"(?-i:\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b|\b[A-Z]{2} \d{5}(?:-\d{4})?\b)"
# a home or an employer is named (a capitalised word inside the sentence, not a day or a month) or said by its
# words: "My shift is 7am to 3pm, Monday to Friday" read nearest "I live in X", "my sched is 8am to 5pm now" nearest
# "I work at X"
_NAMED = (r"(?<=[\w,;:)] )(?!(?:I|" + "|".join(m.capitalize() for m in MONTHS) + "|"
          + "|".join(m[:3].capitalize() for m in MONTHS) + "|" + "|".join(d.capitalize() for d in WEEKDAYS)
          + r")s?\b)(?-i:[A-Z])[\w'\-]+")
_SHAPES["home_city"] = re.compile(_NAMED + r"|" + _SORT_WORDS["home"].pattern + r"|\b(?:move|moved|moving|based|city|"
                                  r"town|village|suburbs?|neighbou?rhood|area|place|home|here|there|country|emigrat\w*|"
                                  r"abroad|commute|from)\b", re.I)
_SHAPES["employer"] = re.compile(_NAMED + r"|" + _SORT_WORDS["employer"].pattern + r"|\b(?:work\w*|job|jobs|office|"
                                 r"started|start|starting|contract|role|position|offer|agency|studio|startup|boss|"
                                 r"manager|colleagues?|team|quit|left|leaving|resigned|redundan\w+|laid off|fired)\b", re.I)
_SHAPES["address"] = re.compile(rf"{_STREET}|{_POSTCODE}|\b(?:address|postcode|post code|zip(?: code)?|flat \d+|"
                                r"apartment \d+|apt\.? ?\d+|unit \d+)\b", re.I)

# the shapes no value of another family has: a sentence of the user's with an email address in it is about their
# email ("I use j@x.com for everything" read nearest a tool, "I use X for X"); one that puts times in a zone ("give
# any times in CET", "I'm on Pacific time") about their time zone ("at 9pm EST" is a time, not where times are put)
_UNMISTAKABLE: dict[str, re.Pattern[str]] = {
    "email": _SHAPES["email"],
    # the user's own place at a street address ("we're at 3 Mill Lane now"; "the clinic at 5 Elm Road" is not theirs)
    "address": re.compile(r"\b(?:(?:i|we)(?:'m|'re| am| are| now| live| lived| moved| have moved|'ve moved)*|"
                          r"(?:go|goes|sent|send|deliver(?:ed)?|ship(?:ped)?|post(?:ed)?)(?: it| them)?)\s+(?:at|to|into)\s+"
                          rf"(?:flat \d+,? )?{_STREET}|"
                          # with its postcode, wherever the sentence puts it ("it was meant to go to 14 X Grove, LS6
                          # 1HD"), unless it is a place's ("the clinic at ...")
                          rf"(?<!the )(?<!clinic at )(?<!office at )(?<!surgery at ){_STREET},? (?:[A-Z][a-z]+,? )?"
                          rf"{_POSTCODE}", re.I),
    "timezone": re.compile(r"\b(?:in|on|into|to|use|using)\s+(?:(?-i:UTC|GMT|CET|CEST|EET|EEST|WET|EST|EDT|CST|CDT|MST|"
                           r"MDT|PST|PDT|BST|IST|JST|AEST|AEDT|NZST|NZDT)\b|(?:eastern|central|mountain|pacific|"
                           r"atlantic|european|greenwich) (?:standard )?time\b)", re.I),
    "communication": ANSWER_STYLE,
    # a dose the user is put on or takes ("GP put me up to 40mg", "I'm on 20mg now"): a medication, whoever prescribed it
    "medication": re.compile(r"\b(?:up|down|on|to|from|taking|take|takes|prescribed|upped|lowered|increased|reduced)\b"
                             r"[^.;]{0,25}?\b\d+(?:\.\d+)?\s?(?:mg|mcg|µg|ml|iu)\b", re.I),
}


def shaped_family(text: str) -> str | None:
    """The family whose unmistakable value shape ``text`` holds, or None."""
    return next((f for f, shape in _UNMISTAKABLE.items() if shape.search(text)), None)


def lacks_shape(family: str, text: str) -> bool:
    """Whether ``text`` holds no value of the shape every value of ``family`` has (False for a family of no shape)."""
    if family == "bank":
        # a bank is said as a bank or by a bank's name ("First Powershop bill arrived" read nearest "I bank with X")
        return not (_BANK_SAID.search(text) or "bank" in brand_sorts(text))
    shape = _SHAPES.get(family)
    return shape is not None and not shape.search(text)


_BANK_SAID = _said_by("banks?", "banking", "banked", "accounts?", "current account", "checking", "savings", "saver",
                      "isa", "cards?", "debit", "overdraft", "sort code", "iban", "routing", "branch", "building society",
                      "credit union", "direct debits?", "standing orders?", "transfers?", "statements?",
                      "online banking", "mortgage", "loan", "paid in", "deposit\\w*", "withdraw\\w*")


# a question that asks what holds now ("Which team are you on these days?", "What's your email now?") names the
# attribute by its noun; its answer is that attribute's current value, whether or not the answer says "now"
_ASKED_NOW = re.compile(r"\b(?:now|these days|nowadays|currently|at the moment|still|any ?more)\b", re.I)
_ASKED_NOUN = re.compile(r"\b(?:which|what)(?:'s| is| are)?\s+(?:your\s+)?(?:kind of\s+|sort of\s+)?([a-z]{3,})\b|"
                         r"\b(?:who|where)(?:'s| is| are)\s+your\s+([a-z]{3,})\b", re.I)
_NOT_NOUNS = frozenset(["are", "is", "do", "does", "did", "was", "were", "can", "should", "would", "will", "the", "your",
                        "kind", "sort", "time", "day", "else", "about", "you"])


_ASKED_WHICH = re.compile(r"\b(?:which|what)(?:'s| is| are)?\s+(?:your\s+)?(?:(?:new|current|usual|main|home|work|"
                          r"mobile|email|postal|billing|delivery)\s+)?(?P<n>[a-z]{3,})\b", re.I)


def asked_which(question: str) -> str | None:
    """The noun of the user's attribute ``question`` asks which it is ("Which bank are you with at the moment?" ->
    "bank", "What's your new address?" -> "address"), or None (none, or about another person)."""
    if asked_of_another(question):
        return None
    m = _ASKED_WHICH.search(question)
    noun = m.group("n").lower() if m else None
    return noun if noun and noun not in _NOT_NOUNS else None


def asked_of_another(question: str) -> bool:
    """Whether ``question`` asks about another person's thing ("Which team does your sister lead?"): its answer is
    theirs, no value of the user's."""
    return bool(_ASKED_OF_ANOTHER.search(question))


# "does your sister ...", "has your husband ...": a person's ("has your rota changed?" asks of the user's own)
_ASKED_OF_ANOTHER = re.compile(
    # "How old are the kids?", "what are your boys into?": the children's
    r"\b(?:are|were)\s+(?:the|your)\s+(?:kids|children|boys|girls|twins|little ones|grandkids|grandchildren)\b|"
    r"\b(?:does|did|has|do|is|was)\s+your\s+(?:\w+\s+)?(?:sister|brother|wife|husband|partner|son|daughter|kids?|"
    r"child(?:ren)?|mum|mom|mother|dad|father|parents?|boss|manager|friend|colleague|coworker|co-worker|flatmate|"
    r"roommate|neighbou?r|boyfriend|girlfriend|fianc[eé]e?|cousin|aunt|uncle|niece|nephew|grand\w+|in-laws?|family|"
    r"landlord|landlady|team|teacher|doctor|dentist)s?\b", re.I)


def asked_now(question: str) -> str | None:
    """The noun of the user's own attribute ``question`` asks the current value of ("team" for "Which team are you
    on these days?"), or None (no question of the present, none about the user: "which team does your sister lead")."""
    if not _ASKED_NOW.search(question) or not re.search(r"\byour?\b", question, re.I) or asked_of_another(question):
        return None  # "Which team does your sister lead ...": the question is about another person
    if v := _ASKED_DOING.search(question):
        return "family:" + _DOING_FAMILY[v.group(1).lower()]  # "What are you studying now?": the course
    m = _ASKED_NOUN.search(question)
    noun = (m.group(1) or m.group(2)).lower() if m else None
    return noun if noun and noun not in _NOT_NOUNS else None


# what the user is doing, asked by its verb: the family of its answer
_DOING_FAMILY = {"studying": "education", "driving": "vehicle", "taking": "medication", "learning": "languages"}
_ASKED_DOING = re.compile(r"\bwhat (?:are|r) (?:you|u) (studying|driving|taking|learning)\b", re.I)
