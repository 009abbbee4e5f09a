"""Supersede that does not depend on a rule's key: through the facade, with the packaged embedder.

The sentences are this test's own; none of them is in the write corpus.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from _shared import module_mem  # noqa: F401 (the module's mem: one memory shared by its tests)

from goodmemory import GoodMemory, MemoryKind, MemoryStatus, create_good_memory

T1 = datetime(2025, 2, 1, 9, tzinfo=UTC)
T2 = datetime(2025, 6, 1, 9, tzinfo=UTC)


NOW = T2  # the shared mem's clock (_shared.module_mem)


def _say(mem: GoodMemory, user: str, *sessions: tuple[datetime, str]) -> None:
    for i, (at, text) in enumerate(sessions):
        mem.remember([{"role": "user", "content": text}], user_id=user, session_id=f"s{i}", at=at)


def _active(mem: GoodMemory, user: str) -> list[str]:
    return [r.value for r in mem.list(user_id=user) if r.kind != MemoryKind.EPISODE]


def _history(mem: GoodMemory, user: str) -> list[str]:
    return [r.value for r in mem.list(user_id=user, include_history=True)
            if r.kind != MemoryKind.EPISODE and r.status == MemoryStatus.SUPERSEDED]


def _replaced(mem: GoodMemory, user: str, old: str, new: str) -> None:
    """``new`` is in the user's current memories, ``old`` only in their history (the chain kept)."""
    active = " ".join(_active(mem, user))
    assert new in active and old not in active
    assert any(old in v for v in _history(mem, user))


def test_a_newer_statement_of_a_single_valued_attribute_replaces_the_older(mem: GoodMemory) -> None:
    _say(mem, "occ", (T1, "I work as a welder."), (T2, "These days I drive a forklift at the port instead."))
    _replaced(mem, "occ", "welder", "forklift")
    rec = next(r for r in mem.list(user_id="occ") if "forklift" in r.value)
    chain = [h.memory.value for h in mem.history(rec.id, user_id="occ")]
    assert "welder" in chain[0] and "forklift" in chain[-1]


def test_an_addition_to_a_multi_valued_attribute_keeps_both(mem: GoodMemory) -> None:
    _say(mem, "pets", (T1, "I have a hamster called Biscuit."), (T2, "We also got a tortoise, his name is Dot."))
    active = " ".join(_active(mem, "pets"))
    assert "Biscuit" in active and "Dot" in active


def test_a_change_that_names_the_old_value_replaces_it(mem: GoodMemory) -> None:
    _say(mem, "meds", (T1, "I take 20 mg of omeprazole before breakfast."),
         (T2, "The omeprazole got cut down to 10 mg last month."))
    _replaced(mem, "meds", "20 mg", "10 mg")


def test_chatter_is_not_stored_and_the_same_turns_twice_change_nothing(mem: GoodMemory) -> None:
    _say(mem, "chat", (T1, "I live in Hull."))
    before = {r.id: (r.status, r.value) for r in mem.list(user_id="chat", include_history=True)}
    _say(mem, "chat", (T1, "I live in Hull."))
    after = {r.id: (r.status, r.value) for r in mem.list(user_id="chat", include_history=True)}
    assert before == after
    mem.remember([{"role": "user", "content": "Ha, I guess we'll see how it goes."}], user_id="chat", session_id="x",
                 at=T2)
    assert "statement.pending" not in {r.key for r in mem.list(user_id="chat", include_history=True)}
    assert _active(mem, "chat") == ["Hull"]


def test_no_statements_by_meaning_with_a_hashing_embedder() -> None:
    # the hashing fallback (and the test double) cannot tell meanings apart: a log of observations would
    # supersede itself line by line, so statements are refused and only the rules' memories stay
    from goodmemory.extraction._statements import STATEMENT_KEY
    from goodmemory.testing import FakeEmbedder

    m = create_good_memory("sqlite://", embedder=FakeEmbedder())
    try:
        res = m.remember([{"role": "user", "content": "These days I take my coffee with oat milk."},
                          {"role": "user", "content": "My sourdough starter smelled yeasty after feeding."}],
                         user_id="u", session_id="s")
        statements = [d for d in res.decisions if d.candidate is not None and d.candidate.key == STATEMENT_KEY]
        assert statements, [d.reason for d in res.decisions]
        assert all(d.action == "reject" and "semantic embedder" in d.reason for d in statements)
        assert not any(r.metadata.get("rule") == "statement" for r in m.list(user_id="u"))
    finally:
        m.close()


