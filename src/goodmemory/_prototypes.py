"""The families' example statements as vectors, one matrix per embedding model (what a statement no rule keyed is
compared with to find its family)."""

from __future__ import annotations

import numpy as np

from .embeddings import Embedder
from .models import MemoryKind
from .taxonomy import KEY_FAMILIES, KeyFamily

__all__ = ["NO_STATEMENTS", "STATEMENT_KINDS", "prototypes", "unit"]

# Families a free statement may land in: tasks, standing instructions and procedures need a rule
# (a sentence that merely resembles "I need to X" is no commitment).
STATEMENT_KINDS = (MemoryKind.PROFILE, MemoryKind.FACT, MemoryKind.PREFERENCE)
NO_STATEMENTS = frozenset(["task", "instruction", "procedure", "expiry", "identifier", "possession"])
_PROTOTYPES: dict[object, tuple[Embedder, list[KeyFamily], np.ndarray, np.ndarray]] = {}


def unit(mat: np.ndarray) -> np.ndarray:
    mat = np.asarray(mat, dtype=np.float32)
    norms = np.linalg.norm(mat, axis=1, keepdims=True)
    return mat / np.where(norms == 0, 1, norms)


def prototypes(embedder: Embedder) -> tuple[list[KeyFamily], np.ndarray, np.ndarray]:
    """(families, owner index of each example, example vectors) for statements."""
    # by model, not by instance: every GoodMemory of a process over the packaged model shares one entry
    ident = getattr(embedder, "cache_identity", None) or id(embedder)
    hit = _PROTOTYPES.get(ident)
    if hit is not None and (hit[0] is embedder or ident != id(embedder)):
        return hit[1], hit[2], hit[3]
    fams = [f for f in KEY_FAMILIES if f.kind in STATEMENT_KINDS and f.name not in NO_STATEMENTS and f.examples]
    texts, owner = [], []
    for i, fam in enumerate(fams):
        for ex in fam.examples:
            texts.append(ex)
            owner.append(i)
    vecs = unit(getattr(embedder, "embed_fixed", embedder.embed)(texts))  # library texts: kept on disk
    _PROTOTYPES[ident] = (embedder, fams, np.array(owner), vecs)
    return fams, np.array(owner), vecs
