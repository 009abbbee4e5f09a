"""Crash safety and failure injection.

- A child process ingests many ``remember()`` batches into a SQLite file, each batch's messages
  carrying a unique batch marker; it is SIGKILLed mid-ingest after it reported progress. Then the
  database passes ``PRAGMA integrity_check``, every batch is fully there (all its episodes and
  extracted memories) or fully absent, every batch the child reported done is there, and the
  reopened store works. Three kill/reopen rounds run against the same file.
- Failures in the middle of ``remember()``: embedder, extractor, LLM and storage (a SQL error
  injected at every statement of the write transaction in turn; a Storage wrapper whose write
  raises) raise a ``GoodMemoryError`` subclass and leave every table exactly as before.
- A database that cannot be opened gives ``StorageUnavailableError`` saying what to check.
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sqlalchemy import event

from goodmemory import (
    Candidate,
    EmbeddingError,
    ExtractionError,
    GoodMemory,
    GoodMemoryError,
    LLMError,
    MemoryKind,
    StorageError,
    StorageUnavailableError,
    create_good_memory,
)
from goodmemory.storage.base import WriteBatch
from goodmemory.storage.sql import SQLStorage
from goodmemory.testing import FakeEmbedder, FrozenClock, ScriptedExtractor

PER_BATCH = 12  # messages per remember() call; each yields one episode and one extracted memory
BATCH_RE = re.compile(r"bm(\d{5})x(\d{2})")

CHILD = textwrap.dedent('''
    import os, sys
    from goodmemory import Candidate, MemoryKind, create_good_memory
    from goodmemory.testing import FakeEmbedder

    db, progress, start, per_batch = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])

    class BatchExtractor:
        """One fact per message: 'bm<batch>x<i>' -> fact.b<batch>.m<i>."""
        name = "batch"

        def extract(self, messages, ctx):
            out = []
            for m in messages:
                marker = m.content.split()[1]
                out.append(Candidate(kind=MemoryKind.FACT, key="fact." + marker, value=marker,
                                     text="User recorded " + marker + ".", confidence=0.9,
                                     message_ids=[m.id]))
            return out

    mem = create_good_memory("sqlite:///" + db, embedder=FakeEmbedder(), extractor=BatchExtractor())
    fd = os.open(progress, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    b = start
    while True:
        msgs = [{"role": "user", "content": "note bm%05dx%02d with some padding words to index" % (b, i)}
                for i in range(per_batch)]
        mem.remember(msgs, user_id="u%d" % (b % 3), session_id="batch-%d" % b, domain="d%d" % (b % 2))
        os.write(fd, b"%d\\n" % b)
        b += 1
''')


# -- the SIGKILL test --------------------------------------------------------
def _batches(db: Path) -> dict[int, Counter[str]]:
    """batch -> counts of episodes and extracted memories, read with plain sqlite3."""
    out: dict[int, Counter[str]] = {}
    conn = sqlite3.connect(db)
    try:
        for kind, key, data in conn.execute("SELECT kind, key, data FROM gm_memories"):
            found = {m.group(1) for m in BATCH_RE.finditer(data)}
            what = "digest" if key.startswith("episode.digest.") else kind
            for b in found:
                out.setdefault(int(b), Counter())[what] += 1
    finally:
        conn.close()
    return out


def _progress(path: Path) -> list[int]:
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def _kill_mid_ingest(db: Path, progress: Path, start: int, reported_before: int) -> None:
    script = db.parent / "child.py"
    script.write_text(CHILD)
    proc = subprocess.Popen([sys.executable, str(script), str(db), str(progress), str(start), str(PER_BATCH)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while len(_progress(progress)) < reported_before + 8:
            assert proc.poll() is None, f"child died: {proc.stderr.read().decode() if proc.stderr else ''}"
            assert time.monotonic() < deadline, "child made no progress"
            time.sleep(0.01)
        time.sleep(0.013 * (start % 7))  # land at different points of a write
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        assert proc.returncode == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stderr:
            proc.stderr.close()


def test_sigkill_mid_ingest_leaves_whole_batches(tmp_path: Path) -> None:
    db = tmp_path / "gm.db"
    progress = tmp_path / "progress.txt"
    start = 0
    for _round in range(3):
        _kill_mid_ingest(db, progress, start, len(_progress(progress)))
        conn = sqlite3.connect(db)
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        conn.close()
        done = _progress(progress)
        found = _batches(db)
        assert set(done) <= set(found), "a batch reported done is missing"
        whole = found[done[0]]  # raw turns, extracted facts, and the session digest if the library makes one
        assert whole["episode"] == PER_BATCH and whole["fact"] == PER_BATCH
        for b, counts in found.items():
            assert counts == whole, f"batch {b} is partial: {counts} (a whole batch is {whole})"
        # at most the batch in flight was committed without being reported
        assert set(found) - set(done) <= {max(done) + 1}
        start = max(found) + 1
    # the reopened store works, and the storage's own check agrees
    storage = SQLStorage(f"sqlite:///{db}")
    assert storage.integrity_check() == "ok"
    with create_good_memory(storage, embedder=FakeEmbedder(), clock=FrozenClock()) as m:
        m.remember([{"role": "user", "content": "I live in Lisbon."}], user_id="after", session_id="s")
        assert m.recall("Lisbon", user_id="after").hits
        n = len(m.export(user_id="u0").memories)
        assert n == sum(whole.values()) * sum(1 for b in _batches(db) if b % 3 == 0)
        assert all(h.memory.user_id == "u1" for h in m.recall("note padding", user_id="u1").hits)
    storage.close()


def test_second_call_in_the_same_session_keeps_its_turns(tmp_path: Path) -> None:
    with create_good_memory(f"sqlite:///{tmp_path / 'gm.db'}", embedder=FakeEmbedder(),
                            clock=FrozenClock()) as m:
        m.remember([{"role": "user", "content": "first turn alpha"}], user_id="u", session_id="s7")
        m.remember([{"role": "user", "content": "second turn beta"}], user_id="u", session_id="s7")
        texts = {r.text for r in m.list(user_id="u", kinds=["episode"])}
        assert texts == {"user: first turn alpha", "user: second turn beta"}


# -- failure injection -------------------------------------------------------
SCRIPT = {
    f"Fact number {i} is fz{i:03d}q.": [Candidate(kind=MemoryKind.FACT, key=f"fact.n{i}", value=f"fz{i:03d}q",
                                                  text=f"User fact fz{i:03d}q.", confidence=0.9)]
    for i in range(40)
}
SCRIPT["I live in Lisbon."] = [Candidate(kind=MemoryKind.PROFILE, key="profile.home_city", value="Lisbon",
                                         text="User's home city is Lisbon.", confidence=0.9)]
SCRIPT["I moved to Porto."] = [Candidate(kind=MemoryKind.PROFILE, key="profile.home_city", value="Porto",
                                         text="User's home city is Porto.", confidence=0.9)]


def _msgs(*texts: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": t} for t in texts]


def dump(db: Path) -> dict[str, list[Any]]:
    """Every row of every table (FTS shadow tables included), sorted."""
    conn = sqlite3.connect(db)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {n: sorted(map(repr, conn.execute(f'SELECT * FROM "{n}"'))) for n in names}
    finally:
        conn.close()


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock()


@pytest.fixture
def file_mem(tmp_path: Path, clock: FrozenClock) -> Iterator[tuple[GoodMemory, Path]]:
    db = tmp_path / "gm.db"
    m = create_good_memory(f"sqlite:///{db}", embedder=FakeEmbedder(), extractor=ScriptedExtractor(SCRIPT),
                           clock=clock)
    m.remember(_msgs("I live in Lisbon.", "Fact number 0 is fz000q."), user_id="u1", session_id="s0")
    m.remember(_msgs("Fact number 1 is fz001q."), user_id="u2", session_id="s0")
    clock.advance(days=1)
    yield m, db
    m.close()


# the next call supersedes Lisbon (an update), adds facts, episodes, vectors, events, FTS rows
NEXT = _msgs("I moved to Porto.", "Fact number 2 is fz002q.", "Fact number 3 is fz003q.")


def _works_after(m: GoodMemory) -> None:
    res = m.remember(NEXT, user_id="u1", session_id="s1")
    assert res.actions() == {"add": 5, "supersede": 1}
    assert [r.value for r in m.list(user_id="u1", kinds=["profile"])] == ["Porto"]
    assert any("fz003q" in h.memory.text for h in m.recall("fz003q", user_id="u1").hits)


class _RawFailingEmbedder(FakeEmbedder):
    """A third-party embedder failing with its own exception type (a network error, say)."""

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if self.fail_next:
            self.fail_next = False
            raise ConnectionError("embedding service unreachable")
        return super().embed(texts)


@pytest.mark.parametrize("failure", ["embedder", "embedder-shape", "extractor", "extractor-llm"])
def test_embedder_and_extractor_failures_write_nothing(file_mem: tuple[GoodMemory, Path], failure: str) -> None:
    m, db = file_mem
    before = dump(db)
    expected: type[GoodMemoryError]
    if failure == "embedder":
        m.embedder.inner.fail_next = True  # type: ignore[attr-defined]
        expected = EmbeddingError
    elif failure == "embedder-shape":
        m.embedder.inner.embed = lambda texts: np.zeros((len(texts), 3), dtype=np.float32)  # type: ignore[method-assign]
        expected = EmbeddingError
    elif failure == "extractor":
        m.extractor.fail_next = True  # type: ignore[attr-defined]
        expected = ExtractionError
    else:
        def llm_down(messages: Any, ctx: Any) -> list[Candidate]:
            raise LLMError("endpoint http://127.0.0.1:9/v1 failed after 2 retries: connection refused")

        m.extractor.extract = llm_down  # type: ignore[method-assign]
        expected = LLMError
    with pytest.raises(expected):
        m.remember(NEXT, user_id="u1", session_id="s1")
    assert dump(db) == before
    if failure == "embedder-shape":
        del m.embedder.inner.embed  # type: ignore[attr-defined]
    elif failure == "extractor-llm":
        m.extractor.extract = ScriptedExtractor(SCRIPT).extract  # type: ignore[method-assign]
    _works_after(m)


def test_foreign_embedder_exception_is_wrapped(tmp_path: Path) -> None:
    emb = _RawFailingEmbedder()
    with create_good_memory(f"sqlite:///{tmp_path / 'gm.db'}", embedder=emb, extractor=ScriptedExtractor(SCRIPT),
                            clock=FrozenClock()) as m:
        emb.fail_next = True
        with pytest.raises(EmbeddingError):
            m.remember(NEXT, user_id="u1", session_id="s1")
        assert m.export(user_id="u1").memories == []


def _statements_of_one_remember(tmp_path: Path) -> int:
    """How many SQL statements the NEXT remember() runs (on a twin store with the same history)."""
    twin = tmp_path / "twin"
    twin.mkdir()
    clock = FrozenClock()
    m = create_good_memory(f"sqlite:///{twin / 'gm.db'}", embedder=FakeEmbedder(), extractor=ScriptedExtractor(SCRIPT),
                           clock=clock)
    m.remember(_msgs("I live in Lisbon.", "Fact number 0 is fz000q."), user_id="u1", session_id="s0")
    m.remember(_msgs("Fact number 1 is fz001q."), user_id="u2", session_id="s0")
    clock.advance(days=1)
    seen: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    assert isinstance(m.storage, SQLStorage)
    event.listen(m.storage.engine, "before_cursor_execute", count)
    m.remember(NEXT, user_id="u1", session_id="s1")
    m.close()
    first = next(i for i, s in enumerate(seen) if s.startswith("BEGIN"))
    last = max(i for i, s in enumerate(seen) if s.startswith("COMMIT"))
    return last - first


def test_sql_error_at_any_statement_of_the_write_rolls_back(file_mem: tuple[GoodMemory, Path],
                                                             tmp_path: Path) -> None:
    """Inject a real SQL error at statement k of the write transaction, for every k."""
    m, db = file_mem
    storage = m.storage
    assert isinstance(storage, SQLStorage)
    n = _statements_of_one_remember(tmp_path)
    assert n >= 8
    before = dump(db)
    state: dict[str, Any] = {"in_tx": False, "k": 0, "fail_at": -1, "failed": False}

    def inject(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any,
               executemany: bool) -> tuple[str, Any]:
        if statement.startswith("BEGIN"):
            state["in_tx"], state["k"] = True, 0
        elif state["in_tx"] and not statement.startswith(("COMMIT", "ROLLBACK")):
            state["k"] += 1
            if state["k"] == state["fail_at"]:
                state["failed"] = True
                return "INSERT INTO gm_no_such_table_injected VALUES (1)", ()
        if statement.startswith(("COMMIT", "ROLLBACK")):
            state["in_tx"] = False
        return statement, parameters

    event.listen(storage.engine, "before_cursor_execute", inject, retval=True)
    try:
        for k in range(1, n):
            state.update(fail_at=k, failed=False)
            with pytest.raises(StorageError) as info:
                m.remember(NEXT, user_id="u1", session_id="s1")
            assert state["failed"] and "gm_no_such_table_injected" in str(info.value)
            assert dump(db) == before, f"partial write after a failure at statement {k}"
    finally:
        event.remove(storage.engine, "before_cursor_execute", inject)
    _works_after(m)


class FailingWrites:
    """A Storage wrapper whose ``write`` raises (a non-GoodMemory error) after ``ok`` successful calls."""

    def __init__(self, inner: SQLStorage, ok: int) -> None:
        self.inner = inner
        self.ok = ok
        self.capabilities = inner.capabilities

    @property
    def dim(self) -> int | None:
        return self.inner.dim

    def write(self, user_id: str, batch: WriteBatch) -> None:
        if self.ok <= 0:
            raise OSError("injected: disk went away")
        self.ok -= 1
        self.inner.write(user_id, batch)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_storage_wrapper_failure_is_a_storage_error(tmp_path: Path, clock: FrozenClock) -> None:
    db = tmp_path / "gm.db"
    inner = SQLStorage(f"sqlite:///{db}")
    store = FailingWrites(inner, ok=2)
    m = create_good_memory(store, embedder=FakeEmbedder(), extractor=ScriptedExtractor(SCRIPT), clock=clock)  # type: ignore[arg-type]
    m.remember(_msgs("I live in Lisbon.", "Fact number 0 is fz000q."), user_id="u1", session_id="s0")
    m.remember(_msgs("Fact number 1 is fz001q."), user_id="u2", session_id="s0")
    clock.advance(days=1)
    before = dump(db)
    with pytest.raises(StorageError, match="write failed: injected: disk went away"):
        m.remember(NEXT, user_id="u1", session_id="s1")
    assert dump(db) == before
    store.ok = 1
    _works_after(m)
    m.close()
    inner.close()


# -- a database that cannot be opened -----------------------------------------
def _unopenable(tmp_path: Path, case: str) -> str:
    if case == "missing-directory":
        return f"sqlite:///{tmp_path / 'no' / 'such' / 'dir' / 'gm.db'}"
    if case == "parent-is-a-file":
        (tmp_path / "afile").write_text("x")
        return f"sqlite:///{tmp_path / 'afile' / 'gm.db'}"
    if case == "path-is-a-directory":
        (tmp_path / "adir.db").mkdir()
        return f"sqlite:///{tmp_path / 'adir.db'}"
    assert case == "read-only-directory"
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    return f"sqlite:///{ro / 'gm.db'}"


@pytest.mark.parametrize("case", ["missing-directory", "parent-is-a-file", "path-is-a-directory",
                                  "read-only-directory"])
def test_unopenable_database_says_what_to_check(tmp_path: Path, case: str) -> None:
    if case == "read-only-directory" and os.geteuid() == 0:
        pytest.skip("root ignores directory permissions")
    url = _unopenable(tmp_path, case)
    with pytest.raises(StorageUnavailableError) as info:
        create_good_memory(url, embedder=FakeEmbedder())
    msg = str(info.value)
    assert url in msg
    assert "Check that the path exists, is writable" in msg


def test_not_a_database_file_is_unavailable_with_advice(tmp_path: Path) -> None:
    bad = tmp_path / "gm.db"
    bad.write_bytes(b"this is not a database, just some bytes " * 200)
    with pytest.raises(StorageUnavailableError, match="not a database.*[Cc]heck"):
        create_good_memory(f"sqlite:///{bad}", embedder=FakeEmbedder())
