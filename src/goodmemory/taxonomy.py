"""The memory taxonomy: the six kinds, their defaults, and slot keys (pure).

A *slot key* names one attribute of the user's world (``profile.home_city``,
``vehicle.honda_civic.plate``). The same attribute said twice must land in
the same slot, so the write policy can merge or supersede instead of piling
up duplicates.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ._key_families import KEY_FAMILIES, KeyFamily, canonical_key, family_by_name, family_of
from .models import MemoryKind
from .text import STOPWORDS as _TEXT_STOPWORDS
from .text import stem

__all__ = [
    "KEY_FAMILIES",
    "KIND_SPECS",
    "KeyFamily",
    "canonical_key",
    "family_by_name",
    "family_of",
    "STOPWORDS",
    "KindSpec",
    "content_words",
    "default_transferable",
    "humanize_key",
    "normalize_key",
    "slot_key",
    "slug",
    "task_key",
    "volatility_for",
    "word_overlap",
]


@dataclass(frozen=True)
class KindSpec:
    kind: MemoryKind
    transferable: bool
    volatility: float  # 0 = never stale; 1 = stale within days
    description: str


KIND_SPECS: dict[MemoryKind, KindSpec] = {
    MemoryKind.PROFILE: KindSpec(MemoryKind.PROFILE, True, 0.05, "identity, background, expertise, role"),
    MemoryKind.PREFERENCE: KindSpec(MemoryKind.PREFERENCE, True, 0.05, "stable likes, communication and work style"),
    MemoryKind.FACT: KindSpec(MemoryKind.FACT, False, 0.08, "facts of the user's world: accounts, vehicles, appointments"),
    MemoryKind.PROCEDURE: KindSpec(MemoryKind.PROCEDURE, True, 0.05, "how the user wants things done"),
    MemoryKind.OPEN_LOOP: KindSpec(MemoryKind.OPEN_LOOP, False, 0.1, "unfinished tasks, open questions, commitments"),
    MemoryKind.EPISODE: KindSpec(MemoryKind.EPISODE, False, 0.5, "what happened in a session; raw turns as evidence"),
}

# Attributes that change faster than their kind's default (per key prefix or suffix).
_VOLATILE_ATTRIBUTES: dict[str, float] = {
    # identity that practically never changes
    "profile.name": 0.01,
    "profile.preferred_name": 0.02,
    "profile.birth": 0.0,
    "profile.nationality": 0.01,
    "profile.origin": 0.01,
    "relation.": 0.03,
    # attributes that move
    "profile.home_city": 0.3,
    "profile.address": 0.3,
    "profile.employer": 0.3,
    "profile.occupation": 0.25,
    "profile.role": 0.3,
    "profile.age": 0.4,
    ".appointment": 0.6,
    ".deadline": 0.6,
    ".balance": 0.8,
    ".status": 0.6,
    "fact.plan.": 0.5,
}

# Keys whose facts stay inside their domain even though the kind transfers.
_DOMAIN_BOUND_PREFIXES = ("preference.domain.",)


def slug(text: str) -> str:
    """Lowercase ASCII slug: ``"Honda Civic"`` -> ``"honda_civic"``."""
    norm = unicodedata.normalize("NFKD", text)
    norm = norm.encode("ascii", "ignore").decode("ascii").lower()
    norm = re.sub(r"[^a-z0-9]+", "_", norm).strip("_")
    return norm or "x"


def normalize_key(key: str) -> str:
    """Normalise a dotted slot key: each part slugged, empty parts dropped."""
    parts = [slug(p) for p in key.strip().split(".") if p.strip()]
    return ".".join(parts) if parts else "misc"


def default_transferable(kind: MemoryKind, key: str) -> bool:
    if any(key.startswith(p) for p in _DOMAIN_BOUND_PREFIXES):
        return False
    return KIND_SPECS[kind].transferable


def volatility_for(kind: MemoryKind, key: str) -> float:
    for pattern, value in _VOLATILE_ATTRIBUTES.items():
        if key.startswith(pattern) or (pattern.startswith(".") and pattern in f".{key}"):
            return value
    return KIND_SPECS[kind].volatility


# Function words ignored when slot keys are built from free text and when two phrasings of the same task are
# compared: text.py's list, except that a key keeps negations, question words, modals and verbs such as "like"
# ("fact.budget.not_penny") and drops words of time and filler ("still", "today"). The two differ in effect (with
# text.STOPWORDS alone about 40 of the write corpus's 839 stored records get another key), so this is
# text.STOPWORDS with its differences named, not a second list.
_KEY_WORDS = frozenset(["am", "both", "can", "could", "d", "doing", "down", "each", "else", "few", "further", "having", "hello", "here", "hi", "him", "how", "if", "know", "let", "lets", "like", "ll", "m", "may", "might", "mine", "must", "myself", "no", "nor", "not", "ok", "okay", "once", "only", "other", "own", "re", "s", "same", "shall", "should", "such", "t", "tell", "than", "thank", "thanks", "there", "under", "ve", "want", "what", "when", "where", "which", "who", "whom", "whose", "why", "will", "would", "yes", "yours"])
_KEY_FILLER = frozenset(["already", "done", "finally", "later", "many", "month", "much", "next", "now", "onto", "really", "soon", "still", "today", "tomorrow", "tonight", "week", "yet"])
STOPWORDS: frozenset[str] = (_TEXT_STOPWORDS - _KEY_WORDS) | _KEY_FILLER

_WORD = re.compile(r"[a-z0-9]+")


def slot_key(*parts: str | None) -> str:
    """Build a slot key from free-text parts: ``("vehicle", "Honda Civic", "plate")``."""
    return normalize_key(".".join(slug(p) for p in parts if p and p.strip()))


def content_words(text: str) -> list[str]:
    """Lowercase words of ``text`` without stopwords, in order, duplicates kept."""
    return [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS]


def task_key(task: str, max_words: int = 6) -> str:
    """The open-loop slot key of a task: ``"renew my passport"`` -> ``task.renew_passport``."""
    words = content_words(task)[:max_words] or _WORD.findall(task.lower())[:max_words]
    return slot_key("task", " ".join(words))


def word_overlap(a: str, b: str) -> float:
    """Share of the smaller side's stemmed content words found in the other (0..1)."""
    sa = {stem(w) for w in content_words(a.replace("_", " "))}
    sb = {stem(w) for w in content_words(b.replace("_", " "))}
    if not sa or not sb:
        return 0.0
    return len(sa & sb) / min(len(sa), len(sb))


def humanize_key(key: str) -> str:
    """A readable label for a slot key: ``vehicle.honda_civic.plate`` -> ``vehicle honda civic plate``."""
    return " ".join(key.replace("_", " ").split("."))
