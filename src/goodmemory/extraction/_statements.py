"""Statements no rule matched: the user's own words, kept as a memory once a key family claims them.

A user sentence about themselves or their world ("We relocated to Bristol at the end of April")
that none of the rules turned into a candidate becomes a *statement candidate*: its value is the
user's own words (lead fillers dropped), its text quotes them, and ``metadata["statement"]`` asks
the write path to find its key family in meaning space (:func:`mask_values` hides the values, so
"I live in X" and "we moved to X" compare by what they are about, not by the city). A statement no
family claims is stored as a note of its own (the user's words, an attribute only a change of it
replaces); the raw turn stays as episode evidence either way. Talk that passes with the day
(:func:`passing`) is no statement at all.

An answer to the assistant's question ("A: Which city should I use?" - "Rotterdam these days")
is a statement too; the question is part of what is compared, the answer is the value.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .._brands import held_once
from .._value_types import answer_style, change_frame
from ..merge import changes
from ..models import Candidate, MemoryKind
from . import _patterns as P

__all__ = ["MAX_STATEMENT_WORDS", "STATEMENT_KEY", "known_names", "mask_values", "masks_a_value", "passing", "statement_candidate",
           "unread_sums"]

STATEMENT_KEY = "statement.pending"  # replaced by the family's key on the write path, never stored

_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|im|my|mine|me|we|we're|we've|we'll|our|ours|us)\b", re.I)
# "I don't live in Paris, my brother does", "I'm not a teacher, that's my wife": the user denies a value and
# hands it to someone else; the sentence is that person's value, never a new value of the user's own
_DENIES = re.compile(r"^(?:(?:no|nope|well|actually|oh)\b[\s,]*)*(?:i|we)(?:'m not| am not|'re not| are not| aren't|"
                     r" don't| do not| didn't| did not| never| haven't| have not)\b", re.I)
_HANDED = re.compile(r"^(?:but\s+|it'?s\s+|that'?s\s+|it is\s+|that is\s+)?(?:my|our)\s+\w+(?:\s+\w+)?"
                     r"(?:\s+(?:does|do|did|is|was|has|have|can|will))?$|"
                     r"^(?:but\s+)?[A-Z][a-z]+\s+(?:does|did|is|was|has)$")


_ME = re.compile(r"\b(?:i|i'm|i've|im|we|we're|we've|me|us)\b", re.I)


def _handed_to_another(body: str) -> bool:
    """Whether ``body`` denies a value of the user's and gives it to another person ("..., my brother does")."""
    first, *rest = [p.strip() for p in re.split(r"[,;]|\s+-\s+", body) if p.strip()] or [""]
    return bool(_DENIES.match(first)) and not changes(first) and any(_HANDED.match(p) for p in rest) \
        and not any(_ME.search(p) for p in rest)  # "..., I live in Porto": a value of the user's own follows


_QUESTION = re.compile(
    r"^(?:what|what's|where|who|whom|whose|why|how|which|can|could|would|will|shall|should|do|does|did|is|are|"
    r"am|was|were|have|has|may|might|any|anything)\b", re.I)
_NOT_A_FACT = re.compile(
    r"^(?:thanks?|thank you|cheers|great|perfect|ok(?:ay)?|cool|nice|sounds good|no worries|bye|hi|hello|hey|"
    r"good (?:morning|night|evening)|sure|yes|yeah|no|nope|lol|haha)\W*$|\b(?:can you|could you|would you|will you|"
    r"help me|tell me|show me|let me know|do you know|i wonder|i was wondering|i think you|you should|"
    r"i need you to|i want you to|i'?d like you to|i'?d rather not (?:say|tell|answer|comment|share))\b|"
    # what the user thinks of the assistant is feedback on the talk, not a fact of theirs ("I love how you explain")
    r"\bi (?:really )?(?:love|like|appreciate|enjoy|hate) (?:how|the way|that|it when) you\b", re.I)
# a wish is no fact either ("I'd love to live by the sea one day")
_HYPOTHETICAL = re.compile(r"\b(?:if i|suppose|imagine|hypothetically|what if|let'?s say|pretend|i wish|i'?d love to|"
                           r"i would love to|one day|someday|some day|my dream)\b", re.I)
_WOULD = re.compile(r"\b(?:i'd|we'd|would|could|might|should)\b", re.I)
# someone else's words, a request or a wish is no fact about the user
# someone else's words; the user's own ("I just said screw it and joined X", "as I mentioned") are not reported
_REPORTED = re.compile(r"(?<!\bi )(?<!\bi just )(?<!\bi've )(?<!\bi have )(?<!\bwe )(?<!\bas i )"
                       r"\b(?:said|says|told me|tells me|thinks|claims|mentioned|believes|reckons)\b", re.I)