def _say_in(mem: GoodMemory, user: str, *sessions: tuple[datetime, str, str]) -> None:
    for i, (at, domain, text) in enumerate(sessions):
        mem.remember([{"role": "user", "content": text}], user_id=user, session_id=f"d{i}", at=at, domain=domain)


def test_a_change_in_wording_no_rule_knows_supersedes_even_across_domains(mem: GoodMemory) -> None:
    # neither sentence matches a rule or a family's examples well: the attribute is found by comparing the
    # two statements with their values masked; the old one was said in another domain
    _say_in(mem, "plot", (T1, "garden", "Our allotment plot is number 14, on the north side of the field."),
            (T2, "admin", "The committee moved our allotment to plot 22 now, on the north side of the field."))
    active = " ".join(_active(mem, "plot"))
    assert "22" in active and "14" not in active
    new = next(r for r in mem.list(user_id="plot") if "22" in r.value and r.kind != MemoryKind.EPISODE)
    chain = [h.memory.value for h in mem.history(new.id, user_id="plot")]
    assert "14" in chain[0] and "22" in chain[-1]
    # the old turn carries the change, so history shows it next to the old value
    old_turn = next(r for r in mem.list(user_id="plot") if r.kind == MemoryKind.EPISODE and "14" in r.text)
    assert any("22" in m["new"] for m in old_turn.metadata.get("outdated", []))


def test_a_number_without_i_is_kept_and_an_update_of_it_wins(mem: GoodMemory) -> None:
    _say(mem, "fee", (T1, "Swimming club fee is 30 a term for the kids."),
         (T2, "Swimming club fee is 36 a term now, the pool raised it."))
    _replaced(mem, "fee", "30 a term", "36")


def test_an_addition_in_free_wording_does_not_supersede(mem: GoodMemory) -> None:
    _say(mem, "bees", (T1, "We keep two beehives at the bottom of the orchard, 2 colonies."),
         (T2, "We also set up a third hive by the shed now, 3 colonies in all."))
    active = " ".join(_active(mem, "bees"))
    assert "two beehives" in active and "third hive" in active
    assert not _history(mem, "bees")


def test_a_weak_family_match_is_neither_filed_there_nor_replaces_it(mem: GoodMemory) -> None:
    from goodmemory.config import GoodMemoryConfig

    floor = GoodMemoryConfig().min_family_score
    _say(mem, "weak", (T1, "I live in Tartu."), (T2, "I double-check every invoice by hand before it goes out."),
         (T2, "We are renovating the old mill by the river, a brick building from 1910."))
    assert "Tartu" in _active(mem, "weak")
    assert not _history(mem, "weak")
    statements = [r for r in mem.list(user_id="weak") if r.metadata.get("rule") == "statement"]
    assert statements
    for r in statements:
        # kept in the user's words as a note of its own, or under a family it is really alike
        assert r.key.startswith("fact.note.") or r.metadata["family_score"] >= floor, (r.key, r.metadata)
        assert not r.key.startswith(("profile.home_city", "contact.")), r.key


def test_someone_elses_words_are_kept_only_as_a_change(mem: GoodMemory) -> None:
    _say(mem, "rep", (T1, "My sister says the bakery on the corner is the best in town."))
    assert not [r for r in mem.list(user_id="rep") if r.kind != MemoryKind.EPISODE]
    _say(mem, "rep2", (T1, "Our rent is 900 a month for the two-bed flat."),
         (T2, "The landlord says our rent is 950 a month now for the two-bed flat."))
    active = " ".join(_active(mem, "rep2"))
    assert "950" in active and "900" not in active


def test_a_turn_restating_the_replaced_value_is_marked_outdated_too(mem: GoodMemory) -> None:
    # the assistant repeated the old figure; once it changed, that turn is as outdated as the user's
    mem.remember([{"role": "user", "content": "The kiln hire at the studio costs 40 per firing."},
                  {"role": "assistant", "content": "Noted, so 40 per firing, and the glaze is extra."},
                  {"role": "assistant", "content": "The glaze is 5 per pot."}],
                 user_id="kiln", session_id="k1", at=T1)
    mem.remember([{"role": "user", "content": "The kiln hire went up to 48 per firing now."}],
                 user_id="kiln", session_id="k2", at=T2)
    turns = {r.text: r.metadata.get("outdated", []) for r in mem.list(user_id="kiln") if r.kind == MemoryKind.EPISODE}
    echo = next(m for t, m in turns.items() if t.startswith("assistant: Noted"))
    assert echo and "48" in echo[0]["new"]
    assert not turns["assistant: The glaze is 5 per pot."]  # says nothing of the fee


