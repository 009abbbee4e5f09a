"""A correction of a number or a time the assistant's question repeated back (issue 17, w67).

Sentences are this file's own. ``test_a_corrected_age_replaces_the_rule_keyed_age`` fails before w67: the answer
"She's 6 now, actually" names no attribute and was filed as a note about another person, leaving the age at 5; and
``test_not_really_declines_and_corrects_nothing`` failed on "not \\w+, " reading "Not really, ..." as a correction.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from goodmemory import create_good_memory
from goodmemory._echoed import Echo, correcting, echoed, substituted, value_tokens
from goodmemory.extraction._statements import _CORRECTING
from goodmemory.testing import FrozenClock


def test_value_tokens_reads_numbers_times_and_ordinals_but_no_parts_of_longer_values() -> None:
    got = value_tokens("a 9-year-old, back by 5.45 or 17:20, the 3rd floor, 2025-06-01, 020-7946, $1,250, 12%, 2.5")
    assert got == {"9": "number", "5:45": "time", "17:20": "time", "3": "ordinal"}


def test_an_answer_that_corrects_the_repeated_number_gives_the_new_one() -> None:
    q = "Shall I find swimming lessons for a 5-year-old?"
    assert echoed(q, "She's 6 now, actually.", "User's daughter is 5 years old.") == Echo("5", "6")
    assert echoed("Is your train still at 8:05?", "No, it leaves at 8:20 since the timetable change.",
                  "I take the 8:05 train") == Echo("8:05", "8:20")


def test_no_echo_without_a_correction_or_with_two_readings() -> None:
    q = "Shall I find swimming lessons for a 5-year-old?"
    assert echoed(q, "Yes please, and she can already do 10 metres.", "User's daughter is 5 years old.") is None
    # two new numbers of the sort: which one replaces 5 is not one reading
    assert echoed(q, "No, she's 6 actually, and her brother is 8.", "User's daughter is 5 years old.") is None
    # the answer says the old number again: no correction of it
    assert echoed(q, "Not 5, she's 5 and a half now.", "User's daughter is 5 years old.") is None
    # the question does not repeat a value of the memory
    assert echoed("Any ideas for a rainy day?", "Actually she's 6 now.", "User's daughter is 5 years old.") is None


def test_a_number_of_another_thing_corrects_nothing() -> None:
    # "4 runs" and "30 minutes" count different things
    assert echoed("With 4 runs a week, should I add rest days?", "No, I stretch for 30 minutes every day instead.",
                  "I run 4 times a week") is None
    assert echoed("With 4 runs a week, should I add rest days?", "No, it's 3 runs now, my knee complained.",
                  "I run 4 times a week") == Echo("4", "3")


def test_not_really_declines_and_corrects_nothing() -> None:
    assert not correcting("Not really, I have enough on my plate.")
    assert correcting("Not Tuesday, it's on Wednesday now.")
    assert not _CORRECTING.search("Not really, I'd rather keep it as it is.")
    assert _CORRECTING.search("Not Tuesday, Wednesday.")


def test_substituted_replaces_the_whole_token_only() -> None:
    assert substituted("User's son is 5 years old, born 2015.", "5", "6") == "User's son is 6 years old, born 2015."
    assert substituted("leaves at 8.05 and 18:05", "8:05", "8:20") == "leaves at 8:20 and 18:05"


def test_a_corrected_age_replaces_the_rule_keyed_age() -> None:
    t0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
    clock = FrozenClock(t0)
    mem = create_good_memory("sqlite://", clock=clock)
    try:
        mem.remember([{"role": "user", "content": "My daughter Ada is 5."}], user_id="u", at=t0)
        ages = [r for r in mem.list(user_id="u") if r.key.endswith(".age")]
        assert [r.text for r in ages] == ["User's daughter is 5 years old."]
        later = t0 + timedelta(days=200)
        clock.set(later)
        mem.remember([{"role": "assistant", "content": "Shall I find swimming lessons for a 5-year-old?"},
                      {"role": "user", "content": "She's 6 now, actually."}], user_id="u", at=later)
        now = [r for r in mem.list(user_id="u") if r.key == ages[0].key]
        assert [r.text for r in now] == ["User's daughter is 6 years old."]
        assert now[0].metadata["rule"] == "echo" and now[0].metadata["replaces"] == ages[0].id
        chain = [h.memory.text for h in mem.history(now[0].id, user_id="u")]
        assert chain == ["User's daughter is 5 years old.", "User's daughter is 6 years old."]
        # another user's same words change nothing of this user's
        mem.remember([{"role": "assistant", "content": "Shall I find swimming lessons for a 5-year-old?"},
                      {"role": "user", "content": "She's 7 now, actually."}], user_id="other", at=later)
        assert [r.text for r in mem.list(user_id="u") if r.key == ages[0].key] == ["User's daughter is 6 years old."]
    finally:
        mem.close()
