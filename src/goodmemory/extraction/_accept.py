"""A value the user accepts from the assistant's suggestion: "ok set it to 30%" after "raising the cutoff to 30%
stops the alarm", "yes, book the 7pm one", "sounds good, go with the blue one".

The reply alone names nothing to keep ("it", "the 7pm one"), and the assistant's turn alone is speculation; the
acceptance binds the two. The value is the reply with its pronoun resolved to the thing the assistant proposed a
value for ("set the cutoff to 30%"), or, when no such thing is found, the reply beside the assistant's sentence it
chose from. Only a reply that accepts and points at one proposed value binds:

- it names a figure or a word the assistant's turn holds ("30%", "the 7pm one", "the blue one"), or
- it is a bare yes ("sounds good, do that") to a turn that ends on a proposal with a value in it ("Shall I set
  the reminder for 8:30?").

"ok thanks", a reply that names something the assistant never said, a question, a "no" bind nothing.
"""

from __future__ import annotations

import re
from datetime import datetime

from ..models import Candidate, MemoryKind, Message
from ._statements import STATEMENT_KEY, mask_values

__all__ = ["accept_candidate", "accepted"]

_MAX_WORDS = 14
_ACCEPT = re.compile(
    r"^\s*(?:(?:ok(?:ay)?|yes|yeah|yep|yup|sure|fine|great|perfect|alright|deal|cool|right|good|sounds (?:good|great|"
    r"fine|right)|that works|works for me|that'?s (?:fine|great|perfect|good|ok(?:ay)?|grand|brilliant|lovely)|"
    r"let'?s do (?:it|that)|do it|do that|please do|go ahead)\b[\s,.!:;\-]*)+",
    re.I)
# a choice or an instruction that binds what the assistant offered ("set it to", "book the", "go with the")
_BIND = re.compile(r"^(?:please\s+)?(?:set|make|change|put|raise|lower|switch|book|take|pick|choose|go with|go for|"
                   r"use|order|get|reserve|schedule|move|keep)\b(?!\s+(?:me|us|going|some|more|a list)\b)", re.I)
# "Operation Larch it is", "Thursday it is then": the idiom of choosing what was offered
_IT_IS = re.compile(r"^(?:[\w'’:.,%\-]+\s+){1,4}it is(?:\s+then)?$", re.I)
_REFERENCE = re.compile(r"^(?:the\s+)?(?:[\w:.,%\-]+\s+){0,2}?(?:one|option|slot|time)$|^[\d:.,%\s]+(?:am|pm|h)?$", re.I)
_FIRST_PERSON = re.compile(r"\b(?:i|i'?ll|i'?m|i'?ve|we|we'?ll|my|our|me|us)\b", re.I)  # the user's own plan or news
_FIGURE_WORDS = 5
_REFUSE = re.compile(r"\b(?:no|not|don'?t|never|rather not|instead|but)\b", re.I)
_THANKS = re.compile(r"^(?:thanks?|thank you|cheers|ta)\W*$", re.I)
# the assistant ends on an offer: "Shall I ...?", "Want me to ...?", "How about ...?"
_PROPOSAL = re.compile(r"^(?:shall i|should i|want me to|do you want(?: me)? to|would you like(?: me)? to|how about|"
                       r"what about|i can|i could|we can|we could|i suggest|i'?d suggest|i recommend|i'?d recommend|"
                       r"let'?s)\b", re.I)
# the tag an offer ends on: "We can move you to the 21st at 9am, does that work?"
_TAG = re.compile(r",?\s*(?:does that work|would that work|is that ok(?:ay)?|is that alright|how does that sound|"
                  r"would that suit you|does that suit you|ok(?:ay)?)\s*$", re.I)
_FIGURE = re.compile(r"(?<![A-Za-z\d])\d[\d.,:]*(?:\s?(?:%|am|pm|h|kg|km|mg))?", re.I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+\s*(?:[-*\u2022]\s*)?")
_PRONOUN = re.compile(r"\b(?:it|that|this)\b", re.I)
_STOP = frozenset(["the", "a", "an", "one", "ones", "option", "please", "then", "that", "this", "it", "for", "me",
                   "us", "with", "go", "to", "and", "of", "in", "on", "at", "thanks", "thank", "you"])


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


def _bounded(word: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w.,])" + re.escape(word) + r"(?![\w]|[.,:]\d)", re.I)


def _pointers(reply: str) -> list[str]:
    """What the reply points at: its figures, then its content words ("the blue one" -> "blue")."""
    figures = [f.strip() for f in _FIGURE.findall(reply)]
    words = [w for w in re.findall(r"[A-Za-z][\w\-]*", _BIND.sub("", _ACCEPT.sub("", reply)))
             if w.lower() not in _STOP and len(w) >= 3]
    return figures + words


