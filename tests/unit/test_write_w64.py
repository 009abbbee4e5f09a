"""Write-side mechanisms found on tune lives by w64 (issue 17): each case is a sentence of our own."""

from __future__ import annotations

import pytest
from _extracting import dropped, extract, held, live_values, slot


def live_w64(*sessions: str) -> dict[str, str]:
    return live_values(*sessions, day=9)


# the value a replacing statement keeps is what holds now, whatever the grammar of the clause naming the old one
@pytest.mark.parametrize("said, key, old, gone, kept", [
    ("We moved out of Ripon in May and settled in Harrogate", "profile.home_city", "Ripon", "Ripon", "Harrogate"),
    ("The Grand on the seafront, I cancelled the Travelodge", "fact.booking.travelodge", "Travelodge", "Travelodge",
     "Grand"),
    ("Warfarin was replaced with apixaban at my last check", "fact.medication.warfarin", "warfarin", "arfarin",
     "apixaban"),
    ("I've switched to loratadine, the chlorphenamine knocked me out", "fact.medication.chlorphenamine",
     "chlorphenamine", "chlorphenamine", "loratadine"),
    ("We lost Pickle in the spring. Mango, our new rescue, keeps us busy", "fact.pet.pickle", "Pickle", "Pickle",
     "Mango"),
    ("We gave Gus to my uncle's farm, so now it's just the cat, Noodle", "fact.pet.gus", "Gus", "Gus", "Noodle"),
    ("Elsie left Brambles Nursery at Easter and she's at Hollybank Primary now",
     "relation.daughter.elsie.school", "Brambles Nursery", "Brambles", "Hollybank"),
])
def test_the_clause_naming_the_old_value_leaves_the_value(said: str, key: str, old: str, gone: str,
                                                          kept: str) -> None:
    value = dropped(said, key, old)
    assert gone.lower() not in value.lower() and kept in value, value


def test_a_sentence_only_about_the_new_value_keeps_its_words() -> None:
    said = "Harrogate has been lovely so far"
    assert dropped(said, "profile.home_city", "Ripon") == said


def test_an_addition_whose_key_matches_an_earlier_slot_starts_its_own() -> None:
    said = "I've also booked the train back from Lyon on 9 June"
    own = "travel.lyon_june"
    got = slot(said, "booking", own, held(own, "I take the train to Lyon on 2 June"))
    assert got is not None and got != own and got.startswith(own)


@pytest.mark.parametrize("first, second, gone, now", [
    ("I have a gerbil called Dot.", "Dot isn't with us any more, we got a rabbit called Fudge in May.", "Dot", "Fudge"),
    ("We have a ferret called Bandit.", "Bandit was rehomed last month and the kids have a kitten named Sprout now.",
     "Bandit", "Sprout"),
])
def test_a_pet_said_to_have_gone_is_replaced(first: str, second: str, gone: str, now: str) -> None:
    live = live_w64(first, second)
    assert not any(gone in v for v in live.values()), live
    assert any(now in v for v in live.values()), live


def test_a_named_childs_change_of_school_replaces_the_school_not_the_name() -> None:
    live = live_w64("My son Arlo is at Meadow Lane Nursery.", "Arlo left Meadow Lane in June and he's at Fernhill "
                    "Primary now.")
    assert not any("Meadow" in v for v in live.values()), live
    assert any("Fernhill" in v for v in live.values()), live
    assert "Arlo" in live.values(), live


# a way of answering named only to refuse it is no preference for it
@pytest.mark.parametrize("said, key, value", [
    ("I don't need the detailed explanations any more, brief answers will do.", "preference.communication.length",
     "concise answers"),
    ("Enough with the bullets, I'd like prose.", "preference.communication.format", "prose paragraphs"),
    ("Keep your replies professional, my boss reads them.", "preference.communication.tone", "formal tone"),
    ("A chatty tone is better for me.", "preference.communication.tone", "casual tone"),
    ("Please stick to American spelling.", "preference.communication.spelling", "American spelling"),
])
def test_communication_rules_read_more_frames(said: str, key: str, value: str) -> None:
    got = {(c.key, c.value) for c in extract(said) if not c.metadata.get("statement")}
    assert (key, value) in got, got
    assert ("preference.communication.length", "detailed explanations") not in got
    assert ("preference.communication.format", "bullet points") not in got


def test_a_communication_memory_keeps_the_users_own_words() -> None:
    (c,) = [c for c in extract("Short replies please.") if c.key == "preference.communication.length"]
    assert c.value == "concise answers" and "short replies" in c.text


@pytest.mark.parametrize("turns, key, value", [
    (("I'll be 65 in October, so retirement is close.",), "profile.age", "65"),
    (("I'm turning 30 next week.",), "profile.age", "30"),
    (("I'll be 40 in March, could you plan a weekend away?",), "profile.age", "40"),
    (("A: How old are you?", "57."), "profile.age", "57"),
    (("A: When's your birthday?", "The 9th of November."), "profile.birthday", "November 9"),
    (("I was born in '93, the year of the floods.",), "profile.birth_year", "1993"),
    (("My birthday's on 4 April.",), "profile.birthday", "April 4"),
])
def test_ages_and_birthdays_said_in_passing(turns: tuple[str, ...], key: str, value: str) -> None:
    got = {(c.key, c.value) for c in extract(*turns) if not c.metadata.get("statement")}
    assert (key, value) in got, got


@pytest.mark.parametrize("said", ["I'll be 10 minutes late.", "I'll be 30 in a minute, hold on."])
def test_a_number_after_ill_be_is_no_age_without_a_when(said: str) -> None:
    assert not any(c.key == "profile.age" for c in extract(said))
