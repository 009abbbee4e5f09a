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

from .keys import is_digest
from .models import MemoryKind, MemoryRecord
from .routing import QueryPlan
from .text import words
from .verification import StalenessConfig, Verdict, assess

__all__ = ["RECIPES", "RankedHit", "RetrievalConfig", "fuse_orders", "rank", "rrf", "score", "speaker_of"]


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
    feedback_floor: float = 0.2  # strong negative feedback sinks a memory this far at most
    recency_days: float = 90.0  # recency decays as exp(-age in days x volatility / recency_days)
    # a raw turn scores density_floor + density_weight x its density (ids, numbers, names per word)
    density_floor: float = 0.7
    density_weight: float = 0.6
    stale_factor: float = 0.8  # a memory marked "verify"
    kind_priors: bool = True  # the intent's kind weights (routing.plan_query) multiply the score
    window_boost: float = 1.5
    outside_window_factor: float = 0.7  # a question naming a time: what is outside it
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


def _terms(text: str) -> set[str]:
    return set(words(text))


def _similarity(a: set[str], b: set[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


_SPEAKER = re.compile(r"^([^:\n]{1,40}):")


def speaker_of(text: str) -> str | None:
    """The speaker of a raw turn (episodes read "<name or role>: <text>"), lowercased."""
    m = _SPEAKER.match(text)
    return m.group(1).strip().lower() if m else None


def score(
    r: MemoryRecord, fused: float, plan: QueryPlan, *, now: datetime, config: RetrievalConfig, verdict: Verdict,
) -> tuple[float, dict[str, float]]:
    """A candidate's score: its fused rank score (x100) times the named terms, each a factor from
    ``config``; returns the score and the terms that are not 1 (they explain the hit)."""
    terms: dict[str, float] = {}
    if config.kind_priors:
        terms["kind"] = plan.kind_weights.get(r.kind, 1.0)
    if r.kind == MemoryKind.EPISODE:
        # specific turns (ids, numbers, names) inform; "sounds good" does not
        terms["density"] = config.density_floor + config.density_weight * float(r.metadata.get("density", 0.5))
        if plan.names and speaker_of(r.text) in plan.names:
            terms["speaker"] = config.speaker_boost
    # recency: decays with the memory's volatility, so stable facts stay put
    age_days = max(0.0, (now - r.event_time).total_seconds() / 86400.0)
    recency = math.exp(-age_days * r.volatility / config.recency_days)
    terms["recency"] = 1.0 + config.recency_weight * (recency - 0.5)
    terms["confidence"] = 1.0 + config.confidence_weight * (r.confidence - 0.7)
    if plan.key_hints and r.key.startswith(plan.key_hints):
        terms["key_hint"] = config.key_hint_boost
    if r.feedback_score:
        terms["feedback"] = max(config.feedback_floor, 1.0 + config.feedback_weight * r.feedback_score)
    if plan.window is not None:
        terms["window"] = config.window_boost if plan.window.contains(r.event_time) else config.outside_window_factor
    if plan.domain is not None and r.domain not in (None, plan.domain):
        terms["other_domain"] = config.other_domain_factor
    if verdict == Verdict.VERIFY:
        terms["stale"] = config.stale_factor
    value = fused * 100.0
    for factor in terms.values():
        value *= factor
    return value, {k: v for k, v in terms.items() if v != 1.0}


def _explain(r: MemoryRecord, plan: QueryPlan, named: dict[str, float], marker: str | None) -> list[str]:
    """The reasons a hit's named terms give, in the order they apply."""
    out: list[str] = []
    if "kind" in named:
        out.append(f"kind {r.kind.value} x{named['kind']:.1f} for {plan.intent.value} intent")
    if "speaker" in named:
        out.append(f"spoken by {speaker_of(r.text)}, whom the question names")
    if "key_hint" in named:
        out.append(f"key {r.key} matches what the question is about")
    if "feedback" in named:
        out.append(f"feedback {r.feedback_score:+.1f}")
    if plan.window is not None and plan.window.contains(r.event_time):
        out.append(f"in time window '{plan.window.phrase}'")
    if "other_domain" in named:
        out.append(f"transferred from domain {r.domain!r} (transferable {r.kind.value})")
    if "stale" in named:
        out.append(f"stale: {marker}")
    return out


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
        value, named = score(r, base, plan, now=now, config=config, verdict=fresh.verdict)
        reasons.extend(_explain(r, plan, named, fresh.marker))
        if r.conflicts_with:
            reasons.append("conflict: " + ", ".join(c[:8] for c in r.conflicts_with))
        scored.append(RankedHit(r, value, reasons, fresh.marker if fresh.verdict == Verdict.VERIFY else None))
    if config.thread_weight and config.thread_reach > 0:
        _thread_support(scored, set(text_rank), config.thread_weight, config.thread_reach)
    # equal scores go by what the memory says, not by its random id (the same data must rank the same every run)
    scored.sort(key=lambda h: (-h.score, h.record.key, h.record.text, h.record.id))
    return mmr(scored, config.mmr_lambda, limit or plan.k)


_Position = tuple[tuple[str | None, datetime], int]


def _thread_position(r: MemoryRecord) -> _Position | None:
    """(the call that wrote the turn, its position in that call); ``None`` for anything but a raw turn."""
    if r.kind != MemoryKind.EPISODE or is_digest(r.key) or "seq" not in r.metadata:
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
