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
from datetime import datetime
from functools import lru_cache

from .keys import digest_key
from .models import MemoryKind, MemoryRecord, MemorySource
from .text import prefix_stem, terms

__all__ = ["DigestLine", "build_digest", "density", "digest_lines", "digest_record", "excerpt", "focus", "sentences"]

# a sentence ends at . ! ? before a capital or digit, but not after a title or common abbreviation
# ("Dr. Robert Chen" is one sentence: splitting it let a cut drop the doctor's name)
_ABBREV = ("Dr", "Mr", "Ms", "Mrs", "Mx", "Prof", "St", "Jr", "Sr", "Mt", "No", "vs", "etc", "approx", "Inc", "Ltd",
           "Co", "Ave", "Rd", "Blvd", "Apt", "Dept", "Gen", "Rev", "Hon", "Capt", "Lt", "Sgt")
_SENT = re.compile("".join(rf"(?<!\b{a}\.)" for a in _ABBREV) + r"(?<!\b[A-Z]\.)(?<=[.!?])\s+(?=[A-Z0-9\"'])")
_TOKEN = re.compile(r"\S+")
_SPECIFIC = re.compile(
    r"(?:\d)|(?:^[A-Z][a-z]+[A-Z])|(?:@)|(?:^[A-Z]{2,}\b)|(?:^\$)", re.UNICODE
)
_CAP = re.compile(r"^[A-Z][\w'-]+")
_SOCIAL = (
    "ok|okay|sure|thanks|thank|thx|great|perfect|sounds good|got it|yes|yeah|yep|no|nope|hi|hey|hello|"
    "wow|woah|whoa|cool|awesome|nice|aww|aw|oh|congrats|congratulations|sorry|bye|cheers|haha|lol|"
    "totally|definitely|absolutely|see you|take care|love|welcome|good morning|good night|dear"
)
_FILLER = re.compile(rf"^(?:[\w'-]+:\s*)?(?:{_SOCIAL})\b", re.IGNORECASE)
_SOCIAL_WORD = re.compile(rf"^(?:{_SOCIAL})[,.!?]*$", re.IGNORECASE)


def _vocative(tokens: list[str], i: int) -> bool:
    """A capitalized word used to address someone: "Hey Mel!", "Thanks, Jon", "Wow Gina, ..."."""
    prev = tokens[i - 1] if i > 0 else ""
    if _SOCIAL_WORD.match(prev):
        return True
    # a name closing a clause with no content after it ("..., Caroline!")
    return tokens[i].endswith(("!", ",", "?")) and prev.endswith(",")


def density(text: str) -> float:
    """Share of specific tokens (digits, codes, emails, amounts, mid-sentence capitals), in [0, 1].

    Capitalized words that only address someone ("Hey Mel!", "Thanks, Jon") are not specific:
    greetings name people without saying anything about them.
    """
    tokens = _TOKEN.findall(text)
    if not tokens:
        return 0.0
    specific = 0
    for i, tok in enumerate(tokens):
        if _SPECIFIC.search(tok) or (i > 0 and _CAP.match(tok) and not tokens[i - 1].endswith((".", "!", "?", ":"))
              and not _vocative(tokens, i)):
            specific += 1
    score = specific / len(tokens) * 3.0
    if len(tokens) < 5:
        score *= 0.5
    if _FILLER.match(text.strip()):
        score *= 0.5
    return round(min(1.0, score), 3)


_SPEAKER = re.compile(r"^([\w .'-]{1,40}:\s+)(.*)$", re.DOTALL)


def _filler_sentence(sent: str) -> bool:
    words = sent.split()
    if density(sent) >= 0.2:
        return False
    if _FILLER.match(sent) and len(words) <= 8:
        return True
    return len(words) <= 3 and sent.endswith("!")


@lru_cache(maxsize=20_000)  # pure; the same turns come back query after query
def excerpt(text: str) -> str:
    """The turn without its social filler sentences ("Wow!", "Thanks, Jon!"), cut marked with "…".

    A speaker prefix ("Jon: ") stays; a turn that is all filler, or has none, comes back unchanged.
    """
    m = _SPEAKER.match(text)
    prefix, body = (m.group(1), m.group(2)) if m else ("", text)
    sentences = [s for s in _SENT.split(body.strip()) if s]
    keep = [s for s in sentences if not _filler_sentence(s)]
    if not keep or len(keep) == len(sentences):
        return text
    lead = "" if sentences[0] == keep[0] else "… "
    return prefix + lead + " ".join(keep)


