"""Extractive session digests and information density of turns (pure).

A digest packs the most specific sentences of a session (identifiers,
numbers, dates, amounts, names) into one short record that cites the turns
it quotes, so one context line can carry what a long session settled.
Density is a cheap prior for ranking raw turns: specific turns inform,
"Sounds good!" does not.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["DigestLine", "build_digest", "density"]

_SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'])")
_TOKEN = re.compile(r"\S+")
_SPECIFIC = re.compile(
    r"(?:\d)|(?:^[A-Z][a-z]+[A-Z])|(?:@)|(?:^[A-Z]{2,}\b)|(?:^\$)", re.UNICODE
)
_CAP = re.compile(r"^[A-Z][\w'-]+")
_FILLER = re.compile(r"^(ok|okay|sure|thanks|thank you|great|perfect|sounds good|got it|yes|no|hi|hello)\b",
                     re.IGNORECASE)


def density(text: str) -> float:
    """Share of specific tokens (digits, codes, emails, amounts, mid-sentence capitals), in [0, 1]."""
    tokens = _TOKEN.findall(text)
    if not tokens:
        return 0.0
    specific = 0
    for i, tok in enumerate(tokens):
        if _SPECIFIC.search(tok) or (i > 0 and _CAP.match(tok) and not tokens[i - 1].endswith((".", "!", "?", ":"))):
            specific += 1
    score = specific / len(tokens) * 3.0
    if len(tokens) < 5:
        score *= 0.5
    if _FILLER.match(text.strip()):
        score *= 0.5
    return round(min(1.0, score), 3)


@dataclass(frozen=True)
class DigestLine:
    message_id: str
    role: str
    sentence: str
    score: float


def build_digest(turns: Sequence[tuple[str, str, str]], *, max_words: int = 80, min_turns: int = 8) -> list[DigestLine]:
    """Pick the most specific sentences of ``(message_id, role, text)`` turns, in conversation order.

    Returns an empty list for sessions shorter than ``min_turns`` (their turns speak for themselves).
    """
    if len(turns) < min_turns:
        return []
    cands: list[tuple[int, DigestLine]] = []
    order = 0
    for mid, role, text in turns:
        for sent in _SENT.split(text.strip()):
            sent = " ".join(sent.split())
            if len(sent) < 12 or sent.endswith("?"):
                continue
            d = density(sent)
            if d < 0.2:
                continue
            cands.append((order, DigestLine(mid, role, sent, d + (0.1 if role == "user" else 0.0))))
            order += 1
    chosen: list[tuple[int, DigestLine]] = []
    words = 0
    seen: set[str] = set()
    for pos, line in sorted(cands, key=lambda c: (-c[1].score, c[0])):
        key = line.sentence.lower()
        n = len(line.sentence.split())
        if key in seen or words + n > max_words:
            continue
        seen.add(key)
        chosen.append((pos, line))
        words += n
    return [line for _, line in sorted(chosen, key=lambda c: c[0])]
