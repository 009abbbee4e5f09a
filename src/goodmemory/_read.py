"""The read pipeline behind ``recall`` and ``build_context``."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TypeVar

import numpy as np

from ._outdated import without_denials
from ._read_lists import distinct_texts, is_statement, raw_turn, spoken_by, statement_turns
from ._replies import generic_reply, off_topic_reply
from ._shown import Replacements, outdated_shown
from .budget import pack
from .config import GoodMemoryConfig
from .context import Entry, render, render_frame, section_for
from .digest import digest_lines, excerpt, focus, sentences
from .embeddings import Embedder
from .models import (
    Context,
    ContextItem,
    DroppedItem,
    MemoryKind,
    MemoryRecord,
    MemoryStatus,
    RecallHit,
    RecallResult,
)
from .ranking import RankedHit, fuse_orders, rank, speaker_of
from .routing import Intent, QueryPlan, asks_about_time, plan_query
from .storage.base import ACTIVE_ONLY, MemoryFilter, Storage, TextQuery, VectorQuery, list_many
from .text import stem, terms
from .tokens import TokenCounter
from .verification import Verdict, assess

__all__ = ["ReadContext", "run_build_context", "run_recall"]

T = TypeVar("T")

# The query is embedded on the calling thread, after the storage reads: on a worker thread it was slower (the
# sentence-transformers wrapper holds the GIL, every SQLite call waits: recall p50 70-88 vs 31 ms at 10k), and with
# ONNX Runtime on a worker the reads took as much longer as the embedding saved (p50 29.7 vs 29.6 ms).


@dataclass
class ReadContext:
    storage: Storage
    embedder: Embedder
    config: GoodMemoryConfig
    tokens: TokenCounter


def _ranked(
    rc: ReadContext, query: str, *, user_id: str, domain: str | None, kinds: tuple[MemoryKind, ...] | None,
    limit: int, include_history: bool, now: datetime, meanwhile: Callable[[QueryPlan], T], vector_depth: int = 0,
    thread_weight: float | None = None, tags: tuple[str, ...] | None = None, whole_question_turns: bool = False,
) -> tuple[list[RankedHit], dict[str, object], T, list[MemoryRecord], np.ndarray]:
    """Searches both channels and ranks; ``meanwhile`` (more storage reads) runs before the query embeds.

    Also returns the raw turns the vector search found, nearest first (the dense floor of build_context),
    and the vector those turns were found by; ``vector_depth`` searches that deep at least.
    ``whole_question_turns``: those turns are the nearest to the question as asked, names included, as plain
    dense retrieval finds them, while the ranked search embeds its meaning text (without the names), unless a
    name the question asks about is a speaker of the turns (a conversation between named people).
    """
    cfg = rc.config.retrieval()
    if thread_weight is not None:
        cfg = replace(cfg, thread_weight=thread_weight)
    plan = plan_query(query, at=now, domain=domain, kinds=kinds, limit=limit)
    statuses = (MemoryStatus.ACTIVE, MemoryStatus.SUPERSEDED) if include_history else ACTIVE_ONLY
    flt = MemoryFilter(statuses=statuses, kinds=kinds, visible_in_domain=domain, tags=tags)
    # a question about a time ("on March 16, 2022") searches deeper, and what it finds from that time
    # competes as a channel of its own: the turns of that day rarely lead a search over the whole history
    depth = cfg.candidates * (cfg.window_depth if plan.window is not None and cfg.window_candidates else 1)
    t0 = time.perf_counter()
    text_all = rc.storage.search_text(user_id, TextQuery(query, depth, flt))
    extra = meanwhile(plan)
    t1 = time.perf_counter()
    asked = plan.meaning_text if cfg.embed_meaning_text else query
    whole = whole_question_turns and asked != query
    qvecs = rc.embedder.embed([asked, query] if whole else [asked])
    qvec = qvecs[0]
    vec_used = qvec
    t2 = time.perf_counter()
    vec_all = rc.storage.search_vector(user_id, VectorQuery(qvec, max(depth, vector_depth), flt))
    floor_all = rc.storage.search_vector(user_id, VectorQuery(qvecs[1], max(depth, vector_depth), flt)) if whole \
        else vec_all
    t3 = time.perf_counter()
    text_hits, vec_hits = text_all[: cfg.candidates], vec_all[: cfg.candidates]
    ids = tuple(dict.fromkeys([m for m, _ in text_all] + [m for m, _ in vec_all] + [m for m, _ in floor_all]))
    records = {r.id: r for r in rc.storage.list(user_id, MemoryFilter(statuses=None, memory_ids=ids))} if ids else {}
    in_window: list[list[str]] = []
    if plan.window is not None and cfg.window_candidates:
        for found in (text_all, vec_all):
            inside = [m for m, _ in found if m in records and plan.window.contains(records[m].event_time)]
            in_window.append(inside[: cfg.window_candidates])
    hits = rank(plan, records, text_hits, vec_hits, now=now, config=cfg, limit=limit, window_hits=in_window)
    turns = [r for m, _ in vec_all if (r := records.get(m)) is not None and raw_turn(r)]
    if whole:
        # the names are left out of the search for the people talking (turns that are mostly greetings of each
        # other): when one of them speaks in the turns found, the masked search stays the floor's
        names = set(plan.names)
        if not any(speaker_of(r.text) in names for r in turns):
            turns = [r for m, _ in floor_all if (r := records.get(m)) is not None and raw_turn(r)]
            vec_used = qvecs[1]
    t4 = time.perf_counter()
    trace = {
        "plan": plan.as_dict(),
        "text_candidates": len(text_hits),
        "vector_candidates": len(vec_hits),
        "window_candidates": sum(len(w) for w in in_window),
        # "text" includes the per-kind reads of build_context
        "timings_ms": {"text": round((t1 - t0) * 1e3, 2), "embed": round((t2 - t1) * 1e3, 2),
                       "vector": round((t3 - t2) * 1e3, 2), "rank": round((t4 - t3) * 1e3, 2)},
    }
    return hits, trace, extra, turns, vec_used


def run_recall(
    rc: ReadContext, query: str, *, user_id: str, domain: str | None, kinds: tuple[MemoryKind, ...] | None,
    limit: int, include_history: bool, now: datetime, tags: tuple[str, ...] | None = None,
) -> RecallResult:
    hits, trace, _, _, _ = _ranked(rc, query, user_id=user_id, domain=domain, kinds=kinds, limit=limit,
                                   include_history=include_history, now=now, meanwhile=lambda _: None, tags=tags)
    if rc.config.track_recalls and hits:
        rc.storage.mark_recalled(user_id, [h.record.id for h in hits], now)
    return RecallResult(
        query=query,
        hits=[RecallHit(memory=h.record, score=round(h.score, 6), reasons=h.reasons) for h in hits],
        plan=trace,
    )


_Digest = tuple[str, list[str], tuple[tuple[int, int, str], ...]]


def _digest_text(r: MemoryRecord, shown: dict[str, str], rc: ReadContext) -> _Digest | None:
    """A digest's text without the lines better-ranked turns already show, the turns of the lines it keeps and
    where each kept line is in the text (so that a cut shorter still cites only what it shows).

    ``shown`` maps message ids to the text already shown for them. Cites only lines that survive the cut to
    ``context_item_max_tokens``; ``None`` when nothing is left to show. The lines shown whole are added to
    ``shown`` (under the ids of their turns), so that a turn ranked lower is not repeated.
    """
    parsed = digest_lines(r)
    if parsed is None:  # an old digest without line ids: shown whole, citing all of its turns
        text = rc.tokens.truncate(r.text, rc.config.context_item_max_tokens)
        return (text if len(text) == len(r.text) else text + " …"), list(r.source.message_ids), ()
    head, lines = parsed
    lines = [(m, sent) for m, sent in lines if sent not in shown.get(m, "")]
    if not lines:
        return None
    full = head + " | ".join(sent for _, sent in lines)
    text = rc.tokens.truncate(full, rc.config.context_item_max_tokens)
    cited: list[str] = []
    spans: list[tuple[int, int, str]] = []
    at = len(head)
    least = rc.config.context().min_shortened_tokens
    for m, sent in lines:
        if at >= len(text):
            break
        if at + len(sent) > len(text) and rc.tokens.count(text[at:]) < least:  # cut to "user: I …": not shown
            text = text[:at].rstrip(" |")
            break
        if m not in cited:
            cited.append(m)
        spans.append((at, at + len(sent), m))
        at += len(sent) + 3
        if at <= len(text) + 3:
            shown[m] = shown.get(m, "") + "\n" + sent
    return ((text if len(text) == len(full) else text + " …"), cited, tuple(spans)) if cited else None


def _entry(r: MemoryRecord, score: float, flags: list[str], rc: ReadContext, focus_words: tuple[str, ...],
           shown: dict[str, str], compact: bool, covered_ok: bool = False) -> Entry | None:
    text = r.text
    cited = list(r.source.message_ids)
    spans: tuple[tuple[int, int, str], ...] = ()
    if r.kind == MemoryKind.EPISODE and r.metadata.get("digest"):
        cut = _digest_text(r, shown, rc)
        if cut is None:
            return None
        text, cited, spans = cut
    elif r.kind == MemoryKind.EPISODE:
        if rc.config.context().unlabelled_user_turns:
            text = text.removeprefix("user: ")
        full = focus(excerpt(text), focus_words)
        seen = [shown.get(m, "") for m in r.source.message_ids]
        if not covered_ok and any(seen) and all(any(sent in s for s in seen) for sent in sentences(full)):
            return None  # a better-ranked digest already shows every sentence of it
        text = rc.tokens.truncate(full, rc.config.context_item_max_tokens)
        if len(text) < len(full):
            text += " …"
    e = Entry(memory_id=r.id, kind=r.kind, section=section_for(r.kind), text=text,
              date=r.event_time.strftime("%Y-%m-%d"), source_message_ids=cited,
              # the timeline's order: turns of one call share a timestamp, so creation and position break ties
              at=f"{r.event_time.isoformat()} {r.created_at.isoformat()} {int(r.metadata.get('seq', 0)):06d}",
              flags=flags, score=score, spans=spans)
    e.tokens = rc.tokens.count(e.line(in_timeline=compact or e.section == "history")) + 1
    return e


def _shortened(e: Entry, room: int, tokens: TokenCounter, least: int, compact: bool) -> Entry | None:
    """The entry cut to whole words that fit ``room`` tokens (its line included), or ``None`` when fewer
    than ``least`` tokens of its text would be left."""
    line_cost = tokens.count(e.line(in_timeline=compact or e.section == "history")) - tokens.count(e.text)
    keep = room - line_cost - 2  # the " …" mark
    if keep < least:
        return None
    cut = tokens.truncate(e.text, keep)
    if " " in cut and len(cut) < len(e.text):
        cut = cut.rsplit(" ", 1)[0]
    if tokens.count(cut) < least or len(cut) >= len(e.text):
        return None
    if not e.spans:
        return replace(e, text=cut + " …", tokens=room)
    # a digest cut short cites the lines it shows whole, or at least ``least`` tokens of: a line cut to its
    # speaker ("assistant: Of …") shows nothing of its turn, and citing it would claim what the block lacks
    kept = tuple((a, min(b, len(cut)), m) for a, b, m in e.spans
                 if a < len(cut) and (b <= len(cut) or tokens.count(cut[a:]) >= least))
    if not kept:
        return None
    return replace(e, text=cut + " …", tokens=room, spans=kept,
                   source_message_ids=list(dict.fromkeys(m for _, _, m in kept)))


def nearest(rc: ReadContext, user_id: str, qvec: np.ndarray, kind: MemoryKind, depth: int, domain: str | None,
            tags: tuple[str, ...] | None, prefix: str | None = None) -> list[MemoryRecord]:
    """The active memories of ``kind`` (keys under ``prefix``) nearest the question by embedding, nearest first."""
    flt = MemoryFilter(kinds=(kind,), visible_in_domain=domain, tags=tags, key_prefix=prefix)
    ids = tuple(m for m, _ in rc.storage.search_vector(user_id, VectorQuery(qvec, depth, flt)))
    found = {r.id: r for r in rc.storage.list(user_id, MemoryFilter(memory_ids=ids))} if ids else {}
    return [r for m in ids if (r := found.get(m)) is not None]


def _fill(rc: ReadContext, add: Callable[..., None], order: list[Entry], qvec: np.ndarray, *, user_id: str,
          domain: str | None, max_tokens: int, searched: int, tags: tuple[str, ...] | None = None) -> None:
    """Spends the budget the fused lists leave: the next raw turns nearest the question, in dense order.

    The fused lists run out before a large budget does when many of their turns are dropped (said word for
    word before, shown by a digest) and when the vector search spent its depth on facts and digests: service
    set @1000, 585 of 1000 tokens used. A first pass adds turns no digest shows; a second the turns a digest
    shows in part (each whole, with its date and its own citation). Runs only when the budget is not filled.
    """
    cc = rc.config.context()
    # not at compact budgets: the fused lists read far more than 300 tokens of turns, and a fill there put a turn
    # in the 250-token block that the 500-token one (filled by the fused lists) did not hold (test_facade)
    if (cc.fill_share <= 0 or max_tokens <= cc.compact_below_tokens
            or sum(e.tokens for e in order) >= cc.fill_share * max_tokens):
        return
    depth = searched + cc.fill_depth * (max_tokens // cc.dense_turn_tokens)
    turns = [r for r in nearest(rc, user_id, qvec, MemoryKind.EPISODE, depth, domain, tags) if raw_turn(r)]
    for covered_ok in (False, True):
        for r in turns:
            if sum(e.tokens for e in order) > max_tokens:
                return
            add(r, 0.0, covered_ok)


def run_build_context(
    rc: ReadContext, query: str, *, user_id: str, domain: str | None, max_tokens: int, now: datetime,
    tags: tuple[str, ...] | None = None,
) -> tuple[Context, list[str]]:
    cfg = rc.config
    cc = cfg.context()
    t0 = time.perf_counter()

    def standing(plan: QueryPlan) -> list[list[MemoryRecord]]:
        """The reads every context makes besides the searches, in one round trip."""
        return list_many(rc.storage, user_id, [
            # the core profile: the most important facts about the user (identity frames every answer)
            (MemoryFilter(kinds=(MemoryKind.PROFILE,), visible_in_domain=domain, most_important_first=True, tags=tags),
             cfg.core_profile_items),
            # the newest open loops compete by default; older ones only when the search finds them relevant
            (MemoryFilter(kinds=(MemoryKind.OPEN_LOOP,), visible_in_domain=domain, newest_first=True, tags=tags),
             3 * cc.recent_loops),
            # how the user wants to be answered applies to every answer, whatever the question
            (MemoryFilter(kinds=(MemoryKind.PREFERENCE,), key_prefix="preference.communication.",
                          visible_in_domain=domain, newest_first=True, tags=tags), 3),
            # ... and the standing instructions to the assistant ("I'd rather you gave me one recommendation")
            (MemoryFilter(kinds=(MemoryKind.PREFERENCE,), key_prefix="preference.instruction.",
                          visible_in_domain=domain, newest_first=True, tags=tags), 3),
            # facts of the families the question points at ("my car" -> vehicle.*), even if the words differ
            # (read deeper than shown: the facts a rule parsed go before the user's words filed under the family)
            *((MemoryFilter(key_prefix=prefix, visible_in_domain=domain, newest_first=True, tags=tags), cc.hinted_depth)
              for prefix in plan.key_hints),
        ])

    hits, trace, (profile, loops, style, asked, *hinted), turns, qvec = _ranked(
        rc, query, user_id=user_id, domain=domain, kinds=None, limit=cfg.context_candidates, include_history=False,
        now=now, meanwhile=standing, vector_depth=max_tokens // cc.dense_turn_tokens, tags=tags,
        thread_weight=cc.compact_thread_weight if max_tokens <= cc.compact_below_tokens else None,
        whole_question_turns=cc.dense_whole_question)
    loops = [r for r in loops if r.metadata.get("state", "open") == "open"][: cc.recent_loops]
    style = sorted([*style, *asked], key=lambda r: (-r.event_time.timestamp(), r.key))[:3]
    # a family's statements ("The user said: ...") must not crowd out the values it parsed (user-memory @500 -0.04)
    hinted = [sorted(found, key=lambda r: (is_statement(r), -r.event_time.timestamp(), r.key))[: cc.hinted_items]
              for found in hinted]
    if not cc.hinted_statements:  # the user's words are found by the search and the dense list as it is
        hinted = [[r for r in found if not is_statement(r)] for found in hinted]
    staleness = cfg.retrieval().staleness
    plan_d = trace.get("plan")
    plan_names = set(plan_d.get("names", ())) if isinstance(plan_d, dict) else set()
    # long turns are cut to the sentences that share a word with the question (digest.focus)
    focus_words = tuple(w for w in terms(query) if w not in plan_names) if cfg.focus_turns else ()
    compact = max_tokens <= cc.compact_below_tokens
    # no section or date headers below undated_below_tokens, unless the question asks about time
    temporal = asks_about_time(query) or (isinstance(plan_d, dict) and plan_d.get("window") is not None)
    lean = compact or (max_tokens <= cc.undated_below_tokens and not temporal)
    dropped: list[DroppedItem] = []
    by_id: dict[str, Entry] = {}
    order: list[Entry] = []
    conflicts: dict[str, MemoryRecord] = {}
    shown: dict[str, str] = {}  # message id -> the text of it that earlier (better-ranked) turns show
    said: set[str] = set()  # the texts of the raw turns chosen: a turn said again word for word adds nothing
    latest = Replacements(rc.storage, user_id)  # what replaces an outdated turn's value now

    query_stems = {stem(w) for w in terms(query)} if compact and cc.compact_assistant_overlap else None
    once, by_memory, turn_ids = max_tokens <= cc.one_item_per_turn_below, set[str](), set[str]()

    def add(r: MemoryRecord, score: float, covered_ok: bool = False) -> None:
        if r.id in by_id or (query_stems is not None and off_topic_reply(r, query_stems)):
            return
        fresh = assess(r, now, staleness)
        if fresh.verdict == Verdict.HIDDEN:
            return
        if fresh.verdict == Verdict.SUPPRESS:
            dropped.append(DroppedItem(memory_id=r.id, section=section_for(r.kind), reason=f"stale: {fresh.marker}"))
            return
        flags = [fresh.marker] if fresh.marker else []
        r = outdated_shown(r)
        for mark in r.metadata.get("outdated", []) if r.kind == MemoryKind.EPISODE else []:
            if mark.get("retracted"):
                flags.append("retracted by the user")  # what it said is hidden in it (_marks.retract_sources)
                continue
            # the flag names only the new value: the old one is the turn's own words, or hidden in them
            # a replacement may itself have been replaced since: both are named, the later one last (a wrong
            # link further down the chain must not hide the value the turn was first replaced by)
            later, denies = latest.now(mark)
            hidden = [*mark.get("hide", []), *denies]
            body = without_denials(str(mark["new"]), hidden)
            if later != str(mark["new"]):
                body += f"; later: {without_denials(later, hidden)}"
            flags.append(f"outdated, now: {body}")
        if r.conflicts_with:
            partners = [conflicts.get(c) or rc.storage.get(user_id, c) for c in r.conflicts_with]
            values = [r.value] + [p.value for p in partners if p is not None and p.status == MemoryStatus.ACTIVE]
            if len(values) > 1:
                flags.append("conflict: " + " vs ".join(values))
        e = _entry(r, score, flags, rc, focus_words, shown, lean, covered_ok)
        if e is None:
            return
        ids = set(e.source_message_ids)
        if once and raw_turn(r) and ids and ids <= by_memory:
            return  # a memory that came from this turn is in the block: one piece of evidence, told once
        at = len(order)
        if once and r.kind != MemoryKind.EPISODE and ids:
            by_memory.update(ids)
            # ... and the turn a memory came from gives way to it, where the turn stood (the memory says it in
            # fewer words, with what it adds: "expires in 88 days", "outdated, now: ...")
            gone = [i for i, o in enumerate(order) if o.memory_id in turn_ids and set(o.source_message_ids) <= ids]
            if gone:
                at = gone[0]
                for i in reversed(gone):
                    for m in order[i].source_message_ids:
                        shown.pop(m, None)
                    by_id.pop(order.pop(i).memory_id, None)
        if raw_turn(r):
            turn_ids.add(r.id)
            if e.text in said:
                return
            said.add(e.text)
        if r.kind == MemoryKind.EPISODE and not r.metadata.get("digest"):
            # as the digests' lines say it: with its speaker, which the block leaves out of the user's own turns
            told = f"user: {e.text}" if r.text.startswith("user: ") and not e.text.startswith("user: ") else e.text
            for m in e.source_message_ids:
                shown[m] = shown.get(m, "") + "\n" + told
        by_id[r.id] = e
        order.insert(at, e)

    top_score = hits[0].score if hits else 1.0
    ranked_extra = [(h.record, h.score) for h in hits]
    # open loops the search did not find fill in after the relevant history (the score of the 25th hit);
    # a question about what is pending ("where were we", "to-do") leads with them (the 6th hit's score).
    # LoCoMo @1000, conv-42/43/44/47: 0.791 -> 0.804, where 8 of 23 places had gone to unrelated tasks
    task = isinstance(plan_d, dict) and plan_d.get("intent") == Intent.TASK_CONTINUATION.value
    rank = cc.loops_at_rank_task if task else cc.loops_at_rank
    baseline = hits[min(len(hits) - 1, rank)].score if hits else 0.5
    hit_ids = {rec.id for rec, _ in ranked_extra}
    for r in loops:
        if r.id not in hit_ids:
            ranked_extra.append((r, baseline * cc.loop_share))
            hit_ids.add(r.id)
    # facts of the families the question names ("which of my cards" -> card.*) come right after the best hit
    hinted_score = top_score * cc.hinted_share
    hinted_ids = {r.id for found in hinted for r in found if r.kind != MemoryKind.EPISODE}
    ranked_extra = [(r, max(sc, hinted_score) if r.id in hinted_ids else sc) for r, sc in ranked_extra]
    for found in hinted:
        for r in found:
            if r.id not in hit_ids and r.id in hinted_ids:
                ranked_extra.append((r, hinted_score))
                hit_ids.add(r.id)
    # ties keep the order they came in (hits, then open tasks and family facts newest first), not the random ids
    ranked_extra.sort(key=lambda x: -x[1])
    # the context order fuses the ranked list, the nearest raw turns by embedding alone (the dense floor), the
    # standing items (core profile, answer style) by rank, and what the question is about (the families it names,
    # the open tasks when it asks what is pending)
    about = [r for found in hinted for r in found if r.id in hinted_ids] + (loops if task else [])
    # one place per distinct text: a reply said in every session ("Let me check what we can do.") took the first
    # four places of the dense list on the service set and pushed the user's turns down (the packing shows it once)
    distinct = distinct_texts(turns)
    if cc.dense_named_speakers and plan_names:
        distinct = spoken_by(distinct, plan_names)
    choice = cc.taste_weight > 0 and isinstance(plan_d, dict) and plan_d.get("intent") == Intent.PREFERENCE.value
    # the tastes and health conditions nearest a question asking for a choice, not another domain's (the ranking's)
    tastes = [[r for r in nearest(rc, user_id, qvec, kind, cc.taste_depth, domain, tags, key) if r.domain in (None, domain)]
              for kind, key in ((MemoryKind.PREFERENCE, None), (MemoryKind.FACT, "fact.health."))] if choice else []
    lists = [([r for r, _ in ranked_extra], cc.ranked_weight),
             (distinct[:cc.dense_fused_turns], cc.compact_dense_weight if compact and cc.dense_weight else cc.dense_weight),
             # the core profile and the answer style as two lists: as one, a full profile put the style at ranks 5-7
             # ("Draft a note to the council" lost "User prefers British spelling"; held-out prefs @500 +0.02)
             (profile, cc.standing_weight), (style, cc.style_weight), (about, cc.hinted_weight),
             *((found, cc.taste_weight) for found in tastes)]
    pool = {r.id: r for found, _ in lists for r in found}
    # a statement quotes one turn: it and the raw turn are one piece of evidence, so they fuse as one (the turn,
    # which carries its date and its neighbours) instead of splitting their ranks and both taking budget
    same = statement_turns(pool.values()) if cc.fold_statements else {}
    fused = fuse_orders([[same.get(r.id, r.id) for r in found] for found, _ in lists], [w for _, w in lists],
                        cc.fusion_k)
    if cc.generic_reply_share < 1.0:
        fused = sorted(((m, sc * cc.generic_reply_share if generic_reply(pool[m]) else sc) for m, sc in fused),
                       key=lambda x: -x[1])
    if cc.dense_pinned:
        pinned = set([r.id for r in distinct if not generic_reply(r)][: cc.dense_pinned])
        fused = [(m, sc) for m, sc in fused if m in pinned] + [(m, sc) for m, sc in fused if m not in pinned]
    latest.prefetch(pool.values())
    for mid, score in fused:
        # past the budget nothing more can be packed (the prefix rule): one entry over it is enough
        if sum(e.tokens for e in order) > max_tokens:
            break
        add(pool[mid], score)
    # the dense list deeper than the fusion reads, in its own order after the fused lists: fused whole, the turns
    # a larger budget reads deeper would reorder what a smaller one packs (preferences tune, 1000 -> 2000 tokens:
    # 44 of 106 questions packed less at 2000)
    for r in distinct[cc.dense_fused_turns:] if cc.dense_weight else ():
        if sum(e.tokens for e in order) > max_tokens:
            break
        add(r, 0.0)
    _fill(rc, add, order, qvec, user_id=user_id, domain=domain, max_tokens=max_tokens, searched=len(turns),
          tags=tags)

    frame = render_frame(max_tokens, cc.full_frame_share, rc.tokens.count)
    result = pack(order, max_tokens, render=lambda entries: render(entries, frame=frame, compact=lean),
                  count=rc.tokens.count, item_tokens=lambda e: e.tokens,
                  overhead_tokens=lambda chosen, e: 0 if lean else (
                      (0 if any(c.section == e.section for c in chosen) else 6)
                      + (7 if e.section == "history" and all(c.date != e.date for c in chosen) else 0)),
                  shorten=lambda e, room: _shortened(e, room, rc.tokens, cc.min_shortened_tokens, lean))
    for e in result.dropped:
        dropped.append(DroppedItem(memory_id=e.memory_id, section=e.section, tokens=e.tokens,
                                   reason=f"over budget ({max_tokens} tokens)"))
    items = [
        ContextItem(memory_id=e.memory_id, kind=e.kind, section=e.section, text=e.text, tokens=e.tokens,
                    source_message_ids=e.source_message_ids, date=e.date, flags=e.flags)
        for e in result.selected
    ]
    trace["selected"] = [{"id": e.memory_id, "score": round(e.score, 5), "section": e.section} for e in result.selected]
    trace["reasons"] = {h.record.id: h.reasons for h in hits}
    trace["renders"] = result.renders
    trace["total_ms"] = round((time.perf_counter() - t0) * 1e3, 2)
    if not items:
        result.text, result.tokens = "", 0
    ctx = Context(text=result.text, items=items, tokens=result.tokens, max_tokens=max_tokens, dropped=dropped,
                  trace=trace)
    return ctx, [e.text for e in result.selected if e.kind != MemoryKind.EPISODE]
