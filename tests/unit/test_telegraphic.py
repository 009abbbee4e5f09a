"""Chat's telegraphic first person (issue 17), in this file's own sentences.

- A state told without "I'm" is the user's when it says it is current ("Driving a second-hand Skoda Octavia now"),
  a new holder of a role without "my" ("New boss is ...") and a counted onset ("Day 2 at ...") likewise.
- A manager a rule read ("my manager X") and one told in the user's words are one attribute: the newer replaces it.
- A car told by its model alone ("my Corsa") is a vehicle; "Golf" or "Focus" alone is no car.
- A diet told as new without "I'm" ("vegetarian now") is the diet.
- A sum said in thousands ("on 48k") or per period without a currency ("120/week") is a sum.
- What the user is from a point on, told without "I'm" ("ward manager as of next month"), replaces what they were.
- The answer to "What are you studying now?" replaces the course, beside what the rules read of the rest of the reply.
- A first week "as" a title is the new title ("first week running the salon floor as senior stylist"); a provider
  that sent the welcome letter is the new one.
- A state told without "I'm" ("officially retired as of friday!!", "fully remote now") is kept.
- News a question rests on ("... now that I've joined X?") is kept.
- A remark without a date ("only a week away now") does not replace a date.
- What was filed under a car the user replaced ("finance.mazda_cx_5": its cover) goes with it.
- News before ", but can you help ..." is kept; a person named in a relative clause of a change (", which Oskar finds
  hilarious") is not what changed.
- A condition in a trailing clause ("..., which works if I batch cook") leaves the value before it told as it is;
  a wish in the main clause ("I'd move to Lisbon, if I could") is no fact.
"""

from __future__ import annotations

import pytest

from _memories import active_after, assert_replaced
from goodmemory._value_types import sorts_of


def test_a_current_state_told_without_im_is_the_users() -> None:
    values = active_after("Driving a second-hand Skoda Octavia now, how often should it be serviced?",
                          kinds=["fact"])
    assert any("Octavia" in v for v in values), values


def test_a_new_holder_of_a_role_without_my_replaces_the_old_one() -> None:
    values = active_after("My manager Henrike wants the slides by Thursday.",
                          "Big restructure last week. New boss is Tobias Lindgren, he seems sharp.")
    assert_replaced(values, "Tobias", "Henrike")


def test_a_counted_onset_at_a_company_is_a_new_employer() -> None:
    values = active_after("I work at Brightwell Pharma as a lab technician.",
                          "Day 2 at Corvane Analytics and my laptop still isn't set up, typical.")
    assert_replaced(values, "Corvane", "Brightwell")


@pytest.mark.parametrize(("text", "vehicle"), [
    ("My Corsa failed its MOT on the brakes", True),
    ("Thinking of swapping the Qashqai for something smaller", True),
    ("Focus on the first chapter before you edit", False),
    ("I play golf with my dad on Sundays", False),
])
def test_a_car_told_by_its_model_alone_is_a_vehicle(text: str, vehicle: bool) -> None:
    assert ("vehicle" in sorts_of(text)) is vehicle


def test_a_diet_told_as_new_without_im_is_the_diet() -> None:
    values = active_after("I've been vegan for three years, mostly lentils and tofu.",
                          "right so, vegetarian now, eggs and cheese are back on the menu. quiche ideas?")
    assert any("vegetarian" in v for v in values), values
    assert not any("vegan" in v.lower() for v in values), values


def test_a_condition_in_a_trailing_clause_keeps_the_value_before_it() -> None:
    values = active_after(["A: How much do you spend on petrol a month?",
                           "We keep it to 90 pounds a month between the two cars, which works if I car-share on Fridays."])
    assert any("90 pounds" in v for v in values), values


def test_a_wish_with_a_condition_is_no_fact() -> None:
    assert active_after("I'd move to Valencia, if I could find remote work.") == []


