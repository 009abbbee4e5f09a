"""Query planning: intent, kind weights and time windows relative to ``at``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from goodmemory.models import MemoryKind
from goodmemory.routing import Intent, QueryPlan, TimeWindow, parse_time_window, plan_query

# Wednesday 12 March 2025, mid-afternoon
AT = datetime(2025, 3, 12, 15, 30, tzinfo=UTC)


def _d(y: int, m: int, d: int) -> datetime:
    return datetime(y, m, d, tzinfo=UTC)


@pytest.mark.parametrize(
    ("query", "intent"),
    [
        ("Who am I?", Intent.IDENTITY),
        ("Tell me about me", Intent.IDENTITY),
        ("What is my job these days?", Intent.IDENTITY),
        ("Where do I live?", Intent.IDENTITY),
        ("What do I do for a living?", Intent.IDENTITY),
        ("What's my background?", Intent.IDENTITY),
        ("What do I prefer for breakfast?", Intent.PREFERENCE),
        ("Recommend a restaurant for tonight", Intent.PREFERENCE),
        ("Which airline is best for me?", Intent.PREFERENCE),
        ("What's my favourite colour?", Intent.PREFERENCE),
        ("What is my account number?", Intent.FACT_LOOKUP),
        ("The plate of the Honda, please", Intent.FACT_LOOKUP),
        ("Give me the booking reference", Intent.FACT_LOOKUP),
        ("Where were we with the migration?", Intent.TASK_CONTINUATION),
        ("Let's continue the report", Intent.TASK_CONTINUATION),
        ("What are the next steps?", Intent.TASK_CONTINUATION),
        ("Any update on the visa?", Intent.TASK_CONTINUATION),
        ("When did I see the dentist?", Intent.TEMPORAL),
        ("What did I do yesterday?", Intent.TEMPORAL),
        ("What happened last week?", Intent.TEMPORAL),
        ("What did I say three days ago?", Intent.TEMPORAL),
        ("Tell me a joke", Intent.GENERAL),
        ("hello there", Intent.GENERAL),
        ("", Intent.GENERAL),
    ],
)
def test_intent_for_typical_questions(query: str, intent: Intent) -> None:
    plan = plan_query(query, at=AT)
    assert plan.intent == intent
    if intent != Intent.GENERAL:
        assert any(s.startswith(f"{intent.value}:") for s in plan.signals)


def test_intent_matching_is_case_insensitive() -> None:
    assert plan_query("WHO AM I", at=AT).intent == Intent.IDENTITY
    assert plan_query("where WERE we", at=AT).intent == Intent.TASK_CONTINUATION


@pytest.mark.parametrize(
    ("query", "favoured"),
    [
        ("Who am I?", {MemoryKind.PROFILE}),
        ("What do I prefer to drink?", {MemoryKind.PREFERENCE}),
        ("What is my policy number?", {MemoryKind.FACT}),
        ("Where were we?", {MemoryKind.OPEN_LOOP}),
        ("When did we last talk about it?", {MemoryKind.FACT, MemoryKind.EPISODE}),
    ],
)
def test_kind_weights_favour_the_right_kind(query: str, favoured: set[MemoryKind]) -> None:
    weights = plan_query(query, at=AT).kind_weights
    assert set(weights) == set(MemoryKind)
    top = max(weights.values())
    assert {k for k, v in weights.items() if v == top} == favoured
    assert top > 1.0
    # every other kind is weighted strictly less than the favoured one
    assert all(v < top for k, v in weights.items() if k not in favoured)


def test_general_weights_are_flat() -> None:
    weights = plan_query("tell me a joke", at=AT).kind_weights
    assert max(weights.values()) - min(weights.values()) <= 0.2


def test_kinds_restrict_the_weights_and_plan_carries_arguments() -> None:
    plan = plan_query("Who am I?", at=AT, domain="travel", kinds=(MemoryKind.FACT, MemoryKind.PROFILE), limit=7)
    assert set(plan.kind_weights) == {MemoryKind.FACT, MemoryKind.PROFILE}
    assert plan.domain == "travel" and plan.k == 7 and plan.kinds == (MemoryKind.FACT, MemoryKind.PROFILE)
    d = plan.as_dict()
    assert d["intent"] == "identity" and d["domain"] == "travel" and d["k"] == 7 and d["window"] is None
    assert d["kind_weights"] == {"fact": 1.0, "profile": 1.6}


def test_plan_is_deterministic() -> None:
    a = plan_query("What did I do last week in Lisbon?", at=AT)
    b = plan_query("What did I do last week in Lisbon?", at=AT)
    assert isinstance(a, QueryPlan) and a == b


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("what did I do yesterday", _d(2025, 3, 11), _d(2025, 3, 12)),
        ("anything new today?", _d(2025, 3, 12), _d(2025, 3, 13)),
        # weeks start on Monday: this week is Mon 10 - Sun 16 March
        ("what happened last week", _d(2025, 3, 3), _d(2025, 3, 10)),
        ("what did I plan this week", _d(2025, 3, 10), _d(2025, 3, 17)),
        ("the bill from last month", _d(2025, 2, 1), _d(2025, 3, 1)),
        ("my trips last year", _d(2024, 1, 1), _d(2025, 1, 1)),
        ("in March 2024 I had surgery", _d(2024, 3, 1), _d(2024, 4, 1)),
        # month before or equal to the current one: this year
        ("what did I buy in February", _d(2025, 2, 1), _d(2025, 3, 1)),
        ("what did I buy in March", _d(2025, 3, 1), _d(2025, 4, 1)),
        # a month after the current one has not happened yet: last year
        ("the trip in May", _d(2024, 5, 1), _d(2024, 6, 1)),
        ("back in December", _d(2024, 12, 1), _d(2025, 1, 1)),
        # a written date: that day, one day of slack each side
        ("What painting did you show me on October 13, 2024?", _d(2024, 10, 12), _d(2024, 10, 15)),
        ("what did I order on 1 February, 2025", _d(2025, 1, 31), _d(2025, 2, 3)),
        ("the call on the 3rd of June 2024", _d(2024, 6, 2), _d(2024, 6, 5)),
        # no year: the latest such date not after `at` (12 March 2025)
        ("what did I say on March 3?", _d(2025, 3, 2), _d(2025, 3, 5)),
        ("what did I say on March 30?", _d(2024, 3, 29), _d(2024, 4, 1)),
        # ranges and parts of months, seasons, years
        ("where was I between August 11 and August 15 2024?", _d(2024, 8, 11), _d(2024, 8, 16)),
        ("the puppy I got two weeks before August 11, 2024", _d(2024, 7, 26), _d(2024, 8, 13)),
        ("what happened after 2 January 2025", _d(2025, 1, 1), _d(2025, 1, 18)),
        ("the tournament in the beginning of November 2024", _d(2024, 11, 1), _d(2024, 11, 16)),
        ("late September 2024 was busy", _d(2024, 9, 15), _d(2024, 10, 1)),
        ("the trip in summer 2023", _d(2023, 6, 1), _d(2023, 9, 1)),
        ("how often did I go to the beach in 2024?", _d(2024, 1, 1), _d(2025, 1, 1)),
        ("December 2024 invoices", _d(2024, 12, 1), _d(2025, 1, 1)),
    ],
)
def test_time_windows_relative_to_at(query: str, start: datetime, end: datetime) -> None:
    w = parse_time_window(query, AT)
    assert w is not None
    assert (w.start, w.end) == (start, end)
    assert w.contains(start) and not w.contains(end) and w.contains(end - timedelta(microseconds=1))
    plan = plan_query(query, at=AT)
    assert plan.window == w
    assert f"window:{w.phrase}" in plan.signals


@pytest.mark.parametrize(
    ("query", "center", "phrase"),
    [
        ("what did I say two days ago", _d(2025, 3, 10), "two days ago"),
        ("the email from 3 weeks ago", _d(2025, 2, 19), "3 weeks ago"),
        ("a week ago I called", _d(2025, 3, 5), "a week ago"),
        ("a couple of days ago", _d(2025, 3, 10), "couple of days ago"),
        ("10 days ago", _d(2025, 3, 2), "10 days ago"),
    ],
)
def test_n_units_ago_is_a_window_around_the_day(query: str, center: datetime, phrase: str) -> None:
    w = parse_time_window(query, AT)
    assert w is not None and w.phrase == phrase
    assert w.contains(center) and w.contains(center + timedelta(hours=23))
    assert w.start < center < w.end
    assert w.end <= _d(2025, 3, 13)  # never reaches into the future beyond today
    assert not w.contains(AT + timedelta(days=2))


def test_in_may_picks_the_right_year_either_side_of_the_current_month() -> None:
    before = datetime(2025, 3, 12, tzinfo=UTC)  # May is still ahead: last year's May
    after = datetime(2025, 8, 2, tzinfo=UTC)  # May is past: this year's May
    during = datetime(2025, 5, 31, 23, 0, tzinfo=UTC)
    assert parse_time_window("in May", before) == TimeWindow(_d(2024, 5, 1), _d(2024, 6, 1), "in may")
    assert parse_time_window("in May", after) == TimeWindow(_d(2025, 5, 1), _d(2025, 6, 1), "in may")
    assert parse_time_window("in may", during) == TimeWindow(_d(2025, 5, 1), _d(2025, 6, 1), "in may")
    # an explicit year wins
    w = parse_time_window("in May 2021", after)
    assert w is not None and (w.start, w.end) == (_d(2021, 5, 1), _d(2021, 6, 1))


def test_windows_at_month_and_year_edges() -> None:
    jan = datetime(2025, 1, 15, tzinfo=UTC)
    w = parse_time_window("last month", jan)
    assert w is not None and (w.start, w.end) == (_d(2024, 12, 1), _d(2025, 1, 1))
    leap = datetime(2024, 2, 29, tzinfo=UTC)
    w = parse_time_window("last year", leap)
    assert w is not None and (w.start, w.end) == (_d(2023, 1, 1), _d(2024, 1, 1))
    w = parse_time_window("in December", datetime(2025, 12, 31, tzinfo=UTC))
    assert w is not None and (w.start, w.end) == (_d(2025, 12, 1), _d(2026, 1, 1))
    monday = datetime(2025, 3, 10, 0, 0, tzinfo=UTC)
    w = parse_time_window("this week", monday)
    assert w is not None and w.start == monday


def test_window_keeps_the_timezone_of_at() -> None:
    tz = timezone(timedelta(hours=-5))
    at = datetime(2025, 3, 12, 22, 0, tzinfo=tz)
    w = parse_time_window("yesterday", at)
    assert w is not None
    assert w.start == datetime(2025, 3, 11, tzinfo=tz) and w.end == datetime(2025, 3, 12, tzinfo=tz)


@pytest.mark.parametrize(
    "query",
    [
        "Who am I?",
        "What is my favourite food?",
        "Book me a hotel in Lisbon",
        "I may go to Porto",  # "may" the verb is not a month
        "mayonnaise in marchpane",  # months match as whole words only
        "what is my account number",
        "",
    ],
)
def test_no_window_without_time_phrases(query: str) -> None:
    assert parse_time_window(query, AT) is None
    assert plan_query(query, at=AT).window is None


def test_huge_number_of_units_ago_does_not_raise() -> None:
    parse_time_window("what did I say 99999999999 days ago", AT)


def test_window_before_year_one_does_not_raise() -> None:
    parse_time_window("what happened 9999 years ago", AT)


def test_window_at_the_end_of_time_does_not_raise() -> None:
    parse_time_window("today", datetime(9999, 12, 31, 12, tzinfo=UTC))


def test_month_window_in_year_one_does_not_raise() -> None:
    parse_time_window("in December", datetime(1, 1, 5, tzinfo=UTC))


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("What martial arts has John done?", ("john",)),
        ("Would Melanie's kids like camping with Caroline?", ("melanie", "caroline")),
        ("When did I book the flight to Tokyo in May?", ("tokyo",)),
        ("What did I say on Monday about the car?", ()),
        ("John, what's my plate number?", ("john",)),
        ("what is my account number", ()),
    ],
)
def test_query_names(query: str, names: tuple[str, ...]) -> None:
    assert plan_query(query, at=datetime(2025, 3, 12, tzinfo=UTC)).names == names


def test_broken_device_questions_point_at_purchases_and_warranties() -> None:
    from goodmemory.routing import key_hints

    hints = key_hints("My laptop screen just cracked. What are my options for getting it repaired?")
    assert {"purchase", "possession", "warranty"} <= set(hints)


def _hinted(query: str, key: str) -> bool:
    from goodmemory.routing import key_hints

    return key.startswith(key_hints(query))


@pytest.mark.parametrize(("query", "key"), [
    # the rules write flights as travel.flight.* (extraction/_fact_rules.py); a hand-written "flight." never matched
    ("When is my flight to Oslo?", "travel.flight.oslo"),
    ("Which hotel did I book for the trip?", "travel.hotel.lisbon"),
    ("What's the plate of my car?", "vehicle.honda_civic.plate"),
    ("What's my email address?", "contact.email"),
    ("Plan the dinner menu for Saturday", "preference.diet.type"),
    ("Plan the dinner menu for Saturday", "preference.diet.allergy.peanut"),
])
def test_key_hints_match_the_keys_the_write_path_files(query: str, key: str) -> None:
    assert _hinted(query, key)


def test_every_key_hint_is_a_prefix_of_its_family_in_the_registry() -> None:
    from goodmemory._key_families import family_of
    from goodmemory.routing import _KEY_HINTS

    for _, prefixes in _KEY_HINTS:
        for p in prefixes:
            assert family_of(p) is not None and family_of(p + ".x") is family_of(p), p


@pytest.mark.parametrize("query", [
    "Book a restaurant for my trip to Bangkok",
    "What can I cook tonight?",
    "Order takeout for the team lunch",
    "Plan the dinner menu for Saturday",
    "Find me a recipe with lentils",
])
def test_food_questions_point_at_diet_restrictions(query: str) -> None:
    """An allergy said while cooking must reach a restaurant booking: food questions hint preference.diet.*."""
    from goodmemory.routing import key_hints

    assert {"preference.diet.type", "preference.diet.avoid", "preference.diet.allergy"} <= set(key_hints(query))


@pytest.mark.parametrize("query", ["Book a flight to Bangkok", "What's my plate number?", "Fix the kitchen tap"])
def test_other_questions_do_not_point_at_diet(query: str) -> None:
    from goodmemory.routing import key_hints

    assert not any(h.startswith("preference.diet") for h in key_hints(query))


# -- the text the meaning channel embeds ------------------------------------------------------
@pytest.mark.parametrize(("query", "meaning"), [
    # named people are matched by who spoke and by their words; the embedding gets the content
    ("How do Jon and Gina both like to destress?", "How do and both like to destress?"),
    ("What did Caroline's mentor say about adoption agencies?", "What did mentor say about adoption agencies?"),
    # too little would remain: the question stays whole
    ("Tell me about Anna", "Tell me about Anna"),
    ("Who is Melanie?", "Who is Melanie?"),
    # no names: unchanged
    ("when is my dentist appointment?", "when is my dentist appointment?"),
    # places stay: "a flight to Oslo" and "a flight to Lima" must not embed the same
    ("When is my flight to Oslo?", "When is my flight to Oslo?"),
    ("What did Caroline do in Paris last summer?", "What did do in Paris last summer?"),
    ("Where did Jon stay when he visited Rome?", "Where did stay when he visited Rome?"),
    # a place of several words stays whole ("in New" had been left of "in New Orleans")
    ("Which bar should I go to in New Orleans?", "Which bar should I go to in New Orleans?"),
    ("What should Jon see in San Sebastian?", "What should see in San Sebastian?"),
    # "to" after a verb of giving or talking is a person
    ("What did Melanie give to Caroline for her birthday?", "What did give to for her birthday?"),
])
def test_meaning_text_drops_the_names_the_question_asks_about(query: str, meaning: str) -> None:
    assert plan_query(query, at=datetime(2025, 1, 1, tzinfo=UTC)).meaning_text == meaning


def test_meaning_text_drops_the_commas_names_leave_behind() -> None:
    at = datetime(2025, 1, 1, tzinfo=UTC)
    assert plan_query("Jon, how does Gina unwind after work?", at=at).meaning_text == "how does unwind after work?"
    assert plan_query("What does Gina do to unwind, Jon?", at=at).meaning_text == "What does do to unwind?"


@pytest.mark.parametrize("query", [
    "I have 2023 reasons to stay",  # a number, not a year phrase
    "what did I say on February 30, 2024?",  # no such day
    "you may 2 or 3 times a week",
])
def test_numbers_that_are_not_dates_give_no_window(query: str) -> None:
    assert parse_time_window(query, AT) is None
