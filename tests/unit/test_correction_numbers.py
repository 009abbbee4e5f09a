"""A correction that names the old value and gives the new one with its own number replaces the old number too
(issue 17): "sorry, I meant the Barclaycard ending 8830, not the Amex" over "the Amex ending 4417" kept
"... the Barclaycard ending 8830 ending 4417"."""

from __future__ import annotations

from _extracting import extract


def _corrected(text: str, existing: dict[str, str]) -> list[str]:
    return [c.value for c in extract(text, existing=existing) if c.is_correction]


def test_the_old_number_goes_with_the_old_name() -> None:
    got = _corrected("Sorry, I meant the Visa ending 2291, not the Mastercard.",
                     {"card.mc": "I pay the gym with the Mastercard ending 7730 every month"})
    assert got == ["I pay the gym with the Visa ending 2291 every month"]


def test_a_new_value_without_a_number_leaves_the_rest() -> None:
    assert _corrected("Sorry, I meant Tuesday, not Monday.", {"appt": "Physio is on Monday at 9"}) == \
        ["Physio is on Tuesday at 9"]
