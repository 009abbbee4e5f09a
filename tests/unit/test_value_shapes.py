"""The two tables of ``_value_types`` (issue 17), in this file's own sentences.

- A family's value shape: an age is a number of years, an appointment is at a time, a time zone and a rent are named
  as such, a manager is someone the user reports to, a work schedule says when, a birth date is a date, an address a
  numbered street or a postcode, a preferred name is said of the user, sleep of sleep. A statement without the shape is
  never filed under the family, however alike its masked words read to the family's examples ("I'm halfway through a
  long novel" is no age, "First month at X done" no appointment).
- The sorts of value a sentence names: where the user is now, told as a change ("now that we're in Porto"), is a home;
  when they get up is a wake time; the employer after what one does there ("I work in logistics at X") is an employer.
  A stay ("I'm in Leeds this week") or a bedtime is none.
"""

from __future__ import annotations

import pytest

from _memories import active_records_after
from goodmemory._value_types import lacks_shape, shaped_family, sorts_of


@pytest.mark.parametrize(("family", "text", "lacks"), [
    ("age", "I'm halfway through Wolf Hall", True),
    ("age", "I'm 41 next month", False),
    ("age", "I turned sixty in May", False),
    ("age", "I'm in my late thirties", False),
    ("appointment", "First month at Harwell Freight done", True),
    ("appointment", "Switched my broadband to Zen, £29 for 500Mb", True),
    ("appointment", "The optician moved me to Thursday at 4pm", False),
    ("appointment", "Physio is on the 14th", False),
    ("timezone", "I'm at 56 mins right now", True),
    ("timezone", "I'm on Pacific time until March", False),
    ("manager", "I have a cleaning at Bright Dental with Dr. Alvarez next week", True),
    ("manager", "I report to Gwen now, she's great", False),
    ("work_schedule", "We've relocated to the King's Cross office as of today", True),
    ("work_schedule", "I'm on four long days now, Fridays off", False),
    ("rent", "My phone contract ends in May, I'm paying £38 a month for 100GB", True),
    ("home_city", "My rota is 6am till 2pm, Tuesday to Saturday", True),
    ("home_city", "we packed up and moved to the coast", False),
    ("home_city", "Loving the sea air in Brighton", False),
    ("home_city", "Started yoga in March, on Thursdays", True),
    ("employer", "my hours are 7 till 4 now", True),
    ("employer", "first week at the new place done, Halden Group is a friendly bunch", False),
    ("employer", "handed in my notice, I've got an offer elsewhere", False),
    ("rent", "The landlord's put it up to £1,240 from August", False),
    ("birth_date", "Just got into Fenwick Grammar, we're over the moon", True),
    ("birth_date", "My birthday's on the 3rd of June", False),
    ("birth_date", "I was born in 1988", False),
    ("address", "E.ON sent me a £180 bill for march, crazy for a 2 bed flat", True),
    ("address", "we're at 12 Tanner Row now", False),
    ("address", "new postcode is M14 6RT", False),
    ("preferred_name", "I run a little bakery in Hove called Crumbs", True),
    ("preferred_name", "everyone at work calls me Bex", False),
    ("preferred_name", "I go by Sam these days", False),
    ("preferred_name", "it's Kit these days, my name's too formal", False),
    ("sleep", "I go to Corefit on Union St, 6am before work", True),
    ("sleep", "I'm up at 5:30 most days", False),
    ("sleep", "I never get to bed before 1am", False),
    ("pet", "My nephew in Leeds posted me a new Kindle", True),
    ("pet", "Northern Gas sent the welcome pack, the switch went through on the 3rd", True),
    ("pet", "our spaniel Bramble is terrified of fireworks", False),
    ("pet", "we adopted two rescue kittens in March", False),
    ("pet", "the vet says Pickle needs to lose weight", False),
    ("bank", "The first Northern Gas bill came, £96", True),
    ("bank", "our council tax bill went up again", True),
    ("bank", "my current account is with Starling now", False),
    ("bank", "Moved everything over to Monzo in the spring", False),
    ("bank", "the Halifax branch in town is closing", False),
    ("team", "Our office moved to Deansgate, right by the tram stop", True),
    ("team", "the tram is 25 min each way these days", True),
    ("team", "I'm on the payments squad since the reorg", False),
    ("team", "Priya took over our team last month", False),
])
def test_a_familys_value_has_its_shape(family: str, text: str, lacks: bool) -> None:
    assert lacks_shape(family, text) is lacks


@pytest.mark.parametrize(("sort", "text", "named"), [
    ("home", "Now that we're in Porto the rent is half what it was", True),
    ("home", "I've been in Leeds six weeks now and still no GP", True),
    ("home", "I'm in Leeds this week for a conference", False),
    ("home", "I've been in Paris for a week, back on Monday", False),
    ("wake", "I wake up at 6:45 on weekdays", True),
    ("wake", "these days I'm up at 5 for the early shift", True),
    ("wake", "I go to bed at 11", False),
    ("wake", "I'm up for a walk later", False),
    ("employer", "I work in logistics at Harwell Freight", True),
    ("employer", "She works as a buyer for Tolley & Sons", True),
    ("employer", "I work on the night shift at weekends", False),
])
def test_the_sort_a_sentence_names(sort: str, text: str, named: bool) -> None:
    assert (sort in sorts_of(text)) is named


def test_a_statement_without_a_number_is_no_age() -> None:
    keys = [k for k, _ in active_records_after("I'm halfway through Wolf Hall, is it worth finishing?")]
    assert not any(k.startswith("profile.age") for k in keys), keys


@pytest.mark.parametrize(("text", "family"), [
    ("the parcel was supposed to go to 8 Wickham Grove, BS7 2LP", "address"),
    ("it was meant to be delivered to 3 Copse Rise", "address"),
    ("Flat 2, 41 Ashby Road, LE11 3TU", "address"),
    ("the clinic at 5 Elm Road, LS2 9JT is closed on fridays", None),
])
def test_a_street_address_with_its_postcode_is_an_address(text: str, family: str | None) -> None:
    assert shaped_family(text) == family


@pytest.mark.parametrize(("before", "after", "new", "old", "family"), [
    pytest.param("My shift is 6am to 2pm, Monday to Thursday.", "my sched is 10am to 6pm these days",
                 "6pm", "2pm", None, id="hours-are-no-home-or-employer"),
    pytest.param("on the early shift at the bakery, 5 to 1. best breakfast to take?",
                 "swapped to nights now, 10pm-6am, three on four off.", "10pm-6am", "5 to 1", "profile.work_schedule",
                 id="a-shift-named-is-the-work-schedule"),
])
def test_hours_told_again_replace_the_hours(before: str, after: str, new: str, old: str, family: str | None) -> None:
    rows = active_records_after(before, after)
    assert [v for _, v in rows if new in v] and not [v for _, v in rows if old in v], rows
    assert not [k for k, _ in rows if k.startswith(("profile.home_city", "profile.employer"))], rows
    if family:
        assert [k for k, v in rows if new in v] == [family], rows
