"""Sentence-level patterns of the rule extractor: where a turn splits into sentences and clauses, and what a
sentence is before any rule reads it (a question, a hypothetical, someone else's words, a lead-in, a hedge, a
correction, another person as the subject, a former value beside the current one)."""

from __future__ import annotations

import re

I = re.IGNORECASE  # noqa: E741

# no break after a title ("Dr. Adeyemi"): the name belongs to the sentence
# nor after "no." / "ref." before the code they lead to ("policy no. DL-7720148"); chat ends a sentence with an emoji
# as often as with a stop ("three weeks now 😩 my brother's taken over ...")
SENTENCE_SPLIT = re.compile(r"(?<=[.!?])(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bSt\.)(?<!\bProf\.)"
                            r"(?<!\bno\.)(?<!\bref\.)(?<!\bRef\.)(?<!\bDra\.)(?<!\bSra\.)(?<!\bSr\.)(?<!\bMme\.)"
                            r"(?<!\bDrs\.)"
                            r"\s+(?=[\"'(A-Z0-9])|\n+|;\s+|(?<=[\U0001F300-\U0001FAFF\u2600-\u27BF])\s+(?=\w)")
# chat drops the apostrophe ("im paying £38", "ive moved", "dont"): the rules read the written forms
_CHAT_FORMS = {"im": "I'm", "ive": "I've", "dont": "don't", "cant": "can't", "didnt": "didn't", "doesnt": "doesn't",
               "isnt": "isn't", "wasnt": "wasn't", "arent": "aren't", "havent": "haven't", "hasnt": "hasn't",
               "wouldnt": "wouldn't", "couldnt": "couldn't", "shouldnt": "shouldn't", "whats": "what's",
               "thats": "that's", "youre": "you're", "theyre": "they're", "u": "you", "ur": "your", "pls": "please",
               "plz": "please"}
_CHAT_FORM = re.compile(r"\b(?:" + "|".join(_CHAT_FORMS) + r")\b", I)


def written(text: str) -> str:
    """``text`` with chat's apostrophe-less forms written out ("im" -> "I'm"), the rest unchanged."""
    def repl(m: re.Match[str]) -> str:
        out = _CHAT_FORMS[m.group().lower()]
        return out[:1].upper() + out[1:] if m.group()[:1].isupper() else out
    return _CHAT_FORM.sub(repl, text)
# Clause boundaries inside one sentence: ", I ...", ", and my ...", " and I ...", " but I'm ..." ("Jo and I are" is one)
CLAUSE_SPLIT = re.compile(r",\s+(?:and |but |so |plus |actually |oh |wait,? )?(?=(?:i|i'm|i've|i'd|i'll|my)\b)|\s+(?:and|but|so)\s+"
                          r"(?=(?:i|i'm|i've|i'd|i'll|my)\b)(?!i (?:are|were|have|both|each|all|got|split|broke|separated|divorced)\b)", I)
# chat drops the capital after a full stop ("ok no coffee after 2pm. also I need to ..."): a lowercase start ends
# a sentence too, unless the stop closes an abbreviation
LOWER_SENTENCE_SPLIT = re.compile(
    r"(?:(?<=[a-z0-9%)\]][.!?])|(?<=[A-Z0-9][A-Z][.!?])|(?<=[a-z0-9][!?][!?])|(?<=[a-z0-9][!?][!?][!?]))(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\betc\.)(?<!\bvs\.)(?<!\bapprox\.)(?<!\bno\.)"
    r"(?<!\b[ap]\.m\.)(?<!\bapt\.)(?<!\bdept\.)(?<!\bcf\.)\s+(?=[a-z])|"
    # news, a dash, then a request about it: "The vet is on the 3rd at 10 - remind me the day before" is a fact and a
    # request, two sentences (as one, the request's rules read it and the fact was lost)
    r"\s+[\u2014\u2013-]\s+(?=(?i:(?:(?:and|so|but|oh)\s+)?(?:please\s+)?(?:remind me|can you|could you|would you|will you|"
    r"let me know|help me|make sure|don't let me|keep me posted|ping me|nudge me))\b)")
