"""SQLite details of ``SQLStorage``: connection settings, full-text rows by id, the per-user vector matrix
cache and its filter mask, error mapping."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy import Connection, Engine, create_engine, delete, select, text
from sqlalchemy.dialects.sqlite.base import SQLiteCompiler
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.pool import StaticPool
from sqlalchemy.util import LRUCache

from ..errors import SlotConflictError, StorageError, StorageUnavailableError
from . import _schema as S
from .base import MemoryFilter

__all__ = ["INSERT_FTS", "TermCounts", "VecCache", "delete_fts", "integrity_error", "load_matrix", "make_engine", "on_connect", "map_operational", "mask", "nullcontext", "scrub_file",
           "top_k"]


#: a memory's full-text row, at the rowid its id hashes to (schema v7: ``_schema.fts_rowid``)
INSERT_FTS = "INSERT INTO gm_fts(rowid, memory_id, user_id, body) VALUES (?, ?, ?, ?)"


def delete_fts(conn: Connection, user_id: str, memory_ids: list[str]) -> int:
    """Delete the full-text rows of ``memory_ids`` of ``user_id`` by rowid: FTS5 cannot index ``memory_id``, so
    a delete by it read the whole index (24 ms per remember at 10k memories; by rowid 0.1 ms). Returns the count."""
    if not memory_ids:
        return 0
    return int(conn.execute(
        text("DELETE FROM gm_fts WHERE rowid IN (SELECT value FROM json_each(:r)) AND user_id = :u "
             "AND memory_id IN (SELECT value FROM json_each(:ids))"),
        {"r": json.dumps([S.fts_rowid(m) for m in memory_ids]), "u": user_id, "ids": json.dumps(memory_ids)},
    ).rowcount)


@dataclass
class VecCache:
    version: int
    ids: list[str]
    mat: np.ndarray
    status: np.ndarray
    kind: np.ndarray
    domain: np.ndarray
    transferable: np.ndarray
    records_meta: list[tuple[str, str, str, str]]  # (key, session_id, agent_id, domain)


def load_matrix(conn: Connection, user_id: str, user_key: str, dim: int, cached: VecCache | None) -> VecCache:
    """The user's vectors and filter columns; ``cached`` itself while the user's version row (``user_key``: the
    keyed hash every write bumps) is unchanged, so other processes' writes are seen."""
    version = int(conn.execute(
        select(S.user_versions.c.version).where(S.user_versions.c.user_id == user_key)).scalar() or 0)
    if cached is not None and cached.version == version:
        return cached
    m = S.memories.c
    rows = conn.execute(
        select(S.vectors.c.memory_id, S.vectors.c.vec, m.status, m.kind, m.domain, m.transferable, m.key,
               m.session_id, m.agent_id)
        .join(S.memories, m.id == S.vectors.c.memory_id)
        .where(S.vectors.c.user_id == user_id, m.user_id == user_id)
    ).all()
    mat = (np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), dim)
           if rows else np.zeros((0, dim), dtype=np.float32))
    return VecCache(
        version=version,
        ids=[r[0] for r in rows],
        mat=mat,
        # unicode arrays: filters compare them vectorized (object arrays compare element by element)
        status=np.array([r[2] for r in rows], dtype=str),
        kind=np.array([r[3] for r in rows], dtype=str),
        domain=np.array([r[4] for r in rows], dtype=str),
        transferable=np.array([bool(r[5]) for r in rows], dtype=bool),
        records_meta=[(r[6], r[7], r[8], r[4]) for r in rows],
    )


class _SharedCompiled:
    """Compiled SQL shared by the SQLite engines of this process (``compiled_cache`` execution option).

    SQLAlchemy keys its compiled-statement cache by the dialect *instance*, and every engine has its own, so a
    second ``GoodMemory`` on a new file compiled each statement again (~6 for its first context, ~30 for its
    first remember: the largest share of what a new instance per tenant or request paid). Every engine here is
    made by :func:`make_engine` with the same dialect settings, so a statement compiled for one is the same
    SQL, parameter order and type processors for another: the key replaces the instance by what the
    compilation depends on (dialect class, SQLite version, parameter style, datetime handling)."""

    def __init__(self, size: int) -> None:
        self._lru: LRUCache[Any, Any] = LRUCache(size)

    @staticmethod
    def _key(key: tuple[Any, ...]) -> tuple[Any, ...]:
        d = key[0]
        return (type(d), d.statement_compiler, d.server_version_info, d.paramstyle, d.native_datetime, *key[1:])

    def get(self, key: tuple[Any, ...], default: Any = None) -> Any:
        return self._lru.get(self._key(key), default)

    def __setitem__(self, key: tuple[Any, ...], value: Any) -> None:
        self._lru[self._key(key)] = value

    def __len__(self) -> int:
        return len(self._lru)


