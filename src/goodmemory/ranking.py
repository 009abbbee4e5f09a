"""Ranking (pure): fuse full-text and vector ranks, rerank, diversify.

Scores are relative within one query (higher is better). Every hit carries
``reasons`` that say where it came from and what moved it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from .models import MemoryKind, MemoryRecord
from .routing import QueryPlan
from .verification import StalenessConfig, Verdict, assess

__all__ = ["RECIPES", "RankedHit", "RetrievalConfig", "fuse_orders", "rank", "rrf"]


@dataclass(frozen=True)
class RetrievalConfig:
    """Retrieval settings; see ``RECIPES`` for named presets."""

    rrf_k: int = 5  # small k trusts each channel's top ranks over the priors (LoCoMo 3 conv: k=60 0.717, k=5 0.783)
    text_weight: float = 1.0
    vector_weight: float = 1.0
    candidates: int = 60  # per channel
    recency_weight: float = 0.25
    confidence_weight: float = 0.3
    feedback_weight: float = 0.25
    window_boost: float = 1.5
    # a question naming a time searches window_depth x deeper, and the best window_candidates hits of each
    # channel from inside that time rank as a channel of their own. LoCoMo @1000, all ten conversations:
    # 0.846 -> 0.854 (tuning 0.863 -> 0.870, held out 0.830 -> 0.838)
    window_candidates: int = 20
    window_depth: int = 2
    key_hint_boost: float = 1.4
    # a turn spoken by someone the question names (LoCoMo @1000, 1.3 -> 1.6: tuning 0.830 -> 0.835, held-out 0.760 ->
    # 0.770; with thread support, 1.6 -> 2.0: tuning 0.859 -> 0.861, held out 0.828 -> 0.831; 3.0 scores alike)
    speaker_boost: float = 2.0
    # a turn two turns or fewer from a turn that shares words with the question, in the same conversation, is
    # likely about the same thing (its answer, its follow-up): it gains this share of that turn's score.
    # LoCoMo @1000, all ten conversations: 0.819 -> 0.842 (tuning 0.835 -> 0.858, held out 0.803 -> 0.826)
    thread_weight: float = 0.4
    thread_reach: int = 2
    other_domain_factor: float = 0.75  # transferable memories from another domain rank a little lower
    mmr_lambda: float = 0.8
    min_vector_similarity: float = 0.15  # vector-only hits below this are noise
    embed_meaning_text: bool = True  # embed the question without the names it asks about (routing.meaning_text)
    staleness: StalenessConfig = field(default_factory=StalenessConfig)


RECIPES: dict[str, RetrievalConfig] = {
    "BALANCED": RetrievalConfig(),
    "PRECISE": RetrievalConfig(min_vector_similarity=0.3, mmr_lambda=0.9, candidates=40),
    "BROAD": RetrievalConfig(candidates=120, min_vector_similarity=0.05, mmr_lambda=0.7),
    "LEXICAL": RetrievalConfig(vector_weight=0.3),
}


@dataclass
class RankedHit:
    record: MemoryRecord
    score: float
    reasons: list[str]
    marker: str | None = None


def rrf(rankings: Sequence[Sequence[str]], k: int = 60, weights: Sequence[float] | None = None) -> dict[str, float]:
    """Reciprocal rank fusion: sum of ``w / (k + rank)`` over the lists (rank from 1)."""
    out: dict[str, float] = {}
    for i, ranking in enumerate(rankings):
        w = 1.0 if weights is None else weights[i]
        for rank, mid in enumerate(ranking, start=1):
            out[mid] = out.get(mid, 0.0) + w / (k + rank)
    return out


def fuse_orders(orders: Sequence[Sequence[str]], weights: Sequence[float], k: float) -> list[tuple[str, float]]:
    """Weighted reciprocal rank fusion of whole orders, best first: each id scores the sum of
    ``weight / (k + rank)`` over the orders it is in. A list of weight 0 is left out (its ids too).

    Ties go to the id with the better rank in any list, then to the earlier list (so equal weights
    interleave the lists: first of the first, first of the second, ...), then to the id.
    """
    score: dict[str, float] = {}
    best: dict[str, tuple[int, int]] = {}
    for li, (order, w) in enumerate(zip(orders, weights, strict=True)):
        if w <= 0:
            continue
        for rank_, mid in enumerate(dict.fromkeys(order), start=1):
            score[mid] = score.get(mid, 0.0) + w / (k + rank_)
            best[mid] = min(best.get(mid, (rank_, li)), (rank_, li))
    return sorted(score.items(), key=lambda x: (-x[1], best[x[0]], x[0]))


_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def _terms(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _similarity(a: set[str], b: set[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


_SPEAKER = re.compile(r"^([^:\n]{1,40}):")


def _speaker(text: str) -> str | None:
    """The speaker of a raw turn (episodes read "<name or role>: <text>"), lowercased."""
    m = _SPEAKER.match(text)
    return m.group(1).strip().lower() if m else None


def rank(
    plan: QueryPlan,
    records: dict[str, MemoryRecord],
    text_hits: Sequence[tuple[str, float]],
    vector_hits: Sequence[tuple[str, float]],
    *,
    now: datetime,
    config: RetrievalConfig = RetrievalConfig(),
    limit: int | None = None,
    window_hits: Sequence[Sequence[str]] = (),
) -> list[RankedHit]:
    """Fuses the channels, reranks and diversifies. ``window_hits``: per channel, the ids it found inside the
    question's time window, in its order; each list ranks as one more channel."""
    vec_ok = [(m, s) for m, s in vector_hits if s >= config.min_vector_similarity or m in dict(text_hits)]
    text_rank = {m: i + 1 for i, (m, _) in enumerate(text_hits)}
    vec_rank = {m: i + 1 for i, (m, _) in enumerate(vec_ok)}
    vec_sim = dict(vec_ok)
    fused = rrf([[m for m, _ in text_hits], [m for m, _ in vec_ok], *window_hits], k=config.rrf_k,
                weights=[config.text_weight, config.vector_weight, *([1.0] * len(window_hits))])
    window_rank = {m: i + 1 for found in window_hits for i, m in enumerate(found)}
    scored: list[RankedHit] = []
    for mid, base in fused.items():
        r = records.get(mid)
        if r is None:
            continue
        fresh = assess(r, now, config.staleness)
        if fresh.verdict in (Verdict.SUPPRESS, Verdict.HIDDEN) and r.status.value == "active":
            continue
        reasons: list[str] = []
        if mid in text_rank:
            reasons.append(f"lexical rank {text_rank[mid]}")
        if mid in vec_rank:
            reasons.append(f"vector rank {vec_rank[mid]} (cos {vec_sim[mid]:.2f})")
        if mid in window_rank and plan.window is not None:
            reasons.append(f"rank {window_rank[mid]} among hits from '{plan.window.phrase}'")
        score = base * 100.0
        kw = plan.kind_weights.get(r.kind, 1.0)
        if kw != 1.0:
            reasons.append(f"kind {r.kind.value} x{kw:.1f} for {plan.intent.value} intent")
        score *= kw
        if r.kind == MemoryKind.EPISODE:
            # specific turns (ids, numbers, names) inform; "sounds good" does not
            score *= 0.7 + 0.6 * float(r.metadata.get("density", 0.5))
            speaker = _speaker(r.text)
            if plan.names and speaker in plan.names:
                score *= config.speaker_boost
                reasons.append(f"spoken by {speaker}, whom the question names")
        # recency: decays with the memory's volatility, so stable facts stay put
        age_days = max(0.0, (now - r.event_time).total_seconds() / 86400.0)
        recency = math.exp(-age_days * r.volatility / 90.0)
        score *= 1.0 + config.recency_weight * (recency - 0.5)
        score *= 1.0 + config.confidence_weight * (r.confidence - 0.7)
        if plan.key_hints and r.key.startswith(plan.key_hints):
            score *= config.key_hint_boost
            reasons.append(f"key {r.key} matches what the question is about")
        if r.feedback_score:
            score *= max(0.2, 1.0 + config.feedback_weight * r.feedback_score)
            reasons.append(f"feedback {r.feedback_score:+.1f}")
        if plan.window is not None:
            if plan.window.contains(r.event_time):
                score *= config.window_boost
                reasons.append(f"in time window '{plan.window.phrase}'")
            else:
                score *= 0.7
        if plan.domain is not None and r.domain not in (None, plan.domain):
            score *= config.other_domain_factor
            reasons.append(f"transferred from domain {r.domain!r} (transferable {r.kind.value})")
        if fresh.verdict == Verdict.VERIFY:
            score *= 0.8
            reasons.append(f"stale: {fresh.marker}")
        if r.conflicts_with:
            reasons.append("conflict: " + ", ".join(c[:8] for c in r.conflicts_with))
        scored.append(RankedHit(r, score, reasons, fresh.marker if fresh.verdict == Verdict.VERIFY else None))
    if config.thread_weight and config.thread_reach > 0:
        _thread_support(scored, set(text_rank), config.thread_weight, config.thread_reach)
    scored.sort(key=lambda h: (-h.score, h.record.id))
    return mmr(scored, config.mmr_lambda, limit or plan.k)


