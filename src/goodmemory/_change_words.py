"""Whether a statement speaks of a change of value or adds a value (pure; the words are English, not a rule's).

Three kinds of evidence that the user's own value changed:

- a word of change ("switched", "no longer", "instead", "now" ...);
- a verb by which the user takes a value on from someone, which says the value is new to them ("went with X",
  "took out a policy with X", "been put under X", "handed the team over to X");
- an onset: the statement says since when its value holds ("since the spring", "since joining X", "now that
  I'm in X").

The last two are weak: beside "also" or "as well" they are how an addition is told too ("I also signed up with
a yoga studio"). "Signed up with X" is none: it is how a subscription is added ("signed up with a streaming
service again"). A change the user has not made is no change: one negated or only planned ("I haven't switched",
"I'm thinking of switching", "we might move") counts for nothing.
"""

from __future__ import annotations

import re

__all__ = ["LENGTH", "adds", "changes", "done", "one_more", "one_off", "only_onset", "weakly_changes"]

_CHANGE = re.compile(
    r"\b(?:now|anymore|any more|no longer|instead|switch(?:ed|ing)?|swap(?:ped|ping)?|lapsed?|chang(?:e|ed|ing)|mov(?:e|ed|ing)|new|replac(?:e|ed)|"
    r"traded|sold|gave up|quit|stopped|left|cancell?ed|dropped|upgraded|downgraded|raised|lowered|went up|migrat(?:e|ed|ing)|"
    r"(?:took|taken|takes|taking) over|first (?:day|week|month|shift)s? (?:\w+ ){0,4}?as (?=\w)|as of (?:this|next|today|tomorrow|now|monday|the (?:1st|first|start))|"
    r"went down|increased|decreased|extended|pushed|postponed|rescheduled|re-?booked|shifted|finished|passed away|"
    r"these days|nowadays|from now on|actually|correction|sorry|meant|typo|wrong|on second thought|"
    r"transferred|turned|got promoted|(?<!\ba )(?<!\ban )(?<!\bthe )(?<!\bmy )retired|closed|back to|cut|reduced|bumped|upped|hiked|postponed|delayed|brought forward|"
    r"ditched|dumped|binned|"
    r"goes up|goes down|gone up|gone down|comes down|came down|come down|(?:goes|went|has gone) to(?= [£$€]?\d)|is now|are now|not any more|lost|died|escaped|ran away|broke up|ended|"
    r"expired|is gone|are gone|split up|separated|divorced|called it quits|broke it off|parted ways|moved out|turned off|"
    r"unsubscribed|no more|got rid of|"
    r"took me off|taken me off|came off|come off|put me on|re-?homed|written off|doubled|halved|tripled|"
    r"went missing|stolen|nicked|put to sleep|(?:was|been|got) put down|went to live (?:with|in)|(?:is|are) over for (?:me|us)|start(?:ed|ing)? \w+ing (?:[\w\-]+ ){0,3}again|brought (?:[\w'\-]+ ){1,3}forward)\b|"
    # "Friday, not Thursday" denies the old value; "..., not yet" / "..., not really" deny nothing of it
    r"[,;]\s*not\s+(?!(?:yet|really|sure|bad|much|quite|exactly|always|often|that|too|now)\b)(?=\S)", re.I)
# "too" adds only at the end of a clause ("I have a dog too"), not before an adjective ("too strong")
_ADDITION = re.compile(r"\b(?:also|another|second|third|as well|on top of|in addition|additionally|besides)\b|"
                       # one more language or pastime taken up ("I'm picking up some Welsh at night school")
                       r"\b(?:picking|picked|taking|took) up (?:some |a bit of |a little )?(?-i:[A-Z])|"
                       r"\btoo\b(?=\s*(?:[,.;!?]|$))", re.I)
