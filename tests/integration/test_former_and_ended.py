"""A value the user calls former, or a thing a correction ends, is not shown as if current (packaged embedder).

The sentences are this test's own; none is from a persona or a corpus.
"""

from __future__ import annotations

from datetime import UTC, datetime

from _shared import current, module_mem  # noqa: F401 (the module's mem: one memory shared by its tests)

from goodmemory import FeedbackResult, GoodMemory, MemoryStatus
from goodmemory._outdated import HIDDEN

T1 = datetime(2025, 2, 1, 9, tzinfo=UTC)
CHOIR = "I sing with the Harbour Choir every Thursday evening."
NOW = datetime(2025, 5, 1, 9, tzinfo=UTC)  # the shared mem's clock (_shared.module_mem)


def _corrected(mem: GoodMemory, user: str, said: str, named: str, correction: str) -> FeedbackResult:
    """The user says ``said``, then corrects the memory of it that names ``named``."""
    mem.remember([{"role": "user", "content": said}], user_id=user, session_id="s1", at=T1, domain="home")
    target = next(r for r in current(mem, user) if named in r.text)
    return mem.feedback(target.id, "correct", user_id=user, correction=correction)


def _lines(mem: GoodMemory, user: str, query: str) -> list[str]:
    return [line for line in mem.build_context(query, user_id=user, domain="home", max_tokens=600).text.splitlines()
            if line.startswith("- [")]


def test_a_former_value_named_in_passing_is_hidden_and_the_current_one_kept(mem: GoodMemory) -> None:
    mem.remember([{"role": "user", "content": "Our broadband is with Fibrelink since March, before that it was "
                                              "Westnet. The router keeps dropping."}],
                 user_id="net", session_id="s1", at=T1, domain="home")
    lines = _lines(mem, "net", "Who is our broadband provider?")
    turn = [line for line in lines if "router" in line]
    assert turn and "Fibrelink" in turn[0] and HIDDEN in turn[0], lines
    assert not [line for line in lines if "Westnet" in line], lines


def test_a_turn_without_a_former_value_is_shown_whole(mem: GoodMemory) -> None:
    mem.remember([{"role": "user", "content": "Our broadband is with Fibrelink, previously I worked from an office."}],
                 user_id="net2", session_id="s1", at=T1, domain="home")
    lines = _lines(mem, "net2", "Who is our broadband provider?")
    assert any("previously I worked from an office" in line for line in lines), lines


def test_a_correction_that_ends_a_thing_is_history_not_a_current_memory(mem: GoodMemory) -> None:
    mem.remember([{"role": "user", "content": CHOIR}], user_id="choir2", session_id="s1", at=T1, domain="home")
    res = _corrected(mem, "choir", CHOIR, "Harbour Choir", "I left the Harbour Choir in April.")
    assert res.memory is not None and res.memory.status == MemoryStatus.EXPIRED
    # the choir is named only by the turn the user said it in, flagged with its end
    named = [line for line in _lines(mem, "choir", "Which choir do I sing with?") if "Harbour Choir" in line]
    assert named and all("outdated, now:" in line and "I left" in line for line in named), named
    # the ending stays in the history, and another user's choir is untouched
    assert any(r.text.startswith("I left") for r in mem.export(user_id="choir").memories)
    assert [line for line in _lines(mem, "choir2", "Which choir do I sing with?") if "Harbour Choir" in line]


def test_a_correction_with_a_new_value_stays_current(mem: GoodMemory) -> None:
    res = _corrected(mem, "choir3", CHOIR, "Harbour Choir", "I sing with the Hillside Singers now.")
    assert res.memory is not None and res.memory.status == MemoryStatus.ACTIVE


def test_a_correction_that_ends_a_thing_and_names_a_new_one_stays_current(mem: GoodMemory) -> None:
    res = _corrected(mem, "job", "I work at Acme Freight as a dispatcher.", "Acme",
                     "I left Acme Freight and joined Brightside Labs.")
    assert res.memory is not None and res.memory.status == MemoryStatus.ACTIVE
