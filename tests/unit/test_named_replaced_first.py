"""Of two earlier notes a change names, the one it puts another value in place of is the one it replaces (issue 17;
found by the persona eval, where "the TLS paper went to Physical Review Applied instead" replaced the note of the
paper's deadline, which names TLS as its first word, instead of the note of its journal). My own sentences."""

from __future__ import annotations

from datetime import datetime

from goodmemory.merge import Earlier, attribute_slot
from goodmemory.taxonomy import family_by_name


def _note(key: str, value: str, day: int) -> Earlier:
    return Earlier(key=key, value=value, at=datetime(2025, 1, day), family_key="fact.note", similarity=0.3)


def test_the_value_put_in_another_place_is_replaced() -> None:
    journal = _note("fact.note.kpi_journal.aaaaaa", "Two papers out: the KPI-drift paper for Nature Physics, the "
                    "sensor paper for Optica", 1)
    deadline = _note("fact.note.kpi_deadline.bbbbbb", "KPI paper goes out 30 June, sensor paper in August", 2)
    key, why = attribute_slot("The KPI paper went to Physical Review Letters instead, the editor liked it",
                              family_by_name("note"), "fact.note.kpi.cccccc", [journal, deadline], statement=True,
                              has_value=True)
    assert key == "fact.note.kpi_journal.aaaaaa", (key, why)
