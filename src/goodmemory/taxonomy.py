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

from .models import MemoryKind

__all__ = [
    "KIND_SPECS",
    "KindSpec",
    "default_transferable",
    "normalize_key",
    "slug",
    "volatility_for",
]


@dataclass(frozen=True)
class KindSpec:
    kind: MemoryKind
    transferable: bool
    volatility: float  # 0 = never stale; 1 = stale within days
    priority: float  # prior weight in ranking and packing
    description: str


KIND_SPECS: dict[MemoryKind, KindSpec] = {
    MemoryKind.PROFILE: KindSpec(MemoryKind.PROFILE, True, 0.05, 1.0, "identity, background, expertise, role"),
    MemoryKind.PREFERENCE: KindSpec(MemoryKind.PREFERENCE, True, 0.05, 0.9, "stable likes, communication and work style"),
    MemoryKind.FACT: KindSpec(MemoryKind.FACT, False, 0.2, 0.85, "facts of the user's world: accounts, vehicles, appointments"),
    MemoryKind.PROCEDURE: KindSpec(MemoryKind.PROCEDURE, True, 0.05, 0.8, "how the user wants things done"),
    MemoryKind.OPEN_LOOP: KindSpec(MemoryKind.OPEN_LOOP, False, 0.1, 0.9, "unfinished tasks, open questions, commitments"),
    MemoryKind.EPISODE: KindSpec(MemoryKind.EPISODE, False, 0.5, 0.5, "what happened in a session; raw turns as evidence"),
}

# Attributes that change faster than their kind's default (per key prefix or suffix).
_VOLATILE_ATTRIBUTES: dict[str, float] = {
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