def test_a_new_value_of_the_same_sort_for_a_named_item_replaces_it_without_a_word_of_change(mem: GoodMemory) -> None:
    # no "changed", "now" or "switched": naming the item and giving it another number is the change
    _say(mem, "dose", (T1, "I take 10 mg of lisinopril with dinner."),
         (T2, "The GP has me on lisinopril 20 mg."))
    _replaced(mem, "dose", "10 mg", "20 mg")


def test_naming_an_item_without_a_new_value_changes_nothing(mem: GoodMemory) -> None:
    _say(mem, "dose2", (T1, "I take 10 mg of lisinopril with dinner."),
         (T2, "Lisinopril makes me a bit dizzy in the mornings."))
    assert "10 mg" in " ".join(_active(mem, "dose2"))


def _expired(mem: GoodMemory, user: str) -> list[str]:
    return [r.value for r in mem.list(user_id=user, include_history=True)
            if r.kind != MemoryKind.EPISODE and r.status == MemoryStatus.EXPIRED]


def test_an_ending_retires_the_value_with_nothing_in_its_place(mem: GoodMemory) -> None:
    # no new value: the old one goes to history, and the ending is kept as history too (not a current value)
    _say(mem, "end", (T1, "My girlfriend is called Noor."), (T2, "Noor and I split up in October."))
    assert not any("Noor" in v for v in _active(mem, "end"))
    assert "Noor" in _history(mem, "end")
    assert any("split up" in v for v in _expired(mem, "end"))


def test_an_ending_beside_a_new_value_keeps_the_new_value(mem: GoodMemory) -> None:
    # the clause that says the old one ended goes, and when it ended is no value of its own
    _say(mem, "end2", (T1, "I work at Quayside Press."), (T2, "I left Quayside Press in August and I'm teaching now."))
    _replaced(mem, "end2", "Quayside", "teaching")


def test_an_ending_said_before_the_clause_a_rule_reads_retires_the_old_value(mem: GoodMemory) -> None:
    # "I quit X, I'm into Y now": the rules read the second clause; the first is still the user's words
    _say(mem, "end3", (T1, "I sing in a gospel choir every Thursday."),
         (T2, "I quit the gospel choir, I'm into archery now."))
    active = " ".join(_active(mem, "end3"))
    assert "archery" in active and "gospel" not in active


def test_an_ending_that_leaves_a_state_of_the_user_is_current(mem: GoodMemory) -> None:
    _say(mem, "end4", (T1, "I'm a ferry captain."), (T2, "I retired from the ferries in June."))
    assert any("retired" in v for v in _active(mem, "end4"))
    assert not _expired(mem, "end4")


def test_someone_elses_change_does_not_replace_the_users_value(mem: GoodMemory) -> None:
    _say(mem, "other", (T1, "I live in Tartu."), (T2, "My cousin moved to Valparaiso last spring."))
    assert "Tartu" in _active(mem, "other")
    assert not _history(mem, "other")


def test_a_change_said_without_i_replaces_the_value_of_its_family(mem: GoodMemory) -> None:
    _say(mem, "noi", (T1, "I drive a Ford Focus."), (T2, "The new car is a Kia Ceed now."))
    _replaced(mem, "noi", "Focus", "Kia")
    # and one about nothing the user holds stores nothing
    _say(mem, "noi2", (T1, "I live in Tartu."), (T2, "The new bakery in Narva is now open."))
    assert _active(mem, "noi2") == ["Tartu"]


def test_an_ending_naming_a_value_said_inside_a_longer_sentence_retires_it(mem: GoodMemory) -> None:
    # the first sentence is one clause ("Noor and I are" is one subject); naming Noor later is what ties the two
    _say(mem, "end5", (T1, "My girlfriend Noor and I are off to Porto in May."), (T2, "Noor and I split up."))
    assert not any("Noor" in v for v in _active(mem, "end5"))
    # no clause cut from it ("I are off to Porto in May"); the whole sentence, a plan with her, may be history
    assert not any(v.lstrip().startswith("I are ") for v in _active(mem, "end5") + _history(mem, "end5"))