_Position = tuple[tuple[str | None, datetime], int]


def _thread_position(r: MemoryRecord) -> _Position | None:
    """(the call that wrote the turn, its position in that call); ``None`` for anything but a raw turn."""
    if r.kind != MemoryKind.EPISODE or r.key.startswith("episode.digest.") or "seq" not in r.metadata:
        return None
    return (r.source.session_id, r.created_at), int(r.metadata["seq"])


def _thread_support(hits: list[RankedHit], lexical: set[str], weight: float, reach: int) -> None:
    """Raises each turn by ``weight`` x the best score among lexical hits ``reach`` turns or fewer away.

    Turns are neighbours when one ``remember`` call wrote them (same session and write time) and their
    positions differ by 1..``reach``. Only candidates are raised (nothing new is pulled in), and only turns
    found by the words of the question lend support: vector-only hits are too weak to vouch for their
    neighbours (a run of them would lift each other). Supports come from the scores before any raise.
    """
    support: dict[_Position, float] = {}
    positions: list[_Position | None] = []
    for h in hits:
        pos = _thread_position(h.record)
        positions.append(pos)
        if pos is not None and h.record.id in lexical:
            support[pos] = max(h.score, support.get(pos, 0.0))
    raises: list[tuple[RankedHit, float, int]] = []
    for h, pos in zip(hits, positions, strict=True):
        if pos is None:
            continue
        thread, seq = pos
        best, away = max(((support.get((thread, seq + d), 0.0), abs(d)) for d in range(-reach, reach + 1) if d),
                         key=lambda x: (x[0], -x[1]))
        if best > 0.0:
            raises.append((h, best, away))
    for h, best, away in raises:
        h.score += weight * best
        h.reasons.append(f"{away} turn{'s' if away > 1 else ''} from a turn that matches the question")


