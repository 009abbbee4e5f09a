"""Full-text helpers of the storage adapters: what a record's index sees, FTS5 queries, which terms to score.

The words themselves (tokens, stopwords, stems) come from the top-level ``text`` module.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..models import MemoryRecord
from ..text import query_terms

__all__ = ["choose_terms", "fts5_match", "fts5_query", "search_body"]


def search_body(record: MemoryRecord) -> str:
    """What the full-text index sees: text, value, key words and augmented keywords."""
    key_words = record.key.replace(".", " ").replace("_", " ")
    return " ".join(p for p in (record.text, record.value, key_words, record.keywords) if p)


def fts5_match(words: Sequence[str]) -> str | None:
    """An FTS5 MATCH expression: each term quoted, OR-ed. None when empty.

    Quoting makes every user string a literal, so FTS syntax in queries
    (``NEAR(``, ``*``, ``:``, unbalanced quotes) is inert.
    """
    if not words:
        return None
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in words)


def fts5_query(text: str, max_terms: int = 32) -> str | None:
    return fts5_match(query_terms(text, max_terms))


def choose_terms(words: Sequence[str], estimate: Callable[[str], float] | None, budget_rows: int) -> list[str]:
    """The query terms worth ranking: the rarest first, while their estimated matching rows fit in
    ``budget_rows`` (at least one term, the rarest), in query order.

    Full-text ranking (``ts_rank_cd``, FTS5's ``bm25``) scores every row that matches any term of an
    OR query, across all users before the user filter; a term in 10% of the rows costs that much and
    adds almost no ranking signal (BM25 gives it nearly zero weight). ``estimate`` says how many
    rows contain a term; without it every term is kept.
    """
    if estimate is None or len(words) < 2:
        return list(words)
    est = [estimate(w) for w in words]
    order = sorted(range(len(words)), key=lambda i: (est[i], i))
    kept: list[int] = []
    total = 0.0
    for i in order:
        if kept and total + est[i] > budget_rows:
            break
        kept.append(i)
        total += est[i]
    return [words[i] for i in sorted(kept)]
