"""Which changes outdate the turns an old value was said in, and which of its words the context then hides (pure).

A supersede decided by meaning ("a change most alike an earlier statement") is sometimes wrong: "Ben wants me
to join his choir" can retire "my physio wants me to stretch every morning". A turn marked outdated by such a
pair would wear a false flag, and hiding its words would hide a real fact. So a pair marks turns only on evidence in the new statement
that it speaks of the old one's thing:

- it denies a phrase of the old value ("…, not 7:40", "from Brookside to …"), or
- it ends a thing the old value names ("we sold the van", "I closed the loan"), or
- it shares a word that names the thing (a name, a longer noun; not a month, a weekday, a word of change or a
  common verb) and, when it says nothing of change, that word is a name (a bare "the wedding" is too weak).

Only a denied phrase, or the figures and names of a thing that ended, are hidden in the context: the new statement
says exactly what they were replaced by (or that they are over). A plain change of value keeps its old words in the
turn next to the flag "outdated, now: NEW".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ._value_words import _values_in
from .merge import _distinct_words, changes
from .taxonomy import STOPWORDS

__all__ = ["HIDDEN", "RETRACTED", "Outdating", "about_ended", "ends_in", "hide_former", "hide_in", "outdating", "said_in", "states_already",
           "without_denials"]

HIDDEN = "[outdated]"
RETRACTED = "[retracted]"  # what a memory the user rejected said, hidden in its turns

_MONTHS = frozenset(["january", "february", "march", "april", "may", "june", "july", "august", "september",
                     "october", "november", "december"])
_DAYS = frozenset(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
# verbs that say what someone wants or does with anything at all: sharing one says nothing of a shared thing
_WEAK = frozenset(["want", "wants", "wanted", "need", "needs", "going", "think", "know", "says", "said", "tell",
                   "told", "make", "makes", "keep", "keeps", "give", "gave", "take", "takes", "took", "come",
                   "came", "look", "looks", "there", "their", "about", "after", "before", "other", "only", "which",
                   "would", "could", "should", "thanks", "maybe", "right", "quite", "every", "still", "since",
                   # function words the tokenizer's stop list leaves to the ranker
                   "where", "when", "what", "while", "with", "from", "have", "been", "were", "will", "your", "they",
                   "them", "then", "than", "there", "here", "some", "into", "even", "ever", "also", "just", "like",
                   "okay", "sure", "good", "well", "much", "many", "each", "both", "same", "such", "very", "would"])
_WORD = re.compile(r"[A-Za-zÀ-ÿ][\w'\-]*")
# what the new statement says is no longer so: "not X", "instead of X", "from X to Y" (X up to a clause's end)
_DENIAL = re.compile(r"\b(?:not|instead of|rather than|no longer|before that it was)\s+(?P<p>(?:\d+(?:[.,]\d+)*%?|\b(?:Dr|Mr|Mrs|Ms|St|Prof)\.|[^,;.!?\d])+?)"
                     r"(?=\s*(?:[,;.!?]|\bbut\b|\band\b|$))|\bfrom\s+(?P<f>[^,;.!?]+?)\s+to\b", re.I)
# someone else buying the user's thing ends it as much as the user selling it ("Henrik bought the caravan")
_ENDED = re.compile(r"(?:(?-i:\b(?!(?:I|We)\b)[A-Z][\w\-]+)\s+bought|\b(?:sold|closed|cancell?ed|quit|ended|paid off|"
                    r"gave up|stopped|finished|terminated|got rid of|gave away|returned|shut down|no longer have|left))\s+"
                    r"(?:the|my|our|his|her|that|this)?\s*(?P<obj>[\w'\-]+(?:\s+[\w'\-]+){0,3})", re.I)
_OBJ_END = frozenset(["to", "for", "at", "in", "on", "with", "because", "and", "but", "so", "after", "since", "last",
                      "this", "yesterday", "today", "from", "of", "off", "when", "while", "as", "before", "once"])
_MAX_PHRASE_WORDS = 5
_ALREADY_SHARE = 0.6  # of the new value's content words a turn holds when it says the new value itself
# a shorter value ("Porto", "vegetarian") is a word any turn may name in passing ("my sister is in Porto")
_ALREADY_MIN_WORDS = 3


@dataclass(frozen=True)
class Outdating:
    """What a change does to the turns of the old value: mark them (or not), and the phrases the context hides."""

    marks: bool
    hide: tuple[str, ...] = ()
    denied: tuple[str, ...] = ()  # the phrases the new statement denies, which its own text need not repeat
    ended: tuple[str, ...] = ()  # the things it says are over ("sold the van" -> "van")


def said_in(turn: str, value: str) -> str:
    """The sentence(s) of ``turn`` around ``value``: the whole statement a trimmed value was cut from (its
    "…, not 20 January" is where the denial is); the whole turn when it does not hold ``value`` word for word
    (a rule's value in its own words: "it's Dr. B, not Dr. A" -> "My doctor is Dr. B")."""
    flat, low = _flat(turn), _flat(value).strip(" .")
    at = flat.lower().find(low.lower()) if low else -1
    if at < 0:
        return flat or value
    start = max((m.end() for m in _STOP.finditer(flat, 0, at)), default=0)
    end = next((m.start() + 1 for m in _STOP.finditer(flat, at + len(low))), len(flat))
    return flat[start:end].strip()


def _flat(text: str) -> str:
    return " ".join(text.replace("\u2019", "'").replace("\u2018", "'").split())


_STOP = re.compile(r"[.!?](?:\s+|$)")


def _words(text: str) -> set[str]:
    return {w.lower().strip("'").removesuffix("'s") for w in _WORD.findall(text)}


def _anchors(old: str, said: str) -> tuple[set[str], set[str]]:
    """Words naming a thing that both statements hold, and those of them that are names in ``old``."""
    shared = {w.removesuffix("'s") for w in _distinct_words(old)} & {w.removesuffix("'s") for w in
                                                                    _distinct_words(said)}
    shared |= {w for w in _words(old) & _words(said) if len(w) >= 4}
    shared = {w for w in shared if w not in STOPWORDS and w not in _WEAK and w not in _MONTHS and w not in _DAYS
              and not any(ch.isdigit() for ch in w) and not changes(w) and "'" not in w}
    # a capitalised first word is a name when the new statement capitalises it too ("Tomas's lesson ...")
    capital = {w.lower().removesuffix("'s") for w in _WORD.findall(said) if w[0].isupper()}
    first = _WORD.findall(old)[:1]
    names = ({v.removesuffix("'s") for v in _values_in(old)}
             | {w.lower().removesuffix("'s") for w in first if w[0].isupper()} & capital) & shared
    return shared, names


def _denied(old: str, said: str) -> list[str]:
    low = old.lower()
    out = []
    for m in _DENIAL.finditer(said):
        phrase = (m.group("p") or m.group("f") or "").strip()
        phrase = re.sub(r"^(?:the|a|an|my|our)\s+", "", phrase, flags=re.I)
        # the old value denying the same phrase ("the gym is not cheap") is not what the new one replaces
        if phrase and len(phrase.split()) <= _MAX_PHRASE_WORDS and re.search(_bounded(phrase), low) \
                and not re.search(r"\bnot\s+" + re.escape(phrase.lower()), low):
            out.append(phrase)
    return out


def _ended(old: str, said: str) -> list[str]:
    """The words of each thing of ``old`` that ``said`` ends ("we sold the van" -> ["van"])."""
    owords = _words(old)
    out = []
    for m in _ENDED.finditer(said):
        obj = []
        for w in m.group("obj").split():
            if w.lower() in _OBJ_END:
                break
            obj.append(w.lower().strip("'.,").removesuffix("'s"))
        content = [w for w in obj if w not in STOPWORDS and len(w) >= 3]
        if content and all(w in owords for w in content):
            out.append(" ".join(content))
    return out


def ends_in(old: str, said: str) -> list[str]:
    """The things of ``old`` that ``said`` says are over and nothing more: "I left the Harbour Choir when I
    moved" -> ["harbour choir"]; "I left Acme and joined Brightside" names a new value beside the ending, so
    [] (it is a change, not only an end)."""
    ended = _ended(old, said)
    if not ended:
        return []
    # what is left once the ending and its "when/after/because ..." are taken out must name no value of its own
    rest = _ENDED.sub(" ", _SUBORDINATE.sub(" ", said))
    words = _WORD.findall(rest)
    named = [w for i, w in enumerate(words) if i > 0 and w[0].isupper() and w.lower() not in _MONTHS | _DAYS]
    return [] if named or re.search(r"\d", rest) else ended


_SUBORDINATE = re.compile(r"\b(?:when|after|because|since|as|before|once|while)\b[^.;!?]*", re.I)


def about_ended(text: str, things: tuple[str, ...] | list[str], said: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The spans of ``text`` about things that ended, and the figures and names in them that ``said`` does not
    repeat.

    A span runs from a clause naming a thing over the clauses after it that neither start on a subject of their
    own nor name another thing ("…, and the car loan is 250 a month, 9 payments left" keeps "9 payments left";
    "…, the Fiat's in May" is about the Fiat). No spans when no clause names one.
    """
    spans: list[tuple[int, int]] = []
    inside = False
    at = 0
    for sep in [*_CLAUSE.finditer(text), None]:
        stop = sep.start() if sep is not None else len(text)
        clause = text[at:stop]
        if clause.strip():
            words = _words(clause)
            if any(all(w in words for w in t.split()) for t in things):
                if not inside:
                    spans.append((at, stop))
                inside = True
            elif _SUBJECT.match(clause.strip()) or _other_name(clause, things):
                inside = False
            if inside:
                spans[-1] = (spans[-1][0], stop)
        if sep is not None:
            at = sep.end()
    parts = tuple(text[i:j] for i, j in spans)
    said_low = said.lower()
    named = " ".join(things).split()
    joined = " , ".join(parts)
    gone = {v.rstrip(".,:").removesuffix("'s") for p in parts for v in _values_in(" x " + p)} \
        | set(re.findall(r"(?<!\w)\d[\d.,:%]*\d|(?<!\w)\d", joined))
    return parts, tuple(sorted(v for v in gone if v and v not in STOPWORDS and v not in _WEAK and v not in named
                               and not re.search(_bounded(v), said_low)))


def _other_name(clause: str, things: tuple[str, ...] | list[str]) -> bool:
    """Whether a clause names someone or something else by a proper name ("my son Luca's Trek"); a code
    ("plate YHF 208") or a month is no other thing."""
    named = {w for t in things for w in t.split()}
    words = _WORD.findall(clause)
    # after a preposition a name only says where or from whom ("a quote from Holm Marine" is the boat's quote)
    return any(w.lower().removesuffix("'s") not in named and w.lower() not in _MONTHS and w.lower() not in _DAYS
               and words[i - 1].lower() not in _OBJ_END and not words[i - 1][0].isupper()  # a name's later words
               for i, w in enumerate(words) if i > 0 and re.fullmatch(r"[A-Z][a-z][\w\-]*(?:'s)?", w))


_CLAUSE = re.compile(r"[,;:]\s+|\s+(?:and|but|while)\s+|(?<=[.!?])\s+")
# a clause that starts on a subject of its own: a name or a possessive ("the Fiat's in May", "Luca rides it")
_SUBJECT = re.compile(r"(?:(?:[Tt]he|[Mm]y|[Oo]ur|[Hh]is|[Hh]er)\s+)?[A-Z][a-z][\w\-]*(?:'s)?\b|(?:we|he|she|they)\b")


def outdating(old_value: str, new_value: str, said: str, *, structured: bool) -> Outdating:
    """Whether replacing ``old_value`` by ``new_value`` (said as ``said``) outdates the old value's turns.

    ``structured``: the new value was parsed by a rule into the old one's slot (a diet, a task closed, a
    correction), which needs no more evidence than the rule's. A statement filed by meaning needs the evidence
    the module docstring lists.
    """
    said = said or new_value
    denied = _denied(old_value, said)
    said_low = said.lower()
    if denied:
        # a denied phrase the statement also states as current is still so ("Dr. Lind sees the cat, not Dr. Okafor;
        # Dr. Okafor sees the dog"): the turn keeps it
        kept = _DENIAL.sub(" ", said).lower()
        return Outdating(True, tuple(p for p in denied if not re.search(_bounded(p), kept)), tuple(denied))
    ended = _ended(old_value, said)
    if ended:
        return Outdating(True, about_ended(old_value, ended, said)[1], ended=tuple(ended))
    if structured:
        return Outdating(old_value.lower() not in said_low)
    shared, names = _anchors(old_value, said)
    numbers = set(re.findall(r"\d[\d.,:%]*\d|\d", old_value)) - set(re.findall(r"\d[\d.,:%]*\d|\d", said))
    if not shared or not ({w.removesuffix("'s") for w in _distinct_words(old_value)} - _words(said) | numbers):
        return Outdating(False)  # nothing in common, or nothing of the old value is gone
    return Outdating(bool(names) or changes(said))


def states_already(text: str, new_value: str) -> bool:
    """Whether ``text`` already says ``new_value``: it holds most of its content words and every figure of it.

    A flag "outdated, now: B" on such a turn is false, whatever the pair that wrote it (a correction filed on
    the turn that made it: "Sorry, the kiln is fired on Thursdays, not Tuesdays" marked as replaced by "The kiln
    is fired on Thursdays, not Tuesdays"): it would tell the reader the turn is out of date when it is where the
    current value is.
    """
    content = {w for w in _words(new_value) if len(w) >= 3 and w not in STOPWORDS and w not in _WEAK}
    figures = set(re.findall(r"\d[\d.,:%]*\d|\d", new_value))
    if len(content) < _ALREADY_MIN_WORDS:
        return False
    have = _words(text)
    return (len(content & have) >= _ALREADY_SHARE * len(content)
            and all(re.search(r"(?<![\d.,])" + re.escape(f) + r"(?![\d]|[.,:]\d)", text) for f in figures))


def _bounded(phrase: str) -> str:
    return r"(?<![\w.,])" + re.escape(phrase.lower()) + r"(?![\w/]|[.,:]\d)"


def hide_in(text: str, phrases: tuple[str, ...] | list[str], *, within: str | list[str] | None = None,
            marker: str = HIDDEN) -> str:
    """``text`` with each phrase replaced by ``marker``; only inside the ``within`` spans found in the text
    (anywhere when none is)."""
    if not phrases:
        return text
    spans = [within] if isinstance(within, str) else list(within or [])
    found = [(at, at + len(w)) for w in spans if w and (at := text.find(w)) >= 0]
    if not found:
        found = [(0, len(text))]
    out, last = [], 0
    for start, end in sorted(found):
        if start < last:
            continue
        part = text[start:end]
        for p in sorted(phrases, key=len, reverse=True):
            part = re.sub(_bounded(p), marker, part, flags=re.I)
        part = re.sub(re.escape(marker) + r"(?:[\s,]+" + re.escape(marker) + r")+", marker, part)
        out.extend([text[last:start], part])
        last = end
    out.append(text[last:])
    return "".join(out)


# the user names the value the one they just stated replaced: "…, before that it was aspirin", "…, it used to be 40"
_FORMER = re.compile(
    r"(?P<lead>[,;]\s*(?:and\s+)?(?:before that|before then|previously|until then|formerly|prior to that)\s*,?\s*"
    r"(?:it|that|this|they)\s+(?:was|were|had been|used to be)\s+|[,;]\s*(?:it|that|they)\s+used to be\s+)"
    r"(?P<v>(?:\d+(?:[.,]\d+)*%?|\b(?:Dr|Mr|Mrs|Ms|St|Prof)\.|[^,;.!?\d])+?)(?=\s*(?:[,;.!?]|\bbut\b|\band\b|$))",
    re.I)


def hide_former(text: str) -> str:
    """``text`` with the former values it names in passing hidden ("I take X since May, before that it was
    [outdated]"): the sentence says itself that the value is no longer so, and a reader skimming the turn would
    take the named value as the user's. The current value stays; the old one is left to history."""
    return _FORMER.sub(lambda m: m.group("lead") + HIDDEN, text)


def without_denials(text: str, phrases: tuple[str, ...] | list[str]) -> str:
    """``text`` without the clauses that only deny one of ``phrases`` ("Santiago, not Lima." -> "Santiago.")."""
    out = text
    for p in phrases:
        out = re.sub(r"[,;]?\s*\b(?:not|instead of|rather than|no longer)\s+(?:the\s+|a\s+|an\s+)?" + re.escape(p)
                     + r"(?![\w])", "", out, flags=re.I)
        out = re.sub(r"\bfrom\s+(?:the\s+|a\s+|an\s+)?" + re.escape(p) + r"\s+(?=to\b)", "", out, flags=re.I)
    return out
