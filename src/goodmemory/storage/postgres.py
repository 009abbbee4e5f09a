"""``PostgresStorage``: SQLAlchemy 2.0 + psycopg 3 adapter for PostgreSQL with pgvector.

- Tables come from ``_schema`` (same columns as SQLite), migrated under an
  advisory lock so processes opening a fresh database at once do not race.
- Full-text: a ``tsvector`` column on ``gm_memories`` (``'simple'`` config, so
  identifiers and numbers match as written) with a GIN index. Bodies and
  queries go through the same tokenizer as the other adapters; a query is its
  distinct terms, each quoted, OR-ed (``'a' | 'b'``), so user text is never
  tsquery syntax. Scores are ``ts_rank_cd`` (higher is better).
- Vectors: a pgvector ``halfvec(dim)`` column (half the index of ``vector`` at
  no recall loss for normalized embeddings) with an HNSW cosine index, added
  at the first vector write, when the dimension is known; the dimension is
  kept in ``gm_meta``. Searches use iterative index scans, so filters
  (user, status, domain) never starve the top-k. Approximate: declared with
  ``exact_vectors=False``.
- Every query carries ``user_id`` in its WHERE clause. ``write``, ``delete``
  and ``mark_recalled`` take a per-user advisory lock first, so writers for one
  user serialize (across threads and processes) while other users proceed;
  a partial unique index keeps one active record per slot.
- A dropped connection is retried once, then ``StorageUnavailableError``
  naming the host and database. ``close()`` disposes the pool.

URL: ``postgresql+psycopg://user:password@host:5432/db`` (``postgresql://`` is
accepted and uses psycopg 3). Pool and schema settings can be given as
keyword arguments or as URL query parameters: ``pool_size``,
``max_overflow``, ``pool_timeout``, ``schema``, ``ef_search``.
"""

from __future__ import annotations

import builtins
import hashlib
import json
from collections.abc import Callable, Sequence
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
    create_engine,
    delete,
    event,
    func,
    insert,
    literal,
    literal_column,
    select,
    table,
    text,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    IntegrityError,
    NoSuchModuleError,
    SQLAlchemyError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.sql.elements import ColumnClause
from sqlalchemy.types import UserDefinedType

from ..errors import (
    ConfigurationError,
    DimensionMismatchError,
    GoodMemoryError,
    InvalidInputError,
    SlotConflictError,
    StorageError,
    StorageUnavailableError,
)
from ..models import MemoryRecord, new_id
from . import _schema as S
from ._common import check_batch, chunks, event_rows, memory_row, tombstone_dicts, where
from ._text import search_body, terms
from .base import (
    DeleteCounts,
    MemoryEvent,
    MemoryFilter,
    StorageCapabilities,
    TextQuery,
    VectorQuery,
    WriteBatch,
)
from .memory import _tombstone, _user_hash

__all__ = ["PostgresStorage"]

T = TypeVar("T")

_VECTORS = table("gm_vectors", column("memory_id"), column("user_id"), column("emb"))
_TSV: ColumnClause[Any] = literal_column("gm_memories.tsv")
_SIMPLE: ColumnClause[Any] = literal_column("'simple'::regconfig")
_HNSW_MAX_DIM = {"halfvec": 4000, "vector": 2000}
# pg_advisory_xact_lock key taken around the one-time DDL of the vector column ("gm-vdim").
_DDL_LOCK = 0x676D2D7664696D00
# SQLSTATEs worth one more try: serialization failure, deadlock (neither expected: writers serialize
# on an advisory lock first, but a retry is cheaper than an error), and a terminated backend.
_TRANSIENT = {"40001", "40P01"}
_DISCONNECT_STATES = {"57P01", "57P02", "57P03"}

_INSERT_MEMORY = text(
    "INSERT INTO gm_memories (id, user_id, agent_id, domain, slot_scope, kind, key, status, transferable, "
    "session_id, created_at, data, tsv) VALUES (:id, :user_id, :agent_id, :domain, :slot_scope, :kind, :key, "
    ":status, :transferable, :session_id, :created_at, :data, to_tsvector('simple', :body))"
)
_UPDATE_MEMORY = text(
    "UPDATE gm_memories SET agent_id = :agent_id, domain = :domain, slot_scope = :slot_scope, kind = :kind, "
    "key = :key, status = :status, transferable = :transferable, session_id = :session_id, "
    "created_at = :created_at, data = :data, tsv = to_tsvector('simple', :body) "
    "WHERE id = :id AND user_id = :user_id"
)