# a hedge on why the user tells it ("..., if that's ever relevant", "..., in case it helps"): no part of the fact, and
# its words ("for the bios you help me write") read as a request to the assistant
HEDGE_TAIL = re.compile(r",\s*(?:(?:just\s+)?in case (?:it|that|this)(?:'s| is| helps| matters| comes up)|"
                        r"if (?:that|it|this)(?:'s| is| ever| helps| matters)(?: ever)?"
                        r"(?:\s+(?:relevant|useful|helpful|important|needed|of use|any use|matters|helps))?)\b[^,;.!?]*[.!]?$", I)
# "I take X since January, before that it was Y": the former value beside the current one is history, not a
# value to keep (the raw turn keeps it)
FORMER_TAIL = re.compile(r",\s*(?:before that|before then|previously|until then|formerly|prior to that|it used to be)\b"
                         r"[^,;]*?[.!]?$", I)
# a clause whose subject is another person ("My wife works as ...", "She got a job in Rome"), see _statements
# a frame of time may come first: "after my brother's move to X, he ...", "since our son started at X, ..."
OTHER_SUBJECT = re.compile(
    r"^(?:(?:after|since|now that|ever since|when)\s+)?(?:(?:(?:both|all|one|two|three|some|most|each|either|neither)(?: of)?\s+)?(?:my|our|his|her|their)\s+(?:\w+\s+)?(?:brother|sister|mum|mom|mother|dad|father|parents?|son|daughter|kids?|children|"
    r"child|wife|husband|partner|boyfriend|girlfriend|friend|friends|neighbou?r|neighbou?rs|boss|colleague|"
    r"colleagues|manager|cousin|uncle|aunt|grandma|grandpa|grandmother|grandfather|flatmate|roommate|landlord|"
    r"teacher|coworker|co-worker|in-laws|niece|nephew|grandson|granddaughter|grandkid|grandchild|godson|goddaughter|"
    r"stepson|stepdaughter|fianc[eé]e?|mate|ex|devs?|developers?|engineers?|team|clients?|customers?|staff|"
    r"employees?|students?|patients?)s?|he|she|he's|she's)\b", I)
# a reply that says no to what the assistant said or asked ("nope, Y since March", "that's wrong, I moved")
DENIALS = re.compile(r"^\W*(?:no|nope|nah|not any ?more|no longer|that'?s (?:wrong|not right|old)|wrong)\b", I)
# the people of the user's family (a role such as a manager or a doctor is none)
FAMILY_RELATIONS = frozenset(["son", "daughter", "child", "kid", "wife", "husband", "partner", "spouse", "mother",
                              "father", "sister", "brother", "grandmother", "grandfather", "aunt", "uncle", "cousin",
                              "niece", "nephew", "girlfriend", "boyfriend", "fiance", "stepson", "stepdaughter",
                              "grandson", "granddaughter"])