_CLAUSE = re.compile(r",\s*|;\s*|\s+(?:and|but|so)\s+", re.I)
_OWN = re.compile(r"\b(?:i|i'm|i've|i'd|we|we're|we've|my|our|me|us)\b", re.I)
# a value taken on from someone: a provider chosen, a contract or policy taken out, a person put in charge of the user
_TAKEN_ON = re.compile(
    r"\b(?:went|gone|going) with (?-i:[A-Z])|"
    r"\btook out (?:a |an |the )?(?:new )?(?:\w+ )?(?:policy|plan|contract|cover|mortgage|account|membership)\b|"
    r"\bjumped ship\b|\b(?:poached|headhunted|lured|recruited|hired)\s+(?:me|us)\s+(?:away\s+)?from\b|"
    r"\b(?:was|were|got|been)\s+(?:poached|headhunted)\b|\bported (?:my|our|the) (?:number|numbers|phone|line)\b|"
    r"\bported (?:over )?to (?-i:[A-Z])|"
    r"\b(?:been|got|was|were|am|are|is) (?:put|placed|assigned|allocated|moved|transferred|registered) "
    r"(?:under|to|with|onto)\b|"
    r"\bhanded (?:\w+ ){0,3}over to\b|"
    # a sum someone agreed to for the user: "my manager agreed to £36k from June", "they approved 42 an hour"
    r"\b(?:agreed|approved|accepted|signed off|okayed)\s+(?:to\s+|on\s+)?(?:(?:my|a|the|our|new|raise|rise|pay|rate|"
    r"salary|budget|of|to)\s+){0,4}[£$€¥₹]?\d|\b(?:gave up on|fed up with|done with)\b|"
    r"\b(?:put|moved|have|keep) (?:my|our|all my|all our) \w+ (?:with|into|at) (?-i:[A-Z])", re.I)
# since when the value holds: a time, a season, a step the user took ("since joining X", "now that I'm in X")
_ONSET = re.compile(
    r"\b(?:ever since|now that)\b|\bsince (?:the (?:start|beginning|end|middle) of (?:the )?)?(?:the |last |this |early |late |mid[- ])?(?:spring|summer|autumn|fall|"
    r"winter|january|february|march|april|may|june|july|august|september|october|november|december|week|month|"
    r"year|move|operation|surgery|(?:19|20)\d\d)\b|\bsince (?:the |my |our )(?:\w+ )(?:move|operation|surgery|accident|birth|wedding|merger)\b|\bsince (?:joining|starting|switching|moving|going|leaving|signing|"
    r"getting|taking)\b|\bsince (?:\w+ ){0,2}(?:started|joined|switched|moved|went|left)\b", re.I)
# what only plans or denies a change: "haven't switched", "thinking of moving", "we might move", "if I changed"
_NOT_DONE = re.compile(
    r"(?:\b(?:haven'?t|hasn'?t|have not|has not|didn'?t|did not|not yet|never|won'?t|will not|thinking (?:of|about)|"
    r"considering|planning (?:to|on)|plan to|might|(?-i:may)|could|would|hoping to|hope to|want to|wants to|if (?:i|we))"
    r"|'d)\s+(?:\w+\s+){0,2}$", re.I)
_WEAK_CHANGE = frozenset(["now", "new", "these days", "nowadays", "from now on", "actually"])


# idioms whose verb is a word of change but which change nothing: "I ended up waiting", "bumped into a friend",
# "it turned out fine", "lost most of the afternoon to it", "lost track of time"
_IDIOM = re.compile(r"\b(?:end(?:ed|s)? up|bump(?:ed|s)? into|turn(?:ed|s)? (?:up|out)|"
                    r"lost (?:most|much|half|all|track|count|sleep)\b(?: of| over)?)", re.I)


def done(said: str, pattern: re.Pattern[str]) -> list[re.Match[str]]:
    """The matches of ``pattern`` in ``said`` that no negation or plan just before them takes back and no idiom
    holds ("ended up", "bumped into")."""
    idioms = [m.span() for m in _IDIOM.finditer(said)]
    return [m for m in pattern.finditer(said) if not _NOT_DONE.search(said[max(0, m.start() - 40):m.start()])
            and not any(a <= m.start() < b for a, b in idioms)]


def changes(said: str) -> bool:
    """Whether ``said`` speaks of a change the user made ("switched", "no longer", "went with X", "since May" ...)."""
    return any(done(said, p) for p in (_CHANGE, _TAKEN_ON, _ONSET))


def adds(said: str) -> bool:
    """Whether ``said`` adds a value rather than replacing one ("also", "a second", "another"); an "also"
    beside a verb of change is a new piece of news, not a new value ("also the quiz moved to Friday")."""
    if not _ADDITION.search(said):
        return False
    # "the surgery merged with another practice and I've been assigned to X": an addition word in a clause of
    # someone else's, beside the user's own clause, adds nothing of the user's
    parts = [p for p in _CLAUSE.split(said) if p.strip()]
    own = [p for p in parts if _OWN.search(p)]
    if own and len(own) < len(parts) and not any(_ADDITION.search(p) for p in own):
        return False
    return not any(m.group(0).lower().strip(" ,;") not in _WEAK_CHANGE for m in done(said, _CHANGE))