def test_the_reason_given_for_a_preference_is_no_memory_of_its_own(mem: GoodMemory) -> None:
    _say(mem, "why", (T1, "Send me summaries as bullet points, my attention span is short."))
    active = _active(mem, "why")
    assert active and not any("attention" in v for v in active)
    # beside a fact it stays a fact: only a preference's reason is dropped
    _say(mem, "why2", (T1, "I'm allergic to shellfish, my throat swells up."))
    assert any("shellfish" in v for v in _active(mem, "why2"))


def test_an_answer_naming_its_thing_by_the_question_is_kept(mem: GoodMemory) -> None:
    mem.remember([{"role": "assistant", "content": "Which card should I put this on?"},
                  {"role": "user", "content": "My Monzo one."}], user_id="ans", session_id="a", at=T1)
    assert any("Monzo" in v for v in _active(mem, "ans"))


# -- the sort of value as a second signal (``_value_types``): a change of a gym, a title, a tool or a home is
# too unlike the old statement once the names are masked, but it names a value of the same sort
@pytest.mark.parametrize(("user", "before", "after", "old", "new"), [
    ("sort-gym", "I swim at the Harbourside Leisure Centre most mornings.",
     "Switched leisure centres, I go to Aquadome since the spring.", "Harbourside", "Aquadome"),
    ("sort-title", "My job title is quality engineer.", "They made me quality manager for the whole plant.",
     "quality engineer", "quality manager"),
    ("sort-tool", "I write my drafts in an app called Quillpad.", "Moved over to Tidewrite a few weeks back.",
     "Quillpad", "Tidewrite"),
    ("sort-home", "We rent a small house in Dunmore.", "We packed up in March and we're in Carrow now.",
     "Dunmore", "Carrow"),
])
def test_a_change_of_a_value_of_the_same_sort_replaces_it(mem: GoodMemory, user: str, before: str, after: str,
                                                           old: str, new: str) -> None:
    _say(mem, user, (T1, before), (T2, after))
    _replaced(mem, user, old, new)


def test_an_addition_of_the_same_sort_keeps_both(mem: GoodMemory) -> None:
    _say(mem, "sort-add", (T1, "I swim at the Harbourside Leisure Centre most mornings."),
         (T2, "I also joined Aquadome for the sauna on weekends."))
    active = " ".join(_active(mem, "sort-add"))
    assert "Harbourside" in active and "Aquadome" in active


def test_a_change_of_another_sort_leaves_the_value_alone(mem: GoodMemory) -> None:
    _say(mem, "sort-other", (T1, "I work for Halvorsen Logistics in the claims team."),
         (T2, "Moved over to Tidewrite a few weeks back."))
    assert "Halvorsen" in " ".join(_active(mem, "sort-other"))
    assert not any("Halvorsen" in v for v in _history(mem, "sort-other"))


def test_another_persons_change_of_the_same_sort_leaves_the_users_value(mem: GoodMemory) -> None:
    _say(mem, "sort-brother", (T1, "I train at Peakform Gym on weekdays."),
         (T2, "My brother switched gyms, he's at Aquadome now."))
    assert "Peakform" in " ".join(_active(mem, "sort-brother"))


def test_a_change_frame_without_i_replaces_what_was_said_of_the_same_person(mem: GoodMemory) -> None:
    _say(mem, "sort-kid", (T1, "My daughter goes to Fernhill Infants."),
         (T2, "She started at Brookvale Juniors this autumn."))
    _replaced(mem, "sort-kid", "Fernhill", "Brookvale")


def test_a_change_frame_without_i_that_replaces_nothing_is_not_kept(mem: GoodMemory) -> None:
    _say(mem, "sort-nokid", (T1, "I work for Halvorsen Logistics in the claims team."),
         (T2, "She started at Brookvale Juniors this autumn."))
    active = " ".join(_active(mem, "sort-nokid"))
    assert "Halvorsen" in active and "Brookvale" not in active


