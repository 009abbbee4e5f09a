"""What the user takes back in a turn ends the memory it names, within their own scope (packaged embedder).

The sentences are this test's own; none is from a persona or a corpus.
"""

from __future__ import annotations

from datetime import UTC, datetime

from _shared import current, module_mem, say  # noqa: F401 (the module's mem: one memory shared by its tests)

from goodmemory import GoodMemory, MemoryStatus

T1 = datetime(2025, 2, 1, 9, tzinfo=UTC)
T2 = datetime(2025, 3, 1, 9, tzinfo=UTC)
NOW = datetime(2025, 4, 1, 9, tzinfo=UTC)  # the shared mem's clock (_shared.module_mem)


def _say(mem: GoodMemory, user: str, at: datetime, *texts: str, session: str) -> None:
    say(mem, user, at, *texts, session_id=session, domain="home")


def _active(mem: GoodMemory, user: str) -> list[str]:
    return [r.text for r in current(mem, user)]


def test_a_retracted_task_is_no_longer_open_and_its_turn_is_flagged(mem: GoodMemory) -> None:
    _say(mem, "shed", T1, "I need to repaint the garden shed before the autumn rain.", session="s1")
    assert any("shed" in t for t in _active(mem, "shed"))
    _say(mem, "shed", T2, "Actually forget the garden shed, we're tearing it down.", session="s2")
    assert not any("shed" in t for t in _active(mem, "shed")), _active(mem, "shed")
    ctx = mem.build_context("What do I still need to do?", user_id="shed", domain="home", max_tokens=600)
    assert "## Open tasks" not in ctx.text
    old = [line for line in ctx.text.splitlines() if "repaint the garden shed" in line]
    assert all("outdated, now:" in line for line in old), old


def test_a_retracted_fact_is_history_and_nothing_else_is_touched(mem: GoodMemory) -> None:
    _say(mem, "cabin", T1, "We rent a weekend cabin near Lake Bled every August.",
         "My dentist is Dr. Varga in Ljubljana.", session="s1")
    _say(mem, "cabin2", T1, "We rent a weekend cabin near Lake Bled every August.", session="s1")
    _say(mem, "cabin", T2, "Scratch the weekend cabin idea, that's no longer true.", session="s2")
    active = _active(mem, "cabin")
    assert not any("cabin" in t for t in active), active
    assert any("Varga" in t for t in active), active  # the other memory of the same user stays
    assert any("cabin" in t for t in _active(mem, "cabin2"))  # another user's memory stays
    history = [r for r in mem.export(user_id="cabin").memories if "Lake Bled" in r.text and r.kind.value != "episode"]
    assert history and all(r.status == MemoryStatus.SUPERSEDED for r in history)


def test_forget_it_about_small_talk_ends_nothing(mem: GoodMemory) -> None:
    _say(mem, "chat", T1, "We rent a weekend cabin near Lake Bled every August.", session="s1")
    before = _active(mem, "chat")
    _say(mem, "chat", T2, "Haha forget it, never mind, the weather is just awful today.", session="s2")
    assert _active(mem, "chat") == before


def test_the_retraction_sentence_is_no_memory_of_its_own(mem: GoodMemory) -> None:
    _say(mem, "plan", T2, "Actually forget the retirement plan, that's no longer true.", session="s1")
    assert not any("retirement" in t for t in _active(mem, "plan")), _active(mem, "plan")
