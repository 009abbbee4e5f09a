"""A child's school said as chat says it (issue 17): "my son Leo's in year 3 at X Primary" (the "'s in" of "is in"),
"Little Acorns nursery" (the school's word in lower case), and a first name the user never gave before with a
school only children go to ("Maisie goes to Little Acorns nursery"). None of the three was kept."""

from __future__ import annotations

import pytest
from _extracting import read

from _memories import active_after


@pytest.mark.parametrize(("text", "school"), [
    ("my son Arlo's in year 2 at Holy Trinity Primary, they need a costume by friday", "Holy Trinity Primary"),
    ("our daughter goes to Bluebell nursery three days a week", "Bluebell nursery"),
    ("Wren goes to Oakfield Montessori on tuesdays, can you suggest easy snacks for her bag", "Oakfield Montessori"),
])
def test_a_childs_school_said_as_chat_says_it_is_kept(text: str, school: str) -> None:
    assert [v for k, v in read(text) if k.endswith(".school")] == [school]


@pytest.mark.parametrize("text", ["Leo goes to Sunday school at St Paul's", "Dan goes to Leeds College of Art"])
def test_no_childs_school_is_made_up(text: str) -> None:
    assert not [k for k, _ in read(text) if k.endswith(".school")]


def test_the_new_nursery_replaces_the_old_one() -> None:
    values = active_after("Wren goes to Oakfield Montessori on tuesdays, can you suggest easy snacks for her bag",
                          "Wren's moved to Ladybird nursery since we moved house, she loves it")
    assert any("Ladybird" in v for v in values)
    assert not any("Oakfield" in v for v in values), values


@pytest.mark.parametrize("text", ["She started at Brookvale Juniors this autumn.", "He goes to Hillside Primary now"])
def test_a_pronoun_is_no_childs_name(text: str) -> None:
    assert not [k for k, _ in read(text) if ".she." in k or ".he." in k]
