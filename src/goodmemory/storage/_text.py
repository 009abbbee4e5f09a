"""Text helpers shared by the storage adapters: tokens, stopwords, FTS queries."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from ..models import MemoryRecord

__all__ = ["STOPWORDS", "choose_terms", "fts5_match", "fts5_query", "index_terms", "query_terms", "search_body",
           "stem", "stemmed_query_terms", "terms"]

_WORD = re.compile(r"[^\W_]+", re.UNICODE)

STOPWORDS = frozenset(
    ["a", "an", "the", "and", "or", "but", "if", "then", "else", "of", "to", "in", "on", "at", "by", "for", "with", "from", "as", "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "doing", "have", "has", "had", "having", "i", "me", "my", "mine", "myself", "you", "your", "yours", "we", "our", "us", "he", "him", "his", "she", "her", "it", "its", "they", "them", "their", "this", "that", "these", "those", "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "all", "any", "both", "each", "few", "more", "most", "other", "some", "such", "no", "nor", "not", "only", "own", "same", "so", "than", "too", "very", "can", "will", "just", "should", "would", "could", "shall", "may", "might", "must", "there", "here", "about", "into", "over", "under", "again", "further", "once", "up", "down", "out", "off", "also", "please", "tell", "know", "want", "like", "get", "got", "let", "lets", "ok", "okay", "yes", "hi", "hello", "thanks", "thank", "s", "t", "d", "ll", "m", "re", "ve"]
)


def terms(text: str) -> list[str]:
    """Lowercased word tokens without stopwords (order kept, duplicates kept)."""
    return [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS]


@lru_cache(maxsize=1)
def _stemmer() -> Any:
    import snowballstemmer  # type: ignore[import-untyped]

    return snowballstemmer.stemmer("english")


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """English Snowball (Porter 2) stem of a lowercased term: scheduled/schedule -> schedul.

    SQLite's FTS5 stems with its ``porter`` tokenizer; PostgreSQL ('simple' config, so identifiers
    match as written) and the in-memory adapter index and query these stems, so that every adapter
    finds "painting" for "paints". Digits and identifiers come back unchanged.
    """
    return str(_stemmer().stemWord(word))


def index_terms(text: str) -> list[str]:
    """The stemmed terms of ``text`` (order and duplicates kept): what PostgreSQL and memory index."""
    return [stem(w) for w in terms(text)]


def stemmed_query_terms(text: str, max_terms: int = 32) -> list[str]:
    """Distinct stems of a query's terms, in order."""
    return list(dict.fromkeys(stem(w) for w in query_terms(text, max_terms)))


def search_body(record: MemoryRecord) -> str:
    """What the full-text index sees: text, value, key words and augmented keywords."""
    key_words = record.key.replace(".", " ").replace("_", " ")
    return " ".join(p for p in (record.text, record.value, key_words, record.keywords) if p)


def query_terms(text: str, max_terms: int = 32) -> list[str]:
    """Distinct terms of a query, in order (word characters, no stopwords)."""
    seen: dict[str, None] = {}
    for t in terms(text):
        seen.setdefault(t, None)
        if len(seen) >= max_terms:
            break
    return list(seen)


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
