"""SQLite details of ``SQLStorage``: the per-user vector matrix cache, its filter mask, error mapping."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass

import numpy as np
from sqlalchemy import Connection, delete, select, text
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from ..errors import SlotConflictError, StorageError, StorageUnavailableError
from . import _schema as S
from .base import MemoryFilter

__all__ = ["TermCounts", "VecCache", "integrity_error", "map_operational", "mask", "nullcontext", "scrub_file",
           "top_k"]


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


class nullcontext:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def mask(cache: VecCache, flt: MemoryFilter) -> np.ndarray:
    n = len(cache.ids)
    mask = np.ones(n, dtype=bool)
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