_REQUEST = re.compile(r"\b(?:i'?m looking for|i am looking for|i'?m interested in|i am interested in|i'?d like to|i would like to|i want to|i'?m trying to|"
                      r"i need (?:some|a|an|help)|looking for)\b|^i'?m (?:fine|good|ok|okay|great|well)\b", re.I)
# "I'll go with that one": a choice among the assistant's options, no value of the user's own unless it names one
# ("use the one ending 5520")
_CHOICE = re.compile(r"\b(?:that|this|the) (?:option|one|idea)\b", re.I)
_LEAD = re.compile(
    r"^(?:(?:no|nope)\s*[,:;!.\-]+\s*|(?:oh|well|so|ok|okay|and|but|btw|by the way|also|yes|yeah|yep|um|uh|hmm|alright|right|honestly|"
    r"anyway|plus|fyi|just so you know|for the record|quick update|small update|update|heads up|good news|"
    r"bad news|news|sorry|oops|actually|correction|on second thought|as it happens|turns out|for what it'?s worth)"
    r"\b[,:;!.\-]*\s*)+", re.I)
# A one-off request to the assistant ("Send me the list", "Plan my meals for next week") is no fact about the
# user; an imperative with a standing marker ("Always book me an aisle seat", "Use metric with me") is a
# preference and stays.
_IMPERATIVE = re.compile(
    r"^(?:please\s+)?(?:send|give|draft|plan|put|help|check|make|write|find|show|tell|list|compare|explain|suggest|"
    r"recommend|summari[sz]e|translate|order|create|draw|prepare|look|search|calculate|convert|add|remove|fix|"
    r"review|read|sort|organi[sz]e|let'?s|lets|go|do|get|set|draft|outline|break|walk|remind|note|ship|"
    r"email|call|text|book|redo|rewrite|reword|rephrase|shorten|tweak|adjust|format|keep it|include|mention|"
    r"proofread|polish|simplify|expand|double[- ]check|sign it|sign off|swap it|cut it|make it|turn it)\b", re.I)
# a word of thanks or approval before a request ("Good idea, write the message", "Love it, maybe mention X"): the request
_ACK = re.compile(r"^(?:good idea|great idea|love it|love this|perfect|great|nice|cool|brilliant|amazing|awesome|lovely|"
                  r"thanks|thank you|cheers|ta|nah|no|yes|yeah|yep|ok|okay|sure|right)\b[,!.\s]*"
                  r"(?:(?:but|and|now|maybe|just|also|then|so)\s+)*", re.I)
# a thing asked for by its noun ("A script please, ...", "Third person, under 100 words, please"), what the user
# wants of an answer ("Need a cheap soup recipe", "Farewell gift ideas under 50€", "I'd like a menu for eight",
# "Around 300 words would be ideal") or how the last one went ("That tone is just right"): a request, no fact
_NOUN_PLEASE = re.compile(r"^(?!(?:i|i'm|we|my|our)\b)[\w'\- ]{1,40}?,?\s+(?:please|pls|plz)\b|"
                          r"^(?![^.!?]*\b(?:i|i'm|i've|we|we're|my|our)\b)[^.!?]{1,60}?,?\s+(?:please|pls|plz)\W*$|"
                          r"^(?:i )?need (?:a|an|some) |^i'?d (?:like|love) (?:a|an|some|something|it|them|the)\b|"
                          r"^(?!(?:i|i'm|we|my|our)\b)(?:a |an |some )?[\w'\- ]{0,40}?\b(?:ideas?|recipes?|tips|"
                          r"suggestions|recommendations|templates?)\b(?! (?:is|are|was|were)\b)|"
                          r"^[^.!?]*?\bwould be (?:ideal|perfect|great|good|fine|best|better)\b|"
                          r"^(?:that|this|the) (?:tone|length|version|draft|one|format|style|wording) (?:is|was|sounds|looks) "
                          r"(?:just |exactly )?(?:right|perfect|great|good|fine|spot on)\b", re.I)
_STANDING = re.compile(r"\b(?:always|never|from now on|going forward|in future|rather than|instead of|with me|for me|"
                       r"in your (?:replies|answers|messages)|whenever|every time|by default|as a rule|prefer|"
                       r"i live|i work|i'?m (?:on|in|at|based)|my (?:new )?(?:number|address|email))\b", re.I)
# "going to" a named place is a journey ("we're going to Crete in June"), not a plan still open
_NOT_YET = re.compile(r"^(?:i'?m|i am|we'?re) (?:waiting|hoping|thinking|planning to|going to(?!\s+(?-i:[A-Z]))|not sure|"
                      r"torn between)\b|"
                      r"\b(?:can'?t|cannot|couldn'?t) decide\b|\b(?:haven'?t|have not|not yet) decided\b|"
                      r"^(?:i|we)(?: will|'ll| was thinking| think| guess| hope| feel like| wonder| might| may)\b|"
                      r"\bhelp\W*$|\b(?:much|any|enough) time\b", re.I)
