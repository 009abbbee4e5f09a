"""Words of a text (pure): the one tokenizer, stopword list and stemmer of search and reading.

Storage indexes and queries these terms, routing spots names with the stopwords, digest cuts turns
to the sentences that share a term with the question, ranking compares the words of two texts.
Slot keys are built with taxonomy's own, smaller stopword list and crude stemmer (a key must not
lose words such as "next" or keep "tell"); the two differ on purpose.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from typing import Any

__all__ = ["STOPWORDS", "index_terms", "prefix_stem", "query_terms", "stem", "stemmed_query_terms", "terms", "words"]

_WORD = re.compile(r"[^\W_]+", re.UNICODE)

STOPWORDS = frozenset(
    ["a", "an", "the", "and", "or", "but", "if", "then", "else", "of", "to", "in", "on", "at", "by", "for", "with", "from", "as", "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "doing", "have", "has", "had", "having", "i", "me", "my", "mine", "myself", "you", "your", "yours", "we", "our", "us", "he", "him", "his", "she", "her", "it", "its", "they", "them", "their", "this", "that", "these", "those", "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "all", "any", "both", "each", "few", "more", "most", "other", "some", "such", "no", "nor", "not", "only", "own", "same", "so", "than", "too", "very", "can", "will", "just", "should", "would", "could", "shall", "may", "might", "must", "there", "here", "about", "into", "over", "under", "again", "further", "once", "up", "down", "out", "off", "also", "please", "tell", "know", "want", "like", "get", "got", "let", "lets", "ok", "okay", "yes", "hi", "hello", "thanks", "thank", "s", "t", "d", "ll", "m", "re", "ve"]
)


def words(text: str) -> list[str]:
    """Lowercased word tokens (letters and digits of any script; ``_`` and punctuation split)."""
    return _WORD.findall(text.lower())


def terms(text: str) -> list[str]:
    """Lowercased word tokens without stopwords (order kept, duplicates kept)."""
    return [w for w in words(text) if w not in STOPWORDS]


_LOCAL = threading.local()


def _stemmer() -> Any:
    # A Snowball stemmer keeps the word it works on in the object: one shared by threads mixes their
    # words ("string index out of range"), so each thread has its own
    found = getattr(_LOCAL, "stemmer", None)
    if found is None:
        import snowballstemmer  # type: ignore[import-untyped]

        found = _LOCAL.stemmer = snowballstemmer.stemmer("english")
    return found


def _stem_word(word: str) -> str:
    return str(_stemmer().stemWord(word))


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """English Snowball (Porter 2) stem of a lowercased term: scheduled/schedule -> schedul.

    SQLite's FTS5 stems with its ``porter`` tokenizer; PostgreSQL ('simple' config, so identifiers
    match as written) and the in-memory adapter index and query these stems, so that every adapter
    finds "painting" for "paints". Digits and identifiers come back unchanged. Thread-safe.
    """
    return _stem_word(word)


def prefix_stem(word: str) -> str:
    """A looser match than :func:`stem`: the first four letters (seat/seats, paint/painting, relax/relaxing).

    Only ``digest.focus`` uses it, to choose which sentences of a long turn a question touches; it was
    measured there (see its docstring), and Snowball in its place cost one persona-eval case ("weekend" no
    longer touches the "weekly schedule" sentence, so a long turn stayed whole), so it stays — here, beside the
    stemmer, so that every way a word is normalized has one owner.
    """
    return word[:4]


def index_terms(text: str) -> list[str]:
    """The stemmed terms of ``text`` (order and duplicates kept): what PostgreSQL and memory index."""
    return [stem(w) for w in terms(text)]


def query_terms(text: str, max_terms: int = 32) -> list[str]:
    """Distinct terms of a query, in order (word characters, no stopwords)."""
    seen: dict[str, None] = {}
    for t in terms(text):
        seen.setdefault(t, None)
        if len(seen) >= max_terms:
            break
    return list(seen)


def stemmed_query_terms(text: str, max_terms: int = 32) -> list[str]:
    """Distinct stems of a query's terms, in order."""
    return list(dict.fromkeys(stem(w) for w in query_terms(text, max_terms)))
