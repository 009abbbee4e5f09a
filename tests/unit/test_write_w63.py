"""Write-side classes found on tune lives by w63 (issue 17): each case is a sentence of our own."""

from __future__ import annotations

import pytest
from _extracting import dropped, extract, live_values


def live_w63(*sessions: str) -> dict[str, str]:
    return live_values(*sessions, day=7)


# the language replies should be in is asked for in many frames besides "reply in X"
@pytest.mark.parametrize("said, value", [
    ("Could you go over to Swedish for a while?", None),  # "go over to" is no frame we read
    ("Please switch to Norwegian, I want to practise.", "Norwegian"),
    ("Talk to me in Greek from now on.", "Greek"),
    ("I'd love the answers in Romanian now.", "Romanian"),
    ("Just use Czech with me.", "Czech"),
    ("Hungarian again please, the English was a one-off.", "Hungarian"),
    ("Write back to me in Catalan.", "Catalan"),
])
def test_reply_language_frames(said: str, value: str | None) -> None:
    got = [c.value for c in extract(said) if c.key == "preference.communication.language"]
    assert (got[:1] == [value]) if value else not got, got


@pytest.mark.parametrize("said", [
    "I'm taking Turkish lessons on Tuesdays.",
    "My Finnish is getting rusty.",
    "No more Danish replies, please.",
])
def test_a_language_named_outside_a_request_is_no_reply_language(said: str) -> None:
    assert not any(c.key == "preference.communication.language" for c in extract(said))


def test_a_new_reply_language_replaces_the_old_one() -> None:
    live = live_w63("Answer me in Swedish, please.", "Could you switch to Norwegian? Swedish is too hard.")
    assert live.get("preference.communication.language") == "Norwegian", live
    assert "Swedish" not in live.values()


# units are asked for by what they measure: a distance, a weight, a temperature, a currency, or a whole system
@pytest.mark.parametrize("said, key, value", [
    ("Give me distances in kilometres please.", "preference.communication.units.distance", "kilometres"),
    ("Use feet and inches when you talk heights.", "preference.communication.units.distance", "feet and inches"),
    ("Temperatures in Fahrenheit please.", "preference.communication.units.temperature", "Fahrenheit"),
    ("Ounces and pounds for recipes, thanks.", "preference.communication.units.weight", "ounces and pounds"),
    ("Show costs in euros.", "preference.communication.units.currency", "euros"),
    ("Can we switch to imperial?", "preference.communication.units", "imperial units"),
])
def test_units_asked_for(said: str, key: str, value: str) -> None:
    got = extract(said)
    assert any(c.key == key and c.value == value for c in got), [(c.key, c.value) for c in got]


@pytest.mark.parametrize("said", [
    "I cycled 40 kilometres on Sunday.",
    "The lake is about three miles from us.",
    "It was 30 degrees Celsius in Seville.",
    "I lost five pounds over the summer.",
])
def test_a_measurement_is_no_units_preference(said: str) -> None:
    assert not any(c.key.startswith("preference.communication.units") for c in extract(said))


def test_new_units_replace_old_ones_of_the_same_measure() -> None:
    live = live_w63("Weights in stone and pounds please.", "Kilograms from now on, please.",
                 "Temperatures in Celsius, thanks.")
    assert live.get("preference.communication.units.weight") == "kilograms", live
    assert live.get("preference.communication.units.temperature") == "Celsius", live
    assert "stone and pounds" not in live.values()


# a home told by its consequence ("after the move to X, ...") or by a trailing clause ("in X, where we've lived
# since ...") is a change of the home city
@pytest.mark.parametrize("old, new, gone", [
    ("I live in Norwich.", "After our move to Lincoln, my morning runs are all hills.", "Norwich"),
    ("I'm based in Truro.", "Enjoying the quiet in Bude, where I've lived since March.", "Truro"),
])
def test_a_home_told_by_its_consequence_replaces_the_old_one(old: str, new: str, gone: str) -> None:
    live = live_w63(old, new)
    assert not any(gone in v for v in live.values()), live


def test_someone_elses_move_is_no_change_of_home() -> None:
    live = live_w63("I live in Ripon.", "After my brother's move to Leeds, he lives closer to work.")
    assert live.get("profile.home_city") == "Ripon", live


# a booking the provider changed: "they moved us to X" is the clause that holds now, the old name goes from the value
def test_a_provider_move_keeps_only_the_new_value() -> None:
    got = dropped("The Seaspray Inn flooded, so they moved us to the Gull Rock Lodge", "travel.x",
                  "We have a room at the Seaspray Inn in Tenby")
    assert "Seaspray" not in got and "Gull Rock" in got, got