SHARED_COMPILED = _SharedCompiled(1_000)


class _HintingCompiler(SQLiteCompiler):
    """SQLite's statement compiler, rendering FROM hints (``with_hint(table, "INDEXED BY <index>", "sqlite")``),
    which the stock one drops: a list whose best index SQLite cannot see without statistics names it."""

    def get_from_hint_text(self, table: Any, text: str | None) -> str | None:
        return text


def make_engine(url: str, *, memory: bool, busy_timeout_ms: int, echo: bool) -> Engine:
    options = {"compiled_cache": SHARED_COMPILED}
    if memory:
        engine = create_engine("sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False},
                               echo=echo, execution_options=options)
    else:
        engine = create_engine(url, connect_args={"timeout": busy_timeout_ms / 1000, "check_same_thread": False},
                               echo=echo, execution_options=options)
    engine.dialect.statement_compiler = _HintingCompiler
    return engine


def on_connect(busy_timeout_ms: int, wal: bool) -> Callable[[Any, Any], None]:
    """The engine's ``connect`` listener: our own BEGIN/COMMIT, busy timeout, WAL, overwrite on delete."""
    def configure(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN/COMMIT ourselves
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        if wal:
            cur.execute("PRAGMA journal_mode = WAL")
            cur.execute("PRAGMA synchronous = NORMAL")
        cur.execute("PRAGMA secure_delete = ON")
        cur.execute("PRAGMA foreign_keys = ON")
        cur.close()

    return configure


class nullcontext:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def mask(cache: VecCache, flt: MemoryFilter, tagged: set[str] | None = None) -> np.ndarray:
    """The rows ``flt`` keeps; ``tagged``: the user's ids carrying one of ``flt.tags`` (from the tag index)."""
    n = len(cache.ids)
    mask = np.ones(n, dtype=bool)
    if flt.tags is not None:
        mask &= np.fromiter((i in (tagged or ()) for i in cache.ids), dtype=bool, count=n)
    if flt.statuses is not None:
        mask &= _one_of(cache.status, [s.value for s in flt.statuses])
    if flt.kinds is not None:
        mask &= _one_of(cache.kind, [k.value for k in flt.kinds])
    if flt.exclude_kinds is not None:
        mask &= ~_one_of(cache.kind, [k.value for k in flt.exclude_kinds])
    if flt.visible_in_domain is not None:
        mask &= (cache.domain == "") | (cache.domain == flt.visible_in_domain) | cache.transferable
    if flt.domain is not None:
        mask &= cache.domain == flt.domain
    if flt.memory_ids is not None:
        mask &= np.isin(np.array(cache.ids, dtype=object), list(flt.memory_ids))
    if flt.keys is not None or flt.key_prefix is not None or flt.session_id is not None or flt.agent_id is not None:
        extra = np.array(
            [
                (flt.keys is None or key in flt.keys)
                and (flt.key_prefix is None or key.startswith(flt.key_prefix))
                and (flt.session_id is None or sess == flt.session_id)
                and (flt.agent_id is None or agent == flt.agent_id)
                for key, sess, agent, _dom in cache.records_meta
            ],
            dtype=bool,
        )
        mask &= extra
    return mask


class TermCounts:
    """How many full-text rows contain a term (FTS5 walks one doclist), cached for ``ttl_s``.

    Counts are over every user's rows, which is what an FTS5 OR query visits before the user filter.
    """

    def __init__(self, ttl_s: float = 300.0, max_entries: int = 20_000) -> None:
        self.ttl_s = ttl_s
        self.max_entries = max_entries
        self._cache: dict[str, tuple[float, int]] = {}

    def get(self, conn: Connection, term: str) -> int:
        now = time.monotonic()
        hit = self._cache.get(term)
        if hit is not None and now - hit[0] < self.ttl_s:
            return hit[1]
        n = int(conn.execute(text("SELECT count(*) FROM gm_fts WHERE gm_fts MATCH :q"),
                             {"q": '"' + term.replace('"', '""') + '"'}).scalar_one())
        if len(self._cache) >= self.max_entries:
            self._cache.clear()
        self._cache[term] = (now, n)
        return n

    def clear(self) -> None:
        self._cache.clear()


def _one_of(column: np.ndarray, values: list[str]) -> np.ndarray:
    """``column`` (a unicode array) equals one of a few ``values``: vectorized compares, no sort."""
    out = np.zeros(column.shape[0], dtype=bool)
    for v in values:
        out |= column == v
    return out


def top_k(mat: np.ndarray, vec: np.ndarray, keep: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows of the best ``k`` cosine scores among the kept rows, best first (ties: lower row first),
    and their scores. One matrix-vector product over all rows: cheaper than copying the kept rows."""
    idx = np.nonzero(keep)[0]
    if idx.size == 0 or k <= 0:
        return idx[:0], np.zeros(0, dtype=np.float32)
    # few rows kept: copy them; else score every row, which copies nothing
    sims = mat[idx] @ vec if idx.size * 4 < keep.shape[0] else (mat @ vec)[idx]
    k = min(k, idx.size)
    top = np.argpartition(-sims, k - 1)[:k] if k < idx.size else np.arange(idx.size)
    top = top[np.lexsort((top, -sims[top]))]
    return idx[top], sims[top]


def integrity_error(exc: IntegrityError) -> StorageError:
    msg = str(exc.orig) if exc.orig else str(exc)
    if "gm_one_active_slot" in msg or "UNIQUE" in msg.upper():
        return SlotConflictError(f"write rejected by the database: two active memories for one slot ({msg})")
    return StorageError(f"write rejected by the database: {msg}")


def map_operational(exc: OperationalError | DBAPIError, url: str) -> StorageError:
    msg = str(exc.orig) if exc.orig else str(exc)
    if "not a database" in msg or "malformed" in msg:
        return StorageUnavailableError(
            f"{url} is not a usable SQLite database ({msg}). Check the path: it must be a GoodMemory database "
            "or a new file; restore the file from a backup if it was damaged."
        )
    if "unable to open" in msg or "disk I/O" in msg or "readonly" in msg or "locked" in msg:
        return StorageUnavailableError(
            f"cannot use the database at {url}: {msg}. Check that the path exists, is writable, "
            "and that no other program holds a lock on it."
        )
    return StorageError(f"storage error: {msg}")


def scrub_file(conn: Callable[[], AbstractContextManager[Connection]],
               tx: Callable[[], AbstractContextManager[Connection]], *, vacuum: bool) -> bool:
    """VACUUM, then checkpoint the WAL with TRUNCATE, so deleted text leaves the .db, -wal and -shm files.

    secure_delete zeroes freed cells, but a page rebalance can leave an older copy of a row in a
    page's unallocated area; only VACUUM rewrites those pages (its cost grows with the file:
    ``vacuum=False`` where a scheduled VACUUM is preferred). Returns whether it completed: a reader
    holding a snapshot makes the checkpoint answer "busy" (a result row, not an error) and the deleted
    bytes may still be in the WAL, so a ``scrub_pending`` flag in ``gm_meta`` makes the next delete,
    close or opener of the file retry.
    """
    try:
        with conn() as c:
            if vacuum:
                c.exec_driver_sql("VACUUM")
            row = c.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").first()
        done = row is not None and int(row[0]) == 0
    except StorageError:  # busy or locked
        done = False
    try:
        if not done:
            with tx() as c:
                c.execute(text("INSERT INTO gm_meta(name, value) VALUES('scrub_pending', '1') "
                               "ON CONFLICT(name) DO NOTHING"))
        else:
            with conn() as c:
                flagged = c.execute(select(S.meta.c.value).where(S.meta.c.name == "scrub_pending")).first()
            if flagged is not None:
                with tx() as c:
                    c.execute(delete(S.meta).where(S.meta.c.name == "scrub_pending"))
                with conn() as c:  # clearing the flag wrote to the WAL again
                    c.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    except StorageError:
        pass
    return done
