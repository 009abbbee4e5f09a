"""A replacing statement's value without the value it replaces (pure; split out of ``merge``).

"I left Quayside Press in August and I'm teaching now" replaces the employer: the memory's value is what
holds now ("I'm teaching now"), while its text keeps the user's whole sentence.
"""

from __future__ import annotations

import re

from ._brands import brand_sorts
from .merge import (
    _AWAY,
    _CHANGE,
    _CLAUSES,
    _COMES,
    _ENDED,
    Earlier,
    _distinct_words,
    _new_values,
    _sort,
    _values_in,
    _words,
    names_in,
)
from .taxonomy import STOPWORDS, KeyFamily

__all__ = ["about_replaced", "changed_thing", "denied", "drop_other_reason", "drop_replaced", "ended_clauses", "ends_only", "names_past_subject",
           "tells_how_it_ended"]

# what the new value is not: "..., not Maggie" ending the sentence, or "instead of"/"rather than" X up to the clause's
# end ("... since August rather than sitting on the 86 bus, and I ...")
_CONTRAST = re.compile(r"\s*,?\s*\b(?:(?:instead of|rather than)\s+(?:the |my |a |an )?(?P<w>[^,.;!?]+?)(?=\s*(?:[,.;!?]|$))|"
                       r"(?:(?<=, )|(?<=,))not\s+(?P<n>(?-i:[A-Z])[\w'\-]+(?: (?-i:[A-Z])[\w'\-]+)?)(?=\s*,)|"
                       r"not\s+(?:the |my |a |an )?(?P<v>[^,.;]+?)(?:\s+[\u2014\u2013-]\s+[^.;]*)?[.!]?$)", re.I)
# a clause giving why the old value went ("..., wasn't using the classes and premium was £45", "... cos X kept
# freezing my card"): when it names the old value, it is no part of what holds now
_REASON = re.compile(r"^(?:(?:and|but|so)\s+)?(?:because|cos|coz|cuz|'cause|wasn'?t|weren'?t|didn'?t|don'?t|never|"
                     r"hardly|barely)\b", re.I)
_FROM_TO = re.compile(r"\bfrom\s+(?:the |my |a |an )?[^,.;]+?\s+to\b", re.I)
_SUBJECT = re.compile(r"\b(?:i|i'm|i've|we|we're|we've|my|our|it's|is|are)\b|"
                      r"\b(?:put|moved|switched|transferred|booked|rebooked) (?:me|us)\b|"
                      r"\b(?:the|his|her|their) \w+ (?:go|goes|see|sees|use|uses|attend|attends|has|have)\b", re.I)
_SWAP = re.compile(r"\b(traded|swapped|exchanged|replaced)\s+(?:in\s+)?(?:the |my |our |a |an )?[^,.;]+?\s+(?:in\s+)?"
                   r"(for|with)\b", re.I)
# "A was replaced with B", "A got swapped for B": the old value is the passive's subject
_PASSIVE_SWAP = re.compile(r"^(?:the |my |our )?([\w'\- ]+?)\s+((?:was|were|has been|have been|got|is being)\s+"
                           r"(?:replaced|swapped|switched|changed|exchanged)\s+(?:with|for|by|to))\b", re.I)
# "left A for B", "dropped A for B": the old value is what was left, the new one what it was left for
# "X poached me from A in May", "lured us away from A": who the user was taken from is the old value
_TAKEN_FROM = re.compile(r"\b((?:me|us))\s+(?:away\s+)?from\s+(?:the |my |our )?([\w'&\- ]+?)"
                         r"(?=\s+(?:in|on|at|last|this|after|before|when|back|for)\b|\s*[,.;]|\s*$)", re.I)
# "moved the NEST pot across to X", "switched my Leeds booking to X": the old value's name goes, what was moved stays
_MOVED_TO = re.compile(r"\b(moved|transferred|switched|ported|shifted)\s+(?:the |my |our )?([^,.;]+?)\s+"
                       r"(?:across |over )?to\b", re.I)
_LEFT_FOR = re.compile(r"\b(left|dropped|ditched|quit|abandoned)\s+(?:the |my |our )?([^,.;]+?)\s+for\b", re.I)


def _new_words(clause: str, names: set[str]) -> set[str]:
    """The naming words of ``clause`` that are neither the old value's nor words of change ("moved", "dropped")."""
    return {w for w in _distinct_words(clause) - names if not _CHANGE.fullmatch(w) and not _AWAY.fullmatch(w)}


# an answer that is a name alone ("Chowdeck. I moved there when the Gokada work dried up"): the new value
_BARE_NAME = re.compile(r"(?-i:[A-Z][\w&'\-]*)(?: (?-i:[A-Z0-9][\w&'\-]*)){0,3}")