def weakly_changes(said: str) -> bool:
    """Whether ``said`` tells a change only by weak evidence ("now", "these days", "since May", "went with X"): the
    words an addition is told with too ("we're a family of four now"), so they need a closer resemblance."""
    return changes(said) and all(m.group(0).lower().strip(" ,;") in _WEAK_CHANGE for m in done(said, _CHANGE))


def only_onset(said: str) -> bool:
    """Whether ``said`` tells a change by nothing but since when it holds ("Since the spring I volunteer at X"): enough
    to change one of several values it is alike, too little to file a statement under a single-valued attribute."""
    return changes(said) and not done(said, _CHANGE) and not done(said, _TAKEN_ON)


# a thing the user did once, at a time of the past ("I posted the parcel at the post office on Saturday", "we
# finally cleared out the loft yesterday"): an errand, no standing attribute of theirs
_DID = re.compile(
    r"\b(?:i|we)\s+(?:(?:finally|just|only|also|eventually|quickly|already)\s+)?(?:\w+ed|took|went|got|made|found|"
    r"bought|met|saw|had|ran|rang|sent|spent|paid|put|sat|wrote|brought|caught|did|drove|ate|gave|left|lost|sold|"
    r"told|won|woke|broke|fell|forgot|hung|kept|read|said|spoke|swam|threw|wore)\b", re.I)
_PAST_TIME = re.compile(
    r"\b(?:yesterday|last (?:night|week|weekend|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"this (?:morning|afternoon)|earlier today|at lunchtime|at lunch|over the weekend|at the weekend|"
    r"on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|\w+ (?:days|weeks) ago)\b", re.I)


def one_off(said: str) -> bool:
    """Whether ``said`` tells only a thing the user did once at a past time, changing no value of theirs."""
    return bool(_DID.search(said) and _PAST_TIME.search(said)) and not changes(said)


# what the user did, by a verb that is past only: "-ed" (not "need", "feed", "proceed") or an irregular past that is no
# present too ("read", "put", "quit", "set" are both: "I read mostly crime novels")
_TOLD_EVENT = re.compile(
    r"^\W*(?:(?:so|and|oh|well|anyway|also),?\s+)?(?:(?:i|we)\s+|(?P<other>(?:my|our|the|his|her|their)\s+(?:(?!(?:is|are|was|were|has|have|had|been|be|will|would|"
    r"can|could|should|does|do|did|gets?|got)\b)[\w'\-]+\s+){1,3}?))"
    r"(?:(?:finally|just|only|also|eventually|quickly|already)\s+)?"
    r"(?:(?!(?:need|feed|bleed|breed|heed|speed|proceed|succeed|exceed|shed|wed|embed|seed|weed)\b)\w{2,}ed|took|went|got|"
    r"made|found|bought|met|saw|had|ran|rang|sent|spent|paid|sat|wrote|brought|caught|did|drove|ate|gave|left|lost|sold|"
    r"told|won|woke|broke|fell|forgot|hung|kept|said|spoke|swam|threw|wore)\b", re.I)


_ME_AFTER = re.compile(r"\b(?:i|me|my|mine|we|us|our)\b", re.I)


def event_only(said: str) -> bool:
    """Whether ``said`` opens by telling what the user, someone or something did ("We finished painting the fence at
    last", "I dropped my phone", "My cousin finished her degree", "The kettle broke"): where no attribute's family
    claims it and it changes no value the user gave, an event (its turn keeps it), no attribute."""
    m = _TOLD_EVENT.search(said)
    # what someone did to or for the user ("The doctor added X for my cholesterol", "The shop offered me ...") may
    # change the user's world: only the user's own telling says it is just an event
    return m is not None and not (m["other"] and _ME_AFTER.search(said, m.end()))


# one more value, said outright ("I also opened ...", "a second account"); a clause-final "too" is as often "like the
# others" ("everyone at work calls me Robert and I'd rather you used that too")
_ONE_MORE = re.compile(r"\b(?:also|another|second|as well|in addition|additionally)\b", re.I)


def one_more(said: str) -> bool:
    """Whether ``said`` gives one more value, outright (no clause-final "too")."""
    return bool(_ONE_MORE.search(said))


# how long the user wants the answers, in their words ("one-liners", "in-depth answers"): a length said anew replaces it
LENGTH = re.compile(r"\b(?:short|shorter|brief|briefer|concise|one-liners?|one line|one-line|a few lines|detailed|long|"
                    r"longer|in depth|in-depth|thorough|full reasoning|essays?|tl;?dr|to the point|"
                    r"(?:lines|sentences|paragraphs|words)(?= or (?:less|fewer)\b|\W*$))\b", re.I)
