"""``PostgresStorage``: SQLAlchemy 2.0 + psycopg 3 adapter for PostgreSQL with pgvector.

- Tables come from ``_schema`` (same columns as SQLite), migrated under an
  advisory lock so processes opening a fresh database at once do not race.
- Full-text: a ``tsvector`` column on ``gm_memories`` (``'simple'`` config, so
  identifiers and numbers match as written) with a GIN index. Bodies and
  queries go through the same tokenizer as the other adapters, then the
  English Snowball stemmer (``text.stem``; SQLite's FTS5 stems with its
  porter tokenizer), so "schedule" finds "scheduled"; a query is its
  distinct terms, each quoted, OR-ed (``'a' | 'b'``), so user text is never
  tsquery syntax. With planner statistics a score is the sum over the terms
  of ``idf * ts_rank`` (BM25's weighting: rare terms count more; without statistics, ``ts_rank_cd``);
  higher is better. With planner statistics, only the rarest terms whose estimated matches fit
  ``text_rank_budget_rows`` are scored (``_text.choose_terms``): the GIN
  index finds rows but cannot rank them, so a common term would make a search
  score a large part of the table.
- Vectors: a pgvector ``halfvec(dim)`` column (half the index of ``vector`` at
  no recall loss for normalized embeddings) in ``gm_vectors``, which is
  hash-partitioned by user with one HNSW cosine index per partition
  (``_pg_vectors``); the column and indexes are added at the first vector
  write, when the dimension is known, which is kept in ``gm_meta``. A search
  reads one partition's graph, with iterative index scans (``relaxed_order``)
  so filters (user, status, domain) never starve the top-k. Approximate:
  declared with ``exact_vectors=False``.
- Bulk loads (``write_bulk``, declared with ``bulk_load=True``) stream rows
  with ``COPY`` and rebuild the loaded partition's index after a large load.
- Every query carries ``user_id`` in its WHERE clause. ``write``, ``delete``
  and ``mark_recalled`` take a per-user advisory lock first, so writers for one
  user serialize (across threads and processes) while other users proceed;
  a partial unique index keeps one active record per slot.
- Reads are single statements in autocommit (no BEGIN/COMMIT round trips).
  A dropped connection is retried once, then ``StorageUnavailableError``
  naming the host and database. ``close()`` disposes the pool.

URL: ``postgresql+psycopg://user:password@host:5432/db`` (``postgresql://`` is
accepted and uses psycopg 3). Pool and schema settings can be given as
keyword arguments (``GoodMemoryConfig.storage`` passes them) or as URL query
parameters, which win: ``pool_size``, ``max_overflow``, ``pool_timeout``,
``schema``, ``ef_search``.
"""

from __future__ import annotations

import builtins
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any, Literal, TypeVar

