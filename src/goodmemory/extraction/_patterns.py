"""Word lists, precompiled regexes and date resolution for the rule extractor.

This module owns the vocabulary of :mod:`goodmemory.extraction.rules`: what
counts as a name, an occupation, a relation, a vehicle, an identifier, a date.
Everything here is compiled once at import time; nothing does I/O.
"""

from __future__ import annotations

import re

from .._value_types import CAR_MAKES  # noqa: F401  (read as P.CAR_MAKES by the rules)
from ._dates import When, resolve_when
from ._sentence_patterns import (  # noqa: F401  (the sentence level, read as P.X by the rules)
    CHANGE,
    CLAUSE_SPLIT,
    CORRECTION_ANY,
    CORRECTION_LEAD,
    FORMER_TAIL,
    HEDGE_ANY,
    HEDGE_LEAD,
    HYPOTHETICAL,
    IRONY,
    LEAD,
    LOWER_SENTENCE_SPLIT,
    NEGATED_CHANGE,
    OTHER_SUBJECT,
    QUESTION_START,
    REPORTED,
    SENTENCE_SPLIT,
    SOFTENER,
)

__all__ = ["When", "resolve_when"]

I = re.IGNORECASE  # noqa: E741

# ---------------------------------------------------------------- vocabulary
NATIONALITIES = frozenset(
    ["american", "british", "english", "scottish", "welsh", "irish", "canadian", "mexican", "brazilian", "argentinian", "chilean", "colombian", "peruvian", "venezuelan", "cuban", "portuguese", "spanish", "french", "german", "italian", "dutch", "belgian", "swiss", "austrian", "swedish", "norwegian", "danish", "finnish", "icelandic", "polish", "czech", "slovak", "hungarian", "romanian", "bulgarian", "greek", "turkish", "russian", "ukrainian", "serbian", "croatian", "bosnian", "slovenian", "lithuanian", "latvian", "estonian", "israeli", "lebanese", "egyptian", "moroccan", "nigerian", "kenyan", "ghanaian", "ethiopian", "south-african", "indian", "pakistani", "bangladeshi", "sri-lankan", "nepali", "chinese", "japanese", "korean", "vietnamese", "thai", "filipino", "indonesian", "malaysian", "singaporean", "australian", "iranian", "iraqi", "syrian", "saudi", "emirati", "jordanian"]
)
LANGUAGES = frozenset(
    ["english", "spanish", "portuguese", "french", "german", "italian", "dutch", "swedish", "norwegian", "danish", "finnish", "polish", "czech", "russian", "ukrainian", "greek", "turkish", "arabic", "hebrew", "hindi", "urdu", "bengali", "punjabi", "tamil", "mandarin", "cantonese", "chinese", "japanese", "korean", "vietnamese", "thai", "indonesian", "malay", "tagalog", "swahili", "catalan", "basque", "galician", "romanian", "hungarian", "persian", "farsi"]
)
OCCUPATIONS = frozenset(
    ["engineer", "developer", "programmer", "teacher", "nurse", "doctor", "physician", "lawyer", "attorney", "accountant", "designer", "manager", "consultant", "analyst", "scientist", "researcher", "student", "professor", "writer", "journalist", "chef", "cook", "pilot", "driver", "mechanic", "electrician", "plumber", "architect", "artist", "musician", "photographer", "pharmacist", "dentist", "therapist", "officer", "clerk", "cashier", "salesperson", "realtor", "agent", "editor", "founder", "ceo", "cto", "cfo", "coo", "director", "administrator", "technician", "librarian", "firefighter", "paramedic", "veterinarian", "vet", "farmer", "carpenter", "translator", "interpreter", "economist", "banker", "trader", "investor", "entrepreneur", "freelancer", "contractor", "intern", "lecturer", "tutor", "coach", "trainer", "surgeon", "psychologist", "psychiatrist", "secretary", "assistant", "receptionist", "waiter", "waitress", "bartender", "barista", "homemaker", "sysadmin", "lead", "owner", "specialist", "professional", "worker", "representative", "rep", "supervisor", "executive", "marketer", "recruiter", "auditor", "paralegal", "postdoc", "phd", "resident", "midwife", "soldier", "sergeant", "detective", "judge", "pastor", "priest", "rabbi", "imam", "actor", "actress", "dancer", "singer", "producer", "copywriter", "illustrator", "animator", "tester", "strategist", "planner", "coordinator"]
)
_NOT_OCCUPATION_TAIL = frozenset(
    ["fan", "person", "lover", "type", "guy", "girl", "believer", "vegetarian", "vegan", "pescatarian", "owl", "bird", "customer", "member", "user"]
)
NOT_NAMES = frozenset(
    ["fine", "good", "great", "ok", "okay", "sorry", "not", "so", "very", "just", "also", "here", "there", "back", "home", "done", "ready", "sure", "happy", "glad", "tired", "busy", "hungry", "new", "looking", "trying", "going", "calling", "writing", "wondering", "afraid", "interested", "worried", "excited", "allergic", "married", "single", "divorced", "vegetarian", "vegan", "gluten", "lactose", "retired", "unemployed", "pregnant", "deaf", "blind", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december", "the", "a", "an", "in", "on", "at", "from", "with", "still", "currently", "i", "i'd", "i'm", "i'll", "i've"]
) | NATIONALITIES | LANGUAGES
UNIQUE_RELATIONS = frozenset(
    ["wife", "husband", "partner", "spouse", "girlfriend", "boyfriend", "bf", "gf", "hubby", "supervisor", "fiance", "fiancee", "mother", "mom", "mum", "father", "dad", "stepmother", "stepfather", "manager", "boss", "landlord", "landlady", "doctor", "gp", "dentist", "therapist", "physio", "optician", "lawyer", "accountant", "mentor", "grandmother", "grandfather", "grandma", "grandpa"]
)
MULTI_RELATIONS = frozenset(
    ["son", "daughter", "kid", "child", "brother", "sister", "sibling", "cousin", "niece", "nephew", "aunt", "uncle", "colleague", "coworker", "co-worker", "friend", "roommate", "flatmate", "teammate", "neighbor", "neighbour", "dog", "cat", "pet", "stepson", "stepdaughter"]
)
RELATIONS = UNIQUE_RELATIONS | MULTI_RELATIONS
CONFIRMATIONS = re.compile(
    r"^\s*(?:yes|yep|yeah|yup|correct|exactly|right|that'?s right|that'?s correct|that is correct|"
    r"that is right|confirmed|absolutely|indeed|affirmative|sure is|spot on)\b",
    I,
)

# --------------------------------------------------------- value fragments
NAME = r"(?-i:(?:Dr\.? |Dra\.? |Mr\.? |Mrs\.? |Ms\.? |Sra\.? |Sr\.? |Prof\.? )?[A-Z][a-zà-ÿ'’\-]+(?: (?:de |da |van |von |del |di )?[A-Z][a-zà-ÿ'’\-]+){0,3})"
ORG = r"(?-i:[A-Z0-9][\w&.'’\-]*(?:(?: (?:of|and|&|the|de))? [A-Z0-9][\w&.'’\-]*){0,4})"
PLACE_PARTICLES = r"(?:de|da|do|dos|das|del|della|di|du|la|le|los|las|von|van|der|den|am|an|im|upon|sur|al|el) "
PLACE = (
    r"(?-i:[A-Z][\w.'’\-]*(?: (?:" + PLACE_PARTICLES + r")?[A-Z][\w.'’\-]*){0,3}"
    r"(?:, [A-Z][\w.'’\-]*(?: [A-Z][\w'’\-]*){0,2})?)"
)
# Lowercase public bodies an employer phrase may name: "I work for the city council".
ORG_LOWER = (
    r"(?-i:the (?:[a-z\-]+ ){0,3}(?:council|government|ministry|department|agency|university|college|hospital|clinic|"
    r"school|library|museum|police|army|navy|air force|post office|civil service|health service|fire service|"
    r"municipality|administration|court|parliament|senate|county|city|state))(?=$|[\s,.;!])"
)
ID = r"(?P<v>#?(?=[A-Z0-9-]*\d)[A-Z0-9](?:[A-Z0-9]|[-/ ](?=[A-Z0-9]*\d[A-Z0-9]*)(?=[A-Z0-9])){3,24})"
MONEY = (
    r"(?P<v>(?:(?:US|CA|AU)?[$€£¥]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|K|m|M|million|billion|bn|thousand))?"
    r"|\d[\d,]*(?:\.\d+)?\s?(?:k |K )?(?:dollars|euros|pounds|bucks|USD|EUR|GBP|usd|eur|gbp|reais|BRL))"
    r"(?:\s(?:a|per|/)\s?(?:year|month|week|hour|day|yr|mo|night))?)"
)
OBJ_STOP = re.compile(
    r"\s+(?:because|but|since|although|though|so that|so|when|whenever|if|unless|while|which|and i|"
    r"and my|and we|whereas|except)\b.*$|\s*(?:[,;!?()]|:(?!\d))\s*.*$|\.\s*$|\.\s+.*$",
    I,
)
OBJ_TAIL = re.compile(r"\s+(?:too|a lot|so much|very much|really|anymore|any more|as well|either|though|lately|now|these days|nowadays|at all|one bit|in the (?:slightest|least)|whatsoever)$", I)
OBJ_REJECT = re.compile(
    r"^(?:it|that|this|them|those|these|him|her|you|your|yours|what|how|when|where|which|the idea|"
    r"the (?:first|second|third|last|other|same|new|previous) |the one|that one|this one|one|doing that|"
    r"to think|to know|to say|to ask|to see|to help|to hear|here|there|everything|anything|nothing)\b"
    r"|\b(?:option|suggestion|proposal|answer|response|version|offer)s?$",
    I,
)

# ---------------------------------------------------------------- rule regexes
R_NAME = re.compile(r"\b(?:my (?:full |legal |first )?name is|my name'?s|the name is)\s+(?P<v>" + NAME + r")", I)
R_IM_NAME = re.compile(r"^(?:i'?m|i am|this is)\s+(?P<v>" + NAME + r")(?=$|[\s,.!]|\s+(?:and|from|here))", I)
R_AGE = re.compile(
    r"\b(?<!like )(?<!as if )(?<!as though )(?:i'?m|i am|i just turned|i turned|i'll be|i'?m turning|my age is)\s+(?P<v>\d{1,3})(?:\s*(?:years? old|yrs? old|y/?o)|(?=\s*[.!,]?$)|(?=\s+(?:now|this year|next (?:week|month|year)|in (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)))|(?=\s*,|\s+and\b))",
    I,
)
R_OCCUPATION = re.compile(
    r"\b(?:i work as|i'?m working as|i am working as|i'?m employed (?:full[- ]time |part[- ]time )?as|"
    r"i am employed (?:full[- ]time |part[- ]time )?as|my job is|my (?:job title|title|role|profession|occupation) (?:is now|has changed to|changed to|is)|"
    r"i(?:'ve| have)? (?:just |recently )?(?:been |got |was )?promoted to|"
    r"(?:they|the company|the board|my (?:boss|manager|company|employer)) (?:have |has )?(?:just |finally )?"
    r"(?:made|appointed|named) me|i(?:'ve| have)? (?:just |finally |recently )?(?:became|become)|"
    r"i'?m|i am)\s+(?P<v>(?:an? |the )?[a-z][a-z\- ]{1,40}?)"
    r"(?=$|[.,;!]| (?:at|for|in|with|and|who|from|since|by|on|based|last|this|now|today|recently|yesterday|after|"
    r"before|because|when|(?:a|an|one|two|three|four|five|six|\d+) (?:years?|months?|weeks?|days?) ago)\b)",
    I,
)
R_RETIRED = re.compile(r"^(?:i'?m|i am) (?P<v>retired|unemployed|self-employed|a stay-at-home (?:mom|dad|parent))\b", I)
R_EMPLOYER = re.compile(
    r"\b(?:i (?:now |currently |still |also |actually )?work (?:at|for)|"
    r"i(?:'m| am) (?:now |currently |still |actually )?(?:employed|working) (?:at|by|for)|"
    r"i(?:'ve| have)? (?:just |recently |now )?joined|my employer is|my company is|"
    r"i(?:'ve| have)? (?:just |recently )?(?:started|got|landed|accepted|took|began) (?:a |an |my )?"
    r"(?:new |full[- ]time |part[- ]time )?(?:[a-z][\w\-]* ){0,3}?(?:job|position|role|gig|internship|work|working) "
    r"(?:at|with|for))"
    r"\s+(?P<v>" + ORG + r"|" + ORG_LOWER + r")",
    I,
)
# "I accepted a data engineer job at ...": the occupation named before the word for the job
R_JOB_NOUN = re.compile(
    r"\bi(?:'ve| have)? (?:just |finally |recently )?(?:accepted|took|landed|started|began|got) (?:a|an|the|my) (?:new )?"
    r"(?P<v>[a-z][a-z\- ]{1,40}?) (?:job|position|post|role)\b", I)
# "I work at a family bakery in Dunfermline": an employer told by what it is, not by its name
WORKPLACES = (
    r"bakery|pharmacy|clinic|hospital|school|shop|store|studio|firm|company|startup|agency|bank|practice|charity|"
    r"consultancy|lab|laboratory|restaurant|cafe|café|factory|garage|nonprofit|warehouse|supermarket|hotel|pub|bar|"
    r"nursery|care home|surgery|library|museum|gallery|salon|gym|office|call centre|call center|university|college|"
    r"council|dealership|bookshop|bookstore|brewery|winery|farm|kitchen|newspaper|magazine|publisher|theatre|theater"
)
R_EMPLOYER_KIND = re.compile(
    r"\bi(?:'m| am)? (?:now |currently |still |actually )?(?:work|working) (?:at|for) "
    r"(?P<v>(?:a|an) (?:[a-z][\w\-]* ){0,3}?(?:" + WORKPLACES + r")(?: in " + PLACE + r")?)(?=$|[\s,.;!])", I)
R_AS_AT = re.compile(r"\bas an? [a-z][a-z\- ]{1,40}? at (?P<v>" + ORG + r")", I)
R_OCC_AT = re.compile(r" (?:at|for|with) (?P<v>" + ORG + r")")
R_AS_OCC = re.compile(
    r"\b(?:job|work|working|worked|joined|started|hired|employed|position|role|promoted|rejoined)\b[^.;!?]{0,60}?"
    r"\bas (?:an? |the |our |their )?(?P<v>[a-z][a-z\- ]{1,40}?)(?=$|[.,;!]| (?:at|for|in|with|and|since|on|from|but)\b)",
    I,
)
R_HEAD_OF = re.compile(r"^(?:head|vp|vice president|director|chief|manager|lead) of [a-z][a-z ]{2,30}$", I)
_HOMES = r"(?:flat|house|apartment|place|home|condo|cottage|bungalow|studio|townhouse)"
R_HOME = re.compile(
    r"\b(?P<verb>i (?:actually |now |currently |still )?live in|i'?m (?:actually |now |currently |still )?living in|"
    r"i am (?:actually |now |currently |still )?living in|i'?m (?:actually |now |currently )?(?:an? [\w\-]+(?: [\w\-]+)? )?based in|"
    r"i am (?:actually |now |currently )?based in|i reside in|"
    r"my home (?:city|town) is|i (?:just |recently )?moved to|i(?:'ve| have) (?:just |recently )?moved to|"
    r"i relocated to|we(?:'ve| have)? (?:just |recently |finally )?(?:moved|relocated) to|i now live in|"
    r"we (?:now |currently |still )?live in|we'?re (?:now |currently )?(?:living|based) in|"
    # where the user's home is told by the home itself: "we rent a flat in X", "the new place is in X"
    r"(?:i|we)(?:'re| are|'m| am|'ve| have)? (?:now |currently |just |finally )?(?:rent|renting|share|sharing|bought) "
    r"(?:a|an|our|my) (?:[a-z\-]+ )?" + _HOMES + r" in|(?:our|my|the) new " + _HOMES + r" is in)"
    r"\s+(?P<v>" + PLACE + r")",
    I,
)
R_NOT_OLD = re.compile(r"^,? (?:not|rather than|instead of) (?:in )?(?P<old>" + PLACE + r")", I)
R_NOT_TAIL = re.compile(r",? not [\w@.\-/$€£]+(?: [\w@.\-/]+){0,3}$", I)
NOT_PLACES = NOT_NAMES - {"new", "the"}
ORG_LOWER_RE = re.compile(ORG_LOWER)
R_FROM = re.compile(r"^(?:i'?m|i am|i come) (?:originally )?from\s+(?P<v>" + PLACE + r")", I)
R_NATIONALITY = re.compile(r"\b(?:i'?m|i am)(?: an?)? (?P<v>[A-Za-z\-]+)(?: citizen| national)?\b", I)
R_NATIONALITY_IS = re.compile(r"\bmy nationality is (?P<v>[A-Za-z\-]+)", I)
R_LANG = re.compile(
    r"\b(?:i speak|i'?m fluent in|i am fluent in|my (?:native|first|mother) (?:language|tongue) is|"
    r"i'?m a native (?P<native>[A-Za-z]+) speaker)\s*(?P<v>[A-Za-z]+(?:(?:,| and|, and) [A-Za-z]+)*)?",
    I,
)
R_REL_NAME = re.compile(
    r"\bmy (?P<rel>[a-z\-]+)(?:'s name is|,| named| called| is called| is named| is)?\s+(?P<v>" + NAME + r")(?=$|[\s,.!;])",
    I,
)
R_REL_AGE = re.compile(r"\bmy (?P<rel>[a-z\-]+)(?: [A-Z][a-z]+)? (?:is|(?:has )?(?:just )?turned) (?P<v>\d{1,2})(?: years? old)?(?=$|[\s,.!;])", I)
R_EXPERT = re.compile(
    r"\b(?:i'?m|i am) (?:an? )?(?P<lvl>expert|specialist|beginner|novice|newbie|pro|professional)(?: (?:in|on|at|with))? (?P<v>[\w+#.\- ]{2,40}?)(?=$|[.,;!]| (?:and|but|so)\b)"
    r"|\bi have (?P<n>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|twenty) (?:\+ )?years? of experience (?:in|with|as) (?P<v2>[\w+#.\- ]{2,40}?)(?=$|[.,;!]| (?:and|but|so)\b)"
    r"|\bi'?m (?:new to|experienced (?:in|with)|proficient (?:in|with)|fluent in)\s+(?P<v3>[\w+#.\- ]{2,40}?)(?=$|[.,;!]| (?:and|but|so)\b)",
    I,
)
R_LIKE = re.compile(
    r"(?<!would )(?<!'d )\bi(?: (?:really |absolutely |totally |genuinely |kind of |do |still |strongly |deeply |"
    r"truly |actually |honestly |generally |always )?|(?='m))"
    r"(?P<verb>love|like|enjoy|adore|hate|dislike|detest|loathe|avoid|can'?t stand|cannot stand|don'?t like|do not like|"
    r"don'?t enjoy|do not enjoy|can'?t bear|am (?:really |so |totally )?into|'m (?:really |so |totally )?into|am a big fan of|'m a big fan of|am not a fan of|'m not a fan of|"
    r"am (?:not )?keen on|'m (?:not )?keen on|am fond of|'m fond of|have an? (?:strong |real |deep )?aversion to)\s+(?P<v>.+)",
    I,
)
R_PREFER = re.compile(
    r"\bi(?:'d| would)? (?:much |really |generally |usually |strongly )?prefer\s+(?P<v>.+?)"
    r"(?:\s+(?:over|to|rather than|instead of|than)\s+(?P<alt>.+))?$",
    I,
)
R_HABIT = re.compile(r"\bi (?P<adv>always|usually|never|rarely|normally|typically|only) (?P<v>[a-z].+)", I)
R_PLEASE = re.compile(
    r"^(?:please )?(?P<neg>always|never|don'?t ever|do not ever|please don'?t|please do not|please never|please always)\s+(?P<v>[a-z].+)",
    I,
)
SEAT_TYPES = r"(?P<seat>aisle|window|middle|exit[- ]row|front[- ]row|bulkhead)"
R_SEAT_PREF = re.compile(
    r"\bi(?:'d| would)? (?:really |much |always |usually |normally |typically |generally |mostly |only )?"
    r"(?:like|love|want|prefer|book|pick|choose|get|take|reserve|ask for|go for|request|sit in|select|need)\s+"
    r"(?:an? |the |my )?" + SEAT_TYPES + r" seats?\b",
    I,
)
R_WORKSTYLE = re.compile(
    r"\bi(?:'m| am)? (?:work best|most productive|focus best|do my best work|concentrate best)\s+(?P<v>[a-z].+)"
    r"|\bi(?:'m| am) an? (?P<v2>morning person|night owl|early bird|evening person)",
    I,
)
R_DIET_AVOID = re.compile(
    r"\bi (?:don'?t|do not|no longer|never|can'?t|cannot) (?P<dv>eat|drink|have) (?P<v>[a-z][a-z\- ]{1,30}?)(?=$|[.,;!]| (?:anymore|any more|because|but|and|at all)\b)",
    I,
)
# what "I can't have ..." must name to be about diet ("I don't have big plans" is not)
FOOD_WORDS = frozenset(
    ["dairy", "milk", "cheese", "butter", "cream", "yogurt", "lactose", "gluten", "wheat", "bread", "pasta", "sugar",
     "sweets", "chocolate", "caffeine", "coffee", "tea", "alcohol", "wine", "beer", "spirits", "nuts", "peanuts",
     "almonds", "eggs", "egg", "soy", "shellfish", "carbs", "salt", "garlic", "onion", "onions", "spicy", "fried",
     "sugary", "juice", "soda", "food", "foods", "drinks", "meat", "fish", "pork", "beef", "chicken", "seafood"]
)
R_MEAT_OFF = re.compile(
    r"\bi(?:'ve| have)? (?:stopped|quit|gave up|given up|cut out) (?:eating )?(?:all )?meat\b"
    r"|\bi(?:'m| am) (?:off|done with) meat\b",
    I,
)
R_MEAT_AGAIN = re.compile(
    r"\b(?:i (?:eat|started eating|(?:have|'ve) started eating)|i'?m (?:eating|back to eating)|i am (?:eating|back to eating))"
    r" meat (?:again|now)\b",
    I,
)
MEAT_WORDS = frozenset(
    ["meat", "steak", "steaks", "ribeye", "sirloin", "beef", "pork", "bacon", "ham", "lamb", "veal", "venison", "chicken",
     "turkey", "duck", "sausage", "sausages", "burger", "burgers", "hamburger", "hamburgers", "brisket", "ribs", "meatballs",
     "chorizo", "salami", "pepperoni", "prosciutto", "kebab", "kebabs", "barbecue", "bbq", "schnitzel", "meatloaf"]
)
FISH_WORDS = frozenset(
    ["fish", "salmon", "tuna", "cod", "sushi", "sashimi", "shrimp", "prawns", "seafood", "oysters", "mussels", "lobster", "crab"]
)
# Single words that are verbs or fillers, never the object of a like ("I love live").
LIKE_JUNK = frozenset(
    ["live", "go", "do", "be", "have", "get", "make", "see", "know", "think", "say", "want", "need", "try", "use", "come",
     "look", "when", "how", "what", "why", "where", "if", "so", "just", "too", "much", "lot", "more", "most", "here",
     "there", "now", "then", "and", "or", "but", "well", "really", "very", "all", "both", "each"]
)
DANGLING = frozenset(
    ["the", "a", "an", "to", "of", "with", "their", "my", "his", "her", "our", "and", "or", "in", "on", "at", "for", "from",
     "by", "about", "some", "any", "this", "that", "these", "those", "when", "how", "if", "is", "are"]
)
R_ALLERGY = re.compile(
    r"\b(?:i'?m|i am|i'?m severely|i am severely|i'?m very) allergic to (?P<v>[a-z][a-z\- ]{1,30}?)(?=$|[.,;!]| (?:and i|but|so|because)\b)"
    r"|\bi have (?:an? |a severe |a bad )?(?P<v2>[a-z][a-z\-]{1,20}(?: [a-z\-]{1,20})?) (?:allergy|intolerance)\b"
    r"|\b(?:i'?m|i am) (?P<v3>lactose|gluten) intolerant\b|\bi have (?P<v4>celiac|coeliac)(?: disease)?\b",
    I,
)
R_ACCESS = re.compile(
    r"\b(?P<mob>i use a wheelchair|i'?m a wheelchair user|i need (?:wheelchair|step-free) access|i use a (?:cane|walker|mobility scooter))"
    r"|\b(?P<hear>i'?m (?:deaf|hard of hearing)|i am (?:deaf|hard of hearing)|i wear hearing aids|i have hearing loss)"
    r"|\b(?P<vis>i'?m (?:blind|visually impaired|colou?r ?blind)|i am (?:blind|visually impaired)|i use a screen reader|i need (?:large|larger|big|bigger) (?:font|text|print))"
    r"|\b(?P<read>i have dyslexia|i'?m dyslexic|i have adhd)",
    I,
)
# a tone is also a tone word said of how to talk to the user: "be more relaxed", "tone professional", "casual is fine"
COMM_RULES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("length", "concise answers", re.compile(r"\b(?:keep (?:it|them|things|(?:your |the |all )?(?:answers|replies|responses|messages|explanations)) (?:short|brief|concise|to the point)|"
                                     r"(?:keep|limit) (?:it|them|things|(?:your |the |all )?(?:answers|replies|responses|messages|explanations)) (?:to|under|within|at) (?:(?:one|two|three|four|five|a few|a couple of|\d+)(?: or (?:two|three|four|five|six|\d+))? )?(?:lines?|sentences?|words|paragraphs?)|"  # counted
                                     r"(?:one|two|three|four|five|\d+)(?: or (?:two|three|four|five|six|\d+))? (?:lines?|sentences?) (?:max(?:imum)?|tops|at most)|"
                                     r"no need for (?:long|lengthy|detailed|wordy) (?:answers|replies|responses|explanations)|"
                                     r"(?:don'?t|do not) (?:need|want) (?:long|lengthy|wordy) (?:answers|replies|responses|explanations)|(?:short|brief|concise|shorter) (?:answers|replies|responses)|be (?:brief|concise)|get to the point|no fluff|tl;?dr)\b", I)),
    ("length", "detailed explanations", re.compile(r"(?<!need for )(?<!want )(?<!need )\b(?:explain (?:things |it )?in detail|(?:detailed|longer|fuller) (?:answers|explanations|responses)|in[- ]depth (?:answers|explanations)|go into (?:more )?(?:depth|detail)|step[- ]by[- ]step (?:explanations|instructions))\b", I)),
    ("format", "bullet points", re.compile(r"\b(?:bullet(?:ed)? (?:points|lists)|bullets)\b", I)),
    ("format", "tables", re.compile(r"\b(?:use tables|in a table|as tables)\b", I)),
    ("format", "prose paragraphs", re.compile(r"\b(?:(?:as|in) (?:(?:prose |full )?paragraphs|full sentences)|(?:prose|plain|proper|normal|full) paragraphs|(?<!no )prose)\b", I)),
    ("jargon", "plain language without jargon", re.compile(r"\b(?:no jargon|avoid jargon|without jargon|plain (?:english|language)|in simple terms|layman'?s terms)\b", I)),
    ("tone", "formal tone", re.compile(r"\b(?:(?:be|keep it|keep (?:your |the )?(?:tone|answers|replies|emails)|tone|strictly) (?:more |very )?(?:formal|professional)|"
                                       r"(?:formal|professional) (?:tone|with me|is (?:fine|better|best)|please))\b", I)),
    ("tone", "casual tone", re.compile(r"\b(?:(?:be|keep it|keep (?:your |the )?(?:tone|answers|replies|emails)|tone) (?:more |very )?(?:casual|relaxed|"
                                       r"informal|laid-back|chatty)|(?:casual|relaxed|informal|laid-back|chatty|friendly) (?:tone|with me|is (?:fine|better|best)|please))\b", I)),
    ("emoji", "no emojis", re.compile(r"\b(?:no emojis?|without emojis?|don'?t use emojis?|skip the emojis?)\b", I)),
    ("spelling", "British spelling", re.compile(r"\b(?:british|uk) (?:english )?spellings?\b", I)), ("spelling", "American spelling", re.compile(r"\b(?:american|us) (?:english )?spellings?\b", I)),
    ("units", "metric units", re.compile(r"\b(?:metric units|use metric|in metric)\b", I)), ("units", "imperial units", re.compile(r"\b(?:imperial units|use imperial|in imperial)\b", I)),
)
COMM_TRIGGER = re.compile(r"\b(?:prefer|please|keep|be|use|want|like|give me|always|don'?t|no|avoid|explain|answer|reply|"
                          r"respond|write|talk|rather|see|show|send|drop|switch|from now on|is (?:fine|better|best)|suits?|go into|for me|max(?:imum)?|tops|at most|limit)\b", I)

