"""A partner the user is dating, and a break-up that ends one (issue 17): "Sam (the guy I've been seeing since August)
is cooking for me" kept no partner, and "Jake and I called it quits" was no change, so the old boyfriend stayed
current. The sentences are my own."""

from __future__ import annotations

import pytest
from _extracting import keyed

from _memories import active_after, assert_replaced


@pytest.mark.parametrize(("turn", "key", "name"), [
    ("Lena (the girl I've been seeing since May) is coming round for dinner on Friday", "relation.girlfriend", "Lena"),
    ("I've been dating Noor for a few months now", "relation.partner", "Noor"),
    ("Theo, the guy I'm dating, wants to go camping", "relation.boyfriend", "Theo"),
    ("met someone lovely, her name is Ines 🥰 first date ideas in Lisbon?", "relation.partner", "Ines"),
    ("seeing someone new, his name's Ollie, any ideas for a third date?", "relation.partner", "Ollie"),
    ("I need an anniversary gift for Ruben, we've been together since March", "relation.partner", "Ruben"),
    ("Me and Dana have been together for two years this week. Dinner ideas?", "relation.partner", "Dana"),
])
def test_a_partner_the_user_is_dating_is_a_relation(turn: str, key: str, name: str) -> None:
    assert keyed(turn, prefix="relation").get(key) == name


@pytest.mark.parametrize("turn", [
    "my sister has been seeing Tom for a year",
    "I've been seeing Dr Shah about my back",
    "I'm seeing Anna on Friday for coffee",
    "my brother met someone, her name is Ines, and he won't shut up about her",
    "birthday ideas for my mum? she and Dad have been together since 1985",
    "Emma and I have been together on this project since March",
])
def test_someone_elses_partner_a_clinician_or_a_meeting_is_none(turn: str) -> None:
    assert not any(k.startswith(("relation.partner", "relation.boyfriend", "relation.girlfriend"))
                   for k in keyed(turn, prefix="relation"))


def test_a_break_up_ends_the_partner_and_the_new_one_is_current() -> None:
    values = active_after("my boyfriend Marco loves hiking, any trail ideas near Bristol?",
                          "Marco and I called it quits last month after two years. Just needed to say it.",
                          "Rafa (the guy I've been seeing since June) is cooking for me on Saturday and I want to "
                          "bring a dessert")
    assert_replaced(values, "Rafa", "Marco")


def test_what_was_said_of_a_partner_goes_with_them() -> None:
    """Notes told of a person whose place in the user's life ended are no current facts once they have left it."""
    values = active_after("my boyfriend Marco's birthday is next week, he's into vinyl and craft beer. gift ideas?",
                          "Marco and I called it quits last month. Just needed to say it.")
    assert not any("Marco" in v for v in values), values


def test_what_was_said_of_a_partner_goes_with_them_when_the_break_up_is_the_new_value() -> None:
    values = active_after("my girlfriend Maya's birthday is on Friday, she loves old maps. present ideas?",
                          "rough week. Maya and I broke it off after two years. I just needed to say it somewhere")
    assert not any("Maya" in v for v in values), values
