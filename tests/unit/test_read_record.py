"""Records read from storage are validated once per stored JSON and handed out as independent copies."""

from __future__ import annotations

from datetime import UTC, datetime

from goodmemory.models import MemoryKind, MemoryRecord, MemorySource
from goodmemory.storage._common import read_record


def _json() -> str:
    rec = MemoryRecord(user_id="u", kind=MemoryKind.FACT, key="fact.car", value="a red Fiat", text="User drives a red Fiat.",
                       source=MemorySource(session_id="s", message_ids=["s:0"], timestamp=datetime(2025, 1, 2, tzinfo=UTC)),
                       conflicts_with=["x"], metadata={"outdated": [{"key": "k", "old": "a", "hide": ["a"]}], "seq": 3},
                       tags=["t1"])
    return rec.model_dump_json()


def test_a_read_record_equals_validating_its_json() -> None:
    data = _json()
    for _ in range(2):  # the miss and the hit
        got = read_record(data)
        assert got == MemoryRecord.model_validate_json(data)
        assert got.model_dump_json() == data
        assert got.model_fields_set == MemoryRecord.model_validate_json(data).model_fields_set


def test_changing_a_read_record_does_not_change_the_next_read() -> None:
    data = _json()
    first = read_record(data)
    first.text = "changed"
    first.source.message_ids.append("s:9")
    first.metadata["outdated"][0]["old"] = "changed"
    first.metadata["new"] = 1
    first.conflicts_with.append("y")
    first.tags.append("t2")
    first.metadata["outdated"][0]["hide"].append("b")
    first.source.timestamp = None
    first.keywords = "kw"
    second = read_record(data)
    assert second is not first
    assert second.model_dump_json() == data
    assert read_record(data.encode()).model_dump_json() == data  # bytes from a driver read the same


def test_a_forget_leaves_no_parsed_copy_of_what_it_deleted(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from goodmemory import create_good_memory
    from goodmemory.storage import _common
    from goodmemory.testing import FakeEmbedder

    mem = create_good_memory(f"sqlite:///{tmp_path / 'f.db'}", embedder=FakeEmbedder())
    mem.remember([{"role": "user", "content": "My locker code at the Zephyrine gym is blue-seven."}], user_id="u",
                 session_id="s")
    assert "Zephyrine" in mem.build_context("what is my locker at the gym?", user_id="u").text
    assert any("Zephyrine" in k for k in _common._PARSED)  # read back, so kept
    mem.forget(user_id="u", session_id="s")
    assert not any("Zephyrine" in k for k in _common._PARSED)
    mem.close()