# a request to record something of the user's ("Add latex to my allergy list", "note down my new number"): a fact
# ... or to take note of what follows ("Note that the squash court is mine on Wednesdays now")
_RECORD_MINE = re.compile(r"^(?:please\s+)?(?:(?:add|put|note|put down|note down|write down|record)\b[^.?!]*\b(?:to|on|in|as)\s+"
                          r"(?:my|our)\s+[\w\-]+(?:\s+(?:list|record|file|notes|details|profile))\b|"
                          r"(?:note|remember|bear in mind|keep in mind|be aware) that\b)", re.I)
# "Put x@y.com as my contact on the form": a value (statement_candidate checks it has one) of the user's own attribute
_ASSIGNED_MINE = re.compile(r"^(?:please\s+)?(?:put|use|list|keep|have|set)\s+(?!(?:it|that|this|them|something|anything)\b)"
                            r"(?:[^.?!]|\.(?=\S))*?\bas\s+(?:my|our)\s+[a-z][\w\-]*", re.I)
# "Change my email to X": a new value of the user's own attribute, asked of the assistant (rules.py drops the "can you")
_UPDATE_MINE = re.compile(r"^(?:please\s+)?(?:update|change|swap|switch|amend|correct|move) (?:my|our) (?:[\w\-]+\s+){1,3}?to\s+",
                          re.I)
_OWN_AFTER_HEARD = re.compile(r"\s+so\s+(?P<own>(?:i|we|it)(?:'s|'m|'re|'ll| am| are| is| will)\s[^?]{8,})$", re.I)
_OBLIGATION = re.compile(r"\b(?:need|have|want|got|going) to\b", re.I)
# chat drops the "I": "Signed up for the trail race", "Got a new phone", "Started at the bakery"
_ELLIPTIC = re.compile(r"^(?:just |finally |already )?(?:[a-z]+ed|got|made|took|bought|sold|left|went|began|found|lost|"
                       r"paid|sent|spent|met|had|became|won|quit|switched|started|moved)\s+(?!you\b)|"
                       # "living in Norwich, ...", "been on X since March": the "I'm" / "I've" chat leaves out
                       r"^(?:(?:currently|still|now) )?(?:living|working|staying|studying|been (?:on|at|in|with|"
                       r"living|working|staying))\s+(?!you\b)|"
                       # "driving a used Model Y now", "using Obsidian for notes these days": a state said as lasting
                       r"^(?:(?:currently|still|now|mostly) )?(?:driving|using|running|renting|learning|training|"
                       r"teaching|dating|volunteering|coaching|earning|paying|taking)\s+(?!you\b)(?=.*\b(?:now|these days|"
                       r"nowadays|currently|at the moment|atm|rn|instead|anymore|since|for (?:a|\w+) (?:weeks?|months?|years?))\b)|"
                       # "New boss is Marcus Okonkwo": chat's telegraphic "my"
                       r"^new (?:\w+ )?(?:boss|manager|job|role|title|place|flat|house|apartment|address|number|email|car|"
                       r"doctor|dentist|gp|school|gym|bank|team|supervisor|landlord|provider|plan|rent|salary|hours)"
                       r" (?:is|are)\s+|"
                       # "fully remote now!!", "officially retired as of Friday": a state of the user's, without "I'm"
                       r"^(?:(?:fully|now|officially|finally|going) )?(?:remote|hybrid|freelance|freelancing|self-employed|"
                       r"retired|unemployed|part[- ]time|full[- ]time|single|engaged|married|sober|pregnant)\b"
                       r"(?=.*\b(?:now|these days|from now on|since|as of|officially)\b)|"
                       # "Analytics engineer as of this month": what the user is from a point on, told without "I'm"
                       r"^(?:[\w\-]+\s+){1,4}(?:as of|effective|starting)\s+(?:this|next|last|today|tomorrow|monday|"
                       r"the (?:1st|first|start))\b|"
                       # "Day 3 at Shopify": the onset of something new, counted
                       r"^(?:day|week|month) (?:\d+|one|two|three|four|five) (?:at|in|of|as)\s+|"
                       # "First week at Calloway Foods done!": the onset of something new, told without "I"
                       r"^(?:\w+\s+)?first (?:day|week|month|shift|term|semester|lesson|class|session)s? "
                       r"(?:at|in|with|of|as)\s+(?-i:[A-Z])", re.I)
_AGREEING = re.compile(r"^(?:yes|yeah|yep|sure|correct|right|exactly|perfect|great|sounds good|not really|that'?s (?:right|correct|"
                       r"fine|great|perfect)|that all sounds|that sounds|thanks|thank you|no problem|ok|okay|fine)\b", re.I)
