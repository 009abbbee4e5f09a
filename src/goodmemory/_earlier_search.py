"""Which of the user's earlier memories a statement changes: by the value it names, by meaning with values masked,
by the sort of value, by the question it answers, by its words with the values kept, or in another family.

The searches of :class:`goodmemory._attributes.AttributeIndex`, over the memories and vectors it holds for one
call; each returns the memory replaced (with how alike) or None, and changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from ._brands import brand_sorts, brands_in, held_once
from ._change_words import only_onset
from ._prototypes import NO_STATEMENTS as _NO_STATEMENTS
from ._replaced import denied, names_past_subject
from ._subjects import named_subject
from ._value_types import KEY_SORTS, acts_on_another, asked_now, change_frame, lacks_shape, sorts_of
from .embeddings._deferred import DeferredVectors
from .keys import slot_of
from .merge import _AWAY, _ENDED, _GONE_VERBS, Earlier, adds, changes, names_in, normalize_value
from .models import Candidate, MemoryRecord
from .taxonomy import KeyFamily

__all__ = ["EarlierSearch", "kin_kept"]

# a code of a series: capital letters, then digits, then at most three capitals ("EZY8123", "BA 2490", "HX-20417",
# "TKM88RB"), read as (series, code); the series is the letters and how many digits and capitals follow them
_CODE = re.compile(r"(?<![\w\-])(?-i:([A-Z]{2,4}))[\s\-]?(\d{2,6})((?-i:[A-Z]{0,3}))(?![\w\-])")


# sorts whose values are people the user deals with: a sentence about one of them is still of that sort
_PEOPLE_SORTS = frozenset(["landlord"])


def _codes(text: str) -> set[tuple[tuple[str, int, int], str]]:
    return {((m.group(1), len(m.group(2)), len(m.group(3))), m.group(1) + m.group(2) + m.group(3))
            for m in _CODE.finditer(text)}


# a provider only compared, wished for or planned ("is X better than Y", "thinking of moving to X")
# a provider asking the user back is one the user left ("X keeps emailing me to come back", "trying to win me back")
WANTS_BACK = re.compile(r"\b(?:come back|coming back|rejoin\w*|re-join\w*|win (?:me|us) back|winning (?:me|us) back|"
                         r"miss(?:es)? (?:me|us)|we miss you|switch back|sign (?:me |us )?back up)\b", re.I)
_UNDONE = re.compile(r"\b(?:than|thinking (?:of|about)|considering|might|maybe|should I|could I|if I|if we|"
                     r"plan(?:ning)? to|want to|hoping to|quote|offer|deal)\b", re.I)

# a thing the user says went, by the verb and its object ("sold the City to Spinny", "got rid of my old Brompton")
_ENDED_OBJECT = re.compile(rf"\b(?:{_GONE_VERBS})\s+(?:the|my|our|that|this|old|\s)*(?P<obj>[\w'\-]+(?:\s+(?!(?:to|for|at|"
                           r"in|on|with|because|and|but|so|after|since|last|yesterday|today|from|of|off|when|while|as|"
                           r"before|once|this|that)\b)[\w'\-]+){0,2})", re.I)
_WORD = re.compile(r"[A-Za-z][\w\-]+")
# people whose place in the user's life a change of something else never takes: family and friends
_KIN = frozenset(["husband", "wife", "son", "daughter", "mum", "mom", "mother", "dad", "father", "sister", "brother", "grandson", "granddaughter", "grandchild", "grandma", "grandmother", "grandpa", "grandfather", "niece", "nephew", "aunt", "uncle", "cousin", "twin", "stepson", "stepdaughter", "friend", "neighbour", "neighbor"])
_RELATIVE = re.compile(r",?\s+(?:which|who)\s+[^,;.]*", re.I)

# a sentence that says a value stays as it was ("Tennis on Saturdays hasn't changed", "still at X")
_UNCHANGED = re.compile(r"\b(?:hasn'?t|has not|haven'?t|have not|didn'?t|did not|isn'?t|is not) (?:changed|moved)\b|"
                        r"\b(?:still|as before|as usual|same as (?:ever|before)|unchanged)\b", re.I)


# families whose values have a form (a date, a number, an address): a change without one is no new value of theirs
_FORMED = frozenset(["appointment", "phone", "email", "address", "age", "birth_date"])


def _lacks_form(family: str, said: str) -> bool:
    """Whether ``said`` lacks the form every value of ``family`` has ("only ten days away now" is no new date); a
    family whose shape is only its words (a rent is said as one) is not asked."""
    return family in _FORMED and lacks_shape(family, said)


def _still_named(held: str, said: str) -> bool:
    """Whether ``said`` names the one-word value ``held`` without saying it ended: "vegan cheese is awful now" beside
    "vegan" is about the value, no change of it."""
    return len(held.split()) == 1 and bool(re.search(rf"\b{re.escape(held)}\b", said, re.I)) \
        and not _ENDED.search(said) and not _AWAY.search(said) \
        and not re.search(r"\b(?:not|never|no|dropping|quitting|leaving|switch\w*|swapp?\w*|instead|from)\b|n't\b", said, re.I)


def kin_kept(r: MemoryRecord, said: str) -> bool:
    """Whether ``r`` is one of the user's kin or friends (``relation.<kin>``) that ``said`` does not end: a change of
    something else never takes their place, however alike it reads or whatever name it says."""
    parts = slot_of(r.key).split(".")
    return parts[0] == "relation" and len(parts) > 1 and parts[1] in _KIN and not _ENDED.search(said)


class EarlierSearch:
    """The searches over one call's earlier memories (the state is :class:`AttributeIndex`'s)."""

    records: list[MemoryRecord]
    candidates: list[Candidate]
    added: set[str]
    rec_vec: DeferredVectors
    cand_vec: DeferredVectors
    raw_vec: DeferredVectors
    _family_of: Callable[[str], KeyFamily | None]
    same_attribute_similarity: float
    same_topic_similarity: float
    sorted_change_similarity: float
    min_cross_similarity: float

    def _names_held(self, c: Candidate, fam: KeyFamily | None) -> bool:
        """Whether ``c`` names the one value its single-valued family holds, without ending it ("vegan cheese is
        awful now" beside the diet "vegan"): about that value, no new one."""
        return fam is not None and not fam.multi and any(
            self._family_of(r.key) is fam and r.id not in self.added and _still_named(r.value, c.value)
            for r in self.records)

    def _named_change(self, said: str, cand: np.ndarray | None = None) -> KeyFamily | None:
        """The family of the newest earlier value that ``said`` names, when ``said`` speaks of a change or of its end
        ("The Corsa failed its MOT, so that was the end of it")."""
        if not changes(said) and not _ENDED.search(said):
            return None
        hits = []
        for r in self.records:
            fam = self._family_of(r.key)
            if fam is None or fam.name in _NO_STATEMENTS:
                continue
            if kin_kept(r, said):
                continue  # kin are not replaced by a change that names them ("our new Plusnet broadband, and Ravi says")
            e = Earlier(key=r.key, value=r.value, similarity=0.0, at=r.event_time, family_key=fam.key)
            # a person is changed only by the clause that tells the change ("..., which Jonas finds hilarious" is no
            # change of the flatmate)
            named = names_in(e, fam, said if fam.name != "relation" else _RELATIVE.sub("", said))
            if named:
                # of two values said at one instant: the one whose value it denies ("..., not 30 June"), then the
                # one more of whose names it says, then the one most alike the change in meaning, then by key;
                # never by the order the store lists them in (random ids made one persona's update flip between runs)
                vec = self.rec_vec.get(r.id)
                sim = float(vec @ cand) if vec is not None and cand is not None else 0.0
                hits.append((r.event_time, bool(denied(said) & e.names()), len(named), sim, r.key, fam))
        return max(hits, key=lambda h: h[:5])[5] if hits else None

    def _ended_thing(self, c: Candidate) -> MemoryRecord | None:
        """The user's earlier memory of a thing this statement says went, named by the object of the verb ("Sold the
        City to Spinny" -> the vehicle "Honda City 2016"): the one value a rule parsed that the object names (the
        user's own words that mention it, "City's insurance renews in September", are no such value)."""
        m = _ENDED_OBJECT.search(c.value)
        if m is None or c.metadata.get("other_subject") or adds(c.value):
            return None
        said = {w.lower() for w in _WORD.findall(m.group("obj"))}
        hits = [r for r in self.records if r.id not in self.added and not r.metadata.get("statement")
                and not r.metadata.get("other_subject") and (f := self._family_of(r.key)) is not None
                and f.name not in _NO_STATEMENTS
                and said & Earlier(key=r.key, value=r.value, similarity=0.0, at=r.event_time, family_key=f.key).names()]
        return hits[0] if len(hits) == 1 else None

    def _same_attribute(self, c: Candidate) -> tuple[MemoryRecord, float] | None:
        """The user's earlier memory this statement changes, decided by meaning: the statement says something
        changed, adds nothing ("also", "a second"), and is at least ``same_attribute_similarity`` alike (values
        masked) an earlier memory with another value, whatever family either was filed under."""
        vec = self.cand_vec.get(id(c))
        # an onset alone ("since the spring I volunteer at X") says since when, not that a value was replaced
        if vec is None or not ((changes(c.value) and not only_onset(c.value)) or c.is_correction) or adds(c.value):
            return None
        best, best_sim, best_named = None, self.same_attribute_similarity, False
        # a change of a school is no change of a home however alike the two sentences read: sorts both name must meet
        wanted = change_frame(c.value)
        for r in self.records:
            fam = self._family_of(r.key)
            # a later turn of the same call may change what an earlier one said; one turn's statements do not
            same_turn = r.id in self.added and bool(set(r.source.message_ids) & set(c.message_ids))
            if wanted and fam is not None and (had := self._sorts(r, fam)) and not wanted & had:
                continue
            # another person's change replaces what was said of another person, never the user's own value
            if fam is None or fam.name in _NO_STATEMENTS or r.id not in self.rec_vec or same_turn \
                    or bool(c.metadata.get("other_subject")) != bool(r.metadata.get("other_subject")) \
                    or normalize_value(r.value) == normalize_value(c.value) or self._person_unnamed(r, fam, c.value) \
                    or kin_kept(r, c.value) or _still_named(r.value, c.value) or _lacks_form(fam.name, c.value):
                continue  # (a new value has its family's shape: "only ten days away now" is no new date)
            sim = float(self.rec_vec[r.id] @ vec)
            # of memories read from one sentence (alike alone), the one whose value it names past its subject
            # ("Ruby left Hillcrest ..." changes her school, not the slot that holds her name)
            named = names_past_subject(c.value, Earlier(key=r.key, value=r.value, similarity=sim, at=r.event_time,
                                                         family_key=fam.key), fam)
            if sim >= best_sim and (best is None or sim + 0.02 * named > best_sim + 0.02 * best_named):
                best, best_sim, best_named = r, sim, named
        return (best, best_sim) if best is not None else None

    @staticmethod
    def _person_unnamed(r: MemoryRecord, fam: KeyFamily, said: str) -> bool:
        """Whether ``r`` is a person a rule read ("my daughter Ava") and ``said`` does not name them: a person is no
        value a sentence alike in meaning replaces ("Her friend Maya just quit gymnastics" had replaced Ava)."""
        return fam.name == "relation" and not r.metadata.get("statement") and not names_in(
            Earlier(key=r.key, value=r.value, similarity=0.0, at=r.event_time, family_key=fam.key), fam, said)

    def _kept_beside(self, c: Candidate, r: MemoryRecord) -> bool:
        """Whether another sentence of ``c``'s turn names ``r``'s value and says it stays as it was: "the squash court
        is mine on Wednesdays now. Tennis on Saturdays hasn't changed" changes no tennis booking."""
        fam = self._family_of(r.key)
        if fam is None:
            return False
        e = Earlier(key=r.key, value=r.value, similarity=0.0, at=r.event_time, family_key=fam.key)
        return any(o is not c and set(o.message_ids) & set(c.message_ids) and _UNCHANGED.search(o.value)
                   and not changes(o.value) and names_in(e, fam, o.value) for o in self.candidates)

    def _same_code(self, c: Candidate) -> MemoryRecord | None:
        """The user's earlier memory whose code this change gives another of the same series: the same letters and
        as many digits ("rebooked onto EZY8471" after "flight EZY8123", "policy HX-20417" after "HX-11872"), or corrects
        it ("sorry, TKM88RD, misread the email" after "new ref is TKM88RB", said a turn before in the same call)."""
        if not (changes(c.value) or c.is_correction) or adds(c.value) or c.metadata.get("other_subject"):
            return None
        new = _codes(c.value)
        hits = [r for r in self.records if (r.id not in self.added or c.is_correction)
                and not r.metadata.get("other_subject")
                and (f := self._family_of(r.key)) is not None and f.name not in _NO_STATEMENTS
                and any(k == n[0] and v != n[1] for k, v in _codes(str(r.metadata.get("said") or r.value)) for n in new)]
        return hits[0] if len(hits) == 1 else None

    def _same_subject(self, c: Candidate) -> MemoryRecord | None:
        """The user's newest earlier memory whose sentence names the attribute this one names as its subject, with a
        value of the same sort and another value ("My usual's a black americano these days" after "My usual is an oat
        flat white"). A value that is a bare word ("my knee is sore") only with a word of change; never an addition,
        someone else's words or what was said of another person."""
        if adds(c.value) or c.metadata.get("other_subject") or c.metadata.get("reported"):
            return None
        mine = named_subject(c.value)
        if mine is None or (mine[1] == "word" and not changes(c.value)):
            return None
        hits = [r for r in self.records if r.id not in self.added and not r.metadata.get("other_subject")
                and (f := self._family_of(r.key)) is not None and f.name not in _NO_STATEMENTS
                and named_subject(str(r.metadata.get("said") or r.value)) == mine
                and normalize_value(r.value) != normalize_value(c.value)]
        return max(hits, key=lambda r: (r.event_time, r.created_at, r.key)) if hits else None

    def _same_topic(self, c: Candidate) -> tuple[MemoryRecord, float] | None:
        """The user's earlier memory this change is about, decided by the words with their values: a change that
        adds nothing, at least ``same_topic_similarity`` alike (values kept: "a Kia now" is near "a Mazda3") an
        earlier memory of the same person with another value, and clearly nearer it than any other."""
        if not ((changes(c.value) and not only_onset(c.value)) or c.is_correction) or adds(c.value) \
                or id(c) not in self.raw_vec:
            return None
        vec = self.raw_vec[id(c)]
        wanted = change_frame(c.value)
        sims: list[tuple[float, MemoryRecord]] = []
        for r in self.records:
            fam = self._family_of(r.key)
            if fam is None or fam.name in _NO_STATEMENTS or r.id not in self.raw_vec or r.id in self.added \
                    or bool(c.metadata.get("other_subject")) != bool(r.metadata.get("other_subject")) \
                    or kin_kept(r, c.value) or _still_named(r.value, c.value) or _lacks_form(fam.name, c.value):
                continue
            if wanted and (had := self._sorts(r, fam)) and not wanted & had:
                continue
            sims.append((float(self.raw_vec[r.id] @ vec), r))
        sims.sort(key=lambda t: -t[0])
        if not sims or sims[0][0] < self.same_topic_similarity \
                or normalize_value(sims[0][1].value) == normalize_value(c.value):
            return None
        if len(sims) > 1 and sims[1][0] > sims[0][0] - 0.05 and sims[1][1].key != sims[0][1].key:
            return None  # two memories about as near: which one it changes is not clear
        return sims[0][1], sims[0][0]

    def _sorts(self, r: MemoryRecord, fam: KeyFamily) -> frozenset[str]:
        """The sorts of value an earlier memory holds: its family's when a rule keyed it, else its words'."""
        if not r.metadata.get("statement") and slot_of(r.key) in KEY_SORTS:
            return frozenset([KEY_SORTS[slot_of(r.key)]])
        return sorts_of(str(r.metadata.get("said") or r.value), None if r.metadata.get("statement") else fam.name)

    def _same_sort(self, c: Candidate) -> tuple[MemoryRecord, float] | None:
        """The user's earlier memory this statement changes, decided by the sort of value: the statement is framed
        as a change of a gym, a school, a title, a home ... (``_value_types``), adds nothing, and an earlier memory
        of that sort with another value is at least ``sorted_change_similarity`` alike (values masked); the most
        alike such memory. Masked similarity alone leaves these at 0.35-0.45, below unrelated pairs."""
        vec = self.cand_vec.get(id(c))
        # someone else's words ("the landlord says we must move to X") change nothing by their sort alone
        heard = bool(c.metadata.get("reported")) and not c.metadata.get("subjectless")
        wanted = change_frame(c.value) if vec is not None and not adds(c.value) and not heard else frozenset()
        if not wanted:
            return None
        best, best_sim, best_named = None, -1.0, False
        other = bool(c.metadata.get("other_subject")) or acts_on_another(c.value)
        brands = brand_sorts(c.value)
        for r in self.records:
            fam = self._family_of(r.key)
            if fam is None or fam.name in _NO_STATEMENTS or r.id not in self.rec_vec or r.id in self.added \
                    or normalize_value(r.value) == normalize_value(c.value) or kin_kept(r, c.value) \
                    or _still_named(r.value, c.value):
                continue
            shared = wanted & self._sorts(r, fam)
            if other != bool(r.metadata.get("other_subject")):
                # what is said of the user's landlord is said of another person, and is still who lets their home
                shared &= _PEOPLE_SORTS
            if not shared:
                continue
            sim = float(self.rec_vec[r.id] @ vec)
            # two providers of one sort named by name ("Notion" / "living in Obsidian now"), or a value a rule keyed by
            # its sort ("my landlord Mr Harris"), need no resemblance
            named = bool(shared & brands & brand_sorts(str(r.metadata.get("said") or r.value))) \
                or (not r.metadata.get("statement") and slot_of(r.key) in KEY_SORTS)
            if (named or sim >= self.sorted_change_similarity) and (named, sim) > (best_named, best_sim):
                best, best_sim, best_named = r, sim, named
        return (best, best_sim) if best is not None else None

    def _other_brand(self, c: Candidate) -> MemoryRecord | None:
        """The user's earlier memory naming another provider of a sort one holds one of at a time (a gym, an energy
        supplier, broadband, a mobile network) than the one this statement names: the new one replaces it with or
        without a word of change ("The Virgin Active by the canal has a pool, membership started Monday" after "I go
        to PureGym"). Not another person's, someone else's words, a plan, a question or an addition."""
        if c.metadata.get("other_subject") or (c.metadata.get("reported") and not c.metadata.get("subjectless")) \
                or adds(c.value) or _UNDONE.search(c.value) or c.value.rstrip().endswith("?") \
                or acts_on_another(c.value) or WANTS_BACK.search(c.value):
            return None
        mine = held_once(c.value)
        if not mine:
            return None
        for r in self.records:
            if r.id in self.added or r.metadata.get("other_subject") or kin_kept(r, c.value):
                continue
            theirs = brands_in(str(r.metadata.get("said") or r.value))
            if any(s == t and n != m and (m, t) not in mine for n, s in mine for m, t in theirs):
                return r
        return None

    def _asked_now(self, c: Candidate) -> tuple[MemoryRecord, float] | None:
        """The user's earlier memory an answer replaces because the question asked what that attribute is now
        ("Which team are you on these days?" -> the memory that names a team), the most alike such memory."""
        noun = asked_now(c.keywords) if c.keywords else None
        vec = self.cand_vec.get(id(c))
        if noun is None or vec is None or adds(c.value) or c.metadata.get("other_subject"):
            return None
        says = re.compile(rf"\b{re.escape(noun)}s?\b", re.I)
        hits = [(float(self.rec_vec[r.id] @ vec), r) for r in self.records
                if r.id in self.rec_vec and r.id not in self.added and not r.metadata.get("other_subject")
                and (f := self._family_of(r.key)) is not None and f.name not in _NO_STATEMENTS
                and normalize_value(r.value) != normalize_value(c.value)
                and (f.name == noun[7:] if noun.startswith("family:")  # "What are you studying now?": the course
                     else says.search(f"{r.metadata.get('said') or r.value} {r.text}"))]
        if not hits:
            return None
        sim, r = max(hits, key=lambda h: h[0])
        return r, sim

    def _alike_elsewhere(self, vec: np.ndarray, fam: KeyFamily, said: str, about_other: bool) -> MemoryRecord | None:
        """The earlier memory of another family a change is alike (values masked), if any: at
        ``same_attribute_similarity`` (one of several values only when ``said`` adds nothing); what was said of
        another person only for a change said of another person ("Baby Jo arrived" is no change of "our son Leo")."""
        best, best_sim = None, min(self.min_cross_similarity, self.same_attribute_similarity)
        for r in self.records:
            other = self._family_of(r.key)
            if other is None or other is fam or r.id not in self.rec_vec or r.id in self.added \
                    or about_other != bool(r.metadata.get("other_subject")) \
                    or other.name in ("task", "procedure", "instruction") or (other.multi and adds(said)) \
                    or kin_kept(r, said):
                continue
            sim = float(self.rec_vec[r.id] @ vec)
            if sim >= best_sim:
                best, best_sim = r, sim
        return best
