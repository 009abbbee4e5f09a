"""Full-text query building: literal terms, and which terms a search scores (both SQL adapters)."""

from __future__ import annotations

from goodmemory.storage._pg_sql import TermStats, tsquery_of
from goodmemory.storage._text import choose_terms, fts5_match
from goodmemory.text import query_terms


def _stats(rows: float, freqs: dict[str, float], floor: float = 0.0001) -> TermStats:
    elems = list(freqs)
    return TermStats.from_row((rows, elems, [*freqs.values(), floor, max(freqs.values())]))  # type: ignore[return-value]


def test_query_terms_are_distinct_literal_and_quoted() -> None:
    words = query_terms("The RED car, the red car's 'plate' & !tires:*")
    assert words == ["red", "car", "plate", "tires"]
    assert tsquery_of(words) == "'red' | 'car' | 'plate' | 'tires'"
    assert tsquery_of([]) is None and query_terms("the and of") == []
    assert fts5_match(words) == '"red" OR "car" OR "plate" OR "tires"' and fts5_match([]) is None


def test_without_statistics_every_term_is_kept() -> None:
    words = ["think", "painting", "weekend"]
    assert choose_terms(words, None, 10) == words
    assert TermStats.from_row(None) is None
    assert TermStats.from_row((-1.0, None, None)) is None  # never analyzed
    assert TermStats.from_row((1000.0, None, None)) is None


def test_rarest_terms_fit_the_budget_in_query_order() -> None:
    stats = _stats(100_000, {"think": 0.08, "last": 0.05, "weekend": 0.01, "painting": 0.003})
    assert stats.estimate("painting") == 300 and stats.estimate("unlisted") == 10
    words = ["think", "painting", "class", "last", "weekend"]  # "class" is unlisted: rarer than all
    assert choose_terms(words, stats.estimate, 5000) == ["painting", "class", "weekend"]  # + "last" would be 6310
    assert choose_terms(words, stats.estimate, 1000) == ["painting", "class"]
    assert choose_terms(words, stats.estimate, 1310) == ["painting", "class", "weekend"]
    assert choose_terms(words, stats.estimate, 10**9) == words
    # the rarest term is kept even when it alone is over the budget
    assert choose_terms(["think", "last"], stats.estimate, 10) == ["last"]
    assert choose_terms(["think"], stats.estimate, 10) == ["think"]


def test_stem_is_thread_safe() -> None:
    """Threads stemming at once get the stems one thread gets (a shared Snowball object mixed their words)."""
    import sys
    import threading

    from goodmemory import text

    base = ["scheduling", "painting", "relaxation", "organizational", "happiness", "running", "generously"]
    words = [f"{w}{'s' * (i % 3)}" for i in range(300) for w in base]
    expected = [text._stem_word(w) for w in words]
    results: list[list[str]] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            results.append([text._stem_word(w) for w in words for _ in range(3)][::3])
        except BaseException as exc:  # noqa: BLE001 - the failure under test is any exception
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads often, so that a shared stemmer shows its race every run
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []
    assert results == [expected] * 4