_YES = re.compile(r"^(?:yes|yeah|yep|yup|i am|i do|i have|we are|we do|we have|correct|that'?s right)\b", re.I)
# a question the user can answer with yes: "Are you ...?", "Do you ...?", or a check ("Your partner is allergic to nuts?")
_YES_NO = re.compile(r"^(?:(?:are|is|do|does|did|have|has|can|will|would|was|were)\s+(?:you|your)\b|"
                     r"(?!(?:what|what's|where|who|whom|whose|why|how|which|when)\b)[^?]*\byour?\b[^?]*\?$)", re.I)
_NUMBER_WORD = re.compile(r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|"
                          r"hundred|thousand|million|half|twice|once)\b", re.I)
_LEANS = re.compile(r"\b(?:it|them|those|these)\b(?!')", re.I)
# a sentence whose subject is another person ("My brother quit smoking", "Our neighbour moved to Spain", "She
# got a job in Rome") is about them, not an attribute of the user's, unless the user is in it too ("my partner and I",
# "my boss moved my review"); an impersonal "they" ("they switched me to X") acts on the user's things
# a household service told in the passive ("the internet at home is supplied by X", "the gas is provided by X")
_SUPPLIED = re.compile(r"^(?:the |our |my )?(?:home )?(?:internet|broadband|wi-?fi|electricity|electric|gas|energy|power|"
                       r"water|heating|landline|phone line)\b[\w ]{0,20}? (?:is|are|comes|has been|have been) (?:now |all )?"
                       r"(?:supplied|provided|delivered) (?:by|through) (?-i:[A-Z])", re.I)
# the household's animals as the subject ("the cats are registered at X"), a newcomer to the family
_HOUSEHOLD = re.compile(r"^(?:the|our) (?:dog|cat|kitten|pupp(?:y|ie)|rabbit|bunny|hamster|guinea pig|horse|pony|tortoise|"
                        r"parrot|budgie|goldfish|fish|gecko|snake|ferret)s?\b|\bjoined (?:the|our) (?:family|household)\b",
                        re.I)
_OTHER_SUBJECT = P.OTHER_SUBJECT
# someone agreeing to or putting through the user's sum: "my manager agreed to £36k", "the clients accepted the new
# rate of 38 EUR per hour" (not an offer: "they offered me £40k" is not taken yet)
_AGREED_SUM = re.compile(r"^\W*(?:[\w']+\s+){0,2}?(?:agreed|accepted|approved|signed off|okayed|ok'?d|confirmed|matched)\s+"
                         r"(?:to\s+|on\s+)?(?:the\s+|my\s+|our\s+)?(?:new\s+)?(?:\w+\s+){0,2}?(?:of\s+)?" + P.MONEY.replace("(?P<v>", "(?:"),
                         re.I)


_THIRD_PERSON = re.compile(r"\b(?:he|she|they|he's|she's|they're|his|her|hers|their|theirs|him|them)\b", re.I)


_SUM = re.compile(P.MONEY)


def unread_sums(sentence: str, read: Sequence[Candidate]) -> bool:
    """Whether ``sentence`` holds a sum of money that none of ``read`` (the candidates the rules read from it) took."""
    took = re.sub(r"[^\d ]", "", " ".join(f"{c.value} {c.text}" for c in read)).split()
    return any(re.sub(r"\D", "", m.group("v")) not in took for m in _SUM.finditer(sentence))


def _no_value(text: str) -> bool:
    """Whether ``text`` holds no value: no figure and no name."""
    return not any(ch.isdigit() for ch in text) and not masks_a_value(text)
# a named person doing what gives a person a home or a job ("Anika lives in Rotterdam now", "Tomasz started at X")
# is another person too, unless the name is one the user's memories hold (a manager who "moved to another team"
# changes the user's manager); a name moving a thing ("Fer moved the demo to 15 July") acts on the user's world
_NAMED_SUBJECT = re.compile(
    r"^(?P<name>(?!(?:We|They|You|It|This|That|These|Those|There|Here|The|Our|My|Your|His|Her|Their|Its|Everyone|"
    r"Everybody|Someone|Somebody|Nobody|Work|Mon|Tues|Wednes|Thurs|Fri|Satur|Sun|Just|Got|Finally|Recently|Only|"
    r"Also|Still|Now|Then|So|Eventually|Since|After|Before|Today|Yesterday|Last|Already)(?:day)?\b)[A-Z][a-z]+"
    r"(?: [A-Z][a-z]+)?) (?:just |now |recently |also |still |finally )?(?:lives|"
    r"(?:moved|has moved|is moving) (?:to|out|away|abroad|back|house|in with)|works (?:at|as|for|in)|"
    r"started (?:at|work|a new)|got a job|is working)\b")
