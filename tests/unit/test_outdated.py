"""Which replacements mark the old value's turns outdated, and what the context hides of them (pure).

The sentences are this test's own; none is from a persona or a corpus.
"""

from __future__ import annotations

import pytest

from goodmemory._outdated import HIDDEN, hide_in, outdating, said_in, without_denials


def test_a_denied_phrase_of_the_old_value_marks_and_is_hidden() -> None:
    o = outdating("The ferry to the island leaves at 7:40 from pier 3", "x",
                  "The ferry leaves at 8:10 now, not 7:40.", structured=False)
    assert o.marks and o.hide == ("7:40",) and o.denied == ("7:40",)


def test_a_number_with_a_thousands_separator_or_a_title_is_one_denied_phrase() -> None:
    assert outdating("The quote for the roof was 12,400 euros", "x", "It's 13,900 euros, not 12,400.",
                     structured=False).hide == ("12,400",)
    assert outdating("My vet is Dr. Okafor at the clinic on Elm Road", "x", "It's Dr. Lind, not Dr. Okafor.",
                     structured=False).hide == ("Dr. Okafor",)


def test_from_x_to_y_denies_x() -> None:
    o = outdating("The kids walk to Brookside school", "x", "We moved them from Brookside to Hillcrest school.",
                  structured=False)
    assert o.marks and o.hide == ("Brookside",)


def test_a_denial_the_old_value_makes_itself_is_not_a_replacement() -> None:
    # "not cheap" is in both: the new statement does not take it back
    o = outdating("The gym near work is not cheap but open late", "x", "My sister says the pool is not cheap.",
                  structured=False)
    assert o.hide == ()


def test_a_phrase_the_new_statement_also_states_is_not_hidden() -> None:
    o = outdating("Dr. Okafor sees the cat", "x", "Actually Dr. Lind sees the cat, not Dr. Okafor; Dr. Okafor sees the dog.",
                  structured=False)
    assert o.marks and o.hide == () and o.denied == ("Dr. Okafor",)


def test_ending_a_thing_hides_the_figures_of_the_clauses_about_it_only() -> None:
    old = "Our Vespa costs 35 a month to insure, the Fiat 90 a month"
    o = outdating(old, "x", "We sold the Vespa last week.", structured=False)
    assert o.marks and "35" in o.hide and "90" not in o.hide and "vespa" not in {h.lower() for h in o.hide}


def test_a_clause_after_the_ended_thing_without_a_subject_of_its_own_is_about_it() -> None:
    old = "I pay 60 a month for the gym, and the car loan is 250 a month, 9 payments left"
    o = outdating(old, "x", "I paid off the car loan.", structured=False)
    assert set(o.hide) == {"250", "9"}


def test_someone_else_buying_the_users_thing_ends_it_but_the_user_buying_does_not() -> None:
    old = "The caravan needs new tyres, about 800"
    assert outdating(old, "x", "Henrik bought the caravan from us.", structured=False).hide == ("800",)
    assert not outdating(old, "x", "We bought the caravan a cover.", structured=False).hide


@pytest.mark.parametrize(("old", "said"), [
    # nothing in common but a verb anyone wants: another person's wish, not a change of this one
    ("My physio Anja wants me to stretch every morning", "Ben wants me to join his choir."),
    # a month in common is not the same thing
    ("We fly to Crete on 3 August and stay a week", "We have to be back in Leeds by the end of August."),
    # a plain noun in common without a word of change: another item of the same sort
    ("I've got the Hassan wedding on 2 May at the old mill", "Wedding expo in Ghent, 9 to 11 March."),
    # the whole old value is still said: nothing of it went away
    ("Marta", "Marta wants a new desk."),
])
def test_a_replacement_without_evidence_marks_nothing(old: str, said: str) -> None:
    assert not outdating(old, "x", said, structured=False).marks


@pytest.mark.parametrize(("old", "said"), [
    ("The choir rehearses on Wednesdays in the church hall", "The choir moved its rehearsals to Thursdays."),
    ("Parking at the office is 4 a day", "Parking at the office went up to 5 a day."),
    # a name in common is enough without a word of change
    ("Tomas's violin lesson is 30 minutes on Monday", "Tomas's violin lesson is 45 minutes on Tuesday."),
])
def test_a_replacement_that_speaks_of_the_same_thing_marks(old: str, said: str) -> None:
    o = outdating(old, "x", said, structured=False)
    assert o.marks and o.hide == ()  # a plain change keeps its old words next to the flag


def test_a_rule_parsed_replacement_marks_unless_the_old_value_is_still_said() -> None:
    assert outdating("omnivore", "vegan", "I'm vegan since spring.", structured=True).marks
    assert not outdating("vegan", "vegan", "Still vegan, yes.", structured=True).marks