def mmr(hits: list[RankedHit], lam: float, limit: int) -> list[RankedHit]:
    """Maximal marginal relevance over word sets: skip near-duplicates of what is already chosen.

    The plain greedy pass (each pick takes the best ``lam`` x relevance - (1 - ``lam``) x its highest
    Jaccard similarity to the items chosen so far; ties go to the better-ranked candidate; a pick more
    than 0.9 similar to a chosen item is dropped), vectorized: the pool's word sets become a 0/1 matrix,
    and each pick updates every candidate's similarity at once from the columns of its own words. The
    arithmetic is the same float64 as the scalar pass, so the picks are identical.
    """
    if not hits:
        return []
    top = hits[0].score or 1.0
    pool = hits[: max(limit * 3, limit)]
    vocab: dict[str, int] = {}
    cols = [np.array([vocab.setdefault(w, len(vocab)) for w in _terms(h.record.text)], dtype=np.intp) for h in pool]
    incidence = np.zeros((len(pool), max(1, len(vocab))), dtype=np.float64)
    for i, c in enumerate(cols):
        incidence[i, c] = 1.0
    sizes = incidence.sum(axis=1)
    relevance = lam * (np.array([h.score for h in pool], dtype=np.float64) / top)
    max_sim = np.zeros(len(pool), dtype=np.float64)
    alive = np.ones(len(pool), dtype=bool)
    chosen: list[int] = []
    while len(chosen) < limit and alive.any():
        value = np.where(alive, relevance - (1 - lam) * max_sim, -np.inf)
        i = int(np.argmax(value))  # the first of equal values: the better-ranked candidate
        alive[i] = False
        if chosen and max_sim[i] > 0.9:
            continue  # a near-duplicate adds nothing
        chosen.append(i)
        if not len(cols[i]):
            continue  # an empty word set is similar to nothing
        shared = incidence[:, cols[i]].sum(axis=1)
        union = sizes + sizes[i] - shared
        np.maximum(max_sim, np.divide(shared, union, out=np.zeros_like(shared), where=union > 0), out=max_sim)
    return [pool[i] for i in chosen]


_ = MemoryKind
