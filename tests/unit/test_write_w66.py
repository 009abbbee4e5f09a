"""Everyday chatter that shares a word with an earlier statement is no change of it (issue 17, w66).

Sentences are this file's own. The first, fourth and fifth tests fail on the write policy before w66: a common word
both sentences say named the earlier value, a weekday named a hobby's slot, and a key made of a statement's words took
another value's. The second and third hold before and after: what the guard must leave alone.
"""

from __future__ import annotations

from _extracting import held, slot

from goodmemory._value_types import lacks_shape
from goodmemory.merge import NAMED_WORD_SIMILARITY, NOTE_CHANGE_SIMILARITY, attribute_slot, new_family_key
from goodmemory.taxonomy import family_by_name


def test_a_common_word_both_say_names_no_value_unless_the_two_are_alike() -> None:
    old = held("fact.note.thai_food_absolute_favourite.a1b2c3", "Thai food is my absolute favourite", 0.15)
    own = "fact.note.shop_stopped_selling_favourite.d4e5f6"
    # "stopped" is a change word and "favourite" a word of the old value: still another thing said
    assert slot("The shop stopped selling my favourite biscuits", "note", own, old) == own


def test_a_common_word_names_the_value_when_the_sentences_are_alike() -> None:
    old = held("preference.hobby.five_a_side_football", "I play five-a-side football on Thursdays",
               NAMED_WORD_SIMILARITY + 0.05)
    said = "My back gave up on football, so Thursdays are for the pool now"
    assert slot(said, "hobby", "preference.hobby.pool", old) == old.key


def test_a_name_both_say_still_names_the_value_however_unalike() -> None:
    old = held("fact.vehicle.skoda", "Skoda", 0.1)
    assert slot("I sold the Skoda in May", "vehicle", "fact.vehicle.sold", old) == old.key


def test_a_weekday_names_when_not_which_value() -> None:
    fam = family_by_name("hobby")
    assert fam.multi
    key = new_family_key(fam, "I sing in a community choir on Tuesday nights")
    assert key.rsplit(".", 1)[-1] != "tuesday" and "choir" in key
    # and a weekday both say does not make "the Tuesday market" the choir's new value
    old = held(key, "I sing in a community choir on Tuesday nights", 0.2)
    own = new_family_key(fam, "The Tuesday market stopped coming to our town")
    assert slot("The Tuesday market stopped coming to our town", "hobby", own, old) != old.key


def test_a_key_made_of_words_that_meets_another_values_key_gets_its_own() -> None:
    old = held("preference.like.walks_by_the_river", "I love long walks by the river", 0.2)
    got = slot("Long walks by the river wore out my boots", "like", "preference.like.walks_by_the_river", old)
    assert got is not None and got != old.key and got.startswith(old.key + ".")
    # the same words again are the same value: its slot, not a second one
    again = slot("I love long walks by the river", "like", "preference.like.walks_by_the_river", old)
    assert again == old.key


def test_a_common_word_with_a_number_of_its_sort_in_place_of_the_old_still_replaces_it() -> None:
    # "cutoff" is a common word, but 30% takes the place of the 20% the old note held: the same setting, changed
    old = held("fact.note.pump_timer_cutoff.0a1b2c", "The pump timer has its cutoff at 20 minutes, is that ok?", 0.2)
    own = "fact.note.changed_cutoff.3d4e5f"
    assert slot("I changed the cutoff to 35 minutes", "note", own, old) == old.key
    # an accepted suggestion corrects the value said before it
    accepted, _ = attribute_slot("Set the cutoff to 35 minutes then", family_by_name("note"), own, [old],
                                 statement=True, has_value=True, corrects=True)
    assert accepted == old.key
    # the same words with no number in place of the old one are another thing said
    assert slot("I changed the cutoff valve on the garden hose", "note", own, old) == own


def test_chatter_told_with_a_change_word_replaces_no_note_it_is_only_loosely_like() -> None:
    old = held("fact.note.new_rug_hallway.1a2b3c", "I bought a new rug for the hallway", 0.38)
    own = "fact.note.dropped_glasses_took_ages.4d5e6f"
    assert slot("I dropped my glasses behind the radiator and it took ages to reach them", "note", own, old) == own
    # a change that reads as alike as a change found by meaning still replaces it
    close = held("fact.note.new_rug_hallway.1a2b3c", "I bought a new rug for the hallway", NOTE_CHANGE_SIMILARITY)
    assert slot("We swapped the hallway rug for a runner", "note", own, close) == close.key


def test_how_to_answer_speaks_to_the_one_who_answers() -> None:
    # a statement is filed as an answer style only if it speaks to the assistant or of its answers: "on top of my
    # emails" read 0.48 alike the family's examples and was shown as an answer style in every context
    assert lacks_shape("communication", "I'm finally on top of my inbox and my emails.")
    assert not lacks_shape("communication", "Talk to me like a friend, stiff replies put me off.")
    assert not lacks_shape("communication", "Keep the answers to a paragraph or so.")
    assert not lacks_shape("note", "I'm finally on top of my emails.")  # other families have no shape
