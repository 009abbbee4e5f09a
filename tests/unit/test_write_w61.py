"""Write-side classes found on tune lives by w61 (issue 17): each case is a sentence of our own."""

from __future__ import annotations

import pytest
from _extracting import dropped, extract, held, live_values, slot, statements

from goodmemory._change_words import changes


# a softener between the subject and its verb ("I've kind of moved to X") hedges nothing the user says: the
# rules read the verb, and the user's words are kept without it
@pytest.mark.parametrize("said, key, value", [
    ("I've kind of moved to Torquay, it's closer to my parents.", "profile.home_city", "Torquay"),
    ("I sort of live in Penzance these days.", "profile.home_city", "Penzance"),
    ("We've kinda moved to Falmouth now.", "profile.home_city", "Falmouth"),
])
def test_softener_before_the_verb_is_no_hedge(said: str, key: str, value: str) -> None:
    got = extract(said)
    assert any(c.key == key and c.value == value for c in got), got
    assert not any("kind" in c.value.lower() or "sort of" in c.value.lower() for c in got)


def test_a_real_hedge_still_hedges() -> None:
    assert not any(c.key == "profile.home_city" for c in extract("Maybe I'll move to Truro one day."))


# a place whose name is headed by what it is (a gym, a school, a bank, a clinic) is no city the user lives in
@pytest.mark.parametrize("said", [
    "I've moved to Brookside Gym, it has a pool.",
    "We moved to Larchfield Academy for the sixth form.",
    "I moved to Copperleaf Dental after the practice closed.",
])
def test_a_named_place_of_a_sort_is_no_home_city(said: str) -> None:
    assert not any(c.key == "profile.home_city" for c in extract(said))


def test_a_city_still_is() -> None:
    assert any(c.key == "profile.home_city" and c.value == "Harrogate" for c in extract("I moved to Harrogate."))


# a sentence starting with an adverb or a verb ("Just moved to X", "Got moved to X", "Finally moved to X") has no
# named subject: the user moved
@pytest.mark.parametrize("said", [
    "Just moved to Whitby, the sea air is great.",
    "Finally moved to Scarborough after months of looking.",
    "Recently moved to Filey with the kids.",
])
def test_a_leading_adverb_is_no_other_person(said: str) -> None:
    got = statements(said)
    assert got and not any(c.metadata.get("other_subject") for c in got), got


def test_a_name_still_is_another_person() -> None:
    assert any(c.metadata.get("other_subject") for c in statements("Morwenna moved to Whitby last spring."))


@pytest.mark.parametrize("said", [
    "I've swapped the chess club for a running club.",
    "We swapped Brightly for a cheaper supplier.",
    "We let the magazine subscription lapse.",
    "My dose has gone up to 20mg.",
    "The service charge has gone down to 90 a month.",
    "The fee came down to 30 after I complained.",
    "I've cut back to two shifts a week.",
])
def test_change_words(said: str) -> None:
    assert changes(said)


def test_a_swap_not_made_is_no_change() -> None:
    assert not changes("I haven't swapped the broadband yet.")


# the emergency contact is one person at a time, whoever they are to the user: a slot of its own
@pytest.mark.parametrize("said, name", [
    ("My emergency contact is my neighbour Rhodri, 07700 900612.", "Rhodri"),
    ("In case of emergency, ring my uncle Ferdinand.", "Ferdinand"),
    ("If anything happens to me, call my godmother Petra.", "Petra"),
    ("Can you put my nephew Cai down as my emergency contact?", None),  # a question: nothing
    ("Please list my aunt Gwen as my emergency contact from now on.", "Gwen"),
    ("Change my emergency contact to my colleague Imogen.", "Imogen"),
])
def test_emergency_contact_is_one_slot(said: str, name: str | None) -> None:
    got = [c for c in extract(said) if c.key == "relation.emergency_contact"]
    assert [c.value for c in got] == ([name] if name else []), got
    if name:
        # the person is told as the emergency contact, not as a second relation beside it
        assert not any(c.key.startswith("relation.") and c.key != "relation.emergency_contact" for c in extract(said))


def test_emergency_contact_keeps_the_number_in_its_text() -> None:
    (c,) = [c for c in extract("My emergency contact is my neighbour Rhodri, 07700 900612.")
            if c.key == "relation.emergency_contact"]
    assert "neighbour" in c.text and "07700 900612" in c.text


