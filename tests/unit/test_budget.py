"""budget.pack with the real token counter and the real renderer: exact, monotone, never over."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goodmemory.budget import PackResult, pack
from goodmemory.context import SECTIONS, Entry, render
from goodmemory.models import MemoryKind
from goodmemory.tokens import count_tokens

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# emoji, RTL (Hebrew/Arabic), combining marks, CJK, ZWJ and direction overrides alongside any other text
_SPICE = "👩‍👩‍👧🇵🇹🔥שלום مرحبا\u200f\u202e\u0301日本語\u200d<>\"\\\n\t"
texts = st.one_of(
    st.text(max_size=120),
    st.text(alphabet=st.sampled_from(list(_SPICE) + list("abc xyz")), max_size=80),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=200),
)
entries = st.builds(
    Entry,
    memory_id=st.text(alphabet="0123456789abcdef", min_size=32, max_size=32),
    kind=st.sampled_from(list(MemoryKind)),
    section=st.sampled_from([s for s, _ in SECTIONS]),
    text=texts,
    date=st.one_of(st.none(), st.dates().map(lambda d: d.isoformat())),
    source_message_ids=st.just([]),
    flags=st.lists(st.sampled_from(["last confirmed 2024-03; verify", "conflict: Lisbon vs Porto"]),
                   max_size=2, unique=True),
)
entry_lists = st.lists(entries, max_size=25)
budgets = st.integers(min_value=1, max_value=600)


def _est(e: Entry) -> int:
    return count_tokens(e.line()) + 1


def _overhead(chosen: Sequence[Entry], e: Entry) -> int:
    return 0 if any(c.section == e.section for c in chosen) else 6


def _pack(items: list[Entry], budget: int, **kw: object) -> PackResult[Entry]:
    args: dict[str, object] = {"render": render, "count": count_tokens, "item_tokens": _est,
                               "overhead_tokens": _overhead}
    args.update(kw)
    return pack(items, budget, **args)  # type: ignore[arg-type]


FRAME = count_tokens(render([]))


def _check(items: list[Entry], budget: int, res: PackResult[Entry]) -> None:
    assert res.selected + res.dropped == items
    if budget < FRAME:
        assert res.selected == [] and res.text == "" and res.tokens == 0
        return
    assert res.text == render(res.selected)
    assert res.tokens == count_tokens(res.text)
    assert res.tokens <= budget
    # maximal: the next item would not have fitted
    if res.dropped:
        assert count_tokens(render(items[: len(res.selected) + 1])) > budget


@SETTINGS
@given(entry_lists, budgets)
def test_never_over_budget_measured_on_final_text(items: list[Entry], budget: int) -> None:
    res = _pack(items, budget)
    _check(items, budget, res)


@SETTINGS
@given(entry_lists, budgets, budgets)
def test_larger_budget_packs_a_superset_prefix(items: list[Entry], a: int, b: int) -> None:
    small, large = sorted((a, b))
    rs, rl = _pack(items, small), _pack(items, large)
    assert len(rs.selected) <= len(rl.selected)
    assert rl.selected[: len(rs.selected)] == rs.selected
    assert rs.tokens <= rl.tokens or not rs.selected


@SETTINGS
@given(entry_lists, budgets, st.sampled_from(["zero", "huge", "negative"]))
def test_wrong_estimates_never_break_the_guarantee(items: list[Entry], budget: int, how: str) -> None:
    est = {"zero": lambda e: 0, "huge": lambda e: 10_000, "negative": lambda e: -50}[how]
    res = _pack(items, budget, item_tokens=est, overhead_tokens=lambda chosen, e: 0)
    _check(items, budget, res)
    assert res.selected == _pack(items, budget).selected  # same answer as with a good estimate


@pytest.mark.parametrize("bad", [0, -1, -1000])
def test_non_positive_budget_is_refused(bad: int) -> None:
    with pytest.raises(ValueError, match="max_tokens"):
        _pack([], bad)
    with pytest.raises(ValueError, match="max_tokens"):
        _pack([Entry("a" * 32, MemoryKind.FACT, "facts", "x", None, [])], bad)


def test_empty_input_renders_the_frame() -> None:
    res = _pack([], 500)
    assert res.selected == [] and res.dropped == [] and res.text == render([]) and res.tokens == FRAME


def test_budget_smaller_than_the_frame_packs_nothing() -> None:
    items = [Entry("a" * 32, MemoryKind.FACT, "facts", "x", None, [])]
    res = _pack(items, FRAME - 1)
    assert res.selected == [] and res.dropped == items and res.text == "" and res.notes


def test_exact_fit_is_packed() -> None:
    items = [Entry(f"{i:032x}", MemoryKind.FACT, "facts", f"fact number {i}", "2025-01-01", []) for i in range(5)]
    for k in range(len(items) + 1):
        exact = count_tokens(render(items[:k]))
        assert _pack(items, exact).selected == items[:k]
        if k:
            assert _pack(items, exact - 1).selected == items[: k - 1]


def test_a_long_item_blocks_what_follows_it() -> None:
    """The prefix rule: priority order is kept, a later short item never jumps a long one."""
    long = Entry("b" * 32, MemoryKind.EPISODE, "history", "word " * 500, None, [])
    short = Entry("c" * 32, MemoryKind.FACT, "facts", "short", None, [])
    res = _pack([long, short], 100)
    assert res.selected == [] and res.dropped == [long, short]


def test_token_counts_are_cached_and_identical_to_fresh_counts() -> None:
    from goodmemory.tokens import TiktokenCounter

    counter = TiktokenCounter()
    line = '- [a1b2c3 fact 2024-03-01] "User\'s seat is 12C on flight PAC-778K4M."'
    first = counter.count(line)
    assert first == len(counter._enc.encode(line))
    before = counter.cache_info().hits  # type: ignore[attr-defined]
    assert counter.count(line) == first
    assert counter.cache_info().hits == before + 1  # type: ignore[attr-defined]
    long = "word " * 1000  # over the cached length: counted fresh, still right
    assert counter.count(long) == len(counter._enc.encode(long))
