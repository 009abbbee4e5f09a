"""A value the user accepts from the assistant's suggestion becomes current: through the facade, packaged embedder.

The sentences are this test's own; none is from a persona or a corpus.
"""

from __future__ import annotations

from datetime import UTC, datetime

from _shared import current, module_mem  # noqa: F401 (the module's mem: one memory shared by its tests)

from goodmemory import GoodMemory

T1 = datetime(2025, 3, 1, 9, tzinfo=UTC)
T2 = datetime(2025, 3, 8, 9, tzinfo=UTC)
NOW = datetime(2025, 4, 1, 9, tzinfo=UTC)  # the shared mem's clock (_shared.module_mem)


def _talk(mem: GoodMemory, user: str, at: datetime, *turns: tuple[str, str], session: str = "s1") -> None:
    mem.remember([{"role": r, "content": c} for r, c in turns], user_id=user, session_id=session, at=at,
                 domain="home")


def _active(mem: GoodMemory, user: str) -> list[str]:
    return [r.text for r in current(mem, user)]


def test_an_accepted_figure_replaces_the_one_said_before(mem: GoodMemory) -> None:
    _talk(mem, "heater", T1,
          ("user", "Our water heater thermostat is set to 48 degrees and the showers run cold by seven."),
          ("assistant", "Turning the thermostat up to 60 degrees also keeps legionella away."),
          ("user", "ok put it on 60 then, thanks"))
    active = _active(mem, "heater")
    assert any("60" in t and "thermostat" in t for t in active), active
    assert not any("48" in t for t in active), active
    ctx = mem.build_context("What is the water heater set to?", user_id="heater", domain="home", max_tokens=600)
    assert "60" in ctx.text
    assert all("60" in line for line in ctx.text.splitlines() if "48 degrees" in line), ctx.text


def test_a_chosen_option_is_kept_with_what_it_chose_from(mem: GoodMemory) -> None:
    _talk(mem, "rug", T1,
          ("assistant", "The shop has the rug in two sizes: a 160 cm runner and a 240 cm square."),
          ("user", "great, order the 240 one"))
    active = _active(mem, "rug")
    assert any("240" in t and "rug" in t for t in active), active


def test_thanks_accepts_nothing(mem: GoodMemory) -> None:
    _talk(mem, "thanks", T1,
          ("assistant", "Turning the thermostat up to 60 degrees also keeps legionella away."),
          ("user", "ok thanks"))
    assert _active(mem, "thanks") == []


def test_a_value_the_assistant_never_offered_binds_nothing_of_the_offer(mem: GoodMemory) -> None:
    _talk(mem, "other", T1,
          ("assistant", "Turning the thermostat up to 60 degrees also keeps legionella away."),
          ("user", "no, leave it where it is"))
    assert not any("60" in t for t in _active(mem, "other"))


def test_an_acceptance_changes_no_other_users_memory(mem: GoodMemory) -> None:
    _talk(mem, "alice", T1, ("user", "Our water heater thermostat is set to 48 degrees, which suits us."))
    _talk(mem, "bob", T2,
          ("user", "Our water heater thermostat is set to 45 degrees."),
          ("assistant", "Turning the thermostat up to 60 degrees also keeps legionella away."),
          ("user", "ok put it on 60 then"))
    assert any("48" in t for t in _active(mem, "alice")), _active(mem, "alice")
    assert not any("60" in t for t in _active(mem, "alice"))