def _stems(words: Sequence[str]) -> set[str]:
    return {prefix_stem(w) for w in words if len(w) >= 3}


def focus(text: str, query_words: Sequence[str], *, min_words: int = 18) -> str:
    """A long turn cut to the sentences around those that share a word with the question, cuts marked "…".

    Context is paid in tokens: a 60-word turn that answers in two sentences should cost about that,
    so more turns fit. Only turns of ``min_words`` words or more with two sentences or more are cut,
    and only when some sentence shares a word stem with ``query_words`` (the question's content
    words, without the names it asks about); a turn that matched by meaning alone stays whole. Each
    matching sentence keeps its neighbours: what answers an advice question often sits next to the
    sentence that names the topic ("The walls are crumbling. Use lime plaster, not gypsum."). Cutting
    to the matching sentences alone lost 23 of 743 persona-eval checks; with the neighbours the
    persona eval is unchanged (603/743). The speaker prefix stays. LoCoMo at 1,000 tokens: evidence
    recall 0.808 -> 0.814 on the three tuning conversations, 0.744 -> 0.750 on the seven held out;
    the user-memory suite is unchanged (0.760).
    """
    m = _SPEAKER.match(text)
    prefix, body = (m.group(1), m.group(2)) if m else ("", text)
    if len(body.split()) < min_words or not query_words:
        return text
    sentences = [s for s in _SENT.split(body.strip()) if s]
    if len(sentences) < 2:
        return text
    wanted = _stems(query_words)
    keep = [bool(_stems(terms(s)) & wanted) for s in sentences]
    if not any(keep) or all(keep):
        return text
    keep = [k or (i > 0 and keep[i - 1]) or (i + 1 < len(keep) and keep[i + 1]) for i, k in enumerate(keep)]
    if all(keep):
        return text
    parts: list[str] = []
    for sent, kept in zip(sentences, keep, strict=True):
        if kept:
            parts.append(sent)
        elif not parts or parts[-1] != "…":
            parts.append("…")
    return prefix + " ".join(parts)


def sentences(text: str) -> list[str]:
    """The sentences of a text, whitespace normalized, as digests quote them."""
    return [" ".join(s.split()) for s in _SENT.split(text.strip()) if s.strip()]


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
        for sent in sentences(text):
            if len(sent.split()) < 6 or sent.endswith("?"):
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


_HEADER = "Session digest ({date}): "
_JOIN = " | "


def digest_record(lines: Sequence[DigestLine], *, first_message_id: str, user_id: str, agent_id: str | None, domain: str | None,
                  session_id: str | None, at: datetime, now: datetime, volatility: float) -> MemoryRecord:
    """The episode that holds a session's digest, keyed by the session's first turn (one digest per
    session); ``metadata["line_ids"]`` names the turn of each line."""
    return MemoryRecord(
        user_id=user_id, agent_id=agent_id, domain=domain, kind=MemoryKind.EPISODE,
        key=digest_key(first_message_id), value="",
        text=_HEADER.format(date=f"{at:%Y-%m-%d}") + _JOIN.join(x.sentence for x in lines),
        confidence=1.0, importance=0.4, transferable=False, valid_from=at,
        source=MemorySource(session_id=session_id, message_ids=list(dict.fromkeys(x.message_id for x in lines)),
                            timestamp=at, role="digest", extractor="digest"),
        created_at=now, updated_at=now, volatility=volatility,
        metadata={"digest": True, "density": 1.0, "line_ids": [x.message_id for x in lines]},
    )


def digest_lines(r: MemoryRecord) -> tuple[str, list[tuple[str, str]]] | None:
    """(header, [(message id, sentence)]) of a digest record; ``None`` if its lines cannot be told apart
    (a digest written before line ids were kept, or a text that no longer matches them)."""
    ids = r.metadata.get("line_ids")
    head, sep, body = r.text.partition("): ")
    if not isinstance(ids, list) or not sep:
        return None
    sentences = body.split(_JOIN)
    if len(sentences) != len(ids):
        return None
    return head + sep, [(str(m), s) for m, s in zip(ids, sentences, strict=True)]
