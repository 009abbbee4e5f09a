"""The one date grammar (goodmemory.dates), table-driven against a fixed day, and the write and read paths
agreeing on it."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from goodmemory.dates import calendar_date, find_ago, find_date, find_time
from goodmemory.extraction._dates import resolve_when
from goodmemory.routing import parse_time_window

TODAY = date(2025, 3, 12)  # a Wednesday

FUTURE: list[tuple[str, str | None]] = [
    # ISO
    ("2025-04-01", "2025-04-01"), ("on 2024-12-25", "2024-12-25"), ("2025-02-30", None),
    ("the meeting moved to 2025-06-01 at 14:30", "2025-06-01"),
    # month first, names and abbreviations
    ("Jan 5, 2024", "2024-01-05"), ("January 5 2026", "2026-01-05"), ("jan 5", "2026-01-05"),
    ("March 20", "2025-03-20"), ("March 12", "2025-03-12"), ("March 11", "2026-03-11"), ("Sept. 3", "2025-09-03"),
    ("Sep 3rd", "2025-09-03"), ("Dec 31st, 2025", "2025-12-31"), ("August 15th", "2025-08-15"),
    ("feb 29", None), ("Feb 29, 2024", "2024-02-29"), ("May 2", "2025-05-02"), ("Jan 31", "2026-01-31"),
    ("Nov. 3", "2025-11-03"), ("I fly out on March 30th.", "2025-03-30"),
    # day first
    ("the 3rd of June", "2025-06-03"), ("3rd of June 2024", "2024-06-03"), ("5 February", "2026-02-05"),
    ("1 February, 2023", "2023-02-01"), ("14 Oct", "2025-10-14"), ("the 21st of April", "2025-04-21"),
    ("30 November 2025", "2025-11-30"),
    # month/day
    ("3/1", "2026-03-01"), ("12/31/2026", "2026-12-31"), ("4/15/25", "2025-04-15"), ("7/4", "2025-07-04"),
    ("13/1", None),
    # relative days
    ("today", "2025-03-12"), ("tonight", "2025-03-12"), ("tomorrow", "2025-03-13"), ("yesterday", "2025-03-11"),
    ("the day after tomorrow", "2025-03-14"), ("call me back tomorrow morning", "2025-03-13"),
    # weekdays
    ("Monday", "2025-03-17"), ("on Friday", "2025-03-14"), ("next Tuesday", "2025-03-18"),
    ("next Wednesday", "2025-03-19"), ("this Wednesday", "2025-03-12"), ("Wednesday", "2025-03-12"),
    ("coming Sunday", "2025-03-16"), ("this coming Saturday", "2025-03-15"), ("Thursday", "2025-03-13"),
    ("My dentist appointment is next Tuesday at 3pm.", "2025-03-18"),
    # in N units
    ("in 3 days", "2025-03-15"), ("in two weeks", "2025-03-26"), ("in a week", "2025-03-19"),
    ("in one month", "2025-04-12"), ("in 2 months", "2025-05-12"), ("in ten days", "2025-03-22"),
    ("in a couple of weeks", "2025-03-26"), ("in a few days", "2025-03-15"), ("in eight days", "2025-03-20"),
    ("in 12 months", "2026-03-12"),
    # periods
    ("next week", "2025-03-17"), ("next month", "2025-04-12"), ("end of the month", "2025-03-31"),
    ("by the end of this month", "2025-03-31"), ("end of the week", "2025-03-14"), ("this weekend", "2025-03-15"),
    ("next weekend", "2025-03-22"), ("this week", None), ("this month", None),
    # the Nth
    ("the 20th", "2025-03-20"), ("on the 5th", "2025-04-05"), ("the 12th", "2025-03-12"), ("the 31st", "2025-03-31"),
    ("the 40th", None),
]
AS_WRITTEN = [("March 11", "2025-03-11"), ("jan 5", "2025-01-05"), ("the 5th", "2025-03-05"), ("3/1", "2025-03-01"),
              ("Dec 25", "2025-12-25")]
PAST = [("March 20", "2024-03-20"), ("March 12", "2025-03-12"), ("March 3", "2025-03-03"), ("Dec 25", "2024-12-25"),
        ("the 3rd of June", "2024-06-03"), ("Jan 5, 2024", "2024-01-05"), ("3/30", "2024-03-30")]
NOTHING = ["no date here", "mayonnaise in marchpane", "in an hour", "a month of Sundays"]


@pytest.mark.parametrize(("text", "lean", "expected"),
                         [(t, "future", e) for t, e in FUTURE] + [(t, "as_written", e) for t, e in AS_WRITTEN]
                         + [(t, "past", e) for t, e in PAST])
def test_find_date(text: str, lean: str, expected: str | None) -> None:
    found = find_date(text, TODAY, lean=lean)  # type: ignore[arg-type]
    assert found is not None, "an expression is found even when it names no day"
    assert (found.day.isoformat() if found.day else None) == expected
    assert text[found.start:found.end].strip() and found.start >= 0


@pytest.mark.parametrize("text", NOTHING)
def test_no_expression(text: str) -> None:
    assert find_date(text, TODAY) is None


@pytest.mark.parametrize(("text", "expected"), [
    ("tomorrow", None), ("next Tuesday, or March 3", "2025-03-03"), ("on Aug 15th", "2024-08-15"),
    ("2024-01-05", "2024-01-05"), ("3/1", "2025-03-01"),
])
def test_calendar_date_reads_written_dates_only(text: str, expected: str | None) -> None:
    found = calendar_date(text, TODAY, lean="past")
    assert (found.day.isoformat() if found and found.day else None) == expected


@pytest.mark.parametrize(("text", "n", "unit", "phrase"), [
    ("two days ago", 2, "day", "two days ago"), ("3 weeks ago", 3, "week", "3 weeks ago"),
    ("a week ago", 1, "week", "a week ago"), ("a couple of days ago", 2, "day", "couple of days ago"),
    ("10 years ago", 10, "year", "10 years ago"), ("few months ago", 3, "month", "few months ago"),
    ("1000 days ago", 1000, "day", "1000 days ago"), ("eight weeks ago", 8, "week", "eight weeks ago"),
    ("an hour ago", None, None, None), ("ago", None, None, None),
])
def test_find_ago(text: str, n: int | None, unit: str | None, phrase: str | None) -> None:
    got = find_ago(text)
    assert (got and (got.n, got.unit, text[got.start:got.end])) == (n and (n, unit, phrase))


@pytest.mark.parametrize(("text", "expected"), [
    ("at 3pm", "15:00"), ("9:30 a.m.", "09:30"), ("at 14:30", "14:30"), ("noon", "12:00"), ("midnight", "00:00"),
    ("12am", "00:00"), ("12pm", "12:00"), ("by 7 pm", "19:00"), ("at 25pm", None), ("no time", "absent"),
])
def test_find_time(text: str, expected: str) -> None:
    got = find_time(text)
    assert (got.hhmm if got else "absent") == expected


@pytest.mark.parametrize("written", ["Jan 5, 2024", "2024-01-05", "1/5/2024", "5th of January 2024",
                                     "January 5th, 2024", "5 Jan 2024", "Aug 15, 2023", "3/1/2025"])
def test_write_and_read_agree_on_a_written_date(written: str) -> None:
    """The extractor stores the day the text names; a question about that day gets a window around it."""
    at = datetime(2025, 3, 12, 9, tzinfo=UTC)
    when = resolve_when(f"the dentist on {written}", at)
    window = parse_time_window(f"what did I do on {written}?", at)
    assert when is not None and window is not None
    day = datetime(when.day.year, when.day.month, when.day.day, tzinfo=UTC)
    assert window.contains(day) and window.start == day - timedelta(days=1)


@pytest.mark.parametrize(("query", "phrase"), [
    ("what did I say a couple of weeks ago", "couple of weeks ago"), ("what did I buy on 3/1", "3/1"),
    ("what happened before 3/1", "before 3/1"), ("the call on Nov 3", "nov 3"),
])
def test_read_windows_of_the_shared_grammar(query: str, phrase: str) -> None:
    window = parse_time_window(query, datetime(2025, 3, 12, tzinfo=UTC))
    assert window is not None and window.phrase == phrase


@pytest.mark.parametrize("query", ["mix 1/2 cup of flour", "you may 2 or 3 times a week", "I scored 3/4"])
def test_fractions_and_the_verb_may_are_no_dates_for_a_question(query: str) -> None:
    assert parse_time_window(query, datetime(2025, 3, 12, tzinfo=UTC)) is None


def test_the_nth_of_a_month_is_that_month_not_the_next_nth() -> None:
    from datetime import date

    from goodmemory.dates import find_date

    m = find_date("Our silver anniversary is on the 14th of October.", date(2025, 2, 20))
    assert m is not None and m.day == date(2025, 10, 14), m
    alone = find_date("The plumber comes on the 14th.", date(2025, 2, 20))
    assert alone is not None and alone.day == date(2025, 3, 14), alone
