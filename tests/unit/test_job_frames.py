"""A job said in a frame that can only name a job ("I work as a X", "I'm employed as a X", "my job title is X",
"I was promoted to X") is the occupation whatever its head noun; "I'm a X" still needs a known job. My own
sentences (issue 17)."""

from __future__ import annotations

import pytest
from _extracting import keyed

from _memories import active_after, assert_replaced


def _job(turn: str) -> str | None:
    return keyed(turn, prefix="profile.occupation").get("profile.occupation")


@pytest.mark.parametrize(("turn", "job"), [
    ("I work as a Claims Handler at a motor insurer in Leeds.", "Claims Handler"),
    ("I'm employed as a warehouse operative on the night shift.", "warehouse operative"),
    ("My job title is Senior Associate.", "Senior Associate"),
    ("I was promoted to Shift Manager last month.", "Shift Manager"),
    ("I'm working as a trainee surveyor this year.", "trainee surveyor"),
])
def test_a_job_frame_names_the_occupation_whatever_its_head(turn: str, job: str) -> None:
    assert _job(turn) == job


@pytest.mark.parametrize("turn", [
    "I'm a bit of a night owl.",  # "I'm a X" needs a job
    "I work as a team with my sister on the allotment.",  # no job: how
    "I became a grandmother in May.",  # a family role, not a job
    "I'm employed by a housing charity in Leeds.",  # who employs, not the job
])
def test_no_job_outside_a_job_frame(turn: str) -> None:
    assert _job(turn) is None


def test_a_new_title_replaces_the_one_said_in_a_job_frame() -> None:
    values = active_after("I work as a Customer Support Associate at a call centre in Manila.",
                          "Since I became Team Lead in June I run the morning huddle myself.")
    assert_replaced(values, "Team Lead", "Customer Support Associate")


def test_an_address_the_user_only_uses_now_is_the_email_not_a_habit() -> None:
    """"I only use x@y these days" reads like a habit ("I only ..."), but an address in use is the email."""
    values = active_after("My order confirmation went to dee.hart77@example.com last week.",
                          ["A: Can I confirm the email on the account?",
                           "Please change it, I only use dee@hartmail.example these days."])
    assert_replaced(values, "dee@hartmail.example", "dee.hart77@example.com")


@pytest.mark.parametrize(("turn", "job"), [
    ("so the promotion finally came through, officially Head of Sales from next week", "Head of Sales"),
    ("Promotion came through, now Team Lead on the night shift!!", "Team Lead"),
])
def test_a_title_told_with_its_promotion_is_the_occupation(turn: str, job: str) -> None:
    assert _job(turn) == job


@pytest.mark.parametrize("turn", [
    "My sister's promotion came through, she's officially Head of Design.",  # hers
    "The promotion at the supermarket is now Buy One Get One Free.",  # an offer, not a job
])
def test_no_title_of_someone_elses_promotion(turn: str) -> None:
    assert _job(turn) is None


def test_a_title_after_the_emoji_that_ends_the_promotions_sentence() -> None:
    assert _job("the promotion finally came through 🎉 officially Head of Operations from June") == "Head of Operations"
