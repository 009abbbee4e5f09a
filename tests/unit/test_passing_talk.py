"""Talk that passes with the day is no memory (issue 17, w52): irony, a one-off activity at a recent point in time,
a remark leaning on what came before, small talk about the weather, and (w58) a stay, a trip or a rental in a
temporary frame ("I'm in Porto this week for a workshop", "We hired a camper van for the weekend"). The raw turn
keeps it as an episode; a change, a habit, a plan or anything said to last stays a statement, and so does a
frame with no stay in it (a medicine or a symptom for the week)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from _extracting import extract, statements

from goodmemory.extraction._statements import passing, statement_candidate
from goodmemory.models import Candidate

AT = datetime(2025, 3, 12, 10, tzinfo=UTC)


def _extract(*turns: str, existing: dict[str, str] | None = None) -> list[Candidate]:
    return extract(*turns, at=AT, existing=existing)


def _said(*turns: str) -> list[str]:
    return [c.value for c in statements(*turns, at=AT)]


@pytest.mark.parametrize("text", [
    "I bumped into my old maths teacher at the bakery this morning.",
    "Had a long chat with my aunt last night about her allotment.",
    "We walked along the canal on Sunday, it was packed.",
    "My uncle rang me yesterday about the wedding photos.",
    "Spent after work sorting out the shed.",
    # a stay, a trip or a rental in a temporary frame
    "I'm in Porto this week for a workshop.",
    "I'm in Leipzig for the week, visiting a supplier.",
    "This week I'm working out of the Madrid office, so I might answer late.",
    "On holiday we're staying in a cabin near Lake Bled.",
    "We hired a camper van for the weekend in Cornwall.",
    "I've rented a Peugeot 208 for a few days while mine is being fixed.",
    "I'm away on a business trip in Oslo until Friday.",
])
def test_a_one_off_activity_at_a_recent_point_in_time_passes(text: str) -> None:
    assert passing(text)
    assert _said(text) == []


@pytest.mark.parametrize("text", [
    "I sold my van on Saturday.",                              # a change at a point in time
    "We adopted a rescue greyhound last weekend.",              # an acquisition
    "I've visited my gran every Sunday since March.",          # a habit
    "I'm going to call the council tomorrow about the bins.",  # a plan
    "I visit the climbing wall on Tuesdays.",                  # a weekday as a habit
    "I cycle to the lab every day.",
    "I saw a cardiologist last Tuesday and he put me on beta blockers.",  # a lasting fact in its second clause
    "I live in Ghent but this week I'm in Porto for a workshop.",   # a lasting clause beside the trip
    "I've been in Porto for three years now.",                      # a stay said to last
    "This week I moved to Porto for good.",                         # a change
    "I go to Porto every week for work.",                           # a habit
    "I'm on antibiotics for the week.",                             # a medicine, no stay
    "I've had a migraine for a few days.",                          # a symptom, no stay
    "We're on holiday until the 14th, so no meetings please.",      # availability, no place of stay
])
def test_a_change_a_habit_or_a_plan_does_not_pass(text: str) -> None:
    assert not passing(text)


@pytest.mark.parametrize("text", [
    "Oh sure, I just adore queuing at the post office.",
    "Oh great, my favourite thing, a flat tyre.",
    "Brilliant, another bank holiday spent doing paperwork.",
])
def test_irony_is_not_taken_at_its_word(text: str) -> None:
    assert passing(text)
    assert [c for c in _extract(text) if c.kind.value != "episode"] == []


def test_a_plain_like_after_a_plain_lead_is_still_a_like() -> None:
    got = _extract("Oh, I really love sea swimming.")
    assert [c.key for c in got] == ["preference.like.sea_swimming"]
    assert not passing("Great, I'm moving to Hull in May.")


@pytest.mark.parametrize("text", ["That was a waste of an evening.", "What a week.", "I keep forgetting it.",
                                  "Hello, it's me again about the refund.",
                                  "Not my idea of fun, honestly.", "At least it's over."])
def test_a_remark_leaning_on_what_came_before_passes(text: str) -> None:
    assert passing(text)
    assert _said(text) == []


def test_a_remark_naming_a_value_or_pointing_back_inside_itself_stays() -> None:
    assert not passing("It's Castlebrook Leisure now.")
    assert _said("My flatmate adores horror films, I can't watch them at all.")


@pytest.mark.parametrize("text", ["The fog this morning is unreal.", "Such a glorious sunshine today.",
                                  "The traffic on the ring road is driving me up the wall."])
def test_small_talk_about_the_weather_passes(text: str) -> None:
    assert passing(text)
    assert _said(text) == []


def test_the_heating_of_the_users_home_is_no_weather() -> None:
    assert not passing("The heating in my flat is electric.")


def test_an_answer_keeps_only_its_sentences_that_last() -> None:
    c = statement_candidate("Walked the dog after work. I'm a pharmacist in Derby.", question="Anything else today?",
                            message_ids=["m0", "m1"], timestamp=AT, domain=None, correction=False, secret=False)
    assert c is not None and c.value == "I'm a pharmacist in Derby"
    assert statement_candidate("Walked the dog after work. What a day.", question="Anything else today?",
                               message_ids=["m0", "m1"], timestamp=AT, domain=None, correction=False,
                               secret=False) is None


def test_a_bare_correction_names_its_new_value() -> None:
    existing = {"fact.note.new_kettle.a1b2c3": "I bought a new kettle because the old one was not working"}
    assert [c for c in _extract("Still not convinced it helped.", existing=existing)
            if c.metadata.get("rule") == "correction"] == []
    got = [c for c in _extract("Sorry, it's 4412, not 4421.", existing={"card.visa.last4": "4421"})
           if c.metadata.get("rule") == "correction"]
    assert [(c.key, c.value) for c in got] == [("card.visa.last4", "4412")]


# ---------------------------------------------------------------- picks among the assistant's options
def _kept(*turns: str) -> list[tuple[str, str]]:
    return [(c.key, c.value) for c in _extract(*turns) if c.kind.value not in ("episode",) and not
            c.metadata.get("statement")]


def test_a_pick_after_thinking_aloud_and_saying_the_options_back() -> None:
    got = _kept("A: Window or aisle for the Lyon flight?", "Hmm, window or aisle... aisle, I need to stretch my legs.")
    assert got == [("preference.seat", "aisle")]  # the why is no task
    assert [(k, v.lower()) for k, v in _kept("A: Tea or coffee then?", "Um, tea or coffee. Coffee, please.")] == \
        [("preference.choice.coffee_vs_tea", "coffee")]


def test_a_task_added_beside_the_pick_stays_a_task() -> None:
    got = _kept("A: Tea or coffee this morning?", "Tea, and I also need to book a taxi for noon.")
    assert ("preference.choice.coffee_vs_tea", "Tea") in got and any(k.startswith("task.") for k, _ in got)


def test_options_said_back_without_a_pick_pick_nothing() -> None:
    assert not [k for k, _ in _kept("A: Window or aisle for the Lyon flight?", "Hmm, window or aisle, no idea.")
                if k == "preference.seat"]


# ---------------------------------------------------------------- likes said with an idiom or an intensifier
def test_give_me_x_any_day_is_a_preference() -> None:
    assert ("preference.prefer.bluegrass", "bluegrass") in _kept("I can't stand techno, give me bluegrass any day.")
    assert _kept("Give me a second to check.") == []


def test_an_intensifier_is_no_part_of_what_is_disliked() -> None:
    assert _kept("I don't enjoy cruises at all.") == [("preference.like.cruises", "dislikes cruises")]
    assert _kept("I'm not keen on musicals in the slightest.") == [("preference.like.musicals", "dislikes musicals")]


# ---------------------------------------------------------------- what the assistant asks is not what it issues
def test_a_value_the_assistant_asks_about_is_not_issued() -> None:
    got = _kept("A: So your flight home is on the 22nd?", "No, the 23rd, the early one.")
    assert not [v for _, v in got if "22" in v], got


def test_a_reference_the_assistant_issues_before_a_question_is_kept() -> None:
    got = _kept("Please book the table for six.", "A: Booked, your reference is TB-55190. Anything else?", "No, thanks.")
    assert any("TB-55190" in v for _, v in got), got


# ---------------------------------------------------------------- not asserted: denied likes, wishes, advice
def test_a_like_under_a_denied_saying_is_not_a_like() -> None:
    assert not [k for k, _ in _kept("I wouldn't say I enjoy gardening, but the roses need me.") if "like" in k]
    assert ("preference.like.gardening", "likes gardening") in _kept("I enjoy gardening.")


def test_a_wish_is_no_statement() -> None:
    assert _said("Honestly I'd love to live by the sea in Whitby one day.") == []
    assert _said("I live by the sea in Whitby.")


def test_someone_elses_advice_opens_no_task() -> None:
    assert not [k for k, _ in _kept("My physio said I should swim twice a week.") if k.startswith("task.")]
    assert [k for k, _ in _kept("I should swim twice a week.") if k.startswith("task.")] or \
        _kept("I need to book a swim lesson.")


def test_a_past_dislike_after_an_adverb_is_no_garbled_habit() -> None:
    texts = [c.text for c in _extract("I never really liked musicals.") if c.kind.value != "episode"]
    assert not any("reallies" in t for t in texts), texts
    assert ("preference.habit.cycle_work", "usually cycles to work") in _kept("I usually really cycle to work.")


def test_an_appointment_moved_from_one_day_to_another_is_on_the_new_day() -> None:
    got = dict(_kept("My optician appointment was moved from the 14th to the 21st."))
    assert got.get("appointment.optician") == "2025-03-21", got
    assert dict(_kept("My optician appointment is on the 14th.")).get("appointment.optician") == "2025-03-14"


def test_an_undecided_choice_is_no_statement() -> None:
    assert _said("Either the oak desk or the walnut one, I can't decide.") == []
    assert _said("I'm torn between Rust and Kotlin for the app.") == []
    assert _said("I picked the walnut desk in the end.")


# ---------------------------------------------------------------- preferences said in other words
def test_prefer_not_to_is_one_preference_not_a_choice_of_not() -> None:
    got = _kept("I'd prefer not to discuss my salary.")
    assert got == [("preference.prefer.not_to_discuss_their_salary", "not to discuss their salary")], got
    assert _kept("I prefer tea to coffee.") == [("preference.choice.coffee_vs_tea", "tea")]


def test_praise_of_the_assistant_is_no_statement() -> None:
    assert _said("I love how you break things down.") == []
    assert _said("I love how quiet Dalby Forest is in winter.")


def test_a_request_with_a_standing_marker_is_kept_in_the_users_words() -> None:
    assert _said("Large print please, always.")
    assert _said("Large print please.") == []


def test_a_one_off_appraisal_at_a_recent_point_passes() -> None:
    assert passing("I enjoyed the quiz at the pub last night.")
    assert not passing("I enjoy the quiz at the pub on Tuesdays.")


# ---------------------------------------------------------------- what is never done is no task
def test_a_routine_or_a_momentary_need_opens_no_task() -> None:
    assert not [k for k, _ in _kept("I have to clock in by 7 every morning.") if k.startswith("task.")]
    assert not [k for k, _ in _kept("I need to rant for a minute.") if k.startswith("task.")]
    assert [k for k, _ in _kept("I have to clock in early on Friday.") if k.startswith("task.")]


def test_a_request_of_the_assistant_is_no_statement() -> None:
    assert _said("I need you to look over my cover letter.") == []


def test_a_quantified_relative_as_subject_is_another_person() -> None:
    got = [c for c in _extract("Both my sisters are retired nurses.") if c.metadata.get("statement")]
    assert got and all(c.metadata.get("other_subject") for c in got)
    mine = [c for c in _extract("I'm a retired nurse, honestly.") if c.kind.value != "episode"]
    assert mine and not any(c.metadata.get("other_subject") for c in mine)


# ---------------------------------------------------------------- answers
def _answer(reply: str, question: str) -> Candidate | None:
    return statement_candidate(reply, question=question, message_ids=["m0", "m1"], timestamp=AT, domain=None,
                               correction=False, secret=False)


def test_a_yes_keeps_the_question_it_confirms() -> None:
    c = _answer("Yes, since I was a teenager.", "Are you pescatarian?")
    assert c is not None and "pescatarian" in c.text and "since I was a teenager" in c.text
    c = _answer("Lindqvist, with a q.", "What's your surname?")
    assert c is not None and c.text == 'The user answered: "Lindqvist, with a q."'


def test_news_after_a_short_no_is_kept() -> None:
    c = _answer("Not really. My wrist has been sore since the climbing trip.", "Anything else I can help with?")
    assert c is not None and c.value == "My wrist has been sore since the climbing trip"
    assert _answer("Not really, thanks.", "Anything else I can help with?") is None


def test_a_number_to_call_the_user_on_is_their_phone() -> None:
    assert ("contact.phone", "0113 496 0555") in _kept("Call me on 0113 496 0555, or email if it's late.")
    assert not [k for k, _ in _kept("Call me on Thursday at 4.") if k.startswith("contact.phone")]


def test_really_into_is_a_like() -> None:
    assert ("preference.like.bell_ringing", "likes bell ringing") in _kept("I'm really into bell ringing lately.")


def test_a_verbless_standing_request_is_kept_in_the_users_words() -> None:
    assert _said("Oat milk, always.")
    assert _said("The tram is always late.") == []


# ---------------------------------------------------------------- "I'd rather ..." is a preference, never the value it names
def test_rather_not_share_a_value_is_a_preference_not_that_value() -> None:
    got = _extract("I'd rather not share my home address.")
    assert [(c.kind.value, c.key) for c in got if c.kind.value != "episode"] == \
        [("preference", "preference.prefer.not_share_their_home_address")]
    assert [c for c in _extract("I'd rather not say.") if c.kind.value != "episode"] == []


def test_rather_you_did_not_call_me_a_name_is_no_preferred_name() -> None:
    got = _kept("I'd rather you didn't call me Jules.")
    assert ("profile.preferred_name", "Jules") not in got
    assert any(k.startswith("preference.instruction.") for k, _ in got), got
    assert ("profile.preferred_name", "Jules") in _kept("Please call me Jules.")


def test_rather_x_than_y_is_a_choice() -> None:
    assert ("preference.choice.bus_vs_walk", "walk") in _kept("I'd sooner walk than take the bus.")


def test_a_yes_to_a_check_question_keeps_the_question() -> None:
    c = _answer("Yes, Robin is, quite badly.", "Your husband said he's allergic to wasps?")
    assert c is not None and "wasps" in c.text and '"Yes, Robin is, quite badly."' in c.text
    c = _answer("Yes, weekday mornings work best.", "Which days suit you for the install?")
    assert c is not None and "install" not in c.text