R_ACCOUNT = re.compile(
    r"\bmy (?P<inst>" + ORG + r" )?(?P<type>checking|savings|credit card|debit card|brokerage|retirement|business|joint|"
    r"investment|bank|401k|ira|roth ira|hsa|money market)?\s?account(?: number| no\.?| #)?(?: with " + ORG + r")?"
    r"\s*(?:is|:|=|#|was)\s*(?:number\s+)?" + ID,
    I,
)
R_ROUTING = re.compile(r"\brouting (?:number|no\.?|#)(?: (?:for|of|on) (?:my|the|our) [\w ]{1,30}?)?\s*(?:is|:|=)?\s*"
                       r"(?P<v>\d{9})\b", I)
R_CARD_LAST4 = re.compile(  # "my Visa card ending in 4417"; a named card needs no "card" ("your Horizon Plus ending in")
    r"\b(?:(?:my|your) )?(?:(?P<brand>" + ORG + r") )?(?:credit |debit )?(?P<card>card )?(?:ending|ends) (?:in|with) "
    r"(?P<v>\d{4})\b", I
)
ID_TYPES = (
    r"policy|claim|order|confirmation|booking|reservation|reference|ref|ticket|case|tracking|membership|member|"
    r"loyalty|frequent flyer|frequent flier|rewards|customer|invoice|pnr|record locator|serial|warranty|patient|"
    r"prescription|rx|subscriber|student|employee|license|licence|registration|application|incident|return|rma|"
    r"shipment|parcel|package|appointment|enrollment|group|plan|contract|lease|loan|mortgage|meter|permit|badge|"
    r"insurance|insurance policy|medicare|medicaid"
)
R_IDENT = re.compile(
    r"\b(?:my|the|our|your)\s+(?P<qual>(?:[\w&'\-]+ ){0,3}?)(?P<type>" + ID_TYPES + r")"
    r"(?: (?:number|no\.?|num|#|code|id|locator))?\s*(?:is|was|are|:|=|#|reads)\s*(?:number\s+|#\s*)?" + ID,
    I,
)
R_IDENT_SHORT = re.compile(r"\b(?P<type>" + ID_TYPES + r")\s?(?:#|number|no\.)\s?" + ID, I)
R_PNR = re.compile(
    r"\b(?:my |the )?(?P<type>confirmation|booking|reservation|pnr|record locator)(?: (?:code|number|reference|locator))?\s*(?:is|:)\s*(?P<v>(?-i:[A-Z0-9]{5,8}))\b",
    I,
)
VEHICLE = r"(?:(?P<year>(?:19|20)\d{2}) )?(?P<veh>(?-i:[A-Z][\w\-]*(?: [A-Z0-9][\w\-]*){0,3}))"
R_PLATE = re.compile(
    r"\b(?:my |the |our )?" + VEHICLE + r"(?:'s|’s)? (?:license |licence |registration |number )?(?P<attr>plate|tag|vin)(?: number| #)?"
    r"\s*(?:is|:|=|reads)\s*(?P<v>(?-i:[A-Z0-9][A-Z0-9 \-]{1,16}[A-Z0-9]))\b",
    I,
)
R_PLATE_ON = re.compile(
    r"\b(?:the |my )?(?:license |licence |registration )?(?P<attr>plate|vin)(?: number)? (?:on|of|for) (?:my|the|our) "
    + VEHICLE
    + r"\s*(?:is|:|=|reads)\s*(?P<v>(?-i:[A-Z0-9][A-Z0-9 \-]{1,16}[A-Z0-9]))\b",
    I,
)
R_PLATE_BARE = re.compile(
    r"\bmy (?:license |licence |registration )?(?P<attr>plate|vin)(?: number)?\s*(?:is|:)\s*(?P<v>(?-i:[A-Z0-9][A-Z0-9 \-]{1,16}[A-Z0-9]))\b",
    I,
)
R_OWN_VEHICLE = re.compile(
    r"\bi (?:drive|own|have|just bought|bought|recently bought|leased|just leased|got|just got) (?:a|an|my) (?:new |used |old )?(?P<year>(?:19|20)\d{2}) (?P<veh>(?-i:[A-Z][\w\-]*(?: [A-Z0-9][\w\-]*){0,3}))",
    I,
)
PRODUCT = r"(?P<x>(?-i:[A-Z][\w\-]*(?: [A-Z0-9][\w\-]*){0,3}))(?P<tail> (?:credit card|card|laptop|phone|plan|policy))?"
# card issuers, for a card chosen by product name only ("the Gold Card" in a conversation with Amex)
CARD_ISSUERS = {"american express": ("Amex", "American Express"), "amex": ("Amex", "American Express"),
                "chase": ("Chase", "Chase"), "citi": ("Citi", "Citi"), "citibank": ("Citi", "Citi"),
                "capital one": ("Capital One", "Capital One"), "discover": ("Discover", "Discover"),
                "wells fargo": ("Wells Fargo", "Wells Fargo"), "bank of america": ("Bank of America", "Bank of America"),
                "barclays": ("Barclays", "Barclays"), "us bank": ("US Bank", "US Bank"),
                "u.s. bank": ("US Bank", "US Bank")}
