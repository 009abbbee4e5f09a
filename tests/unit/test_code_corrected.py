"""A correction that gives another code of the same series replaces the code it corrects, even one said a turn
before in the same call ("new ref is NXC41TR" / "sorry, NXC41TP, typo"); codes may end in letters (issue 17). Before,
the corrected code stayed current beside the right one. This file's own sentences."""

from __future__ import annotations

import pytest

from _memories import active_after as _active
from goodmemory._earlier_search import _codes


def test_a_correction_in_the_next_turn_replaces_the_code() -> None:
    active = _active(["Booked the coach to Leeds for the 9th, booking ref NXA17QD."],
                     ["Moved the Leeds coach to the 10th, new ref is NXC41TR",
                      "sorry, NXC41TP, typo on my part. Can I show it on my phone?"])
    assert any("NXC41TP" in v for v in active), active
    assert not any("NXC41TR" in v or "NXA17QD" in v for v in active), active


@pytest.mark.parametrize(("a", "b", "same"), [("NXC41TR", "NXC41TP", True), ("HX-20417", "HX-11872", True),
                                              ("NXC41TR", "NXC4109", False), ("NXC41TR", "NXD41TR", False)])
def test_a_series_is_its_letters_and_the_length_of_the_rest(a: str, b: str, same: bool) -> None:
    (sa, _), = _codes(a)
    (sb, _), = _codes(b)
    assert (sa == sb) is same