class _PgVec(UserDefinedType[Any]):
    """The pgvector type name, for ``CAST(:q AS halfvec)`` (values are bound as text literals)."""

    cache_ok = True

    def __init__(self, name: str = "halfvec") -> None:
        self.name = name

    def get_col_spec(self, **kw: Any) -> str:
        return self.name


def _vec_literal(arr: np.ndarray) -> str:
    values = arr.tolist()
    return "[" + ",".join(["%.9g"] * len(values)) % tuple(values) + "]"


def _lock_key(*parts: str) -> int:
    digest = hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def tsquery(text_: str, max_terms: int = 32) -> str | None:
    """A ``to_tsquery`` expression: distinct terms, each quoted, OR-ed. None when empty.

    Terms are word characters only (the shared tokenizer), and quoting keeps
    them literal, so ``&``, ``!``, ``:*`` or quotes in user text are inert.
    """
    seen: dict[str, None] = {}
    for t in terms(text_):
        seen.setdefault(t, None)
        if len(seen) >= max_terms:
            break
    if not seen:
        return None
    return " | ".join("'" + t.replace("\\", "\\\\").replace("'", "''") + "'" for t in seen)


class PostgresStorage:
    """PostgreSQL storage with tsvector full-text and pgvector HNSW vector search.

    ``schema`` puts the tables in that PostgreSQL schema (created if missing;
    the pgvector extension stays wherever it is installed, usually ``public``).
    ``vector_type`` is ``"halfvec"`` (default) or ``"vector"``; it only
    matters for a new store, an existing one keeps what it was created with.
    ``ef_search`` is HNSW's candidate list size per query (higher: better
    recall, slower).
    """

    def __init__(
        self,
        url: str,
        *,
        pool_size: int = 5,
        max_overflow: int = 5,
        pool_timeout_s: float = 30,
        pool_recycle_s: int = 1800,
        connect_timeout_s: int = 10,
        schema: str | None = None,
        vector_type: Literal["halfvec", "vector"] = "halfvec",
        ef_search: int = 100,
        hnsw_m: int = 16,
        hnsw_ef_construction: int = 64,
        echo: bool = False,
    ) -> None:
        if not isinstance(url, str) or not url.startswith("postgresql"):
            raise InvalidInputError(f"not a PostgreSQL URL: {url!r}; use postgresql+psycopg://user:pw@host/db")
        try:
            import psycopg  # noqa: F401
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ConfigurationError(
                "PostgreSQL storage needs psycopg 3: pip install goodmemory[postgres]"
            ) from exc
        try:
            parsed = make_url(url)
        except ArgumentError as exc:
            raise InvalidInputError(f"malformed PostgreSQL URL: {exc}") from exc
        if parsed.drivername in ("postgresql", "postgres"):
            parsed = parsed.set(drivername="postgresql+psycopg")
        if parsed.drivername != "postgresql+psycopg":
            raise InvalidInputError(
                f"unsupported PostgreSQL driver {parsed.drivername!r}: use postgresql+psycopg://"
            )
        query = dict(parsed.query)
        opts: dict[str, Any] = {}
        for name in ("pool_size", "max_overflow", "pool_timeout", "schema", "ef_search"):
            if name in query:
                raw = query.pop(name)
                opts[name] = raw[-1] if isinstance(raw, tuple) else raw
        parsed = parsed.set(query=query)
        try:
            pool_size = int(opts.get("pool_size", pool_size))
            max_overflow = int(opts.get("max_overflow", max_overflow))
            pool_timeout_s = float(opts.get("pool_timeout", pool_timeout_s))
            ef_search = int(opts.get("ef_search", ef_search))
        except ValueError as exc:
            raise InvalidInputError(f"bad pool setting in the storage URL: {exc}") from exc
        schema = opts.get("schema", schema)
        if pool_size < 1 or max_overflow < 0 or pool_timeout_s <= 0 or ef_search < 1:
            raise InvalidInputError("pool_size >= 1, max_overflow >= 0, pool_timeout > 0 and ef_search >= 1")
        if schema is not None and (not schema or not schema.replace("_", "").isalnum() or schema[0].isdigit()):
            raise InvalidInputError(f"schema must be a plain identifier (letters, digits, _), got {schema!r}")
        if vector_type not in _HNSW_MAX_DIM:
            raise InvalidInputError(f"vector_type must be 'halfvec' or 'vector', got {vector_type!r}")
        self.url: URL = parsed
        self.schema = schema
        self._where_msg = (
            f"PostgreSQL at {parsed.host or 'localhost'}:{parsed.port or 5432}, database "
            f"{parsed.database!r}, user {parsed.username!r}"
        )
        self._vector_type: str = vector_type
        self._ef_search = ef_search
        self._hnsw = (int(hnsw_m), int(hnsw_ef_construction))
        self._closed = False
        try:
            self.engine: Engine = create_engine(
                parsed,
                pool_size=pool_size,
                max_overflow=max_overflow,
                pool_timeout=pool_timeout_s,
                pool_recycle=pool_recycle_s,
                pool_pre_ping=True,
                connect_args={"connect_timeout": int(connect_timeout_s), "application_name": "goodmemory"},
                echo=echo,
            )
        except (NoSuchModuleError, ImportError) as exc:  # pragma: no cover - depends on the environment
            raise ConfigurationError(
                "PostgreSQL storage needs psycopg 3: pip install goodmemory[postgres]"
            ) from exc
        except SQLAlchemyError as exc:
            raise StorageUnavailableError(f"cannot configure {self._where_msg}: {exc}") from exc

        session_sql = [
            f"SET hnsw.ef_search = {int(ef_search)}",
            "SET hnsw.iterative_scan = strict_order",
            # per-user selectivity differs wildly: plan each search for its own parameters
            "SET plan_cache_mode = force_custom_plan",
        ]
        if schema is not None:
            session_sql.insert(0, f'SET search_path TO "{schema}", public')

        @event.listens_for(self.engine, "connect")
        def _on_connect(dbapi_conn: Any, _record: Any) -> None:
            with dbapi_conn.cursor() as cur:
                for sql in session_sql:
                    cur.execute(sql)
            dbapi_conn.commit()

        self.capabilities = StorageCapabilities(
            full_text=True,
            vector_search=True,
            exact_vectors=False,
            persistent=True,
            secure_delete=False,  # PostgreSQL reclaims dead tuples at VACUUM, not at DELETE
            multi_process=True,
            enforces_unique_active_slot=True,
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
        has_vector = conn.execute(text("SELECT 1 FROM pg_extension WHERE extname = 'vector'")).first()
        if not has_vector:
            conn.exec_driver_sql("SAVEPOINT gm_ext")
            try:
                conn.execute(text("CREATE EXTENSION IF NOT EXISTS vector"))
            except DBAPIError as exc:
                conn.exec_driver_sql("ROLLBACK TO SAVEPOINT gm_ext")
                raise ConfigurationError(
                    f"the pgvector extension is not installed in {self._where_msg} and this user cannot "
                    f"install it ({_orig_msg(exc)}): run CREATE EXTENSION vector; as a superuser "
                    "(scripts/postgres.sh start does it for the bundled server)"
                ) from exc
            conn.exec_driver_sql("RELEASE SAVEPOINT gm_ext")
        S.migrate(conn, "tsvector")
        self._load_meta(conn)

    def _load_meta(self, conn: Connection) -> None:
        rows = {
            r[0]: r[1]
            for r in conn.execute(
                select(S.meta.c.name, S.meta.c.value).where(S.meta.c.name.in_(["dim", "vector_type"]))
            )
        }
        if "dim" in rows:
            self._dim = int(rows["dim"])
            self._vector_type = rows.get("vector_type", "halfvec")

    @property
    def dim(self) -> int | None:
        return self._dim

    def _run(self, fn: Callable[[Connection], T]) -> T:
        """Run ``fn`` in one transaction; retry once on a dropped connection or a transient conflict."""
        if self._closed:
            raise StorageError("storage is closed")
        last: BaseException | None = None
        for attempt in (1, 2):
            try:
                with self.engine.connect() as conn, conn.begin():
                    return fn(conn)
            except GoodMemoryError:
                raise
            except PoolTimeoutError as exc:
                raise StorageUnavailableError(
                    f"no free connection in the pool for {self._where_msg} after waiting: raise pool_size/"
                    f"max_overflow or pool_timeout, or close GoodMemory objects you no longer use ({exc})"
                ) from exc
            except IntegrityError as exc:
                raise _integrity_error(exc) from exc
            except DBAPIError as exc:
                kind = self._classify(exc)
                if kind == "refused":
                    raise StorageUnavailableError(
                        f"cannot open {self._where_msg}: {_orig_msg(exc)}. Check the URL's user, password "
                        "and database name (scripts/postgres.sh start prints a working URL)."
                    ) from exc
                if kind == "other":
                    raise StorageError(f"storage error on {self._where_msg}: {_orig_msg(exc)}") from exc
                last = exc
                if attempt == 2:
                    if kind == "unavailable":
                        raise StorageUnavailableError(
                            f"cannot reach {self._where_msg}: {_orig_msg(exc)}. Check that the server is "
                            "running and reachable, the URL's host, port, user and password, and that "
                            "pg_hba.conf allows this client."
                        ) from exc
                    raise StorageError(
                        f"storage conflict on {self._where_msg} persisted after a retry: {_orig_msg(exc)}"
                    ) from exc
            except SQLAlchemyError as exc:
                raise StorageError(f"storage error on {self._where_msg}: {exc}") from exc
        raise StorageError(f"storage error on {self._where_msg}: {last}")  # pragma: no cover

    @staticmethod
    def _classify(exc: DBAPIError) -> str:
        if exc.connection_invalidated:
            return "unavailable"
        state = getattr(exc.orig, "sqlstate", None)
        if state is not None and (state.startswith("28") or state == "3D000"):
            return "refused"  # bad credentials or no such database: retrying will not help
        if state in _TRANSIENT:
            return "transient"
        if state in _DISCONNECT_STATES or (state or "").startswith("08"):
            return "unavailable"
        try:
            import psycopg
        except ImportError:  # pragma: no cover
            return "other"
        if state is None and isinstance(exc.orig, psycopg.OperationalError):
            return "unavailable"  # client-side: refused, timed out, closed
        return "other"

    def _lock_user(self, conn: Connection, user_id: str) -> None:
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _lock_key(self.schema or "", user_id)})

    @staticmethod
    def _row(r: MemoryRecord) -> dict[str, Any]:
        return {**memory_row(r), "body": " ".join(terms(search_body(r)))}

    def _ensure_vector_column(self, conn: Connection, dim: int) -> None:
        """At the first vector write: add the pgvector column and its HNSW index (once, under a lock)."""
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _DDL_LOCK})
        rows = {
            r[0]: r[1]
            for r in conn.execute(
                select(S.meta.c.name, S.meta.c.value).where(S.meta.c.name.in_(["dim", "vector_type"]))
            )
        }
        if "dim" in rows:
            if int(rows["dim"]) != dim:
                raise DimensionMismatchError(
                    f"store has dimension {rows['dim']}, got {dim}; use the embedder the store was created with"
                )
            self._vector_type = rows.get("vector_type", "halfvec")
            return
        vt = self._vector_type
        conn.execute(text(f"ALTER TABLE gm_vectors ADD COLUMN IF NOT EXISTS emb {vt}({int(dim)})"))
        if dim <= _HNSW_MAX_DIM[vt]:
            m, efc = self._hnsw
            conn.execute(
                text(
                    f"CREATE INDEX IF NOT EXISTS gm_vec_hnsw ON gm_vectors USING hnsw (emb {vt}_cosine_ops) "
                    f"WITH (m = {m}, ef_construction = {efc})"
                )
            )
        conn.execute(insert(S.meta), [{"name": "dim", "value": str(dim)}, {"name": "vector_type", "value": vt}])

    # -- writes ---------------------------------------------------------
    def write(self, user_id: str, batch: WriteBatch) -> None:
        arrays, dim = check_batch(user_id, batch, self._dim)
        vec_rows = [{"m": mid, "u": user_id, "v": _vec_literal(a)} for mid, a in arrays.items()]
        updates = [self._row(r) for r in batch.updates]
        inserts = [self._row(r) for r in batch.inserts]
        events = event_rows(user_id, batch.events)

        def tx(conn: Connection) -> None:
            self._lock_user(conn, user_id)
            if vec_rows and dim is not None:
                self._ensure_vector_column(conn, dim)
            # updates first: a supersede frees the slot the insert takes
            for row in updates:
                if conn.execute(_UPDATE_MEMORY, row).rowcount != 1:
                    raise SlotConflictError(f"update of unknown memory {row['id']}: it changed or was deleted since this write was planned")
            if inserts:
                conn.execute(_INSERT_MEMORY, inserts)
            if vec_rows:
                ids = [v["m"] for v in vec_rows]
                known = {
                    r[0]
                    for r in conn.execute(
                        select(S.memories.c.id).where(S.memories.c.user_id == user_id, S.memories.c.id.in_(ids))
                    )
                }
                missing = [m for m in ids if m not in known]
                if missing:
                    raise StorageError(f"vector for unknown memory {missing[0]}")
                conn.execute(
                    text(
                        f"INSERT INTO gm_vectors (memory_id, user_id, emb) VALUES (:m, :u, CAST(:v AS "
                        f"{self._vector_type})) ON CONFLICT (memory_id) DO UPDATE SET emb = excluded.emb"
                    ),
                    vec_rows,
                )
            if events:
                conn.execute(insert(S.events), events)

        self._run(tx)
        if dim is not None and vec_rows:
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
    def _where(user_id: str, flt: MemoryFilter) -> builtins.list[Any]:
        # substr, not a range: linguistic collations do not order "." and "_" bytewise
        return where(user_id, flt, key_prefix=lambda col, p: [func.substr(col, 1, len(p)) == p])

    def get(self, user_id: str, memory_id: str) -> MemoryRecord | None:
        stmt = select(S.memories.c.data).where(S.memories.c.user_id == user_id, S.memories.c.id == memory_id)
        row = self._run(lambda conn: conn.execute(stmt).first())
        return MemoryRecord.model_validate_json(row[0]) if row else None

    def list(self, user_id: str, flt: MemoryFilter | None = None, *, limit: int | None = None) -> list[MemoryRecord]:
        flt = flt or MemoryFilter(statuses=None)
        stmt = (
            select(S.memories.c.data)
            .where(*self._where(user_id, flt))
            .order_by(S.memories.c.created_at, S.memories.c.id)
        )
        if limit is not None:
            stmt = stmt.limit(int(limit))
        rows = self._run(lambda conn: conn.execute(stmt).all())
        return [MemoryRecord.model_validate_json(r[0]) for r in rows]

    def count(self, user_id: str, flt: MemoryFilter | None = None) -> int:
        flt = flt or MemoryFilter(statuses=None)
        stmt = select(func.count()).select_from(S.memories).where(*self._where(user_id, flt))
        return int(self._run(lambda conn: conn.execute(stmt).scalar_one()))

    def search_text(self, user_id: str, query: TextQuery) -> builtins.list[tuple[str, float]]:
        q = tsquery(query.text)
        if q is None:
            return []
        tsq = func.to_tsquery(_SIMPLE, bindparam("q", q, type_=String))
        score = func.ts_rank_cd(_TSV, tsq).label("s")
        stmt = (
            select(S.memories.c.id, score)
            .where(_TSV.op("@@")(tsq), *self._where(user_id, query.filter))
            .order_by(score.desc(), S.memories.c.id)
            .limit(int(query.limit))
        )
        rows = self._run(lambda conn: conn.execute(stmt).all())
        # ts_rank_cd is 0 for a match without positions; keep every hit strictly positive
        return [(r[0], max(float(r[1]), 1e-9)) for r in rows]

    def search_vector(self, user_id: str, query: VectorQuery) -> builtins.list[tuple[str, float]]:
        vec = np.asarray(query.vector, dtype=np.float32).reshape(-1)
        if self._dim is None:
            self._run(self._load_meta)  # another process may have written the first vectors
        if self._dim is None:
            return []
        if vec.shape[0] != self._dim:
            raise DimensionMismatchError(f"query vector has dimension {vec.shape[0]}, store has {self._dim}")
        if not np.all(np.isfinite(vec)):
            raise InvalidInputError("query vector has NaN or infinite values")
        qv = cast(bindparam("qv", _vec_literal(vec), type_=String), _PgVec(self._vector_type))
        dist = _VECTORS.c.emb.op("<=>", return_type=Float)(qv)
        stmt = (
            select(_VECTORS.c.memory_id, (literal(1.0) - dist).label("s"))
            .select_from(_VECTORS.join(S.memories, S.memories.c.id == _VECTORS.c.memory_id))
            .where(_VECTORS.c.user_id == user_id, *self._where(user_id, query.filter))
            .order_by(dist)
            .limit(int(query.limit))
        )
        rows = self._run(lambda conn: conn.execute(stmt).all())
        return [(r[0], float(r[1])) for r in rows]

    def events(self, user_id: str, memory_id: str) -> builtins.list[MemoryEvent]:
        stmt = (
            select(S.events.c.memory_id, S.events.c.action, S.events.c.at, S.events.c.detail)
            .where(S.events.c.user_id == user_id, S.events.c.memory_id == memory_id)
            .order_by(S.events.c.id)
        )
        rows = self._run(lambda conn: conn.execute(stmt).all())
        return [MemoryEvent(r[0], r[1], datetime.fromisoformat(r[2]), json.loads(r[3])) for r in rows]

    # -- deletes --------------------------------------------------------
    def delete(self, user_id: str, memory_ids: Sequence[str], *, reason: str) -> DeleteCounts:
        ids = list(dict.fromkeys(memory_ids))

        def tx(conn: Connection) -> DeleteCounts:
            counts = DeleteCounts()
            self._lock_user(conn, user_id)
            present: builtins.list[str] = []
            for chunk in chunks(ids, 1000):
                present += [
                    r[0]
                    for r in conn.execute(
                        select(S.memories.c.id).where(S.memories.c.user_id == user_id, S.memories.c.id.in_(chunk))
                    )
                ]
            counts.memory_ids = present
            for chunk in chunks(present, 1000):
                counts.full_text += int(
                    conn.execute(
                        select(func.count())
                        .select_from(S.memories)
                        .where(S.memories.c.user_id == user_id, S.memories.c.id.in_(chunk), _TSV.is_not(None))
                    ).scalar_one()
                )
                counts.vectors += conn.execute(
                    delete(_VECTORS).where(_VECTORS.c.user_id == user_id, _VECTORS.c.memory_id.in_(chunk))
                ).rowcount
                counts.history += conn.execute(
                    delete(S.events).where(S.events.c.user_id == user_id, S.events.c.memory_id.in_(chunk))
                ).rowcount
                counts.rows += conn.execute(
                    delete(S.memories).where(S.memories.c.user_id == user_id, S.memories.c.id.in_(chunk))
                ).rowcount
            counts.tombstone_id = new_id()
            t = _tombstone(counts, user_id, reason)
            conn.execute(
                insert(S.tombstones).values(
                    id=t["id"], user_hash=t["user_hash"], at=t["at"], reason=reason, counts=json.dumps(t["counts"])
                )
            )
            return counts

        return self._run(tx)

    def tombstones(self, user_id: str) -> builtins.list[dict[str, Any]]:
        stmt = (
            select(S.tombstones)
            .where(S.tombstones.c.user_hash == _user_hash(user_id))
            .order_by(S.tombstones.c.at, S.tombstones.c.id)
        )
        rows = self._run(lambda conn: conn.execute(stmt).all())
        return tombstone_dicts(rows)

    def user_ids(self) -> builtins.list[str]:
        stmt = select(S.memories.c.user_id).distinct().order_by(S.memories.c.user_id)
        return [r[0] for r in self._run(lambda conn: conn.execute(stmt).all())]

    def close(self) -> None:
        """Release every pooled connection; later calls raise ``StorageError``."""
        self._closed = True
        self.engine.dispose()


def _orig_msg(exc: DBAPIError) -> str:
    msg = str(exc.orig) if exc.orig is not None else str(exc)
    return " ".join(msg.split()).rstrip(".?")


def _integrity_error(exc: IntegrityError) -> StorageError:
    msg = _orig_msg(exc)
    diag = getattr(exc.orig, "diag", None)
    constraint = getattr(diag, "constraint_name", None) or ""
    if constraint == "gm_one_active_slot" or "gm_one_active_slot" in msg:
        return SlotConflictError(f"write rejected by the database: two active memories for one slot ({msg})")
    return StorageError(f"write rejected by the database: {msg}")