def _without(phrase: str, names: set[str]) -> str:
    """``phrase`` without the words that name the old value ("moved the NEST pot to" -> "moved the pot to")."""
    return " ".join(w for w in phrase.split() if w.lower().strip(".,").removesuffix("'s") not in names
                    or not (w[:1].isupper() or any(ch.isdigit() for ch in w)) or w == phrase.split()[0])


def drop_replaced(value: str, old: Earlier) -> str:
    """A statement's value without the value it replaces: "switched me from A to B" -> "switched me to B",
    "traded the A in for a B" -> "traded it for a B", "I dropped A, I'm studying B now" -> "I'm studying B
    now" (a clause that says what went away goes when a clause with a subject is left)."""
    names = old.names()
    v = _FROM_TO.sub("to", value) if names & _words(" ".join(_FROM_TO.findall(value))) else value
    v = _SWAP.sub(lambda m: f"{m.group(1)} it {m.group(2)}", v)
    v = _PASSIVE_SWAP.sub(lambda m: f"it {m.group(2)}" if _words(m.group(1)) & names else m.group(0), v)
    v = _TAKEN_FROM.sub(lambda m: m.group(1) if _words(m.group(2)) & names else m.group(0), v)
    v = _MOVED_TO.sub(lambda m: _without(m.group(0), names), v)
    v = _LEFT_FOR.sub(lambda m: f"{m.group(1)} it for" if _words(m.group(2)) & names else m.group(0), v)
    parts = [p.strip() for p in _CLAUSES.split(v) if p and p.strip()]
    # a clause that says what went away goes, unless it names something new ("swimming moved to Monday")
    # (when it went is no new value: "I left Acme in June, I'm freelancing now")
    kept = [p for p in parts if not _AWAY.search(p) or (_new_values(p, names) if _ENDED.search(p) else _values_in(p) - names)
            or (_new_words(p, names) and not _words(p) & names)]
    brought = {_sort(v) for p in kept for v in _new_values(p, names)}
    # a clause that changes or brings something names its new value in lower case too ("I've moved to fexofenadine")
    brought |= {_sort(w) for p in kept if (_CHANGE.search(p) or _COMES.search(p)) and not _words(p) & names
                for w in _new_words(p, names)}
    # a clause that only mentions the old value ("Parkway doubled the premium", "the Civic went to my nephew") goes
    # when a clause bringing a new value of that sort is left (a name for a name): a clause naming the item whose
    # number changed ("Sakura cut the scope, it's 15,000 words now") says which item it is
    kept = [p for p in kept if _new_values(p, names)
            or not {_sort(w) for w in {w.removesuffix("'s") for w in _words(p)} & names} & brought]
    # what is left holds now when it has a subject, starts with a verb by which a value comes, or names a new
    # value ("The Pestana by the river, I cancelled the Ibis" answers which hotel)
    if kept and len(kept) < len(parts) and any(_SUBJECT.search(p) or _COMES.match(p) or _new_values(p, names)
                                               or _BARE_NAME.fullmatch(p) for p in kept):
        v = ", ".join(kept)
    parts = [p.strip() for p in _CLAUSES.split(v) if p and p.strip()]
    if len(parts) > 1 and any(_REASON.match(p) and _words(p) & names for p in parts[1:]):
        v = ", ".join([parts[0], *(p for p in parts[1:] if not (_REASON.match(p) and _words(p) & names))])
    m = next((m for m in _CONTRAST.finditer(v) if _words(m.group(0)) & names or (m.group("v") or "")[:1].isupper()
              or m.group("n")), None)
    # what it is not: the value replaced, or any name ("it's Greta these days, not Maggie")
    if m and m.start() > 0:
        v = v[: m.start()] + v[m.end():]
    return v.strip(" ,;") or value


_BECAUSE = re.compile(r"\s+(?:since|because|as|now that|after)\s+(?=(?:i|we|they|he|she|it|my|our|the)\b)", re.I)


def ended_clauses(said: str, names: set[str]) -> bool:
    """Whether every clause of ``said`` says something ended and none brings a value beyond ``names`` (a bare
    name before "and I" is no clause of its own: "Jo and I split up")."""
    # "I'm fully remote now since they closed the office": a clause of cause is a clause of its own
    parts = [p for c in _CLAUSES.split(said) if c for p in _BECAUSE.split(c) if p and len(p.split()) > 2]
    # ("The Corsa failed its MOT, so that was the end of it": a last clause that it was the end ends it)
    return bool(parts) and (all(_ENDED.search(p) for p in parts) or bool(re.fullmatch(
        r"(?:so )?(?:that|it) (?:was|is) the end of (?:it|her|him|that)\W*", parts[-1], re.I))) and not _new_values(said, names)


# an ending that leaves the user in a state of their own is that state's value ("I'm retired", "we're divorced")
_STATE = re.compile(r"\b(?:retired|divorced|widowed|separated|unemployed|sober|single)\b", re.I)


