"""After forget(user_id), what stays about the user (tombstones, cache versions) is a keyed hash with a
per-store secret: the plain sha256 of the id, which anyone can compute from a guessed id, is not in the file."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from goodmemory import create_good_memory
from goodmemory.storage.sql import SQLStorage
from goodmemory.testing import FakeEmbedder, FrozenClock, NullExtractor

USER = "alice@example.com"
PLAIN = hashlib.sha256(USER.encode()).hexdigest()


def _raw(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))


def _open(db: Path):  # type: ignore[no-untyped-def]
    return create_good_memory(f"sqlite:///{db}", embedder=FakeEmbedder(), extractor=NullExtractor(),
                              clock=FrozenClock())


def test_no_plain_hash_of_a_forgotten_user_stays(tmp_path: Path) -> None:
    db = tmp_path / "gm.db"
    with _open(db) as m:
        m.remember([{"role": "user", "content": "I keep bees"}], user_id=USER, session_id="s")
        m.forget(user_id=USER, all=True)
        assert len(m.storage.tombstones(USER)) == 1  # still found by the user id
    raw = _raw(db)
    assert PLAIN.encode() not in raw and USER.encode() not in raw
    # another store keys the same user differently: no hash to compare across files
    with _open(tmp_path / "other.db") as m2:
        m2.remember([{"role": "user", "content": "x y z"}], user_id=USER, session_id="s")
        m2.forget(user_id=USER, all=True)
    conn = sqlite3.connect(db)
    a = conn.execute("SELECT user_hash FROM gm_tombstones").fetchone()[0]
    conn.close()
    conn = sqlite3.connect(tmp_path / "other.db")
    b = conn.execute("SELECT user_hash FROM gm_tombstones").fetchone()[0]
    conn.close()
    assert a != b


def test_plain_hashes_written_before_are_rekeyed_on_open(tmp_path: Path) -> None:
    db = tmp_path / "gm.db"
    with _open(db) as m:
        m.remember([{"role": "user", "content": "I keep bees"}], user_id=USER, session_id="s")
        m.forget(user_id=USER, all=True)
    conn = sqlite3.connect(db)  # a store written by the earlier version: plain hashes, no key
    conn.execute("DELETE FROM gm_meta WHERE name = 'user_hash_key'")
    conn.execute("UPDATE gm_tombstones SET user_hash = ?", (PLAIN,))
    conn.execute("UPDATE gm_user_versions SET user_id = ?", (PLAIN,))
    conn.commit()
    conn.close()
    s = SQLStorage(f"sqlite:///{db}")
    assert len(s.tombstones(USER)) == 1
    s.close()
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT user_hash FROM gm_tombstones UNION ALL SELECT user_id FROM gm_user_versions").fetchall()
    conn.close()
    assert rows and PLAIN not in {r[0] for r in rows}


def test_forget_dates_its_tombstone_by_the_injected_clock(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    with create_good_memory(f"sqlite:///{tmp_path / 'c.db'}", embedder=FakeEmbedder(), extractor=NullExtractor(),
                            clock=FrozenClock(datetime(2019, 3, 4, 12, tzinfo=UTC))) as m:
        m.remember([{"role": "user", "content": "I keep bees"}], user_id=USER, session_id="s")
        m.forget(user_id=USER, all=True)
        assert [t["at"][:10] for t in m.storage.tombstones(USER)] == ["2019-03-04"]
