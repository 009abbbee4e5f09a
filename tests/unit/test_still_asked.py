"""An answer of no, with a new value, to the assistant's "Are you still at X?" replaces X (issue 17): "nope, Monzo
since June" names no earlier value and has no "I", so it was dropped as words that change nothing."""

from __future__ import annotations

from _memories import active_after


def test_no_with_a_new_value_replaces_what_the_assistant_asked_about() -> None:
    values = active_after("I bank with Halifax and the app is awful, what should I look for in a new bank?",
                          ["can you help me set up a savings pot?",
                           "A: Sure. Are you still with Halifax? The steps differ by bank.",
                           "nope, Monzo since June. the joint one"])
    assert any("Monzo" in v for v in values), values
    assert "Halifax" not in values


def test_the_context_reads_the_answer() -> None:
    # the answer's mark must not collide with the marks the context reads ("denies" holds the phrases a change denies)
    from datetime import UTC, datetime, timedelta

    from goodmemory import create_good_memory
    from goodmemory.testing import FrozenClock

    t0 = datetime(2025, 1, 6, 9, tzinfo=UTC)
    with create_good_memory("sqlite://", clock=FrozenClock(t0 + timedelta(days=90))) as mem:
        mem.remember([{"role": "user", "content": "I bank with Halifax and the app is awful"}], user_id="u", at=t0)
        mem.remember([{"role": "assistant", "content": "Are you still with Halifax? The steps differ by bank."},
                      {"role": "user", "content": "nope, Monzo since June. the joint one"}], user_id="u",
                     at=t0 + timedelta(days=40))
        ctx = mem.build_context("which bank am I with?", user_id="u", max_tokens=300)
    assert "Monzo" in ctx.text


def test_yes_keeps_the_value() -> None:
    values = active_after("I bank with Halifax and the app is awful",
                          ["A: Are you still with Halifax?", "yep, still them, sadly"])
    assert "Halifax" in values


def test_no_without_a_value_changes_nothing_here() -> None:
    values = active_after("I bank with Halifax",
                          ["A: Are you still with Halifax? Anything I can help with?", "no, not really thanks"])
    assert "Halifax" in values


def test_the_answer_to_which_bank_is_the_bank() -> None:
    from datetime import UTC, datetime

    from goodmemory import create_good_memory
    from goodmemory.testing import FrozenClock

    at = datetime(2025, 4, 2, 9, tzinfo=UTC)
    with create_good_memory("sqlite://", clock=FrozenClock(at)) as mem:
        mem.remember([{"role": "user", "content": "I want to set up savings pots for bills and fun"},
                      {"role": "assistant", "content": "Good plan. Which bank are you with at the moment? Some apps "
                                                       "have pots built in."},
                      {"role": "user", "content": "Starling, moved everything over in april cos the old lot kept "
                                                  "blocking my card on holiday"}], user_id="u", at=at)
        keys = [r.key for r in mem.list(user_id="u") if "Starling" in r.value]
    assert keys == ["fact.bank"], keys
