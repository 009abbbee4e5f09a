"""Tables and versioned migrations of the SQL adapters (SQLite and PostgreSQL).

The schema version lives in ``gm_meta``. Opening an older database applies the
missing steps in one transaction; opening a newer one raises
``SchemaVersionError``. Each step is plain SQL per dialect capability, so a
new step is a new entry at the end of ``MIGRATIONS``.

The ``fts`` argument names the full-text flavour and so the dialect:
``"fts5"`` (SQLite: an FTS5 side table) or ``"tsvector"`` (PostgreSQL: a
``tsv`` column with a GIN index on ``gm_memories``; the pgvector column of
``gm_vectors`` is added by the adapter at the first vector write, once the
dimension is known). On PostgreSQL, migrations run under a transaction-level
advisory lock, so processes opening a fresh database at once do not race.

History:
1. initial schema.
2. indexes for ordered listing per user and tombstone lookup by user hash.
3. PostgreSQL: ``gm_vectors`` hash-partitioned by ``user_id`` (``VECTOR_PARTITIONS``
   partitions, primary key ``(user_id, memory_id)``), each partition with its
   own HNSW index (created by the adapter). A user's vector search reads one
   partition's graph, and a bulk load rebuilds only the index of the partition
   it fills. SQLite: nothing to do.
4. index on memories by (user, kind, status, created_at): the per-kind lists of
   every ``build_context`` (profile, open loops, style).
5. PostgreSQL: the full-text index holds word stems.
6. index on memories by (user, session_id): every ``remember`` with a session lists the
   session's stored turns (turn ids continue across calls).
7. SQLite: each full-text row's rowid is ``fts_rowid(memory_id)``. FTS5 cannot index the
   ``memory_id`` column, so deleting a memory's entry by id read the whole index (24 ms per
   ``remember`` at 10k memories); by rowid it reads that row. Existing rows are renumbered.
8. partial index on memories that are not raw turns, by (user, status, created_at, id): every
   ``remember`` reads the user's 500 newest (the slots the extractor sees); through the
   (user, created_at) index that walked the turns in between (24 ms -> 4 ms at 10k on SQLite).
9. ``gm_memory_tags``: one row per (user, tag, memory), the index tag filters are answered from inside
   the text, vector and list queries; by (user, memory) for deletes. Records written before v9 have no
   tags (the field did not exist), so nothing is backfilled.
10. typed metadata: each record's shared metadata keys are rewritten into the canonical form of
   ``_meta.MemoryMeta`` (a moment as aware ISO 8601, a naive one read as UTC). Keys it does not type are left as
   they are; a typed value it cannot read (``expires_at: "soon"``) is left as stored, read as absent, and named in
   a warning of the ``goodmemory.storage`` logger. No column: no query selects by a metadata key (``maintain()``
   reads every active record of a user anyway), and a column nothing reads would be one more thing to keep equal.
11. index on memories by (user, kind, domain, status, created_at, id): every ``remember`` that replaces a value
   lists a domain's newest turns to find restatements of it; through (user, kind, status, created_at) that walked
   every turn of the user's other domains in between (SQLite names it, as it has no statistics).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Float,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    event,
    text,
)

from ..errors import SchemaVersionError

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "VECTOR_PARTITIONS", "events", "fts_rowid", "memories", "memory_tags", "metadata", "migrate", "tombstones",
           "vector_partitions", "vectors"]

metadata = MetaData()

memories = Table(
    "gm_memories",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("user_id", String(255), nullable=False),
    Column("agent_id", String(255), nullable=False, default=""),
    Column("domain", String(255), nullable=False, default=""),
    Column("slot_scope", String(255), nullable=False, default=""),
    Column("kind", String(32), nullable=False),
    Column("key", String(512), nullable=False),
    Column("status", String(16), nullable=False),
    Column("transferable", Boolean, nullable=False),
    Column("session_id", String(255), nullable=False, default=""),
    Column("created_at", String(40), nullable=False),
    Column("data", Text, nullable=False),
)

vectors = Table(
    "gm_vectors",
    metadata,
    Column("memory_id", String(64), primary_key=True),
    Column("user_id", String(255), nullable=False),
    Column("vec", LargeBinary, nullable=False),
)

events = Table(
    "gm_events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", String(255), nullable=False),
    Column("memory_id", String(64), nullable=False),
    Column("action", String(32), nullable=False),
    Column("at", String(40), nullable=False),
    Column("detail", Text, nullable=False),
)

tombstones = Table(
    "gm_tombstones",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("user_hash", String(64), nullable=False),
    Column("at", String(40), nullable=False),
    Column("reason", String(64), nullable=False),
    Column("counts", Text, nullable=False),
)

user_versions = Table(
    "gm_user_versions",
    metadata,
    Column("user_id", String(255), primary_key=True),
    Column("version", Integer, nullable=False),
)

memory_tags = Table(
    "gm_memory_tags",
    metadata,
    Column("user_id", String(255), primary_key=True),
    Column("tag", String(64), primary_key=True),
    Column("memory_id", String(64), primary_key=True),
)

meta = Table(
    "gm_meta",
    metadata,
    Column("name", String(64), primary_key=True),
    Column("value", String(255), nullable=False),
)

_ = Float  # reserved for later numeric columns


def _v1(conn: Connection, fts: str) -> None:
    if fts == "tsvector":
        # PostgreSQL keeps vectors in a pgvector column added at the first write (its type needs the dim).
        metadata.create_all(conn, tables=[t for t in metadata.sorted_tables if t not in (vectors, memory_tags)])
        conn.execute(
            text(
                "CREATE TABLE IF NOT EXISTS gm_vectors (memory_id VARCHAR(64) PRIMARY KEY, "
                "user_id VARCHAR(255) NOT NULL)"
            )
        )
        conn.execute(text("ALTER TABLE gm_memories ADD COLUMN IF NOT EXISTS tsv tsvector"))
        conn.execute(text("CREATE INDEX IF NOT EXISTS gm_mem_tsv ON gm_memories USING gin (tsv)"))
    else:  # later tables come with their own step, so a database built to an old version is that version
        metadata.create_all(conn, tables=[t for t in metadata.sorted_tables if t is not memory_tags])
    conn.execute(text("CREATE INDEX IF NOT EXISTS gm_mem_user_status ON gm_memories (user_id, status, kind)"))
    conn.execute(text("CREATE INDEX IF NOT EXISTS gm_mem_user_key ON gm_memories (user_id, key)"))
    conn.execute(text("CREATE INDEX IF NOT EXISTS gm_vec_user ON gm_vectors (user_id)"))
    conn.execute(text("CREATE INDEX IF NOT EXISTS gm_events_mem ON gm_events (user_id, memory_id)"))
    # At most one active record per slot, enforced by the database itself.
    conn.execute(
        text(
            "CREATE UNIQUE INDEX IF NOT EXISTS gm_one_active_slot ON gm_memories "
            "(user_id, agent_id, slot_scope, key) WHERE status = 'active' AND kind <> 'episode'"
        )
    )
    if fts == "fts5":
        conn.execute(
            text(
                "CREATE VIRTUAL TABLE IF NOT EXISTS gm_fts USING fts5("
                "memory_id UNINDEXED, user_id UNINDEXED, body, tokenize='porter unicode61 remove_diacritics 2')"
            )
        )
        enable_fts_secure_delete(conn)


def enable_fts_secure_delete(conn: Connection) -> bool:
    """Ask FTS5 to overwrite deleted entries (SQLite >= 3.44). False when unsupported:
    the adapter then merges the index after deletes instead."""
    conn.exec_driver_sql("SAVEPOINT gm_fts_sd")
    try:
        conn.execute(text("INSERT INTO gm_fts(gm_fts, rank) VALUES('secure-delete', 1)"))
    except Exception:
        conn.exec_driver_sql("ROLLBACK TO gm_fts_sd")
        conn.exec_driver_sql("RELEASE gm_fts_sd")
        return False
    conn.exec_driver_sql("RELEASE gm_fts_sd")
    return True


def _v2(conn: Connection, fts: str) -> None:
    # list() orders a user's records by (created_at, id); tombstones() looks up by user hash.
    conn.execute(text("CREATE INDEX IF NOT EXISTS gm_mem_user_created ON gm_memories (user_id, created_at, id)"))
    conn.execute(text("CREATE INDEX IF NOT EXISTS gm_tomb_user ON gm_tombstones (user_hash, at)"))


# Hash partitions of gm_vectors on PostgreSQL (fixed when the table is created). k heavy users share
# about k(k-1)/2/P partitions pairwise: with 32, ten users mostly get a graph of their own, while a
# fresh store stays a few dozen small tables (each partition's HNSW index is built empty).
VECTOR_PARTITIONS = 32


def vector_partitions(conn: Connection) -> list[str]:
    """Names of the partitions of ``gm_vectors`` (PostgreSQL, schema v3+), in remainder order."""
    rows = conn.execute(text(
        "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
        "WHERE i.inhparent = to_regclass('gm_vectors') ORDER BY c.relname")).all()
    return [r[0] for r in rows]


def _v3(conn: Connection, fts: str) -> None:
    if fts != "tsvector":
        return
    emb = conn.execute(text(
        "SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a WHERE a.attrelid = to_regclass('gm_vectors') "
        "AND a.attname = 'emb' AND NOT a.attisdropped")).scalar()
    conn.execute(text("ALTER TABLE gm_vectors RENAME TO gm_vectors_v2"))
    conn.execute(text("ALTER INDEX IF EXISTS gm_vectors_pkey RENAME TO gm_vectors_v2_pkey"))
    conn.execute(text("DROP INDEX IF EXISTS gm_vec_user"))
    conn.execute(text("DROP INDEX IF EXISTS gm_vec_hnsw"))
    emb_col = f", emb {emb}" if emb else ""
    conn.execute(text(
        f"CREATE TABLE gm_vectors (memory_id VARCHAR(64) NOT NULL, user_id VARCHAR(255) NOT NULL{emb_col}, "
        "CONSTRAINT gm_vectors_pkey PRIMARY KEY (user_id, memory_id)) PARTITION BY HASH (user_id)"))
    for i in range(VECTOR_PARTITIONS):
        conn.execute(text(
            f"CREATE TABLE gm_vectors_p{i:02d} PARTITION OF gm_vectors "
            f"FOR VALUES WITH (MODULUS {VECTOR_PARTITIONS}, REMAINDER {i})"))
    cols = "memory_id, user_id" + (", emb" if emb else "")
    conn.execute(text(f"INSERT INTO gm_vectors ({cols}) SELECT {cols} FROM gm_vectors_v2"))
    conn.execute(text("DROP TABLE gm_vectors_v2"))


def _v4(conn: Connection, fts: str) -> None:
    # build_context lists a user's profile, open loops and style preferences on every call: by kind,
    # not by scanning every active row of the user (8x faster at 10k memories, measured on SQLite)
    conn.execute(text("CREATE INDEX IF NOT EXISTS gm_mem_user_kind ON gm_memories (user_id, kind, status, created_at)"))


def _v5(conn: Connection, fts: str) -> None:
    # PostgreSQL indexes stems (text.stem), like SQLite's porter tokenizer: reindex what v4 wrote
    if fts != "tsvector":
        return
    from ..models import MemoryRecord
    from ..text import index_terms
    from ._text import search_body

    last = ""
    while True:
        rows = conn.execute(text("SELECT id, data FROM gm_memories WHERE id > :last ORDER BY id LIMIT 1000"),
                            {"last": last}).all()
        if not rows:
            return
        conn.execute(text("UPDATE gm_memories SET tsv = to_tsvector('simple', :body) WHERE id = :id"),
                     [{"id": r[0], "body": " ".join(index_terms(search_body(MemoryRecord.model_validate_json(r[1]))))}
                      for r in rows])
        last = rows[-1][0]


def _v6(conn: Connection, fts: str) -> None:
    # remember lists the session's stored turns to continue their ids: by (user, kind) that read every turn of
    # the user to check its session (17 ms at 10k memories on SQLite), by session a few rows
    conn.execute(text("CREATE INDEX IF NOT EXISTS gm_mem_user_session ON gm_memories (user_id, session_id)"))


def fts_rowid(memory_id: str) -> int:
    """The rowid of a memory's full-text row (SQLite, v7+): a 63-bit hash of its id, so it is found without a
    lookup table (a VACUUM may renumber implicit rowids, never explicit ones). Two ids of one hash would make
    the second insert fail as a conflict, never share a row: at 10 million memories the odds are ~5e-6."""
    return int.from_bytes(hashlib.blake2b(memory_id.encode("utf-8", "surrogatepass"), digest_size=8).digest(),
                          "big") >> 1


def _v7(conn: Connection, fts: str) -> None:
    if fts != "fts5":
        return
    last = -(2**63)
    while True:
        rows = conn.execute(text("SELECT rowid, memory_id, user_id, body FROM gm_fts WHERE rowid > :last "
                                 "ORDER BY rowid LIMIT 1000"), {"last": last}).all()
        if not rows:
            return
        last = rows[-1][0]
        moved = [r for r in rows if r[0] != fts_rowid(r[1])]  # renumbered rows come round again, in place
        if moved:
            conn.execute(text("DELETE FROM gm_fts WHERE rowid = :r"), [{"r": r[0]} for r in moved])
            conn.execute(text("INSERT INTO gm_fts(rowid, memory_id, user_id, body) VALUES (:r, :m, :u, :b)"),
                         [{"r": fts_rowid(r[1]), "m": r[1], "u": r[2], "b": r[3]} for r in moved])


def _v8(conn: Connection, fts: str) -> None:
    conn.execute(text("CREATE INDEX IF NOT EXISTS gm_mem_user_recent ON gm_memories (user_id, status, created_at, id) "
                      "WHERE kind <> 'episode'"))


def _v9(conn: Connection, fts: str) -> None:
    memory_tags.create(conn, checkfirst=True)
    conn.execute(text("CREATE INDEX IF NOT EXISTS gm_tags_mem ON gm_memory_tags (user_id, memory_id)"))


log = logging.getLogger("goodmemory.storage")


def _v10(conn: Connection, fts: str) -> None:
    from .._meta import read_meta
    from ..models import MemoryRecord

    last, unread = "", []
    while True:
        rows = conn.execute(text("SELECT id, data FROM gm_memories WHERE id > :last ORDER BY id LIMIT 1000"),
                            {"last": last}).all()
        if not rows:
            break
        last = rows[-1][0]
        changed = []
        for mid, data in rows:
            try:
                rec = MemoryRecord.model_validate_json(data)
            except ValueError:  # not a record this version reads: left for the adapter to report, never rewritten
                unread.append(f"{mid} (the record)")
                continue
            meta = read_meta(rec.metadata)
            if meta.unreadable:
                unread.append(f"{mid} ({', '.join(sorted(meta.unreadable))})")
            typed = meta.dump()
            if typed != rec.metadata:  # rows already canonical keep their bytes
                rec.metadata = typed
                changed.append({"id": mid, "data": rec.model_dump_json()})
        if changed:
            conn.execute(text("UPDATE gm_memories SET data = :data WHERE id = :id"), changed)
    if unread:
        log.warning("schema v10: %d memories keep metadata values that are not readable as their type; they are left "
                    "as stored and read as absent: %s", len(unread), "; ".join(unread[:50]))


def _v11(conn: Connection, fts: str) -> None:
    conn.execute(text("CREATE INDEX IF NOT EXISTS gm_mem_user_kind_domain "
                      "ON gm_memories (user_id, kind, domain, status, created_at, id)"))


Migration = Callable[[Connection, str], None]
MIGRATIONS: list[tuple[int, str, Migration]] = [
    (1, "initial schema: memories, vectors, events, tombstones, full-text", _v1),
    (2, "indexes: memories by (user, created_at, id), tombstones by user hash", _v2),
    (3, "PostgreSQL: vectors hash-partitioned by user, one HNSW index per partition", _v3),
    (4, "index: memories by (user, kind, status, created_at)", _v4),
    (5, "PostgreSQL: the full-text index holds word stems", _v5),
    (6, "index: memories by (user, session_id)", _v6),
    (7, "SQLite: full-text rows keyed by a hash of the memory id", _v7),
    (8, "partial index: memories that are not raw turns by (user, status, created_at, id)", _v8),
    (9, "tags: gm_memory_tags by (user, tag, memory) and by (user, memory)", _v9),
    (10, "typed metadata: shared metadata keys in the canonical form of MemoryMeta", _v10),
    (11, "index: memories by (user, kind, domain, status, created_at, id)", _v11),
]
SCHEMA_VERSION = MIGRATIONS[-1][0]

# pg_advisory_xact_lock key that serializes migrations (any 64-bit constant; "gm-migr" in ASCII).
_PG_MIGRATION_LOCK = 0x676D2D6D69677200


def current_version(conn: Connection) -> int:
    if conn.dialect.name == "postgresql":
        has_meta = conn.execute(text("SELECT to_regclass('gm_meta')")).scalar() is not None
    else:
        has_meta = conn.execute(
            text("SELECT name FROM sqlite_master WHERE type='table' AND name='gm_meta'")
        ).first() is not None
    if not has_meta:
        return 0
    row = conn.execute(text("SELECT value FROM gm_meta WHERE name='schema_version'")).first()
    if row is None:
        return 0
    try:
        return int(row[0])
    except (TypeError, ValueError):
        raise SchemaVersionError(
            f"this database's schema_version is {row[0]!r}, not a number: it is not a GoodMemory database or "
            "it was damaged; restore it from a backup") from None


def migrate(conn: Connection, fts: str, *, target: int | None = None) -> int:
    """Bring the schema to ``target`` (default ``SCHEMA_VERSION``); returns the version found before.

    ``target`` below the latest version exists for tests that build an old database.
    """
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_MIGRATION_LOCK})
    target = SCHEMA_VERSION if target is None else target
    found = current_version(conn)
    if found > SCHEMA_VERSION:
        raise SchemaVersionError(
            f"this database has schema version {found}, but this GoodMemory understands up to "
            f"{SCHEMA_VERSION}: upgrade goodmemory (pip install -U goodmemory)"
        )
    fresh = found == 0 and conn.dialect.name == "sqlite"
    script = _FRESH_SQLITE.get((fts, target)) if fresh else None
    if script is not None:
        for statement, params in script:
            conn.exec_driver_sql(statement, params)
        return found
    captured: list[tuple[str, Any, bool]] = []

    def capture(_c: Any, _cur: Any, statement: str, params: Any, _ctx: Any, many: bool) -> None:
        captured.append((statement, params, many))

    if fresh:
        event.listen(conn, "after_cursor_execute", capture)
    try:
        for version, _name, step in MIGRATIONS:
            if found < version <= target:
                step(conn, fts)
                conn.execute(
                    text(
                        "INSERT INTO gm_meta(name, value) VALUES('schema_version', :v) "
                        "ON CONFLICT(name) DO UPDATE SET value = excluded.value"
                    ),
                    {"v": str(version)},
                )
    finally:
        if fresh:
            event.remove(conn, "after_cursor_execute", capture)
    if fresh and not any(many for _s, _p, many in captured):
        _FRESH_SQLITE[(fts, target)] = [(st, tuple(p) if isinstance(p, list) else p) for st, p, _m in captured]
    return found


# A new SQLite file gets the same statements every time: the first full migration of the process records the SQL
# that succeeded (every step is plain DDL and the version rows, nothing per store: the store key is made after
# migrating), and the next new files replay it without compiling each statement again (an instance per tenant
# or request on a new file paid ~15 ms of schema creation). Keyed by (full-text flavour, target version).
_FRESH_SQLITE: dict[tuple[str, int], list[tuple[str, Any]]] = {}
