"""forget on SQLite while another connection holds a read transaction: the rows are gone at once, but the
bytes can stay in the WAL until a checkpoint succeeds. The receipt says so (pending_scrub) and a later
call completes the scrub."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from goodmemory import create_good_memory
from goodmemory.storage.sql import SQLStorage
from goodmemory.testing import FakeEmbedder, FrozenClock, NullExtractor

MARK = "zq8pendingmarker"


def _file_bytes(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))


def test_forget_under_a_reader_reports_pending_scrub_and_a_later_call_completes_it(tmp_path: Path) -> None:
    db = tmp_path / "gm.db"
    storage = SQLStorage(f"sqlite:///{db}", busy_timeout_ms=200)
    with create_good_memory(storage, embedder=FakeEmbedder(), extractor=NullExtractor(), clock=FrozenClock()) as m:
        m.remember([{"role": "user", "content": f"my locker word is {MARK}"}], user_id="u", session_id="s")
        m.remember([{"role": "user", "content": "I like tea"}], user_id="u", session_id="t")
        reader = sqlite3.connect(str(db), isolation_level=None, timeout=0.2)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM gm_memories").fetchall()  # holds a read snapshot
        receipt = m.forget(user_id="u", session_id="s")
        assert receipt.deleted["rows"] >= 1
        assert receipt.pending_scrub, "the checkpoint could not run, yet the receipt claims the bytes are gone"
        assert MARK not in m.export(user_id="u").model_dump_json()  # gone from every query at once
        reader.execute("COMMIT")
        reader.close()
        later = m.forget(user_id="u", key="nothing.here")  # any later delete retries the scrub
        assert later.deleted["rows"] == 0 and not later.pending_scrub
        assert MARK.encode() not in _file_bytes(db)
        storage.close()


def test_a_pending_scrub_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "gm.db"
    storage = SQLStorage(f"sqlite:///{db}", busy_timeout_ms=200)
    m = create_good_memory(storage, embedder=FakeEmbedder(), extractor=NullExtractor(), clock=FrozenClock())
    m.remember([{"role": "user", "content": f"my locker word is {MARK}"}], user_id="u", session_id="s")
    reader = sqlite3.connect(str(db), isolation_level=None, timeout=0.2)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM gm_memories").fetchall()
    assert m.forget(user_id="u", all=True).pending_scrub
    storage.engine.dispose()  # the process goes away without a clean close
    reader.execute("COMMIT")  # the reader stays connected: SQLite does not checkpoint on its own
    assert MARK.encode() in _file_bytes(db)
    reopened = SQLStorage(f"sqlite:///{db}")  # opening finishes what was pending
    assert MARK.encode() not in _file_bytes(db)
    reopened.close()
    reader.close()
