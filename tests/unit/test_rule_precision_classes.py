"""Precision classes of the rule extractor found on the tune half of the write corpus (issue 17), each with
sentences of our own: a job said by what happened (accepted, made, became), an employer named by what it is
("a bakery in Leith"), the reason given for a picked option or a preference, a home told by the home, the diet
now, a standing instruction taken back, a divorce, and someone else's words that change the user's value."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from _extracting import extract, statements

from _memories import active_after
from goodmemory import create_good_memory
from goodmemory.models import Candidate
from goodmemory.testing import FrozenClock

pytestmark = pytest.mark.unit

AT = datetime(2025, 4, 2, 9, 0, tzinfo=UTC)


def _run(*turns: str) -> dict[str, Candidate]:
    return {c.key: c for c in extract(*turns, at=AT, statements=False)}


def _values_after(*turns: str, kind: str | None = None) -> list[str]:
    return active_after(*turns, days=30, kinds=[kind] if kind else None)


@pytest.mark.parametrize(("text", "occupation", "employer"), [
    ("I accepted a data engineer job at Quillstone, starting in May.", "data engineer", "Quillstone"),
    ("I took a part-time barista job at Copperleaf.", "part-time barista", "Copperleaf"),
    ("They made me shift supervisor after the audit.", "shift supervisor", None),
    ("My boss appointed me project coordinator last week.", "project coordinator", None),
    ("I became a paramedic two years ago.", "paramedic", None),
])
def test_a_new_job_said_by_what_happened(text: str, occupation: str, employer: str | None) -> None:
    got = _run(text)
    assert got["profile.occupation"].value == occupation
    if employer is None:
        assert "profile.employer" not in got
    else:
        assert got["profile.employer"].value == employer


@pytest.mark.parametrize("text", [
    "They made me dinner after the audit.",
    "I became friends with the new neighbours.",
    "I accepted a friend request from a stranger.",
    "I was offered a data engineer job at Quillstone.",
])
def test_no_job_from_what_is_no_job(text: str) -> None:
    got = _run(text)
    assert "profile.occupation" not in got and "profile.employer" not in got


@pytest.mark.parametrize(("text", "employer"), [
    ("I now work at a family bakery in Dunfermline.", "a family bakery in Dunfermline"),
    ("I work for a small architecture firm.", "a small architecture firm"),
    ("These days I work at a vet clinic in Hove, mostly on reception.", "a vet clinic in Hove"),
])
def test_an_employer_named_by_what_it_is(text: str, employer: str) -> None:
    c = _run(text)["profile.employer"]
    assert c.value == employer and c.text == f"User works at {employer}."


@pytest.mark.parametrize("text", ["I work at a fast pace.", "I work for a living.", "I work in a quiet corner."])
def test_no_employer_from_a_manner_of_working(text: str) -> None:
    assert "profile.employer" not in _run(text)


def test_the_reason_for_a_picked_option_is_no_preference() -> None:
    got = _run("A: Do you prefer tea or coffee?", "Tea, I like to keep my mornings calm.")
    assert got["preference.choice.coffee_vs_tea"].value == "tea"
    assert not [k for k in got if k.startswith("preference.like")], sorted(got)


def test_a_like_of_its_own_sentence_after_an_option_stays() -> None:
    got = _run("A: Do you prefer tea or coffee?", "Tea. I like long walks on the beach too.")
    assert "preference.choice.coffee_vs_tea" in got
    assert any(k.startswith("preference.like") for k in got), sorted(got)



@pytest.mark.parametrize(("text", "city"), [
    ("We're renting a two-bed flat in Cardiff.", "Cardiff"),
    ("I'm sharing a house in Dundee with two nurses.", "Dundee"),
    ("My new apartment is in Tallinn, close to the old town.", "Tallinn"),
])
def test_a_home_told_by_the_home_itself(text: str, city: str) -> None:
    assert _run(text)["profile.home_city"].value == city


@pytest.mark.parametrize("text", [
    "We rent a beach house in Kerry each summer.",
    "The new place is in a quiet street.",
    "I'm sharing a table with my colleagues.",
])
def test_no_home_from_a_second_home_or_no_place(text: str) -> None:
    assert "profile.home_city" not in _run(text)


def test_the_new_place_replaces_the_home_city() -> None:
    assert _values_after("We rent a small flat in Exeter.", "The new place is in Truro, far less noise.",
                         kind="profile") == ["Truro"]


def test_a_dropped_diet_with_what_they_eat_now_keeps_the_diet_now() -> None:
    got = _run("I'm not pescatarian anymore, I eat lamb and pork again.")
    assert got["preference.diet.type"].value == "eats lamb and pork"
    assert "pescatarian" in got["preference.diet.type"].text
    assert not any(c.key.startswith("statement")
                   for c in extract("I'm not pescatarian anymore, I eat lamb and pork again.", at=AT))


def test_a_dropped_diet_beside_a_way_of_eating_stays_a_dropped_diet() -> None:
    assert _run("I'm no longer keto, I eat out most evenings.")["preference.diet.type"].value == "no longer keto"


def _statements(text: str) -> list[Candidate]:
    return statements(text, at=AT)


def test_the_why_of_a_preference_naming_nothing_is_no_statement() -> None:
    assert "preference.communication.channel" in _run("Email me rather than calling, I'm usually driving.")
    assert _statements("Email me rather than calling, I'm usually driving.") == []


def test_the_why_of_a_preference_naming_a_value_stays_a_marked_statement() -> None:
    got = _statements("Use metric units with me, I grew up in Lyon.")
    assert [(c.value, c.metadata.get("reason")) for c in got] == [("I grew up in Lyon", True)]


def test_an_ending_beside_a_new_like_is_no_why_and_stays() -> None:
    got = _statements("I gave up the tuba and left the band, I'm into pottery now.")
    assert [c.value for c in got] == ["I gave up the tuba and left the band"]


def test_a_standing_instruction_taken_back_replaces_it() -> None:
    active = _values_after("When you summarise a paper for me, add a glossary at the end.",
                           "I know the field well now, so skip the glossary in summaries.", kind="procedure")
    assert active == ["skip the glossary in summaries"], active


def test_a_skip_naming_no_instruction_changes_none() -> None:
    got = _run("Skip the small talk, I'm in a hurry.")
    assert not [k for k in got if k.startswith("procedure")]


def test_a_divorce_leaves_the_state_and_retires_the_spouse() -> None:
    assert _values_after("My wife is called Rosalind.", "Rosalind and I got divorced in the spring.") == ["divorced"]


def test_a_joint_subject_with_got_is_one_clause_and_no_divorce() -> None:
    values = _values_after("My wife is called Rosalind.", "Rosalind and I got tickets for the opera.")
    assert "Rosalind" in values and "divorced" not in values


def test_reported_words_become_a_reported_statement_candidate() -> None:
    out = extract("Dmitri says the fence line is now 40 m, not 35 m.", at=AT)
    assert [(c.metadata.get("statement"), c.metadata.get("reported")) for c in out] == [(True, True)]


def test_reported_words_that_change_the_users_value_replace_it() -> None:
    values = _values_after("Our load limit for the deck is 300 kg.",
                     "Update from the engineer: Odile says the load limit is now 450 kg, not 300 kg.")
    assert any("450 kg" in v for v in values), values
    assert not any("300 kg" in v and "450" not in v for v in values), values


def test_reported_words_that_change_nothing_are_not_stored() -> None:
    values = _values_after("I live in Porto.", "My neighbour says the bakery on the corner is closing next month.")
    assert values == ["Porto"]


def test_a_lowercase_chat_sentence_after_a_full_stop_is_read_on_its_own() -> None:
    got = _run("great, thanks for the list. i'm retired now, so mornings are free")
    assert got["profile.occupation"].value == "retired"
    said = [c.value for c in _statements("ok no coffee after 3pm from now on. also I need to call the plumber")]
    assert said == ["No coffee after 3pm from now on"], said


def test_an_abbreviation_does_not_end_a_sentence() -> None:
    got = _run("I need to pack e.g. the charger and the spare cables.")
    assert [c.value for k, c in got.items() if k.startswith("task.")] == ["open"]
    assert "charger" in next(c.text for k, c in got.items() if k.startswith("task."))


def test_a_former_value_beside_the_current_one_is_not_kept_as_current() -> None:
    said = [c.value for c in _statements("I do yoga at Lotus Studio since March, before that it was Bodhi Loft.")]
    assert said == ["I do yoga at Lotus Studio since March"], said


def test_a_sentence_that_starts_with_previously_is_kept() -> None:
    said = [c.value for c in _statements("Previously I taught chemistry in Gdansk for ten years.")]
    assert said and "Gdansk" in said[0], said


@pytest.mark.parametrize(("text", "expected"), [
    ("I work as a UX designer.", "User works as a UX designer."),
    ("I work as an MRI technician.", "User works as an MRI technician."),
    ("I work as an urban planner.", "User works as an urban planner."),
])
def test_the_article_follows_the_sound_of_an_acronym(text: str, expected: str) -> None:
    assert _run(text)["profile.occupation"].text == expected


@pytest.mark.parametrize("text", [
    "My wife works as a dentist at Brightsmile.",
    "My flatmate just got a job as a nurse.",
    "She took a sous-chef job at Olive Row.",
    "I used to work as a chef.",
])
def test_another_persons_job_or_a_past_one_is_not_the_users(text: str) -> None:
    got = _run(text)
    assert "profile.occupation" not in got and "profile.employer" not in got, sorted(got)


@pytest.mark.parametrize(("text", "occupation"), [
    ("I was hired as a line cook in June.", "line cook"),
    ("My manager made me release coordinator.", "release coordinator"),
])
def test_the_users_own_job_beside_another_person_stays(text: str, occupation: str) -> None:
    assert _run(text)["profile.occupation"].value == occupation


def _open_tasks(*turns: str) -> list[str]:
    clock = FrozenClock(AT)
    mem = create_good_memory("sqlite://", clock=clock)
    try:
        mem.remember([{"role": "user", "content": t} for t in turns], user_id="u1", session_id="s0")
        return [r.key for r in mem.list(user_id="u1")
                if r.kind.value == "open_loop" and r.metadata.get("state", "open") == "open"]
    finally:
        mem.close()


def test_a_task_done_within_the_same_call_is_not_left_open() -> None:
    assert _open_tasks("I need to ring the locksmith, actually I just did, he comes at four.") == []
    assert _open_tasks("I have to weigh the parcel.", "Done, it's 2.3 kg.") == []


def test_something_else_done_leaves_the_task_open() -> None:
    assert _open_tasks("I need to ring the locksmith.", "I just did the ironing.") == ["task.ring_locksmith"]


@pytest.mark.parametrize("text", ["I should probably stretch more.", "I really need to call my aunt more often.",
                                  "I have to sleep better."])
def test_a_resolution_with_no_point_of_done_is_no_task(text: str) -> None:
    assert not [k for k in _run(text) if k.startswith("task.")]


def test_a_hedge_is_no_part_of_the_chore() -> None:
    got = _run("I should probably oil the garden gate.")
    assert [k for k in got if k.startswith("task.")] == ["task.oil_garden_gate"]
    assert "probably" not in got["task.oil_garden_gate"].text
