"""Gathering the inputs of "same attribute" for one ``remember`` call (the decision is ``merge.attribute_slot``).

For each candidate this finds its key family (from its key; for a statement no rule keyed, the
family whose example statements are nearest in meaning, values masked), the user's active memories
of that family and how alike each is to the candidate, and asks the pure policy which slot the
candidate goes to. One embedding call per ``remember`` covers the candidates and the earlier
memories; the families' example vectors are computed once per embedder.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .embeddings import Embedder
from .extraction._statements import STATEMENT_KEY, mask_values
from .merge import Earlier, attribute_slot, drop_replaced, new_family_key
from .models import Candidate, MemoryKind, MemoryRecord
from .taxonomy import KEY_FAMILIES, KeyFamily, family_of

__all__ = ["AttributeIndex", "Placement"]

# Families a free statement may land in: tasks, standing instructions and procedures need a rule
# (a sentence that merely resembles "I need to X" is no commitment).
_STATEMENT_KINDS = (MemoryKind.PROFILE, MemoryKind.FACT, MemoryKind.PREFERENCE)
_NO_STATEMENTS = frozenset(["task", "instruction", "procedure", "expiry", "identifier", "account", "possession"])
_CORRECTS_WITHIN = 3600.0  # seconds: a correction with no attribute of its own corrects the last statement
_PROTOTYPES: dict[int, tuple[Embedder, list[KeyFamily], np.ndarray, np.ndarray]] = {}


def _unit(mat: np.ndarray) -> np.ndarray:
    mat = np.asarray(mat, dtype=np.float32)
    norms = np.linalg.norm(mat, axis=1, keepdims=True)
    return mat / np.where(norms == 0, 1, norms)


def _prototypes(embedder: Embedder) -> tuple[list[KeyFamily], np.ndarray, np.ndarray]:
    """(families, owner index of each example, example vectors) for statements."""
    hit = _PROTOTYPES.get(id(embedder))
    if hit is not None and hit[0] is embedder:
        return hit[1], hit[2], hit[3]
    fams = [f for f in KEY_FAMILIES if f.kind in _STATEMENT_KINDS and f.name not in _NO_STATEMENTS and f.examples]
    texts, owner = [], []
    for i, fam in enumerate(fams):
        for ex in fam.examples:
            texts.append(ex)
            owner.append(i)
    vecs = _unit(embedder.embed(texts))
    _PROTOTYPES[id(embedder)] = (embedder, fams, np.array(owner), vecs)
    return fams, np.array(owner), vecs


def _about(c: Candidate | MemoryRecord) -> str:
    return str(c.metadata.get("about") or mask_values(c.text))


@dataclass
class Placement:
    candidate: Candidate | None  # None: not stored
    reason: str = ""


class AttributeIndex:
    """The user's active memories by family, with vectors, for the candidates of one call."""

    def __init__(self, embedder: Embedder, records: Sequence[MemoryRecord], candidates: Sequence[Candidate], *,
                 min_family_score: float, min_similarity: float) -> None:
        self.embedder = embedder
        self.min_family_score = min_family_score
        self.min_similarity = min_similarity
        self.records = [r for r in records if r.kind != MemoryKind.EPISODE and family_of(r.key) is not None]
        texts = [_about(c) for c in candidates] + [_about(r) for r in self.records]
        vecs = _unit(embedder.embed(texts)) if texts else np.zeros((0, 1), np.float32)
        self.cand_vec = {id(c): vecs[i] for i, c in enumerate(candidates)}
        self.rec_vec = {r.id: vecs[len(candidates) + i] for i, r in enumerate(self.records)}

    def _family(self, c: Candidate) -> tuple[KeyFamily | None, float]:
        """The nearest family: its examples, or the user's own earlier statements of it (values masked)."""
        fams, owner, protos = _prototypes(self.embedder)
        vec = self.cand_vec[id(c)]
        sims = protos @ vec
        best = int(np.argmax(sims))
        fam, score = fams[int(owner[best])], float(sims[best])
        for r in self.records:
            f = family_of(r.key)
            if f is None or f not in fams or r.id not in self.rec_vec:
                continue
            sim = float(self.rec_vec[r.id] @ vec)
            if sim > score:
                fam, score = f, sim
        return fam, score

    def place(self, c: Candidate, said: str = "") -> Placement:
        """Where ``c`` goes; ``said`` is the text of its source turns (what a rule's template leaves out)."""
        statement = c.key == STATEMENT_KEY and bool(c.metadata.get("statement"))
        if c.closes or c.kind in (MemoryKind.EPISODE, MemoryKind.OPEN_LOOP):
            return Placement(c)
        if statement:
            fam, score = self._family(c)
            latest = max(self.records, key=lambda r: (r.event_time, r.created_at)) if self.records else None
            if c.is_correction and latest is not None and c.timestamp is not None \
                    and abs((c.timestamp - latest.event_time).total_seconds()) <= _CORRECTS_WITHIN:
                # "Oops, that's wrong, it's ..." corrects what the user said just before
                fam, score = family_of(latest.key), max(score, self.min_family_score)
            if fam is None or score < self.min_family_score:
                return Placement(None, f"statement about no known attribute (best {fam.name if fam else '-'} "
                                       f"{score:.2f} < {self.min_family_score:.2f})")
            own_key = new_family_key(fam, c.value)
        else:
            fam, score = family_of(c.key), 1.0
            if fam is None or fam.name in ("task", "procedure"):
                return Placement(c)
            own_key = c.key
        vec = self.cand_vec.get(id(c))
        earlier = [Earlier(key=r.key, value=r.value, at=r.event_time, family_key=fam.key,
                           similarity=float(self.rec_vec[r.id] @ vec) if vec is not None else 0.0)
                   for r in self.records if family_of(r.key) is fam and r.id in self.rec_vec]
        about = _about(c)
        has_value = "X" in about.split() or any(ch.isdigit() for ch in c.value)
        key, why = attribute_slot(c.value if statement else (said or c.text), fam, own_key, earlier, statement=statement,
                                  has_value=has_value, min_similarity=self.min_similarity)
        if key is None:
            return Placement(None, why)
        meta = {**c.metadata, "family": fam.name, "slot_reason": why}
        update: dict[str, object] = {"key": key, "kind": fam.kind if statement else c.kind, "metadata": meta}
        if statement:
            meta["family_score"] = round(score, 3)
            replaced = [e for e in earlier if e.key.split("~", 1)[0] == key]
            if replaced:
                update["value"] = drop_replaced(c.value, max(replaced, key=lambda e: e.at))
        return Placement(c.model_copy(update=update), why)

    def add(self, record: MemoryRecord, c: Candidate) -> None:
        """A record this call stored: later candidates of the call compare with it too."""
        vec = self.cand_vec.get(id(c))
        if vec is not None and family_of(record.key) is not None:
            self.records.append(record)
            self.rec_vec[record.id] = vec
