"""Text helpers shared by the storage adapters: tokens, stopwords, FTS queries."""

from __future__ import annotations

import re

from ..models import MemoryRecord

__all__ = ["STOPWORDS", "fts5_query", "search_body", "terms"]

_WORD = re.compile(r"[^\W_]+", re.UNICODE)

STOPWORDS = frozenset(
    ["a", "an", "the", "and", "or", "but", "if", "then", "else", "of", "to", "in", "on", "at", "by", "for", "with", "from", "as", "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "doing", "have", "has", "had", "having", "i", "me", "my", "mine", "myself", "you", "your", "yours", "we", "our", "us", "he", "him", "his", "she", "her", "it", "its", "they", "them", "their", "this", "that", "these", "those", "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "all", "any", "both", "each", "few", "more", "most", "other", "some", "such", "no", "nor", "not", "only", "own", "same", "so", "than", "too", "very", "can", "will", "just", "should", "would", "could", "shall", "may", "might", "must", "there", "here", "about", "into", "over", "under", "again", "further", "once", "up", "down", "out", "off", "also", "please", "tell", "know", "want", "like", "get", "got", "let", "lets", "ok", "okay", "yes", "hi", "hello", "thanks", "thank", "s", "t", "d", "ll", "m", "re", "ve"]
)


def terms(text: str) -> list[str]:
    """Lowercased word tokens without stopwords (order kept, duplicates kept)."""
    return [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS]


def search_body(record: MemoryRecord) -> str:
    """What the full-text index sees: text, value, key words and augmented keywords."""
    key_words = record.key.replace(".", " ").replace("_", " ")
    return " ".join(p for p in (record.text, record.value, key_words, record.keywords) if p)


def fts5_query(text: str, max_terms: int = 32) -> str | None:
    """An FTS5 MATCH expression: each distinct term quoted, OR-ed. None when empty.

    Quoting makes every user string a literal, so FTS syntax in queries
    (``NEAR(``, ``*``, ``:``, unbalanced quotes) is inert.
    """
    seen: dict[str, None] = {}
    for t in terms(text):
        seen.setdefault(t, None)
        if len(seen) >= max_terms:
            break
    if not seen:
        return None
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in seen)