# a pet put to sleep is gone like one that died: a pet that came since is the one the user has
def test_a_pet_put_to_sleep_is_gone() -> None:
    live = live_w63("We have a greyhound called Sable.", "Sable was put to sleep in May. A spaniel called Figgy has joined the family since.")
    assert not any(v == "Sable" for v in live.values()), live
    assert any("Figgy" in v for v in live.values()), live


# a weekday said before its calendar date ("Friday 14 March") is that date, not the next such weekday
@pytest.mark.parametrize("text, day", [
    ("the ferry is on Wednesday 9 July", (2025, 7, 9)),
    ("we sail on Friday, the 11th of July", (2025, 7, 11)),
    ("it's Monday 14 July now", (2025, 7, 14)),
])
def test_a_weekday_before_a_date_is_that_date(text: str, day: tuple[int, int, int]) -> None:
    from datetime import date

    from goodmemory.dates import find_date

    got = find_date(text, date(2025, 5, 7))
    assert got is not None and got.day == date(*day), got


# another person's flight is theirs: it changes no flight of the user's
def test_someone_elses_flight_does_not_move_the_users() -> None:
    live = live_w63("My flight to Riga is on 9 May.", "My sister's flight got moved to 11 May, lucky her.")
    assert "2025-05-09" in live.values(), live


# "we're going to <a named place>" is a journey the user has, no undecided plan ("I'm going to try yoga")
def test_going_to_a_named_place_is_kept() -> None:
    got = [c.value for c in extract("We're going to Madeira in the second week of May.")]
    assert any("Madeira" in v for v in got), got
    assert not extract("I'm going to try the new climbing wall.")


# "I think in X" says how the user thinks of measures, no hedge of what follows
def test_i_think_in_a_unit_is_no_hedge() -> None:
    got = extract("I think in kilograms, so use those for the recipes.")
    assert any(c.key == "preference.communication.units.weight" and c.value == "kilograms" for c in got), got


# tone and format asked for in more words than the fixed phrases: a new one replaces the old one of its kind
@pytest.mark.parametrize("said, key, value", [
    ("Keep your tone professional with me.", "preference.communication.tone", "formal tone"),
    ("You can be more laid-back with me, informal is fine.", "preference.communication.tone", "casual tone"),
    ("Drop the numbered lists, proper paragraphs suit me better.", "preference.communication.format",
     "prose paragraphs"),
])
def test_tone_and_format_frames(said: str, key: str, value: str) -> None:
    got = extract(said)
    assert any(c.key == key and c.value == value for c in got), [(c.key, c.value) for c in got]


def test_a_new_tone_replaces_the_old_one() -> None:
    live = live_w63("Please be formal with me.", "Casual is fine from now on.")
    assert live.get("preference.communication.tone") == "casual tone", live


# a unit named in what the user does ("I save in euros", "we measure the garden in feet") asks nothing of answers
@pytest.mark.parametrize("said", [
    "I save in euros, not lira, so be honest about the fees.",
    "We measured the garden in feet last weekend.",
])
def test_a_unit_in_what_the_user_does_is_no_request(said: str) -> None:
    assert not any(c.key.startswith("preference.communication.units") for c in extract(said))


# "X is over for me" and "X went to live with Y" say a value went away: the old value leaves the memory
def test_a_diet_that_is_over_leaves_the_value() -> None:
    live = live_w63("I eat paleo.", "Paleo is over for me, I'm doing intermittent fasting instead.")
    assert not any("paleo" in v.lower() for v in live.values()), live


def test_a_pet_that_went_to_live_elsewhere_is_gone() -> None:
    live = live_w63("We have a rabbit called Thistle.", "Thistle went to live with my cousin; we've got a ferret called Bodhi now.")
    assert any("Bodhi" in v for v in live.values()), live
    assert not any("Thistle" in v for v in live.values()), live


# a relative's new age told as a birthday ("turned 9") is their age now, replacing the old one
@pytest.mark.parametrize("said, key, value", [
    ("My niece turned 9 on Saturday.", "relation.niece.age", "9"),
    ("My son has just turned 12.", "relation.son.age", "12"),
])
def test_a_relative_turned_an_age(said: str, key: str, value: str) -> None:
    got = extract(said)
    assert any(c.key == key and c.value == value for c in got), [(c.key, c.value) for c in got]


def test_more_depth_asks_for_detail() -> None:
    got = extract("You can go into more depth with me now.")
    assert any(c.key == "preference.communication.length" and c.value == "detailed explanations" for c in got), got


# a format said as what reads better for the user is asked for as much as one said with "please"
def test_a_format_that_reads_better_for_me() -> None:
    live = live_w63("Please use bullet points.", "Skip the bullets, proper paragraphs work better for me.")
    assert live.get("preference.communication.format") == "prose paragraphs", live
