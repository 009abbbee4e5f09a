"""``SQLStorage``: SQLAlchemy 2.0 adapter (SQLite with FTS5 and exact vector search).

- One transaction per ``write`` (``BEGIN IMMEDIATE`` on SQLite, so concurrent
  writers queue on the busy timeout instead of deadlocking on lock upgrade).
- WAL journal, ``secure_delete`` and FTS5 ``secure-delete``, so forgotten
  text is overwritten on disk.
- Vectors are float32 blobs; search is an exact cosine top-k in numpy over a per-user matrix cached
  in-process and invalidated by a per-user version row that every write bumps (so other processes' writes are seen).
"""

from __future__ import annotations

import builtins
import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from typing import Any

import numpy as np
from sqlalchemy import (
    Connection,
    Engine,
    Integer,
    bindparam,
    column,
    delete,
    event,
    func,
    insert,
    literal_column,
    select,
    table,
    text,
    update,
)
from sqlalchemy.exc import DatabaseError, IntegrityError, OperationalError, SQLAlchemyError

from ..errors import (
    DimensionMismatchError,
    GoodMemoryError,
    InvalidInputError,
    SlotConflictError,
    StorageError,
    StorageUnavailableError,
)
from ..models import MemoryKind, MemoryRecord
from ..text import query_terms
from . import _schema as S
from ._common import (
    USER_PARAM,
    StatementCache,
    cacheable,
    check_batch,
    check_bulk_batch,
    check_new_turns,
    delete_rows,
    event_rows,
    forget_parsed,
    list_union,
    load_user_hasher,
    memory_row,
    new_turn_keys,
    read_record,
    split_lists,
    tombstone_dicts,
    user_param,
    where,
)
from ._sqlite import (
    INSERT_FTS,
    TermCounts,
    VecCache,
    delete_fts,
    integrity_error,
    load_matrix,
    make_engine,
    map_operational,
    mask,
    nullcontext,
    on_connect,
    scrub_file,
    top_k,
)
from ._sqlite_lists import bound_params, list_select, shape
from ._tags import tagged_ids, write_tags
from ._text import choose_terms, fts5_match, search_body
from ._url import redact_url
from .base import (
    DeleteCounts,
    ListRequest,
    MemoryEvent,
    MemoryFilter,
    StorageCapabilities,
    TextQuery,
    VectorQuery,
    WriteBatch,
)

__all__ = ["SQLStorage"]

_FTS = table("gm_fts", column("memory_id"), column("user_id"), column("body"))


#: one statement for every updated row of a write (executemany); the SET columns come from memory_row's keys
_UPDATE_BY_ID = update(S.memories).where(S.memories.c.id == bindparam("b_id"),
                                         S.memories.c.user_id == bindparam("b_user"))