# A one-off happening at a recent point in time ("I ran into my landlord at the post office on Thursday", "Had a
# call with my cousin last night about the boiler") holds nothing about the user that lasts: the raw turn keeps it
# as an episode. Only activities count (meeting, calling, going, seeing, dealing with, spending time): a change at a
# point in time ("I sold the car yesterday", "got promoted on Friday", "we adopted a puppy at the weekend") is no
# activity of this class and stays, and so does anything said to last or to come.
_RECENT_POINT = re.compile(
    r"\b(?:this (?:morning|afternoon|evening)|earlier today|earlier on|last night|yesterday|(?:over|at|on) the weekend|"
    r"last weekend|(?:on|last) (?:mon|tues|wednes|thurs|fri|satur|sun)day(?!s)|at lunch(?:time)?|after work|"
    r"first thing|the other day|just now)\b", re.I)
_ACTIVITY = re.compile(
    r"\b(?:ran|bumped) into|\b(?:met|caught) up with|\bhad (?:a|an|my|our) (?:quick |long |short |nice )?"
    r"(?:call|chat|meeting|lunch|coffee|drink|dinner|catch-up|talk|look|walk)\b|\b(?:called|rang|phoned|texted|"
    r"emailed|messaged|visited|saw|watched|walked|wandered|popped (?:in|into|over|round|by)|stopped by|dropped by|"
    r"went (?:to|for|out|round|over|past)|spoke (?:to|with)|talked (?:to|with)|chatted|dealt with|sorted(?: out)?|"
    r"spent|tidied|cleaned|cooked|baked|played|worked on|looked at|asked me|told me|enjoyed|loved|hated)\b", re.I)
_CLAUSES = re.compile(r",\s+|\s+(?:and|but|so)\s+", re.I)
_TO_COME = re.compile(r"\b(?:will|'ll|going to|gonna|next|tomorrow|tonight|plan(?:ning)? to|have to|need to|must)\b", re.I)
_LASTS = re.compile(r"\b(?:since|every|always|usually|often|still|these days|nowadays|anymore|any more|no longer|"
                    r"for (?:\d+|a|an|two|three|four|five|six|seven|eight|nine|ten|many|several) (?:years?|months?|weeks?))\b",
                    re.I)
# A remark that leans on what came before ("It was fine, nothing special", "I keep putting it off", "What a day",
# "Not my favourite way to spend an hour") is not self-contained: no one reading it later knows what it is about
# (a short one ending on "it": in a longer sentence "it" may point back inside it, "my husband loves spicy
# food, I can't stand it").
_LEANING = re.compile(
    r"^(?:it|that|this)(?:'s| is| was| went| looks| looked| seems| seemed| feels| felt| sounds| sounded)\b|"
    r"^what an? \w+(?: \w+)?\W*$|^(?:not|never) (?:my|the) (?:favou?rite|idea|kind|cup of tea)\b|^at least\b|"
    r"^(?:\S+\s+){0,4}(?:it|that|this)(?: off| up| out| over| back)?\W*$", re.I)
# small talk about the weather or the traffic is about the day, not the user ("This rain is driving me mad")
_SMALL_TALK = re.compile(
    r"^(?:(?:the|this|that|what|such|an?|all this|lovely|nice|awful|horrible|terrible|beautiful|gorgeous|glorious|"
    r"miserable|crazy|weird)\s+)*(?:weather|rain|sunshine|sun|snow|heat|heatwave|cold|wind|fog|forecast|storm|"
    r"drizzle|humidity|traffic)\b", re.I)
# A stay, a trip or a rental in a temporary frame ("I'm in Porto this week", "on holiday we're staying at ...", "we
# hired a van for the weekend") ends with the frame: nothing about the user that lasts (the raw turn keeps it as an
# episode). Both must be said: a symptom or a medicine for the week is no stay ("I'm on antibiotics for the week"),
# and a clause said to last beside it ("I live in Ghent but ..."), a change or a habit stays.
_TEMPORARY = re.compile(
    r"\b(?:this|for the|for a|over the) (?:week|weekend|few days|couple of days|fortnight)\b|"
    r"\bon (?:holiday|vacation|a trip|a (?:work|business) trip|(?:a )?city break)\b", re.I)
_STAY = re.compile(r"\b(?:i'?m|we'?re|i am|we are) (?:(?:currently|still|away) )?(?:(?-i:in [A-Z])|(?-i:at (?:the )?[A-Z])|"
                   r"away\b|abroad\b|visiting\b|travell?ing\b|working (?:from|out of|in)\b)|\bstaying\b|"
                   r"\b(?:rented|hired|borrowed)\b", re.I)