def test_emergency_contact_given_as_an_answer() -> None:
    got = extract("A: Who would you like as your emergency contact?", "Put down my stepdad Alun, please.")
    assert any(c.key == "relation.emergency_contact" and c.value == "Alun" for c in got), got


def test_a_new_emergency_contact_replaces_the_old_one() -> None:
    from goodmemory import create_good_memory

    mem = create_good_memory("sqlite://")
    try:
        mem.remember([{"role": "user", "content": "In case of emergency, ring my neighbour Rhodri."}], user_id="u")
        mem.remember([{"role": "user", "content": "From now on my emergency contact is my aunt Gwen."}],
                     user_id="u")
        live = {r.key: r.value for r in mem.list(user_id="u") if r.kind.value != "episode"}
        assert live.get("relation.emergency_contact") == "Gwen" and "Rhodri" not in live.values(), live
    finally:
        mem.close()


def test_emergency_contact_answer_the_relation_rule_reads_too() -> None:
    got = extract("A: And who is your emergency contact these days?", "My flatmate Saoirse, she's always in.")
    assert any(c.key == "relation.emergency_contact" and c.value == "Saoirse" for c in got), got


# how the user gets to work is one attribute: a new way replaces the old one, whatever the wording
@pytest.mark.parametrize("old, new, gone", [
    ("I walk to the office most days.", "Nowadays I take the tube to the office.", "walk"),
    ("I get the ferry to work.", "I stopped taking the ferry, I drive to work now.", "get the ferry"),
])
def test_a_new_way_to_work_replaces_the_old(old: str, new: str, gone: str) -> None:
    live = live_values(old, new)
    assert any(k.startswith("profile.commute") for k in live), live
    assert not any(v.lower().startswith(f"i {gone}") for v in live.values()), live


# "Sold A and bought B": the clause that sold the old value goes from the new memory's value
@pytest.mark.parametrize("said, old, new", [
    ("Sold the Astra and bought a Mazda 2 in March.", "Astra", "Mazda"),
    ("Got rid of the Fiesta and picked up a used Octavia.", "Fiesta", "Octavia"),
])
def test_sold_and_bought_drops_the_sold_value(said: str, old: str, new: str) -> None:

    v = dropped(said, "vehicle.x", f"I drive a {old}")
    assert new in v and old not in v, v


# a title given by someone ("they appointed me X"), or earned ("I qualified as a X"), is a new title; a title said
# without an article ("I'm deputy head of maths") is a title too
@pytest.mark.parametrize("said", [
    "The board appointed me finance director in the spring.",
    "They've appointed me as lead nurse for the ward.",
    "I qualified as an electrician last summer.",
])
def test_title_frames(said: str) -> None:
    from goodmemory._value_types import change_frame

    assert "title" in change_frame(said)


def test_a_title_without_article_has_the_title_sort() -> None:
    from goodmemory._value_types import sorts_of

    assert "title" in sorts_of("I'm deputy head of maths at a comprehensive.")
    assert "title" not in sorts_of("I'm seeing the head about it tomorrow.")


def test_an_appointed_title_replaces_the_old_one() -> None:
    live = live_values("I'm assistant head of year at a sixth form college.", "The trust appointed me head of year in June.")
    assert not any("assistant" in v.lower() for v in live.values()), live


# "We're with X now": the household's provider changed, of whichever sort the user had one of
def test_we_are_with_a_name_frames_a_provider_change() -> None:
    from goodmemory._value_types import change_frame

    assert {"broadband", "energy", "insurer"} <= change_frame("We're with Zapline now, the old one kept failing.")
    assert not change_frame("We're with the in-laws for Christmas.") & {"broadband", "energy", "insurer"}


def test_a_household_provider_named_bare_replaces_the_old() -> None:
    live = live_values("Our energy supplier is Voltmere.", "We're with Sunhaven now, it's cheaper.")
    assert "Voltmere" not in " ".join(live.values()), live
    assert "Sunhaven" in " ".join(live.values()), live


# an insurance told by the thing insured, with a possessive ("the cat's insurance is with X")
@pytest.mark.parametrize("said, key, value", [
    ("The cat's insurance is with Purrfect Cover.", "fact.insurance.cat", "Purrfect Cover"),
    ("Our van's insurance is through Roadwise.", "fact.insurance.van", "Roadwise"),
])
def test_possessive_insurance(said: str, key: str, value: str) -> None:
    assert any(c.key == key and c.value == value for c in extract(said)), extract(said)