class SQLStorage:
    """SQL storage. ``url`` is a SQLAlchemy URL: ``sqlite://`` (in memory) or ``sqlite:///path.db``."""

    def __init__(self, url: str, *, busy_timeout_ms: int = 30_000, echo: bool = False,
                 vacuum_on_delete: bool = True, text_rank_budget_rows: int = 2000) -> None:
        self.vacuum_on_delete = vacuum_on_delete
        if text_rank_budget_rows < 1:
            raise InvalidInputError("text_rank_budget_rows must be >= 1")
        self.text_rank_budget_rows = text_rank_budget_rows
        self._term_counts = TermCounts()
        self._statements = StatementCache()
        if not url.startswith("sqlite"):
            raise InvalidInputError(
                f"unsupported storage URL {redact_url(url)!r}: use sqlite:///path.db or sqlite:// (PostgreSQL needs the "
                "postgres extra)"
            )
        self.url = url
        self._memory_db = url in ("sqlite://", "sqlite:///:memory:", "sqlite:///")
        self._lock = threading.RLock()  # one shared connection for in-memory databases
        try:
            self.engine: Engine = make_engine(url, memory=self._memory_db, busy_timeout_ms=busy_timeout_ms, echo=echo)
        except SQLAlchemyError as exc:
            raise StorageUnavailableError(f"cannot open {url}: {exc}") from exc
        wal = not self._memory_db

        event.listen(self.engine, "connect", on_connect(busy_timeout_ms, wal))

        self.capabilities = StorageCapabilities(
            list_many=True,
            full_text=True,
            vector_search=True,
            exact_vectors=True,
            persistent=not self._memory_db,
            secure_delete=True,
            multi_process=not self._memory_db,
            enforces_unique_active_slot=True,
            bulk_load=True,
        )
        self._vec_cache: dict[str, VecCache] = {}
        self._dim: int | None = None
        self._scrub_pending = False
        try:
            with self._tx() as conn:
                S.migrate(conn, "fts5")
                self._fts_secure_delete = S.enable_fts_secure_delete(conn)
                self._user_hash = load_user_hasher(conn)
                row = conn.execute(select(S.meta.c.value).where(S.meta.c.name == "dim")).first()
                self._dim = int(row[0]) if row else None
                pending = conn.execute(select(S.meta.c.value).where(S.meta.c.name == "scrub_pending")).first()
        except GoodMemoryError:
            self.engine.dispose()
            raise
        if pending is not None and not self._memory_db:
            self._checkpoint()  # a forget of an earlier run could not overwrite the bytes on disk

    # -- plumbing -------------------------------------------------------
    @property
    def dim(self) -> int | None:
        return self._dim

    @contextmanager
    def _conn(self) -> Iterator[Connection]:
        with self._lock if self._memory_db else nullcontext():
            try:
                with self.engine.connect() as conn:
                    yield conn
            except GoodMemoryError:
                raise
            except IntegrityError as exc:  # a subclass of DatabaseError: a constraint is a conflict, not an outage
                raise integrity_error(exc) from exc
            except (OperationalError, DatabaseError) as exc:
                raise map_operational(exc, self.url) from exc
            except SQLAlchemyError as exc:
                raise StorageError(f"storage error: {exc}") from exc

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        """A write transaction: all or nothing."""
        with self._conn() as conn:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.exec_driver_sql("ROLLBACK")
                raise
            else:
                conn.exec_driver_sql("COMMIT")

    def _bump(self, conn: Connection, user_id: str) -> None:
        # keyed by a hash: forgetting a user must not leave the plain id behind
        conn.execute(text("INSERT INTO gm_user_versions(user_id, version) VALUES(:u, 1) "
                          "ON CONFLICT(user_id) DO UPDATE SET version = gm_user_versions.version + 1"),
                     {"u": self._user_hash(user_id)})

    # -- writes ---------------------------------------------------------
    def write(self, user_id: str, batch: WriteBatch) -> None:
        arrays, dim = check_batch(user_id, batch, self._dim)
        vecs = [{"memory_id": mid, "user_id": user_id, "vec": a.tobytes()} for mid, a in arrays.items()]
        try:
            with self._tx() as conn:
                if dim is not None and self._dim is None:
                    self._store_dim(conn, dim)
                # updates first: a supersede frees the slot the insert takes. One executemany each for the
                # rows and their full-text entries (a remember call updates ~8 records: 16 round trips before)
                if batch.updates:
                    res = conn.execute(_UPDATE_BY_ID, [{**memory_row(r), "b_id": r.id, "b_user": user_id}
                                                       for r in batch.updates])
                    if res.rowcount != len(batch.updates):
                        found = {row[0] for row in conn.execute(select(S.memories.c.id).where(
                            S.memories.c.user_id == user_id, S.memories.c.id.in_([r.id for r in batch.updates])))}
                        gone = next((r.id for r in batch.updates if r.id not in found), batch.updates[0].id)
                        raise SlotConflictError(f"update of unknown memory {gone}: it changed or was deleted since this write was planned")
                    delete_fts(conn, user_id, [r.id for r in batch.updates])
                turn_keys = new_turn_keys(batch)
                if turn_keys:
                    # "+kind": by (user, key), not by walking every turn of the user (17 ms -> 0.07 ms at 10k)
                    check_new_turns([r[0] for r in conn.execute(select(S.memories.c.key).where(
                        S.memories.c.user_id == user_id, S.memories.c.key.in_(turn_keys),
                        literal_column("+gm_memories.kind") == MemoryKind.EPISODE.value))])
                if batch.inserts:
                    conn.execute(insert(S.memories), [memory_row(r) for r in batch.inserts])
                # one row per memory: a batch may update a record twice (its last state is the one kept)
                latest = {r.id: r for r in [*batch.updates, *batch.inserts]}
                fts_rows = [(S.fts_rowid(r.id), r.id, user_id, search_body(r)) for r in latest.values()]
                if fts_rows:
                    conn.exec_driver_sql(INSERT_FTS, fts_rows)
                if vecs:
                    # rows inserted above are known, and a new id has no old vector: only the others are checked
                    new_ids = {r.id for r in batch.inserts}
                    others = [v["memory_id"] for v in vecs if v["memory_id"] not in new_ids]
                    if others:
                        known = {row[0] for row in conn.execute(select(S.memories.c.id).where(
                            S.memories.c.user_id == user_id, S.memories.c.id.in_(others)))}
                        missing = [m for m in others if m not in known]
                        if missing:
                            raise StorageError(f"vector for unknown memory {missing[0]}")
                        conn.execute(delete(S.vectors).where(S.vectors.c.memory_id.in_(others)))
                    conn.execute(insert(S.vectors), vecs)
                if batch.reset_history:
                    conn.execute(delete(S.events).where(S.events.c.user_id == user_id,
                                                        S.events.c.memory_id.in_(batch.reset_history)))
                if batch.events:
                    conn.execute(insert(S.events), event_rows(user_id, batch.events))
                write_tags(conn, user_id, batch)
                self._bump(conn, user_id)
        except IntegrityError as exc:
            raise integrity_error(exc) from exc
        self._dim = dim
        self._vec_cache.pop(user_id, None)

    def write_bulk(self, user_id: str, batch: WriteBatch) -> None:
        """Many new records in one transaction: one ``executemany`` per table.

        Skips what ``write`` does per call that the database checks anyway (ids, slots) and the
        lookups that new records cannot need (known ids, old vectors and full-text entries).
        """
        arrays, dim = check_bulk_batch(user_id, batch, self._dim)
        if not batch:
            return
        mem_cols = ("id", "user_id", "agent_id", "domain", "slot_scope", "kind", "key", "status", "transferable",
                    "session_id", "created_at", "data")
        rows = [tuple(memory_row(r)[c] for c in mem_cols) for r in batch.inserts]
        fts = [(S.fts_rowid(r.id), r.id, user_id, search_body(r)) for r in batch.inserts]
        vecs = [(mid, user_id, a.tobytes()) for mid, a in arrays.items()]
        events = [(e["user_id"], e["memory_id"], e["action"], e["at"], e["detail"])
                  for e in event_rows(user_id, batch.events)]
        try:
            with self._tx() as conn:
                if dim is not None and self._dim is None:
                    self._store_dim(conn, dim)
                if rows:
                    conn.exec_driver_sql(
                        f"INSERT INTO gm_memories ({', '.join(mem_cols)}) VALUES ({', '.join('?' * len(mem_cols))})",
                        rows)
                    conn.exec_driver_sql(INSERT_FTS, fts)
                if vecs:
                    conn.exec_driver_sql("INSERT INTO gm_vectors(memory_id, user_id, vec) VALUES (?, ?, ?)", vecs)
                if events:
                    conn.exec_driver_sql(
                        "INSERT INTO gm_events(user_id, memory_id, action, at, detail) VALUES (?, ?, ?, ?, ?)", events)
                write_tags(conn, user_id, batch)
                self._bump(conn, user_id)
        except IntegrityError as exc:
            raise integrity_error(exc) from exc
        self._dim = dim
        self._vec_cache.pop(user_id, None)

    def _store_dim(self, conn: Connection, dim: int) -> None:
        stored = conn.execute(select(S.meta.c.value).where(S.meta.c.name == "dim")).first()
        if stored is None:
            conn.execute(insert(S.meta).values(name="dim", value=str(dim)))
        elif int(stored[0]) != dim:
            raise DimensionMismatchError(f"store has dimension {stored[0]}, got {dim}")

    def mark_recalled(self, user_id: str, memory_ids: Sequence[str], at: datetime) -> None:
        if not memory_ids:
            return
        with self._tx() as conn:
            rows = conn.execute(
                select(S.memories.c.id, S.memories.c.data).where(
                    S.memories.c.user_id == user_id, S.memories.c.id.in_(list(memory_ids))
                )
            ).all()
            for mid, data in rows:
                rec = MemoryRecord.model_validate_json(data)
                rec.recall_count += 1
                rec.last_recalled_at = at
                conn.execute(
                    update(S.memories)
                    .where(S.memories.c.id == mid, S.memories.c.user_id == user_id)
                    .values(data=rec.model_dump_json())
                )

    # -- reads ----------------------------------------------------------
    def get(self, user_id: str, memory_id: str) -> MemoryRecord | None:
        # one statement: building it cost ~3x running it (remember follows ~20 supersede links a call by id)
        stmt = self._statements.get(("get",), lambda: select(S.memories.c.data).where(
            S.memories.c.user_id == user_param(), S.memories.c.id == bindparam("gm_id")))
        with self._conn() as conn:
            row = conn.execute(stmt, {USER_PARAM: user_id, "gm_id": memory_id}).first()
        return read_record(row[0]) if row else None

    def _list_select(self, user_id: Any, flt: MemoryFilter, limit: int | None, *, ids_param: bool = False,
                     keys_param: bool = False) -> Any:
        return list_select(user_id, flt, limit, ids_param=ids_param, keys_param=keys_param)

    def list(self, user_id: str, flt: MemoryFilter | None = None, *, limit: int | None = None) -> list[MemoryRecord]:
        flt = flt or MemoryFilter(statuses=None)
        params: dict[str, Any] = {USER_PARAM: user_id}
        if flt.memory_ids is not None and flt.keys is None:
            # the read path fetches its ~100 candidates by id on every query: one statement per filter shape
            stmt = self._statements.get(("ids", replace(flt, memory_ids=()), limit),
                                        lambda: self._list_select(user_param(), flt, limit, ids_param=True))
            params["gm_ids"] = json.dumps(list(flt.memory_ids))
        elif flt.keys is not None and flt.memory_ids is None:
            # remember looks turns and slots up by key several times a call: building the statement cost ~4x
            # running it (0.6 ms vs 0.17 ms for three turns at 10k memories), so one statement per filter shape
            stmt = self._statements.get(("keys", replace(flt, keys=()), limit),
                                        lambda: self._list_select(user_param(), flt, limit, keys_param=True))
            params["gm_keys"] = list(flt.keys)
        elif cacheable(flt):
            stmt = self._statements.get(("list", flt, limit), lambda: self._list_select(user_param(), flt, limit))
        else:
            stmt, params = self._list_select(user_id, flt, limit), {}
        with self._conn() as conn:
            rows = conn.execute(stmt, params).all()
        return [read_record(r[0]) for r in rows]

    def list_many(self, user_id: str, requests: Sequence[ListRequest]) -> builtins.list[builtins.list[MemoryRecord]]:
        if any(f.memory_ids is not None for f, _ in requests):
            stmt, params = self._statements.list_union(user_id, requests, self._list_select)
        else:
            # remember reads a call's slots as one union of lists by key and by key prefix: building it cost ~2x
            # running it, so keys and prefixes are bound and one statement serves every call of the same shape
            stmt = self._statements.get(("bound", tuple((shape(f), n) for f, n in requests)), lambda: list_union(
                requests, lambda f, n, i: list_select(user_param(), f, n, bind_suffix=f"_{i}")))
            params = {USER_PARAM: user_id}
            for i, (f, _) in enumerate(requests):
                params.update(bound_params(f, f"_{i}"))
        with self._conn() as conn:
            rows = conn.execute(stmt, params).all()
        return split_lists(rows, requests)

    def count(self, user_id: str, flt: MemoryFilter | None = None) -> int:
        flt = flt or MemoryFilter(statuses=None)
        with self._conn() as conn:
            return int(conn.execute(select(func.count()).where(*where(user_id, flt))).scalar_one())

    def search_text(self, user_id: str, query: TextQuery) -> builtins.list[tuple[str, float]]:
        words = query_terms(query.text)
        if len(words) > 1:
            # score the rarest terms only: bm25 visits every row matching any term, of every user
            with self._conn() as conn:
                words = choose_terms(words, lambda w: self._term_counts.get(conn, w), self.text_rank_budget_rows)
        match = fts5_match(words)
        if match is None:
            return []
        flt = query.filter
        params = {"gm_match": match, "gm_limit": int(query.limit)}
        if cacheable(flt):
            # built once per filter (about as long as SQLite takes to answer it); user, words, limit bound
            stmt = self._statements.get(("text", flt), lambda: self._text_select(user_param(), flt))
            params[USER_PARAM] = user_id
        else:
            stmt = self._text_select(user_id, flt)
        with self._conn() as conn:
            rows = conn.execute(stmt, params).all()
        return [(r[0], -float(r[1])) for r in rows]

    @staticmethod
    def _text_select(user: Any, flt: MemoryFilter) -> Any:
        """BM25-ranked full-text hits of ``user`` within ``flt``; binds ``gm_match`` and ``gm_limit``."""
        return (
            select(_FTS.c.memory_id, func.bm25(literal_column("gm_fts")).label("s"))
            .select_from(_FTS.join(S.memories, S.memories.c.id == _FTS.c.memory_id))
            .where(text("gm_fts MATCH :gm_match"), _FTS.c.user_id == user, *where(user, flt))
            .order_by(literal_column("s"))
            .limit(bindparam("gm_limit", type_=Integer))
        )

    def _matrix(self, conn: Connection, user_id: str, dim: int) -> VecCache:
        cache = load_matrix(conn, user_id, self._user_hash(user_id), dim, self._vec_cache.get(user_id))
        self._vec_cache[user_id] = cache
        return cache

    def search_vector(self, user_id: str, query: VectorQuery) -> builtins.list[tuple[str, float]]:
        vec = np.asarray(query.vector, dtype=np.float32).reshape(-1)
        with self._conn() as conn:
            if self._dim is None:  # another instance or process may have written the first vectors
                row = conn.execute(select(S.meta.c.value).where(S.meta.c.name == "dim")).first()
                self._dim = int(row[0]) if row else None
            if self._dim is None:
                return []
            if vec.shape[0] != self._dim:
                raise DimensionMismatchError(f"query vector has dimension {vec.shape[0]}, store has {self._dim}")
            cache = self._matrix(conn, user_id, self._dim)
            tagged = tagged_ids(conn, user_id, query.filter.tags) if query.filter.tags is not None else None
        if not cache.ids:
            return []
        rows, sims = top_k(cache.mat, vec, mask(cache, query.filter, tagged), int(query.limit))
        return [(cache.ids[i], float(sc)) for i, sc in zip(rows.tolist(), sims.tolist(), strict=True)]

    def events(self, user_id: str, memory_id: str) -> builtins.list[MemoryEvent]:
        with self._conn() as conn:
            rows = conn.execute(
                select(S.events.c.memory_id, S.events.c.action, S.events.c.at, S.events.c.detail)
                .where(S.events.c.user_id == user_id, S.events.c.memory_id == memory_id)
                .order_by(S.events.c.id)
            ).all()
        return [MemoryEvent(r[0], r[1], datetime.fromisoformat(r[2]), json.loads(r[3])) for r in rows]

    def delete(self, user_id: str, memory_ids: Sequence[str], *, reason: str, at: datetime | None = None
               ) -> DeleteCounts:
        with self._tx() as conn:
            counts = delete_rows(conn, user_id, memory_ids, user_hash=self._user_hash(user_id), reason=reason,
                                 vectors=S.vectors, full_text=lambda c, ids: delete_fts(c, user_id, ids), at=at)
            if not self._fts_secure_delete and counts.memory_ids:
                # Without FTS5 secure-delete, merging the index drops deleted terms from its pages.
                conn.execute(text("INSERT INTO gm_fts(gm_fts) VALUES('optimize')"))
            self._bump(conn, user_id)
        forget_parsed()  # again after commit: a read that ran during the delete may have kept an old row
        self._vec_cache.pop(user_id, None)
        if not self._memory_db:
            counts.pending_scrub = not self._checkpoint()
        return counts

    def _checkpoint(self) -> bool:
        """Rewrite the file and truncate the WAL, so deleted text leaves every byte on disk (see
        ``_sqlite.scrub_file``); False when a reader kept it from completing (retried later)."""
        done = scrub_file(self._conn, self._tx, vacuum=self.vacuum_on_delete)
        self._scrub_pending = not done
        return done

    def tombstones(self, user_id: str) -> builtins.list[dict[str, Any]]:
        with self._conn() as conn:
            rows = conn.execute(
                select(S.tombstones).where(S.tombstones.c.user_hash == self._user_hash(user_id)).order_by(S.tombstones.c.at)
            ).all()
        return tombstone_dicts(rows)

    def user_ids(self) -> builtins.list[str]:
        with self._conn() as conn:
            return [r[0] for r in conn.execute(select(S.memories.c.user_id).distinct().order_by(S.memories.c.user_id))]

    def integrity_check(self) -> str:
        with self._conn() as conn:
            return str(conn.exec_driver_sql("PRAGMA integrity_check").scalar())

    def close(self) -> None:
        self._vec_cache.clear()
        if not self._memory_db:
            if self._scrub_pending:
                self._checkpoint()
            try:  # keep the planner's statistics fresh for the next opener
                with self._conn() as conn:
                    conn.exec_driver_sql("PRAGMA optimize")
            except StorageError:
                pass
        self.engine.dispose()
