"""Chat's telegraphic first person, and the changes told in passing (issue 17), in this file's own sentences.

Replaced (the newer value holds, the older one is in no current memory):
- a new holder of a role without "my" ("New boss is ..."), a counted onset ("Day 2 at ..."), a first week "as" a
  title, what the user is "as of" a point, a diet said new without "I'm" ("vegetarian now");
- a sum per period without a currency ("120/week");
- a provider that sent the welcome letter; news a question rests on ("... now that I've joined X?");
- the answer to "What are you studying now?", beside what the rules read of the rest of the reply;
- what was filed under a car the user replaced ("finance.mazda_cx_5": its cover).
Kept:
- a state told without "I'm" and said current ("Driving a second-hand Skoda Octavia now", "officially retired as of
  friday!!");
- the value before a condition in a trailing clause ("..., which works if I car-share on Fridays");
- news before ", but can you help ...", and a person named in a relative clause of it (", which Oskar finds
  hilarious"), who is not what changed;
- a date beside a remark without one ("only a week away now").
Not kept: a wish in the main clause ("I'd move to Valencia, if I could"); "since uni" as a course.
Read: a car told by its model alone ("my Corsa") is a vehicle, "Golf" or "Focus" alone is none; a sum said in
thousands ("on 48k") or per period ("700/month") is a sum, a "10k run" or "90k miles" is none.
"""

from __future__ import annotations

import pytest

from _memories import active_after, assert_holds, assert_replaced
from goodmemory._cues import SUM
from goodmemory._value_types import sorts_of

Sessions = tuple[str | list[str], ...]


@pytest.mark.parametrize(("sessions", "new", "old"), [
    pytest.param(("My manager Henrike wants the slides by Thursday.",
                  "Big restructure last week. New boss is Tobias Lindgren, he seems sharp."),
                 "Tobias", "Henrike", id="new-boss-is"),
    pytest.param(("I work at Brightwell Pharma as a lab technician.",
                  "Day 2 at Corvane Analytics and my laptop still isn't set up, typical."),
                 "Corvane", "Brightwell", id="day-n-at"),
    pytest.param(("I'm a junior stylist at Copper & Comb in Bath.",
                  "first week running the salon floor as senior stylist, exhausting but good"),
                 "senior stylist", "junior stylist", id="first-week-as"),
    pytest.param(("I'm a staff nurse on the cardiac ward, mostly nights.",
                  "big news!! ward manager as of next month, terrified. tips for a first team meeting?"),
                 "manager as of next month", "staff nurse", id="as-of"),
    pytest.param(("I've been vegan for three years, mostly lentils and tofu.",
                  "right so, vegetarian now, eggs and cheese are back on the menu. quiche ideas?"),
                 "vegetarian", "vegan", id="diet-now"),
    pytest.param(("Our food shop budget is 90 a week for the three of us.",
                  "upped the food shop to 120/week, the teenager eats for two now"),
                 "120/week", "90 a week", id="sum-per-period"),
    pytest.param(("Our electricity is with EDF, paying monthly.",
                  "Octopus sent the welcome letter today, so the switch is done."),
                 "Octopus", "EDF", id="welcome-letter"),
    pytest.param(("I'm a junior buyer at Halden Foods in Leeds.",
                  "could u help me with a short intro email now that I've joined Marlowe Retail? nothing too stiff"),
                 "Marlowe", "Halden", id="now-that-in-a-question"),
    pytest.param(("I'm in second year doing Geography at Exeter and fieldwork is killing me.",
                  ["so I switched courses last week", "A: Big step! What are you studying now?",
                   "Marine Biology, still at Exeter, starting properly in January. I love the lab sessions"]),
                 "Marine Biology", "Geography", id="studying-now"),
    pytest.param(("My breakdown cover is £95 a year for my 2017 Mazda CX-5, does that sound fair?",
                  "I sold the Mazda last month and bought a 2021 Skoda Enyaq, so I'm all electric now."),
                 "Enyaq", "CX-5", id="filed-under-the-old-car"),
])
def test_the_newer_value_replaces_the_older(sessions: Sessions, new: str, old: str) -> None:
    values = active_after(*sessions)
    assert_replaced(values, new, old)
    if old == "vegan":  # "vegetarian" holds "vegan" in no word of its own
        assert not any("vegan" in v.lower() for v in values), values


@pytest.mark.parametrize(("sessions", "kinds", "words"), [
    pytest.param(("Driving a second-hand Skoda Octavia now, how often should it be serviced?",), ["fact"],
                 ("Octavia",), id="state-without-im"),
    pytest.param(("officially retired as of friday!! what should I do with all this time",), None,
                 ("retired",), id="state-as-of"),
    pytest.param((["A: How much do you spend on petrol a month?",
                   "We keep it to 90 pounds a month between the two cars, which works if I car-share on Fridays."],),
                 None, ("90 pounds",), id="condition-in-a-trailing-clause"),
    pytest.param(("My flatmate Oskar keeps stealing my oat milk, help me write a polite note.",
                  "Switching to Octopus means I now run the washing machine at night, which Oskar finds hilarious, "
                  "but can you help me find the cheapest hours?"),
                 None, ("Oskar", "Octopus"), id="news-before-but-can-you"),
    pytest.param(("Our silver wedding anniversary is on the 14th of October, help me plan a surprise.",
                  "The anniversary is only a week away now! What should I say at dinner?"),
                 None, ("10-14",), id="date-beside-a-remark"),
])
def test_what_the_user_told_is_kept(sessions: Sessions, kinds: list[str] | None, words: tuple[str, ...]) -> None:
    values = active_after(*sessions, kinds=kinds)
    assert_holds([v.lower() for v in values], *(w.lower() for w in words))


@pytest.mark.parametrize(("sessions", "kinds", "word"), [
    pytest.param(("I'd move to Valencia, if I could find remote work.",), None, "Valencia", id="wish"),
    pytest.param((["A: Do you have a dentist you trust?",
                   "Yes, Dr. Ines Calder at the Harbour practice, she's been my dentist since uni."],),
                 ["profile"], "Calder", id="since-uni-is-no-course"),
])
def test_what_is_no_fact_of_the_users_is_not_kept(sessions: Sessions, kinds: list[str] | None, word: str) -> None:
    values = active_after(*sessions, kinds=kinds)
    assert not any(word in v for v in values), values


@pytest.mark.parametrize(("text", "vehicle"), [
    ("My Corsa failed its MOT on the brakes", True),
    ("Thinking of swapping the Qashqai for something smaller", True),
    ("Focus on the first chapter before you edit", False),
    ("I play golf with my dad on Sundays", False),
])
def test_a_car_told_by_its_model_alone_is_a_vehicle(text: str, vehicle: bool) -> None:
    assert ("vehicle" in sorts_of(text)) is vehicle


@pytest.mark.parametrize(("text", "is_sum"), [
    ("on 48k at the moment", True),
    ("paying 700/month for the flat", True),
    ("did a 10k run on Sunday", False),
    ("the car has 90k miles on it", False),
])
def test_a_sum_in_thousands_or_per_period_is_a_sum(text: str, is_sum: bool) -> None:
    assert bool(SUM.search(text)) is is_sum
