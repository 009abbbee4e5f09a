"""An email address in the user's sentence files it under their email whatever the rest reads like, so a new
address replaces the old; a title given in the passive ("I've been made X", "was appointed X") is a change of the
user's job title. This file's own sentences (issue 17, w69); both tests fail before w69 (the first address was
a tool, the passive title its own note)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from goodmemory import GoodMemory, MemoryStatus
from goodmemory._value_types import change_frame, shaped_family

T0 = datetime(2025, 5, 20, 9, 0, tzinfo=UTC)  # the frozen_mem clock (tests/conftest.py)


def _say(mem: GoodMemory, text: str, at: datetime) -> None:
    mem.clock.set(at)  # type: ignore[attr-defined]
    mem.remember([{"role": "user", "content": text}], user_id="u", at=at)


def _current(mem: GoodMemory) -> list[str]:
    return [r.value for r in mem.list(user_id="u") if r.kind.value != "episode"]


def test_shaped_family_reads_an_email_address_only() -> None:
    assert shaped_family("I do all my invoicing from r.kaur@tallowmail.co.uk") == "email"
    assert shaped_family("I use Notion for everything") is None


def test_a_new_email_address_replaces_the_old_one(frozen_mem: GoodMemory) -> None:
    _say(frozen_mem, "I do all my invoicing from r.kaur@tallowmail.co.uk, personal stuff too.", T0)
    _say(frozen_mem, "Dropped that one, everything goes to rkaur@pinecrest.org now.", T0 + timedelta(days=40))
    current = " ".join(_current(frozen_mem))
    assert "pinecrest" in current and "tallowmail" not in current, current
    history = frozen_mem.list(user_id="u", include_history=True)
    assert any("tallowmail" in r.value and r.status is MemoryStatus.SUPERSEDED for r in history)


@pytest.mark.parametrize("said", ["I've been made deputy manager at the depot.",
                                  "I was appointed senior lecturer in March."])
def test_a_passive_title_is_framed_as_a_change_of_title(said: str) -> None:
    assert "title" in change_frame(said)


def test_a_passive_without_a_title_frames_no_title() -> None:
    assert "title" not in change_frame("I was made to wait two hours at the depot.")


def test_a_passive_title_replaces_the_old_title(frozen_mem: GoodMemory) -> None:
    _say(frozen_mem, "I work as a junior analyst at Perrin Freight.", T0)
    _say(frozen_mem, "Finally been made senior analyst, as of this week!", T0 + timedelta(days=80))
    current = " ".join(_current(frozen_mem))
    assert "senior analyst" in current and "junior" not in current, current


@pytest.mark.parametrize(("said", "family"), [
    ("Could you put all the meeting times in AEST for me?", "timezone"),
    ("I'm on Mountain time until the autumn.", "timezone"),
    ("The ferry gets in at 6pm GMT.", None),  # a time said in a zone, not where the user wants times
])
def test_shaped_family_reads_where_times_are_put(said: str, family: str | None) -> None:
    assert shaped_family(said) == family


def test_a_new_time_zone_replaces_the_old_one(frozen_mem: GoodMemory) -> None:
    _say(frozen_mem, "Book my calls in Pacific time, I'm in Portland.", T0)
    _say(frozen_mem, "I'm spending the winter in Athens, so any times in EET from now on please.",
         T0 + timedelta(days=40))
    current = " ".join(_current(frozen_mem))
    assert "EET" in current and "Pacific" not in current, current


@pytest.mark.parametrize(("said", "family"), [
    ("Keys in hand, we're at 41 Quarry Road now.", "address"),
    ("We moved to 7a Heron Close in the spring.", "address"),
    ("The surgery is at 12 Abbey Street.", None),  # a provider's address, not the user's
])
def test_shaped_family_reads_the_users_own_street_address(said: str, family: str | None) -> None:
    assert shaped_family(said) == family


def test_a_transfer_is_framed_as_a_change_of_employer() -> None:
    assert "employer" in change_frame("I got transferred to Northgate Infirmary in April.")


def test_a_new_street_address_replaces_the_old_one(frozen_mem: GoodMemory) -> None:
    _say(frozen_mem, "Our address is 9 Sorrel Way, Kendal, LA9 4PQ.", T0)
    _say(frozen_mem, "Finally moved in, we're at 41 Quarry Road now, still Kendal.", T0 + timedelta(days=40))
    current = " ".join(_current(frozen_mem))
    assert "Quarry Road" in current and "Sorrel" not in current, current