def ends_only(said: str, old: Earlier, fam: KeyFamily) -> bool:
    """Whether ``said`` only says that ``old`` ended ("Marta and I split up in May", "I cancelled the gym"): it
    names ``old``, every clause says something ended, none brings a value of its own or a state of the user's."""
    names = old.names()
    return bool(names_in(old, fam, said)) and ended_clauses(said, names) \
        and not _STATE.search(said)


def names_past_subject(said: str, old: Earlier, fam: KeyFamily) -> bool:
    """Whether ``said`` names ``old``'s value other than by the first word of its clauses (its subject)."""
    leads = {(re.findall(r"[\w']+", p)[:1] or [""])[0].lower().removesuffix("'s") for p in re.split(r"[,;.]|\band\b", said)}
    return bool(names_in(old, fam, said) - leads)


_DENIES = re.compile(r"\b(?:not|instead of|rather than|no longer)\s+([^,;.]+)", re.I)


def denied(said: str) -> set[str]:
    """The words ``said`` denies ("15 July, not 30 June" -> {"30", "june"})."""
    return {w.lower().strip(".,") for m in _DENIES.finditer(said) for w in m.group(1).split()}


def tells_how_it_ended(said: str, old: Earlier, new_value: str) -> bool:
    """Whether ``said`` only tells how ``old`` ended, beside the change to ``new_value`` that replaced it in the same
    turn ("It's Admiral now. I didn't renew with Direct Line because Admiral's quote was better", "... NEST account's
    closed"): a clause names ``old`` and says it ended, and nothing names a value beyond the two."""
    names = old.names()
    parts = [p for c in _CLAUSES.split(said) if c for p in _BECAUSE.split(c) if p]
    known = names | _distinct_words(new_value) | _words(new_value)
    return any(_words(p) & names and _ENDED.search(p) for p in parts) \
        and not {v.removesuffix("'s") for v in _new_values(said, known)} - known


# a sentence that says the old value still holds in part ("X still covers the van until May")
_STILL = re.compile(r"\b(?:still|as well|too|also)\b", re.I)


def about_replaced(said: str, old: Earlier, new_value: str) -> bool:
    """Whether ``said`` speaks only of ``old``, which a change of the same call replaced by ``new_value``: it names
    the old value, names no value beyond the two, says no change itself and does not say the old one still holds
    ("Call me Joanna from now on. Jojo sounds like a teenager", "Switched to Virgin Active. PureGym never had free
    towels"). Such a sentence is the user's view of what went, no current memory: its turn keeps it."""
    names = old.names()
    if not _words(said) & names or _STILL.search(said) or _CHANGE.search(said) or _FROM_TO.search(said):
        return False
    known = names | _distinct_words(new_value) | _words(new_value)
    # a capitalised word anywhere (a sentence's first word too: "Square at the truck, Shopify online"), an address
    # or a figure the old value lacks is a value beyond the two ("It should be x@y.com")
    beyond = {w.lower().removesuffix("'s") for w in _CAPITAL.findall(said)} - STOPWORDS - known
    return not beyond and not any(t not in old.value for t in _SHAPED.findall(said)) \
        and not {v.removesuffix("'s") for v in _new_values(said, known)} - known


_CAPITAL = re.compile(r"(?-i:\b[A-Z][\w'\-]+)")
_SHAPED = re.compile(r"\S*[@\d]\S*")
_THING = re.compile(r"[a-z][a-z\-]{4,}|(?-i:[A-Z])[\w\-]{2,}", re.I)


def changed_thing(new_value: str, old: Earlier) -> str:
    """What a change that gives only a new number leaves unnamed ("GP bumped me up to 100mg last week" after "I've been
    on sertraline 50mg"): the old value's naming words the new one lacks, when it names none of them and brings a
    number; empty otherwise."""
    if not any(ch.isdigit() for ch in new_value):
        return ""
    words = _words(new_value)
    things = [w for w in dict.fromkeys(t.lower() for t in _THING.findall(old.value))
              if w in old.names() and not any(ch.isdigit() for ch in w) and _sort(w) not in ("month", "weekday")]
    if not things or any(w in words for w in things):
        return ""
    return " ".join(things[:3])


_CAUSE = re.compile(r"\s*,?\s+(?:cos|coz|cuz|because|'cause|since)\s+", re.I)


def drop_other_reason(value: str) -> str:
    """``value`` without a reason that names another provider of the sort it names ("Monzo, moved everything over in
    April cos Barclays kept freezing my card" -> "Monzo, moved everything over in April"): the reason is why the
    other one went, no part of what holds now."""
    first, *rest = _CAUSE.split(value, maxsplit=1)
    if not rest:
        return value
    # read as mid-sentence: an answer's "Starling" and a reason's "Admiral" are names
    mine, theirs = brand_sorts(f"with {first}"), brand_sorts(f"because {rest[0]}")
    return first.rstrip(" ,") if mine & theirs else value