def test_someone_elses_insurance_is_not_the_users() -> None:
    assert not any(c.key.startswith("fact.insurance") for c in extract("My sister's insurance is with Purrfect Cover."))


# a child's school is the child's attribute: one school a child at a time, told by the child's name or relation
@pytest.mark.parametrize("said, key, value", [
    ("Our daughter Ines attends Quarry Bank Primary.", "relation.daughter.ines.school", "Quarry Bank Primary"),
    ("My youngest son goes to Harbour View Nursery.", "relation.son.school", "Harbour View Nursery"),
    ("My son Tariq is in Year 5 at Elmwood Juniors.", "relation.son.tariq.school", "Elmwood Juniors"),
])
def test_a_childs_school(said: str, key: str, value: str) -> None:
    assert any(c.key == key and c.value == value for c in extract(said)), extract(said)


@pytest.mark.parametrize("said, value", [
    ("Ines moved schools at Easter, she's at Castlegate High now.", "Castlegate High"),
    ("Since Ines started at Castlegate High the mornings are calmer.", "Castlegate High"),
])
def test_a_known_childs_new_school(said: str, value: str) -> None:
    got = extract(said, existing={"relation.daughter.ines.school": "Quarry Bank Primary"})
    assert any(c.key == "relation.daughter.ines.school" and c.value == value for c in got), got


def test_a_named_sibling_of_a_known_child_is_a_child_too() -> None:
    got = extract("Her brother Jonah is at Castlegate High.", existing={"relation.daughter.ines.school": "Quarry Bank Primary"})
    assert any(c.key == "relation.son.jonah.school" or c.key == "relation.child.jonah.school" for c in got), got


def test_someone_elses_child_is_not_the_users() -> None:
    got = extract("My friend's daughter Lotte goes to Quarry Bank Primary.")
    assert not any(c.key.endswith(".school") for c in got), got


def test_a_childs_new_school_replaces_the_old() -> None:
    live = live_values("Our son Brannoc goes to Westmoor Primary.", "Brannoc changed schools, he's at Tollgate Academy now.")
    assert "Westmoor" not in " ".join(live.values()) and "Tollgate Academy" in live.values(), live


def test_a_childs_year_group_stays_in_the_text() -> None:
    (c,) = [c for c in extract("My son Tariq is in Year 5 at Elmwood Juniors.") if c.key.endswith(".school")]
    assert "Year 5" in c.text


def test_a_childs_new_school_keeps_no_second_statement() -> None:
    got = extract("He started at Tollgate Academy in September.", existing={"relation.son.school": "Westmoor Primary"})
    assert [c.key for c in got] == ["relation.son.school"], got


def test_a_childs_school_changes_no_event_of_the_users() -> None:
    live = live_values("The school concert is on June 12.", "The school moved the concert to June 19.",
                 "My daughter goes to Ashgrove Primary.")
    assert any("June 19" in v or "-06-19" in v for v in live.values()), live


# the person the user reports to, told by the reporting line rather than by the noun
@pytest.mark.parametrize("said, name", [
    ("I report to Ottilie Brandt.", "Ottilie Brandt"),
    ("I'm reporting to Sefton now.", "Sefton"),
    ("I think I'll be reporting to Marguerite from now on.", "Marguerite"),
    ("Halvard has taken over as my line manager.", "Halvard"),
    ("Bea handed the team over to Kofi Mensah, so he's my boss now.", "Kofi Mensah"),
    ("My new supervisor is Dariusz.", "Dariusz"),
])
def test_the_reporting_line_names_the_manager(said: str, name: str) -> None:
    got = extract(said)
    assert any(c.key == "relation.manager" and c.value == name for c in got), got


@pytest.mark.parametrize("said", [
    "I'll be reporting to Marguerite next quarter, probably.",
    "My sister reports to Ottilie Brandt.",
    "I report to the board every quarter.",
])
def test_no_manager_from_a_plan_another_or_a_body(said: str) -> None:
    assert not any(c.key == "relation.manager" for c in extract(said)), extract(said)


def test_a_new_reporting_line_replaces_the_manager() -> None:
    live = live_values("My manager is Ottilie Brandt.", "Ottilie moved on and I report to Sefton Hale now.")
    assert live.get("relation.manager") == "Sefton Hale", live