def test_a_sum_per_period_without_a_currency_replaces_the_sum_before() -> None:
    values = active_after("Our food shop budget is 90 a week for the three of us.",
                          "upped the food shop to 120/week, the teenager eats for two now")
    assert_replaced(values, "120/week", "90 a week")


@pytest.mark.parametrize(("text", "is_sum"), [
    ("on 48k at the moment", True),
    ("paying 700/month for the flat", True),
    ("did a 10k run on Sunday", False),
    ("the car has 90k miles on it", False),
])
def test_a_sum_in_thousands_or_per_period_is_a_sum(text: str, is_sum: bool) -> None:
    from goodmemory._cues import SUM

    assert bool(SUM.search(text)) is is_sum


def test_what_was_filed_under_a_replaced_car_goes_with_it() -> None:
    values = active_after("My breakdown cover is £95 a year for my 2017 Mazda CX-5, does that sound fair?",
                          "I sold the Mazda last month and bought a 2021 Skoda Enyaq, so I'm all electric now.")
    assert any("Enyaq" in v for v in values), values
    assert not any("CX-5" in v for v in values), values


def test_news_before_but_can_you_is_kept_and_names_in_a_relative_clause_change_no_one() -> None:
    values = active_after("My flatmate Oskar keeps stealing my oat milk, help me write a polite note.",
                          "Switching to Octopus means I now run the washing machine at night, which Oskar finds "
                          "hilarious, but can you help me find the cheapest hours?")
    assert "Oskar" in values, values
    assert any("Octopus" in v for v in values), values


def test_what_the_user_is_as_of_a_point_told_without_im_replaces_what_they_were() -> None:
    values = active_after("I'm a staff nurse on the cardiac ward, mostly nights.",
                          "big news!! ward manager as of next month, terrified. tips for a first team meeting?")
    assert_replaced(values, "manager as of next month", "staff nurse")


def test_news_a_question_rests_on_is_kept() -> None:
    values = active_after("I'm a junior buyer at Halden Foods in Leeds.",
                          "could u help me with a short intro email now that I've joined Marlowe Retail? nothing too stiff")
    assert_replaced(values, "Marlowe", "Halden")


def test_what_the_user_is_studying_now_answers_the_course() -> None:
    values = active_after("I'm in second year doing Geography at Exeter and fieldwork is killing me.",
                          ["so I switched courses last week",
                           "A: Big step! What are you studying now?",
                           "Marine Biology, still at Exeter, starting properly in January. I love the lab sessions"])
    assert_replaced(values, "Marine Biology", "Geography")


def test_since_uni_is_a_time_not_a_course() -> None:
    values = active_after(["A: Do you have a dentist you trust?",
                           "Yes, Dr. Ines Calder at the Harbour practice, she's been my dentist since uni."],
                          kinds=["profile"])
    assert not any("Calder" in v for v in values), values


def test_a_first_week_as_a_new_title_replaces_the_old_one() -> None:
    values = active_after("I'm a junior stylist at Copper & Comb in Bath.",
                          "first week running the salon floor as senior stylist, exhausting but good")
    assert_replaced(values, "senior stylist", "junior stylist")


def test_a_provider_that_sent_the_welcome_pack_is_the_new_one() -> None:
    values = active_after("Our electricity is with EDF, paying monthly.",
                          "Octopus sent the welcome letter today, so the switch is done.")
    assert_replaced(values, "Octopus", "EDF")


def test_a_state_of_the_users_told_without_im_is_kept() -> None:
    values = active_after("officially retired as of friday!! what should I do with all this time")
    assert any("retired" in v.lower() for v in values), values


def test_a_remark_without_a_date_does_not_replace_a_date() -> None:
    values = active_after("Our silver wedding anniversary is on the 14th of October, help me plan a surprise.",
                          "The anniversary is only a week away now! What should I say at dinner?")
    assert any("10-14" in v or "October" in v for v in values), values
