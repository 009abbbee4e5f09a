"""The sort of value a statement is about, and which statements frame a change of it (this test's own sentences)."""

from __future__ import annotations

import pytest

from goodmemory._value_types import change_frame, sorts_of


@pytest.mark.parametrize(("text", "sort"), [
    ("I swim at the Harbourside Leisure Centre twice a week", "gym"),
    ("Our daughter is in year two at Millbrook Infants", "school"),
    ("Most of my notes live in an app called Quillpad", "tool"),
    ("We have a little house in Dunmore", "home"),
    ("I'm a staff nurse on the cardiac ward", "title"),
    ("I work for Halvorsen Logistics", "employer"),
])
def test_the_sort_is_read_from_the_words_around_the_value(text: str, sort: str) -> None:
    assert sort in sorts_of(text)


def test_a_rule_memory_takes_the_sort_of_its_family_whatever_its_words() -> None:
    assert sorts_of("quality engineer", "occupation") == {"title"}
    assert sorts_of("Halvorsen", "employer") == {"employer"}


def test_words_of_a_sort_without_a_name_name_no_value() -> None:
    # "the app keeps crashing" and "I live with my sister" hold no gym, tool or home of the user's
    assert sorts_of("the app keeps crashing on my phone") == frozenset()
    assert "home" not in sorts_of("I live with my sister")


@pytest.mark.parametrize(("text", "sort"), [
    ("Changed leisure centres, it's Aquadome these days", "gym"),
    ("They promoted me to senior buyer", "title"),
    ("I became a paramedic last spring", "title"),
    ("We packed up and we're in Carrow now", "home"),
    ("Went over to Tidewrite for my drafts", "tool"),
    ("The new house is out in Mossley", "home"),
    # a change of a provider has the sort of its service
    ("Jumped ship to Aerial Mobile last week.", "phone_plan"),
    ("Switched to Marigold Energy in the autumn.", "energy"),
    ("The van is insured with Harrier now.", "insurer"),
    ("The cats go to Stonecross Vets now.", "vet"),
    ("Our internet runs on Quillnet these days.", "broadband"),
    ("My wages get paid into Heron Bank now.", "bank"),
])
def test_a_change_frame_names_the_sort_it_changes(text: str, sort: str) -> None:
    assert sort in change_frame(text)


@pytest.mark.parametrize("text", [
    "I swim at the Harbourside Leisure Centre twice a week",  # no change
    "My sister lives in Dunmore",  # no change
    "I'm a staff nurse on the cardiac ward",
])
def test_a_plain_statement_frames_no_change(text: str) -> None:
    assert change_frame(text) == frozenset()


def test_switching_over_to_a_name_is_not_moving_house() -> None:
    assert "home" not in change_frame("Moved over to Tidewrite last month")
    assert "tool" in change_frame("Moved over to Tidewrite last month")


@pytest.mark.parametrize("text", [
    "Our home insurance with Sandmere is up for renewal",
    "A colleague, Priya, is being moved to the Dundalk depot",
    "Sold the Corsa, so only the City now",
])
def test_words_that_only_look_like_a_home_name_none(text: str) -> None:
    assert "home" not in sorts_of(text) and "home" not in change_frame(text)


def test_a_change_done_to_another_person_is_theirs() -> None:
    from goodmemory._value_types import acts_on_another

    assert acts_on_another("We moved her to Ashgrove Academy after Easter")
    assert not acts_on_another("We moved to Ashgrove after Easter")


@pytest.mark.parametrize(("text", "sort"), [
    ("I've become head gardener at the estate", "title"),
    ("Packed our bags and settled in Kilmory", "home"),
])
def test_a_change_frame_in_the_perfect_or_without_moved(text: str, sort: str) -> None:
    assert sort in change_frame(text)


@pytest.mark.parametrize(("text", "sort"), [
    ("Parking the new Renault Zoe at the station costs nothing", "vehicle"),
    ("We swapped to a Subaru Outback now, the hatchback was too small", "vehicle"),
    ("Please use xe/xem pronouns for me from now on", "pronouns"),
    ("I go by he/they now", "pronouns"),
])
def test_a_vehicle_or_pronouns_change_is_read_from_the_make_or_the_pronoun_pair(text: str, sort: str) -> None:
    assert sort in change_frame(text)


def test_a_car_not_the_users_or_no_change_frames_no_vehicle_change() -> None:
    assert change_frame("We hired a Peugeot 208 for the holiday") == frozenset()  # no frame of change
    assert "vehicle" not in sorts_of("the ford across the river")  # no make named as a name
    assert "pronouns" in sorts_of("my pronouns are she/her") and "vehicle" not in sorts_of("my pronouns are she/her")


@pytest.mark.parametrize(("question", "noun"), [
    ("Which choir are you singing with these days?", "choir"),
    ("What's your locker number now?", "locker"),
    ("Who's your physio at the moment?", "physio"),
    ("Which choir does your brother sing in now?", None),  # another person's
    ("Which choir would you like to join?", None),  # no question of what holds now
    ("What are you doing these days?", None),  # no noun
])
def test_a_question_of_what_holds_now_names_its_attribute(question: str, noun: str | None) -> None:
    from goodmemory._value_types import asked_now

    assert asked_now(question) == noun


def test_a_question_about_another_persons_thing_is_told_apart() -> None:
    from goodmemory._value_types import asked_of_another

    assert asked_of_another("Which choir does your brother sing in now?")
    assert asked_of_another("What school does your niece go to these days?")
    assert not asked_of_another("Which choir are you in now?")
    assert not asked_of_another("What is your address these days?")  # "is your X" asks of the user's own X


@pytest.mark.parametrize(("text", "sort", "not_sort"), [
    ("I've been moved onto Dr. Achebe's list at the health centre", "doctor", "dentist"),
    ("My dentist these days is Dr. Varga", "dentist", "doctor"),
])
def test_a_gp_and_a_dentist_are_sorts_apart(text: str, sort: str, not_sort: str) -> None:
    assert sort in sorts_of(text) and not_sort not in sorts_of(text)


def test_a_doctor_without_a_name_names_no_value() -> None:
    assert "doctor" not in change_frame("The new doctor wants me to cut down on salt")


def test_a_change_told_of_a_relative_without_the_user_is_theirs() -> None:
    from goodmemory._value_types import acts_on_another

    assert acts_on_another("Dad has been put under Dr. Achebe at his practice")
    assert acts_on_another("Dad switched to Heron Bank for his savings")
    assert not acts_on_another("I switched to Heron Bank, my sister recommended it")
