"""A person named in the possessive is that person, not their thing (issue 17): "my wife Priya's Nexon EV" had stored
the wife as "Priya's Nexon". The sentences are my own."""

from __future__ import annotations

import pytest
from _extracting import keyed


@pytest.mark.parametrize(("turn", "key", "name"), [
    ("Two cars at home: my Skoda and my husband Marek's Golf GTI.", "relation.husband", "Marek"),
    ("We're using my sister Ines's old pram for now.", "relation.sister.ines", "Ines"),
    ("My nephew Oskar's party is on Sunday.", "relation.nephew.oskar", "Oskar"),
])
def test_the_name_ends_at_its_possessive(turn: str, key: str, name: str) -> None:
    assert keyed(turn, prefix="relation")[key] == name
