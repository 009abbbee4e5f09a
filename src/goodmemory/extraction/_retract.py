"""What the user takes back in a turn: "Actually forget the retirement plan, that's no longer true", "Scratch the
garage-sale idea", "Drop the Friday dentist thing".

A retraction names a thing the user told before; it closes the one current memory of theirs that names it (a
task, a plan, a fact), found among the memories of this user and scope that the extraction was given
(``ExtractionContext.existing``), so it can never reach another user's. The memory is ended, not replaced: the
candidate carries ``metadata["ends"]`` and ``closes`` its key, so the write policy stores the retraction as an
expired ending and the old value as history (``merge.decide``), and the old value's turns are marked outdated.

Only an imperative at the start of a clause retracts ("don't forget the milk", "I always forget the code" do
not), and only a thing named by content words that one memory holds: "forget it", "never mind that", "forget the
whole thing" name nothing and retract nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime

from .._key_families import family_of
from ..models import Candidate, MemoryKind, Message

__all__ = ["retracted", "retractions"]

_RETRACT = re.compile(
    r"(?:^|[,.;:!?]\s*|\b(?:and|so|but)\s+)(?:(?:actually|oh|ok(?:ay)?|so|and|also|please|just|wait|sorry|no|hmm|um|"
    r"well|right)\b[\s,]*)*(?P<verb>forget(?: about)?|scratch|scrap|drop|disregard|ignore|strike|delete|remove|"
    r"never\s*mind|cancel)\s+(?:the|my|our|that|this|about the)\s+(?P<thing>[^,.;:!?]{2,60}?)"
    r"(?=\s*(?:[,.;:!?]|$)|\s+(?:that'?s|it'?s|it is|this is|is|isn'?t|was|because|since|as|for now|please|"
    r"altogether|entirely|completely)\b)", re.I)
_STRONG = re.compile(r"forget|scratch|scrap|disregard|never\s*mind", re.I)
_KIND_OF_THING = re.compile(r"\b(?:idea|plan|plans|thing|stuff|business)\b", re.I)
_UNTRUE = re.compile(r"\b(?:no longer (?:true|the case|happening|on)|not (?:true|happening|the case|anymore)|"
                     r"isn'?t (?:true|happening)|anymore|any more|after all|changed my mind|called off|is off)\b", re.I)
# words that say what sort of thing was taken back, not which
_WEAK = frozenset(["idea", "plan", "plans", "thing", "things", "bit", "part", "stuff", "business", "one", "whole",
                   "entire", "other", "old", "about", "the", "my", "our", "of", "for", "with", "to", "a", "an", "and",
                   "in", "on", "at", "whole", "all", "that", "this", "it", "too", "either", "also", "then", "now",
                   "again", "well", "anymore"])
_WORD = re.compile(r"[a-z0-9]+")


def _stem(w: str) -> str:
    return w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w


def _words(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text.lower().replace("_", " ").replace("-", " "))}


def retractions(text: str, existing: Mapping[str, str]) -> list[tuple[str | None, str]]:
    """(key, clause) for each thing ``text`` takes back: the key of the current memory most about it (``existing``
    maps the user's keys to values), None when no memory names it."""
    out: list[tuple[str | None, str]] = []
    for m in _RETRACT.finditer(text):
        named = {w for w in _words(m.group("thing")) if w not in _WEAK and len(w) >= 3}
        if not named:
            continue
        if not _STRONG.match(m.group("verb")) and not _KIND_OF_THING.search(m.group("thing")) \
                and not _UNTRUE.search(_sentence_of(text, m.group(0))):
            continue  # "drop the intro paragraph" edits a draft; "drop the cabin thing" takes something back
        best: tuple[float, str] | None = None
        for key, value in existing.items():
            if key.startswith("episode."):
                continue
            have = _words(f"{key.split('.', 1)[-1]} {value}")
            if not named <= have:
                continue
            score = len(named) / max(len(have), 1)  # the memory most about the named thing, not one naming it too
            if best is None or score > best[0]:
                best = (score, key)
        found = best[1] if best is not None else None
        if found is None or found not in (k for k, _ in out):
            out.append((found, m.group(0)[m.start("verb") - m.start():].strip(" ,.;:!?")))  # from its verb on
    return out


def _sentence_of(text: str, clause: str) -> str:
    flat = " ".join(text.split())
    for s in re.split(r"(?<=[.!?])\s+", flat):
        if clause.lower() in s.lower():
            return s.strip()
    return flat


def retracted(found: list[Candidate], msg: Message, existing: Mapping[str, str], *, timestamp: datetime,
              domain: str | None, earlier: Sequence[Candidate] = ()) -> list[Candidate]:
    """``found`` (what the rules read in ``msg``) with what ``msg`` takes back ending the memory it names: the
    sentence that retracts is no value of its own ("forget the plan, that's no longer true" is no correction
    whose value is that sentence), so what the rules read in it is dropped. ``existing`` maps the user's keys
    to their values (this user's scope only); the keys of ``found`` and of the call's ``earlier`` candidates count
    too (a task opened earlier in the call)."""
    known = {**existing, **{c.key: c.value for c in [*earlier, *found] if not c.metadata.get("statement")}}
    taken, gone = [], []
    for key, clause in retractions(msg.content, known):
        said = _sentence_of(msg.content, clause).rstrip(".!")
        # what the rules read in the retraction itself is dropped, not what the rest of its sentence says: "scrap the
        # bullet points, I'd rather you write proper paragraphs" takes one style back and gives another
        gone.append(clause.lower())
        if key is None:
            if not (_STRONG.search(clause) or _UNTRUE.search(said)):  # "drop the cabin thing": no memory, no claim
                gone.pop()
            continue  # nothing of the user's names it: nothing to end (a plain retraction is still no value)
        if any(c.key == key and c.closes is None and not c.metadata.get("statement") for c in found):
            gone.pop()  # a rule read the sentence as a new value of that memory ("drop the emoji from ..."): it is
            continue
        fam = family_of(key)
        taken.append(Candidate(
            kind=fam.kind if fam is not None else MemoryKind.FACT, key=key, value=said,
            text=f'The user took back: "{said}."', confidence=0.9, importance=0.4, domain=domain,
            message_ids=[msg.id or ""], role="user", timestamp=timestamp, is_correction=True, closes=key,
            extractor="rules", metadata={"rule": "retraction", "ends": key, "retracts": known.get(key, ""),
                                         "said": said},
        ))
    if not gone:
        return found

    def in_retraction(c: Candidate) -> bool:
        own = [str(x).lower().strip(" .") for x in (c.value, c.metadata.get("said")) if x]
        return any(o and (o in g or g in o) for o in own for g in gone)

    return [c for c in found if not in_retraction(c)] + taken
