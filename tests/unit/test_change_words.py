"""Which statements speak of a change the user made, and which only of one planned, denied or added
(this test's own sentences)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from goodmemory._change_words import adds, changes, only_onset, weakly_changes
from goodmemory._value_types import change_frame
from goodmemory.merge import Earlier, attribute_slot
from goodmemory.taxonomy import family_by_name


@pytest.mark.parametrize("said", [
    "We went with Tallis Water when the contract was up.",
    "I took out a home policy with Brisbane Mutual in March.",
    "Jumped ship to a cheaper network last month.",
    "I've been assigned to Dr. Petrakis at the clinic.",
    "Marta handed the whole account over to Jonas.",
    "I got fed up with the queues and go to the Eastgate branch.",
    "Since the summer I swim at Poolside Aquatics.",
    "Since joining Harrow Tech I've been working from home.",
    "Now that I'm in Kendal the drive is shorter.",
    "We've kept all our savings with Plover Bank since the spring.",
])
def test_a_value_taken_on_or_holding_since_a_time_is_a_change(said: str) -> None:
    assert changes(said)


@pytest.mark.parametrize("said", [
    "I haven't switched to Orla Broadband yet.",
    "I'm thinking of moving to Kendal next year.",
    "We might switch to Tallis Water if they drop the price.",
    "I'm considering changing banks.",
    "I would move to Lisbon for the right job.",
])
def test_a_change_only_planned_or_denied_is_none(said: str) -> None:
    assert not changes(said)
    assert change_frame(said) == frozenset()


def test_signing_up_with_a_service_is_no_change_of_its_own() -> None:
    assert not changes("Signed up with Streamly again for the winter.")


def test_a_month_named_may_is_no_plan() -> None:
    assert changes("In May we moved to Kendal.")


def test_an_also_beside_a_value_taken_on_still_adds() -> None:
    assert adds("I also signed up with a climbing wall, Crux Point, for Thursdays.")
    assert adds("We took out a travel policy with Gannet as well.")
    assert not adds("Also, the dentist moved my check-up to Monday")  # news with a change, no new value


def test_weak_evidence_is_told_apart_from_a_word_of_change() -> None:
    assert weakly_changes("We're a family of five now!")
    assert weakly_changes("Since the spring the dog has been seen at Larkhill Vets.")
    assert not weakly_changes("I switched the dog to Larkhill Vets.")
    assert not weakly_changes("I keep bees.")


AT = datetime(2025, 1, 5, 9, tzinfo=UTC)


def _earlier(value: str, sim: float) -> Earlier:
    fam = family_by_name("pet")
    return Earlier(key=f"{fam.key}.{value.split()[-1].lower()}", value=value, similarity=sim, at=AT, family_key=fam.key)


def test_a_weakly_told_change_needs_a_closer_resemblance_to_take_a_slot() -> None:
    fam = family_by_name("pet")
    assert fam.multi
    old = [_earlier("We take the dog to Larkhill Vets", 0.35)]
    weak, _ = attribute_slot("Baby Ruth arrived, so we're five now", fam, "fact.pet.ruth", old,
                             statement=False, has_value=True)
    strong, _ = attribute_slot("We switched the dog to Brackley Vets", fam, "fact.pet.brackley", old,
                               statement=False, has_value=True)
    assert weak == "fact.pet.ruth"  # its own slot: "now" alone is how an addition is told too
    assert strong == old[0].key


def test_an_onset_alone_is_told_apart() -> None:
    assert only_onset("Since the spring I volunteer at Shelterwood on Saturdays.")
    assert not only_onset("Since the spring we've switched to Kestrel Power.")
    assert not only_onset("I volunteer at Shelterwood.")


def test_i_is_no_name_of_a_value() -> None:
    # "Now that I'm working from home the power bill is higher" names no energy supplier
    assert "energy" not in change_frame("Now that I'm working from home the power bill is higher")


@pytest.mark.parametrize(("said", "once"), [
    ("I posted the tax forms at the post office on Monday", True),
    ("We finally repainted the hallway at the weekend", True),
    ("I took the bins out yesterday", True),
    ("I moved to Leeds last month", False),  # a change
    ("We switched to a new dentist on Monday", False),  # a change
    ("I walk the dog every morning", False),  # a habit
    ("I work at the post office", False),  # no time of the past
])
def test_a_thing_done_once_at_a_past_time(said: str, once: bool) -> None:
    from goodmemory._change_words import one_off

    assert one_off(said) is once


@pytest.mark.parametrize("said", [
    "The queue at the pharmacy was huge, so I ended up waiting forty minutes.",
    "I bumped into an old teammate at the garden centre.",
    "The barbecue turned out fine in the end, despite the rain.",
    "Half the neighbours turned up for the street clean.",
    "I lost most of Sunday to the tax return.",
    "We lost track of time at the museum.",
])
def test_an_idiom_whose_verb_is_a_word_of_change_changes_nothing(said: str) -> None:
    assert not changes(said)


@pytest.mark.parametrize("said", [
    "I lost my job at the depot in March.",
    "We ended our contract with Brightline and went with Corra Energy.",
    "It turned out my shift had been changed to nights.",
])
def test_the_same_verbs_outside_an_idiom_still_change(said: str) -> None:
    assert changes(said)


@pytest.mark.parametrize(("said", "expected"), [
    ("The dentist is on the 9th, not the 2nd.", True),   # denies the old value
    ("We rebooked the cottage in Wells for the same week.", True),
    ("I could trade the van in next spring, not yet though.", False),  # "not yet" denies no value
    ("The boiler is working again, not bad at all.", False),
])
def test_a_denied_value_is_a_change_and_not_yet_is_none(said: str, expected: bool) -> None:
    assert changes(said) is expected


def test_upped_and_hiked_are_words_of_change() -> None:
    """A dose or a price put up is a change of value (issue 17: "Doctor upped me to 100mg" kept the 50mg dose)."""
    from goodmemory._change_words import changes

    assert changes("The consultant upped my dose to 20mg last week.")
    assert changes("They've hiked the gym fee to £45 a month.")
    assert not changes("I picked up the prescription on the way home.")


def test_ditched_is_a_word_of_change() -> None:
    """"We ditched X for Y" gives a new provider (issue 17: the old broadband stayed current beside the new one)."""
    from _memories import active_after
    from goodmemory._change_words import changes

    assert changes("We ditched Hyperoptic for Zen last month.")
    active = active_after("Our broadband is with Hyperoptic, it drops every evening.",
                          "we finally ditched Hyperoptic for Zen, so much steadier")
    assert any("Zen" in v for v in active) and not any("drops every evening" in v for v in active), active


def test_went_to_is_a_change_only_before_a_value() -> None:
    """"The fee went to £45" changes a value; "went to see the match with my cousin" changes nothing (issue 17: it had
    replaced "I support Arsenal" as the user's new like)."""
    from _memories import active_after
    from goodmemory._change_words import changes

    assert changes("The gym fee went to £45 in January.") and changes("Council tax has gone to 1,900 a year.")
    assert not changes("Went to see the Hornets with my cousin on Saturday.")
    active = active_after("I support Brentford.", "went to see the Hornets with my cousin, don't tell anyone")
    assert any("Brentford" in v for v in active), active


def test_retired_before_a_noun_is_no_change() -> None:
    """"a retired racing greyhound" describes the new dog; "my dad retired" is a change (issue 17: the adjective had
    made "we adopted a second dog, a retired greyhound called X" a change that replaced the first dog)."""
    from goodmemory._change_words import adds, changes

    assert not changes("We took in a retired racing greyhound called Moss.")
    assert adds("We adopted a second dog, a retired greyhound called Moss.")
    assert changes("My dentist retired in March.")
