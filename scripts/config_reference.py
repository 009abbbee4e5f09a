"""The README's configuration reference, generated from the config models (names, types, defaults, bounds).

    python scripts/config_reference.py            # print the Markdown
    python scripts/config_reference.py --write    # replace the block between the markers in README.md
    python scripts/config_reference.py --check    # exit 1 if README.md differs (tests/unit/test_config_reference.py)

Every field of ``GoodMemoryConfig``, ``StorageConfig`` and ``LLMConfig`` needs a line in ``MEANING`` (a new
field without one fails here and in the test), and every ``GOODMEMORY_*`` variable the package reads needs one
in ``ENV``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from goodmemory.config import GoodMemoryConfig, StorageConfig
from goodmemory.llm.client import LLMConfig

README = Path(__file__).resolve().parents[1] / "README.md"
START, END = "<!-- config-reference:start -->", "<!-- config-reference:end -->"

MEANING: dict[str, str] = {
    # GoodMemoryConfig
    "retrieval_recipe": "named retrieval preset: `BALANCED`, `PRECISE`, `BROAD` or `LEXICAL`",
    "extraction": "the extractor when none is passed: `rules` (offline), `llm` (`LLMExtractor`, needs an endpoint) or "
                  "`combined` (rules first, the LLM only for the turns they did not read)",
    "context_recipe": "named packing preset of `build_context`: `BALANCED` (recall's ranking fused with the raw turns "
                      "nearest by embedding, the dense floor, and the standing items) or `NO_DENSE_FLOOR`",
    "context_settings": "fields of `goodmemory.config.ContextConfig` set over the recipe (fusion weights, `fusion_k`, "
                        "preamble switch, the budget fill `fill_share`/`fill_depth`, how many dense turns fuse "
                        "`dense_fused_turns`, whether a question naming a speaker keeps that speaker's turns in the dense list "
                        "`dense_named_speakers`, the dense weight and thread support at compact budgets, the budget below which the block has no date headers unless the question asks about time `undated_below_tokens`), validated",
    "retrieval_settings": "fields of `goodmemory.ranking.RetrievalConfig` set over the recipe, e.g. "
                          "`{\"rrf_k\": 10, \"embed_meaning_text\": false}`; unknown names and wrong types are refused",
    "context_candidates": "recall hits `build_context` considers before packing",
    "context_item_max_tokens": "longest single item in a context; longer ones are cut",
    "focus_turns": "cut long raw turns in the context to the sentences sharing a word with the question "
                   "(cuts marked `…`, citations kept)",
    "core_profile_items": "most important profile facts every context leads with",
    "track_recalls": "write `recall_count` / `last_recalled_at` on every recall (a write per read)",
    "suppress_stale": "drop stale volatile facts instead of marking them `verify`",
    "min_confidence": "candidates below this confidence are rejected",
    "min_family_score": "a statement no rule keyed joins a key family only at this cosine to one of the family's "
                        "example statements (values masked); below it, a statement naming a value is kept as a "
                        "`fact.note` in the user's words, one naming none is not kept",
    "min_change_family_score": "the lower cosine at which a statement joins a single-valued family it says "
                               "changed (\"these days I X instead\") when the user gave that family a value before",
    "restatement_similarity": "a statement that says nothing changed replaces its family's current value only when "
                              "at least this alike the earlier statement (values masked); else it is its own note",
    "strong_family_score": "a statement at least this alike a single-valued family's examples replaces its current "
                           "value without saying it changed (\"we relocated to X\"); below it, only a restatement does",
    "same_attribute_similarity": "a statement saying something changed (\"now\", \"moved to\", \"not X\") "
                                 "supersedes the user's earlier statement at least this alike (cosine, values "
                                 "masked), whatever family either was filed under",
    "same_topic_similarity": "... or the earlier memory at least this alike with the values kept (\"a Kia "
                             "Sportage now\" is near \"I drive a Mazda3\"), when no other memory is within 0.05 "
                             "of it; 2.0 turns it off",
    "allow_secrets": "store passwords, API keys, card numbers, CVVs and government ids (off: rejected)",
    "redact_secrets_in_episodes": "redact those secrets in the raw turns kept as evidence",
    "keep_roles": "message roles kept as raw-turn evidence",
    "max_message_chars": "longer messages are truncated (with a warning in the result)",
    "hard_max_message_chars": "longer messages are refused (`InvalidInputError`)",
    "max_messages_per_call": "most messages one `remember` call takes",
    "max_memories_per_user": "cap per user; beyond it the least important, oldest memories are evicted "
                             "(open tasks and confirmed facts last); `None`: no cap",
    # StorageConfig (config={"storage": {...}})
    "pool_size": "PostgreSQL: pooled connections",
    "max_overflow": "PostgreSQL: connections beyond the pool",
    "pool_timeout_s": "PostgreSQL: wait for a free connection, then an error",
    "pool_recycle_s": "PostgreSQL: reconnect connections older than this; -1: never",
    "pool_pre_ping": "PostgreSQL: test each connection on checkout",
    "connect_timeout_s": "PostgreSQL: connection timeout",
    "application_name": "PostgreSQL: name shown in `pg_stat_activity`",
    "pg_schema": "PostgreSQL: schema for the tables (default: the search path's)",
    "ef_search": "pgvector HNSW search list size",
    "iterative_scan": "pgvector iterative index scans, so filters never starve the top-k",
    "hnsw_m": "pgvector HNSW graph degree",
    "hnsw_ef_construction": "pgvector HNSW build list size (at least 2 * `hnsw_m`)",
    "bulk_reindex_min_rows": "PostgreSQL bulk import: rebuild a partition's index after loads this large",
    "bulk_reindex_fraction": "... or this large a share of the partition",
    "index_build_memory_mb": "PostgreSQL: `maintenance_work_mem` for index builds",
    "busy_timeout_ms": "SQLite: wait this long for a lock held by another connection",
    "vacuum_on_delete": "SQLite: overwrite deleted content on disk (secure delete + incremental vacuum)",
    "text_rank_budget_rows": "full-text search scores at most about this many rows per query, rarest terms first",
    # LLMConfig (llm=LLMConfig(...), for LLMExtractor and the live eval)
    "base_url": "OpenAI-compatible endpoint; default `OPENAI_BASE_URL`, else the OpenAI API",
    "api_key": "default `OPENAI_API_KEY`",
    "model": "default `GOODMEMORY_LLM_MODEL`, then `OPENAI_MODEL`, then `gpt-4o-mini`",
    "timeout_s": "per request",
    "max_retries": "retries after the first attempt",
    "backoff_s": "wait before retry n: `backoff_s * 2**(n-1)`",
    "max_backoff_s": "... capped at this",
    "temperature": "sampling temperature",
    "use_json_schema": "ask for JSON-schema output (retried once without it if the endpoint refuses)",
}

ENV: dict[str, str] = {
    "GOODMEMORY_URL": "storage URL when `create_good_memory()` gets none (default: `goodmemory.db` in "
                      "`platformdirs.user_data_dir(\"goodmemory\")`)",
    "GOODMEMORY_CACHE_DIR": "where derived files are cached (the exported ONNX graph, the token ranks); default "
                            "`platformdirs.user_cache_dir(\"goodmemory\")`; safe to delete",
    "GOODMEMORY_EMBED_RUNTIME": "`onnx` (default) or `torch`: embed with sentence-transformers instead of ONNX Runtime",
    "GOODMEMORY_EMBED_THREADS": "ONNX Runtime intra-op threads of the embedder's session (default 1; set on the "
                                "session only)",
    "GOODMEMORY_EMBED_WORKER": "`0`: embed a `remember`'s turns on the calling thread instead of the process's one "
                               "embedding worker thread (default on for the ONNX MiniLM)",
    "GOODMEMORY_TORCH_THREADS": "opt-in: `torch.set_num_threads` when torch is loaded (process-wide; unset: untouched)",
    "GOODMEMORY_LLM_MODEL": "default model of `LLMConfig`",
    "GOODMEMORY_USER_ID": "the user of `goodmemory-mcp` over stdio (or `--user-id`)",
    "GOODMEMORY_API_KEYS": "API keys of `goodmemory-server`, `key=user_id,...` (or `--keys FILE`, a JSON object)",
    "GOODMEMORY_OTEL_CAPTURE_QUERY": "`1`: record the query text in OpenTelemetry spans",
    "GOODMEMORY_TEST_POSTGRES_URL": "tests only: run the PostgreSQL conformance and concurrency tests there",
}


def _default(field: Any) -> str:
    if field.default_factory is not None:
        try:
            value = field.default_factory()
        except TypeError:
            return "(computed)"
        if isinstance(value, BaseModel):
            return "(see below)"
        if field.default_factory.__name__ == "<lambda>":
            return "(from the environment)"
    else:
        value = field.default
    if value is PydanticUndefined:
        return "(required)"
    return f"`{value!r}`" if not isinstance(value, str) else f"`\"{value}\"`"


def _bounds(field: Any) -> str:
    parts = []
    for m in field.metadata:
        for attr, sym in (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<")):
            v = getattr(m, attr, None)
            if v is not None:
                parts.append(f"{sym} {v}")
    return f" ({', '.join(parts)})" if parts else ""


def _type(field: Any) -> str:
    t = field.annotation
    name = getattr(t, "__name__", None) or str(t)
    text = str(t).replace("typing.", "") if name.startswith(("Optional", "Literal")) or "|" in str(t) else name
    return text.replace("|", "\\|")  # inside a Markdown table cell


def _rows(model: type[BaseModel], prefix: str) -> list[str]:
    rows = []
    for name, field in model.model_fields.items():
        if name == "storage":
            continue
        rows.append(f"| `{prefix}{name}` | {_type(field)}{_bounds(field)} | {_default(field)} | {MEANING[name]} |")
    return rows


def render() -> str:
    head = "| setting | type | default | meaning |\n|---|---|---|---|"
    parts = [
        "`create_good_memory(config=GoodMemoryConfig(...) or a dict)`; unknown names and out-of-range values "
        "raise `ConfigurationError`.",
        "", head, *_rows(GoodMemoryConfig, ""), "",
        "Storage opened from a URL: `config={\"storage\": {...}}` (URL query parameters such as "
        "`?pool_size=10` override them on PostgreSQL).",
        "", head, *_rows(StorageConfig, "storage."), "",
        "An LLM for `LLMExtractor` and the live evaluation: `llm=LLMConfig(...)` from `goodmemory.llm`.",
        "", head, *_rows(LLMConfig, ""), "",
        "Environment variables (read when used; the library never sets any):",
        "", "| variable | meaning |", "|---|---|", *(f"| `{k}` | {v} |" for k, v in ENV.items()),
    ]
    return "\n".join(parts)


def readme_block(text: str) -> str | None:
    if START not in text or END not in text:
        return None
    return text.split(START, 1)[1].split(END, 1)[0].strip("\n")


def main(argv: list[str]) -> int:
    body = render()
    if "--write" in argv or "--check" in argv:
        text = README.read_text(encoding="utf-8")
        current = readme_block(text)
        if current is None:
            print(f"README.md has no {START} ... {END} block", file=sys.stderr)
            return 1
        if "--check" in argv:
            if current != body:
                print("README.md configuration reference is out of date: python scripts/config_reference.py "
                      "--write", file=sys.stderr)
                return 1
            return 0
        head, rest = text.split(START, 1)
        README.write_text(head + START + "\n" + body + "\n" + END + rest.split(END, 1)[1], encoding="utf-8")
        return 0
    print(body)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
