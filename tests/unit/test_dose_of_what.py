"""A new dose told without the medicine's name still says what it is a dose of (issue 17): "GP put me up to 40mg"
after "I take citalopram 20mg" left a memory of 40mg of nothing. My own sentences."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from goodmemory import create_good_memory
from goodmemory._replaced import changed_thing
from goodmemory.merge import Earlier


def _old(value: str) -> Earlier:
    return Earlier(key="fact.medication.citalopram", value=value, at=datetime(2025, 1, 1),
                   family_key="fact.medication", similarity=0.0)


def test_the_medicine_a_new_dose_leaves_unnamed() -> None:
    assert changed_thing("GP put me up to 40mg last week", _old("I take citalopram 20mg in the morning")) == \
        "citalopram"


def test_a_dose_that_names_its_medicine_needs_nothing() -> None:
    assert changed_thing("citalopram is 40mg now", _old("I take citalopram 20mg in the morning")) == ""
    assert changed_thing("GP says I can stop soon", _old("I take citalopram 20mg in the morning")) == ""


def test_the_memory_of_the_new_dose_says_of_what() -> None:
    mem = create_good_memory("sqlite://")
    t0 = datetime(2025, 1, 6, tzinfo=UTC)
    mem.remember([{"role": "user", "content": "I take citalopram 20mg in the morning. Is it ok with coffee?"}],
                 user_id="u", at=t0)
    mem.remember([{"role": "user", "content": "GP put me up to 40mg last week."}], user_id="u",
                 at=t0 + timedelta(days=40))
    current = [r for r in mem.list(user_id="u") if r.kind.value != "episode"]
    mem.close()
    dose = next(r for r in current if "40mg" in r.value)
    assert "citalopram" in dose.text, dose.text
    assert not any("20mg" in r.value for r in current), [r.value for r in current]