QUESTION_START = re.compile(
    r"^(?:what|what's|where|who|whom|whose|why|how|which|can|could|would|will|shall|should|"
    r"do|does|did|is|are|am|was|were|have|has|may|might)\b",
    I,
)
HYPOTHETICAL = re.compile(
    r"\b(?:if i (?:were|was|had|could|lived|worked|owned)|suppose|supposing|imagine|hypothetically|"
    r"what if|let'?s say|pretend|in theory|would i|i wish i|as if)\b",
    I,
)
REPORTED = re.compile(
    r"\b(?:he|she|they|someone|somebody|people|[A-Z][a-z]+|[Mm]y \w+|[Oo]ur \w+) (?:said|says|told me|thinks|claims|"
    r"asked|mentioned|believes|wrote)\b|[\"“][^\"”]{3,}[\"”]"
)
LEAD = re.compile(
    r"^(?:(?:oh|well|so|ok|okay|also|and|but|btw|by the way|yes|yeah|yep|yup|no(?=\s*[,!.:;-]|\s+(?:i|i'm|i've|we|we're|it|it's|its|that|that's|this|my|our|"
    r"actually|not|sorry|thanks|thank you|he|she|they)\b)|nope|hi|hello|hey|"
    r"sure|um|uh|hmm|alright|right|great|thanks|thank you|honestly|anyway|also|plus|fyi|oh and|"
    r"just so you know|for the record|for context|good morning|good afternoon|quick update|small update|little update|"
    r"an update|big news|good news|great news|some news|news|quick note|fun fact)\b[,!.:]?\s*)+",
    I,
)
CORRECTION_LEAD = re.compile(
    r"^(?:actually|correction|sorry|wait|oops|my bad|i mean|i meant|to correct myself|scratch that|"
    r"no wait|let me correct that|update)\b[,:!.-]?\s*",
    I,
)
CORRECTION_ANY = re.compile(r"\b(?:actually|correction|i meant|i changed my mind|not anymore)\b", I)
CHANGE = re.compile(r"\b(?:anymore|any more|no longer|not any longer|these days|nowadays|now)\b", I)
NEGATED_CHANGE = re.compile(r"\b(?:anymore|any more|no longer|not any longer)\b", I)
HEDGE_LEAD = re.compile(
    r"^(?:i think(?! in\b| of\b)|i guess|i believe|i suppose|maybe|probably|perhaps|possibly|i'?m not sure,? but|"
    r"if i remember correctly|iirc|i'?m pretty sure)\b,?\s*(?:that\s+)?",
    I,
)
# a softener between the subject and its verb ("I've kind of moved to X", "we sort of live in X") hedges nothing
SOFTENER = re.compile(r"\b((?:i|we|they)(?:'ve|'m|'re| have| am| are)?)\s+(?:kind of|sort of|kinda|sorta)\s+(?=[a-z])", I)
# "kind of" / "sort of" hedge as adverbs ("I kind of like jazz"), not as nouns after a determiner ("same kind of ward")
_NOUN_KIND = "".join(rf"(?<!\b{d} )" for d in ("a", "the", "same", "this", "that", "what", "which", "any", "some",
                                                 "every", "one", "that", "my", "our", "your", "his", "her", "their"))
HEDGE_ANY = re.compile(rf"\b(?:maybe|probably|perhaps|possibly|might|i think|i guess|not sure|{_NOUN_KIND}(?:kind|sort) of)\b",
                       I)
# an ironic lead turns what follows around ("Oh sure, I just love waiting on hold", "Great, another Monday, my
# favourite thing"): the sentence says the opposite of its words, so no rule takes it at its word
IRONY = re.compile(
    r"^(?:oh,? (?:sure|great|joy|brilliant|wonderful|fantastic|perfect|lovely)\b|yeah,? right\b|"
    r"(?:great|brilliant|fantastic|wonderful|perfect|lovely),? (?:another|just what)\b|just what i needed\b|lucky me\b)",
    I,
)


# a place named once in a turn and then pointed back at: "can you email Hollybank Medical Centre for my records?
# registered with them last week" (the clause alone names no practice)
_ORG = re.compile(r"\b(?:[A-Z][\w'&\-]+ ){1,3}(?:Surgery|Medical Cent(?:re|er)|Health Cent(?:re|er)|Practice|Clinic|Dental|"
                  r"Bank|Building Society|Insurance|Energy|Broadband|Gym|Fitness|Club|School|Academy|Nursery|College|"
                  r"Vets|Veterinary)\b")
_POINTED_BACK = re.compile(r"\b((?:registered|signed up|joined|switched|moved|transferred|changed) (?:over )?(?:with|to)) "
                           r"(?:them|it)\b", I)


def org_pointed_back(text: str) -> str:
    """``text`` with "registered with them" naming the one place the turn named before it."""
    orgs = {m.group(0) for m in _ORG.finditer(text)}
    back = _POINTED_BACK.search(text)
    if len(orgs) != 1 or back is None or not any(m.end() <= back.start() for m in _ORG.finditer(text)):
        return text
    return text[: back.start()] + f"{back.group(1)} {orgs.pop()}" + text[back.end():]