_MIN_WORDS = 3
# where a sentence that told something goes on to ask for help: ", help me plan ...", ", I need some ideas for ..."
# ... or goes on to what the user wants to do ("Wednesday evenings are pottery class for me, I'm trying to master
# bowls", "X is cooking for me Saturday and I want to bring a dessert"): the want is no fact, what came before is
_ASK_AFTER = re.compile(r"(?:[,;:]|\s+[\u2014\u2013-]|\s+so|\s+and)\s+(?:(?:so|and|but|now|anyway|pls|please)\s+)*"
                        r"(?=(?:can|could|would|will) you\b|(?:help|tell|show|give|send) me\b|i need (?:some|a|an|help)\b|"
                        r"i'?m (?:looking for|after)\b|i'?d (?:like|love) (?:some|a|an|to)\b|(?:any|some) (?:tips|ideas|advice|"
                        r"suggestions)\b|(?:ideas|tips|suggestions|recommendations)\b|i'?m (?:trying|hoping|wanting) to\b|"
                        r"i (?:want|would like) to\b)", re.I)
MAX_STATEMENT_WORDS = _MAX_WORDS = 40  # past this a sentence is read clause by clause (rules.py)

# values in a sentence: addresses of mail, numbers with their separators, times, and names (capitalised words
# that do not start the sentence). Masked as X, "I moved to Leeds" and "we relocated to Bristol" are alike.
_EMAIL = re.compile(r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+")
_NUMBER = re.compile(r"[+#]?\d[\d,.:/\-]*(?:\s?(?:am|pm|mg|kg|km|%))?", re.I)
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b(?!I\b|I'm\b|I've\b|I'd\b|I'll\b)[A-Z][\w'\-]*")
_XS = re.compile(r"\bX(?:[\s,]+X\b)+")


def mask_values(text: str) -> str:
    """``text`` with its values replaced by ``X`` (for comparing what a statement is about)."""
    t = _EMAIL.sub("X", text.strip())
    t = _NUMBER.sub("X", t)
    t = _NAME.sub("X", t)
    return _XS.sub("X", t)


_MASKED = re.compile(r"(?<![\w'])X(?![\w'])")


def masks_a_value(text: str) -> bool:
    """Whether ``text`` names a value (a name, a number, an address): "Ipswich," counts as much as "Ipswich"."""
    return bool(_MASKED.search(mask_values(text)))


_WORD = re.compile(r"[A-Za-z][\w\-]+")


_COMMON = frozenset(["that", "this", "with", "from", "have", "been", "were", "they", "them", "then", "than", "what", "when", "where", "which", "there", "their", "about", "just", "very", "much", "more", "most", "some", "also", "still", "into", "over", "only", "even", "back", "well", "good", "great", "thanks", "user", "user's", "week", "month", "year", "time", "day", "days", "today", "tomorrow"])
_CORRECTING = re.compile(r"^(?:sorry|oops|typo|correction|actually|i meant|no,|wait)\b|\b(?:that'?s wrong|i meant|"
                         r"my mistake|i got that wrong|not (?!(?:really|yet|quite|now|today|sure|much|exactly|necessarily|"
                         r"at all|for me|always)\b)\w+, )", re.I)  # "Not Leeds, Bristol"; "Not really, ..." declines


def _known_words(text: str) -> list[str]:
    """Words that can name a thing in the user's world: names and other words of four letters or more."""
    out = []
    for i, w in enumerate(_WORD.findall(text)):
        lw = w.lower()
        if ((w[0].isupper() and i > 0) or len(w) >= 4) and lw not in _COMMON:
            out.append(lw)
    return out


def known_names(values: object) -> frozenset[str]:
    """The naming words of the user's current memory values (for :func:`statement_candidate`)."""
    return frozenset(w for v in values for w in _known_words(str(v)))  # type: ignore[attr-defined]


def passing(sentence: str) -> bool:
    """Whether ``sentence`` is talk that passes with the day: irony, a one-off activity at a recent point in
    time, a stay, trip or rental in a temporary frame, a remark leaning on what came before, small talk about the
    weather (the raw turn keeps it all)."""
    raw = sentence.strip()
    if P.IRONY.match(raw):
        return True
    s = P.LEAD.sub("", _clean(raw)).rstrip(" .!")  # a greeting leads in too ("Hi, it's me again")
    if _SMALL_TALK.match(s):
        return True
    if _LEANING.search(s) and not masks_a_value(s) and not any(ch.isdigit() for ch in s):
        return True
    if _LASTS.search(s) or change_frame(s):
        return False
    if _TEMPORARY.search(s) and _STAY.search(s) and not changes(s) \
            and not any(_ME.search(part) and masks_a_value(part) and not _TEMPORARY.search(part)
                        for part in _CLAUSES.split(s)):
        return True
    if not (_RECENT_POINT.search(s) and _ACTIVITY.search(s)) or _TO_COME.search(s):
        return False
    # every clause must be part of the happening or a word on it: "I saw a cardiologist last Tuesday and he put me
    # on beta blockers" tells a lasting fact in its second clause ("..., it was packed" / "no fillings needed" do not)
    return all(_ACTIVITY.search(part) or _RECENT_POINT.search(part) or len(part.split()) <= 3
               or _LEANING.search(part) for part in _CLAUSES.split(s))


def _asks(sentence: str) -> bool:
    """Whether ``sentence`` of a reply asks the assistant something (a question or a request) and tells nothing."""
    x = _ACK.sub("", _clean(sentence)).strip() or sentence.strip()
    return x.endswith("?") or bool(_QUESTION.match(x) or _NOT_A_FACT.search(x) or _REQUEST.search(x)
                                   or (_IMPERATIVE.match(x) and not _STANDING.search(x)))


def _clean(sentence: str) -> str:
    s = _LEAD.sub("", sentence.strip()).strip()
    return s[:1].upper() + s[1:] if s else s


def statement_candidate(sentence: str, *, question: str | None, message_ids: list[str], timestamp: object,
                        domain: str | None, correction: bool, secret: bool,
                        known: frozenset[str] = frozenset(), clause: bool = False,
                        people: frozenset[str] = frozenset()) -> Candidate | None:
    """A statement candidate for ``sentence`` (an answer to ``question`` when given), or None when it is
    no statement about the user: a question, a request, small talk, a hypothetical, too short or long.

    A sentence with no "I"/"my"/"we" is about the user's world only when it answers a question or names
    something the user already told about (``known``: lowercased names from their current memories)."""
    correction = correction or bool(_CORRECTING.search(sentence.strip()))
    # an answer keeps its sentences that say something lasting; a statement is dropped when it passes
    kept = [x for x in P.SENTENCE_SPLIT.split(sentence.strip()) if x.strip() and not passing(x)]
    if question:
        # "nope, I drive in these days. can you suggest a podcast for the drive": the answer, then a new request of
        # its own; the request is no part of the answer (read whole, its "can you" made the answer no statement)
        kept = [y for x in kept for y in P.LOWER_SENTENCE_SPLIT.split(x) if y.strip()]
        told = [x for x in kept if not _asks(x)]
        kept = told if told and len(told) < len(kept) else kept
    if question and len(kept) > 1 and _AGREEING.match(kept[0]) and len(kept[0].split()) <= 3:
        kept = kept[1:]  # "Not really. My knee's been playing up since the marathon": the news is what follows
    if not kept:
        return None
    confirmed = bool(question and _YES.match(sentence.strip()) and _YES_NO.match(question.strip()))
    s = _clean(" ".join(kept) if question else sentence).rstrip()
    if (ask := _ASK_AFTER.search(s)) and len(s[: ask.start()].split()) >= _MIN_WORDS \
            and not _asks(s[: ask.start()]):
        s = s[: ask.start()].rstrip(" ,;")  # "My bins go out on wednesdays now, tell me a good way to remember"
    words = s.split()
    if secret or not (_MIN_WORDS - (1 if question else 0) <= len(words) <= _MAX_WORDS) or s.endswith("?"):
        return None
    hyp = _HYPOTHETICAL.search(s)
    cut = s.rfind(", ", 0, hyp.start()) if hyp else -1
    if hyp and cut > 0 and len(s[:cut].split()) >= _MIN_WORDS and not _WOULD.search(s[:cut]) \
            and (masks_a_value(s[:cut]) or any(ch.isdigit() for ch in s[:cut])):
        # "We keep it to 120 dollars a week, which is tight but doable if I batch cook": the condition is the
        # trailing clause's; the value before it is told as it is ("I'd move to Lisbon, if I could" is not)
        s, words = s[:cut], s[:cut].split()
    asked = _ACK.sub("", s) if _ACK.match(s) else s
    if _QUESTION.match(s) or _NOT_A_FACT.search(s) or _HYPOTHETICAL.search(s) \
            or _REQUEST.search(s) or _NOT_YET.search(s) or re.match(r"(?:that'?s|that is) (?:it|all)\b", asked, re.I) \
            or (_NOUN_PLEASE.match(asked) and not question and not _STANDING.search(s) and not masks_a_value(s)
                and not answer_style(s)) \
            or (_IMPERATIVE.match(asked) and not _STANDING.search(s) and not _RECORD_MINE.match(asked)
                and not answer_style(s) and not ((_ASSIGNED_MINE.match(s) or _UPDATE_MINE.match(s)) and masks_a_value(s))):
        return None
    has_value = masks_a_value(s) or any(ch.isdigit() for ch in s)
    if _CHOICE.search(s) and not has_value:
        return None
    if question and _AGREEING.match(s) and not has_value:
        return None  # "That all sounds right, thanks": agreement, no value of the user's to keep
    if _OBLIGATION.search(s) and not has_value:
        return None  # "I need to schedule an appointment": a task for the rules, no fact
    # someone else's words ("the landlord says the rent goes up") are the user's world only where they change
    # something the user said before: the write path keeps such a statement only as a supersede
    heard = _REPORTED.search(s)
    if heard and (own := _OWN_AFTER_HEARD.search(s, heard.end())):
        # "..., vet says his kidneys are going so it's the renal food from now on": the user's own conclusion after
        # someone else's words is the statement
        s, heard = own.group("own")[:1].upper() + own.group("own")[1:], None
        words = s.split()
    cut = s.rfind(", ", 0, heard.start()) if heard else -1
    # "I've taken up rowing, the physio said it would help": the user's clause first, someone's words after it
    # ("At 68 I've finally started cello lessons, my grandson thinks I'm mad": the user's clause after a lead too)
    own_first = cut > 0 and bool(re.match(r"(?:[^,]{0,40}?\b)?(?:i|i'm|i've|i'd|we|we're|we've|my|our)\b", s, re.I)) \
        and not _REPORTED.search(s[:cut])
    reported, subjectless = bool(heard) and not own_first, False
    # a sentence with a number and no "I" ("Report due 30 June", "rent is 900 a month") is still the user's
    # world when the user says it; without a number it is as likely chatter about anything
    numbered = (any(ch.isdigit() for ch in s) or bool(_NUMBER_WORD.search(s))) and len(words) >= _MIN_WORDS
    # "Dark mode please, always": a request with a standing marker is the user's own way of wanting things
    standing = bool(re.search(r"\bplease\b", s, re.I) and _STANDING.search(s)
                    or re.search(r",\s*(?:always|every time|never)\W*$", s, re.I))  # "Aisle seat, always"
    if question is None and not correction and not _FIRST_PERSON.search(s) and not _ELLIPTIC.match(s) \
            and not numbered and not standing and not (known & set(_known_words(s))) and not _SUPPLIED.search(s) \
            and not _HOUSEHOLD.search(s) and not answer_style(s):
        # "She started at X Academy": a change frame; "Hyperoptic got installed on Friday": a provider of a sort
        # held one at a time, a change only where the user named another of that sort before
        if not (has_value and (changes(s) or change_frame(s))) and not held_once(s):
            return None
        # "The new place is in Ipswich": a change with a value and no "I" is the user's world only where it
        # changes something the user said before, like someone else's words
        reported = subjectless = True
    body = s.rstrip(".!")
    named = _NAMED_SUBJECT.match(body)
    # a named subject the user told of is theirs to change ("Rex died"), unless it is a person ("Ruby left X"), in a
    # sentence of its own that no rule read in part
    person = re.match(r"(?-i:[A-Z])[a-z]+(?:'s)?(?=\s)", body)
    who = _OTHER_SUBJECT.match(body) or (named if named and not known & set(_known_words(named["name"])) else None) \
        or (person if person and person.group(0).lower().removesuffix("'s") in people
            and not clause and not _FIRST_PERSON.search(body) else None)
    # the other person's own clause, up to a comma or a conjunction: "My parents moved to Cork so we visit more" is
    # their move (the "we" of the next clause had made it the user's, and it replaced the user's home)
    theirs = re.split(r"[,;]|\s+(?:so|but|because|since|as|which|while)\s+", body[who.end():])[0] if who else ""
    rest = body[who.end() + len(theirs):] if who else ""
    other = (who is not None and not _FIRST_PERSON.search(theirs)
             # "my in-laws are helping out so the kitchen budget is $14,000 now": their clause holds no value, the
             # value is in a clause of no one's; "my manager agreed to £36k": a sum agreed for the user is the user's
             and not (_no_value(theirs) and not _no_value(rest) and not _THIRD_PERSON.search(f"{theirs} {rest}"))
             and not _AGREED_SUM.search(theirs)) or _handed_to_another(body)
    if clause and _LEANS.search(body) and not masks_a_value(body):
        return None  # "..., I read them on my phone": about the clause before, not self-contained
    if question:
        q = question.strip()
        # the question stays searchable (keywords) and decides the family (about); the text shows the answer,
        # so a memory costs the context no more than the turn it came from
        # a yes to "Are you vegetarian?" confirms the question: the answer alone ("For ten years") says nothing
        said = " ".join(kept).strip().rstrip(".!")  # the user's own words, with their yes
        text = f'Asked "{q}", the user answered: "{said}."' if confirmed \
            else f'The user answered: "{body}."'
        about = f"{mask_values(q)} {mask_values(body)}"
    else:
        text = f'The user said: "{body}."'
        about = mask_values(body)
    return Candidate(
        kind=MemoryKind.FACT, key=STATEMENT_KEY, value=body, text=text, confidence=0.7, importance=0.4,
        domain=domain, message_ids=list(message_ids), role="user", timestamp=timestamp,  # type: ignore[arg-type]
        is_correction=correction, extractor="rules", keywords=question or "",
        metadata={"statement": True, "about": about, "rule": "statement", **({"reported": True} if reported else {}),
                  **({"other_subject": True} if other else {}), **({"subjectless": True} if subjectless else {})},
    )
