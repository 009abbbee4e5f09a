"""Verifiable forgetting: after ``forget`` the forgotten text is nowhere.

On a SQLite *file* store every scan reads what is really there:
- every table of the database, FTS5 shadow tables (``gm_fts_data``, ``gm_fts_idx``,
  ``gm_fts_content``, ``gm_fts_docsize``, ``gm_fts_config``) included, value by value
  (text and blob);
- the raw bytes of ``gm.db``, ``gm.db-wal`` and ``gm.db-shm``, read with ``open(..., 'rb')`` while
  the store is open (the adapter checkpoints after a delete) and again after ``close()``;
- the embedder cache (``mem.embedder`` is a ``CachedEmbedder``: no key for a forgotten text and no
  cached vector equal to a forgotten text's vector) and the facade's echo cache (``_injected``);
- export, recall and build_context;
- the receipt (counts per index equal what was in each index beforehand) and the tombstone
  (content-free: neither the forgotten text nor the user id).

The in-memory adapter gets the same checks at the API level plus a scan of its internal state.

FTS5 note: this SQLite (3.40) has no FTS5 ``secure-delete`` option, so deleted terms could stay in
segment pages; the adapter runs the FTS5 ``optimize`` merge after deletes instead, and the raw
file scans below are what show whether that is enough.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from goodmemory import Candidate, GoodMemory, MemoryKind, create_good_memory
from goodmemory.storage.memory import InMemoryStorage
from goodmemory.storage.sql import SQLStorage
from goodmemory.testing import FakeEmbedder, FrozenClock, ScriptedExtractor

MARK = "zq7forgetmarker"  # in the first value; its newer value is MARK + "b"
TAILS = (MARK, "getmarker")  # FTS5 leaves prefix-compress terms: the tail of a term is always stored whole
KEEP = "keepalphamarker"  # another memory of the same user, kept by forget(memory_id)
OTHER = "otherusermarker"  # another user's memory, kept by everything
USER = "tenant-x9k2alice"
USER2 = "tenant-y4m8bob"

MSG_CODE = f"My locker code word is {MARK}, and the locker is at the gym."
MSG_CODE2 = f"New locker code word: {MARK}b."
MSG_KEEP = f"I live in Lisbon, say {KEEP}."
MSG_OTHER = f"My locker code word is {OTHER}."

SCRIPT = {
    MSG_CODE: [
        Candidate(kind=MemoryKind.FACT, key="locker.code_word", value=MARK,
                  text=f"User's locker code word is {MARK}.", confidence=0.9),
        # a second memory from the same turn: it borrows the turn's words as search keywords
        Candidate(kind=MemoryKind.FACT, key="locker.site", value="gym", text="User's locker is at the gym.",
                  confidence=0.9),
    ],
    MSG_CODE2: [Candidate(kind=MemoryKind.FACT, key="locker.code_word", value=MARK + "b",
                          text=f"User's locker code word is {MARK}b.", confidence=0.9, is_correction=True)],
    MSG_KEEP: [Candidate(kind=MemoryKind.PROFILE, key="profile.home_city", value="Lisbon",
                         text=f"User lives in Lisbon ({KEEP}).", confidence=0.9)],
    MSG_OTHER: [Candidate(kind=MemoryKind.FACT, key="locker.code_word", value=OTHER,
                          text=f"User's locker code word is {OTHER}.", confidence=0.9)],
}


def _u(text: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": text}]


def _seed(m: GoodMemory, clock: FrozenClock) -> None:
    m.remember(_u(MSG_CODE), user_id=USER, session_id="s1", domain="home")
    m.remember(_u(MSG_KEEP), user_id=USER, session_id="s2")
    m.remember(_u(MSG_OTHER), user_id=USER2, session_id="s1", domain="home")
    clock.advance(days=1)
    m.remember(_u(MSG_CODE2), user_id=USER, session_id="s3", domain="home")
    code = next(r for r in m.list(user_id=USER, kinds=["fact"]) if r.key == "locker.code_word")
    m.feedback(code.id, "confirm", user_id=USER)
    m.feedback(code.id, "helpful", user_id=USER)
    # reads put the text into the embedder cache and the echo cache
    assert MARK in m.build_context(f"what is my locker code word {MARK}", user_id=USER, domain="home").text
    assert any(MARK in h.memory.text for h in m.recall("locker code word", user_id=USER, domain="home").hits)


def _open(storage: Any, clock: FrozenClock) -> GoodMemory:
    return create_good_memory(storage, embedder=FakeEmbedder(), extractor=ScriptedExtractor(SCRIPT), clock=clock)


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "gm.db"


@pytest.fixture
def sql_mem(db: Path, clock: FrozenClock) -> Iterator[GoodMemory]:
    m = _open(SQLStorage(f"sqlite:///{db}"), clock)
    _seed(m, clock)
    yield m
    m.close()
    m.storage.close()


# -- scanners --------------------------------------------------------------
def table_hits(db: Path, needles: tuple[str, ...]) -> list[str]:
    """Every (table, column) whose value contains a needle, over every table incl. FTS shadow tables."""
    hits: list[str] = []
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        assert {"gm_memories", "gm_fts_data", "gm_fts_idx", "gm_fts_content", "gm_events", "gm_vectors",
                "gm_tombstones"} <= set(tables)
        for t in tables:
            cur = conn.execute(f'SELECT * FROM "{t}"')
            cols = [d[0] for d in cur.description]
            for row in cur:
                for col, v in zip(cols, row, strict=True):
                    blob = v if isinstance(v, bytes) else str(v).encode("utf-8", "surrogatepass")
                    for n in needles:
                        if n.encode() in blob:
                            hits.append(f"{t}.{col} has {n!r}")
    finally:
        conn.close()
    return hits


def file_hits(db: Path, needles: tuple[str, ...]) -> list[str]:
    """Raw bytes of the database, its WAL and shared-memory files (and any other file next to them)."""
    hits: list[str] = []
    files = sorted(db.parent.glob(db.name + "*"))
    assert db in files
    for f in files:
        with open(f, "rb") as fh:
            data = fh.read()
        for n in needles:
            for enc in ("utf-8", "utf-16-le", "utf-16-be"):
                if n.encode(enc) in data:
                    hits.append(f"{f.name} has {n!r} ({enc})")
    return hits


def index_counts(db: Path, ids: list[str]) -> dict[str, int]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    marks = ",".join("?" * len(ids))
    try:
        return {
            "rows": conn.execute(f"SELECT count(*) FROM gm_memories WHERE id IN ({marks})", ids).fetchone()[0],
            "full_text": conn.execute(f"SELECT count(*) FROM gm_fts WHERE memory_id IN ({marks})", ids).fetchone()[0],
            "vectors": conn.execute(f"SELECT count(*) FROM gm_vectors WHERE memory_id IN ({marks})", ids).fetchone()[0],
            "history": conn.execute(f"SELECT count(*) FROM gm_events WHERE memory_id IN ({marks})", ids).fetchone()[0],
        }
    finally:
        conn.close()


def cache_hits(m: GoodMemory, texts: list[str]) -> list[str]:
    """The embedder cache holds no key and no vector of a forgotten text; the echo cache no such text."""
    out: list[str] = []
    cache = m.embedder._cache
    plain = FakeEmbedder()
    vectors = list(cache.values())
    for t in texts:
        if m.embedder._key(t) in cache:
            out.append(f"embedder cache key of {t!r}")
        v = plain.embed([t])[0]
        if any(np.array_equal(v, c) for c in vectors):
            out.append(f"embedder cache vector of {t!r}")
    for user, seen in m._injected.items():
        out.extend(f"echo cache of {user}: {s!r}" for s in seen if MARK in s)
    return out


def api_hits(m: GoodMemory, user: str) -> list[str]:
    out: list[str] = []
    if MARK in m.export(user_id=user).model_dump_json():
        out.append("export")
    for q in (f"locker code word {MARK}", MARK, "gym locker"):
        for domain in (None, "home"):
            if any(MARK in h.memory.model_dump_json() for h in m.recall(q, user_id=user, domain=domain).hits):
                out.append(f"recall {q!r} {domain}")
            if MARK in m.build_context(q, user_id=user, domain=domain, max_tokens=2000).text:
                out.append(f"context {q!r} {domain}")
    return out


def marked(m: GoodMemory, user: str) -> list[Any]:
    return [r for r in m.export(user_id=user).memories if MARK in r.model_dump_json()]


# -- SQLite file -----------------------------------------------------------
def _check_tombstone(m: GoodMemory, db: Path | None, receipt: Any, user: str) -> None:
    tombs: Any = m.storage.tombstones(user)  # (mypy reads the protocol's own ``list`` method in its annotation)
    stones = [t for t in tombs if t["id"] == receipt.tombstone_id]
    assert len(stones) == 1
    assert stones[0]["counts"] == {k: receipt.deleted[k] for k in ("rows", "full_text", "vectors", "history")}
    assert MARK not in repr(stones[0]) and user not in repr(stones[0])
    if db is not None:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        rows = conn.execute("SELECT * FROM gm_tombstones").fetchall()
        conn.close()
        assert rows and all(MARK not in repr(r) and user not in repr(r) for r in rows)


def test_sqlite_forget_one_memory_leaves_no_trace(sql_mem: GoodMemory, db: Path) -> None:
    m = sql_mem
    assert table_hits(db, (MARK,)) and file_hits(db, (MARK,))  # the scanners see the text before
    code = next(r for r in m.list(user_id=USER, kinds=["fact"]) if r.key == "locker.code_word")
    targets = [r for r in m.export(user_id=USER).memories
               if r.key == "locker.code_word" or (r.kind == MemoryKind.EPISODE and MARK in r.text)]
    assert len(targets) == 4  # two values (one superseded) and the two turns they came from
    texts = [r.text for r in targets]
    expected = index_counts(db, [r.id for r in targets])
    assert expected["history"] >= 6  # adds, supersede, confirm, helpful

    receipt = m.forget(code.id, user_id=USER)

    assert sorted(receipt.memory_ids) == sorted(r.id for r in targets)
    assert {k: receipt.deleted[k] for k in expected} == expected
    assert receipt.deleted["embedding_cache"] == len(set(texts))
    _check_tombstone(m, db, receipt, USER)
    assert table_hits(db, TAILS) == []
    assert file_hits(db, TAILS) == [], "forgotten text in the raw database files (store open)"
    assert cache_hits(m, texts) == []
    assert api_hits(m, USER) == [] and marked(m, USER) == []
    # what was not forgotten is intact: the other memory of the turn (its borrowed keywords scrubbed),
    # the user's other memory, the other user
    kept = {r.key: r for r in m.list(user_id=USER, kinds=["fact", "profile"])}
    assert set(kept) == {"locker.site", "profile.home_city"} and kept["locker.site"].keywords == ""
    assert any(KEEP in h.memory.text for h in m.recall(KEEP, user_id=USER).hits)
    assert any(OTHER in h.memory.text for h in m.recall("locker code word", user_id=USER2).hits)
    assert table_hits(db, (KEEP, OTHER)) != []
    m.close()
    m.storage.close()
    assert file_hits(db, TAILS) == [], "forgotten text in the raw database files (store closed)"


def test_sqlite_forget_user_leaves_no_trace(sql_mem: GoodMemory, db: Path) -> None:
    m = sql_mem
    recs = m.export(user_id=USER).memories
    texts = [r.text for r in recs]
    expected = index_counts(db, [r.id for r in recs])

    receipt = m.forget(user_id=USER, all=True)

    assert {k: receipt.deleted[k] for k in expected} == expected and expected["rows"] == len(recs) == 7
    assert receipt.deleted["embedding_cache"] == len(set(texts))
    _check_tombstone(m, db, receipt, USER)
    needles = (*TAILS, KEEP)
    assert table_hits(db, needles) == []
    assert file_hits(db, needles) == []
    assert cache_hits(m, texts) == [] and USER not in m._injected
    assert api_hits(m, USER) == [] and m.export(user_id=USER).memories == []
    assert [r.value for r in m.list(user_id=USER2, kinds=["fact"])] == [OTHER]
    m.close()
    m.storage.close()
    assert file_hits(db, needles) == []


def test_sqlite_forget_user_leaves_no_user_id(sql_mem: GoodMemory, db: Path) -> None:
    sql_mem.forget(user_id=USER, all=True)
    sql_mem.close()
    sql_mem.storage.close()
    assert table_hits(db, (USER,)) == []
    assert file_hits(db, (USER,)) == []


def test_sqlite_forget_session_and_domain_leave_no_trace(db: Path, clock: FrozenClock) -> None:
    with _open(SQLStorage(f"sqlite:///{db}"), clock) as m:
        _seed(m, clock)
        m.forget(user_id=USER, domain="home")  # both locker turns and every memory made of them
        assert table_hits(db, TAILS) == [] and file_hits(db, TAILS) == []
        assert api_hits(m, USER) == []
        m.remember(_u(MSG_CODE), user_id=USER, session_id="s9", domain="home")
        assert marked(m, USER)
        m.forget(user_id=USER, session_id="s9")
        assert table_hits(db, TAILS) == [] and file_hits(db, TAILS) == []
        assert api_hits(m, USER) == []
        assert [r.value for r in m.list(user_id=USER, kinds=["profile"])] == ["Lisbon"]
    assert file_hits(db, TAILS) == []


def test_fts5_has_no_secure_delete_here_and_optimize_suffices(sql_mem: GoodMemory, db: Path) -> None:
    """Record what this SQLite offers; the scans above are the proof either way."""
    storage = sql_mem.storage
    assert isinstance(storage, SQLStorage)
    if sqlite3.sqlite_version_info < (3, 44, 0):
        assert storage._fts_secure_delete is False
    sql_mem.forget(user_id=USER, all=True)
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        # the index answers nothing for the forgotten term and holds no page with it
        assert conn.execute("SELECT count(*) FROM gm_fts WHERE gm_fts MATCH ?", (f'"{MARK}"',)).fetchone()[0] == 0
        assert all(MARK.encode() not in bytes(b) for (b,) in conn.execute("SELECT block FROM gm_fts_data"))
    finally:
        conn.close()


# -- in-memory adapter -----------------------------------------------------
def test_in_memory_forget_leaves_no_trace(clock: FrozenClock) -> None:
    storage = InMemoryStorage()
    m = _open(storage, clock)
    _seed(m, clock)
    code = next(r for r in m.list(user_id=USER, kinds=["fact"]) if r.key == "locker.code_word")
    targets = [r for r in m.export(user_id=USER).memories
               if r.key == "locker.code_word" or (r.kind == MemoryKind.EPISODE and MARK in r.text)]
    n_events = sum(len(storage.events(USER, r.id)) for r in targets)
    receipt = m.forget(code.id, user_id=USER)
    assert receipt.deleted == {"rows": 4, "full_text": 4, "vectors": 4, "history": n_events,
                               "embedding_cache": len({r.text for r in targets})}
    _check_tombstone(m, None, receipt, USER)
    assert api_hits(m, USER) == [] and cache_hits(m, [r.text for r in targets]) == []
    assert MARK not in repr(storage.__dict__)  # rows, vectors, events, tombstones

    texts = [r.text for r in m.export(user_id=USER).memories]
    receipt = m.forget(user_id=USER, all=True)
    assert receipt.deleted["rows"] == len(texts) == 3
    _check_tombstone(m, None, receipt, USER)
    assert cache_hits(m, texts) == [] and USER not in m._injected
    assert m.export(user_id=USER).memories == [] and api_hits(m, USER) == []
    state = repr(storage.__dict__)
    assert KEEP not in state and MARK not in state
    assert [r.value for r in m.list(user_id=USER2, kinds=["fact"])] == [OTHER]
    m.close()
