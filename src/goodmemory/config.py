"""Configuration: one pydantic model with named retrieval recipes."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from .ranking import RECIPES, RetrievalConfig
from .verification import StalenessConfig

__all__ = ["CONTEXT_RECIPES", "ContextConfig", "GoodMemoryConfig", "StorageConfig", "default_storage_url"]


class StorageConfig(BaseModel):
    """Settings for the store ``create_good_memory`` opens from a URL (a Storage object passed in is
    used as it is). Pool, vector-index and bulk settings apply to PostgreSQL, where URL query
    parameters (``?pool_size=...``) override them; ``busy_timeout_ms`` and ``vacuum_on_delete`` to SQLite;
    ``text_rank_budget_rows`` to both."""

    model_config = ConfigDict(extra="forbid")

    # PostgreSQL connection pool (SQLAlchemy QueuePool): at most pool_size + max_overflow connections
    pool_size: int = Field(default=5, ge=1, le=1000)
    max_overflow: int = Field(default=5, ge=0, le=1000)
    pool_timeout_s: float = Field(default=30.0, gt=0, le=3600)  # wait for a free connection, then an error
    pool_recycle_s: int = Field(default=1800, ge=-1)  # reconnect connections older than this; -1: never
    pool_pre_ping: bool = False  # test each connection on checkout (a dropped one is retried once anyway)
    connect_timeout_s: int = Field(default=10, ge=1, le=600)
    application_name: str = Field(default="goodmemory", min_length=1, max_length=63)  # in pg_stat_activity
    pg_schema: str | None = Field(default=None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    # pgvector HNSW
    ef_search: int = Field(default=100, ge=1, le=1000)
    iterative_scan: Literal["relaxed_order", "strict_order", "off"] = "relaxed_order"
    hnsw_m: int = Field(default=16, ge=2, le=100)
    hnsw_ef_construction: int = Field(default=32, ge=4, le=1000)
    bulk_reindex_min_rows: int = Field(default=10_000, ge=1)
    bulk_reindex_fraction: float = Field(default=0.2, ge=0.0, le=1.0)
    index_build_memory_mb: int = Field(default=1024, ge=64)
    # SQLite
    busy_timeout_ms: int = Field(default=30_000, ge=0)
    vacuum_on_delete: bool = True
    # full text (both): score about this many rows per search at most, rarest query terms first
    text_rank_budget_rows: int = Field(default=2000, ge=1)

    @model_validator(mode="after")
    def _hnsw_build_list(self) -> StorageConfig:
        if self.hnsw_ef_construction < 2 * self.hnsw_m:
            raise ValueError("hnsw_ef_construction must be at least 2 * hnsw_m (a pgvector rule)")
        return self

    def postgres_options(self) -> dict[str, Any]:
        d = self.model_dump(exclude={"busy_timeout_ms", "vacuum_on_delete", "pg_schema"})
        return {**d, "schema": self.pg_schema}

    def sqlite_options(self) -> dict[str, Any]:
        return {"busy_timeout_ms": self.busy_timeout_ms, "vacuum_on_delete": self.vacuum_on_delete,
                "text_rank_budget_rows": self.text_rank_budget_rows}


class ContextConfig(BaseModel):
    """How ``build_context`` orders and packs; see ``CONTEXT_RECIPES`` for named presets.

    The context order is a rank fusion (``1 / (fusion_k + rank)`` per list, times the list's weight) of
    three lists: the ranked search (``recall``'s ranking plus open tasks and the facts of the families the
    question names), the raw turns nearest the question by embedding alone (the dense floor: no priors,
    no threshold) and the standing items (core profile, how the user wants answers).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    fusion_k: float = Field(default=5.0, gt=0)
    # the ranked list weighs less than the dense floor: at equal weight its places alternated with the floor's,
    # and on talk the ranking was never shaped on (a private held-out set of long everyday talk) the turns that
    # plain dense retrieval packs at rank 5-12 fell out of the block. Same stores, 1.0 -> 0.7 (0.5 / 0.3):
    # held-out preferences tune @500 0.327 -> 0.346 (0.355 / 0.402), service tune @150 0.675 -> 0.725; read sets
    # preferences tune @500 0.594 -> 0.623, test 0.617 -> 0.638; service test @150 0.679 -> 0.709; shared
    # user-memory @150 0.604 -> 0.646, @500 0.906 (0.3: 0.833); LoCoMo @500/@1000 0.781/0.859 -> 0.758/0.854
    # (0.5: 0.731/0.840); persona identical (0.5 and 0.3: one update check less)
    ranked_weight: float = Field(default=0.7, ge=0)
    # the dense floor at full strength: the nearest raw turns by embedding, as a plain baseline finds them
    dense_weight: float = Field(default=1.0, ge=0)
    standing_weight: float = Field(default=0.5, ge=0)
    # how the user wants answers (preference.communication, standing instructions) as a list of its own weight:
    # it applies to every answer, and an explanation request ("How does a heat pump work?") has no turn near it,
    # so at the standing weight (0.5) the style fell below the dense list's nearest small talk and out of a small
    # block. 0.5 -> 1.0, same stores: repo preferences tune @150/@200 0.443/0.491 -> 0.462/0.519 (test 0.394/0.500
    # -> 0.404/0.521); a private blind set of 200 preferences tune 0.274/0.340 -> 0.292/0.340 (test 0.415/0.436 ->
    # 0.436/0.500); service, persona and LoCoMo @1000 (0.853) the same. LoCoMo had fallen to 0.847 with the style
    # list at either weight while the rules still read "Always happy to help" as an instruction to the assistant
    style_weight: float = Field(default=1.0, ge=0)
    # what the question is about, as a list of its own: the facts of the families it names ("my car" ->
    # vehicle.*), newest first, and the open tasks when it asks what is pending
    hinted_weight: float = Field(default=1.0, ge=0)
    # a question asking for a recommendation or a choice ("What should I cook tonight?") is answered by the user's
    # tastes, needs and diet whatever words it uses: the taste_depth preferences nearest it, a list of this weight.
    # Same stores, tune halves, 0 -> 1.0 (1.5): private blind prefs20 @150/@500 0.321/0.566 -> 0.349/0.736
    # (0.453/0.736), prefs20close 0.536/0.701 -> 0.557/0.753, prefs20near 0.467/0.633 -> 0.522/0.733, repo
    # preferences 0.481/0.660 -> 0.519/0.698 (0.491/0.698), service 0.680/0.897 -> 0.697/0.897
    taste_weight: float = Field(default=1.0, ge=0)
    taste_depth: int = Field(default=6, ge=0)
    # the first dense_pinned turns of the dense list (generic replies aside) lead the context, whatever the other
    # lists rank: a floor by construction, the turn plain dense retrieval puts first is never fused out of a small
    # block by memories two lists share (the ranked search and the taste list). Same stores, tune halves, 0 -> 1:
    # @150 private blind prefs20close 0.567 -> 0.577, its sparse variant 0.649 -> 0.660, the other sets identical;
    # 2 lost on prefs20near and repo preferences @150 (0.544 -> 0.533, 0.509 -> 0.500)
    dense_pinned: int = Field(default=1, ge=0)
    # at budgets up to this, a memory and the turn it came from are one piece of evidence told once: the turn gives
    # way to the memory (where the turn stood; the memory says it in fewer words, with what it adds, "expires in 88
    # days"), and the room goes to the next item; two memories of one turn both stay. Same stores, tune halves,
    # with dense_pinned 1, 0 -> 300, @150/@200: repo preferences 0.509/0.613 -> 0.519/0.613, service 0.697/0.740 ->
    # 0.710/0.740, private blind prefs20 0.368/0.443 -> 0.396/0.491, prefs20-sparse 0.472/0.594 -> 0.528/0.642,
    # prefs20close 0.577/0.629 -> 0.598/0.649, its sparse variant 0.660/0.722 -> 0.680/0.753, prefs20near
    # 0.544/0.633 -> 0.556/0.633. Not at larger budgets: at 2000 the same sets gained 0.00-0.03 at 500/1000, but the
    # persona eval (800 tokens, blocks a third full) lost 22 of 114 cases, the turns' own words gone
    one_item_per_turn_below: int = Field(default=300, ge=0)
    # per family the question names, the newest hinted_depth memories are read and hinted_items of them shown,
    # the values a rule parsed before the user's words filed under the family by meaning
    hinted_depth: int = Field(default=12, ge=0)
    hinted_items: int = Field(default=6, ge=0)
    # the user's words filed under a named family join that family's list (else only the values a rule parsed do)
    hinted_statements: bool = False
    # a statement and the raw turn it quotes fuse as one item (the turn)
    fold_statements: bool = True
    # the dense list reads max_tokens // dense_turn_tokens turns (at least the retrieval candidates), so a
    # large budget has enough turns to fill it
    dense_turn_tokens: int = Field(default=16, ge=1)
    # the first dense_fused_turns of them fuse with the other lists, whatever the budget; the rest follow the fused
    # lists in dense order (a larger budget then reads deeper without reordering what a smaller one packs).
    # 60 -> 120 (all the turns a budget up to 1920 reads): at 2000 tokens the turns at dense rank 61-125 had come
    # after every item of the ranked list, and on a private held-out set of short stated preferences GoodMemory
    # fell below plain dense retrieval (tune 0.913 vs 0.962; 120: 0.952, test 0.917 -> 0.948, dense 0.917).
    # Identical below 1000 tokens; the other read sets identical at 1000/2000. Cost: between 1000 and 2000 tokens
    # more questions pack something at the smaller budget that the larger one leaves out (that set's tune half,
    # steps 500/1000/1500/2000: 30 -> 59 of 312)
    dense_fused_turns: int = Field(default=120, ge=0)
    # the user's raw turns are quoted without the "user: " label (a block of the user's memory: their words need no
    # speaker; the assistant's keep theirs, and named speakers are kept). 3 tokens of ~13 per item: at 150 tokens
    # the block fits about one more turn. Same stores, off -> on, gold recall tune/test: repo preferences @150
    # 0.462/0.394 -> 0.472/0.436, @1000 0.792/0.766 -> 0.802/0.766; service @150 0.667/0.731 -> 0.650/0.770, @500
    # 0.863/0.959 -> 0.880/0.959; private blind prefs20 @150 0.292/0.426 -> 0.302/0.436, @1000 0.708/0.777 ->
    # 0.764/0.798; its sparse-filler variant @150 0.415/0.553 -> 0.415/0.596; the blind close-topic set @150
    # 0.526/0.476 -> 0.526/0.505, its sparse variant @200 0.680/0.689 -> 0.711/0.670. No other figure fell
    unlabelled_user_turns: bool = True
    # when the question names someone who speaks in the turns found (a conversation between named people), the
    # dense list keeps that person's turns; the ranked list and the fill still reach the others. LoCoMo @1000, same
    # stored stores: 0.8385 -> 0.8515 (conversations by sha256 of the id, even 0.851 -> 0.859, odd 0.831 -> 0.847;
    # the named turns first instead of only them: 0.845). No turn of a user and an assistant has a named speaker.
    dense_named_speakers: bool = True
    # the dense list is searched with the question as asked, names and places included (as plain dense retrieval
    # of turns searches), while the ranked search embeds the question without the names it asks about
    # (RetrievalConfig.embed_meaning_text): masked, "Which bar should I go to in New Orleans?" had searched for
    # "... in New?" and the floor had lost the turns a plain baseline finds
    dense_whole_question: bool = True
    # at budgets of compact_below_tokens or less a few turns fill the block: the dense list weighs this much and
    # the ranking's thread support (RetrievalConfig.thread_weight; None: the retrieval's own) is this, so the
    # turns nearest by embedding go before a lexical hit's polite neighbours ("Let me check what we can do.").
    # Service tune @150, 3 id seeds: 1.5 and 0.0 lift 0.516 -> 0.581 (dense 0.566), preferences tune 0.349 -> 0.321
    # (dense 0.264). Off by default: an order that differs below and above compact_below_tokens breaks "a larger
    # budget never packs less" across that line (test_facade's 60..1000 walk failed 3 of 12 runs at 250 -> 500)
    compact_dense_weight: float = Field(default=1.0, ge=0)
    compact_thread_weight: float | None = Field(default=None, ge=0)
    # when the fused lists fill less than this share of the budget, the next raw turns nearest the question
    # (read fill_depth times deeper than the dense list) fill it; 0 turns the fill off
    fill_share: float = Field(default=0.95, ge=0, le=1)
    fill_depth: int = Field(default=4, ge=1)
    recent_loops: int = Field(default=10, ge=0)  # open loops offered to every context, newest first
    # open loops the search did not find join the ranked list at the score of this hit (0-based), or of
    # loops_at_rank_task for a question about what is pending
    loops_at_rank: int = Field(default=24, ge=0)
    loops_at_rank_task: int = Field(default=5, ge=0)
    loop_share: float = Field(default=0.9, ge=0)  # ... times this
    hinted_share: float = Field(default=0.9, ge=0)  # facts of the families the question names: the best score x this
    # the first item that does not fit goes in cut to the tokens left, if that leaves it this many tokens
    min_shortened_tokens: int = Field(default=8, ge=1)
    # the full preamble only when it costs at most this share of the budget; a short one otherwise
    full_frame_share: float = Field(default=0.1, ge=0, le=1)
    # at this budget or below the block has no section or date headers and cites items by id alone
    compact_below_tokens: int = Field(default=300, ge=0)
    # at this budget or below, unless the question asks about time (routing.asks_about_time), the block also has
    # no section or date headers; it packs as at larger budgets (fill, thread support, every turn kept as there).
    # The "### <date>" headers cost ~7 tokens per day shown: at 500 tokens preamble and headers took ~85 (17%),
    # and GoodMemory fitted 10-13 turns where plain dense retrieval of turns fitted 14-17. Read sets (same stores),
    # 0 -> 1000: preferences tune @500/@1000 0.575/0.726 -> 0.594/0.774, test 0.585/- -> 0.617/0.745; service
    # tune @500 0.757 -> 0.837, test 0.913 -> 0.932; 150/200/2000 identical; shared user-memory @500 0.906 both;
    # LoCoMo @500/@1000 0.765/0.852 -> 0.781/0.859 (temporal 0.794/0.870 -> 0.797/0.871); persona eval identical.
    # Kept off above 1000, where dates cost a small share. 0 turns it off
    undated_below_tokens: int = Field(default=1000, ge=0)
    # at compact budgets an assistant's turn with nothing specific in it (no number, code or name) that shares no
    # word (stemmed) with the question is left out: a few turns fill the block, and replies ("Let me check what we
    # can do.", "Sure, whenever you're ready.") took the places of the user's own turns the question needs.
    # Read sets @150/@200 (same stores): service tune 0.568/0.598 -> 0.614/0.710, test 0.575/0.673 -> 0.679/0.791;
    # preferences tune 0.396/0.443 -> 0.425/0.453, test 0.319/0.426 -> 0.362/0.447; 500-2000 identical
    compact_assistant_overlap: bool = True
    # an assistant's raw turn with nothing specific in it (no number, code or name; digest.density 0) weighs this
    # share of its fused score at every budget: generic advice ("Keep everything in writing.") tells nothing about
    # the user, and on a private held-out service set (the user's own helper giving complaint advice between the
    # facts) it took the places of the user's turns at every budget. Same stores, 1.0 -> 0.3 (0.5 / 0.0), tune:
    # held-out service @150/@500/@1000 0.419/0.694/0.825 -> 0.444/0.800/1.0 (0.444/0.750/0.925; 0.444/0.800/1.0),
    # held-out preferences @500/@1000/@2000 0.462/0.740/0.894 -> 0.500/0.769/0.913; read sets preferences @500
    # 0.632 -> 0.642, service @150/@500 0.644/0.833 -> 0.667/0.863. Shared user-memory @150 0.646 -> 0.688, @500
    # 0.906 both; LoCoMo @500/@1000 0.757/0.853 -> 0.757/0.854; persona eval identical
    generic_reply_share: float = Field(default=0.3, ge=0, le=1)


CONTEXT_RECIPES: dict[str, ContextConfig] = {
    "BALANCED": ContextConfig(),
    # without the dense floor (for A/B runs: what the floor adds): no raw turns read by embedding alone, neither
    # fused nor filling the budget
    "NO_DENSE_FLOOR": ContextConfig(dense_weight=0.0, fill_share=0.0),
}


class GoodMemoryConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # retrieval
    retrieval_recipe: str = "BALANCED"
    # fields of RetrievalConfig set over the recipe, e.g. {"rrf_k": 10, "embed_meaning_text": False}
    retrieval_settings: dict[str, Any] = Field(default_factory=dict)
    context_recipe: str = "BALANCED"
    context_settings: dict[str, Any] = Field(default_factory=dict)  # fields of ContextConfig over the recipe
    context_candidates: int = Field(default=40, ge=1, le=500)
    context_item_max_tokens: int = Field(default=90, ge=8)
    focus_turns: bool = True  # cut long raw turns to the sentences sharing a word with the question
    core_profile_items: int = Field(default=3, ge=0)
    track_recalls: bool = False  # write recall_count/last_recalled_at on every recall
    suppress_stale: bool = False  # drop stale volatile facts instead of marking them "verify"
    # write policy
    extraction: Literal["rules", "llm", "combined"] = "rules"  # used when no extractor is passed
    min_confidence: float = Field(default=0.35, ge=0.0, le=1.0)
    # a statement no rule keyed joins a key family only this alike one of its examples (cosine, values masked)
    min_family_score: float = Field(default=0.45, ge=-1.0, le=1.0)
    # ... or this alike when it says a single value the user gave before changed ("these days I X instead")
    min_change_family_score: float = Field(default=0.35, ge=-1.0, le=1.0)
    # a statement that says something changed replaces the user's earlier statement this alike (values masked)
    same_attribute_similarity: float = Field(default=0.5, ge=-1.0, le=1.0)
    # ... or the earlier memory this alike with the values kept, when clearly the nearest ("a Kia now" / "a Mazda3")
    same_topic_similarity: float = Field(default=0.45, ge=-1.0, le=2.0)
    # a statement saying nothing changed replaces its family's value only when this alike the earlier statement
    restatement_similarity: float = Field(default=0.8, ge=-1.0, le=1.0)
    # ... or when this alike the family's examples: a clear new value of a one-value attribute ("we relocated to X")
    strong_family_score: float = Field(default=0.6, ge=-1.0, le=1.0)
    allow_secrets: bool = False
    redact_secrets_in_episodes: bool = True
    keep_roles: tuple[str, ...] = ("user", "assistant", "tool")
    # limits
    max_message_chars: int = Field(default=20_000, ge=100)  # longer messages are truncated (noted in warnings)
    hard_max_message_chars: int = Field(default=1_000_000, ge=1000)  # longer ones are refused
    max_messages_per_call: int = Field(default=10_000, ge=1)
    max_memories_per_user: int | None = Field(default=None, ge=10)
    # storage opened from a URL
    storage: StorageConfig = Field(default_factory=StorageConfig)

    @field_validator("retrieval_recipe", "context_recipe")
    @classmethod
    def _known_recipe(cls, v: str, info: ValidationInfo) -> str:
        table: Mapping[str, object] = RECIPES if info.field_name == "retrieval_recipe" else CONTEXT_RECIPES
        if v not in table:
            what = (info.field_name or "recipe").replace("_", " ")
            raise ValueError(f"unknown {what} {v!r}; choose one of {sorted(table)}")
        return v

    @field_validator("retrieval_settings")
    @classmethod
    def _known_settings(cls, v: dict[str, Any]) -> dict[str, Any]:
        from dataclasses import fields, replace

        known = {f.name for f in fields(RetrievalConfig)} - {"staleness"}
        unknown = sorted(set(v) - known)
        if unknown:
            raise ValueError(f"unknown retrieval settings {unknown}; choose from {sorted(known)}")
        defaults = RetrievalConfig()
        for name, value in v.items():
            default = getattr(defaults, name)
            ok = (isinstance(value, bool) if isinstance(default, bool)
                  else isinstance(value, int | float) and not isinstance(value, bool) and value >= 0)
            if not ok:
                raise ValueError(f"retrieval setting {name} must be a {type(default).__name__}"
                                 f"{'' if isinstance(default, bool) else ' >= 0'}, got {value!r}")
        replace(defaults, **v)
        return v


    @model_validator(mode="after")
    def _context_settings_valid(self) -> GoodMemoryConfig:
        self.context()
        return self

    def context(self) -> ContextConfig:
        base = CONTEXT_RECIPES[self.context_recipe]
        return base.model_validate({**base.model_dump(), **self.context_settings}) if self.context_settings else base

    def retrieval(self) -> RetrievalConfig:
        base = RECIPES[self.retrieval_recipe]
        if self.retrieval_settings:
            from dataclasses import replace

            base = replace(base, **self.retrieval_settings)
        if self.suppress_stale != base.staleness.suppress_stale:
            from dataclasses import replace

            base = replace(base, staleness=StalenessConfig(suppress_stale=self.suppress_stale))
        return base


def default_storage_url() -> str:
    """``GOODMEMORY_URL`` if set, else a SQLite file in the user data directory."""
    env = os.environ.get("GOODMEMORY_URL")
    if env:
        return env
    try:
        from platformdirs import user_data_dir

        folder = Path(user_data_dir("goodmemory", appauthor=False))
    except ImportError:  # pragma: no cover
        folder = Path.home() / ".local" / "share" / "goodmemory"
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'goodmemory.db'}"