def _thing(sentence: str, figure: str) -> str | None:
    """The thing a figure is proposed for in ``sentence``: "Raising the cutoff to 30%" -> "the cutoff"."""
    m = re.search(r"\b(?P<np>(?:the|your|my|a|an)\s+[a-z][\w\-]*(?:\s+[a-z][\w\-]*){0,2}?)\s+(?:to|at|for|of|on)\s+"
                  r"(?:about\s+|around\s+)?" + re.escape(figure), sentence, re.I)
    return _in_user_voice(m.group("np")) if m else None


_VOICE = {"i": "the assistant", "i'm": "the assistant is", "i've": "the assistant has", "i'd": "the assistant would",
          "i'll": "the assistant will", "me": "the assistant", "my": "the assistant's", "your": "my", "yours": "mine",
          "you": "me"}
_VOICE_WORD = re.compile(r"\b(?:i'm|i've|i'd|i'll|i|me|my|your|yours|you)\b", re.I)


_SUBJECT_VERB = re.compile(r"\s+(?:are|were|have|had|can|could|will|would|should|need|want|get|go|pay|save)\b", re.I)


def _in_user_voice(sentence: str) -> str:
    """The assistant's sentence as the user would say it ("your transfer" -> "my transfer", "I found" -> "the
    assistant found", "put you in row 14" -> "put me in row 14", "you save 20" -> "I save 20")."""
    def swap(m: re.Match[str]) -> str:
        word = m.group().lower()
        if word == "you":
            return "I" if _SUBJECT_VERB.match(sentence, m.end()) else "me"
        return _VOICE[word]

    return _VOICE_WORD.sub(swap, sentence)


def accepted(suggestion: str, reply: str) -> str | None:
    """The statement ``reply`` makes by accepting a value of the assistant's ``suggestion``, or None."""
    text = " ".join(reply.split())
    if not text or "?" in text or len(text.split()) > _MAX_WORDS:
        return None
    lead = _ACCEPT.match(text)
    body = text[lead.end():] if lead else text
    body = re.sub(r"[\s,.!]*\b(?:thanks?|thank you|cheers|please)\b[\s.!]*$", "", body, flags=re.I).strip(" .,!")
    body = re.sub(r"^please\b[\s,]*$", "", body, flags=re.I)
    # what is bound is a choice or a setting: "set it to 30%", "the blue one", "14:00", never a request for more
    # ("sure, tell me more about the trails") or the user's own plan ("ok I'll ask my GP")
    chooses = bool(_BIND.match(body) or _REFERENCE.match(body) or _IT_IS.match(body))
    # a bare figure ("2.4 then") chooses too; a clause of the user's own with a figure in it ("moving wrecked my
    # base, I've only run twice in 3 weeks") is news of theirs, not a choice
    figure_only = bool(lead) and not chooses and len(body.split()) <= _FIGURE_WORDS and bool(_FIGURE.search(body)) \
        and not _FIRST_PERSON.search(body)
    if body and not (chooses or figure_only):
        return None
    if not lead and not chooses:
        return None
    if _REFUSE.search(body) or _THANKS.match(body):
        return None
    offered = _sentences(suggestion)
    pointers = _pointers(body) if not figure_only else [f.strip() for f in _FIGURE.findall(body)]
    for p in pointers:
        pat = _bounded(p)
        chosen = [s for s in offered if pat.search(s)]
        if not chosen:
            continue
        sentence = _in_user_voice(chosen[0].rstrip(" .!"))
        thing = _thing(sentence, p) if p[:1].isdigit() else None
        if thing and _PRONOUN.search(body):
            return _PRONOUN.sub(thing, body, count=1)
        return f"{body[:1].upper()}{body[1:]}: {sentence}"
    if pointers or not offered:
        return None  # it names something the assistant did not offer: the user's own words say it
    last = _TAG.sub("", offered[-1].rstrip("?"))
    if not (_PROPOSAL.match(last) and _FIGURE.search(last)):
        return None
    offer = _in_user_voice(_PROPOSAL.sub("", last).strip(" ,.!"))
    return f"Agreed to {offer[:1].lower()}{offer[1:]}"


def accept_candidate(suggestion: Message, reply: Message, *, timestamp: datetime, domain: str | None
                     ) -> Candidate | None:
    """The statement candidate of an acceptance (see :func:`accepted`): the user's own decision, said after the
    values it replaces, so it supersedes them even within the same call (``is_correction``)."""
    bound = accepted(suggestion.content, reply.content)
    if bound is None:
        return None
    value = bound[:1].upper() + bound[1:]
    return Candidate(
        kind=MemoryKind.FACT, key=STATEMENT_KEY, value=value,
        text=f'The user accepted the assistant\'s suggestion: "{value}."', confidence=0.7, importance=0.5,
        domain=domain, message_ids=[suggestion.id or "", reply.id or ""], role="user", timestamp=timestamp,
        is_correction=True, extractor="rules",
        metadata={"statement": True, "about": mask_values(value), "rule": "accepted", "accepted": True},
    )