def test_said_in_gives_the_whole_sentence_a_trimmed_value_was_cut_from() -> None:
    turn = "user: Good news. Oh and the audit moved, it\u2019s now 4 May, not 20 April. Thanks!"
    assert said_in(turn, "it's now 4 May") == "Oh and the audit moved, it's now 4 May, not 20 April."
    assert said_in(turn, "something else") == " ".join(turn.replace("\u2019", "'").split())


def test_hide_in_replaces_phrases_only_inside_the_old_values_span() -> None:
    text = "user: The pool is 25 m. Lessons are 25 a term at the pool. See you."
    out = hide_in(text, ["25"], within="Lessons are 25 a term at the pool")
    assert out == f"user: The pool is 25 m. Lessons are {HIDDEN} a term at the pool. See you."
    # neighbouring hidden words become one mark; a time is not the number before its colon
    assert hide_in("Dr. Mia Holt at 5:30, not 5", ["Mia", "Holt", "5"]) == f"Dr. {HIDDEN} at 5:30, not {HIDDEN}"


def test_without_denials_drops_only_the_clause_that_denies() -> None:
    assert without_denials("The office is in Leith, not Gorgie.", ["Gorgie"]) == "The office is in Leith."
    assert without_denials("They moved us from Gorgie to Leith.", ["Gorgie"]) == "They moved us to Leith."
    assert without_denials("Not bad, the office is in Leith.", ["Gorgie"]) == "Not bad, the office is in Leith."


def test_about_ended_keeps_to_the_clauses_about_the_thing() -> None:
    from goodmemory._outdated import about_ended

    turn = ("user: We run two boats. The Saga, mooring B 14, licence due in May. The Nordkap, mooring C 7, "
            "quote 2,300 kroner from Holm Marine Service for the engine. Any tips?")
    spans, hide = about_ended(turn, ["nordkap"], "We sold the Nordkap in the spring.")
    assert spans == ("The Nordkap, mooring C 7, quote 2,300 kroner from Holm Marine Service for the engine.",)
    # a name after a preposition belongs to the thing's clause; the other boat's figures stay
    assert {"7", "2,300", "holm"} <= set(hide) and not {"14", "saga", "may"} & set(hide)


def test_about_ended_stops_at_another_named_thing() -> None:
    from goodmemory._outdated import about_ended

    turn = "Two bikes: my Brompton 2019, frame 88-X, and my son Luca's Trek, frame 41-K. Brompton insured to 3 June."
    spans, hide = about_ended(turn, ["brompton"], "I sold the Brompton.")
    assert spans == ("my Brompton 2019, frame 88-X", "Brompton insured to 3 June.")
    assert "41-k" not in hide and "88-x" in hide and "3" in hide


def test_a_turn_that_says_the_new_value_itself_states_it_already() -> None:
    from goodmemory._outdated import states_already

    # the turn where the user made the correction holds the value it would be flagged "outdated" by
    assert states_already("user: Sorry, the kiln is fired on Thursdays, not Tuesdays. 14 pieces in it.",
                          "The kiln is fired on Thursdays with 14 pieces, not Tuesdays.")
    # a turn with the old value shares the thing's words but not the new figure or day
    assert not states_already("user: The kiln is fired on Tuesdays, 14 pieces in it.",
                              "The kiln is fired on Thursdays with 16 pieces now.")
    assert not states_already("user: My locker is number 212 at the pool.", "My locker is number 218 now.")
    # a reply that only names the thing is no statement of the new value
    assert not states_already("assistant: Noted, the kiln.", "Kiln day moved to Thursday, 16 pieces, glaze run.")
    assert not states_already("user: anything", "")


def test_a_short_new_value_named_in_passing_is_not_stated_already() -> None:
    from goodmemory._outdated import states_already

    # "Porto" is all a rule's value may hold: a turn naming it in passing still states the old city
    assert not states_already("user: I live in Lisbon, my sister is in Porto.", "Porto")
    assert not states_already("user: We flew to Oslo on 3 May.", "I am in Oslo now, since 3 May")


@pytest.mark.parametrize(("text", "want"), [
    ("user: Our rent is 1,250 now, it used to be 1,100.", "user: Our rent is 1,250 now, it used to be [outdated]."),
    ("user: My GP is Dr. Kim, before that it was Dr. Osei.", "user: My GP is Dr. Kim, before that it was [outdated]."),
    ("user: I ride a Brompton; previously it was a Dahon, and I miss it.",
     "user: I ride a Brompton; previously it was [outdated], and I miss it."),
    ("user: Previously I lived in Graz.", "user: Previously I lived in Graz."),  # history told as history
    ("user: before that it was fine", "user: before that it was fine"),  # no value stated beside it
])
def test_hide_former_hides_only_a_former_value_named_beside_the_current_one(text: str, want: str) -> None:
    from goodmemory._outdated import hide_former

    assert hide_former(text) == want