R_ISSUER = re.compile(r"\b(?-i:American Express|Amex|AmEx|AMEX|Chase|Citi|Citibank|Capital One|Discover|Wells Fargo|"
                      r"Bank of America|Barclays|US Bank|U\.S\. Bank)\b")
R_CHOICE = re.compile(
    r"\b(?:i'?ll|i will|i'?m going to|let'?s|we'?ll|i think i'?ll) (?P<verb>go with|take|get|choose|pick) the (?:new )?"
    + PRODUCT + r"(?=\s*(?:[.!,;]|then\b|$))",
    I,
)
R_BOUGHT = re.compile(
    r"\bi (?:just |finally |recently |already )?(?:ended up |decided to |went ahead and )?"
    r"(?P<verb>bought|buy|buying|purchased|purchase|ordered|chose|picked|went with|settled on|decided on) "
    r"(?:the|a|an) (?:new )?" + PRODUCT,
    I,
)
VIN = re.compile(r"\b(?-i:[A-HJ-NPR-Z0-9]{17})\b")
EMAIL = re.compile(r"\b[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+\b")
PHONE = re.compile(r"(?<![\w-])(?:\+\d{1,3}[ .\-]?)?(?:\(\d{2,4}\)[ .\-]?|\d{2,4}[ .\-])\d{3,4}[ .\-]?\d{3,4}(?![\w-])")
R_EMAIL = re.compile(r"\bmy (?P<type>work |personal |school |business |home )?e-?mail(?: address)?\s*(?:is|:)\s*(?P<v>[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+)", I)
R_PHONE = re.compile(
    r"(?:\bmy (?:new )?(?P<type>cell|mobile|work|home|office|personal|business)?\s?(?:phone|cell|mobile|number|phone number|cell number|mobile number)(?: number)?"
    r"\s*(?:is now|is|:|has changed to|changed to)|\b(?:call|ring|text|phone|reach|contact|whatsapp) me (?:on|at))\s*(?P<v>\+?[\d(][\d ().\-]{6,18}\d)",
    I,
)
ADDRESS = r"(?P<v>\d{1,6}[A-Za-z]? [A-Z0-9][\w.'\-]*(?: [\w.'\-]+){0,5}? (?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|Circle|Highway|Hwy|Parkway|Pkwy|Square|Sq|Trail|Alley|Grove|Gardens|Close|Crescent|Row|Mews|Walk|Rise)\b\.?(?:,? [^.!?;]{0,80})?)"
R_ADDRESS = re.compile(
    r"(?i:\b(?:i live at|my (?P<type>home |mailing |shipping |billing |work |office |delivery |new )?address is|"
    r"i(?:'ve| have)? moved to))\s+" + ADDRESS
)
R_MONEY = re.compile(
    r"\bmy (?P<what>(?:monthly |annual |yearly |weekly |total |current |travel |food |household |car |phone |internet |"
    r"energy |electricity |water |childcare |student loan |credit card )?(?:budget|rent|salary|income|mortgage|mortgage payment|"
    r"deductible|balance|credit limit|limit|premium|payment|bill|loan|debt|savings goal|savings|allowance|copay|co-pay))"
    r" (?:is now|is|was|are|of|went up to|went down to|increased to|rose to|dropped to|changed to)\s+"
    r"(?:about |around |roughly |approximately |only |just |under |over )?" + MONEY,
    I,
)
R_EARN = re.compile(r"\bi (?:make|earn)\s+(?:about |around |roughly |approximately )?" + MONEY, I)
EVENT_NOUNS = (
    r"appointment|appt|meeting|call|interview|surgery|check-?up|consultation|exam|session|class|flight|trip|"
    r"hearing|visit|vacation|holiday|wedding|party|presentation|demo|review|procedure|treatment|operation"
)
R_EVENT = re.compile(
    r"\b(?:my|our|i have (?:a|an|my)|i'?ve got (?:a|an|my)|we have (?:a|an|our)|there'?s (?:a|an|my))\s+"
    r"(?P<what>(?:[\w'\-]+ ){0,3}?)(?P<noun>" + EVENT_NOUNS + r")(?P<rest>\b.*)$",
    I,
)
R_DEADLINE = re.compile(
    r"\b(?:the |my |our )?(?P<what>[\w'\- ]{2,40}?) (?:is|are) due (?P<rest>.*)$"
    r"|\b(?:the )?deadline (?:for|on) (?P<what2>[\w'\- ]{2,40}?) is (?P<rest2>.*)$",
    I,
)
# when a document, membership or warranty runs out: "my passport expires on ...", "Apple warranty until ..."
EXPIRY_DOCS = (r"passport|visa|driver'?s licen[cs]e|licen[cs]e|id card|membership|(?:extended )?warranty|"
                r"insurance|policy|subscription|lease|registration")
