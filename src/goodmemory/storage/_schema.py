"""Tables and versioned migrations of the SQL adapter.

The schema version lives in ``gm_meta``. Opening an older database applies the
missing steps in one transaction; opening a newer one raises
``SchemaVersionError``. Each step is plain SQL per dialect capability, so a
new step is a new entry at the end of ``MIGRATIONS``.
"""

from __future__ import annotations

from collections.abc import Callable

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
    text,
)

from ..errors import SchemaVersionError

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "events", "memories", "metadata", "migrate", "tombstones", "vectors"]

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

meta = Table(
    "gm_meta",
    metadata,
    Column("name", String(64), primary_key=True),
    Column("value", String(255), nullable=False),
)

_ = Float  # reserved for later numeric columns


def _v1(conn: Connection, fts: str) -> None:
    metadata.create_all(conn)
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
                "memory_id UNINDEXED, user_id UNINDEXED, body, tokenize='unicode61 remove_diacritics 2')"
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


Migration = Callable[[Connection, str], None]
MIGRATIONS: list[tuple[int, str, Migration]] = [
    (1, "initial schema: memories, vectors, events, tombstones, full-text", _v1),
]
SCHEMA_VERSION = MIGRATIONS[-1][0]


def current_version(conn: Connection) -> int:
    has_meta = conn.execute(
        text("SELECT name FROM sqlite_master WHERE type='table' AND name='gm_meta'")
    ).first()
    if not has_meta:
        return 0
    row = conn.execute(text("SELECT value FROM gm_meta WHERE name='schema_version'")).first()
    return int(row[0]) if row else 0


def migrate(conn: Connection, fts: str) -> int:
    """Bring the schema to ``SCHEMA_VERSION``; returns the version found before."""
    found = current_version(conn)
    if found > SCHEMA_VERSION:
        raise SchemaVersionError(
            f"this database has schema version {found}, but this GoodMemory understands up to "
            f"{SCHEMA_VERSION}: upgrade goodmemory (pip install -U goodmemory)"
        )
    for version, _name, step in MIGRATIONS:
        if version > found:
            step(conn, fts)
            conn.execute(
                text(
                    "INSERT INTO gm_meta(name, value) VALUES('schema_version', :v) "
                    "ON CONFLICT(name) DO UPDATE SET value = excluded.value"
                ),
                {"v": str(version)},
            )
    return found