def test_a_name_said_to_be_my_manager() -> None:
    assert any(c.key == "relation.manager" and c.value == "Ifor Bevan"
               for c in extract("The old boss retired, and Ifor Bevan is my line manager now."))


def test_a_rules_change_of_a_slot_held_goes_to_that_slot() -> None:
    # "X is my boss now" keyed relation.manager, with the manager held: that slot, not the most alike relation
    assert slot("Tamsin left the firm and Rufus Penn is my boss now.", "relation", "relation.manager",
                held("relation.husband", "divorced", 0.36), held("relation.manager", "Tamsin Hale", 0.2),
                statement=False) == "relation.manager"


@pytest.mark.parametrize("done", ["Sorted the parking permit this morning.", "Dealt with the parking permit today."])
def test_sorted_or_dealt_with_closes_a_task(done: str) -> None:
    got = extract("I need to renew the parking permit before March.", done)
    assert any(c.closes for c in got), got


# "I'll eat almost any X" is a taste, no plan
@pytest.mark.parametrize("said, obj", [
    ("I'll happily eat almost any noodle dish, as long as it isn't too sweet.", "noodle dish"),
    ("I'll watch pretty much any heist film.", "heist film"),
    ("I hate opera, but I'll listen to just about any blues.", "blues"),
])
def test_almost_any_is_a_taste(said: str, obj: str) -> None:
    got = extract(said)
    assert any(c.key.startswith("preference.like") and obj in c.value and "dislike" not in c.value for c in got), got


def test_ill_with_a_time_is_still_a_plan() -> None:
    assert not any(c.key.startswith("preference.like") for c in extract("I'll watch the heist film tonight."))


# a household service told in the passive, without "I" ("the wifi at home is provided by X") is the user's world
def test_a_household_service_in_the_passive_is_kept() -> None:
    got = statements("The wifi at home is provided by Skyfibre.")
    assert got and not got[0].metadata.get("reported"), got


def test_a_passive_supply_of_no_household_service_is_not() -> None:
    assert not statements("The stadium is supplied by Northwatt.")


# a standing request asked as a question ("Could you answer in X from now on?") is the user's preference
@pytest.mark.parametrize("said", ["Could you answer in Dutch from now on?", "Can you please reply in Dutch going forward?"])
def test_a_standing_request_asked_as_a_question(said: str) -> None:
    got = extract(said)
    assert any(c.key.startswith("preference.communication") and "Dutch" in c.value for c in got), got


def test_a_one_off_request_question_is_none() -> None:
    assert not any(c.key.startswith("preference.communication") for c in extract("Could you answer in Dutch?"))


# taken off one medicine and put on another; a car written off or stolen; a pet rehomed: the old value went away
@pytest.mark.parametrize("said", [
    "The consultant took me off ramipril and put me on losartan.",
    "I came off ramipril in the spring, I'm on losartan now.",
])
def test_taken_off_a_medicine_is_a_change(said: str) -> None:
    assert changes(said)


@pytest.mark.parametrize("old, said, gone, new", [
    ("I take ramipril every morning.", "The consultant took me off ramipril and put me on losartan.", "ramipril",
     "losartan"),
    ("I drive a Nissan Micra.", "The Micra was written off in a crash, I'm driving a Honda Jazz now.", "Micra", "Jazz"),
    ("I drive a Nissan Micra.", "The Micra got stolen last month, so I'm on a Yamaha scooter now.", "Micra", "Yamaha"),
])
def test_the_replacing_value_drops_what_went_away(old: str, said: str, gone: str, new: str) -> None:

    v = dropped(said.rstrip("."), "x.y", old.rstrip("."))
    assert new in v and gone not in v, v


def test_a_rehomed_pet_ended() -> None:
    from goodmemory._replaced import ended_clauses

    assert ended_clauses("We rehomed Sprocket last month.", {"sprocket", "Sprocket"})


@pytest.mark.parametrize("said, name", [
    ("Biscotti escaped through the fence and never came back.", "Biscotti"),
    ("Our tortoise Shelby went missing in the summer.", "Shelby"),
    ("My Brompton got nicked outside the station.", "Brompton"),
])
def test_a_pet_or_bike_gone_ended(said: str, name: str) -> None:
    from goodmemory._replaced import ended_clauses

    assert ended_clauses(said, {name.lower(), name})