R_EXPIRY = re.compile(
    r"(?:^|\b(?:my|the|our|your)\s+)(?P<who>(?:(?-i:[A-Z][\w&'-]*)|[a-z]+)\s+)??(?P<what>" + EXPIRY_DOCS + r")\b"
    r"(?:\s+(?:expires|expired|will expire|is expiring|runs out|is valid|is good|runs|lasts|ends|is)"
    r"(?:\s+(?:on|until|till|through|thru|in))?|\s+(?:until|till|through|thru)|\s+expiration(?: date)? is)"
    r"\s+(?P<rest>.+)$",
    I,
)
R_BIRTH = re.compile(r"\b(?:i was born on|i was born|my (?:birthday|date of birth|dob|birth date)(?: is|'s))\s+(?P<rest>.+)$", I)

_PAST = frozenset(["knew", "thought", "was", "were", "had", "did", "saw", "went", "felt", "got", "made", "said", "told",
                   "took", "came", "found", "gave", "left", "kept", "heard", "met", "wrote", "read", "ran", "ate",
                   "drank", "began", "forgot", "understood", "believed", "loved", "liked", "hated"])
# "I haven't been around", "... I haven't read in years": a state or a span of time, not a pending chore
HAVENT_STATES = frozenset(["been", "had", "seen", "felt", "heard", "known", "thought", "met", "gotten", "got", "slept"])
R_SPAN = re.compile(
    r"\b(?:in (?:years|ages|months|weeks|decades|a while|a long time|forever|so long|a bit)|for (?:a while|years|"
    r"ages|months|weeks|so long|long)|lately|recently|since\b|much\b|anymore\b)", I)


