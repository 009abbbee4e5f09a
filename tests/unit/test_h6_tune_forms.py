"""Forms found in a fresh blind set's tune half, tested in my own sentences (issue 17)."""

from __future__ import annotations

import pytest
from _extracting import assert_kept

from _memories import active_after


@pytest.mark.parametrize(("text", "word"), [
    # chat's "u" and "so can u ..." after the news
    ("rent goes out on the 1st so can u help me plan a budget for the month", "1st"),
    # the user's clause after a lead, with someone else's opinion after it
    ("At 52 I've finally started violin lessons, my kids think I've lost it", "violin"),
])
def test_the_users_news_is_kept(text: str, word: str) -> None:
    assert_kept(text, word)


def _active(*sessions: str) -> list[tuple[str, str]]:
    from datetime import UTC, datetime, timedelta

    from goodmemory import MemoryKind, create_good_memory
    from goodmemory.testing import FrozenClock

    t0 = datetime(2025, 2, 3, 9, tzinfo=UTC)
    with create_good_memory("sqlite://", clock=FrozenClock(t0 + timedelta(days=200))) as mem:
        for i, s in enumerate(sessions):
            mem.remember([{"role": "user", "content": s}], user_id="u", at=t0 + timedelta(days=40 * i))
        return [(r.key, r.value) for r in mem.list(user_id="u") if r.kind != MemoryKind.EPISODE]


def test_where_the_users_team_is_is_no_home_of_theirs() -> None:
    kept = _active("I'm a remote designer based in Bristol. Our devs are in Lisbon, what's a good overlap for calls?")
    assert not [v for k, v in kept if k.startswith("profile.home_city") and "Lisbon" in v], kept


def test_a_time_zone_naming_a_held_city_does_not_replace_it() -> None:
    # the rule reads the time zone; the city the sentence names ends nothing
    kept = _active("I'm based in Leeds. Our client is in Denver, what's a sane time for a weekly call?",
                   "relocated for a year, I'm on Tokyo time now so the Denver calls are brutal")
    assert ("profile.timezone", "Tokyo") in kept or any(k == "profile.timezone" and "Tokyo" in v for k, v in kept), kept
    assert not [k for k, v in kept if k.startswith("profile.home_city") and "Tokyo" in v], kept


def test_a_language_picked_up_is_one_more() -> None:
    values = active_after("I speak Urdu with my family", "I'm picking up some Portuguese at evening classes these days")
    joined = " ".join(values)
    assert "Urdu" in joined and "Portuguese" in joined, values


def test_a_person_the_rules_read_is_not_replaced_by_a_sentence_alike() -> None:
    kept = _active("my son Theo plays rugby with the Kingsbridge Colts on saturdays",
                   "his friend Arjun just quit football and wants to try rugby too, how do I explain tryouts to his mum?")
    assert ("relation.son.theo", "Theo") in kept, kept


@pytest.mark.parametrize("text", ["I go to Ironworks Fitness on Canal St, 6am before work",
                                  "I train at Pulse Gym by the station most lunchtimes"])
def test_a_gym_named_by_its_noun_is_filed_under_fitness(text: str) -> None:
    keys = [k for k, _ in _active(text)]
    assert any(k.startswith("preference.fitness") for k in keys), keys


@pytest.mark.parametrize(("text", "boss"), [
    ("can you help me prep for my first 1:1 with Ngozi Adeyemi, she took over Tom's team last month so she's my boss "
     "now", "Ngozi Adeyemi"),
    ("Ravi took over from Helen as my line manager", "Ravi"),
])
def test_a_new_boss_told_by_a_pronoun_or_a_handover(text: str, boss: str) -> None:
    from _extracting import read
    assert ("relation.manager", boss) in read(text)


def test_the_new_boss_replaces_the_old() -> None:
    values = active_after("my manager Helen wants the report by friday",
                          "Ravi took over from Helen as my line manager, any tips for a first 1:1?")
    assert "Ravi" in values and "Helen" not in values, values


@pytest.mark.parametrize(("text", "zone", "city"), [
    ("I'm a freelance editor based in Bristol (GMT), my authors are in Toronto", "GMT", "Bristol"),
    ("I'm in Madrid, so CET, and the client is in Chicago", "CET", "Madrid"),
])
def test_a_time_zone_said_beside_the_city(text: str, zone: str, city: str) -> None:
    from _extracting import read
    kept = read(text)
    assert ("profile.timezone", zone) in kept, kept
    if city == "Bristol":
        assert ("profile.home_city", city) in kept, kept


def test_the_new_time_zone_replaces_the_one_said_beside_the_city() -> None:
    values = active_after("I'm a freelance editor based in Bristol (GMT), my authors are in Toronto",
                          "relocated for the year, I'm on SGT now so the Toronto calls are brutal")
    assert "SGT" in values and "GMT" not in " ".join(values), values
