"""Which earlier value a change names, when two were said at the same instant (this test's own sentences)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from goodmemory._attributes import AttributeIndex
from goodmemory.models import MemoryKind, MemoryRecord, MemorySource
from goodmemory.testing import FakeEmbedder

AT = datetime(2025, 3, 1, 9, tzinfo=UTC)


def _rec(key: str, kind: MemoryKind, value: str) -> MemoryRecord:
    return MemoryRecord(user_id="u", kind=kind, key=key, value=value, text=f'The user said: "{value}."',
                        valid_from=AT, created_at=AT, updated_at=AT,
                        source=MemorySource(session_id="s", message_ids=["s:0"], timestamp=AT, role="user"),
                        metadata={"statement": True})


@pytest.mark.parametrize("order", [0, 1])
def test_the_value_a_change_denies_wins_whatever_order_the_store_lists_them(order: int) -> None:
    tool = _rec("preference.tool.quillpad", MemoryKind.PREFERENCE, "We draft everything in Quillpad, version 3")
    plan = _rec("fact.project.harbour_launch", MemoryKind.FACT, "The Harbour launch is due 12 March")
    records = [tool, plan] if order == 0 else [plan, tool]
    index = AttributeIndex(FakeEmbedder(), records, [], min_family_score=0.45, min_similarity=0.3)
    said = "Quillpad crashed again, and the Harbour launch moved to 2 April, not 12 March"
    fam = index._named_change(said)
    assert fam is not None and fam.name == "project"