def past_tense(word: str) -> bool:
    """A past-tense verb ("knew", "played"), so "I never knew ..." is no habit; "feed"/"need" are present."""
    w = word.lower().strip(",.!?")
    return w in _PAST or bool(re.fullmatch(r"[a-z]+(?:[^e]ed|ied)", w))


def diet_avoid(s: str) -> re.Match[str] | None:
    """ "I don't eat/drink X", or "I can't have X" when X is food or drink."""
    m = R_DIET_AVOID.search(s)
    if m and m.group("dv").lower() == "have":
        words = m.group("v").lower().replace("-", " ").split()
        if not words or words[0] == "to" or not FOOD_WORDS.intersection(words):
            return None
    return m


R_OPEN = re.compile(
    r"\b(?P<verb>i (?:still |really |definitely |also )?(?:need|have|got) to|i'?ve got to|i must|i should|i gotta|"
    r"i'?m going to have to|remind me to|don'?t let me forget to|i(?:'ll| will) need to|i(?:'ll| will) have to|"
    r"i haven'?t (?:yet )?|i have not (?:yet )?|i still haven'?t|i(?:'m| am) (?:still )?waiting (?:for|on)|"
    r"i(?:'ll| will) get back to you(?: (?:on|about|with))?|i(?:'ll| will) follow up(?: (?:on|about|with))?|"
    r"can you help me figure out later|help me (?:figure out|sort out) later)\s*(?P<v>.*)$",
    I,
)
OPEN_REJECT = re.compile(
    r"^(?:know|think|say|admit|go|leave|run|ask|tell you|be honest|confess|see|check\b(?! with)|understand|"
    r"clarify|mention|repeat|agree|be going|hang up|get going|figure|decide$|look|wait$|you\b|it\b|that\b|this\b)",
    I,
)
R_CLOSE = re.compile(
    r"(?:\b(?:i|we)(?:'ve| have)? |^)(?:finally |just |already |now )?(?P<verb>finished|did|done|submitted|booked|paid|sent|filed|renewed|called|"
    r"completed|scheduled|rescheduled|cancell?ed|signed|returned|picked up|got|received|fixed|sorted out|took care of|"
    r"taken care of|handled|sorted|dealt with|bought|ordered|emailed|registered for|registered|applied for|updated|made|wrote|written|"
    r"uploaded|mailed|delivered|closed|opened|set up|resolved|replied to|heard back from|contacted|confirmed)\s+(?P<v>.+)$"
    r"|^(?P<v2>(?:the |my )?[\w'\- ]{2,40}?) (?:is|are|has been|have been|was|got) (?:all |finally |now )?"
    r"(?:done|finished|sorted|submitted|booked|paid|taken care of|complete|completed|handled|resolved|fixed|sent|filed|renewed|approved)\b"
    # a task the user drops is closed too: "forget the gutter thing", "never mind the refund"
    r"|^(?:forget|never mind|scratch|skip)\s+(?:about\s+)?(?P<v3>(?:the |my )?[\w'\- ]{2,40}?)(?:\s+thing)?$",
    I,
)
R_PROC = re.compile(
    r"^(?:when|whenever|every time|each time|any ?time|if ever)\s+(?P<cond>[^,]{3,80}?),\s*(?:please\s+)?(?P<act>[a-z].{2,160})$"
    r"|^(?:from now on|going forward|in (?:the )?future|moving forward|as a rule)\s*,?\s*(?:please\s+)?(?P<act2>[a-z].{2,160})$",
    I,
)
IMPERATIVE = re.compile(
    r"^(?:always|never|please|don'?t|do not|use|include|send|show|give|make|put|add|write|remind|check|ask|start|"
    r"format|keep|avoid|mention|list|cc|copy|call|email|text|book|reply|respond|answer|summari[sz]e|explain|"
    r"double-check|confirm|tell|let|suggest|prefer|skip|stop|assume|default|sort|attach|convert|round|quote)\b",
    I,
)
R_BARE_CORRECTION = re.compile(
    r"^(?:it'?s|it is|the (?:number|correct (?:one|number|value)) is|make that|i meant|should be|no,? it'?s)?\s*"
    r"(?P<v>[\w@.\-/$€£]+(?: [\w@.\-/]+){0,3}?)(?:,? not (?P<old>[\w@.\-/$€£]+(?: [\w@.\-/]+){0,3}))?\s*[.!]?$",
    I,
)
R_SWITCHED = re.compile(r"\bi (?:switched|changed|moved) (?:from (?P<old>[\w .'\-]{2,40}?) )?to (?P<v>" + ORG + r")", I)
QA_SLOTS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"\bpolicy (?:number|#)", I), "policy.number", "policy number"),
    (re.compile(r"\bclaim (?:number|#)", I), "claim.number", "claim number"),
    (re.compile(r"\border (?:number|#)", I), "order.number", "order number"),
    (re.compile(r"\b(?:confirmation|booking|reservation) (?:number|code|#)", I), "booking.confirmation", "booking confirmation number"),
    (re.compile(r"\baccount (?:number|#)", I), "account.number", "account number"),
    (re.compile(r"\bmember(?:ship)? (?:number|id|#)", I), "membership.number", "membership number"),
    (re.compile(r"\btracking (?:number|#)", I), "tracking.number", "tracking number"),
    (re.compile(r"\bVIN\b"), "vin", "VIN"),
    (re.compile(r"\b(?:license |licence )?plate\b", I), "plate", "license plate"),
    (re.compile(r"\be-?mail\b", I), "contact.email", "email address"),
    (re.compile(r"\b(?:phone|cell|mobile) number\b|\bnumber (?:to|where) (?:we can )?reach you\b", I), "contact.phone", "phone number"),
    (re.compile(r"\byour (?:full |legal )?name\b", I), "profile.name", "name"),
    (re.compile(r"\b(?:" + EXPIRY_DOCS + r")\b.*\bexpir(?:ation|y|es)\b", I), "expiry", "expiration date"),
)
# news a request rests on: "... now that I've started at X?", "... now we're in Leeds?"
NOW_THAT = re.compile(r"\bnow (?:that )?(?P<news>(?:i|we)(?:'ve|'m|'re| have| am| are)\s+(?:\w+\s+){0,2}?(?:started|joined|moved|"
                      r"switched|got|in|at|with|on|working|living)\b[^?,;]*)", I)