import numpy as np
from sqlalchemy import (
    Connection,
    Engine,
    Float,
    String,
    bindparam,
    cast,
    column,
    delete,
    func,
    insert,
    literal,
    literal_column,
    select,
    table,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import URL
from sqlalchemy.sql.elements import ColumnClause

from ..errors import (
    ConfigurationError,
    DimensionMismatchError,
    InvalidInputError,
    SlotConflictError,
    StorageError,
)
from ..models import MemoryKind, MemoryRecord
from ..text import index_terms, stemmed_query_terms
from . import _schema as S
from ._common import (
    StatementCache,
    check_batch,
    check_bulk_batch,
    check_new_turns,
    delete_rows,
    event_rows,
    load_user_hasher,
    memory_row,
    new_turn_keys,
    read_record,
    split_lists,
    tombstone_dicts,
    where,
)
from ._pg_engine import PgOptions, ensure_pgvector, make_engine, parse_url, run, where_msg
from ._pg_sql import (
    INSERT_MEMORY,
    MEMORY_COLUMNS,
    TERM_STATS_SQL,
    UPDATE_MEMORY,
    PgVec,
    TermStats,
    lock_key,
    text_score,
    tsquery_of,
    vec_literal,
)
from ._pg_vectors import HNSW_MAX_DIM, BulkPlan, IndexSettings, bulk_load, ensure_hnsw, ensure_vector_column
from ._tags import write_tags
from ._text import choose_terms, search_body
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

__all__ = ["PostgresStorage"]

T = TypeVar("T")

_VECTORS = table("gm_vectors", column("memory_id"), column("user_id"), column("emb"))
_TSV: ColumnClause[Any] = literal_column("gm_memories.tsv")
_SIMPLE: ColumnClause[Any] = literal_column("'simple'::regconfig")
_TERM_STATS_TTL_S = 300.0


class PostgresStorage:
    """PostgreSQL storage with tsvector full-text and pgvector HNSW vector search.

    ``schema`` puts the tables in that PostgreSQL schema (created if missing;
    the pgvector extension stays wherever it is installed, usually ``public``).
    ``vector_type`` is ``"halfvec"`` (default) or ``"vector"``; it only
    matters for a new store, an existing one keeps what it was created with.
    ``ef_search`` is HNSW's candidate list size per query (higher: better
    recall, slower); ``iterative_scan`` is pgvector's mode for filtered
    searches (``relaxed_order`` measured fastest at equal recall; results are
    re-sorted here). ``bulk_reindex_min_rows``, ``bulk_reindex_fraction`` and
    ``index_build_memory_mb`` steer ``write_bulk`` (see ``_pg_vectors``).
    ``application_name`` tags the connections in ``pg_stat_activity``.
    ``text_rank_budget_rows`` bounds how many rows a full-text search scores:
    query terms are kept rarest first while their estimated matches fit
    (``_text.choose_terms``; common terms cost the most and rank the least).
    """

    def __init__(
        self,
        url: str,
        *,
        pool_size: int = 5,
        max_overflow: int = 5,
        pool_timeout_s: float = 30,
        pool_recycle_s: int = 1800,
        pool_pre_ping: bool = False,
        connect_timeout_s: int = 10,
        schema: str | None = None,
        vector_type: Literal["halfvec", "vector"] = "halfvec",
        ef_search: int = 100,
        iterative_scan: Literal["relaxed_order", "strict_order", "off"] = "relaxed_order",
        hnsw_m: int = 16,
        hnsw_ef_construction: int = 32,
        bulk_reindex_min_rows: int = 10_000,
        bulk_reindex_fraction: float = 0.2,
        index_build_memory_mb: int = 1024,
        application_name: str = "goodmemory",
        text_rank_budget_rows: int = 2000,
        echo: bool = False,
    ) -> None:
        try:
            import psycopg  # noqa: F401
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ConfigurationError(
                "PostgreSQL storage needs psycopg 3: pip install goodmemory[postgres]"
            ) from exc
        parsed, opts = parse_url(url, PgOptions(
            pool_size=pool_size, max_overflow=max_overflow, pool_timeout_s=pool_timeout_s,
            pool_recycle_s=pool_recycle_s, pool_pre_ping=pool_pre_ping, connect_timeout_s=connect_timeout_s,
            schema=schema,
            ef_search=ef_search, iterative_scan=iterative_scan, application_name=application_name, echo=echo))
        if vector_type not in HNSW_MAX_DIM:
            raise InvalidInputError(f"vector_type must be 'halfvec' or 'vector', got {vector_type!r}")
        self.url: URL = parsed
        self.options = opts
        self.schema = opts.schema
        self._where_msg = where_msg(parsed)
        self._vector_type: str = vector_type
        self._index = IndexSettings(
            vector_type=vector_type, m=hnsw_m, ef_construction=hnsw_ef_construction,
            reindex_min_rows=bulk_reindex_min_rows, reindex_fraction=bulk_reindex_fraction,
            build_memory_mb=index_build_memory_mb).check()
        self.last_bulk: BulkPlan | None = None  # what the last write_bulk did (partition, index rebuilt)
        self._text_budget = int(text_rank_budget_rows)
        if self._text_budget < 1:
            raise InvalidInputError("text_rank_budget_rows must be >= 1")
        self._stats: TermStats | None = None
        self._statements = StatementCache()
        self._stats_at: float | None = None
        self._closed = False
        self.engine: Engine = make_engine(parsed, opts)
        self.capabilities = StorageCapabilities(
            list_many=True,
            full_text=True,
            vector_search=True,
            exact_vectors=False,
            persistent=True,
            secure_delete=False,  # PostgreSQL reclaims dead tuples at VACUUM, not at DELETE
            multi_process=True,
            enforces_unique_active_slot=True,
            bulk_load=True,
        )
        self._dim: int | None = None
        try:
            self._run(self._setup)
        except BaseException:
            self.engine.dispose()
            raise

    # -- plumbing -------------------------------------------------------
    def _setup(self, conn: Connection) -> None:
        # processes opening a fresh database at once: one creates schema, extension and tables
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": S._PG_MIGRATION_LOCK})
        if self.schema is not None:
            conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"'))
        ensure_pgvector(conn, self._where_msg)
        S.migrate(conn, "tsvector")
        self._user_hash = load_user_hasher(conn)
        self._load_meta(conn)
        if self._dim is not None:
            # after the partitioning migration (or if one was dropped by hand): every partition indexed
            ensure_hnsw(conn, self._dim, self._index)

    def _load_meta(self, conn: Connection) -> None:
        rows = dict(conn.execute(select(S.meta.c.name, S.meta.c.value).where(S.meta.c.name.in_(["dim", "vector_type"]))).all())
        if "dim" in rows:
            self._dim = int(rows["dim"])
            self._set_vector_type(rows.get("vector_type", "halfvec"))

    def _set_vector_type(self, vt: str) -> None:
        self._vector_type = vt
        if self._index.vector_type != vt:
            self._index = replace(self._index, vector_type=vt)

    @property
    def dim(self) -> int | None:
        return self._dim

    def _run(self, fn: Callable[[Connection], T], *, read: bool = False) -> T:
        """``fn`` in one transaction (``read``: one statement in autocommit), retried once on a dropped
        connection or a transient conflict; errors mapped to ``StorageError`` subclasses."""
        if self._closed:
            raise StorageError("storage is closed")
        return run(self.engine, fn, where=self._where_msg, read=read)

    def _lock_user(self, conn: Connection, user_id: str) -> None:
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": lock_key(self.schema or "", user_id)})

    @staticmethod
    def _row(r: MemoryRecord) -> dict[str, Any]:
        return {**memory_row(r), "body": " ".join(index_terms(search_body(r)))}

    def _ensure_vector_column(self, conn: Connection, dim: int) -> None:
        self._set_vector_type(ensure_vector_column(conn, dim, self._index))

    # -- writes ---------------------------------------------------------
    def write(self, user_id: str, batch: WriteBatch) -> None:
        arrays, dim = check_batch(user_id, batch, self._dim)
        vec_rows = [{"m": mid, "u": user_id, "v": vec_literal(a)} for mid, a in arrays.items()]
        updates = [self._row(r) for r in batch.updates]
        inserts = [self._row(r) for r in batch.inserts]
        events = event_rows(user_id, batch.events)

        def tx(conn: Connection) -> None:
            self._lock_user(conn, user_id)
            if vec_rows and dim is not None and self._dim is None:
                # once per store: the dimension never changes after (check_batch compares against it)
                self._ensure_vector_column(conn, dim)
            # updates first: a supersede frees the slot the insert takes
            for row in updates:
                if conn.execute(UPDATE_MEMORY, row).rowcount != 1:
                    raise SlotConflictError(f"update of unknown memory {row['id']}: it changed or was deleted since this write was planned")
            turn_keys = new_turn_keys(batch)
            if turn_keys:
                check_new_turns([r[0] for r in conn.execute(select(S.memories.c.key).where(
                    S.memories.c.user_id == user_id, S.memories.c.key.in_(turn_keys),
                    S.memories.c.kind == MemoryKind.EPISODE.value))])
            if inserts:
                conn.execute(INSERT_MEMORY, inserts)
            if vec_rows:
                ids = [v["m"] for v in vec_rows]
                known = {r[0] for r in conn.execute(
                    select(S.memories.c.id).where(S.memories.c.user_id == user_id, S.memories.c.id.in_(ids)))}
                missing = [m for m in ids if m not in known]
                if missing:
                    raise StorageError(f"vector for unknown memory {missing[0]}")
                conn.execute(
                    text(
                        f"INSERT INTO gm_vectors (memory_id, user_id, emb) VALUES (:m, :u, CAST(:v AS "
                        f"{self._vector_type})) ON CONFLICT (user_id, memory_id) DO UPDATE SET emb = excluded.emb"
                    ),
                    vec_rows,
                )
            if batch.reset_history:
                conn.execute(delete(S.events).where(S.events.c.user_id == user_id,
                                                    S.events.c.memory_id.in_(batch.reset_history)))
            if events:
                conn.execute(insert(S.events), events)
            write_tags(conn, user_id, batch)

        self._run(tx)
        if dim is not None and vec_rows:
            self._dim = dim

    def write_bulk(self, user_id: str, batch: WriteBatch) -> None:
        """Many new records in one transaction, through ``COPY`` (see ``_pg_vectors``).

        Same result as ``write`` with the same batch; for a load that is large against its
        partition, the partition's HNSW index is rebuilt after the rows are in, and that
        partition's searches wait for the commit.
        """
        arrays, dim = check_bulk_batch(user_id, batch, self._dim)
        if not batch:
            return
        memories = [tuple(row[c] for c in MEMORY_COLUMNS) + (row["body"],)
                    for row in (self._row(r) for r in batch.inserts)]
        vectors = (list(arrays), np.stack(list(arrays.values()))) if arrays else None
        events = [(e["user_id"], e["memory_id"], e["action"], e["at"], e["detail"])
                  for e in event_rows(user_id, batch.events)]

        def tx(conn: Connection) -> BulkPlan:
            self._lock_user(conn, user_id)
            if vectors is not None and dim is not None and self._dim is None:
                self._ensure_vector_column(conn, dim)
            write_tags(conn, user_id, batch)
            return bulk_load(conn, user_id, memories, vectors, events, self._index,
                             dim=dim if vectors is not None else self._dim)

        self.last_bulk = self._run(tx)
        if self.last_bulk.rows >= self._index.reindex_min_rows:
            self._stats_at = None  # the load ran ANALYZE: fresh term statistics
        if dim is not None and vectors is not None:
            self._dim = dim

    def mark_recalled(self, user_id: str, memory_ids: Sequence[str], at: datetime) -> None:
        if not memory_ids:
            return
        ids = list(dict.fromkeys(memory_ids))

        def tx(conn: Connection) -> None:
            self._lock_user(conn, user_id)
            rows = conn.execute(
                select(S.memories.c.id, S.memories.c.data).where(
                    S.memories.c.user_id == user_id, S.memories.c.id.in_(ids)
                )
            ).all()
            changed = []
            for mid, data in rows:
                rec = MemoryRecord.model_validate_json(data)
                rec.recall_count += 1
                rec.last_recalled_at = at
                changed.append({"i": mid, "d": rec.model_dump_json(), "u": user_id})
            if changed:
                conn.execute(text("UPDATE gm_memories SET data = :d WHERE id = :i AND user_id = :u"), changed)

        self._run(tx)

    # -- reads ----------------------------------------------------------
    @staticmethod
    def _where(user_id: Any, flt: MemoryFilter) -> builtins.list[Any]:
        # substr, not a range: linguistic collations do not order "." and "_" bytewise
        return where(user_id, flt, key_prefix=lambda col, p: [func.substr(col, 1, len(p)) == p])

    def get(self, user_id: str, memory_id: str) -> MemoryRecord | None:
        stmt = select(S.memories.c.data).where(S.memories.c.user_id == user_id, S.memories.c.id == memory_id)
        row = self._run(lambda conn: conn.execute(stmt).first(), read=True)
        return read_record(row[0]) if row else None

    def _list_select(self, user_id: Any, flt: MemoryFilter, limit: int | None) -> Any:
        c = S.memories.c
        order: builtins.list[Any] = [c.created_at.desc(), c.id.desc()] if flt.newest_first else [c.created_at, c.id]
        if flt.most_important_first:
            doc = cast(c.data, JSONB)
            order = [cast(doc["importance"].astext, Float).desc(), cast(doc["confidence"].astext, Float).desc(), c.id]
        stmt = select(c.data, c.created_at, c.id).where(*self._where(user_id, flt)).order_by(*order)
        return stmt.limit(int(limit)) if limit is not None else stmt

    def list(self, user_id: str, flt: MemoryFilter | None = None, *, limit: int | None = None) -> list[MemoryRecord]:
        stmt = self._list_select(user_id, flt or MemoryFilter(statuses=None), limit)
        rows = self._run(lambda conn: conn.execute(stmt).all(), read=True)
        return [read_record(r[0]) for r in rows]

    def list_many(self, user_id: str, requests: Sequence[ListRequest]) -> builtins.list[builtins.list[MemoryRecord]]:
        stmt, params = self._statements.list_union(user_id, requests, self._list_select)
        return split_lists(self._run(lambda conn: conn.execute(stmt, params).all(), read=True), requests)

    def count(self, user_id: str, flt: MemoryFilter | None = None) -> int:
        flt = flt or MemoryFilter(statuses=None)
        stmt = select(func.count()).select_from(S.memories).where(*self._where(user_id, flt))
        return int(self._run(lambda conn: conn.execute(stmt).scalar_one(), read=True))

    def _term_stats(self) -> TermStats | None:
        """Lexeme frequencies from ANALYZE, refreshed every few minutes (autovacuum keeps them current)."""
        now = time.monotonic()
        if self._stats_at is None or now - self._stats_at > _TERM_STATS_TTL_S:
            self._stats = TermStats.from_row(self._run(lambda conn: conn.execute(TERM_STATS_SQL).first(), read=True))
            self._stats_at = now
        return self._stats

    def search_text(self, user_id: str, query: TextQuery) -> builtins.list[tuple[str, float]]:
        words = stemmed_query_terms(query.text)
        stats = self._term_stats() if len(words) > 1 else None
        if stats is not None:
            words = choose_terms(words, stats.estimate, self._text_budget)
        q = tsquery_of(words)
        if q is None:
            return []
        tsq = func.to_tsquery(_SIMPLE, bindparam("q", q, type_=String))
        score = text_score(_TSV, _SIMPLE, tsq, words, stats).label("s")
        stmt = (
            select(S.memories.c.id, score)
            .where(_TSV.op("@@")(tsq), *self._where(user_id, query.filter))
            .order_by(score.desc(), S.memories.c.id)
            .limit(int(query.limit))
        )
        rows = self._run(lambda conn: conn.execute(stmt).all(), read=True)
        # ts_rank_cd is 0 for a match without positions; keep every hit strictly positive
        return [(r[0], max(float(r[1]), 1e-9)) for r in rows]

    def search_vector(self, user_id: str, query: VectorQuery) -> builtins.list[tuple[str, float]]:
        vec = np.asarray(query.vector, dtype=np.float32).reshape(-1)
        if self._dim is None:
            self._run(self._load_meta, read=True)  # another process may have written the first vectors
        if self._dim is None:
            return []
        if vec.shape[0] != self._dim:
            raise DimensionMismatchError(f"query vector has dimension {vec.shape[0]}, store has {self._dim}")
        if not np.all(np.isfinite(vec)):
            raise InvalidInputError("query vector has NaN or infinite values")
        qv = cast(bindparam("qv", vec_literal(vec), type_=String), PgVec(self._vector_type))
        dist = _VECTORS.c.emb.op("<=>", return_type=Float)(qv)
        stmt = (
            select(_VECTORS.c.memory_id, (literal(1.0) - dist).label("s"))
            .select_from(_VECTORS.join(S.memories, S.memories.c.id == _VECTORS.c.memory_id))
            .where(_VECTORS.c.user_id == user_id, *self._where(user_id, query.filter))
            .order_by(dist)
            .limit(int(query.limit))
        )
        rows = self._run(lambda conn: conn.execute(stmt).all(), read=True)
        # relaxed_order iterative scans may return the top-k slightly out of order
        return sorted(((r[0], float(r[1])) for r in rows), key=lambda h: (-h[1], h[0]))

    def events(self, user_id: str, memory_id: str) -> builtins.list[MemoryEvent]:
        stmt = (
            select(S.events.c.memory_id, S.events.c.action, S.events.c.at, S.events.c.detail)
            .where(S.events.c.user_id == user_id, S.events.c.memory_id == memory_id)
            .order_by(S.events.c.id)
        )
        rows = self._run(lambda conn: conn.execute(stmt).all(), read=True)
        return [MemoryEvent(r[0], r[1], datetime.fromisoformat(r[2]), json.loads(r[3])) for r in rows]

    # -- deletes --------------------------------------------------------
    def delete(self, user_id: str, memory_ids: Sequence[str], *, reason: str,
               at: datetime | None = None) -> DeleteCounts:
        def indexed(conn: Connection, ids: builtins.list[str]) -> int:
            # the tsvector lives on the row: it goes with it, counted first
            return int(conn.execute(select(func.count()).select_from(S.memories).where(
                S.memories.c.user_id == user_id, S.memories.c.id.in_(ids), _TSV.is_not(None))).scalar_one())

        def tx(conn: Connection) -> DeleteCounts:
            self._lock_user(conn, user_id)
            return delete_rows(conn, user_id, memory_ids, user_hash=self._user_hash(user_id), reason=reason,
                               vectors=_VECTORS, full_text=indexed, chunk=1000, at=at)

        return self._run(tx)

    def tombstones(self, user_id: str) -> builtins.list[dict[str, Any]]:
        stmt = (
            select(S.tombstones)
            .where(S.tombstones.c.user_hash == self._user_hash(user_id))
            .order_by(S.tombstones.c.at, S.tombstones.c.id)
        )
        rows = self._run(lambda conn: conn.execute(stmt).all(), read=True)
        return tombstone_dicts(rows)

    def user_ids(self) -> builtins.list[str]:
        stmt = select(S.memories.c.user_id).distinct().order_by(S.memories.c.user_id)
        return [r[0] for r in self._run(lambda conn: conn.execute(stmt).all(), read=True)]

    def close(self) -> None:
        """Release every pooled connection; later calls raise ``StorageError``."""
        self._closed = True
        self.engine.dispose()

