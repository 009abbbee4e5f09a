"""Statements no rule matched, and the pure "same attribute" policy (merge.attribute_slot)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from _extracting import held

from goodmemory.extraction._statements import STATEMENT_KEY, mask_values, statement_candidate
from goodmemory.merge import Earlier, attribute_slot, new_family_key
from goodmemory.taxonomy import family_by_name

AT = datetime(2025, 1, 1, tzinfo=UTC)


def _st(text: str, question: str | None = None):  # noqa: ANN202
    return statement_candidate(text, question=question, message_ids=["m0"], timestamp=AT, domain=None,
                               correction=False, secret=False)


def test_mask_hides_names_numbers_and_addresses_but_not_the_sentence() -> None:
    assert mask_values("We bought a flat in Gdansk for 310,000 in May.") == "We bought a flat in X for X in X."
    assert mask_values("Write to me at ola@example.org, not Ola@old.example") == "Write to me at X, not X"
    assert mask_values("I'm a welder.") == "I'm a welder."


def test_a_first_person_statement_keeps_the_users_words() -> None:
    c = _st("Honestly, these days I cycle to the depot in Lambeth.")
    assert c is not None and c.key == STATEMENT_KEY and c.metadata["statement"]
    assert c.value == "These days I cycle to the depot in Lambeth"
    assert c.text == 'The user said: "These days I cycle to the depot in Lambeth."'
    assert c.metadata["about"] == "These days I cycle to the depot in X"


@pytest.mark.parametrize("text", [
    "Could you find me a cheaper one?",
    "Thanks!",
    "If I had a boat I'd live on it.",
    "I'm looking for a quiet cafe.",
    "The weather in Riga is grim.",
    "I'd like to change the date.",
])
def test_no_statement_from_questions_requests_hearsay_or_other_peoples_world(text: str) -> None:
    assert _st(text) is None


def test_someone_elses_words_are_marked_reported() -> None:
    # kept by the write path only where they change what the user said before
    c = _st("My neighbour said the bins go out on Tuesday.")
    assert c is not None and c.metadata["reported"]
    assert not _st("I put the bins out on Tuesday.").metadata.get("reported")  # type: ignore[union-attr]


def test_a_sentence_with_a_number_needs_no_i() -> None:
    c = _st("Parking permit renewal is 45 a year.")
    assert c is not None and c.value == "Parking permit renewal is 45 a year"
    assert _st("The weather in Riga is grim.") is None


def test_an_answer_is_compared_with_its_question() -> None:
    c = _st("Tuesdays and Fridays.", question="Which days are you in the office?")
    assert c is not None and c.value == "Tuesdays and Fridays"
    assert c.metadata["about"].startswith("Which days are you in the office?")
    assert c.message_ids == ["m0"]


def _e(key: str, value: str, sim: float = 0.5, day: int = 1) -> Earlier:
    return held(key, value, sim, family_key=key.split(".")[0], day=day)


def test_single_valued_family_takes_the_current_slot_whatever_its_key() -> None:
    fam = family_by_name("occupation")
    key, _ = attribute_slot("I drive a forklift for a living now", fam, "profile.occupation",
                            [_e("profile.occupation", "welder")], statement=True, has_value=False)
    assert key == "profile.occupation"
    # chatter with no value and no change does not overwrite a value
    key, _ = attribute_slot("I quite enjoy my job", fam, "profile.occupation",
                            [_e("profile.occupation", "welder")], statement=True, has_value=False)
    assert key is None


def test_multi_valued_family_adds_names_or_replaces() -> None:
    fam = family_by_name("pet")
    earlier = [_e("fact.pet.biscuit", "I have a hamster called Biscuit", 0.6)]
    added, _ = attribute_slot("We got a second hamster, Crumb", fam, "fact.pet.crumb", earlier,
                              statement=True, has_value=True)
    assert added == "fact.pet.crumb"
    named, _ = attribute_slot("Biscuit escaped and we never found him", fam, "fact.pet.escaped", earlier,
                              statement=True, has_value=True)
    assert named == "fact.pet.biscuit"
    other, _ = attribute_slot("Our tortoise is called Dot", fam, "fact.pet.dot", earlier, statement=True,
                              has_value=True)
    assert other == "fact.pet.dot"
    changed, _ = attribute_slot("We gave the hamster away, we have a gecko instead", fam, "fact.pet.gecko",
                                [_e("fact.pet.x", "I have a small pet", 0.7)], statement=True, has_value=False)
    assert changed == "fact.pet.x"


def test_new_family_key_names_the_value_and_stays_in_the_family() -> None:
    assert new_family_key(family_by_name("pet"), "We adopted a puppy named Olive") == "fact.pet.olive"
    assert new_family_key(family_by_name("home_city"), "I live in Hull") == "profile.home_city"
    assert new_family_key(family_by_name("medication"), "I take 5 mg of ramipril").startswith("fact.medication.")


def test_a_named_speakers_turn_gives_no_statement() -> None:
    from goodmemory.extraction.base import ExtractionContext
    from goodmemory.extraction.rules import RuleExtractor
    from goodmemory.models import Message

    ctx = ExtractionContext(user_id="u", at=AT)
    said = "We keep two beehives behind the shed."
    plain = RuleExtractor().extract([Message(id="m0", role="user", content=said, timestamp=AT)], ctx)
    named = RuleExtractor().extract([Message(id="m0", role="user", content=said, timestamp=AT, name="Ines")], ctx)
    assert any(c.metadata.get("statement") for c in plain)
    assert not any(c.metadata.get("statement") for c in named)


def test_an_addition_is_told_from_news_that_also_changes_something() -> None:
    from goodmemory.merge import adds

    assert adds("We also keep a rabbit now")
    assert adds("I got a second bike for the winter")
    assert adds("I speak Welsh too.")
    assert not adds("The Welsh is too hard for me")  # "too" before an adjective adds nothing
    assert not adds("Also, the dentist moved my check-up to Monday")  # news with a change, no new value


def test_replaced_values_are_what_the_new_statement_gives_a_new_value_of_the_same_sort() -> None:
    from goodmemory.merge import replaced_values

    assert replaced_values("Choir is on Wednesday at 19:30 in the Old Hall",
                           "Choir moved to 20:00, still in the Old Hall") == {"19:30"}
    assert replaced_values("The quote from Bramley Roofing was 2,300", "Bramley Roofing sent 2,650, not 2,300") == {"2,300"}
    assert replaced_values("My locker is 14 in the east wing", "Nothing changed in the east wing") == set()
    # what the new statement denies is gone, even a word with no capital or digit
    assert replaced_values("The dog eats kibble twice a day", "The vet moved him from kibble to raw food") == {"kibble"}


def test_a_leading_no_that_is_part_of_the_sentence_stays() -> None:
    c = _st("ok no sugar in my tea from now on")
    assert c is not None and c.value == "No sugar in my tea from now on"
    c = _st("No, I still live in Leeds.")
    assert c is not None and c.value == "I still live in Leeds"


def test_a_value_before_punctuation_is_still_a_value() -> None:
    # "Tallinn," masks to "X," - a value all the same, so a change without "I" that names it is considered
    c = _st("The new studio is in Tallinn, right by the harbour.")
    assert c is not None and c.metadata.get("subjectless") and c.metadata.get("reported")


def test_a_change_without_i_is_kept_only_as_a_change() -> None:
    # no "I", no number: kept only where it changes what the user said (the write path decides), and only
    # when it speaks of a change and names a value
    assert _st("The new studio is in Tallinn now.").metadata.get("subjectless")  # type: ignore[union-attr]
    assert _st("The studio in Tallinn is lovely.") is None
    assert not _st("I moved the studio to Tallinn.").metadata.get("subjectless")  # type: ignore[union-attr]


@pytest.mark.parametrize(("text", "other"), [
    ("My cousin moved to Valparaiso last spring.", True),
    ("My sister got a job at the Hexley observatory.", True),
    ("My partner and I moved to Valparaiso last spring.", False),
    ("My boss moved my review to the 9th.", False),
    ("They switched my tariff to the Nightsaver plan.", False),
    ("I moved to Valparaiso last spring.", False),
])
def test_a_statement_about_another_person_is_marked(text: str, other: bool) -> None:
    c = _st(text)
    assert c is not None and bool(c.metadata.get("other_subject")) is other


def test_an_ending_is_told_from_an_ending_with_a_new_value() -> None:
    from goodmemory._replaced import ended_clauses

    old = Earlier(key="relation.girlfriend", value="Noor", similarity=0.0, at=AT, family_key="relation")
    assert "noor" in old.names()  # a short value's first capital is a name, not a sentence start
    assert ended_clauses("Noor and I split up in October", old.names())
    assert ended_clauses("I cancelled the Noor membership in 2024", old.names())  # when it ended is no value
    assert not ended_clauses("Noor and I split up, I'm seeing Farid now", old.names())
    assert not ended_clauses("I left Noor for Farid", old.names())  # a new name
    assert not ended_clauses("Noor is great", old.names())


def test_a_state_with_the_cause_of_an_ending_is_no_bare_ending() -> None:
    # w68: the cause ("since they shut the depot") ends something, the user's own clause is a new state
    from goodmemory._replaced import ended_clauses

    old = Earlier(key="profile.work_schedule", value="I drive to the Leeds depot every day", similarity=0.5, at=AT,
                  family_key="profile.work_schedule")
    assert not ended_clauses("I work from home now since they shut the Leeds depot", old.names())
    assert not ended_clauses("I'm on the night shift because they closed the Leeds depot", old.names())
    assert ended_clauses("They closed the Leeds depot in March", old.names())


def test_when_a_value_ended_is_dropped_with_the_clause_that_says_so() -> None:
    from goodmemory._replaced import drop_replaced

    old = Earlier(key="profile.employer", value="Quayside Press", similarity=0.5, at=AT, family_key="profile.employer")
    assert drop_replaced("I left Quayside Press in August and I'm teaching now", old) == "I'm teaching now"


def test_a_clause_that_brings_the_new_value_stays_when_the_old_one_goes() -> None:
    from goodmemory._replaced import drop_replaced, ended_clauses

    old = Earlier(key="fact.event.tidewater", value="I swim at Tidewater Baths", similarity=0.3, at=AT,
                  family_key="fact.event")
    said = "I gave up Tidewater and joined the Kestrel Leisure club instead"
    assert drop_replaced(said, old) == "joined the Kestrel Leisure club instead"
    assert not ended_clauses(said, old.names())  # the second clause brings a value: no bare ending


def test_a_person_named_as_the_subject_is_no_new_value_of_their_slot() -> None:
    fam = family_by_name("relation")
    earlier = [_e("relation.husband", "Tomasz", 0.2)]
    for said in ("Tomasz is thinking about a new car", "Tomasz wants us to repaint the hallway now",
                 "Tomasz's new job starts in March"):
        key, why = attribute_slot(said, fam, "relation.tomasz_x", earlier, statement=True, has_value=True)
        assert key == "relation.tomasz_x", (said, why)
    # a slot holding a sentence about a person is changed by a newer sentence about them
    note = [_e("fact.note.ivo", "Our son Ivo is in Year 5 at Linden Primary", 0.6)]
    key, why = attribute_slot("Ivo moved up to Year 6 now", family_by_name("note"), "fact.note.ivo_y6", note,
                              statement=True, has_value=True)
    assert key == "fact.note.ivo", why


def test_a_named_person_who_went_away_still_takes_their_slot() -> None:
    fam = family_by_name("relation")
    earlier = [_e("relation.girlfriend", "Noor", 0.2)]
    for said in ("Noor and I broke up last spring", "Noor left me for someone else",
                 "I'm no longer with Noor, we're friends now", "Noor moved on to another firm"):
        key, why = attribute_slot(said, fam, "relation.noor_x", earlier, statement=True, has_value=True)
        assert key == "relation.girlfriend", (said, why)


@pytest.mark.parametrize(("old", "said", "kept"), [
    # a clause that only mentions the replaced value goes
    ("Our home insurance is with Parkway Mutual", "Parkway doubled the premium, so the house is insured by Lantern now",
     "the house is insured by Lantern now"),
    ("Our home insurance is with Parkway Mutual",
     "I'm with Lantern these days, Parkway's staff were a nightmare to deal with", "I'm with Lantern these days"),
    # a clause naming the old value beside a new one stays; nothing left without a new value: the whole value stays
    ("Our home insurance is with Parkway Mutual", "Lantern is cheaper than Parkway", "Lantern is cheaper than Parkway"),
    ("Our home insurance is with Parkway Mutual", "Parkway was awful, honestly", "Parkway was awful, honestly"),
    # a value left for another is dropped from the new value ("left A for B")
    ("Our pet cover is with Bramble Pet", "Dropped Bramble Pet for Otterly when the premium doubled",
     "Dropped it for Otterly when the premium doubled"),
    # what is left for a new value that is not the old one stays ("left the kids with Gran for the weekend")
    ("Our pet cover is with Bramble Pet", "We left the car at home for Otterly's open day",
     "We left the car at home for Otterly's open day"),
])
def test_the_replaced_value_is_dropped_from_the_new_one(old: str, said: str, kept: str) -> None:
    from goodmemory._replaced import drop_replaced

    earlier = Earlier(key="fact.insurance.x", value=old, similarity=0.5, at=AT, family_key="fact.insurance")
    assert drop_replaced(said, earlier) == kept



def test_a_clause_naming_the_item_whose_number_changed_stays() -> None:
    from goodmemory._replaced import drop_replaced

    old = Earlier(key="fact.note.lantern", value="New client, Lantern Press, user manuals, 14,000 words", similarity=0.5,
                  at=AT, family_key="fact.note")
    assert drop_replaced("Lantern Press asked for less, it's 12,000 words now, not 14,000", old) \
        == "Lantern Press asked for less, it's 12,000 words now"


def test_a_note_is_not_replaced_by_another_sentence_naming_its_words_with_another_weekday() -> None:
    """Everyday talk told twice in the same mould is two things said, not a value and its replacement."""
    note = [_e("fact.note.queue_chemist", "I popped into the chemist on Friday and the queue was out the door", 0.8)]
    key, why = attribute_slot("I popped into the chemist on Tuesday and the queue was out the door again",
                              family_by_name("note"), "fact.note.queue_chemist_tue", note,
                              statement=True, has_value=True)
    assert key == "fact.note.queue_chemist_tue", why
    # a slot of a family with values is still replaced by the same sort of value ("from Friday to Tuesday")
    fam = family_by_name("appointment")
    old = [_e("appointment.physio", "physio on Friday at Brookside", 0.8)]
    key, _ = attribute_slot("physio is Tuesday at Brookside", fam, "appointment.physio_tue", old,
                            statement=True, has_value=True)
    assert key == "appointment.physio"