@pytest.mark.parametrize("said", ["I doubled my iron dose to 200mg.", "They halved my prednisolone to 5mg."])
def test_a_dose_doubled_or_halved_is_a_change(said: str) -> None:
    assert changes(said)


# the household's animals as the subject ("the cats are registered at X") and a newcomer to "the family" are the
# user's world without "I"
@pytest.mark.parametrize("said", [
    "The dogs are registered at Millbrook Vets.",
    "Our rabbit sees a specialist at Hollins Exotics.",
    "A second cat joined the family in May, a tabby called Wren.",
])
def test_the_households_animals_are_the_users_world(said: str) -> None:
    got = statements(said)
    assert got and not got[0].metadata.get("reported"), got


def test_an_animal_that_is_not_the_households_is_not() -> None:
    assert not statements("A fox was in the garden again.")


def test_a_clause_with_a_noun_subject_is_kept_alone() -> None:

    v = dropped("Larchmont closed down, so the dogs go to Fernlea Animal Clinic now", "fact.pet.x",
                "The dogs are registered at Larchmont Vets")
    assert "Larchmont" not in v and "Fernlea" in v, v


# someone's words after the user's own clause ("..., the vet said it's fine") leave the user's clause theirs
@pytest.mark.parametrize("said, key", [
    ("I've moved to Kirkwall, my sister says it's too cold.", "profile.home_city"),
    ("We relocated to Lerwick, our friends said we were mad.", "profile.home_city"),
])
def test_the_users_clause_before_someone_elses_words(said: str, key: str) -> None:
    assert any(c.key == key for c in extract(said)), extract(said)


def test_someone_elses_words_alone_are_still_theirs() -> None:
    assert not any(c.key == "profile.home_city" for c in extract("My sister says I should move to Kirkwall."))


def test_a_statement_with_someone_elses_words_after_the_users_clause_is_the_users() -> None:
    got = statements("I've taken up rowing on Sundays, the physio said it would help my back.")
    assert got and not got[0].metadata.get("reported"), got
    heard = statements("The physio said rowing would help my back.")
    assert not heard or heard[0].metadata.get("reported"), heard


def test_eating_meat_again_changes_the_diet() -> None:
    live = live_values("I'm pescatarian.", "I've started eating red meat again, I missed it.")
    assert "pescatarian" not in " ".join(live.values()).lower(), live


def test_starting_to_do_something_again_is_a_change() -> None:
    assert changes("I've started drinking coffee again.")
    assert not changes("I've started drinking coffee.")


# "the deadline" / "the appointment" moved, when the user has one: that one, however the rest is worded
@pytest.mark.parametrize("old, new, gone", [
    ("The thesis deadline is May 30.", "My supervisor brought the deadline forward to May 16.", "2025-05-30"),
    ("My eye test appointment is on June 3 at 10am.", "The optician moved the appointment to June 10.", "2025-06-03"),
])
def test_the_one_deadline_or_appointment_moved(old: str, new: str, gone: str) -> None:
    live = live_values(old, new)
    assert not any(gone in v for v in live.values()), live


def test_a_definite_change_with_two_held_is_not_guessed() -> None:
    assert slot("They brought the deadline forward to May 16", "deadline", "deadline.may",
                held("deadline.thesis", "2025-05-30", 0.1), held("deadline.tax", "2025-01-31", 0.1)) == "deadline.may"


# "another" in a clause of someone else's ("the surgery merged with another practice and I've been moved to X")
# adds nothing of the user's
def test_another_in_another_clause_is_no_addition() -> None:
    from goodmemory._change_words import adds

    assert not adds("The surgery merged with another practice and I've been assigned to Dr. Pryce.")
    assert adds("We adopted another kitten, a tabby called Fig.")
    assert adds("Another hen joined the flock last week.")
    assert adds("The vet is great and we also have a rabbit now.")


def test_let_lapse_and_pay_for_drops_the_lapsed_value() -> None:

    v = dropped("We let the Crunchyroll subscription lapse and pay for Mubi instead", "fact.subscription.x",
                "We pay for Crunchyroll")
    assert "Crunchyroll" not in v and "Mubi" in v, v


def test_i_report_to_him_names_the_person_just_named() -> None:
    got = extract("Nadia handed her team over to Piers Quayle, so I report to him now.")
    assert any(c.key == "relation.manager" and c.value == "Piers Quayle" for c in got), got