def test_a_change_of_one_sort_never_replaces_a_value_of_another(mem: GoodMemory) -> None:
    # "we moved him to X Academy" reads like a move of home; the sort (a school, his) says it is not
    _say(mem, "sort-veto", (T1, "We've moved house, the new place is 12 Larch Row."),
         (T2, "We moved him to Ashgrove Academy this term."))
    assert "Larch Row" in " ".join(_active(mem, "sort-veto"))
    assert not any("Larch Row" in v for v in _history(mem, "sort-veto"))


@pytest.mark.parametrize(("user", "before", "after", "kept"), [
    ("sort-veto-energy", "I live in Harrogate.", "We switched to Octopus Energy for the gas.", "Harrogate"),
    ("sort-veto-notes", "I'm a staff nurse at St Mary's.", "Now I use Notion for planning my shifts.", "nurse"),
])
def test_a_switch_to_a_thing_one_uses_keeps_the_home_and_the_job(mem: GoodMemory, user: str, before: str,
                                                                  after: str, kept: str) -> None:
    _say(mem, user, (T1, before), (T2, after))
    assert kept in " ".join(_active(mem, user))


def test_news_of_the_user_does_not_replace_what_was_said_of_another_person(mem: GoodMemory) -> None:
    _say(mem, "kids", (T1, "Our daughter Petra is nine."), (T2, "Baby Jonah arrived last week, so now there are five of us!"))
    active = " ".join(_active(mem, "kids"))
    assert "Petra" in active and "Jonah" in active


def test_a_change_said_of_another_person_still_replaces_what_was_said_of_them(mem: GoodMemory) -> None:
    _say(mem, "sis", (T1, "My sister Agata lives in Gdansk."), (T2, "My sister moved to Krakow now."))
    active = " ".join(_active(mem, "sis"))
    assert "Krakow" in active and "Gdansk" not in active


def test_a_statement_without_a_phone_number_is_not_filed_as_one(mem: GoodMemory) -> None:
    _say(mem, "tram", (T1, "These days I take the number 22 tram to the office, it's quicker."))
    keys = [r.key for r in mem.list(user_id="tram") if r.kind != MemoryKind.EPISODE]
    assert keys and not any(k.startswith("contact.phone") for k in keys)
    _say(mem, "tel", (T1, "Ring me on 07700 900321, that's the mobile."))
    assert any(r.key.startswith("contact.phone") for r in mem.list(user_id="tel"))


def _answer(mem: GoodMemory, user: str, at: datetime, question: str, answer: str) -> None:
    mem.remember([{"role": "assistant", "content": question}, {"role": "user", "content": answer}],
                 user_id=user, session_id="qa", at=at)


def test_an_answer_to_a_question_about_the_current_value_replaces_the_earlier_one(mem: GoodMemory) -> None:
    _say(mem, "squad", (T1, "I'm in the logistics team at the depot."))
    _answer(mem, "squad", T2, "Which team are you in these days?", "Customer onboarding, since January.")
    _replaced(mem, "squad", "logistics", "onboarding")


def test_an_answer_about_another_persons_thing_leaves_the_users_value(mem: GoodMemory) -> None:
    _say(mem, "squad2", (T1, "I'm in the logistics team at the depot."))
    _answer(mem, "squad2", T2, "Which team does your sister lead these days?", "The design team, since January.")
    assert "logistics" in " ".join(_active(mem, "squad2"))


def test_a_household_supplier_is_filed_as_a_provider_not_an_employer(mem: GoodMemory) -> None:
    _say(mem, "util", (T1, "Our gas and electricity supplier is Lumen Power."))
    keys = [r.key for r in mem.list(user_id="util") if r.kind != MemoryKind.EPISODE]
    assert keys and all(k.startswith("fact.provider") for k in keys), keys
    _say(mem, "util2", (T1, "I work at Lumen Power in the billing department."))
    assert not any(r.key.startswith("fact.provider") for r in mem.list(user_id="util2"))


def test_what_is_said_of_a_person_the_user_named_keeps_them_and_is_a_note(mem: GoodMemory) -> None:
    _say(mem, "wife", (T1, "My wife is called Ilse."), (T2, "Ilse wants a bigger garden now."))
    recs = [r for r in mem.list(user_id="wife") if r.kind != MemoryKind.EPISODE]
    assert any(r.value == "Ilse" for r in recs)
    said = next(r for r in recs if "garden" in r.value)
    assert said.key.startswith("fact.note") and said.kind == MemoryKind.FACT
