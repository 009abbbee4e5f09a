"""Gathering the inputs of "same attribute" for one ``remember`` call (the decision is ``merge.attribute_slot``).

For each candidate this finds its key family (from its key; for a statement no rule keyed, the
family whose example statements are nearest in meaning, values masked), the user's active memories
of that family and how alike each is to the candidate, and asks the pure policy which slot the
candidate goes to. One embedding call per ``remember`` covers the candidates and the earlier
memories; the families' example vectors are computed once per embedder.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np

from ._brands import brand_sorts, brands_in
from ._change_words import event_only, one_off, only_onset
from ._cues import BRAND_FAMILIES, MONEY_FAMILIES, SAID_OF_ME, SUM, SUM_FAMILIES, WENT
from ._earlier_search import WANTS_BACK, EarlierSearch, kin_kept
from ._echoed import corrected, echo_of
from ._named_back import denied_still, named_back
from ._prototypes import NO_STATEMENTS as _NO_STATEMENTS
from ._prototypes import prototypes as _prototypes
from ._prototypes import unit as _unit
from ._replaced import (
    about_replaced,
    changed_thing,
    drop_other_reason,
    drop_replaced,
    ends_only,
    tells_how_it_ended,
)
from ._successor import role_of, successor, went_away
from ._value_types import (
    FAMILY_SORTS,
    asked_of_another,
    asked_which,
    change_frame,
    lacks_shape,
    shaped_family,
    sorts_of,
)
from .embeddings import Embedder
from .embeddings._deferred import DeferredVectors
from .extraction._statements import STATEMENT_KEY, mask_values, masks_a_value
from .keys import slot_of
from .merge import (
    ABOUT_HELD_PERSON,
    Earlier,
    adds,
    attribute_slot,
    changes,
    names_in,
    new_family_key,
    normalize_value,
)
from .models import Candidate, MemoryKind, MemoryRecord
from .taxonomy import (
    KeyFamily,
    content_words,
    family_by_name,
    family_of,
    normalize_key,
    slot_key,
)

__all__ = ["AttributeIndex", "Placement"]

# the sorts a sentence names by a noun for them ("gym", "... Fitness", "Primary", "bank"), not by a frame
_NOUN_SORTS = frozenset(["gym", "school", "bank", "vehicle", "commute", "shift"])
_DOSE = re.compile(r"\b\d+(?:\.\d+)?\s?(?:mg|mcg|µg|ml|iu)\b", re.I)
_CORRECTS_WITHIN = 3600.0  # seconds: a correction with no attribute of its own corrects the last statement
_NOTE = family_by_name("note")
_FINANCE = family_by_name("finance")


def _about(c: Candidate | MemoryRecord) -> str:
    # a rule's memory is compared by the user's sentence it was read from, not by its template ("User works as X")
    return str(c.metadata.get("about") or mask_values(str(c.metadata.get("said") or c.text)))


def _said(c: Candidate | MemoryRecord) -> str:
    return str(c.metadata.get("said") or c.value)


def _note_key(value: str) -> str:
    """A note's own slot: its naming words and a digest of the words, so two notes never share a slot by
    accident (one replaces another only when the write path says so)."""
    digest = hashlib.sha256(normalize_value(value).encode()).hexdigest()[:6]
    return normalize_key(f"{new_family_key(_NOTE, value)}.{digest}")


def _unread(c: Candidate, family: Callable[[str], KeyFamily | None]) -> bool:
    """Whether ``AttributeIndex.place`` decides ``c`` without reading its vector (mirrors its first returns)."""
    if c.closes or c.kind in (MemoryKind.EPISODE, MemoryKind.OPEN_LOOP):
        return True
    if c.key == STATEMENT_KEY and bool(c.metadata.get("statement")):
        return False
    fam = family(c.key)
    return fam is None or _rarely_read(fam)


def _rarely_read(fam: KeyFamily | None) -> bool:
    # no search over earlier memories looks at these families (``_NO_STATEMENTS``, ``_alike_elsewhere``)
    return fam is not None and fam.name in ("task", "procedure")


@dataclass
class Placement:
    candidate: Candidate | None  # None: not stored
    reason: str = ""


class AttributeIndex(EarlierSearch):
    """The user's active memories by family, with vectors, for the candidates of one call."""

    def __init__(self, embedder: Embedder, records: Sequence[MemoryRecord], candidates: Sequence[Candidate], *,
                 min_family_score: float, min_similarity: float, min_cross_similarity: float = 0.6,
                 same_attribute_similarity: float = 0.5, min_change_family_score: float = 0.35,
                 restatement_similarity: float = 0.8, strong_family_score: float = 0.6,
                 same_topic_similarity: float = 2.0,
                 sorted_change_similarity: float = 0.2) -> None:
        self.embedder = embedder
        self.sorted_change_similarity = sorted_change_similarity
        self.strong_family_score = strong_family_score
        self.restatement_similarity = restatement_similarity
        self.min_change_family_score = min_change_family_score
        self.same_attribute_similarity = same_attribute_similarity
        self.same_topic_similarity = same_topic_similarity
        self.min_cross_similarity = min_cross_similarity
        self.ruled: set[tuple[str, str]] = set()  # (message id, family) a rule candidate of this call covers
        self.added: set[str] = set()  # ids of the records this call stored
        self.retired: list[tuple[MemoryRecord, str]] = []  # (record, the value that replaced it) in this call
        self.min_family_score = min_family_score
        self.min_similarity = min_similarity
        # asked for every earlier memory of each candidate: looked up once per key for this call (not kept
        # process-wide: keys hold words of what the user said, which a forget must not leave behind)
        self._family_of = functools.lru_cache(maxsize=None)(family_of)
        # newest first, ties by content: one call's memories share created_at, and their random ids must not
        # decide which of two equally alike memories a change replaces (replays filed it differently)
        self.candidates = list(candidates)
        self.records = sorted((r for r in records
                               if r.kind != MemoryKind.EPISODE and self._family_of(r.key) is not None),
                              key=lambda r: (r.created_at, r.event_time, r.key, r.value, r.text), reverse=True)
        # a candidate ``place`` answers before it reads any vector (an episode, an open loop, a close, a task or a
        # procedure rule) is embedded only if a later decision reads the memory it became: in the bench none
        # does, a third of the masked statements a call sent to the model at 1k memories
        read = [c for c in candidates if not _unread(c, self._family_of)]
        # likewise an earlier task or procedure: only a correction of it (the user's latest memory) reads it
        held = [r for r in self.records if _rarely_read(self._family_of(r.key))]
        kept = [r for r in self.records if not _rarely_read(self._family_of(r.key))]
        texts = [_about(c) for c in read] + [_about(r) for r in kept]
        vecs = _unit(embedder.embed(texts)) if texts else np.zeros((0, 1), np.float32)
        self.cand_vec = DeferredVectors(embedder, {id(c): vecs[i] for i, c in enumerate(read)})
        for c in candidates:
            if id(c) not in self.cand_vec:
                self.cand_vec.defer(id(c), _about(c))
        self.rec_vec = DeferredVectors(embedder, {r.id: vecs[len(read) + i] for i, r in enumerate(kept)})
        for r in held:
            self.rec_vec.defer(r.id, _about(r))
        # the user's own words, values kept: read only for a change no other decision placed (``_same_topic``)
        self.raw_vec = DeferredVectors(embedder, {})
        for r in kept:
            self.raw_vec.defer(r.id, _said(r))
        for c in read:
            self.raw_vec.defer(id(c), _said(c))

    def _family(self, c: Candidate) -> tuple[KeyFamily | None, float]:
        """The nearest family: its examples, or the user's own earlier statements of it (values masked)."""
        fams, owner, protos = _prototypes(self.embedder)
        vec = self.cand_vec[id(c)]
        # a family whose values have a shape the statement lacks is not its family, however alike it reads
        shapeless = {i for i, f in enumerate(fams) if lacks_shape(f.name, c.value)}
        sims = np.where(np.isin(owner, list(shapeless)), -1.0, protos @ vec)
        best = int(np.argmax(sims))
        fam, score = fams[int(owner[best])], float(sims[best])
        asked = asked_which(c.keywords) if c.keywords and not c.metadata.get("other_subject") else None
        named = next((i for i, f in enumerate(fams) if f.name == asked and i not in shapeless), None) \
            if asked else None
        if named is not None and shaped_family(c.value) is None:
            # the answer to "Which bank are you with at the moment?" is the bank, however the answer reads
            return fams[named], max(self.min_family_score, float(sims[owner == named].max()))
        shaped = shaped_family(c.value)
        if shaped is not None and not c.metadata.get("other_subject"):
            # an email address in the user's sentence is their email, however the rest of it reads
            fam = next(f for f in fams if f.name == shaped)
            score = max(self.strong_family_score, float(sims[owner == fams.index(fam)].max()))
            return fam, score
        brand = BRAND_FAMILIES.get(next(iter(kinds))) if len(kinds := brand_sorts(c.value)) == 1 else None
        if brand is not None and fam.name != brand and not c.metadata.get("other_subject"):
            # a well-known provider's name says the family ("Our Octopus bill jumped" read nearest a bank, "First
            # Powershop bill arrived" nearest "I bank with X"): a supplier, a gym, a bank, an insurer
            i = next(i for i, f in enumerate(fams) if f.name == brand)
            if i not in shapeless:
                return fams[i], max(self.min_family_score, float(sims[owner == i].max()))
        if fam.name not in MONEY_FAMILIES and SUM.search(c.value) and not c.metadata.get("other_subject"):
            # a sum of money is a sum's ("My manager agreed to £36k from June" read nearest the manager)
            i = max((i for i, f in enumerate(fams) if f.name in SUM_FAMILIES and i not in shapeless),
                    key=lambda i: float(sims[owner == i].max()))
            fam, score = fams[i], max(score, self.min_family_score, float(sims[owner == i].max()))
        said = FAMILY_SORTS.get(fam.name)
        sorts = sorts_of(c.value)
        # a family of no sort takes a value of a sort named by its noun no more than one of another sort does
        # ("picked up a second-hand Toyota RAV4" read nearest a pet)
        if sorts & _NOUN_SORTS and said not in sorts and (said is not None or fam.name not in ("note",)):
            # the sentence names the sort of another family's values ("I go to Planet Fitness on Atlantic Ave, 5:30am
            # before work" read nearest the employer): that family, when exactly one holds values of that sort
            # (sorts named by a noun of their own: "joined X" frames an employer as often as a gym or a club)
            owners = [i for i, f in enumerate(fams) if FAMILY_SORTS.get(f.name) in sorts & _NOUN_SORTS
                      and i not in shapeless]
            if len(owners) == 1:
                fam = fams[owners[0]]
                score = max(self.min_family_score, float(sims[owner == owners[0]].max()))
        names = {f.name for i, f in enumerate(fams) if i not in shapeless}  # unique; comparing dataclasses was slow
        for r in self.records:
            f = self._family_of(r.key)
            if f is None or f.name not in names or r.id not in self.rec_vec \
                    or (r.id in self.added and set(r.source.message_ids) & set(c.message_ids)):
                continue  # (what a rule read from this very turn is no earlier statement of the user's)
            sim = float(self.rec_vec[r.id] @ vec)
            if sim > score:
                fam, score = f, sim
        return fam, score

    def _statement_family(self, key: str) -> str | None:
        fam = self._family_of(key)
        return fam.name if fam is not None and fam.name not in _NO_STATEMENTS else None

    def _replacing(self, c: Candidate, r: MemoryRecord, sim: float, why: str = "") -> Placement:
        fam = self._family_of(r.key)
        assert fam is not None
        e = Earlier(key=r.key, value=r.value, at=r.event_time, family_key=fam.key, similarity=sim)
        placed = self._placed(c, fam, slot_of(r.key), sim,
                              why or f"a change most alike an earlier statement ({sim:.2f}), values masked", [e])
        if placed.candidate is not None:
            # the memory it replaces may have been said in another domain: the write path retires it there
            placed.candidate.metadata["replaces"] = r.id
        return placed

    def place(self, c: Candidate, said: str = "") -> Placement:
        """Where ``c`` goes; ``said`` is the text of its source turns (what a rule's template leaves out)."""
        statement = c.key == STATEMENT_KEY and bool(c.metadata.get("statement"))
        if c.closes or c.kind in (MemoryKind.EPISODE, MemoryKind.OPEN_LOOP):
            return Placement(c)
        before = [r for r in self.records if r.id not in self.added] if statement else []
        echo = echo_of(c, before, self._statement_family) if statement else None
        if echo is not None:  # "A: ... a 10-year-old ...?" "He's 11 actually": the memory that said 10
            r, e = echo
            if r.metadata.get("statement"):
                return self._replacing(c, r, 0.0, why=f"corrects the {e.old} the question repeated: {e.new}")
            fixed = corrected(c, r, e, self._statement_family(r.key) or "")
            return Placement(fixed, str(fixed.metadata["slot_reason"]))
        ended = next((r for r, new in self.retired if statement and (
            went_away(c.value, r, self._family_of)
            or any(said_of(c.value, self._earlier(r), new) for said_of in (tells_how_it_ended, about_replaced)))), None)
        if ended is not None:
            # "It's Admiral now. I didn't renew with Direct Line ...": the change holds it, and the history the old value
            return Placement(None, f"tells how {ended.value!r}, which this turn replaced, ended")
        back = (named_back(c, before, self._statement_family) or denied_still(c, before, self._statement_family)) \
            if statement else None
        if back is not None:  # "A: Does the Mazda have a roof rack?" "Traded that in, it's a Kia now"
            return self._replacing(c, back, 0.0, why="changes the value the assistant named, pointed back at")
        if statement and c.keywords and asked_of_another(c.keywords):
            # "Which team does your sister lead?" "The design team, since January": theirs, in a note of its own
            return self._placed(c, _NOTE, _note_key(c.value), 0.0, "an answer about another person: its own note", [])
        heir = successor(c.value, before, self._family_of) if statement else None
        if heir is not None:  # "Darnell's gone over to Brampton, the new one is Priya": Priya has the role now
            r, name = heir
            c = c.model_copy(update={"value": name, "text": f"User's {role_of(r)} is now {name}."})
            return self._replacing(c, r, 0.0, why=f"names who has the role {r.value!r} left")
        if statement:
            fam, score = self._family(c)
            latest = max(self.records, key=lambda r: (r.event_time, r.created_at)) if self.records else None
            # a "no" to the assistant's question denies what it asked, not what the user said a turn before
            corrects_latest = c.is_correction and not c.metadata.get("answers_no") and latest is not None \
                and c.timestamp is not None \
                and abs((c.timestamp - latest.event_time).total_seconds()) <= _CORRECTS_WITHIN
            if corrects_latest and latest is not None:
                # "Oops, that's wrong, it's ..." corrects what the user said just before
                fam, score = self._family_of(latest.key), max(score, self.min_family_score)
            if WANTS_BACK.search(c.value) and brands_in(c.value) and not corrects_latest:
                # "PureGym keeps emailing me to come back": a provider the user left, no value of theirs
                return Placement(None, "a provider asking the user back: one they left")
            if (one_off(c.value) or self._names_held(c, fam)) and not corrects_latest:
                # "I posted the parcel on Saturday": an errand; "vegan cheese is awful now": about the value held
                return self._placed(c, _NOTE, _note_key(c.value), score, "a thing done once, or about the one value "
                                    "held: its own note", [])
            # the attribute the sentence names as its subject decides first ("my usual is ..."), the earlier
            # statement most alike in meaning next, then naming a value of it
            subject = None if corrects_latest else self._same_subject(c)
            if subject is None and fam is not None and new_family_key(fam, c.value).endswith("communication.length"):
                # "one-liners please", later "detailed answers w/ the full reasoning": one length, the newer holds
                subject = next((r for r in before if slot_of(r.key) == new_family_key(fam, c.value)), None)
            if subject is not None:
                return self._replacing(c, subject, 0.0, why="names the same attribute as its subject")
            gone = None if corrects_latest else self._ended_thing(c)
            if gone is not None:  # "Sold the City to Spinny": the car, not the note that mentions its insurance
                return self._replacing(c, gone, 0.0, why="says the thing it names went")
            same = None if corrects_latest else self._same_attribute(c)
            if same is not None:
                return self._replacing(c, *same)
            sort = None if corrects_latest else self._same_sort(c)
            if sort is not None:
                return self._replacing(c, *sort, why=f"a change of a value of the same sort ({sort[1]:.2f} alike)")
            swapped = None if corrects_latest else self._other_brand(c)
            if swapped is not None:
                return self._replacing(c, swapped, 0.0, why="names another provider of a sort held one at a time")
            asked = None if corrects_latest else self._asked_now(c)
            if asked is not None:
                return self._replacing(c, *asked, why="the answer to a question of what it is now")
            code = self._same_code(c)  # a correction too: "sorry, TKM88RD" corrects the code of its series
            if code is not None:
                return self._replacing(c, code, 0.0, why="a new code of the same series as an earlier value")
            named = self._named_change(c.value, self.cand_vec.get(id(c)))
            # a change naming no earlier value: the one it is nearest in its own words
            topic = None if corrects_latest or named is not None else self._same_topic(c)
            if topic is not None:
                return self._replacing(c, *topic, why=f"a change of the value it is nearest, values kept "
                                                         f"({topic[1]:.2f} alike)")
            # a change said without "I" ("the new van is a Kia") may also change the value of the family it is
            # nearest, when that family holds one value and the user gave it
            held = bool(c.metadata.get("subjectless")) and fam is not None and not fam.multi \
                and score >= self.min_family_score and any(family_of(r.key) is fam for r in self.records)
            if named is None and c.metadata.get("reported") and not held:
                if SAID_OF_ME.search(c.value) and not c.metadata.get("subjectless"):
                    # "Dr. Osei at Harbour Dental says I grind my teeth": the user's own dentist, in the user's words
                    return self._placed(c, _NOTE, _note_key(c.value), score, "what someone named says of the user: "
                                        "its own note", [])
                return Placement(None, "someone else's words that change nothing the user said before")
            if c.metadata.get("other_subject") and (fam is None or score < self.min_family_score) \
                    and event_only(c.value) and not c.keywords:
                return Placement(None, "an event of someone else's, no attribute of the user's: its turn keeps it")
            if c.metadata.get("other_subject"):
                # "My sister moved to Oslo" is no home city of the user's: the user's words, in a note of its own
                return self._placed(c, _NOTE, _note_key(c.value), score, "about another person: its own note", [])
            sorts = change_frame(c.value)
            if named is None and fam is not None and sorts and fam.name in FAMILY_SORTS \
                    and FAMILY_SORTS[fam.name] not in sorts:
                # "we moved him to X Academy" reads like a move of home, but a school is no home city
                return self._placed(c, _NOTE, _note_key(c.value), score,
                                    f"a change of a {'/'.join(sorted(sorts))}, not of {fam.name}: its own note", [])
            if named is not None:
                # "I quit the orchestra and sold the cello": a change naming an earlier value is about that attribute
                fam, score = named, max(score, self.min_family_score)
            vec: np.ndarray | None = self.cand_vec[id(c)]
            if fam is not None and score >= self.min_change_family_score and not fam.multi and changes(c.value) \
                    and not only_onset(c.value) \
                    and any(self._family_of(r.key) is fam and r.id in self.rec_vec
                            and float(self.rec_vec[r.id] @ vec) >= self.min_change_family_score for r in self.records):
                pass  # a change of a value the user gave: a weaker resemblance is enough ("these days I X instead")
            elif (fam is None or score < self.min_family_score) and c.metadata.get("reason"):
                return Placement(None, "the reason given for a preference of the same sentence, no fact of its own")
            elif (fam is None or score < self.min_family_score) and event_only(c.value) and not c.keywords:
                return Placement(None, "an event the user told, no attribute of theirs: its turn keeps it")
            elif fam is None or score < self.min_family_score:
                # what no family claims stays the user's own words, an attribute of its own that only a change
                # found by meaning replaces (a weak resemblance files nothing under a family)
                return self._placed(c, _NOTE, _note_key(c.value), score,
                                    f"its own note (best family {fam.name if fam else '-'} {score:.2f} < "
                                    f"{self.min_family_score:.2f})", [])
            own_key = _note_key(c.value) if fam is _NOTE else new_family_key(fam, c.value)
            if not fam.multi and not c.is_correction and any(r.id in self.added and self._family_of(r.key) is fam
                                                                for r in self.records):
                # two statements of one call about one single-valued family are two attributes the family
                # lumps together ("my paycheck" / "$5,000 in checking"), not a conflict
                own_key = normalize_key(f"{fam.key}.{slot_key(' '.join(content_words(c.value)[:4]))}")
                return self._placed(c, fam, own_key, score, "a second statement of the family in one call", [])
        else:
            fam, score = self._family_of(c.key), 1.0
            if fam is None or fam.name in ("task", "procedure"):
                return Placement(c)
            own_key = c.key
            if not any(self._family_of(r.key) is fam for r in self.records):
                # a rule's attribute the user never gave before may change another one ("I quit the orchestra
                # and I'm into woodworking now")
                named = self._named_change(said or c.text, self.cand_vec.get(id(c)))
                if named is not None and (named.kind == c.kind or named is _NOTE):
                    fam = named
        vec = self.cand_vec.get(id(c))
        # a statement replaces what the user said before this call, not a value this call just stored
        # (unless it corrects it): one turn's two statements are two facts, not a conflict
        earlier = [Earlier(key=r.key, value=r.value, at=r.event_time, family_key=fam.key,
                           similarity=float(self.rec_vec[r.id] @ vec) if vec is not None else 0.0)
                   for r in self.records if self._family_of(r.key) is fam and r.id in self.rec_vec
                   and not (statement and (r.id in self.added and not c.is_correction or kin_kept(r, c.value)))]
        alike = None
        if not earlier and vec is not None and changes(said or c.value):
            alike = self._alike_elsewhere(vec, fam, said or c.value, bool(c.metadata.get("other_subject")))
        if alike is not None:
            fam = self._family_of(alike.key) or fam
            key: str | None = slot_of(alike.key)
            why = "a change most alike an earlier statement of another attribute"
            earlier = [Earlier(key=alike.key, value=alike.value, at=alike.event_time, family_key=fam.key,
                               similarity=float(self.rec_vec[alike.id] @ vec))]
        elif statement and fam.name == "medication" and len(earlier) == 1 and _DOSE.search(c.value) \
                and not adds(c.value) and not names_in(earlier[0], fam, c.value):
            # a dose said without a medicine's name ("GP put me up to 40mg") is a dose of the one medicine the user takes
            key, why = slot_of(earlier[0].key), "a new dose of the one medicine the user takes"
        else:
            about = _about(c)
            has_value = masks_a_value(about) or any(ch.isdigit() for ch in c.value)
            key, why = attribute_slot(c.value if statement else (said or c.text), fam, own_key, earlier,
                                      statement=statement, has_value=has_value, min_similarity=self.min_similarity,
                                      corrects=c.is_correction)
        if key is None:
            return Placement(None, why)
        if statement and why.startswith(ABOUT_HELD_PERSON):
            # what the user says of their wife or their dentist is the user's words about them, like any other person
            return self._placed(c, _NOTE, _note_key(c.value), score, why, [])
        # an onset alone ("since my surgery I get the 38 bus") changes what the user said of a single-valued attribute
        # in their own words; a value a rule read ("I work at X") only a change the rules read or a change word does
        # ("since the spring I volunteer at Y" is no new employer)
        onset = not fam.multi and only_onset(c.value) and not any(
            slot_of(r.key) == key and not r.metadata.get("statement") for r in self.records if r.id not in self.added)
        if statement and not ((changes(c.value) and (onset or not only_onset(c.value))) or c.is_correction) \
                and score < self.strong_family_score:
            hit = [e for e in earlier if slot_of(e.key) == key]
            if hit and max(e.similarity for e in hit) < self.restatement_similarity \
                    and not any(normalize_value(e.value) == normalize_value(c.value) or ends_only(c.value, e, fam)
                                for e in hit):
                # it says nothing changed and is not a restatement of that value: another thing of the user's
                # world its family happens to resemble ("I still need the wall layout" is no new home city)
                return self._placed(c, _NOTE, _note_key(c.value), score,
                                    f"not a change of {fam.name} (alike {max(e.similarity for e in hit):.2f}): "
                                    "its own note", [])
        return self._placed(c, fam, key, score, why, earlier, statement=statement, ruled=alike is not None)

    def _placed(self, c: Candidate, fam: KeyFamily, key: str, score: float, why: str, earlier: list[Earlier], *,
                statement: bool = True, ruled: bool = False) -> Placement:
        turns = {(mid, fam.name) for mid in c.message_ids}
        if statement and turns & self.ruled:
            if fam is not _FINANCE and (_FINANCE.name not in {f for _, f in turns & self.ruled}) and SUM.search(c.value):
                # "I'm a freelance translator charging 40 EUR per hour": the rules read the occupation, not the sum
                return self._placed(c, _FINANCE, new_family_key(_FINANCE, c.value), score,
                                    f"a sum the rules that read {fam.name} left unread", [])
            # "I work at X now, I left Y in March": the rules read this attribute from the turn already
            return Placement(None, f"the rules already read {fam.name} from this turn")
        if not statement:
            self.ruled |= turns
        elif fam is not _NOTE and fam.multi and any(self._kept_beside(c, r) for r in self.records
                                      if r.id not in self.added and (slot_of(r.key) == key
                                                                     or r.id == c.metadata.get("replaces"))):
            # "The squash court is mine on Wednesdays now. Tennis on Saturdays hasn't changed": one more of several
            # values, not the tennis's new one (of one value, "Still Didcot" beside a new street keeps only the town)
            return self._placed(c, _NOTE, _note_key(c.value), score, "its turn says the value it resembles stays: "
                                "its own note", [])
        meta = {**c.metadata, "family": fam.name, "slot_reason": why}
        kind = fam.kind if statement or ruled else c.kind
        update: dict[str, object] = {"key": key, "kind": kind, "metadata": meta}
        if statement:
            meta["family_score"] = round(score, 3)
            # the user's raw words stay in the domain they were said in: the family is read by meaning, and a whole
            # sentence carries more than its attribute ("at my house in Orlando East the inverter beeps" is a
            # home, and an inverter), so only values a rule parsed may cross domains
            update["transferable"] = False

            replaced = [e for e in earlier if slot_of(e.key) == key]
            update["value"] = drop_other_reason(c.value)
            if replaced:
                latest = max(replaced, key=lambda e: e.at)
                if ends_only(c.value, latest, fam):
                    meta["ends"] = latest.key
                update["value"] = drop_replaced(str(update["value"]), latest)
                if fam.name == "medication" and (thing := changed_thing(c.value, latest)):
                    # a new dose alone would read as a dose of nothing: the text says what it is of
                    update["text"] = f"{c.text.rstrip()} (Of: {thing}.)"
            elif changes(c.value) and not adds(c.value) and (gone := WENT.search(c.value)):
                # "cancelled Netflix ..., we just have Disney+ now" with no memory of Netflix: the value is what holds
                # now, the text keeps the whole sentence
                old = Earlier(key=key, value=gone.group("o"), similarity=0.0, at=c.timestamp or datetime.now(UTC),
                              family_key=fam.key)
                update["value"] = drop_replaced(str(update["value"]), old)
        if kind != MemoryKind.PREFERENCE and "replaces" not in meta:
            # a fact of the user's world has one current value wherever it was said (a preference may differ by
            # domain): the slot's value said in another domain is the one this replaces
            same = [r for r in self.records if slot_of(r.key) == key and r.id not in self.added]
            if same:
                meta["replaces"] = max(same, key=lambda r: (r.event_time, r.created_at)).id
        return Placement(c.model_copy(update=update), why)

    def _earlier(self, r: MemoryRecord) -> Earlier:
        return Earlier(key=r.key, value=r.value, at=r.event_time, similarity=0.0,
                       family_key=getattr(self._family_of(r.key), "key", ""))

    def retire(self, record: MemoryRecord, by: str) -> None:
        """A record this call superseded, and the value that replaced it."""
        self.retired.append((record, by))

    def add(self, record: MemoryRecord, c: Candidate) -> None:
        """A record this call stored: later candidates of the call compare with it too."""
        if id(c) in self.cand_vec and self._family_of(record.key) is not None:
            self.added.add(record.id)
            self.records.append(record)
            self.cand_vec.copy_to(id(c), self.rec_vec, record.id)  # a deferred vector stays deferred
